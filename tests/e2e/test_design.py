"""The design as a machine checks it: accessibility (axe-core), phone width, the 16 px text
floor, the site header and skeleton before the kernel, and the error states."""

from __future__ import annotations

import http.client
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import BROWSER_HEADERS, VoilaServer, leave, wait_ready

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Every page: its path, and what shows it is ready.
PAGES = {
    "home": ("", ".payme-landing"),
    "learn_pay_me": ("voila/render/learn_pay_me.ipynb", "button.payme-tutorial-next"),
    "learn_three_pack": ("voila/render/learn_three_pack.ipynb", "button.payme-tutorial-next"),
    "hand_builder": ("voila/render/hand_builder.ipynb", ".payme-layout-view svg"),
    "puzzles": ("voila/render/puzzles.ipynb", "button.payme-puzzle-new"),
    "play": ("voila/render/play.ipynb", ".jupyter-widgets button"),
    "analysis": ("voila/render/analysis.ipynb", "button.payme-analysis-run"),
}
# Pages whose text must stay at 16 px or more (Play's card table included).
TEXT_FLOOR_PAGES = [
    "home",
    "hand_builder",
    "puzzles",
    "analysis",
    "learn_pay_me",
    "learn_three_pack",
    "play",
]

SMALL_TEXT_JS = """() => {
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg, .payme-skeleton, script, style')) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (!own || !box.width || !box.height) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 16) found.push(`${el.tagName} ${size}px: ${el.textContent.trim().slice(0, 40)}`);
  }
  return found;
}"""


@pytest.fixture
def visit(browser: Any, voila_app: VoilaServer) -> Any:
    """``visit(name, size, query="")`` opens a page in a fresh context of that size."""
    contexts: list[Any] = []

    def _visit(name: str, size: dict[str, int], query: str = "") -> Any:
        context = browser.new_context(viewport=size)
        context.set_default_timeout(60_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on(
            "console",
            lambda m: (
                errors.append(m.text) if m.type == "error" and "favicon" not in m.text else None
            ),
        )
        page.payme_errors = errors
        path, ready = PAGES[name]
        page.goto(
            voila_app.url(path) + (f"?{query}" if query else ""), wait_until="domcontentloaded"
        )
        wait_ready(page, ready)
        return page

    yield _visit
    for context in contexts:
        leave(context)


def serious_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def fits_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways: {width} px wide"


# --- accessibility and phone width, every page --------------------------------------------


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_passes_axe_and_fits_a_phone(name: str, visit: Callable[..., Any]) -> None:
    for size in (DESKTOP, PHONE):
        page = visit(name, size)
        page.wait_for_timeout(300)  # let the last widget settle
        assert serious_violations(page) == []
        if size is PHONE:
            fits_phone(page)
        assert page.payme_errors == []


@pytest.mark.parametrize("name", TEXT_FLOOR_PAGES)
def test_text_is_at_least_16_px_on_a_phone(name: str, visit: Callable[..., Any]) -> None:
    page = visit(name, PHONE)
    assert page.evaluate(SMALL_TEXT_JS) == []


def test_pages_fit_a_phone_in_their_busy_states(visit: Callable[..., Any]) -> None:
    # The hand builder with the biggest hand, then with a 20,000-character token.
    hand = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS JK"
    page = visit("hand_builder", PHONE, f"rules=denexa&dealt=13&hand={hand.replace(' ', '+')}")
    expect(page.locator(".payme-layout-view")).to_contain_text("Best layout")
    fits_phone(page)
    box = page.locator(".payme-hand-text input")
    box.fill("X" * 20_000)
    box.press("Enter")
    message = page.locator(".payme-hand-input .payme-message")
    expect(message).to_contain_text("(20,000 characters)")
    assert message.bounding_box()["height"] < 200
    fits_phone(page)
    assert serious_violations(page) == []
    # A puzzle with its solution drawn.
    page = visit("puzzles", PHONE, "id=denexa-13-deadwood-7")
    page.locator("button.payme-puzzle-solution").click()
    expect(page.locator(".payme-puzzle-solution-view svg").first).to_be_visible()
    fits_phone(page)
    # The analysis with its tables and plots.
    page = visit("analysis", PHONE, "players=6&bots=greedy&games=2&compare=1")
    page.locator("button.payme-analysis-run").click()
    expect(page.locator(".payme-message")).to_contain_text("Done", timeout=180_000)
    expect(page.locator(".payme-analysis-results table")).to_have_count(2)
    fits_phone(page)
    assert serious_violations(page) == []
    # An 8-player game: the scoreboard fits.
    page = visit("play", PHONE, "rules=denexa&players=8&bots=greedy&seed=1")
    fits_phone(page)


# --- first paint ------------------------------------------------------------------------


def test_header_and_skeleton_arrive_before_the_kernel_has_run(voila_app: VoilaServer) -> None:
    """Voilà streams the page while the kernel runs the notebook: the site header, the page's
    title and the skeleton come in the first bytes, long before the page is complete."""
    conn = http.client.HTTPConnection("127.0.0.1", voila_app.port, timeout=120)
    start = time.monotonic()
    # A browser's navigation (a plain GET, as a crawler sends, gets the static landing page).
    conn.request("GET", "/voila/render/hand_builder.ipynb", headers=BROWSER_HEADERS)
    response = conn.getresponse()
    received, header_at = b"", None
    while chunk := response.read1(65536):
        received += chunk
        if header_at is None and b'class="payme-skeleton"' in received:
            header_at = time.monotonic() - start
            # The kernel's output is not there yet.
            assert b"application/vnd.jupyter.widget-view+json" not in received
    total = time.monotonic() - start
    conn.close()
    assert header_at is not None
    text = received.decode()
    assert "<h1>Hand builder</h1>" in text
    assert text.index("payme-site-header") < text.index("jupyter-config-data")
    assert header_at < total


def test_skeleton_goes_when_the_page_is_ready(visit: Callable[..., Any]) -> None:
    page = visit("puzzles", DESKTOP)
    expect(page.locator(".payme-skeleton")).to_be_hidden()
    expect(page.locator(".payme-page-header h1")).to_have_text("Puzzles")


# --- error states -------------------------------------------------------------------------


def test_hand_builder_clears_a_layout_the_box_no_longer_matches(
    visit: Callable[..., Any],
) -> None:
    page = visit("hand_builder", DESKTOP, "rules=denexa&dealt=7&hand=5H+6H+JK+9S+9D+7C+KD+QS")
    layout = page.locator(".payme-layout-view")
    expect(layout).to_contain_text("Run")
    box = page.locator(".payme-hand-text input")
    box.fill("hello")
    box.press("Enter")
    expect(page.locator(".payme-hand-input .payme-message")).to_contain_text("unknown card")
    expect(layout).not_to_contain_text("Run")
    expect(layout).to_contain_text("The layout appears")
    expect(page.locator(".payme-hand-view svg")).to_have_count(0)
    # Back to a good hand, then a rule set whose pack cannot hold it: the hand stays typed.
    box.fill("7H 8H 9H JK 5S 5D 5C KD")
    box.press("Enter")
    expect(layout).to_contain_text("Run")
    page.locator(".payme-rules select").select_option(label="Rummy 3-Pack")
    message = page.locator(".payme-hand-input .payme-message")
    expect(message).to_contain_text("This hand does not fit Rummy 3-Pack")
    expect(box).to_have_value("7H 8H 9H JK 5S 5D 5C KD")
    expect(page.locator(".payme-hand-view")).not_to_contain_text("0 cards")
    page.locator(".payme-rules select").select_option(label="Pay Me (Denexa rules)")
    expect(layout).to_contain_text("Run")
    expect(message).to_be_empty()
    assert page.payme_errors == []


def test_a_puzzle_never_shows_a_problem_beside_an_old_verdict(visit: Callable[..., Any]) -> None:
    from payme.puzzles import puzzle_from_id

    puzzle = puzzle_from_id("denexa-7-discard-42")
    page = visit("puzzles", DESKTOP, f"id={puzzle.id}")
    answer = page.locator(".payme-puzzle-answer input")
    answer.fill(str(puzzle.hand[0]))  # a wrong discard
    page.locator("button.payme-puzzle-check").click()
    # A first miss is "Not quite" in amber beside the box (another try), not information blue.
    retry = page.locator(".payme-puzzle-answer-message .payme-msg-warn")
    expect(retry).to_contain_text("Not quite")
    expect(page.locator(".payme-puzzle-answer-message .payme-msg-info")).to_have_count(0)
    page.locator("button.payme-puzzle-check").click()  # the second miss shows the verdict
    verdict = page.locator(".payme-puzzle-verdict")
    expect(verdict).not_to_be_empty()
    answer.fill("hello")
    page.locator("button.payme-puzzle-check").click()
    expect(page.locator(".payme-puzzle-answer-message")).to_contain_text("Problem")
    expect(verdict).to_be_empty()
    # A wrong answer is red (wrong), not the blue of information.
    answer.fill(str(puzzle.hand[0]))
    page.locator("button.payme-puzzle-check").dblclick()
    expect(page.locator(".payme-msg-wrong, .payme-msg-right")).to_have_count(1)
    expect(page.locator(".payme-puzzle-answer-message")).to_be_empty()
    assert page.payme_errors == []
