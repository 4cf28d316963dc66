"""The Analysis page in the browser: a small simulation run to its plots and download."""

from __future__ import annotations

import base64
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS

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
    # One cell per measure, its 95% interval beside it: "44.2 (30.1–58.3)".
    expect(table.locator("td").first).to_have_text(
        re.compile(r"^-?[\d,]+\.\d \(-?[\d,.]+–[\d,.]+\)$")
    )
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
    # The games played before Stop keep their results.
    expect(message).to_contain_text("of 2,000 games: the results below are from those")
    expect(page.locator(".payme-analysis-results table")).to_contain_text("(stopped)")
    assert page_errors == []


def test_results_stream_in_and_read_on_a_phone(open_page: Any, page_errors: list[str]) -> None:
    page = open_page(
        "analysis",
        query="rules=family&players=4&bots=strong,greedy,random,expert&games=300&seed=2",
        ready="button.payme-analysis-run",
    )
    began = time.monotonic()
    page.locator("button.payme-analysis-run").click()
    table = page.locator(".payme-analysis-results table")
    expect(table).to_contain_text("so far", timeout=30_000)
    first = time.monotonic() - began
    print(f"first figures {first:.2f} s after the click")
    expect(table).to_contain_text("Expert")
    # Still playing: the figures fill in while the bar moves on.
    expect(page.locator("button.payme-analysis-stop")).to_be_enabled()
    done = page.locator(".payme-analysis-progress-text")
    before = done.inner_text()
    expect(done).not_to_have_text(before, timeout=30_000)
    page.locator("button.payme-analysis-stop").click()
    expect(page.locator(".payme-message")).to_contain_text("Stopped", timeout=120_000)
    expect(page.locator("img.payme-analysis-plot")).to_have_count(3)
    for (w, h), name in (((1280, 900), "desktop"), ((1366, 768), "laptop"), ((390, 844), "phone")):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(300)
        # No element wider than the window, and no column cut off.
        wider = page.evaluate(
            """() => [...document.querySelectorAll('.payme-analysis *')]
                 .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
                 .map(e => e.className || e.tagName).slice(0, 5)"""
        )
        assert wider == [], (name, wider)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.screenshot(path=str(ARTIFACTS / f"analysis_results_{name}.png"), full_page=True)
    # On the phone each bot is a card, the plots fill the width.
    plot = page.locator("img.payme-analysis-plot").first
    assert plot.evaluate("img => img.getBoundingClientRect().width") >= 330
    assert first < 5, first  # about 0.3 s on a quiet machine; the machine is shared
    assert page_errors == []
