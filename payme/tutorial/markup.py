"""HTML helpers for the tutorial: cards drawn by :mod:`payme.display`, small tables.

>>> table_html(("hand", "cards"), [(1, 3), (2, 4)])
'<table class="payme-tutorial-table"><thead><tr><th>hand</th><th>cards</th></tr></thead><tbody><tr><td>1</td><td>3</td></tr><tr><td>2</td><td>4</td></tr></tbody></table>'
"""  # noqa: E501

from __future__ import annotations

import html
import re
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


def rules_words(r: Ruleset) -> str:
    """The rule set as a sentence names it: ``"the Denexa rules"``, ``"Rummy 3-Pack"``.

    >>> from payme.rulesets import rules
    >>> rules_words(rules("family")), rules_words(rules("three_pack"))
    ('the family rules', 'Rummy 3-Pack')
    """
    from payme.rulesets import PRESETS

    inside = re.search(r"\(([^,)]*rules)", r.title)
    if r.name not in PRESETS or PRESETS[r.name] != r:
        return f"the {r.name} rules"
    return f"the {inside[1]}" if inside else r.title


def players_words(r: Ruleset, text: str) -> str:
    """An engine message in a player's words: the rule set's name becomes what a sentence
    calls it, "rule set" becomes "rules".

    >>> from payme.rulesets import rules
    >>> players_words(rules("three_pack"), "three_pack is for 2-10 players, not 11")
    'Rummy 3-Pack is for 2-10 players, not 11'
    >>> players_words(rules("family"), "A game under the family rules")
    'A game under the family rules'
    >>> players_words(rules("denexa"), "In this rule set the final turn draws from the stock")
    'Under these rules the final turn draws from the stock'
    """
    text = re.sub(r"\b[Ii]n this rule set\b", "Under these rules", text)
    text = re.sub(r"\bthis rule set\b", "these rules", text)
    text = re.sub(r"\bthe (\w+) rule set\b", r"the \1 rules", text)
    text = re.sub(r"\brule set\b", "rules", text)
    text = re.sub(r"\bdealt must be\b", "the cards dealt to each player must be", text)
    words = rules_words(r)
    name = re.escape(r.name)
    # Words already in a player's form ("the family rules") stay as they are.
    text = re.sub(rf"\b(the|a|an) {name}\b(?! rules)", words, text)
    return re.sub(rf"(?<!the )\b{name}\b(?! rules)", words, text)


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop.

    >>> sentence("the stock is empty")
    'The stock is empty.'
    """
    text = text.strip()
    if not text:
        return text
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?", ")")) else ".")


def para(*sentences: str) -> str:
    """One paragraph of plain text (escaped)."""
    return "<p>" + html.escape(" ".join(s for s in sentences if s)) + "</p>"


def bullets(items: Iterable[str]) -> str:
    return "<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>"


__all__ = [
    "bullets",
    "cards_html",
    "para",
    "players_words",
    "rules_words",
    "sentence",
    "table_html",
]
