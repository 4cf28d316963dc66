"""The Play page as a card-game site: the table fits the first screen, the bots' moves are
shown beside their seats and said aloud, Back steps back one move, a wild card's place on a
run is the player's choice, the hand's order survives a reload, and the game ends on a
screen with the standings and the review beside them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_play import (
    READY,
    TABLE,
    _act,
    _drag_first_card_last,
    _draw_then_discard_first,
    _hand_order,
    _serial,
    _settle,
)
from tests.pay_me_helpers import joker_lay_off_turn

pytestmark = pytest.mark.e2e

SIZES = {"laptop": (1366, 768), "desktop": (1280, 720), "phone": (390, 844)}
FOUR = "rules=family&players=4&bots=strong,greedy,expert&seed=5"


@pytest.fixture
def console_noise(page: Any) -> list[str]:
    """Console warnings and errors the app adds (the stack's shared-module notes left out)."""
    seen: list[str] = []

    def on_console(msg: Any) -> None:
        stack_note = "_JUPYTERLAB.CORE_OUTPUT" in msg.text or "shared scope" in msg.text
        if msg.type in ("warning", "error") and not stack_note and "favicon" not in msg.text:
            seen.append(f"{msg.type}: {msg.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: seen.append(f"pageerror: {exc}"))
    return seen


def _inside(page: Any, selector: str) -> None:
    """Every element matching ``selector`` lies wholly inside the window, unscrolled."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    boxes = page.locator(selector)
    assert boxes.count() > 0, selector
    for box in (b.bounding_box() for b in boxes.all()):
        assert box is not None, selector
        assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
        assert box["x"] + box["width"] <= width + 0.5, (selector, box, width)
        assert box["y"] + box["height"] <= height + 0.5, (selector, box, height)


def _in_sight(page: Any) -> None:
    """The hand, the Discard button and both piles inside the window, and the piles not
    under the hand (which sticks to the window's foot)."""
    for what in (".pm-hand-card", ".pm-do-discard", ".pm-stock", ".pm-pile"):
        _inside(page, f"{TABLE} {what}")
    hand = page.locator(f"{TABLE} .pm-you").bounding_box()
    for pile in (".pm-stock", ".pm-pile"):
        box = page.locator(f"{TABLE} {pile}").bounding_box()
        assert hand is not None and box is not None
        assert box["y"] + box["height"] <= hand["y"] + 0.5, (pile, box, hand)


@pytest.mark.parametrize("players", [4, 8])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_fits_the_first_screen(
    size: str, players: int, page: Any, open_page: Any, console_noise: list[str]
) -> None:
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    query = FOUR if players == 4 else "rules=denexa&players=8&bots=greedy&seed=5"
    open_page("play", query=query, ready=READY)
    assert page.evaluate("window.scrollY") == 0
    _in_sight(page)  # the first deal
    _act(page, page.locator(f"{TABLE} .pm-stock"))  # after a draw: one card more
    expect(page.locator(f"{TABLE} .pm-hand-card")).to_have_count(4)
    assert page.evaluate("window.scrollY") == 0
    _in_sight(page)
    page.locator(f"{TABLE} .pm-hand-card").nth(1).click()
    _act(page, page.locator(f"{TABLE} .pm-do-discard"))  # the bots' moves beside each seat
    expect(page.locator(TABLE)).to_have_attribute("data-animating", "false", timeout=30_000)
    _in_sight(page)
    # the intro waits behind How to play
    help_text = page.locator(".payme-play-help")
    expect(help_text).to_be_hidden()
    page.locator(".payme-play-help-button").click()
    expect(help_text).to_contain_text("this hand")
    assert console_noise == []


def test_the_bots_moves_show_beside_their_seats_and_are_said(
    open_page: Any, console_noise: list[str]
) -> None:
    page = open_page("play", query=FOUR, ready=READY)
    _draw_then_discard_first(page)
    expect(page.locator(TABLE)).to_have_attribute("data-animating", "false", timeout=30_000)
    west = page.locator(f'{TABLE} .pm-last[data-seat="1"]')
    expect(west).to_have_text(re.compile(r"^(drew from the stock|took .+ from the pile)"))
    north = page.locator(f'{TABLE} .pm-last[data-seat="2"]')
    expect(north).not_to_be_empty()
    live = page.locator(".pm-live[aria-live=polite]")
    expect(live).to_contain_text("West " + str(west.inner_text()))
    # a reload keeps each seat's last move
    before = west.inner_text()
    page.reload(wait_until="domcontentloaded")
    page.locator(READY).first.wait_for(state="visible", timeout=120_000)
    expect(page.locator(f'{TABLE} .pm-last[data-seat="1"]')).to_have_text(before)
    assert console_noise == []


def test_instant_speed_shows_no_animation(open_page: Any, console_noise: list[str]) -> None:
    page = open_page("play", query=FOUR, ready=READY)
    page.locator(f"{TABLE} .pm-speed select").select_option("instant")
    _draw_then_discard_first(page)
    assert page.locator(TABLE).get_attribute("data-animating") == "false"
    expect(page.locator(f'{TABLE} .pm-last[data-seat="3"]')).not_to_be_empty()
    assert console_noise == []


def test_back_steps_back_one_move_and_stays_on_play(
    open_page: Any, console_noise: list[str]
) -> None:
    page = open_page("play", query=FOUR, ready=READY)
    _act(page, page.locator(f"{TABLE} .pm-stock"))
    expect(page).to_have_url(re.compile(r"moves=s$"))
    page.locator(f"{TABLE} .pm-hand-card").first.click()
    _act(page, page.locator(f"{TABLE} .pm-do-discard"))
    expect(page).to_have_url(re.compile(r"moves=s\.d\w+$"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"play\.ipynb\?.*moves=s$"))
    expect(page.locator(f"{TABLE} .pm-hand-card")).to_have_count(4)  # drawn, not discarded
    expect(page.locator(f"{TABLE} .pm-do-discard")).to_be_enabled()
    page.go_forward()
    expect(page).to_have_url(re.compile(r"moves=s\.d\w+$"))
    expect(page.locator(f"{TABLE} .pm-hand-card")).to_have_count(3)
    assert console_noise == []


def test_a_wild_card_laid_off_at_the_low_end_of_a_run(
    open_page: Any, console_noise: list[str]
) -> None:
    from urllib.parse import quote

    query = f"position={quote(joker_lay_off_turn().to_position())}&bots=greedy"
    page = open_page("play", query=query, ready=READY)
    expect(page.locator(TABLE)).to_have_attribute("data-mode", "lay_off")
    joker = page.locator(f'{TABLE} .pm-hand-card[data-card="JK"]')
    joker.click()
    low = page.locator(f'{TABLE} .pm-meld[data-meld="0"] .pm-place[data-place="4H"]')
    high = page.locator(f'{TABLE} .pm-meld[data-meld="0"] .pm-place[data-place="8H"]')
    expect(low).to_have_text("◀ as 4♥︎")
    expect(high).to_have_attribute("title", re.compile("high end of meld 1"))
    # by keyboard: the place is a button reached with Tab, chosen with Enter
    low.focus()
    before = _serial(page)
    page.keyboard.press("Enter")
    _settle(page, before)
    first = page.locator(f'{TABLE} .pm-meld[data-meld="0"] .pm-card').first
    expect(first).to_have_attribute("aria-label", re.compile("joker.*four of hearts"))
    _act(page, page.locator(f"{TABLE} .pm-do-lay-off-done"))
    expect(page).to_have_url(re.compile(r"moves=l0-JK~4H"))
    expect(page.locator(f"{TABLE} .pm-panel h3")).to_have_text("Hand 1: the result")
    # the link opens the same game
    page.reload(wait_until="domcontentloaded")
    page.locator(f"{TABLE} .pm-panel").wait_for(state="visible", timeout=120_000)
    expect(page.locator(f"{TABLE} .pm-panel h3")).to_have_text("Hand 1: the result")
    assert console_noise == []


def test_a_reload_keeps_the_dragged_order(open_page: Any, console_noise: list[str]) -> None:
    page = open_page("play", query="rules=denexa&players=4&bots=greedy&seed=21", ready=READY)
    _act(page, page.locator(f"{TABLE} .pm-stock"))
    expect(page.locator(TABLE)).to_have_attribute("data-animating", "false")
    cards = page.locator(f"{TABLE} .pm-hand-card")

    before = _drag_first_card_last(page, cards)
    dragged = [*before[1:], before[0]]
    assert _hand_order(cards) == dragged
    expect(page).to_have_url(re.compile("order=" + r"\.".join(dragged) + "$"))
    page.reload(wait_until="domcontentloaded")
    page.locator(READY).first.wait_for(state="visible", timeout=120_000)
    assert _hand_order(cards) == dragged
    assert console_noise == []


def test_the_end_of_the_game_shows_the_standings_and_the_review(
    open_page: Any, console_noise: list[str]
) -> None:
    from payme.play import PlaySession

    session = PlaySession("three_pack", 3, ("greedy",), 2)
    while not session.over:
        legal = session.legal()
        stock = [a for a in legal if type(a).__name__ == "Draw" and a.source == "stock"]
        session.act(stock[0] if stock else legal[-1])
    moves = ".".join(session.moves)
    page = open_page(
        "play", query=f"rules=three_pack&players=3&bots=greedy&seed=2&moves={moves}",
        ready=f"{TABLE} .pm-final",
    )  # fmt: skip
    final = page.locator(f"{TABLE} .pm-final")
    standings = final.locator(".pm-standings")
    review = final.locator(".pm-review-link")
    expect(standings).to_contain_text("Standings")
    expect(standings.locator("tbody tr")).to_have_count(3)
    expect(review).to_have_text("Review my game")
    expect(final.locator(".pm-new-game")).to_have_text("New game")
    s, r = standings.bounding_box(), review.bounding_box()
    assert s is not None and r is not None
    # beside the standings: on the same band of the screen, within reach of the eye
    assert r["y"] < s["y"] + s["height"] + 60
    _inside(page, f"{TABLE} .pm-review-link")
    before = _serial(page)
    review.click()
    _settle(page, before)
    expect(page.locator(".payme-play-review-box h2")).to_have_text("How you played")
    expect(page.locator(".payme-play-review-box .pm-rv .pm-rv-grades")).to_be_visible()
    expect(page.locator(".payme-play-review-box .payme-review-grades")).to_have_count(0)
    # and under the summary, the board to step through each decision
    expect(page.locator(".payme-play-review-box .pm-rv .pm-rv-decision")).to_be_visible()
    assert console_noise == []


def test_how_am_i_doing_and_hints_during_a_game(open_page: Any, console_noise: list[str]) -> None:
    page = open_page("play", query=FOUR, ready=READY)
    _act(page, page.locator(f"{TABLE} .pm-do-hint"))
    advice = page.locator(f"{TABLE} .pm-advice")
    expect(advice).to_contain_text(re.compile(r"^Hint: (Draw|Take)"))
    _act(page, page.locator(f"{TABLE} .pm-stock"))
    # the hint is worked out again for the new position, not left over
    expect(advice).to_contain_text(re.compile(r"^Hint: (Discard|Go out)"))
    _act(page, page.locator(f"{TABLE} .pm-do-hint-off"))
    expect(advice).to_have_count(0)
    page.locator(f"{TABLE} .pm-hand-card").first.click()
    _act(page, page.locator(f"{TABLE} .pm-do-discard"))
    page.locator("button.payme-play-review-button").click()
    expect(page.locator(".payme-play-review-box h2")).to_have_text("How you are doing so far")
    expect(page.locator(".payme-play-review-box .pm-rv .pm-rv-grades")).to_be_visible()
    expect(page.locator(".payme-play-review-box .payme-review-grades")).to_have_count(0)
    expect(page.locator(".payme-play-review-box .pm-rv .pm-rv-decision")).to_be_visible()
    page.locator("button.payme-play-review-close").click()
    expect(page.locator(".payme-play-review-box")).to_be_hidden()
    assert console_noise == []
