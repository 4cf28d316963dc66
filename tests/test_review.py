"""The game review: one yardstick, the right comparison, layouts shown, opponents weighed.

Each defect the players reported (issue 24) has a test here, built from a position of the
kind they met; the costs are checked against a replay of both moves over the same deals.
"""

from __future__ import annotations

import random
import re

import pytest

from payme.analysis.review import GRADES, grade_of, review_game, review_text
from payme.analysis.yardstick import POINTS_MARGIN, measure, value_over_deals
from payme.cards import parse_card, parse_hand
from payme.game import make_bot
from payme.game.actions import Discard, GoOut
from payme.game.pay_me import PayMeGame
from payme.play.session import YOU, PlaySession
from payme.words import label


def _scripted_moves(
    rules: str, players: int, seed: int, hands: int, share: float = 0.35
) -> list[str]:
    """A game where you play the strongest bot's move, but a random one now and then."""
    session = PlaySession(rules, players, ("greedy",), seed)
    rng = random.Random(seed)
    while not session.over:
        if session.hand_over:
            if session.game.hand_number >= hands:
                break
            session.next_hand()
            continue
        legal = session.legal()
        move = session.advice()
        assert move is not None
        session.act(rng.choice(legal) if rng.random() < share else move)
    return session.moves


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"[-+]?\d+(?:\.\d+)?", text)]


# ---------------------------------------------------------------------- the expert itself


@pytest.mark.parametrize("rules", ["denexa", "family", "three_pack"])
def test_the_expert_playing_seat_0_is_charged_nothing(rules: str) -> None:
    """The strongest bot playing your seat (its own instance, seeded differently from the
    review's advisor) through 50 whole seeded games (17 denexa, 17 family, 16 Rummy 3-Pack):
    every decision is the review's best move, charged 0."""
    games = {"denexa": 17, "family": 17, "three_pack": 16}[rules]
    for seed in range(games):
        players = 2 + seed % 3
        session = PlaySession(rules, players, ("greedy", "strong", "expert")[: players - 1], seed)
        expert = make_bot("expert", session.rules, seed + 12345)
        while not session.over:  # the whole game
            if session.hand_over:
                session.next_hand()
                continue
            session.act(expert.choose(session.view(), session.legal()))
        review = review_game(rules, players, session.bot_names, seed, session.moves)
        assert review.decisions
        for d in review.decisions:
            assert d.agrees and d.cost == 0 and d.grade == "best", (seed, d.headline)


def test_accepting_every_proposed_layout_costs_nothing() -> None:
    """Seat 0 goes out through the Play page's own steps, accepting the layout it proposes:
    no layout decision is ever charged (the proposal is the bots' layout)."""
    from payme.widgets.play import PlayPage

    laid = 0
    for seed in range(10):
        page = PlayPage()
        page.start("family", 3, ("greedy", "greedy"), seed)
        session = page.session
        assert session is not None
        greedy = make_bot("greedy", session.rules, seed)
        while not session.over and session.game.hand_number <= 2:
            if session.hand_over:
                page.gesture({"do": "next_hand"})
                continue
            move = greedy.choose(session.view(), session.legal())
            if isinstance(move, GoOut):
                card = {"card": move.discard.token} if move.discard else {}
                page.gesture({"do": "go_out", **card})
                page.gesture({"do": "lay_down"})
                laid += 1
            else:
                page._try(move)
        review = review_game("family", 3, ("greedy", "greedy"), seed, session.moves, most=32)
        outs = [d for d in review.decisions if isinstance(d.yours, GoOut)]
        for d in outs:
            assert d.kind != "layout" and (d.agrees or d.kind == "go out"), d.headline
            if isinstance(d.best, GoOut) and d.best.discard == d.yours.discard:
                assert d.cost == 0
    assert laid >= 6


# ---------------------------------------------------------------------- one yardstick


def test_headline_explanation_and_chart_show_the_same_numbers() -> None:
    moves = _scripted_moves("denexa", 3, seed=21, hands=3)
    review = review_game("denexa", 3, ("greedy", "greedy"), 21, moves, most=256)
    measured = [d for d in review.decisions if d.measured is not None]
    assert measured
    for d in measured:
        m = d.measured
        assert m is not None
        # The explanation states both values, to one decimal, as the review holds them.
        assert f"expected {m.yours:+.1f}" in d.explanation
        assert f"expected {m.best:+.1f}" in d.explanation
        assert d.loss == round(m.yours - m.best, 2)
        # Charged only beyond the error, and then exactly the loss.
        assert d.cost == (d.loss if d.loss > d.error else 0.0)
        if d.cost:
            amount = f"{d.cost:.1f}".removesuffix(".0")
            assert f"was {amount} point" in d.headline and f"cost {amount} point" in d.explanation
        assert d.grade == grade_of(d.cost)
    # The chart's bars are the per-hand sums of the same costs.
    chart = review.chart_svg()
    for row in review.per_hand():
        lost = round(sum(d.cost for d in review.decisions if d.hand == row["hand"]), 2)
        assert row["lost"] == lost
        assert f'data-hand="{row["hand"]}" data-lost="{lost:g}"' in chart
        assert sum(row[g] for g, _ in GRADES) == row["decisions"]
    assert "<svg" in chart and "matplotlib" not in chart


def test_a_difference_within_the_error_is_not_charged() -> None:
    """The reported "expected 22.2 against 22.1" kind: values a hair apart charge nothing."""
    moves = _scripted_moves("denexa", 3, seed=21, hands=3)
    review = review_game("denexa", 3, ("greedy", "greedy"), 21, moves, most=256)
    close = [d for d in review.decisions if d.measured and abs(d.loss) <= d.error]
    assert close
    for d in close:
        assert d.cost == 0 and d.grade == "best"
        assert "within the measure's error" in d.explanation


def test_the_measure_agrees_with_a_replay_of_both_moves_over_the_same_deals() -> None:
    """Sign and size of a measured cost: the same deals replayed one move at a time."""
    moves = _scripted_moves("denexa", 3, seed=8, hands=3, share=0.5)
    review = review_game("denexa", 3, ("greedy", "greedy"), 8, moves, most=48)
    checked = 0
    for d in review.decisions:
        m = d.measured
        if m is None or m.exact:
            continue
        game = PayMeGame.from_position(d.board.position)
        mine = value_over_deals(game, YOU, d.yours, review.bots, m.seed, m.deals)
        theirs = value_over_deals(game, YOU, d.best, review.bots, m.seed, m.deals)
        assert sum(mine) / len(mine) == pytest.approx(m.yours)
        assert sum(theirs) / len(theirs) == pytest.approx(m.best)
        checked += 1
    assert checked >= 2


def test_the_yardstick_is_stated_once() -> None:
    review = review_game("denexa", 2, ("greedy",), 4, ["s", "d3H"])
    assert review.stick is POINTS_MARGIN and review.unit == "points"
    text = review_text(review)
    assert text.count("Yardstick:") == 1 and POINTS_MARGIN.words in text
    assert review.as_dict()["yardstick"]["tolerance"] == 0.5


# ---------------------------------------------------------------------- the right comparison


def test_the_explanation_speaks_of_your_card_and_the_best_card() -> None:
    """Two explanations argued against a card the player did not throw (J♠ for 6♦)."""
    found = 0
    for seed in (8, 21, 30):
        moves = _scripted_moves("denexa", 3, seed=seed, hands=3, share=0.5)
        review = review_game("denexa", 3, ("greedy", "greedy"), seed, moves, most=32)
        for d in review.decisions:
            if d.agrees or not isinstance(d.yours, Discard) or not isinstance(d.best, Discard):
                continue
            text = d.explanation
            assert f"You: discard {label(d.yours.card)}," in text
            assert f"The strongest bot: discard {label(d.best.card)}," in text
            # No third discard is argued about, and no number from another yardstick.
            named = set(re.findall(r"discard (?:of )?([^\s,.:;]+)", text))
            assert named <= {label(d.yours.card), label(d.best.card)}, text
            assert "expects" not in text and "penalty points against" not in text
            found += 1
    assert found >= 3


# ---------------------------------------------------------------------- decided hands


def _final_discard_game() -> PayMeGame:
    """West went out with 9♥ 10♥ J♥ and K♠ K♣ K♦; you hold, after your final draw,
    K♥ Q♥ (each lays off), 5♣, 9♦ and the run 7♣ 8♣ 9♣ (hand 4: sixes wild)."""
    return PayMeGame.from_position(
        "rules=denexa; players=2; hand=4; phase=final_discard; to_move=0; "
        "hands=KH QH 5C 9D 7C 8C 9C / -; pile=4S; drawn=9D; declarer=1; "
        "table=run:9H TH JH | set:KS KC KD; turns=3 3; hand_turns=6; auto_advance=0"
    )


def test_a_final_discard_is_measured_after_the_lay_offs_exactly() -> None:
    """A final discard was charged 10 points though both choices scored 5 once laid off:
    the review now plays the hand to its end, so each value is the score the game gives."""
    game = _final_discard_game()
    seen = {}
    for card in sorted(set(game.hand_of(0))):
        move = Discard(0, card)
        after = PayMeGame.from_position(game.to_position())
        after.apply(move)
        while after.phase not in ("hand_over", "game_over"):
            after.apply(after.best_lay_off(after.to_move))
        seen[card.token] = after.summaries[-1].points[0]
    assert seen["9D"] == 5 and seen["KH"] == 15 and seen["QH"] == 15  # K♥, Q♥ lay off
    for yours, best in (("KH", "9D"), ("QH", "KH"), ("5C", "9D")):
        m = measure(game, 0, Discard(0, parse_card(yours)), Discard(0, parse_card(best)),
                    ("greedy",), seed=3)  # fmt: skip
        assert m.exact and m.deals == 1 and m.error == 0
        assert (m.yours, m.best) == (seen[yours], seen[best])
        assert m.charged == max(0.0, seen[yours] - seen[best])
    same = measure(game, 0, Discard(0, parse_card("KH")), Discard(0, parse_card("QH")),
                   ("greedy",), seed=3)  # fmt: skip
    assert same.charged == 0  # both score 15 after laying the other card off


# ---------------------------------------------------------------------- layouts shown


def test_two_layouts_of_one_go_out_are_both_shown_and_measured() -> None:
    """ "Go out discarding 5♣ ... it cost you 5 points": the difference was the layout.  Both
    layouts are kept as cards with the unseen cards each leaves a place for, and the cost
    is what the others shed onto yours beyond the bot's, over the same deals."""
    from payme.game.arrangement import arrangements, lay_off_spots
    from payme.game.bots import proposed_layout, unseen_cards

    game = PayMeGame.from_position(
        "rules=family; players=3; hand=7; phase=discard; to_move=0; "
        "hands=5H 6H JK 9S 9D 9C 5C QD QS QC / 8D 8S 3C 4D 7S 6C 4S 2S TD / "
        "3S 3D 4C KD KC KS AS AC JD; pile=AD; drawn=5C; turns=4 4 4; hand_turns=12; "
        "auto_advance=0"
    )
    view = game.view(0)
    kept = tuple(sorted(c for c in game.hand_of(0) if c != parse_card("5C")))
    options = arrangements(kept, game.rules, game.dealt)
    unseen = unseen_cards(view)
    spots = [lay_off_spots(a, unseen, game.rules, game.dealt) for a in options]
    assert len(set(spots)) > 1  # the layouts differ in what they leave open
    proposal = proposed_layout(view, parse_card("5C"))
    assert lay_off_spots(proposal, unseen, game.rules, game.dealt) == min(spots)
    worst = options[spots.index(max(spots))]
    yours = GoOut(0, parse_card("5C"), worst)
    best = GoOut(0, parse_card("5C"), proposal)
    m = measure(game, 0, yours, best, ("greedy", "greedy"), seed=5, most=128)
    assert m.loss >= -m.error  # leaving more places never measures better
    mine = value_over_deals(game, 0, yours, ("greedy", "greedy"), 5, m.deals)
    theirs = value_over_deals(game, 0, best, ("greedy", "greedy"), 5, m.deals)
    assert sum(mine) / m.deals == pytest.approx(m.yours)
    assert sum(theirs) / m.deals == pytest.approx(m.best)


def test_a_layout_decision_in_a_review_draws_both_layouts() -> None:
    from payme.game.arrangement import arrangements
    from payme.game.bots import proposed_layout

    # Play a game where, going out, you lay down the layout the bots would not.
    for seed in range(40):
        session = PlaySession("family", 3, ("greedy",), seed)
        greedy = make_bot("greedy", session.rules, seed)
        swapped = False
        while not session.over and session.game.hand_number <= 3 and not swapped:
            if session.hand_over:
                session.next_hand()
                continue
            move = greedy.choose(session.view(), session.legal())
            if isinstance(move, GoOut):
                hand = list(session.hand())
                if move.discard is not None:
                    hand.remove(move.discard)
                options = arrangements(tuple(hand), session.rules, session.game.dealt)
                proposal = proposed_layout(session.view(), move.discard)
                other = next((a for a in options if tuple(a) != tuple(proposal)), None)
                if other is not None:
                    move = GoOut(YOU, move.discard, tuple(other))
                    swapped = True
            session.act(move)
        if swapped:
            break
    else:
        raise AssertionError("no go-out with two layouts in 40 games")
    review = review_game("family", 3, ("greedy", "greedy"), seed, session.moves, most=64)
    d = next(d for d in review.decisions if d.kind == "layout")
    assert d.layouts is not None and d.open_spots is not None
    mine, theirs = d.layouts
    assert [list(m) for m in mine] == [list(m.cards) for m in d.yours.melds]  # type: ignore[attr-defined]
    assert [list(m) for m in theirs] == [list(m.cards) for m in d.best.melds]  # type: ignore[attr-defined]
    assert "Your layout leaves places for" in d.explanation


# ---------------------------------------------------------------------- opponents weighed


def _feeding_game() -> PayMeGame:
    """West (next to play) took Q♥ from the pile this hand and kept it; your deadwood is K♥
    and 9♠ (hand 5: sevens wild): K♥ is the card to throw but for what West took."""
    return PayMeGame.from_position(
        "rules=denexa; players=3; hand=5; phase=discard; to_move=0; "
        "hands=4C 4D 4S 8C 9C TC KH 9S / QH 5D QC AD 3S JD 5S / TD KC 8D 5H 6D JC QD; "
        "pile=9D 3H; drawn=9S; turns=3 3 2; hand_turns=8; picked_up=- / QH / -; "
        "discarded=- / - / -; auto_advance=0"
    )


def test_the_expert_does_not_feed_the_next_player_and_says_so() -> None:
    """The tactics step: do not give the next player a rank he just took.  The expert keeps
    K♥ here only for that, and its reason says so."""
    from payme.game import advise

    game = _feeding_game()
    advice = advise(game.view(0), game.legal_actions(), 1)
    assert advice.action == Discard(0, parse_card("9S")), advice
    reason = advice.reason.replace("\ufe0e", "")
    assert "the next player took Q♥ from the pile" in reason and "K♥ could help them" in reason
    # Without West's pick-up the same hand says nothing of the next player.
    plain = PayMeGame.from_position(
        game.to_position().replace("picked_up=- / QH / -", "picked_up=- / - / -")
    )
    assert "next player" not in advise(plain.view(0), plain.legal_actions(), 1).reason


class _Seat:
    """The few things the review's notes (``_notes``) read from a session."""

    players = 3
    names = ("You", "West", "North")

    def __init__(self, game: PayMeGame) -> None:
        self.game = game
        self.rules = game.rules

    def view(self) -> object:
        return self.game.view(0)


def test_the_review_notes_a_discard_that_feeds_the_next_player() -> None:
    from payme.analysis.review import _notes  # the words of a decision's explanation

    game = _feeding_game()

    notes = _notes(
        _Seat(game), Discard(0, parse_card("KH")), Discard(0, parse_card("9S")), "discard", None
    )
    said = " ".join(notes).replace("\ufe0e", "")
    assert "West took Q♥ from the pile this hand: your discard K♥ may help West meld." in said
    assert "9♠ may help" not in said  # the bot's discard feeds no one


def test_grades_follow_the_stated_thresholds() -> None:
    assert [grade_of(x) for x in (0, 0.6, 1.99, 2, 4.99, 5, 9.99, 10, 40)] == [
        "best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake",
        "blunder", "blunder",
    ]  # fmt: skip
    assert [g for g, _ in GRADES] == ["best", "good", "inaccuracy", "mistake", "blunder"]


def test_a_refused_move_names_it() -> None:
    with pytest.raises(ValueError, match=r"move 2 \(dKS\) was refused"):
        review_game("denexa", 2, ("greedy",), 4, ["s", "dKS"])


def test_the_review_as_json_holds_every_decision_and_its_board() -> None:
    import json

    moves = _scripted_moves("denexa", 2, seed=4, hands=1)
    review = review_game("denexa", 2, ("greedy",), 4, moves, most=32)
    data = json.loads(review.to_json())
    assert len(data["decisions"]) == len(review.decisions)
    first = data["decisions"][0]
    assert first["board"]["hand"] == [c.token for c in review.decisions[0].board.hand]
    assert set(first) >= {
        "yours",
        "best",
        "your_value",
        "best_value",
        "error",
        "grade",
        "explanation",
    }
    assert parse_hand(" ".join(first["board"]["hand"]))


def test_the_command_line_prints_the_same_review() -> None:
    import io
    import json

    from payme.cli import main

    moves = _scripted_moves("denexa", 2, seed=4, hands=1, share=0.5)
    url = "http://localhost:8866/play?rules=denexa&players=2&bots=greedy&seed=4&moves=" + ".".join(
        moves
    )
    out = io.StringIO()
    assert main(["review", url, "--json", "--deals", "32"], stdout=out) == 0
    # a link without gen was played by the first generation of bots
    review = review_game("denexa", 2, ("greedy",), 4, moves, most=32, generation=1)
    assert json.loads(out.getvalue()) == json.loads(review.to_json())
    text = io.StringIO()
    assert (
        main(
            ["review", ".".join(moves), "--seed", "4", "--players", "2", "--deals", "32"],
            stdout=text,
        )
        == 0
    )
    assert text.getvalue().strip() == review_text(review)
    assert main(["review", "s.d3H"], stdout=io.StringIO()) == 2  # no seed: a clear error


# ---------------------------------------------------------------------- the next one's final turn

_GIFT_POSITION = (
    "rules=family; players=3; hand=5; phase=final_discard; to_move=0; "
    "hands=4C 4D 4S 8C 9C TC QC 9S / 5H 6D QD QS 2C AS JD / -; pile=3H; drawn=9S; "
    "declarer=2; table=run:9H TH JH QH | set:KS KC KD; turns=4 4 4; hand_turns=12; "
    "picked_up=- / QD QS / -; discarded=- / - / -; final_turns=1; auto_advance=0"
)
"""North went out; your final turn comes before West's, and in `family` a final turn may
take the top discard.  West took Q♦ and Q♠ from the pile this hand.  Q♣ is the card to
throw for your own points (9♠ left, not Q♣'s 10) but for what West took."""


def test_a_final_discard_that_feeds_the_next_players_final_turn_is_flagged() -> None:
    """The reported game: a player fed West's pick-ups, and the review flagged none.  In a
    final turn the expert now keeps the card West collects, says why, and the review
    charges the feeding discard (measured over the same deals) and says what West took."""
    from payme.game import advise

    game = PayMeGame.from_position(_GIFT_POSITION)
    advice = advise(game.view(0), game.legal_actions(), 1)
    assert advice.action == Discard(0, parse_card("9S")), advice
    reason = advice.reason.replace("\ufe0e", "")
    assert "Q♣ would keep 9, but the next player may take it from the pile in their final" in reason
    assert "they took Q♦ Q♠ from the pile this hand and Q♣ could help them meld" in reason

    review = review_game("family", 3, ("greedy", "greedy"), 1, ["dQC"], position=_GIFT_POSITION)
    (d,) = review.decisions
    m = d.measured
    assert m is not None and not m.exact
    assert d.yours == Discard(0, parse_card("QC")) and d.best == Discard(0, parse_card("9S"))
    assert d.cost > d.error > 0 and d.grade in ("inaccuracy", "mistake", "blunder")
    said = d.explanation.replace("\ufe0e", "")
    assert (
        "West took Q♦ Q♠ from the pile this hand: your discard Q♣ may help West meld in "
        "their final turn." in said
    )
    # The cost is what replaying both discards over the same deals gives.
    mine = value_over_deals(game, YOU, d.yours, review.bots, m.seed, m.deals)
    theirs = value_over_deals(game, YOU, d.best, review.bots, m.seed, m.deals)
    assert sum(mine) / m.deals - sum(theirs) / m.deals == pytest.approx(d.loss, abs=0.01)


def test_no_next_player_is_weighed_where_none_can_take_the_discard() -> None:
    """The same hand where no final turn takes the top discard: `denexa` (final turns draw
    from the stock), or your final turn the last one (West went out).  The expert keeps
    its own fewest points and nothing is said of the next player."""
    from payme.analysis.review import _notes
    from payme.game import advise

    stock_only = _GIFT_POSITION.replace("rules=family", "rules=denexa")
    last = (
        _GIFT_POSITION.replace("declarer=2", "declarer=1")
        .replace("/ 5H 6D QD QS 2C AS JD / -", "/ - / 5H 6D QD QS 2C AS JD")
        .replace("picked_up=- / QD QS / -", "picked_up=- / - / QD QS")
        .replace("final_turns=1", "final_turns=-")
    )
    for position in (stock_only, last):
        game = PayMeGame.from_position(position)
        advice = advise(game.view(0), game.legal_actions(), 1)
        assert "next player" not in advice.reason, position

        notes = " ".join(
            _notes(_Seat(game), Discard(0, parse_card("QC")), advice.action, "discard", None)
        )
        assert "may help" not in notes and "may take it" not in notes, (position, notes)


# ---------------------------------------------------------------------- how precisely


def test_each_decision_says_how_many_deals_and_how_precisely() -> None:
    """Deals per decision and the error reached are stated; where the bound on deals came
    before ±0.5, the decision says so, and nothing is charged within the error."""
    from payme.analysis.yardstick import MIN_DEALS, settled

    moves = _scripted_moves("denexa", 3, seed=8, hands=3, share=0.5)
    review = review_game("denexa", 3, ("greedy", "greedy"), 8, moves, most=MIN_DEALS)
    sampled = [d for d in review.decisions if d.measured and not d.measured.exact]
    short = [d for d in sampled if not d.measured.reached]  # type: ignore[union-attr]
    assert short, "32 deals reach ±0.5 on every decision: the test needs a harder one"
    for d in short:
        m = d.measured
        assert m is not None and m.deals == MIN_DEALS and m.error > 0.5
        assert (
            f"Measured over {m.deals} deals of the cards you had not seen, the most sampled, "
            f"to ±{m.error:.1f} only, not the ±0.5 aimed at (about {m.deals_needed:,} deals "
            "would be needed)" in d.explanation
        )
        assert m.deals_needed > m.deals
        assert d.cost == 0 or d.cost > d.error
        assert d.as_dict()["precise"] is False and d.as_dict()["deals"] == MIN_DEALS
    # With the bound lifted, sampling goes on until ±0.5, or stops short of it only where
    # the bound could not reach it and more deals could not change the grade.
    wide = review_game("denexa", 3, ("greedy", "greedy"), 8, moves, most=512)
    for d in wide.decisions:
        m = d.measured
        if m is None or m.exact or m.reached:
            continue
        assert m.deals == 512 or (m.deals_needed > 512 and settled(m.loss, m.error)), d.headline
        if m.deals < 512:
            assert "more deals would not change the grade" in d.explanation
    assert any(d.measured.reached for d in wide.decisions if d.measured)  # type: ignore[union-attr]


_LAY_OFF_POSITION = (
    "rules=denexa; players=3; seed=1; hand=6; phase=lay_off; to_move=0; "
    "hands=7D 6C 6S JK QS QH JD KH / - / QC 7H 6C KD 7H AH 6D; "
    "pile=JS 9C TD AH KD 2D; drawn=-; declarer=1; "
    "table=set:4S 8S(4C) 4H 4D | run:TS JS JK(QS) | set:JH JD JC; totals=30 60 15; "
    "turns=4 3 4; hand_turns=8; picked_up=QH / JH / 4H 7H AH; "
    "discarded=JH 9C AH 2D / 7H AH / JS QH TD KD; final_turns=-; "
    "shown=7D 6C 6S JK QS QH JD KH / - / QC 7H 6C KD 4H 7H AH 6D; deadwood=35 0 50; "
    "lay_offs=- / - / 0:4H; auto_advance=0"
)
"""A reviewed game's lay-off: your joker fits the run on the table, but in your hand it
makes Q♠ Q♥ a set."""


def test_a_lay_off_that_breaks_your_own_meld_is_explained_by_the_cards_left() -> None:
    review = review_game(
        "denexa", 3, ("greedy", "greedy"), 1, ["l1-JK"], position=_LAY_OFF_POSITION
    )
    (d,) = review.decisions
    assert d.kind == "lay-off" and d.measured is not None and d.measured.exact
    assert (d.your_value, d.best_value, d.cost) == (32.5, 12.5, 20.0)  # 55 and 35 points kept
    said = d.explanation.replace("\ufe0e", "")
    assert "yours leaves 55 points in your hand (6♠ Q♠ Q♥ K♥ 7♦ J♦ 6♣)" in said
    assert "the bot's leaves 35 points in your hand (6♠ K♥ 7♦ J♦ 6♣)" in said
