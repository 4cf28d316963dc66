"""Simulation throughput: 1,000 four-player ``denexa`` games on 2 worker processes.

Two seatings: four greedy bots, and the standard mix (strong, greedy, random, greedy).
For each: wall time, games per second, and seconds of one core per game; for the mix also
each bot's mean final total with its 95% interval, from the same games::

    .venv/bin/python -m benchmarks simulate     # or: .venv/bin/python -m benchmarks.bench_simulate

``BENCH_SIMULATE_GAMES`` sets the games per seating (default 1000),
``BENCH_SIMULATE_WORKERS`` the processes (default 2) and ``BENCH_SIMULATE_SEATINGS`` which
seatings run (``greedy,mix`` by default).  Each table row also goes to stderr as soon as it
is measured, so a long run shows its progress.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime

from benchmarks.report import commit, machine
from payme.analysis.simulate import STANDARD_MIX, simulate
from payme.analysis.stats import bot_strength

GAMES = int(os.environ.get("BENCH_SIMULATE_GAMES", "1000"))
WORKERS = int(os.environ.get("BENCH_SIMULATE_WORKERS", "2"))
SEED = 2026
SEATINGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "greedy": ("greedy ×4", ("greedy",) * 4),
    "mix": ("standard mix: strong, greedy, random, greedy", STANDARD_MIX),
}
CHOSEN = [s.strip() for s in os.environ.get("BENCH_SIMULATE_SEATINGS", "greedy,mix").split(",")]


def run() -> str:
    """Run the benchmark and return its Markdown section."""
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## Simulation: {GAMES:,} four-player denexa games on {WORKERS} cores",
        "",
        f"Measured {started} at commit {commit()} on {machine()}.",
        f"Command: `BENCH_SIMULATE_GAMES={GAMES} BENCH_SIMULATE_WORKERS={WORKERS} "
        + ("" if CHOSEN == ["greedy", "mix"] else f"BENCH_SIMULATE_SEATINGS={','.join(CHOSEN)} ")
        + f".venv/bin/python -m benchmarks simulate` (seed {SEED}).",
        "The machine is shared with other work, so wall times are noisy upper bounds; the CPU",
        "time the workers used per game is steadier, and the last column is what it gives",
        f"on {WORKERS} free cores.",
        "",
        "| bots | games | workers | wall time | games/s | core-seconds per game "
        f"| games/s on {WORKERS} free cores |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    mix_frame = None
    verdicts: list[str] = []
    unknown = [name for name in CHOSEN if name not in SEATINGS]
    if unknown:
        raise ValueError(f"BENCH_SIMULATE_SEATINGS: unknown {unknown}; choose from greedy, mix")
    for label, bots in (SEATINGS[name] for name in CHOSEN):
        t0 = time.perf_counter()
        cpu0 = _children_cpu()
        df = simulate(games=GAMES, rules="denexa", players=4, bots=bots, seed=SEED,
                      workers=WORKERS, progress=False)  # fmt: skip
        wall = time.perf_counter() - t0
        cpu = _children_cpu() - cpu0
        per_game = f"{cpu / GAMES:.3f}" if cpu > 0 else "n/a"
        free = f"{WORKERS * GAMES / cpu:.2f}" if cpu > 0 else "n/a"
        lines.append(
            f"| {label} | {GAMES} | {WORKERS} | {wall:.1f} s | "
            f"{GAMES / wall:.2f} | {per_game} | {free} |"
        )
        print(lines[-1], file=sys.stderr, flush=True)
        if bots == SEATINGS["greedy"][1] and cpu > 0:
            free = cpu / WORKERS * 1000 / GAMES
            verdicts.append(
                f"1,000 greedy games on {WORKERS} cores (scaled from the {GAMES:,} played): "
                f"{wall * 1000 / GAMES:.1f} s of wall time here; {free:.1f} s on {WORKERS} "
                f"free cores by the CPU time (target ≤ 10 s of wall time) — "
                f"{'met' if free <= 10 else '**not met**'}."
            )
        if bots == STANDARD_MIX:
            mix_frame = df
    if verdicts:
        lines += ["", *verdicts]
    if mix_frame is not None:
        lines += [
            "",
            "Bot strength in the standard-mix games (final total, lower is better; 95% "
            "intervals over games, a bot seated twice averaged per game):",
            "",
            "| bot | games | mean final total | 95% interval | win rate | 95% interval |",
            "| --- | ---: | ---: | --- | ---: | --- |",
        ]
        for bot, row in bot_strength(mix_frame).iterrows():
            lines.append(
                f"| {bot} | {int(row['games'])} | {row['mean_total']:.1f} | "
                f"{row['total_low']:.1f}–{row['total_high']:.1f} | {row['win_rate']:.1%} | "
                f"{row['win_low']:.1%}–{row['win_high']:.1%} |"
            )
    return "\n".join(lines) + "\n"


def _children_cpu() -> float:
    """CPU seconds used so far by this process and its finished worker processes."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


if __name__ == "__main__":
    print(run())
