"""The garbage collector while bots play: fewer young collections.

A game makes and drops many small objects (actions, records, search states).  With
Python's default of a young collection every 700 new container objects, those collections
take a measurable share of a game's CPU (docs/benchmarks.md, "Measurements behind the
code's settings"); every 20,000 costs a few MB at most.  The threshold is the whole
process's, so it is raised only for the run and put back after it, whatever happens.

>>> import gc
>>> before = gc.get_threshold()
>>> with fewer_young_collections():
...     gc.get_threshold()[0] >= YOUNG_THRESHOLD
True
>>> gc.get_threshold() == before
True
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

YOUNG_THRESHOLD = 20_000
"""New container objects between two young collections while bots play."""


@contextlib.contextmanager
def fewer_young_collections() -> Iterator[None]:
    """Raise the young collections' threshold to :data:`YOUNG_THRESHOLD` (never lower it)
    for the ``with`` block, and put it back after."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], YOUNG_THRESHOLD), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


__all__ = ["YOUNG_THRESHOLD", "fewer_young_collections"]
