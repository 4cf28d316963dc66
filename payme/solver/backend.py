"""Which core runs the solver's searches: the compiled one or the pure-Python reference.

The searches of :mod:`payme.solver.search` and :mod:`payme.solver.natural` have a compiled
twin in ``payme/solver/_core.c`` (a C extension built at install when a C compiler is
there).  It makes the same moves in the same order, so every answer is the same (checked
on a million hands: ``python -m benchmarks.equality``); only the speed differs.  Where it
was not built, the pure-Python searches run.  The environment variable ``PAYME_SOLVER``
chooses, read once when the solver is first used: ``python`` forces the pure-Python core,
``compiled`` requires the compiled one (an error where it is missing), unset or ``auto``
takes the compiled core when it is there.

>>> solver_backend() in ("compiled", "python")
True
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Final, Literal

Backend = Literal["compiled", "python"]

_CHOICES: Final = ("auto", "compiled", "python")


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
    return core


CORE: Final = _load()
"""The compiled core module (``None``: the pure-Python searches run)."""

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
        return "payme: the solver's compiled core is built and runs."
    if os.environ.get("PAYME_SOLVER", "").strip().lower() == "python":
        return "payme: the solver's pure-Python core runs (PAYME_SOLVER=python)."
    return (
        "payme: the solver's compiled core was not built (no C compiler at install?): the "
        "pure-Python core runs, with the same answers, slower. To build it, install a C "
        "compiler (gcc) and reinstall payme (make -B .venv/.installed)."
    )


__all__ = ["CORE", "STATE_BITS", "Backend", "describe", "solver_backend"]
