"""Moved: what the table shows is :mod:`payme.play.view` (it draws nothing).  The old names
still work for one release, with a ``DeprecationWarning``."""

from __future__ import annotations

from payme.deprecation import renamed

__getattr__ = renamed(
    "payme.widgets.play_view",
    {
        name: "payme.play.view:" + name
        for name in ("TableState", "hand_result_html", "scores_html", "three_pack_result_html")
    },
)
