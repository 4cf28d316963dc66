"""Actions are transactions: a malformed, illegal or failing action changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payme.cards import CARDS, parse_card
from payme.game import BOT_NAMES, make_bot, new_game
from payme.game.actions import Discard, Draw, DropOut, GoOut, IllegalAction, LayDownRummy, LayOff
from payme.game.base import Game
from payme.game.bots import play_out
from payme.melds import Meld

GAMES = [("denexa", 3, {}), ("family", 2, {}), ("three_pack", 3, {"dealt": 5})]


def _state(game: Game) -> tuple[object, ...]:
    """Everything a game is: its position, its log, the actions so far, its random source."""
    return (game.to_position(), game.history, game.actions, game._rng.getstate())


def _position(case: tuple[str, int, dict[str, int]], seed: int, steps: int) -> Game:
    rules, players, options = case
    game = new_game(rules, players, seed, **options)
    bots = [make_bot(BOT_NAMES[(seed + s) % 3], rules, seed + s) for s in range(players)]
    return play_out(game, bots, max_actions=steps)


seats = st.sampled_from([0.0, 1.0, False, True, -1, 9, None, "0", 1.5])
cards = st.sampled_from([*CARDS[:3], parse_card("7H")])
bad_cards = st.sampled_from(["7H", 7, None, 1.0, ("7H",), b"7H"])
malformed = st.one_of(
    st.builds(Draw, seats, st.sampled_from(["stock", "discard"])),
    st.builds(Draw, st.integers(0, 2), st.sampled_from(["pile", "Stock", "", None, 0])),
    st.builds(Draw, st.integers(0, 2), st.just("discard"), st.sampled_from([0, -1, 1.0, True])),
    st.builds(Discard, seats, cards),
    st.builds(Discard, st.integers(0, 2), bad_cards),
    st.builds(GoOut, seats, st.none()),
    st.builds(GoOut, st.integers(0, 2), bad_cards),
    st.builds(
        GoOut,
        st.integers(0, 2),
        st.none(),
        st.sampled_from([("JK 5H 6H",), ["5H 6H 7H"], "5H 6H 7H", (Meld("run", "5H 6H 7H"),)]),
    ),
    st.builds(
        LayOff,
        st.integers(0, 2),
        st.sampled_from([[(0, ["8H"])], ((0, "8H"),), ((0.0, (parse_card("8H"),)),), "8H"]),
    ),
    st.builds(LayOff, seats),
    st.builds(LayDownRummy, seats),
    st.builds(DropOut, seats),
    st.sampled_from(["draw", None, 3, ("Draw", 0), Draw]),
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 500), st.integers(0, 60), malformed)
def test_a_malformed_or_illegal_action_is_refused_and_changes_nothing(
    case: tuple[str, int, dict[str, int]], seed: int, steps: int, action: Any
) -> None:
    game = _position(case, seed, steps)
    before = _state(game)
    verdict = game.can(action)
    try:
        game.apply(action)
    except IllegalAction as err:
        assert not verdict.ok and err.reason == verdict.reason
    else:  # a well-formed action that happens to be legal here (e.g. a Meld tuple)
        assert verdict.ok
        return
    assert _state(game) == before
    assert game.cards_in_play() == _position(case, seed, steps).cards_in_play()


def test_a_float_seat_draw_is_refused_whole() -> None:
    game = new_game("denexa", players=2, seed=1)
    before = _state(game)
    verdict = game.can(Draw(0.0, "stock"))  # type: ignore[arg-type]
    assert not verdict.ok and verdict.reason == "A seat is a whole number from 0 to 1, not 0.0."
    with pytest.raises(IllegalAction, match="whole number"):
        game.apply(Draw(0.0, "stock"))  # type: ignore[arg-type]
    assert _state(game) == before and sum(game.cards_in_play().values()) == 54


def test_a_bool_seat_is_no_seat() -> None:
    game = new_game("denexa", players=2, seed=1)
    game.apply(Draw(0, "stock"))
    card = game.hand_of(0)[0]
    before = _state(game)
    with pytest.raises(IllegalAction, match="not False"):
        game.apply(Discard(False, card))  # type: ignore[arg-type]
    assert _state(game) == before


@pytest.mark.parametrize(("rules", "players", "options"), GAMES)
def test_an_action_failing_half_way_is_undone(
    rules: str, players: int, options: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(rules, players, 3, **options)
    seat = game.to_move
    assert seat is not None
    before = _state(game)

    def broken(*args: object, **kwargs: object) -> None:
        raise MemoryError("the machine ran out of memory half-way")

    # The draw takes its card, then fails while writing the log: nothing may stay changed.
    monkeypatch.setattr(game, "_record", broken)
    with pytest.raises(MemoryError):
        game.apply(Draw(seat, "stock"))
    monkeypatch.undo()
    assert _state(game) == before
    game.apply(Draw(seat, "stock"))  # and the game goes on
    assert len(game.hand_of(seat)) == game.dealt + 1
