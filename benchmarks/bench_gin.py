"""The gin-rummy task: our exact solver side by side with RLCard and OpenSpiel.

Gin rummy's deadwood question is Pay Me's with one 52-card pack and no wild cards, so a custom
rule set of ours (:data:`GIN`, a preset with fields replaced) answers it.  Every hand is
given to all three and the answers are compared hand by hand; each call is timed alone.

The two other libraries are installed only for this benchmark (they are not dependencies of
payme)::

    .venv/bin/uv pip install --python .venv/bin/python rlcard==1.2.0 open_spiel==2.0.2
    .venv/bin/python -m benchmarks gin          # or: .venv/bin/python -m benchmarks.bench_gin

``BENCH_GIN_HANDS`` sets the hands per kind and size (default 2000).
"""

from __future__ import annotations

import dataclasses
import gc
import os
import platform
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from benchmarks.report import cpu_name
from payme.cards import CARDS, Card, format_hand
from payme.rulesets import rules
from payme.solver import best_discard, evaluate

GIN = dataclasses.replace(
    rules("classic"),
    name="gin",
    title="Gin rummy deadwood (one pack, no wild cards)",
    source="the gin-rummy benchmark",
    packs=((6, 1),),
    jokers_per_pack=0,
    jokers_wild=False,
    round_rank_wild=False,
    set_max=4,
    set_distinct_suits=True,
    ace="low",
    lay_off=False,
    rank_points=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),
    joker_points=0,
    wild_points=None,
    notes=("Sets of 3-4 cards of distinct suits, runs with the ace low, A=1, J/Q/K=10.",),
)
"""Gin rummy's melds and card values as a payme rule set."""

DEALT = 10
"""Any valid ``dealt`` will do: nothing in :data:`GIN` is wild, so it changes nothing."""

HANDS = int(os.environ.get("BENCH_GIN_HANDS", "2000"))
SIZES = (10, 11)
SEED = 20260

INSTALL = "`.venv/bin/uv pip install --python .venv/bin/python rlcard==1.2.0 open_spiel==2.0.2`"


def random_hands(rng: random.Random, n: int, size: int) -> list[tuple[Card, ...]]:
    """``n`` hands of ``size`` cards from one shuffled 52-card pack each."""
    pack = CARDS[:52]
    return [tuple(rng.sample(pack, size)) for _ in range(n)]


def meld_rich_hands(rng: random.Random, n: int, size: int) -> list[tuple[Card, ...]]:
    """``n`` hands of ``size`` cards, each drawn from the 20 cards of 5 adjacent ranks."""
    hands = []
    for _ in range(n):
        low = rng.randint(1, 9)
        pool = [Card.regular(rank, suit) for rank in range(low, low + 5) for suit in "SHDC"]
        hands.append(tuple(rng.sample(pool, size)))
    return hands


# --- the three solvers: each takes the hand prepared for it and returns deadwood points ------


def _ours(hand: tuple[Card, ...]) -> int:
    return evaluate(hand, GIN, DEALT).deadwood_points


def _rlcard_solver() -> tuple[Callable[[tuple[Card, ...]], Any], Callable[[Any], int]]:
    from rlcard.games.gin_rummy.utils import melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils

    def prepare(hand: tuple[Card, ...]) -> Any:
        # RLCard numbers cards as we do: suit (S H D C) * 13 + rank - 1.
        return [rl_utils.card_from_card_id(c.index) for c in hand]

    value = rl_utils.get_deadwood_value

    def deadwood(hand: Any, cluster: Any) -> int:
        melded = {card for meld in cluster for card in meld}
        return sum(value(card) for card in hand if card not in melded)

    def solve(hand: Any) -> int:
        if len(hand) == 10:
            best = melding.get_best_meld_clusters(hand)
            return int(rl_utils.get_deadwood_count(hand, best[0] if best else []))
        # RLCard's deadwood helpers insist on 10 cards; for 11 this is the same search
        # (every cluster of up to three disjoint melds) with its card values.
        clusters = melding.get_meld_clusters(hand)
        return min((deadwood(hand, c) for c in clusters), default=deadwood(hand, []))

    return prepare, solve


def _openspiel_solver() -> tuple[Callable[[tuple[Card, ...]], Any], Callable[[Any], int]]:
    import pyspiel

    gin = pyspiel.gin_rummy
    # hand_size is the size after discarding: with hand_size=11 an 11-card hand is scored
    # whole (with 10, OpenSpiel would first drop its highest deadwood card).
    utils = {size: gin.GinRummyUtils(13, 4, size) for size in SIZES}

    def prepare(hand: tuple[Card, ...]) -> Any:
        # OpenSpiel orders suits s c d h and writes ranks as we do: "As", "Tc".
        strings = [str(c)[0] + str(c)[1].lower() for c in hand]
        return utils[len(hand)], utils[len(hand)].card_strings_to_card_ints(strings)

    def solve(prepared: Any) -> int:
        util, ints = prepared
        return int(util.min_deadwood(ints))

    return prepare, solve


# --- measuring -------------------------------------------------------------------------


WARM_UP = 20
"""Hands each solver answers first, untimed: first calls build caches and tables."""

BLOCK = 50
"""Hands per timed block: the solvers take turns block by block on the same hands (who goes
first rotating), so a busy spell of the shared machine falls on all of them alike; a block
is long enough (50-300 µs for the fastest) for the clock's own cost (under a microsecond a
reading) not to count, and no timer sits around each call."""


@dataclass
class Side:
    """One solver's answers and summed times over the hands, taken in turns with others."""

    answers: list[int]
    cpu: float = 0.0
    """Process CPU seconds of its timed blocks (not charged while another process runs)."""
    wall: float = 0.0
    timed: int = 0
    """Hands timed (those after the warm-up)."""
    ahead: int = 0
    """Blocks in which it took less CPU time than the first solver (for the first: blocks)."""

    def us(self, seconds: float) -> float:
        """Microseconds per timed hand."""
        return 1e6 * seconds / max(1, self.timed)


def _in_turns(solvers: Sequence[tuple[Callable[[Any], int], Sequence[Any]]]) -> list[Side]:
    """Every solver's answers to its inputs (the same hands, converted for it), the solvers
    taking turns block by block; the first :data:`WARM_UP` hands answered by each, untimed
    (timing them again would find their answers in a solver's kept memo)."""
    n = len(solvers[0][1])
    warm = WARM_UP if n > 2 * WARM_UP else 0
    sides = [Side([solve(x) for x in inputs[:warm]]) for solve, inputs in solvers]
    cpu_clock, wall_clock = time.process_time, time.perf_counter
    gc.collect()
    for k, at in enumerate(range(warm, n, BLOCK)):
        spent = [0.0] * len(solvers)
        order = [(k + i) % len(solvers) for i in range(len(solvers))]
        for i in order:
            solve, inputs = solvers[i]
            block = inputs[at : at + BLOCK]
            wall, cpu = wall_clock(), cpu_clock()
            answers = [solve(x) for x in block]
            spent[i] = cpu_clock() - cpu
            side = sides[i]
            side.wall += wall_clock() - wall
            side.cpu += spent[i]
            side.timed += len(block)
            side.answers += answers
        sides[0].ahead += 1
        for i in range(1, len(solvers)):
            sides[i].ahead += spent[i] < spent[0]
    return sides


def _load(name: str, make: Callable[[], Any]) -> tuple[Any, str | None]:
    try:
        return make(), None
    except ImportError as exc:
        return None, f"{name} is not installed ({exc}); install it with {INSTALL}"


def _load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # not on every system
        return "unknown"


def _machine() -> str:
    cpu = cpu_name()
    return f"{cpu}; {platform.system()} {platform.release()}; Python {platform.python_version()}"


def run() -> str:
    """Run the comparison; a markdown section with agreement counts and time ratios."""
    rng = random.Random(SEED)
    others = {}
    missing = []
    for name, make in (("RLCard 1.2.0", _rlcard_solver), ("OpenSpiel 2.0.2", _openspiel_solver)):
        solver, problem = _load(name, make)
        if solver is None:
            missing.append(problem)
        else:
            others[name] = solver

    lines = [
        "## Gin rummy: payme against RLCard and OpenSpiel",
        "",
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {_machine()}; load average at the "
        f"start {_load_average()} (the machine is shared: the libraries take turns, so a busy "
        "spell falls on all of them).",
        "Command: `.venv/bin/python -m benchmarks gin` "
        f"({HANDS} hands per kind and size, seed {SEED}).",
        "Inputs are converted beforehand for each library; the libraries take turns on "
        f"the same hands, {BLOCK} hands at a time, who goes first rotating, each block "
        f"timed whole (no timer around each call).  The first {WARM_UP} hands of each row "
        "are answered first as a warm-up and not timed; every hand's answer is compared.",
        "",
    ]
    for problem in missing:
        lines += [f"**Not compared:** {problem}", ""]

    header = "| hands | cards | payme CPU µs | payme wall µs |"
    rule = "| --- | --- | --- | --- |"
    for name in others:
        header += f" {name} agrees | {name} CPU µs | {name} wall µs | ratio |"
        rule += " --- | --- | --- | --- |"
    lines += [header, rule]
    disagreements: list[str] = []
    rl_ratios: dict[str, list[float]] = {"random": [], "meld-rich": []}
    os_ratios: list[float] = []
    compared = mismatches = 0
    for kind, make_hands in (("random", random_hands), ("meld-rich", meld_rich_hands)):
        for size in SIZES:
            hands = make_hands(rng, HANDS, size)
            sides = _in_turns(
                [(_ours, hands)]
                + [(solve, [prep(h) for h in hands]) for prep, solve in others.values()]
            )
            ours = sides[0]
            row = f"| {kind} | {size} | {ours.us(ours.cpu):.2f} | {ours.us(ours.wall):.2f} |"
            for name, theirs in zip(others, sides[1:], strict=True):
                agree = 0
                for hand, a, b in zip(hands, ours.answers, theirs.answers, strict=True):
                    agree += a == b
                    mismatches += a != b
                    if a != b and len(disagreements) < 10:
                        disagreements.append(f"{name}: {format_hand(hand)} payme {a}, {name} {b}")
                ratio = theirs.cpu / ours.cpu
                compared += len(hands)
                if name.startswith("RLCard"):
                    rl_ratios[kind].append(ratio)
                else:
                    os_ratios.append(ratio)
                row += (
                    f" {agree}/{len(hands)} | {theirs.us(theirs.cpu):.2f} "
                    f"| {theirs.us(theirs.wall):.2f} | {ratio:.2f} |"
                )
            lines.append(row)
    lines.append("")
    if others:
        lines.append("All answers agree." if not disagreements else "**Disagreements** (first 10):")
        lines += [f"- {d}" for d in disagreements]
        lines.append("")
    lines.append(
        "*CPU µs*: the process CPU time of a library's timed blocks per hand (the figure to "
        "read on a shared machine, where a process waits for a core); *wall µs*: the elapsed "
        "time per hand.  *ratio*: the other library's CPU time divided by payme's: above 1, "
        "payme is faster.  RLCard is pure Python; OpenSpiel's utilities are C++ called "
        "through pybind11."
    )
    if others:
        lines += ["", *_verdict(compared, mismatches, rl_ratios, os_ratios)]
    if "OpenSpiel 2.0.2" in others:
        lines += ["", *_discard_section(rng)]
    lines += ["", f"Load average at the end: {_load_average()}."]
    return "\n".join(lines) + "\n"


def _verdict(
    compared: int, wrong: int, rl: dict[str, list[float]], ospiel: list[float]
) -> list[str]:
    """The targets of the engine issue, each said to be met or not, from the numbers above."""

    def met(ok: bool) -> str:
        return "met" if ok else "**not met**"

    lines = [
        "Against the targets: the same answer on every hand — "
        f"{met(wrong == 0)} ({compared - wrong}/{compared} comparisons agree)."
    ]
    if rl["random"]:
        low = min(rl["random"])
        lines.append(
            f"Faster than RLCard on random hands — {met(low > 1)} (ratios "
            + ", ".join(f"{r:.2f}" for r in rl["random"])
            + ")."
        )
    if rl["meld-rich"]:
        low = min(rl["meld-rich"])
        lines.append(
            f"At least 3x faster than RLCard on meld-rich hands — {met(low >= 3)} "
            "(ratios " + ", ".join(f"{r:.2f}" for r in rl["meld-rich"]) + ")."
        )
    if ospiel:
        # r is OpenSpiel's time over ours: below 1 OpenSpiel is the faster.
        lines.append(
            "OpenSpiel's C++ against payme (10 and 11 cards, random then meld-rich): "
            + ", ".join(f"{1 / r:.1f}x faster" if r < 1 else f"{r:.1f}x slower" for r in ospiel)
            + "."
        )
    return [" ".join(lines)]


def _every_discard(hand: tuple[Card, ...]) -> int:
    """The slow, plain answer: evaluate the hand without each card in turn."""
    return min(
        evaluate(hand[:i] + hand[i + 1 :], GIN, DEALT).deadwood_points for i in range(len(hand))
    )


def _discard_section(rng: random.Random) -> list[str]:
    """11 cards after the best discard: payme's best_discard against OpenSpiel's shortcut,
    inputs converted beforehand on both sides (payme's a tuple of cards, OpenSpiel's its card
    numbers), the two taking turns."""
    import pyspiel

    util = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    min_deadwood = util.min_deadwood

    def prepare(hand: tuple[Card, ...]) -> Any:
        return util.card_strings_to_card_ints([str(c)[0] + str(c)[1].lower() for c in hand])

    # One call a hand, as a user makes it: the public API, then the points.
    def ours(hand: tuple[Card, ...]) -> int:
        return best_discard(hand, GIN, DEALT).deadwood_points

    def theirs(ints: Any) -> int:
        return int(min_deadwood(ints))

    lines = [
        "### After the best discard (11 cards, one to throw)",
        "",
        "OpenSpiel's `min_deadwood` with `hand_size=10` scores an 11-card hand after a "
        "discard: it takes a best layout of all 11 cards and drops the highest deadwood "
        "card.  payme's `best_discard` weighs every discard in one search.  Where they "
        "differ, the plain answer (evaluate the hand without each card in turn) decides.",
        "",
        "Inputs are converted beforehand on both sides (payme gets a tuple of `Card`s, "
        "OpenSpiel its card numbers) and the two take turns on the same hands, "
        f"{BLOCK} hands at a time, who goes first alternating; each block is timed whole "
        "(no timer around each call).  Times are microseconds per hand: *CPU* is the "
        "process's CPU time (the figure to read on a shared machine), *wall* the elapsed "
        "time.  *ratio*: payme's CPU time over OpenSpiel's (below 1, payme is faster).",
        "",
        "| hands | agree | OpenSpiel lower | payme lower | payme right (plain check) "
        "| payme CPU µs | OpenSpiel CPU µs | ratio | payme wall µs | OpenSpiel wall µs "
        "| blocks payme faster |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    examples: list[str] = []
    ratios: list[tuple[str, float]] = []
    for kind, make_hands in (("random", random_hands), ("meld-rich", meld_rich_hands)):
        hands = make_hands(rng, HANDS, 11)
        mine, other = _in_turns([(ours, hands), (theirs, [prepare(h) for h in hands])])
        agree = they_lower = we_lower = right = 0
        for hand, a, b in zip(hands, mine.answers, other.answers, strict=True):
            if a == b:
                agree += 1
                continue
            they_lower += b < a
            we_lower += a < b
            right += a == _every_discard(hand)
            if len(examples) < 3:
                examples.append(f"- {format_hand(hand)}: payme {a}, OpenSpiel {b}")
        wrong = len(hands) - agree
        ratio = mine.cpu / other.cpu
        ratios.append((kind, ratio))
        lines.append(
            f"| {kind} | {agree}/{len(hands)} | {they_lower} | {we_lower} | {right}/{wrong} "
            f"| {mine.us(mine.cpu):.2f} | {other.us(other.cpu):.2f} | {ratio:.2f} "
            f"| {mine.us(mine.wall):.2f} | {other.us(other.wall):.2f} "
            f"| {mine.ahead - other.ahead}/{mine.ahead} |"
        )
    if examples:
        lines += ["", "For example:", *examples]
    met = all(r <= 1 for _, r in ratios)
    lines += [
        "",
        "Against the target (issue 29: the 11-card best discard, inputs converted "
        "beforehand, in no more than OpenSpiel's time on random and meld-rich hands): "
        + ("met" if met else "**not met**")
        + " ("
        + ", ".join(f"{kind} {r:.2f} of OpenSpiel's CPU time" for kind, r in ratios)
        + ").",
    ]
    return lines


if __name__ == "__main__":
    print(run())
