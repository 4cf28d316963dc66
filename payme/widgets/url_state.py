"""Links that keep state: a page's state in its address, through the browser's History API.

A Voilà page reads its address once, when its kernel runs the notebook
(:func:`payme.app.page.query_params`).  :class:`UrlState` carries on from there: the page
calls :meth:`UrlState.update` with its state as a query string whenever that state changes,
and the address bar follows (``history.pushState``: Back returns to the state before); when
the visitor goes Back or Forward, the callbacks given to :meth:`UrlState.on_navigate` receive
the address's query as a dict, and the page shows that state.  Reloading or opening a copied
link then restores the same state from the query.

How a page uses it (the hand builder, puzzles, analysis and the tutorials do; Play can)::

    url = UrlState(page.share_query())        # the state the page opened in
    url.on_navigate(page.apply_query)         # Back / Forward
    ...                                       # after every change of state:
    url.update(page.share_query())
    VBox([..., page, url])                    # displayed (it draws nothing)

While navigation callbacks run, :meth:`update` replaces the current entry instead of adding
one, so going Back never adds history.

>>> url = UrlState("step=2")
>>> seen = []
>>> url.on_navigate(seen.append)
>>> url.update("step=3"); url.query, url.push
('step=3', True)
>>> url.update({"step": 4, "rules": "family"}); url.query
'step=4&rules=family'
>>> url.navigated("step=2&hand=7H+8H")      # what the page does on Back
>>> seen
[{'step': '2', 'hand': '7H 8H'}]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import anywidget
import traitlets

__all__ = ["UrlState", "as_query", "whole_number"]

Navigate = Callable[[dict[str, str]], Any]


def whole_number(text: str, name: str) -> int:
    """A whole number read from the URL, or a ValueError naming ``name`` and what was there.

    >>> whole_number(" 4 ", "players")
    4
    >>> whole_number("four", "players")
    Traceback (most recent call last):
    ...
    ValueError: players must be a whole number, not 'four'
    """
    if not text.strip().isdigit():
        raise ValueError(f"{name} must be a whole number, not {text!r}")
    return int(text)


def as_query(state: str | Mapping[str, Any]) -> str:
    """A query string from a string (kept as it is, less a leading ``?``) or a mapping.

    >>> as_query({"hand": "7H 8H", "dealt": 7})
    'hand=7H+8H&dealt=7'
    >>> as_query("?id=denexa-7-discard-42")
    'id=denexa-7-discard-42'
    """
    if isinstance(state, str):
        return state.lstrip("?")
    return urlencode({k: str(v) for k, v in state.items()}, safe=":,")


class UrlState(anywidget.AnyWidget):
    """The page's address as a widget: ``query`` (synced) and whether a change adds history."""

    _esm = Path(__file__).with_name("url_state.js")
    query = traitlets.Unicode("").tag(sync=True)
    push = traitlets.Bool(True).tag(sync=True)

    def __init__(self, query: str | Mapping[str, Any] = "", **kwargs: Any) -> None:
        super().__init__(query=as_query(query), push=False, **kwargs)
        self.add_class("payme-url-state")
        self.layout.display = "none"
        self._callbacks: list[Navigate] = []
        self._navigating = False
        self._setting = False
        self.observe(self._on_query, names="query")

    def on_navigate(self, callback: Navigate) -> None:
        """Call ``callback(params)`` when the visitor goes Back or Forward to another state."""
        self._callbacks.append(callback)

    def update(self, state: str | Mapping[str, Any], *, push: bool = True) -> None:
        """Show ``state`` in the address bar: a new history entry (``push``) or in place."""
        query = as_query(state)
        if query == self.query:
            return
        self._setting = True
        try:
            with self.hold_sync():
                self.push = push and not self._navigating
                self.query = query
        finally:
            self._setting = False

    def navigated(self, query: str) -> None:
        """The browser went to ``query`` (Back/Forward): what the page side sends."""
        self.query = as_query(query)

    def _on_query(self, change: dict[str, Any]) -> None:
        if self._setting:
            return
        params = dict(parse_qsl(change["new"], keep_blank_values=True))
        self._navigating = True
        try:
            for callback in self._callbacks:
                callback(params)
        finally:
            self._navigating = False
