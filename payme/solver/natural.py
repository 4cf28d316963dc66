"""The lean path of :func:`~payme.solver.evaluate` for hands without wild or special cards.

Every gin-rummy hand and many Pay Me hands hold only regular cards that are not wild this
round.  For them the general search (:mod:`payme.solver.search`) carries machinery they
never use -- wild balances, scoped wild cards, leftover tables, a discard -- and that
set-up costs more than the search itself.  This module answers such hands with the same
candidate melds (the same :class:`~payme.solver.shapes.ShapeBook` bundles, in the same
order), the same branch-and-bound search over packed counts and the same "first best move
in search order" rule, so its layouts are identical to the general path's; it only does
less work per hand:

- one pass over the cards both checks them against the pack and builds the per-suit rank
  masks and per-rank suit counts that key the candidate bundles;
- suits with too few cards for a run and ranks with too few for a set are not looked up
  (without wild cards their bundles are empty);
- a hand with no candidate meld (most random hands) is all deadwood, with no search;
- the meld a natural candidate makes never changes, so it is built once and kept.

Anything else (a wild or special card, a card the pack lacks) returns ``None``, and the
general path takes over -- including raising the error that names a bad card.

>>> from payme.melds import tables_for
>>> from payme.cards import parse_hand
>>> t = tables_for("denexa", 9)
>>> cards, melds, dead, points = natural_layout(parse_hand("5H 6H 7H KS"), t)
>>> [str(m) for m in melds], dead, points
(['5H 6H 7H'], (Card('KS'),), 10)
>>> natural_layout(parse_hand("5H 6H JK"), t) is None  # a joker: the general path
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from payme.cards import CARDS, N_CARDS, N_REGULAR, SUITS, Card
from payme.melds import Meld, RuleTables, build_run, build_set
from payme.solver.layout import finish_melds
from payme.solver.search import INF
from payme.solver.shapes import Bundle, ShapeBook, Template, book_for

# Per card index (regular cards): its suit, its rank - 1, the rank's bit in a suit mask
# (bit r for rank r, as ShapeBook keys runs) and the place of its suit's 4-bit count in a
# rank's copies code (as ShapeBook keys sets).
_SUIT_OF: Final = [i // 13 for i in range(N_REGULAR)]
_RANK_OF: Final = [i % 13 for i in range(N_REGULAR)]
_RANK_BIT: Final = [2 << (i % 13) for i in range(N_REGULAR)]
_SUIT_UNIT: Final = [1 << (4 * (i // 13)) for i in range(N_REGULAR)]

Layout = tuple[tuple[Card, ...], tuple[Meld, ...], tuple[Card, ...], int]
"""``(the hand in canonical order, melds, deadwood, deadwood points)``."""


class Natural:
    """What the lean path needs to know about one rule set and round, built once."""

    __slots__ = ("book", "limit", "melds", "points", "run_min", "set_min", "t")

    def __init__(self, t: RuleTables) -> None:
        self.t = t
        self.book: ShapeBook = book_for(t)
        # How many copies of each kind of card the hand may hold on the lean path: the
        # pack's count for regular cards that are not wild this round, 0 for the rest
        # (a wild or special card sends the hand to the general path).
        pack = t.largest_pack
        self.limit = tuple(
            min(pack[i], 15) if i < N_REGULAR and t.scope[i] is None else 0
            for i in range(N_CARDS)
        )
        self.points = t.points
        self.run_min = t.run_min
        self.set_min = t.set_min
        # The meld of each natural candidate, by the cards it takes (packed): a set and a
        # run never take the same cards, so that is key enough.
        self.melds: dict[int, Meld] = {}


_NATURAL: dict[int, tuple[RuleTables, Natural]] = {}


def natural_for(t: RuleTables) -> Natural:
    """The cached :class:`Natural` of a rule set and round."""
    hit = _NATURAL.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    nat = Natural(t)
    if len(_NATURAL) > 64:
        _NATURAL.clear()
    _NATURAL[id(t)] = (t, nat)
    return nat


def natural_layout(cards: tuple[Card, ...], t: RuleTables, nat: Natural | None = None) -> (
    Layout | None
):
    """The best layout of a hand of natural cards only, or ``None`` for any other hand."""
    if nat is None:
        nat = natural_for(t)
    limit = nat.limit
    counts = [0] * N_CARDS
    masks = [0, 0, 0, 0]
    codes = [0] * 13  # per rank: copies per suit, 4 bits each
    per_rank = [0] * 13
    suit_of, rank_of, rank_bit, suit_unit = _SUIT_OF, _RANK_OF, _RANK_BIT, _SUIT_UNIT
    for c in cards:
        if type(c) is not Card:
            return None
        i = c.index
        n = counts[i] + 1
        if n > limit[i]:
            return None  # wild, special or one copy too many: the general path decides
        counts[i] = n
        masks[suit_of[i]] |= rank_bit[i]
        r = rank_of[i]
        codes[r] += suit_unit[i]
        per_rank[r] += 1

    # Candidate bundles, looked up with the general path's keys (no wild cards: the low
    # byte is 0); runs before sets, as there.
    book = nat.book
    fast = book.bundles_by_key
    bundles: list[Bundle] = []
    run_min = nat.run_min
    for s in range(4):
        mask = masks[s]
        if mask.bit_count() >= run_min:
            key = s << 24 | mask << 8
            hit = fast.get(key)
            if hit is None:
                hit = book.remember(key, book.run_bundle(s, mask, 0, False))
            if hit[1]:
                bundles.append(hit)
    set_min = nat.set_min
    for r in range(13):
        if per_rank[r] >= set_min:
            code = codes[r]
            key = 1 << 40 | r << 24 | code << 8
            hit = fast.get(key)
            if hit is None:
                copies = tuple(code >> (4 * s) & 15 for s in range(4))
                hit = book.remember(key, book.set_bundle(r + 1, copies, 0))
            if hit[1]:
                bundles.append(hit)

    points = nat.points
    if not bundles:
        # No meld possible: every card is deadwood.
        hand = tuple(sorted(cards, key=_index))
        return hand, (), hand, sum([points[c.index] for c in cards])
    return _search(cards, counts, bundles, nat)


def _index(c: Card) -> int:
    return c.index


def _search(
    cards: tuple[Card, ...], counts: list[int], bundles: list[Bundle], nat: Natural
) -> Layout:
    book = nat.book
    cands: dict[int, list[tuple[int, int]]] = {}
    tpls: dict[int, list[Template]] = {}
    used = 0
    for groups, bundle_used in bundles:
        used |= bundle_used
        for p, cl, tl in groups:
            if p in cands:
                cands[p] = cands[p] + cl
                tpls[p] = tpls[p] + tl
            else:
                cands[p] = cl
                tpls[p] = tl
    # Cards in no candidate meld are deadwood whatever else happens.
    points = nat.points
    unit_of = book.unit_of
    fmask = (1 << book.width) - 1
    state = 0
    aside = 0
    dead: list[int] = []
    for i in {c.index for c in cards}:
        u = unit_of[i]
        n = counts[i]
        if used & (u * fmask):
            state += n * u
        else:
            dead += [i] * n
            aside += n * points[i]

    solve, memo = _solver(cands, book, nat.t)
    total = solve(state, INF)

    # Walk the first best move from each state (see search.Search.walk).
    unit = book.unit_at
    bit_slot = book.pos_at_bit
    index_at = book.index_at
    melds: list[Meld] = []
    known = nat.melds
    while state:
        j = bit_slot[(state & -state).bit_length() - 1]
        entry = memo.get(state)
        pick = -1 if entry is None else (entry & 0xFFFF) - 8
        if pick == -1:
            dead.append(index_at[j])
            state -= unit[j]
            continue
        delta = cands[j][pick][0]
        meld = known.get(delta)
        if meld is None:
            meld = known[delta] = _meld(tpls[j][pick])
        melds.append(meld)
        state -= delta
    if len(melds) > 1:
        melds = finish_melds(melds, nat.t)
    dead.sort()
    hand = tuple([CARDS[i] for i in sorted([c.index for c in cards])])
    return hand, tuple(melds), tuple([CARDS[i] for i in dead]), total + aside


def _solver(
    cands: dict[int, list[tuple[int, int]]], book: ShapeBook, t: RuleTables
) -> tuple[Callable[[int, int], int], dict[int, int]]:
    """The general search (:class:`~payme.solver.search.Search`) cut down to no wild cards
    and no discard: the same moves in the same order, the same memo entries."""
    unit = book.unit_at
    cost = book.cost_at(t.points)
    guard = book.guard
    bit_slot = book.pos_at_bit
    memo: dict[int, int] = {}
    get_cands = cands.get

    def solve(state: int, budget: int) -> int:
        # Exact when below ``budget``; otherwise some value >= budget (a cut-off).
        if not state:
            return 0
        j = bit_slot[(state & -state).bit_length() - 1]
        moves = get_cands(j)
        if moves is None:
            c = cost[j]
            if c >= budget:
                return c
            return c + solve(state - unit[j], budget - c)
        hit = memo.get(state)
        if hit is not None:
            if hit >= 0:
                return hit >> 16
            if -hit - 1 >= budget:
                return -hit - 1
        best = budget
        pick = 0
        sg = state | guard
        i = -1
        for delta, _ in moves:
            i += 1
            if (sg - delta) & guard == guard:
                v = solve(state - delta, best)
                if v < best:
                    best, pick = v, i
                    if not v:
                        break
        c = cost[j]
        if best > c:
            v = c + solve(state - unit[j], best - c)
            if v < best:
                best, pick = v, -1
        if best < budget:
            memo[state] = best << 16 | (pick + 8)
        else:
            memo[state] = -budget - 1
        return best

    return solve, memo


def _meld(tpl: Template) -> Meld:
    """The meld of a candidate with natural cards only (as layout.layout builds it)."""
    kind, number, shape = tpl
    if kind == "set":
        copies = shape[0]
        naturals = [CARDS[s * 13 + number - 1] for s in range(4) for _ in range(copies[s])]
        return build_set(number, naturals, [])
    ranks, places, _, _, low = shape  # type: ignore[misc]
    by_place = {p: CARDS[number * 13 + r - 1] for r, p in zip(ranks, places, strict=True)}
    return build_run(SUITS[number], low, by_place, [])


__all__ = ["Layout", "Natural", "natural_for", "natural_layout"]
