"""Rummy 3-Pack games with bots: time per game for each bot, and how often each one wins.

1. Time: three-player games (7 cards dealt, no optional cards) with the same bot in every
   seat, CPU seconds per game (median and slowest).
2. Strength: seeded three-player games with one random, one greedy and one strong bot, the
   seats rotated game by game so each bot sits in every seat equally often.  For each bot:
   its win rate (a game can have up to three winners, so the rates need not add up to 1)
   with a 95% Wilson interval, how its wins came about, and the paired differences of win
   rates (per game, 1 if the bot won; a normal interval on the per-game differences).

Run::

    .venv/bin/python -m benchmarks three_pack --doc docs/bots-three-pack.md
    .venv/bin/python -m benchmarks three_pack      # the section in docs/benchmarks.md

``BENCH_3PACK_N`` sets the strength games (default 1000), ``BENCH_3PACK_TIMED`` the timed
games per bot (default 10) and ``BENCH_3PACK_WORKERS`` the processes (default 2).
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections import Counter
from multiprocessing import get_context

from benchmarks.report import heading
from payme.game.three_pack import play_three_pack

GAMES = int(os.environ.get("BENCH_3PACK_N", "1000"))
TIMED = int(os.environ.get("BENCH_3PACK_TIMED", "10"))
WORKERS = int(os.environ.get("BENCH_3PACK_WORKERS", "2"))
SEED = 3_2026
LINEUP = ("random", "greedy", "strong")
DEALT = 7


def seating(game: int) -> tuple[str, ...]:
    """The lineup rotated by the game number: each bot sits in every seat in turn."""
    k = game % len(LINEUP)
    return LINEUP[k:] + LINEUP[:k]


def _one_game(game: int) -> tuple[tuple[str, ...], tuple[str, ...], float]:
    bots = seating(game)
    started = time.process_time()
    g = play_three_pack("three_pack", len(bots), bots, seed=SEED + game, dealt=DEALT)
    hows = tuple(row["how"] for row in g.results())
    return bots, hows, time.process_time() - started


def _timed(bot: str) -> list[float]:
    times = []
    for k in range(TIMED):
        started = time.process_time()
        play_three_pack("three_pack", 3, (bot,), seed=SEED + 100_000 + k, dealt=DEALT)
        times.append(time.process_time() - started)
    return times


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def strength(
    games: int = GAMES, workers: int = WORKERS
) -> list[tuple[tuple[str, ...], tuple[str, ...], float]]:
    """Every game's lineup (by seat), each seat's way of winning ("" if not) and CPU time."""
    if workers <= 1:
        return [_one_game(g) for g in range(games)]
    with get_context("spawn").Pool(workers) as pool:
        return pool.map(_one_game, range(games), chunksize=10)


def run() -> str:
    """Run the benchmark and return its Markdown section."""
    wall = time.perf_counter()
    lines = [
        *heading(
            "Rummy 3-Pack games with bots",
            f"BENCH_3PACK_N={GAMES} BENCH_3PACK_TIMED={TIMED} BENCH_3PACK_WORKERS={WORKERS} "
            ".venv/bin/python -m benchmarks three_pack",
        ),
        "The machine is shared with other work: times are noisy (CPU seconds, not wall).",
        "",
        f"### CPU time per three-player game ({DEALT} cards dealt), same bot in every seat",
        "",
        "| bot | games | median s/game | slowest s/game |",
        "| --- | ---: | ---: | ---: |",
    ]
    for bot in LINEUP:
        times = _timed(bot)
        lines.append(
            f"| {bot} | {len(times)} | {statistics.median(times):.3f} | {max(times):.3f} |"
        )
    played = strength()
    n = len(played)
    won: dict[str, list[int]] = {b: [] for b in LINEUP}
    how: dict[str, Counter[str]] = {b: Counter() for b in LINEUP}
    winners_per_game: Counter[int] = Counter()
    for bots, hows, _ in played:
        winners_per_game[sum(1 for h in hows if h)] += 1
        for bot, h in zip(bots, hows, strict=True):
            won[bot].append(1 if h else 0)
            if h:
                how[bot][h] += 1
    cpu = statistics.fmean(t for _, _, t in played)
    lines += [
        "",
        f"### Win rates: {n:,} three-player games, one of each bot, seats rotated",
        "",
        f"Seeds {SEED}…{SEED + n - 1}; {DEALT} cards dealt; no optional cards or variations. "
        f"Mean CPU time {cpu:.3f} s per game.",
        "",
        "| bot | wins | win rate | 95% interval (Wilson) | went out | rummy card | both rummy |",
        "| --- | ---: | ---: | --- | ---: | ---: | ---: |",
    ]
    for bot in sorted(LINEUP, key=lambda b: -sum(won[b])):
        w = sum(won[bot])
        lo, hi = wilson(w, n)
        lines.append(
            f"| {bot} | {w} | {w / n:.3f} | {lo:.3f} – {hi:.3f} | {how[bot]['went out']} "
            f"| {how[bot]['rummy card']} | {how[bot]['both rummy']} |"
        )
    lines += [
        "",
        "| paired difference of win rates | mean | 95% interval |",
        "| --- | ---: | --- |",
    ]
    for a, b in (("strong", "greedy"), ("greedy", "random"), ("strong", "random")):
        diff = [x - y for x, y in zip(won[a], won[b], strict=True)]
        mean = statistics.fmean(diff)
        half = 1.96 * statistics.stdev(diff) / math.sqrt(n) if n > 1 else 0.0
        lines.append(f"| {a} − {b} | {mean:+.3f} | {mean - half:+.3f} – {mean + half:+.3f} |")
    spread = ", ".join(
        f"{k} winner{'s' if k != 1 else ''}: {v}" for k, v in sorted(winners_per_game.items())
    )
    lines += [
        "",
        f"Winners per game — {spread}. Wall time for the whole benchmark "
        f"{time.perf_counter() - wall:.0f} s.",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run())
