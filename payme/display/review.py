"""The game review's summary as HTML: the grades per hand, the chart, the costliest decisions.

It draws a headless :class:`~payme.analysis.review.Review` (nothing is measured here): the
Play page shows it on the table, and the board to step through each decision
(:class:`~payme.widgets.review.ReviewBoard`) under it.

>>> from payme.analysis.review import review_game
>>> html = review_html(review_game("denexa", 2, ("greedy",), 4, ["s", "d3H"]), lambda m: "")
>>> "payme-review-grades" in html and "<svg" in html
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

__all__ = ["review_html"]

_WORDS = {
    "best": "Best",
    "good": "Good",
    "inaccuracy": "Inaccuracy",
    "mistake": "Mistake",
    "blunder": "Blunder",
}


def review_html(review: Any, link: Callable[[Sequence[str]], str], *, summary: bool = True) -> str:
    """The summary of ``review`` as HTML; ``link(moves)`` gives the Play URL query of the
    position after your first ``moves`` (each charged decision links to it).
    ``summary=False`` leaves out the yardstick, the grades and the chart (the review board
    beside it shows them) and keeps the costliest decisions."""
    from payme.analysis.review import GRADES

    grades = [name for name, _ in GRADES]
    unit = "points" if review.unit == "points" else "% win chance"
    head = "".join(f'<th scope="col">{_WORDS[g]}</th>' for g in grades)
    rows = []
    for row in review.per_hand():
        cells = "".join(f"<td>{row[g]}</td>" for g in grades)
        rows.append(f"<tr><td>{row['hand']}</td>{cells}<td>{row['lost']:g}</td></tr>")
    totals = review.grades()
    cells = "".join(f"<td>{totals[g]}</td>" for g in grades)
    rows.append(f'<tr><th scope="row">All</th>{cells}<td>{review.total_cost:g}</td></tr>')
    parts = ['<div class="payme-review">']
    if summary:
        parts += [
            f'<p class="payme-review-stick">Every move is measured by {escape(review.stick.words)};'
            " a move is charged only when the strongest bot's is better by more than the"
            " measure's error.</p>",
            '<div class="payme-wide"><table class="payme-review-grades">'
            f'<thead><tr><th scope="col">Hand</th>{head}<th scope="col">Lost ({unit})</th>'
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>",
            review.chart_svg(),
        ]
    worst = review.mistakes(3)
    if worst:
        parts.append('<p><b>The costliest decisions</b></p><ol class="payme-review-worst">')
        for d in worst:
            parts.append(
                f'<li class="payme-review-mistake" data-cost="{d.cost:g}">'
                f"<b>Hand {d.hand}, turn {d.turn} — {_WORDS[d.grade]}.</b> "
                f"{escape(d.headline)} {escape(d.explanation)} "
                f'<a href="?{escape(link(d.before))}" target="_blank" rel="noopener">'
                "Play on from here</a></li>"
            )
        parts.append("</ol>")
    else:
        parts.append("<p>Every decision measured as well as the strongest bot's.</p>")
    if summary:
        parts.append(
            "<p>Step through every decision, its position drawn as cards, on the review "
            "board (← and → once it has the focus).</p>"
        )
    parts.append("</div>")
    return "".join(parts)
