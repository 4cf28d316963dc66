"""The game review on a page: the summary, a chart, and a board to step through.

:class:`ReviewBoard` draws a headless :class:`~payme.analysis.review.Review`: how many
decisions of each grade in each hand, the points lost per hand (an SVG chart drawn by
payme), and the position at each decision as cards — your hand, the pile, the melds, what
each opponent took from the pile — with your move and the best move marked, its headline
and explanation.  ← and → (or the buttons) step through the decisions; "Play on from here"
opens Play at that position (a Play URL with your moves up to there).

>>> from payme.analysis.review import review_game
>>> board = ReviewBoard()
>>> review = review_game("denexa", 2, ("greedy",), 4, ["s", "d3H"])
>>> board.show(review, lambda moves: "moves=" + ".".join(moves))
>>> board.data["decisions"][1]["link"], board.data["decisions"][1]["yours"]
('moves=s', {'cards': ['3H'], 'place': 'hand'})
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from payme.analysis.review import GRADES, Review
from payme.cards import Card
from payme.display.svg import card_svg, card_title
from payme.game.actions import Action, Discard, Draw, GoOut, LayOff
from payme.widgets.scripts import script

__all__ = ["ReviewBoard", "review_state"]

_HERE = Path(__file__).parent


class ReviewBoard(anywidget.AnyWidget):
    """A review to step through: call :meth:`show` with a review and a link maker."""

    _esm = script("review.js")
    _css = _HERE / "review.css"
    data = traitlets.Dict().tag(sync=True)
    faces = traitlets.Dict().tag(sync=True)

    def show(
        self,
        review: Review,
        link: Callable[[Sequence[str]], str] | None = None,
        progress: str | None = None,
    ) -> None:
        """Draw ``review``; ``link(moves)`` gives the Play URL query of the position after
        your first ``moves`` (no "Play on from here" without it); ``progress``: how the
        measuring stands while the costs are refined (the same review drawn again keeps the
        decision on show)."""
        faces: dict[str, list[str]] = dict(self.faces)
        state = review_state(review, link, faces)
        state["progress"] = progress
        if faces != self.faces:
            self.faces = faces
        self.data = state


def review_state(
    review: Review,
    link: Callable[[Sequence[str]], str] | None,
    faces: dict[str, list[str]],
) -> dict[str, Any]:
    """The JSON the page draws (``faces`` gets each card's SVG and its spoken name)."""

    def key(card: Card) -> str:
        if card.token not in faces:
            faces[card.token] = [card_svg(card), card_title(card)]
        return card.token

    def keys(cards: Sequence[Card]) -> list[str]:
        return [key(c) for c in cards]

    decisions = []
    for d in review.decisions:
        b = d.board
        seats = [
            {
                "name": b.names[s],
                "count": b.counts[s],
                "out": s == b.declarer,
                "taken": keys(b.taken[s]),
            }
            for s in range(1, len(b.counts))
        ]
        item: dict[str, Any] = {
            "hand": d.hand,
            "turn": d.turn,
            "kind": d.kind,
            "grade": d.grade,
            "cost": d.cost,
            "agrees": d.agrees,
            "pending": d.pending,
            "headline": d.headline,
            "explanation": d.explanation,
            "your_words": d.your_words,
            "best_words": d.best_words,
            "your_value": d.your_value,
            "best_value": d.best_value,
            "board": {
                "hand": keys(b.hand),
                "pile": keys(b.pile[-6:]),
                "pile_size": len(b.pile),
                "melds": [keys(m) for m in b.melds],
                "stock": b.stock,
                "seats": seats,
            },
            "yours": _marks(d.yours, keys),
            "best": _marks(d.best, keys),
            "link": link(d.before) if link is not None else None,
        }
        if d.layouts is not None and d.open_spots is not None:
            item["layouts"] = [[keys(m) for m in side] for side in d.layouts]
            item["spots"] = [keys(side) for side in d.open_spots]
        decisions.append(item)
    start = next(
        (i for i, d in enumerate(review.decisions) if d.cost > 0 and d in review.mistakes(1)), 0
    )
    return {
        "id": "|".join(
            [review.rules, str(review.seed), *(".".join(d.before) for d in review.decisions[-1:])]
        ),
        "unit": review.unit,
        "yardstick": review.stick.words,
        "tolerance": review.stick.tolerance,
        "grades": [name for name, _ in GRADES],
        "per_hand": review.per_hand(),
        "totals": review.grades(),
        "lost": review.total_cost,
        "chart": review.chart_svg(),
        "decisions": decisions,
        "start": start,
    }


def _marks(action: Action, keys: Callable[[Sequence[Card]], list[str]]) -> dict[str, Any]:
    """Where a move shows on the board: the cards of your hand it plays, or the stock or
    the pile it draws from."""
    if isinstance(action, Draw):
        return {"cards": [], "place": "stock" if action.source == "stock" else "pile"}
    if isinstance(action, Discard):
        return {"cards": keys([action.card]), "place": "hand"}
    if isinstance(action, GoOut):
        return {"cards": keys([action.discard]) if action.discard else [], "place": "hand",
                "out": True}  # fmt: skip
    if isinstance(action, LayOff):
        return {"cards": keys([c for _, cs in action.placements for c in cs]), "place": "hand"}
    return {"cards": [], "place": "other"}
