"""One meaning per name: renamed names still work for one release, with a warning."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

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
    ("payme.game.expert", "advise", "payme.game", "advise"),
    ("payme.game.pay_me", "replay", "payme.game", "replay"),
    ("payme.game.view", "built", "payme.game.view", "make_frozen"),
    ("payme.game.position", "write", "payme.game.position", "write_position"),
    ("payme.game.position", "read", "payme.game.position", "read_position"),
    ("payme.solver.search", "replay", "payme.solver.search", "replay_picks"),
    ("payme.solver.layout", "layout", "payme.solver.layout", "path_layout"),
    ("payme.ruleset_checks", "PLAYERS", "payme.ruleset_checks", "PLAYERS_RANGE"),
    ("payme.ruleset_checks", "Check", "payme.ruleset_checks", "FieldCheck"),
    ("payme.tutorial.content", "MeldCheck", "payme.tutorial.content", "MeldExamples"),
    ("payme.tutorial.content", "describe", "payme.tutorial.content", "describe_context"),
    ("payme.tutorial.ask", "go_out_options", "payme.tutorial.ask", "go_out_choices"),
    ("payme.widgets.analysis", "MAX_GAMES", "payme.widgets.analysis", "PAGE_MAX_GAMES"),
    ("payme.analysis.cli", "check_dealt", "payme.analysis.cli", "check_dealt_option"),
]


@pytest.mark.parametrize(("module", "old", "new_module", "new"), RENAMED)
def test_a_renamed_name_still_works_with_a_deprecation_warning(
    module: str, old: str, new_module: str, new: str
) -> None:
    target = getattr(importlib.import_module(new_module), new)
    with pytest.warns(
        DeprecationWarning, match=rf"{old} is deprecated \(removal in 0\.4\): use .*{new}"
    ):
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


# --- every public name is defined once -------------------------------------------------

PAYME = Path(payme.__file__).parent

PER_GAME = {
    # Each game's engine module and bot module hold their tables under the same name, read
    # through the game (``game_class(rules).BOT_MODULE`` → ``BOTS``).
    "BOTS": {"game/bots.py", "game/three_pack_bots.py"},
    "PHASES": {"game/pay_me.py", "game/three_pack.py"},
    # The tutorial's question builders and step tables, one module per game by design
    # (tutorial/pay_me.py, tutorial/three_pack.py), plus the Pay Me questions the engine
    # answers (tutorial/game_questions.py), which pay_me.py's builder of the same step
    # includes with its own.
    "ASKS": {"tutorial/pay_me.py", "tutorial/three_pack.py"},
    "FIGURES": {"tutorial/pay_me.py", "tutorial/three_pack.py"},
    "going_out_questions": {"tutorial/pay_me.py", "tutorial/three_pack.py"},
    "no_questions": {"tutorial/pay_me.py", "tutorial/three_pack.py"},
    "wilds_example": {"tutorial/pay_me.py", "tutorial/three_pack.py"},
    "turn_questions": {"tutorial/game_questions.py", "tutorial/three_pack.py"},
    "deal_questions": {"tutorial/game_questions.py", "tutorial/pay_me.py"},
    "money_questions": {"tutorial/game_questions.py", "tutorial/pay_me.py"},
    "stock_out_questions": {"tutorial/game_questions.py", "tutorial/pay_me.py"},
    # Each program's entry point, and each patch of a library's install hook.
    "main": {"app/kernel.py", "app/server.py", "cli.py"},
    "install": {"app/jinja_cache.py", "app/plain_errors.py"},
}
LEFT_TO_THE_APP = {
    # The web app's own paths (issues 26 and 27 rework payme/app); LANDING even differs
    # ("index" in preload.py, "index.html" in server.py).  Listed so this test says when
    # they are one name again.
    "APP": {"app/server.py", "app/site.py"},
    "LANDING": {"app/preload.py", "app/server.py"},
    "STATIC": {"app/budget.py", "app/server.py", "app/visitors.py"},
}


def public_definitions(package: Path = PAYME) -> dict[str, set[str]]:
    """Every public class, function and constant defined at the top of a module of the
    package (an import or a type variable defines nothing), by name: the modules defining
    it."""
    found: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        where = str(path.relative_to(package))
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                value = node.value
                if isinstance(value, ast.Call) and ast.unparse(value.func) == "TypeVar":
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
            else:
                continue
            for name in names:
                if not name.startswith("_"):
                    found.setdefault(name, set()).add(where)
    return found


def test_every_public_name_is_defined_once() -> None:
    defined = public_definitions()
    assert {"Advice", "MeldCheck", "short_label", "SUIT_SYMBOLS", "advise"} <= set(defined)
    twice = {name: places for name, places in defined.items() if len(places) > 1}
    allowed = PER_GAME | LEFT_TO_THE_APP
    unexpected = {name: sorted(p) for name, p in twice.items() if allowed.get(name) != p}
    assert not unexpected, f"names defined in more than one module: {unexpected}"
    gone = sorted(set(allowed) - set(twice))
    assert not gone, f"defined once now, take them off the lists: {gone}"


def test_the_name_check_sees_functions_and_constants(tmp_path: Path) -> None:
    """A second function, class or constant of a name counts; a type variable, an import,
    a private name or a method does not."""
    (tmp_path / "a.py").write_text(
        "from b import g\nT = TypeVar('T')\nLIMIT: int = 3\ndef g(): ...\nclass K:\n"
        "    def run(self): ...\n_hidden = 1\n"
    )
    (tmp_path / "b.py").write_text("T = TypeVar('T')\nLIMIT = 4\ndef g(): ...\nK = int\n")
    (tmp_path / "c.py").write_text("def run(): ...\n_hidden = 2\n")
    found = public_definitions(tmp_path)
    twice = {name for name, places in found.items() if len(places) > 1}
    assert twice == {"LIMIT", "g", "K"}
    assert found["run"] == {"c.py"} and "T" not in found and "_hidden" not in found


def test_wild_ranks_is_one_field_and_twos_wild_an_old_name_for_one_release() -> None:
    import dataclasses

    denexa = rules("denexa")
    assert denexa.wild_ranks == (2,) and rules("family").wild_ranks == ()
    assert "twos_wild" not in {f.name for f in dataclasses.fields(denexa)}
    with pytest.warns(DeprecationWarning, match=r"Ruleset\.twos_wild is deprecated"):
        assert denexa.twos_wild is True
    with pytest.warns(DeprecationWarning, match=r"twos_wild=\.\.\.\) is deprecated") as caught:
        no_twos = dataclasses.replace(denexa, name="no-twos", twos_wild=False)
    assert no_twos.wild_ranks == () and no_twos == dataclasses.replace(
        denexa, name="no-twos", wild_ranks=()
    )
    assert caught[0].filename == __file__ or "dataclasses" in caught[0].filename
    with pytest.warns(DeprecationWarning):
        assert dataclasses.replace(rules("family"), twos_wild=True).wild_ranks == (2,)
    with pytest.raises(AttributeError, match="no attribute 'threes_wild'"):
        denexa.threes_wild  # noqa: B018


def test_the_tutorial_reads_wild_cards_through_the_rule_set() -> None:
    """A house rule "threes are wild too" is named wherever the tutorial lists wild cards."""
    import dataclasses

    from payme.tutorial.content import context

    threes = dataclasses.replace(rules("denexa"), name="threes-too", wild_ranks=(2, 3))
    words = context(threes)
    assert (
        words["wild_cards"] == "the jokers, every 2, every 3 and every card of the round wild rank"
    )
    assert words["ranked_wilds"] == "a 2, or a 3, or a card of the round wild rank"
    assert words["twos_wild"] is True and context(rules("classic"))["twos_wild"] is False
    assert context(rules("classic"))["ranked_wilds"] == "a card of the round wild rank"


def test_a_deprecation_warning_points_at_the_code_that_used_the_old_name() -> None:
    from payme.game.pay_me import PayMeGame

    with pytest.warns(DeprecationWarning) as caught:
        importlib.import_module("payme.widgets.play_session").encode_move  # noqa: B018
        PayMeGame.GO_OUT_CALL  # noqa: B018
        payme.GoOut  # noqa: B018
        rules("denexa").twos_wild  # noqa: B018
    assert [w.filename for w in caught] == [__file__] * 4
    assert all("(removal in 0.4)" in str(w.message) for w in caught)
