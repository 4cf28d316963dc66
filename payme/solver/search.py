"""The exact search over a hand's packed card counts.

The hand's *natural* cards (regular cards, including wild cards of a rank, which may stand
for themselves) are packed as counts into one integer, a few bits per kind of card, at
fixed positions in rank-major order (every ace, then every two, ...; see
:class:`~payme.solver.shapes.ShapeBook`).  The search always takes the lowest remaining
card and decides its fate: a candidate meld in which it is the first natural card, the
discard (when one is owed), acting as a wild card (a wild card of a rank), or deadwood.
Wild cards without a rank are pooled: jokers and WILD (any meld) as a balance that a
candidate meld draws on, GROUP (sets only) and SEQ (runs only) as counts in two fields of
the packed state, so a meld that uses one takes it like a card.  A meld may borrow from
wild cards of a rank that the search reaches later; the balance must be settled by the
end.  Values are memoised on (remaining cards, balance), so the search is exact; it is also
branch and bound, cutting off a branch as soon as it cannot beat the best layout found so
far.

Cards that belong to no candidate meld at all (and are not wild) never change the answer;
they are set aside as deadwood before the search starts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, NamedTuple

from payme.cards import _ANY_CASE, CARDS, N_CARDS, N_REGULAR, Card
from payme.deprecation import renamed
from payme.melds import RUN_MOST, RuleTables
from payme.pack import MAX_HAND
from payme.solver.backend import CORE, STATE_BITS
from payme.solver.shapes import Bundle, Moves, ShapeBook, Template, book_for

if TYPE_CHECKING:
    from payme.solver._core import Fields, GSearch, Hands

_NONE: Moves = ()
_NO_TPL: tuple[Template, ...] = ()
# Per card index: its rank's bit in its suit's 16-bit field (bit r for rank r, as the
# ShapeBook keys runs), and one card and one copy in its rank's 24-bit tally (the count at
# bit 16, copies per suit in 4-bit fields, as the ShapeBook keys sets).
_SUIT_BIT: Final = [2 << (i % 13) << (16 * (i // 13)) for i in range(N_REGULAR)]
_RANK_CARD: Final = [1 << (16 + 24 * (i % 13)) for i in range(N_REGULAR)]
_RANK_COPY: Final = [1 << (4 * (i // 13) + 24 * (i % 13)) for i in range(N_REGULAR)]
_RANK_ONE: Final = [a + b for a, b in zip(_RANK_CARD, _RANK_COPY, strict=True)]
_SET_FLAGS: Final = sum(1 << (21 + 24 * r) for r in range(13))
_SET_PROBE: Final = [sum((32 - k) << (16 + 24 * r) for r in range(13)) for k in range(32)]

INF: Final = 1 << 40

Leftover = tuple[int, int, int, int, tuple[int, ...]]
"""What happens to the pure wild cards left at the end: (any-scope ones in all-wild sets,
set-only ones in them, any-scope ones in all-wild runs, run-only ones in them, and ``(0,)``
when one of them is the discard, else ``()``)."""
NO_LEFTOVER: Final[Leftover] = (0, 0, 0, 0, ())


class Path(NamedTuple):
    """One best layout as the search found it (the first best in search order).

    A named tuple: made once per walk, so naming its fields costs nothing measurable.
    (:data:`~payme.solver.shapes.Template` stays a plain tuple: hundreds of thousands are
    kept, and the garbage collector stops tracking only plain tuples of ints and tuples.)
    """

    total: int
    """The fewest points (the cards set aside before the search not counted)."""
    dead: list[Card]
    """The cards it left as deadwood, in search order."""
    converted: list[Card]
    """The wild cards of a rank it played as wild cards, in search order."""
    wanted: list[tuple[Template, int, int]]
    """The candidate melds taken, each with its wild cards of any scope and of its own."""
    discard: Card | None
    """The card discarded (``None``: none)."""
    leftover: Leftover
    """What becomes of the pure wild cards left over."""
    any_slots: int
    """Wild-card places of any scope the melds take."""
    set_used: int
    """Set-only wild cards the melds take."""
    run_used: int
    """Run-only wild cards the melds take."""


Scan = tuple[int, int, int, list[int]]
"""One pass over a checked hand: its regular cards as per-suit rank masks (16 bits per
suit, bit r for rank r), per-rank tallies (24 bits per rank: cards << 16 | copies per suit,
4 bits each) and packed counts (see :class:`~payme.solver.shapes.ShapeBook`); and the
indexes of its other cards (jokers, special cards)."""


def scan(cards: tuple[Card, ...], book: ShapeBook) -> Scan | None:
    """The :data:`Scan` of a hand of cards that the rule set's largest pack holds, or
    ``None`` for anything else (an object that is not a Card, too many copies of a card, a
    card the pack lacks, more cards than a hand may hold; also 16 or more copies of a
    regular card, which the tallies cannot count): :func:`~payme.melds.hand_cards` then
    says what is wrong, or the search counts such a hand itself."""
    if len(cards) > MAX_HAND:
        return None
    left = bytearray(book.limit)  # copies of each kind the hand may still hold
    held = 0
    tally = 0
    state = 0
    others: list[int] = []
    suit_bit, rank_one, unit_of = _SUIT_BIT, _RANK_ONE, book.unit_of
    for c in cards:
        if type(c) is not Card:
            return None
        i = c.index
        n = left[i]
        if not n:
            return None
        left[i] = n - 1
        if i < N_REGULAR:
            held |= suit_bit[i]
            tally += rank_one[i]
            state += unit_of[i]
        else:
            others.append(i)
    return held, tally, state, others


def _count(cards: tuple[Card, ...], book: ShapeBook) -> Scan:
    """The :data:`Scan` of a hand with 16 or more copies of a regular card (a pack of many
    copies), which :func:`scan` leaves out: the tally's copies stop at 15."""
    held = tally = state = 0
    others: list[int] = []
    counts = [0] * N_REGULAR
    for c in cards:
        i = c.index
        if i < N_REGULAR:
            counts[i] += 1
            held |= _SUIT_BIT[i]
            tally += _RANK_ONE[i] if counts[i] < 16 else _RANK_CARD[i]
            state += book.unit_of[i]
        else:
            others.append(i)
    return held, tally, state, others


_NO_USES: list[int] = []


class Search:
    """One hand prepared for the search under one rule set, round and pricing.

    ``cost`` prices each kind of card left in deadwood (penalty points, or 1 each to count
    unmelded cards).
    """

    __slots__ = (
        "_plain", "aside", "book", "cands", "cost", "ends", "fixed_dead", "guard",
        "isolated", "mask_g", "mask_q", "n_any", "n_conv", "n_run", "n_set", "pure",
        "pure_any", "pure_run", "pure_set", "scoped", "scoped_shift", "singles",
        "slot_cost", "slots", "state0", "t", "templates", "terminal", "unit_g", "unit_q",
        "uses",
    )  # fmt: skip

    def __init__(
        self,
        cards: tuple[Card, ...],
        t: RuleTables,
        cost: tuple[int, ...],
        book: ShapeBook,
        found: Scan | None = None,
    ) -> None:
        self.t = t
        self.cost = cost
        self.book = book
        # One pass over the cards (made by the caller when it has ``found``): see scan.
        held, tally, state, others = found or scan(cards, book) or _count(cards, book)
        self._sort_others(others)
        # Wild cards of a rank in the hand: the bits of their counts, bit by bit.
        n_conv = 0
        for bit, mask in book.conv_bits:
            n_conv += (state & mask).bit_count() << bit
        self.n_conv = n_conv
        self.slots = book.card_at
        used = self._candidates(held, tally)
        state = self._set_aside(state, used)
        # The leftover table, and its value per count of any-scope wild cards left (no
        # scoped ones) with a discard owed and without: what the search's end test reads.
        self.pure = pure = bool(self.pure_any or self.pure_set or self.pure_run)
        if pure or book.plain_terminal is None:
            self.terminal, self.ends = terminal_table(self)
            if not pure:
                book.plain_terminal = self.terminal, self.ends
        else:
            self.terminal, self.ends = book.plain_terminal
        self.state0 = self._scoped_fields(state)
        self._plain = _solver(self)

    def _sort_others(self, others: list[int]) -> None:
        """Sort the cards other than regular ones: single-card melds, cards never melded,
        and pure wild cards by scope (any meld, sets only, runs only)."""
        t, cost = self.t, self.cost
        scope = t.scope
        fixed_dead: list[Card] = []
        singles: list[Card] = []
        pure_any: list[Card] = []
        pure_set: list[Card] = []
        pure_run: list[Card] = []
        for i in others:
            c = CARDS[i]
            if i in t.single:
                singles.append(c)
            elif i in t.never:
                fixed_dead.append(c)
            else:
                sc = scope[i]
                (pure_any if sc == "any" else pure_set if sc == "set" else pure_run).append(c)
        self.fixed_dead = fixed_dead
        self.singles = singles
        # Of the pure any-scope wild cards the dearest are melded first, the cheapest left.
        if len(pure_any) > 1:
            pure_any.sort(key=lambda c: (-cost[c.index], c.index))
        self.pure_any = pure_any
        self.pure_set = pure_set
        self.pure_run = pure_run
        self.n_any, self.n_set, self.n_run = len(pure_any), len(pure_set), len(pure_run)
        self.scoped = bool(pure_set or pure_run)

    def _candidates(self, held: int, tally: int) -> int:
        """Look up the candidate melds -- runs by suit (or cluster of held ranks), sets by
        rank -- and group them by anchor, the first of their natural cards in the search
        order (``cands``, ``templates``); the packed mask of every card they use."""
        t, book = self.t, self.book
        scoped = self.scoped
        bundles: list[Bundle] = []
        fast = book.bundles_by_key
        w_run = min(self.n_any + self.n_run + self.n_conv, 63)
        # Runs by cluster of held ranks (see ShapeBook.suit_bundles), split here where the
        # split does not depend on the suit's ranks: small clusters come back hand after
        # hand where whole suits do not.  A suit or cluster with fewer ranks than any run
        # needs has none.
        gap, need, cap = book.plans[w_run]
        half = t.half_limit
        by_part = book.part_bundles_by_key
        by_suit = book.suit_bundles_by_key
        for s in range(4):
            mask = held >> (16 * s) & 0xFFFF
            if mask.bit_count() < need:
                continue
            if gap is None or (mask & 2 and t.ace_high):
                suit_key = s << 24 | mask << 8 | w_run << 1 | scoped
                runs = by_suit.get(suit_key)
                if runs is None:
                    runs = book.suit_bundles(suit_key, s, mask, w_run, scoped)
                bundles += runs
                continue
            reach = mask
            for k in range(1, gap):
                reach |= mask << k
            while reach:
                row = reach & ~(reach + (reach & -reach))  # the lowest unbroken row of bits
                reach ^= row
                part = row & mask
                n = part.bit_count()
                if n < need:
                    continue
                part_cap = n if half and n < cap else cap
                part_key = s << 24 | part << 8 | part_cap << 1 | scoped
                hit = by_part.get(part_key)
                if hit is None:
                    hit = book.part_bundle(part_key, s, part, part_cap, scoped)
                if hit[1]:
                    bundles.append(hit)
        w_set = min(self.n_any + self.n_set + self.n_conv, 63)
        # A rank with too few cards for a set even with every wild card (or, under the
        # half-wild limit, with as many wild cards as natural ones) has no candidate set.
        least = t.set_min - w_set
        if t.half_limit:
            least = max(least, (t.set_min + 1) // 2)
        # Adding 32 - least to each rank's count carries into its bit 21 exactly when the
        # count is at least ``least`` (a hand holds at most 30 cards).
        enough = (tally + _SET_PROBE[max(least, 1)]) & _SET_FLAGS
        while enough:
            low = enough & -enough
            enough ^= low
            r = low.bit_length() // 24
            code = tally >> (24 * r) & 0xFFFF
            key = 1 << 40 | r << 24 | code << 8 | w_set
            hit = fast.get(key)
            if hit is None:
                copies = tuple(code >> (4 * s) & 15 for s in range(4))
                hit = book.remember(key, book.set_bundle(r + 1, copies, w_set))
            bundles.append(hit)
        cands: list[Moves] = [_NONE] * N_REGULAR
        tpls: list[tuple[Template, ...]] = [_NO_TPL] * N_REGULAR
        used = 0
        for groups, bundle_used in bundles:
            used |= bundle_used
            for p, cl, tl in groups:
                if cands[p] is _NONE:
                    cands[p] = cl
                    tpls[p] = tl
                else:
                    cands[p] = cands[p] + cl
                    tpls[p] = tpls[p] + tl
        self.cands = cands
        self.templates = tpls
        return used

    def _set_aside(self, state: int, used: int) -> int:
        """Set aside the cards in no candidate meld (and not wild): deadwood whatever else
        happens (``isolated``), priced with the cards never melded (``aside``).  The state
        without them."""
        book, cost = self.book, self.cost
        # The fields no candidate touches (each touched field's bits spread to its lowest).
        spread = used
        for k in range(1, book.width):
            spread |= used >> k
        alone = state & ~((spread & book.low_bits) * book.field_ones | book.conv_fields)
        self.slot_cost = slot_cost = book.points_at if cost is self.t.points else book.cost_at(cost)
        aside = 0
        for c in self.fixed_dead:
            aside += cost[c.index]
        isolated: list[Card] = []
        if alone:
            state -= alone
            bit_slot, card_at, unit_at = book.pos_at_bit, book.card_at, book.unit_at
            while alone:
                j = bit_slot[(alone & -alone).bit_length() - 1]
                alone -= unit_at[j]
                isolated.append(card_at[j])
                aside += slot_cost[j]
        self.isolated = isolated
        self.aside = aside
        return state

    def _scoped_fields(self, state: int) -> int:
        """Scoped wild cards (GROUP only in sets, SEQ only in runs) are counted in two fields
        above the regular cards; a candidate meld comes in one variant per number of them
        it uses, so the fit test keeps their count as it does the cards'.  The start state
        with them."""
        self.scoped_shift = top = N_REGULAR * self.book.width
        self.guard = self.book.guard
        self.uses: list[list[int]] | None = None
        self.unit_g = 1 << top
        if not self.scoped:
            # Both fields empty (one bit wide each).
            self.unit_q = 1 << (top + 1)
            self.mask_g = self.mask_q = 0
            return state
        width_g = self.n_set.bit_length() + 1
        self.unit_q = 1 << (top + width_g)
        width_q = self.n_run.bit_length() + 1
        self.mask_g = (1 << (width_g - 1)) - 1
        self.mask_q = (1 << (width_q - 1)) - 1
        self.guard |= self.unit_g << (width_g - 1) | self.unit_q << (width_q - 1)
        state += self.n_set * self.unit_g + self.n_run * self.unit_q
        self._expand_scoped()
        return state

    def _expand_scoped(self) -> None:
        """Candidate melds in one variant per number of scoped wild cards they use."""
        cands, templates = self.cands, self.templates
        # Only the anchors with candidate melds are read (a shared empty list elsewhere).
        uses: list[list[int]] = [_NO_USES] * len(cands)
        n_set, unit_g, n_run, unit_q = self.n_set, self.unit_g, self.n_run, self.unit_q
        for p, moves in enumerate(cands):
            if not moves:
                continue
            grown: list[tuple[int, int]] = []
            tpls: list[Template] = []
            used: list[int] = []
            for (delta, k), tpl in zip(moves, templates[p], strict=True):
                have, unit = (n_set, unit_g) if tpl[0] == "set" else (n_run, unit_q)
                for use in range(min(k, have), -1, -1):
                    grown.append((delta + use * unit, k - use))
                    tpls.append(tpl)
                    used.append(use)
            cands[p] = tuple(grown)
            templates[p] = tuple(tpls)
            uses[p] = used
        self.uses = uses

    def scoped_left(self, state: int) -> tuple[int, int]:
        """The set-only and run-only wild cards still unused in ``state``."""
        x = state >> self.scoped_shift
        return x & self.mask_g, (x >> (self.mask_g.bit_length() + 1)) & self.mask_q

    def value(self, state: int, b: int, d: int, budget: int = INF) -> int:
        """The fewest points from a state: remaining cards ``state`` (with the unused
        scoped wild cards), wild balance ``b`` (any scope), ``d`` = 0 while a discard is
        owed.  Exact when below ``budget``; otherwise a value >= ``budget``."""
        return self._plain.value(state, b, d, budget)

    # --- helpers ----------------------------------------------------------------------

    def walk(self, d: int) -> Path:
        """The best total and one best layout (the first best in search order).

        ``d`` is 0 when a discard is owed, 1 when not.
        """
        p = self._plain
        state, b = self.state0, self.n_any
        total = p.solve(state, b, INF) if d else p.value(state, b, d)
        if total >= INF:
            return Path(total, [], [], [], None, NO_LEFTOVER, 0, 0, 0)
        return replay_picks(self, total, p.picks(state, b, d), d)

    def picks(self, d: int) -> tuple[int, ...]:
        """The first best moves of one best layout from the start (see ``_Solver.picks``),
        for :func:`replay_picks`; the search of ``value(state0, n_any, d)`` must have run."""
        return self._plain.picks(self.state0, self.n_any, d)

    def release(self) -> None:
        """Forget the search's memo (kept otherwise as long as this object): for a caller
        that keeps the hand's picks but asks no more values."""
        self._plain.release()


class _Solver:
    """The search itself, as closures over one prepared hand (the hot path).

    Two closures: ``solve`` when no discard is owed and ``solve_d`` when one is (the best
    discard search); discarding moves from the second to the first.  Both are branch and
    bound: melds are tried first, and a branch is cut off as soon as it cannot beat the
    best layout found so far (``budget``); a value is exact when below its budget, and a
    cut-off leaves only a lower bound, kept so the same state is not searched again in
    vain.  Memo tables are split by wild balance so that the key is the bare packed state;
    next to each exact value the first best move is kept for the walk (-1 deadwood,
    -2 discard, -3 play as wild, else the index of a candidate meld).  A card that starts
    no candidate meld and cannot be wild is simply deadwood, without a memo entry.
    """

    __slots__ = ("_solve_d", "h", "memos", "memos_d", "off", "solve", "span")

    def __init__(self, h: Search) -> None:
        self.h = h
        self.off = h.n_conv
        self.span = h.n_any + 2 * h.n_conv + 2
        # memo[b + off][state]: (value << 16 | pick + 8) when exact, -(bound + 1) when only
        # a lower bound is known.
        self.memos: list[dict[int, int]] = [{} for _ in range(self.span)]
        self.memos_d: list[dict[int, int]] = []
        self.solve = self._make(self.memos, None)
        self._solve_d: Callable[..., int] | None = None

    def value(self, state: int, b: int, d: int, budget: int = INF) -> int:
        if d:
            return self.solve(state, b, budget)
        if self._solve_d is None:
            self.memos_d = [{} for _ in range(self.span)]
            self._solve_d = self._make(self.memos_d, self.solve)
        return self._solve_d(state, b, budget)

    def _make(
        self, memos: list[dict[int, int]], after_discard: Callable[..., int] | None
    ) -> Callable[..., int]:
        """The search as a closure; with ``after_discard`` set, one discard is still owed
        and ``after_discard`` searches on once it is made."""
        h = self.h
        book = h.book
        unit = book.unit_at
        cost = h.slot_cost
        conv = book.conv_at
        cands = h.cands
        guard = h.guard
        bit_slot = book.pos_at_bit
        n_any = h.n_any
        term = h.terminal
        owed = after_discard is not None
        flag = 0 if owed else 1
        end = h.ends[flag]
        off = self.off
        rest_search = after_discard
        scoped_left = h.scoped_left

        def end_scoped(state: int, b: int) -> int:
            # Only scoped wild cards are left: they are leftovers like the pure ones.
            if not 0 <= b <= n_any:
                return INF
            g, q = scoped_left(state)
            return term[(b, g, q, flag)][0]

        conv_bits = book.conv_bits

        def solve(state: int, b: int, budget: int = INF) -> int:
            # Exact when below ``budget``; otherwise some value >= budget (a cut-off).
            if not state:
                return end[b] if 0 <= b <= n_any else INF
            j = bit_slot[(state & -state).bit_length() - 1]
            if j == N_REGULAR:
                return end_scoped(state, b)
            moves = cands[j]
            if not moves and not owed and not conv[j]:
                # Starts no meld, cannot be wild, no discard owed: deadwood, no choice; and
                # so for each such card after it, in a loop rather than a call each.
                spent = 0
                while True:
                    spent += cost[j]
                    if spent >= budget:
                        return spent  # a lower bound: this branch cannot win
                    state -= unit[j]
                    if not state:
                        return spent + (end[b] if 0 <= b <= n_any else INF)
                    j = bit_slot[(state & -state).bit_length() - 1]
                    if j == N_REGULAR or cands[j] or conv[j]:
                        break
                return spent + solve(state, b, budget - spent)
            memo = memos[b + off]
            hit = memo.get(state)
            if hit is not None:
                if hit >= 0:
                    return hit >> 16
                if -hit - 1 >= budget:
                    return -hit - 1
            rest = state - unit[j]
            best = budget
            pick = 0
            sg = state | guard
            i = -1
            for delta, k in moves:
                i += 1
                if (sg - delta) & guard == guard:
                    nb = b - k
                    nxt = state - delta
                    if nb < 0:
                        # Borrowed wild cards must be repaid by wild cards of a rank still
                        # to come (counted here, inline: this is the hot loop).
                        have = 0
                        for bit, mask in conv_bits:
                            have += (nxt & mask).bit_count() << bit
                        if nb + have < 0:
                            continue
                    # The end is read here rather than in a call (most paths end so).
                    v = solve(nxt, nb, best) if nxt else end[nb] if nb <= n_any else INF
                    if v < best:
                        best, pick = v, i
                        if not v:
                            break
            if best and rest_search is not None:
                v = rest_search(rest, b, best)
                if v < best:
                    best, pick = v, -2
            if best and conv[j]:
                v = solve(rest, b + 1, best) if rest else end[b + 1] if -1 <= b < n_any else INF
                if v < best:
                    best, pick = v, -3
            c = cost[j]
            if best > c:
                v = c + (solve(rest, b, best - c) if rest else end[b] if 0 <= b <= n_any else INF)
                if v < best:
                    best, pick = v, -1
            if best < budget:
                memo[state] = best << 16 | (pick + 8)
            else:
                memo[state] = -budget - 1
            return best

        return solve

    def entry(self, state: int, b: int, d: int) -> int | None:
        """The memo's note on a state with balance ``b`` (``d`` = 0: a discard owed), or
        ``None``: what the walk reads to follow the first best moves."""
        memos = self.memos if d else self.memos_d
        return memos[b + self.off].get(state)

    def picks(self, state: int, b: int, d: int) -> tuple[int, ...]:
        """The first best move from each state along one best layout, in order, read from
        the memo (the compiled core's ``picks`` does the same): a candidate's index at its
        card, -1 deadwood, -2 discard, -3 played as a wild card."""
        h = self.h
        unit, bit_slot, cands = h.book.unit_at, h.book.pos_at_bit, h.cands
        entry_of = self.entry
        found: list[int] = []
        while state:
            j = bit_slot[(state & -state).bit_length() - 1]
            if j == N_REGULAR:
                break  # only scoped wild cards left
            entry = entry_of(state, b, d)
            pick = -1 if entry is None else (entry & 0xFFFF) - 8
            if pick >= 0:
                delta, k = cands[j][pick]
                state -= delta
                b -= k
            else:
                state -= unit[j]
                if pick == -3:
                    b += 1
                elif pick != -1:
                    d = 1
            found.append(pick)
        return tuple(found)

    def release(self) -> None:
        """Forget the memo (a walk's picks, once read, need it no more)."""
        for memo in (*self.memos, *self.memos_d):
            memo.clear()


def replay_picks(h: Search, total: int, picks: tuple[int, ...], d: int) -> Path:
    """The :class:`Path` of one best layout from its ``picks`` (see ``_Solver.picks``):
    the moves replayed from the start state, no search needed."""
    state, b = h.state0, h.n_any
    unit, bit_slot, slots = h.book.unit_at, h.book.pos_at_bit, h.slots
    cands, templates, uses = h.cands, h.templates, h.uses
    dead: list[Card] = []
    converted: list[Card] = []
    wanted: list[tuple[Template, int, int]] = []
    discard: Card | None = None
    any_slots = set_used = run_used = 0
    for pick in picks:
        j = bit_slot[(state & -state).bit_length() - 1]
        if pick >= 0:
            delta, k = cands[j][pick]
            tpl = templates[j][pick]
            use = uses[j][pick] if uses else 0
            wanted.append((tpl, k, use))
            any_slots += k
            if use:
                if tpl[0] == "set":
                    set_used += use
                else:
                    run_used += use
            state -= delta
            b -= k
        elif pick == -1:
            dead.append(slots[j])
            state -= unit[j]
        elif pick == -3:
            converted.append(slots[j])
            state -= unit[j]
            b += 1
        else:
            discard = slots[j]
            state -= unit[j]
            d = 1
    # Without scoped wild cards their fields are empty: none left.
    g, q = h.scoped_left(state) if h.scoped else (0, 0)
    fin = h.terminal[(b, g, q, d)][1] if 0 <= b <= h.n_any else NO_LEFTOVER
    return Path(total, dead, converted, wanted, discard, fin, any_slots, set_used, run_used)


class _CompiledSolver(_Solver):
    """The same search run by the compiled core (:mod:`payme.solver.backend`): the same
    moves in the same order and the same memo notes, so the walk above reads them alike."""

    __slots__ = ("core", "entry", "picks", "release", "value")

    def __init__(self, h: Search, core: GSearch) -> None:
        # No reference back to the hand (the core holds what it needs): the hand and its
        # search are then no reference cycle, and are freed as soon as they are dropped,
        # not left for the garbage collector (thousands of them in a bot's decision).
        self.off = h.n_conv
        self.core = core
        self.solve = core.solve
        self.value = core.value  # type: ignore[method-assign,assignment]
        self.entry = core.entry  # type: ignore[method-assign,assignment]
        self.picks = core.picks  # type: ignore[method-assign,assignment]
        self.release = core.release  # type: ignore[method-assign]


def _solver(h: Search) -> _Solver:
    """The hand's search: compiled where the core is built and the packed state fits it."""
    if CORE is None or h.guard.bit_length() > STATE_BITS:
        return _Solver(h)
    book = h.book
    scoped: tuple[int, int, int, int, int, int, list[int]] | None = None
    if h.scoped:
        if h.scoped_shift + 32 > STATE_BITS:
            return _Solver(h)
        term = h.terminal
        n_b, n_g, n_q = h.n_any + 1, h.n_set + 1, h.n_run + 1
        flat = [
            term[(b, g, q, 1 - owed)][0]
            for owed in (0, 1)
            for b in range(n_b)
            for g in range(n_g)
            for q in range(n_q)
        ]
        gbits = h.mask_g.bit_length()
        scoped = (h.scoped_shift, gbits, h.mask_g, h.mask_q, h.n_set, h.n_run, flat)
    cost = h.slot_cost
    hit = _FIELDS.get((id(book), id(cost)))
    if hit is None or hit[0] is not book or hit[1] is not cost:
        if len(_FIELDS) > 256:
            _FIELDS.clear()
        fields = CORE.Fields(book.width, cost, book.conv_at, book.conv_masks)
        hit = _FIELDS[(id(book), id(cost))] = (book, cost, fields)
    core = CORE.GSearch(hit[2], h.cands, h.guard, h.n_any, h.ends[0], h.ends[1], scoped)
    return _CompiledSolver(h, core)


_FIELDS: dict[tuple[int, int], tuple[ShapeBook, tuple[int, ...], Fields]] = {}
"""The compiled core's copy of a shape book's layout and a pricing (by position), made once
(keyed by their identities; the objects are kept, so an id is not reused meanwhile)."""


Terminal = dict[tuple[int, int, int, int], tuple[int, Leftover]]
"""The leftover table: ``(any, set-only, run-only wild cards left, 1 - discard owed)`` ->
``(cost, what becomes of them)``."""


def terminal_table(h: Search) -> tuple[Terminal, tuple[list[int], list[int]]]:
    """For each count of pure wild cards left at the end -- (any, set-only, run-only) -- and
    whether a discard is still owed: the cheapest way to meld some of them in all-wild melds
    (where the rule set allows those), discard one if owed, and leave the rest.  With it,
    the cost for each count of any-scope ones alone, with a discard owed and without."""
    cost_any: tuple[int, ...] = ()
    cost_set: tuple[int, ...] = ()
    cost_run: tuple[int, ...] = ()
    if not (h.pure_any or h.pure_set or h.pure_run):
        key: tuple[tuple[int, ...], ...] = _NO_WILDS
    else:
        cost = h.cost
        cost_any = tuple([cost[c.index] for c in h.pure_any])  # dearest first
        cost_set = tuple([cost[c.index] for c in h.pure_set])
        cost_run = tuple([cost[c.index] for c in h.pure_run])
        key = (cost_any, cost_set, cost_run)
    return _terminal(h.book, h.t, key)


def _terminal(
    book: ShapeBook, t: RuleTables, key: tuple[tuple[int, ...], ...]
) -> tuple[Terminal, tuple[list[int], list[int]]]:
    """The leftover table of ``key`` (the costs of the any, set-only and run-only pure wild
    cards, dearest first) and its ends, made once per shape book."""
    hit = book.terminals.get(key)
    if hit is None:
        cost_any, cost_set, cost_run = key
        table = _make_terminal(t, cost_any, cost_set, cost_run)
        n_any = len(cost_any)
        ends = tuple([table[(b, 0, 0, flag)][0] for b in range(n_any + 1)] for flag in (0, 1))
        hit = book.terminals[key] = (table, ends)
    return hit  # type: ignore[return-value]


class CompiledSearch:
    """A hand's search set up whole by the compiled core (``Hands.search`` in _core.c),
    for callers that ask only values, from many starts: the fields of a :class:`Search`
    they read, and its ``value``.  It has no candidate templates, so no layout."""

    __slots__ = ("aside", "book", "isolated", "n_any", "others", "state0", "value")

    def __init__(self, book: ShapeBook, found: tuple[GSearch, int, tuple[int, ...], int, int, int]):
        core, self.state0, isolated, self.aside, self.n_any, self.others = found
        self.book = book
        self.isolated = [CARDS[i] for i in isolated]
        self.value = core.value


def value_search(cards: tuple[Card, ...], t: RuleTables) -> Search | CompiledSearch:
    """A checked hand's search priced by the rule set's points, to be asked values (the
    same as :meth:`Search.value`) from many starts: the compiled core's where it takes the
    hand, else set up here.

    >>> from payme.melds import tables_for
    >>> from payme.cards import parse_hand
    >>> t = tables_for("denexa", 9)
    >>> h = value_search(parse_hand("5H 6H 7H 8H KS"), t)
    >>> h.value(h.state0, h.n_any, 1) + h.aside, [str(c) for c in h.isolated]
    (10, ['KS'])
    >>> h.value(h.state0 - h.book.unit_of[parse_hand("8H")[0].index], h.n_any, 1)
    0
    """
    from payme.solver.natural import natural_for  # natural builds on this module

    nat = natural_for(t)
    if nat.hands is not None:
        found = nat.hands.search(cards)
        if found is not None:
            return CompiledSearch(nat.book, found)
    return Search(cards, t, t.points, nat.book)


def priced_points(cards: tuple[Card, ...], t: RuleTables, cost: tuple[int, ...]) -> int:
    """The fewest points of a hand with each kind of card priced in deadwood by ``cost``
    (by card index) instead of the rule set's points: one search of a checked hand.

    The compiled core answers it in one call where it takes the hand; otherwise the search
    is set up here.

    >>> from payme.melds import tables_for
    >>> from payme.cards import parse_hand
    >>> t = tables_for("denexa", 9)
    >>> free = tuple(0 if c.token == "KS" else p for c, p in zip(CARDS, t.points))
    >>> hand = parse_hand("5H 6H 7H KS 3C")
    >>> priced_points(hand, t, t.points), priced_points(hand, t, free)
    (15, 5)
    """
    from payme.solver.natural import natural_for  # natural builds on this module

    hands = natural_for(t).hands
    if hands is not None:
        got: int | None = hands.points(cards, cost)
        if got is not None:
            return got
    h = Search(cards, t, cost, book_for(t))
    return h.value(h.state0, h.n_any, 1) + h.aside


def compiled_hands(
    t: RuleTables, book: ShapeBook, cost: tuple[int, ...] | None = None
) -> Hands | None:
    """The compiled core's whole-hand evaluation for one rule set and round (see
    ``Hands`` in payme/solver/_core.c), or ``None`` where the core is not built or the
    packed state does not fit it.  It looks up the same bundles as
    ``Search._candidates`` (made in C as the book makes them) and makes the same moves.
    ``cost`` prices each kind of card left in deadwood (the rule set's points unless
    given: :func:`~payme.solver.can_go_out` counts cards)."""
    if CORE is None or book.guard.bit_length() > STATE_BITS:
        return None
    if cost is None:
        cost = t.points
    at = book.points_at if cost is t.points else book.cost_at(cost)
    fields = CORE.Fields(book.width, at, book.conv_at, book.conv_masks)
    kind = [0] * N_CARDS
    for i in range(N_REGULAR, N_CARDS):
        # As Search._sort_others sorts them; scoped wild cards (and any other) are left
        # to the Python path.
        kind[i] = 1 if i in t.single else 2 if i in t.never else 3 if t.scope[i] == "any" else 4

    def ends_for(cost_any: tuple[int, ...]) -> tuple[list[int], list[int], list[int], list[int]]:
        # The leftover costs with a discard owed and without, and what becomes of the wild
        # cards left (see layout.layout): how many go into all-wild melds (times 2), plus 1
        # when one of the rest is the discard.
        table, ends = _terminal(book, t, (cost_any, (), ()))
        fates = tuple(
            [_fate(table[(b, 0, 0, flag)][1]) for b in range(len(cost_any) + 1)] for flag in (0, 1)
        )
        return ends[0], ends[1], fates[0], fates[1]

    hands: Hands = CORE.Hands(
        fields, book.guard, Card, book.pos_of, list(book.limit), kind, list(cost), MAX_HAND,
        [(gap, need, cap) for gap, need, cap in book.plans], ends_for, CARDS, dict(_ANY_CASE),
        (book.set_most, book.run_most, book.cap or 0, t.run_min, int(t.half_limit),
         int(t.adjacent_limit), int(t.ace_high), int(t.all_wild_run_ok), int(t.distinct_suits),
         t.set_min),
    )  # fmt: skip
    return hands


def _fate(left: Leftover) -> int:
    """What the compiled core reads of a :data:`Leftover` with no scoped wild cards: the
    any-scope ones melded in all-wild melds (times 2), plus 1 when one is discarded."""
    return (left[0] + left[2]) * 2 + len(left[4])


_NO_WILDS: Final[tuple[tuple[int, ...], ...]] = ((), (), ())


def _sizes(ok: bool, least: int, most: int | None) -> set[int]:
    """Totals that split into all-wild melds of allowed sizes (0 always)."""
    made = {0}
    if not ok:
        return made
    top = most if most is not None else 99
    for total in range(1, 64):
        if any(total - s in made for s in range(least, min(top, total) + 1)):
            made.add(total)
    return made


def _make_terminal(
    t: RuleTables, cost_any: tuple[int, ...], cost_set: tuple[int, ...], cost_run: tuple[int, ...]
) -> dict[tuple[int, int, int, int], tuple[int, Leftover]]:
    set_sizes = _sizes(t.all_wild_set_ok, t.set_min, t.set_max)
    run_sizes = _sizes(t.all_wild_run_ok, t.run_min, RUN_MOST)
    n_any, n_set, n_run = len(cost_any), len(cost_set), len(cost_run)
    table: dict[tuple[int, int, int, int], tuple[int, Leftover]] = {}
    for b in range(n_any + 1):
        left_any = cost_any[n_any - b :]  # the cheapest b, dearest first
        for g in range(n_set + 1):
            for q in range(n_run + 1):
                for d in (0, 1):
                    best: tuple[int, Leftover] = (INF, NO_LEFTOVER)
                    for xs in range(b + 1):
                        for gs in range(g + 1):
                            if xs + gs not in set_sizes:
                                continue
                            for xr in range(b - xs + 1):
                                for qs in range(q + 1):
                                    if xr + qs not in run_sizes:
                                        continue
                                    rest = sorted(
                                        [*left_any[xs + xr :], *cost_set[gs:g], *cost_run[qs:q]],
                                        reverse=True,
                                    )
                                    drop: tuple[int, ...] = ()
                                    if not d:
                                        if not rest:
                                            continue
                                        drop = (0,)
                                        rest = rest[1:]
                                    total = sum(rest)
                                    if total < best[0]:
                                        best = (total, (xs, gs, xr, qs, drop))
                    table[(b, g, q, d)] = best
    return table


__getattr__ = renamed("payme.solver.search", {"replay": "payme.solver.search:replay_picks"})

__all__ = [
    "INF", "CompiledSearch", "Leftover", "Path", "Scan", "Search", "Template", "Terminal",
    "compiled_hands", "priced_points", "replay_picks", "scan", "terminal_table", "value_search",
]  # fmt: skip
