"""The game review: your decisions beside the strongest bot's, with what each cost."""

from __future__ import annotations

import random
import re

from payme.analysis.review import review_game, review_html
from payme.game import advise
from payme.game.actions import Discard, Draw, GoOut, LayOff
from payme.play.session import PlaySession
from payme.solver import evaluate


def _scripted_moves(rules: str, players: int, seed: int, hands: int) -> list[str]:
    """A game where you play the strong bot's move, but a random one now and then."""
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
        session.act(rng.choice(legal) if rng.random() < 0.35 else move)
    return session.moves


def _points(session: PlaySession, cards: list) -> int:  # type: ignore[type-arg]
    return int(evaluate(cards, session.rules, session.game.dealt).deadwood_points)


def test_discard_and_lay_off_costs_match_the_engine() -> None:
    moves = _scripted_moves("family", 3, seed=21, hands=6)
    review = review_game("family", 3, ("greedy", "greedy"), 21, moves)
    # Replay independently and recompute the cost of each discard and lay-off decision.
    session = PlaySession("family", 3, ("greedy",), 21)
    decisions = iter(review.decisions)
    checked = 0
    for number, token in enumerate(moves):
        if token == "n":
            session.next_hand()
            continue
        decision = next(decisions)
        assert decision.number == number and decision.before == tuple(moves[:number])
        yours = decision.yours
        best = advise(session.view(), session.legal(), 21).action
        assert best == decision.best
        hand = list(session.hand())

        def kept(action: object, hand: list = hand) -> int:  # type: ignore[type-arg]
            if isinstance(action, GoOut):
                return 0
            left = list(hand)
            if isinstance(action, Discard):
                left.remove(action.card)
            else:
                assert isinstance(action, LayOff)
                for _i, cards in action.placements:
                    for card in cards:
                        left.remove(card)
            return _points(session, left)

        if isinstance(yours, Discard | GoOut | LayOff) and yours != best:
            assert decision.cost == max(0, kept(yours) - kept(best)), decision
            checked += 1
        elif yours == best:
            assert decision.cost == 0 and decision.agrees
        session.act(yours)
    assert checked >= 5
    assert next(decisions, None) is None


def test_a_stock_draw_is_measured_against_the_unseen_cards() -> None:
    # Seed 4, hand 1: drawing from the stock when the bot would take the top discard.
    for seed in range(30):
        moves = _scripted_moves("denexa", 2, seed=seed, hands=1)
        review = review_game("denexa", 2, ("greedy",), seed, moves)
        draws = [
            d for d in review.decisions
            if d.kind == "draw" and not d.agrees and isinstance(d.yours, Draw)
        ]  # fmt: skip
        if draws:
            break
    else:
        raise AssertionError("no draw decision differed from the bot's in 30 games")
    d = draws[0]
    assert d.your_value >= 0 and d.best_value >= 0
    assert d.cost == max(0.0, round(d.your_value - d.best_value, 2))


def test_the_three_biggest_mistakes_link_to_their_positions() -> None:
    moves = _scripted_moves("denexa", 3, seed=5, hands=2)
    review = review_game("denexa", 3, ("greedy", "greedy"), 5, moves)
    worst = review.mistakes()
    assert 1 <= len(worst) <= 3
    assert [d.cost for d in worst] == sorted((d.cost for d in worst), reverse=True)
    assert all(d.cost >= m.cost for d in worst for m in review.decisions if m not in worst)
    html = review_html(review, lambda before: "moves=" + ".".join(before))
    for d in worst:
        assert f'href="?moves={".".join(d.before)}"' in html
    assert html.count('class="payme-review-row') == len(review.decisions)
    words = re.sub(r'href="[^"]*"', "", html)  # card codes live only in the links' URLs
    assert not re.search(r"\b[2-9TJQKA][SHDC]\b", words) and "seat 0" not in words.lower()
