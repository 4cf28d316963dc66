"""The declarer's arrangement: the melds a player lays down when going out.

RULES.md lets the declarer choose the arrangement — which cards form which meld and, in a
run, which card each wild card stands for — and the choice stands when every meld is valid.
It matters for lay-offs: ``JK 5H 6H`` (the joker as 4♥) takes an opponent's 7♥, while
``5H 6H JK`` (the joker as 7♥) does not.

* :func:`check_arrangement` checks a proposed grouping against the cards kept, with one
  reason per meld (each meld is read by :func:`payme.melds.check_declared_meld`: a run is
  listed from low to high, so the order says where a wild card sits).
* :func:`arrangements` lists ways to lay the cards out, the engine's best layout first.
* :func:`lay_off_spots` counts the cards an opponent could lay off onto an arrangement, and
  :func:`tightest_arrangement` picks the arrangement that leaves the fewest.

>>> check = check_arrangement(["JK 5H 6H", "9C 9D 9S"], "5H 6H JK 9S 9D 9C", "family", 9)
>>> check.ok, [str(m) for m in check.melds]
(True, ['JK(4H) 5H 6H', '9S 9D 9C'])
>>> check_arrangement(["5H 6H", "JK 9C 9D 9S"], "5H 6H JK 9S 9D 9C", "family", 9).reason
'Meld 1 (5H 6H) is not valid: A meld needs at least 3 cards, but this has 2.'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations, product

from payme.cards import CARDS, N_REGULAR, Card, CardsLike, format_hand
from payme.codes import melds_code, melds_of, table_for
from payme.game.actions import IllegalAction, Verdict
from payme.game.evaluation import deadwood
from payme.layoff import fitting_mask
from payme.melds import (
    Meld,
    MeldCheck,
    RuleTables,
    check_declared_meld,
    hand_cards,
    interpret,
    run_variants,
    tables_for,
)
from payme.rulesets import RulesLike

ARRANGEMENT_LIMIT = 64
"""How many arrangements :func:`arrangements` lists at most by default."""
_WORK_LIMIT = 20_000
"""Candidate melds tried at most while listing arrangements (a 13-card hand full of wild
cards has very many; the list is a choice for a player, not a census)."""


@dataclass(frozen=True)
class ArrangementCheck:
    """The verdict on a proposed arrangement: ``ok``, one sentence of ``reason``, one
    :class:`~payme.melds.MeldCheck` per group in ``checks``, and the valid ``melds``.

    ``unplaced`` are kept cards in no group; ``extra`` are cards grouped that are not among
    the cards kept (or more copies than kept).
    """

    ok: bool
    reason: str
    melds: tuple[Meld, ...]
    checks: tuple[MeldCheck, ...]
    unplaced: tuple[Card, ...] = ()
    extra: tuple[Card, ...] = ()

    def __bool__(self) -> bool:
        return self.ok


def check_arrangement(
    groups: Iterable[Meld | CardsLike],
    cards: CardsLike,
    rules: RulesLike = "denexa",
    dealt: int | None = None,
) -> ArrangementCheck:
    """Whether ``groups`` lay out exactly ``cards`` (the cards kept when going out) in
    valid melds, each meld with its reason.

    Going out needs every card kept in a meld (RULES.md: all of them, or all but one
    discard), so a card left over or a card that is not held is refused, as is an invalid
    meld; the arrangement need not be the best one.

    >>> check_arrangement(["5H 6H JK", "9S 9D 9C"], "5H 6H JK 9S 9D 9C 2C", "family", 9).reason
    '2C is in no meld: going out needs every card kept in a meld.'
    >>> check_arrangement(["5H 6H 7H"], "5H 6H JK", "family", 9).reason
    '7H is in a meld but not among the cards kept.'
    """
    t = tables_for(rules, dealt)
    kept = Counter(hand_cards(cards, t))
    checks: list[MeldCheck] = []
    used: Counter[Card] = Counter()
    reason = ""
    for number, group in enumerate(groups, 1):
        check = check_declared_meld(group, t.rules, t.dealt)
        checks.append(check)
        used.update(group.cards if isinstance(group, Meld) else hand_cards(group, t))
        if not check.ok and not reason:
            shown = str(group) if isinstance(group, Meld) else format_hand(hand_cards(group, t))
            reason = f"Meld {number} ({shown}) is not valid: {check.reason}"
    extra = tuple(sorted((used - kept).elements()))
    unplaced = tuple(sorted((kept - used).elements()))
    if not reason and extra:
        reason = f"{format_hand(extra)} {_is_are(extra)} in a meld but not among the cards kept."
    if not reason and unplaced:
        reason = (
            f"{format_hand(unplaced)} {_is_are(unplaced)} in no meld: going out needs every "
            "card kept in a meld."
        )
    melds = tuple(c.meld for c in checks if c.meld is not None)
    ok = not reason
    if ok:
        reason = "Every card kept is in a valid meld."
    return ArrangementCheck(ok, reason, melds, tuple(checks), unplaced, extra)


def _is_are(cards: tuple[Card, ...]) -> str:
    return "is" if len(cards) == 1 else "are"


def declared_melds(
    groups: Iterable[Meld | CardsLike],
    cards: CardsLike,
    rules: RulesLike = "denexa",
    dealt: int | None = None,
) -> tuple[Meld, ...]:
    """The melds of a valid arrangement of ``cards``; a ``ValueError`` with the reason if not.

    >>> declared_melds(["JK 5H 6H"], "5H 6H JK", "family", 9)
    (Meld('run', 'JK(4H) 5H 6H'),)
    """
    check = check_arrangement(groups, cards, rules, dealt)
    if not check.ok:
        raise ValueError(check.reason)
    return check.melds


RULE_DECLARE = "going out: the declarer lays out the melds"


def declare(
    groups: Iterable[Meld | CardsLike] | None, rules: RulesLike = "denexa", dealt: int | None = None
) -> tuple[Meld, ...] | None:
    """A declarer's arrangement as melds, for :class:`~payme.game.actions.GoOut`: each group
    a :class:`~payme.melds.Meld` or its cards listed in place order (``"JK 5H 6H"``: the
    joker as 4♥).  ``None`` stays ``None`` (the engine's layout).  A group that is no valid
    meld raises :class:`~payme.game.actions.IllegalAction` with the reason.

    >>> declare(["JK 5H 6H", "9S 9D 9C"], "family", 12)
    (Meld('run', 'JK(4H) 5H 6H'), Meld('set', '9S 9D 9C'))
    >>> declare(["5H 7H JK"], "family", 12)
    Traceback (most recent call last):
    ...
    payme.game.actions.IllegalAction: Meld 1 (5H 7H JK) is not valid: 5H 7H JK is not a run listed from low to high: each card must stand for the card of its place.
    """  # noqa: E501
    if groups is None:
        return None
    if isinstance(groups, str | Meld):
        raise IllegalAction(
            "The declared melds are a list of melds, e.g. ['JK 5H 6H', '9S 9D 9C'].", RULE_DECLARE
        )
    t = tables_for(rules, dealt)
    melds: list[Meld] = []
    for number, group in enumerate(groups, 1):
        try:
            check = check_declared_meld(group, t.rules, t.dealt)
        except (ValueError, TypeError) as err:
            raise IllegalAction(f"Meld {number}: {err}", RULE_DECLARE) from None
        if check.meld is None:
            shown = format_hand(hand_cards(group, t)) if not isinstance(group, Meld) else group
            raise IllegalAction(
                f"Meld {number} ({shown}) is not valid: {check.reason}", RULE_DECLARE
            )
        melds.append(check.meld)
    return tuple(melds)


def declared_verdict(
    melds: object,
    hand: Iterable[Card],
    left_over: Card | None,
    rules: RulesLike,
    dealt: int | None,
) -> Verdict:
    """Whether ``melds`` (a :class:`~payme.game.actions.GoOut`'s arrangement) lay out exactly
    the cards of ``hand`` but ``left_over`` in valid melds; the reason when not."""
    if not isinstance(melds, tuple) or not all(isinstance(m, Meld) for m in melds):
        return Verdict(
            False, "The declared melds must be a tuple of Meld objects (see declare).", RULE_DECLARE
        )
    kept = list(hand)
    if left_over is not None:
        kept.remove(left_over)
    check = check_arrangement(melds, tuple(kept), rules, dealt)
    return Verdict(True) if check.ok else Verdict(False, check.reason, RULE_DECLARE)


def _key(melds: Iterable[Meld]) -> tuple[tuple[object, ...], ...]:
    return tuple(sorted((m.kind, m.cards, m.stands_for) for m in melds))


def _meld_variants(group: tuple[int, ...], t: RuleTables) -> tuple[Meld, ...]:
    """The melds the cards of ``group`` (card indices) make: the set or run :func:`interpret`
    reads, and every other placement of a run's wild cards.  Remembered (bounded): the
    arrangements of a hand's cards, and of the same hand less each discard, meet the same
    groups again and again."""
    table = table_for(_VARIANTS, t)
    key = bytes(group)
    known = table.get(key)
    if known is not None:
        return melds_of(known)
    cards = tuple(CARDS[i] for i in group)
    found: list[Meld] = []
    meld, _ = interpret(cards, t)
    if meld is not None:
        found.append(meld)
    for run in run_variants(tuple(sorted(cards)), t):
        if meld is None or run.stands_for != meld.stands_for or run.kind != meld.kind:
            found.append(run)
    if len(table) >= _REMEMBERED:
        table.clear()
    table[key] = melds_code(found)
    return tuple(found)


_REMEMBERED = 1 << 15
_VARIANTS: dict[RuleTables, dict[bytes, bytes]] = {}
"""The codes of each group's melds (:mod:`payme.codes`: kept as Meld objects, they were a
large part of what every full garbage collection walked), by rule tables, then by the
group's cards."""

# The search below lists groups of card indices (ints hash and compare in C; a card's order
# is its index's), and turns them into Meld objects only as melds are chosen.


def _subsets(cards: list[int], sizes: range) -> Iterator[tuple[int, ...]]:
    """Distinct sub-multisets of ``cards`` (sorted card indices) of the given sizes."""
    for size in sizes:
        seen: set[tuple[int, ...]] = set()
        for group in combinations(cards, size):
            if group not in seen:
                seen.add(group)
                yield group


def _groups_with(first: int, rest: list[int], t: RuleTables) -> Iterator[tuple[int, ...]]:
    """The other cards of each meld the card ``first`` could head, taken from ``rest``
    (card indices, sorted).

    ``first`` is the first card left in canonical order that stands for itself, when there
    is one: then a set's partners share its rank (or are wild) and a run's naturals lie
    above it in its suit (the cards before it in canonical order are placed already).
    """
    scope = t.scope
    if scope[first] is not None or first >= N_REGULAR:
        yield from _subsets(rest, range(min(t.set_min, t.run_min) - 1, len(rest) + 1))
        return
    set_wilds = [c for c in rest if scope[c] in ("any", "set")]
    wilds = [c for c in rest if scope[c] in ("any", "run")]  # sorted, as ``rest`` is
    regular = [c for c in rest if c < N_REGULAR and scope[c] is None]
    same_rank = [c for c in regular if c % 13 == first % 13]
    most = len(rest) if t.set_max is None else t.set_max - 1
    pool = sorted(same_rank + set_wilds)
    yield from _subsets(pool, range(t.set_min - 1, min(most, len(pool)) + 1))
    # Runs: each window of places from ``first``'s rank down by at most the wild cards; a
    # place is its natural card or a wild.  Only a natural above ``first`` may take its place
    # (a natural below it is placed already), so the choices are which of those naturals a
    # window takes, the last place varying fastest; every other place is a wild card.
    suit, rank = first // 13, first % 13 + 1
    naturals: dict[int, int] = {}
    for c in regular:
        if c // 13 == suit:
            naturals.setdefault(c % 13 + 1, c)
            if c % 13 == 0 and t.ace_high:
                naturals.setdefault(14, c)
    top = 14 if t.ace_high else 13
    fills: dict[int, list[tuple[int, ...]]] = {}  # the distinct sets of k wild cards
    done: set[tuple[int, ...]] = set()  # the naturals and -k of each choice listed
    yielded: set[tuple[int, ...]] = set()
    reachable = sum(1 for p in naturals if p > rank)  # naturals a window may take at most
    for n in range(t.run_min, min(13, len(rest) + 1) + 1):
        if n - 1 - reachable > len(wilds):
            break  # no window this long (or longer) has wild cards enough for its gaps
        for low in range(max(1, rank - len(wilds)), rank + 1):
            high = low + n - 1
            if high > top:
                break
            above = [naturals[p] for p in range(rank + 1, high + 1) if p in naturals]
            places = n - 1 if high >= rank else n  # a window below ``first`` has n wilds
            if places - len(above) > len(wilds):
                continue  # even taking every natural, too few wild cards for the rest
            for choice in product((True, False), repeat=len(above)):
                picked = [c for c, taken in zip(above, choice, strict=True) if taken]
                k = places - len(picked)
                if k > len(wilds) or (tried := (*picked, -k)) in done:
                    continue  # too few wild cards, or these groups were all listed already
                done.add(tried)
                fill_k = fills.get(k)
                if fill_k is None:
                    fill_k = fills[k] = list(_subsets(wilds, range(k, k + 1)))
                for fill in fill_k:
                    group = tuple(sorted((*picked, *fill)))
                    if group not in yielded:
                        yielded.add(group)
                        yield group


def arrangements(
    cards: CardsLike,
    rules: RulesLike = "denexa",
    dealt: int | None = None,
    limit: int = ARRANGEMENT_LIMIT,
) -> tuple[tuple[Meld, ...], ...]:
    """Ways to lay out every one of ``cards`` in valid melds, the engine's best layout first.

    The list is a choice of arrangements, at most ``limit`` of them (and never more than a
    fixed amount of search): which cards form which meld, and where a run's wild cards sit.
    Empty when the cards cannot all be melded.

    >>> [[str(m) for m in a] for a in arrangements("5H 6H JK", "family", 9)]
    [['5H 6H JK(7H)'], ['JK(4H) 5H 6H']]
    >>> arrangements("5H 6H 8C", "family", 9)
    ()
    """
    t = tables_for(rules, dealt)
    hand = tuple(sorted(hand_cards(cards, t)))
    return _arrangements(hand, t, limit, _Meldable(hand, t), {})


def going_out_arrangements(
    hand: CardsLike,
    discards: Iterable[Card | str | None],
    rules: RulesLike = "denexa",
    dealt: int | None = None,
    limit: int = ARRANGEMENT_LIMIT,
) -> Iterator[tuple[Card | None, tuple[Meld, ...]]]:
    """``(discard, melds)`` for each of ``discards`` (``None``: no discard) and each of the
    :func:`arrangements` of ``hand`` less that card, in that order: the same lists, with
    one search of the whole hand shared by every discard.

    >>> [(str(d), len(a)) for d, a in going_out_arrangements("5H 6H JK 2C", ["2C"], "family", 9)]
    [('2C', 1), ('2C', 1)]
    """
    t = tables_for(rules, dealt)
    cards = tuple(sorted(hand_cards(hand, t)))
    shared = _Meldable(cards, t)
    groups: dict[bytes, tuple[tuple[int, ...], ...]] = {}  # the same parts meet again
    for each in discards:
        kept = list(cards)
        discard = None if each is None else Card(each)
        if discard is not None:
            if discard not in kept:
                raise ValueError(f"{discard} is not in the hand, so it cannot be the discard.")
            kept.remove(discard)
        # A part of the kept cards is a part of the hand: the hand's search answers for it,
        # unless it had to step aside for cards this discard leaves behind.
        meldable = shared if shared.search is not None else _Meldable(tuple(kept), t)
        for melds in _arrangements(tuple(kept), t, limit, meldable, groups):
            yield discard, melds


def _arrangements(
    hand: tuple[Card, ...],
    t: RuleTables,
    limit: int,
    meldable: _Meldable,
    groups: dict[bytes, tuple[tuple[int, ...], ...]],
) -> tuple[tuple[Meld, ...], ...]:
    """:func:`arrangements` of ``hand`` (sorted cards); ``meldable`` answers for its parts,
    and ``groups`` remembers the groups each first card heads in the cards left."""
    from payme.solver import evaluate

    best = evaluate(hand, t.rules, t.dealt)
    if best.deadwood:
        return ()
    found: list[tuple[Meld, ...]] = [tuple(best.melds)] if best.melds else [()]
    _Search(t, limit, meldable, groups, found, {_key(best.melds)}).place(
        tuple(c.index for c in hand), []
    )
    return tuple(found)


class _Search:
    """The search of :func:`_arrangements`: a class, not a nested function calling itself,
    which would be a reference cycle (holding the hand's whole search) left for the
    garbage collector at every call."""

    __slots__ = ("found", "groups", "limit", "meldable", "scope", "seen", "single", "t", "work")

    def __init__(
        self,
        t: RuleTables,
        limit: int,
        meldable: _Meldable,
        groups: dict[bytes, tuple[tuple[int, ...], ...]],
        found: list[tuple[Meld, ...]],
        seen: set[tuple[tuple[object, ...], ...]],
    ) -> None:
        self.t, self.limit, self.meldable, self.groups = t, limit, meldable, groups
        self.found, self.seen, self.work = found, seen, 0
        self.scope, self.single = t.scope, t.single

    def place(self, left: tuple[int, ...], chosen: list[Meld]) -> None:
        found, limit = self.found, self.limit
        if len(found) >= limit or self.work >= _WORK_LIMIT:
            return
        if not left:
            key = _key(chosen)
            if key not in self.seen:
                self.seen.add(key)
                found.append(tuple(chosen))
            return
        # Place the first card that stands for itself for sure (it narrows the partners
        # to its rank and suit), else the first card.
        scope = self.scope
        first = next((c for c in left if scope[c] is None), left[0])
        rest = list(left)
        rest.remove(first)
        if first in self.single:
            card = CARDS[first]
            chosen.append(Meld("single", (card,), (card,)))
            self.place(tuple(rest), chosen)
            chosen.pop()
            return
        t, groups = self.t, self.groups
        part = bytes([first, *rest])
        heads = groups.get(part)
        if heads is None:
            heads = groups[part] = tuple(_groups_with(first, rest, t))
        for group in heads:
            self.work += 1
            if self.work >= _WORK_LIMIT or len(found) >= limit:
                return
            remaining = list(rest)
            for c in group:
                remaining.remove(c)
            if remaining and not self.meldable.whole(remaining):
                continue  # the rest cannot all be melded: no arrangement this way
            for meld in _meld_variants((first, *group), t):
                chosen.append(meld)
                self.place(tuple(remaining), chosen)
                chosen.pop()


class _Meldable:
    """Whether parts of one hand can be melded whole, each part searched as another start
    of one search of the whole hand (its notes shared between the parts, as the solver
    does for the discards of going out), counting the cards left unmelded."""

    def __init__(self, hand: tuple[Card, ...], t: RuleTables) -> None:
        from payme.solver.search import Search
        from payme.solver.shapes import book_for

        self.t = t
        h = Search(hand, t, t.unit_points, book_for(t))
        # Pure wild cards limited to sets or runs, one-card melds and cards never melded
        # are placed apart from the packed state: parts holding them are evaluated alone.
        self.search = None if h.scoped or h.singles or h.fixed_dead else h
        self.pure = frozenset(c.index for c in h.pure_any)
        self.isolated = frozenset(c.index for c in h.isolated)

    def whole(self, part: list[int]) -> bool:
        """Whether every card of ``part`` (indices of cards of the hand) fits in a meld."""
        h = self.search
        if h is None:
            return not deadwood(tuple(CARDS[i] for i in part), self.t.rules, self.t.dealt or 0)
        # The part's start: its regular cards packed as the whole hand's are, and its pure
        # wild cards as the balance; a card that melds with none of the hand is left over.
        pure, isolated, unit_of = self.pure, self.isolated, h.book.unit_of
        state = wild = 0
        for i in part:
            if i in pure:
                wild += 1
            elif i in isolated:
                return False
            else:
                state += unit_of[i]
        return h.value(state, wild, 1, 1) == 0


def lay_off_spots(
    melds: Iterable[Meld],
    could_hold: Mapping[Card, int],
    rules: RulesLike = "denexa",
    dealt: int | None = None,
) -> int:
    """How many of the cards an opponent ``could_hold`` (card -> copies) fit one of
    ``melds`` by themselves: the lay-off spots an arrangement leaves open.

    >>> from payme.cards import parse_card
    >>> unseen = {parse_card("7H"): 2, parse_card("4H"): 1}
    >>> low, high = arrangements("5H 6H JK", "family", 9)
    >>> lay_off_spots(low, unseen, "family", 9), lay_off_spots(high, unseen, "family", 9)
    (1, 2)
    """
    melds = tuple(melds)
    if not melds or not could_hold:
        return 0
    t = tables_for(rules, dealt)
    fitting = 0
    for meld in melds:
        fitting |= fitting_mask(meld, t)
    if not fitting:
        return 0
    return sum(
        copies for card, copies in could_hold.items() if copies > 0 and fitting >> card.index & 1
    )


def tightest_arrangement(
    cards: CardsLike,
    could_hold: Mapping[Card, int],
    rules: RulesLike = "denexa",
    dealt: int | None = None,
    limit: int = ARRANGEMENT_LIMIT,
) -> tuple[Meld, ...] | None:
    """The arrangement of ``cards`` (from :func:`arrangements`) that leaves the fewest
    lay-off spots for the cards opponents ``could_hold``; the first such in the list on a
    tie, ``None`` when the cards cannot all be melded.

    >>> from payme.cards import parse_card
    >>> tightest_arrangement("5H 6H JK", {parse_card("7H"): 2}, "family", 9)
    (Meld('run', '5H 6H JK(7H)'),)
    """
    options = arrangements(cards, rules, dealt, limit)
    if not options:
        return None
    if not tables_for(rules, dealt).rules.lay_off:
        return options[0]
    return min(options, key=lambda melds: lay_off_spots(melds, could_hold, rules, dealt))


__all__ = [
    "ARRANGEMENT_LIMIT",
    "RULE_DECLARE",
    "ArrangementCheck",
    "arrangements",
    "check_arrangement",
    "declare",
    "declared_melds",
    "declared_verdict",
    "going_out_arrangements",
    "lay_off_spots",
    "tightest_arrangement",
]
