"""Speed of the exact hand solver: ``evaluate`` per hand size, and the best-discard search.

For each dealt size 3..13: 1,000 random hands of dealt + 1 cards drawn from the rule set's
largest pack (denexa: 3 packs) and 1,000 meld-rich hands (built from random melds, then
perturbed), for ``denexa`` and ``family``; then ``best_discard`` on 1,000 random 14-card
denexa hands.  Each hand is solved once, as it comes, and that call is timed both by the
wall clock (the spec's numbers) and, because the machine is shared, by the process's CPU
time (the solver's own cost, without waiting for a core).  Hands are ``Card`` tuples, so no
parsing is timed, but everything else is: checking the cards against the pack, the search
and building the melds.

    python -m benchmarks solver          # or: python -m benchmarks.bench_solver
"""

from __future__ import annotations

import gc
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from payme.cards import CARDS, Card
from payme.melds import tables_for
from payme.rulesets import Ruleset, rules
from payme.solver import best_discard, evaluate

HANDS = int(os.environ.get("BENCH_SOLVER_HANDS", "1000"))
SEED = 20261130
TARGETS = {
    "14-card denexa median": 0.15,
    "14-card denexa p95": 0.5,
    "14-card denexa slowest": 10.0,
    "8-card denexa median": 0.05,
    "best discard median": 1.0,
}


def _pack(r: Ruleset) -> list[Card]:
    return [CARDS[i] for i, n in enumerate(r.pack_counts(None)) for _ in range(n)]


def random_hands(r: Ruleset, size: int, n: int, rng: random.Random) -> list[tuple[Card, ...]]:
    pack = _pack(r)
    return [tuple(rng.sample(pack, size)) for _ in range(n)]


def meld_rich_hands(
    r: Ruleset, dealt: int, size: int, n: int, rng: random.Random
) -> list[tuple[Card, ...]]:
    """Hands made of random sets and runs (some with a wild card), then 1-2 cards swapped."""
    t = tables_for(r, dealt)
    pack = _pack(r)
    wilds = [c for c in set(pack) if t.scope[c.index] is not None]
    out = []
    while len(out) < n:
        left = list(pack)
        hand: list[Card] = []
        while len(hand) < size:
            if rng.random() < 0.5:
                rank = rng.randint(1, 13)
                suits = rng.sample(range(4), rng.choice((3, 3, 4)))
                meld = [CARDS[s * 13 + rank - 1] for s in suits]
            else:
                suit = rng.randrange(4)
                length = rng.choice((3, 3, 4, 5))
                low = rng.randint(1, 14 - length)
                meld = [CARDS[suit * 13 + low - 1 + k] for k in range(length)]
            if wilds and len(meld) >= 3 and rng.random() < 0.3:
                meld[rng.randrange(1, len(meld))] = rng.choice(wilds)
            if all(left.count(c) >= meld.count(c) for c in set(meld)):
                for c in meld:
                    left.remove(c)
                hand += meld
        hand = hand[:size]
        for _ in range(rng.choice((1, 2))):
            i = rng.randrange(size)
            new = rng.choice(left)
            left.remove(new)
            left.append(hand[i])
            hand[i] = new
        out.append(tuple(hand))
    return out


class _FullCollections:
    """Counts the garbage collector's full (oldest-generation) collections and times them."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self._t0 = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.times.append((time.perf_counter() - self._t0) * 1e3)

    def start(self) -> None:
        self.times = []
        gc.callbacks.append(self._callback)

    def stop(self) -> tuple[int, float]:
        gc.callbacks.remove(self._callback)
        return len(self.times), max(self.times, default=0.0)


def _time(
    f: Callable[[tuple[Card, ...]], object], hands: Sequence[tuple[Card, ...]]
) -> tuple[list[float], list[float]]:
    """Milliseconds per hand, each hand solved once (as it comes, with the caches other
    hands left behind): its wall-clock time and the process's CPU time for the same call
    (what the solver itself costs when other jobs take the cores).

    Each hand is timed on its first call only: a second call on the same hand would find
    its answer's pieces cached (the lean path keeps its search memo across hands), which
    says nothing about a new hand.
    """
    first, cpu = [], []
    wall = time.perf_counter_ns
    proc = time.process_time_ns
    for h in hands:
        c0 = proc()
        t0 = wall()
        f(h)
        t1 = wall()
        c1 = proc()
        first.append((t1 - t0) / 1e6)
        cpu.append((c1 - c0) / 1e6)
    return first, cpu


def _stats(ms: list[float]) -> tuple[float, float, float]:
    s = sorted(ms)
    return statistics.median(s), s[min(len(s) - 1, int(0.95 * len(s)))], s[-1]


def _fmt(x: float) -> str:
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def _machine(best: float) -> list[str]:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return [
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {os.cpu_count()} CPUs "
        f"(nproc), {cpu}, Python {platform.python_version()}; load average "
        f"{load:.1f} when it started.",
        "",
        f"Calibration: `sum(range(10**6))` takes {best:.1f} ms of CPU time here (best of "
        "5, before the run; the end of the page gives it after the run too); on a current "
        "desktop it takes about 10 ms, so divide the times below by "
        f"about {best / 10:.1f} to compare. On this shared machine even CPU time swells "
        "when the cores are busy (the other jobs share their caches), so the "
        "calibration moves with the load.",
    ]


def _calibrate() -> float:
    """CPU milliseconds of ``sum(range(10**6))`` (CPU time, like the CPU columns)."""
    t0 = time.process_time()
    sum(range(10**6))
    return (time.process_time() - t0) * 1e3


def run() -> str:
    rng = random.Random(SEED)
    lines = ["## Hand solver", ""]
    before = min(_calibrate() for _ in range(5))
    lines += _machine(before)
    lines += [
        "",
        "The machine is shared with other engineers' jobs (2 cores, often a load of 5-15), "
        "so wall-clock timings are noisy and often inflated several times by waiting for a "
        "core: each hand is solved once, as it comes (with whatever the hands before it "
        "left in the caches), and that one call is timed by the wall clock and by the "
        "process's CPU time, which leaves out the waiting. No hand is timed twice: a "
        "repeat would find its own search memo (the solver keeps it across hands for "
        "hands without wild cards). Times are milliseconds per hand for `payme.evaluate` "
        "on a tuple of cards: the pack check, the exact search and the melds with their "
        "stand-ins.",
        "",
        f"Command: `python -m benchmarks solver` (`make bench` runs every benchmark). "
        f"{HANDS} hands per row.",
        "",
    ]
    found: dict[str, float] = {}
    pauses = _FullCollections()
    for name in ("denexa", "family"):
        r = rules(name)
        pauses.start()
        lines += [
            f"### `{name}` (largest pack: {r.packs_for(None)} packs)",
            "",
            "| cards | hands | median | p95 | slowest | CPU median | CPU p95 | CPU slowest |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for dealt in range(3, 14):
            size = dealt + 1
            for kind, hands in (
                ("random", random_hands(r, size, HANDS, rng)),
                ("meld-rich", meld_rich_hands(r, dealt, size, HANDS, rng)),
            ):
                first, best = _time(lambda h, d=dealt, rr=r: evaluate(h, rr, d), hands)
                m1, p1, s1 = _stats(first)
                m3, p3, s3 = _stats(best)
                lines.append(
                    f"| {size} | {kind} | {_fmt(m1)} | {_fmt(p1)} | {_fmt(s1)} "
                    f"| {_fmt(m3)} | {_fmt(p3)} | {_fmt(s3)} |"
                )
                if name == "denexa" and kind == "random" and size == 14:
                    found["14-card denexa median"] = m1
                    found["14-card denexa p95"] = p1
                    found["14-card denexa slowest"] = s1
                    found["14-card denexa median, cpu"] = m3
                    found["14-card denexa p95, cpu"] = p3
                    found["14-card denexa slowest, cpu"] = s3
                if name == "denexa" and kind == "random" and size == 8:
                    found["8-card denexa median"] = m1
                    found["8-card denexa median, cpu"] = m3
        n, longest = pauses.stop()
        lines += [
            "",
            f"Full garbage collections of the process during these rows: {n}, the longest "
            f"{longest:.1f} ms (wall clock). Each lands inside some hand's call, so the "
            "slowest hand of a row is often the one a collection fell on.",
        ]
        lines.append("")
    r = rules("denexa")
    hands = random_hands(r, 14, HANDS, rng)
    first, best = _time(lambda h: best_discard(h, r, 13), hands)
    m1, p1, s1 = _stats(first)
    m3, p3, s3 = _stats(best)
    found["best discard median"] = m1
    found["best discard median, cpu"] = m3
    lines += [
        "### Best discard (`payme.best_discard`, 14-card denexa hands, dealt 13)",
        "",
        "Every discard is weighed in one search (the discard is a move of the search), and "
        "the layout of the cards kept comes with it.",
        "",
        "| hands | median | p95 | slowest | CPU median | CPU p95 | CPU slowest |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        f"| {HANDS} random | {_fmt(m1)} | {_fmt(p1)} | {_fmt(s1)} | {_fmt(m3)} "
        f"| {_fmt(p3)} | {_fmt(s3)} |",
        "",
        "### Against the targets (milliseconds, pure Python)",
        "",
        "| measure | target | wall clock | CPU time | CPU time at desktop speed |",
        "| --- | --- | --- | --- | --- |",
    ]
    after = min(_calibrate() for _ in range(5))
    scale = 10 / ((before + after) / 2)
    for label, target in TARGETS.items():
        one = found[label]
        three = found.get(label + ", cpu", one)
        mark = "met" if three <= target else "missed"
        lines.append(
            f"| {label} | ≤ {target:g} | {_fmt(one)} | {_fmt(three)} ({mark}) "
            f"| {_fmt(three * scale)} |"
        )
    lines += [
        "",
        f"Calibration after the run: {after:.1f} ms (before: {before:.1f} ms). *CPU time "
        "at desktop speed* scales the CPU time by 10 ms over the mean of the two "
        "calibrations: an estimate of the same run on an idle current desktop; the "
        "met/missed marks go by the measured CPU time.",
        "",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run())
