"""The Play page's model and page logic behind the table (no browser): each move a history
entry, the hand's order in the address, Undo, a wild card's place, hints after each move,
the words of the seats and the end-of-game screen."""

from __future__ import annotations

from payme.cards import Card
from payme.game.actions import parse_action
from payme.play import PlaySession
from payme.play.view import final_html, standings
from payme.widgets.play import PlayPage, merge_order
from tests.pay_me_helpers import joker_lay_off_turn

FOUR = {"rules": "family", "players": "4", "bots": "strong,greedy,expert", "seed": "5"}


def _page(query: dict[str, str] = FOUR) -> PlayPage:
    page = PlayPage()
    page.apply_query(query)
    return page


def test_each_of_your_moves_is_a_history_entry() -> None:
    page = _page()
    assert page.url.push is False  # the page opened at its link: no entry added
    page.gesture({"do": "draw", "source": "stock"})
    assert page.url.query.endswith("moves=s") and page.url.push is True
    card = page.session.hand()[0] if page.session else None
    assert card is not None
    page.gesture({"do": "discard", "card": card.token})
    assert page.url.query.endswith(f"moves=s.d{card.token}") and page.url.push is True
    # Back: the browser hands the earlier address back; the page replays it, adding nothing
    page.url.navigated(page.url.query.rsplit(".", 1)[0])
    assert page.session is not None and page.session.moves == ["s"]
    assert len(page.session.hand()) == 4


def test_the_hand_order_is_kept_in_the_address() -> None:
    page = _page()
    page.gesture({"do": "draw", "source": "stock"})
    assert page.session is not None
    hand = [c.token for c in page.session.hand()]
    dragged = [*hand[1:], hand[0]]
    page.gesture({"do": "order", "cards": dragged})
    assert page.url.query.endswith("&order=" + ".".join(dragged))
    assert page.url.push is False  # an order replaces the entry, it is not a move
    again = _page(dict(FOUR, moves="s", order=".".join(dragged)))
    assert again.table.state["you"]["order"] == dragged
    # a discard keeps the order of the cards left
    page.gesture({"do": "discard", "card": dragged[0]})
    assert page.url.query.endswith("&order=" + ".".join(dragged[1:]))
    assert merge_order(["9S", "JK", "7H"], ["7H", "9S", "KD", "JK"]) == ["9S", "JK", "7H", "KD"]


def test_an_order_of_other_cards_is_left_alone() -> None:
    page = _page()
    page.gesture({"do": "order", "cards": ["AS", "2S", "3S"]})
    assert "order=" not in page.url.query


def test_undo_takes_back_your_last_move() -> None:
    page = _page()
    page.gesture({"do": "draw", "source": "stock"})
    assert page.table.state["can"]["undo"] is True
    page.gesture({"do": "undo"})
    assert page.session is not None and page.session.moves == []
    assert page.url.query.endswith("moves=") and page.url.push is True


def test_each_seat_shows_its_last_turn_and_the_round_is_said() -> None:
    page = _page()
    page.gesture({"do": "draw", "source": "stock"})
    assert page.session is not None
    page.gesture({"do": "discard", "card": page.session.hand()[0].token})
    seats = page.table.state["seats"]
    assert seats[0]["last"] == "drew from the stock, discarded J♠︎"
    assert seats[1]["last"] == "took J♠︎ from the pile, discarded joker"
    assert seats[0]["score"] == "total 0 · $0.00"
    # what the animation and the live region say came with the state before (steps)
    session = PlaySession("family", 4, ("strong", "greedy", "expert"), 5)
    session.act(parse_action("s"))
    session.act(parse_action("d" + session.hand()[0].token))
    assert [step["pile"] for step in session.steps[:2]] == ["stock", "pile"]
    assert session.steps[1]["last"] == "drew from the stock, discarded J♠︎"


def test_pay_me_words() -> None:
    page = _page()
    state = page.table.state
    assert state["go_out_word"] == "Pay me!"
    three = _page({"rules": "three_pack", "players": "3", "bots": "greedy", "seed": "2"})
    assert three.table.state["go_out_word"] == "Go out"
    assert three.session is not None
    go_out = parse_action("o")
    assert three.session.describe(go_out) == "Go out"
    assert "leave play unseen" in three.table.state["drop_out_title"]


def test_a_hint_is_worked_out_again_after_each_move_until_hidden() -> None:
    page = _page()
    page.gesture({"do": "hint"})
    first = page.table.state["advice"]
    assert first.startswith("Hint: Draw") or first.startswith("Hint: Take")
    page.gesture({"do": "draw", "source": "stock"})
    second = page.table.state["advice"]
    assert second.startswith("Hint: ") and second != first
    page.gesture({"do": "hint_off"})
    assert page.table.state["advice"] == ""
    assert page.session is not None
    page.gesture({"do": "discard", "card": page.session.hand()[0].token})
    assert page.table.state["advice"] == ""


def test_a_wild_card_is_laid_off_where_you_choose() -> None:
    page = _page({"position": joker_lay_off_turn().to_position(), "bots": "greedy"})
    meld = page.table.state["melds"][0]
    assert [p["card"] for p in meld["places"]["JK"]] == ["4H", "8H"]
    assert [p["end"] for p in meld["places"]["JK"]] == ["low end", "high end"]
    page.gesture({"do": "lay_off", "card": "JK", "meld": 0, "place": "4H"})
    grown = page.table.state["melds"][0]["cards"]
    assert grown[0] == "JK~wild~4H"  # the joker first: it stands for 4♥
    page.gesture({"do": "lay_off_done"})
    assert page.session is not None and page.session.moves == ["l0-JK~4H"]
    assert page.session.game.summaries[-1].table[0][0] == Card("JK")


def test_a_refused_place_gives_the_reason() -> None:
    page = _page({"position": joker_lay_off_turn().to_position(), "bots": "greedy"})
    try:
        page.gesture({"do": "lay_off", "card": "JK", "meld": 0, "place": "3H"})
    except ValueError as exc:
        assert "4♥︎ or 8♥︎" in str(exc) or "4H or 8H" in str(exc)
    else:
        raise AssertionError("a place off the run's ends was accepted")


def test_the_end_of_the_game_shows_standings_review_and_new_game() -> None:
    session = PlaySession("three_pack", 3, ("greedy",), 2)
    while not session.over:
        legal = session.legal()
        stock = [a for a in legal if type(a).__name__ == "Draw" and a.source == "stock"]
        session.act(stock[0] if stock else legal[-1])
    rows = standings(session)
    assert len(rows) == 3 and rows[0][0] == 1 and rows[0][2].startswith("won: ")
    html = final_html(session)
    assert 'data-do="review"' in html and 'data-do="new_game"' in html
    assert html.index("pm-standings") < html.index("pm-review-link")
    page = _page({"rules": "three_pack", "players": "3", "bots": "greedy", "seed": "2",
                  "moves": ".".join(session.moves)})  # fmt: skip
    assert page.table.state["panel"]["kind"] == "final"
    page.gesture({"do": "review"})
    assert "payme-review" in page.review_view.value
    assert page.review_box.layout.display is None
    page.gesture({"do": "new_game"})
    assert page.session is not None and page.session.moves == [] and not page.session.over
    assert page.url.push is True


def test_a_hint_says_its_move_once() -> None:
    for rules in ("three_pack", "family"):
        session = PlaySession(rules, 3, ("greedy",), 2)
        for _ in range(2):
            hint = session.hint()
            move, _, reason = hint.partition(" — ")
            assert reason and not reason.startswith(move.split(" from ")[0]), hint
            session.act(parse_action("s") if session.phase == "draw" else session.advice())  # type: ignore[arg-type]
