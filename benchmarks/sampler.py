"""A measurement taken over and over in a thread while a benchmark runs (peak memory)."""

from __future__ import annotations

import threading
import time
from typing import Self


class Sampler:
    """Calls :meth:`sample` every :attr:`every` seconds in a thread of its own, from entering
    the ``with`` block to leaving it; a subclass keeps what it samples (a peak...)."""

    every = 0.2
    """Seconds between two samples."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> None:
        """One measurement (a subclass's own)."""
        raise NotImplementedError

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            time.sleep(self.every)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
