"""Spare kernels: a page's kernel started before its visitor asks for it.

A page visit waits for a new kernel before its notebook can run: the process starts, imports
ipykernel and binds its sockets, then the page's modules are imported, 0.5-1.3 s of the page's
first control on two cores shared with the visitor's browser (docs/app.md, "Speed").  The
server therefore keeps :data:`SPARE_KERNELS` kernel started ahead (``payme app
--PaymeVoila.spare_kernels=N``; 0 turns them off), and a visit takes one instead of starting
its own:

* a spare is started with the server's environment; what belongs to the visit (the page's
  query string, Voilà's URLs) is written to a file when the visit takes it, which the kernel
  reads before the page's first cell (:mod:`payme.app.kernel`); meanwhile the kernel has
  imported what every page imports;
* only a visit that asks for the same kernel spec and folder as the spare's takes it (any
  other starts its own kernel, as before, and the next spare is started for it); a spare still
  starting is waited for, since it is further along than a new kernel would be;
* the next spare is started once no page is being rendered or waits for its browser to
  connect (and at least :data:`REFILL_DELAY_S` after a visit took one), so that it does not
  compete with a page on its way to the visitor;
* spares count among the K kernels of the budget (:mod:`payme.app.budget`): one is started
  only while fewer than K kernels run, and a visit may take it when K page kernels do not
  run yet; Jupyter's culler leaves spares alone (they have no page by design);
* Voilà's own pool (``--preheat_kernel``) turns them off: it already starts kernels ahead.

>>> pool = SparePool(kernel_manager=None, size=0)
>>> pool.spares, pool.is_spare("any-kernel-id")
(set(), False)
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import os
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from payme.app.kernel import VISIT_FILE

# Kernels kept started ahead of visits.  One serves a visitor at a time; each costs the
# memory of an idle page kernel (about 75 MB), held while nobody visits.
SPARE_KERNELS = 1
# Seconds after a visit took a spare before the next one may start; it starts once no page
# is being rendered or waits for its browser to connect (the visit's own page included).
REFILL_DELAY_S = 0.5
# How often a refill waiting for the renders to end looks again.
REFILL_POLL_S = 0.1
# The kernel spec and folder the first spare is started for (the app's notebooks are in the
# root of the folder it serves); later spares follow the visits.
FIRST_KEY = ("python3", "")


class SparePool:
    """Kernels started ahead of visits, each taken by one visit (see the module's notes).

    ``start_kernel`` is the kernel manager's own (unwrapped) start; ``room()`` says whether
    one more kernel fits the budget and ``quiet()`` whether no page is being rendered.
    """

    def __init__(
        self,
        kernel_manager: Any,
        size: int = SPARE_KERNELS,
        *,
        start_kernel: Callable[..., Awaitable[str]] | None = None,
        room: Callable[[], bool] = lambda: True,
        quiet: Callable[[], bool] = lambda: True,
        log: Any = None,
        refill_delay: float = REFILL_DELAY_S,
    ) -> None:
        self.kernel_manager = kernel_manager
        self.size = size
        self.start_kernel = start_kernel
        self.room, self.quiet = room, quiet
        self.log = log
        self.refill_delay = refill_delay
        self.key = FIRST_KEY
        # Started spares not taken yet, oldest first; the ones being started.
        self.ready: list[str] = []
        self.starting: set[asyncio.Task[str | None]] = set()
        self._refill: asyncio.TimerHandle | None = None
        # Spare kernels and the visit files they will read.
        self._files: dict[str, Path] = {}
        self._stopping: set[asyncio.Task[None]] = set()

    @property
    def spares(self) -> set[str]:
        """The ids of the started kernels no visit has taken yet."""
        return set(self.ready)

    def is_spare(self, kernel_id: str) -> bool:
        """Whether ``kernel_id`` is a spare no visit has taken yet."""
        return kernel_id in self.ready

    async def take(
        self, kernel_name: str | None, path: str | None, env: dict[str, str]
    ) -> str | None:
        """A spare kernel for a visit (its variables ``env`` handed over), or ``None``: no spare
        fits the visit's kernel spec and folder, or none is left."""
        key = (kernel_name or FIRST_KEY[0], path or "")
        if key != self.key:
            self.key = key  # the next spares are started for visits like this one
            self._drop_all()
            self.refill_later(0.0)
            return None
        if not self.ready and self.starting:
            with contextlib.suppress(Exception):
                await asyncio.wait(self.starting, return_when=asyncio.FIRST_COMPLETED)
        while self.ready:
            kernel_id = self.ready.pop(0)
            if kernel_id not in self.kernel_manager:
                self._files.pop(kernel_id, None)
                continue  # it died while it waited
            self._hand_over(kernel_id, env)
            self.refill_later(self.refill_delay)
            return kernel_id
        self.refill_later(self.refill_delay)
        return None

    def _hand_over(self, kernel_id: str, env: dict[str, str]) -> None:
        path = self._files[kernel_id]  # the kernel deletes it; forget() if it never does
        own = dict(os.environ)
        visit = {k: v for k, v in env.items() if own.get(k) != v}
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as file:
            json.dump({"env": visit}, file)
        # Jupyter's culler measures idleness from this: the visit's time starts now.
        kernel = self.kernel_manager.get_kernel(kernel_id)
        kernel.last_activity = datetime.datetime.now(datetime.UTC)
        if self.log:
            self.log.info("payme: a visit takes spare kernel %s", kernel_id)

    def refill_later(self, delay: float) -> None:
        """Start spares up to :attr:`size` after ``delay`` s, once no page is rendering."""
        if self.size <= 0 or self._refill is not None:
            return
        loop = asyncio.get_running_loop()
        self._refill = loop.call_later(delay, self._refill_now)

    def _refill_now(self) -> None:
        self._refill = None
        missing = self.size - len(self.ready) - len(self.starting)
        if missing <= 0:
            return
        if not self.quiet():
            self.refill_later(REFILL_POLL_S)
            return
        if not self.room():
            return  # the budget is full: the next visit that ends makes room
        task = asyncio.ensure_future(self._start_one())
        self.starting.add(task)
        task.add_done_callback(self._started)
        if missing > 1:
            self.refill_later(REFILL_POLL_S)

    async def _start_one(self) -> str | None:
        assert self.start_kernel is not None
        kernel_name, path = self.key
        runtime = Path(getattr(self.kernel_manager, "connection_dir", "") or ".")
        visit_file = runtime / f"payme-visit-{secrets.token_hex(8)}.json"
        env = {**os.environ, VISIT_FILE: str(visit_file), "VOILA_PREHEAT": "False"}
        try:
            kernel_id = await self.start_kernel(kernel_name=kernel_name, path=path, env=env)
        except Exception as error:  # a spare that cannot start must not stop the server
            if self.log:
                self.log.warning("payme: a spare kernel did not start: %s", error)
            return None
        self._files[kernel_id] = visit_file
        if (kernel_name, path) != self.key:  # the visits moved on meanwhile
            await self._shut_down(kernel_id)
            return None
        self.ready.append(kernel_id)
        if self.log:
            self.log.info("payme: spare kernel %s started", kernel_id)
        return kernel_id

    def _started(self, task: asyncio.Task[str | None]) -> None:
        self.starting.discard(task)

    def forget(self, kernel_id: str) -> None:
        """``kernel_id`` is shut down: drop it, and its visit file if no kernel read it; its
        place in the budget may now take a spare."""
        with contextlib.suppress(ValueError):
            self.ready.remove(kernel_id)
        path = self._files.pop(kernel_id, None)
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()
        with contextlib.suppress(RuntimeError):  # no event loop runs: nothing to schedule
            self.refill_later(self.refill_delay)

    def _drop_all(self) -> None:
        for kernel_id in list(self.ready):
            task = asyncio.ensure_future(self._shut_down(kernel_id))
            self._stopping.add(task)  # held until done (the loop keeps only weak references)
            task.add_done_callback(self._stopping.discard)

    async def _shut_down(self, kernel_id: str) -> None:
        self.forget(kernel_id)
        with contextlib.suppress(Exception):
            await self.kernel_manager.shutdown_kernel(kernel_id)
