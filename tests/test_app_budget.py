"""payme.app.budget outside a server: the line for renders, the defaults fitted to the machine,
and the hooks on the kernel manager (a stand-in with Jupyter's method names)."""

from __future__ import annotations

import asyncio
import datetime
import logging
from typing import Any

import pytest

from payme.app import budget as b
from payme.app.budget import KernelBudget, current_reservation, watch_kernel_manager
from tests.loop_helpers import run_in_own_loop as _run


def test_default_kernels_are_bound_by_cpu_and_by_memory() -> None:
    # This machine's shape (2 cores, 24 GB): CPU binds.
    assert b.default_max_kernels(24_000, 2) == 2 * b.KERNELS_PER_CORE
    # Plenty of cores, little memory: memory binds.
    assert b.default_max_kernels(4_000, 16) == int(4_000 * b.MEMORY_SHARE // b.KERNEL_MB)
    assert b.default_max_kernels(100, 1) == b.MIN_KERNELS
    assert b.default_max_kernels(10**7, 10**3) == b.MAX_KERNELS
    assert b.default_max_renders(2) == 2 * b.RENDERS_PER_CORE


def test_bad_limits_are_refused_with_their_names() -> None:
    with pytest.raises(ValueError, match="max_kernels"):
        KernelBudget(0)
    with pytest.raises(ValueError, match="max_renders"):
        KernelBudget(4, max_renders=0)


def test_renders_beyond_the_limit_wait_in_line_first_come_first_served() -> None:
    async def visits() -> list[int]:
        budget = KernelBudget(max_kernels=10, max_renders=2)
        served: list[int] = []

        async def visit(n: int) -> None:
            assert await budget.render_slot(timeout=5)
            served.append(n)
            await asyncio.sleep(0.01 * (3 - n % 3))  # renders of uneven length
            assert budget.rendering <= 2
            budget.end_render()

        tasks = []
        for n in range(6):
            tasks.append(asyncio.ensure_future(visit(n)))
            await asyncio.sleep(0)  # they arrive in this order
        await asyncio.gather(*tasks)
        assert budget.rendering == 0 and budget.queued == 0
        return served

    served = _run(visits())
    assert served[:2] == [0, 1] and sorted(served) == list(range(6))
    assert served[2:] == sorted(served[2:])  # the line keeps its order


def test_a_visitor_who_waits_too_long_or_leaves_gives_up_the_place() -> None:
    async def visits() -> tuple[bool, bool, int, int]:
        budget = KernelBudget(max_kernels=10, max_renders=1)
        assert await budget.render_slot(timeout=1)
        timed_out = await budget.render_slot(timeout=0.05)
        gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        leaving = asyncio.ensure_future(budget.render_slot(timeout=30, gone=gone))
        await asyncio.sleep(0.01)
        gone.set_result(None)
        left = await leaving
        queued = budget.queued
        budget.end_render()  # nobody in line: the slot is free again
        return timed_out, left, queued, budget.rendering

    assert _run(visits()) == (False, False, 0, 0)


def test_a_sent_page_keeps_its_turn_until_it_connects_or_a_while_passes() -> None:
    async def visits() -> tuple[bool, bool, int, int]:
        budget = KernelBudget(max_kernels=10, max_renders=1)
        assert await budget.render_slot(timeout=1)
        budget.hold_until_connected("k0", seconds=30)  # page sent, browser still loading
        waited = await budget.render_slot(timeout=0.05)  # the next visitor still waits
        budget.page_opened("k0")  # its websocket connected: the turn passes on
        budget.page_opened("k0")  # (once)
        after_connect = await budget.render_slot(timeout=0.05)
        budget.hold_until_connected("k1", seconds=0.05)  # a page that never connects
        await asyncio.sleep(0.1)
        return waited, after_connect, budget.rendering, len(budget.opening)

    assert _run(visits()) == (False, True, 0, 0)


class FakeKernel:
    def __init__(self) -> None:
        self.last_activity = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)


class FakeKernelManager:
    """The methods of Jupyter's MappingKernelManager that the budget wraps."""

    def __init__(self) -> None:
        self.kernels: dict[str, FakeKernel] = {}
        self._kernel_connections: dict[str, int] = {}
        self.culled: list[str] = []
        self.seen_stopping: list[bool] = []
        self.budget: KernelBudget | None = None
        self.started = 0
        self.start_args: list[dict[str, Any]] = []

    connection_dir = "."

    async def start_kernel(self, **kwargs: Any) -> str:
        self.started += 1
        kernel_id = f"k{self.started - 1}"
        self.kernels[kernel_id] = FakeKernel()
        self._kernel_connections[kernel_id] = 0
        self.start_args.append(kwargs)
        return kernel_id

    def __contains__(self, kernel_id: str) -> bool:
        return kernel_id in self.kernels

    async def shutdown_kernel(self, kernel_id: str, now: bool = False) -> None:
        if self.budget is not None:
            self.seen_stopping.append(kernel_id in self.budget.stopping)
        del self.kernels[kernel_id]

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        self.culled.append(kernel_id)

    def notify_connect(self, kernel_id: str) -> None:
        self._kernel_connections[kernel_id] += 1

    def list_kernel_ids(self) -> list[str]:
        return list(self.kernels)

    def get_kernel(self, kernel_id: str) -> FakeKernel:
        return self.kernels[kernel_id]


def test_the_kernel_manager_hooks() -> None:
    async def run() -> None:
        manager = FakeKernelManager()
        budget = KernelBudget(max_kernels=3, max_renders=2)
        manager.budget = budget
        watch_kernel_manager(manager, budget, 600, logging.getLogger("test"))
        reservation = budget.admit(running=0)
        assert reservation is not None and budget.starting == 1
        token = current_reservation.set(reservation)
        try:
            kernel_id = await manager.start_kernel(kernel_name="python3")
        finally:
            current_reservation.reset(token)
        # Started: the reservation is given back, the kernel is being rendered.
        assert budget.starting == 0 and reservation.kernel_id == kernel_id
        assert kernel_id in budget.rendering_kernels
        # Jupyter's culler leaves a kernel alone while its page is rendered ...
        await manager.cull_kernel_if_idle(kernel_id)
        assert manager.culled == []
        # ... and looks at it once the page is sent.
        budget.rendering_kernels.discard(kernel_id)
        b.touch(manager, kernel_id)
        age = datetime.datetime.now(datetime.UTC) - manager.kernels[kernel_id].last_activity
        assert age.total_seconds() < 5
        await manager.cull_kernel_if_idle(kernel_id)
        assert manager.culled == [kernel_id]
        # A page that connects is no longer awaited, and gives its turn back.
        assert await budget.render_slot(timeout=1)
        budget.hold_until_connected(kernel_id)
        budget.awaiting[kernel_id] = 0.0
        manager.notify_connect(kernel_id)
        assert kernel_id not in budget.awaiting and manager._kernel_connections[kernel_id] == 1
        assert budget.rendering == 0 and not budget.opening
        # A kernel being shut down is marked as stopping meanwhile, and forgotten after.
        budget.awaiting[kernel_id] = 0.0
        await manager.shutdown_kernel(kernel_id)
        assert manager.seen_stopping == [True]
        assert kernel_id not in budget.stopping and kernel_id not in budget.awaiting

    _run(run())
