"""The exact hand solver: best layout, going out, best discard.

The search works on a hand's *natural* cards (regular cards, including wild cards of a rank,
which may stand for themselves) packed as counts into one integer, a few bits per kind of
card.  It always takes the lowest remaining card and decides its fate: deadwood, a meld in
which it is the lowest natural card (from a list of candidate melds built for this hand),
or -- for a wild card of a rank -- acting as a wild card.  Wild cards without a rank (jokers,
Rummy 3-Pack's WILD, GROUP and SEQ) are pooled counts: a candidate meld only says how many
wild cards it needs, and the search tracks the balance of the pool.  A meld may borrow from
wild cards of a rank that come later in the search order; the balance must be settled by
the end.  Results are memoised on (remaining cards, balance), so the search is exact.

>>> ev = evaluate("7H 8H 9H JK 2C 5S 5D 5C", rules="denexa", dealt=7)
>>> ev.deadwood_points, len(ev.melds)
(0, 2)
>>> evaluate("AS 2D 9C KH", rules="family", dealt=3).deadwood_points
36
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from payme.cards import N_REGULAR, SUITS, Card, CardsLike, format_hand
from payme.melds import (
    ACE_HIGH,
    RUN_MOST,
    Meld,
    RuleTables,
    build_run,
    build_set,
    hand_cards,
    tables_for,
)
from payme.rulesets import Ruleset, RulesLike

INF: Final = 1 << 40

# A longer meld than this can always be split into valid melds of 3 to 5 cards when the
# rule set has no half-wild limit, so the search need not list longer ones.
_SPLIT_CAP: Final = 5


# --------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, repr=False)
class Evaluation:
    """A best layout of a hand: melds, deadwood and its penalty points.

    ``cards`` is the hand in canonical order; every card is in exactly one meld or in the
    deadwood.  In Rummy 3-Pack ``deadwood_points`` is the count of unmelded cards.
    """

    cards: tuple[Card, ...]
    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    rules: Ruleset
    dealt: int | None

    def __repr__(self) -> str:
        return f"Evaluation({str(self)!r}, rules={self.rules.name!r}, dealt={self.dealt!r})"

    def __str__(self) -> str:
        parts = [f"[{m}]" for m in self.melds]
        dead = format_hand(self.deadwood) if self.deadwood else "none"
        return f"{' '.join(parts) or 'no melds'}; deadwood {dead} = {self.deadwood_points}"

    def _repr_html_(self) -> str:  # pragma: no cover - exercised in notebooks
        try:
            from payme.display import layout_html
        except ImportError:
            import html

            return f"<pre>{html.escape(str(self))}</pre>"
        return layout_html(self)


@dataclass(frozen=True)
class GoOut:
    """Whether a hand can go out, and with which discards (``None``: without discarding)."""

    ok: bool
    discards: tuple[Card | None, ...] = ()

    def __bool__(self) -> bool:
        return self.ok


@dataclass(frozen=True)
class Discard:
    """The best discard of a hand and the layout of the cards kept."""

    card: Card
    evaluation: Evaluation

    @property
    def deadwood_points(self) -> int:
        return self.evaluation.deadwood_points

    def __iter__(self):  # type: ignore[no-untyped-def]
        # So that ``card, ev = best_discard(...)`` works.
        return iter((self.card, self.evaluation))


# --------------------------------------------------------------------------------------
# The search

_Move = tuple[str, int, int, int]
"""A step of a best layout: ("dead" | "discard" | "wild", slot, 0, 0) or
("meld", template, wild cards of any scope, wild cards of the meld's own scope)."""
_Leftover = tuple[int, int, int, int, tuple[int, ...]]
"""Leftover pure wild cards: (any in all-wild sets, set-only in them, any in all-wild runs,
run-only in them, (kind of the one discarded,) or ())."""
_NO_LEFTOVER: Final[_Leftover] = (0, 0, 0, 0, ())


@dataclass(frozen=True)
class _Template:
    """The natural cards of a candidate meld: a set's rank and cards, or a run's suit,
    lowest place and cards by place."""

    kind: str
    number: int
    suit: str
    naturals: tuple[Card, ...]
    by_place: dict[int, Card]


class _Hand:
    """One hand prepared for the search under one rule set, round and pricing."""

    def __init__(
        self, cards: tuple[Card, ...], t: RuleTables, cost: tuple[int, ...], discard: bool
    ) -> None:
        self.t = t
        self.cost = cost
        self.discard = discard
        self.fixed_dead: list[Card] = []
        self.singles: list[Card] = []
        pure_any: list[Card] = []
        pure_set: list[Card] = []
        pure_run: list[Card] = []
        counts: dict[Card, int] = {}
        scope = t.scope
        for c in sorted(cards):
            i = c.index
            if i in t.single:
                self.singles.append(c)
            elif i in t.never:
                self.fixed_dead.append(c)
            elif i >= N_REGULAR:
                s = scope[i]
                (pure_any if s == "any" else pure_set if s == "set" else pure_run).append(c)
            else:
                counts[c] = counts.get(c, 0) + 1
        # Pure any-scope wild cards: the ones melded are the dearest, the ones left the cheapest.
        self.pure_any = sorted(pure_any, key=lambda c: (-cost[c.index], c.index))
        self.pure_set = pure_set
        self.pure_run = pure_run
        self.n_any = len(pure_any)
        self.n_set = len(pure_set)
        self.n_run = len(pure_run)
        self.scoped = bool(pure_set or pure_run)

        plain = [c for c in counts if scope[c.index] is None]
        conv = [c for c in counts if scope[c.index] is not None]
        self.slots: list[Card] = sorted(plain) + sorted(conv)
        self.n_plain = len(plain)
        most = max(counts.values(), default=1)
        w = most.bit_length() + 1
        self.width = w
        self.slot_of = {c: j for j, c in enumerate(self.slots)}
        self.unit = [1 << (j * w) for j in range(len(self.slots))]
        self.guard = sum(1 << (j * w + w - 1) for j in range(len(self.slots)))
        self.state0 = sum(counts[c] << (j * w) for j, c in enumerate(self.slots))
        self.conv_shift = len(plain) * w
        self.field_mask = (1 << w) - 1
        self.slot_cost = [cost[c.index] for c in self.slots]
        self.slot_conv = [scope[c.index] is not None for c in self.slots]
        self.slot_at_bit = [b // w for b in range(len(self.slots) * w)]
        self.counts = counts
        self.n_conv = sum(counts[c] for c in conv)
        self.cands: list[list[tuple[int, int, bool, int]]] = []
        self.templates: list[_Template] = []
        self._make_candidates()
        self.terminal = _terminal_table(self)
        self.memo: dict[tuple[int, int, int, int, int], int] = {}

    # --- candidate melds ------------------------------------------------------------

    def _make_candidates(self) -> None:
        t = self.t
        w_set = self.n_any + self.n_conv + self.n_set
        w_run = self.n_any + self.n_conv + self.n_run
        cap = None if t.half_limit else _SPLIT_CAP
        for j, c in enumerate(self.slots):
            out: list[tuple[int, int, bool, int]] = []
            self._sets_for(j, c, w_set, cap, out)
            self._runs_for(j, c, w_run, cap, out)
            self.cands.append(out)

    def _sets_for(
        self, j: int, c: Card, w_max: int, cap: int | None, out: list[tuple[int, int, bool, int]]
    ) -> None:
        t = self.t
        rank = c.rank
        assert rank is not None
        most = t.set_max if t.set_max is not None else 99
        if cap is not None:
            most = min(most, cap)
        # Other natural cards of this rank that come later in the search order.
        others: list[tuple[int, int]] = []  # (slot, copies available)
        if not t.distinct_suits and self.counts[c] > 1:
            others.append((j, self.counts[c] - 1))
        for s in SUITS:
            d = Card.regular(rank, s)
            k = self.slot_of.get(d)
            if k is not None and k > j:
                others.append((k, 1 if t.distinct_suits else self.counts[d]))
        choices: list[list[tuple[int, int]]] = [[]]
        for slot, avail in others:
            choices = [[*ch, (slot, m)] for ch in choices for m in range(avail + 1)]
        for ch in choices:
            nn = 1 + sum(m for _, m in ch)
            if nn > most:
                continue
            delta = self.unit[j] + sum(m * self.unit[s] for s, m in ch)
            naturals = [c] + [self.slots[s] for s, m in ch for _ in range(m)]
            lo_k = max(0, t.set_min - nn)
            hi_k = min(w_max, most - nn)
            if t.half_limit:
                hi_k = min(hi_k, nn)
            if lo_k > hi_k:
                continue
            tid = len(self.templates)
            self.templates.append(_Template("set", rank, "", tuple(naturals), {}))
            for k in range(lo_k, hi_k + 1):
                out.append((delta, k, True, tid))

    def _runs_for(
        self, j: int, c: Card, w_max: int, cap: int | None, out: list[tuple[int, int, bool, int]]
    ) -> None:
        t = self.t
        rank, suit = c.rank, c.suit
        assert rank is not None and suit is not None
        # Natural places of this suit held at later slots (or this card's own place).
        avail: dict[int, int] = {}
        for r in range(1, 14):
            d = Card.regular(r, suit)
            k = self.slot_of.get(d)
            if k is not None and k > j:
                avail[r] = k
                if r == 1 and t.ace_high:
                    avail[ACE_HIGH] = k
        n_avail = len({k for k in avail.values()}) + 1
        most = RUN_MOST if cap is None else cap
        most = min(most, n_avail + w_max)
        if t.half_limit:
            most = min(most, 2 * n_avail)
        places = [rank] + ([ACE_HIGH] if rank == 1 and t.ace_high else [])
        for p in places:
            for length in range(t.run_min, most + 1):
                for low in range(p - length + 1, p + 1):
                    high = low + length - 1
                    if p == ACE_HIGH or (t.ace_high and high == ACE_HIGH and p != 1):
                        # A window that holds the ace at the top.
                        if high != ACE_HIGH or low < 2:
                            continue
                    elif low < 1 or high > 13:
                        continue
                    self._windows(j, c, p, low, high, avail, w_max, out)

    def _windows(
        self,
        j: int,
        c: Card,
        p: int,
        low: int,
        high: int,
        avail: dict[int, int],
        w_max: int,
        out: list[tuple[int, int, bool, int]],
    ) -> None:
        t = self.t
        length = high - low + 1
        optional = [q for q in range(low, high + 1) if q != p and q in avail]
        forced = length - 1 - len(optional)
        limit = w_max
        if t.half_limit:
            limit = min(limit, length // 2)
        if forced > limit:
            return
        suit = c.suit
        assert suit is not None
        for extra in range(0, min(limit - forced, len(optional)) + 1):
            for wild_opt in combinations(optional, extra):
                naturals = [q for q in optional if q not in wild_opt]
                if t.adjacent_limit:
                    nat = {p, *naturals}
                    if any(q not in nat and q + 1 not in nat for q in range(low, high)):
                        continue
                k = forced + extra
                delta = self.unit[j] + sum(self.unit[avail[q]] for q in naturals)
                by_place = {p: c}
                for q in naturals:
                    by_place[q] = self.slots[avail[q]]
                tid = len(self.templates)
                self.templates.append(_Template("run", low, suit, (), by_place))
                out.append((delta, k, False, tid))

    # --- the search -----------------------------------------------------------------

    def conv_left(self, state: int) -> int:
        rest = state >> self.conv_shift
        n = 0
        mask = self.field_mask
        w = self.width
        while rest:
            n += rest & mask
            rest >>= w
        return n

    def solve(self, state: int, b: int, g: int, q: int, d: int) -> int:
        """Fewest points for ``state`` with wild balance ``b`` (any), ``g`` (set-only) and
        ``q`` (run-only) left, ``d`` = 1 once the discard is made (or when none is wanted)."""
        if not state:
            return self.finish(b, g, q, d)[0]
        key = (state, b, g, q, d)
        memo = self.memo
        hit = memo.get(key)
        if hit is not None:
            return hit
        low = state & -state
        j = self.slot_at_bit[low.bit_length() - 1]
        rest = state - self.unit[j]
        best = self.slot_cost[j] + self.solve(rest, b, g, q, d)
        if best and not d:
            v = self.solve(rest, b, g, q, 1)
            if v < best:
                best = v
        if best and self.slot_conv[j]:
            v = self.solve(rest, b + 1, g, q, d)
            if v < best:
                best = v
        guard = self.guard
        sg = state | guard
        for delta, k, is_set, _ in self.cands[j]:
            if not best:
                break
            if (sg - delta) & guard != guard:
                continue
            nxt = state - delta
            scoped = g if is_set else q
            for use in range(min(k, scoped) + 1):
                nb = b - (k - use)
                if nb < 0 and nb + self.conv_left(nxt) < 0:
                    continue
                if is_set:
                    v = self.solve(nxt, nb, g - use, q, d)
                else:
                    v = self.solve(nxt, nb, g, q - use, d)
                if v < best:
                    best = v
        memo[key] = best
        return best

    def finish(self, b: int, g: int, q: int, d: int) -> tuple[int, _Leftover]:
        """Cost of the wild cards left over, and how they are melded or discarded."""
        if b < 0 or b > self.n_any:
            return INF, _NO_LEFTOVER
        return self.terminal[(b, g, q, d)]

    def options(
        self, state: int, b: int, g: int, q: int, d: int
    ) -> Iterable[tuple[int, tuple[int, int, int, int, int], _Move]]:
        """Every move from a state: (cost now, next state key, what was done), in search order."""
        low = state & -state
        j = self.slot_at_bit[low.bit_length() - 1]
        rest = state - self.unit[j]
        yield self.slot_cost[j], (rest, b, g, q, d), ("dead", j, 0, 0)
        if not d:
            yield 0, (rest, b, g, q, 1), ("discard", j, 0, 0)
        if self.slot_conv[j]:
            yield 0, (rest, b + 1, g, q, d), ("wild", j, 0, 0)
        guard = self.guard
        sg = state | guard
        for delta, k, is_set, tid in self.cands[j]:
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

    def value(self, key: tuple[int, int, int, int, int]) -> int:
        return self.solve(*key)

    def walk(self, d: int) -> tuple[int, list[_Move], _Leftover]:
        """The best total and the moves of one best layout (deterministic)."""
        key = (self.state0, self.n_any, self.n_set, self.n_run, d)
        total = self.value(key)
        moves: list[_Move] = []
        while key[0]:
            target = self.value(key)
            for now, nxt, move in self.options(*key):
                if now + self.value(nxt) == target:
                    moves.append(move)
                    key = nxt
                    break
            else:  # pragma: no cover - the memo guarantees a matching move
                raise AssertionError("solver walk lost its way")
        return total, moves, self.finish(*key[1:])[1]


def _terminal_table(h: _Hand) -> dict[tuple[int, int, int, int], tuple[int, _Leftover]]:
    """For each leftover (any, set-only, run-only, discard made) wild count: the cheapest way
    to meld some of them in all-wild melds, discard one (if still owed), and leave the rest."""
    t = h.t
    cost_any = [h.cost[c.index] for c in h.pure_any]  # dearest first
    cost_set = [h.cost[c.index] for c in h.pure_set]
    cost_run = [h.cost[c.index] for c in h.pure_run]

    def sizes(ok: bool, least: int, most: int | None) -> set[int]:
        made = {0}
        if not ok:
            return made
        top = most if most is not None else 99
        for total in range(1, 40):
            if any(total - s in made for s in range(least, min(top, total) + 1)):
                made.add(total)
        return made

    set_sizes = sizes(t.all_wild_set_ok, t.set_min, t.set_max)
    run_sizes = sizes(t.all_wild_run_ok, t.run_min, RUN_MOST)
    table: dict[tuple[int, int, int, int], tuple[int, _Leftover]] = {}
    for b in range(h.n_any + 1):
        left_any = cost_any[h.n_any - b :]  # the cheapest b
        for g in range(h.n_set + 1):
            for q in range(h.n_run + 1):
                for d in (0, 1):
                    best: tuple[int, _Leftover] = (INF, _NO_LEFTOVER)
                    for xs in range(b + 1):
                        for gs in range(g + 1):
                            if xs + gs not in set_sizes:
                                continue
                            for xr in range(b - xs + 1):
                                for qs in range(q + 1):
                                    if xr + qs not in run_sizes:
                                        continue
                                    rest_any = left_any[xs + xr :]
                                    rest_set = cost_set[: g - gs]
                                    rest_run = cost_run[: q - qs]
                                    pool = sorted(
                                        [(-v, 0) for v in rest_any]
                                        + [(-v, 1) for v in rest_set]
                                        + [(-v, 2) for v in rest_run]
                                    )
                                    drop: tuple[int, ...] = ()
                                    if not d:
                                        if not pool:
                                            continue
                                        drop = (pool[0][1],)
                                        pool = pool[1:]
                                    total = -sum(v for v, _ in pool)
                                    if total < best[0]:
                                        best = (total, (xs, gs, xr, qs, drop))
                    table[(b, g, q, d)] = best
    return table


# --------------------------------------------------------------------------------------
# Turning the search's moves into melds


def _layout(
    h: _Hand, moves: list[_Move], fin: _Leftover
) -> tuple[list[Meld], list[Card], Card | None]:
    """Melds, deadwood and the discard (if any) described by one best walk."""
    deadwood: list[Card] = list(h.fixed_dead)
    melds: list[Meld] = [Meld("single", (c,), (c,)) for c in h.singles]
    discard: Card | None = None
    converted: list[Card] = []
    wanted: list[tuple[int, int, int]] = []
    for move in moves:
        kind = move[0]
        if kind == "dead":
            deadwood.append(h.slots[move[1]])
        elif kind == "discard":
            discard = h.slots[move[1]]
        elif kind == "wild":
            converted.append(h.slots[move[1]])
        else:
            wanted.append((move[1], move[2], move[3]))
    xs, gs, xr, qs, drop = fin
    any_slots = sum(k for _, k, _ in wanted)
    n_pure_used = any_slots - len(converted)
    pure_used = h.pure_any[:n_pure_used]
    left_any = h.pure_any[n_pure_used:]  # cheapest last
    set_used = sum(u for tid, _, u in wanted if h.templates[tid].kind == "set")
    run_used = sum(u for tid, _, u in wanted if h.templates[tid].kind == "run")
    set_pool = list(h.pure_set[:set_used])
    run_pool = list(h.pure_run[:run_used])
    any_pool = sorted(converted + pure_used)
    for tid, k, use in wanted:
        tpl = h.templates[tid]
        if tpl.kind == "set":
            wilds = any_pool[:k] + set_pool[:use]
            del any_pool[:k], set_pool[:use]
            melds.append(build_set(tpl.number, list(tpl.naturals), wilds))
        else:
            wilds = any_pool[:k] + run_pool[:use]
            del any_pool[:k], run_pool[:use]
            melds.append(build_run(tpl.suit, tpl.number, dict(tpl.by_place), wilds))
    rest_set = h.pure_set[set_used:]
    rest_run = h.pure_run[run_used:]
    # Leftover wild cards: some go into all-wild melds (dearest first), one may be discarded.
    all_set = left_any[:xs] + rest_set[:gs]
    all_run = left_any[xs : xs + xr] + rest_run[:qs]
    _add_all_wild(melds, "set", all_set, h.t)
    _add_all_wild(melds, "run", all_run, h.t)
    rest = left_any[xs + xr :] + rest_set[gs:] + rest_run[qs:]
    if drop:
        rest.sort(key=lambda c: (-h.cost[c.index], c.index))
        discard = rest.pop(0)
    deadwood.extend(rest)
    return melds, deadwood, discard


def _add_all_wild(melds: list[Meld], kind: str, cards: list[Card], t: RuleTables) -> None:
    if not cards:
        return
    least = t.set_min if kind == "set" else t.run_min
    most = (t.set_max or 99) if kind == "set" else RUN_MOST
    cards = sorted(cards)
    while cards:
        # Split into pieces of allowed size (the table only chose totals that split).
        size = min(len(cards), most)
        if 0 < len(cards) - size < least:
            size = len(cards) - least
        piece, cards = cards[:size], cards[size:]
        melds.append(Meld("set" if kind == "set" else "run", tuple(piece), (None,) * size))


def _meld_key(m: Meld) -> tuple[int, ...]:
    return tuple(sorted(c.index for c in m.cards))


def _solve(
    hand: tuple[Card, ...], t: RuleTables, cost: tuple[int, ...], discard: bool
) -> tuple[int, list[Meld], list[Card], Card | None, _Hand]:
    h = _Hand(hand, t, cost, discard)
    total, moves, fin = h.walk(0 if discard else 1)
    melds, deadwood, dropped = _layout(h, moves, fin)
    total += sum(cost[c.index] for c in h.fixed_dead)
    melds.sort(key=_meld_key)
    deadwood.sort()
    return total, melds, deadwood, dropped, h


# --------------------------------------------------------------------------------------
# Public functions


def evaluate(hand: CardsLike, rules: RulesLike = "denexa", dealt: int | None = None) -> Evaluation:
    """The best layout of ``hand``: fewest penalty points, exact; the same for any card order.

    >>> ev = evaluate("5H 6H 7H 7H 7S JK", rules="denexa", dealt=7)
    >>> ev.deadwood_points, ev.deadwood
    (0, ())
    >>> print(evaluate("KS KD 2H 9C", rules="denexa", dealt=5))
    [KS 2H(KH) KD]; deadwood 9C = 10
    """
    t = tables_for(rules, dealt)
    cards = hand_cards(hand, t)
    total, melds, deadwood, _, _ = _solve(cards, t, t.points, False)
    return Evaluation(
        tuple(sorted(cards)), tuple(melds), tuple(deadwood), total, t.rules, t.dealt
    )


def _all_melded(cards: tuple[Card, ...], t: RuleTables) -> bool:
    if any(c.index in t.never for c in cards):
        return False
    h = _Hand(cards, t, t.unit_points, False)
    return h.walk(1)[0] == 0 if h.state0 or h.n_any or h.n_set or h.n_run else True


def can_go_out(hand: CardsLike, rules: RulesLike = "denexa", dealt: int | None = None) -> GoOut:
    """Whether a hand just after drawing may go out, and every discard that lets it.

    Pay Me hands hold ``dealt + 1`` cards.  ``discards`` lists each distinct card whose
    discard leaves every other card in melds, in canonical order, and ``None`` when the
    whole hand melds and the rule set lets a player go out without discarding.  Rummy
    3-Pack: at most one card may be left unmelded and it may not be NOGO; ``discards`` holds
    that card, or ``None`` when none is left.

    >>> can_go_out("5H 6H 7H 9C 9S 9D 2C 4D", rules="denexa", dealt=7)
    GoOut(ok=True, discards=(Card('4D'),))
    >>> can_go_out("5H 6H 7H 9C", rules="classic", dealt=3)
    GoOut(ok=True, discards=(Card('9C'),))
    >>> can_go_out("5H 6H 7H 8H", rules="family", dealt=3)
    GoOut(ok=True, discards=(Card('5H'), Card('8H')))
    """
    t = tables_for(rules, dealt)
    cards = hand_cards(hand, t)
    r = t.rules
    mode = r.going_out
    if mode != "one_unmelded":
        assert t.dealt is not None
        if len(cards) != t.dealt + 1:
            raise ValueError(
                f"going out is judged on a hand of dealt + 1 = {t.dealt + 1} cards "
                f"(just after drawing), not {len(cards)}"
            )
        barred = set(r.never_discarded)
    else:
        barred = set(r.never_left_over)
    found: list[Card | None] = []
    if mode in ("discard_optional", "one_unmelded") and _all_melded(cards, t):
        found.append(None)
    for c in sorted(set(cards)):
        if c.token in barred:
            continue
        rest = list(cards)
        rest.remove(c)
        if _all_melded(tuple(rest), t):
            found.append(c)
    return GoOut(bool(found), tuple(found))


def best_discard(
    hand: CardsLike, rules: RulesLike = "denexa", dealt: int | None = None
) -> Discard:
    """The discard leaving the fewest deadwood points, weighing every discard in one search.

    Ties go to the card that comes first in the search's deterministic order.  Cards the
    rule set forbids discarding are never chosen.

    >>> card, ev = best_discard("5H 6H 7H 8H KC 3S", rules="denexa", dealt=9)
    >>> card, ev.deadwood_points
    (Card('KC'), 5)
    """
    t = tables_for(rules, dealt)
    cards = hand_cards(hand, t)
    barred = set(t.rules.never_discarded)
    if not any(c.token not in barred for c in cards):
        raise ValueError("this hand holds no card that may be discarded")
    options: list[tuple[int, int, Card, Evaluation | None]] = []
    total, melds, deadwood, dropped, _h = _solve(cards, t, t.points, True)
    if dropped is not None and total < INF:
        kept = list(cards)
        kept.remove(dropped)
        ev = Evaluation(
            tuple(sorted(kept)), tuple(melds), tuple(deadwood), total, t.rules, t.dealt
        )
        options.append((total, 0, dropped, ev))
    # Cards outside the search (never melded, or melds by themselves) may be thrown too.
    base: int | None = None
    for c in sorted(set(cards)):
        if c.token in barred or not (c.index in t.never or c.index in t.single):
            continue
        if base is None:
            base = _solve(cards, t, t.points, False)[0]
        saved = t.points[c.index] if c.index in t.never else 0
        options.append((base - saved, 1, c, None))
    if not options:
        raise ValueError("this hand holds no card that may be discarded")
    options.sort(key=lambda o: (o[0], o[1], o[2]))
    _, _, card, best = options[0]
    if best is None:
        rest = list(cards)
        rest.remove(card)
        best = evaluate(tuple(rest), t.rules, t.dealt)
    return Discard(card, best)


sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

__all__ = ["Discard", "Evaluation", "GoOut", "best_discard", "can_go_out", "evaluate"]
