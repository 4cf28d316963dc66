"""The exact search over a hand's packed card counts.

The hand's *natural* cards (regular cards, including wild cards of a rank, which may stand
for themselves) are packed as counts into one integer, a few bits per kind of card, in the
search order: non-wild cards by index, then wild cards of a rank.  The search always takes
the lowest remaining card and decides its fate: deadwood, the discard (when one is owed), a
candidate meld in which it is the first natural card, or -- for a wild card of a rank --
acting as a wild card.  Wild cards without a rank (jokers; Rummy 3-Pack's WILD, GROUP and
SEQ) are pooled counts: a candidate meld only says how many wild cards it needs and the
search keeps the balance of the pool.  A meld may borrow from wild cards of a rank that the
search reaches later; the balance must be settled by the end.  Values are memoised on
(remaining cards, balance), so the search is exact.

Cards that belong to no candidate meld at all (and are not wild) never change the answer;
they are set aside as deadwood before the search starts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from payme.cards import CARDS, N_REGULAR, Card
from payme.melds import RUN_MOST, RuleTables
from payme.solver.shapes import RunShape, SetShape, ShapeBook

INF: Final = 1 << 40

Move = tuple[str, int, int, int]
"""A step of a best layout: ``("dead" | "discard" | "wild", slot, 0, 0)`` or
``("meld", template, wild cards of any scope, wild cards of the meld's own scope)``."""
Leftover = tuple[int, int, int, int, tuple[int, ...]]
"""What happens to the pure wild cards left at the end: (any-scope ones in all-wild sets,
set-only ones in them, any-scope ones in all-wild runs, run-only ones in them, and ``(0,)``
when one of them is the discard, else ``()``)."""
NO_LEFTOVER: Final[Leftover] = (0, 0, 0, 0, ())

Template = tuple[str, int, SetShape | RunShape]
"""A candidate meld: ``("set", rank, shape)`` or ``("run", suit index, shape)``."""


class Search:
    """One hand prepared for the search under one rule set, round and pricing.

    ``cost`` prices each kind of card left in deadwood (penalty points, or 1 each to count
    unmelded cards).
    """

    def __init__(
        self,
        cards: tuple[Card, ...],
        t: RuleTables,
        cost: tuple[int, ...],
        book: ShapeBook,
    ) -> None:
        self.t = t
        self.cost = cost
        self.book = book
        scope = t.scope
        counts = [0] * len(scope)
        for c in cards:
            counts[c.index] += 1
        self.fixed_dead: list[Card] = []
        self.singles: list[Card] = []
        pure_any: list[Card] = []
        pure_set: list[Card] = []
        pure_run: list[Card] = []
        for i in range(N_REGULAR, len(counts)):
            n = counts[i]
            if not n:
                continue
            c = CARDS[i]
            if i in t.single:
                self.singles += [c] * n
            elif i in t.never:
                self.fixed_dead += [c] * n
            else:
                sc = scope[i]
                (pure_any if sc == "any" else pure_set if sc == "set" else pure_run).extend(
                    [c] * n
                )
        # Of the pure any-scope wild cards the dearest are melded first, the cheapest left.
        pure_any.sort(key=lambda c: (-cost[c.index], c.index))
        self.pure_any = pure_any
        self.pure_set = pure_set
        self.pure_run = pure_run
        self.n_any, self.n_set, self.n_run = len(pure_any), len(pure_set), len(pure_run)
        self.scoped = bool(pure_set or pure_run)

        regular = [i for i in range(N_REGULAR) if counts[i]]
        n_conv = sum(counts[i] for i in regular if scope[i] is not None)
        self.n_conv = n_conv
        w_total = self.n_any + self.n_set + self.n_run + n_conv
        # Candidate shapes, per suit (runs) and per rank (sets).
        runs: list[tuple[int, list[RunShape]]] = []
        sets: list[tuple[int, list[SetShape]]] = []
        used = [False] * N_REGULAR
        for s in range(4):
            mask = 0
            for r in range(1, 14):
                if counts[s * 13 + r - 1]:
                    mask |= 1 << r
            if mask:
                shapes = book.runs(mask, self.n_any + self.n_run + n_conv)
                if shapes:
                    runs.append((s, shapes))
                    for shape in shapes:
                        for r in shape[0]:
                            used[s * 13 + r - 1] = True
        for r in range(1, 14):
            copies = tuple(counts[s * 13 + r - 1] for s in range(4))
            if any(copies):
                shapes2 = book.sets(copies, self.n_any + self.n_set + n_conv)
                if shapes2:
                    sets.append((r, shapes2))
                    for shape2 in shapes2:
                        for si, mi in enumerate(shape2[0]):
                            if mi:
                                used[si * 13 + r - 1] = True
        del w_total
        # Cards in no candidate meld (and not wild) are deadwood whatever else happens.
        self.isolated: list[Card] = []
        plain: list[int] = []
        conv: list[int] = []
        for i in regular:
            if scope[i] is not None:
                conv.append(i)
            elif used[i]:
                plain.append(i)
            else:
                self.isolated += [CARDS[i]] * counts[i]
        order = plain + conv
        self.slots = [CARDS[i] for i in order]
        most = max((counts[i] for i in order), default=1)
        w = most.bit_length() + 1
        self.width = w
        slot_of = [-1] * N_REGULAR
        for j, i in enumerate(order):
            slot_of[i] = j
        self.unit = unit = [1 << (j * w) for j in range(len(order))]
        self.guard = sum(1 << (j * w + w - 1) for j in range(len(order)))
        self.state0 = sum(counts[i] << (j * w) for j, i in enumerate(order))
        self.conv_shift = len(plain) * w
        self.conv_masks = [
            sum(1 << (j * w + bit) for j in range(len(conv))) for bit in range(w - 1)
        ]
        self.slot_cost = [cost[i] for i in order]
        self.slot_conv = [scope[i] is not None for i in order]
        self.bit_slot = [b // w for b in range(len(order) * w)]

        # Candidate melds per anchor slot: (delta, wild cards, is a set), and templates.
        cands: list[list[tuple[int, int]]] = [[] for _ in order]
        kinds: list[list[bool]] = [[] for _ in order]
        tids: list[list[int]] = [[] for _ in order]
        templates: list[Template] = []
        seen: list[set[tuple[int, int]]] = [set() for _ in order]
        dedupe = not self.scoped
        for r, shapes2 in sets:
            base = r - 1
            for shape2 in shapes2:
                copies, anchor, k = shape2
                j = slot_of[anchor * 13 + base]
                delta = 0
                for si in range(4):
                    if copies[si]:
                        delta += copies[si] * unit[slot_of[si * 13 + base]]
                if dedupe:
                    if (delta, k) in seen[j]:
                        continue
                    seen[j].add((delta, k))
                cands[j].append((delta, k))
                kinds[j].append(True)
                tids[j].append(len(templates))
                templates.append(("set", r, shape2))
        for suit, shapes in runs:
            base = suit * 13 - 1
            for shape in shapes:
                ranks, _, anchor, k, _ = shape
                j = slot_of[base + anchor]
                if j < 0:
                    continue
                delta = 0
                for rank in ranks:
                    delta += unit[slot_of[base + rank]]
                if dedupe:
                    if (delta, k) in seen[j]:
                        continue
                    seen[j].add((delta, k))
                cands[j].append((delta, k))
                kinds[j].append(False)
                tids[j].append(len(templates))
                templates.append(("run", suit, shape))
        self.cands = cands
        self.kinds = kinds
        self.tids = tids
        self.templates = templates
        self.terminal = terminal_table(self)
        self.memo: dict[object, int] = {}
        self.value: Callable[[int, int, int, int, int], int]
        if self.scoped:
            self.value = self._solve_scoped
        else:
            plain_solve = _plain_solver(self)
            self.value = lambda state, b, g, q, d: plain_solve(state, b, d)

    # --- helpers ----------------------------------------------------------------------

    def conv_left(self, state: int) -> int:
        """How many wild cards of a rank are still in ``state`` (they can repay a debt)."""
        x = state >> self.conv_shift
        n = 0
        for bit, mask in enumerate(self.conv_masks):
            n += (x & mask).bit_count() << bit
        return n

    def finish(self, b: int, g: int, q: int, d: int) -> tuple[int, Leftover]:
        """The cost of the pure wild cards left at the end, and what becomes of them."""
        if b < 0 or b > self.n_any:
            return INF, NO_LEFTOVER
        return self.terminal[(b, g, q, d)]

    # --- the general search (hands holding scoped wild cards) --------------------------

    def _solve_scoped(self, state: int, b: int, g: int, q: int, d: int) -> int:
        if not state:
            return self.finish(b, g, q, d)[0]
        key = (state, b, g, q, d)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        best = INF
        for now, nxt, _ in self.options(state, b, g, q, d):
            v = now + self._solve_scoped(*nxt)
            if v < best:
                best = v
                if not best:
                    break
        self.memo[key] = best
        return best

    def options(
        self, state: int, b: int, g: int, q: int, d: int
    ) -> Iterator[tuple[int, tuple[int, int, int, int, int], Move]]:
        """Every move from a state in search order: (cost now, next state, the move)."""
        j = self.bit_slot[(state & -state).bit_length() - 1]
        rest = state - self.unit[j]
        yield self.slot_cost[j], (rest, b, g, q, d), ("dead", j, 0, 0)
        if not d:
            yield 0, (rest, b, g, q, 1), ("discard", j, 0, 0)
        if self.slot_conv[j]:
            yield 0, (rest, b + 1, g, q, d), ("wild", j, 0, 0)
        guard = self.guard
        sg = state | guard
        for (delta, k), is_set, tid in zip(self.cands[j], self.kinds[j], self.tids[j], strict=True):
            if (sg - delta) & guard != guard:
                continue
            nxt = state - delta
            scoped = g if is_set else q
            for use in range(min(k, scoped) + 1):
                nb = b - (k - use)
                if nb < 0 and nb + self.conv_left(nxt) < 0:
                    continue
                if is_set:
                    yield 0, (nxt, nb, g - use, q, d), ("meld", tid, k - use, use)
                else:
                    yield 0, (nxt, nb, g, q - use, d), ("meld", tid, k - use, use)

    def walk(self, d: int) -> tuple[int, list[Move], Leftover]:
        """The best total and the moves of one best layout (the first best in search order).

        ``d`` is 0 when a discard is owed, 1 when not.
        """
        key = (self.state0, self.n_any, self.n_set, self.n_run, d)
        value = self.value
        total = value(*key)
        moves: list[Move] = []
        if total >= INF:
            return total, moves, NO_LEFTOVER
        while key[0]:
            target = value(*key)
            for now, nxt, move in self.options(*key):
                if now + value(*nxt) == target:
                    moves.append(move)
                    key = nxt
                    break
            else:  # pragma: no cover - the memo guarantees a matching move
                raise AssertionError("solver walk lost its way")
        return total, moves, self.finish(*key[1:])[1]


def _plain_solver(h: Search) -> Callable[[int, int, int], int]:
    """The search for hands without scoped wild cards, as a closure (the hot path)."""
    unit = h.unit
    cost = h.slot_cost
    conv = h.slot_conv
    cands = h.cands
    guard = h.guard
    bit_slot = h.bit_slot
    conv_shift = h.conv_shift
    conv_masks = h.conv_masks
    n_any = h.n_any
    term = h.terminal
    end = [[term[(b, 0, 0, d)][0] for b in range(n_any + 1)] for d in (0, 1)]
    memo: dict[int, int] = {}
    memo_get = memo.get

    def solve(state: int, b: int, d: int) -> int:
        if not state:
            return end[d][b] if 0 <= b <= n_any else INF
        key = ((state << 8) | (b + 64)) << 1 | d
        hit = memo_get(key)
        if hit is not None:
            return hit
        j = bit_slot[(state & -state).bit_length() - 1]
        rest = state - unit[j]
        best = cost[j] + solve(rest, b, d)
        if best and not d:
            v = solve(rest, b, 1)
            if v < best:
                best = v
        if best and conv[j]:
            v = solve(rest, b + 1, d)
            if v < best:
                best = v
        if best:
            sg = state | guard
            for delta, k in cands[j]:
                if (sg - delta) & guard == guard:
                    nb = b - k
                    nxt = state - delta
                    if nb < 0:
                        x = nxt >> conv_shift
                        have = 0
                        for bit, mask in enumerate(conv_masks):
                            have += (x & mask).bit_count() << bit
                        if nb + have < 0:
                            continue
                    v = solve(nxt, nb, d)
                    if v < best:
                        best = v
                        if not v:
                            break
        memo[key] = best
        return best

    return solve


def terminal_table(h: Search) -> dict[tuple[int, int, int, int], tuple[int, Leftover]]:
    """For each count of pure wild cards left at the end -- (any, set-only, run-only) -- and
    whether a discard is still owed: the cheapest way to meld some of them in all-wild melds
    (where the rule set allows those), discard one if owed, and leave the rest."""
    cost_any = tuple(h.cost[c.index] for c in h.pure_any)  # dearest first
    cost_set = tuple(h.cost[c.index] for c in h.pure_set)
    cost_run = tuple(h.cost[c.index] for c in h.pure_run)
    key = (cost_any, cost_set, cost_run)
    book = h.book
    hit = book.terminals.get(key)
    if hit is None:
        hit = _make_terminal(h.t, cost_any, cost_set, cost_run)
        book.terminals[key] = hit
    return hit  # type: ignore[return-value]


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


__all__ = ["INF", "Leftover", "Move", "Search", "Template", "terminal_table"]
