"""Both solver cores through the public API, next to RLCard and OpenSpiel in the same run.

The rows of :mod:`benchmarks.bench_api` that exercise the solver (``denexa``: 14-card
``payme.evaluate`` from card strings; ``gin``: 10-card gin deadwood; ``gin_discard``:
11-card best discard), and two of a Pay Me turn's questions (``denexa_discard``: the best
discard of a 14-card denexa hand, the 13 dealt and the card drawn; ``denexa_out``: whether
it can go out), run twice, each in a fresh process: once with the compiled core and once
with ``PAYME_SOLVER=python``; the same hands, cold (the first calls of the process) and
warm apart.  RLCard and OpenSpiel answer the same gin hands in the compiled run's process.

    python -m benchmarks backends
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from datetime import UTC, datetime
from typing import Any

from benchmarks.bench_api import (
    COLD,
    SEED,
    WARM,
    _denexa_pack,
    _f,
    _hands,
    _machine,
    _stats,
    _timed,
)
from benchmarks.report import commit

ROWS = {
    "denexa": "`evaluate`, denexa 14 cards",
    "gin": "gin 10-card deadwood",
    "gin_discard": "gin 11-card best discard",
    "denexa_discard": "`best_discard`, denexa 14 cards (13 dealt)",
    "denexa_out": "`can_go_out`, denexa 14 cards (13 dealt)",
}
DENEXA_TARGET = 0.01
"""Milliseconds: issue 13's target for the compiled core's 14-card denexa median."""


def _row_turn(question: str) -> dict[str, Any]:
    """A Pay Me turn's question (``best_discard`` or ``can_go_out``) of random 14-card denexa
    hands from card strings, 13 dealt (kings wild), as a player asks it after drawing."""
    rng = random.Random(SEED + 2)
    texts = _hands(rng, COLD + WARM, 14, _denexa_pack())
    import payme

    ask = getattr(payme, question)  # the first use of a name imports its module
    _, cpu, wall = _timed(lambda s: ask(s, rules="denexa", dealt=13), texts)
    return {"payme": {"cpu": cpu, "wall": wall}}


TURN_ROWS = {"denexa_discard": "best_discard", "denexa_out": "can_go_out"}
"""This module's rows: the question each asks."""


def _fresh(row: str, backend: str) -> dict[str, Any]:
    env = dict(os.environ, PAYME_SOLVER=backend)
    call = (
        f"from benchmarks.bench_backends import _row_turn; r = _row_turn({TURN_ROWS[row]!r})"
        if row in TURN_ROWS
        else f"from benchmarks.bench_api import ROWS; r = ROWS[{row!r}]()"
    )
    code = (
        f"import json, sys, payme; {call}; r['backend'] = payme.solver_backend(); "
        "print(json.dumps(r))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def run() -> str:
    """Run each row with each core in a fresh process; the markdown section."""
    from benchmarks.bench_solver import _calibrate

    before = min(_calibrate() for _ in range(5))
    results = {(row, b): _fresh(row, b) for row in ROWS for b in ("compiled", "python")}
    after = min(_calibrate() for _ in range(5))
    ran = results[("denexa", "compiled")]["backend"]
    lines = [
        "## Both solver cores through the public API",
        "",
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC at commit {commit()} on {_machine()}. "
        "Command: `python -m benchmarks backends` (`make bench`). Each row runs in a fresh "
        f"process per core (`PAYME_SOLVER=compiled` / `python`); cold = the first {COLD} "
        f"calls, warm = the {WARM} after them; the same hands for both cores and for RLCard "
        "and OpenSpiel (which answer in the compiled run's process, inputs already converted).",
        f"Calibration: `sum(range(10**6))` took {before:.1f} ms of CPU time before and "
        f"{after:.1f} ms after (about 10 ms on an idle current desktop).",
        "",
        "CPU-time medians in milliseconds per call (p95 in brackets):",
        "",
        "| what | pure Python, cold | pure Python, warm | compiled, cold | compiled, warm "
        "| RLCard | OpenSpiel |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    verdicts: list[str] = []
    for row, what in ROWS.items():
        cells = [what]
        medians: dict[str, float] = {}
        for backend in ("python", "compiled"):
            cpu = results[(row, backend)]["payme"]["cpu"]
            for part, label in ((cpu[:COLD], "cold"), (cpu[COLD:], "warm")):
                med, p95, _ = _stats(part)
                medians[f"{backend} {label}"] = med
                cells.append(f"{_f(med)} ({_f(p95)})")
        others = results[(row, "compiled")]
        for name in ("RLCard", "OpenSpiel"):
            if name in others:
                med, p95, _ = _stats(others[name]["cpu"])
                medians[name] = med
                agree = f"{others[name]['agree']}/{len(others[name]['cpu'])} agree"
                cells.append(f"{_f(med)} ({_f(p95)}); {agree}")
            else:
                # Only the gin rows have peers; elsewhere nothing of theirs answers the question.
                cells.append("not installed" if row.startswith("gin") else "—")
        lines.append("| " + " | ".join(cells) + " |")
        cold = medians["compiled cold"]
        speedup = medians["python cold"] / cold if cold else float("inf")
        if row == "denexa":
            verdicts.append(
                f"denexa 14-card median with the compiled core: {_f(cold)} ms cold, "
                f"{_f(medians['compiled warm'])} ms warm (target ≤ {DENEXA_TARGET}) — "
                f"{'met' if cold <= DENEXA_TARGET else '**not met**'}; {speedup:.1f}x the "
                "pure core's cold median."
            )
        elif row == "gin" and "OpenSpiel" in medians:
            theirs = medians["OpenSpiel"]
            verdicts.append(
                f"gin 10-card deadwood with the compiled core: {_f(cold)} ms cold against "
                f"OpenSpiel's C++ {_f(theirs)} ms in the same run ({cold / theirs:.1f}x) — "
                f"{'met' if cold <= theirs else '**not met**'}."
            )
        else:
            verdicts.append(f"{what}: compiled {speedup:.1f}x the pure core's cold median.")
    if ran != "compiled":
        verdicts.insert(0, "**The compiled core is not built here: both columns are Python.**")
    lines += ["", *[f"- {v}" for v in verdicts]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run())
