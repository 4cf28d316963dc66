"""The declarer lays out the melds: ``JK 5H 6H`` declared in family takes an opponent's 7♥,
which ``5H 6H JK`` (the joker as 7♥, the solver's first layout) would refuse."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from .test_play import READY, TABLE, _act

pytestmark = pytest.mark.e2e

# Hand 1 of family (3 cards dealt, threes wild): you hold 5♥ 6♥ and a joker and draw 9♠;
# North holds 7♥ 8♣ Q♦.
POSITION = (
    "rules=family; players=2; hand=1; phase=draw; to_move=0; "
    "hands=5H 6H JK / 7H 8C QD; pile=KC; stock=* 2C 9S"
)


def test_the_default_layout_refuses_the_seven_of_hearts() -> None:
    import payme

    default = payme.evaluate("5H 6H JK", rules="family", dealt=3).melds
    assert payme.lay_off("7H 8C 9S", default, rules="family", dealt=3).lay_offs == ()
    declared = payme.lay_off("7H 8C 9S", ["JK 5H 6H"], rules="family", dealt=3)
    assert declared.lay_offs == ((0, (payme.parse_hand("7H")[0],)),)


def test_declaring_joker_five_six_of_hearts_takes_north_s_seven(
    open_page: Any, page_errors: list[str]
) -> None:
    query = urlencode({"position": POSITION, "bots": "greedy"})
    page = open_page("play", query=query, ready=READY)
    expect(page.locator(f"{TABLE} .pm-title")).to_contain_text("Pay Me (family rules")
    _act(page, page.locator(f"{TABLE} .pm-stock"))
    page.locator(f'{TABLE} .pm-hand-card[data-card="9S"]').click()
    _act(page, page.locator(f"{TABLE} .pm-do-go-out"))
    # The engine proposes the layout that leaves the fewest lay-off spots for the cards you
    # have not seen: the joker at the low end, as 4♥ (as 7♥ it would let in 4♥ and 8♥).
    group = page.locator(f"{TABLE} .pm-arrange-group")
    expect(group).to_have_count(1)
    expect(group.locator(".pm-reason")).to_contain_text("joker stands for 4♥")
    cards = page.locator(f"{TABLE} .pm-arrange-card")
    assert [c.get_attribute("data-card") for c in cards.all()] == ["JK", "5H", "6H"]
    # Move the joker to the top: it stands for 7♥ now, and the engine says so; then
    # back (the joker stays picked).
    page.locator(f'{TABLE} .pm-arrange-card[data-card="JK"]').click()
    _act(page, page.locator(f"{TABLE} .pm-do-right"))
    _act(page, page.locator(f"{TABLE} .pm-do-right"))
    assert [c.get_attribute("data-card") for c in cards.all()] == ["5H", "6H", "JK"]
    expect(group.locator(".pm-reason")).to_contain_text("joker stands for 7♥")
    _act(page, page.locator(f"{TABLE} .pm-do-left"))
    _act(page, page.locator(f"{TABLE} .pm-do-left"))
    assert [c.get_attribute("data-card") for c in cards.all()] == ["JK", "5H", "6H"]
    expect(group.locator(".pm-reason")).to_contain_text(
        re.compile(r"Valid run of hearts 4–6; joker stands for 4♥")
    )
    _act(page, page.locator(f"{TABLE} .pm-do-lay-down"))
    # North's final turn, then its lay-off: 7♥ joins the run; the result shows it.
    panel = page.locator(f"{TABLE} .pm-panel")
    expect(panel).to_contain_text("You went out")
    expect(panel).to_contain_text("Laid off 7♥")
    expect(panel.locator(".payme-meld").first).to_contain_text("Meld 1: Run 4♥")
    meld = page.locator(f"{TABLE} .pm-meld").first
    expect(meld.locator(".pm-laid-by")).to_have_text("North")
    expect(page).to_have_url(re.compile(r"moves=s\.o9S_rJK~4H-5H-6H$"))
    assert page_errors == []
