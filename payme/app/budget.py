"""The kernel budget: at most K page kernels at once, and none kept without a visitor.

Every page visit starts a kernel (about 55-75 MB, 175 MB for Analysis; see docs/app.md), so
without a limit a burst of visits or of abandoned loads (a crawler, a link preview) could use
up the machine's memory.  The server therefore

* admits a page visit only while fewer than K kernels run or are being started; beyond that
  the visitor gets the busy page (HTTP 503, ``static/busy.html``), which retries by itself;
* shuts a kernel down when its page never connects (or has gone) for
  ``MappingKernelManager.cull_idle_timeout`` seconds (30 in ``voila.json``: Jupyter's own
  culler, which leaves connected kernels alone);
* shuts a connected page's kernel down after ``idle_timeout`` seconds without activity (600:
  the page then says that the connection was lost, see ``static/connection.js``);
* answers ``/payme/api/alive/<kernel id>`` so a page can tell when its kernel is gone.

K defaults to what half the machine's memory holds at :data:`KERNEL_MB` a kernel
(:func:`default_max_kernels`); ``payme app --PaymeVoila.max_kernels=N`` sets it.

>>> budget = KernelBudget(max_kernels=2)
>>> first = budget.admit(running=1)
>>> budget.admit(running=1) is None      # one running and one being started: full
True
>>> first.release(); budget.admit(running=1) is not None
True
"""

from __future__ import annotations

import contextlib
import datetime
import os
from contextvars import ContextVar
from pathlib import Path
from typing import Any

# Memory one page kernel is budgeted: the largest measured page kernel (Analysis, 175 MB
# after loading pandas and matplotlib) plus room for a simulation's table.
KERNEL_MB = 250
# The share of the machine's memory the page kernels may take together; the rest is for the
# server, the system and the kernels' peaks.
MEMORY_SHARE = 0.5
# The fewest and the most kernels the default allows.
MIN_KERNELS, MAX_KERNELS = 2, 200
STATIC = Path(__file__).resolve().parent / "static"
# The busy page asks the browser to come back after this many seconds.
RETRY_AFTER_S = 5


def total_memory_mb() -> int | None:
    """The machine's memory in MB (``None`` where it cannot be read).

    >>> (total_memory_mb() or 1) > 0
    True
    """
    try:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    return int(pages * page_size // 2**20) if pages > 0 and page_size > 0 else None


def default_max_kernels(memory_mb: int | None = None) -> int:
    """How many page kernels fit in :data:`MEMORY_SHARE` of ``memory_mb`` (the machine's).

    >>> default_max_kernels(4096), default_max_kernels(24_000), default_max_kernels(512)
    (8, 48, 2)
    """
    memory_mb = total_memory_mb() if memory_mb is None else memory_mb
    if memory_mb is None:
        return MIN_KERNELS * 4
    fits = int(memory_mb * MEMORY_SHARE // KERNEL_MB)
    return max(MIN_KERNELS, min(MAX_KERNELS, fits))


class Reservation:
    """A visit's claim on one kernel of the budget, from admission until its kernel runs."""

    def __init__(self, budget: KernelBudget) -> None:
        self.budget = budget
        self.held = True

    def release(self) -> None:
        """Give the claim back (once): the kernel now counts among the running ones, or the
        visit ended without one."""
        if self.held:
            self.held = False
            self.budget.starting -= 1


# The reservation of the visit being served: set by the page handler, released by the
# kernel manager's start_kernel, which runs inside the same task.
current_reservation: ContextVar[Reservation | None] = ContextVar("payme_reservation", default=None)


class KernelBudget:
    """At most ``max_kernels`` kernels running or being started."""

    def __init__(self, max_kernels: int) -> None:
        if max_kernels < 1:
            raise ValueError(f"max_kernels must be 1 or more, not {max_kernels}")
        self.max_kernels = max_kernels
        self.starting = 0

    def admit(self, running: int) -> Reservation | None:
        """A reservation if one more kernel fits next to ``running`` ones, else ``None``."""
        if running + self.starting >= self.max_kernels:
            return None
        self.starting += 1
        return Reservation(self)


def idle_connected(kernel_manager: Any, idle_timeout: float) -> list[str]:
    """Kernels with a page connected but no activity for ``idle_timeout`` seconds."""
    now = datetime.datetime.now(datetime.UTC)
    found = []
    for kernel_id in list(kernel_manager.list_kernel_ids()):
        if kernel_manager._kernel_connections.get(kernel_id, 0) <= 0:
            continue  # Jupyter's culler handles these
        last = getattr(kernel_manager.get_kernel(kernel_id), "last_activity", None)
        if last is not None and (now - last).total_seconds() > idle_timeout:
            found.append(kernel_id)
    return found


def budget_handlers(render_handler: Any) -> tuple[type, type]:
    """The page handler under the budget (a subclass of Voilà's ``render_handler``) and the
    handler of ``/payme/api/alive/<kernel id>``."""
    import tornado.web
    from jupyter_server.base.handlers import JupyterHandler

    class BudgetedPageHandler(render_handler):  # type: ignore[misc]
        """Voilà's page handler, refusing with the busy page when the budget is full."""

        async def get(self, path: str | None = None) -> None:
            if path is not None and ("\x00" in path or len(path) > 1000):
                raise tornado.web.HTTPError(404)  # Voilà's own handler answers 500
            budget: KernelBudget = self.settings["payme_budget"]
            running = len(self.kernel_manager.list_kernel_ids())
            reservation = budget.admit(running)
            if reservation is None:
                self.log.warning(
                    "payme: %d kernels of %d in use: busy page for %s",
                    running + budget.starting,
                    budget.max_kernels,
                    self.request.path,
                )
                self.set_status(503)
                self.set_header("Retry-After", str(RETRY_AFTER_S))
                self.set_header("Content-Type", "text/html; charset=UTF-8")
                self.set_header("Cache-Control", "no-store")
                self.finish((STATIC / "busy.html").read_bytes())
                return
            token = current_reservation.set(reservation)
            try:
                await super().get(path)
            finally:
                reservation.release()
                current_reservation.reset(token)

    class AliveHandler(JupyterHandler):
        """``{"alive": true|false}`` for a kernel id: whether the page's kernel still runs.

        It reads the kernel manager only, so asking does not count as kernel activity.
        """

        def get(self, kernel_id: str) -> None:
            self.set_header("Cache-Control", "no-store")
            self.finish({"alive": kernel_id in self.kernel_manager})

    return BudgetedPageHandler, AliveHandler


def watch_kernel_manager(kernel_manager: Any, idle_timeout: float, log: Any) -> None:
    """Release a visit's reservation once its kernel runs, and start the connected-idle
    culler with the first kernel (the event loop runs by then)."""
    from jupyter_core.utils import ensure_async
    from tornado.ioloop import PeriodicCallback

    original = kernel_manager.start_kernel
    culler: list[PeriodicCallback] = []

    async def cull() -> None:
        for kernel_id in idle_connected(kernel_manager, idle_timeout):
            log.info("payme: shutting down kernel %s, idle for %s s", kernel_id, idle_timeout)
            with contextlib.suppress(KeyError):  # already gone
                await ensure_async(kernel_manager.shutdown_kernel(kernel_id))

    async def start_kernel(*args: Any, **kwargs: Any) -> str:
        try:
            kernel_id: str = await ensure_async(original(*args, **kwargs))
        finally:
            reservation = current_reservation.get()
            if reservation is not None:
                reservation.release()
        if not culler:
            interval_ms = max(1000.0, min(60_000.0, idle_timeout * 1000 / 10))
            culler.append(PeriodicCallback(cull, interval_ms))
            culler[0].start()
        return kernel_id

    kernel_manager.start_kernel = start_kernel
