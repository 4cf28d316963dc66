"""The Play page in the browser: whole games played by clicks on the card table only, one
hand with the keyboard only, refusals next to the card, reloads that keep the position."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

TABLE = ".pm-table"
READY = ".pm-table .pm-hand-card"


@pytest.fixture
def console_warnings(page: Any) -> list[str]:
    """Console warnings of the page, less the JupyterLab shared-module version notes that
    every Voilà page of this stack prints (the app's own code must add none)."""
    seen: list[str] = []

    def on_console(msg: Any) -> None:
        stack_note = "_JUPYTERLAB.CORE_OUTPUT" in msg.text or "shared scope" in msg.text
        if msg.type == "warning" and not stack_note:
            seen.append(msg.text)

    page.on("console", on_console)
    return seen


def _serial(page: Any) -> str:
    return str(page.locator(TABLE).get_attribute("data-serial"))


def _settle(page: Any, before: str) -> None:
    """Wait until the kernel has answered: a new state, or a refusal shown on the table."""
    page.wait_for_function(
        """before => {
            const t = document.querySelector('.pm-table');
            if (!t || t.dataset.busy !== 'false') return false;
            if (t.querySelector('.pm-notice') !== null) return true;
            return t.dataset.serial !== before && t.dataset.waiting === 'false';
        }""",
        arg=before,
        timeout=60_000,
    )


def _act(page: Any, target: Any) -> None:
    before = _serial(page)
    target.click()
    _settle(page, before)


def _hand_order(cards: Any) -> list[str]:
    """The hand's cards as the table shows them, left to right (``cards``: their locator)."""
    return [str(c.get_attribute("data-card")) for c in cards.all()]


def _drag_first_card_last(page: Any, cards: Any) -> list[str]:
    """Drag the hand's first card with the mouse past its last one; the order before."""
    before = _hand_order(cards)
    first, last = cards.first.bounding_box(), cards.last.bounding_box()
    assert first is not None and last is not None
    page.mouse.move(first["x"] + 10, first["y"] + 20)
    page.mouse.down()
    page.mouse.move(first["x"] + 40, first["y"] + 20, steps=4)
    page.mouse.move(last["x"] + last["width"] - 5, last["y"] + 20, steps=8)
    page.mouse.up()
    return before


def _draw_then_discard_first(page: Any) -> None:
    """Draw from the stock, then discard the hand's first card (each move answered)."""
    _act(page, page.locator(f"{TABLE} .pm-stock"))
    page.locator(f"{TABLE} .pm-hand-card").first.click()
    _act(page, page.locator(f"{TABLE} .pm-do-discard"))


def _enabled(page: Any, selector: str) -> bool:
    button = page.locator(f"{TABLE} {selector}")
    return bool(button.count() and button.first.is_enabled())


def _notice(page: Any) -> str:
    note = page.locator(f"{TABLE} .pm-notice")
    return str(note.inner_text()) if note.count() else ""


def _go_out_by_clicks(page: Any) -> bool:
    """Select each card in turn and press Go out until one works; lay down if asked."""
    cards = page.locator(f"{TABLE} .pm-hand-card")
    for i in range(cards.count()):
        card = page.locator(f"{TABLE} .pm-hand-card").nth(i)
        if card.get_attribute("aria-selected") != "true":
            card.click()
        _act(page, page.locator(f"{TABLE} .pm-do-go-out"))
        if page.locator(f"{TABLE} .pm-arrange").count():
            _act(page, page.locator(f"{TABLE} .pm-do-lay-down"))
            return True
        if not _notice(page):
            return True
    return False


def _play_by_clicks(page: Any, *, hands: int, limit: int = 2000) -> list[str]:
    """Play with clicks on the table until the game (or ``hands`` hands) is over."""
    titles: list[str] = []
    for _ in range(limit):
        table = page.locator(TABLE)
        status = str(table.get_attribute("data-status"))
        if "Game over" in status:
            return titles
        if _enabled(page, ".pm-do-next-hand"):
            titles.append(str(page.locator(f"{TABLE} .pm-panel h3").inner_text()))
            if len(titles) >= hands:
                return titles
            _act(page, page.locator(f"{TABLE} .pm-do-next-hand"))
        elif table.get_attribute("data-mode") == "lay_off":
            _act(page, page.locator(f"{TABLE} .pm-do-lay-off-best"))
        elif page.locator(f"{TABLE} .pm-stock.pm-can").count():
            _act(page, page.locator(f"{TABLE} .pm-stock"))
        elif _enabled(page, ".pm-do-go-out") and _go_out_by_clicks(page):
            continue
        elif table.get_attribute("data-phase") == "final_go_out":
            _act(page, page.locator(f"{TABLE} .pm-do-drop-out"))  # "Pass": cannot go out
        elif _enabled(page, ".pm-do-discard"):
            card = page.locator(f"{TABLE} .pm-hand-card").first
            card.click()  # select
            before = _serial(page)
            page.locator(f"{TABLE} .pm-hand-card").first.click()  # again: discard
            _settle(page, before)
        else:
            pytest.fail(f"no move offered: {status}")
    pytest.fail(f"the game did not end in {limit} moves")


def test_a_whole_denexa_game_with_clicks_on_the_table(
    open_page: Any, page_errors: list[str], console_warnings: list[str]
) -> None:
    page = open_page("play", query="rules=denexa&players=2&bots=greedy&seed=4", ready=READY)
    expect(page.locator(f"{TABLE} .pm-title")).to_contain_text(
        "Pay Me (Denexa rules) · hand 1 of 11 · 3 cards dealt · wild: twos, threes and jokers"
    )
    expect(page.locator(f"{TABLE} .pm-seat")).to_contain_text("North · greedy bot")
    titles = _play_by_clicks(page, hands=99)
    assert titles == [f"Hand {n}: the result" for n in range(1, 11)]
    expect(page.locator(TABLE)).to_have_attribute("data-status", re.compile("Game over: .* wins?"))
    rows = page.locator(".payme-scoreboard tbody tr")
    expect(rows).to_have_count(12)  # 11 hands and the totals
    assert "moves=" in page.url and page.url.count(".n.") == 10
    assert page_errors == []
    assert console_warnings == []


def test_a_whole_rummy_three_pack_game_with_clicks_on_the_table(
    open_page: Any, page_errors: list[str]
) -> None:
    page = open_page("play", query="rules=three_pack&players=3&bots=greedy&seed=2", ready=READY)
    expect(page.locator(f"{TABLE} .pm-title")).to_contain_text("Rummy 3-Pack · 7 cards dealt")
    stock = page.locator(f"{TABLE} .pm-stock")
    expect(stock).to_contain_text(re.compile(r"about \d+ cards"))
    _play_by_clicks(page, hands=1)
    panel = page.locator(f"{TABLE} .pm-panel")
    expect(panel).to_contain_text(re.compile(r"won: (went out|held a RUMMY card)"))
    assert page_errors == []


def test_a_refused_move_shows_the_rule_next_to_the_card(
    open_page: Any, page_errors: list[str]
) -> None:
    page = open_page("play", query="rules=denexa&players=2&bots=greedy&seed=4", ready=READY)
    card = page.locator(f"{TABLE} .pm-hand-card").nth(1)
    card.click()
    expect(card).to_have_attribute("aria-selected", "true")
    _act(page, page.locator(f"{TABLE} .pm-hand-card").nth(1))  # again: discard, refused
    note = page.locator(f"{TABLE} .pm-notice")
    expect(note).to_have_text("Draw a card first (from the stock or the discard pile).")
    expect(note).to_have_attribute("role", "alert")
    # the page keeps working: draw, and the notice is gone
    _act(page, page.locator(f"{TABLE} .pm-stock"))
    expect(note).to_have_count(0)
    expect(page.locator(f"{TABLE} .pm-hand-card")).to_have_count(4)
    _act(page, page.locator(f"{TABLE} .pm-do-hint"))
    expect(page.locator(f"{TABLE} .pm-advice")).to_contain_text(
        re.compile(r"^Hint: (Discard|Go out)")
    )
    assert page_errors == []


def test_one_hand_with_the_keyboard_only(open_page: Any, page_errors: list[str]) -> None:
    page = open_page("play", query="rules=classic&players=2&bots=greedy&seed=6", ready=READY)
    for _ in range(60):
        table = page.locator(TABLE)
        if _enabled(page, ".pm-do-next-hand"):
            break
        stock = table.locator(".pm-stock.pm-can")
        if stock.count():
            stock.focus()
            before = _serial(page)
            page.keyboard.press("Enter")
            _settle(page, before)
            continue
        assert table.get_attribute("data-mode") == "play", table.get_attribute("data-mode")
        # Arrow keys walk the hand, Shift+arrow moves a card, Enter selects, Enter discards.
        first = table.locator(".pm-hand-card").first
        first.focus()
        name = first.get_attribute("data-card")
        page.keyboard.press("Shift+ArrowRight")
        expect(table.locator(".pm-hand-card").nth(1)).to_have_attribute("data-card", str(name))
        expect(table.locator(".pm-hand-card").nth(1)).to_be_focused()
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")
        focused = table.locator(".pm-hand-card[aria-selected=true]")
        expect(focused).to_be_focused()
        before = _serial(page)
        page.keyboard.press("Enter")
        _settle(page, before)
    else:
        pytest.fail("the hand did not end in 60 keyboard turns")
    expect(page.locator(f"{TABLE} .pm-panel h3")).to_have_text("Hand 1: the result")
    assert page_errors == []


def test_a_reload_mid_hand_shows_the_same_position(open_page: Any, page_errors: list[str]) -> None:
    page = open_page("play", query="rules=family&players=3&bots=greedy&seed=11", ready=READY)
    _act(page, page.locator(f"{TABLE} .pm-pile"))
    page.locator(f"{TABLE} .pm-hand-card").first.click()
    _act(page, page.locator(f"{TABLE} .pm-do-discard"))
    _act(page, page.locator(f"{TABLE} .pm-stock"))
    expect(page).to_have_url(re.compile(r"moves=p\.d\w+\.s"))

    def position() -> tuple[str, ...]:
        table = page.locator(TABLE)
        cards = table.locator(".pm-hand-card")
        return (
            " ".join(sorted(str(c.get_attribute("data-card")) for c in cards.all())),
            str(table.locator(".pm-pile").get_attribute("aria-label")),
            str(table.locator(".pm-stock").inner_text()),
            str(table.locator(".pm-seats").inner_text()),
        )

    before = position()
    page.reload(wait_until="domcontentloaded")
    page.locator(READY).first.wait_for(state="visible", timeout=120_000)
    assert position() == before
    assert page_errors == []


def test_back_after_a_new_game_returns_to_the_game_before(
    open_page: Any, page_errors: list[str]
) -> None:
    page = open_page("play", query="rules=denexa&players=3&bots=greedy&seed=9", ready=READY)
    _act(page, page.locator(f"{TABLE} .pm-stock"))
    # a link without gen (an old link) is replayed by the first generation of bots
    expect(page).to_have_url(re.compile(r"seed=9&gen=1&moves=s$"))
    page.locator("button.payme-play-new").click()
    page.locator(".payme-play-rules select").select_option(label="Rummy 3-Pack")
    before = _serial(page)
    page.locator("button.payme-play-deal").click()
    _settle(page, before)
    expect(page.locator(f"{TABLE} .pm-title")).to_contain_text("Rummy 3-Pack")
    expect(page).to_have_url(
        re.compile(r"rules=three_pack&players=3&bots=greedy,greedy&seed=\d+&gen=2&")
    )
    page.go_back()
    expect(page.locator(f"{TABLE} .pm-title")).to_contain_text("Pay Me (Denexa rules)")
    expect(page.locator(f"{TABLE} .pm-hand-card")).to_have_count(4)  # 3 dealt + the draw
    expect(page).to_have_url(re.compile(r"seed=9&gen=1&moves=s$"))
    assert page_errors == []


def test_drag_and_sort_reorder_the_hand(open_page: Any, page_errors: list[str]) -> None:
    page = open_page("play", query="rules=denexa&players=2&bots=greedy&seed=21", ready=READY)
    _act(page, page.locator(f"{TABLE} .pm-stock"))
    cards = page.locator(f"{TABLE} .pm-hand-card")
    expect(cards).to_have_count(4)
    # The draw is shown step by step first; a card pressed meanwhile belongs to a picture of
    # the move, not to the hand.  The mouse acts where the cards are on screen: scroll there.
    expect(page.locator(TABLE)).to_have_attribute("data-animating", "false")
    page.locator(f"{TABLE} .pm-hand").scroll_into_view_if_needed()

    before = _drag_first_card_last(page, cards)
    expect(cards.last).to_have_attribute("data-card", before[0])
    assert _hand_order(cards) == [*before[1:], before[0]]
    ranks = "A23456789TJQK"
    page.locator(f"{TABLE} .pm-do-sort").click()  # by suit
    expect(page.locator(f"{TABLE} .pm-do-sort")).to_have_attribute("title", re.compile("by rank"))
    page.locator(f"{TABLE} .pm-do-sort").click()  # then by rank
    by_rank = _hand_order(cards)
    assert [ranks.index(c[0]) for c in by_rank if c != "JK"] == sorted(
        ranks.index(c[0]) for c in by_rank if c != "JK"
    )
    # the order is the player's own: a discard keeps it for the cards left
    kept = by_rank[1:]
    cards.first.click()
    before_serial = _serial(page)
    cards.first.click()
    _settle(page, before_serial)
    assert _hand_order(cards)[: len(kept)] == kept
    assert page_errors == []
