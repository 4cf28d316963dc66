"""Which core runs the solver's searches: the compiled one or the pure-Python reference.

The searches of :mod:`payme.solver.search` and :mod:`payme.solver.natural` have a compiled
twin in ``payme/solver/_core.c`` (a C extension built at install when a C compiler is
there).  It makes the same moves in the same order, so every answer is the same (checked
on a million hands: ``python -m benchmarks.equality``); only the speed differs.  Where it
was not built, the pure-Python searches run.  The environment variable ``PAYME_SOLVER``
chooses, read once when the solver is first used: ``python`` forces the pure-Python core,
``compiled`` requires the compiled one (an error where it is missing), unset or ``auto``
takes the compiled core when it is there.  A build older than the ``_core.c`` beside it (a
checkout updated without reinstalling) is not used: the pure-Python searches run, and
:func:`describe` says to rebuild.

The lay-off search (:mod:`payme.layoff`) has a compiled heart of its own,
``payme/solver/_layoff_core.c`` (:data:`LAYOFF_CORE`), used wherever the compiled core
runs and it is built and up to date; otherwise the Python search runs, with the same
answers.

>>> solver_backend() in ("compiled", "python")
True
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Final, Literal

Backend = Literal["compiled", "python"]

_CHOICES: Final = ("auto", "compiled", "python")
_SOURCE: Final = Path(__file__).with_name("_core.c")
_REBUILD: Final = "rebuild it: make -B .venv/.installed, or reinstall payme"


def out_of_date(core: ModuleType, source: Path = _SOURCE) -> bool:
    """Whether ``core`` was built from another ``_core.c`` than the one at ``source``.

    An installed wheel may ship without the source: then the build is taken as it is.
    """
    try:
        digest = source_digest(source)
    except OSError:
        return False
    return str(getattr(core, "SOURCE", "")) != digest


def source_digest(source: Path = _SOURCE) -> str:
    """The digest setup.py compiles into the core: the first 16 hex digits of the source's
    SHA-256."""
    return hashlib.sha256(source.read_bytes()).hexdigest()[:16]


STALE = False
"""Whether a compiled core is built but out of date (so the pure-Python core runs)."""


def _load() -> ModuleType | None:
    """The compiled core, or ``None`` when the pure-Python one is to run."""
    wanted = os.environ.get("PAYME_SOLVER", "auto").strip().lower() or "auto"
    if wanted not in _CHOICES:
        raise ValueError(
            f"PAYME_SOLVER={os.environ['PAYME_SOLVER']!r}: use 'compiled', 'python' or "
            "'auto' (or leave it unset)"
        )
    if wanted == "python":
        return None
    try:
        from payme.solver import _core
    except ImportError as error:
        if wanted == "compiled":
            raise ImportError(
                "PAYME_SOLVER=compiled, but the solver's compiled core is not built "
                "(reinstall payme where a C compiler is available, or unset PAYME_SOLVER "
                "to use the pure-Python core)"
            ) from error
        return None
    core: ModuleType = _core
    if out_of_date(core):
        if wanted == "compiled":
            raise ImportError(
                "PAYME_SOLVER=compiled, but the solver's compiled core was built from an older "
                f"payme/solver/_core.c: {_REBUILD}"
            )
        global STALE
        STALE = True
        return None
    return core


CORE: Final = _load()
"""The compiled core module (``None``: the pure-Python searches run)."""


def _load_layoff() -> ModuleType | None:
    """The lay-off search's compiled heart (``payme/solver/_layoff_core.c``, a module of its
    own), or ``None`` when :mod:`payme.layoff` searches in Python: where the solver's core
    does not run (``PAYME_SOLVER=python``, or not built) or this module is not built or out
    of date.  Both searches give the same answers."""
    if CORE is None:
        return None
    try:
        from payme.solver import _layoff_core
    except ImportError:
        return None
    core: ModuleType = _layoff_core
    return None if out_of_date(core, _SOURCE.with_name("_layoff_core.c")) else core


LAYOFF_CORE: Final = _load_layoff()
"""The lay-off search's compiled heart (``None``: the Python search runs)."""

STATE_BITS: Final = int(CORE.STATE_BITS) if CORE is not None else 0
"""The widest packed state the compiled core holds; a wider one is searched in Python."""


def solver_backend() -> Backend:
    """Which core runs the solver's searches in this process: ``"compiled"`` or ``"python"``.

    Both give the same answers.  ``PAYME_SOLVER=python`` (set before payme is imported)
    forces the pure-Python one.

    >>> import payme
    >>> payme.solver_backend() in ("compiled", "python")
    True
    """
    return "compiled" if CORE is not None else "python"


def describe() -> str:
    """One line on the core in use, printed once by the install (``make``).

    >>> describe().startswith("payme: the solver's")
    True
    """
    if CORE is not None:
        if LAYOFF_CORE is None:
            return (
                "payme: the solver's compiled core is built and runs; the lay-off search's "
                "(_layoff_core.c) is not built or out of date, so lay-offs are searched in "
                f"Python, with the same answers, slower ({_REBUILD})."
            )
        return "payme: the solver's compiled core is built and runs."
    if os.environ.get("PAYME_SOLVER", "").strip().lower() == "python":
        return "payme: the solver's pure-Python core runs (PAYME_SOLVER=python)."
    if sys.platform == "emscripten":
        # A browser's Python (the static site): no compiled core can load there.
        return "payme: the solver's pure-Python core runs in this browser, with the same answers."
    if STALE:
        return (
            "payme: the solver's compiled core is out of date (built from an older _core.c): "
            f"the pure-Python core runs, with the same answers, slower; {_REBUILD}."
        )
    return (
        "payme: the solver's compiled core was not built (no C compiler at install?): the "
        "pure-Python core runs, with the same answers, slower. To build it, install a C "
        "compiler (gcc) and reinstall payme (make -B .venv/.installed)."
    )


__all__ = [
    "CORE",
    "LAYOFF_CORE",
    "STALE",
    "STATE_BITS",
    "Backend",
    "describe",
    "out_of_date",
    "solver_backend",
    "source_digest",
]
