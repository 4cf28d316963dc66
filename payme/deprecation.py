"""Old names and fields kept for one release after a change, each with a ``DeprecationWarning``.

Every deprecation in payme warns through :func:`deprecated`, so each says the same thing the
same way: what is deprecated, when it goes, and what to use instead.  A module that renamed a
public name sets its ``__getattr__`` (called only for names it does not have) from
:func:`renamed`; a class attribute whose fact moved elsewhere is a :class:`moved_attribute`.

>>> import warnings
>>> old = renamed("payme.solver", {"GoOut": "payme.solver:GoOutCheck"})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     old("GoOut").__name__, str(caught[0].message)
('GoOutCheck', 'payme.solver.GoOut is deprecated (removal in 0.4): use payme.solver.GoOutCheck')
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Final

REMOVAL: Final = "0.4"
"""The release that removes what is deprecated now."""


def deprecated(old: str, instead: str, *, stacklevel: int = 2) -> None:
    """Warn that ``old`` is deprecated, saying what to do ``instead``; ``stacklevel`` counts
    from the caller of this function (2: the code that called the caller).

    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     deprecated("Ruleset.twos_wild", "read wild_ranks")
    >>> str(caught[0].message)
    'Ruleset.twos_wild is deprecated (removal in 0.4): read wild_ranks'
    """
    warnings.warn(
        f"{old} is deprecated (removal in {REMOVAL}): {instead}",
        DeprecationWarning,
        stacklevel=stacklevel + 1,
    )


def renamed(module: str, names: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` giving each old name of ``names`` (old -> ``"module:new"``)
    with a warning that says what to use instead; any other name is an ``AttributeError``."""

    def __getattr__(name: str) -> object:
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        where, _, new = target.partition(":")
        deprecated(f"{module}.{name}", f"use {where}.{new}")
        return getattr(importlib.import_module(where), new)

    return __getattr__


class moved_attribute:
    """A class attribute kept for one release after its fact moved elsewhere: reading it
    gives the old value with a ``DeprecationWarning`` that says where to read it now.

    >>> class Game:
    ...     CALL = moved_attribute("Pay me!", "Game.CALL", "read rules.go_out_call")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Game.CALL, str(caught[0].message)
    ('Pay me!', 'Game.CALL is deprecated (removal in 0.4): read rules.go_out_call')
    """

    def __init__(self, value: str, old: str, instead: str) -> None:
        self.value = value
        self.old = old
        self.instead = instead

    def __get__(self, obj: object, owner: type | None = None) -> str:
        deprecated(self.old, self.instead)
        return self.value


__all__ = ["REMOVAL", "deprecated", "moved_attribute", "renamed"]
