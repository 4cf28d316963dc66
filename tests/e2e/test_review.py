"""The game review in the browser: stepped with the keyboard, each position as the engine has it.

A Pay Me game starts at the last hand (a Play URL with a position) so it ends after one
hand; you play the strongest bot's moves but two; the review's board is then stepped with
→ and ←, and at every decision the cards shown are the engine's: your hand, the pile's top,
the melds on the table, replayed from the moves before it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

REVIEW = ".pm-rv"
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _last_hand_position(seed: int) -> str:
    """A denexa game for 2 at the start of its last hand (the hands before played by bots)."""
    from payme.game import make_bot
    from payme.game.pay_me import PayMeGame

    game = PayMeGame("denexa", 2, seed, auto_advance=False, turn_limit=400)
    bots = {s: make_bot("greedy", game.rules, s) for s in range(2)}
    while game.hand_number < game.rules.hands:
        if game.phase == "hand_over":
            game.advance()
            continue
        seat = game.to_move
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return game.to_position()


def _game(strays_seed: int = 2) -> tuple[str, list[str]]:
    from payme.play.session import PlaySession

    position = _last_hand_position(5)
    session = PlaySession("denexa", 2, ("greedy",), 5, position)
    rng = random.Random(strays_seed)
    strays = 0
    while not session.over:
        legal = session.legal()
        move = session.advice()
        assert move is not None
        if strays < 2 and len(legal) > 2 and rng.random() < 0.3:
            other = [a for a in legal if a != move and type(a) is type(move)]
            if other:
                move = rng.choice(other)
                strays += 1
        session.act(move)
    return position, session.moves


def _shown(page: Any, where: str) -> list[str]:
    return [str(c.get_attribute("data-card")) for c in page.locator(f"{REVIEW} {where}").all()]


def test_the_review_board_steps_with_the_keyboard_and_shows_the_engines_positions(
    open_page: Any, page_errors: list[str]
) -> None:
    from payme.analysis.review import review_game
    from payme.play.session import PlaySession

    position, moves = _game()
    review = review_game("denexa", 2, ("greedy",), 5, moves, position=position)
    query = (
        f"rules=denexa&players=2&bots=greedy&seed=5&position={quote(position)}"
        f"&moves={'.'.join(moves)}"
    )
    page = open_page("play", query=query, ready=".pm-table .pm-panel")
    page.locator("button.payme-play-review-button").click()
    board = page.locator(REVIEW)
    expect(board.locator(".pm-rv-decision")).to_be_visible(timeout=180_000)
    expect(board.locator(".pm-rv-progress")).to_have_count(0, timeout=600_000)
    assert "null" not in board.inner_text()
    dots = board.locator(".pm-rv-dot")
    expect(dots).to_have_count(len(review.decisions))
    # The chart and the grade table say the review's numbers.
    bars = board.locator(".pm-rv-chart rect.payme-review-bar")
    expect(bars).to_have_count(len(review.per_hand()))
    assert float(str(bars.first.get_attribute("data-lost"))) == review.per_hand()[0]["lost"]
    # Step to the first decision with the keyboard, then through every one.
    board.focus()
    for _ in range(len(review.decisions)):
        page.keyboard.press("ArrowLeft")
    for index, d in enumerate(review.decisions):
        shown = board.locator(".pm-rv-decision")
        expect(shown).to_have_attribute("data-index", str(index))
        expect(shown).to_have_attribute("data-grade", d.grade)
        replay = PlaySession.from_moves("denexa", 2, ("greedy",), 5, d.before, position)
        view = replay.view()
        assert _shown(page, ".pm-rv-hand .pm-rv-card") == [c.token for c in view.hand]
        pile = _shown(page, ".pm-rv-pile .pm-rv-card")
        assert pile == [c.token for c in view.discard_pile[-6:]]
        melds = [list(m) for m in view.table]
        assert len(board.locator(".pm-rv-melds .pm-rv-cards").all()) == len(melds)
        expect(shown.locator(".pm-rv-headline")).to_contain_text(d.headline[:30])
        if not d.agrees:
            expect(shown.locator(".pm-rv-explanation")).to_have_text(d.explanation)
            marked = board.locator(".pm-rv-yours")
            assert marked.count() >= 1  # your move is marked on the board
        link = board.locator("a.pm-rv-play")
        assert str(link.get_attribute("href")).endswith("moves=" + ".".join(d.before))
        if index < len(review.decisions) - 1:
            page.keyboard.press("ArrowRight")
    # The buttons step too.
    board.locator("button.pm-rv-prev").click()
    expect(board.locator(".pm-rv-decision")).to_have_attribute(
        "data-index", str(len(review.decisions) - 2)
    )
    assert page_errors == []


def test_the_review_is_shown_at_once_and_refined_under_a_progress_line(
    open_page: Any, page_errors: list[str]
) -> None:
    """A stray discard whose cost takes some 700 deals to measure to ±0.5: the board comes
    at once with that decision marked as being measured, a progress line says which decision
    and how precisely so far, the page answers the keyboard meanwhile, and at the end the
    line goes and the board shows the review's own numbers."""
    from payme.analysis.review import review_game

    position, moves = _game(4)
    review = review_game("denexa", 2, ("greedy",), 5, moves, position=position)
    sampled = [d for d in review.decisions if d.measured and not d.measured.exact]
    assert sampled and sampled[0].measured is not None and sampled[0].measured.deals > 256
    query = (
        f"rules=denexa&players=2&bots=greedy&seed=5&position={quote(position)}"
        f"&moves={'.'.join(moves)}"
    )
    page = open_page("play", query=query, ready=".pm-table .pm-panel")
    page.locator("button.payme-play-review-button").click()
    board = page.locator(REVIEW)
    progress = board.locator(".pm-rv-progress")
    expect(progress).to_contain_text(re.compile(r"Measuring decision [12] of 2"), timeout=120_000)
    expect(board.locator(".pm-rv-dot.pm-rv-pending").first).to_be_visible()
    # The page answers while the costs are measured: a step forth and back.
    board.focus()
    shown = board.locator(".pm-rv-decision")
    at = int(str(shown.get_attribute("data-index")))
    page.keyboard.press("ArrowLeft" if at else "ArrowRight")
    expect(shown).not_to_have_attribute("data-index", str(at))
    expect(progress).to_contain_text(re.compile(r"±\d+\.\d so far"), timeout=120_000)
    SHOTS.mkdir(exist_ok=True)
    board.screenshot(path=str(SHOTS / "review-measuring.png"))
    expect(progress).to_have_count(0, timeout=600_000)
    assert board.locator(".pm-rv-pending").count() == 0
    index = review.decisions.index(sampled[0])
    board.locator(".pm-rv-dot").nth(index).click()
    expect(shown).to_have_attribute("data-index", str(index))
    expect(shown).to_have_attribute("data-grade", sampled[0].grade)
    expect(shown.locator(".pm-rv-explanation")).to_have_text(sampled[0].explanation)
    assert page_errors == []


def test_review_screenshots(open_page: Any, page: Any, page_errors: list[str]) -> None:
    """The review at desktop and phone sizes, kept in docs/screenshots for a look."""
    from payme.analysis.review import review_game

    position, moves = _game()
    review = review_game("denexa", 2, ("greedy",), 5, moves, position=position)
    worst = review.mistakes(1)
    query = (
        f"rules=denexa&players=2&bots=greedy&seed=5&position={quote(position)}"
        f"&moves={'.'.join(moves)}"
    )
    for name, size in (("desktop", (1280, 900)), ("phone", (390, 844))):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        open_page("play", query=query, ready=".pm-table .pm-panel")
        page.locator("button.payme-play-review-button").click()
        board = page.locator(REVIEW)
        expect(board.locator(".pm-rv-decision")).to_be_visible(timeout=180_000)
        expect(board.locator(".pm-rv-progress")).to_have_count(0, timeout=600_000)
        if worst:
            expect(board.locator(".pm-rv-decision")).to_have_attribute(
                "data-index", str(review.decisions.index(worst[0]))
            )
        board.scroll_into_view_if_needed()
        SHOTS.mkdir(exist_ok=True)
        board.screenshot(path=str(SHOTS / f"review-{name}.png"))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0] + 1, f"the page scrolls sideways at {size[0]} px"
    assert page_errors == []
