"""Lay-offs: an opponent's cards added to the declarer's melds at the end of a hand.

The declarer's melds are fixed as laid down.  An opponent may add cards to them when each
grown meld is still valid (RULES.md, "Lay-offs"):

* a **set** takes another card of its rank or a wild card (with ``set_max`` and, where suits
  must differ, no suit twice);
* a **run** takes, at either end, the next card of its suit or a wild card standing for it;
  cards may be chained (8H then 9H onto 5H-6H-7H);
* the wild limits of the rule set still hold for the grown meld, and a wild card already
  in a meld is never moved or replaced.

Readings (where the rule book leaves a choice):

* In a run each wild card stands for one definite card, so the places of the declarer's
  wild cards never change.  In a *set* a wild card stands for "a card of the set's rank":
  which missing suit it plays is not fixed, so ``7S 7H JK`` takes 7D (the joker then plays
  7C) in ``denexa``.
* A meld made only of wild cards (possible where there are no wild limits, e.g. ``JK JK JK``
  in ``family``) fixes no rank or suit, and so takes only further wild cards: any natural
  card would decide retroactively what the declarer's wild cards stood for.

:func:`lay_off` finds the **joint optimum**: the fewest penalty points the opponent can reach
with its own melds and its lay-offs together (a card laid off may come from what would
otherwise be one of its own melds).

>>> lo = lay_off("8H 9H KD KS", ["5H 6H 7H", "QC QD JK"], rules="denexa", dealt=12)
>>> lo.deadwood_points, lo.lay_offs, lo.deadwood
(20, ((0, (Card('8H'), Card('9H'))),), (Card('KS'), Card('KD')))
>>> str(lo.grown_melds[0])
'5H 6H 7H 8H 9H'

With 9 cards dealt the nines are wild: ``KS 9H KD`` is the opponent's own set, and only 8H
is laid off.

>>> lo = lay_off("8H 9H KD KS", ["5H 6H 7H", "QC QD JK"], rules="denexa", dealt=9)
>>> lo.deadwood_points, lo.melds, lo.lay_offs
(0, (Meld('set', 'KS 9H(KH) KD'),), ((0, (Card('8H'),)),))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise, product
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, TypeVar

from payme.cards import (
    CARDS,
    N_CARDS,
    N_REGULAR,
    SUITS,
    Card,
    CardError,
    CardsLike,
    format_hand,
    html_by,
)
from payme.codes import cards_of, hand_code, meld_at, meld_code, table_for
from payme.deprecation import renamed
from payme.melds import (
    ACE_HIGH,
    RUN_MOST,
    Meld,
    RuleTables,
    build_set,
    fixed_meld_problem,
    hand_cards,
    parse_declared_meld,
    tables_for,
)
from payme.rulesets import Ruleset, RulesLike

if TYPE_CHECKING:  # pragma: no cover
    from payme.solver import Evaluation
    from payme.solver.search import CompiledSearch, Search

_V = TypeVar("_V")

MeldLike = Meld | CardsLike
"""A declarer's meld: a :class:`~payme.melds.Meld`, or its cards as text or cards."""


@dataclass(frozen=True)
class LayOffResult:
    """An opponent's best end of a hand: its own melds, its lay-offs, what is left.

    ``lay_offs`` pairs the index of a declarer's meld with the cards added to it, in the
    order they are placed (nearest the meld first); only melds that receive cards appear.
    ``declarer_melds`` are the melds as they were, ``grown_melds`` as this opponent left them.
    """

    deadwood_points: int
    melds: tuple[Meld, ...]
    lay_offs: tuple[tuple[int, tuple[Card, ...]], ...]
    deadwood: tuple[Card, ...]
    rules: Ruleset
    dealt: int | None
    cards: tuple[Card, ...]
    declarer_melds: tuple[Meld, ...]
    grown_melds: tuple[Meld, ...]

    @property
    def laid_off(self) -> tuple[Card, ...]:
        """Every card laid off, in the order of ``lay_offs``."""
        return tuple(c for _, cards in self.lay_offs for c in cards)

    def __str__(self) -> str:
        parts = [f"deadwood {self.deadwood_points}"]
        if self.melds:
            parts.append("melds " + ", ".join(str(m) for m in self.melds))
        for index, cards in self.lay_offs:
            # The meld by its cards, then grown with every stand-in: a set's wild card plays
            # whichever suit keeps the set valid, so its stand-in may change (QS joining
            # QC QD JK makes the joker QH) and is shown as it ends up.
            declared, grown = self.declarer_melds[index], self.grown_melds[index]
            parts.append(
                f"lay off {format_hand(cards)} onto {format_hand(declared.cards)}, making {grown}"
            )
        if self.deadwood:
            parts.append("left " + format_hand(self.deadwood))
        return "; ".join(parts)

    _repr_html_ = html_by("layoff_html")


# --------------------------------------------------------------------------------------
# Growing one meld


def _is_wild_in(card: Card, kind: str, t: RuleTables) -> bool:
    scope = t.scope[card.index]
    return scope == "any" or scope == kind


def _grow_all_wild(meld: Meld, added: tuple[Card, ...], t: RuleTables) -> Meld | None:
    # Only wild cards: a natural card would fix what the declarer's wild cards stood for.
    if not all(_is_wild_in(c, meld.kind, t) for c in added):
        return None
    cards = tuple(sorted((*meld.cards, *added)))
    grown = Meld(meld.kind, cards, (None,) * len(cards))
    return None if fixed_meld_problem(grown, t) else grown


def _grow_set(meld: Meld, added: tuple[Card, ...], t: RuleTables) -> Meld | None:
    rank = meld.rank
    if rank is None:
        return None
    n = len(meld) + len(added)
    if t.set_max is not None and n > t.set_max:
        return None
    naturals = [c for c, s in zip(meld.cards, meld.stands_for, strict=True) if s is c]
    wilds = list(meld.wilds)
    roles = []
    for c in added:
        options = []
        if c.rank == rank:
            options.append(True)  # plays as itself
        if _is_wild_in(c, "set", t):
            options.append(False)
        if not options:
            return None
        roles.append(options)
    for choice in product(*roles):
        nat = naturals + [c for c, natural in zip(added, choice, strict=True) if natural]
        wild = wilds + [c for c, natural in zip(added, choice, strict=True) if not natural]
        if t.distinct_suits and len({c.suit for c in nat}) != len(nat):
            continue
        if t.half_limit and 2 * len(wild) > n:
            continue
        grown = build_set(rank, nat, wild)
        if not fixed_meld_problem(grown, t):
            return grown
    return None


def _card_at(place: int, suit: str) -> Card:
    return Card.regular(1 if place == ACE_HIGH else place, suit)


def _grow_run(
    meld: Meld,
    added: tuple[Card, ...],
    t: RuleTables,
    places: tuple[Card | None, ...] | None = None,
) -> tuple[Meld, tuple[Card, ...]] | None:
    """The run grown by ``added`` (its places searched from the high end down), or
    ``None``.  ``places`` names, for each added card, the card it must stand for (``None``:
    anywhere that fits), e.g. a joker at the low end of 5H-6H-7H: ``(Card("4H"),)``."""
    suit, low, high = meld.suit, meld.low, meld.high
    if suit is None or low is None or high is None:
        return None
    k = len(added)
    if len(meld) + k > RUN_MOST:
        return None
    top = ACE_HIGH if t.ace_high else 13
    roles = []
    for c in added:
        options = []
        if c.index < N_REGULAR and c.suit == suit:
            options.append(True)
        if _is_wild_in(c, "run", t):
            options.append(False)
        if not options:
            return None
        roles.append(options)
    old_wild = {
        low + i
        for i, (c, s) in enumerate(zip(meld.cards, meld.stands_for, strict=True))
        if s is not c
    }
    for choice in product(*roles):
        naturals = [c for c, natural in zip(added, choice, strict=True) if natural]
        wilds = sorted(c for c, natural in zip(added, choice, strict=True) if not natural)
        if t.half_limit and 2 * (len(old_wild) + len(wilds)) > len(meld) + k:
            continue
        for below in range(k + 1):
            lo, hi = low - below, high + k - below
            if lo < 1 or hi > top:
                continue
            new_places = [*range(lo, low), *range(high + 1, hi + 1)]
            by_place: dict[int, Card] = {}
            for c in naturals:
                rank = c.rank or 0
                if rank == 1 and t.ace_high and hi == ACE_HIGH:
                    rank = ACE_HIGH
                if not (lo <= rank < low or high < rank <= hi) or rank in by_place:
                    break
                by_place[rank] = c
            else:
                free = [p for p in new_places if p not in by_place]
                wild_places = sorted(old_wild | set(free))
                if t.adjacent_limit and any(b == a + 1 for a, b in pairwise(wild_places)):
                    continue
                at = dict(by_place)
                if places is None:
                    at.update(zip(free, wilds, strict=True))
                else:
                    chosen = _honour(free, wilds, suit, added, places, by_place)
                    if chosen is None:
                        continue
                    at.update(chosen)
                cards: list[Card] = []
                stands: list[Card | None] = []
                for p in range(lo, hi + 1):
                    if low <= p <= high:  # the declarer's cards keep their places
                        cards.append(meld.cards[p - low])
                        stands.append(meld.stands_for[p - low])
                    else:
                        cards.append(at[p])
                        stands.append(at[p] if p in by_place else _card_at(p, suit))
                grown = Meld("run", tuple(cards), tuple(stands))
                if fixed_meld_problem(grown, t):
                    continue
                # Placed nearest the meld first: up from the top, then down from the bottom.
                order = [at[p] for p in range(high + 1, hi + 1)]
                order += [at[p] for p in range(low - 1, lo - 1, -1)]
                return grown, tuple(order)
    return None


def _honour(
    free: list[int],
    wilds: list[Card],
    suit: str,
    added: tuple[Card, ...],
    places: tuple[Card | None, ...],
    by_place: dict[int, Card],
) -> dict[int, Card] | None:
    """The wild cards put in the ``free`` places of a run so that every added card stands
    for the card ``places`` names for it, or ``None`` when these places cannot do it."""
    wanted = [(c, w) for c, w in zip(added, places, strict=True) if w is not None]
    # A natural card stands for itself: its named place must be its own.
    for place, card in by_place.items():
        if (card, _card_at(place, suit)) in wanted:
            wanted.remove((card, _card_at(place, suit)))
    left = list(wilds)
    at: dict[int, Card] = {}
    for place in free:
        stands = _card_at(place, suit)
        pick = next((c for c, w in wanted if w == stands and c in left), None)
        if pick is not None:
            wanted.remove((pick, stands))
        else:
            # A wild card not needed for a named place fills it.
            spare = [c for c in left if left.count(c) > sum(x == c for x, _ in wanted)]
            if not spare:
                return None
            pick = spare[0]
        left.remove(pick)
        at[place] = pick
    return None if wanted else at


_GROWN: dict[RuleTables, dict[bytes, bytes]] = {}
"""Grown melds by rule tables, then by the code of the meld and the added cards (see
:mod:`payme.codes`): the grown meld's code and the added cards in placing order, or
``b""`` when the grown meld is invalid."""
# Bounded, though its codes cost the garbage collector nothing (payme.codes): a game only
# asks again about recent melds.
_GROWN_MOST = 1 << 12


def _grown(meld: Meld, code: bytes, added: tuple[Card, ...], t: RuleTables) -> bytes:
    """:data:`_GROWN`'s entry for ``meld`` (whose code is ``code``) grown by ``added``.

    Remembered: in a game every opponent tries the same declarer's melds, and the legal
    actions, the best lay-off and the single lay-offs ask the same questions.
    """
    table = table_for(_GROWN, t)
    key = code + bytes([c.index for c in added])
    found = table.get(key)
    if found is None:
        result = _grow_now(meld, added, t)
        found = b"" if result is None else meld_code(result[0]) + hand_code(result[1])
        if len(table) >= _GROWN_MOST:
            table.clear()
        table[key] = found
    return found


def _grows(meld: Meld, code: bytes, added: tuple[Card, ...], t: RuleTables) -> bool:
    """Whether ``meld`` (whose code is ``code``) grown by ``added`` is valid."""
    return bool(_grown(meld, code, added, t))


def _grow(
    meld: Meld, added: tuple[Card, ...], t: RuleTables
) -> tuple[Meld, tuple[Card, ...]] | None:
    """The grown meld and the added cards in placing order, or ``None`` if it is invalid."""
    found = _grown(meld, meld_code(meld), added, t)
    if not found:
        return None
    grown, at = meld_at(found, 0)
    # Valid as grown: a game lays off onto it next without checking it again.
    checked = table_for(_CHECKED, t)
    if len(checked) >= _GROWN_MOST:
        checked.clear()
    checked[found[:at]] = True
    return grown, cards_of(found[at:])


def _grow_now(
    meld: Meld, added: tuple[Card, ...], t: RuleTables
) -> tuple[Meld, tuple[Card, ...]] | None:
    if not added:
        return meld, ()
    if meld.kind == "single" or any(c.index in t.single or c.index in t.never for c in added):
        return None
    if meld.all_wild:
        grown = _grow_all_wild(meld, added, t)
        return None if grown is None else (grown, tuple(sorted(added)))
    if meld.kind == "set":
        grown = _grow_set(meld, added, t)
        return None if grown is None else (grown, tuple(sorted(added)))
    return _grow_run(meld, added, t)


def grow_meld(
    meld: MeldLike,
    added: CardsLike,
    rules: RulesLike = "denexa",
    dealt: int | None = None,
    *,
    places: Sequence[Card | None] | None = None,
) -> Meld | None:
    """``meld`` with ``added`` laid off onto it, or ``None`` when the grown meld is invalid.

    The cards may be chained and given in any order; what must be valid is the grown meld.
    Whoever lays off names the place of a wild card on a run (RULES.md, "Lay-offs"):
    ``places`` gives, for each added card, the card it stands for (``None``: the engine's
    choice, the high end first).  A set's wild card stands for the rank, not one card, so a
    set takes no named place.

    >>> str(grow_meld("5H 6H 7H", "JK", rules="family", dealt=9))
    '5H 6H 7H JK(8H)'
    >>> str(grow_meld("5H 6H 7H", "JK", rules="family", dealt=9, places=[Card("4H")]))
    'JK(4H) 5H 6H 7H'
    >>> grow_meld("5H 6H 7H", "JK", rules="family", dealt=9, places=[Card("3H")]) is None
    True

    >>> str(grow_meld("5H 6H 7H", "9H 8H", rules="denexa", dealt=12))
    '5H 6H 7H 8H 9H'
    >>> str(grow_meld("7S 7H JK", "7D", rules="denexa", dealt=9))
    '7S 7H 7D JK(7C)'
    >>> grow_meld("JK QH KH", "JK", rules="denexa", dealt=9) is None  # JK JK side by side
    True
    """
    t = tables_for(rules, dealt)
    declared = _declared_one(meld, t)  # a Meld object checked once (a game asks again)
    cards = hand_cards(added, t)
    if places is None or all(p is None for p in places):
        result = _grow(declared, cards, t)
        return None if result is None else result[0]
    named = tuple(places)
    if len(named) != len(cards):
        raise ValueError(f"give one place for each card laid off: {len(cards)}, not {len(named)}")
    if declared.kind != "run" or declared.all_wild:
        return None
    found = _grow_run(declared, cards, t, named)
    return None if found is None else found[0]


def lay_off_places(
    meld: MeldLike, card: Card | str, rules: RulesLike = "denexa", dealt: int | None = None
) -> tuple[Card, ...]:
    """The cards ``card`` can stand for when laid off alone onto the run ``meld``: one
    place at each end that takes it (low end first).  Empty for a set, or when the card
    does not fit; a natural card has only its own place.

    >>> lay_off_places("5H 6H 7H", "JK", rules="family", dealt=9)
    (Card('4H'), Card('8H'))
    >>> lay_off_places("AH 2H 3H", "JK", rules="family", dealt=9)   # nothing below the ace
    (Card('4H'),)
    """
    t = tables_for(rules, dealt)
    declared = _declared_one(meld, t)
    one = hand_cards([card] if isinstance(card, Card) else card, t)
    if declared.kind != "run" or declared.all_wild or len(one) != 1:
        return ()
    suit, low, high = declared.suit, declared.low, declared.high
    if suit is None or low is None or high is None:
        return ()
    ends = [p for p in (low - 1, high + 1) if 1 <= p <= (ACE_HIGH if t.ace_high else 13)]
    out = []
    for place in ends:
        want = _card_at(place, suit)
        if _grow_run(declared, one, t, (want,)) is not None:
            out.append(want)
    return tuple(out)


def single_lay_offs(
    hand: CardsLike,
    declarer_melds: Iterable[MeldLike],
    rules: RulesLike = "denexa",
    dealt: int | None = None,
) -> list[tuple[int, Card]]:
    """Each distinct card of ``hand`` that fits one of the melds by itself, as (meld index,
    card) pairs in card order, then meld order.  Every chain of lay-offs starts with such a
    card, so an empty list means nothing can be laid off at all.

    >>> single_lay_offs("8H 4H KD JK", ["5H 6H 7H", "KC KH 3C"], rules="family", dealt=3)
    [(0, Card('4H')), (0, Card('8H')), (1, Card('KD')), (0, Card('JK')), (1, Card('JK'))]
    """
    t = tables_for(rules, dealt)
    melds = _declared(declarer_melds, t)  # checked once, not once per card
    masks = [fitting_mask(meld, t) for meld in melds]
    return [
        (index, card)
        for card in sorted(set(hand_cards(hand, t)))
        for index, mask in enumerate(masks)
        if mask >> card.index & 1
    ]


# --------------------------------------------------------------------------------------
# The joint optimum


def _candidates(meld: Meld, hand: Mapping[Card, int], t: RuleTables) -> dict[Card, int]:
    """The hand's cards (``hand``: copies by kind) that could take part in some lay-off
    onto ``meld``, with their copies (what the search's :class:`_Meld` keeps)."""
    return _Meld(meld, hand, t).candidates


def _candidate_mask(meld: Meld, t: RuleTables) -> int:
    """The kinds of card of the pack that could take part in some lay-off onto ``meld``
    (:func:`_candidates` of a hand holding every kind), as a mask of card indices: the
    wild cards that may play in its kind of meld, and the natural cards of a set's rank or
    beyond either end of a run (a test compares it with :func:`_candidates_in`).
    Remembered by meld, like :func:`fitting_mask` (every opponent asks about the same
    declarer's melds)."""
    return _by_meld(meld, t, _LAST_CANDIDATE, _CANDIDATE, _candidate_mask_now)


_CANDIDATE: dict[RuleTables, dict[bytes, int]] = {}
"""Candidate masks by rule tables, then by the meld's code (:mod:`payme.codes`)."""
_LAST_CANDIDATE: dict[int, tuple[Meld, RuleTables, int]] = {}


def _candidate_mask_now(meld: Meld, t: RuleTables) -> int:
    kind = meld.kind
    if kind == "single":
        return 0
    wild, natural = _kind_masks(t)
    mask = wild.get(kind, 0)
    if meld.all_wild:
        return mask
    if kind == "set":
        rank = meld.rank
        if rank is not None:
            mask |= natural & (0x1 | 0x1 << 13 | 0x1 << 26 | 0x1 << 39) << (rank - 1)
        return mask
    suit, low, high = meld.suit, meld.low or 0, meld.high or 0
    if suit is not None:
        base = SUITS.index(suit) * 13
        ranks = 0
        for r in range(1, 14):
            if r < low or r > high or (r == 1 and t.ace_high and high < ACE_HIGH):
                ranks |= 1 << (r - 1)
        mask |= natural & ranks << base
    return mask


def _kind_masks(t: RuleTables) -> tuple[dict[str, int], int]:
    """The pack's kinds of card that may play wild in a set and in a run, and its natural
    cards, as masks of card indices (cards that are melds alone or never melded left out)."""
    found = _KIND_MASKS.get(t)
    if found is None:
        wild = {"set": 0, "run": 0}
        natural = 0
        for c in _pack_kinds(t):
            i = c.index
            if i in t.single or i in t.never:
                continue
            for kind in wild:
                if _is_wild_in(c, kind, t):
                    wild[kind] |= 1 << i
            if i < N_REGULAR:
                natural |= 1 << i
        if len(_KIND_MASKS) >= 256:
            _KIND_MASKS.clear()
        found = _KIND_MASKS[t] = (wild, natural)
    return found


_KIND_MASKS: dict[RuleTables, tuple[dict[str, int], int]] = {}


def _candidates_in(meld: Meld, hand: Counter[Card], t: RuleTables) -> Counter[Card]:
    """:func:`_candidates`, card by card."""
    kind = meld.kind
    if kind == "single":
        return Counter()
    out: Counter[Card] = Counter()
    scope, single, never = t.scope, t.single, t.never
    naturals_fit = not meld.all_wild  # an all-wild meld takes only wild cards
    rank, suit = meld.rank, meld.suit
    low, high = meld.low or 0, meld.high or 0
    for c, n in hand.items():
        i = c.index
        if i in single or i in never:
            continue
        sc = scope[i]
        fits = sc == "any" or sc == kind
        if not fits and naturals_fit and i < N_REGULAR:
            if kind == "set":
                fits = c.rank == rank
            elif c.suit == suit:
                # Only a card beyond either end can join a run (an ace maybe above a king).
                r = i % 13 + 1
                fits = r < low or r > high or (r == 1 and t.ace_high and high < ACE_HIGH)
        if fits:
            out[c] = n
    return out


def fitting_mask(meld: Meld, t: RuleTables) -> int:
    """The kinds of card of the pack that fit ``meld`` by themselves, as a mask of card
    indices (bit ``card.index``): what :func:`single_lay_offs` finds for a hand holding one
    of every kind.

    >>> from payme.cards import format_hand
    >>> t = tables_for("family", 3)
    >>> mask = fitting_mask(parse_declared_meld("5H 6H 7H", t.rules, t.dealt), t)
    >>> format_hand(c for c in CARDS if mask >> c.index & 1)
    '3S 3H 4H 8H 3D 3C JK'
    """
    return _by_meld(meld, t, _LAST_FITTING, _FITTING, _fitting_now)


def _fitting_now(meld: Meld, t: RuleTables) -> int:
    found = _placed_mask(meld, t)
    return _grown_mask(meld, t) if found is None else found


def _by_meld(
    meld: Meld,
    t: RuleTables,
    last: dict[int, tuple[Meld, RuleTables, _V]],
    memo: dict[RuleTables, dict[bytes, _V]],
    work_out: Callable[[Meld, RuleTables], _V],
) -> _V:
    """``work_out(meld, t)`` (a mask of card indices, say), remembered by the meld's code
    (:mod:`payme.codes`) in ``memo`` and, for the very object asked about last time for
    these tables, by identity in ``last``: a meld hashes slowly, and a game asks about
    the same few Meld objects again and again."""
    known = last.get(id(meld))
    if known is not None and known[0] is meld and known[1] is t:
        return known[2]
    table = table_for(memo, t)
    key = meld_code(meld)
    found = table.get(key)
    if found is None:
        found = work_out(meld, t)
        if len(table) >= _GROWN_MOST:
            table.clear()
        table[key] = found
    if len(last) >= _LAST_MOST:
        last.clear()
    last[id(meld)] = (meld, t, found)  # holding the meld keeps its id in use
    return found


def _placed_mask(meld: Meld, t: RuleTables) -> int | None:
    """:func:`fitting_mask` of a set or a run whose wild cards stand for definite cards,
    read from the places one more card could take (``None`` for any other meld).

    A card fits a run at a place next to either end, as the card of that place or as a
    wild card; a set, as a card of its rank in a suit it lacks (where suits must differ)
    or as a wild card.  A card that plays as itself keeps the wild limits as they were;
    one more wild card must keep them too.  (A test compares this with growing the meld
    with every card of the pack.)
    """
    if meld.all_wild or meld.kind == "single":
        return None
    n = len(meld) + 1
    wild_now = {
        i for i, (c, s) in enumerate(zip(meld.cards, meld.stands_for, strict=True)) if s is not c
    }
    wild_fits = not (t.half_limit and 2 * (len(wild_now) + 1) > n)
    naturals: list[Card] = []
    if meld.kind == "set":
        rank = meld.rank
        if rank is None:
            return None
        if t.set_max is not None and n > t.set_max:
            return 0
        taken = {c.suit for c, s in zip(meld.cards, meld.stands_for, strict=True) if s is c}
        naturals = [
            Card.regular(rank, suit) for suit in SUITS if not (t.distinct_suits and suit in taken)
        ]
        scope = "set"
    else:
        suit, low, high = meld.suit, meld.low, meld.high
        if suit is None or low is None or high is None:
            return None
        if n > RUN_MOST:
            return 0
        top = ACE_HIGH if t.ace_high else 13
        places = [p for p in (low - 1, high + 1) if 1 <= p <= top]
        naturals = [Card.regular(1 if p == ACE_HIGH else p, suit) for p in places]
        # A wild card next to an end sits beside that end's card: not beside another wild.
        beside = {low - 1: 0, high + 1: n - 2}  # the place of the end card each sits by
        wild_fits = wild_fits and any(
            not (t.adjacent_limit and beside[p] in wild_now) for p in places
        )
        scope = "run"
    mask = 0
    pack, never = t.largest_pack, t.never | t.single
    for card in naturals:
        if pack[card.index] and card.index not in never:
            mask |= 1 << card.index
    if wild_fits:
        for card in _wild_kinds(t):
            if _is_wild_in(card, scope, t) and card.index not in never:
                mask |= 1 << card.index
    return mask


def _grown_mask(meld: Meld, t: RuleTables) -> int:
    """:func:`fitting_mask` by growing ``meld`` with each card that might fit it."""
    found = 0
    # A card that can only play as a wild card here fits or not whatever card it is:
    # one answer per scope of wild card.
    as_wild: dict[str | None, bool] = {}
    natural = _natural_here(meld)
    code = meld_code(meld)
    for card in _candidates_in(meld, _pack_kinds(t), t):
        scope = t.scope[card.index]
        if natural(card):
            fits = _grows(meld, code, (card,), t)
        elif scope in as_wild:
            fits = as_wild[scope]
        else:
            fits = as_wild[scope] = _grows(meld, code, (card,), t)
        if fits:
            found |= 1 << card.index
    return found


def _wild_kinds(t: RuleTables) -> list[Card]:
    """The kinds of card of the pack that may play wild in some meld."""
    kinds = _WILD_KINDS.get(t)
    if kinds is None:
        kinds = [c for c in _pack_kinds(t) if t.scope[c.index] is not None]
        if len(_WILD_KINDS) >= 256:
            _WILD_KINDS.clear()
        _WILD_KINDS[t] = kinds
    return kinds


_WILD_KINDS: dict[RuleTables, list[Card]] = {}


def _natural_here(meld: Meld) -> Callable[[Card], bool]:
    """Whether a card could play as itself in ``meld`` (its rank's set, its suit's run)."""
    if meld.all_wild or meld.kind == "single":
        return lambda card: False
    if meld.kind == "set":
        rank = meld.rank
        return lambda card: card.index < N_REGULAR and card.rank == rank
    suit = meld.suit
    return lambda card: card.index < N_REGULAR and card.suit == suit


_FITTING: dict[RuleTables, dict[bytes, int]] = {}
"""Fitting masks by rule tables, then by the meld's code (:mod:`payme.codes`)."""
_LAST_FITTING: dict[int, tuple[Meld, RuleTables, int]] = {}
_LAST_MOST = 64
"""The objects known by identity (the ``_LAST_`` memos): few, since they hold Meld objects
the garbage collector walks; a game asks about a handful of melds at a time."""
_PACK_KINDS: dict[RuleTables, Counter[Card]] = {}


def _pack_kinds(t: RuleTables) -> Counter[Card]:
    """One of each kind of card the rule set's pack holds."""
    kinds = _PACK_KINDS.get(t)
    if kinds is None:
        kinds = Counter(c for c, n in zip(CARDS, t.largest_pack, strict=True) if n)
        if len(_PACK_KINDS) >= 256:
            _PACK_KINDS.clear()
        _PACK_KINDS[t] = kinds
    return kinds


_Places = tuple[dict[int, int], list[int]]
"""A run's places beyond its ends: the kind that can stand there as itself, by place; and
the kinds that can stand anywhere as wild cards."""


def _run_places(meld: Meld, kinds: list[Card], t: RuleTables) -> _Places | None:
    """For a run whose places are fixed (not one of wild cards only): which of ``kinds``
    could stand at each place beyond its ends as itself, and which could stand anywhere as
    a wild card (as indices into ``kinds``); ``None`` for any other meld.

    Every lay-off onto such a run fills the places next to it, each with the card of that
    place or a wild card, so its lay-offs are listed from these (see
    :meth:`_Meld.options`) rather than from every set of candidate cards.
    """
    low, high, suit = meld.low, meld.high, meld.suit
    if meld.kind != "run" or meld.all_wild or suit is None or low is None or high is None:
        return None
    natural: dict[int, int] = {}
    wild: list[int] = []
    for i, c in enumerate(kinds):
        if _is_wild_in(c, "run", t):
            wild.append(i)
        if c.index < N_REGULAR and c.suit == suit:
            rank = c.rank or 0
            natural[rank] = i
            if rank == 1 and t.ace_high:
                natural[ACE_HIGH] = i
    return natural, wild


def _multisets(most: list[int], size: int) -> Iterator[tuple[int, ...]]:
    """Every way to take ``size`` cards with at most ``most[i]`` of kind ``i``, as counts
    per kind."""
    n = len(most)
    room = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        room[i] = room[i + 1] + most[i]
    return _fill(most, room, [0] * n, 0, size)


def _fill(
    most: list[int], room: list[int], counts: list[int], i: int, left: int
) -> Iterator[tuple[int, ...]]:
    """:func:`_multisets` from kind ``i`` on, ``left`` cards still to take (a function of
    its own: a nested one calling itself would be a reference cycle, left for the garbage
    collector, at every call)."""
    if left == 0:
        yield tuple(counts)
        return
    if i == len(most) or room[i] < left:
        return
    for k in range(min(most[i], left), -1, -1):
        counts[i] = k
        yield from _fill(most, room, counts, i + 1, left - k)
    counts[i] = 0


_index: Final = attrgetter("index")


def _indices(cards: tuple[Card, ...]) -> list[int]:
    """The cards' indices: sorting by them is sorting the cards (cards order by index)."""
    return [c.index for c in cards]


def _cards_of(kinds: list[Card], counts: tuple[int, ...]) -> tuple[Card, ...]:
    """The cards ``counts`` (copies per kind) stands for, in the order of ``kinds``."""
    return tuple(c for c, n in zip(kinds, counts, strict=True) for _ in range(n))


class _Meld:
    """One declarer's meld in the search: the hand's candidate cards for it, and its valid
    lay-offs, listed one size at a time and only when asked for."""

    def __init__(
        self, meld: Meld, hand: Mapping[Card, int], t: RuleTables, mask: int | None = None
    ) -> None:
        self.meld = meld
        self.t = t
        if mask is None:
            mask = _candidate_mask(meld, t)
        cand = {c: n for c, n in hand.items() if mask >> c.index & 1}
        self.candidates = cand
        self.kinds = sorted(cand, key=_index)  # the cards' order, compared in C
        self.most = [cand[c] for c in self.kinds]
        room = RUN_MOST - len(meld) if meld.kind == "run" else sum(self.most)
        if meld.kind == "set" and t.set_max is not None:
            room = t.set_max - len(meld)
        self.room = max(0, min(room, sum(self.most)))
        self.places = _run_places(meld, self.kinds, t)
        self.by_size: dict[int, list[tuple[Card, ...]]] = {}
        if self.places is not None and self.room:
            self._reach()

    def _reach(self) -> None:
        """For a run: how many wild cards the places below and above it need, the first
        ``b`` of them taken (``down[b]``, ``up[b]``: places whose own card the hand does
        not hold); the most cards a lay-off can take (``room``), and the candidates left
        to those that can take part in one (a card beyond a gap the wild cards held cannot
        fill never can)."""
        assert self.places is not None
        natural, wild = self.places
        meld, t = self.meld, self.t
        low, high = meld.low or 0, meld.high or 0
        self.ends = low, high
        # The places of the declarer's wild cards (they keep them).
        self.old_wild = {
            low + i
            for i, (c, s) in enumerate(zip(meld.cards, meld.stands_for, strict=True))
            if s is not c
        }
        top = ACE_HIGH if self.t.ace_high else 13
        held = sum(self.most[i] for i in wild)
        down, up = [0], [0]
        for steps, start, end in ((down, low - 1, 0), (up, high + 1, top + 1)):
            step = 1 if end > start else -1
            for place in range(start, end, step):
                if len(steps) > self.room:
                    break
                need = steps[-1] + (place not in natural)
                if need > held:
                    break
                steps.append(need)
        self.down, self.up = down, up
        reach = max(
            b + a for b in range(len(down)) for a in range(len(up)) if down[b] + up[a] <= held
        )
        self.room = min(self.room, reach)
        # Natural cards at places no lay-off reaches take part in none.
        reached = {*range(low - len(down) + 1, low), *range(high + 1, high + len(up))}
        keep = set(wild) | {i for place, i in natural.items() if place in reached}
        if len(keep) < len(self.kinds):
            self.kinds = [c for i, c in enumerate(self.kinds) if i in keep]
            self.most = [n for i, n in enumerate(self.most) if i in keep]
            self.places = _run_places(meld, self.kinds, t)
            self.room = min(self.room, sum(self.most))

    def options(self, size: int) -> list[tuple[Card, ...]]:
        """Every distinct set of ``size`` of the hand's cards that grows the meld validly,
        each as sorted cards, in sorted order."""
        found = self.by_size.get(size)
        if found is not None:
            return found
        found = []
        if 0 < size <= self.room:
            kinds = self.kinds
            if self.places is None:
                tried = (_cards_of(kinds, counts) for counts in _multisets(self.most, size))
                meld, code, t = self.meld, meld_code(self.meld), self.t
                found = [added for added in tried if _grows(meld, code, added, t)]
            else:
                found = [_cards_of(kinds, counts) for counts in self._run_fillings(size)]
            found.sort(key=_indices)  # the cards' order, compared in C
        self.by_size[size] = found
        return found

    def _run_fillings(self, size: int) -> set[tuple[int, ...]]:
        """For a run: every distinct valid lay-off of ``size`` cards, as counts per kind.

        A grown run is the old one widened by ``size`` places, each holding one card that
        plays as itself (the card of that place) or wild; the declarer's cards keep their
        places.  So each way to widen it (how many places below) and to choose which new
        places hold their own card is one arrangement, valid exactly when the wild limits
        hold for the grown run: what :func:`_grow` finds by trying every arrangement of
        the cards, without building the grown meld (a test compares the two).
        """
        assert self.places is not None
        natural, wild = self.places
        meld, t, most = self.meld, self.t, self.most
        low, high = self.ends
        old_wild = self.old_wild
        # Wild cards the grown run may hold at most (the half limit counts the old ones).
        wild_most = size
        if t.half_limit:
            wild_most = min(wild_most, (len(meld) + size) // 2 - len(old_wild))
        wild_held = sum(most[i] for i in wild)
        budget = min(wild_most, wild_held)  # wild cards the grown run can hold
        out: set[tuple[int, ...]] = set()
        down, up = self.down, self.up
        for below in range(size + 1):
            above = size - below
            # The places whose own card is not held take wild cards (the most the run can
            # hold); of the places whose card is held, at most what the wild cards left
            # allow take one instead (each choice of those is one arrangement).
            if below >= len(down) or above >= len(up):
                continue
            spare = budget - down[below] - up[above]
            if spare < 0:
                continue
            lo, hi = low - below, high + above
            new = [*range(lo, low), *range(high + 1, hi + 1)]
            own = [p for p in new if p in natural]
            for kept in _kept(own, spare):
                wilds = size - len(kept)
                if t.adjacent_limit:
                    places = old_wild.union(p for p in new if p not in kept)
                    if any(p + 1 in places for p in places):
                        continue
                counts = [0] * len(most)
                for p in kept:
                    counts[natural[p]] += 1
                if not wilds:
                    out.add(tuple(counts))  # the usual case: no place left to wild cards
                    continue
                room = [most[i] - counts[i] for i in wild]
                for extra in _multisets(room, wilds):
                    filled = list(counts)
                    for i, n in zip(wild, extra, strict=True):
                        filled[i] += n
                    out.add(tuple(filled))
        return out


def _kept(own: list[int], spare: int) -> Iterator[set[int]]:
    """The subsets of the places ``own`` that leave out at most ``spare`` of them."""
    for given in range(min(spare, len(own)) + 1):
        for left_out in combinations(own, given):
            yield set(own).difference(left_out)


_Choice = tuple[tuple[int, tuple[Card, ...]], ...]
"""Cards laid off, as (index of the declarer's meld, the cards in sorted order)."""
_NOTHING: _Choice = ()


class _LaidSets:
    """Every set of candidate cards that can be laid off together onto the open melds.

    A set of the hand's candidate cards (a sub-multiset) is a number in mixed radix, a
    digit per kind of card (its copies, 0 up to those held), and a family of sets is a
    bitset over those numbers (an int, bit ``number``).  ``sets[i]``, the sets the melds
    from the ``i``-th on can take together (each meld one of its lay-offs or nothing), is
    ``sets[i + 1]`` joined with that family shifted by each lay-off of the ``i``-th meld,
    where it fits: a few operations on ints per lay-off, however many sets there are, where
    listing the choices meld by meld visits each reachable set once per meld and size.

    The order the search must keep among equally good sets -- the first choice reaching
    each, the declarer's melds in order, nothing onto a meld before something, fewer
    cards before more, each size's lay-offs in sorted order -- is the order of each set's
    first choice read meld by meld (:meth:`first_choice`): at each meld the first option
    after which the cards still to place can go onto the later melds.
    """

    def __init__(
        self,
        kinds: list[Card],
        counts: Mapping[Card, int],
        melds: list[_Meld],
        points: Sequence[int],
    ) -> None:
        self.radix = [counts[k] + 1 for k in kinds]
        self.strides = []
        n = 1
        for r in self.radix:
            self.strides.append(n)
            n *= r
        self.n = n
        self.kinds = kinds
        self.points = [points[k.index] for k in kinds]
        at = {k: j for j, k in enumerate(kinds)}
        # Each meld's lay-offs in the search's order: (number, (kind, copies)..., cards).
        self.options: list[list[tuple[int, tuple[tuple[int, int], ...], tuple[Card, ...]]]] = []
        for m in melds:
            listed = []
            for k in range(1, m.room + 1):
                for added in m.options(k):
                    tally: dict[int, int] = {}
                    for c in added:
                        j = at[c]
                        tally[j] = tally.get(j, 0) + 1
                    parts = tuple(sorted(tally.items()))
                    number = sum(self.strides[j] * v for j, v in parts)
                    listed.append((number, parts, added))
            self.options.append(listed)
        full = (1 << n) - 1
        at_most: dict[tuple[int, int], int] = {}
        family = 1  # after the last meld: only the empty set
        sets = [family]
        for listed in reversed(self.options):
            grown = family
            for number, parts, _ in listed:
                room = full
                for j, v in parts:
                    key = (j, self.radix[j] - 1 - v)
                    mask = at_most.get(key)
                    if mask is None:
                        mask = at_most[key] = self._at_most(*key, full)
                    room &= mask
                grown |= (family & room) << number
            family = grown
            sets.append(family)
        sets.reverse()
        self.sets = sets
        self._bits: dict[int, str] = {}
        self._by_size: dict[int, list[tuple[int, list[int]]]] | None = None

    def _at_most(self, j: int, v: int, full: int) -> int:
        """The numbers whose ``j``-th digit is at most ``v``."""
        block = self.strides[j] * self.radix[j]
        every_block = full // ((1 << block) - 1)  # a 1 at the start of each block
        return ((1 << ((v + 1) * self.strides[j])) - 1) * every_block

    def _bits_of(self, i: int) -> str:
        """``sets[i]`` as a string of digits, ``"1"`` at each member's number."""
        bits = self._bits.get(i)
        if bits is None:
            bits = self._bits[i] = format(self.sets[i], f"0{self.n}b")[::-1]
        return bits

    def digits(self, number: int) -> list[int]:
        out = []
        for r in self.radix:
            number, d = divmod(number, r)
            out.append(d)
        return out

    def sums(self, per_kind: Sequence[Sequence[Any]]) -> list[Any]:
        """For every number, the sum over the kinds of ``per_kind[j][digit j]``: a list
        indexed by number."""
        out = [0]
        for values in per_kind:
            out = [x + y for y in values for x in out]
        return out

    def _group(self) -> dict[int, list[tuple[int, list[int]]]]:
        """The members by size, then by the points they lay off, most first."""
        if self._by_size is None:
            sizes = self.sums([range(r) for r in self.radix])  # every number's size
            laid = self.sums(
                [[v * p for v in range(r)] for r, p in zip(self.radix, self.points, strict=True)]
            )
            grouped: dict[int, dict[int, list[int]]] = {}
            bits = self._bits_of(0)
            number = bits.find("1", 1)
            while number >= 0:
                grouped.setdefault(sizes[number], {}).setdefault(laid[number], []).append(number)
                number = bits.find("1", number + 1)
            self._by_size = {
                k: sorted(by_laid.items(), key=lambda item: -item[0])
                for k, by_laid in grouped.items()
            }
        return self._by_size

    @property
    def most(self) -> int:
        """The most cards any member lays off."""
        return max(self._group(), default=0)

    def ranked(self, size: int) -> list[tuple[int, list[int]]]:
        """The members of ``size`` cards, as (points laid off, the numbers of the members
        laying off those points), most points first."""
        return self._group().get(size, [])

    def by_points(self) -> list[tuple[int, int, list[int]]]:
        """Every member, as (points laid off, size, the numbers of those members), most
        points first."""
        return sorted(
            ((laid, size, tied) for size, found in self._group().items() for laid, tied in found),
            key=lambda item: -item[0],
        )

    def first(self, number: int) -> tuple[int, ...]:
        """The first choice laying off the set ``number``: for each meld the place of its
        lay-off in the meld's list, counted from 1 (0: nothing onto it)."""
        digits = self.digits(number)
        out = []
        for i, listed in enumerate(self.options):
            if not number:
                out += [0] * (len(self.options) - i)
                break
            later = self._bits_of(i + 1)
            if later[number] == "1":
                out.append(0)
                continue
            for place, (code, parts, _) in enumerate(listed, 1):
                if (
                    code <= number
                    and all(digits[j] >= v for j, v in parts)
                    and later[number - code] == "1"
                ):
                    for j, v in parts:
                        digits[j] -= v
                    number -= code
                    out.append(place)
                    break
            else:  # pragma: no cover - every member of sets[i] is reached this way
                raise AssertionError("a set laid off without a first choice")
        return tuple(out)

    def choice(self, number: int, indices: list[int]) -> _Choice:
        """The first choice laying off the set ``number``, each lay-off with the index of
        its declarer's meld (``indices``, one per open meld)."""
        return tuple(
            (indices[i], self.options[i][place - 1][2])
            for i, place in enumerate(self.first(number))
            if place
        )


def _plain_search(cards: tuple[Card, ...], t: RuleTables) -> Search | CompiledSearch | None:
    """The solver's search of a hand holding regular cards (wild cards of a rank
    included), cards never melded and pure wild cards that may play in any meld all
    priced alike (jokers, say), or ``None`` for any other hand.

    Its value from a start leaves ``b`` such wild cards in the hand, whichever they are:
    priced alike, they are interchangeable.
    """
    from payme.solver.search import value_search

    price = None
    for c in cards:
        i = c.index
        if i < N_REGULAR or i in t.never:
            continue
        if i in t.single or t.scope[i] != "any":
            return None
        if price is None:
            price = t.points[i]
        elif t.points[i] != price:
            return None
    return value_search(cards, t)


class _Starts:
    """The fewest points of a hand less some copies of each of some kinds of its cards,
    each answer a start of one search of the whole hand (:func:`_plain_search`).

    What laying off ``v`` copies of a kind takes from the search's start (:meth:`taken`):
    pure wild cards from their count, cards set aside (never in a meld) from the points set
    aside, any other from the state; the cards are taken from those set aside first.
    """

    def __init__(self, h: Search | CompiledSearch, t: RuleTables, kinds: Sequence[Card]):
        self.state0, self.aside0, self.pure0, self.search = h.state0, h.aside, h.n_any, h.value
        isolated = Counter(h.isolated)
        unit_of, points = h.book.unit_of, t.points
        self.table = [
            (wild, isolated[c], points[c.index], 0 if wild else unit_of[c.index])
            for c in kinds
            for wild in (c.index >= N_REGULAR,)
        ]

    def taken(self, j: int, v: int) -> tuple[int, int, int]:
        """What ``v`` copies of the ``j``-th kind take: (state, pure wild cards, points)."""
        wild, iso, pts, unit = self.table[j]
        if wild:
            return 0, v, 0
        aside = min(v, iso)
        return (v - aside) * unit, 0, aside * pts

    def value(self, state: int, pure: int, aside: int) -> int:
        """The fewest points with ``state``, ``pure`` and ``aside`` taken from the start."""
        return self.search(self.state0 - state, self.pure0 - pure, 1) + self.aside0 - aside

    def __call__(self, counts: Sequence[int]) -> int:
        """The fewest points less ``counts`` copies of each kind."""
        state = pure = aside = 0
        for j, v in enumerate(counts):
            s, p, a = self.taken(j, v)
            state, pure, aside = state + s, pure + p, aside + a
        return self.value(state, pure, aside)


def _starts(cards: tuple[Card, ...], t: RuleTables, kinds: Sequence[Card]) -> _Starts | None:
    """:class:`_Starts` for ``cards`` and ``kinds``, or ``None`` where there is no one
    search of the whole hand."""
    h = _plain_search(cards, t)
    return None if h is None else _Starts(h, t, kinds)


class _Search:
    """The joint optimum: the fewest points, then the fewest cards laid off.

    Every set of cards that can be laid off together is found at once (:class:`_LaidSets`,
    a few operations on ints per lay-off of each meld).  Laying off cards worth ``p``
    points leaves at least ``evaluate(hand) - p`` (the cards left can do no worse than
    before without the ones laid off), so the sets are scored most points first, and
    only while that bound lets one beat the fewest points found so far (a set of the whole
    hand's deadwood cards reaches its bound exactly, without a search; any other is scored
    as another start of one search of the whole hand where there is one, see
    :func:`_starts`); the scoring stops at once when a set reaches the floor (the hand
    with every card that takes part in some lay-off priced at 0).  Then, of the sets
    reaching the fewest points, the fewest cards win; among those the first in a fixed
    order: most points laid off, then the first choice (declarer's melds in order, nothing
    onto a meld before something, fewer cards before more) -- the same every time.

    The worst case: the distinct sets number at most the product of (copies + 1) over the
    candidate kinds (2**14 for a 14-card hand), each scored at most once.  Measured (2
    shared cores, CPU time): hard 14-card positions built at random, many wild cards
    against up to 20 melds, at most about 0.1 s (``python -m benchmarks layoff``).

    This is the reference: the search of :func:`lay_off` and :func:`best_placements` runs
    in C where the lay-off core is built (:func:`_choose_compiled`, the same moves in the
    same order and so the same answers), and here otherwise.
    """

    def __init__(self, cards: tuple[Card, ...], declared: tuple[Meld, ...], t: RuleTables):
        self.cards = cards
        self.t = t
        counts: dict[Card, int] = {}
        held = 0
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
            held |= 1 << c.index
        self.counts = counts
        """The copies of each kind of card of the hand."""
        # Only the melds some card of the hand could join (a mask each, known by meld).
        self.melds = []
        for i, m in enumerate(declared):
            mask = _candidate_mask(m, t)
            if mask & held:
                self.melds.append((i, _Meld(m, counts, t, mask)))
        self.evaluations: dict[tuple[Card, ...], Evaluation] = {}
        # Set by choose: the melds that can take cards and the candidate kinds of card.
        self._live: list[tuple[int, _Meld]] = []
        self._kinds: list[Card] = []

    def evaluate(self, cards: tuple[Card, ...]) -> Evaluation:
        ev = self.evaluations.get(cards)
        if ev is None:
            from payme.solver import evaluate

            ev = self.evaluations[cards] = evaluate(cards, self.t.rules, self.t.dealt)
        return ev

    def best(self) -> tuple[Evaluation, _Choice]:
        """The best layout of the cards left and the lay-offs that leave them."""
        whole = self.evaluate(self.cards)
        _, left, choice = self.choose(whole.deadwood_points, whole.deadwood)
        return (whole, _NOTHING) if left is None else (self.evaluate(left), choice)

    def choose(
        self, top: int, deadwood: Sequence[Card]
    ) -> tuple[int, tuple[Card, ...] | None, _Choice]:
        """The fewest points, the cards left (``None``: when laying nothing off is best) and
        the lay-offs, given the whole hand's fewest points ``top`` and the ``deadwood`` of
        its best layout."""
        melds = [(i, m) for i, m in self.melds if m.room]
        if not melds or top == 0:
            return top, None, _NOTHING
        counts = self.counts
        kinds = sorted({c for _, m in melds for c in m.kinds})
        points = self.t.points
        # No set of cards laid off takes more points than all the candidates together.
        floor = max(0, top - sum(points[c.index] * counts[c] for c in kinds))
        if floor >= top:
            return top, None, _NOTHING
        self._live = melds
        self._kinds = kinds
        # The deadwood of the whole hand's best layout, as far as it is candidate cards:
        # when every candidate card is deadwood the floor is exact already (the best layout
        # less all of them reaches it, and pricing them at 0 finds nothing lower).
        candidate = set(kinds)
        dead: dict[Card, int] = {}
        for c in deadwood:
            if c in candidate:
                dead[c] = dead.get(c, 0) + 1
        if any(dead.get(c, 0) < counts[c] for c in kinds):
            floor = max(floor, self._floor_free(top))
            if floor >= top:
                return top, None, _NOTHING
        sets = _LaidSets(kinds, counts, [m for _, m in melds], points)
        score = self._scorer(sets, [dead.get(c, 0) for c in kinds])
        # The fewest points any set reaches, found first among the sets laying off the most
        # points (whose bound, the hand's points less those laid off, is lowest).
        fewest = top
        for laid, _, tied in sets.by_points():
            if max(0, top - laid) >= fewest:
                break
            fewest = min(fewest, *(score(number, top - laid) for number in tied))
            if fewest <= floor:
                break
        if fewest >= top:
            return top, None, _NOTHING
        # Then the fewest cards reaching it, most points laid off, the first choice.
        for size in range(1, sets.most + 1):
            for laid, tied in sets.ranked(size):
                if max(0, top - laid) > fewest:
                    break  # neither these sets nor any after them reach it
                best = [n for n in tied if score(n, top - laid) == fewest]
                if best:
                    if len(best) > 1:
                        best.sort(key=sets.first)
                    left = Counter(self.cards)
                    left.subtract(dict(zip(kinds, sets.digits(best[0]), strict=True)))
                    choice = sets.choice(best[0], [i for i, _ in melds])
                    return fewest, tuple(sorted(left.elements())), choice
        raise AssertionError("the fewest points were reached by no set")  # pragma: no cover

    def _scorer(self, sets: _LaidSets, dead: list[int]) -> Callable[[int, int], int]:
        """The fewest points of the hand less a set laid off (by its number in ``sets``,
        given the bound: the hand's points less those laid off), each set scored once.

        A set of deadwood cards only (at most ``dead`` copies of each kind) reaches its
        bound (the best layout of the whole hand, less them).  A hand whose pure wild cards
        (if any) are alike (see :func:`_plain_search`) is searched once, and each set laid
        off is a different start of that search (as for going out): the search of the
        whole hand holds every candidate meld of the cards left, and its notes serve every
        start.  Anything else is evaluated afresh.
        """
        kinds, digits_of = sets.kinds, sets.digits
        scored: dict[int, int] = {}
        # Whether each number lays off more copies of some kind than the deadwood holds.
        beyond = sets.sums(
            [[int(v > d) for v in range(r)] for d, r in zip(dead, sets.radix, strict=True)]
        )
        # What each number takes from the start of the one search (made once needed).
        taken: list[tuple[_Starts | None, list[int], list[int], list[int]]] = []

        def value(number: int) -> int:
            if not taken:
                starts = _starts(self.cards, self.t, kinds)
                if starts is None:
                    taken.append((None, [], [], []))
                else:
                    parts = [
                        [starts.taken(j, v) for v in range(r)] for j, r in enumerate(sets.radix)
                    ]
                    state, pure, aside = (
                        sets.sums([[x[i] for x in p] for p in parts]) for i in range(3)
                    )
                    taken.append((starts, state, pure, aside))
            starts, state, pure, aside = taken[0]
            if starts is not None:
                return starts.value(state[number], pure[number], aside[number])
            counts = Counter(self.cards)
            for c, v in zip(kinds, digits_of(number), strict=True):
                counts[c] -= v
            return self.evaluate(tuple(sorted(counts.elements()))).deadwood_points

        def score(number: int, bound: int) -> int:
            found = scored.get(number)
            if found is None:
                found = scored[number] = max(0, bound) if not beyond[number] else value(number)
            return found

        return score

    def _floor_free(self, top: int) -> int:
        """The fewest points the hand could reach if every card that takes part in some
        lay-off could be laid off, whatever the others take: its best layout with those
        cards priced at 0.  (Laying a set of cards off leaves the best layout of the hand in
        which they are unmelded, less their points, so no set laid off leaves fewer points
        than this.)  Every candidate card is tried first, a search that often settles it
        alone; then only the cards of some valid lay-off, which lists them all."""
        candidates = 0
        for c in self._kinds:
            candidates |= 1 << c.index
        floor = self._priced_without(candidates)
        if floor >= top:
            return floor
        # A card that fits a meld by itself takes part in a lay-off, found without listing;
        # a meld's lay-offs are listed by size only until all its candidates are found.
        alone = 0
        for _, m in self._live:
            alone |= fitting_mask(m.meld, self.t)
        found = candidates & alone
        for _, m in self._live:
            for k in range(1, m.room + 1):
                if all(found >> c.index & 1 for c in m.kinds):
                    break
                for added in m.options(k):
                    for c in added:
                        found |= 1 << c.index
        if not found:
            return top
        return floor if found == candidates else self._priced_without(found)

    def _priced_without(self, free: int) -> int:
        """The hand's fewest points with the cards in the mask ``free`` (bit ``index``)
        priced at 0."""
        return _priced(self.cards, self.t, free)


def _priced(cards: tuple[Card, ...], t: RuleTables, free: int) -> int:
    """The fewest points of ``cards`` with those in the mask ``free`` (bit ``index``)
    priced at 0."""
    from payme.solver.search import priced_points

    return priced_points(cards, t, _free_cost(t, free))


_FREE_COSTS: dict[RuleTables, dict[int, tuple[int, ...]]] = {}
"""Prices by rule tables, then by the mask of the free cards' indices (ints only)."""


def _free_cost(t: RuleTables, free: int) -> tuple[int, ...]:
    """The rule set's penalty points with the cards in the mask ``free`` (bit ``index``) at
    0, one tuple per choice (the search keys its price tables on the tuple's identity)."""
    table = table_for(_FREE_COSTS, t)
    cost = table.get(free)
    if cost is None:
        if len(table) >= 1024:
            table.clear()
        priced = list(t.points)
        rest = free
        while rest:  # the free cards, lowest index first
            low = rest & -rest
            priced[low.bit_length() - 1] = 0
            rest ^= low
        cost = table[free] = tuple(priced)
    return cost


# --------------------------------------------------------------------------------------
# The compiled heart


def _choose_compiled(
    cards: tuple[Card, ...],
    declared: tuple[Meld, ...],
    t: RuleTables,
    top: int,
    deadwood: Sequence[Card],
) -> tuple[int, _Choice] | None:
    """:meth:`_Search.choose`'s fewest points and lay-offs, found by the lay-off search's
    compiled heart (``payme/solver/_layoff_core.c``), or ``None`` where it is not built
    (or ``PAYME_SOLVER=python``) or the position is beyond it: then the Python search
    runs, the reference, with the same answers (tests/test_layoff_core.py compares them).

    Python gives it what it knows by meld, worked out once for each declarer's meld
    (:func:`_described`), and the lay-offs of a meld of wild cards only, listed here; it
    lists a run's and a set's lay-offs itself, and calls back for the hand's points with
    some cards priced at 0 (the floor) and with a set of cards laid off (:class:`_Scoring`).
    """
    from payme.solver.backend import LAYOFF_CORE

    if LAYOFF_CORE is None:
        return None
    hand = bytearray(N_CARDS)
    held = 0
    for c in cards:
        hand[c.index] += 1
        held |= 1 << c.index
    described: list[tuple[Any, ...]] = []
    positions = []
    counts: dict[Card, int] | None = None
    for index, m in enumerate(declared):
        d = _described(m, t)
        if not d[1] & held:
            continue
        if d[0]:
            described.append(d)
        else:
            # A meld of wild cards only (or a run without fixed places): its lay-offs
            # listed here, by size.
            if counts is None:
                counts = {}
                for c in cards:
                    counts[c] = counts.get(c, 0) + 1
            listed = _Meld(m, counts, t, d[1])
            if not listed.room:
                continue
            by_size = [list(map(_indices, listed.options(k))) for k in range(1, listed.room + 1)]
            described.append((0, d[1], d[2], listed.room, by_size))
        positions.append(index)
    if not described or top == 0:
        return top, _NOTHING
    dead = bytearray(N_CARDS)
    for c in deadwood:
        dead[c.index] += 1
    scoring = _Scoring(cards, t)
    found = LAYOFF_CORE.choose(
        top, hand, dead, t.points, described, _flags(t), scoring.priced,
        scoring.starts, scoring.value,
    )  # fmt: skip
    if found is None:
        return None
    points, chosen = found
    if chosen is None:
        return top, _NOTHING
    return points, tuple((positions[i], tuple(CARDS[k] for k in added)) for i, added in chosen)


def _described(meld: Meld, t: RuleTables) -> tuple[int, ...]:
    """What the compiled heart needs to know of one declarer's meld, whatever the hand:
    ``(1, candidate mask, fitting mask, length, low, high, places of its wild cards as a
    mask, index of its suit's ace, highest place)`` for a run whose places are fixed,
    ``(2, candidate mask, fitting mask, length, rank, suits of its natural cards as a mask,
    its wild cards)`` for a set of a rank, ``(0, candidate mask, fitting mask)`` for a meld
    of wild cards only (its lay-offs are listed in Python).  Remembered by meld, like
    :func:`fitting_mask`: the opponents of one final turn, and later searches, ask about
    the same melds."""
    return _by_meld(meld, t, _LAST_DESCRIBED, _DESCRIBED, _described_now)


def _described_now(meld: Meld, t: RuleTables) -> tuple[int, ...]:
    cand, fit = _candidate_mask(meld, t), fitting_mask(meld, t)
    rank = meld.rank
    if meld.kind == "set" and not meld.all_wild and rank is not None:
        taken = 0
        for c, s in zip(meld.cards, meld.stands_for, strict=True):
            if s is c:
                taken |= 1 << (c.index // 13)
        return (2, cand, fit, len(meld), rank, taken, len(meld.wilds))
    low, high, suit = meld.low, meld.high, meld.suit
    if meld.kind != "run" or meld.all_wild or suit is None or low is None or high is None:
        return (0, cand, fit)
    old_wild = 0
    for i, (c, s) in enumerate(zip(meld.cards, meld.stands_for, strict=True)):
        if s is not c:
            old_wild |= 1 << (low + i)
    top = ACE_HIGH if t.ace_high else 13
    return (1, cand, fit, len(meld), low, high, old_wild, SUITS.index(suit) * 13, top)


_DESCRIBED: dict[RuleTables, dict[bytes, tuple[int, ...]]] = {}
""":func:`_described` by rule tables, then by the meld's code (:mod:`payme.codes`): tuples
of ints, which the garbage collector stops walking at the first collection they live
through."""
_LAST_DESCRIBED: dict[int, tuple[Meld, RuleTables, tuple[int, ...]]] = {}


def _flags(t: RuleTables) -> tuple[int, int, int, int, int, int, int, int]:
    """The rules the compiled heart reads: the half and adjacent wild limits, aces high,
    the longest run, the kinds of card that may play wild in a run (a mask), whether a
    set's suits must differ, the largest set (-1: no limit) and the kinds of card that may
    play wild in a set."""
    found = _FLAGS.get(t)
    if found is None:
        wild = _kind_masks(t)[0]
        found = (
            int(t.half_limit), int(t.adjacent_limit), int(t.ace_high), RUN_MOST, wild["run"],
            int(t.distinct_suits), -1 if t.set_max is None else t.set_max, wild["set"],
        )  # fmt: skip
        if len(_FLAGS) >= 256:
            _FLAGS.clear()
        _FLAGS[t] = found
    return found


_FLAGS: dict[RuleTables, tuple[int, int, int, int, int, int, int, int]] = {}


class _Scoring:
    """The compiled heart's questions about one hand: its fewest points with some cards
    priced at 0 (:meth:`priced`) and less a set of cards laid off (:meth:`value`, as
    :meth:`_Search._scorer` scores a set: one search of the whole hand where there is one,
    made when first needed, else the cards left evaluated afresh)."""

    __slots__ = ("cards", "t")

    def __init__(self, cards: tuple[Card, ...], t: RuleTables) -> None:
        self.cards = cards
        self.t = t

    def priced(self, free: int) -> int:
        return _priced(self.cards, self.t, free)

    def starts(
        self, kinds: tuple[int, ...]
    ) -> tuple[Any, int, int, Callable[..., int], tuple[tuple[int, int, int, Any], ...]] | None:
        """The one search of the whole hand (:class:`_Starts`, for the kinds of card of
        these indices) as the compiled heart reads it: its start, its pure wild cards and
        points set aside, its value, and what laying off each kind takes from the start
        (pure wild or not, copies set aside, points, a copy's share of the state);
        ``None`` where there is no one search (:meth:`value` is asked then)."""
        s = _starts(self.cards, self.t, [CARDS[i] for i in kinds])
        if s is None:
            return None
        return s.state0, s.pure0, s.aside0, s.search, tuple(s.table)

    def value(self, kinds: tuple[int, ...], digits: tuple[int, ...]) -> int:
        """The fewest points of the hand less ``digits[j]`` copies of the card of index
        ``kinds[j]``, evaluated afresh."""
        from payme.solver import evaluate

        left = Counter(self.cards)
        for i, v in zip(kinds, digits, strict=True):
            left[CARDS[i]] -= v
        return evaluate(tuple(sorted(left.elements())), self.t.rules, self.t.dealt).deadwood_points


def _declared(melds: Iterable[MeldLike], t: RuleTables) -> tuple[Meld, ...]:
    if isinstance(melds, str):
        raise ValueError(
            "declarer_melds must be a list of melds (each a Meld or a string of cards), "
            f"not one string {melds!r}"
        )
    return tuple(_declared_one(m, t) for m in melds)


_CHECKED: dict[RuleTables, dict[bytes, bool]] = {}
"""The codes of the melds found valid (:mod:`payme.codes`), by rule tables (a dict, not a
set: a set is always tracked by the garbage collector, whatever it holds)."""
_LAST_CHECKED: dict[int, tuple[Meld, RuleTables]] = {}


def _declared_one(meld: MeldLike, t: RuleTables) -> Meld:
    """One declarer's meld, checked; a Meld object found valid once is not checked again
    (games and bots ask about the same melds over and over)."""
    if type(meld) is not Meld:
        return parse_declared_meld(meld, t.rules, t.dealt)
    # The very object checked last time for these tables is known at once: a meld hashes
    # slowly, and a game asks about the same few Meld objects again and again.
    known = _LAST_CHECKED.get(id(meld))
    if known is not None and known[0] is meld and known[1] is t:
        return meld
    checked = table_for(_CHECKED, t)
    key = meld_code(meld)
    if key not in checked:
        parse_declared_meld(meld, t.rules, t.dealt)  # raises when it is not valid
        if len(checked) >= _GROWN_MOST:
            checked.clear()
        checked[key] = True
    if len(_LAST_CHECKED) >= _LAST_MOST:
        _LAST_CHECKED.clear()
    _LAST_CHECKED[id(meld)] = (meld, t)  # holding the meld keeps its id from being reused
    return meld


def _check_table(
    hands: Sequence[tuple[Card, ...]], declared: tuple[Meld, ...], t: RuleTables
) -> None:
    """Check what the search is given before it starts.

    A hand that lays off holds at most ``max_dealt + 1`` cards (an opponent holds the
    cards dealt when the declarer goes out); the declarer's melds and the hands must come
    out of one pack (``CardError`` naming the first card with too many copies), so there
    are at most a pack's cards / 3 declarer's melds.  Together these bound the search: see
    :class:`_Search`.
    """
    most = t.rules.max_dealt + 1
    if t.rules.lay_off:
        for hand in hands:
            if len(hand) > most:
                raise ValueError(
                    f"a hand that lays off holds at most {most} cards in {t.rules.name} "
                    f"(the most dealt, {t.rules.max_dealt}, plus one), not {len(hand)}"
                )
    pack = t.largest_pack
    # Counted by index (the usual case, every card within the pack, told without sorting).
    copies = [0] * len(pack)
    for m in declared:
        for c in m.cards:
            copies[c.index] += 1
    for hand in hands:
        for c in hand:
            copies[c.index] += 1
    if all(map(int.__le__, copies, pack)):
        return
    counts = Counter(c for m in declared for c in m.cards)
    for hand in hands:
        counts.update(hand)
    for card, n in sorted(counts.items()):
        if n > pack[card.index]:
            whose = "hands" if len(hands) > 1 else "hand"
            raise CardError(
                f"the declarer's melds and the {whose} hold {n} copies of {card}, "
                f"but the {t.rules.name} pack has {pack[card.index]}",
                token=str(card),
            )


def _placed(
    declared: tuple[Meld, ...], chosen: _Choice, t: RuleTables
) -> tuple[list[Meld], list[tuple[int, tuple[Card, ...]]]]:
    """The melds grown by the lay-offs ``chosen`` and the cards each takes, in placing
    order."""
    grown = list(declared)
    lay_offs = []
    for index, added in chosen:
        result = _grow(declared[index], added, t)
        assert result is not None  # the search only chooses lay-offs that grow validly
        grown[index], placed = result
        lay_offs.append((index, placed))
    return grown, lay_offs


def best_placements(
    hand: tuple[Card, ...],
    declarer_melds: Iterable[MeldLike],
    rules: RulesLike,
    dealt: int | None,
    layout: tuple[int, Sequence[Card]],
) -> tuple[int, tuple[tuple[int, tuple[Card, ...]], ...]]:
    """:func:`lay_off`'s fewest points and lay-offs (each meld's index and cards in placing
    order) without the layout of the cards left, for a sorted ``hand`` whose best
    ``layout`` (fewest points, deadwood) is known: what a game needs to list the best
    lay-off, without the two evaluations :func:`lay_off` makes.

    >>> from payme.solver import evaluate
    >>> from payme.cards import parse_hand
    >>> hand = tuple(sorted(parse_hand("8H 9H KD KS")))
    >>> ev = evaluate(hand, "denexa", 12)
    >>> best_placements(hand, ["5H 6H 7H"], "denexa", 12, (ev.deadwood_points, ev.deadwood))
    (20, ((0, (Card('8H'), Card('9H'))),))
    """
    t = tables_for(rules, dealt)
    declared = _declared(declarer_melds, t)
    _check_table((hand,), declared, t)
    if layout[0] == 0 or not t.rules.lay_off:
        return layout[0], ()  # nothing to gain: what the search would find, without it
    found = _choose_compiled(hand, declared, t, *layout)
    if found is None:  # the compiled heart is not built, or the position is beyond it
        found = _Search(hand, declared, t).choose(*layout)[::2]
    points, chosen = found
    return points, tuple(_placed(declared, chosen, t)[1])


def _best(
    cards: tuple[Card, ...], declared: tuple[Meld, ...], t: RuleTables
) -> tuple[Evaluation, _Choice]:
    """:meth:`_Search.best` for sorted ``cards``: by the compiled heart where it is built
    (:func:`_choose_compiled`), else by the Python search."""
    from payme.solver import evaluate

    whole = evaluate(cards, t.rules, t.dealt)
    found = _choose_compiled(cards, declared, t, whole.deadwood_points, whole.deadwood)
    if found is None:
        return _Search(cards, declared, t).best()
    if not found[1]:
        return whole, _NOTHING
    left = Counter(cards)
    for _, added in found[1]:
        left.subtract(added)
    return evaluate(tuple(sorted(left.elements())), t.rules, t.dealt), found[1]


def _lay_off(hand: tuple[Card, ...], declared: tuple[Meld, ...], t: RuleTables) -> LayOffResult:
    cards = tuple(sorted(hand))
    ev, chosen = _best(cards, declared if t.rules.lay_off else (), t)
    grown, lay_offs = _placed(declared, chosen, t)
    return LayOffResult(
        deadwood_points=ev.deadwood_points,
        melds=tuple(ev.melds),
        lay_offs=tuple(lay_offs),
        deadwood=tuple(ev.deadwood),
        rules=t.rules,
        dealt=t.dealt,
        cards=hand,
        declarer_melds=declared,
        grown_melds=tuple(grown),
    )


def lay_off(
    hand: CardsLike,
    declarer_melds: Iterable[MeldLike],
    rules: RulesLike = "denexa",
    dealt: int | None = None,
) -> LayOffResult:
    """The fewest points ``hand`` can reach with its own melds and lay-offs together.

    ``declarer_melds`` are the declarer's melds as laid down: :class:`~payme.melds.Meld`
    objects or strings (a string whose cards can form a set is a set, otherwise a run listed
    low to high).  Where the rule set has no lay-offs (``lay_off`` False) this is the same as
    :func:`~payme.solver.evaluate`.

    >>> lo = lay_off("8H KD KS JK", ["5H 6H 7H", "KC KH 3C"], rules="family", dealt=3)
    >>> lo.deadwood_points, lo.melds, lo.lay_offs
    (0, (Meld('set', 'KS KD JK(KH)'),), ((0, (Card('8H'),)),))
    >>> lay_off("8H", ["5H 6H 7H"], rules="classic", dealt=5).deadwood_points  # no lay-offs
    10
    """
    t = tables_for(rules, dealt)
    cards = hand_cards(hand, t)
    declared = _declared(declarer_melds, t)
    _check_table((cards,), declared, t)
    return _lay_off(cards, declared, t)


def lay_off_in_turn(
    hands_in_order: Sequence[CardsLike],
    declarer_melds: Iterable[MeldLike],
    rules: RulesLike = "denexa",
    dealt: int | None = None,
) -> list[LayOffResult]:
    """Several opponents lay off one at a time, from the declarer's left.

    Each lays off onto the melds as the ones before left them; each result's
    ``grown_melds`` are the melds after that opponent (the next one's ``declarer_melds``).

    >>> first, second = lay_off_in_turn(["8H", "9H"], ["5H 6H 7H"], rules="denexa", dealt=12)
    >>> first.lay_offs, second.lay_offs, str(second.grown_melds[0])
    (((0, (Card('8H'),)),), ((0, (Card('9H'),)),), '5H 6H 7H 8H 9H')
    """
    t = tables_for(rules, dealt)
    if isinstance(hands_in_order, str):
        raise ValueError("hands_in_order must be a list of hands, one per opponent")
    melds = _declared(declarer_melds, t)
    hands = [hand_cards(hand, t) for hand in hands_in_order]
    _check_table(hands, melds, t)
    results = []
    for cards in hands:
        result = _lay_off(cards, melds, t)
        results.append(result)
        melds = result.grown_melds
    return results


__all__ = [
    "LayOffResult",
    "MeldLike",
    "best_placements",
    "fitting_mask",
    "grow_meld",
    "lay_off",
    "lay_off_in_turn",
    "lay_off_places",
    "single_lay_offs",
]

# Names this module had before each name got one meaning (kept for one release).
__getattr__ = renamed(__name__, {"LayOff": "payme.layoff:LayOffResult"})
