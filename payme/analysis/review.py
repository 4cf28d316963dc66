"""The game review: each of your decisions next to the strongest bot's in the same position.

A game is replayed from its settings and your moves (the Play page's URL tokens).  Before
each of your moves the strongest bot is asked what it would do, and both choices are
measured by one yardstick, the penalty points the hand would keep (Rummy 3-Pack: its
unmelded cards), lower being better:

* **draw** — taking the top discard: the fewest points left after the best discard;
  drawing from the stock: the same, averaged over the cards you had not seen;
* **discard / go out** — going out keeps 0; a discard keeps the points of the hand left;
* **lay-off** — the points left after laying off;
* **arrangement** — the points your opponents kept after laying off onto your melds (more
  is better for you, so the cost is what your layout let them shed beyond the bot's).

The cost of a decision is how much worse yours measured than the bot's (never below 0).
The biggest mistakes come with the moves before them, so the Play page can replay them.

>>> review = review_game("denexa", 2, ("greedy",), 4, ["s", "d3H"])
>>> [(d.kind, d.agrees) for d in review.decisions][:1]
[('draw', True)]
>>> review_game("denexa", 2, ("greedy",), 4, ["s", "dKS"])
Traceback (most recent call last):
...
ValueError: move 2 (dKS) was refused: You hold no K♠︎.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from payme.cards import Card

__all__ = ["Decision", "GameReview", "review_game", "review_html"]


@dataclass(frozen=True)
class Decision:
    """One decision of yours, the strongest bot's choice in its place, and the cost."""

    number: int
    """How many of your moves came before it."""
    before: tuple[str, ...]
    """Your moves before it (URL tokens, ``"n"`` for each new hand): its position."""
    hand: int
    turn: int
    """Your turn within the hand, from 1."""
    kind: str
    """``"draw"``, ``"discard"`` (which includes going out or not), ``"lay-off"``,
    ``"arrangement"``, or ``"other"``."""
    yours: Any
    best: Any
    your_words: str
    best_words: str
    your_value: float
    best_value: float
    unit: str
    why: str = ""
    """The strongest bot's reason for its choice, in a player's words."""

    @property
    def agrees(self) -> bool:
        return bool(self.yours == self.best)

    @property
    def cost(self) -> float:
        """How much worse your choice measured than the bot's (0 when it was as good)."""
        return max(0.0, round(self.your_value - self.best_value, 2))


@dataclass(frozen=True)
class GameReview:
    decisions: tuple[Decision, ...]
    unit: str

    def mistakes(self, count: int = 3) -> tuple[Decision, ...]:
        """The ``count`` costliest decisions, costliest first (only those that cost)."""
        costly = sorted(
            (d for d in self.decisions if d.cost > 0), key=lambda d: (-d.cost, d.number)
        )
        return tuple(costly[:count])

    @property
    def total_cost(self) -> float:
        return round(sum(d.cost for d in self.decisions), 2)


def review_game(
    rules: str,
    players: int,
    bots: Sequence[str],
    seed: int,
    moves: Sequence[str],
    *,
    advisor: str | None = None,
    position: str | None = None,
) -> GameReview:
    """Replay a Play game and review each of your decisions (see the module's yardstick).

    The strongest bot's advice (:func:`payme.game.advise`) is the choice compared with, or
    the bot named ``advisor``.  ``position``: the game started there (see
    :class:`~payme.play.session.PlaySession`).
    """
    from payme.game import advise, make_bot
    from payme.game.actions import Draw
    from payme.play.session import YOU, PlaySession, parse_move

    session = PlaySession(rules, players, bots, seed, position)
    bot = make_bot(advisor, session.rules, seed) if advisor else None
    unit = session.kind.SCORE_UNIT
    decisions = []
    turn, hand = 0, 0
    for number, token in enumerate(moves):
        action = parse_move(token, YOU, session.rules, session.game.dealt)
        if action is None:
            session.next_hand()
            continue
        verdict = session.game.can(action)
        if not verdict.ok:
            why = session.words(verdict.reason)
            raise ValueError(f"move {number + 1} ({token}) was refused: {why}")
        legal = session.legal()
        now = int(getattr(session.game, "hand_number", 1))
        if now != hand:
            hand, turn = now, 0
        turn += isinstance(action, Draw)  # a turn starts with its draw
        if legal:
            if bot is None:  # the strongest bot's advice: its move and why
                advice = advise(session.view(), legal, seed)
                best, why = advice.action, str(advice.reason)
            else:
                best, why = bot.choose(session.view(), legal), ""
            kind, yours_value, best_value = _measure(session, action, best)
            decisions.append(
                Decision(
                    number=number,
                    before=tuple(moves[:number]),
                    hand=now,
                    turn=max(turn, 1),
                    kind=kind,
                    yours=action,
                    best=best,
                    your_words=session.describe(action),
                    best_words=session.describe(best),
                    why=why,
                    your_value=yours_value,
                    best_value=best_value,
                    unit=unit,
                )
            )
        session.act(action)
        assert session.moves[-1] == action.token() and action.seat == YOU
    return GameReview(tuple(decisions), unit)


def _kind(action: Any) -> str:
    from payme.game.actions import Discard, Draw, GoOut, LayOff

    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Discard | GoOut):
        return "discard"
    if isinstance(action, LayOff):
        return "lay-off"
    return "other"


def _measure(session: Any, yours: Any, best: Any) -> tuple[str, float, float]:
    """The decision's kind and both choices measured (equal choices are not measured)."""
    kind = _kind(yours)
    if _same_choice(yours, best):
        if kind == "discard" and _arranged(yours):
            return "arrangement", *_arrangement_values(session, yours, best)
        return kind, 0.0, 0.0
    value = {"draw": _draw_value, "discard": _discard_value, "lay-off": _lay_off_value}.get(kind)
    if value is None or _kind(best) != kind:
        return kind, 0.0, 0.0
    return kind, value(session, yours), value(session, best)


def _same_choice(yours: Any, best: Any) -> bool:
    """The same move, leaving aside how a go-out's melds are arranged."""
    from payme.game.actions import GoOut

    if isinstance(yours, GoOut) and isinstance(best, GoOut):
        return bool(yours.discard == best.discard)
    return bool(yours == best)


def _arranged(action: Any) -> bool:
    return bool(getattr(action, "melds", None))


def _hand_points(session: Any, cards: Sequence[Card]) -> int:
    from payme.solver import evaluate

    return int(evaluate(tuple(cards), session.rules, session.game.dealt).deadwood_points)


def _after_best_discard(session: Any, cards: Sequence[Card]) -> int:
    """The fewest points left once one card of ``cards`` is discarded (0: can go out)."""
    barred = set(session.rules.never_discarded)
    options = [c for c in set(cards) if c.token not in barred]
    if not options:
        return _hand_points(session, cards)
    best = None
    for card in options:
        left = list(cards)
        left.remove(card)
        points = _hand_points(session, left)
        best = points if best is None else min(best, points)
    return int(best or 0)


def _unseen(session: Any) -> Counter[Card]:
    """The cards you had not seen: the pack less your hand, the discard pile and the melds."""
    from payme.odds import unseen_counts

    view = session.view()
    left = unseen_counts(session.hand(), session.rules, players=session.players,
                         optional=view.optional_counts())  # fmt: skip
    left.subtract(Counter(view.public_cards()))
    return +left


def _draw_value(session: Any, action: Any) -> float:
    hand = list(session.hand())
    if action.source == "discard":
        top = session.top_discard()
        return float(_after_best_discard(session, [*hand, top])) if top else 0.0
    pool = _unseen(session)
    total = sum(pool.values())
    if not total:
        return 0.0
    spent = sum(n * _after_best_discard(session, [*hand, card]) for card, n in pool.items())
    return round(spent / total, 2)


def _discard_value(session: Any, action: Any) -> float:
    from payme.game.actions import GoOut

    if isinstance(action, GoOut):
        return 0.0
    left = list(session.hand())
    left.remove(action.card)
    return float(_hand_points(session, left))


def _lay_off_value(session: Any, action: Any) -> float:
    left = list(session.hand())
    for _index, cards in action.placements:
        for card in cards:
            left.remove(card)
    return float(_hand_points(session, left))


def _arrangement_values(session: Any, yours: Any, best: Any) -> tuple[float, float]:
    """Opponents' points kept after laying off onto your melds, as yours and as the bot's
    arrangement (negated: their points are good for you), from the hands they then held."""
    from payme.layoff import lay_off

    if not session.rules.lay_off:
        return 0.0, 0.0
    after = _game_after(session, yours)
    summary = after.summaries[-1] if after.summaries else None
    if summary is None or summary.declarer is None:
        return 0.0, 0.0
    dealt = summary.dealt
    default = best if _arranged(best) else None

    def kept(melds: Any) -> float:
        return float(
            sum(
                lay_off(summary.hands[s], melds, session.rules, dealt).deadwood_points
                for s in range(len(summary.hands))
                if s != summary.declarer
            )
        )

    mine = kept(list(yours.melds))
    if default is None:
        from payme.solver import evaluate

        cards = list(session.hand())
        if yours.discard is not None:
            cards.remove(yours.discard)
        theirs = kept(list(evaluate(cards, session.rules, dealt).melds))
    else:
        theirs = kept(list(default.melds))
    return -mine, -theirs


def _game_after(session: Any, action: Any) -> Any:
    """The game played on from here with ``action`` (a copy: the review's own game is kept)."""
    import copy

    game = copy.deepcopy(session)
    game.act(action)
    while not game.hand_over and not game.over:
        move = game.advice()
        if move is None:
            break
        game.act(move)
    return game.game


def review_html(review: GameReview, link: Callable[[Sequence[str]], str]) -> str:
    """The review as HTML: the three costliest decisions with a link to replay each, then
    every decision in a table.  ``link(moves)`` gives the query of a position."""
    unit = review.unit
    hands = len({d.hand for d in review.decisions}) > 1 or unit == "points"

    def when(d: Decision) -> str:
        return f"Hand {d.hand}, turn {d.turn}" if hands else f"Turn {d.turn}"

    parts = ['<div class="payme-review"><h3>Your game, decision by decision</h3>']
    worst = review.mistakes(3)
    if worst:
        parts.append("<p><b>Your three biggest mistakes</b> (replay each position):</p><ol>")
        for d in worst:
            parts.append(
                f'<li class="payme-review-mistake">{when(d)}: you chose '
                f"<b>{escape(d.your_words)}</b>; the strongest bot would "
                f"<b>{escape(_lower(d.best_words))}</b> — it cost you {_amount(d.cost, unit)}. "
                + (f"<i>{escape(d.why)}</i> " if d.why else "")
                + f'<a href="?{escape(link(d.before))}">Replay this position</a></li>'
            )
        parts.append("</ol>")
    else:
        parts.append("<p>Every decision measured as well as the strongest bot's.</p>")
    parts.append(
        f"<p>{len(review.decisions)} decisions; {sum(d.agrees for d in review.decisions)} "
        f"the same as the bot's; total cost {_amount(review.total_cost, unit)}.</p>"
        '<div style="max-width:100%;overflow-x:auto"><table class="payme-review-table">'
        '<thead><tr><th scope="col">When</th><th scope="col">Decision</th>'
        '<th scope="col">You</th><th scope="col">Strongest bot</th>'
        '<th scope="col">Cost</th></tr></thead><tbody>'
    )
    for d in review.decisions:
        cost = "same as the bot" if d.agrees else _amount(d.cost, unit) if d.cost else "as good"
        costly = " payme-costly" if d.cost else ""
        parts.append(
            f'<tr class="payme-review-row{costly}" data-cost="{d.cost:g}"><td>{when(d)}</td>'
            f"<td>{escape(d.kind)}</td><td>{escape(d.your_words)}</td>"
            f"<td>{escape(d.best_words)}</td><td>{escape(cost)}</td></tr>"
        )
    parts.append("</tbody></table></div></div>")
    return "".join(parts)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _amount(value: float, unit: str) -> str:
    text = f"{value:g}"
    if unit == "points":
        return f"{text} point{'s' if value != 1 else ''}"
    return f"{text} unmelded card{'s' if value != 1 else ''}"
