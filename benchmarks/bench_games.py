"""Pay Me games with bots: time per game for each bot, and how strong each bot is.

1. Time: full four-player ``denexa`` games (11 hands) with the same bot in every seat,
   seconds per game (median and slowest).  Targets: greedy ≤ 0.3 s, strong ≤ 2 s.
2. Strength: seeded four-player ``denexa`` games with one strong, two greedy and one random
   bot, the seats rotated game by game so no bot keeps a seat.  For each bot: the mean
   final total (lower is better) with its 95% confidence interval, and the paired
   differences strong − greedy and greedy − random (per game, each kind's mean over its
   seats) with their intervals.  Intervals are normal approximations (mean ± 1.96 s/√n).

Run::

    .venv/bin/python -m benchmarks games          # or: .venv/bin/python -m benchmarks.bench_games

``BENCH_GAMES_N`` sets the strength games (default 1000), ``BENCH_GAMES_TIMED`` the timed
games per bot (default 5) and ``BENCH_GAMES_WORKERS`` the processes (default 2).
"""

from __future__ import annotations

import os
import statistics
import time
from multiprocessing import get_context

from benchmarks.report import heading, interval, mean_total_rows
from payme.game import BOT_NAMES, play_game

GAMES = int(os.environ.get("BENCH_GAMES_N", "1000"))
TIMED = int(os.environ.get("BENCH_GAMES_TIMED", "5"))
WORKERS = int(os.environ.get("BENCH_GAMES_WORKERS", "2"))
SEED = 2026
LINEUP = ("strong", "greedy", "random", "greedy")


def seating(game: int) -> tuple[str, ...]:
    """The lineup rotated by the game number: each bot sits in every seat in turn."""
    k = game % len(LINEUP)
    return LINEUP[k:] + LINEUP[:k]


def _one_game(game: int) -> tuple[tuple[str, ...], tuple[int, ...], float]:
    bots = seating(game)
    started = time.process_time()
    g = play_game("denexa", 4, bots, seed=SEED + game)
    return bots, tuple(g.totals), time.process_time() - started


def _timed(bot: str) -> list[tuple[float, float]]:
    """Wall and CPU seconds of each timed game with ``bot`` in every seat."""
    times = []
    for k in range(TIMED):
        wall, cpu = time.perf_counter(), time.process_time()
        play_game("denexa", 4, (bot,) * 4, seed=SEED + 100_000 + k)
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def strength(games: int = GAMES, workers: int = WORKERS) -> dict[str, list[float]]:
    """Per game, each bot kind's mean final total over its seats."""
    with get_context("spawn").Pool(workers) as pool:
        played = pool.map(_one_game, range(games), chunksize=8)
    per_kind: dict[str, list[float]] = {name: [] for name in BOT_NAMES}
    for bots, totals, _ in played:
        for name in BOT_NAMES:
            mine = [t for b, t in zip(bots, totals, strict=True) if b == name]
            per_kind[name].append(statistics.fmean(mine))
    return per_kind


def run() -> str:
    """Run the benchmark and return its Markdown section."""
    lines = [
        *heading(
            "Pay Me games with bots",
            f"BENCH_GAMES_N={GAMES} BENCH_GAMES_TIMED={TIMED} BENCH_GAMES_WORKERS={WORKERS} "
            ".venv/bin/python -m benchmarks games",
        ),
        "The machine is shared with other work: times are noisy upper bounds.",
        "",
        "### Time per full four-player denexa game (11 hands), same bot in every seat",
        "",
        "| bot | games | median wall s/game | median CPU s/game | slowest CPU s/game | target |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    targets = {"greedy": "≤ 0.3 s", "strong": "≤ 2 s"}
    for bot in BOT_NAMES:
        times = _timed(bot)
        walls, cpus = [w for w, _ in times], [c for _, c in times]
        lines.append(
            f"| {bot} | {len(times)} | {statistics.median(walls):.3f} "
            f"| {statistics.median(cpus):.3f} | {max(cpus):.3f} | {targets.get(bot, '—')} |"
        )
    lines.append("")
    lines.append(
        "CPU seconds are what one free core would take; wall seconds include waiting for a "
        "busy machine.  All-random games rarely see anyone go out once hands are large; those "
        "hands end at the bots' safety turn limit (a hand with no declarer), which is what "
        "their time measures."
    )
    if GAMES < 2:
        return "\n".join(lines) + "\n"
    per_kind = strength()
    n = len(per_kind["strong"])
    lines += [
        "",
        f"### Strength: {n:,} four-player denexa games, lineup {', '.join(LINEUP)} rotated",
        "",
        "Mean final total after 11 hands (lower is better), with 95% confidence intervals.",
        "",
        *mean_total_rows(per_kind, BOT_NAMES),
    ]
    lines += ["", "| paired difference per game | mean | 95% interval |", "| --- | ---: | --- |"]
    for a, b in (("strong", "greedy"), ("greedy", "random"), ("strong", "random")):
        diff = [x - y for x, y in zip(per_kind[a], per_kind[b], strict=True)]
        mean, half = interval(diff)
        lines.append(f"| {a} − {b} | {mean:.1f} | {mean - half:.1f} – {mean + half:.1f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run())
