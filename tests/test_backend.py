"""The solver's two cores: the switch between them, and the same answers from both.

``make test`` runs the rest of the unit tests twice: with the compiled core (where it is
built) and again with ``PAYME_SOLVER=python`` (see the Makefile's ``pytest-pure``).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import payme
from payme.solver.backend import CORE
from tests.presets import ALL

if TYPE_CHECKING:
    from payme.cards import Card
    from payme.melds import RuleTables
    from payme.solver.natural import Natural

REPO = Path(__file__).resolve().parents[1]
BUILT = importlib.util.find_spec("payme.solver._core") is not None
"""Whether the compiled core is built here (whichever core this run uses)."""


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _backend_in_fresh_process(choice: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PAYME_SOLVER"}
    if choice is not None:
        env["PAYME_SOLVER"] = choice
    return subprocess.run(
        [sys.executable, "-c", "import payme; print(payme.solver_backend())"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_solver_backend_names_the_core_that_runs() -> None:
    wanted = os.environ.get("PAYME_SOLVER", "auto")
    expected = "python" if wanted == "python" or CORE is None else "compiled"
    assert payme.solver_backend() == expected


def test_payme_solver_python_forces_the_pure_core() -> None:
    done = _backend_in_fresh_process("python")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "python"


def test_the_compiled_core_is_built_where_a_compiler_is() -> None:
    # `make` builds it (a C compiler is part of the set-up in CI); elsewhere it may be
    # missing, and the pure core runs.
    if not BUILT and not _in_ci():
        pytest.skip("the compiled core is not built here (no C compiler at install)")
    done = _backend_in_fresh_process(None)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "compiled"
    assert _backend_in_fresh_process("compiled").stdout.strip() == "compiled"


def test_a_wrong_choice_is_refused_by_name() -> None:
    done = _backend_in_fresh_process("fast")
    assert done.returncode != 0
    assert "PAYME_SOLVER='fast': use 'compiled', 'python' or 'auto'" in done.stderr


def _backend_without_the_core(choice: str) -> subprocess.CompletedProcess[str]:
    """A fresh process in which the compiled core cannot be imported, as on a machine
    that had no C compiler at install (``None`` in ``sys.modules`` makes its import fail)."""
    env = {k: v for k, v in os.environ.items() if k != "PAYME_SOLVER"}
    env["PAYME_SOLVER"] = choice
    code = (
        "import sys; sys.modules['payme.solver._core'] = None\n"
        "import payme; print(payme.solver_backend())"
    )
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )


def test_asking_for_a_missing_compiled_core_says_so() -> None:
    done = _backend_without_the_core("compiled")
    assert done.returncode != 0
    assert "compiled core is not built" in done.stderr


def test_without_the_compiled_core_the_pure_core_runs() -> None:
    done = _backend_without_the_core("auto")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "python"


@pytest.mark.slow
@pytest.mark.compiled
def test_both_cores_give_the_same_answers_on_20000_hands() -> None:
    """The short version of ``python -m benchmarks.equality --hands 1000000`` (docs)."""
    if not BUILT:
        if _in_ci():
            pytest.fail("the compiled core is not built: nothing to compare", pytrace=False)
        pytest.skip("the compiled core is not built here (no C compiler at install)")
    if payme.solver_backend() != "compiled":
        pytest.skip("this run uses the pure core (PAYME_SOLVER=python): compared in the other")
    # The benchmarks live beside the package; the worker processes need them on the path too.
    sys.path.insert(0, str(REPO))
    try:
        from benchmarks.equality import run

        result = run(20_000, seed=2026, quiet=True)
    finally:
        sys.path.remove(str(REPO))
    assert result["hands"] == 20_000
    by_set = result["by_set"]
    assert isinstance(by_set, dict)
    assert set(by_set) == {*ALL, "custom"}
    disagreements = result["disagreements"]
    assert isinstance(disagreements, list)
    assert not disagreements, "\n".join(disagreements[:3])


def _compiled_hands(seed: int) -> Iterator[tuple[RuleTables, Natural, tuple[Card, ...]]]:
    """The equality check's hands (24 chunks of 120: presets and random custom rule sets;
    random, meld-rich and wild-heavy), each with its rule tables and their ``Natural``
    (whose ``hands`` is the compiled core's whole-hand evaluation)."""
    if CORE is None:
        if _in_ci():
            pytest.fail("the compiled core is not in use: nothing to compare", pytrace=False)
        pytest.skip("the compiled core is not in use in this run")
    from payme.melds import tables_for
    from payme.solver.natural import natural_for

    sys.path.insert(0, str(REPO))
    try:
        from benchmarks.equality import deal
    finally:
        sys.path.remove(str(REPO))
    for chunk in range(24):
        for _, r, dealt, _, hand in deal(seed, chunk, 120):
            t = tables_for(r, dealt)
            nat = natural_for(t)
            assert nat.hands is not None
            yield t, nat, hand


@pytest.mark.compiled
def test_the_compiled_whole_hand_evaluation_makes_the_python_searchs_moves() -> None:
    """The compiled core's ``Hands`` lists the candidate melds itself (as the shape book
    does); its points and its walk's picks must be the Python search's, hand by hand, under
    presets and random custom rule sets (every meld rule: half-wild limit, no adjacent
    wild cards, ace high, distinct suits, set sizes), random, meld-rich and wild-heavy."""
    from payme.solver.search import Search, _Solver, scan

    taken = 0
    for t, nat, hand in _compiled_hands(7):
        assert nat.hands is not None
        got = nat.hands.evaluate(hand)
        found = scan(hand, nat.book)
        if got is None:
            # Left to Python: scoped wild cards, or a hand the pack cannot hold.
            assert found is None or any(t.scope[i] in ("set", "run") for i in found[3])
            continue
        assert found is not None
        h = Search(hand, t, t.points, nat.book, found)
        plain = _Solver(h)  # the pure-Python search of the same hand
        total = plain.value(h.state0, h.n_any, 1)
        assert got == (total + h.aside, total, plain.picks(h.state0, h.n_any, 1)), hand
        taken += 1
    assert taken > 2000


def _laid_out(ev: object) -> tuple[object, ...]:
    """An evaluation's fields, its cards and deadwood read before its melds (the compiled
    core sets those two at once and lays out the melds when first read)."""
    from payme.solver import Evaluation

    assert isinstance(ev, Evaluation)
    first = (ev.cards, ev.deadwood)
    melds = [(m.kind, m.cards, m.stands_for) for m in ev.melds]
    assert (ev.cards, ev.deadwood) == first, "the layout changed the cards or deadwood"
    return (*first, melds, ev.deadwood_points)


@pytest.mark.compiled
def test_the_compiled_best_discard_is_the_python_paths_choice() -> None:
    """``Hands.discard`` weighs a hand whole as ``best_discard``'s Python paths do (the
    lean path for natural cards, the general search for wild ones): the same card, the same
    cards kept with the same deadwood, melds and points, under presets and random custom
    rule sets (every hand where no card is barred from the discard)."""
    from payme.solver import _prepared, best_discard

    taken = wild = 0
    for t, nat, hand in _compiled_hands(11):
        r = t.rules
        if len(hand) < 2 or r.never_discarded or r.holder_wins is not None:
            continue  # the core is not asked (see best_discard)
        nat = _prepared(r, t.dealt)[1]  # its Natural binds what nat.hands makes
        hands = nat.hands
        assert hands is not None
        got = hands.discard(hand)
        nat.hands = None  # the Python paths
        try:
            want = best_discard(hand, r, t.dealt)
        finally:
            nat.hands = hands
        if got is None:
            # Left to Python: scoped wild cards, or a hand the pack cannot hold.
            continue
        assert (got[0], *_laid_out(got[1])) == (want.card.index, *_laid_out(want.evaluation))
        taken += 1
        wild += any(t.scope[c.index] is not None for c in hand)
    assert taken > 1000
    assert wild > 300


@pytest.mark.compiled
def test_the_compiled_going_out_check_is_the_python_paths() -> None:
    """``Hands.go_out`` (priced 1 a card) answers ``can_go_out`` as its Python path does,
    under presets and random custom rule sets, Rummy 3-Pack's barred cards included; the
    hands are the equality check's, with a card or two added or taken to make them the
    size that may go out, and a few that do go out."""
    from payme.solver import _prepared, can_go_out

    taken = out = 0
    for t, nat, hand in _compiled_hands(13):
        if t.dealt is not None:
            size = t.dealt + 1
            hand = (hand * 3)[:size]
            if len(hand) < size or any(hand.count(c) > nat.book.limit[c.index] for c in hand):
                continue
        nat = _prepared(t.rules, t.dealt)[1]  # the Natural can_go_out uses
        hands = nat.out_hands
        assert hands is not None
        got = hands.go_out(hand, -1 if t.dealt is None else t.dealt + 1)
        nat.out_hands = None  # the Python path
        try:
            want = can_go_out(hand, t.rules, t.dealt)
        finally:
            nat.out_hands = hands
        if got is None:
            continue
        assert (bool(got), tuple(None if i < 0 else i for i in got)) == (
            want.ok,
            tuple(None if c is None else c.index for c in want.discards),
        ), hand
        taken += 1
        out += want.ok
    assert taken > 1000
    assert out > 50


@pytest.mark.compiled
def test_the_card_indexes_of_an_evaluation_refuse_picks_that_are_not_its_walk() -> None:
    """``Hands.card_indexes`` replays an evaluation's walk from picks given from Python: picks
    that are no walk of the hand are refused with an error, never read out of bounds."""
    from payme.solver import _prepared

    t, nat = _prepared("denexa", 9)
    assert nat.hands is not None
    hand = payme.parse_hand("5H 6H 7H 8H KS 9C")
    ev = nat.hands.evaluation(hand)
    picks = ev._pending[1][3]
    assert nat.hands.card_indexes(hand, t, 0, picks) == (
        bytes(sorted(c.index for c in hand)),
        bytes([payme.parse_hand("KS")[0].index]),
    )
    for bad in [(99,), (-5,), (0,) * 300, (-1,) * 7, ("x",)]:
        with pytest.raises((ValueError, TypeError)):
            nat.hands.card_indexes(hand, t, 0, bad)
    with pytest.raises(ValueError, match="does not take"):
        nat.hands.card_indexes("5H 6H GROUP", t, 0, ())


@pytest.mark.compiled
def test_the_compiled_priced_points_and_search_starts_are_the_python_searchs() -> None:
    """``Hands.points`` (a hand priced otherwise: cards at 0, as the lay-off floor prices
    them) and ``Hands.search`` (one search asked from many starts: the hand less a card or
    two, as lay-offs ask) give the Python search's values, hand by hand."""
    import random

    from payme.solver.search import CompiledSearch, Search, _Solver, priced_points, value_search

    rng = random.Random(5)
    taken = searched = 0
    for t, nat, hand in _compiled_hands(17):
        if nat.hands is None or not hand:
            continue
        free = {c.index for c in rng.sample(hand, rng.randint(0, len(hand)))}
        cost = tuple(0 if i in free else p for i, p in enumerate(t.points))
        h = Search(hand, t, cost, nat.book)
        want = _Solver(h).value(h.state0, h.n_any, 1) + h.aside  # the pure-Python search
        if nat.hands.points(hand, cost) is None:
            continue  # left to Python: scoped wild cards, or a hand the pack cannot hold
        assert priced_points(hand, t, cost) == want, hand
        taken += 1
        got = value_search(hand, t)
        assert isinstance(got, CompiledSearch)
        h = Search(hand, t, t.points, nat.book)
        plain = _Solver(h)
        assert (got.state0, got.aside, got.isolated, got.n_any) == (
            h.state0, h.aside, h.isolated, h.n_any,
        )  # fmt: skip
        for c in rng.sample(hand, min(3, len(hand))):
            if c.index >= 52 or c in h.isolated:
                continue
            state = h.state0 - h.book.unit_of[c.index]
            assert got.value(state, h.n_any, 1) == plain.value(state, h.n_any, 1), (hand, c)
            searched += 1
    assert taken > 2000
    assert searched > 2000


@pytest.mark.parametrize(
    "text",
    [
        "7H 8H 9H JK 2C 5S 5D 5C KD",
        "7h,8h,9h , jk\t2c\n5s\r5d\x0b5c\x0ckd",  # every separator parse_hand splits on
        "10h jh qh\x1ckh\x1fah",  # str.split() whitespace below the space, too
        "7♥ 8♥ 9♥ JK",  # suit symbols: read by parse_hand
        "",
        "JK JK JK JK",
        "wild group 5h 6h seq",
        " ".join(["5H"] * 4),  # more copies than the pack holds: the error names it
        "7H 8H 1X",  # a bad token: the error names it
        "7H 8H 9HH",
        "ABCDEFGHIJ 7H",
    ],
)
@pytest.mark.parametrize("name", ALL)
def test_a_hand_as_text_is_evaluated_as_its_cards(text: str, name: str) -> None:
    # The compiled core reads text itself; the answer (or the error) must be parse_hand's.
    dealt = None if name == "three_pack" else 9

    def answer(hand: object) -> tuple[object, ...]:
        try:
            if hand is None:
                hand = payme.parse_hand(text)
            ev = payme.evaluate(hand, rules=name, dealt=dealt)  # type: ignore[arg-type]
        except ValueError as error:
            return type(error), str(error)
        return ev.deadwood_points, ev.cards, ev.melds, ev.deadwood, str(ev)

    assert answer(text) == answer(None)


@pytest.mark.parametrize(
    "text",
    [
        "7H 8H 9H JK 2C 5S 5D 5C KD 4S",  # denexa: goes out by throwing KD
        "7h,8h,9h , jk\t2c\n5s\r5d\x0b5c\x0ckd 4s",
        "5H 6H 7H 8H 9H TH JH QH KH AS",  # a long run: goes out by throwing AS
        "7♥ 8♥ 9♥ JK 2C 5S 5D 5C KD 4S",
        "7H 8H 9H JK 2C 5S 5D 5C KD",  # one card short: the error names the size
        "JK JK JK JK JK JK JK JK JK JK",  # more copies than the pack holds
        "7H 8H 1X 9H JK 2C 5S 5D 5C KD",
        "",
    ],
)
@pytest.mark.parametrize("name", ALL)
def test_a_hand_as_text_goes_out_as_its_cards(text: str, name: str) -> None:
    # The compiled core reads text for the going-out check too; the answer (or the error)
    # must be the one for the parsed cards.
    dealt = None if name == "three_pack" else 9

    def answer(hand: object) -> object:
        try:
            if hand is None:
                hand = payme.parse_hand(text)
            return payme.can_go_out(hand, rules=name, dealt=dealt)  # type: ignore[arg-type]
        except ValueError as error:
            return type(error), str(error)

    assert answer(text) == answer(None)


def test_an_out_of_date_build_is_not_used(tmp_path: Path) -> None:
    """A build from another _core.c (a checkout updated without reinstalling) is refused:
    its functions may not match what the Python side calls."""
    from types import SimpleNamespace

    from payme.solver.backend import out_of_date, source_digest

    source = tmp_path / "_core.c"
    source.write_text("/* one version */\n")
    digest = source_digest(source)
    assert not out_of_date(SimpleNamespace(SOURCE=digest), source)  # type: ignore[arg-type]
    source.write_text("/* the next version */\n")
    assert out_of_date(SimpleNamespace(SOURCE=digest), source)  # type: ignore[arg-type]
    assert out_of_date(SimpleNamespace(), source)  # type: ignore[arg-type]  # built before digests
    # A wheel without the source: the build is taken as it is.
    assert not out_of_date(SimpleNamespace(SOURCE=digest), tmp_path / "absent.c")  # type: ignore[arg-type]
    if CORE is not None:  # the build in use here matches its source
        assert not out_of_date(CORE)


_SEARCHES_LEFT = """
import gc, random
import payme
from payme.cards import CARDS
from payme.rulesets import rules
from payme.solver import evaluate
from payme.solver.search import Search

ruleset = rules("three_pack")
pack = [c for c, n in zip(CARDS, ruleset.pack_counts(None)) for _ in range(n)]
scoped = [c for c in CARDS if c.token in ("GROUP", "SEQ")]
rng = random.Random(5)
gc.collect()
gc.disable()
for _ in range(300):
    hand = [c for c in rng.sample(pack, 8) if c not in scoped] + scoped
    evaluate(tuple(hand), ruleset).deadwood_points  # a hand the search is set up for
print(payme.solver_backend(), sum(type(o) is Search for o in gc.get_objects()))
"""


def test_the_compiled_search_is_freed_without_the_garbage_collector() -> None:
    # A hand with GROUP and SEQ is set up in Python and searched by the core; the set-up
    # must not be a reference cycle with its search (a bot's decision makes thousands:
    # left to the collector, they made its full collections inside decisions long).
    env = {k: v for k, v in os.environ.items() if k != "PAYME_SOLVER"}
    done = subprocess.run(
        [sys.executable, "-c", _SEARCHES_LEFT], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    backend, left = done.stdout.split()
    assert backend == "compiled"
    assert int(left) == 0
