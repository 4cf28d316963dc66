"""The chance of going out on the next draw, checked against an independent brute force.

The reference draws every unseen card one copy at a time (no grouping of identical cards)
and asks ``tests/reference.py`` (a slow evaluator written from RULES.md, independent of
payme.solver) whether the grown hand can go out.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import payme.solver
from payme.cards import CARDS, Card, CardError, parse_card, parse_hand
from payme.odds import go_out_chance, unseen_counts
from payme.rulesets import PRESETS, Ruleset, rules
from tests.reference import Reference


def brute_force_chance(
    hand: tuple[Card, ...], ruleset: Ruleset, dealt: int, players: int | None
) -> tuple[Fraction, int]:
    """Every physical card of the pack not in the hand, drawn one at a time."""
    pack = [c for c in CARDS for _ in range(ruleset.pack_counts(players)[c.index])]
    for card in hand:
        pack.remove(card)
    ref = Reference(ruleset, dealt)
    wins = sum(1 for card in pack if ref.go_out_discards((*hand, card)))
    return Fraction(wins, len(pack)), len(pack)


def random_hand(rng: random.Random, ruleset: Ruleset, dealt: int, players: int) -> tuple[Card, ...]:
    pack = [c for c in CARDS for _ in range(ruleset.pack_counts(players)[c.index])]
    # Draw from a few ranks and suits so melds (and so going out) come up often.
    near = [c for c in pack if c.rank is None or (c.rank in (4, 5, 6, 7) and c.suit in "HS")]
    return tuple(rng.sample(near, dealt))


CASES = [
    # (rule set, dealt, players, hand): hands before drawing, chosen to be close to going out
    ("denexa", 3, 2, "7H 8H 5S"),
    ("denexa", 4, 2, "5S 5D 5C 9H"),
    ("denexa", 5, 3, "7H 8H 9H 5S KD"),
    ("classic", 4, 2, "4S 4D JK 9C"),
    ("family", 5, 2, "AH 2H 3H 5S 5D"),
    ("family", 3, 4, "9C 9D 7S"),
    ("three_pack", 4, 2, "7H 8H WILD KD"),
    ("three_pack", 3, 2, "RUMMY NOGO 7C"),
]


@pytest.mark.parametrize(("name", "dealt", "players", "text"), CASES)
def test_chance_matches_brute_force_on_chosen_hands(
    name: str, dealt: int, players: int, text: str
) -> None:
    ruleset = rules(name)
    hand = parse_hand(text)
    chance = go_out_chance(hand, ruleset, dealt, players=players)
    expected, unseen = brute_force_chance(hand, ruleset, dealt, players)
    assert (chance.probability, chance.unseen) == (expected, unseen)
    assert Fraction(chance.outs, chance.unseen) == expected


def test_chance_matches_brute_force_on_random_hands() -> None:
    rng = random.Random(20261130)
    checked = 0
    for name in PRESETS:
        ruleset = rules(name)
        for _ in range(6):
            dealt = rng.choice([d for d in (3, 4, 5) if ruleset.min_dealt <= d])
            players = rng.randint(ruleset.min_players, ruleset.max_players)
            hand = random_hand(rng, ruleset, dealt, players)
            chance = go_out_chance(hand, ruleset, dealt, players=players)
            assert chance.probability == brute_force_chance(hand, ruleset, dealt, players)[0], (
                name, dealt, players, hand,
            )  # fmt: skip
            checked += 1
    assert checked == 24


def test_a_fully_melded_hand_always_goes_out_when_a_discard_is_optional() -> None:
    chance = go_out_chance("7H 8H 9H 5S 5D 5C", rules="denexa", dealt=6, players=2)
    assert chance.probability == 1 and chance.unseen == 54 - 6 == chance.outs


def test_winning_cards_carry_their_unseen_copies() -> None:
    # Three packs: 3 copies of each card; the hand holds one 6H, so two 6H are unseen.
    chance = go_out_chance("4H 5H 6H 9S 9D", rules="classic", dealt=5, players=6)
    counts = dict(chance.winning)
    assert counts[parse_card("9C")] == 2  # 2 packs for 6 players, none in the hand
    left = unseen_counts(parse_hand("4H 5H 6H 9S 9D"), rules("classic"), players=6)
    assert all(counts[c] == left[c] for c in counts)
    assert chance.unseen == sum(left.values())


def test_known_cards_and_explicit_unseen_cards() -> None:
    hand = parse_hand("7H 8H 9S 9D 9C")
    full = go_out_chance(hand, "classic", 5, players=2)
    # Seeing every 6H and 9H elsewhere removes those outs from the count.
    known = parse_hand("6H 9H")
    fewer = go_out_chance(hand, "classic", 5, players=2, known=known)
    assert fewer.unseen == full.unseen - 2
    assert full.outs > 2 and fewer.outs == full.outs - 2
    # An explicit list of unseen cards is used as it is.
    only = go_out_chance(hand, "classic", 5, unseen="6H KD KD QC")
    assert (only.unseen, only.outs, only.probability) == (4, 1, Fraction(1, 4))


def test_each_distinct_card_is_evaluated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Card, ...]] = []
    real = payme.solver.can_go_out

    def counting(hand: tuple[Card, ...], **kwargs: object) -> object:
        calls.append(hand)
        return real(hand, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(payme.solver, "can_go_out", counting)
    chance = go_out_chance("7H 8H 9H 5S 5D", rules="denexa", dealt=5, players=8)  # 3 packs
    assert chance.unseen == 3 * 54 - 5
    assert len(calls) == 53  # one evaluation per kind of card (52 + joker), not per copy
    assert len({hand[-1] for hand in calls}) == 53


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="holds the 3 cards dealt, not 2"):
        go_out_chance("7H 8H", rules="denexa", dealt=3)
    with pytest.raises(CardError, match="2 copies of 7H"):
        go_out_chance("7H 7H 8H", rules="denexa", dealt=3, players=2)
    with pytest.raises(CardError, match="JK is not in the pack for Rummy 3-Pack"):
        go_out_chance("7H JK 8H", rules="three_pack", dealt=3)
    with pytest.raises(ValueError, match="dealt must be from 3 to 13"):
        go_out_chance("7H 8H", rules="family", dealt=2)
    with pytest.raises(ValueError, match="either unseen or known"):
        go_out_chance("7H 8H 9H", rules="family", dealt=3, unseen="KD", known="QD")
