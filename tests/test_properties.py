"""Hand evaluation against the brute-force reference, and its properties under hypothesis.

Part one deals thousands of seeded random hands of up to 8 cards per rule set (uniform,
wild-heavy, meld-rich and adjacent-rank hands, several ``dealt`` values, drawn from the rule
set's largest pack) and checks that ``evaluate``, ``check_meld`` and ``can_go_out`` give
the reference's answers.  Part two states the properties of a best layout for any hand.

These are long randomised checks (marked ``slow`` for the record, not skipped): together
about a minute or two on a shared 2-core machine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import Reference, meld_ok

from payme.cards import Card, format_hand, parse_hand
from payme.melds import check_meld
from payme.pack import Pack
from payme.rulesets import PRESETS, Ruleset, rules
from payme.solver import best_discard, can_go_out, evaluate
from tests.presets import ALL

RULE_SETS = ALL
PAY_ME_DEALT = (3, 4, 5, 7, 8, 9, 11, 13)
HANDS_PER_GENERATOR = 500  # x 4 generators = 2,000 hands per rule set


def dealt_values(name: str) -> tuple[int, ...]:
    return (7,) if PRESETS[name].game == "rummy_3_pack" else PAY_ME_DEALT


@cache
def pack_cards(name: str) -> tuple[Card, ...]:
    """The largest pack of a rule set, every copy listed."""
    return tuple(Pack.of(rules(name)).cards())


def wild_cards(r: Ruleset, dealt: int) -> list[Card]:
    return [c for c in pack_cards(r.name) if r.is_wild(c, dealt)]


def _take(pool: Counter[Card], card: Card) -> bool:
    if pool[card] > 0:
        pool[card] -= 1
        return True
    return False


# --- hand generators (each respects the pack's copies) ---------------------------------------

Generator = Callable[[random.Random, Ruleset, int], list[Card]]


def uniform_hand(rng: random.Random, r: Ruleset, dealt: int) -> list[Card]:
    return rng.sample(pack_cards(r.name), rng.randint(1, 8))


def wild_heavy_hand(rng: random.Random, r: Ruleset, dealt: int) -> list[Card]:
    pool = Counter(pack_cards(r.name))
    wilds = wild_cards(r, dealt)
    specials = [c for c in pool if c.special is not None]
    hand: list[Card] = []
    size = rng.randint(3, 8)
    while len(hand) < size:
        roll = rng.random()
        source = wilds if roll < 0.45 else specials if roll < 0.55 and specials else None
        card = rng.choice(source) if source else rng.choice(pack_cards(r.name))
        if _take(pool, card):
            hand.append(card)
    return hand


def meld_rich_hand(rng: random.Random, r: Ruleset, dealt: int) -> list[Card]:
    """One or two melds (sets or runs), perturbed with wild cards and stray cards."""
    pool = Counter(pack_cards(r.name))
    wilds = wild_cards(r, dealt)
    hand: list[Card] = []
    for _ in range(rng.randint(1, 2)):
        if rng.random() < 0.5:
            rank = rng.randint(1, 13)
            suits = [rng.choice("SHDC") for _ in range(rng.randint(3, 4))]
            meld = [Card.regular(rank, s) for s in suits]
        else:
            suit, low = rng.choice("SHDC"), rng.randint(1, 11)
            meld = [Card.regular(x, suit) for x in range(low, min(low + rng.randint(3, 5), 14))]
        for card in meld:
            if wilds and rng.random() < 0.2:
                card = rng.choice(wilds)
            if len(hand) < 8 and _take(pool, card):
                hand.append(card)
    while len(hand) < 8 and rng.random() < 0.5:
        card = rng.choice(pack_cards(r.name))
        if _take(pool, card):
            hand.append(card)
    return hand


def adjacent_hand(rng: random.Random, r: Ruleset, dealt: int) -> list[Card]:
    """Cards of three or four adjacent ranks, so that sets and runs compete for them."""
    low = rng.randint(1, 11)
    pool = Counter(pack_cards(r.name))
    choices = [c for c in pool if c.rank is not None and low <= c.rank < low + rng.randint(3, 4)]
    choices += wild_cards(r, dealt)[:2]
    hand: list[Card] = []
    size = rng.randint(4, 8)
    while len(hand) < size:
        card = rng.choice(choices)
        if _take(pool, card):
            hand.append(card)
    return hand


GENERATORS: dict[str, Generator] = {
    "uniform": uniform_hand,
    "wild-heavy": wild_heavy_hand,
    "meld-rich": meld_rich_hand,
    "adjacent": adjacent_hand,
}


def hands_for(name: str, generator: str) -> Iterator[tuple[int, list[Card]]]:
    rng = random.Random(f"{name}/{generator}")
    r = rules(name)
    values = dealt_values(name)
    for i in range(HANDS_PER_GENERATOR):
        dealt = values[i % len(values)]
        yield dealt, GENERATORS[generator](rng, r, dealt)


@cache
def reference(name: str, dealt: int) -> Reference:
    return Reference(rules(name), dealt)


# --- part one: the reference agrees -----------------------------------------------------------

# Worked by hand from RULES.md, so that the reference itself is checked too.
WORKED = [
    ("denexa", 7, "7H 8H 9H JK 2C 5S 5D 5C", 0),  # 2C stands for 6H; JK for TH
    ("denexa", 5, "KS KD 2H 9C", 10),  # K K 2: one wild of three
    ("denexa", 9, "9H 9S 5C", 35),  # two wild of three breaks the half limit: 15 + 15 + 5
    ("classic", 9, "9H 9S 5C", 0),  # no wild limits in classic
    ("classic", 9, "9H KS", 20),  # a round-wild-rank card in deadwood scores by its rank
    ("denexa", 3, "QH KH AH", 25),  # ace low: Q-K-A is no run; 10 + 10 + 5
    ("denexa", 3, "7S 7S 7H", 15),  # no suit twice in a denexa set
    ("family", 3, "7S 7S 7H", 0),  # suits may repeat in family
    ("family", 3, "AS 2D 9C KH", 36),  # 15 + 2 + 9 + 10
    ("family", 5, "JK JK JK", 0),  # a meld of wild cards only
    ("family", 5, "JK JK JK 9C", 0),  # or a set of nines with three wild cards
    ("denexa", 5, "JK JK JK 9C", 55),  # never in denexa: 3 x 15 + 10
    ("three_pack", 7, "QH KH AH", 0),  # ace high in Rummy 3-Pack
    ("three_pack", 7, "KH AH 2H", 3),  # never around the corner
    ("three_pack", 7, "RUMMY NOGO NOMELD WILD", 3),  # RUMMY melds alone
    ("three_pack", 7, "GROUP WILD WILD SEQ", 1),  # GROUP and SEQ never share a meld
]


@pytest.mark.parametrize(("name", "dealt", "hand", "points"), WORKED)
def test_worked_examples(name: str, dealt: int, hand: str, points: int) -> None:
    cards = parse_hand(hand)
    assert reference(name, dealt).best_points(cards) == points
    assert evaluate(cards, name, dealt).deadwood_points == points


@pytest.mark.slow
@pytest.mark.parametrize("generator", sorted(GENERATORS))
@pytest.mark.parametrize("name", RULE_SETS)
def test_evaluate_matches_the_reference(name: str, generator: str) -> None:
    wrong = []
    for dealt, hand in hands_for(name, generator):
        got = evaluate(hand, name, dealt).deadwood_points
        want = reference(name, dealt).best_points(hand)
        if got != want:
            wrong.append(f"{format_hand(hand)} dealt {dealt}: evaluate {got}, reference {want}")
    assert not wrong, f"{len(wrong)} differ, e.g.\n" + "\n".join(wrong[:10])


@pytest.mark.slow
@pytest.mark.parametrize("name", RULE_SETS)
def test_can_go_out_matches_the_reference(name: str) -> None:
    """Hands of dealt + 1 cards (up to 8), meld-rich so that going out is often possible."""
    rng = random.Random(f"go-out/{name}")
    r = rules(name)
    values = [d for d in dealt_values(name) if d + 1 <= 8] or [7]
    wrong, possible = [], 0
    for i in range(400):
        dealt = values[i % len(values)]
        size = dealt + 1 if r.game == "pay_me" else rng.randint(2, 8)
        gen = (meld_rich_hand, adjacent_hand, wild_heavy_hand)[i % 3]
        hand = gen(rng, r, dealt)
        pool = Counter(pack_cards(name)) - Counter(hand)
        while len(hand) < size:
            card = rng.choice(pack_cards(name))
            if _take(pool, card):
                hand.append(card)
        hand = hand[:size]
        out = can_go_out(hand, name, dealt)
        want = reference(name, dealt).go_out_discards(hand)
        possible += bool(want)
        if (
            set(out.discards) != want
            or out.ok != bool(want)
            or len(set(out.discards)) != len(out.discards)
        ):
            wrong.append(f"{format_hand(hand)} dealt {dealt}: {out.discards} vs {want}")
    assert not wrong, "\n".join(wrong[:10])
    assert possible >= 40, "the generator should give hands that can go out"


@pytest.mark.slow
@pytest.mark.parametrize("name", RULE_SETS)
def test_check_meld_matches_the_reference(name: str) -> None:
    """Groups of 1-6 cards, mostly of one rank or one suit plus wild cards."""
    rng = random.Random(f"melds/{name}")
    r = rules(name)
    wrong = []
    for i in range(1500):
        dealt = dealt_values(name)[i % len(dealt_values(name))]
        pool = Counter(pack_cards(name))
        base = rng.randint(1, 13)
        suit = rng.choice("SHDC")
        near = [
            c
            for c in pool
            if c.rank is not None
            and (c.rank == base or (c.suit == suit and abs(c.rank - base) <= 3))
        ]
        choices = near + wild_cards(r, dealt) + [c for c in pool if c.special is not None]
        group: list[Card] = []
        for _ in range(rng.randint(1, 6)):
            card = rng.choice(choices)
            if _take(pool, card):
                group.append(card)
        got = check_meld(group, name, dealt)
        want = meld_ok(group, r, dealt)
        if got.ok != want:
            wrong.append(f"{format_hand(group)} dealt {dealt}: {got.reason} (reference {want})")
        elif got.ok:
            assert got.meld is not None
            assert Counter(got.meld.cards) == Counter(group)
    assert not wrong, "\n".join(wrong[:10])


# --- part two: properties of every best layout --------------------------------------------------


@st.composite
def deals(draw: st.DrawFn, max_cards: int = 12) -> tuple[str, int, list[Card]]:
    """A rule set, a ``dealt`` and a hand from its largest pack (copies respected)."""
    name = draw(st.sampled_from(RULE_SETS))
    dealt = draw(st.sampled_from(dealt_values(name)))
    pack = pack_cards(name)
    r = rules(name)
    wild_places = [i for i, c in enumerate(pack) if r.is_wild(c, dealt)]
    near_rank = draw(st.integers(1, 10))
    near_places = [i for i, c in enumerate(pack) if c.rank and near_rank <= c.rank < near_rank + 4]
    place = st.one_of(
        st.integers(0, len(pack) - 1),
        st.sampled_from(wild_places),
        st.sampled_from(near_places),
    )
    places = draw(st.lists(place, unique=True, max_size=max_cards))
    return name, dealt, [pack[i] for i in places]


@given(deals(), st.randoms(use_true_random=False))
def test_a_best_layout_is_a_valid_partition_and_order_free(
    deal: tuple[str, int, list[Card]], rng: random.Random
) -> None:
    name, dealt, hand = deal
    r = rules(name)
    ev = evaluate(hand, name, dealt)
    # The layout partitions the hand.
    assert Counter(c for m in ev.melds for c in m.cards) + Counter(ev.deadwood) == Counter(hand)
    # Every meld is valid, and the points are the deadwood's.
    for meld in ev.melds:
        assert check_meld(meld.cards, name, dealt).ok, meld
    assert ev.deadwood_points == sum(r.card_points(c, dealt) for c in ev.deadwood)
    # The order of the hand does not matter, even among ties.
    shuffled = list(hand)
    rng.shuffle(shuffled)
    again = evaluate(shuffled, name, dealt)
    assert (again.melds, again.deadwood, again.deadwood_points) == (
        ev.melds,
        ev.deadwood,
        ev.deadwood_points,
    )


@given(deals())
def test_no_deadwood_card_fits_into_a_meld(deal: tuple[str, int, list[Card]]) -> None:
    """Moving one deadwood card into one meld never gives a valid meld (and fewer points)."""
    name, dealt, hand = deal
    r = rules(name)
    ev = evaluate(hand, name, dealt)
    for card in set(ev.deadwood):
        if r.card_points(card, dealt) <= 0:
            continue
        for meld in ev.melds:
            assert not check_meld((*meld.cards, card), name, dealt).ok, (meld, card)


@st.composite
def hands_after_drawing(draw: st.DrawFn) -> tuple[str, int, list[Card]]:
    """A hand just after drawing: dealt + 1 cards in Pay Me (dealt 3-7), 1-8 in Rummy 3-Pack."""
    name = draw(st.sampled_from(RULE_SETS))
    pay_me = rules(name).game == "pay_me"
    dealt = draw(st.sampled_from([d for d in dealt_values(name) if d <= 7] if pay_me else [7]))
    size = dealt + 1 if pay_me else draw(st.integers(1, 8))
    pack = pack_cards(name)
    r = rules(name)
    low = draw(st.integers(1, 10))
    likely = [
        i
        for i, c in enumerate(pack)
        if r.is_wild(c, dealt) or (c.rank is not None and low <= c.rank < low + 4)
    ]
    place = st.one_of(st.integers(0, len(pack) - 1), st.sampled_from(likely))
    places = draw(st.lists(place, unique=True, min_size=size, max_size=size))
    return name, dealt, [pack[i] for i in places]


@given(hands_after_drawing())
def test_can_go_out_agrees_with_the_reference(deal: tuple[str, int, list[Card]]) -> None:
    name, dealt, hand = deal
    out = can_go_out(hand, name, dealt)
    want = reference(name, dealt).go_out_discards(hand)
    assert out.ok == bool(want)
    assert set(out.discards) == want and len(out.discards) == len(want)
    cards = [c for c in out.discards if c is not None]
    assert cards == sorted(cards), "discards are listed in canonical order"


@given(deals(max_cards=12))
def test_best_discard_agrees_with_trying_every_discard(deal: tuple[str, int, list[Card]]) -> None:
    name, dealt, hand = deal
    r = rules(name)
    allowed = sorted({c for c in hand if c.token not in r.never_discarded})
    if not allowed:
        return
    card, ev = best_discard(hand, name, dealt)
    each = {}
    for c in allowed:
        rest = list(hand)
        rest.remove(c)
        each[c] = evaluate(rest, name, dealt).deadwood_points
    assert card in each
    assert ev.deadwood_points == min(each.values()) == each[card]
    rest = list(hand)
    rest.remove(card)
    assert Counter(ev.cards) == Counter(rest)
