"""Pay Me bots: legal moves only, the greedy and strong habits the docs promise, no peeking,
reproducible games, and the order of strength on a few seeded games."""

from __future__ import annotations

import dataclasses
import statistics

import pytest
from pay_me_helpers import final_turn, rig

from payme.cards import parse_card
from payme.game import BOT_NAMES, make_bot, new_game, play_game
from payme.game.actions import Discard, Draw, GoOut
from payme.game.bots import bot_seed
from payme.game.pay_me import PayMeGame
from payme.rulesets import rules
from tests.presets import PAY_ME

C = parse_card


def test_bot_names_and_unknown_names() -> None:
    assert BOT_NAMES == ("random", "greedy", "strong", "expert")
    for name in BOT_NAMES:
        assert make_bot(name, "family", seed=1).name == name
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bot("clever", "denexa")


def test_play_game_needs_one_bot_per_seat_or_one_for_all() -> None:
    with pytest.raises(ValueError, match="one name per seat"):
        play_game("denexa", players=3, bots=("greedy", "random"), seed=1)


def test_play_game_takes_one_bot_name_for_every_seat() -> None:
    """``bots="greedy"`` is one name, not the letters g, r, e, e, d, y."""
    alone = play_game("family", players=3, bots="greedy", seed=4)
    assert alone.over
    assert alone.actions == play_game("family", players=3, bots=("greedy",), seed=4).actions
    with pytest.raises(ValueError, match="unknown bot 'gredy'"):
        play_game("family", players=3, bots="gredy", seed=4)


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("rules", PAY_ME)
def test_every_choice_is_legal(name: str, rules: str) -> None:
    g = new_game(rules, players=3, seed=5, turn_limit=40)
    bot = make_bot(name, rules, seed=2)
    while not g.over:
        legal = g.legal_actions()
        action = bot.choose(g.view(g.to_move), legal)
        # A go-out is listed with the engine's layout; the bot may declare its own.
        listed = dataclasses.replace(action, melds=None) if isinstance(action, GoOut) else action
        assert listed in legal and g.can(action).ok
        g.apply(action)


def _at_draw(rules: str, hand: str, top: str, others: str = "KS QD 8D") -> PayMeGame:
    return rig(new_game(rules, players=2, seed=1), [hand, others], pile=top)


def test_greedy_takes_the_discard_only_when_it_lowers_its_deadwood() -> None:
    g = _at_draw("classic", "5H 6H 9C", "7H")
    bot = make_bot("greedy", "classic")
    assert bot.choose(g.view(0), g.legal_actions()) == Draw(0, "discard")
    g = _at_draw("classic", "5H 6H 9C", "KD")
    assert bot.choose(g.view(0), g.legal_actions()) == Draw(0, "stock")


def test_greedy_discards_to_the_fewest_points_and_goes_out_when_it_can() -> None:
    g = rig(new_game("classic", players=2, seed=1), ["5H 6H 4C", "KS QD 9S"],
            pile="4D", stock_top="KC")  # fmt: skip
    g.draw("stock")
    bot = make_bot("greedy", "classic")
    assert bot.choose(g.view(0), g.legal_actions()) == Discard(0, C("KC"))
    g = rig(new_game("classic", players=2, seed=1), ["5H 6H 4C", "KS QD 9S"],
            pile="4D", stock_top="7H")  # fmt: skip
    g.draw("stock")
    for name in ("greedy", "strong"):
        assert make_bot(name, "classic").choose(g.view(0), g.legal_actions()) == GoOut(0, C("4C"))


def test_strong_keeps_a_wild_card_that_greedy_throws() -> None:
    # denexa with 5 dealt: the joker fits no meld yet and would count 15 in deadwood.
    five = dataclasses.replace(rules("denexa"), name="denexa-5", first_dealt=5, hands=1)
    g = rig(new_game(five, players=2, seed=1), ["JK 9D 4C KS QH", "AS 6D 7C 8S TC"],
            pile="5C", stock_top="AH")  # fmt: skip
    g.draw("stock")
    view, legal = g.view(0), g.legal_actions()
    assert make_bot("greedy", five).choose(view, legal) == Discard(0, C("JK"))
    strong = make_bot("strong", five).choose(view, legal)
    assert isinstance(strong, Discard) and strong.card != C("JK")


def test_strong_keeps_a_card_it_can_lay_off_in_its_final_turn() -> None:
    # family, 3 dealt: seat 0 goes out with 6H 7H 8H; seat 1 then holds 9H 8C 4C 4S.
    g = final_turn("family", ["6H 7H 8H", "9H 8C 4C"], "KD 4S")
    view = g.view(1)
    assert make_bot("greedy", "family").choose(view, g.legal_actions()) == Discard(1, C("9H"))
    assert make_bot("strong", "family").choose(view, g.legal_actions()) == Discard(1, C("8C"))


def test_bots_see_only_their_view() -> None:
    g = new_game("denexa", players=3, seed=3)
    view = g.view(0)
    for name in BOT_NAMES:
        # The choice depends on the view and the legal actions alone: the same view on a
        # game whose hidden cards differ gives the same choice.
        other = new_game("denexa", players=3, seed=3)
        other = rig(other, [" ".join(map(str, g.hand_of(0))), "AS AH AD", "KS KH KD"],
            pile=" ".join(map(str, g.discard_pile)))  # fmt: skip
        a = make_bot(name, "denexa", seed=9).choose(view, g.legal_actions())
        b = make_bot(name, "denexa", seed=9).choose(other.view(0), other.legal_actions())
        assert a == b


def test_bot_games_are_reproducible() -> None:
    one = play_game("family", players=3, bots=("strong", "greedy", "random"), seed=8)
    two = play_game("family", players=3, bots=("strong", "greedy", "random"), seed=8)
    assert one.snapshot() == two.snapshot()
    assert bot_seed(8, 0) != bot_seed(8, 1) != bot_seed(9, 0)


@pytest.mark.slow  # six whole games: make test runs it, make check not
def test_greedy_and_strong_beat_random() -> None:
    lineup = ("strong", "greedy", "random")
    totals: dict[str, list[int]] = {name: [] for name in lineup}
    for seed in range(6):
        bots = lineup[seed % 3 :] + lineup[: seed % 3]
        g = play_game("denexa", players=3, bots=bots, seed=100 + seed)
        for bot, total in zip(bots, g.totals, strict=True):
            totals[bot].append(total)
    mean = {name: statistics.fmean(v) for name, v in totals.items()}
    assert mean["greedy"] < mean["random"] and mean["strong"] < mean["random"]
