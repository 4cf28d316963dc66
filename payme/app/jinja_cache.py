"""Compile the page templates once per server, not once per page view.

Voilà builds a new nbconvert exporter, and with it a new Jinja environment, for every page it
renders, so every view parsed and compiled the whole template chain (the payme template,
Voilà's lab and base templates, nbconvert's) again: about a quarter of a second of the
server's CPU before the page's first byte.  Jinja's bytecode cache is the documented way to
keep compiled templates between environments; :class:`MemoryBytecodeCache` keeps them in
this process.  A bucket is keyed by the template's name and file and checked against the
source's checksum, so an edited template is compiled afresh.

>>> from jinja2 import DictLoader, Environment
>>> cache = MemoryBytecodeCache()
>>> def render() -> str:
...     env = Environment(loader=DictLoader({"t": "Hello {{ name }}"}), bytecode_cache=cache)
...     return env.get_template("t").render(name="you")
>>> render(), len(cache), render()
('Hello you', 1, 'Hello you')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

__all__ = ["MemoryBytecodeCache", "add_setup", "install"]


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates kept in memory, shared by every Jinja environment given it."""

    def __init__(self) -> None:
        self._store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        data = self._store.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._store[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._store.clear()

    def __len__(self) -> int:
        return len(self._store)


_CACHE = MemoryBytecodeCache()
# Further set-up of each environment (e.g. payme.app.front_end's template variable).
_SETUPS: list[Callable[[Any], None]] = []


def add_setup(setup: Callable[[Any], None]) -> None:
    """Have :func:`install`'s hook also call ``setup(environment)`` on every new Jinja
    environment (once per function)."""
    if setup not in _SETUPS:
        _SETUPS.append(setup)


def install() -> None:
    """Give every Voilà exporter's Jinja environment the process's shared cache, and the
    set-ups of :func:`add_setup` (idempotent)."""
    from voila.exporter import VoilaExporter

    if getattr(VoilaExporter, "_payme_cached", False):
        return
    create = VoilaExporter._create_environment

    def _create_environment(self: Any) -> Any:
        environment = create(self)
        environment.bytecode_cache = _CACHE
        for setup in _SETUPS:
            setup(environment)
        return environment

    VoilaExporter._create_environment = _create_environment
    VoilaExporter._payme_cached = True
