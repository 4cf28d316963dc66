"""The review's precision (issue 24, point 1): every sampled cost to ±0.5 point, the deals it
took stated, the same measure however the deals are cut up or spread over processes, and a
review that can be shown at once and refined as its measures come in."""

from __future__ import annotations

import re
import statistics

import pytest

from payme.analysis import yardstick as ys
from payme.analysis.review import ReviewRun, review_game
from payme.analysis.yardstick import Measuring, measure, value_over_deals
from payme.game import advise
from payme.play.session import YOU, PlaySession, parse_move
from tests.loop_helpers import run_in_own_loop
from tests.test_review import _scripted_moves


def _position(seed: int, number: int) -> tuple[PlaySession, object, object]:
    """The position before your move ``number`` of a scripted game, your move and the bot's."""
    moves = _scripted_moves("denexa", 3, seed, hands=11)
    session = PlaySession("denexa", 3, ("greedy", "greedy"), seed)
    for token in moves[:number]:
        action = parse_move(token, YOU, session.rules, session.game.dealt)
        if action is None:  # the next hand
            session.next_hand()
        else:
            session.act(action)
    yours = parse_move(moves[number], YOU, session.rules, session.game.dealt)
    best = advise(session.view(), session.legal(), seed).action
    assert yours != best, "the test needs a decision unlike the bot's"
    return session, yours, best


def test_a_widely_spread_decision_is_measured_to_half_a_point() -> None:
    """A discard whose two play-outs often part (the per-deal difference spreads 8 points)
    reaches ±0.5 over the deals it states, far more than the 512 once sampled at most, and
    replaying both moves over those deals gives the same values."""
    session, yours, best = _position(1, 6)
    ys._memo.clear()
    m = measure(session.game, YOU, yours, best, session.bot_names, seed=1015, workers=1)
    assert not m.exact and m.reached and m.error <= 0.5
    assert m.deals > 512 and m.deals % ys.BATCH == 0
    mine = value_over_deals(session.game, YOU, yours, session.bot_names, 1015, m.deals)
    theirs = value_over_deals(session.game, YOU, best, session.bot_names, 1015, m.deals)
    diffs = [a - b for a, b in zip(mine, theirs, strict=True)]
    assert statistics.stdev(diffs) > 6  # widely spread: ±0.5 takes hundreds of deals
    assert statistics.mean(mine) == pytest.approx(m.yours)
    assert statistics.mean(theirs) == pytest.approx(m.best)
    # the stated error is the 95% half-width of those very differences
    assert 1.96 * statistics.stdev(diffs) / m.deals**0.5 == pytest.approx(m.error, rel=1e-3)


def test_the_measure_is_the_same_spread_over_processes_or_cut_into_parts() -> None:
    session, yours, best = _position(1, 6)
    args = (session.game, YOU, yours, best, session.bot_names)
    ys._memo.clear()
    here = measure(*args, seed=7, most=256, workers=1)
    ys._memo.clear()
    spread = measure(*args, seed=7, most=256, workers=2)
    ys._memo.clear()
    run = Measuring(*args, seed=7, most=256)
    while not run.done:
        run.add(run.play(run.pending()[:5]))
    assert here == spread == run.result()


def test_a_review_is_shown_at_once_and_refined() -> None:
    """The decisions and their boards come before any deal is played; each differing decision
    says it is being measured; the progress line says which, and how precisely so far."""
    moves = _scripted_moves("denexa", 3, 8, hands=3)
    ys._memo.clear()
    run = ReviewRun("denexa", 3, ("greedy", "greedy"), 8, moves, most=256)
    first = run.review()
    differing = [d for d in first.decisions if not d.agrees]
    assert len(differing) >= 2 and all(d.pending for d in differing)
    assert all("being measured" in d.headline for d in differing)
    assert run.progress() == f"Measuring decision 1 of {len(differing)} (aiming at ±0.5)…"
    lines = []
    while (step := run.next_run()) is not None:
        step.add(step.play(step.pending()[:16]))
        lines.append(run.progress())
    of = len(differing)
    so_far = re.compile(rf"Measuring decision \d+ of {of}: [\d,]+ deals, ±\d+\.\d so far")
    assert any(so_far.match(line) for line in lines), lines
    final = run.measure(workers=1)
    assert run.progress() == "Every decision measured."
    assert not any(d.pending for d in final.decisions)
    ys._memo.clear()
    again = review_game("denexa", 3, ("greedy", "greedy"), 8, moves, most=256, workers=1)
    assert [d.as_dict() for d in again.decisions] == [d.as_dict() for d in final.decisions]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_play_page_shows_the_review_at_once_and_refines_it(
    workers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the kernel's event loop: How am I doing? draws the board before any deal is
    played, with a progress line; the measures then come in while the loop stays free
    (a tick of the loop runs between two parts), and the last drawing has every cost
    measured and no progress line; closing the review stops the measuring.  In one process
    (as in the browser's Python) and spread over two."""
    import asyncio

    monkeypatch.setenv("PAYME_REVIEW_WORKERS", workers)
    from payme.widgets.play import PlayPage

    moves = _scripted_moves("denexa", 3, 8, hands=3)
    page = PlayPage()
    page.apply_query(
        {"rules": "denexa", "players": "3", "bots": "greedy", "seed": "8", "moves": ".".join(moves)}
    )
    page.review_deals = 256

    async def play() -> tuple[dict[str, object], int, dict[str, object]]:
        ys._memo.clear()
        page.show_review()
        first = dict(page.review_board.data)
        ticks = 0
        assert page.review_task is not None
        while not page.review_task.done():
            await asyncio.sleep(0)
            ticks += 1
        return first, ticks, dict(page.review_board.data)

    first, ticks, last = run_in_own_loop(play())
    assert str(first["progress"]).startswith("Measuring decision 1 of ")
    decisions = first["decisions"]
    assert isinstance(decisions, list) and any(d["pending"] for d in decisions)
    assert ticks > 10  # the page had its turn between the parts
    assert last["progress"] is None
    final = last["decisions"]
    assert isinstance(final, list) and not any(d["pending"] for d in final)
    # The same numbers as the review taken at once.
    ys._memo.clear()
    review = review_game("denexa", 3, ("greedy", "greedy"), 8, moves, most=256, workers=1)
    assert [d["cost"] for d in final] == [d.cost for d in review.decisions]

    async def close() -> bool:
        ys._memo.clear()
        page.show_review()
        await asyncio.sleep(0)
        page._close_review()
        return page.review_task is None and page._review_run is None

    assert run_in_own_loop(close())
