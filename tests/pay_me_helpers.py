"""Helpers for the Pay Me game tests: arranging a hand's cards."""

from __future__ import annotations

from collections import Counter

from payme.cards import parse_hand
from payme.game.pay_me import PayMeGame


def rig(
    game: PayMeGame,
    hands: list[str],
    pile: str = "",
    stock_top: str = "",
) -> PayMeGame:
    """Arrange the current hand: each seat's cards, the discard pile (bottom to top) and the
    next stock cards (the first is drawn first).  The rest of the pack is the stock below.
    Every card still comes from the game's pack, so nothing is created or lost."""
    rest = Counter(game.pack.cards())
    dealt = [list(parse_hand(h)) for h in hands]
    placed = [c for h in dealt for c in h] + list(parse_hand(pile)) + list(parse_hand(stock_top))
    for card in placed:
        assert rest[card] > 0, f"the pack has no more {card}"
        rest[card] -= 1
    game._hands = dealt
    game._pile = list(parse_hand(pile))
    game._stock = sorted(rest.elements()) + list(reversed(parse_hand(stock_top)))
    game._go_out_cache = None
    return game
