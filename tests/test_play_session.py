"""The Play page's game logic (payme.widgets.play.PlaySession), without a browser."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payme.cards import parse_hand
from payme.game.actions import Discard, Draw, GoOut, IllegalAction, LayOff, parse_action
from payme.play.session import YOU, PlaySession, move_token, parse_move
from payme.widgets.play import PlayPage


def _play_out(session: PlaySession) -> int:
    moves = 0
    while not session.over:
        if session.hand_over:
            session.next_hand()
            continue
        legal = session.legal()
        assert legal, session.status()
        session.act(session.advice() or legal[0])
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
    if session.kind.KEEPS_SCORE:
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


def _page(query: str) -> PlayPage:
    page = PlayPage()
    page.apply_query(dict(parse_qsl(query)))
    assert page.message.kind != "error", page.message.text
    return page


def test_page_refuses_a_second_draw_with_the_rules_reason() -> None:
    page = _page("rules=denexa&players=2&bots=greedy&seed=4")
    page.gesture({"do": "draw", "source": "stock"})
    session = page.session
    assert session is not None and len(session.hand()) == 4
    with pytest.raises(ValueError, match="now discard a card or go out"):
        page.gesture({"do": "draw", "source": "stock"})
    assert len(session.hand()) == 4
    assert page.table.state["stock"]["can"] is False


def test_a_refused_gesture_is_shown_next_to_the_card_never_raised() -> None:
    page = _page("rules=denexa&players=2&bots=greedy&seed=4")
    sent: list[dict[str, object]] = []
    page.table.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    card = page.table.state["you"]["hand"][1].split("~")[0]
    page.table._receive(page.table, {"do": "discard", "card": card, "index": 1}, None)
    assert sent == [
        {"notice": "Draw a card first (from the stock or the discard pile).", "anchor": "card-1"}
    ]


def test_page_reports_a_bad_query() -> None:
    page = PlayPage()
    page.apply_query({"players": "banana"})
    assert page.message.kind == "error"
    assert "players must be a whole number" in page.message.text


def test_the_url_replays_the_same_position() -> None:
    page = _page("rules=family&players=3&bots=strong,greedy&seed=8")
    session = page.session
    assert session is not None
    for _ in range(12):
        if session.hand_over:
            page.gesture({"do": "next_hand"})
            continue
        move = session.advice()
        assert move is not None
        session.act(move)
    page.refresh()
    query = page.url.query
    again = _page(query)
    assert again.session is not None
    assert again.session.game.history == session.game.history
    assert again.table.state["you"] == page.table.state["you"]


def test_a_move_the_link_cannot_play_is_named_and_the_moves_before_it_kept() -> None:
    page = PlayPage()
    page.apply_query({"rules": "denexa", "players": "2", "bots": "greedy", "seed": "4",
                      "moves": "s.dZZ"})  # fmt: skip
    assert page.message.kind == "error"
    assert "move 2 of the link (dZZ)" in page.message.text
    assert "shown after move 1" in page.message.text
    assert page.session is not None and page.session.moves == ["s"]
    assert page.url.query.endswith("seed=4&gen=1&moves=s")  # a link without gen: the first


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["s", "p", "p3", "d7H", "dTS", "o", "o9C", "l", "l0-8H-9H_1-QS", "r", "x", "n"])
)
def test_move_tokens_round_trip(token: str) -> None:
    assert move_token(parse_move(token)) == token


def _seat0_lays_off(page: PlayPage) -> bool:
    session = page.session
    assert session is not None
    while not session.hand_over and session.phase != "lay_off":
        move = session.advice()
        assert move is not None
        session.act(move)
    return session.phase == "lay_off"


def test_lay_off_by_clicking_a_card_then_a_meld() -> None:
    for seed in range(80):  # find a hand where a bot goes out and a card of yours fits
        page = _page(f"rules=family&players=3&bots=strong&seed={seed}")
        if not _seat0_lays_off(page):
            continue
        session = page.session
        assert session is not None
        singles = [
            a for a in session.legal() if isinstance(a, LayOff) and len(a.placements) == 1
            and len(a.placements[0][1]) == 1
        ]  # fmt: skip
        if singles:
            break
    else:
        pytest.fail("no lay-off for seat 0 in 80 seeded games")
    page.refresh()
    state = page.table.state
    assert state["mode"] == "lay_off"
    assert any(seat["shown"] for seat in state["seats"])  # every hand is shown
    ((index, (card,)),) = singles[0].placements
    page.gesture({"do": "lay_off", "card": card.token, "meld": index})
    state = page.table.state
    assert state["pending"] and "You" in state["melds"][index]["laid"]
    page.gesture({"do": "lay_off_done"})
    assert session.hand_over
    last = session.view().last_hand
    assert last is not None and last.lay_offs[YOU][0] == (index, (card,))
    panel = page.table.state["panel"]
    assert f"onto meld {index + 1}" in panel["html"]
    assert "before lay-offs" in panel["html"]


def test_your_move_shows_at_once_and_the_bots_replies_follow_one_by_one() -> None:
    page = _page("rules=denexa&players=3&bots=greedy&seed=4")
    shown: list[dict[str, object]] = []
    show = page.table.show
    page.table.show = lambda state: (shown.append(state), show(state))  # type: ignore[method-assign]
    page.gesture({"do": "draw", "source": "stock"})
    card = page.table.state["you"]["hand"][0].split("~")[0]
    page.gesture({"do": "discard", "card": card})
    mine, replies = shown[-2], shown[-1]
    assert mine["waiting"] and mine["status"] == "West to play." and not mine["anim"]
    steps = replies["anim"]
    assert [s["seat"] for s in steps] == [1, 1, 2, 2]  # each bot draws, then discards
    assert steps[0]["text"] in ("West draws from the stock.",) or "from the discard pile" in str(
        steps[0]["text"]
    )
    assert str(steps[1]["text"]).startswith("West discards ")
    assert not replies["waiting"] and replies["mode"] == "play"


def test_going_out_opens_the_arrangement_step_and_lays_down_your_melds() -> None:
    page = _page("rules=family&players=4&bots=strong,greedy,random&seed=12&moves=p.dAS.p")
    session = page.session
    assert session is not None and sorted(c.token for c in session.hand()) == [
        "3C", "4C", "5D", "5H",
    ]  # fmt: skip
    page.gesture({"do": "go_out", "card": "4C", "index": 0})
    state = page.table.state
    assert state["mode"] == "arrange"
    (group,) = state["arrange"]["groups"]
    assert group["ok"] and "stands for" in group["reason"]
    assert state["arrange"]["discard_name"] == "4♣︎"
    # Regrouped badly: each meld says why, and laying down is refused with the reason.
    page.gesture({"do": "arrange", "groups": [["5H", "5D"], ["3C"]]})
    groups = page.table.state["arrange"]["groups"]
    assert [g["ok"] for g in groups] == [False, False]
    assert "at least 3 cards" in groups[0]["reason"]
    assert not page.table.state["arrange"]["ok"]
    with pytest.raises(ValueError, match="Meld 1"):
        page.gesture({"do": "lay_down"})
    assert session.phase == "discard"  # nothing happened
    with pytest.raises(ValueError, match="exactly the cards you keep"):
        page.gesture({"do": "arrange", "groups": [["5H", "5D", "KS"]]})
    page.gesture({"do": "arrange", "groups": [["5H", "3C", "5D"]]})
    assert page.table.state["arrange"]["ok"]
    page.gesture({"do": "lay_down"})
    token = session.moves[-1]
    assert token == "o4C_s5H-5D-3C~5S"  # a set: 3♣ (wild) stands for 5♠
    assert page.url.query.endswith(f"moves=p.dAS.p.{token}")
    again = _page(page.url.query)
    assert again.session is not None and again.session.game.history == session.game.history


def test_dropping_out_of_rummy_three_pack() -> None:
    page = _page("rules=three_pack&players=3&bots=greedy&seed=2")
    assert page.table.state["can"]["drop_out"]
    assert not _page("rules=denexa&players=2&bots=greedy&seed=2").table.state["can"]["drop_out"]
    page.gesture({"do": "drop_out"})
    session = page.session
    assert session is not None and session.moves == ["x"]
    assert page.table.state["you"]["hand"] == []  # your cards leave play unseen


def test_a_declared_meld_keeps_its_kind_and_wild_places_in_the_url() -> None:
    from payme.melds import Meld

    run = GoOut(YOU, None, (Meld("run", "3S(AH) 2H 3H"),))
    token = run.token()
    assert token == "o_r3S~AH-2H-3H"
    assert parse_action(token, YOU, "denexa", 3) == run
    a_set = GoOut(YOU, None, (Meld("set", "3S(2S) 2H 3H(2D)"),))
    assert a_set.token() == "o_s3S~2S-2H-3H~2D"
    assert parse_action(a_set.token(), YOU, "family", 3) == a_set


JK_POSITION = (
    "rules=family; players=2; hand=1; phase=draw; to_move=0; "
    "hands=5H 6H JK / 7H 8C QD; pile=KC; stock=* 2C 9S"
)


def test_a_position_in_the_url_and_the_declared_run_takes_the_seven() -> None:
    page = PlayPage()
    page.apply_query({"position": JK_POSITION, "bots": "greedy"})
    assert page.message.kind != "error", page.message.text
    page.gesture({"do": "draw", "source": "stock"})
    page.gesture({"do": "go_out", "card": "9S"})
    # The engine proposes the layout that leaves the fewest lay-off spots for the cards you
    # have not seen: the joker as 4♥ (only 7♥ then fits; as 7♥ it would let in 4♥ and 8♥).
    (proposed,) = page.table.state["arrange"]["groups"]
    assert "joker stands for 4♥" in proposed["reason"]
    page.gesture({"do": "arrange", "groups": [["5H", "6H", "JK"]]})
    (moved,) = page.table.state["arrange"]["groups"]
    assert "joker stands for 7♥" in moved["reason"]
    page.gesture({"do": "arrange", "groups": [["JK", "5H", "6H"]]})
    page.gesture({"do": "lay_down"})
    session = page.session
    assert session is not None and session.hand_over
    last = session.view().last_hand
    assert last is not None and last.lay_offs[1] == ((0, parse_hand("7H")),)
    # the link replays the very same game, position included
    again = _page(page.url.query)
    assert again.session is not None and again.session.game.history == session.game.history


def test_a_bad_position_is_named() -> None:
    page = PlayPage()
    page.apply_query({"position": "rules=family; players=banana"})
    assert page.message.kind == "error" and "players" in page.message.text


def test_a_gesture_the_game_lacks_is_refused_in_words_and_every_failure_is_worded() -> None:
    """Both games take one set of gestures: a shortcut a game does not offer (Rummy 3-Pack's
    table once answered "lay off the best" with an AttributeError) is refused with a reason,
    and any other failure of a gesture is worded on the table, never raised."""
    page = _page("rules=three_pack&players=3&bots=greedy&seed=2")
    session = page.session
    assert session is not None

    class WithoutShortcut:
        def __init__(self, game: object) -> None:
            self._game = game

        def __getattr__(self, name: str) -> object:
            if name == "best_lay_off":
                raise AttributeError(name)
            return getattr(self._game, name)

    session.game = WithoutShortcut(session.game)  # type: ignore[assignment]
    with pytest.raises(ValueError, match="cannot pick the best lay-off for you"):
        page.gesture({"do": "lay_off_best"})
    notices: list[object] = []
    page.table.send = lambda content, buffers=None: notices.append(content)  # type: ignore[method-assign]
    page.table._receive(page.table, {"do": "lay_off_best"}, [])
    assert notices and "cannot pick the best lay-off" in str(notices[-1])

    def broken(_gesture: object) -> None:
        raise KeyError("a bug")

    page.table.on_gesture(broken)
    page.table._receive(page.table, {"do": "draw"}, [])
    assert "Something went wrong with that move" in str(notices[-1])


def test_only_a_game_that_keeps_score_has_totals() -> None:
    """Pay Me's totals and hand summaries are read through ``scored`` (a ``PayMeGame`` to
    the type checker); Rummy 3-Pack keeps no score, and says so instead of an AttributeError."""
    pay_me = PlaySession("denexa", 3, "greedy", 4)
    assert pay_me.scored is pay_me.game and pay_me.scored.totals == (0, 0, 0)
    assert pay_me.scored_view().totals == (0, 0, 0)
    three_pack = PlaySession("three_pack", 3, ("greedy",), 4)
    with pytest.raises(TypeError, match="Rummy 3-Pack keeps no score"):
        three_pack.scored_view()


def test_a_move_is_told_the_same_way_in_the_log_and_beside_the_seat() -> None:
    """``say`` (the log, with who) and ``done`` (beside the seat, without) word each move
    alike: present tense for the log, past for the seat."""
    session = PlaySession("family", 2, ("greedy",), 1)
    stock = Draw(YOU, "stock")
    assert session.say(stock) == "You draw from the stock."
    assert session.done(stock) == "drew from the stock"
    card = parse_hand("7H")[0]
    west = session.say(Discard(1, card))
    assert west == f"{session.names[1]} discards 7♥︎." and session.done(Discard(1, card)) == (
        "discarded 7♥︎"
    )
    out = GoOut(YOU, card)
    assert session.say(out).startswith("You go out, discarding 7♥︎")
    assert session.done(out).startswith("went out, discarding 7♥︎")
    assert session.say(GoOut(1, None)).startswith(f"{session.names[1]} goes out")
