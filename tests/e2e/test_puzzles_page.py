"""The Puzzles page in Chromium: solve puzzles, get told when wrong, survive nonsense, reopen a
puzzle from its link.  The right answers are worked out in this process by the engine from the
id the page shows, never read from the page."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import expect
from puzzle_helpers import discard_points

from payme import best_discard, can_go_out, evaluate, lay_off, rules
from payme.puzzles import Puzzle, puzzle_from_id
from payme.widgets.puzzles import KIND_LABELS

from .conftest import ARTIFACTS, rightmost

pytestmark = pytest.mark.e2e

PAGE = ".payme-puzzle-page"
READY = f"{PAGE} .payme-puzzle-id"
ANSWER = ".payme-puzzle-answer input"
VERDICT = ".payme-puzzle-verdict"


def shown_puzzle(page: Any) -> Puzzle:
    """The puzzle the page shows, rebuilt here from the id it prints."""
    return puzzle_from_id(page.locator(".payme-puzzle-id").inner_text().strip())


def hand_on_screen(page: Any) -> Counter[str]:
    cards = page.locator(".payme-puzzle-hand svg[role=img]")
    return Counter(cards.nth(i).get_attribute("data-card") for i in range(cards.count()))


def test_solve_a_discard_puzzle_then_answer_wrongly(open_page: Any, page_errors: list[str]) -> None:
    page = open_page("puzzles", ready=READY)  # the default page: a discard puzzle
    p = shown_puzzle(page)
    assert p.kind == "discard"
    assert hand_on_screen(page) == Counter(str(c) for c in p.hand)
    expect(page.locator(".payme-puzzle-question")).to_contain_text("Which card do you discard")

    # Click the engine's best discard among the page's card buttons, then Check.
    best = best_discard(p.hand, rules=p.rules, dealt=p.dealt).card
    page.locator(f".payme-puzzle-cards button[title='{best.name}']").click()
    expect(page.locator(ANSWER)).to_have_value(str(best))
    page.locator("button.payme-puzzle-check").click()
    expect(page.locator(".payme-verdict-right")).to_contain_text("Right.")
    # The best layout after that discard is drawn.
    expect(page.locator(".payme-puzzle-solution-view .payme-deadwood figcaption")).to_be_visible()

    # A discard that leaves more deadwood, typed and sent with Enter, is "not quite".
    results = discard_points(p)
    worse = [c for c, v in results.items() if v > min(results.values())]
    assert worse, f"{p.id}: every discard is equally good"
    box = page.locator(ANSWER)
    box.fill(worse[0])
    box.press("Enter")
    expect(page.locator(".payme-verdict-wrong")).to_contain_text("Not quite")
    expect(page.locator(".payme-verdict-right")).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "puzzles_discard.png"), full_page=True)
    assert not page_errors


def test_choose_settings_and_solve_a_go_out_puzzle(open_page: Any, page_errors: list[str]) -> None:
    page = open_page("puzzles", ready=READY)
    first = shown_puzzle(page).id
    page.locator(".payme-puzzle-rules select").select_option(label=rules("family").title)
    page.locator(".payme-puzzle-kind select").select_option(label=KIND_LABELS["go_out"])
    page.locator(".payme-puzzle-difficulty select").select_option(label="hard")
    page.locator("button.payme-puzzle-new").click()
    ident = page.locator(".payme-puzzle-id")
    expect(ident).not_to_have_text(first)
    expect(ident).to_have_text(re.compile(r"^family-\d+-go_out-\d+$"))
    p = shown_puzzle(page)
    assert p.difficulty == "hard"
    expect(page.locator(".payme-puzzle-grade")).to_have_text("hard")
    assert hand_on_screen(page) == Counter(str(c) for c in p.hand)

    out = can_go_out(p.hand, p.rules, p.dealt)
    if not out.ok:
        page.locator(".payme-puzzle-go-out button", has_text="Can't go out").click()
    elif None in out.discards:
        page.locator(".payme-puzzle-go-out button", has_text="without discarding").click()
    else:
        card = out.discards[0]
        assert card is not None
        page.locator(f".payme-puzzle-cards button[title='{card.name}']").click()
    page.locator("button.payme-puzzle-check").click()
    expect(page.locator(".payme-verdict-right")).to_contain_text("Right.")
    assert not page_errors


def test_nonsense_shows_a_message_and_the_page_keeps_working(
    open_page: Any, page_errors: list[str]
) -> None:
    page = open_page("puzzles", query="id=denexa-9-deadwood-5", ready=READY)
    p = shown_puzzle(page)
    assert p.id == "denexa-9-deadwood-5"
    box = page.locator(ANSWER)
    message = page.locator(".payme-puzzle-answer-message")
    for nonsense in ("bogus!!", "-3", "7H 7H 7H 7H 7H"):
        box.fill(nonsense)
        page.locator("button.payme-puzzle-check").click()
        expect(message).to_contain_text("Problem")
        expect(page.locator(VERDICT)).to_have_text("")
    expect(message).to_contain_text("7♥")  # the card as players write it
    page.locator("button.payme-puzzle-check").click()  # still nonsense: still a message
    box.fill("")
    page.locator("button.payme-puzzle-check").click()
    expect(message).to_contain_text("Choose or type an answer first")

    # Still working: pick the engine's deadwood cards by clicking, and Check.
    ev = evaluate(p.hand, p.rules, p.dealt)
    assert ev.deadwood, "pick a puzzle with deadwood for this test"
    toggles = page.locator(".payme-puzzle-card-toggle")
    expect(toggles).to_have_count(len(p.hand))
    wanted = list(ev.deadwood)
    for i, card in enumerate(p.hand):
        if card in wanted:
            wanted.remove(card)
            toggles.nth(i).click()
    expect(message).to_have_text("")
    page.locator("button.payme-puzzle-check").click()
    expect(page.locator(".payme-verdict-right")).to_contain_text(f"{ev.deadwood_points} points")
    # Show solution, then a new puzzle: both still answer.
    page.locator("button.payme-puzzle-solution").click()
    expect(page.locator(".payme-verdict-solution")).to_contain_text("Solution:")
    page.locator("button.payme-puzzle-new").click()
    expect(page.locator(".payme-puzzle-id")).not_to_have_text(p.id)
    expect(page.locator(VERDICT)).to_have_text("")
    assert not page_errors


def test_reload_with_an_id_shows_that_puzzle_and_its_link_reopens_it(
    open_page: Any, page_errors: list[str]
) -> None:
    puzzle_id = "family-8-lay_off-7"
    p = puzzle_from_id(puzzle_id)
    page = open_page("puzzles", query=f"id={puzzle_id}", ready=READY)
    expect(page.locator(".payme-puzzle-id")).to_have_text(puzzle_id)
    assert hand_on_screen(page) == Counter(str(c) for c in p.hand)
    expect(page.locator(".payme-puzzle-declarer .payme-meld")).to_have_count(len(p.declarer_melds))
    expect(page.locator(".payme-puzzle-rules select")).to_have_value(rules("family").title)
    expect(page.locator(".payme-puzzle-info")).to_contain_text("Wild this round")
    best = lay_off(p.hand, list(p.declarer_melds), p.rules, p.dealt).deadwood_points
    box = page.locator(ANSWER)
    box.fill(str(best))
    box.press("Enter")
    expect(page.locator(".payme-verdict-right")).to_contain_text("Right.")
    expect(page.locator(".payme-puzzle-solution-view .payme-layoff")).to_be_visible()

    link = page.locator("a.payme-share-link")
    expect(link).to_have_attribute("href", f"?id={puzzle_id}")
    assert not page_errors
    link.click()  # a new page load: a new kernel rebuilds the puzzle from the id
    page.locator(READY).first.wait_for(timeout=120_000)
    expect(page.locator(".payme-puzzle-id")).to_have_text(puzzle_id)
    expect(page.locator(VERDICT)).to_have_text("")
    assert hand_on_screen(page) == Counter(str(c) for c in p.hand)


def test_a_bad_id_shows_a_message_and_a_fresh_puzzle(
    open_page: Any, page: Any, page_errors: list[str]
) -> None:
    # Narrow screen, tall enough to show the whole page (Voilà scrolls an inner box).
    page.set_viewport_size({"width": 380, "height": 2400})
    open_page("puzzles", query="id=poker-7-discard-1", ready=READY)
    expect(page.locator(".payme-puzzle-message")).to_contain_text("unknown rule set 'poker'")
    p = shown_puzzle(page)
    assert hand_on_screen(page) == Counter(str(c) for c in p.hand)
    right = rightmost(page, ".payme-puzzle-page")
    assert right <= 380, f"something reaches {right:.0f}px on a 380px screen"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "puzzles_narrow.png"), full_page=True)
    assert not page_errors


def test_a_wrong_answer_gets_another_try_then_the_solution(
    open_page: Any, page_errors: list[str]
) -> None:
    page = open_page("puzzles", query="id=denexa-7-discard-42", ready=READY)
    p = shown_puzzle(page)
    results = discard_points(p)
    worse = sorted(str(c) for c, v in results.items() if v > min(results.values()))
    assert len(worse) >= 2, f"{p.id}: needs two wrong discards"
    box = page.locator(ANSWER)
    box.fill(worse[0])
    page.locator("button.payme-puzzle-check").click()
    retry = page.locator(".payme-puzzle-answer-message")
    expect(retry).to_contain_text("Not quite")
    expect(retry).to_contain_text("Try again")
    # Nothing of the answer: no verdict, no drawn solution, no "Next puzzle".
    expect(page.locator(".payme-verdict-wrong")).to_have_count(0)
    expect(page.locator(".payme-puzzle-solution-view .payme-layout")).to_have_count(0)
    expect(page.locator("button.payme-puzzle-next")).to_be_hidden()
    for size, name in (((1280, 900), "desktop"), ((390, 844), "phone")):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.screenshot(path=str(ARTIFACTS / f"puzzles_retry_{name}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    # The box still takes an answer: a second miss shows the solution and the way on.
    expect(box).to_be_editable()
    box.fill(worse[1])
    box.press("Enter")
    expect(page.locator(".payme-verdict-wrong")).to_contain_text("Not quite")
    expect(page.locator(".payme-verdict-wrong")).to_contain_text("Discard")
    page.screenshot(path=str(ARTIFACTS / "puzzles_revealed.png"), full_page=True)
    page.locator("button.payme-puzzle-next").click()
    expect(page.locator(".payme-puzzle-id")).not_to_have_text(p.id)
    expect(page.locator(".payme-verdict-wrong")).to_have_count(0)
    assert not page_errors
