"""Old names kept for one release after a rename, each with a ``DeprecationWarning``.

A module that renamed a public name sets its ``__getattr__`` (called only for names it
does not have) from :func:`renamed`:

>>> import warnings
>>> old = renamed("payme.solver", {"GoOut": "payme.solver:GoOutCheck"})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     old("GoOut").__name__, str(caught[0].message)
('GoOutCheck', 'payme.solver.GoOut is deprecated: use payme.solver.GoOutCheck')
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping


def renamed(module: str, names: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` giving each old name of ``names`` (old -> ``"module:new"``)
    with a warning that says what to use instead; any other name is an ``AttributeError``."""

    def __getattr__(name: str) -> object:
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        where, _, new = target.partition(":")
        warnings.warn(
            f"{module}.{name} is deprecated: use {where}.{new}", DeprecationWarning, stacklevel=2
        )
        return getattr(importlib.import_module(where), new)

    return __getattr__


class moved_attribute:
    """A class attribute kept for one release after its fact moved elsewhere: reading it
    gives the old value with a ``DeprecationWarning`` that says where to read it now.

    >>> class Game:
    ...     CALL = moved_attribute("Pay me!", "Game.CALL is deprecated: read rules.go_out_call")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Game.CALL, str(caught[0].message)
    ('Pay me!', 'Game.CALL is deprecated: read rules.go_out_call')
    """

    def __init__(self, value: str, message: str) -> None:
        self.value = value
        self.message = message

    def __get__(self, obj: object, owner: type | None = None) -> str:
        warnings.warn(self.message, DeprecationWarning, stacklevel=2)
        return self.value


__all__ = ["moved_attribute", "renamed"]
