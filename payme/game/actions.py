"""Actions a player can take, and the verdict on whether one is legal.

Shared by both games (Pay Me and Rummy 3-Pack).  Each game (:class:`payme.game.base.Game`)
offers, for every action, a way to ask (``game.can(action)`` -> :class:`Verdict`, with the
reason when not), a way to insist (``game.verify(action)`` raises :class:`IllegalAction`
naming the rule) and a way to act (``game.apply(action)`` -> :class:`Record`).  A game's
record is its list of records; the seed plus the actions replays it exactly.

Every action has a short text, its ``token()`` (what a game's link carries), and
:func:`parse_action` reads one back: ``s`` draw from the stock, ``p`` take the top discard
(``p3``: take 3), ``d7H`` discard, ``o9C`` go out discarding 9C (``o`` with none;
``o9C_rJK~4H-5H-6H_s7S-7D-7C`` with the melds laid down, each with its kind's letter, its cards
in place order and what a wild card stands for), ``l0-8H-9H_1-QS`` lay off (meld index,
cards; ``l`` alone: nothing), ``r`` lay down both RUMMY cards, ``x`` drop out.

>>> Discard(0, Card("7H")).token()
'd7H'
>>> parse_action("d7H", seat=1)
Discard(seat=1, card=Card('7H'))
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal, get_args

from payme.cards import Card, parse_card, parse_hand
from payme.melds import Meld

if TYPE_CHECKING:  # pragma: no cover
    from payme.rulesets import RulesLike

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

    def token(self) -> str:
        """``s`` (the stock), ``p`` (the top discard), ``p3`` (the top 3 discards)."""
        return ("s" if self.source == "stock" else "p") + (str(self.take) if self.take != 1 else "")


@dataclass(frozen=True)
class Discard:
    seat: int
    card: Card

    def token(self) -> str:
        """``d7H``: discard 7H."""
        return "d" + self.card.token


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

    def token(self) -> str:
        """``o9C`` (discarding 9C; ``o``: no discard), then each declared meld after a ``_``.

        >>> GoOut(0, Card("9C"), (Meld("run", "JK(4H) 5H 6H"),)).token()
        'o9C_rJK~4H-5H-6H'
        """
        text = "o" + (self.discard.token if self.discard else "")
        return text + "".join("_" + _meld_token(m) for m in self.melds or ())


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

    def __repr__(self) -> str:
        # ``places`` shows only when named, so an old replay's record reads as it always did.
        named = "" if self.places is None else f", places={self.places!r}"
        return f"LayOff(seat={self.seat!r}, placements={self.placements!r}{named})"

    def token(self) -> str:
        """``l0-8H-9H_1-QS``: 8H and 9H onto meld 0, QS onto meld 1 (``l``: nothing); a
        named place follows its card, as in a declared meld: ``l0-JK~4H`` lays the joker
        off as 4H (a token without places leaves them to the engine, as before)."""
        places = self.places or tuple((None,) * len(cards) for _, cards in self.placements)
        return "l" + "_".join(
            "-".join([str(i), *(_placed_token(c, w) for c, w in zip(cards, named, strict=True))])
            for (i, cards), named in zip(self.placements, places, strict=True)
        )


def _placed_token(card: Card, place: Card | None) -> str:
    return card.token + (f"~{place.token}" if place is not None else "")


@dataclass(frozen=True)
class LayDownRummy:
    """Rummy 3-Pack: lay down both RUMMY cards during one's turn and win at once."""

    seat: int

    def token(self) -> str:
        return "r"


@dataclass(frozen=True)
class DropOut:
    """Rummy 3-Pack: leave the game; the cards leave play unseen."""

    seat: int

    def token(self) -> str:
        return "x"


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

CHECK_STEPS: Final[Mapping[type, str]] = {
    kind: step.replace("_do_", "_can_", 1) for kind, step in STEPS.items()
}
"""The private check of each kind of action, named as its step: ``Draw`` is checked by
``_can_draw``, ``LayDownRummy`` by ``_can_lay_down_rummy`` (a game without it has no such
action)."""


def _meld_token(meld: Meld) -> str:
    """A declared meld as text: its kind's letter, then its cards in place order, each wild
    card with what it stands for: ``r3S~AH-2H-3H`` is the run A♥ 2♥ 3♥ with 3♠ as A♥."""
    parts = [
        c.token + (f"~{st.token}" if st is not None and st != c else "")
        for c, st in zip(meld.cards, meld.stands_for, strict=True)
    ]
    return ("r" if meld.kind == "run" else "s") + "-".join(parts)


def _read_meld(token: str) -> Meld | tuple[Card, ...]:
    """The meld a :func:`_meld_token` wrote (cards without a kind letter: read as laid)."""
    if token[:1] not in ("r", "s"):
        return parse_hand(token.replace("-", " "))
    kind: Literal["run", "set"] = "run" if token[0] == "r" else "set"
    cards = []
    for part in token[1:].split("-"):
        card, _, stand = part.partition("~")
        cards.append(f"{parse_card(card)}({parse_card(stand)})" if stand else str(parse_card(card)))
    return Meld(kind, " ".join(cards))


ACTION_TOKENS: Final = "s, p, d<card>, o<card>, l<melds>, r or x"
"""The action tokens :func:`parse_action` reads, as an error message lists them."""


def parse_action(
    text: str, seat: int = 0, rules: RulesLike = "denexa", dealt: int | None = None
) -> Action:
    """The action of ``seat`` that ``text`` (an action's ``token()``) stands for; a bad
    text is a ``ValueError`` naming it.  ``rules`` and ``dealt`` check a go-out's declared
    melds (an invalid meld is refused with why).

    >>> for token in ("s", "p3", "d7H", "o", "o9C", "l", "l0-8H-9H_1-QS", "l0-JK~4H", "r", "x"):
    ...     assert parse_action(token).token() == token
    >>> parse_action("l0-8H-JK~4H").places
    ((None, Card('4H')),)
    >>> parse_action("o_rJK~4H-5H-6H", 0, "family", 9).melds
    (Meld('run', 'JK(4H) 5H 6H'),)
    >>> parse_action("q")
    Traceback (most recent call last):
    ...
    ValueError: 'q' is not a move: moves are s, p, d<card>, o<card>, l<melds>, r or x
    """
    try:
        head, rest = text[:1], text[1:]
        if head in ("s", "p"):
            take = int(rest) if rest else 1
            return Draw(seat, "stock" if head == "s" else "discard", take)
        if head == "d" and rest:
            return Discard(seat, parse_card(rest))
        if head == "o":
            discard, *melds = rest.split("_")
            card = parse_card(discard) if discard else None
            if melds:
                return go_out_with(seat, card, [_read_meld(m) for m in melds], rules, dealt)
            return GoOut(seat, card)
        if head == "l":
            placements, places = [], []
            for part in rest.split("_") if rest else []:
                index, *cards = part.split("-")
                read = [c.partition("~") for c in cards]
                placements.append((int(index), tuple(parse_card(c) for c, _, _ in read)))
                places.append(tuple(parse_card(w) if w else None for _, _, w in read))
            named = any(w is not None for p in places for w in p)
            return LayOff(seat, tuple(placements), tuple(places) if named else None)
        if head == "r" and not rest:
            return LayDownRummy(seat)
        if head == "x" and not rest:
            return DropOut(seat)
    except ValueError as exc:
        raise ValueError(f"{text!r} is not a move: {exc}") from None
    raise ValueError(f"{text!r} is not a move: moves are {ACTION_TOKENS}")


def go_out_with(
    seat: int,
    discard: Card | None,
    groups: Sequence[Meld | Sequence[Card]],
    rules: RulesLike,
    dealt: int | None,
) -> GoOut:
    """Going out with the melds laid down as ``groups`` (each a :class:`~payme.melds.Meld`
    or cards listed in place order, so a run's order says what its wild cards stand for);
    an invalid meld is refused with why.

    >>> go_out_with(0, None, [parse_hand("JK 5H 6H")], "family", 9).melds
    (Meld('run', 'JK(4H) 5H 6H'),)
    """
    from payme.game.arrangement import declare

    laid = [g if isinstance(g, Meld) else tuple(g) for g in groups]
    return GoOut(seat, discard, declare(laid, rules, dealt))


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
