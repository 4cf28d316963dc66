"""Benchmarks: each ``benchmarks/bench_NAME.py`` exposes ``run() -> str``, a markdown section.

Run them with ``python -m benchmarks [NAME ...]`` (``make bench`` runs them all); the
results are printed and written into their own section of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import pkgutil
from pathlib import Path

PREFIX = "bench_"


def available() -> list[str]:
    """The names of the benchmark modules, e.g. ``["app", "gin", "solver"]``."""
    here = str(Path(__file__).parent)
    return sorted(
        m.name.removeprefix(PREFIX)
        for m in pkgutil.iter_modules([here])
        if m.name.startswith(PREFIX)
    )


__all__ = ["PREFIX", "available"]
