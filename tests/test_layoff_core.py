"""The lay-off search's compiled heart (payme/solver/_layoff_core.c, issue 29) against the
Python search it stands in for (``payme.layoff._Search``, the reference and the
fallback): the same fewest points and the same lay-offs, in the same order, for every
search of seeded games and for random hard positions under rule sets that stretch every
rule it reads (wild limits on or off, aces high, sets of any size, wild cards of one kind
of meld only)."""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from collections.abc import Iterator

import pytest

import payme.layoff
import payme.solver.backend
from benchmarks.layoff_positions import Position, hard_position, harder
from payme.cards import Card
from payme.game import play_game
from payme.game.evaluation import clear
from payme.layoff import _check_table, _choose_compiled, _Search, lay_off
from payme.melds import Meld, parse_declared_meld, tables_for
from payme.pack import Pack
from payme.rulesets import Ruleset, rules
from payme.solver import evaluate
from payme.solver.backend import LAYOFF_CORE

pytestmark = pytest.mark.compiled


@pytest.fixture(autouse=True)
def _needs_the_core() -> None:
    if LAYOFF_CORE is None:
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail("the lay-off core is not in use: nothing to compare", pytrace=False)
        pytest.skip("the lay-off core is not in use in this run (PAYME_SOLVER=python)")


def _variants() -> Iterator[Ruleset]:
    """The rule sets with lay-offs, and variations that turn each rule the core reads."""
    denexa, family = rules("denexa"), rules("family")
    yield denexa
    yield family
    yield dataclasses.replace(denexa, name="denexa-aces-high", ace="low_or_high")
    yield dataclasses.replace(
        denexa, name="denexa-loose", wild_at_most_half=False, no_adjacent_wilds_in_run=False
    )
    yield dataclasses.replace(
        family, name="family-tight", set_distinct_suits=True, set_max=4, wild_at_most_half=True
    )
    yield dataclasses.replace(
        family, name="family-odd", no_adjacent_wilds_in_run=True, ace="low_or_high", set_max=5
    )
    # Wild cards of one kind of meld only (GROUP in sets, SEQ in runs), aces high.
    yield dataclasses.replace(rules("three_pack"), name="three-pack-lay-off", lay_off=True)


def _same(cards: tuple[Card, ...], melds: tuple[Meld, ...], r: Ruleset, dealt: int) -> bool:
    """Whether the core and the Python search choose alike; whether anything is laid off."""
    t = tables_for(r, dealt)
    ev = evaluate(cards, r, dealt)
    want = _Search(cards, melds, t).choose(ev.deadwood_points, ev.deadwood)
    got = _choose_compiled(cards, melds, t, ev.deadwood_points, ev.deadwood)
    assert got == (want[0], want[2]), (r.name, dealt, cards, melds)
    return bool(want[2])


def _game_searches(name: str, games: int, players: int) -> list[tuple[object, ...]]:
    """Every lay-off search of seeded greedy games, as the game asks it."""
    asked: list[tuple[object, ...]] = []
    search = payme.layoff.best_placements

    def recorded(*args: object) -> object:
        asked.append(args)
        return search(*args)  # type: ignore[arg-type]

    clear()  # the games' remembered lay-offs: every search is made again
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(payme.layoff, "best_placements", recorded)
        for seed in range(games):
            play_game(name, players, ("greedy",), seed=seed)
    return asked


@pytest.mark.parametrize(("name", "players"), [("denexa", 4), ("family", 4), ("family", 6)])
def test_every_search_of_seeded_games_matches_the_python_search(name: str, players: int) -> None:
    asked = _game_searches(name, 25, players)
    laid = 0
    for hand, melds, r, dealt, _ in asked:
        assert isinstance(hand, tuple) and isinstance(melds, tuple)
        assert isinstance(r, Ruleset) and isinstance(dealt, int)
        laid += _same(hand, melds, r, dealt)
    assert len(asked) > 50 and laid > 10


@pytest.mark.parametrize("r", list(_variants()), ids=lambda r: r.name)
def test_random_hard_positions_match_the_python_search(r: Ruleset) -> None:
    rng = random.Random(f"layoff-core-{r.name}")
    p: Position | None = None
    laid = checked = 0
    for k in range(150):
        # Fresh positions, and small changes to them (a card swapped, a meld added or
        # dropped), as the lay-off benchmark's climb makes them.
        if p is None or k % 3 == 0:
            p = hard_position(rng, r, melds=rng.randint(1, 14))
        else:
            p = harder(rng, p)
        cards = tuple(sorted(p.hand))
        try:
            _check_table((cards,), p.melds, tables_for(r, p.dealt))
        except ValueError:
            continue  # more cards than a hand that lays off may hold
        checked += 1
        laid += _same(cards, p.melds, r, p.dealt)
    assert checked > 100 and laid > 30


@pytest.mark.parametrize("r", list(_variants()), ids=lambda r: r.name)
def test_sets_with_many_copies_match_the_python_search(r: Ruleset) -> None:
    # Sets only (their lay-offs are judged in C by the roles their cards can take: itself,
    # or wild), hands of their ranks and wild cards, copies from several packs.
    rng = random.Random(f"layoff-core-sets-{r.name}")
    laid = 0
    for _ in range(120):
        dealt = rng.randint(r.min_dealt, r.max_dealt)
        pack = Counter(Pack.of(r).cards())
        wilds = [c for c in pack if r.is_wild(c, dealt)]
        melds: list[Meld] = []
        for rank in rng.sample(range(1, 14), rng.randint(1, 4)):
            cards = [Card.regular(rank, suit) for suit in rng.sample("SHDC", rng.randint(2, 4))]
            if len(cards) < 4 or rng.random() < 0.5:
                cards.append(rng.choice(wilds) if wilds and rng.random() < 0.6 else cards[0])
            if any(pack[c] < cards.count(c) for c in cards):
                continue
            try:
                meld = parse_declared_meld(cards, r, dealt)
            except ValueError:
                continue
            if meld.kind == "set":
                pack.subtract(cards)
                melds.append(meld)
        ranks = [m.rank for m in melds if m.rank]
        pool = [c for c in +pack if c.rank in ranks or c in wilds]
        hand: list[Card] = []
        for _ in range(rng.randint(1, r.max_dealt + 1)):
            card = rng.choice(pool) if pool else None
            if card is not None and pack[card] > 0:
                pack[card] -= 1
                hand.append(card)
        if melds and hand:
            laid += _same(tuple(sorted(hand)), tuple(melds), r, dealt)
    assert laid > 10


def test_lay_off_is_the_same_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random("layoff-core-whole")
    positions = [hard_position(rng, "denexa", melds=rng.randint(2, 10)) for _ in range(30)]
    positions = [p for p in positions if len(p.hand) <= 14]
    compiled = [lay_off(p.hand, p.melds, rules=p.rules, dealt=p.dealt) for p in positions]
    monkeypatch.setattr(payme.solver.backend, "LAYOFF_CORE", None)
    python = [lay_off(p.hand, p.melds, rules=p.rules, dealt=p.dealt) for p in positions]
    assert compiled == python
    assert sum(bool(lo.lay_offs) for lo in python) > 5


def test_a_position_beyond_the_core_is_searched_in_python() -> None:
    # The core answers None where its tables end (never in a game): a hand of 64 cards.
    t = tables_for("family", 9)
    flags = payme.layoff._flags(t)
    hand = bytes([2] * 32 + [0] * 27)
    assert LAYOFF_CORE is not None
    got = LAYOFF_CORE.choose(50, hand, bytes(59), t.points, [], flags, int, int, int)
    assert got is None


def test_an_out_of_date_lay_off_core_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # Built from another _layoff_core.c than the one beside it (a checkout updated without
    # reinstalling): the Python search runs, and describe() says to rebuild.
    monkeypatch.setattr(payme.solver.backend, "out_of_date", lambda core, source: True)
    assert payme.solver.backend._load_layoff() is None
    monkeypatch.setattr(payme.solver.backend, "LAYOFF_CORE", None)
    said = payme.solver.backend.describe()
    assert "lay-offs are searched in Python" in said and "rebuild" in said
