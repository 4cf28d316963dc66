"""The Play page's game logic (payme.widgets.play.PlaySession), without a browser."""

from __future__ import annotations

import pytest

from payme.game.actions import Discard, Draw, IllegalAction
from payme.widgets.play import YOU, PlayPage, PlaySession


def _play_out(session: PlaySession) -> int:
    moves = 0
    while not session.over:
        if session.hand_over:
            session.next_hand()
            continue
        legal = session.legal()
        assert legal, session.status()
        session.act(session._advisor.choose(session.view(), legal))
        moves += 1
    return moves


@pytest.mark.parametrize(
    ("rules", "players"), [("denexa", 3), ("classic", 2), ("family", 4), ("three_pack", 3)]
)
def test_a_whole_game_through_the_session(rules: str, players: int) -> None:
    session = PlaySession(rules, players, ("greedy",), seed=5)
    assert _play_out(session) > 0
    assert session.game.winners()
    assert "Game over" in session.status()
    rows = session.scores()
    if session.pay_me:
        hands = [r for r in rows[1:] if r[0].isdigit()]
        assert [r[0] for r in hands] == [str(h) for h in range(1, 12)]
        totals = next(r for r in rows if r[0] == "total")
        assert [int(t) for t in totals[1:]] == list(session.game.totals)
        assert (rows[-1][0] == "money") == (session.rules.money is not None)


def test_illegal_moves_change_nothing() -> None:
    session = PlaySession("denexa", 2, ("random",), seed=1)
    before = session.game.snapshot()
    card = session.hand()[0]
    with pytest.raises(IllegalAction):
        session.act(Discard(YOU, card))  # must draw first
    with pytest.raises(IllegalAction, match="not your turn"):
        session.act(Draw(1, "stock"))
    with pytest.raises(IllegalAction, match="not over"):
        session.next_hand()
    assert session.game.snapshot() == before


def test_same_seed_same_game() -> None:
    a = PlaySession("family", 3, ("strong", "random"), seed=9)
    b = PlaySession("family", 3, ("strong", "random"), seed=9)
    assert a.hand() == b.hand()
    assert a.log() == b.log()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ("clever",)}, "unknown bot 'clever'"),
        ({"bots": ("greedy", "greedy", "greedy")}, "one bot for each of the 1 other seats"),
        ({"players": 12}, "for 2-8 players"),
        ({"rules": "poker"}, "unknown rule set"),
    ],
)
def test_bad_settings_are_named(kwargs: dict[str, object], message: str) -> None:
    settings: dict[str, object] = {"rules": "denexa", "players": 2, "bots": ("greedy",)}
    settings.update(kwargs)
    with pytest.raises(ValueError, match=message):
        PlaySession(**settings)  # type: ignore[arg-type]


def test_page_refuses_a_second_draw_with_a_message() -> None:
    page = PlayPage()
    page.apply_query({"rules": "denexa", "players": "2", "bots": "greedy", "seed": "4"})
    page.buttons["draw_stock"].click()
    assert len(page.session.hand()) == 4  # type: ignore[union-attr]
    page.buttons["draw_stock"].click()
    assert page.message.kind == "error" and "not allowed now" in page.message.text
    assert len(page.session.hand()) == 4  # type: ignore[union-attr]
    assert page.buttons["draw_stock"].disabled


def test_page_reports_a_bad_query() -> None:
    page = PlayPage()
    page.apply_query({"players": "banana"})
    assert page.message.kind == "error"
    assert "players must be a whole number" in page.message.text


def test_the_lay_off_step_shows_every_hand_and_scores_after_lay_offs() -> None:
    for seed in range(60):  # find a hand where a bot goes out and you lay off
        page = PlayPage()
        page.apply_query({"rules": "family", "players": "3", "bots": "strong", "seed": str(seed)})
        session = page.session
        assert session is not None
        while not session.hand_over and session.phase != "lay_off":
            session.act(session._advisor.choose(session.view(), session.legal()))
        if session.phase == "lay_off":
            break
    else:
        pytest.fail("no lay-off step for seat 0 in 60 seeded games")
    page.refresh()
    assert "Every hand is shown" in page.table.value
    assert not page.buttons["lay_off"].disabled and page.buttons["discard"].disabled
    page.buttons["lay_off"].click()
    assert page.message.kind == "ok", page.message.text
    assert session.hand_over
    last = session.view().last_hand
    assert last is not None and last.declarer not in (None, YOU)
    assert last.points[YOU] <= last.deadwood[YOU]
    assert "payme-play-result" in page.table.value
    assert f"Hand {last.number}: Seat {last.declarer}" in page.table.value
