"""HTML helpers for the tutorial: cards drawn by :mod:`payme.display`, small tables.

>>> table_html(("hand", "cards"), [(1, 3), (2, 4)])
'<table class="payme-tutorial-table"><thead><tr><th>hand</th><th>cards</th></tr></thead><tbody><tr><td>1</td><td>3</td></tr><tr><td>2</td><td>4</td></tr></tbody></table>'
"""  # noqa: E501

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from payme.cards import Card
from payme.rulesets import Ruleset


def cards_html(
    cards: Iterable[Card],
    rules: Ruleset | None = None,
    dealt: int | None = None,
    caption: str | None = None,
) -> str:
    """A row of cards; with a rule set, its wild cards this hand carry the wild mark."""
    from payme.display import hand_html

    hand = tuple(cards)
    marks = None
    if rules is not None:
        marks = ["wild" if rules.is_wild(c, dealt) else None for c in hand]
    return str(hand_html(hand, marks=marks, caption=caption))


def table_html(head: Sequence[object], rows: Iterable[Sequence[object]]) -> str:
    """A plain table (every cell escaped)."""
    th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return (
        f'<table class="payme-tutorial-table"><thead><tr>{th}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def para(*sentences: str) -> str:
    """One paragraph of plain text (escaped)."""
    return "<p>" + html.escape(" ".join(s for s in sentences if s)) + "</p>"


def bullets(items: Iterable[str]) -> str:
    return "<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>"


__all__ = ["bullets", "cards_html", "para", "table_html"]
