"""Spare kernels (payme.app.spare): started ahead, taken by a visit with its variables handed
over, refilled only when no page is rendering and the budget has room, left alone by the
culler; and the spare kernel itself (payme.app.kernel), which reads its visit's variables
before the first cell and has the pages' modules imported."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from pathlib import Path
from typing import Any

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from payme.app.budget import KernelBudget, current_reservation, watch_kernel_manager
from payme.app.kernel import PRELOAD, VISIT_FILE
from payme.app.server import SHARE
from payme.app.spare import FIRST_KEY, SparePool
from tests.test_app_budget import FakeKernelManager, _run
from tests.test_app_startup import printed_by

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _pool(manager: FakeKernelManager, folder: Path, **options: Any) -> SparePool:
    manager.connection_dir = str(folder)
    return SparePool(manager, start_kernel=manager.start_kernel, refill_delay=0, **options)


async def _settle() -> None:
    """Let the pool's timers and starts run."""
    for _ in range(20):
        await asyncio.sleep(0.01)


def test_a_visit_takes_a_spare_with_its_own_variables(tmp_path: Path) -> None:
    async def run() -> None:
        manager = FakeKernelManager()
        pool = _pool(manager, tmp_path, size=1)
        pool.refill_later(0)
        await _settle()
        assert pool.spares == {"k0"} and manager.started == 1
        started = manager.start_args[0]
        assert started["kernel_name"], started["path"] == FIRST_KEY
        visit_file = Path(started["env"][VISIT_FILE])
        assert not visit_file.exists()  # nothing to read before a visit takes it
        env = {**os.environ, "QUERY_STRING": "step=4&rules=family", "VOILA_BASE_URL": "/"}
        kernel_id = await pool.take("python3", "", env)
        assert kernel_id == "k0" and pool.spares == set()
        # Only what differs from the server's own environment is handed over.
        handed = json.loads(visit_file.read_text())["env"]
        assert handed == {"QUERY_STRING": "step=4&rules=family", "VOILA_BASE_URL": "/"}
        assert oct(visit_file.stat().st_mode & 0o777) == "0o600"
        age = manager.kernels["k0"].last_activity
        assert age.year > 2020  # the culler counts the visit's time from now
        await _settle()
        assert pool.spares == {"k1"}  # the next spare
        # A kernel shut down before it read its file leaves none behind.
        pool.forget("k0")
        assert not visit_file.exists()

    _run(run())


def test_a_visit_of_another_kind_starts_its_own_and_the_spares_follow_it(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        manager = FakeKernelManager()
        pool = _pool(manager, tmp_path, size=1)
        pool.refill_later(0)
        await _settle()
        assert await pool.take("python3", "notebooks", {}) is None
        await _settle()
        assert "k0" not in manager.kernels  # the spare for the other folder is shut down
        assert pool.spares == {"k1"} and manager.start_args[1]["path"] == "notebooks"
        assert await pool.take("python3", "notebooks", {}) == "k1"

    _run(run())


def test_a_dead_spare_is_skipped_and_a_starting_one_waited_for(tmp_path: Path) -> None:
    async def run() -> None:
        manager = FakeKernelManager()
        pool = _pool(manager, tmp_path, size=1)
        pool.refill_later(0)
        await _settle()
        del manager.kernels["k0"]  # died while it waited
        assert await pool.take("python3", "", {}) is None
        # A visit arriving while a spare is being started waits for it.
        gate = asyncio.Event()
        original = manager.start_kernel

        async def slow_start(**kwargs: Any) -> str:
            await gate.wait()
            return await original(**kwargs)

        pool.start_kernel = slow_start
        await _settle()
        assert pool.starting and not pool.spares
        visit = asyncio.ensure_future(pool.take("python3", "", {}))
        await _settle()
        assert not visit.done()
        gate.set()
        assert await visit == "k1"

    _run(run())


def test_refills_wait_for_quiet_and_for_room(tmp_path: Path) -> None:
    async def run() -> None:
        manager = FakeKernelManager()
        state = {"quiet": False, "room": True}
        pool = _pool(
            manager,
            tmp_path,
            size=2,
            quiet=lambda: state["quiet"],
            room=lambda: state["room"],
        )
        pool.refill_later(0)
        await _settle()
        assert manager.started == 0  # a page is being rendered: wait
        state["quiet"] = True
        await asyncio.sleep(0.4)
        assert pool.spares == {"k0", "k1"}
        state["room"] = False  # the budget is full: no new spare after a visit
        assert await pool.take("python3", "", {}) == "k0"
        await asyncio.sleep(0.3)
        assert pool.spares == {"k1"} and manager.started == 2

    _run(run())


def test_the_budget_counts_spares_as_kernels_but_not_as_pages(tmp_path: Path) -> None:
    async def run() -> None:
        manager = FakeKernelManager()
        budget = KernelBudget(max_kernels=2)
        # As the server builds it: a spare only while fewer than K kernels run.
        room = lambda: len(manager.list_kernel_ids()) + budget.starting < budget.max_kernels  # noqa: E731
        pool = _pool(manager, tmp_path, size=1, room=room)
        budget.spare_ids = lambda: pool.spares
        watch_kernel_manager(manager, budget, 600, logging.getLogger("test"), pool)
        pool.refill_later(0)
        await _settle()
        assert pool.spares == {"k0"} and budget.pages(manager.list_kernel_ids()) == 0
        # The culler leaves the waiting spare alone.
        await manager.cull_kernel_if_idle("k0")
        assert manager.culled == []

        async def visit() -> str | None:
            reservation = budget.admit(budget.pages(manager.list_kernel_ids()))
            if reservation is None:
                return None  # the busy page
            token = current_reservation.set(reservation)
            try:
                kernel_id: str = await manager.start_kernel(kernel_name="python3", path="")
            finally:
                current_reservation.reset(token)
            await _settle()
            return kernel_id

        assert await visit() == "k0"
        assert pool.spares == {"k1"}  # one page, one spare: K kernels
        assert await visit() == "k1"  # the spare serves the second page
        assert pool.spares == set() and manager.started == 2  # no room for another
        assert await visit() is None  # K pages: the busy page
        # Shutting a kernel down drops it from the pool, and makes room for a spare.
        await manager.shutdown_kernel("k1")
        await _settle()
        assert pool.spares == {"k2"}

    _run(run())


def test_spare_kernels_import_what_the_pages_import() -> None:
    imported = set()
    for notebook in NOTEBOOKS.glob("*.ipynb"):
        cells = json.loads(notebook.read_text())["cells"]
        for cell in cells:
            tags = cell.get("metadata", {}).get("tags", [])
            if cell["cell_type"] != "code" or "jupyterlab-only" in tags:
                continue
            source = "".join(cell["source"])
            imported |= set(
                re.findall(r"^from (payme\.(?:widgets|tutorial)\.\w+) import", source, re.M)
            )
            imported |= set(re.findall(r"^import (ipywidgets)\b", source, re.M))
    assert imported, "the notebooks' imports were found"
    assert imported <= set(PRELOAD), sorted(imported - set(PRELOAD))


def test_a_spare_kernel_reads_its_visit_before_the_first_cell(tmp_path: Path) -> None:
    visit_file = tmp_path / "visit.json"
    specs = KernelSpecManager(kernel_dirs=[str(SHARE / "kernels")])
    manager = KernelManager(kernel_spec_manager=specs, kernel_name="python3")
    env = {**os.environ, VISIT_FILE: str(visit_file), "VOILA_PREHEAT": "False"}
    manager.start_kernel(cwd=str(tmp_path), env=env)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        # The visit arrives after the kernel has started.
        visit_file.write_text(json.dumps({"env": {"QUERY_STRING": "id=P-7"}}))
        code = (
            "import os, sys\n"
            "from payme.app.page import query_params\n"
            "targets = get_ipython().kernel.comm_manager.targets\n"
            "import gc\n"
            "print(query_params(), 'ipywidgets' in sys.modules, "
            "'jupyter.widget.control' in targets, os.path.exists(os.environ.get('"
            + VISIT_FILE
            + "', '')), gc.get_freeze_count() > 20_000)"
        )
        # The query reached the page; ipywidgets was imported ahead, with its comm targets
        # (registered only when imported after the kernel's shell exists); the file is gone;
        # what the spare imported is out of the garbage collector's later walks.
        assert printed_by(client, code).strip() == "{'id': 'P-7'} True True False True"
        assert not visit_file.exists()
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_a_page_takes_its_kernel_out_of_later_collections(tmp_path: Path) -> None:
    """page_ready() freezes what the page's kernel holds, so a click's full collection walks
    only what was made since: in the Play page's kernel, 60 ms a collection otherwise."""
    env = {**os.environ, "VOILA_BASE_URL": "/", "VOILA_PREHEAT": "False"}
    specs = KernelSpecManager(kernel_dirs=[str(SHARE / "kernels")])
    manager = KernelManager(kernel_spec_manager=specs, kernel_name="python3")
    manager.start_kernel(cwd=str(tmp_path), env=env)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        # One cell: after page_ready the kernel runs no code sent to it.
        code = (
            "import gc\n"
            "from payme.widgets.play import PlayPage\n"
            "from payme.app.page import page_ready\n"
            "before = gc.get_freeze_count()\n"
            "table = PlayPage()\n"
            "page_ready()\n"
            "print(before, gc.get_freeze_count() - before > 20_000, len(gc.get_objects()) < 500)"
        )
        assert printed_by(client, code).strip() == "0 True True"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
