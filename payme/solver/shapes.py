"""Candidate melds by shape, listed once per rule set and round and then reused.

A run depends only on which ranks of its suit the hand holds and how many wild cards the
hand has; a set only on how many copies of its rank the hand holds in each suit.  So the
candidate melds of a hand are looked up by those small keys instead of being rebuilt for
every hand -- across many hands the same keys come back again and again.

>>> from payme.melds import tables_for
>>> book = ShapeBook(tables_for("denexa", 9))
>>> book.runs(0b111000, 0)  # ranks 3 4 5 of one suit, and no wild cards
((((3, 4, 5), (3, 4, 5), 3, 0, 3),), 56)
>>> book.sets((1, 1, 0, 1), 0)[0]  # one rank held in spades, hearts and clubs
(((1, 1, 0, 1), 0, 0),)
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, pairwise, product
from typing import Any, Final, TypeVar

from payme.cards import CARDS, N_CARDS, N_REGULAR
from payme.melds import ACE_HIGH, RUN_MOST, RuleTables

SPLIT_CAP: Final = 5
"""Without the half-wild limit, any meld of 6 or more cards splits into valid melds of 3 to 5
cards (the pieces keep their natural cards or are all-wild, which such rule sets allow), so
candidate melds longer than this are never needed.  With the limit, runs are listed up to
the longest one that no cut splits (6 cards in denexa), and runs that do split are left
out: the search builds them from their two pieces."""

RunShape = tuple[tuple[int, ...], tuple[int, ...], int, int, int]
"""``(natural ranks, their places, lowest natural rank, wild cards, lowest place)``."""
SetShape = tuple[tuple[int, int, int, int], int, int]
"""``(natural copies per suit S H D C, anchor suit index, wild cards)``."""
Template = tuple[str, int, SetShape | RunShape]
"""A candidate meld: ``("set", rank, shape)`` or ``("run", suit index, shape)``."""
Moves = tuple[tuple[int, int], ...]
"""Candidate melds at one anchor position: ``(cards taken, wild cards)`` each."""
Bundle = tuple[tuple[tuple[int, Moves, tuple[Template, ...]], ...], int]
"""Candidate melds grouped by anchor position -- ``(position, ((cards taken, wild cards),
...), (templates, ...))`` -- and the packed mask (one bit per card) of every card they use.

Bundles, shapes and templates are made of tuples and ints only: the garbage collector
stops tracking such objects, so the caches that keep hundreds of thousands of them do not
make its full collections slow (a slow full collection would land on some hand's time)."""


_TEMPLATES: dict[Template, Template] = {}


def template(kind: str, number: int, shape: SetShape | RunShape) -> Template:
    """The one :data:`Template` object of a candidate meld: bundles listed apart share it,
    so that what is worked out per candidate can be kept by its identity."""
    tpl: Template = (kind, number, shape)
    hit = _TEMPLATES.get(tpl)
    if hit is None:
        if len(_TEMPLATES) > 200_000:
            _TEMPLATES.clear()
        hit = _TEMPLATES[tpl] = tpl
    return hit


def _size(tpl: Template) -> int:
    """Natural cards in a candidate meld."""
    shape = tpl[2]
    return sum(shape[0]) if tpl[0] == "set" else len(shape[0])


def _bundle(items: list[tuple[int, int, int, Template]]) -> Bundle:
    groups: dict[int, tuple[list[tuple[int, int]], list[Template]]] = {}
    used = 0
    # Bigger melds first: the search finds good layouts early and cuts off worse ones.
    items = sorted(items, key=lambda it: (-_size(it[3]), it[2]))
    for anchor, delta, k, tpl in items:
        g = groups.setdefault(anchor, ([], []))
        g[0].append((delta, k))
        g[1].append(tpl)
        used |= delta
    return tuple((p, tuple(g[0]), tuple(g[1])) for p, g in sorted(groups.items())), used


class ShapeBook:
    """Every candidate meld shape for one :class:`~payme.melds.RuleTables`, memoised."""

    def __init__(self, t: RuleTables) -> None:
        self.t = t
        self.cap = None if t.half_limit else SPLIT_CAP
        most = t.set_max if t.set_max is not None else 99
        if self.cap is not None:
            most = min(most, self.cap)
        self.set_most = most
        self.run_most = longest_run_needed(t)
        self.terminals: dict[object, object] = {}

        # Where each regular card's count sits in the packed state: rank-major order (all
        # aces, then all twos, ...), so a meld's cards lie close together in the order and
        # the search leaves few holes behind.  Fields are wide enough for the largest pack.
        copies = max(t.largest_pack[:N_REGULAR])
        w = max(copies, 1).bit_length() + 1
        self.width = w
        # Tuples, not lists, in these tables: a tuple of numbers is soon untracked by the
        # garbage collector, while a list is walked by every full collection for as long as
        # the process lives (a book for each rule set and round).
        self.pos_of = tuple((i % 13) * 4 + i // 13 for i in range(N_REGULAR))
        index_at = [0] * N_REGULAR
        for i, p in enumerate(self.pos_of):
            index_at[p] = i
        self.index_at = tuple(index_at)
        self.card_at = [CARDS[i] for i in self.index_at]
        self.unit_of = tuple(1 << (p * w) for p in self.pos_of)
        self.unit_at = tuple(1 << (p * w) for p in range(N_REGULAR))
        self.field_of = tuple(u * ((1 << w) - 1) for u in self.unit_of)  # each card's field
        self.guard = sum(1 << (p * w + w - 1) for p in range(N_REGULAR))
        # Bits above the regular cards hold counts of scoped wild cards (see Search): their
        # "position" is N_REGULAR, which the search reads as "no regular card left".
        self.pos_at_bit = tuple(min(b // w, N_REGULAR) for b in range(N_REGULAR * w + 64))
        self.conv_at = tuple(t.scope[self.index_at[p]] is not None for p in range(N_REGULAR))
        conv_pos = [p for p in range(N_REGULAR) if self.conv_at[p]]
        # Masks picking bit ``k`` of every wild-of-a-rank field: counting those cards left.
        self.conv_masks = tuple(sum(1 << (p * w + k) for p in conv_pos) for k in range(w - 1))
        self.conv_bits = tuple(enumerate(self.conv_masks))  # (bit, mask) pairs, for loops
        # The whole fields of the wild cards of a rank; the lowest bit of every field; and a
        # field's every bit, at the lowest field (spreading a field's lowest bit to all).
        self.conv_fields = sum(self.field_of[self.index_at[p]] for p in conv_pos)
        self.low_bits = sum(self.unit_at)
        self.field_ones = (1 << w) - 1
        # How many copies of each kind of card a hand may hold (see search.scan): the
        # largest pack's count, for a regular card at most 15 (what the tallies can count).
        pack = t.largest_pack
        self.limit = bytes(min(pack[i], 15 if i < N_REGULAR else 255) for i in range(N_CARDS))
        # The rule set's penalty points by position (cost_at(t.points), at hand), and the
        # leftover table of a hand without pure wild cards (see search.terminal_table).
        self.points_at = tuple(t.points[i] for i in self.index_at)
        self.plain_terminal: Any = None
        # run_plan for each count of wild cards a hand may use in runs (at most 63).
        self.plans = [self.run_plan(w) for w in range(64)]
        self._costs: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        # Shapes and bundles depend on the meld rules only, not on the round (which cards
        # are wild changes nothing about which cards a meld may take), so every round of a
        # rule set shares them.
        shared_key = (
            t.set_min, most, t.distinct_suits, t.run_min, t.ace_high, t.half_limit,
            t.adjacent_limit, w,
        )  # fmt: skip
        shared = _SHARED.get(shared_key)
        if shared is None:
            shared = _SHARED[shared_key] = ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {})
        self._runs: dict[tuple[int, int], tuple[tuple[RunShape, ...], int]] = shared[0]
        self._run_parts: dict[tuple[int, int], tuple[RunShape, ...]] = shared[1]
        self._sets: dict[tuple[tuple[int, ...], int], tuple[tuple[SetShape, ...], int]] = shared[2]
        self._run_bundles: dict[tuple[int, int, int, bool], Bundle] = shared[3]
        self._set_bundles: dict[tuple[int, tuple[int, ...], int], Bundle] = shared[4]
        self._set_bundles_raw: dict[tuple[int, tuple[int, ...], int], Bundle] = shared[5]
        # Bundles by one packed int (suit or rank, cards held, the hand's wild count before
        # capping): the search's setup looks each up in a single step.
        self.bundles_by_key: dict[int, Bundle] = shared[6]
        self._part_bundles: dict[tuple[int, int, int, bool], Bundle] = shared[7]
        # Cluster bundles by ``suit << 24 | cluster << 8 | wild cap << 1 | single`` (see
        # :meth:`suit_bundles`).
        self.part_bundles_by_key: dict[int, Bundle] = shared[8]
        # A suit's cluster bundles together, by ``suit << 24 | held ranks << 8 | the hand's
        # wild count << 1 | single``: one look-up per suit for a suit seen before.
        self.suit_bundles_by_key: dict[int, tuple[Bundle, ...]] = shared[9]
        # The lean path's bundles and melds (see natural.Natural), kept here so that every
        # round shares them.
        self.natural_bundles: dict[int, Any] = shared[10]
        self.natural_melds: dict[int, Any] = shared[11]
        # Whether a run's pattern of natural places is left out (see _refuse), by the
        # places' bits and the run's length: at most 2**13 patterns a length.
        self._refused: dict[tuple[int, int], bool] = shared[12]

    def remember(self, key: int, bundle: Bundle) -> Bundle:
        """Keep ``bundle`` under ``key`` in ``bundles_by_key`` (bounded in size)."""
        if len(self.bundles_by_key) > 300_000:
            self.bundles_by_key.clear()
        self.bundles_by_key[key] = bundle
        return bundle

    def cost_at(self, cost: tuple[int, ...]) -> tuple[int, ...]:
        """``cost`` (by card index) rearranged by position in the packed state."""
        hit = self._costs.get(id(cost))
        if hit is None or hit[0] is not cost:
            if len(self._costs) >= 1024:
                self._costs.clear()  # bounded: lay-offs price many sets of free cards
            hit = (cost, tuple(cost[i] for i in self.index_at))
            self._costs[id(cost)] = hit
        return hit[1]

    def run_bundle(self, suit: int, mask: int, wilds: int, single: bool) -> Bundle:
        """The candidate runs of one suit for a hand holding the ranks in ``mask``.

        ``single``: also list runs with just one natural card (needed only when wild cards
        of different scopes make such a run differ from the set of the same cards).

        Built from the bundles of the mask's clusters (see ``_clusters``): no run
        joins two clusters, so each anchor's candidates come from one cluster, in the
        same order, and a new mask made of clusters seen before costs no new listing.
        """
        wcap = self.run_wild_cap(mask, wilds)
        key = (suit, mask, wcap, single)
        hit = self._run_bundles.get(key)
        if hit is None:
            groups: list[tuple[int, Moves, tuple[Template, ...]]] = []
            used = 0
            for part in self._clusters(mask, wcap):
                part_groups, part_used = self._part_bundle(
                    suit, part, self.run_wild_cap(part, wcap), single
                )
                groups += part_groups
                used |= part_used
            hit = (tuple(groups), used)
            if len(self._run_bundles) > 100_000:
                self._run_bundles.clear()
            self._run_bundles[key] = hit
        return hit

    def run_plan(self, wilds: int) -> tuple[int | None, int, int]:
        """How :class:`~payme.solver.search.Search` finds a suit's candidate runs for a hand
        with ``wilds`` wild cards usable in runs: ``(gap, need, cap)``.

        ``gap`` is the one ``_clusters`` uses for every suit of such a hand (``None``
        when it depends on the suit's ranks: then :meth:`suit_bundles` does the work);
        ``need`` the fewest natural cards any candidate run holds (a cluster with fewer
        has none); ``cap`` the wild cap of every cluster (:meth:`run_wild_cap`; under the
        half-wild limit it is also at most the cluster's count of ranks).
        """
        t = self.t
        most = (self.cap or RUN_MOST) - 1
        cap = min(wilds, most)
        least = (t.run_min + 1) // 2 if t.half_limit else 1
        need = max(least, t.run_min - cap, 1)
        if t.adjacent_limit:
            gap: int | None = 2
        elif t.half_limit:
            gap = None
        else:
            gap = min(cap, most - 1) + 1
        return gap, need, cap

    def part_bundle(self, key: int, suit: int, part: int, cap: int, single: bool) -> Bundle:
        """The bundle of one cluster (see :meth:`suit_bundles`), kept in
        ``part_bundles_by_key`` under ``key``."""
        hit = self._part_bundle(suit, part, cap, single)
        if len(self.part_bundles_by_key) > 200_000:
            self.part_bundles_by_key.clear()
        self.part_bundles_by_key[key] = hit
        return hit

    def suit_bundles(
        self, key: int, suit: int, mask: int, wilds: int, single: bool
    ) -> tuple[Bundle, ...]:
        """The candidate runs of ``suit`` for a hand holding the ranks in ``mask`` and
        ``wilds`` wild cards usable in runs, as the bundles of the mask's clusters (see
        :meth:`run_bundle`; clusters without a candidate left out), kept in
        ``suit_bundles_by_key`` under ``key``."""
        wcap = self.run_wild_cap(mask, wilds)
        by_key = self.part_bundles_by_key
        found = []
        for part in self._clusters(mask, wcap):
            cap = self.run_wild_cap(part, wcap)
            part_key = suit << 24 | part << 8 | cap << 1 | single
            hit = by_key.get(part_key)
            if hit is None:
                hit = self.part_bundle(part_key, suit, part, cap, single)
            if hit[1]:
                found.append(hit)
        if len(self.suit_bundles_by_key) > 200_000:
            self.suit_bundles_by_key.clear()
        self.suit_bundles_by_key[key] = bundles = tuple(found)
        return bundles

    def _part_shapes(self, part: int, part_cap: int) -> tuple[RunShape, ...]:
        """The run shapes of one cluster of held ranks (any suit), kept once listed."""
        shapes = self._run_parts.get((part, part_cap))
        if shapes is None:
            shapes = tuple(self._make_runs(part, part_cap))
            self._run_parts[(part, part_cap)] = shapes
        return shapes

    def _part_bundle(self, suit: int, part: int, part_cap: int, single: bool) -> Bundle:
        """The candidate runs of one cluster of held ranks of a suit."""
        key = (suit, part, part_cap, single)
        hit = self._part_bundles.get(key)
        if hit is None:
            shapes = self._part_shapes(part, part_cap)
            base = suit * 13 - 1
            most = self.set_most
            items: list[tuple[int, int, int, Template]] = []
            seen: set[tuple[int, int]] = set()
            unit_of, pos_of = self.unit_of, self.pos_of
            for shape in shapes:
                ranks, _, lowest, k, _ = shape
                if not single and len(ranks) == 1 and 1 + k <= most:
                    continue  # the same cards as a set: one move is enough
                delta = 0
                for r in ranks:
                    delta += unit_of[base + r]
                if (delta, k) in seen:
                    continue
                seen.add((delta, k))
                # Positions run rank by rank, so the lowest rank's card comes first.
                items.append((pos_of[base + lowest], delta, k, template("run", suit, shape)))
            hit = _bundle(items)
            if len(self._part_bundles) > 100_000:
                self._part_bundles.clear()
            self._part_bundles[key] = hit
        return hit

    def set_bundle(self, rank: int, copies: tuple[int, ...], wilds: int) -> Bundle:
        """The candidate sets of one rank for a hand holding ``copies`` of it per suit."""
        raw = (rank, copies, min(wilds, self.set_most - 1))
        hit = self._set_bundles_raw.get(raw)
        if hit is not None:
            return hit
        capped, wcap = self._set_key(copies, wilds)
        key = (rank, capped, wcap)
        hit = self._set_bundles.get(key)
        if hit is None:
            shapes, _ = self.sets(capped, wcap)
            base = rank - 1
            items: list[tuple[int, int, int, Template]] = []
            for shape in shapes:
                m, first, k = shape
                delta = sum(m[s] * self.unit_of[s * 13 + base] for s in range(4))
                items.append(
                    (self.pos_of[first * 13 + base], delta, k, template("set", rank, shape))
                )
            hit = _bundle(items)
            self._set_bundles[key] = hit
        if len(self._set_bundles_raw) > 100_000:
            self._set_bundles_raw.clear()
        self._set_bundles_raw[raw] = hit
        return hit

    def run_wild_cap(self, mask: int, wilds: int) -> int:
        """The most wild cards any run over ``mask`` can use (a cache key component)."""
        if self.t.half_limit:
            return min(wilds, mask.bit_count())
        return min(wilds, (self.cap or RUN_MOST) - 1)

    def runs(self, mask: int, wilds: int) -> tuple[tuple[RunShape, ...], int]:
        """Runs using at least one of the ranks in ``mask`` (bit r = rank r) of one suit,
        and the mask of ranks that appear in any of them.

        Each natural rank may also be left out in favour of a wild card (its copy may be
        needed elsewhere), so every choice is listed.
        """
        wcap = self.run_wild_cap(mask, wilds)
        key = (mask, wcap)
        hit = self._runs.get(key)
        if hit is None:
            shapes: list[RunShape] = []
            for part in self._clusters(mask, wcap):
                part_cap = self.run_wild_cap(part, wcap)
                shapes += self._part_shapes(part, part_cap)
            used = 0
            for shape in shapes:
                for r in shape[0]:
                    used |= 1 << r
            hit = (tuple(shapes), used)
            if len(self._runs) > 100_000:
                self._runs.clear()
            self._runs[key] = hit
        return hit

    def _clusters(self, mask: int, wcap: int) -> list[int]:
        """``mask`` split into groups of ranks that no single run can join.

        Two held ranks further apart than one natural card plus the most wild cards a run
        may hold in a row never meet in one run, so their runs can be listed separately
        (and each piece is more likely to be listed already).
        """
        t = self.t
        if t.ace_high and mask & 0b10:
            return [mask]  # the ace may also sit above the king: keep it simple
        gap = 2 if t.adjacent_limit else min(wcap, (self.cap or RUN_MOST) - 2) + 1
        if gap < 1:
            return [1 << r for r in range(1, 14) if mask >> r & 1]  # every rank alone
        # Each held rank r reaches the ranks up to r + gap - 1; two held ranks are in one
        # group exactly when what they reach forms one unbroken row of bits.
        reach = mask
        for k in range(1, gap):
            reach |= mask << k
        parts: list[int] = []
        while reach:
            row = reach & ~(reach + (reach & -reach))  # the lowest unbroken row of bits
            reach ^= row
            parts.append(row & mask)
        return parts

    def _make_runs(self, mask: int, wcap: int) -> list[RunShape]:
        """The run shapes over the ranks of ``mask`` with at most ``wcap`` wild cards, longest
        last and, for each length, the highest window first.

        Each window is read as bits: a window holding no rank, or needing more wild cards than
        allowed, costs one test; whether a choice of natural places is refused (two wild
        cards side by side where that is barred, or two shorter runs doing the same job)
        depends only on the places' pattern, so it is worked out once per pattern.
        """
        t = self.t
        held = mask & 0b11111111111110  # ranks 1..13
        if t.ace_high and mask & 0b10:
            held |= 1 << ACE_HIGH
        n_avail = mask.bit_count()
        most = min(self.run_most, n_avail + wcap)
        if t.half_limit:
            most = min(most, 2 * n_avail)
        refused = self._refused
        out: list[RunShape] = []
        for length in range(t.run_min, most + 1):
            limit = min(wcap, length // 2) if t.half_limit else wcap
            ones = (1 << length) - 1
            lows = list(range(1, RUN_MOST - length + 2))
            if t.ace_high and ACE_HIGH - length + 1 >= 2:
                lows.append(ACE_HIGH - length + 1)
            # Highest window first: a wild card then extends a run upward when it can.
            for low in sorted(lows, reverse=True):
                inside = held >> low & ones
                if not inside:
                    continue
                count = inside.bit_count()
                forced = length - count
                if forced > limit:
                    continue
                avail = [low + i for i in range(length) if inside >> i & 1]
                for extra in range(min(limit - forced, count - 1) + 1):
                    for dropped in combinations(avail, extra):
                        places = inside
                        for p in dropped:
                            places ^= 1 << (p - low)
                        key = (places, length)
                        skip = refused.get(key)
                        if skip is None:
                            skip = refused[key] = self._refuse(places, length)
                        if skip:
                            continue
                        nat = tuple(p for p in avail if p not in dropped) if extra else tuple(avail)
                        if nat[-1] == ACE_HIGH:
                            ranks = (*nat[:-1], 1)
                            out.append((ranks, nat, 1, forced + extra, low))
                        else:
                            out.append((nat, nat, nat[0], forced + extra, low))
        return out

    def _refuse(self, places: int, length: int) -> bool:
        """Whether a run of ``length`` places, natural where ``places`` has a bit, is left out:
        two wild cards side by side under the no-adjacent-wilds rule, or (long enough) a run
        that two shorter runs replace."""
        t = self.t
        wild = ~places & ((1 << length) - 1)
        if t.adjacent_limit and wild & (wild >> 1):
            return True
        if length >= 2 * t.run_min:
            pattern = [bool(places >> i & 1) for i in range(length)]
            return _splittable(pattern, t.run_min, t.half_limit, t.all_wild_run_ok)
        return False

    def _set_key(self, copies: tuple[int, ...], wilds: int) -> tuple[tuple[int, ...], int]:
        most = self.set_most
        if self.t.distinct_suits:
            copies = tuple(min(c, 1) for c in copies)
        else:
            copies = tuple(min(c, most) for c in copies)
        wcap = min(wilds, most - 1)
        if self.t.half_limit:
            wcap = min(wcap, most // 2)
        return copies, wcap

    def sets(self, copies: tuple[int, ...], wilds: int) -> tuple[tuple[SetShape, ...], int]:
        """Sets of one rank from ``copies`` (cards held per suit S H D C) and wild cards,
        and the mask of suits (bit s) that appear in any of them."""
        key = self._set_key(copies, wilds)
        hit = self._sets.get(key)
        if hit is None:
            shapes = tuple(self._make_sets(*key))
            used = 0
            for shape in shapes:
                for s in range(4):
                    if shape[0][s]:
                        used |= 1 << s
            hit = (shapes, used)
            self._sets[key] = hit
        return hit

    def _make_sets(self, copies: tuple[int, ...], wcap: int) -> list[SetShape]:
        t = self.t
        most = self.set_most
        out: list[SetShape] = []
        for m in product(*(range(c + 1) for c in copies)):
            nn = sum(m)
            if nn == 0 or nn > most:
                continue
            anchor = next(s for s in range(4) if m[s])
            lo_k = max(0, t.set_min - nn)
            hi_k = min(wcap, most - nn)
            if t.half_limit:
                hi_k = min(hi_k, nn)
            for k in range(lo_k, hi_k + 1):
                out.append(((m[0], m[1], m[2], m[3]), anchor, k))
        return out


def _splittable(pattern: list[bool], least: int, half: bool, all_wild_ok: bool) -> bool:
    """Whether a run whose places are natural (True) or wild (False) as in ``pattern`` can be
    cut into two valid runs (each keeps its places, so no new wild cards sit side by side)."""
    n = len(pattern)
    wild_before = [0]
    for natural in pattern:
        wild_before.append(wild_before[-1] + (not natural))
    total = wild_before[-1]
    for cut in range(least, n - least + 1):
        left, right = wild_before[cut], total - wild_before[cut]
        if half and (2 * left > cut or 2 * right > n - cut):
            continue
        if not all_wild_ok and (left == cut or right == n - cut):
            continue
        return True
    return False


# (shortest run, half-wild limit, no adjacent wilds) -> the longest run no cut can split:
# what ``_longest_unsplittable_run`` computes (tests check the table against it), kept here
# so that a new rule set costs no search.
_KNOWN_LONGEST: Final = {(3, False, False): 5, (3, False, True): 5, (3, True, False): 13,
                         (3, True, True): 6}  # fmt: skip


def longest_run_needed(t: RuleTables) -> int:
    """The longest candidate run the search needs under ``t``'s meld rules."""
    known = _KNOWN_LONGEST.get((t.run_min, t.half_limit, t.adjacent_limit))
    return known if known is not None else _longest_unsplittable_run(t)


def _longest_unsplittable_run(t: RuleTables) -> int:
    """The longest run (at most 13) that the rule set allows and that no cut splits into two
    valid runs: longer candidate runs are never needed.  Found by trying every pattern of
    natural and wild places."""
    longest = t.run_min
    for n in range(t.run_min, RUN_MOST + 1):
        for bits in range(1, 1 << n):
            pattern = [bool(bits >> i & 1) for i in range(n)]
            wild = n - sum(pattern)
            if t.half_limit and 2 * wild > n:
                continue
            if t.adjacent_limit and any(not a and not b for a, b in pairwise(pattern)):
                continue
            if not _splittable(pattern, t.run_min, t.half_limit, t.all_wild_run_ok):
                longest = n
                break
    return longest


_BOOKS: dict[int, tuple[RuleTables, ShapeBook]] = {}
_Kept = TypeVar("_Kept")


def cached_for(
    cache: dict[int, tuple[RuleTables, _Kept]], t: RuleTables, make: Callable[[RuleTables], _Kept]
) -> _Kept:
    """``make(t)``, kept in ``cache`` by the identity of the rule set and round ``t`` (the
    tables are made once each; at most 64 kept, then the cache starts again)."""
    hit = cache.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    made = make(t)
    if len(cache) > 64:
        cache.clear()
    cache[id(t)] = (t, made)
    return made


_SHARED: dict[tuple[object, ...], tuple[dict[Any, Any], ...]] = {}


def book_for(t: RuleTables) -> ShapeBook:
    """The shared :class:`ShapeBook` of a rule set and round."""
    return cached_for(_BOOKS, t, ShapeBook)


__all__ = ["SPLIT_CAP", "Bundle", "RunShape", "SetShape", "ShapeBook", "Template", "book_for"]
