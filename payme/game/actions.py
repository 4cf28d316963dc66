"""Actions a player can take, and the verdict on whether one is legal.

Shared by both games (Pay Me and Rummy 3-Pack).  Each game (:class:`payme.game.base.Game`)
offers, for every action, a way to ask (``game.can(action)`` -> :class:`Verdict`, with the
reason when not), a way to insist (``game.verify(action)`` raises :class:`IllegalAction`
naming the rule) and a way to act (``game.apply(action)`` -> :class:`Record`).  A game's
record is its list of records; the seed plus the actions replays it exactly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, get_args

from payme.cards import Card
from payme.melds import Meld

DrawFrom = Literal["stock", "discard"]


class IllegalAction(ValueError):
    """An action the rules do not allow now.  ``rule`` names the rule in a few words."""

    def __init__(self, reason: str, rule: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule


@dataclass(frozen=True)
class Verdict:
    """Whether an action is legal now, and why not."""

    ok: bool
    reason: str = ""
    rule: str = ""

    def __bool__(self) -> bool:
        return self.ok


@dataclass(frozen=True)
class Draw:
    """Draw from the stock or the discard pile.

    ``take`` is how many discards are taken (1: the top card).  Rummy 3-Pack's variations use
    more: Three-Card Draw takes 2 discards plus the top stock card; Spread-Out Discard Pile
    takes any card with all the cards above it.
    """

    seat: int
    source: DrawFrom
    take: int = 1


@dataclass(frozen=True)
class Discard:
    seat: int
    card: Card


@dataclass(frozen=True)
class GoOut:
    """Go out ("Pay me!"), with a final discard or none (``discard=None``).

    ``melds`` is the declarer's arrangement: the melds laid down, each wild card's stand-in
    included (see :mod:`payme.game.arrangement`; build them from text with
    :func:`~payme.game.arrangement.declared_melds`).  ``None`` (the default, used by old
    replays) lays down the engine's best layout.
    """

    seat: int
    discard: Card | None = None
    melds: tuple[Meld, ...] | None = None


@dataclass(frozen=True)
class LayOff:
    """After a Pay Me hand: add cards to the declarer's melds.

    ``placements`` pairs the index of a declarer's meld with the cards added to it, in
    order (chains allowed).  An empty tuple means "lay off nothing".  ``places`` names where
    wild cards go on a run (whoever lays off chooses, RULES.md "Lay-offs"): for each
    placement, the card each added card stands for, ``None`` for the engine's choice;
    ``None`` (the default, used by old replays) lets the engine place every card.
    """

    seat: int
    placements: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    places: tuple[tuple[Card | None, ...], ...] | None = None


@dataclass(frozen=True)
class LayDownRummy:
    """Rummy 3-Pack: lay down both RUMMY cards during one's turn and win at once."""

    seat: int


@dataclass(frozen=True)
class DropOut:
    """Rummy 3-Pack: leave the game; the cards leave play unseen."""

    seat: int


Action = Draw | Discard | GoOut | LayOff | LayDownRummy | DropOut
"""Any action of either game (each game refuses the kinds it does not know)."""

STEPS: Final[Mapping[type, str]] = {
    kind: "_do_" + re.sub(r"(?<!^)(?=[A-Z])", "_", kind.__name__).lower()
    for kind in get_args(Action)
}
"""The private step of a game that does each kind of action, named after it: ``Draw`` is done
by ``_do_draw``, ``LayDownRummy`` by ``_do_lay_down_rummy``.

>>> STEPS[GoOut]
'_do_go_out'
"""


def check_form(action: object, players: int) -> Verdict:
    """Whether ``action`` is well formed: a known action whose fields have the right types
    and values (a seat is a whole number of this table, not a bool or a float; a card is a
    :class:`~payme.cards.Card`; a source is ``"stock"`` or ``"discard"``).  Games ask this
    first, so a malformed action is refused before anything changes.

    >>> check_form(Draw(0.0, "stock"), 2).reason
    'A seat is a whole number from 0 to 1, not 0.0.'
    >>> check_form(Discard(False, Card("7H")), 2).reason
    'A seat is a whole number from 0 to 1, not False.'
    >>> check_form(Draw(1, "stock"), 2).ok
    True
    """
    if type(action) not in STEPS:
        return Verdict(False, f"{action!r} is not an action.", "actions")
    seat = getattr(action, "seat", None)
    if type(seat) is not int or not 0 <= seat < players:
        return Verdict(
            False, f"A seat is a whole number from 0 to {players - 1}, not {seat!r}.", "seats"
        )
    if isinstance(action, Draw):
        if action.source not in ("stock", "discard") or type(action.source) is not str:
            return Verdict(
                False, f"Draw from 'stock' or 'discard', not {action.source!r}.", "a turn: draw"
            )
        if type(action.take) is not int or action.take < 1:
            return Verdict(
                False, f"A draw takes 1 or more cards, not {action.take!r}.", "a turn: draw"
            )
    elif isinstance(action, Discard):
        if type(action.card) is not Card:
            return Verdict(False, f"A discard is a Card, not {action.card!r}.", "a turn: discard")
    elif isinstance(action, GoOut):
        if action.discard is not None and type(action.discard) is not Card:
            return Verdict(
                False, f"A go-out's discard is a Card or None, not {action.discard!r}.", "going out"
            )
        melds = action.melds
        if melds is not None and (
            type(melds) is not tuple or not all(type(m) is Meld for m in melds)
        ):
            return Verdict(
                False,
                "The declared melds must be a tuple of Meld objects (see declare).",
                "going out: the declarer lays out the melds",
            )
    elif isinstance(action, LayOff):
        placements = action.placements
        if type(placements) is not tuple or not all(
            type(p) is tuple
            and len(p) == 2
            and type(p[0]) is int
            and type(p[1]) is tuple
            and all(type(c) is Card for c in p[1])
            for p in placements
        ):
            return Verdict(
                False,
                f"Lay-offs are a tuple of (meld index, tuple of Cards) pairs, not {placements!r}.",
                "lay-offs",
            )
        places = action.places
        if places is not None and (
            type(places) is not tuple
            or len(places) != len(placements)
            or not all(
                type(p) is tuple
                and len(p) == len(cards)
                and all(c is None or type(c) is Card for c in p)
                for p, (_, cards) in zip(places, placements, strict=False)
            )
        ):
            return Verdict(
                False,
                "A lay-off's places name, for each placement, the card each added card "
                f"stands for (or None): a tuple like the placements, not {places!r}.",
                "lay-offs",
            )
    return Verdict(True)


@dataclass(frozen=True)
class Record:
    """One thing that happened: the action, and what it publicly revealed or caused."""

    number: int
    action: Action | None
    """``None`` for events no player chose (the deal, a rebuilt stock, the end of a hand)."""
    event: str
    """A sentence for the game log, e.g. "Seat 2 draws from the stock."."""
    hand: int = 1
    details: tuple[tuple[str, str], ...] = field(default=())
