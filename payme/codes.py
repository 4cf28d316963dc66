"""Cards and melds as bytes: the keys and values of the engine's memos.

The memos that games fill (a meld's fitting cards, a grown meld, a hand's best lay-off)
hold tens of thousands of entries.  Cards and melds are Python objects that the garbage
collector tracks, and so is every tuple holding one; each full collection walks them
all, and it runs inside whichever bot decision happens to trigger it (50-90 ms there
after a few hundred games).  Bytes, ints and tuples of them are not tracked, so memos
keyed and filled with these codes cost a full collection nothing, however large they
grow: the cards and melds are made again from their codes when a memo is read.

A card is its index (0-58).  A meld is its number of cards, its kind, its cards, then what
each plays as (:data:`NO_CARD` for ``None``), so the codes of several melds joined are read
back one after another.  Lay-offs are each meld's index, the number of cards and the cards.
An answer that comes with points (a best layout's deadwood, a best lay-off) is the points
in two bytes, then its cards.  Such values keep a memo's dict out of the collector's reach
altogether: a dict holding only untracked keys and values is not tracked itself, while one
new tuple stored in it (tracked until a collection finds it holds only numbers) makes the
next full collection visit every entry.

>>> from payme.melds import Meld
>>> meld = Meld("run", "5H JK(6H) 7H")
>>> code = meld_code(meld)
>>> list(code)
[3, 1, 17, 52, 19, 17, 18, 19]
>>> meld_of(code)
Meld('run', '5H JK(6H) 7H')
>>> melds_of(melds_code((meld, Meld("set", "7S 7H 7D"))))
(Meld('run', '5H JK(6H) 7H'), Meld('set', '7S 7H 7D'))
>>> cards_of(hand_code(meld.cards))
(Card('5H'), Card('JK'), Card('7H'))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeVar

from payme.cards import CARDS, Card
from payme.melds import Meld, MeldKind, new_meld

NO_CARD: Final = 255
"""Stands for ``None`` (a wild card in a meld of wild cards only) among card indices."""

CARD_OF: Final[tuple[Card | None, ...]] = (*CARDS, *[None] * (256 - len(CARDS)))
"""The card of each byte (``None`` beyond the cards, :data:`NO_CARD` among them)."""

_KIND_CODE: Final[dict[str, int]] = {"set": 0, "run": 1, "single": 2}
_KIND_OF: Final[tuple[MeldKind, ...]] = ("set", "run", "single")


R = TypeVar("R")
K = TypeVar("K")
V = TypeVar("V")


def table_for(memo: dict[R, dict[K, V]], rules_key: R) -> dict[K, V]:
    """A memo's table for one rule set and round (``rules_key``: its rule tables), made
    when first asked for; a memo holds tables for at most 256 of them.

    >>> memo: dict = {}
    >>> table_for(memo, "denexa 9")[b"key"] = 1
    >>> memo
    {'denexa 9': {b'key': 1}}
    """
    table = memo.get(rules_key)
    if table is None:
        if len(memo) >= 256:
            memo.clear()
        table = memo[rules_key] = {}
    return table


def hand_code(cards: Iterable[Card]) -> bytes:
    """The cards' indices, in their order."""
    return bytes([c.index for c in cards])


def cards_of(code: bytes) -> tuple[Card, ...]:
    """The cards of :func:`hand_code` (each kind of card is one shared object)."""
    return tuple([CARDS[i] for i in code])


def stands_code(stands: Iterable[Card | None]) -> bytes:
    """What cards play as, as bytes (:data:`NO_CARD` for ``None``; read back through
    :data:`CARD_OF`)."""
    return bytes([NO_CARD if s is None else s.index for s in stands])


def meld_code(meld: Meld) -> bytes:
    """``meld`` as bytes: its size, kind, cards and stand-ins (see the module's text)."""
    cards = meld.cards
    # One bytes() call (stands_code's work written in): the hot path of every memo of melds.
    return bytes(
        (
            len(cards),
            _KIND_CODE[meld.kind],
            *[c.index for c in cards],
            *[NO_CARD if s is None else s.index for s in meld.stands_for],
        )
    )


def melds_code(melds: Iterable[Meld]) -> bytes:
    """The codes of ``melds`` joined (read back by :func:`melds_of`)."""
    return b"".join([meld_code(m) for m in melds])


def meld_at(code: bytes, at: int) -> tuple[Meld, int]:
    """The meld whose code starts at ``code[at]``, and where the next code starts.

    A natural card plays as itself: its stand-in is the very card object (``s is c``), as
    in every meld the engine builds.
    """
    n = code[at]
    first = at + 2
    last = first + 2 * n
    cards = tuple([CARDS[i] for i in code[first : first + n]])
    stands = tuple([CARD_OF[i] for i in code[first + n : last]])
    return new_meld(_KIND_OF[code[at + 1]], cards, stands), last


def meld_of(code: bytes) -> Meld:
    """The meld of :func:`meld_code`."""
    return meld_at(code, 0)[0]


def melds_of(code: bytes) -> tuple[Meld, ...]:
    """The melds of :func:`melds_code`, in order."""
    out = []
    at = 0
    while at < len(code):
        meld, at = meld_at(code, at)
        out.append(meld)
    return tuple(out)


def scored_code(points: int, rest: bytes) -> bytes:
    """A number of points (0 to 65,535) as two bytes, then ``rest`` (cards, lay-offs).

    >>> from payme.cards import parse_hand
    >>> code = scored_code(300, hand_code(parse_hand("KS JK")))
    >>> points_of(code), cards_of(code[2:])
    (300, (Card('KS'), Card('JK')))
    """
    return points.to_bytes(2, "big") + rest


def points_of(code: bytes) -> int:
    """The points of :func:`scored_code` (its ``rest`` is ``code[2:]``)."""
    return code[0] << 8 | code[1]


def placements_code(placements: Iterable[tuple[int, Iterable[Card]]]) -> bytes:
    """Lay-offs -- (index of the declarer's meld, the cards added) pairs -- as bytes: for
    each, the index, the number of cards and the cards.

    >>> from payme.cards import parse_hand
    >>> placements_of(placements_code([(2, parse_hand("8H 9H")), (0, parse_hand("JK"))]))
    ((2, (Card('8H'), Card('9H'))), (0, (Card('JK'),)))
    """
    out: list[int] = []
    for index, cards in placements:
        added = [c.index for c in cards]
        out += (index, len(added), *added)
    return bytes(out)


def placements_of(code: bytes) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """The lay-offs of :func:`placements_code`."""
    out = []
    at = 0
    while at < len(code):
        first = at + 2
        at = first + code[at + 1]
        out.append((code[first - 2], tuple([CARDS[i] for i in code[first:at]])))
    return tuple(out)


__all__ = [
    "CARD_OF",
    "NO_CARD",
    "cards_of",
    "hand_code",
    "meld_at",
    "meld_code",
    "meld_of",
    "melds_code",
    "melds_of",
    "placements_code",
    "placements_of",
    "points_of",
    "scored_code",
    "stands_code",
    "table_for",
]
