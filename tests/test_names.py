"""One meaning per name: renamed names still work for one release, with a warning."""

from __future__ import annotations

import importlib

import pytest

import payme
from payme.game import actions
from payme.rulesets import rules
from payme.words import amount, deadwood_unit, rank_plural, wild_phrase

RENAMED = [
    ("payme", "GoOut", "payme", "GoOutCheck"),
    ("payme", "LayOff", "payme", "LayOffResult"),
    ("payme.solver", "GoOut", "payme.solver", "GoOutCheck"),
    ("payme.solver", "Discard", "payme.solver", "BestDiscard"),
    ("payme.layoff", "LayOff", "payme.layoff", "LayOffResult"),
    ("payme.puzzles", "Verdict", "payme.puzzles", "AnswerCheck"),
    ("payme.game.evaluation", "best_discard", "payme.game.evaluation", "best_discard_points"),
    ("payme.game.evaluation", "best_lay_off", "payme.game.evaluation", "best_lay_off_points"),
    ("payme.game.three_pack_bots", "StrongBot", "payme.game.three_pack_bots", "ThreePackStrongBot"),
    ("payme.game.three_pack_bots", "BOT_NAMES", "payme.game", "BOT_NAMES"),
    ("payme.widgets.puzzles", "wild_phrase", "payme.widgets.puzzles", "wild_this_round"),
    ("payme.widgets.play_session", "encode_move", "payme.play.session", "move_token"),
    ("payme.widgets.play_session", "decode_move", "payme.play.session", "parse_move"),
    ("payme.widgets.play_session", "PlaySession", "payme.play.session", "PlaySession"),
    ("payme.widgets.play", "encode_move", "payme.play.session", "move_token"),
    ("payme.widgets.play", "decode_move", "payme.play.session", "parse_move"),
    ("payme.widgets.play_view", "TableState", "payme.play.view", "TableState"),
    ("payme.display.svg", "SUIT_SYMBOLS", "payme.words", "SUIT_MARKS"),
    ("payme.advice", "label", "payme.words", "short_label"),
    ("payme.advice", "explain_move", "payme.game.explain", "explain_move"),
    ("payme.game.expert", "label", "payme.words", "short_label"),
    ("payme.game.expert", "Advice", "payme.game.bots", "Recommendation"),
]


@pytest.mark.parametrize(("module", "old", "new_module", "new"), RENAMED)
def test_a_renamed_name_still_works_with_a_deprecation_warning(
    module: str, old: str, new_module: str, new: str
) -> None:
    target = getattr(importlib.import_module(new_module), new)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: use .*{new}"):
        assert getattr(importlib.import_module(module), old) is target


def test_the_public_names_are_the_actions_and_the_answers_apart() -> None:
    # An action (what a player does) and an answer (what the solver says) differ by name.
    assert payme.GoOutCheck is not actions.GoOut and payme.LayOffResult is not actions.LayOff
    assert "GoOut" not in payme.__all__ and "LayOff" not in payme.__all__
    out = payme.can_go_out("5H 6H 7H 9C", rules="classic", dealt=3)
    assert type(out).__name__ == "GoOutCheck" and out.discards == (payme.parse_card("9C"),)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        payme.Nope  # noqa: B018


def test_phrases_live_once_and_read_the_rule_set() -> None:
    assert [rank_plural(r) for r in (1, 2, 6, 10, 11, 13)] == [
        "aces", "twos", "sixes", "tens", "jacks", "kings",
    ]  # fmt: skip
    assert wild_phrase(rules("family"), 12) == "queens and jokers are wild"
    assert wild_phrase(rules("denexa"), 3) == "twos, threes and jokers are wild"
    assert wild_phrase(rules("three_pack"), None) == ""
    assert deadwood_unit(rules("denexa")) == "points"
    assert deadwood_unit(rules("three_pack")) == "unmelded cards"
    assert amount(2, rules("three_pack")) == "2 unmelded cards"
    assert payme.check_meld("6H 6S 6D", "classic", 9).reason == "Valid set of sixes."


def test_a_laid_off_set_card_shows_the_wild_card_as_it_ends_up() -> None:
    # QS joins QC QD JK in denexa: the joker then stands for the queen of hearts.
    text = str(payme.lay_off("QS", ["QC QD JK"], rules="denexa", dealt=9))
    assert "JK(QS)" not in text
    assert text == "deadwood 0; lay off QS onto QD QC JK, making QS QD QC JK(QH)"
