"""Rummy 3-Pack bots: legal, repeatable, and each doing what its description says."""

from __future__ import annotations

from collections import Counter

import pytest
from three_pack_helpers import arrange, variant

from payme.cards import parse_card, parse_hand
from payme.game import BOT_NAMES, make_bot, new_game, play_game
from payme.game.actions import Discard, Draw, DropOut, GoOut, LayDownRummy
from payme.game.three_pack import (
    ThreePackGame,
    new_three_pack_game,
    play_three_pack,
    unmelded_count,
)
from payme.game.three_pack_bots import ThreePackStrongBot, make_three_pack_bot


def seat_0_holds(hand: str, **where: str) -> ThreePackGame:
    """A 3-player game where seat 0 (first to move) holds ``hand``; ``where`` sets the pile
    or the stock's top (see :func:`arrange`)."""
    return arrange(new_three_pack_game(players=3, seed=2, first=0), {0: hand}, **where)


def choose(g: ThreePackGame, name: str, seed: int = 1) -> object:
    bot = make_three_pack_bot(name, g.rules, seed)
    s = g.to_move
    assert s is not None
    return bot.choose(g.view(s), g.legal_actions())


@pytest.mark.parametrize(
    "flags",
    [
        {},
        {"variation_three_card_draw": True},
        {"variation_spread_discard_pile": True, "variation_seating": True},
        {"variation_go_out": True, "variation_seven_pile_shuffle": True},
    ],
)
def test_every_bot_move_is_legal_under_every_variation(flags: dict[str, bool]) -> None:
    r = variant(**flags)
    optional = {"NOMELD": 1, "WILD": 2} | ({} if flags.get("variation_go_out") else {"NOGO": 1})
    for seed in range(6):
        g = new_three_pack_game(r, 4, seed, dealt=5 + seed % 4, optional=optional, turn_limit=200)
        bots = [make_three_pack_bot(BOT_NAMES[(seed + s) % 3], r, seed * 10 + s) for s in range(4)]
        while not g.over:
            s = g.to_move
            action = bots[s].choose(g.view(s), g.legal_actions())
            assert g.can(action), (action, g.can(action))
            g.apply(action)
        assert len(g.winners()) <= 3


def test_bots_are_repeatable_from_their_seed() -> None:
    a = play_three_pack(players=3, bots=("random", "greedy", "strong"), seed=17)
    b = play_three_pack(players=3, bots=("random", "greedy", "strong"), seed=17)
    assert a.actions == b.actions and a.winners() == b.winners()


def test_the_shared_game_interface_plays_three_pack_with_these_bots() -> None:
    g = play_game("three_pack", 3, ("strong", "greedy", "random"), seed=4, dealt=6)
    assert g.over and isinstance(g, ThreePackGame) and g.dealt == 6
    assert make_bot("strong", "three_pack", 1).name == "strong"
    assert isinstance(new_game("three_pack", 3, 2), ThreePackGame)


def test_random_bot_never_drops_out_but_picks_among_the_legal_moves() -> None:
    seen: Counter[type] = Counter()
    g = new_three_pack_game(players=3, seed=3, first=0)
    for seed in range(40):
        action = choose(g, "random", seed)
        assert not isinstance(action, DropOut)
        seen[type(action)] += 1
    assert seen[Draw] == 40


@pytest.mark.parametrize("name", ["greedy", "strong"])
def test_a_bot_goes_out_when_it_can(name: str) -> None:
    g = seat_0_holds("4H 5H 6H 9C 9D 9S KD", stock_top="7H")
    g.apply(Draw(0, "stock"))
    assert choose(g, name) == GoOut(0, parse_card("KD"))


@pytest.mark.parametrize("name", ["greedy", "strong"])
def test_a_bot_lays_down_both_rummy_cards(name: str) -> None:
    g = seat_0_holds("RUMMY RUMMY 2C 6D KH 9S 4H")
    assert choose(g, name) == LayDownRummy(0)


@pytest.mark.parametrize("name", ["greedy", "strong"])
def test_a_bot_takes_a_discard_that_lowers_its_unmelded_count(name: str) -> None:
    g = seat_0_holds("4H 5H 9C 9D KS 2D JC", pile="6H")
    hand = g.hand_of(0)
    assert unmelded_count(g.rules, hand) == 7  # no meld yet
    assert choose(g, name) == Draw(0, "discard")


def test_greedy_draws_from_the_stock_when_the_discard_does_not_help() -> None:
    g = seat_0_holds("4H 5H 9C 9D KS 2D JC", pile="7S")
    assert choose(g, "greedy") == Draw(0, "stock")


def test_greedy_discards_to_the_fewest_unmelded_cards() -> None:
    g = seat_0_holds("4H 5H 6H 9C 9D 9S KD", stock_top="2C")
    g.apply(Draw(0, "stock"))
    action = choose(g, "greedy")
    assert isinstance(action, Discard) and action.card in parse_hand("KD 2C")


def test_strong_keeps_its_wild_card_where_greedy_may_not() -> None:
    g = seat_0_holds("4H 5H 6H 9C 9D 9S WILD", stock_top="KD")
    g.apply(Draw(0, "stock"))
    assert choose(g, "strong") == GoOut(0, parse_card("KD"))  # it goes out, WILD melded
    # Without a way out: WILD beside two lone cards; the bot sheds a lone card.
    g = seat_0_holds("4H 5H 9C 9D KS 2D WILD", stock_top="7C")
    g.apply(Draw(0, "stock"))
    action = choose(g, "strong")
    assert isinstance(action, Discard) and action.card != parse_card("WILD")


def test_strong_always_takes_a_rummy_card_and_never_discards_one() -> None:
    g = seat_0_holds("4H 5H 6H 9C 9D 2S KD", pile="RUMMY")
    assert choose(g, "strong") == Draw(0, "discard")
    g.apply(Draw(0, "discard"))
    action = choose(g, "strong")
    assert isinstance(action, Discard) and action.card != parse_card("RUMMY")


def test_strong_counts_unseen_cards_from_what_it_saw() -> None:
    g = seat_0_holds("4H 5H 9C 9D KS 2D JC", stock_top="3S")
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0, parse_card("3S")))
    view = g.view(1)
    bot = ThreePackStrongBot(g.rules, 1)
    unseen = bot.unseen(view)
    pack = Counter(g.pack.cards())
    mine = Counter(view.hand)
    for card in {parse_card("3S"), parse_card("4H"), *view.hand}:
        assert unseen[card] == pack[card] - mine[card] - (card == parse_card("3S"))
    # Seat 0's hidden cards are not known to seat 1: they count as unseen.
    assert unseen[parse_card("9C")] == pack[parse_card("9C")] - mine[parse_card("9C")]


def test_strong_avoids_feeding_the_next_player() -> None:
    bot = ThreePackStrongBot(variant(), 1)
    wanted = list(parse_hand("8H 8C"))
    assert bot.danger(parse_card("8S"), wanted) == 2
    assert bot.danger(parse_card("9H"), wanted) == 1
    assert bot.danger(parse_card("KD"), wanted) == 0


@pytest.mark.slow  # 60 seeded games: make test runs it, make check not
def test_strong_beats_greedy_beats_random_over_seeded_games() -> None:
    wins: Counter[str] = Counter()
    kinds = ("random", "greedy", "strong")
    for seed in range(60):
        bots = kinds[seed % 3 :] + kinds[: seed % 3]
        g = play_three_pack(players=3, bots=bots, seed=5000 + seed)
        for s in g.winners():
            wins[bots[s]] += 1
    assert wins["strong"] > wins["greedy"] > wins["random"], wins


def test_strong_remembers_the_discard_pile_from_what_it_watched() -> None:
    r = variant(variation_three_card_draw=True)
    g = new_three_pack_game(r, players=3, seed=2, first=0)
    g = arrange(g, pile="8C 9C")
    bot = ThreePackStrongBot(r, 1)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0, g.hand_of(0)[0]))
    first = g.discard_pile[-1]
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1, g.hand_of(1)[0]))
    # The cards below were there before the game's log began: only the watched ones count.
    assert bot.remembered_pile(g.view(2)) == [first, g.discard_pile[-1]]
    g.apply(Draw(2, "discard", 2))
    assert bot.remembered_pile(g.view(0)) == []


def test_strong_tracks_cards_taken_from_the_pile_and_a_rebuilt_stock() -> None:
    r = variant(variation_go_out=True)
    g = new_three_pack_game(r, players=3, seed=2, first=0)
    g = arrange(g, {0: "4H 5H 9C 9D KS 2D JC"}, stock_top="QH 3S", stock_size=2)
    bot = ThreePackStrongBot(r, 1)
    pack = Counter(g.pack.cards())
    three, queen = parse_card("3S"), parse_card("QH")

    def unseen_for(seat: int, card: object) -> int:
        view = g.view(seat)
        return bot.unseen(view)[card] - (pack[card] - Counter(view.hand)[card])

    g.apply(Draw(0, "stock"))
    g.apply(Discard(0, three))
    g.apply(Draw(1, "discard"))  # seat 1 takes the 3S: seat 2 knows where it is
    assert unseen_for(2, three) == -1
    g.apply(Discard(1, three))  # and back on the pile: still known, counted once
    assert unseen_for(2, three) == -1
    g.apply(Draw(2, "stock"))  # the last stock card: the pile but its top is the new stock
    g.apply(Discard(2, parse_card("6H")))
    assert g.view(0).public_log[-1][1] == "rebuild" and three in g.stock
    assert unseen_for(0, three) == 0 and unseen_for(0, queen) == 0
