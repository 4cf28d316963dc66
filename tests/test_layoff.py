"""Lay-offs (RULES.md "Lay-offs"): one test per rule, then a check against the reference."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import DeclaredMeld, Reference

from payme.cards import Card, CardError, parse_hand
from payme.layoff import (
    LayOffResult,
    best_placements,
    fitting_mask,
    grow_meld,
    lay_off,
    lay_off_in_turn,
    single_lay_offs,
)
from payme.melds import Meld, check_meld, fixed_meld_problem, parse_declared_meld, tables_for
from payme.pack import Pack
from payme.rulesets import Ruleset, rules
from payme.solver import evaluate
from tests.presets import PAY_ME


def H(text: str) -> tuple[Card, ...]:
    return parse_hand(text)


def laid(lo: LayOffResult) -> dict[int, list[str]]:
    return {i: sorted(str(c) for c in cards) for i, cards in lo.lay_offs}


def check_consistent(lo: LayOffResult, hand: str | tuple[Card, ...]) -> None:
    """Every card is in a meld, laid off or deadwood; every grown meld is valid as laid."""
    cards = parse_hand(hand) if isinstance(hand, str) else hand
    placed = [*lo.laid_off, *lo.deadwood, *(c for m in lo.melds for c in m.cards)]
    assert Counter(placed) == Counter(cards)
    assert lo.deadwood_points == sum(lo.rules.card_points(c, lo.dealt) for c in lo.deadwood)
    t = tables_for(lo.rules, lo.dealt)
    for meld in lo.melds:
        assert check_meld(meld.cards, lo.rules, lo.dealt).ok
    for before, after in zip(lo.declarer_melds, lo.grown_melds, strict=True):
        assert fixed_meld_problem(after, t) == ""
        assert Counter(after.cards) - Counter(before.cards) == Counter(
            c for i, cs in lo.lay_offs for c in cs if lo.declarer_melds[i] is before
        )


# --- runs ---------------------------------------------------------------------------------


def test_a_run_takes_the_next_card_at_either_end() -> None:
    lo = lay_off("4H 8H KS", ["5H 6H 7H"], rules="denexa", dealt=12)
    assert laid(lo) == {0: ["4H", "8H"]}
    assert lo.deadwood == H("KS") and lo.deadwood_points == 10
    assert str(lo.grown_melds[0]) == "4H 5H 6H 7H 8H"
    check_consistent(lo, "4H 8H KS")


def test_lay_offs_chain() -> None:
    lo = lay_off("9H 8H", ["5H 6H 7H"], rules="family", dealt=3)
    assert lo.deadwood_points == 0 and lo.melds == ()
    # Placed nearest first: 8H, then 9H.
    assert lo.lay_offs == ((0, H("8H 9H")),)
    # Below too: 4H, then 3H.
    assert lay_off("3H 4H", ["5H 6H 7H"], rules="family", dealt=9).lay_offs == ((0, H("4H 3H")),)


def test_a_run_does_not_take_a_card_with_a_gap_or_of_another_suit() -> None:
    lo = lay_off("9H 8S", ["5H 6H 7H"], rules="denexa", dealt=12)
    assert lo.lay_offs == () and lo.deadwood_points == 20


def test_a_run_takes_a_wild_card_standing_for_the_next_card() -> None:
    lo = lay_off("JK 9H", ["5H 6H 7H"], rules="denexa", dealt=12)
    # JK stands for 8H and 9H follows it.
    assert laid(lo) == {0: ["9H", "JK"]}
    assert str(lo.grown_melds[0]) == "5H 6H 7H JK(8H) 9H"


def test_ace_is_low_so_nothing_goes_above_a_king() -> None:
    assert grow_meld("JH QH KH", "AH", rules="denexa", dealt=5) is None
    assert str(grow_meld("AH 2H 3H", "4H", rules="denexa", dealt=5)) == "AH 2H 3H 4H"


def test_stand_ins_of_a_run_are_fixed_and_a_wild_is_never_replaced() -> None:
    # JK stands for 6H: 6H cannot take its place, and nothing else is possible.
    lo = lay_off("6H", ["5H JK 7H"], rules="denexa", dealt=12)
    assert lo.lay_offs == () and lo.deadwood == H("6H")
    # "JK 6H 7H" is 5H-6H-7H: 4H fits below the joker, 5H nowhere.
    assert laid(lay_off("4H", ["JK 6H 7H"], rules="denexa", dealt=12)) == {0: ["4H"]}
    assert lay_off("5H", ["JK 6H 7H"], rules="denexa", dealt=12).lay_offs == ()


def test_wild_limits_hold_for_the_grown_run() -> None:
    # denexa: no two wild cards side by side (JK QH KH: the only free place is the ten's).
    assert grow_meld("JK QH KH", "JK", rules="denexa", dealt=9) is None
    assert grow_meld("JK QH KH", "JK", rules="family", dealt=9) is not None
    # denexa: at most half wild (5H JK 7H JK(8H) + JK would be 3 of 5).
    assert grow_meld("5H JK 7H JK", "JK", rules="denexa", dealt=9) is None
    assert grow_meld("5H JK 7H JK", "JK", rules="family", dealt=9) is not None


def test_a_round_wild_card_may_be_laid_off_as_itself() -> None:
    # 8 dealt: 8H is wild, but after 7H it plays as itself.
    grown = grow_meld("5H JK 7H", "8H", rules="denexa", dealt=8)
    assert grown is not None and grown.stands_for[-1] is Card.of("8H")


# --- sets ---------------------------------------------------------------------------------


def test_a_set_takes_a_card_of_its_rank_or_a_wild() -> None:
    lo = lay_off("QH 3C", ["QC QD QS"], rules="denexa", dealt=5)
    assert laid(lo) == {0: ["QH"]}
    assert laid(lay_off("JK 3C", ["QC QD QS"], rules="denexa", dealt=5)) == {0: ["JK"]}


def test_denexa_sets_have_at_most_four_cards_and_no_suit_twice() -> None:
    assert grow_meld("QC QD QS", "QC", rules="denexa", dealt=5) is None
    assert grow_meld("QC QD QS QH", "JK", rules="denexa", dealt=5) is None
    assert grow_meld("QC QD QS", "QC", rules="family", dealt=5) is not None
    assert grow_meld("QC QD QS QH", "QH JK", rules="family", dealt=5) is not None


def test_a_set_wild_card_plays_whichever_suit_is_missing() -> None:
    # Reading: in a set a wild card stands for "a seven", not a fixed suit.
    grown = grow_meld("7S 7H JK", "7D", rules="denexa", dealt=9)
    assert grown is not None
    assert sorted(str(s) for s in grown.stands_for) == ["7C", "7D", "7H", "7S"]


def test_wild_limits_hold_for_the_grown_set() -> None:
    # denexa: 7S 7H JK plus JK is 2 wild of 4, allowed; 7S JK JK was never a meld there.
    assert grow_meld("7S 7H JK", "JK", rules="denexa", dealt=9) is not None
    assert grow_meld("7S 7H JK", "JK 7D", rules="denexa", dealt=9) is None  # 5 cards
    assert grow_meld("7S 7H 7D", "JK JK", rules="family", dealt=9) is not None


def test_a_meld_of_wild_cards_only_takes_only_wild_cards() -> None:
    # family has no wild limits, so JK JK JK is a meld that fixes no rank or suit.
    lo = lay_off("JK 9S", ["JK JK JK"], rules="family", dealt=5)
    assert laid(lo) == {0: ["JK"]} and lo.deadwood == H("9S")
    assert grow_meld("JK JK JK", "9S", rules="family", dealt=5) is None


# --- the joint optimum, rule sets, several opponents ---------------------------------------


def test_a_card_may_come_from_what_would_be_an_own_meld() -> None:
    # Alone the hand is 8H 8S 8D 8C + 9H (10 points); laying off 8H 9H onto the run and
    # keeping 8S 8D 8C leaves nothing.
    alone = evaluate("8H 9H 8S 8D 8C", rules="denexa", dealt=12)
    assert alone.deadwood_points == 10
    lo = lay_off("8H 9H 8S 8D 8C", ["5H 6H 7H"], rules="denexa", dealt=12)
    assert lo.deadwood_points == 0
    assert laid(lo) == {0: ["8H", "9H"]}
    check_consistent(lo, "8H 9H 8S 8D 8C")


def test_lay_offs_onto_several_melds_at_once() -> None:
    lo = lay_off("8H QS 2D KD", ["5H 6H 7H", "QC QD QH"], rules="family", dealt=3)
    assert laid(lo) == {0: ["8H"], 1: ["QS"]}
    assert lo.deadwood_points == 2 + 10


def test_rule_sets_without_lay_offs_score_as_evaluate() -> None:
    for name, dealt in (("classic", 5), ("three_pack", None)):
        lo = lay_off("8H 9H KD", ["5H 6H 7H"], rules=name, dealt=dealt)
        ev = evaluate("8H 9H KD", rules=name, dealt=dealt)
        assert lo.lay_offs == ()
        assert lo.deadwood_points == ev.deadwood_points
        assert lo.grown_melds == lo.declarer_melds


def test_opponents_lay_off_in_turn_onto_the_grown_melds() -> None:
    first, second = lay_off_in_turn(["8H", "9H"], ["5H 6H 7H"], rules="denexa", dealt=12)
    assert laid(first) == {0: ["8H"]} and laid(second) == {0: ["9H"]}
    assert second.declarer_melds == first.grown_melds
    assert str(second.grown_melds[0]) == "5H 6H 7H 8H 9H"
    # In the other order, 9H has nowhere to go.
    first, second = lay_off_in_turn(["9H", "8H"], ["5H 6H 7H"], rules="denexa", dealt=12)
    assert first.lay_offs == () and laid(second) == {0: ["8H"]}


def test_in_turn_a_set_fills_up() -> None:
    a, b = lay_off_in_turn(["QH", "QH JK"], ["QC QD QS"], rules="denexa", dealt=5)
    assert laid(a) == {0: ["QH"]}
    assert b.lay_offs == () and b.deadwood_points == 25  # the set is full (4 cards)


def test_declarer_melds_may_be_meld_objects() -> None:
    melds = evaluate("5H 6H 7H QC QD QS", rules="denexa", dealt=10).melds
    lo = lay_off("8H QH", melds, rules="denexa", dealt=10)
    assert lo.deadwood_points == 0 and len(lo.lay_offs) == 2


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="not a valid meld"):
        lay_off("8H", ["5H 6H 8H"], rules="denexa", dealt=12)
    with pytest.raises(ValueError, match="list of melds"):
        lay_off("8H", "5H 6H 7H", rules="denexa", dealt=12)
    with pytest.raises(CardError, match="1X"):
        lay_off("8H 1X", ["5H 6H 7H"], rules="denexa", dealt=12)
    with pytest.raises(CardError, match="JK"):
        lay_off("8H", ["5H 6H 7H JK"], rules="three_pack")
    with pytest.raises(ValueError, match="dealt"):
        lay_off("8H", ["5H 6H 7H"], rules="denexa", dealt=2)


# --- against the brute-force reference -------------------------------------------------------


def to_reference(meld: Meld) -> DeclaredMeld:
    natural = [s is c for c, s in zip(meld.cards, meld.stands_for, strict=True)]
    if meld.all_wild:
        return DeclaredMeld(meld.kind, len(meld), len(meld), all_wild=True)
    if meld.kind == "set":
        return DeclaredMeld(
            "set",
            len(meld),
            meld.wild_count,
            rank=meld.rank,
            suits=tuple(str(c.suit) for c, n in zip(meld.cards, natural, strict=True) if n),
        )
    low = meld.low
    assert low is not None
    return DeclaredMeld(
        "run",
        len(meld),
        meld.wild_count,
        suit=meld.suit,
        low=low,
        wild_places=tuple(low + i for i, n in enumerate(natural) if not n),
    )


def random_declared(rng: random.Random, name: str, dealt: int) -> list[Meld]:
    r = rules(name)
    wilds = [c for c in Pack.of(r).cards() if r.is_wild(c, dealt)]
    melds: list[Meld] = []
    while len(melds) < rng.randint(1, 3):
        suit = rng.choice("SHDC")
        if rng.random() < 0.5:
            low = rng.randint(1, 11)
            cards = [Card.regular(rank, suit) for rank in range(low, low + rng.randint(3, 4))]
            cards = [c for c in cards if c.rank is not None and c.rank <= 13]
        else:
            rank = rng.randint(1, 13)
            cards = [Card.regular(rank, s) for s in rng.sample("SHDC", 3)]
        if rng.random() < 0.4:
            cards[rng.randrange(len(cards))] = rng.choice(wilds)
        if rng.random() < 0.05:
            cards = rng.sample(wilds, 3)  # valid only where there are no wild limits
        try:
            melds.append(parse_declared_meld(cards, r, dealt))
        except ValueError:
            continue
    return melds


def random_layoff_hand(rng: random.Random, name: str, dealt: int, melds: list[Meld]) -> list[Card]:
    r = rules(name)
    pack = Pack.of(r).cards()
    near: list[Card] = []
    for m in melds:
        if m.kind == "run" and m.suit and m.low and m.high:
            near += [
                Card.regular(p, m.suit) for p in (m.low - 1, m.high + 1, m.high + 2) if 1 <= p <= 13
            ]
        elif m.rank:
            near += [Card.regular(m.rank, s) for s in "SHDC"]
    wilds = [c for c in pack if r.is_wild(c, dealt)]
    hand: list[Card] = []
    for _ in range(rng.randint(1, 5)):
        roll = rng.random()
        pool = near if roll < 0.5 and near else wilds if roll < 0.7 else pack
        hand.append(rng.choice(pool))
    return hand


LAYOFF_CASES = 250


@pytest.mark.slow
@pytest.mark.parametrize("name", ["denexa", "family"])
def test_lay_off_matches_the_reference(name: str) -> None:
    rng = random.Random(f"layoff-{name}")
    r = rules(name)
    checked = 0
    for _ in range(LAYOFF_CASES):
        dealt = rng.choice([3, 5, 7, 9, 12, 13])
        melds = random_declared(rng, name, dealt)
        hand = random_layoff_hand(rng, name, dealt, melds)
        counts = Counter(hand) + Counter(c for m in melds for c in m.cards)
        if any(n > Pack.of(r).count(c) for c, n in counts.items()):
            continue
        lo = lay_off(hand, melds, r, dealt)
        want = Reference(r, dealt).lay_off_points(hand, [to_reference(m) for m in melds])
        assert lo.deadwood_points == want, (hand, [str(m) for m in melds], dealt, lo)
        check_consistent(lo, tuple(hand))
        checked += 1
    assert checked >= LAYOFF_CASES * 0.8


# --- properties ---------------------------------------------------------------------------


@given(
    st.sampled_from(list(PAY_ME)),
    st.sampled_from([3, 7, 9, 12, 13]),
    st.integers(0, 2**32),
)
def test_lay_offs_never_cost_points_and_more_melds_never_hurt(
    name: str, dealt: int, seed: int
) -> None:
    rng = random.Random(seed)
    r = rules(name)
    melds = random_declared(rng, name, dealt)
    hand = random_layoff_hand(rng, name, dealt, melds) + rng.sample(Pack.of(r).cards(), 4)
    counts = Counter(hand) + Counter(c for m in melds for c in m.cards)
    if any(n > Pack.of(r).count(c) for c, n in counts.items()):
        return
    lo = lay_off(hand, melds, r, dealt)
    check_consistent(lo, tuple(hand))
    alone = evaluate(hand, r, dealt).deadwood_points
    assert lo.deadwood_points <= alone
    if not r.lay_off:
        assert lo.deadwood_points == alone and lo.lay_offs == ()
    again = lay_off(hand[::-1], melds, r, dealt)  # the same answer for any card order
    assert (again.melds, again.lay_offs, again.deadwood, again.grown_melds) == (
        lo.melds,
        lo.lay_offs,
        lo.deadwood,
        lo.grown_melds,
    )
    fewer = lay_off(hand, melds[1:], r, dealt)
    assert lo.deadwood_points <= fewer.deadwood_points
    # In turn: the second opponent lays off onto what the first left.
    first, second = lay_off_in_turn([hand[:3], hand[3:]], melds, r, dealt)
    assert second.declarer_melds == first.grown_melds
    assert second.deadwood_points == lay_off(hand[3:], first.grown_melds, r, dealt).deadwood_points


# --- the search: fewest points, then fewest cards; the table checked first -------------------


def test_the_realistic_case_of_the_issue() -> None:
    # 13 cards with five wild cards (kings and a joker) against four melds: one card laid off.
    lo = lay_off(
        "2S 5S 7S JS KS KS 2H KH 2D 5D 2C KC JK",
        ["3H 4H 5H", "8S 9S TS", "QC QD QH", "6D 7D 8D 9D"],
        rules="denexa",
        dealt=13,
    )
    assert lo.deadwood_points == 0
    assert laid(lo) == {3: ["5D"]}
    check_consistent(lo, "2S 5S 7S JS KS KS 2H KH 2D 5D 2C KC JK")


def test_declarer_melds_and_hands_must_come_from_one_pack() -> None:
    # Each meld is valid alone, but 200 of them hold 200 copies of 5H: refused at once.
    with pytest.raises(CardError, match="200 copies of 5H, but the denexa pack has 3"):
        lay_off("8H", ["5H 6H 7H"] * 200, rules="denexa", dealt=9)
    with pytest.raises(CardError, match="4 copies of 7H") as caught:
        lay_off("7H 7H", ["5H 6H 7H", "7H 7D 7C"], rules="denexa", dealt=9)
    assert caught.value.token == "7H"
    with pytest.raises(CardError, match="hands hold 3 copies of 8H"):
        lay_off_in_turn(["8H", "8H"], ["5H 6H 7H", "8H 8D 8C"], rules="family", dealt=9)
    # An opponent holds the cards dealt: more than the most dealt plus one is refused,
    # which bounds the search.
    fifteen = " ".join(f"{rank}H" for rank in "23456" for _ in range(3))
    with pytest.raises(ValueError, match="at most 14 cards in denexa"):
        lay_off(fifteen, ["7H 8H 9H"], rules="denexa", dealt=9)
    assert lay_off(fifteen[3:], ["7H 8H 9H"], rules="denexa", dealt=9).deadwood_points == 0


def _every_lay_off(hand: list[Card], melds: list[Meld], name: str, dealt: int) -> tuple[int, int]:
    """The fewest (points, cards laid off) over every way to lay off, tried one by one."""
    r = rules(name)
    best = (evaluate(hand, r, dealt).deadwood_points, 0)

    def subsets(cards: list[Card]) -> set[tuple[Card, ...]]:
        out: set[tuple[Card, ...]] = set()
        for mask in range(1, 1 << len(cards)):
            out.add(tuple(sorted(c for i, c in enumerate(cards) if mask >> i & 1)))
        return out

    def go(i: int, left: list[Card], size: int) -> None:
        nonlocal best
        if i == len(melds):
            if size:
                best = min(best, (evaluate(left, r, dealt).deadwood_points, size))
            return
        go(i + 1, left, size)
        for added in subsets(left):
            if grow_meld(melds[i], added, r, dealt) is not None:
                rest = list(left)
                for c in added:
                    rest.remove(c)
                go(i + 1, rest, size + len(added))

    go(0, list(hand), 0)
    return best


@pytest.mark.parametrize("name", ["denexa", "family"])
def test_fewest_points_then_fewest_cards_as_trying_every_lay_off(name: str) -> None:
    rng = random.Random(f"fewest-{name}")
    r = rules(name)
    checked = 0
    for _ in range(60):
        dealt = rng.choice([3, 7, 9, 13])
        melds = random_declared(rng, name, dealt)
        hand = random_layoff_hand(rng, name, dealt, melds)[:5]
        counts = Counter(hand) + Counter(c for m in melds for c in m.cards)
        if any(n > Pack.of(r).count(c) for c, n in counts.items()):
            continue
        lo = lay_off(hand, melds, r, dealt)
        got = (lo.deadwood_points, len(lo.laid_off))
        assert got == _every_lay_off(hand, melds, name, dealt), (hand, [str(m) for m in melds])
        checked += 1
    assert checked >= 40


def _custom(name: str, **changes: object) -> Ruleset:
    return dataclasses.replace(rules(name), name=f"{name}-custom", **changes)  # type: ignore[arg-type]


def crowded_declared(rng: random.Random, r: Ruleset, dealt: int) -> list[Meld]:
    """Melds at the limits: runs and sets holding two wild cards, sets of four."""
    wilds = [c for c in Pack.of(r).cards() if r.is_wild(c, dealt)]
    suit, rank = rng.choice("SHDC"), rng.randint(1, 13)
    low = rng.randint(1, 9)
    run = [Card.regular(p, suit) for p in range(low, low + rng.randint(4, 5))]
    for i in rng.sample(range(len(run)), 2):
        run[i] = rng.choice(wilds)
    full = [Card.regular(rank, s) for s in "SHDC"]
    half = [*rng.sample(full, 2), *rng.sample(wilds, 2)]
    melds = []
    for cards in (run, full, half, [*full[:3], rng.choice(wilds)]):
        try:
            melds.append(parse_declared_meld(cards, r, dealt))
        except ValueError:
            continue
    return melds


CUSTOM_LIMITS = [
    rules("denexa"),
    rules("family"),
    rules("classic"),
    _custom("denexa", ace="low_or_high"),
    _custom("denexa", wild_at_most_half=False),
    _custom("denexa", set_distinct_suits=False, set_max=None),
    _custom("family", no_adjacent_wilds_in_run=True, ace="low_or_high"),
    _custom("family", wild_at_most_half=True),
]


@pytest.mark.parametrize("r", CUSTOM_LIMITS, ids=lambda r: r.name + str(CUSTOM_LIMITS.index(r)))
def test_single_lay_offs_are_the_cards_that_grow_a_meld_alone(r: Ruleset) -> None:
    # fitting_mask reads a set's or a run's single fits from the places a card could take,
    # and single_lay_offs reads the masks: both answers must be grow_meld's for every card
    # of the pack, wild limits and aces included.
    name = r.name.removesuffix("-custom")
    rng = random.Random(f"single-{r.name}-{CUSTOM_LIMITS.index(r)}")
    kinds = sorted(set(Pack.of(r).cards()))
    checked = 0
    for _ in range(40):
        dealt = rng.choice([3, 5, 7, 9, 12, 13])
        melds = crowded_declared(rng, r, dealt)
        for meld in random_declared(rng, name, dealt):
            try:
                melds.append(parse_declared_meld(meld, r, dealt))
            except ValueError:
                continue  # valid under the preset, not under the custom limits
        found = set(single_lay_offs(kinds[:30], melds, r, dealt))
        found |= set(single_lay_offs(kinds[30:], melds, r, dealt))
        for index, meld in enumerate(melds):
            mask = fitting_mask(meld, tables_for(r, dealt))
            for card in kinds:
                grows = grow_meld(meld, [card], r, dealt) is not None
                assert ((index, card) in found) == grows, (str(meld), str(card), dealt)
                assert bool(mask >> card.index & 1) == grows, (str(meld), str(card), dealt)
                checked += grows
    assert checked >= 100


@pytest.mark.parametrize("name", list(PAY_ME))
def test_one_search_scores_every_set_laid_off_as_evaluate_does(name: str) -> None:
    # For a hand without pure wild cards, or with pure wild cards all priced alike, the
    # lay-off search scores "the hand without these cards" as another start of one search
    # of the whole hand: it must be evaluate's answer.
    from payme.layoff import _starts

    rng = random.Random(f"without-{name}")
    r = rules(name)
    pack = Pack.of(r).cards()
    checked = jokers = 0
    for n in range(150):
        dealt = rng.randint(3, 13)
        t = tables_for(r, dealt)
        pool = [c for c in pack if c.index < 52]
        if n % 2:
            low = rng.randint(1, 9)
            pool = [c for c in pool if c.rank is not None and low <= c.rank < low + 5]
        if n % 3 == 0:
            pool += [c for c in pack if c.index >= 52]
        hand = tuple(sorted(rng.sample(pool, rng.randint(3, 14))))
        kinds = sorted(set(hand))
        started = _starts(hand, t, kinds)
        if started is None:
            continue
        jokers += any(c.index >= 52 for c in hand)
        for _ in range(4):
            laid = rng.sample(list(hand), rng.randint(1, len(hand) - 1))
            rest = list(hand)
            for c in laid:
                rest.remove(c)
            counts = [laid.count(c) for c in kinds]
            assert started(counts) == evaluate(rest, r, dealt).deadwood_points, (hand, laid)
            checked += 1
    assert checked >= 200
    assert jokers >= 10 or name == "classic"


@pytest.mark.parametrize(
    "ruleset", CUSTOM_LIMITS, ids=lambda r: r.name + str(CUSTOM_LIMITS.index(r))
)
def test_a_runs_lay_offs_are_those_growing_it_of_every_set_of_cards(ruleset: Ruleset) -> None:
    # The lay-off search lists a run's lay-offs from the places next to it (each holding
    # its own card or a wild card) instead of growing the run with every set of the hand's
    # candidate cards: both must find the same lay-offs, wild limits and aces included.
    # The search also drops the sizes and the cards beyond the reach of the wild cards
    # held: every size and every candidate card is compared here, those dropped included.
    # (Which cards could join a meld is read from a mask worked out from its rank, suit
    # and ends: for sets and runs alike, it must be the cards _candidates_in finds.)
    from payme.layoff import (
        _candidate_mask,
        _candidates,
        _candidates_in,
        _grow,
        _Meld,
        _multisets,
        _pack_kinds,
    )
    from payme.melds import RUN_MOST

    rng = random.Random(f"run-options-{ruleset.name}-{CUSTOM_LIMITS.index(ruleset)}")
    name = ruleset.name.removesuffix("-custom")
    compared = masks = 0
    for _ in range(120):
        dealt = rng.choice([3, 5, 7, 9, 12, 13])
        t = tables_for(ruleset, dealt)
        for meld in [*random_declared(rng, name, dealt), *crowded_declared(rng, ruleset, dealt)]:
            try:
                meld = parse_declared_meld(meld, ruleset, dealt)
            except ValueError:
                continue  # valid under the preset, not under the custom limits
            found = _candidates_in(meld, _pack_kinds(t), t)
            assert _candidate_mask(meld, t) == sum(1 << c.index for c in found), str(meld)
            masks += 1
            hand = random_layoff_hand(rng, name, dealt, [meld])
            hand += random_layoff_hand(rng, name, dealt, [meld])
            m = _Meld(meld, Counter(hand), t)
            if m.places is None:
                continue
            every = _candidates(meld, Counter(hand), t)
            kinds, most = sorted(every), [every[c] for c in sorted(every)]
            for size in range(1, min(RUN_MOST - len(meld), sum(most)) + 1):
                tried = (
                    tuple(c for c, n in zip(kinds, counts, strict=True) for _ in range(n))
                    for counts in _multisets(most, size)
                )
                expected = sorted(a for a in tried if _grow(meld, a, t) is not None)
                assert m.options(size) == expected, (str(meld), hand, size, dealt)
                compared += 1
    assert compared >= 100
    assert masks >= 200


@given(
    st.sampled_from(list(PAY_ME)),
    st.sampled_from([3, 7, 9, 12, 13]),
    st.integers(0, 2**32),
)
def test_the_games_best_lay_off_is_lay_offs(name: str, dealt: int, seed: int) -> None:
    """``best_placements`` (the game's path: the hand's layout known, its shortcuts for a
    hand with nothing to gain) answers as :func:`lay_off` does."""
    rng = random.Random(seed)
    r = rules(name)
    melds = random_declared(rng, name, dealt)
    hand = tuple(sorted(random_layoff_hand(rng, name, dealt, melds)[: dealt + 1]))
    counts = Counter(hand) + Counter(c for m in melds for c in m.cards)
    if any(n > Pack.of(r).count(c) for c, n in counts.items()):
        return
    ev = evaluate(hand, r, dealt)
    lo = lay_off(hand, melds, r, dealt)
    assert best_placements(hand, melds, r, dealt, (ev.deadwood_points, ev.deadwood)) == (
        lo.deadwood_points,
        lo.lay_offs,
    )


# --- the hardest case reported (issue 27.6) against a plain listing -------------------------

ISSUE_27_HAND = "2S KH KD 2H 2C JK 2H 2D 3S 6S 7D 3S 8C 6S"
ISSUE_27_MELDS = [
    "7S 8S 9S TS",
    "KS 3C 3D",
    "9D TD JK",
    "5C 6C 7C",
    "KS QH QD",
    "4C 5C 6C KH",
    "AS AH AD",
    "5D 6D KS 8D",
    "7C 8C 9C TC",
    "JK 7D 7C",
    "4H 4D 4S",
]


def _sub_multisets(cards: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    counts = sorted(Counter(cards).items())
    out: list[tuple[Card, ...]] = [()]
    for card, n in counts:
        out = [(*part, *([card] * k)) for part in out for k in range(n + 1)]
    return [tuple(sorted(part)) for part in out if part]


def listing_lay_off(
    hand: str | tuple[Card, ...], declared: list[str] | list[Meld], name: str, dealt: int
) -> tuple[int, tuple[tuple[int, tuple[Card, ...]], ...]]:
    """The joint optimum by listing: every set of the hand's cards that grows each meld
    (``grow_meld``), every way of giving the melds such sets (the first way to each set of
    cards left, melds in order, nothing before something, fewer cards before more), each
    set of cards left evaluated; the fewest points, then the fewest cards laid off, the most
    points laid off, the first way.  No bound, no bitsets: slow and plain."""
    r = rules(name)
    cards = tuple(sorted(parse_hand(hand) if isinstance(hand, str) else hand))
    melds = [parse_declared_meld(m, r, dealt) for m in declared]
    subs = _sub_multisets(cards)
    shares = [
        sorted(
            (s for s in subs if grow_meld(m, s, r, dealt) is not None), key=lambda s: (len(s), s)
        )
        for m in melds
    ]
    first: dict[tuple[Card, ...], tuple[tuple[int, tuple[Card, ...]], ...]] = {}
    seen: set[tuple[int, tuple[Card, ...]]] = set()

    def spread(
        i: int, left: Counter[Card], choice: tuple[tuple[int, tuple[Card, ...]], ...]
    ) -> None:
        key = (i, tuple(sorted(left.elements())))
        if key in seen:
            return
        seen.add(key)
        if i == len(melds):
            first.setdefault(key[1], choice)
            return
        spread(i + 1, left, choice)
        for share in shares[i]:
            need = Counter(share)
            if all(left[c] >= n for c, n in need.items()):
                spread(i + 1, left - need, (*choice, (i, share)))

    spread(0, Counter(cards), ())
    ranked = []
    for order, (left, choice) in enumerate(first.items()):
        laid = [c for _, share in choice for c in share]
        value = evaluate(left, r, dealt).deadwood_points
        ranked.append(
            (value, len(laid), -sum(r.card_points(c, dealt) for c in laid), order, choice)
        )
    best = min(ranked)
    return best[0], best[4]


def test_the_hardest_reported_case_matches_a_plain_listing() -> None:
    # Issue 27.6: 14 cards with 8 wild cards against 11 melds (0.70 s of CPU before the
    # search found every set laid off at once; its time is in `python -m benchmarks layoff`).
    want_points, want_choice = listing_lay_off(ISSUE_27_HAND, ISSUE_27_MELDS, "denexa", 13)
    lo = lay_off(ISSUE_27_HAND, ISSUE_27_MELDS, rules="denexa", dealt=13)
    got = tuple((i, tuple(sorted(cards))) for i, cards in lo.lay_offs)
    assert (lo.deadwood_points, got) == (want_points, want_choice)
    assert lo.deadwood_points == 5
    check_consistent(lo, tuple(parse_hand(ISSUE_27_HAND)))


@pytest.mark.parametrize("name", ["denexa", "family"])
def test_hard_random_positions_match_a_plain_listing(name: str) -> None:
    # Positions built to be hard (many wild cards and open melds, cards near the melds),
    # small enough for the listing: the same points and the same lay-offs.
    from benchmarks.layoff_positions import hard_position

    rng = random.Random(f"hard-{name}")
    for _ in range(12):
        p = hard_position(rng, name, melds=rng.randint(3, 8), cards=rng.randint(5, 9))
        want = listing_lay_off(p.hand, list(p.melds), name, p.dealt)
        lo = lay_off(p.hand, p.melds, rules=name, dealt=p.dealt)
        got = tuple((i, tuple(sorted(cards))) for i, cards in lo.lay_offs)
        assert (lo.deadwood_points, got) == want, str(p)
