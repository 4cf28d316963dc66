"""The kernel budget: at most K page kernels at once, at most R pages rendered at once, and no
kernel kept without a visitor.

Every page visit starts a kernel (about 55-75 MB, 175 MB for Analysis; see docs/app.md) and
runs the page's notebook in it while the server sends the page (seconds of CPU, see
docs/benchmarks.md).  Without limits
a burst of visits or of abandoned loads (a crawler, a link preview) could use up the machine's
memory, and many pages rendered together on a few cores would each take so long that their
browsers connected too late.  The server therefore

* admits a page visit only while fewer than K kernels run or are waiting to start; beyond that
  the visitor gets the busy page (HTTP 503, ``static/busy.html``), which retries by itself;
* renders at most R pages at once: a further visitor waits in line (first come, first
  served) for up to :data:`QUEUE_WAIT_S` seconds, then gets the busy page; a page's turn
  lasts until its websocket connects (at most :data:`OPEN_WAIT_S` after it was sent), since
  opening the page in the browser costs the server and the kernel work too;
* shuts a kernel down when its page has not connected ``MappingKernelManager.cull_idle_timeout``
  seconds (30 in ``voila.json``) after the page was sent, or has gone for that long (Jupyter's
  own culler, which leaves connected kernels alone; a kernel whose page is still being rendered
  is never culled, and the time counts from the end of the render); a page whose script runs but
  has not connected yet keeps its kernel by asking whether it is alive (up to
  :data:`MAX_CONNECT_S`); a page whose visitor hung up during the render loses its kernel at once;
* shuts a connected page's kernel down after ``idle_timeout`` seconds without activity (600:
  the page then says that the connection was lost, see ``static/connection.js``);
* renders a page only for a browser: a crawler or a plain GET gets the static landing page
  (:mod:`payme.app.visitors`), and a rendered page that has not spoken (asked whether its
  kernel is alive, or connected) :data:`FIRST_CONTACT_S` after its render gives its turn and
  its kernel back;
* counts the kernels' memory (:mod:`payme.app.memory`, sampled every second): a visit is
  admitted only while the kernels' memory leaves room for one more kernel
  (:data:`KERNEL_MB`) within ``memory_mb``, and a kernel over its own limit is ended;
* answers ``/payme/api/alive/<kernel id>`` so a page can tell when its kernel is gone.

K defaults to the fewer of what half the machine's memory holds at :data:`KERNEL_MB` a kernel
and :data:`KERNELS_PER_CORE` a core (:func:`default_max_kernels`), R to
:data:`RENDERS_PER_CORE` a core (:func:`default_max_renders`);
``payme app --PaymeVoila.max_kernels=N --PaymeVoila.max_renders=M`` sets them.

>>> budget = KernelBudget(max_kernels=2)
>>> first = budget.admit(running=1)
>>> budget.admit(running=1) is None      # one running and one being started: full
True
>>> first.release(); budget.admit(running=1) is not None
True
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime
import os
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from payme.app.memory import (
    SAMPLE_S,
    MemoryWatch,
    default_kernel_limit_mb,
    end_process_group,
    kernel_pid,
)

# Memory one page kernel is budgeted: the largest measured page kernel (Analysis, 175 MB
# after loading pandas and matplotlib) plus room for a simulation's table.
KERNEL_MB = 250
# The share of the machine's memory the page kernels may take together; the rest is for the
# server, the system and the kernels' peaks.
MEMORY_SHARE = 0.5
# Open pages one core serves: a click costs a page's kernel little next to the seconds a
# visitor thinks between clicks, so a dozen pages keep a core busy without making anyone wait
# long for an answer (the times: docs/benchmarks.md, "Measurements behind the code's
# settings").
KERNELS_PER_CORE = 12
# Pages rendered at once per core: a render (kernel start and the notebook's run) is CPU-bound,
# so more at once only makes each slower; two a core keep the core busy while a kernel starts.
RENDERS_PER_CORE = 2
# The fewest and the most kernels the default allows.
MIN_KERNELS, MAX_KERNELS = 2, 200
# How long a visitor waits in line for a render before getting the busy page instead.
QUEUE_WAIT_S = 10.0
# How long a page's turn lasts after its render while the page has not connected: its browser
# still loads Voilà's scripts and asks the kernel for every widget, work for the same cores.
OPEN_WAIT_S = 20.0
# How long after its render a page whose script runs may keep its kernel without connecting.
MAX_CONNECT_S = 300.0
# How long after its render a page may stay silent (no question from its connection.js, no
# websocket) before its render turn and its kernel are given back: a browser asks within a
# second of receiving the page's head (it asks twice a second until answered), so silence
# means a client that does not run the page (a crawler, a script, a link preview).
FIRST_CONTACT_S = 5.0
# How long after its render a silent page keeps its render turn: a browser's first question
# usually comes before the render ends (the page's head arrives first), so a page still silent
# by then passes its turn on, and keeps its kernel until FIRST_CONTACT_S.
SILENT_TURN_S = 1.0
STATIC = Path(__file__).resolve().parent / "static"
# The busy page asks the browser to come back after this many seconds.
RETRY_AFTER_S = 5

if TYPE_CHECKING:
    from payme.app.spare import SparePool


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


def cpu_count() -> int:
    """The cores this process may use (its affinity where known).

    >>> cpu_count() >= 1
    True
    """
    with contextlib.suppress(AttributeError, OSError):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def default_max_kernels(memory_mb: int | None = None, cores: int | None = None) -> int:
    """How many page kernels the machine holds: the fewer of what fits in :data:`MEMORY_SHARE`
    of ``memory_mb`` and :data:`KERNELS_PER_CORE` times ``cores`` (the machine's by default).

    >>> default_max_kernels(24_000, 2), default_max_kernels(24_000, 8)   # CPU, then memory
    (24, 48)
    >>> default_max_kernels(4096, 8), default_max_kernels(512, 1)
    (8, 2)
    """
    memory_mb = total_memory_mb() if memory_mb is None else memory_mb
    cores = cpu_count() if cores is None else cores
    by_cpu = KERNELS_PER_CORE * cores
    by_memory = by_cpu if memory_mb is None else int(memory_mb * MEMORY_SHARE // KERNEL_MB)
    return max(MIN_KERNELS, min(MAX_KERNELS, by_memory, by_cpu))


def default_max_renders(cores: int | None = None) -> int:
    """How many pages are rendered at once: :data:`RENDERS_PER_CORE` a core.

    >>> default_max_renders(2), default_max_renders(1)
    (4, 2)
    """
    return RENDERS_PER_CORE * (cpu_count() if cores is None else cores)


class Reservation:
    """A visit's claim on one kernel of the budget, from admission until its kernel runs."""

    def __init__(self, budget: KernelBudget) -> None:
        self.budget = budget
        self.held = True
        self.kernel_id: str | None = None

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
    """At most ``max_kernels`` kernels running or being started, and at most ``max_renders``
    pages being rendered (the others wait in line, first come first served).

    >>> budget = KernelBudget(max_kernels=24, max_renders=4)
    >>> budget.rendering, budget.queued    # pages being rendered, visitors in line
    (0, 0)

    (tests/test_app_budget.py runs the line with visitors.)
    """

    def __init__(
        self,
        max_kernels: int,
        max_renders: int = 1_000_000,
        queue_wait_s: float = QUEUE_WAIT_S,
        memory_mb: float | None = None,
    ) -> None:
        if max_kernels < 1:
            raise ValueError(f"max_kernels must be 1 or more, not {max_kernels}")
        if max_renders < 1:
            raise ValueError(f"max_renders must be 1 or more, not {max_renders}")
        self.max_kernels = max_kernels
        self.max_renders = max_renders
        self.queue_wait_s = queue_wait_s
        self.first_contact_s = FIRST_CONTACT_S
        # The memory all kernels may use together (MB; None: no limit), and what they use
        # (payme.app.memory measures it every second).
        self.memory_mb = memory_mb
        self.memory_used: Callable[[], float] = lambda: 0.0
        self.starting = 0
        self.rendering = 0
        self._line: collections.deque[asyncio.Future[None]] = collections.deque()
        # Kernels whose page is being rendered: never culled meanwhile.
        self.rendering_kernels: set[str] = set()
        # Kernels whose page was sent but has not connected yet: when it was sent (monotonic).
        self.awaiting: dict[str, float] = {}
        # Kernels being shut down (their websockets are refused at once).
        self.stopping: set[str] = set()
        # Kernels whose page was sent and still holds its turn until it connects.
        self.opening: dict[str, asyncio.TimerHandle] = {}
        # Kernels whose page has spoken: asked whether its kernel is alive, or connected.
        self.heard: set[str] = set()
        # The kernels started ahead of visits (payme.app.spare): no page's yet, so a visit
        # may take one even when they make K.
        self.spare_ids: Callable[[], set[str]] = set

    def pages(self, kernel_ids: Iterable[str]) -> int:
        """How many of ``kernel_ids`` are pages' kernels (not spares)."""
        return len(set(kernel_ids) - self.spare_ids())

    @property
    def queued(self) -> int:
        """Visitors waiting in line for a render."""
        return len(self._line)

    def admit(self, running: int) -> Reservation | None:
        """A reservation if one more kernel fits next to ``running`` ones, else ``None``."""
        if running + self.starting >= self.max_kernels:
            return None
        if self.memory_mb is not None and (
            self.memory_used() + (self.starting + 1) * KERNEL_MB > self.memory_mb
        ):
            return None
        self.starting += 1
        return Reservation(self)

    async def render_slot(self, timeout: float, gone: asyncio.Future[None] | None = None) -> bool:
        """Wait (up to ``timeout`` s, or until ``gone`` is done) for a turn to render a page;
        whether it came.  A caller that got one gives it back with :meth:`end_render`."""
        if self.rendering < self.max_renders and not self._line:
            self.rendering += 1
            return True
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._line.append(turn)
        waits: set[asyncio.Future[None]] = {turn} if gone is None else {turn, gone}
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if turn.done():  # handed over by end_render (it stays counted in ``rendering``)
            return True
        self._line.remove(turn)
        return False

    def hold_until_connected(self, kernel_id: str, seconds: float = OPEN_WAIT_S) -> None:
        """Keep a sent page's turn until :meth:`page_opened` (its websocket connected, or its
        kernel went) or for ``seconds``, whichever comes first."""
        loop = asyncio.get_running_loop()
        self.opening[kernel_id] = loop.call_later(seconds, self.page_opened, kernel_id)

    def page_opened(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` no longer holds a turn (if it did): pass it on."""
        handle = self.opening.pop(kernel_id, None)
        if handle is not None:
            handle.cancel()
            self.end_render()

    def end_render(self) -> None:
        """A page is sent (or failed): hand its turn to the first in line, else free it."""
        while self._line:
            turn = self._line.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.rendering -= 1


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


def touch(kernel_manager: Any, kernel_id: str) -> None:
    """Count now as the kernel's last activity (what Jupyter's culler measures idleness from)."""
    with contextlib.suppress(KeyError):
        kernel_manager.get_kernel(kernel_id).last_activity = datetime.datetime.now(datetime.UTC)


def _busy_page(handler: Any, why: str) -> None:
    budget: KernelBudget = handler.settings["payme_budget"]
    handler.log.warning(
        "payme: busy page for %s (%s; %d kernels of %d, %d rendering of %d, %d in line)",
        handler.request.path,
        why,
        len(handler.kernel_manager.list_kernel_ids()) + budget.starting,
        budget.max_kernels,
        budget.rendering,
        budget.max_renders,
        budget.queued,
    )
    handler.set_status(503)
    handler.set_header("Retry-After", str(RETRY_AFTER_S))
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    handler.set_header("Cache-Control", "no-store")
    handler.finish((STATIC / "busy.html").read_bytes())


# Shutdowns started from a timer: held until done (the loop keeps only weak references).
_background: set[asyncio.Future[Any]] = set()


def budget_handlers(render_handler: Any) -> tuple[type, type]:
    """The page handler under the budget (a subclass of Voilà's ``render_handler``) and the
    handler of ``/payme/api/alive/<kernel id>``."""
    import tornado.web
    from jupyter_core.utils import ensure_async
    from jupyter_server.base.handlers import JupyterHandler

    from payme.app.visitors import is_crawler, shell_page, will_run_page

    class BudgetedPageHandler(render_handler):  # type: ignore[misc]
        """Voilà's page handler, under the kernel budget and the line for renders."""

        _gone: asyncio.Future[None] | None = None

        def on_connection_close(self) -> None:
            # The visitor hung up (a closed tab, a crawler's time-out).
            if self._gone is not None and not self._gone.done():
                self._gone.set_result(None)
            super().on_connection_close()

        async def _budgeted(self, path: str | None) -> None:
            budget: KernelBudget = self.settings["payme_budget"]
            reservation = budget.admit(budget.pages(self.kernel_manager.list_kernel_ids()))
            if reservation is None:
                _busy_page(self, "kernel budget full")
                return
            self._gone = asyncio.get_running_loop().create_future()
            if not await budget.render_slot(budget.queue_wait_s, self._gone):
                reservation.release()
                if not self._gone.done():
                    _busy_page(self, "too many pages being rendered")
                return
            token = current_reservation.set(reservation)
            try:
                if not self._gone.done():
                    await super().get(path)
            finally:
                reservation.release()
                current_reservation.reset(token)
                kernel_id = reservation.kernel_id
                if kernel_id is None or self._gone.done() or self._connected(kernel_id):
                    budget.end_render()
                else:
                    budget.hold_until_connected(kernel_id)
                if kernel_id is not None:
                    await self._rendered(budget, kernel_id)

        def _connected(self, kernel_id: str) -> bool:
            return bool(self.kernel_manager._kernel_connections.get(kernel_id, 0) > 0)

        async def get(self, path: str | None = None) -> None:
            if path is not None and ("\x00" in path or len(path) > 1000):
                raise tornado.web.HTTPError(404)  # Voilà's own handler answers 500
            if not will_run_page(self.request.headers, self.request.cookies) and path:
                with contextlib.suppress(Exception):  # unknown: Voilà's own answer (404)
                    if await ensure_async(self.contents_manager.file_exists(path)):
                        self._shell()
                        return
            await self._budgeted(path)

        def _shell(self) -> None:
            """The static landing page instead of a render: a client that will not run the
            page (a crawler, a script; :mod:`payme.app.visitors`)."""
            crawler = is_crawler(self.request.headers.get("User-Agent"))
            self.log.info(
                "payme: %s for %s: the static page, no kernel",
                "crawler" if crawler else "no browser",
                self.request.path,
            )
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.set_header("Cache-Control", "no-store")
            self.set_header("Vary", "User-Agent, Sec-Fetch-Mode, Cookie")
            self.finish(shell_page(self.base_url, reload=not crawler))

        async def _rendered(self, budget: KernelBudget, kernel_id: str) -> None:
            budget.rendering_kernels.discard(kernel_id)
            if self._gone is not None and self._gone.done():
                # Nobody will connect to this page: free its kernel now, not after the grace.
                self.log.info("payme: visitor left during the render; shutting down %s", kernel_id)
                with contextlib.suppress(KeyError, tornado.web.HTTPError):
                    await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
                return
            # The time a page has to connect counts from now, the end of its render.
            touch(self.kernel_manager, kernel_id)
            if not self._connected(kernel_id):
                budget.awaiting[kernel_id] = time.monotonic()
                loop = asyncio.get_running_loop()
                loop.call_later(
                    min(SILENT_TURN_S, budget.first_contact_s),
                    self._turn_if_silent,
                    budget,
                    kernel_id,
                )
                loop.call_later(budget.first_contact_s, self._if_silent, budget, kernel_id)

        def _turn_if_silent(self, budget: KernelBudget, kernel_id: str) -> None:
            """A page silent :data:`SILENT_TURN_S` after its render passes its turn on."""
            if kernel_id not in budget.heard and not self._connected(kernel_id):
                budget.page_opened(kernel_id)

        def _if_silent(self, budget: KernelBudget, kernel_id: str) -> None:
            """A page that has not spoken :data:`FIRST_CONTACT_S` after its render: give its
            render turn and its kernel back (its client does not run pages)."""
            if kernel_id in budget.heard or kernel_id not in self.kernel_manager:
                return
            if self._connected(kernel_id) or kernel_id in budget.stopping:
                return
            self.log.info(
                "payme: the page of kernel %s did not speak within %.0f s of its render; "
                "shutting it down",
                kernel_id,
                budget.first_contact_s,
            )
            budget.page_opened(kernel_id)
            stop = ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
            task = asyncio.ensure_future(stop)
            _background.add(task)
            task.add_done_callback(_background.discard)

    class AliveHandler(JupyterHandler):
        """``{"alive": true|false}`` for a kernel id: whether the page's kernel still runs.

        Asking does not count as kernel activity, except for a page that has not connected yet
        (its script runs, so its websocket is on the way): then it keeps the kernel from being
        culled, for up to :data:`MAX_CONNECT_S` after the page was sent.
        """

        def get(self, kernel_id: str) -> None:
            budget: KernelBudget = self.settings["payme_budget"]
            if kernel_id in self.kernel_manager:
                budget.heard.add(kernel_id)
            sent = budget.awaiting.get(kernel_id)
            if sent is not None and time.monotonic() - sent < MAX_CONNECT_S:
                touch(self.kernel_manager, kernel_id)
            self.set_header("Cache-Control", "no-store")
            alive = kernel_id in self.kernel_manager and kernel_id not in budget.stopping
            self.finish({"alive": alive})

    return BudgetedPageHandler, AliveHandler


def default_memory_mb(memory_mb: int | None = None) -> float | None:
    """The memory the kernels may use together: :data:`MEMORY_SHARE` of the machine's.

    >>> default_memory_mb(24_000)
    12000.0
    """
    memory_mb = total_memory_mb() if memory_mb is None else memory_mb
    return None if memory_mb is None else memory_mb * MEMORY_SHARE


def watch_kernel_manager(
    kernel_manager: Any,
    budget: KernelBudget,
    idle_timeout: float,
    log: Any,
    spares: SparePool | None = None,
    kernel_memory_mb: float | None = None,
) -> None:
    """Hook the budget into the kernel manager: give a visit a spare kernel if one fits
    (``spares``), release a visit's reservation once its kernel runs, keep the culler off
    kernels whose page is being rendered and off spares, note connections and shutdowns, and
    start the connected-idle culler and the memory watch (:mod:`payme.app.memory`: a kernel
    over ``kernel_memory_mb`` is ended) with the first kernel (the event loop runs by then)."""
    from jupyter_core.utils import ensure_async
    from tornado.ioloop import PeriodicCallback

    start_original = kernel_manager.start_kernel
    shutdown_original = kernel_manager.shutdown_kernel
    cull_original = kernel_manager.cull_kernel_if_idle
    connect_original = kernel_manager.notify_connect
    culler: list[PeriodicCallback] = []
    limit_mb = kernel_memory_mb or default_kernel_limit_mb()

    def end(kernel_id: str, used_mb: float) -> None:
        log.warning(
            "payme: kernel %s uses %.0f MB, over its limit of %.0f MB; ending it",
            kernel_id,
            used_mb,
            limit_mb,
        )
        pid = kernel_pid(kernel_manager, kernel_id)
        if pid is not None:
            end_process_group(pid)
        task = asyncio.ensure_future(stop(kernel_id))
        _background.add(task)
        task.add_done_callback(_background.discard)

    async def stop(kernel_id: str) -> None:
        with contextlib.suppress(Exception):  # gone meanwhile (the restarter saw it die)
            await shutdown_kernel(kernel_id, now=True)

    memory = MemoryWatch(kernel_manager, limit_mb, end)
    budget.memory_used = lambda: memory.total_mb

    async def cull() -> None:
        for kernel_id in idle_connected(kernel_manager, idle_timeout):
            log.info("payme: shutting down kernel %s, idle for %s s", kernel_id, idle_timeout)
            with contextlib.suppress(KeyError):  # already gone
                await ensure_async(kernel_manager.shutdown_kernel(kernel_id))

    async def start_kernel(*args: Any, **kwargs: Any) -> str:
        reservation = current_reservation.get()
        try:
            spare = None
            if spares is not None and not args:
                env = kwargs.get("env") or {}
                spare = await spares.take(kwargs.get("kernel_name"), kwargs.get("path"), env)
            kernel_id: str = (
                spare if spare is not None else await ensure_async(start_original(*args, **kwargs))
            )
        finally:
            if reservation is not None:
                reservation.release()
        if reservation is not None:
            reservation.kernel_id = kernel_id
            budget.rendering_kernels.add(kernel_id)
        if not culler:
            interval_ms = max(1000.0, min(60_000.0, idle_timeout * 1000 / 10))
            culler.append(PeriodicCallback(cull, interval_ms))
            culler.append(PeriodicCallback(memory.sample, SAMPLE_S * 1000))
            for callback in culler:
                callback.start()
        return kernel_id

    async def shutdown_kernel(kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        budget.stopping.add(kernel_id)
        try:
            return await ensure_async(shutdown_original(kernel_id, *args, **kwargs))
        finally:
            budget.stopping.discard(kernel_id)
            budget.heard.discard(kernel_id)
            budget.awaiting.pop(kernel_id, None)
            budget.rendering_kernels.discard(kernel_id)
            budget.page_opened(kernel_id)
            if spares is not None:
                spares.forget(kernel_id)

    async def cull_kernel_if_idle(kernel_id: str) -> None:
        if kernel_id in budget.rendering_kernels:
            return  # its page is still being sent: the grace starts when it is
        if spares is not None and spares.is_spare(kernel_id):
            return  # started ahead for the next visit: it has no page by design
        await cull_original(kernel_id)

    def notify_connect(kernel_id: str) -> None:
        budget.heard.add(kernel_id)
        budget.awaiting.pop(kernel_id, None)
        budget.page_opened(kernel_id)
        connect_original(kernel_id)

    kernel_manager.start_kernel = start_kernel
    kernel_manager.shutdown_kernel = shutdown_kernel
    kernel_manager.cull_kernel_if_idle = cull_kernel_if_idle
    kernel_manager.notify_connect = notify_connect
