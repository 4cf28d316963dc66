"""The game review's cost (issue 24): CPU for a whole game, and how precisely it measures.

Each game is a whole 11-hand Pay Me game (3 players against greedy bots) where you play the
strongest bot's move but a random legal move about a third of the time, so a dozen or
more decisions differ from the bot's and are measured.  Each game is reviewed in a fresh
process (``payme.analysis.review.review_game``, as the Play page and ``payme review`` call
it), its CPU time taken there (``time.process_time``: the machine is shared).

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
start = time.process_time()
from payme.analysis.review import review_game
review = review_game(rules, 3, ("greedy", "greedy"), seed, moves)
cpu = time.process_time() - start
rows = [
    {"deals": d.measured.deals, "error": d.measured.error, "exact": d.measured.exact,
     "reached": d.measured.reached}
    for d in review.decisions if d.measured is not None
]
print(json.dumps({"cpu": cpu, "decisions": len(review.decisions), "measured": rows}))
"""


def _review(rules: str, seed: int) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, rules, str(seed)],
        capture_output=True, text=True, check=True, timeout=900,
    )  # fmt: skip
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def run() -> str:
    seeds = [int(s) for s in os.environ.get("BENCH_REVIEW_SEEDS", "1,2,3").split(",")]
    rules = os.environ.get("BENCH_REVIEW_RULES", "denexa")
    lines = heading("Game review", ".venv/bin/python -m benchmarks review")
    lines += [
        "",
        f"Whole 11-hand `{rules}` games, 3 players against greedy bots, you playing a random "
        "move a third of the time; each reviewed in a fresh process (CPU time there).",
        "",
        "| seed | decisions | measured | exact | sampled: ±0.5 reached | deals (median / most)"
        " | error reached (sampled) | review CPU |",
        "| ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |",
    ]
    total_cpu = 0.0
    reached = sampled = 0
    for seed in seeds:
        r = _review(rules, seed)
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
            f"±{min(errors):.2f} – ±{max(errors):.2f} | {cpu:.1f} s |"
        )
    lines += [
        "",
        f"Together: ±0.5 reached on {reached} of {sampled} sampled decisions; "
        f"{total_cpu / len(seeds):.1f} s CPU per game on average.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
