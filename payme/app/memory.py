"""Each page kernel's memory: measured every second, limited, and counted in the budget.

A page's kernel holds 50-85 MB once its page is built and used, and Analysis up to about
800 MB with its two workers during its largest run on two cores (docs/app.md, "Security").
Nothing a page sends may make it grow much (the server refuses widgets opened by the page and
messages over 256 kB, :mod:`payme.app.sockets`), but should a kernel grow anyway, it must not
take the machine with it.  So the server

* reads the resident memory of every kernel, its child processes included (an Analysis run's
  worker processes), every :data:`SAMPLE_S` second from ``/proc``; forked workers share
  most of their pages with the kernel, so resident sets added up count those pages once per
  process: a kernel whose sum passes the limit is measured again by its proportional set
  size (``Pss``, each shared page divided among its sharers), which is what ends it or not
  (reading it is slow, so only then; figures: docs/benchmarks.md, *Measurements behind
  the code*);
* ends a kernel over its limit (:func:`default_kernel_limit_mb`, 1,200 MB on two cores;
  ``--PaymeVoila.kernel_memory_mb``): its
  process group is killed, the kernel is shut down without a restart, and its page says that
  the connection was lost (``static/connection.js``);
* gives the total to the budget, which admits a visit only while the kernels' memory leaves
  room for one more (:class:`payme.app.budget.KernelBudget`).

Between two samples a kernel could allocate a lot at once: each kernel also runs under an
address-space limit (``RLIMIT_AS``, :data:`ADDRESS_SPACE_MB`, set by :mod:`payme.app.kernel`
from :data:`LIMIT_ENV`), so one huge allocation fails with ``MemoryError`` instead.

>>> rss_mb(os.getpid()) > 1
True
>>> rss_mb(2**22 + 7)    # no such process
0.0
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# The memory a page's kernel may use with its workers, MB: a base, and as much again for each
# core, since an Analysis run forks one worker per core.  Measured (docs/app.md, bench_memory):
# every page but Analysis stays at 50-83 MB; Analysis's largest run (2,000 games, three rule
# sets compared) peaked at 814 MB resident, added up, with 2 workers (131 MB before the run).
KERNEL_BASE_MB = 400
WORKER_MB = 400
# How often the kernels are measured.
SAMPLE_S = 1.0
# The address space a kernel may map, MB: a backstop for a single allocation larger than
# the machine could hold.  A page kernel maps 0.9-1.6 GB (thread stacks and the arenas of
# numpy's and Python's allocators are mapped, not used).
ADDRESS_SPACE_MB = 4096
# The environment variable that tells a kernel its address-space limit in MB.
LIMIT_ENV = "PAYME_KERNEL_ADDRESS_SPACE_MB"


def default_kernel_limit_mb(cores: int | None = None) -> int:
    """The default memory limit of one page kernel: :data:`KERNEL_BASE_MB` and
    :data:`WORKER_MB` a core (this process's cores by default).

    >>> default_kernel_limit_mb(2), default_kernel_limit_mb(8)
    (1200, 3600)
    """
    if cores is None:
        from payme.app.budget import cpu_count

        cores = cpu_count()
    return KERNEL_BASE_MB + WORKER_MB * max(1, cores)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            found.extend(int(p) for p in task.read_text().split())
    return found


def _tree(pid: int) -> Iterator[int]:
    seen = {pid}
    todo = [pid]
    while todo:
        current = todo.pop()
        yield current
        for child in _children(current):
            if child not in seen:
                seen.add(child)
                todo.append(child)


def _proc_kb(pid: int, file: str, field: str) -> int | None:
    """The kB figure of ``field`` (``"VmRSS:"``) in ``/proc/<pid>/<file>``; ``None`` when the
    process is gone or the file has no such line."""
    try:
        for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def _own_rss_kb(pid: int) -> int:
    return _proc_kb(pid, "status", "VmRSS:") or 0


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` and all its descendants, MB (0 if gone); pages
    shared between them are counted in each (so an upper bound of :func:`pss_mb`)."""
    return sum(_own_rss_kb(p) for p in _tree(pid)) / 1024


def _own_pss_kb(pid: int) -> int:
    pss = _proc_kb(pid, "smaps_rollup", "Pss:")
    return _own_rss_kb(pid) if pss is None else pss


def pss_mb(pid: int) -> float:
    """The memory process ``pid`` and its descendants use together, MB: their proportional
    set sizes, a page shared by n of them counted 1/n in each.

    >>> 0 < pss_mb(os.getpid()) <= rss_mb(os.getpid()) + 1
    True
    """
    return sum(_own_pss_kb(p) for p in _tree(pid)) / 1024


def kernel_pid(kernel_manager: Any, kernel_id: str) -> int | None:
    """The process id of a kernel started by ``kernel_manager`` (``None`` if unknown)."""
    with contextlib.suppress(KeyError, AttributeError):
        kernel = kernel_manager.get_kernel(kernel_id)
        process = getattr(getattr(kernel, "provisioner", None), "process", None)
        pid = getattr(process, "pid", None)
        return int(pid) if pid is not None else None
    return None


def end_process_group(pid: int) -> None:
    """Kill ``pid`` and its process group (a kernel is started in a session of its own, with
    its workers)."""
    with contextlib.suppress(OSError):
        if os.getpgid(pid) == pid:
            os.killpg(pid, signal.SIGKILL)
            return
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


class MemoryWatch:
    """Measures the kernels of ``kernel_manager`` (:meth:`sample`), ends those over
    ``limit_mb`` through ``end(kernel_id, used_mb)``, and keeps the total in ``total_mb``.

    ``measure`` is the cheap measure taken every time (:func:`rss_mb`), ``confirm`` the exact
    one taken when the cheap one passes the limit (:func:`pss_mb`).
    """

    def __init__(
        self,
        kernel_manager: Any,
        limit_mb: float,
        end: Callable[[str, float], None],
        measure: Callable[[int], float] = rss_mb,
        confirm: Callable[[int], float] = pss_mb,
    ) -> None:
        self.kernel_manager = kernel_manager
        self.limit_mb = limit_mb
        self.end = end
        self.measure = measure
        self.confirm = confirm
        self.used: dict[str, float] = {}
        self.ended: set[str] = set()

    @property
    def total_mb(self) -> float:
        """The kernels' memory at the last sample, MB."""
        return sum(self.used.values())

    def sample(self) -> None:
        used: dict[str, float] = {}
        for kernel_id in list(self.kernel_manager.list_kernel_ids()):
            pid = kernel_pid(self.kernel_manager, kernel_id)
            if pid is None:
                continue
            mb = self.measure(pid)
            if mb > self.limit_mb:
                mb = min(mb, self.confirm(pid))
            used[kernel_id] = mb
            if mb > self.limit_mb and kernel_id not in self.ended:
                self.ended.add(kernel_id)
                self.end(kernel_id, mb)
        self.used = used
        self.ended &= set(used)
