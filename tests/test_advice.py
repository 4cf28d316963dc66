"""Advice that plays to win, and every piece of advice with its reason.

Each advice surface (the engine's best discard, the hand builder, puzzles, Play's hint
advisor, the tutorial's explanations) is checked under every preset rule set: it never
advises throwing away a card whose value is not its penalty (Rummy 3-Pack's RUMMY wins when
held; NOMELD and NOGO may never be discarded), and it always says why.  Expected moves are
worked out here from RULES.md, not read back from the advice.
"""

from __future__ import annotations

import pytest

from payme.advice import (
    discard_advice,
    go_out_advice,
    lay_off_advice,
    plain,
    ranking_note,
)
from payme.cards import parse_card, parse_hand
from payme.game.explain import explain_move
from payme.rulesets import rules
from payme.solver import best_discard, evaluate
from tests.presets import ALL, PAY_ME

PRESETS = ALL
RUMMY = parse_card("RUMMY")

# Hands of Rummy 3-Pack holding RUMMY with NOGO or NOMELD, where RUMMY alone costs nothing:
# by unmelded cards alone, throwing RUMMY away looks free.
RUMMY_HANDS = (
    "NOGO RUMMY 7H 8H 9H",
    "RUMMY 7H 8H 9H 5C 5D 5S",
    "NOMELD RUMMY 7H 7S 7D",
    "NOGO NOMELD RUMMY 4C 4D 4S",
)


@pytest.mark.parametrize("hand", RUMMY_HANDS)
def test_the_engine_never_advises_discarding_rummy(hand: str) -> None:
    best = best_discard(hand, rules="three_pack")
    assert best.card != RUMMY
    assert best.card.token not in ("NOGO", "NOMELD")  # the rules forbid these discards
    assert discard_advice(hand, "three_pack").card not in (RUMMY, None)


def test_rummy_is_advised_only_when_nothing_else_may_go() -> None:
    # NOGO may never be discarded, so RUMMY is the only legal discard left.
    assert best_discard("NOGO RUMMY", rules="three_pack").card == RUMMY


@pytest.mark.parametrize("hand", RUMMY_HANDS)
def test_the_hand_builder_keeps_rummy_and_says_what_it_ranks_by(hand: str) -> None:
    from payme.widgets.hand_builder import HandBuilder

    cards = parse_hand(hand)
    hb = HandBuilder(rules="three_pack", dealt=len(cards) - 1, hand=hand)
    text = hb.verdict.value
    assert "Best discard:</b> RUMMY" not in text
    assert "ranked by the unmelded cards" in text
    assert "holding it when the game ends makes you a winner" in text


@pytest.mark.parametrize("name", PAY_ME)
def test_pay_me_advice_ranks_by_penalty_points_and_says_why(name: str) -> None:
    from payme.widgets.hand_builder import HandBuilder

    # 5 dealt + 1 drawn.  Denexa and classic: K♦ and 8♥ both leave 15 points (A-7 5, 8-K
    # 10); family scores face value, so K♦ leaves 15 and 8♥ 17.
    hand = "7H 8H KD 4S 4D 4C"
    hb = HandBuilder(rules=name, dealt=5, hand=hand)
    assert ranking_note(name) == ""  # penalty points: nothing else to say
    assert "payme-discard-why" in hb.verdict.value
    advice = discard_advice(hand, name, 5)
    # Equal points: keep 7♥ 8♥, which can still become a run, and throw the lone K♦.
    assert advice.card == parse_card("KD")
    if name != "family":  # family must discard when going out: 7♥ 8♥ + 1 card cannot
        assert "6♥" in plain(advice.reason) and "9♥" in plain(advice.reason)
    best = best_discard(hand, rules=name, dealt=5)
    rest = list(parse_hand(hand))
    rest.remove(parse_card("KD"))
    assert evaluate(rest, rules=name, dealt=5).deadwood_points == best.deadwood_points


@pytest.mark.parametrize("name", PRESETS)
def test_puzzle_discards_agree_with_the_advice(name: str) -> None:
    from payme.puzzles import new_puzzle

    for seed in range(12):
        p = new_puzzle("discard", name, dealt=7, seed=seed)
        best = discard_advice(p.hand, p.rules, p.dealt)
        assert best.card is not None and best.card != RUMMY
        assert p.check(str(best.card)).correct, (p.id, best.text())
        assert "would cost" in p.solution() or "breaks your meld" in p.solution()


@pytest.mark.parametrize("hand", RUMMY_HANDS)
def test_a_discard_puzzle_never_rewards_throwing_away_rummy(hand: str) -> None:
    from payme.puzzles import Puzzle

    cards = parse_hand(hand)
    p = Puzzle("t", "discard", rules("three_pack"), len(cards) - 1, cards)
    verdict = p.check("RUMMY")
    assert not verdict.correct and "makes you a winner" in verdict.explanation
    assert "RUMMY" not in p.solution().split(":")[0]


@pytest.mark.parametrize("name", PRESETS)
def test_play_hints_never_throw_away_rummy_and_come_with_a_reason(name: str) -> None:
    """Play's hints come from the strong bot; over whole games it never discards a RUMMY
    while another card may go, and every one of its moves can be explained."""
    from payme.game.actions import Discard

    if name == "three_pack":
        from payme.game.three_pack import new_three_pack_game
        from payme.game.three_pack_bots import make_three_pack_bot

        games = [new_three_pack_game(name, players=3, seed=s, dealt=7) for s in range(1, 9)]
        bots = [make_three_pack_bot("strong", rules(name), s) for s in range(3)]
    else:
        from payme.game import make_bot, new_game

        games = [new_game(name, players=3, seed=s) for s in range(1, 3)]
        bots = [make_bot("strong", rules(name), s) for s in range(3)]
    explained = 0
    for g in games:
        for _ in range(400):
            seat = g.to_move
            if g.over or seat is None:
                break
            view = g.view(seat)
            move = bots[seat].choose(view, g.legal_actions())
            hand = view["hand"] if isinstance(view, dict) else view.hand
            if isinstance(move, Discard):
                others = [c for c in hand if c != RUMMY and c.token not in ("NOGO", "NOMELD")]
                assert not (move.card == RUMMY and others), hand
            if explained < 60:
                advice = explain_move(move, view, rules(name))
                assert advice.move and advice.reason, (move, advice)
                explained += 1
            g.apply(move)
            if getattr(g, "phase", "") == "hand_over":
                g.advance()
    assert explained


@pytest.mark.parametrize("name", ["denexa", "family"])
def test_go_out_and_lay_off_advice_name_the_melds(name: str) -> None:
    out = plain(go_out_advice("5H 6H 7H 8H KS", name, 4).text())
    assert out.startswith("Go out (Pay me!), discarding K♠")
    assert "5♥ 6♥ 7♥ 8♥ make a run" in out
    lay = plain(lay_off_advice("8H 9H KD", ["5H 6H 7H"], name, 4).text())
    assert lay.startswith("Lay off 8♥ 9♥ onto 5♥ 6♥ 7♥")
    assert "falls from" in lay


def test_classic_lay_off_advice_says_there_are_none() -> None:
    assert "no lay-offs" in lay_off_advice("8H 9H KD", ["5H 6H 7H"], "classic", 4).reason
