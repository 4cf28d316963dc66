"""Which front end the app's notebook pages load: payme's light one, or Voilà's own.

Voilà's front end (``voila.js``: JupyterLab's application, its 56 chunks, its style script
and the three widget extensions, about 10 MB of scripts) cost a cold visit 1.5-1.7 s of the
browser's CPU before the page's first control (docs/benchmarks.md).  The light front end
(``static/lite/payme-lite.js``, built from ``frontend/`` by ``make lite-js``) does what the
pages need of it and no more: it connects to the page's kernel, fetches the widgets' state
over ipywidgets' control comm, draws each cell output where Voilà's template put it (a
widget, or HTML), and asks the server to shut the kernel down when the tab closes.

The choice is the server's ``--PaymeVoila.front_end`` (``lite``, the default, or ``voila``);
the payme template reads it as ``payme_front_end``.

>>> FRONT_ENDS
('lite', 'voila')
>>> choose("voila"), current()
('voila', 'voila')
>>> choose("lite"), current()
('lite', 'lite')
>>> choose("react")
Traceback (most recent call last):
...
ValueError: unknown front end 'react': choose one of lite, voila
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["BUNDLE", "DEFAULT_FRONT_END", "FRONT_ENDS", "add_to_templates", "choose", "current"]

FRONT_ENDS = ("lite", "voila")
DEFAULT_FRONT_END = "lite"
# The light front end's script (absent from the pure-Python wheel, which only a browser's
# Python installs: see setup.py).
BUNDLE = Path(__file__).resolve().parent / "static" / "lite" / "payme-lite.js"
_chosen = DEFAULT_FRONT_END


def choose(name: str) -> str:
    """Serve the pages with the front end ``name`` (one of :data:`FRONT_ENDS`); the one
    chosen: Voilà's when ``name`` is ``lite`` but its script is not installed."""
    global _chosen
    if name not in FRONT_ENDS:
        raise ValueError(f"unknown front end {name!r}: choose one of {', '.join(FRONT_ENDS)}")
    _chosen = name if name != "lite" or BUNDLE.is_file() else "voila"
    return _chosen


def current() -> str:
    """The front end the pages are served with."""
    return _chosen


def _set_variable(environment: Any) -> None:
    environment.globals["payme_front_end"] = current()


def add_to_templates() -> None:
    """Give every Voilà exporter's Jinja environment ``payme_front_end`` (with
    :func:`payme.app.jinja_cache.install`, which the server calls)."""
    from payme.app.jinja_cache import add_setup

    add_setup(_set_variable)
