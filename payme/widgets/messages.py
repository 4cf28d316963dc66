"""Messages beside inputs, and the guard that turns a callback's error into one.

A widget callback that raises in Voilà prints a traceback nobody sees (or, worse, one a
visitor does see) and leaves the page half updated.  :func:`guarded` catches it and writes a
plain message instead, so the page keeps working.

>>> box = MessageBox()
>>> @guarded(box)
... def on_click(_button=None):
...     raise ValueError("unknown card '1X'")
>>> on_click()
>>> box.kind, box.text
('error', "unknown card '1X'")
"""

from __future__ import annotations

import functools
import inspect
import logging
import re
from collections.abc import Callable
from html import escape
from typing import Any, TypeVar

import ipywidgets as widgets

__all__ = ["MessageBox", "call_back", "guarded", "shorten_quoted"]

_log = logging.getLogger("payme.widgets")

F = TypeVar("F", bound=Callable[..., Any])

# Each state: its symbol, its word, and the style sheet's class (payme.css, docs/design.md).
# The colours are repeated inline (as the sheet's custom properties with a fallback) so a
# message reads the same in JupyterLab, where the app's sheet is not loaded.
_STYLES = {
    # Marked by a symbol and a word as well as colour.
    # The state names the sheet's colours (payme.css: payme-msg-<state>).
    "error": ("⚠", "Problem", "wrong"),
    "wrong": ("✘", "Not quite", "wrong"),
    # A first wrong answer: the question stays open (amber, neither an error nor info).
    "retry": ("↻", "Not quite", "warn"),
    "info": ("ℹ", "", "info"),
    "ok": ("✔", "", "right"),
}

# An echoed input longer than this is cut, with its length said instead.
ECHO_LIMIT = 40


def shorten_quoted(text: str, limit: int = ECHO_LIMIT) -> str:
    """Cut every quoted piece of ``text`` longer than ``limit`` characters.

    Error messages quote what the visitor typed; a 20,000-character token must not become a
    20,000-character message.

    >>> shorten_quoted("unknown card 'HELLO'")
    "unknown card 'HELLO'"
    >>> shorten_quoted("can't " + "x " * 40 + "isn't", limit=10).endswith("isn't")
    True
    >>> shorten_quoted("unknown card '" + "X" * 500 + "'", limit=10)
    "unknown card 'XXXXXXXXXX…' (500 characters)"
    """

    def cut(match: re.Match[str]) -> str:
        quote, body = match.group(1), match.group(2)
        if len(body) <= limit:
            return match.group(0)
        return f"{quote}{body[:limit]}…{quote} ({len(body):,} characters)"

    # A quoted token has no spaces: apostrophes in words ("can't … isn't") are not quotes.
    return re.sub(r"(['\"])(\S*?)\1", cut, text)


class MessageBox(widgets.HTML):  # type: ignore[misc]
    """One line of feedback shown beside an input: ``.info(text)``, ``.error(text)``,
    ``.wrong(text)`` (a wrong answer), ``.retry(text)`` (a wrong answer with another try to
    come), ``.ok(text)``, ``.clear()``.  ``.kind`` and ``.text``
    say what it shows now.  Quoted input in the text is cut to a sensible length."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(value="", **kwargs)
        self.add_class("payme-message")
        self.kind: str | None = None
        self.text = ""

    def _show(self, kind: str, text: str) -> None:
        symbol, word, state = _STYLES[kind]
        text = shorten_quoted(text)
        self.kind, self.text = kind, text
        role = "alert" if kind == "error" else "status"
        prefix = f"{symbol} <b>{word}:</b> " if word else f"{symbol} "
        self.value = (
            f'<div class="payme-msg payme-msg-{state} payme-message-{kind}" role="{role}">'
            f"{prefix}{escape(text)}</div>"
        )

    def error(self, text: str) -> None:
        self._show("error", text)

    def wrong(self, text: str) -> None:
        self._show("wrong", text)

    def retry(self, text: str) -> None:
        self._show("retry", text)

    def info(self, text: str) -> None:
        self._show("info", text)

    def ok(self, text: str) -> None:
        self._show("ok", text)

    def clear(self) -> None:
        self.kind, self.text, self.value = None, "", ""


def describe_error(error: BaseException) -> str:
    """A visitor-facing sentence for an exception.

    Engine errors (``ValueError`` and its ``CardError``) already say what was wrong and what
    is allowed, so their text is shown as it is; anything else is a bug, named as such.
    """
    if isinstance(error, ValueError):
        return str(error)
    return f"something went wrong ({type(error).__name__}: {error}); the page still works"


def guarded(message_box: MessageBox) -> Callable[[F], F]:
    """Decorator for widget callbacks: an exception becomes a message in ``message_box``.

    The callback returns ``None`` when it failed; the error is also logged for developers.
    """

    def wrap(callback: F) -> F:
        @functools.wraps(callback)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return callback(*args, **kwargs)
            except Exception as error:  # every error: a callback must never break the page
                _log.debug(
                    "callback %s failed", getattr(callback, "__name__", callback), exc_info=True
                )
                message_box.error(describe_error(error))
                return None

        return run  # type: ignore[return-value]

    return wrap


def call_back(callback: Callable[..., Any], source: Any) -> None:
    """Call an ``on_change`` callback with ``source`` if it takes an argument, else with none.

    Both ``def refresh(): ...`` and ``def refresh(picker): ...`` work as callbacks.
    """
    try:
        params = inspect.signature(callback).parameters.values()
    except (TypeError, ValueError):  # builtins without a signature
        callback(source)
        return
    takes_arg = any(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in params
    )
    if takes_arg:
        callback(source)
    else:
        callback()
