"""Cards, hands, melds and layouts drawn as inline SVG inside HTML.

Pure functions returning strings: no widget or IPython import, so the engine's
``_repr_html_`` hooks can call them from anywhere.

>>> from payme.cards import parse_card
>>> 'role="img"' in card_svg(parse_card("QS"))
True
"""

from __future__ import annotations

from payme.display.html import (
    chance_html,
    deadwood_html,
    go_out_html,
    hand_html,
    layoff_html,
    layout_html,
    meld_html,
    meld_label,
    points_phrase,
    stand_ins,
)
from payme.display.svg import MARKS, card_back_svg, card_svg, card_title
from payme.words import short_label

__all__ = [
    "MARKS",
    "card_back_svg",
    "card_svg",
    "card_title",
    "chance_html",
    "deadwood_html",
    "go_out_html",
    "hand_html",
    "layoff_html",
    "layout_html",
    "meld_html",
    "meld_label",
    "points_phrase",
    "short_label",
    "stand_ins",
]
