"""Memoised solver answers shared by the game engine and the bots.

Games ask the same questions over and over (the hand a bot keeps after its discard is the
hand it holds at its next draw; the engine and the bot both ask whether a hand can go
out), so the answers are kept, keyed on the hand in canonical order.

>>> from payme.cards import parse_hand
>>> from payme.rulesets import rules
>>> hand = tuple(sorted(parse_hand("5H 6H 7H 9C")))
>>> go_out_discards(hand, rules("classic"), 3)
(Card('9C'),)
>>> best_discard_points(hand, rules("classic"), 3)
(Card('9C'), 0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from payme.cards import CARDS, Card
from payme.codes import melds_code, placements_code, placements_of, points_of, scored_code
from payme.deprecation import renamed
from payme.memo import RecentMemo
from payme.rulesets import Ruleset

Hand = tuple[Card, ...]
"""A hand in canonical (sorted) order."""

# The memos hold only bytes and ints (a hand as its cards' indices, see payme.codes), which
# the garbage collector does not track: hundreds of thousands of remembered hands as tuples
# of cards made each full collection slow, paid by whichever move happened to trigger it.
# Not even tuples of them: a dict into which a new tuple goes is tracked again, and the next
# full collection visits every entry (the times: docs/benchmarks.md, "Measurements behind
# the code's settings").
_layouts: dict[tuple[Ruleset, int], RecentMemo[bytes]] = {}
"""The best layouts, the most recent for each rule set and cards dealt (at most 256 of
them).  A game stores some 1,000-2,000 layouts and reads many more, of its own hands and of
small hands other games held too.  (A dict bounded by clearing it was slower now and then,
inside a decision: see docs/benchmarks.md.)"""
_LAYOUT_SIZE = 1 << 13
_last: list[Any] = [None, None, None]
"""The rule set, cards dealt and table of the last lookup (a rule set hashes slowly)."""


def _layout_table(rules: Ruleset, dealt: int) -> RecentMemo[bytes]:
    if _last[0] is rules and _last[1] == dealt:
        last: RecentMemo[bytes] = _last[2]
        return last
    table = _layouts.get((rules, dealt))
    if table is None:
        if len(_layouts) >= 256:
            _layouts.clear()
        table = _layouts[rules, dealt] = RecentMemo(_LAYOUT_SIZE)
    _last[:] = [rules, dealt, table]
    return table


def layout(hand: Hand, rules: Ruleset, dealt: int) -> tuple[int, Hand]:
    """The fewest deadwood points of a sorted hand and the deadwood of its best layout."""
    known = layout_code(bytes([c.index for c in hand]), rules, dealt, hand)
    return points_of(known), tuple([CARDS[i] for i in known[2:]])


def layout_code(key: bytes, rules: Ruleset, dealt: int, hand: Hand | None = None) -> bytes:
    """:func:`layout` of the sorted hand whose card indices are ``key`` (``hand``, when
    the caller has its cards), as the memo keeps it: ``scored_code(points, deadwood's
    indices)`` (:mod:`payme.codes`), for callers that work by card index."""
    table = _layout_table(rules, dealt)
    known = table.get(key)
    if known is None:
        from payme.solver import evaluate

        ev = evaluate(tuple([CARDS[i] for i in key]) if hand is None else hand, rules, dealt)
        known = scored_code(ev.deadwood_points, bytes([c.index for c in ev.deadwood]))
        table.put(key, known)
    return known


def layout_codes(rules: Ruleset, dealt: int) -> Callable[[bytes], bytes]:
    """:func:`layout_code` for one rule set and cards dealt, its memo looked up once (for
    callers that ask it of many hands in a row)."""
    get = _layout_table(rules, dealt).get

    def code(key: bytes) -> bytes:
        known = get(key)
        return layout_code(key, rules, dealt) if known is None else known

    return code


def layout_codes_with(key: bytes, adds: bytes, rules: Ruleset, dealt: int) -> list[bytes]:
    """:func:`layout_code` of each hand made of the sorted hand whose card indices are
    ``key`` and one card of ``adds`` (card indices), in the order of ``adds``: the hands a
    draw may make, those not remembered searched in the same call
    (``payme.solver.layouts_with_each``, one call of the compiled core)."""
    from payme.solver import layouts_with_each as solve

    return solve(key, adds, rules, dealt, _layout_table(rules, dealt))


def points(hand: Hand, rules: Ruleset, dealt: int) -> int:
    """The fewest deadwood points of a sorted hand (exact, from :func:`payme.solver.evaluate`)."""
    return layout(hand, rules, dealt)[0]


def deadwood(hand: Hand, rules: Ruleset, dealt: int) -> Hand:
    """The deadwood cards of the best layout of a sorted hand."""
    return layout(hand, rules, dealt)[1]


_MAX_ANSWERS = 1 << 13
_discards: dict[tuple[Ruleset, int], dict[bytes, int]] = {}
"""The best discard's index and the points left (``points << 8 | index``), by hand."""
_outs: dict[tuple[Ruleset, int], dict[bytes, bytes]] = {}
_NO_DISCARD = 255
"""Stands for ``None`` (going out without a discard) among the card indices of a go-out memo."""


_recent: dict[int, list[Any]] = {}
"""For each memo (by ``id``): the rule set, cards dealt and table of its last lookup."""


def _table(memo: dict[tuple[Ruleset, int], dict[bytes, Any]], rules: Ruleset, dealt: int) -> Any:
    last = _recent.get(id(memo))
    if last is not None and last[0] is rules and last[1] == dealt:
        table = last[2]
    else:
        table = memo.setdefault((rules, dealt), {})
        _recent[id(memo)] = [rules, dealt, table]
    if len(table) >= _MAX_ANSWERS:
        table.clear()  # bounded: games only revisit recent hands
    return table


def best_discard_points(hand: Hand, rules: Ruleset, dealt: int) -> tuple[Card, int]:
    """The discard leaving the fewest deadwood points, and those points (one search)."""
    # Kept as bytes and ints, like the layouts (see above), not as tuples.
    table = _table(_discards, rules, dealt)
    key = bytes([c.index for c in hand])
    known = table.get(key)
    if known is not None:
        return CARDS[known & 255], known >> 8
    from payme.solver import best_discard as solve

    found = solve(hand, rules, dealt)
    ev = found.evaluation
    rest = bytes(sorted([c.index for c in ev.cards]))
    dead = bytes([c.index for c in ev.deadwood])
    _layout_table(rules, dealt).put(rest, scored_code(ev.deadwood_points, dead))
    table[key] = found.deadwood_points << 8 | found.card.index
    return found.card, found.deadwood_points


def go_out_discards(hand: Hand, rules: Ruleset, dealt: int) -> tuple[Card | None, ...]:
    """Every way a hand of ``dealt + 1`` cards may go out (``None``: without a discard).

    :func:`payme.solver.can_go_out` answers most hands (those that cannot go out) with one
    search that stops as soon as two cards are sure to stay unmelded.
    """
    table = _table(_outs, rules, dealt)
    key = bytes([c.index for c in hand])
    known = table.get(key)
    if known is None:
        from payme.solver import can_go_out

        out = can_go_out(hand, rules, dealt)
        found = tuple(out.discards) if out.ok else ()
        table[key] = bytes([_NO_DISCARD if c is None else c.index for c in found])
        return found
    return tuple([None if i == _NO_DISCARD else CARDS[i] for i in known])


def discard_points(hand: Hand, rules: Ruleset, dealt: int) -> tuple[tuple[Card, int], ...]:
    """Each distinct discard of a sorted hand and the deadwood points of what is left."""
    out = []
    for i, card in enumerate(hand):
        if i and hand[i - 1] == card:
            continue
        out.append((card, points(hand[:i] + hand[i + 1 :], rules, dealt)))
    return tuple(out)


_lay_offs: dict[tuple[Ruleset, int], dict[bytes, bytes]] = {}


def best_lay_off_points(
    hand: Hand, melds: tuple[Any, ...], rules: Ruleset, dealt: int
) -> tuple[int, tuple[tuple[int, tuple[Card, ...]], ...]]:
    """The fewest points a sorted hand reaches with its own melds and lay-offs onto the
    declarer's ``melds`` (:class:`payme.melds.Meld` objects), and the lay-offs that do it."""
    # Kept as codes (payme.codes), like the layouts: the hands and Meld objects of its
    # keys, held as objects, were the largest part of what a full collection walked.
    table = _table(_lay_offs, rules, dealt)
    key = bytes([c.index for c in hand]) + melds_code(melds)
    known = table.get(key)
    if known is None:
        from payme.layoff import best_placements

        # The hand's own best layout is known by now (the hands were scored when shown).
        found = best_placements(hand, melds, rules, dealt, layout(hand, rules, dealt))
        table[key] = scored_code(found[0], placements_code(found[1]))
        return found
    return points_of(known), placements_of(known[2:])


def may_fit(card: Card, meld: Any, rules: Ruleset, dealt: int) -> bool:
    """A quick test that ``card`` could possibly be laid off onto ``meld`` (never a false
    no; :func:`payme.layoff.grow_meld` gives the exact answer)."""
    if rules.is_wild(card, dealt):
        return True
    if meld.kind == "set":
        rank = meld.rank
        return rank is None or card.rank == rank
    if meld.kind == "run":
        suit, low, high = meld.suit, meld.low, meld.high
        if suit is None or low is None or high is None or card.suit != suit:
            return suit is None
        rank = card.rank
        assert rank is not None
        return rank in (low - 1, high + 1) or (rank == 1 and high + 1 == 14)
    return False


def clear() -> None:
    """Forget every remembered answer."""
    _layouts.clear()
    _last[:] = [None, None, None]
    _discards.clear()
    _outs.clear()
    _lay_offs.clear()
    _recent.clear()


__all__ = [
    "best_discard_points",
    "best_lay_off_points",
    "clear",
    "deadwood",
    "discard_points",
    "go_out_discards",
    "layout",
    "layout_code",
    "layout_codes",
    "layout_codes_with",
    "may_fit",
    "points",
]

# Names this module had before each name got one meaning (kept for one release).
__getattr__ = renamed(
    __name__,
    {
        "best_discard": "payme.game.evaluation:best_discard_points",
        "best_lay_off": "payme.game.evaluation:best_lay_off_points",
    },
)
