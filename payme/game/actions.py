"""Actions a player can take, and the verdict on whether one is legal.

Shared by both games (Pay Me and Rummy 3-Pack).  Each game offers, for every action, a way
to ask (``game.can(action)`` -> :class:`Verdict`, with the reason when not), a way to insist
(``game.verify(action)`` raises :class:`IllegalAction` naming the rule) and a way to act
(``game.apply(action)`` -> :class:`Record`).  A game's record is its list of records; the
seed plus the actions replays it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

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
    order (chains allowed).  An empty tuple means "lay off nothing".
    """

    seat: int
    placements: tuple[tuple[int, tuple[Card, ...]], ...] = ()


@dataclass(frozen=True)
class LayDownRummy:
    """Rummy 3-Pack: lay down both RUMMY cards during one's turn and win at once."""

    seat: int


@dataclass(frozen=True)
class DropOut:
    """Rummy 3-Pack: leave the game; the cards leave play unseen."""

    seat: int


Action = Draw | Discard | GoOut | LayOff | LayDownRummy | DropOut


class GameBase:
    """What both games share: the end of the game, the log, the actions chosen so far, and
    ``verify``, which raises when ``can`` says no."""

    phase: str
    _history: list[Record]
    _actions: list[Action]

    @property
    def over(self) -> bool:
        return self.phase == "game_over"

    @property
    def history(self) -> tuple[Record, ...]:
        """Every action and event so far, in order (public information only)."""
        return tuple(self._history)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions players chose, in order: with the seed they replay the game."""
        return tuple(self._actions)

    def can(self, action: Action) -> Verdict:  # pragma: no cover - each game has its own
        raise NotImplementedError

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` (naming the rule) unless ``action`` is legal now."""
        verdict = self.can(action)
        if not verdict.ok:
            raise IllegalAction(verdict.reason, verdict.rule)


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
