"""The shortcuts a whole bot game takes: they must change nothing a player could see.

``play_game`` applies an action it took unchanged from ``legal_actions`` without asking
``can`` again, and every view is built without its dataclass constructor.  Both are safe
only if every listed action is legal and a built view equals the constructed one: checked
here move by move, on both games and every kind of bot.
"""

from __future__ import annotations

import dataclasses

import pytest

from payme.game import game_class, make_bot, new_game, play_game
from payme.game.bots import bot_seed

SEATINGS = [
    ("denexa", ("greedy", "strong", "random", "greedy")),
    ("family", ("random", "random", "strong")),
    ("classic", ("expert", "greedy")),
    ("three_pack", ("greedy", "random", "strong")),
]


@pytest.mark.parametrize(("rules", "bots"), SEATINGS)
@pytest.mark.parametrize("seed", [3, 11])
def test_every_listed_action_is_legal_and_every_view_is_whole(
    rules: str, bots: tuple[str, ...], seed: int
) -> None:
    options = {"dealt": 5} if rules == "three_pack" else {}
    game = new_game(rules, len(bots), seed, **options)
    seated = [make_bot(name, game.rules, bot_seed(seed, s)) for s, name in enumerate(bots)]
    checked = 0
    while not game.over:
        if game.phase == "hand_over":
            game.advance()
            continue
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        for action in legal:
            verdict = game.can(action)
            assert verdict.ok, (action, verdict.reason)
        for s in range(game.players):
            view = game.view(s)
            names = {f.name for f in dataclasses.fields(view)}
            assert set(vars(view)) == names
            assert view == type(view)(**vars(view))
        game.apply(seated[seat].choose(game.view(seat), legal))
        checked += 1
    assert checked > 5


@pytest.mark.parametrize(("rules", "bots"), SEATINGS)
def test_a_whole_bot_game_plays_as_one_checked_move_by_move(
    rules: str, bots: tuple[str, ...]
) -> None:
    """``play_game`` (shortcuts taken) and the same bots through ``apply`` (every action
    checked, undo kept) play the very same game."""
    options = {"dealt": 5} if rules == "three_pack" else {}
    seed = 7
    fast = play_game(rules, len(bots), bots, seed=seed, **options)
    engine = game_class(rules)
    if engine.BOT_TURN_LIMIT is not None:
        options = {**options, "turn_limit": engine.BOT_TURN_LIMIT}
    slow = new_game(rules, len(bots), seed, **options)
    seated = [make_bot(name, slow.rules, bot_seed(seed, s)) for s, name in enumerate(bots)]
    while not slow.over:
        if slow.phase == "hand_over":
            slow.advance()
            continue
        seat = slow.to_move
        assert seat is not None
        slow.apply(seated[seat].choose(slow.view(seat), slow.legal_actions()))
    assert fast.actions == slow.actions and fast.results() == slow.results()
    assert fast.to_position() == slow.to_position()
