"""What one Pay Me player may see: their own hand and everything shown on the table.

A :class:`SeatView` is what the UI draws and what a bot decides from; it never holds another
player's hidden cards.  Build one with ``game.view(seat)``.

>>> from payme.game import new_game
>>> g = new_game("denexa", players=3, seed=1)
>>> v = g.view(0)
>>> len(v.hand), v.hand_counts, v.stock_count + len(v.discard_pile) + sum(v.hand_counts)
(3, (3, 3, 3), 108)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from payme.cards import Card
from payme.rulesets import Ruleset


@dataclass(frozen=True)
class HandSummary:
    """A finished hand, as everyone saw it at the end: every hand is shown.

    ``table`` is the declarer's melds with the lay-offs added (empty when nobody went out);
    ``lay_offs[seat]`` is what that seat laid off, as ``(meld index, cards)`` pairs.
    """

    number: int
    dealt: int
    dealer: int
    declarer: int | None
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's hand at the show-down, before lay-offs (the declarer's is empty: its cards
    are on the table)."""
    table: tuple[tuple[Card, ...], ...]
    lay_offs: tuple[tuple[tuple[int, tuple[Card, ...]], ...], ...]
    deadwood: tuple[int, ...]
    """Penalty points before lay-offs (the declarer's is 0)."""
    points: tuple[int, ...]
    """Penalty points scored (after lay-offs; the declarer's is 0)."""
    turns: tuple[int, ...]
    money: tuple[int, ...] | None
    how: str
    """``"went out"`` or why the hand ended without a declarer."""


@dataclass(frozen=True)
class SeatView:
    """One seat's view of a Pay Me game at one moment (no other player's hidden cards).

    Cards in ``discard_pile`` run from the bottom to the top (the last is the top card);
    every one of them was seen face up when it was discarded.  ``shown`` holds every
    player's hand once the hands are shown (the lay-off phase), otherwise ``None`` for the
    others.  ``picked_up[s]`` and ``discarded[s]`` are the cards seat ``s`` took from and put
    on the discard pile this hand, in order: public knowledge a careful player remembers.
    """

    seat: int
    players: int
    rules: Ruleset
    hand_number: int
    dealt: int
    wild_rank: int | None
    dealer: int
    phase: str
    to_move: int | None
    hand: tuple[Card, ...]
    drawn: Card | None
    """The card this seat drew this turn (it is also in ``hand``), until it discards."""
    stock_count: int
    discard_pile: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    declarer: int | None
    table: tuple[tuple[Card, ...], ...]
    """The declarer's melds as laid down, with lay-offs added so far."""
    table_melds: tuple[Any, ...]
    """The same melds as :class:`payme.melds.Meld` objects (each wild card's stand-in)."""
    shown: tuple[tuple[Card, ...] | None, ...]
    picked_up: tuple[tuple[Card, ...], ...]
    discarded: tuple[tuple[Card, ...], ...]
    turns: tuple[int, ...]
    totals: tuple[int, ...]
    """Each seat's total of penalty points over the finished hands."""
    money: tuple[int, ...] | None
    """Each seat's money won (+) or lost (-) so far, in cents, for rule sets with stakes."""
    last_hand: HandSummary | None
    """The hand finished most recently, with every hand shown."""

    @property
    def top_discard(self) -> Card | None:
        """The card on top of the discard pile (``None`` when the pile is empty)."""
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def final_turn(self) -> bool:
        """Whether this is a final turn after someone went out."""
        return self.phase in ("final_draw", "final_discard")


__all__ = ["HandSummary", "SeatView"]
