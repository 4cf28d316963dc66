"""More shortcuts of a bot game (see test_fast_paths.py): records built without their
constructor, the greedy bot's choices taken as the very objects listed, and the fitting
masks kept for the Meld object asked about last."""

from __future__ import annotations

import dataclasses

from test_fast_paths import _moves

from payme.game import make_bot, new_game, play_game
from payme.game.actions import Discard, LayOff, Record
from payme.game.bots import bot_seed
from payme.layoff import _FITTING, _LAST_FITTING, _grown_mask, fitting_mask
from payme.melds import Meld, tables_for


def test_every_record_equals_the_constructed_one() -> None:
    game = play_game("denexa", 4, ("greedy", "strong", "random", "greedy"), seed=5)
    assert len(game.history) > 100
    for rec in game.history:
        assert set(vars(rec)) == {f.name for f in dataclasses.fields(Record)}
        assert rec == Record(**vars(rec))
        assert hash(rec) == hash(Record(**vars(rec)))


def test_greedy_discards_and_empty_lay_offs_are_the_listed_objects() -> None:
    kinds = {Discard: 0, LayOff: 0}
    for _, legal, action in _moves("denexa", ("greedy",) * 4, 9):
        if type(action) in kinds:
            assert any(a is action for a in legal), action
            kinds[type(action)] += 1
    assert kinds[Discard] > 20 and kinds[LayOff] > 0


def test_a_lay_off_phase_lists_no_discards() -> None:
    game = new_game("denexa", 3, 4)
    bots = [make_bot("greedy", game.rules, bot_seed(4, s)) for s in range(3)]
    while game.phase != "lay_off":
        assert not game.over
        if game.phase == "hand_over":
            game.advance()
            continue
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    legal = game.legal_actions()
    assert legal and all(isinstance(a, LayOff) for a in legal)


def test_fitting_mask_of_an_equal_meld_and_of_the_same_object() -> None:
    t = tables_for("denexa", 9)
    meld = Meld("run", "5H JK(6H) 7H")
    first = fitting_mask(meld, t)
    assert fitting_mask(meld, t) == first  # the object asked about last
    _LAST_FITTING.clear()
    _FITTING.clear()
    again = Meld("run", "5H JK(6H) 7H")
    assert again is not meld and fitting_mask(again, t) == first
    assert first == _grown_mask(meld, t)
    other = tables_for("denexa", 5)  # other wild cards: another mask for the same object
    assert fitting_mask(meld, other) == _grown_mask(meld, other) != first
