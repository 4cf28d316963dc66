"""The widgets' browser scripts, each with the helpers they share (``dom.js``: ``el``) put
before it, so a helper is written once and every widget's module still stands alone (an
anywidget module is one script: it cannot import a file beside it)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["script"]

_HERE = Path(__file__).parent


def script(name: str) -> str:
    """The browser script ``name`` (a file beside this module) after the shared helpers.

    >>> "function el(" in script("table.js") and "function render(" in script("table.js")
    True
    """
    return (_HERE / "dom.js").read_text() + "\n" + (_HERE / name).read_text()
