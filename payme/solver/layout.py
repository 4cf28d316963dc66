"""Turning one best layout the search found into melds (with stand-ins), deadwood and a discard."""

from __future__ import annotations

from bisect import bisect_right
from operator import attrgetter
from typing import Final

from payme.cards import CARDS, N_REGULAR, SUITS, Card
from payme.codes import CARD_OF, hand_code, meld_code, meld_of, stands_code
from payme.deprecation import renamed
from payme.melds import (
    RUN_MOST,
    Meld,
    RuleTables,
    build_run,
    build_set,
    fixed_meld_problem,
    new_meld,
)
from payme.solver.search import Path, Search
from payme.solver.shapes import Template


def path_layout(h: Search, path: Path) -> tuple[list[Meld], list[Card], Card | None]:
    """Melds, deadwood and the discard (if any) of one best layout the search found.

    The wild cards a meld needs are dealt out in a fixed order: wild cards of a rank that the
    search chose to play as wild, then the dearest pure wild cards; the cheapest pure wild
    cards are the ones left over.
    """
    _, dead, converted, wanted, discard, fin, any_slots, set_used, run_used = path
    deadwood: list[Card] = [*h.fixed_dead, *h.isolated, *dead]
    melds: list[Meld] = [Meld("single", (c,), (c,)) for c in h.singles] if h.singles else []
    pure = h.pure
    n_pure_used = any_slots - len(converted)
    any_pool = converted + h.pure_any[:n_pure_used] if pure else converted
    if len(any_pool) > 1:
        any_pool.sort(key=_index)
    if not (set_used or run_used):
        for tpl, k, _ in wanted:
            if k:
                wilds = any_pool[:k]
                del any_pool[:k]
                melds.append(_build(tpl, wilds))
            else:
                melds.append(_build(tpl, _NO_CARDS))
    else:
        set_pool = h.pure_set[:set_used]
        run_pool = h.pure_run[:run_used]
        for tpl, k, use in wanted:
            if tpl[0] == "set":
                wilds = any_pool[:k] + set_pool[:use] if use else any_pool[:k]
                del any_pool[:k], set_pool[:use]
            else:
                wilds = any_pool[:k] + run_pool[:use] if use else any_pool[:k]
                del any_pool[:k], run_pool[:use]
            melds.append(_build(tpl, wilds))
    if pure:
        left_any = h.pure_any[n_pure_used:]
        rest_set = h.pure_set[set_used:]
        rest_run = h.pure_run[run_used:]
        xs, gs, xr, qs, drop = fin
        # Leftover pure wild cards: the dearest go into all-wild melds, one may be discarded.
        add_all_wild(melds, "set", [*left_any[:xs], *rest_set[:gs]], h.t)
        add_all_wild(melds, "run", [*left_any[xs : xs + xr], *rest_run[:qs]], h.t)
        rest = [*left_any[xs + xr :], *rest_set[gs:], *rest_run[qs:]]
        if drop:
            rest.sort(key=lambda c: (-h.cost[c.index], c.index))
            discard = rest.pop(0)
        deadwood.extend(rest)
    if len(melds) > 1:
        melds = finish_melds(melds, h.t)
    deadwood.sort(key=_index)
    return melds, deadwood, discard


_NO_CARDS: Final[list[Card]] = []


def finish_melds(melds: list[Meld], t: RuleTables) -> list[Meld]:
    """The melds of a layout as shown: runs that meet joined, low card first."""
    melds = _join_runs(melds, t)
    melds.sort(key=_meld_key)
    return melds


def _build(tpl: Template, wilds: list[Card]) -> Meld:
    """The meld of a candidate with these wild cards (as build_set and build_run make it).

    Which wild card fills a slot changes from hand to hand (a joker here, a wild rank
    there, and the wild rank changes with the round), but where the slots are and what
    they stand for depend only on the candidate and how many wild cards it takes: that is
    worked out once per candidate and kept (see _recipe), and each new set of wild cards
    only drops them into their slots.  A candidate without wild cards is one fixed meld,
    kept whole.
    """
    k = len(wilds)
    # Keyed by the template's identity (hashing the nested tuple costs more than building
    # the meld); the entry holds the template, so its id stays its own while kept.
    hit = _RECIPES.get((id(tpl), k))
    if hit is None or hit[0] is not tpl:
        if len(_RECIPES) > 50_000:
            _RECIPES.clear()
        hit = _RECIPES[(id(tpl), k)] = (tpl, _recipe(tpl, k))
    kind, naturals, at, stand_ins, whole = hit[1]
    if whole is not None:
        return meld_of(whole)
    if k > 1:
        wilds = sorted(wilds, key=_index)
    cards = [CARDS[i] for i in naturals]
    if kind == "run":
        # The wild cards fill the gaps of the run low to high, lowest card first.
        for slot, w in zip(at, wilds, strict=True):
            cards[slot] = w
        return new_meld("run", tuple(cards), tuple([CARD_OF[i] for i in stand_ins]))
    # A set is in canonical order: each wild card goes after the natural cards with an
    # index up to its own (a natural card first on a tie) and after the wild cards before
    # it (lower or equal index).
    stands: list[Card | None] = list(cards)
    for i, w in enumerate(wilds):
        slot = bisect_right(at, w.index) + i
        cards.insert(slot, w)
        stands.insert(slot, CARD_OF[stand_ins[i]])
    return new_meld("set", tuple(cards), tuple(stands))


_Recipe = tuple[str, bytes, tuple[int, ...], bytes, bytes | None]
"""How to make a candidate's meld with ``k`` wild cards: its kind and natural cards; for a
run its gap places (indexes into the run) and every card's stand-in, for a set its natural
cards' indexes and what the ``i``-th wild card (lowest first) stands for; and with no wild
cards the meld itself.  Cards are indices and melds codes (:mod:`payme.codes`): as Card
and Meld objects, thousands of recipes were walked by every full garbage collection."""

_RECIPES: dict[tuple[int, int], tuple[Template, _Recipe]] = {}


def _recipe(tpl: Template, k: int) -> _Recipe:
    """The :data:`_Recipe` of a candidate with ``k`` wild cards, from a model meld built
    with ``k`` placeholder wild cards by build_set or build_run themselves."""
    kind, number, shape = tpl
    # Jokers as placeholders: the slots they take (run) or their stand-ins (set, where
    # they sort after every natural card) are read off the model meld.
    joker = CARDS[52]
    if kind == "set":
        copies = shape[0]
        naturals = [CARDS[s * 13 + number - 1] for s in range(4) for _ in range(copies[s])]
        model = build_set(number, naturals, [joker] * k)
        stand_ins = stands_code(
            s for c, s in zip(model.cards, model.stands_for, strict=True) if c is joker
        )
        whole = meld_code(model) if not k else None
        indices = tuple(c.index for c in naturals)
        return "set", bytes(indices), indices, stand_ins, whole
    ranks, places, _, _, low = shape  # type: ignore[misc]
    by_place = {p: CARDS[number * 13 + r - 1] for r, p in zip(ranks, places, strict=True)}
    model = build_run(SUITS[number], low, by_place, [joker] * k)
    gaps = tuple(i for i, c in enumerate(model.cards) if c.index >= N_REGULAR)
    stands = stands_code(model.stands_for)
    return "run", hand_code(model.cards), gaps, stands, meld_code(model) if not k else None


def _join_runs(melds: list[Meld], t: RuleTables) -> list[Meld]:
    """Runs of one suit that meet end to end, joined where the longer run is valid.

    The search lists only runs that cannot be cut in two, so a long run comes out in
    pieces; a player expects 5H-TH as one run, not 5H-7H and 8H-TH.
    """
    # Each run's suit letter and lowest place, read once (Meld's properties are slow).
    runs: list[tuple[str, int, Meld]] = []
    others: list[Meld] = []
    for m in melds:
        first = m.stands_for[0]
        if m.kind == "run" and first is not None:
            i = first.index
            runs.append((SUITS[i // 13], i % 13 + 1, m))
        else:
            others.append(m)
    if len(runs) < 2:
        return melds
    runs.sort(key=_suit_and_low)
    suit, low, last = runs[0]
    joined = [last]
    high = low + len(last.cards) - 1
    for m_suit, m_low, m in runs[1:]:
        if m_suit == suit and high + 1 == m_low:
            grown = Meld("run", last.cards + m.cards, last.stands_for + m.stands_for)
            if not fixed_meld_problem(grown, t):
                joined[-1] = last = grown
                high += len(m.cards)
                continue
        joined.append(m)
        suit, last, high = m_suit, m, m_low + len(m.cards) - 1
    return others + joined


def _suit_and_low(run: tuple[str, int, Meld]) -> tuple[str, int]:
    return run[0], run[1]


def add_all_wild(melds: list[Meld], kind: str, cards: list[Card], t: RuleTables) -> None:
    """Meld ``cards`` (wild cards only) as all-wild melds of allowed sizes."""
    if not cards:
        return
    least = t.set_min if kind == "set" else t.run_min
    most = (t.set_max or 99) if kind == "set" else RUN_MOST
    cards = sorted(cards, key=_index)
    while cards:
        # The terminal table only chose totals that split into allowed sizes.
        size = min(len(cards), most)
        if 0 < len(cards) - size < least:
            size = len(cards) - least
        piece, cards = cards[:size], cards[size:]
        melds.append(Meld("set" if kind == "set" else "run", tuple(piece), (None,) * size))


_index: Final = attrgetter("index")  # a card's index, as a sort key (C speed)


def _meld_key(m: Meld) -> int:
    # Melds come out in a fixed order already; this only puts them low card first.
    return min([c.index for c in m.cards])


__getattr__ = renamed("payme.solver.layout", {"layout": "payme.solver.layout:path_layout"})

__all__ = ["add_all_wild", "finish_melds", "path_layout"]
