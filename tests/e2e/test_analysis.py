"""The Analysis page in the browser: a small simulation run to its plots and download."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

SMALL = "rules=denexa&players=2&bots=greedy,random&games=3&seed=1"


def test_run_a_small_simulation_and_see_the_plots(
    open_page: Any, page_errors: list[str], outside_requests: list[str]
) -> None:
    page = open_page("analysis", query=SMALL, ready="button.payme-analysis-run")
    expect(page.locator(".payme-analysis-games input")).to_have_value("3")
    page.locator("button.payme-analysis-run").click()
    message = page.locator(".payme-message")
    expect(message).to_contain_text("Done: 3 game(s) of denexa, 66 rows", timeout=180_000)
    expect(page.locator(".payme-analysis-progress-text")).to_have_text("3 / 3 games")
    plots = page.locator("img.payme-analysis-plot")
    expect(plots).to_have_count(3)
    for i in range(3):  # each plot is a real, decoded image
        assert plots.nth(i).evaluate("img => img.complete && img.naturalWidth > 100")
    table = page.locator(".payme-analysis-results table").first
    expect(table).to_contain_text("greedy")
    expect(table).to_contain_text("random")
    link = page.locator("a.payme-analysis-download")
    href = link.get_attribute("href") or ""
    assert href.startswith("data:text/csv;base64,")
    csv = base64.b64decode(href.split(",", 1)[1]).decode()
    header, *rows = csv.strip().splitlines()
    assert header.split(",")[:3] == ["game", "hand", "dealt"]
    assert len(rows) == 3 * 11 * 2  # games x hands x seats
    assert page_errors == []
    assert outside_requests == []


def test_bad_settings_show_a_message(open_page: Any, page_errors: list[str]) -> None:
    page = open_page("analysis", query="games=0", ready="button.payme-analysis-run")
    message = page.locator(".payme-message")
    expect(message).to_contain_text("games must be a whole number from 1 to 2000")
    page.locator(".payme-analysis-bots input").fill("nonsense")
    page.locator("button.payme-analysis-run").click()
    expect(message).to_contain_text("unknown bot 'nonsense'")
    expect(page.locator("button.payme-analysis-run")).to_be_enabled()
    assert page_errors == []
