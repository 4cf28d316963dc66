"""Outputs: a hand, and a layout or lay-off, each drawn as ONE HTML widget of inline SVG.

One widget per hand (not one per card) keeps a page light: an update is a single message.

>>> from payme.cards import parse_hand
>>> view = HandView(parse_hand("7H 8H"))
>>> view.value.count('role="img"')
2
>>> view.update(parse_hand("JK"), marks=["wild"]); "WILD" in view.value
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from payme.cards import Card, CardsLike, parse_hand
from payme.display import go_out_html, hand_html, layoff_html, layout_html

__all__ = ["HandView", "LayoutView"]


class HandView(widgets.HTML):  # type: ignore[misc]
    """A hand of cards; ``.update(cards, marks=None, caption=None)`` redraws it."""

    def __init__(
        self,
        cards: CardsLike = (),
        marks: Sequence[str | None] | None = None,
        caption: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.add_class("payme-hand-view")
        self.layout.max_width = "100%"
        self.cards: tuple[Card, ...] = ()
        self.update(cards, marks=marks, caption=caption)

    def update(
        self,
        cards: CardsLike,
        marks: Sequence[str | None] | None = None,
        caption: str | None = None,
        stands_for: Sequence[Card | None] | None = None,
    ) -> None:
        self.cards = parse_hand(cards)
        self.value = hand_html(self.cards, marks=marks, caption=caption, stands_for=stands_for)


class LayoutView(widgets.HTML):  # type: ignore[misc]
    """A best layout (``.show(evaluation)``), a lay-off (``.show_layoff(layoff)``), whether a
    hand can go out (``.show_go_out(go_out)``), or any note (``.show_text``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("payme-layout-view")
        self.layout.max_width = "100%"

    def show(self, evaluation: Any) -> None:
        self.value = layout_html(evaluation)

    def show_layoff(self, layoff: Any) -> None:
        self.value = layoff_html(layoff)

    def show_go_out(self, go_out: Any) -> None:
        self.value = go_out_html(go_out)

    def show_html(self, html: str) -> None:
        self.value = html

    def show_text(self, text: str) -> None:
        self.value = f'<p class="payme-flush">{escape(text)}</p>'

    def clear(self) -> None:
        self.value = ""
