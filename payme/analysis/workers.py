"""The review's play-outs spread over the machine's cores: one pool of worker processes.

A measure (:class:`payme.analysis.yardstick.Measuring`) asks for a run of deals at a time;
here the run is cut into parts, one a worker, and the parts' values come back in order.  The
deals are seeded one by one, so the measure is the same with any number of workers.

How many: :func:`workers` — ``PAYME_REVIEW_WORKERS`` when set (the app's bound, see
docs/review.md), else the cores this process may use (as a simulation's,
``payme.analysis.simulate.default_workers``); always 1 where no process can be started
(Python in the browser).  The pool is started the first time it is needed ("forkserver": a worker
is not a copy of a kernel with its threads) and kept for the process's life.

>>> from payme.game import new_game
>>> from payme.game.actions import Draw
>>> from payme.analysis.yardstick import Measuring
>>> g = new_game("denexa", players=2, seed=3)
>>> run = Measuring(g, 0, Draw(0, "stock"), Draw(0, "discard"), ("greedy",), seed=1, most=32)
>>> [len(part) for part in play_all([run], workers=1)]
[32]
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING

from payme.analysis.yardstick import BATCH, PairsTask, play_pairs

if TYPE_CHECKING:
    from payme.analysis.yardstick import Measuring

__all__ = ["parts", "play_all", "pool", "submit", "workers"]

_pool: ProcessPoolExecutor | None = None
_size = 0


def workers() -> int:
    """The processes a review spreads its deals over (see the module)."""
    if sys.platform == "emscripten":
        return 1
    wanted = os.environ.get("PAYME_REVIEW_WORKERS", "")
    if wanted.strip():
        try:
            return max(1, int(wanted))
        except ValueError:
            raise ValueError(
                f"PAYME_REVIEW_WORKERS must be a whole number, not {wanted!r}"
            ) from None
    from payme.analysis.simulate import default_workers

    return max(1, default_workers())


def pool(size: int) -> ProcessPoolExecutor:
    """The pool of ``size`` workers (started once; a different size starts it again)."""
    global _pool, _size
    if _pool is None or _size != size:
        import multiprocessing

        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["payme.analysis.yardstick", "payme.game"])
        _pool, _size = ProcessPoolExecutor(size, mp_context=context), size
    return _pool


def parts(run: Measuring, count: int, largest: int | None = None) -> list[PairsTask]:
    """The deals ``run`` asks for, cut into at most ``count`` parts of at least a batch
    (and at most ``largest`` deals each, when given)."""
    deals = run.pending()
    if not deals:
        return []
    size = max(BATCH, math.ceil(len(deals) / max(1, count)))
    if largest is not None:
        size = min(size, max(1, largest))
    return [run.task(deals[i : i + size]) for i in range(0, len(deals), size)]


def submit(tasks: Sequence[PairsTask], count: int) -> list[Future[list[tuple[float, float]]]]:
    """``tasks`` started on the pool of ``count`` workers."""
    executor = pool(count)
    return [executor.submit(play_pairs, task) for task in tasks]


def play_all(runs: Sequence[Measuring], workers: int = 1) -> list[list[tuple[float, float]]]:
    """Each run's deals up to its next checkpoint, played here (``workers`` 1) or spread
    over the pool; the values of each run, in order."""
    if workers <= 1:
        return [run.play(run.pending()) for run in runs]
    tasks = [parts(run, workers) for run in runs]
    futures = [submit(t, workers) for t in tasks]
    return [[pair for f in fs for pair in f.result()] for fs in futures]
