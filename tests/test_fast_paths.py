"""The shortcuts a whole bot game takes: they must change nothing a player could see.

``play_game`` applies an action it took unchanged from ``legal_actions`` without asking
``can`` again, and every view is built without its dataclass constructor.  Both are safe
only if every listed action is legal and a built view equals the constructed one: checked
here move by move, on both games and every kind of bot.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from payme.game import game_class, make_bot, new_game, play_game
from payme.game.actions import Action
from payme.game.base import Game
from payme.game.bots import bot_seed

SEATINGS = [
    ("denexa", ("greedy", "strong", "random", "greedy")),
    ("family", ("random", "random", "strong")),
    ("classic", ("expert", "greedy")),
    ("three_pack", ("greedy", "random", "strong")),
]


def _moves(
    rules: str, bots: tuple[str, ...], seed: int, **options: int
) -> Iterator[tuple[Game, list[Action], Action]]:
    """Play a game move by move through ``apply`` (every action checked): yields the game,
    the legal actions and the bot's choice before each move is made."""
    game = new_game(rules, len(bots), seed, **options)
    seated = [make_bot(name, game.rules, bot_seed(seed, s)) for s, name in enumerate(bots)]
    while not game.over:
        if game.phase == "hand_over":
            game.advance()
            continue
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        action = seated[seat].choose(game.view(seat), legal)
        yield game, legal, action
        game.apply(action)


@pytest.mark.parametrize(("rules", "bots"), SEATINGS)
@pytest.mark.parametrize("seed", [3, 11])
def test_every_listed_action_is_legal_and_every_view_is_whole(
    rules: str, bots: tuple[str, ...], seed: int
) -> None:
    options = {"dealt": 5} if rules == "three_pack" else {}
    checked = 0
    for game, legal, _ in _moves(rules, bots, seed, **options):
        for action in legal:
            verdict = game.can(action)
            assert verdict.ok, (action, verdict.reason)
        for s in range(game.players):
            view = game.view(s)
            assert set(vars(view)) == {f.name for f in dataclasses.fields(view)}
            assert view == type(view)(**vars(view))
        checked += 1
    assert checked > 5


@pytest.mark.parametrize(("rules", "bots"), SEATINGS)
def test_a_whole_bot_game_plays_as_one_checked_move_by_move(
    rules: str, bots: tuple[str, ...]
) -> None:
    """``play_game`` (shortcuts taken) and the same bots through ``apply`` (every action
    checked, undo kept) play the very same game."""
    options = {"dealt": 5} if rules == "three_pack" else {}
    fast = play_game(rules, len(bots), bots, seed=7, **options)
    limit = game_class(rules).BOT_TURN_LIMIT
    if limit is not None:
        options["turn_limit"] = limit
    game = list(_moves(rules, bots, 7, **options))[-1][0]  # the same game, played out
    assert game.over
    assert fast.actions == game.actions and fast.results() == game.results()
    assert fast.to_position() == game.to_position()


@pytest.mark.parametrize(
    ("rules", "players"), [("denexa", 4), ("family", 3), ("classic", 2), ("denexa", 2)]
)
@pytest.mark.parametrize("seed", [1, 5, 9])
def test_the_greedy_bot_moves_from_the_game_as_it_chooses_from_the_view(
    rules: str, players: int, seed: int
) -> None:
    """The bot loop lets a greedy bot decide from the game itself (``GreedyBot._move``,
    no view, no list of legal actions): at every move of games of greedy and other bots it
    picks what ``choose`` picks from the view and the legal actions, and that is legal."""
    bots = ("greedy", "strong", "random", "greedy")[:players]
    moved = 0
    for game, legal, action in _moves(rules, bots, seed, turn_limit=400):
        seat = game.to_move
        assert seat is not None
        bot = make_bot("greedy", game.rules)
        move = bot._move(game)  # type: ignore[attr-defined]
        assert move is not None
        assert move == bot.choose(game.view(seat), legal)
        assert game.can(move).ok
        if bots[seat] == "greedy":
            assert move == action
        moved += 1
    assert moved > 100


def test_a_game_shuffles_a_pack_as_random_shuffle_does() -> None:
    """:func:`payme.pack.shuffle` draws the same numbers as ``random.Random.shuffle`` and
    leaves the cards in the same order (and the same random state after)."""
    import random

    from payme.pack import shuffle

    for seed in range(300):
        cards = list(range(seed % 120))
        mine, theirs = random.Random(seed), random.Random(seed)
        expected = list(cards)
        theirs.shuffle(expected)
        shuffle(cards, mine)  # type: ignore[arg-type]
        assert cards == expected and mine.getstate() == theirs.getstate()
