"""A bounded memo of recent answers that never stops to grow or clear a large table.

A memo held as a dict and bounded by deleting or clearing entries pauses now and then:
CPython makes a dict's table anew whenever its free room runs out, copying every entry
into fresh memory, and with hundreds of thousands of entries one such copy, or growing or
clearing the best layouts' dict, takes tens of milliseconds (docs/benchmarks.md,
*Measurements behind the code*).  Either lands inside whichever bot decision stored the
answer that set it off.

A :class:`RecentMemo` keeps two generations of at most ``size`` answers each: answers
go into the new one, and when it is full, it becomes the old one and the old one is
dropped whole.  An answer found only in the old generation is stored again in the new one,
so answers still in use survive.  No table ever holds more than ``size`` answers, so every
pause (making a table anew, dropping the old generation) is bounded by ``size`` and not by
how much the memo has seen; reading is one or two dict lookups.

Keys are bytes and answers bytes, ints or floats (see :mod:`payme.codes`), so the garbage
collector never tracks the tables: its full collections need not visit their entries.

>>> memo = RecentMemo(size=2)
>>> memo.put(b"a", b"1"); memo.put(b"b", b"2"); memo.put(b"c", b"3")
>>> memo.get(b"a"), memo.get(b"c"), len(memo)  # "a" is stored again, in the new one
(b'1', b'3', 4)
>>> memo.put(b"d", b"4"); memo.put(b"e", b"5")  # "a" was used again: it stays
>>> memo.get(b"a"), memo.get(b"b"), memo.get(b"c")
(b'1', None, None)
"""

from __future__ import annotations

import gc
from typing import Generic, TypeVar

V = TypeVar("V")  # the answers' type: bytes, ints or floats (anything else is tracked)


class RecentMemo(Generic[V]):
    """Answers by key, the most recent ``size`` to ``2 * size`` of them."""

    __slots__ = ("new", "old", "size")

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a memo holds at least 1 answer a generation, not {size}")
        self.size = size
        self.new: dict[bytes, V] = {}
        """The answers stored since the old generation was dropped (read it first)."""
        self.old: dict[bytes, V] = {}

    def get(self, key: bytes) -> V | None:
        """The answer stored for ``key``, or ``None`` if there is none (any more)."""
        known = self.new.get(key)
        if known is None:
            known = self.old.get(key)
            if known is not None:
                self.put(key, known)
        return known

    def put(self, key: bytes, answer: V) -> None:
        """Store ``answer`` for ``key`` in the new generation (full: it becomes the old)."""
        new = self.new
        if len(new) >= self.size:
            self.old = new
            self.new = new = {}
        new[key] = answer

    def __len__(self) -> int:
        """How many answers are held (an answer in both generations counts twice)."""
        return len(self.new) + len(self.old)

    def tracked(self) -> bool:
        """Whether the garbage collector walks the tables (never, with bytes and ints)."""
        return gc.is_tracked(self.new) or gc.is_tracked(self.old)

    def clear(self) -> None:
        self.new = {}
        self.old = {}


__all__ = ["RecentMemo"]
