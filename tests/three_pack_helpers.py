"""Helpers for the Rummy 3-Pack tests: rule variants and positions set up by hand."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping

from payme.cards import Card, format_hand, parse_card, parse_hand
from payme.game.position import with_fields
from payme.game.three_pack import ThreePackGame
from payme.rulesets import Ruleset, rules

TP = rules("three_pack")
RUMMY = parse_card("RUMMY")


def variant(**flags: bool) -> Ruleset:
    return dataclasses.replace(TP, **flags)


# Hands that hold no meld and no pair, and cannot meld all but one card after one draw.
FILLERS = [
    "AS 4H 7D TC KS 3C 9H QD 6S 2D",
    "2S 5H 8D JC AH 4C TH KD 7S 3D",
    "3S 6H 9D QC 2H 5C JH AD 8S 4D",
]


def arrange(
    g: ThreePackGame,
    hands: Mapping[int, str] | None = None,
    *,
    pile: str = "",
    stock_top: str = "",
    stock_size: int | None = None,
) -> ThreePackGame:
    """``g`` at the same point with a position set up, without creating or losing a card.

    Hands not given get non-melding filler cards; the pile is ``pile`` (bottom first) with
    any surplus stock below it; the stock ends with ``stock_top`` (its last card on top).
    """
    pool = Counter(g.cards_in_play())
    chosen = {s: list(parse_hand(h)) for s, h in (hands or {}).items()}
    for s in range(g.players):
        if s not in chosen:
            chosen[s] = list(parse_hand(FILLERS[s % 3]))[: g.dealt]
    top, pile_cards = list(parse_hand(stock_top)), list(parse_hand(pile))
    for cards in [*chosen.values(), top, pile_cards]:
        pool.subtract(cards)
    assert min(pool.values()) >= 0, "the position needs more copies than the pack holds"
    # Unchosen RUMMY cards go to the bottom of the stock, out of everyone's way.
    rest = sorted(pool.elements(), key=lambda c: (c != RUMMY, c.index))
    below: list[Card] = []
    if stock_size is not None:
        keep = stock_size - len(top)
        below, rest = rest[keep:], rest[:keep]
    text = with_fields(
        g.to_position(),
        hands=" / ".join(format_hand(chosen[s]) or "-" for s in range(g.players)),
        stock=format_hand([*rest, *top]) or "-",
        pile=format_hand([*below, *pile_cards]) or "-",
    )
    return ThreePackGame.from_position(text, g.rules)
