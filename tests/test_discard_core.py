"""The best discard made whole by the compiled core (issue 29): ``best_discard`` takes its
``BestDiscard`` straight from the core, which must be the same answer, and the same kind of
object, as the Python paths make.  (The million-hand equality check,
``python -m benchmarks.equality --gin N``, compares the two cores on many more hands.)"""

from __future__ import annotations

import dataclasses
import os
import pickle
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import payme
from benchmarks.bench_gin import DEALT, GIN, meld_rich_hands, random_hands
from payme.cards import Card
from payme.rulesets import RulesLike
from payme.solver import BestDiscard, Evaluation, _prepared, best_discard
from payme.solver.backend import CORE

pytestmark = pytest.mark.compiled


@pytest.fixture(autouse=True)
def _needs_the_core() -> None:
    if CORE is None:
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail("the compiled core is not in use: nothing to compare", pytrace=False)
        pytest.skip("the compiled core is not in use in this run (PAYME_SOLVER=python)")


@contextmanager
def _python_paths(rules: RulesLike, dealt: int | None) -> Iterator[None]:
    """The pure-Python paths of best_discard for this rule set and round."""
    nat = _prepared(rules, dealt)[1]
    hands = nat.hands
    nat.hands = None
    try:
        yield
    finally:
        nat.hands = hands


def _fields(found: BestDiscard) -> tuple[object, ...]:
    ev = found.evaluation
    return (found.card, ev.cards, ev.deadwood, ev.melds, ev.deadwood_points, ev.rules, ev.dealt)


def _gin_hands(n: int) -> list[tuple[Card, ...]]:
    rng = random.Random(29)
    return random_hands(rng, n, 11) + meld_rich_hands(rng, n, 11)


def test_the_cores_best_discard_is_the_python_paths_on_gin_hands() -> None:
    hands = _gin_hands(300)
    got = [best_discard(h, GIN, DEALT) for h in hands]
    with _python_paths(GIN, DEALT):
        want = [best_discard(h, GIN, DEALT) for h in hands]
    for hand, a, b in zip(hands, got, want, strict=True):
        assert _fields(a) == _fields(b), payme.format_hand(hand)
        # The same answer by hand: no discard leaves fewer points.
        plain = min(
            payme.evaluate(hand[:i] + hand[i + 1 :], GIN, DEALT).deadwood_points
            for i in range(len(hand))
        )
        assert a.deadwood_points == plain


def test_the_cores_answer_is_a_whole_best_discard() -> None:
    hand = payme.parse_hand("5S 2D 4C 2C 6H 6C 4S 5H 6S 4H 3D")
    found = best_discard(hand, GIN, DEALT)
    assert type(found) is BestDiscard
    assert type(found.evaluation) is Evaluation
    card, ev = found  # unpacks, as the docs show
    assert (card, ev) == (found.card, found.evaluation)
    assert (found.card, found.deadwood_points) == (Card("6C"), 11)
    assert str(found.evaluation) == "[4S 5S 6S] [4H 5H 6H]; deadwood 2D 3D 2C 4C = 11"
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.card = Card("2D")  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(found))
    assert again == found
    assert hash(again) == hash(found)
    with _python_paths(GIN, DEALT):
        assert best_discard(hand, GIN, DEALT) == found
    # From text too, and under another rule set (not the last call's).
    text = best_discard("5S 2D 4C 2C 6H 6C 4S 5H 6S 4H 3D", GIN, DEALT)
    assert _fields(text) == _fields(found)
    assert best_discard("5H 6H 7H 8H KC 3S", rules="denexa", dealt=9).card == Card("KC")


def test_big_and_small_hands_in_turn_give_the_answers_of_a_fresh_search() -> None:
    """The core keeps its search memos from hand to hand (cleared, not freed): a hand after a
    big one, or after a hand of another rule set, is answered as on its own.  Half the big
    hands hold a joker (wild): their cards kept are evaluated afresh, a search inside the
    search, which must make memos of its own."""
    rng = random.Random(5)
    joker = payme.parse_hand("JK")
    big = [
        tuple(rng.sample(payme.cards.CARDS[:52] * 2, 13 if k % 2 else 14))
        + (joker if k % 2 else ())
        for k in range(40)
    ]
    wild = [best_discard(b, "family", 13) for b in big]
    with _python_paths("family", 13):
        assert [_fields(a) for a in wild] == [_fields(best_discard(b, "family", 13)) for b in big]
    small = _gin_hands(40)
    alone = [best_discard(h, GIN, DEALT) for h in small]
    mixed = []
    for b, s in zip(big, small, strict=False):
        best_discard(b, "family", 13)
        mixed.append(best_discard(s, GIN, DEALT))
    assert [_fields(a) for a in mixed] == [_fields(a) for a in alone[: len(mixed)]]


def test_threads_asking_at_once_get_their_own_answers() -> None:
    hands = _gin_hands(150)
    want = [_fields(best_discard(h, GIN, DEALT)) for h in hands]
    results: dict[int, list[tuple[object, ...]]] = {}

    def work(k: int) -> None:
        order = hands[k:] + hands[:k]
        results[k] = [_fields(best_discard(h, GIN, DEALT)) for h in order]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, got in results.items():
        assert got == want[k:] + want[:k]
