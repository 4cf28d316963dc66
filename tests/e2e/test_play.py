"""The Play page in the browser: a hand played to its end, bad settings, fast clicks, reloads."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

GAME = "rules=denexa&players=2&bots=greedy&seed=4"


def _log(page: Any) -> str:
    return str(page.locator(".payme-play-log").inner_text())


def _click_and_wait(page: Any, locator: Any) -> None:
    """Click, then wait until the game has moved (the event log grows)."""
    before = _log(page)
    locator.click()
    page.wait_for_function(
        "before => document.querySelector('.payme-play-log').innerText !== before",
        arg=before,
        timeout=60_000,
    )


def _enabled(page: Any, key: str) -> bool:
    button = page.locator(f"button.payme-play-{key}")
    return bool(button.is_visible() and button.is_enabled())


def test_play_a_hand_to_its_end(open_page: Any, page_errors: list[str]) -> None:
    page = open_page("play", query=GAME, ready="button.payme-play-hint")
    status = page.locator(".payme-play-status")
    expect(status).to_contain_text("Hand 1 of 11: 3 cards dealt, 3s wild")
    for _ in range(200):
        text = status.inner_text()
        if "The hand is over" in text or "Game over" in text:
            break
        if _enabled(page, "draw-stock"):
            _click_and_wait(page, page.locator("button.payme-play-draw-stock"))
        elif _enabled(page, "go-out"):
            _click_and_wait(page, page.locator("button.payme-play-go-out"))
        elif _enabled(page, "lay-off"):
            _click_and_wait(page, page.locator("button.payme-play-lay-off"))
        elif _enabled(page, "discard"):
            page.locator(".payme-play-cards button").first.click()
            _click_and_wait(page, page.locator("button.payme-play-discard"))
        else:
            pytest.fail(f"no move offered: {text}")
    else:
        pytest.fail("the hand did not end in 200 moves")
    expect(status).to_contain_text("The hand is over")
    # The scoreboard has hand 1 with a score for both seats, and the totals.
    rows = page.locator(".payme-scoreboard tbody tr")
    expect(rows).to_have_count(2)
    first = rows.nth(0).locator("td")
    assert first.nth(0).inner_text() == "1"
    points = [first.nth(i).inner_text() for i in (1, 2)]
    assert all(re.fullmatch(r"\d+( ✔)?", p) for p in points), points
    assert sum("✔" in p for p in points) <= 1
    totals = rows.nth(1).locator("td")
    assert [totals.nth(i).inner_text() for i in (1, 2)] == [p.split()[0] for p in points]
    # On to hand 2: four cards each, fours wild.
    page.locator("button.payme-play-next-hand").click()
    expect(status).to_contain_text("Hand 2 of 11: 4 cards dealt, 4s wild")
    assert page_errors == []


def test_fast_repeated_clicks_draw_once(open_page: Any, page_errors: list[str]) -> None:
    page = open_page("play", query=GAME, ready="button.payme-play-hint")
    draw = page.locator("button.payme-play-draw-stock")
    expect(draw).to_be_enabled()
    # Three clicks inside one script: all reach the kernel before the first is answered.
    page.evaluate(
        "() => { const b = document.querySelector('button.payme-play-draw-stock');"
        " b.click(); b.click(); b.click(); }"
    )
    status = page.locator(".payme-play-status")
    expect(status).to_contain_text("go out or discard")
    # Three cards dealt plus exactly one drawn.
    expect(page.locator(".payme-play-cards button")).to_have_count(4)
    # the extra clicks were refused with a message, and the game goes on
    expect(page.locator(".payme-message")).to_contain_text("not allowed now")
    expect(page.locator("button.payme-play-draw-stock")).to_be_disabled()
    page.locator("button.payme-play-hint").click()
    expect(page.locator(".payme-message")).to_contain_text("Hint:")
    assert page_errors == []


def test_nonsense_settings_show_a_message_and_the_page_keeps_working(
    open_page: Any, page_errors: list[str]
) -> None:
    page = open_page("play", query="rules=denexa&players=banana&seed=-3")
    message = page.locator(".payme-message")
    expect(message).to_contain_text("players must be a whole number")
    bots = page.locator(".payme-play-bots input")
    bots.fill("grumpy")
    page.locator("button.payme-play-new").click()
    expect(message).to_contain_text("unknown bot 'grumpy'")
    bots.fill("random")
    page.locator("button.payme-play-new").click()
    expect(message).to_contain_text("New game of denexa against random, random")
    expect(page.locator("button.payme-play-draw-stock")).to_be_enabled()
    assert page_errors == []


def test_reload_with_the_same_url_deals_the_same_game(open_page: Any) -> None:
    page = open_page("play", query=GAME, ready="button.payme-play-hint")
    cards = page.locator(".payme-play-cards")
    expect(cards.locator("button")).to_have_count(3)
    first = cards.inner_text()
    page.reload(wait_until="domcontentloaded")
    page.locator("button.payme-play-hint").wait_for(state="visible", timeout=120_000)
    expect(cards.locator("button")).to_have_count(3)
    assert cards.inner_text() == first


def test_rummy_three_pack_game(open_page: Any, page_errors: list[str]) -> None:
    page = open_page(
        "play",
        query="rules=three_pack&players=3&bots=greedy&seed=2",
        ready="button.payme-play-hint",
    )
    expect(page.locator(".payme-play-status")).to_contain_text("Rummy 3-Pack: 7 cards dealt")
    expect(page.locator("button.payme-play-next-hand")).to_be_hidden()
    page.locator("button.payme-play-draw-stock").click()
    expect(page.locator(".payme-play-cards button")).to_have_count(8)
    assert page_errors == []
