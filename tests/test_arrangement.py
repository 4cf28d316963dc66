"""The declarer's arrangement: checked melds, alternatives, lay-offs that follow it, bots."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pay_me_helpers import rig

from payme.cards import CARDS, format_hand, parse_card, parse_hand
from payme.game import play_game, replay
from payme.game.actions import GoOut, IllegalAction
from payme.game.arrangement import (
    arrangements,
    check_arrangement,
    declare,
    declared_melds,
    lay_off_spots,
    tightest_arrangement,
)
from payme.game.bots import SAFETY_TURN_LIMIT, StrongBot
from payme.game.pay_me import PayMeGame
from payme.melds import RuleTables, check_meld
from payme.rulesets import rules
from payme.solver import evaluate
from tests.presets import ALL, PAY_ME


def _family_position() -> PayMeGame:
    """Hand 1 of family (threes wild): seat 0 holds 5H 6H JK and draws KC; seat 1 holds 7H
    8C 9D and draws KS in its final turn."""
    game = PayMeGame("family", players=2, seed=1)
    return rig(game, ["5H 6H JK", "7H 8C 9D"], pile="2C", stock_top="KC KS")


def _to_lay_offs(game: PayMeGame, melds: list[str] | None) -> PayMeGame:
    game.draw("stock")
    game.go_out("KC", melds=melds)
    game.draw("stock")
    game.discard("KS")
    assert game.phase == "lay_off" and game.to_move == 1
    return game


def test_declaring_the_joker_low_lets_an_opponent_lay_off_7h() -> None:
    game = _to_lay_offs(_family_position(), ["JK 5H 6H"])
    assert [str(m) for m in game.view(1).table_melds] == ["JK(4H) 5H 6H"]
    assert game.table == ((parse_card("JK"), parse_card("5H"), parse_card("6H")),)
    assert game.can_lay_off([(0, "7H")]).ok
    game.lay_off([(0, "7H")])
    last = game.summaries[-1]
    assert last.table == (parse_hand("JK 5H 6H 7H"),)
    assert last.points[1] == 8 + 9  # 8C and 9D stay; 7H was laid off


def test_the_default_layout_refuses_that_7h() -> None:
    game = _to_lay_offs(_family_position(), None)
    assert [str(m) for m in game.view(1).table_melds] == ["5H 6H JK(7H)"]
    verdict = game.can_lay_off([(0, "7H")])
    assert not verdict.ok and "grown meld would not be valid" in verdict.reason


def test_the_go_out_action_carries_the_arrangement() -> None:
    game = _to_lay_offs(_family_position(), ["JK 5H 6H"])
    out = next(a for a in game.actions if isinstance(a, GoOut))
    assert out.melds is not None and [str(m) for m in out.melds] == ["JK(4H) 5H 6H"]
    assert "Melds: JK 5H 6H." in game.history[-4].event


def test_games_with_declared_arrangements_replay_and_old_replays_still_load() -> None:
    game = play_game("family", players=3, bots=("strong", "strong", "greedy"), seed=2)
    declared = [a for a in game.actions if isinstance(a, GoOut) and a.melds is not None]
    assert declared  # the strong bots declared their melds
    again = replay("family", 3, 2, game.actions, turn_limit=SAFETY_TURN_LIMIT)
    assert again.history == game.history
    # A replay written before arrangements existed (GoOut without melds) loads too.
    old = replay(
        "family",
        3,
        2,
        [GoOut(a.seat, a.discard) if isinstance(a, GoOut) else a for a in game.actions[:40]],
        turn_limit=SAFETY_TURN_LIMIT,
    )
    assert len(old.actions) == 40


@pytest.mark.parametrize(
    ("melds", "reason"),
    [
        (["5H 6H"], "Meld 1 (5H 6H) is not valid: A meld needs at least 3 cards, but this has 2."),
        (["5H 7H JK"], "Meld 1 (5H 7H JK) is not valid: 5H 7H JK is not a run listed from low"),
        (["5H 6H 7H"], "7H is in a meld but not among the cards kept."),
        (["JK 5H 6H", "KC"], "Meld 2 (KC) is not valid"),
    ],
)
def test_a_bad_arrangement_is_refused_with_its_reason_and_changes_nothing(
    melds: list[str], reason: str
) -> None:
    game = _family_position()
    game.draw("stock")
    before = game.snapshot()
    verdict = game.can_go_out("KC", melds=melds)
    assert not verdict.ok
    assert verdict.reason.startswith(reason)
    with pytest.raises(IllegalAction, match=r"[Mm]eld"):
        game.go_out("KC", melds=melds)
    assert game.snapshot() == before


def test_an_arrangement_must_meld_every_card_kept() -> None:
    game = rig(PayMeGame("denexa", players=2, seed=1), ["5H 6H 7H", "8C 9D TD"], "2C", "8H")
    game.draw("stock")
    assert game.can_go_out(None).ok  # 5H 6H 7H 8H
    short = declare(["5H 6H 7H"], "denexa", 3)
    assert short is not None
    verdict = game.can(GoOut(0, None, short))
    assert not verdict.ok
    assert verdict.reason == "8H is in no meld: going out needs every card kept in a meld."
    assert game.can(GoOut(0, parse_card("8H"), short)).ok


def test_a_wrongly_typed_arrangement_is_refused() -> None:
    game = _family_position()
    game.draw("stock")
    bad = GoOut(0, parse_card("KC"), ("JK 5H 6H",))  # type: ignore[arg-type]
    verdict = game.can(bad)
    assert not verdict.ok and "tuple of Meld objects" in verdict.reason
    with pytest.raises(IllegalAction):
        declare("JK 5H 6H", "family", 3)


def test_check_arrangement_gives_a_reason_per_meld() -> None:
    check = check_arrangement(["JK 5H 6H", "9C 9D"], "5H 6H JK 9C 9D", "family", 12)
    assert not check.ok
    assert [c.ok for c in check.checks] == [True, False]
    assert check.checks[0].reason == "Valid run of hearts 4–6; JK stands for 4H."
    assert check.reason.startswith("Meld 2 (9C 9D) is not valid")
    with pytest.raises(ValueError, match="Meld 2"):
        declared_melds(["JK 5H 6H", "9C 9D"], "5H 6H JK 9C 9D", "family", 12)


def test_arrangements_list_the_best_layout_first_and_the_other_wild_places() -> None:
    found = arrangements("5H 6H JK 9S 9D 9C", "family", 12)
    best = evaluate("5H 6H JK 9S 9D 9C", "family", 12).melds
    assert found[0] == tuple(best)
    shown = {tuple(sorted(str(m) for m in a)) for a in found}
    assert ("5H 6H JK(7H)", "9S 9D 9C") in shown
    assert ("9S 9D 9C", "JK(4H) 5H 6H") in shown


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(CARDS[:52] + CARDS[52:53]), min_size=3, max_size=9))
def test_every_listed_arrangement_is_valid_and_uses_the_cards_exactly(cards: list) -> None:
    for name, dealt in (("denexa", 9), ("family", 5)):
        ruleset = rules(name)
        pack = Counter({c: n for c, n in zip(CARDS, ruleset.pack_counts(None), strict=True)})
        if Counter(cards) - pack:
            continue
        found = arrangements(tuple(cards), name, dealt, limit=12)
        assert bool(found) == (not evaluate(tuple(cards), name, dealt).deadwood)
        for melds in found:
            assert check_arrangement(melds, tuple(cards), name, dealt).ok
            for meld in melds:
                assert check_meld(meld.cards, name, dealt).ok


@pytest.mark.parametrize("name", ALL)
def test_parts_of_a_hand_meld_whole_as_evaluate_says(name: str) -> None:
    # arrangements asks whether the cards left can all be melded as another start of one
    # search of the hand: it must agree with evaluate, on meld-rich parts and others.
    from payme.game.arrangement import _Meldable
    from payme.melds import tables_for

    rng = random.Random(f"whole-{name}")
    ruleset = rules(name)
    pack = [c for c, n in zip(CARDS, ruleset.pack_counts(None), strict=True) for _ in range(n)]
    checked = melded = 0
    for _ in range(40):
        dealt = None if name == "three_pack" else rng.randint(3, 13)
        t = tables_for(ruleset, dealt)
        big = evaluate(tuple(rng.sample(pack, 20)), name, dealt)
        melds, cards = [], list(big.deadwood[:1])
        for meld in big.melds:
            if len(cards) + len(meld) <= 14:
                melds.append(meld)
                cards += meld.cards
        spare = list(big.deadwood[:1]) or cards
        hand = tuple(sorted(cards))
        meldable = _Meldable(hand, t)
        for _ in range(12):
            part = [c for m in melds if rng.random() < 0.6 for c in m.cards]
            if rng.random() < 0.3:
                part += rng.sample(spare, 1)
            if part and rng.random() < 0.3:
                part.pop(rng.randrange(len(part)))
            if not part or Counter(part) - Counter(hand):
                continue
            whole = not evaluate(tuple(part), name, dealt).deadwood
            assert meldable.whole(sorted(c.index for c in part)) == whole, (hand, part, dealt)
            checked += 1
            melded += whole
    assert checked >= 200 and melded >= 50


@pytest.mark.parametrize("name", PAY_ME)
def test_going_out_lists_each_discards_arrangements_as_arrangements_does(name: str) -> None:
    # The strong bot asks for every discard's arrangements at once (one search of the
    # whole hand answers for all of them): the lists must be arrangements' own, in order.
    from payme.game.arrangement import going_out_arrangements

    rng = random.Random(f"going-out-{name}")
    ruleset = rules(name)
    pack = [c for c, n in zip(CARDS, ruleset.pack_counts(None), strict=True) for _ in range(n)]
    listed = 0
    for _ in range(40):
        dealt = rng.randint(3, 13)
        big = evaluate(tuple(rng.sample(pack, 24)), name, dealt)
        cards = [c for m in big.melds for c in m.cards][:13] + list(big.deadwood[:1])
        discards = [None, *sorted(set(cards))]
        together = list(going_out_arrangements(cards, discards, name, dealt, 8))
        one_by_one = []
        for d in discards:
            kept = list(cards)
            if d is not None:
                kept.remove(d)
            one_by_one += [(d, melds) for melds in arrangements(tuple(kept), name, dealt, 8)]
        assert together == one_by_one, (format_hand(cards), dealt)
        listed += len(together)
    assert listed > 60
    with pytest.raises(ValueError, match="QS is not in the hand"):
        list(going_out_arrangements("5H 6H JK 2C", ["QS"], "family", 9))


def test_the_tightest_arrangement_leaves_the_fewest_lay_off_spots() -> None:
    could_hold = {parse_card("8H"): 2, parse_card("3H"): 1}
    melds = tightest_arrangement("5H 6H JK", could_hold, "family", 12)
    assert melds is not None
    spots = lay_off_spots(melds, could_hold, "family", 12)
    for other in arrangements("5H 6H JK", "family", 12):
        assert spots <= lay_off_spots(other, could_hold, "family", 12)
    # JK as 4H leaves one spot (3H below it); JK as 7H two (the 8Hs above it).
    assert [str(m) for m in melds] == ["JK(4H) 5H 6H"]


def test_the_strong_bot_goes_out_with_an_arrangement_that_shuts_out_unseen_cards() -> None:
    game = _family_position()
    game.draw("stock")
    bot = StrongBot(game.rules, seed=1)
    choice = bot.choose(game.view(0), game.legal_actions())
    assert isinstance(choice, GoOut) and choice.melds is not None
    unseen = bot._unseen(game.view(0))
    assert lay_off_spots(choice.melds, unseen, "family", 3) == min(
        lay_off_spots(a, unseen, "family", 3) for a in arrangements("5H 6H JK", "family", 3)
    )
    game.apply(choice)
    assert game.declarer == 0


def _groups_reference(first: int, rest: list[int], t: RuleTables) -> list[tuple[int, ...]]:
    """The run groups ``_groups_with`` lists, the plain way: every window of places from
    ``first``'s rank down by at most the wild cards, every choice of natural or wild for
    each place, every set of wild cards for the wild places; each group once, in the order
    first met."""
    from payme.cards import N_REGULAR

    scope = t.scope
    wilds = [c for c in rest if scope[c] in ("any", "run")]
    regular = [c for c in rest if c < N_REGULAR and scope[c] is None]
    suit, rank = first // 13, first % 13 + 1
    # Each place's natural card of the suit (an ace at both ends where it may be high).
    naturals = {c % 13 + 1: c for c in reversed(regular) if c // 13 == suit}
    if t.ace_high and 1 in naturals:
        naturals[14] = naturals[1]
    found: list[tuple[int, ...]] = []
    for n in range(t.run_min, min(13, len(rest) + 1) + 1):
        for low in range(max(1, rank - len(wilds)), rank + 1):
            high = low + n - 1
            if high > (14 if t.ace_high else 13):
                break
            options = [
                (naturals[p], -1) if p in naturals and p > rank else (-1,)
                for p in range(low, high + 1)
                if p != rank
            ]
            for choice in product(*options):
                picked = [c for c in choice if c >= 0]
                k = len(choice) - len(picked)
                for fill in sorted(set(combinations(wilds, k))) if k <= len(wilds) else ():
                    group = tuple(sorted((*picked, *fill)))
                    if group not in found:
                        found.append(group)
    return found


@pytest.mark.parametrize("name", PAY_ME)
def test_run_groups_are_the_plain_listing_in_its_order(name: str) -> None:
    # The listing prunes windows without wild cards enough and choices already listed;
    # what it yields, and in what order (the bots' tie-breaks follow it), must not change.
    from payme.cards import N_REGULAR
    from payme.game.arrangement import _groups_with
    from payme.melds import tables_for

    rng = random.Random(7)
    r = rules(name)
    pack = [c for c, n in zip(CARDS, r.pack_counts(4), strict=True) for _ in range(n)]
    checked = 0
    for dealt in (3, 7, 11, 13):
        t = tables_for(r, dealt)
        for _ in range(60):
            # Wild-rich hands: a third of the cards are wild where the round allows.
            wild = [c for c in pack if t.scope[c.index] is not None]
            hand = sorted(c.index for c in rng.sample(pack, 9) + rng.sample(wild, 4))
            for first in sorted(set(hand)):
                if t.scope[first] is not None or first >= N_REGULAR:
                    continue
                rest = list(hand)
                rest.remove(first)
                listed = list(_groups_with(first, rest, t))
                runs = _groups_reference(first, rest, t)
                # The sets come first, then the runs.
                assert listed[len(listed) - len(runs) :] == runs, (dealt, first, rest)
                checked += bool(runs)
    assert checked > 300
