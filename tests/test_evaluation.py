"""The memoised solver answers the games and bots share: the same answers as the solver,
asked once or many times, and memos the garbage collector need not walk."""

from __future__ import annotations

import gc
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from payme.cards import CARDS
from payme.game import evaluation
from payme.layoff import lay_off
from payme.melds import Meld
from payme.rulesets import rules
from payme.solver import best_discard, can_go_out
from tests.presets import PAY_ME

RULES = list(PAY_ME)


def _hand(seed: int, name: str, size: int) -> tuple:
    pack = [CARDS[i] for i, n in enumerate(rules(name).pack_counts(4)) for _ in range(n)]
    return tuple(sorted(random.Random(seed).sample(pack, size)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(RULES), st.integers(3, 13))
def test_memo_answers_are_the_solvers_first_time_and_again(
    seed: int, name: str, dealt: int
) -> None:
    r = rules(name)
    hand = _hand(seed, name, dealt + 1)
    found = best_discard(hand, r, dealt)
    out = can_go_out(hand, r, dealt)
    for _ in range(2):  # the second answer comes from the memo
        card, pts = evaluation.best_discard_points(hand, r, dealt)
        assert pts == found.deadwood_points
        rest = list(hand)
        rest.remove(card)
        assert evaluation.points(tuple(rest), r, dealt) == pts
        assert evaluation.go_out_discards(hand, r, dealt) == (tuple(out.discards) if out.ok else ())


def test_going_out_without_a_discard_is_remembered_as_none() -> None:
    from payme.cards import parse_hand

    hand = tuple(sorted(parse_hand("5H 6H 7H 8H")))
    expected = (None, parse_hand("5H")[0], parse_hand("8H")[0])
    for _ in range(2):  # the second answer comes from the memo
        assert evaluation.go_out_discards(hand, rules("denexa"), 3) == expected


def test_the_memos_hold_nothing_the_garbage_collector_walks() -> None:
    # A full collection walks every tracked object: memos of tuples of cards made it take
    # 50-500 ms of some unlucky move once thousands of hands were remembered.  Their tables
    # are not even tracked themselves (no collection runs here to untrack anything): a
    # dict holding only bytes and ints never is, so a collection does not visit its entries.
    evaluation.clear()
    r = rules("family")
    melds = (Meld("run", "5H 6H 7H"), Meld("set", "KS KH JK(KD)"))
    on_table = {c for m in melds for c in m.cards}
    for seed in range(300):
        hand = _hand(seed, "family", 11)
        evaluation.best_discard_points(hand, r, 10)
        evaluation.go_out_discards(hand, r, 10)
        # The pack holds two of each card: the hand lays off holds none of the melds'.
        evaluation.best_lay_off_points(tuple(c for c in hand if c not in on_table), melds, r, 10)
    for layouts in evaluation._layouts.values():
        assert len(layouts) > 300 and not layouts.tracked()
        held = [*layouts.new.items(), *layouts.old.items()]
        assert not any(gc.is_tracked(k) or gc.is_tracked(v) for k, v in held)
    memos = (evaluation._discards, evaluation._outs, evaluation._lay_offs)
    for memo in memos:
        for table in memo.values():
            assert not gc.is_tracked(table)
            assert not any(gc.is_tracked(k) or gc.is_tracked(v) for k, v in table.items())
    for memo in memos:
        assert [len(table) for table in memo.values()] == [300]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["family", "denexa"]), st.integers(3, 12))
def test_a_remembered_lay_off_is_the_one_lay_off_finds(seed: int, name: str, dealt: int) -> None:
    r = rules(name)
    melds = (Meld("run", "5H 6H 7H"), Meld("set", "QC QD JK(QH)"))
    on_table = {c for m in melds for c in m.cards}
    hand = tuple(c for c in _hand(seed, name, dealt + 3) if c not in on_table)[:dealt]
    found = lay_off(hand, melds, r, dealt)
    for _ in range(2):  # the second answer comes from the memo
        assert evaluation.best_lay_off_points(hand, melds, r, dealt) == (
            found.deadwood_points,
            found.lay_offs,
        )


def test_clear_forgets_and_the_answers_stay_the_same() -> None:
    r = rules("denexa")
    hand = _hand(7, "denexa", 9)
    before = evaluation.best_discard_points(hand, r, 8), evaluation.go_out_discards(hand, r, 8)
    evaluation.clear()
    assert not (evaluation._discards or evaluation._outs or evaluation._lay_offs)
    assert (
        evaluation.best_discard_points(hand, r, 8),
        evaluation.go_out_discards(hand, r, 8),
    ) == before
