"""Simulation throughput: 1,000 four-player ``denexa`` games on 2 worker processes.

Two seatings: four greedy bots, and the standard mix (strong, greedy, random, greedy).
For each: wall time, games per second, and seconds of one core per game; for the mix also
each bot's mean final total with its 95% interval, from the same games::

    .venv/bin/python -m benchmarks simulate     # or: .venv/bin/python -m benchmarks.bench_simulate

Then the Analysis page's default run (20 three-player denexa games: strong, greedy and
random bots, seed 7), as the page makes it: in a fresh process that has built the page and
done its warm-up imports (what a visitor's kernel holds by the time they click), the Run
button's work timed whole (``AnalysisPage.run``: ``simulate`` choosing its own worker
processes, then the tables and plots), wall clock and the CPU time of the process and its
workers; ``BENCH_SIMULATE_PAGE_RUNS`` fresh processes (default 5), their median judged
against the target (<= 1 s of wall time).

``BENCH_SIMULATE_GAMES`` sets the games per seating (default 1000),
``BENCH_SIMULATE_WORKERS`` the processes (default 2) and ``BENCH_SIMULATE_SEATINGS`` which
seatings run (``greedy,mix`` by default; ``none`` for only the Analysis run).  Each table
row also goes to stderr as soon as it is measured, so a long run shows its progress.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
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
CHOSEN = [
    s.strip()
    for s in os.environ.get("BENCH_SIMULATE_SEATINGS", "greedy,mix").split(",")
    if s.strip() not in ("", "none")
]
PAGE_RUNS = int(os.environ.get("BENCH_SIMULATE_PAGE_RUNS", "5"))
PAGE_TARGET_S = 1.0


def run() -> str:
    """Run the benchmark and return its Markdown section."""
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## Simulation: {GAMES:,} four-player denexa games on {WORKERS} cores",
        "",
        f"Measured {started} at commit {commit()} on {machine()}.",
        f"Command: `BENCH_SIMULATE_GAMES={GAMES} BENCH_SIMULATE_WORKERS={WORKERS} "
        + ("" if CHOSEN == ["greedy", "mix"] else
           f"BENCH_SIMULATE_SEATINGS={','.join(CHOSEN) or 'none'} ")
        + f"BENCH_SIMULATE_PAGE_RUNS={PAGE_RUNS} "
        + f".venv/bin/python -m benchmarks simulate` (seed {SEED}).",
        "The machine is shared with other work, so wall times are noisy upper bounds; the CPU",
        "time the workers used per game is steadier, and the last column is what it gives",
        f"on {WORKERS} free cores.",
    ]  # fmt: skip
    if CHOSEN:
        lines += [
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
    lines += ["", *_page_section()]
    return "\n".join(lines) + "\n"


def page_run(games_only: bool = False) -> dict[str, float]:
    """The Analysis page's default run in this process, timed as a visitor's click: the
    page built and its warm-up imports done first (not timed), then its Run
    (``games_only``: only the ``simulate`` call the Run makes, without tables and plots)."""
    from payme.analysis.simulate import simulate
    from payme.widgets.analysis import AnalysisPage

    page = AnalysisPage()
    page.warm_up(background=False)
    settings = page.check_settings()
    if settings != ("denexa", 3, ["strong", "greedy", "random"], 20, 7):
        raise RuntimeError(f"the page's default settings changed: {settings}")
    cpu, wall = _children_cpu(), time.perf_counter()
    if games_only:
        rules, players, seats, games, seed = settings
        simulate(games, rules, players, seats, seed, progress=False)
    else:
        page.run()
        if page.message.kind != "ok":
            raise RuntimeError(f"the Analysis run did not finish: {page.message.text}")
    return {"wall": time.perf_counter() - wall, "cpu": _children_cpu() - cpu}


def _page_section() -> list[str]:
    """The Analysis page's default run in ``PAGE_RUNS`` fresh processes, whole and its
    games alone (alternating)."""
    runs: dict[str, list[dict[str, float]]] = {"--page": [], "--page-games": []}
    for _ in range(PAGE_RUNS):
        for flag, times in runs.items():
            done = subprocess.run(
                [sys.executable, "-m", "benchmarks.bench_simulate", flag],
                capture_output=True, text=True, check=True, timeout=600,
            )  # fmt: skip
            times.append(json.loads(done.stdout.splitlines()[-1]))
            print(f"Analysis default run {flag}: {times[-1]}", file=sys.stderr, flush=True)
    lines = [
        "The Analysis page's default run (20 three-player denexa games: strong, greedy, "
        "random; seed 7) as the page makes it: its Run in a fresh process that has built the "
        "page and done its warm-up imports, with worker processes as `simulate` chooses; "
        f"{PAGE_RUNS} fresh processes each way.",
        "",
        "| measure | median | fastest | slowest |",
        "| --- | ---: | ---: | ---: |",
    ]
    medians = {}
    for flag, label in (("--page", "whole Run (tables and plots included)"),
                        ("--page-games", "its games alone (the `simulate` call)")):  # fmt: skip
        walls = sorted(r["wall"] for r in runs[flag])
        cpus = sorted(r["cpu"] for r in runs[flag])
        medians[flag] = statistics.median(walls)
        lines += [
            f"| {label}, wall time | {medians[flag]:.2f} s | {walls[0]:.2f} s "
            f"| {walls[-1]:.2f} s |",
            f"| {label}, CPU time of the process and its workers | "
            f"{statistics.median(cpus):.2f} s | {cpus[0]:.2f} s | {cpus[-1]:.2f} s |",
        ]
    for flag, what in (("--page", "whole"), ("--page-games", "games alone")):
        wall = medians[flag]
        lines.append(
            f"\nAnalysis default run as the page makes it ({what}): {wall:.2f} s of wall time "
            f"(median; target ≤ {PAGE_TARGET_S:.0f} s, judged on a quiet machine) — "
            + ("met." if wall <= PAGE_TARGET_S else "**not met**.")
        )
    return lines


def _children_cpu() -> float:
    """CPU seconds used so far by this process and its finished worker processes."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


if __name__ == "__main__":
    if sys.argv[1:] in (["--page"], ["--page-games"]):
        print(json.dumps(page_run(games_only=sys.argv[1] == "--page-games")))
    else:
        print(run())
