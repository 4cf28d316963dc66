"""The lean path of :func:`~payme.solver.evaluate` for hands without wild or special cards.

Every gin-rummy hand and many Pay Me hands hold only regular cards that are not wild this
round.  For them the general search (:mod:`payme.solver.search`) carries machinery they
never use -- wild balances, scoped wild cards, leftover tables, a discard -- and that
set-up costs more than the search itself.  This module answers such hands with the same
candidate melds (the same :class:`~payme.solver.shapes.ShapeBook` bundles, in the same
order), the same branch-and-bound search over packed counts and the same "first best move
in search order" rule, so its layouts are identical to the general path's; it only does
less work per hand:

- one pass over the cards (:func:`~payme.solver.search.scan`, shared with the general
  path) both checks them against the pack and builds the per-suit rank masks and per-rank
  suit counts that key the candidate bundles;
- runs are looked up per stretch of consecutive held ranks (stretches recur from hand to
  hand, whole suits much less), and ranks with too few cards for a set are not looked up
  (without wild cards their bundles are empty);
- a hand with no candidate meld (most random hands) is all deadwood, with no search;
- the search's memo is kept across hands: without wild cards a state's value and best
  move depend on the state alone (see ``_make_solver``);
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
from functools import partial
from operator import attrgetter
from typing import Final

from payme.cards import CARDS, N_REGULAR, SUITS, Card
from payme.melds import Meld, RuleTables, build_run, build_set
from payme.solver.backend import CORE, STATE_BITS
from payme.solver.layout import finish_melds
from payme.solver.search import INF, Scan, compiled_hands, scan
from payme.solver.shapes import Bundle, ShapeBook, Template, book_for, cached_for

# Bit 21 of each rank's 24-bit tally (see search.scan): set when the rank has enough cards.
_SET_FLAGS: Final = sum(1 << (21 + 24 * r) for r in range(13))

_INDEX: Final = attrgetter("index")

Layout = tuple[tuple[Card, ...], tuple[Meld, ...], tuple[Card, ...], int]
"""``(the hand in canonical order, melds, deadwood, deadwood points)``."""


NatBundle = tuple[tuple[tuple[int, tuple[int, ...]], ...], int]
"""A :data:`~payme.solver.shapes.Bundle` as the lean path keeps it: candidate melds grouped
by anchor position -- ``(position, [cards taken])`` -- and the packed mask of every field
(card) they touch."""


class Natural:
    """What the lean path needs to know about one rule set and round, built once."""

    __slots__ = (
        "ace_high", "book", "bundles", "clear_memo", "cost", "forget", "forget_d", "hands", "melds",
        "memo", "memo_d", "memo_size", "out_hands", "pick", "pick_d", "picks", "picks_d",
        "points", "run_min", "set_min", "set_probe", "solve", "solve_d", "t",
    )  # fmt: skip

    def __init__(self, t: RuleTables) -> None:
        self.t = t
        self.book: ShapeBook = book_for(t)
        # The compiled core's evaluation of whole hands with wild or special cards (None:
        # the Python path; see search.compiled_hands).
        self.hands = compiled_hands(t, self.book)
        # Its twin pricing every card 1, for the going-out check (see can_go_out).
        self.out_hands = compiled_hands(t, self.book, t.unit_points)
        if self.out_hands is not None:
            r = t.rules
            mode = r.going_out
            barred = r.never_left_over if mode == "one_unmelded" else r.never_discarded
            self.out_hands.going_out(
                [c.index for c in CARDS if c.token in barred], mode != "discard_required"
            )
        self.points = t.points
        self.cost = self.book.cost_at(t.points)  # by position in the packed state
        self.run_min = t.run_min
        self.set_min = t.set_min
        self.ace_high = t.ace_high
        # See natural_layout: hands hold at most 30 cards, so a rank's count fits 5 bits.
        self.set_probe = sum((32 - t.set_min) << (16 + 24 * r) for r in range(13))
        # The bundles by the general path's keys, and the meld of each natural candidate
        # by the cards it takes (packed; a set and a run never take the same cards), with
        # its sort key in a layout and whether it is a run.
        # Neither depends on the round (a natural candidate is the same meld whichever
        # rank is wild), so every round of a rule set shares them (see ShapeBook).
        self.bundles: dict[int, NatBundle | None] = self.book.natural_bundles
        self.melds: dict[int, MeldInfo] = self.book.natural_melds
        # The search's memo, kept across hands (see _solver): value (or -(lower bound + 1))
        # and first best move of each state searched.
        self.memo: dict[int, int] = {}
        self.picks: dict[int, int] = {}
        # The same with one discard owed (best_discard), kept across hands as well.
        self.memo_d: dict[int, int] = {}
        self.picks_d: dict[int, int] = {}
        # The searches, and what the walks read: the compiled core's (which keeps its own
        # notes, see payme.solver.backend) or the pure-Python ones over the dicts above.
        book = self.book
        self.solve: NatSolve
        self.solve_d: NatSolve
        if CORE is not None and N_REGULAR * book.width <= STATE_BITS:
            core = CORE.NSearch(book.width, self.cost, book.guard)
            self.solve, self.solve_d = core.solve, core.solve_d
            self.pick, self.pick_d = core.pick, core.pick_d
            self.forget, self.forget_d = core.forget, core.forget_d
            self.memo_size, self.clear_memo = core.size, core.clear
        else:
            plain = _make_solver(self)
            with_discard = _make_discard_solver(self, plain)
            self.solve = partial(_by_dict, plain)
            self.solve_d = partial(_by_dict, with_discard)
            self.pick, self.pick_d = self.picks.get, self.picks_d.get
            self.forget = partial(_forget, self.memo)
            self.forget_d = partial(_forget, self.memo_d)
            self.memo_size = self.memo.__len__
            self.clear_memo = self._clear

    def _clear(self) -> None:
        self.memo.clear()
        self.picks.clear()
        self.memo_d.clear()
        self.picks_d.clear()

    def bundle(self, key: int, make: Callable[[], Bundle]) -> NatBundle | None:
        """The bundle under ``key`` (``make`` builds it on a miss), ``None`` when empty."""
        if len(self.bundles) > 200_000:
            self.bundles.clear()
            self.melds.clear()  # every kept bundle has its melds in ``melds``
        groups, used = make()
        found: NatBundle | None = None
        if used:
            known = self.melds
            for _, cl, tl in groups:
                for (delta, _), tpl in zip(cl, tl, strict=True):
                    if delta not in known:
                        known[delta] = _meld(tpl)
            # Every field a candidate touches: spread each field's bits to its lowest.
            spread = used
            for k in range(1, self.book.width):
                spread |= used >> k
            fields = (spread & self.book.low_bits) * self.book.field_ones
            found = (tuple((p, tuple([d for d, _ in cl])) for p, cl, _ in groups), fields)
        self.bundles[key] = found
        return found


_NATURAL: dict[int, tuple[RuleTables, Natural]] = {}


def natural_for(t: RuleTables) -> Natural:
    """The cached :class:`Natural` of a rule set and round."""
    return cached_for(_NATURAL, t, Natural)


def natural_layout(
    cards: tuple[Card, ...], t: RuleTables, nat: Natural | None = None, found: Scan | None = None
) -> Layout | None:
    """The best layout of a hand of natural cards only, or ``None`` for any other hand.

    ``found``: the hand's :func:`~payme.solver.search.scan`, when already made.
    """
    if nat is None:
        nat = natural_for(t)
    read = _read(cards, nat, found)
    if read is None:
        return None  # a wild or special card: the general path
    state, bundles = read
    if not bundles:
        # No meld possible: every card is deadwood.
        points = nat.points
        hand = tuple(sorted(cards, key=_INDEX))
        return hand, (), hand, sum([points[c.index] for c in cards])
    return _search(cards, state, bundles, nat)


def _read(
    cards: tuple[Card, ...], nat: Natural, found: Scan | None
) -> tuple[int, list[NatBundle]] | None:
    """A hand's packed state and candidate bundles, or ``None`` for a hand the lean path
    does not take (``found``: its scan, when already made)."""
    if found is None:
        found = scan(cards, nat.book)
        if found is None:
            return None
    bundles = _bundles(found, nat)
    return None if bundles is None else (found[2], bundles)


def _bundles(found: Scan, nat: Natural) -> list[NatBundle] | None:
    """The candidate bundles of a scanned hand, or ``None`` when it holds a wild or special
    card (the general path's business)."""
    held, tally, state, others = found
    if others or state & nat.book.conv_fields:
        return None
    # Candidate bundles, by the general path's keys (no wild cards: the low byte is 0);
    # runs before sets, as there.
    book = nat.book
    known = nat.bundles
    bundles: list[NatBundle] = []
    run_min = nat.run_min
    whole = nat.ace_high
    for s in range(4):
        mask = held >> (16 * s) & 0xFFFF
        if mask.bit_count() < run_min:
            continue
        if whole and mask & 2:
            parts = [mask]  # the ace may sit above the king: the suit in one piece
        else:
            # Without wild cards a run is a row of held ranks, so each stretch of
            # consecutive ranks has its own runs (the same ones, in the same order at each
            # card, as the whole suit's bundle); a stretch too short for a run has none.
            # Stretches come back hand after hand, whole suits much less.
            parts = []
            while mask:
                stretch = mask & ~(mask + (mask & -mask))  # the lowest row of ranks
                mask ^= stretch
                if stretch.bit_count() >= run_min:
                    parts.append(stretch)
        for part in parts:
            key = s << 24 | part << 8
            if key in known:
                hit = known[key]
            else:
                hit = nat.bundle(key, partial(book.run_bundle, s, part, 0, False))
            if hit is not None:
                bundles.append(hit)
    # Ranks with enough cards for a set: adding 32 - set_min to each rank's count carries
    # into the rank's bit 21 exactly when the count is at least set_min.
    enough = (tally + nat.set_probe) & _SET_FLAGS
    while enough:
        low = enough & -enough
        enough ^= low
        r = low.bit_length() // 24
        code = tally >> (24 * r) & 0xFFFF
        key = 1 << 40 | r << 24 | code << 8
        if key in known:
            hit = known[key]
        else:
            copies = tuple(code >> (4 * s) & 15 for s in range(4))
            hit = nat.bundle(key, partial(book.set_bundle, r + 1, copies, 0))
        if hit is not None:
            bundles.append(hit)

    return bundles


def _prepare(
    state: int, bundles: list[NatBundle], nat: Natural
) -> tuple[dict[int, tuple[int, ...]], int, list[int], int]:
    """The candidate melds by anchor position, the state without the cards in no candidate
    meld, those cards' indexes (deadwood whatever else happens) and what they cost."""
    cands: dict[int, tuple[int, ...]] = {}
    fields = 0
    for groups, touched in bundles:
        fields |= touched
        for p, cl in groups:
            if p in cands:
                cands[p] = cands[p] + cl  # a set after the runs, as the general path
            else:
                cands[p] = cl
    book = nat.book
    unit = book.unit_at
    bit_slot = book.pos_at_bit
    index_at = book.index_at
    cost = nat.cost
    dead: list[int] = []
    aside = 0
    alone = state & ~fields
    if alone:
        state -= alone
        while alone:
            j = bit_slot[(alone & -alone).bit_length() - 1]
            alone -= unit[j]
            dead.append(index_at[j])
            aside += cost[j]
    if nat.memo_size() > _MEMO_MOST:
        nat.clear_memo()
    return cands, state, dead, aside


def _search(cards: tuple[Card, ...], state: int, bundles: list[NatBundle], nat: Natural) -> Layout:
    cands, state, dead, aside = _prepare(state, bundles, nat)
    total = nat.solve(state, INF, cands)
    melds = _walk(state, cands, nat, dead)
    hand = tuple(sorted(cards, key=_INDEX))
    return hand, melds, tuple([CARDS[i] for i in sorted(dead)]), total + aside


def _walk(
    state: int,
    cands: dict[int, tuple[int, ...]],
    nat: Natural,
    dead: list[int],
    taken: list[int] | None = None,
) -> tuple[Meld, ...]:
    """Walk the first best move from each state (see search.Search.walk): the melds, in
    layout order, after those ``taken`` before (as the cards they take); the cards left as
    deadwood are added to ``dead``."""
    book = nat.book
    unit = book.unit_at
    bit_slot = book.pos_at_bit
    index_at = book.index_at
    pick = nat.pick
    melds: list[Meld] = []
    keys: list[tuple[int, int, str, int, int]] = []
    ends: list[tuple[int, int]] = []
    known = nat.melds
    for took in taken or ():
        meld, key, run_ends = known[took]
        keys.append((*key, len(melds)))
        melds.append(meld)
        if run_ends is not None:
            ends.append(run_ends)
    while state:
        delta = pick(state)
        if delta is None:
            j = bit_slot[(state & -state).bit_length() - 1]
            if j in cands:
                # The search chose here but its note is gone: another thread cleared the
                # shared memo meanwhile.  Search this state again (same answer; its value
                # is dropped first so that the search makes its choice anew).
                nat.forget(state)
                nat.solve(state, INF, cands)
                delta = pick(state) or 0
            else:
                delta = 0  # no meld starts here: deadwood
        if not delta:
            j = bit_slot[(state & -state).bit_length() - 1]
            dead.append(index_at[j])
            state -= unit[j]
            continue
        meld, key, run_ends = known[delta]
        keys.append((*key, len(melds)))
        melds.append(meld)
        if run_ends is not None:
            ends.append(run_ends)
        state -= delta
    if len(melds) > 1:
        melds = _in_order(melds, keys, ends, nat.t)
    return tuple(melds)


_DISCARD: Final = -1
"""The move "discard this card" in the discard search's notes (0: deadwood, else a meld)."""


def natural_discard(
    cards: tuple[Card, ...], t: RuleTables, nat: Natural | None = None, found: Scan | None = None
) -> tuple[Card, Layout] | None:
    """The best discard of a hand of natural cards only, and the best layout of the cards
    kept, exactly as :func:`~payme.solver.best_discard` chooses them on the general path
    (the same search moves in the same order, the same ties); ``None`` for any other hand.
    ``found``: the hand's :func:`~payme.solver.search.scan`, when already made.

    >>> from payme.melds import tables_for
    >>> from payme.cards import parse_hand
    >>> card, (kept, melds, dead, points) = natural_discard(
    ...     parse_hand("5H 6H 7H 8H KC 3S"), tables_for("denexa", 9))
    >>> card, [str(m) for m in melds], points
    (Card('KC'), ['5H 6H 7H 8H'], 5)
    """
    if not cards:
        return None
    if nat is None:
        nat = natural_for(t)
    read = _read(cards, nat, found)
    if read is None:
        return None
    state, bundles = read
    points = nat.points
    if not bundles:
        # No meld possible: every card is deadwood, and the dearest goes (the first such
        # in card order, as below).
        ordered = sorted(cards, key=_INDEX)
        card = max(ordered, key=lambda c: points[c.index])  # max keeps the first of equals
        ordered.remove(card)
        left = tuple(ordered)
        return card, (left, (), left, sum([points[c.index] for c in left]))
    cands, state, dead, aside = _prepare(state, bundles, nat)
    # As best_discard: (total, 0, 0) for a discard the search makes, (total, 1, index) for
    # a card in no candidate meld; the least wins.
    options: list[tuple[int, int, int]] = []
    if state:
        total = nat.solve_d(state, INF, cands)
        if total < INF:
            options.append((total + aside, 0, 0))
    if dead:
        whole = nat.solve(state, INF, cands) + aside if state else aside
        options += [(whole - points[i], 1, i) for i in sorted(set(dead))]
    value, kind, thrown = min(options)
    taken: list[int] = []  # the melds taken before the discard, as the cards they take
    if kind == 1:
        # A card in no candidate meld: without it the candidates are the same (its suit's
        # stretch and its rank had too few cards for any meld, and still have), so the
        # cards kept are laid out as the plain search of the same state lays them out.
        dead.remove(thrown)
    else:
        # The discard search's first best moves up to the discard; the plain walk after.
        unit = nat.book.unit_at
        bit_slot = nat.book.pos_at_bit
        index_at = nat.book.index_at
        pick = nat.pick_d
        thrown = -1
        while thrown < 0:
            delta = pick(state)
            if delta is None:
                # Its note is gone (another thread cleared the shared memo): search again.
                nat.forget_d(state)
                nat.solve_d(state, INF, cands)
                delta = pick(state)
                assert delta is not None
            j = bit_slot[(state & -state).bit_length() - 1]
            if delta == _DISCARD:
                thrown = index_at[j]
                state -= unit[j]
            elif not delta:
                dead.append(index_at[j])
                state -= unit[j]
            else:
                taken.append(delta)
                state -= delta
    melds = _walk(state, cands, nat, dead, taken)
    card = CARDS[thrown]
    rest = list(cards)
    rest.remove(card)
    kept = tuple(sorted(rest, key=_INDEX))
    return card, (kept, melds, tuple([CARDS[i] for i in sorted(dead)]), value)


def _make_solver(nat: Natural) -> MovesSolve:
    """The general search (:class:`~payme.solver.search.Search`) cut down to no wild cards
    and no discard: the same moves in the same order, the same choices.  ``moves_at``
    gives the hand's candidate melds at a position (``None``: none start there).

    Without wild cards, the candidate melds that fit a state are the same whichever hand
    it came from (a meld's cards decide whether it is a candidate, and the order of the
    candidates at a card does not depend on the rest of the hand), so a state's value and
    its first best move are facts about the state alone: the memo is kept across hands
    (in :class:`Natural`), with the best move as the cards it melds (0: deadwood).
    """
    book = nat.book
    unit = book.unit_at
    cost = nat.cost
    guard = book.guard
    bit_slot = book.pos_at_bit
    memo = nat.memo
    picks = nat.picks

    def solve(state: int, budget: int, moves_at: Callable[[int], tuple[int, ...] | None]) -> int:
        # Exact when below ``budget``; otherwise some value >= budget (a cut-off).
        if not state:
            return 0
        j = bit_slot[(state & -state).bit_length() - 1]
        moves = moves_at(j)
        if moves is None:
            c = cost[j]
            if c >= budget:
                return c
            return c + solve(state - unit[j], budget - c, moves_at)
        hit = memo.get(state)
        if hit is not None:
            if hit >= 0:
                return hit
            if -hit - 1 >= budget:
                return -hit - 1
        best = budget
        pick = 0
        sg = state | guard
        for delta in moves:
            if (sg - delta) & guard == guard:
                v = solve(state - delta, best, moves_at)
                if v < best:
                    best, pick = v, delta
                    if not v:
                        break
        c = cost[j]
        if best > c:
            v = c + solve(state - unit[j], best - c, moves_at)
            if v < best:
                best, pick = v, 0
        if best < budget:
            memo[state] = best
            picks[state] = pick
        else:
            memo[state] = -budget - 1  # only a lower bound is known
        return best

    return solve


def _make_discard_solver(nat: Natural, plain: MovesSolve) -> MovesSolve:
    """The general search with one discard owed (``Search.value(..., d=0)``), cut down to
    no wild cards like ``_make_solver``: at the lowest card, the candidate melds in
    order, then discarding it (the rest searched by the plain solver), then leaving it as
    deadwood; the first best move is kept.  Nothing left with the discard still owed is
    no answer.  The notes (``memo_d``, ``picks_d``: ``-1`` for the discard) are kept
    across hands for the same reason as the plain solver's."""
    book = nat.book
    unit = book.unit_at
    cost = nat.cost
    guard = book.guard
    bit_slot = book.pos_at_bit
    memo = nat.memo_d
    picks = nat.picks_d

    def solve_d(state: int, budget: int, moves_at: Callable[[int], tuple[int, ...] | None]) -> int:
        if not state:
            return INF
        j = bit_slot[(state & -state).bit_length() - 1]
        hit = memo.get(state)
        if hit is not None:
            if hit >= 0:
                return hit
            if -hit - 1 >= budget:
                return -hit - 1
        best = budget
        pick = 0
        moves = moves_at(j)
        if moves is not None:
            sg = state | guard
            for delta in moves:
                if (sg - delta) & guard == guard:
                    v = solve_d(state - delta, best, moves_at)
                    if v < best:
                        best, pick = v, delta
                        if not v:
                            break
        rest = state - unit[j]
        if best:
            v = plain(rest, best, moves_at)
            if v < best:
                best, pick = v, _DISCARD
        c = cost[j]
        if best > c:
            v = c + solve_d(rest, best - c, moves_at)
            if v < best:
                best, pick = v, 0
        if best < budget:
            memo[state] = best
            picks[state] = pick
        else:
            memo[state] = -budget - 1
        return best

    return solve_d


MovesSolve = Callable[[int, int, Callable[[int], tuple[int, ...] | None]], int]
"""A pure-Python search: ``(state, budget, moves_at)`` -> value, where ``moves_at(j)`` gives
the candidate melds at position ``j`` (``None``: none start there)."""
NatSolve = Callable[[int, int, dict[int, tuple[int, ...]]], int]
"""A search as :class:`Natural` offers it: ``(state, budget, candidate melds by position)``."""


def _by_dict(solve: MovesSolve, state: int, budget: int, cands: dict[int, tuple[int, ...]]) -> int:
    return solve(state, budget, cands.get)


def _forget(memo: dict[int, int], state: int) -> None:
    memo.pop(state, None)


_MEMO_MOST: Final = 100_000
"""States kept in a :class:`Natural`'s memo before it starts afresh: about 17 MB at most
with the other caches (some 175 bytes a state); a hand adds about one state on average."""


MeldInfo = tuple[Meld, tuple[int, int, str, int], tuple[int, int] | None]
"""A natural candidate's meld; its sort key in a layout -- (lowest card index, then for a
run 1, its suit letter and lowest place; for a set 0, "", 0); and for a run its ends --
(suit index * 16 + lowest place, suit index * 16 + highest place + 1) -- else ``None``."""


def _meld(tpl: Template) -> MeldInfo:
    """The meld of a candidate with natural cards only (as layout.layout builds it), with
    what _in_order needs to place it."""
    kind, number, shape = tpl
    if kind == "set":
        copies = shape[0]
        naturals = [CARDS[s * 13 + number - 1] for s in range(4) for _ in range(copies[s])]
        meld = build_set(number, naturals, [])
        return meld, (min(c.index for c in meld.cards), 0, "", 0), None
    ranks, places, _, _, low = shape  # type: ignore[misc]
    by_place = {p: CARDS[number * 13 + r - 1] for r, p in zip(ranks, places, strict=True)}
    meld = build_run(SUITS[number], low, by_place, [])
    first = min(c.index for c in meld.cards)
    return meld, (first, 1, SUITS[number], low), (16 * number + low, 16 * number + low + len(meld))


def _in_order(
    melds: list[Meld],
    keys: list[tuple[int, int, str, int, int]],
    ends: list[tuple[int, int]],
    t: RuleTables,
) -> list[Meld]:
    """The melds of one walk (``keys[w]``: meld ``w``'s sort key and ``w``) in the order
    :func:`~payme.solver.layout.finish_melds` gives them, without its work where possible:
    that joins runs of one suit that meet end to end, puts the other melds first (in walk
    order) and then the runs by suit letter and lowest place, and sorts that list by lowest
    card, stably."""
    if len(ends) > 1:
        if {a for a, _ in ends} & {b for _, b in ends}:
            return finish_melds(melds, t)  # two runs meet: they may be joined
        order = sorted(keys)
    else:
        # With fewer than two runs nothing is moved before the sort by lowest card.
        order = sorted(keys, key=_FIRST_AND_WALK)
    return [melds[k[4]] for k in order]


def _first_and_walk(key: tuple[int, int, str, int, int]) -> tuple[int, int]:
    return key[0], key[4]


_FIRST_AND_WALK: Final = _first_and_walk


__all__ = ["Layout", "Natural", "natural_discard", "natural_for", "natural_layout"]
