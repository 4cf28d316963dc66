"""The Learn-the-rules pages in Chromium: load, step with Next/Back, answer a check and read
the engine's verdict, survive nonsense, open a step from the URL.

Expected titles, answers and explanations are computed here from the engine and the step
data, never copied from the page.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from payme.rulesets import rules
from payme.tutorial import steps_for

from .conftest import ARTIFACTS

pytestmark = pytest.mark.e2e

READY = ".payme-tutorial-counter"


def expect() -> Any:
    from playwright.sync_api import expect as pw_expect

    return pw_expect


def counter(page: Any) -> Any:
    return page.locator(".payme-tutorial-counter")


def title(page: Any) -> Any:
    return page.locator(".payme-tutorial-title h2")


def message(page: Any) -> Any:
    return page.locator(".payme-tutorial-check-area .payme-message")


def screenshot(page: Any, name: str) -> None:
    # Voila scrolls inside its own container: a tall viewport shows the whole step.
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1000, "height": 1600})
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)
    page.set_viewport_size({"width": 1000, "height": 700})


def answer_right(page: Any, box: Any, question: Any) -> None:
    """Type ``question``'s right answer into ``box`` and check it: graded right, explained."""
    box.fill(question.right_answer())
    page.locator("button.payme-tutorial-check").click()
    expect()(message(page)).to_contain_text("Right.")
    expect()(message(page)).to_contain_text(question.explanation)


def no_horizontal_overflow(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_pay_me_loads_and_next_back_walk_the_steps(open_page: Any, page_errors: list[str]) -> None:
    steps = steps_for(rules("denexa"))
    page = open_page("learn_pay_me", ready=READY)
    expect()(counter(page)).to_contain_text(f"Step 1 of {len(steps)}")
    expect()(title(page)).to_have_text(steps[0].title)
    page.locator("button.payme-tutorial-next").click()
    expect()(counter(page)).to_contain_text(f"Step 2 of {len(steps)}")
    expect()(title(page)).to_have_text(steps[1].title)
    page.locator("button.payme-tutorial-next").click()
    expect()(title(page)).to_have_text(steps[2].title)
    page.locator("button.payme-tutorial-back").click()
    expect()(counter(page)).to_contain_text(f"Step 2 of {len(steps)}")
    expect()(page.locator(".payme-tutorial-back")).to_be_enabled()
    # Cards are drawn as images with text alternatives.
    expect()(page.locator(".payme-tutorial-text svg[role=img]").first).to_be_visible()
    screenshot(page, "learn_pay_me.png")
    assert no_horizontal_overflow(page)
    assert not page_errors


def test_answer_a_meld_check_and_read_the_engine_verdict(
    open_page: Any, page_errors: list[str]
) -> None:
    r = rules("classic")
    steps = steps_for(r)
    index = next(i for i, s in enumerate(steps) if s.key == "sets")
    question = steps[index].questions(r)[0]
    page = open_page("learn_pay_me", query=f"step={index + 1}&rules=classic", ready=READY)
    expect()(title(page)).to_have_text(steps[index].title)
    expect()(page.locator(".payme-tutorial-rules select")).to_have_value(r.title)
    expect()(page.locator(".payme-tutorial-prompt")).to_have_text(question.prompt)
    right = next(label for label, v in question.options if v in question.right)
    wrong = next(label for label, v in question.options if v not in question.right)
    answers = page.locator(".payme-tutorial-input button")
    answers.filter(has_text=re.compile(f"^{wrong}$")).click()
    page.locator("button.payme-tutorial-check").click()
    # A first miss: another try, the reason kept back.
    expect()(message(page)).to_contain_text("Not quite")
    expect()(message(page)).to_contain_text("Try again")
    expect()(message(page)).not_to_contain_text(question.explanation)
    answers.filter(has_text=re.compile(f"^{right}$")).click()
    page.locator("button.payme-tutorial-check").click()
    expect()(message(page)).to_contain_text("Right.")
    expect()(message(page)).to_contain_text(question.explanation)
    screenshot(page, "learn_pay_me_check.png")
    assert not page_errors


def test_nonsense_in_a_number_check_shows_a_message_and_the_page_keeps_working(
    open_page: Any, page_errors: list[str]
) -> None:
    r = rules("family")
    steps = steps_for(r)
    index = next(i for i, s in enumerate(steps) if s.key == "penalty")
    question = steps[index].questions(r)[0]
    page = open_page("learn_pay_me", query=f"step={index + 1}&rules=family", ready=READY)
    box = page.locator(".payme-tutorial-number input")
    box.fill("lots!!")
    box.press("Enter")
    expect()(message(page)).to_contain_text("type a whole number")
    # Still working: a real answer is graded, and Next still moves on.
    answer_right(page, box, question)
    page.locator("button.payme-tutorial-next").click()
    expect()(title(page)).to_have_text(steps[index + 1].title)
    screenshot(page, "learn_pay_me_nonsense.png")
    assert not page_errors


def test_a_bad_step_in_the_url_opens_step_one_with_a_message(
    open_page: Any, page_errors: list[str]
) -> None:
    page = open_page("learn_pay_me", query="step=banana", ready=READY)
    expect()(counter(page)).to_contain_text("Step 1 of")
    expect()(page.locator(".payme-tutorial .payme-message").first).to_contain_text("banana")
    assert not page_errors


def test_three_pack_loads_and_grades_a_check(open_page: Any, page_errors: list[str]) -> None:
    r = rules("three_pack")
    steps = steps_for(r)
    page = open_page("learn_three_pack", ready=READY)
    expect()(counter(page)).to_contain_text(f"Step 1 of {len(steps)}")
    expect()(title(page)).to_have_text(steps[0].title)
    # Rummy 3-Pack has one rule set: no selector is shown.
    expect()(page.locator(".payme-tutorial-rules")).to_be_hidden()
    question = steps[0].questions(r)[0]
    box = page.locator(".payme-tutorial-number input")
    answer_right(page, box, question)
    page.locator("button.payme-tutorial-next").click()
    expect()(title(page)).to_have_text(steps[1].title)
    screenshot(page, "learn_three_pack.png")
    assert no_horizontal_overflow(page)
    assert not page_errors


def test_the_turn_demo_plays_a_real_turn_and_refuses_an_illegal_one(
    open_page: Any, page_errors: list[str]
) -> None:
    steps = steps_for(rules("denexa"))
    index = next(i for i, s in enumerate(steps) if s.key == "turn")
    page = open_page("learn_pay_me", query=f"step={index + 1}", ready=READY)
    demo = page.locator(".payme-turn-demo")
    demo_message = demo.locator(".payme-message")
    # Discarding before drawing: the game engine refuses, with its reason.
    demo.locator("button.payme-demo-discard").click()
    expect()(demo_message).to_contain_text("Draw a card first")
    demo.locator("button.payme-demo-stock").click()
    expect()(demo_message).to_contain_text("You draw from the stock.")
    demo.locator("button.payme-demo-discard").click()
    expect()(demo_message).to_contain_text("You discard")
    expect()(demo_message).to_contain_text("The bot")  # the bot played its turn
    assert not page_errors


def test_fast_repeated_next_clicks_land_on_the_right_step(
    open_page: Any, page_errors: list[str]
) -> None:
    steps = steps_for(rules("denexa"))
    page = open_page("learn_pay_me", ready=READY)
    for _ in range(5):
        page.locator("button.payme-tutorial-next").click()
    expect()(counter(page)).to_contain_text(f"Step 6 of {len(steps)}")
    expect()(title(page)).to_have_text(steps[5].title)
    expect()(page.locator(".payme-tutorial-question-counter")).to_contain_text("Question 1 of")
    assert not page_errors


def test_choosing_another_rule_set_redraws_the_step_with_its_answers(
    open_page: Any, page_errors: list[str]
) -> None:
    family = rules("family")
    steps = steps_for(family)
    index = next(i for i, s in enumerate(steps) if s.key == "going_out")
    page = open_page("learn_pay_me", query=f"step={index + 1}", ready=READY)
    page.locator(".payme-tutorial-rules select").select_option(label=family.title)
    expect()(page.locator(".payme-tutorial-text")).to_contain_text("you must discard one card")
    question = steps[index].questions(family)[0]
    assert "none" not in question.right  # family: going out needs a discard
    page.get_by_role("radio", name="Go out without a discard").check()
    page.locator("button.payme-tutorial-check").click()
    expect()(message(page)).to_contain_text("Not quite")
    expect()(message(page)).to_contain_text("Try again")
    page.locator("button.payme-tutorial-check").click()
    expect()(message(page)).to_contain_text(question.explanation)
    assert not page_errors


def _open_question(
    open_page: Any, notebook: str, name: str, key: str, prompt_start: str
) -> tuple[Any, Any]:
    """Open ``key``'s step under rule set ``name`` and click "Another question" until the
    question whose prompt starts with ``prompt_start`` shows; the page and that question."""
    r = rules(name)
    steps = steps_for(r)
    index = next(i for i, s in enumerate(steps) if s.key == key)
    questions = steps[index].questions(r)
    j = next(i for i, q in enumerate(questions) if q.prompt.startswith(prompt_start))
    page = open_page(notebook, query=f"step={index + 1}&rules={name}", ready=READY)
    expect()(title(page)).to_have_text(steps[index].title)
    for _ in range(j):
        page.locator("button.payme-tutorial-another").click()
    expect()(page.locator(".payme-tutorial-question-counter")).to_contain_text(
        f"Question {j + 1} of {len(questions)}"
    )
    expect()(page.locator(".payme-tutorial-prompt")).to_have_text(questions[j].prompt)
    # The answer box is a new widget per question, drawn apart from the prompt: wait for this
    # question's own, or a fast fill lands in the box being replaced (CI saw that once).
    expect()(page.locator(f".payme-tutorial-answer-{j + 1}")).to_be_visible()
    expect()(page.locator(".payme-tutorial-input")).to_have_count(1)
    return page, questions[j]


def test_lay_offs_in_turn_are_graded_in_the_browser(open_page: Any, page_errors: list[str]) -> None:
    page, question = _open_question(
        open_page,
        "learn_pay_me",
        "denexa",
        "lay_offs",
        "Someone went out with the melds shown. The player on",
    )
    # The declarer's melds and the hand of the player who lays off first are drawn.
    expect()(page.locator(".payme-tutorial-cards")).to_contain_text("lays off first")
    box = page.locator(".payme-tutorial-number input")
    box.fill(question.wrong_answer())
    page.locator("button.payme-tutorial-check").click()
    expect()(message(page)).to_contain_text("Not quite")
    answer_right(page, box, question)
    screenshot(page, "learn_pay_me_lay_off_in_turn.png")
    assert no_horizontal_overflow(page)
    assert not page_errors


def test_the_family_pot_split_is_graded_in_the_browser(
    open_page: Any, page_errors: list[str]
) -> None:
    page, question = _open_question(
        open_page, "learn_pay_me", "family", "money", "A 4-player game under the family rules"
    )
    box = page.locator(".payme-tutorial-number input")
    answer_right(page, box, question)
    screenshot(page, "learn_pay_me_pot_split.png")
    assert not page_errors


def test_spread_out_discard_pile_is_answered_by_clicking_cards(
    open_page: Any, page_errors: list[str]
) -> None:
    page, question = _open_question(
        open_page, "learn_three_pack", "three_pack", "variations", "Spread-Out Discard Pile is on"
    )
    toggles = page.locator(".payme-tutorial-card-toggle")
    expect()(toggles).to_have_count(len(question.cards))
    # The cards are the pile, bottom to top: the wanted card is third from the top.
    n = len(question.cards)
    toggles.nth(n - 3).click()
    page.locator("button.payme-tutorial-check").click()
    expect()(message(page)).to_contain_text("Not quite")
    toggles.nth(n - 2).click()
    toggles.nth(n - 1).click()
    page.locator("button.payme-tutorial-check").click()
    expect()(message(page)).to_contain_text("Right.")
    expect()(message(page)).to_contain_text(question.explanation)
    screenshot(page, "learn_three_pack_spread.png")
    assert no_horizontal_overflow(page)
    assert not page_errors


def test_the_link_to_a_step_reopens_that_step_after_next(
    open_page: Any, page_errors: list[str]
) -> None:
    # Voila cannot change the address bar from the kernel (no custom JavaScript), so the
    # page keeps a link to the current step up to date: following it (a new kernel) lands
    # on the same step with the same rule set.
    steps = steps_for(rules("classic"))
    page = open_page("learn_pay_me", query="rules=classic", ready=READY)
    page.locator("button.payme-tutorial-next").click()
    page.locator("button.payme-tutorial-next").click()
    expect()(counter(page)).to_contain_text(f"Step 3 of {len(steps)}")
    link = page.locator("a.payme-tutorial-link")
    # The link names the step by its key, so adding a step never moves it.
    expect()(link).to_have_attribute("href", f"?step={steps[2].key}&rules=classic")
    assert not page_errors
    link.click()
    page.wait_for_url(re.compile(rf"step={steps[2].key}&rules=classic"))
    expect()(counter(page)).to_contain_text(f"Step 3 of {len(steps)}", timeout=120_000)
    expect()(title(page)).to_have_text(steps[2].title)
    expect()(page.locator(".payme-tutorial-rules select")).to_have_value(rules("classic").title)
    # Leaving a Voila page makes Voila ask to shut its kernel down, which the app server
    # refuses (403, logged as a console error); no script error may follow the new page.
    assert not [e for e in page_errors if not e.startswith("console: Failed to load resource")]


@pytest.mark.parametrize("notebook", ["learn_pay_me", "learn_three_pack"])
def test_the_jupyterlab_introduction_is_neither_run_nor_shown_in_the_app(
    open_page: Any, page_errors: list[str], notebook: str
) -> None:
    # The notebook's first two cells (tagged jupyterlab-only) introduce the engine to a
    # JupyterLab reader; the app hides them, and skips running the code (also tagged
    # skip-execution, which Voilà's executor honours) so the page is ready sooner.
    page = open_page(notebook, ready=READY)
    hidden = page.locator(".celltag_jupyterlab-only")
    expect()(hidden.first).to_be_attached()
    assert hidden.count() >= 2
    for i in range(hidden.count()):
        expect()(hidden.nth(i)).to_be_hidden()
    expect()(page.get_by_text("The page below teaches")).to_be_hidden()
    # The example cell ran nothing: its cell has no output at all.
    ran = page.locator(
        ".celltag_jupyterlab-only :is(.jp-OutputArea-output, "
        "script[type='application/vnd.voila.cell-output+json'])"
    )
    assert ran.count() == 0
    expect()(title(page)).to_be_visible()
    assert not page_errors


def test_a_wrong_answer_gets_another_try_then_the_answer(
    open_page: Any, page_errors: list[str]
) -> None:
    r = rules("denexa")
    steps = steps_for(r)
    index = next(i for i, s in enumerate(steps) if s.key == "goal")
    question = steps[index].questions(r)[0]
    page = open_page("learn_pay_me", query="step=goal", ready=READY)
    expect()(title(page)).to_have_text(steps[index].title)
    box = page.locator(".payme-tutorial-answer-1 input")
    box.fill(question.wrong_answer())
    page.locator("button.payme-tutorial-check").click()
    shown = message(page)
    expect()(shown).to_contain_text("Not quite")
    expect()(shown).to_contain_text("Try again")
    expect()(shown).to_contain_text(steps[index].hint_text(r))
    # Neither the answer nor its reason is given away; the amber retry style, not info blue.
    expect()(shown).not_to_contain_text(question.explanation)
    expect()(shown.locator(".payme-msg-warn")).to_be_visible()
    expect()(shown.locator(".payme-msg-info")).to_have_count(0)
    # The box is still there to use: a second, different miss shows the answer.
    expect()(box).to_be_editable()
    box.fill(str(int(question.wrong_answer()) + 1))
    page.locator("button.payme-tutorial-check").click()
    expect()(shown).to_contain_text(f"The answer: {question.right_answer()}.")
    expect()(shown).to_contain_text(question.explanation)
    screenshot(page, "learn_pay_me_second_miss.png")
    assert not page_errors


def test_progress_survives_a_reload(open_page: Any, page_errors: list[str]) -> None:
    r = rules("denexa")
    steps = steps_for(r)
    index = next(i for i, s in enumerate(steps) if s.key == "packs")
    question = steps[index].questions(r)[0]
    page = open_page("learn_pay_me", query="step=packs", ready=READY)
    page.evaluate("window.localStorage.clear()")
    answer_right(page, page.locator(".payme-tutorial-answer-1 input"), question)
    note = page.locator(".payme-tutorial-progress-note")
    expect()(note.locator(".payme-tutorial-done-count")).to_have_text(f"1 of {len(steps)}")
    stored = page.evaluate("window.localStorage.getItem('payme-learn-pay_me')")
    assert '"packs"' in stored
    # A new visit (a new kernel) at step 1: the tick and the way back come from the browser.
    page = open_page("learn_pay_me", ready=READY)
    expect()(note.locator(".payme-tutorial-done-count")).to_have_text(f"1 of {len(steps)}")
    note.locator("summary").click()
    done = note.locator("li.payme-step-done")
    expect()(done).to_have_count(1)
    expect()(done).to_contain_text(steps[index].title)
    resume = page.locator("button.payme-tutorial-resume")
    expect()(resume).to_contain_text(f"step {index + 1}, {steps[index].title}")
    screenshot(page, "learn_pay_me_progress.png")
    resume.click()
    expect()(title(page)).to_have_text(steps[index].title)
    expect()(resume).to_be_hidden()
    assert not page_errors
