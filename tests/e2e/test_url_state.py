"""Links that keep state: the address follows each page, and reload, Back/Forward and a
copied link bring the same state back (payme.widgets.url_state, the History API)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from .conftest import wait_ready

pytestmark = pytest.mark.e2e


def query_of(page: Any) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def wait_for_query(page: Any, key: str, value: str) -> None:
    page.wait_for_function(
        "([k, v]) => new URLSearchParams(location.search).get(k) === v", arg=[key, value]
    )


def chosen(page: Any, select: str) -> Any:
    """The chosen option of a dropdown (ipywidgets' option values are indices)."""
    return page.locator(f"{select} option:checked")


def reload(page: Any, ready: str) -> None:
    page.reload(wait_until="domcontentloaded")
    wait_ready(page, ready)


def test_hand_builder_hand_rules_and_dealt_follow_the_address(
    open_page: Any, page_errors: list[str]
) -> None:
    page = open_page("hand_builder", query="rules=classic&dealt=3&hand=7H+8H+9H")
    box = page.locator(".payme-hand-text input")
    expect(box).to_have_value("7H 8H 9H")
    assert query_of(page)["rules"] == "classic"
    # A new hand: a new history entry, no reload.
    box.fill("5S 5D 5C KD")
    box.press("Enter")
    wait_for_query(page, "hand", "5S 5D 5C KD")
    marker = page.evaluate("window.paymeMarker = 1")
    page.locator(".payme-dealt select").select_option(index=1)  # 4 cards
    wait_for_query(page, "dealt", "4")
    assert page.evaluate("window.paymeMarker") == marker  # the page was not reloaded
    # Back: the previous state, shown by the same page.
    page.go_back()
    wait_for_query(page, "dealt", "3")
    expect(chosen(page, ".payme-dealt select")).to_contain_text("3 cards")
    page.go_back()
    wait_for_query(page, "hand", "7H 8H 9H")
    expect(box).to_have_value("7H 8H 9H")
    expect(page.locator(".payme-layout-view")).to_contain_text("Run")
    page.go_forward()
    wait_for_query(page, "hand", "5S 5D 5C KD")
    expect(box).to_have_value("5S 5D 5C KD")
    # Reload (a new kernel) shows the same state.
    reload(page, ".payme-hand-text input")
    expect(page.locator(".payme-hand-text input")).to_have_value("5S 5D 5C KD")
    expect(chosen(page, ".payme-rules select")).to_have_text("Pay Me (classic rules)")
    assert page_errors == []


def test_puzzle_id_follows_the_address(open_page: Any, page_errors: list[str]) -> None:
    page = open_page("puzzles", query="id=denexa-7-discard-42")
    first = "denexa-7-discard-42"
    expect(page.locator(".payme-puzzle-id")).to_have_text(first)
    page.locator("button.payme-puzzle-new").click()
    page.wait_for_function("id => new URLSearchParams(location.search).get('id') !== id", arg=first)
    second = query_of(page)["id"]
    expect(page.locator(".payme-puzzle-id")).to_have_text(second)
    page.go_back()
    wait_for_query(page, "id", first)
    expect(page.locator(".payme-puzzle-id")).to_have_text(first)
    page.go_forward()
    wait_for_query(page, "id", second)
    expect(page.locator(".payme-puzzle-id")).to_have_text(second)
    reload(page, "button.payme-puzzle-new")
    expect(page.locator(".payme-puzzle-id")).to_have_text(second)
    assert page_errors == []


@pytest.mark.parametrize("name", ["learn_pay_me", "learn_three_pack"])
def test_tutorial_step_and_rules_follow_the_address(
    name: str, open_page: Any, page_errors: list[str]
) -> None:
    from payme.rulesets import rules
    from payme.tutorial import steps_for

    # The address names a step by its key (a link stays right when a step is added).
    keys = [s.key for s in steps_for(rules("denexa" if name == "learn_pay_me" else "three_pack"))]
    page = open_page(name)
    counter = page.locator(".payme-tutorial-counter")
    expect(counter).to_contain_text("Step 1 of")
    page.locator("button.payme-tutorial-next").click()
    wait_for_query(page, "step", keys[1])
    page.locator("button.payme-tutorial-next").click()
    wait_for_query(page, "step", keys[2])
    expect(counter).to_contain_text("Step 3 of")
    page.go_back()
    wait_for_query(page, "step", keys[1])
    expect(counter).to_contain_text("Step 2 of")
    reload(page, "button.payme-tutorial-next")
    expect(page.locator(".payme-tutorial-counter")).to_contain_text("Step 2 of")
    assert page_errors == []


def test_tutorial_rule_set_follows_the_address(open_page: Any, page_errors: list[str]) -> None:
    # A link made when steps were numbered still opens its step; the address then names it.
    page = open_page("learn_pay_me", query="step=4&rules=denexa")
    page.locator(".payme-tutorial-rules select").select_option(
        label="Pay Me (family rules, played for money)"
    )
    wait_for_query(page, "rules", "family")
    assert query_of(page)["step"] == "deal"
    page.go_back()
    wait_for_query(page, "rules", "denexa")
    expect(chosen(page, ".payme-tutorial-rules select")).to_have_text("Pay Me (Denexa rules)")
    expect(page.locator(".payme-tutorial-counter")).to_contain_text("Step 4 of")
    assert page_errors == []


def test_analysis_settings_follow_the_address(open_page: Any, page_errors: list[str]) -> None:
    page = open_page(
        "analysis", query="rules=family&players=4&games=50", ready="button.payme-analysis-run"
    )
    expect(page.locator(".payme-analysis-games input")).to_have_value("50")
    games = page.locator(".payme-analysis-games input")
    games.fill("30")
    games.press("Enter")
    wait_for_query(page, "games", "30")
    assert query_of(page)["rules"] == "family" and query_of(page)["players"] == "4"
    page.go_back()
    wait_for_query(page, "games", "50")
    expect(games).to_have_value("50")
    page.go_forward()
    wait_for_query(page, "games", "30")
    reload(page, "button.payme-analysis-run")
    expect(page.locator(".payme-analysis-games input")).to_have_value("30")
    expect(chosen(page, ".payme-analysis-rules select")).to_contain_text("family rules")
    assert page_errors == []
