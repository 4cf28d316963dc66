"""Cards and their notation.

A card is one of 59 kinds: the 52 regular cards, the joker, and Rummy 3-Pack's six special
cards.  Each kind is a single shared :class:`Card` object, so cards compare and hash by
identity-cheap integer index, and a hand is a plain tuple of cards (copies repeat).

>>> parse_hand("7H 8h,9H jk 10d")
(Card('7H'), Card('8H'), Card('9H'), Card('JK'), Card('TD'))
>>> str(parse_card("♠q"))
'QS'
>>> format_hand(sorted(parse_hand("KC 2s jk AS")))
'AS 2S KC JK'
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

RANKS: Final = "A23456789TJQK"
"""Rank letters in rank-number order: A = 1 … K = 13."""
SUITS: Final = "SHDC"
"""Suit letters in canonical order (spades, hearts, diamonds, clubs)."""
SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES: Final = {
    1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king",
}  # fmt: skip

JOKER: Final = "JK"
SPECIAL_NAMES: Final = ("RUMMY", "WILD", "GROUP", "SEQ", "NOMELD", "NOGO")
"""Rummy 3-Pack's special cards, by token."""
SPECIAL_TITLES: Final = {
    "JK": "joker",
    "RUMMY": "RUMMY CAN'T LOSE",
    "WILD": "WILDCARD",
    "GROUP": "GROUP",
    "SEQ": "SEQUENCE",
    "NOMELD": "NO MELD",
    "NOGO": "CAN'T GO OUT",
}

N_REGULAR: Final = 52
JOKER_INDEX: Final = 52
N_CARDS: Final = 53 + len(SPECIAL_NAMES)  # 59 kinds of card


def token_help(jokers: bool = True, specials: Iterable[str] = tuple(SPECIAL_NAMES)) -> str:
    """How a card is written, naming only the jokers and special cards a pack has.

    >>> token_help(False, ["RUMMY", "WILD"])
    'a card is a rank (A 2-9 T or 10 J Q K) followed by a suit (S H D C or ♠ ♥ ♦ ♣), or one of RUMMY WILD'
    >>> token_help(True, [])
    'a card is a rank (A 2-9 T or 10 J Q K) followed by a suit (S H D C or ♠ ♥ ♦ ♣), or JK for a joker'
    """  # noqa: E501
    text = "a card is a rank (A 2-9 T or 10 J Q K) followed by a suit (S H D C or ♠ ♥ ♦ ♣)"
    if jokers:
        text += ", or JK for a joker"
    names = list(dict.fromkeys(specials))
    if names:
        text += ", or one of " + " ".join(names)
    return text


_TOKEN_HELP = token_help()


def pretty_as_repr(value: object, printer: Any, cycle: bool) -> None:
    """A ``_repr_pretty_`` that prints ``repr(value)``: pretty printers (IPython's, and
    hypothesis's in a failing example) would otherwise list a dataclass's fields, which do
    not paste back."""
    printer.text(repr(value))


def html_by(render: str) -> Callable[[Any], str]:
    """A ``_repr_html_`` that draws a value with ``payme.display``'s function ``render``,
    imported when a notebook first shows one (the engine itself never imports the display).
    """

    def _repr_html_(value: Any) -> str:  # pragma: no cover - exercised in notebooks
        import payme.display

        return str(getattr(payme.display, render)(value))

    return _repr_html_


class CardError(ValueError):
    """Bad card notation, or a card the rule set's pack does not hold (enough copies of).

    ``token`` is the offending token when there is one.
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Card:
    """One kind of card.  Order is canonical: suits S H D C, ace to king, then JK, specials.

    ``Card(token)`` (as printed), ``Card(index)`` (0–58), :meth:`Card.of` and
    :func:`parse_card` all give the one shared object of that kind; anything else is refused
    at once.

    >>> Card("7h") is Card.of("7H") is Card(19)
    True
    >>> Card("7H"), Card("10♦").name
    (Card('7H'), 'ten of diamonds')
    >>> Card(59)
    Traceback (most recent call last):
    ...
    payme.cards.CardError: no card has index 59: indices run from 0 to 58
    """

    index: int
    """The card's number, 0–58: its place in every table indexed by card."""

    def __new__(cls, card: str | int | Card) -> Card:
        # One object per kind: a new Card is always the shared one, so `is` and the
        # hot paths' index lookups agree with what the caller built.
        if isinstance(card, str):
            return parse_card(card)
        if isinstance(card, Card):
            return card
        if isinstance(card, bool):  # an int to Python, never a card
            raise TypeError("a card is a token like '7H' or an index 0-58, not a bool")
        try:
            index = operator.index(card)
        except TypeError:
            raise TypeError(
                f"a card is a token like '7H' or an index 0-58, not {type(card).__name__} {card!r}"
            ) from None
        if not 0 <= index < N_CARDS:
            raise CardError(f"no card has index {index}: indices run from 0 to {N_CARDS - 1}")
        return CARDS[index]

    _repr_pretty_ = pretty_as_repr

    # Equality, hash and order by index, written out: the dataclass's own build a tuple on
    # every call, and games and the solver hash and sort cards in their hot loops.  The
    # hash is the one the dataclass gave (that of ``(index,)``), so sets of cards keep
    # their iteration order.
    def __eq__(self, other: object) -> bool:
        if other.__class__ is Card:
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return _HASHES[self.index]

    def __lt__(self, other: Card) -> bool:
        if other.__class__ is Card:
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if other.__class__ is Card:
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if other.__class__ is Card:
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if other.__class__ is Card:
            return self.index >= other.index
        return NotImplemented

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        # Unpickling goes through __new__, so it gives the shared card too.
        return (Card, (self.index,))

    def __copy__(self) -> Card:
        return self  # immutable and shared: a copy is the card itself

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    @staticmethod
    def of(token: str) -> Card:
        """The card a token names (same as :func:`parse_card`)."""
        return parse_card(token)

    @staticmethod
    def from_index(index: int) -> Card:
        """The card whose index is ``index`` (0–58); same as ``Card(index)``."""
        return Card(index)

    @staticmethod
    def regular(rank: int, suit: str) -> Card:
        """The regular card of ``rank`` (1–13) and ``suit`` (one of ``SHDC``)."""
        return CARDS[SUITS.index(suit) * 13 + rank - 1]

    @property
    def is_regular(self) -> bool:
        return self.index < N_REGULAR

    @property
    def is_joker(self) -> bool:
        return self.index == JOKER_INDEX

    @property
    def rank(self) -> int | None:
        """Rank number 1–13 of a regular card; ``None`` for jokers and special cards."""
        return self.index % 13 + 1 if self.index < N_REGULAR else None

    @property
    def suit(self) -> str | None:
        """Suit letter of a regular card; ``None`` otherwise."""
        return SUITS[self.index // 13] if self.index < N_REGULAR else None

    @property
    def special(self) -> str | None:
        """The token of a joker or special card (``"JK"``, ``"RUMMY"`` …); ``None`` otherwise."""
        if self.index < N_REGULAR:
            return None
        return JOKER if self.index == JOKER_INDEX else SPECIAL_NAMES[self.index - 53]

    @property
    def token(self) -> str:
        """Canonical token, e.g. ``"TD"``, ``"JK"``, ``"NOGO"``."""
        return _TOKENS[self.index]

    @property
    def name(self) -> str:
        """Plain-English name, e.g. ``"ten of diamonds"``, ``"joker"``, ``"CAN'T GO OUT"``."""
        rank, suit = self.rank, self.suit
        if rank is None or suit is None:
            return SPECIAL_TITLES[self.token]
        return f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"

    def __str__(self) -> str:
        return _TOKENS[self.index]

    def __repr__(self) -> str:
        return f"Card({_TOKENS[self.index]!r})"

    _repr_html_ = html_by("card_svg")


_HASHES: Final = tuple(hash((i,)) for i in range(N_CARDS))


def _make_tokens() -> tuple[str, ...]:
    regular = [rank + suit for suit in SUITS for rank in RANKS]
    return (*regular, JOKER, *SPECIAL_NAMES)


_TOKENS: Final = _make_tokens()


def _make_card(index: int) -> Card:
    card = object.__new__(Card)
    object.__setattr__(card, "index", index)
    return card


CARDS: Final = tuple(_make_card(i) for i in range(N_CARDS))
"""Every kind of card, indexed by :attr:`Card.index`."""

_BY_TOKEN: dict[str, Card] = {tok: CARDS[i] for i, tok in enumerate(_TOKENS)}
for _suit_symbol, _suit in {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.items():
    for _rank in RANKS:
        _BY_TOKEN[_rank + _suit_symbol] = _BY_TOKEN[_rank + _suit]
        _BY_TOKEN[_suit_symbol + _rank] = _BY_TOKEN[_rank + _suit]
for _suit in SUITS + "♠♥♦♣":
    _BY_TOKEN["10" + _suit] = _BY_TOKEN["T" + _suit]
    _BY_TOKEN[_suit + "10"] = _BY_TOKEN["T" + _suit]
_BY_TOKEN.update({"♠T": CARDS[9], "♥T": CARDS[22], "♦T": CARDS[35], "♣T": CARDS[48]})


def _spellings(key: str) -> list[str]:
    """Every upper/lower-case spelling of ``key`` (``"TH"`` -> TH, Th, tH, th)."""
    out = [""]
    for ch in key:
        cases = {ch, ch.lower()}
        out = [o + c for o in out for c in cases]
    return out


# Every spelling a text hand may use, in any case: parsing a hand is then one dictionary
# lookup per token.  Anything else (variation selectors, bad tokens) takes the slow path,
# which names the problem.
_ANY_CASE: Final[dict[str, Card]] = {
    spelled: card for key, card in _BY_TOKEN.items() for spelled in _spellings(key)
}

# Emoji/text variation selectors may follow a suit symbol; they carry no meaning here.
_VARIATION = re.compile("[\ufe0e\ufe0f]")
_SEPARATORS = re.compile(r"[\s,]+")


def parse_card(token: str) -> Card:
    """The card a token names; case-insensitive, ``10`` for ``T``, suit symbols accepted.

    >>> parse_card("10d"), parse_card("jk"), parse_card("nogo")
    (Card('TD'), Card('JK'), Card('NOGO'))
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    payme.cards.CardError: unknown card '1X': a card is a rank (A 2-9 T or 10 J Q K) followed by a suit (S H D C or ♠ ♥ ♦ ♣), or JK for a joker, or one of RUMMY WILD GROUP SEQ NOMELD NOGO
    """  # noqa: E501
    if not isinstance(token, str):
        raise CardError(f"a card must be given as text, not {type(token).__name__}")
    key = _VARIATION.sub("", token.strip()).upper()
    card = _BY_TOKEN.get(key)
    if card is None:
        shown = token.strip() or token
        raise CardError(f"unknown card {shown!r}: {_TOKEN_HELP}", token=shown)
    return card


CardsLike = str | Iterable["Card | str"]
"""What the public functions accept as a hand: notation text, or cards and/or tokens."""


def parse_hand(cards: CardsLike) -> tuple[Card, ...]:
    """The cards of a hand, in the order given.

    Accepts text (cards separated by spaces and/or commas) or an iterable of cards and
    tokens.  Every bad token is an error naming it; nothing is dropped.

    >>> parse_hand(["7h", Card.of("8H")])
    (Card('7H'), Card('8H'))
    >>> parse_hand("")
    ()
    """
    if type(cards) is str:
        # The common case, at dictionary-lookup cost: every token a known spelling.
        try:
            return tuple(map(_ANY_CASE.__getitem__, cards.replace(",", " ").split()))
        except KeyError:
            pass  # the general path below names the bad token
    if isinstance(cards, Card):
        return (cards,)
    if isinstance(cards, str):
        items: Iterable[Card | str] = [t for t in _SEPARATORS.split(cards) if t]
    else:
        try:
            items = list(cards)
        except TypeError:
            raise CardError(
                f"a hand must be text or a sequence of cards, not {type(cards).__name__}"
            ) from None
    result: list[Card] = []
    for item in items:
        if isinstance(item, Card):
            result.append(item)
        elif isinstance(item, str):
            # A single string item may itself hold several tokens ("7H 8H").
            parts = [t for t in _SEPARATORS.split(item) if t]
            if not parts:
                raise CardError("empty card token: every card needs a name", token=item)
            result.extend(parse_card(p) for p in parts)
        else:
            raise CardError(f"a card must be a Card or a token, not {type(item).__name__} {item!r}")
    return tuple(result)


def format_hand(cards: Iterable[Card]) -> str:
    """Cards as canonical tokens separated by spaces (the order is kept)."""
    return " ".join(_TOKENS[c.index] for c in cards)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in canonical order (sorted by index: games sort hands at every move, and a key
    read in C sorts several times faster than comparing cards).

    >>> sort_cards(parse_hand("KC 7H JK 7S"))
    (Card('7S'), Card('7H'), Card('KC'), Card('JK'))
    """
    return tuple(sorted(cards, key=_BY_INDEX))


_BY_INDEX: Final = operator.attrgetter("index")
