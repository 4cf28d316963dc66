"""Best layouts and penalty points, worked out by hand from RULES.md for each rule set."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from payme import CardError, best_discard, check_meld, evaluate, parse_hand, rules
from payme.cards import CARDS, Card, format_hand
from payme.pack import MAX_HAND
from payme.rulesets import CLASSIC, DENEXA, FAMILY, Ruleset
from payme.rulesets import THREE_PACK as THREE
from payme.solver import Evaluation
from tests.presets import ALL


def points(hand: str, r: object = "denexa", dealt: int | None = 9) -> int:
    return evaluate(hand, rules=r, dealt=dealt).deadwood_points  # type: ignore[arg-type]


def assert_sound(hand: str, r: object, dealt: int | None) -> None:
    """The layout partitions the hand, every meld is valid, points add up."""
    ev = evaluate(hand, rules=r, dealt=dealt)  # type: ignore[arg-type]
    rs = rules(r)  # type: ignore[arg-type]
    laid = sorted([c for m in ev.melds for c in m.cards] + list(ev.deadwood))
    assert laid == sorted(parse_hand(hand))
    for m in ev.melds:
        assert check_meld(m.cards, rules=rs, dealt=dealt).ok, str(m)
    assert ev.deadwood_points == sum(rs.card_points(c, dealt) for c in ev.deadwood)


# --- penalty points -----------------------------------------------------------------


def test_denexa_points() -> None:
    # A to 7 score 5, 8 to K 10, wild cards 15 (jokers, twos, the round wild rank).
    assert points("AS 7D") == 10
    assert points("8S KD") == 20
    assert points("JK") == 15
    assert points("2C") == 15
    assert points("9C", dealt=9) == 15  # the round wild rank scores as a wild card
    assert points("9C", dealt=8) == 10


def test_classic_points() -> None:
    assert points("AS 7D 8S KD", CLASSIC) == 30
    assert points("JK", CLASSIC) == 15
    assert points("2C", CLASSIC) == 5  # twos are not wild in classic
    assert points("9C", CLASSIC, dealt=9) == 10  # the wild rank scores by its rank
    assert points("5C", CLASSIC, dealt=5) == 5


def test_family_points() -> None:
    # 2 to 10 face value; J, Q, K 10; A 15; joker 25.
    assert points("AS 2D 9C KH", FAMILY, dealt=3) == 36
    assert points("TS JD QS", FAMILY, dealt=3) == 30
    assert points("TS JS QS", FAMILY, dealt=3) == 0
    assert points("JK", FAMILY) == 25
    assert points("9C", FAMILY, dealt=9) == 9  # a nine in family scores 9


def test_three_pack_counts_unmelded_cards() -> None:
    assert points("RUMMY NOMELD NOGO 5H", THREE, None) == 3  # RUMMY is melded
    assert points("WILD WILD WILD", THREE, None) == 0
    assert points("WILD WILD", THREE, None) == 2
    assert points("5H 5S 5D NOMELD", THREE, None) == 1
    assert points("GROUP SEQ WILD WILD", THREE, None) == 1  # GROUP+2 WILD or SEQ+2 WILD
    assert points("GROUP SEQ WILD WILD WILD WILD", THREE, None) == 0


def test_empty_hand() -> None:
    ev = evaluate("", rules="denexa", dealt=3)
    assert ev.deadwood_points == 0 and ev.melds == () and ev.deadwood == ()


# --- best layouts -------------------------------------------------------------------


def test_simple_layouts() -> None:
    assert points("5H 6H 7H 9S 9D 9C QS", dealt=3) == 10
    # Two separate melds of the same rank (three packs in denexa).
    assert points("5H 5S 5D 5H 5S 5C") == 0
    # The same cards with a gap: the joker fills it.
    assert points("5H JK 7H KC KD KS") == 0


def test_wild_cards_are_used_where_they_save_most() -> None:
    # 7D 8D + the 2C as 9D is a run; AS and KC stay: 15.
    assert points("AS 7D 8D KC 2C", dealt=5) == 15
    # KS KD + 2H as KH.
    ev = evaluate("KS KD 2H 9C", rules="denexa", dealt=5)
    assert ev.deadwood_points == 10
    assert [str(m) for m in ev.melds] == ["KS 2H(KH) KD"]


def test_denexa_wild_limits_cost_points() -> None:
    # 5H with two jokers breaks the half-wild limit in denexa, not in classic.
    assert points("5H JK JK") == 35
    assert points("5H JK JK", CLASSIC) == 0
    # Two wild cards next to each other in a run: no run in denexa.
    assert points("5H JK JK 8H") == 45
    assert points("5H JK JK 8H", CLASSIC) == 0
    assert points("JK JK JK") == 45
    assert points("JK JK JK", CLASSIC) == 0


def test_wild_rank_card_plays_natural_or_wild() -> None:
    # 7 dealt: 7H 7H 7S is a valid denexa set (one 7H stands for 7D or 7C).
    assert points("7H 7H 7S", dealt=7) == 0
    assert points("7H 7H 7S", dealt=8) == 15
    # A 7 as itself in a run, another 7 as a wild card in a set.
    assert points("5H 6H 7H 7C QS QD", dealt=7) == 0


def test_denexa_sets_need_distinct_suits() -> None:
    assert points("5H 5H 5H") == 15
    assert points("5H 5H 5S", CLASSIC) == 0
    assert points("5H 5H 5S") == 15


def test_denexa_long_alternating_run() -> None:
    # 5H W 7H W 9H W JH: three wild of seven, never two side by side.
    assert points("5H JK 7H JK 9H 2C JH", dealt=3) == 0


def test_classic_big_set_and_all_wild_meld() -> None:
    assert points("5H 5H 5S 5D 5C 5C", CLASSIC) == 0
    assert points("JK JK JK 4D JK", CLASSIC, dealt=5) == 0


def test_three_pack_layouts() -> None:
    assert points("QH KH AH 2S 3S", THREE, None) == 2  # Q-K-A; 2S 3S alone
    assert points("KH AH 2H", THREE, None) == 3  # never wraps
    # One ace cannot be both: QH KH AH leaves 2H 3H, AH 2H 3H leaves QH KH.
    assert points("QH KH AH 2H 3H", THREE, None) == 2
    assert points("QH KH AH 2H 3H AS", THREE, None) == 3
    assert points("QH KH AH 2H 3H AH", THREE, None) == 0


def test_custom_rule_sets() -> None:
    no_twos = dataclasses.replace(DENEXA, name="denexa-no-twos", wild_ranks=())
    assert points("2C 7D 8D", DENEXA, dealt=5) == 0
    assert points("2C 7D 8D", no_twos, dealt=5) == 20
    loose = dataclasses.replace(DENEXA, name="loose", set_max=None, set_distinct_suits=False)
    assert points("5H 5H 5S 5D 5C", loose) == 0
    assert points("5H 5H 5S 5D 5C", DENEXA) == 5
    plain_jokers = dataclasses.replace(FAMILY, name="family-no-jokers", jokers_wild=False)
    assert points("JK 5H 5S", plain_jokers) == 35
    assert points("JK 5H 5S", FAMILY) == 0


# --- determinism and soundness --------------------------------------------------------


def test_same_result_for_any_card_order() -> None:
    hand = parse_hand("5H 6H 7H 7C QS QD JK 2C 9D 9S")
    first = evaluate(hand, rules="denexa", dealt=7)
    for perm in itertools.islice(itertools.permutations(hand), 0, 40_000, 997):
        ev = evaluate(perm, rules="denexa", dealt=7)
        assert ev.melds == first.melds
        assert ev.deadwood == first.deadwood


@pytest.mark.parametrize("name", ALL)
def test_random_layouts_are_sound(name: str) -> None:
    rs = rules(name)
    rng = random.Random(11)
    pack = [CARDS[i] for i, n in enumerate(rs.pack_counts(None)) for _ in range(n)]
    for _ in range(60):
        dealt = None if name == "three_pack" else rng.randint(3, 13)
        hand = rng.sample(pack, rng.randint(1, 16))
        assert_sound(" ".join(map(str, hand)), rs, dealt)


def test_largest_hand() -> None:
    rng = random.Random(2)
    pack = [CARDS[i] for i, n in enumerate(DENEXA.pack_counts(None)) for _ in range(n)]
    hand = " ".join(map(str, rng.sample(pack, MAX_HAND)))
    assert_sound(hand, DENEXA, 13)
    with pytest.raises(CardError, match="too large"):
        evaluate(hand + " 5H", rules="denexa", dealt=13)


def test_errors() -> None:
    with pytest.raises(CardError, match="1X"):
        evaluate("5H 1X", rules="denexa", dealt=5)
    with pytest.raises(CardError, match="JK"):
        evaluate("JK", rules="three_pack")
    with pytest.raises(CardError, match="5H"):
        evaluate("5H 5H 5H", rules="classic", dealt=5)
    with pytest.raises(ValueError, match="3 to 13"):
        evaluate("5H", rules="denexa")
    with pytest.raises(ValueError, match="3 to 13"):
        evaluate("5H", rules="family", dealt=2)


# --- best discard ---------------------------------------------------------------------


def test_best_discard() -> None:
    card, ev = best_discard("5H 6H 7H 8H KC 3S", rules="denexa", dealt=9)  # it unpacks
    assert isinstance(ev, Evaluation)
    assert (str(card), ev.deadwood_points) == ("KC", 5)
    assert str(best_discard("5H 6H 7H 9C", rules="classic", dealt=3).card) == "9C"
    # Any card of 5H 6H 7H JK may go: the other three still make a run.
    assert best_discard("5H 6H 7H JK", rules="denexa", dealt=3).deadwood_points == 0
    # The joker extends the run to four cards, so the king is the card to throw.
    got = best_discard("5H 6H 7H JK KC", rules="denexa", dealt=3)
    assert (str(got.card), got.deadwood_points) == ("KC", 0)


def test_best_discard_matches_every_single_discard() -> None:
    rng = random.Random(5)
    pack = [CARDS[i] for i, n in enumerate(DENEXA.pack_counts(None)) for _ in range(n)]
    for _ in range(40):
        dealt = rng.randint(3, 13)
        hand = rng.sample(pack, dealt + 1)
        got = best_discard(hand, rules="denexa", dealt=dealt)
        each = []
        for i in range(len(hand)):
            each.append(evaluate(hand[:i] + hand[i + 1 :], rules="denexa", dealt=dealt))
        assert got.deadwood_points == min(e.deadwood_points for e in each)
        kept = list(hand)
        kept.remove(got.card)
        assert sorted(got.evaluation.cards) == sorted(kept)


def test_best_discard_never_throws_a_barred_card() -> None:
    got = best_discard("NOGO 5H 5S 5D", rules="three_pack")
    assert str(got.card) != "NOGO"
    assert got.deadwood_points == 3
    got = best_discard("NOMELD NOGO 5H 5S 5D 5C", rules="three_pack")
    assert str(got.card) in ("5S", "5H", "5D", "5C")
    assert got.deadwood_points == 2
    with pytest.raises(ValueError, match="discard"):
        best_discard("NOGO NOMELD", rules="three_pack")


def test_best_discard_respects_a_custom_bar() -> None:
    # A lone joker is the best discard (30 left) ...
    got = best_discard("AS 5H 9D KC JK", rules="denexa", dealt=3)
    assert (str(got.card), got.deadwood_points) == ("JK", 30)
    # ... unless a custom rule set forbids discarding jokers: then a ten-point card goes.
    no_joker = dataclasses.replace(DENEXA, name="keep-jokers", never_discarded=("JK",))
    got = best_discard("AS 5H 9D KC JK", rules=no_joker, dealt=3)
    assert str(got.card) in ("9D", "KC")
    assert got.deadwood_points == 35


def test_wild_may_stand_for_a_card_already_in_the_hand() -> None:
    # The joker plays 6H in the run while the real 6H sits in a set of sixes.
    ev = evaluate("5H JK 7H 6H 6S 6D", rules="denexa", dealt=9)
    assert ev.deadwood_points == 0
    run = next(m for m in ev.melds if m.kind == "run")
    assert [str(c) for c in run.stands_for] == ["5H", "6H", "7H"]


def test_copy_limits_are_the_largest_pack() -> None:
    assert points("WILD " * 7, THREE, None) == 0  # 1 required + 6 optional
    with pytest.raises(CardError, match="WILD"):
        evaluate("WILD " * 8, rules="three_pack")
    assert points("NOGO NOGO NOGO", THREE, None) == 3
    with pytest.raises(CardError, match="NOGO"):
        evaluate("NOGO " * 4, rules="three_pack")
    assert points("JK JK JK JK", CLASSIC, dealt=5) == 0
    assert points("JK " * 6, DENEXA, dealt=5) == 90  # 3 packs: 6 jokers, none meldable
    with pytest.raises(CardError, match="JK"):
        evaluate("JK " * 5, rules="classic", dealt=5)  # classic: 2 packs, 4 jokers


@pytest.mark.parametrize(
    ("half", "adjacent"), [(False, False), (False, True), (True, False), (True, True)]
)
def test_longest_needed_run_table_matches_its_search(half: bool, adjacent: bool) -> None:
    from types import SimpleNamespace

    from payme.solver.shapes import _KNOWN_LONGEST, _longest_unsplittable_run

    t = SimpleNamespace(
        run_min=3,
        half_limit=half,
        adjacent_limit=adjacent,
        all_wild_run_ok=not half and not adjacent,
    )
    assert _KNOWN_LONGEST[(3, half, adjacent)] == _longest_unsplittable_run(t)  # type: ignore[arg-type]


def test_long_runs_built_from_pieces() -> None:
    # Thirteen hearts and a joker: one long run is two (or more) shorter ones.
    assert points("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH JK", dealt=12) == 0
    # N W N W N W cannot be cut (W N W breaks the half-wild limit): a six-card run.
    assert points("5H JK 7H JK 9H JK", dealt=3) == 0
    ev = evaluate("5H JK 7H JK 9H JK", rules="denexa", dealt=3)
    assert [len(m) for m in ev.melds] == [6]


def test_a_long_natural_run_is_shown_whole() -> None:
    ev = evaluate("5H 6H 7H 8H 9H TH", rules="denexa", dealt=3)
    assert [str(m) for m in ev.melds] == ["5H 6H 7H 8H 9H TH"]
    ev = evaluate("9H TH JH QH KH AH", rules="three_pack")
    assert [(m.low, m.high) for m in ev.melds] == [(9, 14)]


# --- the lean path for hands without wild cards -------------------------------------


def _general(hand: tuple[Card, ...], r: Ruleset, dealt: int | None) -> Evaluation:
    """The general search's evaluation of a hand (the lean path left out)."""
    from payme.melds import tables_for
    from payme.solver import _evaluation
    from payme.solver.search import Search
    from payme.solver.shapes import book_for

    t = tables_for(r, dealt)
    return _evaluation(hand, t, Search(hand, t, t.points, book_for(t)), 1)[1]


def _shown(e: Evaluation) -> tuple[object, ...]:
    melds = [(m.kind, m.cards, m.stands_for) for m in e.melds]
    return e.cards, melds, e.deadwood, e.deadwood_points


GIN_LIKE = dataclasses.replace(
    CLASSIC, name="gin_like", packs=((6, 1),), jokers_per_pack=0, jokers_wild=False,
    round_rank_wild=False, set_max=4, set_distinct_suits=True, ace="low",
)  # fmt: skip


def _natural_hands(
    r: Ruleset, dealt: int | None, rng: random.Random, n: int, least: int
) -> list[tuple[Card, ...]]:
    """Hands of natural cards only (regular, not wild this round), copies as the pack
    allows, of ``least`` to 14 cards: every other one drawn from five adjacent ranks (many
    melds, runs that meet)."""
    from payme.melds import tables_for

    t = tables_for(r, dealt)
    pack = [
        CARDS[i]
        for i, k in enumerate(t.largest_pack)
        if i < 52 and t.scope[i] is None
        for _ in range(k)
    ]
    hands = []
    for h in range(n):
        size = rng.randint(least, 14)
        pool = pack
        if h % 2:
            low = rng.randint(1, 9)
            pool = [c for c in pack if low <= c.index % 13 + 1 < low + 5]
        hands.append(tuple(rng.sample(pool, min(size, len(pool)))))
    return hands


@pytest.mark.parametrize(
    ("r", "dealt"),
    [(DENEXA, 7), (DENEXA, 13), (CLASSIC, 9), (FAMILY, 5), (THREE, None), (GIN_LIKE, 10)],
    ids=["denexa7", "denexa13", "classic", "family", "three_pack", "gin_like"],
)
def test_lean_path_gives_the_general_layout(r: Ruleset, dealt: int | None) -> None:
    # Hands of natural cards only (regular, not wild this round), copies as the pack
    # allows, random and drawn from five adjacent ranks (many melds, runs that meet): the
    # lean path must give exactly the general search's layout, also for a hand seen
    # again after others (its memo is kept across hands).
    from payme.melds import tables_for
    from payme.solver.natural import natural_layout

    t = tables_for(r, dealt)
    hands = _natural_hands(r, dealt, random.Random(2026), 400, 3)
    for hand in hands + hands[:50]:
        assert natural_layout(hand, t) is not None
        lean = evaluate(hand, rules=r, dealt=dealt)
        assert _shown(lean) == _shown(_general(hand, r, dealt)), format_hand(hand)


@pytest.mark.parametrize(
    ("r", "dealt"),
    [(DENEXA, 7), (DENEXA, 13), (CLASSIC, 9), (FAMILY, 5), (GIN_LIKE, 10)],
    ids=["denexa7", "denexa13", "classic", "family", "gin_like"],
)
def test_lean_best_discard_gives_the_general_choice(
    r: Ruleset, dealt: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # best_discard of a hand of natural cards takes the lean path (its own discard search
    # and memo kept across hands): the same card and the same layout of the cards kept as
    # the general search, also for hands with no meld at all and hands seen again.
    import payme.solver

    hands = _natural_hands(r, dealt, random.Random(2027), 300, 2)
    lean = [best_discard(hand, rules=r, dealt=dealt) for hand in hands + hands[:40]]
    monkeypatch.setattr(payme.solver, "_LEAN_DISCARD", False)
    for hand, got in zip(hands + hands[:40], lean, strict=True):
        want = best_discard(hand, rules=r, dealt=dealt)
        assert got.card == want.card, format_hand(hand)
        assert _shown(got.evaluation) == _shown(want.evaluation), format_hand(hand)


def test_lean_path_leaves_other_hands_to_the_general_search() -> None:
    from payme.melds import tables_for
    from payme.solver.natural import natural_layout

    t = tables_for(DENEXA, 7)
    assert natural_layout(parse_hand("5H 6H 7C"), t) is None  # 7C is wild in round 7
    assert natural_layout(parse_hand("5H 6H JK"), t) is None
    assert natural_layout(parse_hand("5H 6H 2C"), t) is None  # twos are wild in denexa
    assert natural_layout(parse_hand("5H 5H 5H 5H"), t) is None  # 4 copies: 3 packs hold 3
    with pytest.raises(CardError, match="5H"):
        evaluate("5H 5H 5H 5H", rules="denexa", dealt=7)


def test_lean_path_survives_its_memo_being_cleared_midway() -> None:
    # The memo is shared across hands (and threads): if it is cleared between the search
    # and the walk through its choices, the walk searches again and gives the same layout.
    from payme.melds import tables_for
    from payme.solver.natural import Natural, natural_layout

    hand = parse_hand("3H 4H 5H 6H 3S 3D 4S 4D 5C 6C")
    t = tables_for(GIN_LIKE, 10)
    nat = Natural(t)  # a fresh one, whose first look at its notes finds them gone
    noted = nat.pick
    looked: list[int] = []

    def forgetful(state: int) -> int | None:
        if not looked:
            looked.append(state)
            nat.clear_memo()  # as if another thread had cleared it just now
            return None
        return noted(state)

    nat.pick = forgetful
    found = natural_layout(hand, t, nat)
    assert looked
    assert found is not None
    general = _general(hand, GIN_LIKE, 10)
    assert found == (general.cards, general.melds, general.deadwood, general.deadwood_points)
    assert found[1]  # the hand melds: the walk did not take every card as deadwood


@pytest.mark.parametrize(("name", "dealt"), [("denexa", 7), ("family", 4), ("classic", 9)])
def test_melds_from_recipes_match_building_them_directly(name: str, dealt: int) -> None:
    """The solver makes a meld with wild cards from a recipe kept per candidate and number
    of wild cards; whichever wild cards fill it, the meld is the one build_set / build_run
    make from the same cards (random wild cards, low and high ones among the natural cards)."""
    from payme.cards import SUITS
    from payme.melds import build_run, build_set, hand_cards, tables_for
    from payme.solver.layout import _build
    from payme.solver.search import Search
    from payme.solver.shapes import book_for

    t = tables_for(name, dealt)
    wilds = [c for c in CARDS if t.scope[c.index] is not None]
    regular = [c for c in CARDS[:52] if t.scope[c.index] is None]
    rng = random.Random(11)
    checked = 0
    for _ in range(150):
        hand = hand_cards(tuple(rng.sample(regular, 7) + rng.sample(wilds, 2)), t)
        h = Search(hand, t, t.points, book_for(t))
        for moves, tpls in zip(h.cands, h.templates, strict=True):
            for (_, k), tpl in zip(moves, tpls, strict=True):
                kind, number, shape = tpl
                used = [rng.choice(wilds) for _ in range(k)]
                if kind == "set":
                    copies = shape[0]
                    naturals = [
                        CARDS[s * 13 + number - 1] for s in range(4) for _ in range(copies[s])
                    ]
                    want = build_set(number, naturals, used)
                else:
                    ranks, places, _, _, low = shape  # type: ignore[misc]
                    by_place = {
                        p: CARDS[number * 13 + r - 1] for r, p in zip(ranks, places, strict=True)
                    }
                    want = build_run(SUITS[number], low, by_place, used)
                got = _build(tpl, list(used))
                assert (got.kind, got.cards, got.stands_for) == (
                    want.kind,
                    want.cards,
                    want.stands_for,
                ), (tpl, used)
                checked += 1
    assert checked > 300


# Rule sets whose run rules take each branch of the solver's candidate-run lookup: the
# cluster split fixed by the adjacent-wild limit, fixed by the hand's wild count, or
# depending on the suit's ranks (half-wild limit alone); the ace high or low.
RUN_RULE_VARIANTS = [
    DENEXA,
    CLASSIC,
    dataclasses.replace(DENEXA, name="half-only", no_adjacent_wilds_in_run=False),
    dataclasses.replace(DENEXA, name="adjacent-only", wild_at_most_half=False),
    dataclasses.replace(DENEXA, name="denexa-ace-high", ace="low_or_high"),
    dataclasses.replace(CLASSIC, name="classic-ace-high", ace="low_or_high"),
    dataclasses.replace(FAMILY, name="family-half", wild_at_most_half=True),
]


def _variant_hands(r: Ruleset, dealt: int, n: int, seed: str) -> list[tuple[Card, ...]]:
    """Random hands from the largest pack, half of them crowded into a few ranks of one or
    two suits (runs with gaps) and topped up with wild cards."""
    rng = random.Random(seed)
    pack = [CARDS[i] for i, k in enumerate(r.pack_counts(None)) for _ in range(k)]
    wilds = [c for c in pack if r.wild_scope(c, dealt) is not None]
    hands = []
    for i in range(n):
        size = rng.randint(3, 8)
        if i % 2:
            suits = rng.sample("SHDC", rng.choice((1, 2)))
            low = rng.randint(1, 9)
            near = [c for c in pack if c.suit in suits and low <= (c.rank or 0) <= low + 5]
            hand = rng.sample(near, size - 2)
            left = Counter(pack) - Counter(hand)
            hand += rng.sample([c for c in left.elements() if c in wilds], 2)
        else:
            hand = rng.sample(pack, size)
        hands.append(tuple(hand))
    return hands


@pytest.mark.parametrize("r", RUN_RULE_VARIANTS, ids=lambda r: r.name)
def test_candidate_runs_match_the_whole_suit_listing(r: Ruleset) -> None:
    """The search finds a hand's candidate runs cluster by cluster (or suit by suit); the
    lists per card are exactly those of listing each whole suit at once."""
    from payme.melds import hand_cards, tables_for
    from payme.solver.search import Search
    from payme.solver.shapes import book_for

    for dealt in (3, 7, 9):
        t = tables_for(r, dealt)
        book = book_for(t)
        for hand in _variant_hands(r, dealt, 150, f"cands/{r.name}/{dealt}"):
            h = Search(hand_cards(hand, t), t, t.points, book)
            held = {s: 0 for s in range(4)}
            for c in hand:
                if c.index < 52:
                    held[c.index // 13] |= 2 << (c.index % 13)
            w_run = min(h.n_any + h.n_run + h.n_conv, 63)
            want: dict[int, list[tuple[int, int]]] = {}
            for s in range(4):
                if held[s]:
                    groups, _ = book.run_bundle(s, held[s], w_run, h.scoped)
                    for p, cl, _ in groups:
                        want.setdefault(p, []).extend(cl)
            # Runs come first at each card, then sets: the runs found must be the listing.
            for p in range(52):
                runs = want.get(p, [])
                assert list(h.cands[p][: len(runs)]) == runs, (format_hand(hand), p)
                assert all(tpl[0] == "set" for tpl in h.templates[p][len(runs) :])


def _run_shapes_reference(book: Any, mask: int, wcap: int) -> list[Any]:
    """Every run shape over the ranks of ``mask`` (bit r = rank r) with at most ``wcap`` wild
    cards, listed the plain way: for each length, each window from the highest down, each
    choice of held ranks left to wild cards; kept unless two wild cards would touch where
    that is barred, or a run of twice the shortest length or more splits into two runs."""
    from payme.melds import ACE_HIGH, RUN_MOST
    from payme.solver.shapes import _splittable

    t = book.t
    ranks_held = {r for r in range(1, 14) if mask >> r & 1}
    if t.ace_high and 1 in ranks_held:
        ranks_held.add(ACE_HIGH)
    most = min(book.run_most, mask.bit_count() + wcap)
    if t.half_limit:
        most = min(most, 2 * mask.bit_count())
    shapes = []
    for length in range(t.run_min, most + 1):
        wild_most = min(wcap, length // 2) if t.half_limit else wcap
        windows = set(range(1, RUN_MOST - length + 2))
        if t.ace_high and ACE_HIGH - length + 1 >= 2:
            windows.add(ACE_HIGH - length + 1)
        for low in sorted(windows, reverse=True):
            span = range(low, low + length)
            held_here = [p for p in span if p in ranks_held]
            gaps = length - len(held_here)
            if not held_here or gaps > wild_most:
                continue
            for more in range(0, min(wild_most - gaps, len(held_here) - 1) + 1):
                for given_up in itertools.combinations(held_here, more):
                    kept = [p for p in held_here if p not in given_up]
                    natural = [p in kept for p in span]
                    touching = any(not a and not b for a, b in itertools.pairwise(natural))
                    if t.adjacent_limit and touching:
                        continue
                    if length >= 2 * t.run_min and _splittable(
                        natural, t.run_min, t.half_limit, t.all_wild_run_ok
                    ):
                        continue
                    as_ranks = tuple(1 if p == ACE_HIGH else p for p in kept)
                    shapes.append((as_ranks, tuple(kept), min(as_ranks), gaps + more, low))
    return shapes


@pytest.mark.parametrize("r", [*RUN_RULE_VARIANTS, THREE], ids=lambda r: r.name)
def test_run_shapes_are_the_plain_listing(r: Ruleset) -> None:
    """A cluster's run shapes, worked out window by window as bits with each pattern's
    verdict kept, are the plain listing's, in its order: every mask of up to three ranks and
    300 random ones, with 0 to 7 wild cards."""
    from payme.melds import tables_for
    from payme.solver.shapes import book_for

    book = book_for(tables_for(r, 9))
    masks = [
        sum(2 << i for i in pick)
        for k in (1, 2, 3)
        for pick in itertools.combinations(range(13), k)
    ]
    rng = random.Random(f"run shapes/{r.name}")
    masks += [rng.randrange(1, 1 << 13) << 1 for _ in range(300)]
    for mask in masks:
        for wcap in range(8):
            assert book._make_runs(mask, wcap) == _run_shapes_reference(book, mask, wcap), (
                mask,
                wcap,
            )


@pytest.mark.parametrize("r", RUN_RULE_VARIANTS, ids=lambda r: r.name)
def test_run_rule_variants_match_the_reference(r: Ruleset) -> None:
    from reference import Reference

    wrong = []
    for dealt in (3, 7, 9):
        ref = Reference(r, dealt)
        for hand in _variant_hands(r, dealt, 120, f"ref/{r.name}/{dealt}"):
            got = evaluate(hand, r, dealt)
            want = ref.best_points(hand)
            if got.deadwood_points != want:
                wrong.append(f"{format_hand(hand)} dealt {dealt}: {got} vs {want}")
            for m in got.melds:
                assert check_meld(m.cards, rules=r, dealt=dealt).ok, (format_hand(hand), str(m))
    assert not wrong, "\n".join(wrong[:10])


# --- the evaluation laid out on first use ------------------------------------------------


@pytest.mark.parametrize("r", [DENEXA, CLASSIC, FAMILY, THREE], ids=lambda r: r.name)
def test_an_evaluation_laid_out_on_first_use_is_the_eager_one(r: Ruleset) -> None:
    # evaluate() finds the points at once and the melds when asked; what it shows then is
    # what the general search's eager layout shows, field by field.
    from payme.melds import tables_for

    rng = random.Random(13)
    dealt = 9 if r is not THREE else None
    t = tables_for(r, dealt)
    pack = [c for c in CARDS for _ in range(t.largest_pack[c.index])]
    for _ in range(300):
        hand = tuple(rng.sample(pack, rng.randint(1, 15)))
        lazy, eager = evaluate(hand, r, dealt), _general(hand, r, dealt)
        assert lazy.deadwood_points == eager.deadwood_points
        assert _shown(lazy) == _shown(eager)
        assert lazy == eager and hash(lazy) == hash(eager)


def test_a_lazy_evaluation_pickles_copies_and_replaces_like_any_other() -> None:
    import copy
    import pickle

    hand = "7H 8H 9H JK 2C 5S 5D 5C KD"
    for read in (lambda e: e, lambda e: e.melds):
        ev = evaluate(hand, rules="denexa", dealt=7)
        read(ev)
        back = pickle.loads(pickle.dumps(ev))
        assert back == ev and str(back) == str(ev) == str(evaluate(hand, "denexa", 7))
        assert copy.copy(ev) == ev and copy.deepcopy(ev) == ev
        assert dataclasses.replace(ev, dealt=8).melds == ev.melds
        assert dataclasses.asdict(ev)["deadwood_points"] == ev.deadwood_points == 10
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        evaluate(hand, rules="denexa", dealt=7).nope  # noqa: B018
