"""One interface for both games: typed views, positions in text, bots and replay alike."""

from __future__ import annotations

import dataclasses
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payme.cards import parse_card
from payme.game import (
    BOT_NAMES,
    from_position,
    game_class,
    make_bot,
    new_game,
    play_game,
    replay,
)
from payme.game.actions import STEPS, Discard, Draw, DropOut, IllegalAction, LayOff
from payme.game.base import Game
from payme.game.bots import play_out
from payme.game.pay_me import PayMeGame
from payme.game.position import PositionError, with_fields
from payme.game.three_pack import ThreePackGame
from payme.game.view import PayMeView, SeatView, ThreePackView
from payme.rulesets import rules

GAMES = [("denexa", 3, {}), ("family", 2, {}), ("three_pack", 3, {"dealt": 5})]


def _drive(game: Game, steps: int, seed: int) -> Game:
    """Play ``steps`` actions with bots, through the interface only (no game asked)."""
    bots = [make_bot(BOT_NAMES[(seed + s) % 3], game.rules, seed + s) for s in range(9)]
    return play_out(game, bots, max_actions=steps)


@pytest.mark.parametrize(("rules", "players", "options"), GAMES)
def test_both_games_offer_the_same_interface_and_view_fields(
    rules: str, players: int, options: dict[str, int]
) -> None:
    game = new_game(rules, players, 5, **options)
    assert isinstance(game, Game) and isinstance(game, game_class(rules))
    view = game.view(0)
    assert isinstance(view, SeatView)
    common = {f.name for f in dataclasses.fields(SeatView)}
    assert common <= {f.name for f in dataclasses.fields(view)}
    assert view.hand == tuple(sorted(view.hand)) or view.hand == game.hand_of(0)
    assert view.hand_counts == tuple(len(game.hand_of(s)) for s in range(players))
    assert len(view.melds) == players and view.winners == () and not view.over
    if game.rules.stock_counted:
        assert view.stock_count == len(game.stock) == view.stock_estimate
    else:  # the Rummy 3-Pack stock is never counted: an estimate only
        assert view.stock_count is None and abs(view.stock_estimate - len(game.stock)) <= 2
    assert game.hand_number == 1 and game.dealt == view.dealt
    finished = _drive(game, 10_000, 5)
    assert finished.over and finished.view(0).winners == finished.winners()


@pytest.mark.parametrize(("rules", "players", "options"), GAMES)
def test_every_action_by_hand_in_both_games(
    rules: str, players: int, options: dict[str, int]
) -> None:
    """``can_<step>`` / ``<step>`` for every action type, named after its step, in both
    games; each builds the action of the player to move, as ``apply`` would take it."""
    game = new_game(rules, players, 5, **options)
    for step in STEPS.values():
        name = step.removeprefix("_do_")
        assert callable(getattr(game, name)) and callable(getattr(game, "can_" + name)), name
    seat = game.to_move
    assert game.can_draw() == game.can(Draw(seat, "stock"))
    assert game.can_lay_off() == game.can(LayOff(seat))
    assert game.can_drop_out() == game.can(DropOut(seat))
    assert game.draw().action == Draw(seat, "stock")
    card = game.hand_of(seat)[0]
    assert game.can_discard(card.token) == game.can(Discard(seat, card))
    assert game.discard(card.token).action == Discard(seat, card)
    if not game.can_drop_out():  # Pay Me: a kind it does not know is refused with why
        assert "not an action in Pay Me" in game.can_drop_out().reason
        with pytest.raises(IllegalAction, match="not an action in Pay Me"):
            game.drop_out()
    with pytest.raises(TypeError, match="too many positional arguments"):
        game.can_draw("stock", 1, 2)


def test_each_game_has_its_own_view_type_and_a_bot_refuses_the_other_games_view() -> None:
    pay_me, three = new_game("denexa", 2).view(0), new_game("three_pack", 2).view(0)
    assert isinstance(pay_me, PayMeView) and isinstance(three, ThreePackView)
    with pytest.raises(TypeError, match="a bot plays one game"):
        make_bot("greedy", "denexa").choose(three, [])


def test_the_seed_defaults_alike() -> None:
    assert new_game("denexa").seed == new_game("three_pack").seed == 0
    again = new_game("three_pack", 3)
    assert again.to_position() == new_game("three_pack", 3).to_position()


@pytest.mark.parametrize(("rules", "players", "options"), GAMES)
def test_replay_and_play_game_rebuild_either_game(
    rules: str, players: int, options: dict[str, int]
) -> None:
    game = play_game(rules, players, ("strong", "greedy", "random")[:players], 2, **options)
    limit = game_class(rules).BOT_TURN_LIMIT
    extra = {} if limit is None else {"turn_limit": limit}
    again = replay(rules, players, 2, game.actions, **options, **extra)
    assert again.history == game.history and again.to_position() == game.to_position()


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(0, 120))
def test_a_position_round_trips_and_sets_up_the_same_game(
    case: tuple[str, int, dict[str, int]], seed: int, steps: int
) -> None:
    rules, players, options = case
    game = _drive(new_game(rules, players, seed, **options), steps, seed)
    text = game.to_position()
    copy = from_position(text)
    assert type(copy) is type(game) and copy.to_position() == text
    assert copy.legal_actions() == game.legal_actions()
    assert copy.cards_in_play() == game.cards_in_play()
    # A position holds no history: the summary of the hand before is not in it.
    assert _present(copy.view(0)) == _present(game.view(0))


def _present(view: SeatView) -> SeatView:
    past = {"last_hand": None} if isinstance(view, PayMeView) else {}
    return dataclasses.replace(view, **past)


def test_a_position_sets_up_a_game_from_a_few_fields() -> None:
    game = from_position("rules=denexa; players=2; hands=5H 6H 7H / 8C 9D TD; pile=2C; stock=* 8H")
    assert game.to_move == 0 and game.phase == "draw"
    game.apply(Draw(0, "stock"))
    assert game.hand_of(0)[-1] == parse_card("8H")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": "5H 6H 7H / 8C 9D TD / 2C"}, "one entry per seat"),
        ({"stock": "AS"}, "cards of the pack are nowhere"),
        ({"pile": "JK JK JK"}, "the pack holds 2 JK"),
        ({"phase": "dancing"}, "phase must be one of"),
        ({"to_move": "7"}, "to_move must be a seat"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"hand": "twelve"}, "field hand: 'twelve' is not a whole number"),
        ({"table": "run:2D 4D"}, "is not valid"),
    ],
)
def test_a_bad_position_is_refused_with_a_reason(change: dict[str, str], message: str) -> None:
    text = with_fields("rules=denexa; players=2; hands=5H 6H 7H / 8C 9D TD; stock=*", **change)
    with pytest.raises(PositionError, match=message):
        from_position(text)


def test_old_names_still_work_for_one_release_with_a_warning() -> None:
    view = new_game("three_pack", 2).view(0)
    with pytest.warns(DeprecationWarning, match="use the attribute .hand"):
        assert view["hand"] == view.hand
    with pytest.warns(DeprecationWarning, match=r"\.hand_counts"):
        assert view["hand_sizes"] == view.hand_counts
    import payme.game.three_pack_bots as old

    with pytest.warns(DeprecationWarning, match="ThreePackStrongBot"):
        assert old.StrongBot is old.ThreePackStrongBot
    with pytest.warns(DeprecationWarning, match=r"payme\.game\.BOT_NAMES"):
        assert old.BOT_NAMES == BOT_NAMES
    # The engines' GO_OUT_CALL moved to the rule set (go_out_call): the old class attribute
    # still answers, with a warning.
    with pytest.warns(DeprecationWarning, match=r"read rules\.go_out_call"):
        assert PayMeGame.GO_OUT_CALL == rules("denexa").go_out_call == "Pay me!"
    with pytest.warns(DeprecationWarning, match=r"read rules\.go_out_call"):
        assert ThreePackGame.GO_OUT_CALL == rules("three_pack").go_out_call == ""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert view.hand  # the attribute itself warns about nothing
