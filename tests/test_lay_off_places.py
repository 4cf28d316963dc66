"""The place of a wild card laid off onto a run: whoever lays off names it (RULES.md,
"Lay-offs"), the engine checks it and says why a place is refused."""

from __future__ import annotations

from payme.cards import Card as C
from payme.game.actions import LayOff, check_form
from payme.game.pay_me import PayMeGame
from payme.layoff import grow_meld, lay_off_places
from tests.pay_me_helpers import final_turn


def test_a_wild_card_can_take_either_end_of_a_run() -> None:
    assert lay_off_places("5H 6H 7H", "JK", "family", 9) == (C("4H"), C("8H"))
    assert lay_off_places("AH 2H 3H", "JK", "family", 9) == (C("4H"),)  # nothing below A
    assert lay_off_places("7S 7H 7D", "JK", "family", 9) == ()  # a set: no place to name
    assert lay_off_places("5H 6H 7H", "KC", "family", 9) == ()  # does not fit
    low = grow_meld("5H 6H 7H", "JK", "family", 9, places=[C("4H")])
    assert low is not None and str(low) == "JK(4H) 5H 6H 7H"
    assert str(grow_meld("5H 6H 7H", "JK", "family", 9)) == "5H 6H 7H JK(8H)"  # unnamed: high
    assert grow_meld("5H 6H 7H", "JK", "family", 9, places=[C("9H")]) is None


def test_several_cards_each_at_their_named_place() -> None:
    both = grow_meld("5H 6H 7H", "8H JK", "family", 9, places=[C("8H"), C("4H")])
    assert both is not None and str(both) == "JK(4H) 5H 6H 7H 8H"
    chained = grow_meld("5H 6H 7H", "8H JK", "family", 9, places=[None, C("9H")])
    assert chained is not None and str(chained) == "5H 6H 7H 8H JK(9H)"
    # a natural card stands only for itself
    assert grow_meld("5H 6H 7H", "8H JK", "family", 9, places=[C("4H"), None]) is None


def _lay_off_turn() -> PayMeGame:
    game = final_turn("denexa", ["5H 6H 7H", "JK 9C KC"], "TS QS")
    game.discard("QS")
    assert game.phase == "lay_off" and game.to_move == 1
    return game


def test_the_game_lays_a_wild_card_off_at_the_low_end() -> None:
    game = _lay_off_turn()
    low = LayOff(1, ((0, (C("JK"),)),), ((C("4H"),),))
    assert game.can(low)
    game.apply(low)
    table = game.summaries[-1].table
    assert [str(c) for c in table[0]] == ["JK", "5H", "6H", "7H"]  # in place order: JK is 4H


def test_a_refused_place_says_why() -> None:
    game = _lay_off_turn()
    verdict = game.can(LayOff(1, ((0, (C("JK"),)),), ((C("3H"),),)))
    assert not verdict
    assert "JK as 3H is not a place" in verdict.reason
    assert "4H or 8H" in verdict.reason
    assert verdict.rule.startswith("lay-offs: whoever lays off names the place")
    # without a place the engine still chooses (old games replay as before)
    assert game.can(LayOff(1, ((0, (C("JK"),)),)))


def test_badly_formed_places_are_refused_before_anything_changes() -> None:
    bad = LayOff(1, ((0, (C("JK"),)),), ((C("4H"), C("8H")),))
    assert not check_form(bad, 2)
    assert "places" in check_form(bad, 2).reason
    assert check_form(LayOff(1, ((0, (C("JK"),)),), ((None,),)), 2)
