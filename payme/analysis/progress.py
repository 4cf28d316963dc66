"""Progress reporting for long simulations: a tqdm bar, a callback, or nothing.

``progress`` as :func:`~payme.analysis.simulate.simulate` takes it:

* ``True``: a ``tqdm.auto`` bar (a text bar in a terminal, a widget in a notebook);
* ``False``: silent;
* ``None`` (the default): a bar only for a long run (``AUTO_MIN_GAMES`` games or more)
  that someone can watch: stderr is a terminal, or the code runs in a Jupyter kernel;
* a callable ``(done, total) -> None``: called with ``(0, total)`` first, then after each
  finished batch of games, so a web page can drive its own progress widget.

>>> seen = []
>>> with reporter(lambda done, total: seen.append((done, total)), total=5) as report:
...     report(2)
...     report(3)
>>> seen
[(0, 5), (2, 5), (5, 5)]
>>> with reporter(False, total=5) as report:
...     report(5)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

ProgressLike = bool | Callable[[int, int], object] | None
"""How a long run reports progress: ``True`` a bar, ``False`` nothing, ``None`` a bar from
:data:`AUTO_MIN_GAMES` games on, or a function called with ``(done, total)``."""

AUTO_MIN_GAMES = 200
"""With ``progress=None`` a bar appears from this many games on (if someone can see it)."""


def _watched() -> bool:
    """Whether a bar would be seen: a terminal on stderr, or a Jupyter kernel."""
    try:
        if sys.stderr is not None and sys.stderr.isatty():
            return True
    except (AttributeError, ValueError):  # a closed or replaced stream
        pass
    # ipykernel is only imported inside a Jupyter kernel (notebook, lab, Voilà)
    return "ipykernel" in sys.modules


def wants_bar(progress: ProgressLike, total: int) -> bool:
    """Whether ``progress`` asks for a tqdm bar for a run of ``total`` games.

    >>> wants_bar(True, 1), wants_bar(False, 10**6), wants_bar(print, 10**6)
    (True, False, False)
    """
    if progress is None:
        return total >= AUTO_MIN_GAMES and _watched()
    return progress is True


def check_progress(progress: object) -> ProgressLike:
    """``progress`` checked: a bool, ``None`` or a callable (else a ``TypeError``)."""
    if progress is None or isinstance(progress, bool) or callable(progress):
        return progress
    raise TypeError(
        "progress must be True, False, None (automatic) or a callable (done, total), "
        f"not {progress!r}"
    )


@contextmanager
def reporter(
    progress: ProgressLike, total: int, desc: str = "games"
) -> Iterator[Callable[[int], None]]:
    """A context giving ``report(n)``: ``n`` more games are done."""
    if callable(progress) and not isinstance(progress, bool):
        callback = progress
        done = 0
        callback(0, total)

        def report(n: int) -> None:
            nonlocal done
            done += n
            callback(done, total)

        yield report
    elif wants_bar(progress, total):
        from tqdm.auto import tqdm

        bar: Any = tqdm(total=total, desc=desc, unit="game", smoothing=0.1)
        try:
            yield bar.update
        finally:
            bar.close()
    else:
        yield lambda n: None
