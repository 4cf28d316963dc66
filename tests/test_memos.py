"""The engine's memos hold nothing the garbage collector walks, and their codes read back
exactly what was stored.

Every full collection walks each tracked object (cards, melds, tuples holding them) and
every entry of each tracked dict.  Memos of Meld objects and hands made the collections
inside the expert bot's decisions take 35-90 ms after a few hundred games; kept as bytes
and ints (payme.codes), their tables are never tracked at all.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payme import codes, layoff
from payme.cards import CARDS, Card
from payme.game import arrangement, evaluation, make_bot, new_game, play_game, three_pack
from payme.melds import Meld, RuleTables, check_meld, tables_for
from payme.memo import RecentMemo
from payme.rulesets import Ruleset, rules
from payme.solver import evaluate
from payme.solver.backend import LAYOFF_CORE
from tests.presets import ALL

solver_layout = sys.modules["payme.solver.layout"]


def _memos() -> dict[str, dict[Any, Any]]:
    """Each memo the games fill, by name: a table per rule set (and round)."""
    return {
        "evaluation._layouts": evaluation._layouts,
        "evaluation._discards": evaluation._discards,
        "evaluation._outs": evaluation._outs,
        "evaluation._lay_offs": evaluation._lay_offs,
        "layoff._GROWN": layoff._GROWN,
        "layoff._FITTING": layoff._FITTING,
        "layoff._CANDIDATE": layoff._CANDIDATE,
        "layoff._CHECKED": layoff._CHECKED,
        "layoff._FREE_COSTS": layoff._FREE_COSTS,
        "layoff._DESCRIBED": layoff._DESCRIBED,
        "arrangement._VARIANTS": arrangement._VARIANTS,
    }


def _below(value: object) -> Iterator[object]:
    """``value`` and everything a table holds, keys and values, all the way down."""
    yield value
    if isinstance(value, RecentMemo):
        yield from _below(value.new)
        yield from _below(value.old)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _below(key)
            yield from _below(item)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from _below(item)


def _is_rule_key(key: object) -> bool:
    """A table's key: the rule tables, or the rule set and cards dealt (few, kept anyway)."""
    if isinstance(key, RuleTables):
        return True
    return (
        isinstance(key, tuple)
        and len(key) == 2
        and isinstance(key[0], Ruleset)
        and isinstance(key[1], int)
    )


@pytest.fixture(scope="module")
def played() -> None:
    """Games of both Pay Me rule sets with lay-offs, every bot that fills the memos seated."""
    evaluation.clear()
    for memo in _memos().values():
        memo.clear()
    for name in ("denexa", "family"):
        for seed in range(2):
            assert play_game(name, 4, ("expert", "strong", "greedy", "greedy"), seed).over
    arrangement.arrangements("5H 6H JK 9S 9D 9C", "family", 5)


def test_games_fill_every_memo(played: None) -> None:
    for name, memo in _memos().items():
        if name == "layoff._DESCRIBED" and LAYOFF_CORE is None:
            continue  # filled for the lay-off core only
        assert memo, name
        assert all(_is_rule_key(key) for key in memo), name
        assert sum(len(table) for table in memo.values()) > 0, name


def test_no_memo_table_is_tracked_by_the_garbage_collector(played: None) -> None:
    # No collection is forced here: a dict holding only bytes and ints is never tracked,
    # while one into which a tuple or a Meld went stays tracked until a full collection.
    for name, memo in _memos().items():
        if name == "layoff._FREE_COSTS":
            continue  # its prices are tuples, by identity (the search's tables key on it)
        if name == "layoff._DESCRIBED":
            continue  # what the lay-off core reads of a meld: tuples of ints (see below)
        tracked = [table for table in memo.values() if _tracked(table)]
        assert not tracked, name


def _tracked(table: object) -> bool:
    """Whether the collector walks a memo table's entries (a RecentMemo: its dicts')."""
    return table.tracked() if isinstance(table, RecentMemo) else gc.is_tracked(table)


def _collect() -> None:
    """Full collections untrack tuples of numbers: one tuple inside another may be looked
    at first, while the inner one is still tracked, and let go at the next."""
    for _ in range(3):
        gc.collect()


def test_memos_hold_no_tracked_object(played: None) -> None:
    _collect()  # the prices above: tuples of numbers
    for name, memo in _memos().items():
        tracked = [
            part
            for table in memo.values()
            for part in _below(table)
            if gc.is_tracked(part) and part is not table and not isinstance(part, RecentMemo)
        ]
        assert not tracked, (name, tracked[:3])


def test_the_solver_recipes_hold_no_tracked_object(played: None) -> None:
    recipes = solver_layout._RECIPES
    assert recipes
    _collect()
    tracked = [part for part in _below(recipes) if gc.is_tracked(part) and part is not recipes]
    assert not tracked, tracked[:3]


def test_the_rummy_3_pack_memo_is_not_tracked() -> None:
    three_pack._caches.clear()
    for seed in range(2):
        assert play_game("three_pack", 3, ("expert", "strong", "greedy"), seed, dealt=7).over
    tables = [table for _, table in three_pack._caches.values()]
    assert sum(map(len, tables)) > 100
    assert not any(table.tracked() for table in tables)


def test_the_rummy_3_pack_experts_values_are_not_tracked() -> None:
    """The expert's memo of weighed hands (up to 50,000 entries a game) holds bytes keys."""
    game = new_game("three_pack", 3, 5, dealt=7)
    expert = make_bot("expert", "three_pack", 5)
    while not game.over and game.to_move is not None:
        action = expert.choose(game.view(game.to_move), game.legal_actions())
        game.apply(action)
    assert len(expert._values) > 100
    assert not expert._values.tracked()


def test_melds_known_by_identity_are_few(played: None) -> None:
    assert 0 < len(layoff._LAST_FITTING) <= layoff._LAST_MOST
    assert 0 < len(layoff._LAST_CANDIDATE) <= layoff._LAST_MOST
    assert 0 < len(layoff._LAST_CHECKED) <= layoff._LAST_MOST
    assert len(layoff._LAST_DESCRIBED) <= layoff._LAST_MOST


# --------------------------------------------------------------------------------------
# The codes read back what was stored


def _hand(draw: st.DrawFn, name: str, size: int) -> tuple[Card, ...]:
    pack = [c for c, n in zip(CARDS, rules(name).pack_counts(4), strict=True) for _ in range(n)]
    return tuple(sorted(draw(st.permutations(pack))[:size]))


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(ALL))
def test_melds_read_back_from_their_codes(data: st.DataObject, name: str) -> None:
    dealt = data.draw(st.integers(3, 13)) if name != "three_pack" else 7
    hand = _hand(data.draw, name, data.draw(st.integers(1, dealt + 1)))
    melds = tuple(evaluate(hand, name, dealt).melds)
    back = codes.melds_of(codes.melds_code(melds))
    assert back == melds
    for meld, again in zip(melds, back, strict=True):
        assert codes.meld_of(codes.meld_code(meld)) == meld
        # A natural card plays as itself, as the engine's own melds have it (``s is c``).
        assert [s is c for c, s in zip(meld.cards, meld.stands_for, strict=True)] == [
            s is c for c, s in zip(again.cards, again.stands_for, strict=True)
        ]
    assert codes.cards_of(codes.hand_code(hand)) == hand


def test_a_meld_of_wild_cards_only_reads_back_with_nothing_stood_for() -> None:
    meld = check_meld("JK JK JK", rules="family", dealt=5).meld
    assert meld is not None and meld.all_wild
    assert codes.meld_of(codes.meld_code(meld)) == meld == Meld("set", "JK(?) JK(?) JK(?)")


@given(
    st.integers(0, 65_535),
    st.lists(
        st.tuples(st.integers(0, 30), st.lists(st.sampled_from(CARDS), max_size=13)),
        max_size=8,
    ),
)
def test_points_and_lay_offs_read_back_from_their_codes(
    points: int, placed: list[tuple[int, list[Card]]]
) -> None:
    code = codes.scored_code(points, codes.placements_code(placed))
    assert codes.points_of(code) == points
    assert codes.placements_of(code[2:]) == tuple((i, tuple(cards)) for i, cards in placed)


def test_points_beyond_two_bytes_are_refused() -> None:
    with pytest.raises(OverflowError):
        codes.scored_code(65_536, b"")


def test_grown_melds_from_the_memo_are_the_ones_grown() -> None:
    t = tables_for("denexa", 9)
    meld = Meld("run", "5H JK(6H) 7H")
    added = (CARDS[20], CARDS[21])  # 8H 9H
    layoff._GROWN.clear()
    first = layoff._grow(meld, added, t)
    assert first is not None
    assert first == (Meld("run", "5H JK(6H) 7H 8H 9H"), added)
    assert layoff._grow(meld, added, t) == first  # from the memo
    assert layoff._grow(meld, (CARDS[22],), t) is None  # 10H: not next to the run
    assert layoff._grow(meld, (CARDS[22],), t) is None


def test_bot_games_leave_no_reference_cycles() -> None:
    """Everything a game and its bots make is freed as soon as it is dropped: nothing is
    left for the garbage collector, whose full collections would run inside a decision.
    (Two nested functions calling themselves, in the lay-off and arrangement searches,
    left some 2,000 cycles a game, each holding its search.)  The pure-Python search, the
    fallback where the compiled core is not built, is closures over its hand that call
    themselves: with it, its cycles are the only ones left."""
    import payme

    seats = ("expert", "strong", "greedy", "greedy")
    play_game("denexa", 4, seats, 0)  # imports and first-use tables first
    was, flags = gc.isenabled(), gc.get_debug()
    gc.disable()
    try:
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds stays in gc.garbage
        for name, seed in (("denexa", 1), ("family", 2)):
            assert play_game(name, 4, seats, seed).over
        assert play_game("three_pack", 3, ("expert", "strong", "greedy"), 3, dealt=7).over
        found = gc.collect()
        functions = {f.__qualname__ for f in gc.garbage if type(f).__name__ == "function"}
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()
        if was:
            gc.enable()
    if payme.solver_backend() == "compiled":
        assert found == 0
    else:
        assert (
            found and functions and all(f.startswith("_Solver._make.<locals>.") for f in functions)
        ), sorted(functions)[:5]
