"""The game review's cost (issue 24): CPU for a whole game, and how precisely it measures.

Each game is a whole 11-hand Pay Me game (3 players against greedy bots) where you play the
strongest bot's move but a random legal move about a third of the time, so a dozen or
more decisions differ from the bot's and are measured.  Each game is reviewed in a fresh
process (``payme.analysis.review.review_game``, as ``payme review`` calls it, the deals
spread over the worker processes of :mod:`payme.analysis.workers`: ``BENCH_REVIEW_WORKERS``,
default every core), its CPU time taken there and in the workers (the machine is shared)
and its wall time.

For each review: the decisions, those measured (your move unlike the bot's), those exact,
the sampled ones whose cost was measured to ±0.5 point (the 95% half-width the yardstick
aims at), the deals used and the error reached.  ``BENCH_REVIEW_SEEDS`` (comma-separated)
and ``BENCH_REVIEW_RULES`` choose the games.  Run::

    .venv/bin/python -m benchmarks review
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

from benchmarks.report import heading

CHILD = r"""
import json, random, sys, time
from payme.play.session import PlaySession
rules, seed = sys.argv[1], int(sys.argv[2])
session = PlaySession(rules, 3, ("greedy",), seed)
rng = random.Random(seed)
while not session.over:
    if session.hand_over:
        session.next_hand()
        continue
    legal = session.legal()
    move = session.advice()
    session.act(rng.choice(legal) if rng.random() < 0.35 else move)
moves = session.moves
from payme.analysis import workers
from payme.analysis.review import review_game
count = int(sys.argv[3])
if count > 1:
    workers.pool(count).submit(int, 0).result()  # the workers started (not timed)
def worker_cpu():
    import os
    pool = workers._pool
    ticks = 0
    for pid in (pool._processes if pool is not None else {}):
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")
start, wall, before = time.process_time(), time.perf_counter(), worker_cpu()
review = review_game(rules, 3, ("greedy", "greedy"), seed, moves, workers=count)
cpu = time.process_time() - start + worker_cpu() - before
wall = time.perf_counter() - wall
rows = [
    {"deals": d.measured.deals, "error": d.measured.error, "exact": d.measured.exact,
     "reached": d.measured.reached}
    for d in review.decisions if d.measured is not None
]
print(json.dumps({"cpu": cpu, "wall": wall, "decisions": len(review.decisions), "measured": rows}))
"""


def _review(rules: str, seed: int, workers: int) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, rules, str(seed), str(workers)],
        capture_output=True, text=True, check=True, timeout=900,
    )  # fmt: skip
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def run() -> str:
    from payme.analysis.workers import workers as default_workers

    seeds = [int(s) for s in os.environ.get("BENCH_REVIEW_SEEDS", "1,2,3").split(",")]
    rules = os.environ.get("BENCH_REVIEW_RULES", "denexa")
    count = int(os.environ.get("BENCH_REVIEW_WORKERS", "0")) or default_workers()
    load = os.getloadavg()[0]
    lines = heading("Game review", ".venv/bin/python -m benchmarks review")
    lines += [
        "",
        f"Whole 11-hand `{rules}` games, 3 players against greedy bots, you playing a random "
        "move a third of the time; each reviewed in a fresh process with the deals spread "
        f"over {count} worker process{'es' if count > 1 else ''} (CPU time: the reviewing "
        f"process's and its workers'; wall time beside it; load average {load:.1f} at the "
        "start).",
        "",
        "| seed | decisions | measured | exact | sampled: ±0.5 reached | deals (median / most)"
        " | error reached (sampled) | review CPU | wall |",
        "| ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |",
    ]
    total_cpu = 0.0
    reached = sampled = 0
    for seed in seeds:
        r = _review(rules, seed, count)
        rows = r["measured"]
        assert isinstance(rows, list)
        samp = [x for x in rows if not x["exact"]]
        ok = sum(1 for x in samp if x["reached"])
        deals = [x["deals"] for x in samp] or [0]
        errors = [x["error"] for x in samp] or [0.0]
        cpu = float(r["cpu"])  # type: ignore[arg-type]
        total_cpu += cpu
        reached += ok
        sampled += len(samp)
        lines.append(
            f"| {seed} | {r['decisions']} | {len(rows)} | {len(rows) - len(samp)} | "
            f"{ok} of {len(samp)} | {statistics.median(deals):g} / {max(deals)} | "
            f"±{min(errors):.2f} – ±{max(errors):.2f} | {cpu:.1f} s | "
            f"{float(r['wall']):.1f} s |"  # type: ignore[arg-type]
        )
    lines += [
        "",
        f"Together: ±0.5 reached on {reached} of {sampled} sampled decisions; "
        f"{total_cpu / len(seeds):.1f} s CPU per game on average.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
