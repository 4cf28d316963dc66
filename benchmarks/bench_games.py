"""Pay Me games with bots: time per game for each bot, and how strong each bot is.

1. Time: full four-player ``denexa`` games (11 hands) with the same bot in every seat,
   seconds per game (median and slowest).  Targets: greedy ≤ 0.3 s, strong ≤ 2 s.
2. Strength: seeded four-player ``denexa`` games with one strong, two greedy and one random
   bot, the seats rotated game by game so no bot keeps a seat.  For each bot: the mean
   final total (lower is better) with its 95% confidence interval, and the paired
   differences strong − greedy and greedy − random (per game, each kind's mean over its
   seats) with their intervals.  Intervals are normal approximations (mean ± 1.96 s/√n).

3. Many greedy games in one process: ``BENCH_GAMES_GREEDY`` four-player ``denexa`` games
   (default 1000) with greedy bots in every seat, their CPU seconds in all (target ≤ 9 s),
   played in chunks, each in a fresh process after one untimed game.  With
   ``BENCH_GAMES_BASE`` set to a checkout of another commit (e.g. ``git worktree add
   /tmp/base main``, its compiled core built or copied in), the same games are played there
   too, chunk by chunk in turn with this checkout's so both see the same machine load, and
   the table says whether every game ended the same in both.

Run::

    .venv/bin/python -m benchmarks games          # or: .venv/bin/python -m benchmarks.bench_games

``BENCH_GAMES_N`` sets the strength games (default 1000), ``BENCH_GAMES_TIMED`` the timed
games per bot (default 5) and ``BENCH_GAMES_WORKERS`` the processes (default 2).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from multiprocessing import get_context
from pathlib import Path

from benchmarks.report import commit, heading, interval, mean_total_rows
from payme.game import BOT_NAMES, play_game

GAMES = int(os.environ.get("BENCH_GAMES_N", "1000"))
TIMED = int(os.environ.get("BENCH_GAMES_TIMED", "5"))
WORKERS = int(os.environ.get("BENCH_GAMES_WORKERS", "2"))
GREEDY = int(os.environ.get("BENCH_GAMES_GREEDY", "1000"))
BASE = os.environ.get("BENCH_GAMES_BASE", "")
CHUNKS = 4
"""The greedy games are played in this many chunks on each side, alternating."""
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
    # The kinds of bot the lineup seats (BOT_NAMES also holds bots it leaves out).
    per_kind: dict[str, list[float]] = {name: [] for name in BOT_NAMES if name in LINEUP}
    for bots, totals, _ in played:
        for name in per_kind:
            mine = [t for b, t in zip(bots, totals, strict=True) if b == name]
            per_kind[name].append(statistics.fmean(mine))
    return per_kind


# Run in a fresh process of either checkout: only the public API, so any commit runs it.
_CHUNK = """
import hashlib, sys, time
from payme.game import play_game
first, count = int(sys.argv[1]), int(sys.argv[2])
play_game("denexa", 4, ("greedy",), seed=1)  # untimed: the first call's set-up
digest = hashlib.sha256()
started = time.process_time()
for game in range(first, first + count):
    digest.update(repr(play_game("denexa", 4, ("greedy",), seed=game).totals).encode())
print(time.process_time() - started, digest.hexdigest())
"""


def _chunk(checkout: Path, first: int, count: int) -> tuple[float, str]:
    """CPU seconds of ``count`` greedy games from seed ``first`` played in a fresh process
    of ``checkout``, and a digest of their final totals."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, "-c", _CHUNK, str(first), str(count)],
        cwd=checkout, env=env, capture_output=True, text=True, check=True, timeout=1200,
    )  # fmt: skip
    cpu, digest = done.stdout.split()
    return float(cpu), digest


def greedy_rows(games: int = GREEDY, base: str = BASE) -> list[str]:
    """The table of many greedy games in one process, this checkout's (and ``base``'s)."""
    here = Path(__file__).resolve().parent.parent
    sides = [(f"this commit ({commit()})", here)]
    if base:
        sides.append((f"base ({commit(base)})", Path(base)))
    cpu = {name: 0.0 for name, _ in sides}
    digests: dict[str, list[str]] = {name: [] for name, _ in sides}
    size = -(-games // CHUNKS)
    loads = [os.getloadavg()[0]]
    for k in range(CHUNKS):
        first = SEED + 200_000 + k * size
        count = min(size, games - k * size)
        for name, checkout in sides if k % 2 == 0 else sides[::-1]:
            seconds, digest = _chunk(checkout, first, count)
            cpu[name] += seconds
            digests[name].append(digest)
        loads.append(os.getloadavg()[0])
    lines = [
        "",
        f"### {games:,} greedy four-player denexa games in one process (target ≤ 9 s CPU)",
        "",
        f"In {CHUNKS} chunks, each a fresh process after one untimed game"
        + (", the two checkouts' chunks in turn" if base else "")
        + f"; load average (1 min) {min(loads):.1f}–{max(loads):.1f} during the run.",
        "",
        "| checkout | games | CPU s | CPU ms/game |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, _ in sides:
        lines.append(f"| {name} | {games:,} | {cpu[name]:.2f} | {1000 * cpu[name] / games:.2f} |")
    if base:
        same = digests[sides[0][0]] == digests[sides[1][0]]
        lines += ["", f"Every game ended the same in both checkouts: {'yes' if same else 'NO'}."]
    return lines


def run() -> str:
    """Run the benchmark and return its Markdown section."""
    lines = [
        *heading(
            "Pay Me games with bots",
            f"BENCH_GAMES_N={GAMES} BENCH_GAMES_TIMED={TIMED} BENCH_GAMES_WORKERS={WORKERS} "
            f"BENCH_GAMES_GREEDY={GREEDY}"
            + (f" BENCH_GAMES_BASE={BASE}" if BASE else "")
            + " .venv/bin/python -m benchmarks games",
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
    if GREEDY:
        lines += greedy_rows()
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
        *mean_total_rows(per_kind, per_kind),
    ]
    lines += ["", "| paired difference per game | mean | 95% interval |", "| --- | ---: | --- |"]
    for a, b in (("strong", "greedy"), ("greedy", "random"), ("strong", "random")):
        diff = [x - y for x, y in zip(per_kind[a], per_kind[b], strict=True)]
        mean, half = interval(diff)
        lines.append(f"| {a} − {b} | {mean:.1f} | {mean - half:.1f} – {mean + half:.1f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run())
