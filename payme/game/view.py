"""What one player may see: their own hand and everything shown on the table.

A view is what the UI draws and what a bot decides from; it never holds another player's
hidden cards.  Build one with ``game.view(seat)``.  Both games' views share the fields of
:class:`SeatView` (what a card table draws: your hand, each player's card count, the stock,
the discard pile, the melds on the table by player, whose turn, the phase, the winners);
:class:`PayMeView` and :class:`ThreePackView` add what only their game has.

>>> from payme.game import new_game
>>> g = new_game("denexa", players=3, seed=1)
>>> v = g.view(0)
>>> len(v.hand), v.hand_counts, v.stock_count + len(v.discard_pile) + sum(v.hand_counts)
(3, (3, 3, 3), 108)
>>> t = new_game("three_pack", players=3, seed=1).view(0)
>>> t.stock_count is None, t.stock_estimate    # the 3-Pack stock is never counted
(True, 140)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

from payme.cards import Card
from payme.deprecation import deprecated, renamed
from payme.melds import Meld
from payme.rulesets import Ruleset

V = TypeVar("V", bound="SeatView")
_D = TypeVar("_D")
"""A kind of seat view: :class:`SeatView` or one game's own."""


def narrow(view: SeatView, kind: type[V]) -> V:
    """``view`` as the view of one game's kind (a bot made for that game asks this).

    >>> from payme.game import new_game
    >>> narrow(new_game("three_pack", 2).view(0), PayMeView)
    Traceback (most recent call last):
    ...
    TypeError: expected a view of a PayMeGame, not a ThreePackView: a bot plays one game
    """
    if not isinstance(view, kind):
        game = kind.__name__.removesuffix("View") + "Game"
        raise TypeError(
            f"expected a view of a {game}, not a {type(view).__name__}: a bot plays one game"
        )
    return view


def stock_estimate(n: int) -> int:
    """What a look at a stock of ``n`` cards tells a player who may not count it.

    A thin stock (3 cards or fewer) can be told at a glance; otherwise a look gives the size
    to the nearest 5 (never 0 while a card is left).

    >>> [stock_estimate(n) for n in (0, 2, 4, 12, 13, 130)]
    [0, 2, 5, 10, 15, 130]
    """
    if n <= 3:
        return n
    return max(5, 5 * round(n / 5))


def make_frozen(kind: type[_D], **values: Any) -> _D:
    """A view of ``kind`` holding ``values``, one per field, as ``kind(**values)`` makes
    it but ten times faster: a frozen dataclass's constructor sets each of a view's ~30
    fields through ``object.__setattr__``, and a bot game builds a view at every move.
    Views have no checks in their constructor to skip (a test compares the two ways); a
    game's :class:`~payme.game.actions.Record` neither, and is built the same way.

    >>> from payme.game import new_game
    >>> v = new_game("denexa", players=2, seed=3).view(1)
    >>> make_frozen(PayMeView, **vars(v)) == PayMeView(**vars(v)) == v
    True
    """
    view = object.__new__(kind)
    view.__dict__.update(values)
    return view


def held_frozen(kind: type[_D], values: dict[str, Any]) -> _D:
    """:func:`make_frozen` holding ``values`` itself as the object's attributes, not a copy
    (``values`` must be a new dict nobody else keeps: the engine's views are built so)."""
    made = object.__new__(kind)
    object.__setattr__(made, "__dict__", values)
    return made


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


@dataclass(frozen=True, kw_only=True)
class SeatView:
    """One seat's view of a game at one moment: the fields both games share.

    ``melds[s]`` are the melds on the table that seat ``s`` laid down (Pay Me: the
    declarer's, with lay-offs so far; Rummy 3-Pack: a player's melds once they went out).
    ``stock_count`` is ``None`` where the rules never let a player count the stock
    (``rules.stock_counted``); ``stock_estimate`` is what a look at it tells (the exact count
    where counting is allowed).  ``discard_pile`` runs from the bottom to the top and holds
    what this seat may see of it (Rummy 3-Pack: the top card only, unless spread out).
    """

    seat: int
    players: int
    rules: Ruleset
    phase: str
    to_move: int | None
    over: bool
    hand_number: int
    dealt: int
    wild_rank: int | None
    dealer: int
    hand: tuple[Card, ...]
    drawn: Card | None
    """The card this seat drew this turn (it is also in ``hand``), until the turn ends."""
    hand_counts: tuple[int, ...]
    stock_count: int | None
    stock_estimate: int
    discard_pile: tuple[Card, ...]
    melds: tuple[tuple[Meld, ...], ...]
    turns: tuple[int, ...]
    winners: tuple[int, ...]
    """The seats that won (empty until the game is over)."""

    @property
    def top_discard(self) -> Card | None:
        """The card on top of the discard pile (``None`` when the pile is empty)."""
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def your_turn(self) -> bool:
        return self.to_move == self.seat

    def out_of_play(self, seat: int) -> bool:
        """Whether ``seat`` has left the game (Rummy 3-Pack: dropped out)."""
        return False

    def shown_hand(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat`` that lie face up for everyone now (none by default)."""
        return ()

    def note(self, seat: int) -> str:
        """What stands out about ``seat`` for a player reading the table, e.g. ``won!``."""
        return ""

    def public_cards(self) -> tuple[Card, ...]:
        """Every card this seat has seen face up: the discard pile and the melds.

        >>> from payme.game import new_game
        >>> new_game("family", 3, seed=1).view(0).public_cards() == new_game(
        ...     "family", 3, seed=1).view(0).discard_pile
        True
        """
        return (*self.discard_pile, *(c for melds in self.melds for m in melds for c in m.cards))

    def optional_counts(self) -> dict[str, int] | None:
        """The optional cards in play by name (Rummy 3-Pack), else ``None``."""
        return None


@dataclass(frozen=True, kw_only=True)
class PayMeView(SeatView):
    """One seat's view of a Pay Me game (no other player's hidden cards).

    Every card in ``discard_pile`` was seen face up when it was discarded.  ``shown`` holds
    every player's hand once the hands are shown (the lay-off phase), otherwise ``None`` for
    each.  ``picked_up[s]`` and ``discarded[s]`` are the cards seat ``s`` took from and put
    on the discard pile this hand, in order: public knowledge a careful player remembers.
    """

    declarer: int | None
    table: tuple[tuple[Card, ...], ...]
    """The declarer's melds as laid down, with lay-offs added so far."""
    table_melds: tuple[Meld, ...]
    """The same melds as :class:`payme.melds.Meld` objects (each wild card's stand-in)."""
    shown: tuple[tuple[Card, ...] | None, ...]
    picked_up: tuple[tuple[Card, ...], ...]
    discarded: tuple[tuple[Card, ...], ...]
    totals: tuple[int, ...]
    """Each seat's total of penalty points over the finished hands."""
    money: tuple[int, ...] | None
    """Each seat's money won (+) or lost (-) so far, in cents, for rule sets with stakes."""
    last_hand: HandSummary | None
    """The hand finished most recently, with every hand shown."""

    @property
    def final_turn(self) -> bool:
        """Whether this is a final turn after someone went out."""
        return self.phase in ("final_draw", "final_discard")

    def shown_hand(self, seat: int) -> tuple[Card, ...]:
        """Every hand lies face up during the lay-offs."""
        cards = self.shown[seat] if self.phase == "lay_off" else None
        return cards or ()

    def note(self, seat: int) -> str:
        """The declarer, once they went out."""
        if self.declarer == seat and self.phase not in ("draw", "discard"):
            return f"went out — {self.rules.go_out_call}" if self.rules.go_out_call else "went out"
        return ""

    def public_cards(self) -> tuple[Card, ...]:
        """The discard pile and the declarer's melds with the lay-offs so far."""
        return (*self.discard_pile, *(c for meld in self.table for c in meld))


PublicEvent = tuple[int, str, tuple[Card, ...]]
"""``(seat, kind, cards)``: ``kind`` is ``"stock"`` (a draw, unseen), ``"take"`` (cards
taken from the discard pile), ``"discard"`` or ``"rebuild"`` (the pile became the stock)."""


@dataclass(frozen=True, kw_only=True)
class ThreePackView(SeatView):
    """One seat's view of a Rummy 3-Pack game.

    ``how[s]`` says how seat ``s`` won once the game is over (``"went out"``, ``"rummy
    card"``, ``"both rummy"``), else ``""``.  ``public_log`` is every draw, take and discard
    as the table saw them (see :data:`PublicEvent`).
    """

    optional: tuple[tuple[str, int], ...]
    pack_counts: tuple[int, ...]
    first: int
    seating: tuple[int, ...]
    active: tuple[bool, ...]
    public_log: tuple[PublicEvent, ...]
    how: tuple[str, ...]

    def out_of_play(self, seat: int) -> bool:
        return not self.active[seat]

    def note(self, seat: int) -> str:
        """A winner once the game is over, or a player who dropped out."""
        if self.over and seat in self.winners:
            return "won!"
        return "dropped out" if not self.active[seat] else ""

    def optional_counts(self) -> dict[str, int] | None:
        return dict(self.optional)

    def __getitem__(self, key: str) -> object:
        """The old dict-style access (``view["hand"]``), kept for one release."""
        old = {"hand_sizes": "hand_counts", "shown": "melds"}
        deprecated(f"ThreePackView[{key!r}]", f"use the attribute .{old.get(key, key)} instead")
        if key == "shown":
            return tuple(tuple(m.cards for m in ms) for ms in self.melds)
        name = old.get(key, key)
        if name not in {f.name for f in fields(self)} | {"top_discard"}:
            raise KeyError(key)
        return getattr(self, name)


__getattr__ = renamed("payme.game.view", {"built": "payme.game.view:make_frozen"})

__all__ = [
    "HandSummary",
    "PayMeView",
    "PublicEvent",
    "SeatView",
    "ThreePackView",
    "V",
    "held_frozen",
    "make_frozen",
    "narrow",
    "stock_estimate",
]
