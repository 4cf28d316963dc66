"""The Puzzles page driven from Python: answers graded against the engine, nonsense answered
with a message, new puzzles following the settings, ids in the URL.

Right answers are worked out here with the solver, never read back from the page."""

from __future__ import annotations

from typing import Any

import pytest
from puzzle_helpers import discard_points

from payme import best_discard, can_go_out, evaluate, lay_off
from payme.puzzles import KINDS, Puzzle, kinds_for, new_puzzle, puzzle_from_id
from payme.widgets.puzzles import PuzzlePage

NONSENSE = ("bogus!!", "7X", "-3", "3.5", "<b>hi</b>", "QS QS QS QS QS QS", "🂡")


def page_for(puzzle_id: str) -> PuzzlePage:
    page = PuzzlePage.from_query({"id": puzzle_id})
    assert page.puzzle is not None and page.puzzle.id == puzzle_id
    return page


def first(kind: str, test: Any, rules: str = "denexa", dealt: int = 7) -> Puzzle:
    """The first puzzle of a kind (seeds 0, 1, ...) whose engine answer passes ``test``."""
    for seed in range(300):
        p = new_puzzle(kind, rules, dealt=dealt, seed=seed)  # type: ignore[arg-type]
        if test(p):
            return p
    raise AssertionError(f"no {kind} puzzle found for this test")


def verdict(page: PuzzlePage) -> str:
    if "payme-verdict-right" in page.verdict.value:
        return "right"
    if "payme-verdict-wrong" in page.verdict.value:
        return "wrong"
    return ""


# --- answering each kind ----------------------------------------------------------------


def test_discard_by_click_right_and_wrong() -> None:
    p = first("discard", lambda p: len(set(discard_points(p).values())) > 1)
    page = page_for(p.id)
    best = best_discard(p.hand, rules=p.rules, dealt=p.dealt).card
    # One button per distinct card of the hand.
    assert sorted(v for _, v in page.card_choice.options) == sorted({str(c) for c in p.hand})
    page.card_choice.value = str(best)
    assert page.answer_text.value == str(best)
    page.check_button.click()
    assert verdict(page) == "right", page.verdict.value
    assert "payme-layout" in page.solution_view.value  # the layout after the discard
    points = discard_points(p)
    worse = next(c for c, v in points.items() if v > min(points.values()))
    page.set_answer(worse.lower())  # typed, lower case: the parser accepts it
    assert page.card_choice.value == worse  # typing selects the button too
    page.check()
    assert verdict(page) == "wrong"
    assert page.answer_message.kind is None


@pytest.mark.parametrize("case", ["no", "none", "card"])
def test_go_out_answers(case: str) -> None:
    def fits(p: Puzzle) -> bool:
        out = can_go_out(p.hand, p.rules, p.dealt)
        if case == "no":
            return not out.ok
        if case == "none":
            return out.ok and None in out.discards
        return out.ok and None not in out.discards

    p = first("go_out", fits)
    page = page_for(p.id)
    out = can_go_out(p.hand, p.rules, p.dealt)
    if case == "card":
        page.card_choice.value = str(out.discards[0])
        assert page.go_out_choice.value is None
    else:
        page.go_out_choice.value = case
        assert page.answer_text.value == case and page.card_choice.value is None
    page.check()
    assert verdict(page) == "right", page.verdict.value
    assert "payme-go-out" in page.solution_view.value
    # The opposite answer is wrong.
    page.go_out_choice.value = "none" if case == "no" else "no"
    page.check()
    assert verdict(page) == "wrong"


def test_deadwood_by_cards_or_points() -> None:
    p = first("deadwood", lambda p: 0 < len(evaluate(p.hand, p.rules, p.dealt).deadwood) < 5)
    ev = evaluate(p.hand, p.rules, p.dealt)
    page = page_for(p.id)
    assert len(page.card_toggles) == len(p.hand)
    wanted = list(ev.deadwood)
    for card, toggle in zip(p.hand, page.card_toggles, strict=True):
        if card in wanted:
            wanted.remove(card)
            toggle.value = True
    assert sorted(page.answer_text.value.split()) == sorted(str(c) for c in ev.deadwood)
    page.check()
    assert verdict(page) == "right", page.verdict.value
    # Typed points; the toggles follow typed text (here: none selected).
    page.set_answer(str(ev.deadwood_points + 1))
    assert not any(t.value for t in page.card_toggles)
    page.check()
    assert verdict(page) == "wrong"
    page.set_answer(f" {ev.deadwood_points} ")
    page.check()
    assert verdict(page) == "right"
    # Typed cards select the matching toggles.
    page.set_answer(str(p.hand[0]))
    assert [t.value for t in page.card_toggles] == [i == 0 for i in range(len(p.hand))]


def test_lay_off_points() -> None:
    p = first("lay_off", lambda p: bool(lay_off(p.hand, list(p.declarer_melds), p.rules,
                                                p.dealt).lay_offs))  # fmt: skip
    page = page_for(p.id)
    best = lay_off(p.hand, list(p.declarer_melds), p.rules, p.dealt)
    assert page.declarer_view.value.count("payme-meld") == len(p.declarer_melds)
    assert page.declarer_view.layout.display is None
    page.set_answer(str(best.deadwood_points))
    page.check()
    assert verdict(page) == "right"
    assert "payme-layoff" in page.solution_view.value
    page.set_answer(str(best.deadwood_points + 5))
    page.check()
    assert verdict(page) == "wrong"


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_nonsense_is_a_message_and_the_page_keeps_working(kind: str) -> None:
    page = PuzzlePage(kind=kind, seed=3)
    assert page.puzzle is not None and page.puzzle.kind == kind
    for text in NONSENSE:
        page.set_answer(text)
        page.check_button.click()  # a widget callback: must never raise
        assert page.answer_message.kind == "error", (kind, text)
        assert page.answer_message.text
        assert page.verdict.value == ""
        assert "<b>hi" not in page.answer_message.value  # shown as text, escaped
    page.set_answer("")
    page.check()
    assert "Choose or type an answer first" in page.answer_message.text
    page.solution_button.click()
    assert "Solution:" in page.verdict.value and page.answer_message.kind is None
    page.new_button.click()
    assert page.message.kind is None and page.verdict.value == ""


def test_a_failing_generation_is_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    page = PuzzlePage(seed=1)
    before = page.puzzle

    def fail(*_args: Any) -> Puzzle:
        raise ValueError("no hard puzzle found in 400 tries")

    monkeypatch.setattr("payme.widgets.puzzles.new_puzzle", fail)
    page.new_button.click()
    assert page.message.kind == "error" and "no hard puzzle" in page.message.text
    assert page.puzzle is before


# --- settings ----------------------------------------------------------------------------


def test_kinds_follow_the_rule_set() -> None:
    page = PuzzlePage(rules="denexa", kind="lay_off", seed=2)
    values = [v for _, v in page.kind_dd.options]
    assert values[:-1] == list(kinds_for("denexa")) and values[-1] == "any"
    page.rules_dd.value = "classic"  # no lay-offs in classic
    assert "lay_off" not in [v for _, v in page.kind_dd.options]
    assert page.kind_dd.value == kinds_for("classic")[0]
    page.kind_dd.value = "go_out"
    page.rules_dd.value = "three_pack"  # go_out is allowed there: kept
    assert page.kind_dd.value == "go_out"


@pytest.mark.parametrize(
    ("rules", "kind", "difficulty"),
    [("family", "go_out", "hard"), ("three_pack", "deadwood", "medium"), ("classic", "any", "any")],
)
def test_new_puzzle_follows_the_settings(rules: str, kind: str, difficulty: str) -> None:
    page = PuzzlePage(seed=5)
    page.rules_dd.value = rules
    page.kind_dd.value = kind
    page.difficulty_dd.value = difficulty
    page.new_button.click()
    p = page.puzzle
    assert p is not None and page.message.kind is None
    assert p.rules.name == rules and p.id.startswith(f"{rules}-")
    if kind != "any":
        assert p.kind == kind
    if difficulty != "any":
        assert p.difficulty == difficulty
    assert puzzle_from_id(p.id) == p
    # The page states the id, the grade and draws each card, wild ones marked.
    assert p.id in page.share.value and f">{p.difficulty}<" in page.info.value
    assert page.hand_view.value.count('role="img"') == len(p.hand)
    wild = sum(p.rules.is_wild(c, p.dealt) for c in p.hand)
    assert page.hand_view.value.count("payme-card-wild") == wild


def test_new_puzzles_are_repeatable_with_a_seed_and_change_each_click() -> None:
    a, b = PuzzlePage(seed=9), PuzzlePage(seed=9)
    ids = []
    for _ in range(3):
        assert a.puzzle is not None and b.puzzle is not None
        assert a.puzzle.id == b.puzzle.id
        ids.append(a.puzzle.id)
        a.new_button.click()
        b.new_button.click()
    assert len(set(ids)) == 3


# --- the URL -----------------------------------------------------------------------------


def test_an_id_in_the_query_shows_that_puzzle_and_sets_the_settings() -> None:
    p = first("go_out", lambda p: True, rules="family", dealt=9)
    page = PuzzlePage.from_query({"id": p.id})
    assert page.puzzle == p
    assert (page.rules_dd.value, page.kind_dd.value) == ("family", "go_out")
    assert page.difficulty_dd.value == p.difficulty
    assert page.share_query() == f"id={p.id}"
    assert f'href="?id={p.id}"' in page.share.value
    assert page.message.kind is None


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("nonsense", "expected RULES-DEALT-KIND-SEED"),
        ("classic-7-lay_off-1", "the kind must be one of"),
        ("denexa-99-discard-1", "dealt must be from 3 to 13"),
        ("<script>-7-discard-1", "unknown rule set"),
    ],
)
def test_a_bad_id_is_a_message_and_a_fresh_puzzle(bad: str, words: str) -> None:
    page = PuzzlePage.from_query({"id": bad})
    assert page.message.kind == "error" and words in page.message.text
    assert "fresh puzzle" in page.message.text
    assert "<script>" not in page.message.value  # shown as text, escaped
    assert page.puzzle is not None and page.puzzle.id in page.share.value


def test_no_query_gives_a_fresh_puzzle_of_the_defaults() -> None:
    page = PuzzlePage.from_query({}, seed=4)
    assert page.puzzle is not None
    assert page.puzzle.kind == "discard" and page.puzzle.difficulty == "easy"
    assert page.message.kind is None


@pytest.mark.parametrize("kind", KINDS)
def test_a_first_miss_gets_another_try_without_the_solution(kind: str) -> None:
    page = PuzzlePage(kind=kind, seed=5)
    p = page.puzzle
    assert p is not None
    wrong = page.puzzle_wrong_answer()
    assert not p.check(wrong).correct
    page.set_answer(wrong)
    page.check_button.click()
    # "Not quite" with a hint; no verdict, no solution drawn, the box still usable.
    assert page.answer_message.kind == "retry", page.answer_message.text
    assert "Try again. Hint: " in page.answer_message.text
    assert p.solution() not in page.answer_message.text
    assert page.verdict.value == "" and page.solution_view.value == ""
    assert not page.answer_text.disabled and not page.check_button.disabled
    assert page.next_button.layout.display == "none"
    # The second miss shows the solution and offers the next puzzle.
    page.check_button.click()
    assert verdict(page) == "wrong" and p.solution() in page.verdict.value.replace("&#x27;", "'")
    assert page.solution_view.value and page.next_button.layout.display == ""
    page.next_button.click()
    assert page.puzzle is not None and page.puzzle.id != p.id
    assert page.verdict.value == "" and page.next_button.layout.display == "none"
