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
    expect(message).to_contain_text(
        "Done: 3 games of Pay Me (Denexa rules); 66 rows to download.", timeout=180_000
    )
    expect(page.locator(".payme-analysis-progress-text")).to_have_text("3 of 3 games")
    plots = page.locator("img.payme-analysis-plot")
    expect(plots).to_have_count(3)
    for i in range(3):  # each plot is a real, decoded image
        assert plots.nth(i).evaluate("img => img.complete && img.naturalWidth > 100")
    table = page.locator(".payme-analysis-results table").first
    expect(table).to_contain_text("Greedy")
    expect(table).to_contain_text("Random")
    # Human column names with units, and what each measure means.
    expect(table).to_contain_text("Final total (points)")
    expect(page.locator(".payme-measures").first).to_contain_text("lower is better")
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
    expect(message).to_contain_text("Games must be a whole number from 1 to 2,000, not 0")
    # Typed limits are checked on Run: an error message, never a silent 1 (or NaN results).
    page.locator(".payme-analysis-games input").fill("-5")
    page.locator(".payme-analysis-games input").press("Enter")
    page.locator("button.payme-analysis-run").click()
    expect(message).to_contain_text("Games must be a whole number from 1 to 2,000, not -5")
    expect(page.locator(".payme-analysis-results table")).to_have_count(0)
    page.locator(".payme-analysis-games input").fill("3")
    page.locator(".payme-analysis-games input").press("Enter")
    page.locator(".payme-analysis-bots input").fill("nonsense")
    page.locator(".payme-analysis-bots input").press("Enter")
    page.locator("button.payme-analysis-run").click()
    expect(message).to_contain_text("There is no bot called 'nonsense'")
    expect(page.locator("button.payme-analysis-run")).to_be_enabled()
    assert page_errors == []


def test_stop_ends_a_long_run(open_page: Any, page_errors: list[str]) -> None:
    page = open_page(
        "analysis", query="games=2000&players=2&bots=random", ready="button.payme-analysis-run"
    )
    page.locator("button.payme-analysis-run").click()
    stop = page.locator("button.payme-analysis-stop")
    expect(stop).to_be_enabled()
    expect(page.locator("button.payme-analysis-run")).to_be_disabled()
    stop.click()
    message = page.locator(".payme-message")
    expect(message).to_contain_text("Stopped", timeout=120_000)
    expect(page.locator("button.payme-analysis-run")).to_be_enabled()
    expect(stop).to_be_disabled()
    assert page_errors == []
