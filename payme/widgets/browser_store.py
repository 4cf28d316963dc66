"""A record kept in the visitor's browser (``localStorage``): progress that survives a reload.

A Voilà page's kernel starts afresh on every visit; what a visitor has done (the tutorial
steps answered right) is kept in their own browser instead, never on the server.  The page
side reads the stored record once when it is drawn and hands it to the kernel
(:meth:`BrowserStore.on_load`); :meth:`BrowserStore.save` writes a record back, merged with
what is stored (lists are joined, other values replaced).

>>> store = BrowserStore("payme-example")
>>> seen = []
>>> store.on_load(seen.append)
>>> store.loaded = '{"done": ["runs"]}'          # what the page side sends
>>> seen
[{'done': ['runs']}]
>>> store.save({"done": ["runs", "sets"]}); store.saved
'{"done": ["runs", "sets"]}'
>>> store.loaded = "not json"; seen[-1]         # a damaged record reads as empty
{}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

__all__ = ["BrowserStore"]

Loaded = Callable[[dict[str, Any]], Any]


class BrowserStore(anywidget.AnyWidget):
    """One JSON record under ``key`` in the browser's localStorage (draws nothing)."""

    _esm = Path(__file__).with_name("browser_store.js")
    key = traitlets.Unicode("").tag(sync=True)
    loaded = traitlets.Unicode("").tag(sync=True)
    saved = traitlets.Unicode("").tag(sync=True)

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(key=key, **kwargs)
        self.add_class("payme-browser-store")
        self.layout.display = "none"
        self._callbacks: list[Loaded] = []
        self.observe(self._on_loaded, names="loaded")

    def on_load(self, callback: Loaded) -> None:
        """Call ``callback(record)`` with the stored record when the page side sends it."""
        self._callbacks.append(callback)

    def save(self, record: dict[str, Any]) -> None:
        """Write ``record`` to the browser (merged with the stored one there)."""
        self.saved = json.dumps(record)

    def _on_loaded(self, change: dict[str, Any]) -> None:
        try:
            record = json.loads(change["new"] or "{}")
        except ValueError:
            record = {}
        if not isinstance(record, dict):
            record = {}
        for callback in self._callbacks:
            callback(record)
