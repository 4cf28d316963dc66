"""The server's limits outside a server: kernels' memory (payme.app.memory), what a page may
send (payme.app.sockets), who gets a render (payme.app.visitors)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from payme.app import memory, sockets, visitors
from payme.app.budget import KERNEL_MB, KernelBudget


class _Kernels:
    """A stand-in kernel manager: kernel ids with the process ids of their kernels."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids

    def list_kernel_ids(self) -> list[str]:
        return list(self.pids)

    def get_kernel(self, kernel_id: str) -> Any:
        class Kernel:
            class provisioner:
                class process:
                    pid = self.pids[kernel_id]

        return Kernel


def test_a_kernel_over_its_limit_is_ended_once_and_the_total_is_kept() -> None:
    # Resident sets added up (shared pages counted in each process), then the exact measure.
    rss = {101: 80.0, 102: 700.0, 103: 900.0}
    pss = {101: 80.0, 102: 650.0, 103: 450.0}  # 103: a kernel and its forked workers
    ended: list[tuple[str, float]] = []
    watch = memory.MemoryWatch(
        _Kernels({"a": 101, "b": 102, "c": 103}),
        600,
        lambda k, mb: ended.append((k, mb)),
        rss.__getitem__,
        pss.__getitem__,
    )
    watch.sample()
    watch.sample()  # ended once, not again while it goes
    assert ended == [("b", 650.0)]
    assert watch.total_mb == 80 + 650 + 450


def test_the_budget_admits_a_visit_only_while_memory_leaves_room() -> None:
    budget = KernelBudget(max_kernels=100, memory_mb=1000)
    budget.memory_used = lambda: 1000 - KERNEL_MB
    first = budget.admit(running=1)
    assert first is not None
    assert budget.admit(running=1) is None  # the one being started takes the room left
    first.release()
    budget.memory_used = lambda: 1000 - KERNEL_MB + 1
    assert budget.admit(running=1) is None


def test_rss_counts_a_process_and_its_children() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", "b = b'x' * (60 * 2**20); import time; time.sleep(30)"]
    )
    try:
        import os
        import time

        alone = memory._own_rss_kb(os.getpid()) / 1024
        deadline = time.monotonic() + 20
        while memory.rss_mb(os.getpid()) < alone + 60 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert memory.rss_mb(os.getpid()) >= alone + 60
    finally:
        child.kill()
        child.wait()


def test_a_kernel_cannot_map_more_than_its_address_space() -> None:
    code = (
        "import os; from payme.app.kernel import limit_address_space\n"
        f"print(limit_address_space({{'{memory.LIMIT_ENV}': '1024'}}))\n"
        "try:\n"
        "    b = bytearray(2 * 2**30)\n"
        "except MemoryError:\n"
        "    print('MemoryError')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == [str(2**30), "MemoryError"], done.stderr


def _v1(channel: str, header: dict[str, Any], content: Any) -> bytes:
    parts = [channel.encode(), json.dumps(header).encode(), b"{}", b"{}"]
    parts.append(json.dumps(content).encode())
    offsets = []
    position = 8 * (len(parts) + 2)
    for part in parts:
        offsets.append(position)
        position += len(part)
    offsets.append(position)
    head = (len(offsets)).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + b"".join(parts)


def test_the_v1_protocol_is_read_and_checked_like_json() -> None:
    header = {"msg_type": "comm_open", "msg_id": "1"}
    content = {"comm_id": "c", "target_name": "jupyter.widget", "data": {}}
    msg = sockets.read_message(_v1("shell", header, content), sockets.V1_PROTOCOL)
    assert msg["channel"] == "shell" and msg["content"]["target_name"] == "jupyter.widget"
    assert sockets.refusal(msg) == "a page may not open a comm on 'jupyter.widget'"
    content["target_name"] = sockets.CONTROL_TARGET
    control = sockets.read_message(_v1("shell", header, content), sockets.V1_PROTOCOL)
    assert sockets.refusal(control) is None
    assert sockets.refusal(control, control_opens=sockets.MAX_CONTROL_OPENS) is not None
    for junk in (b"", b"\x01" * 7, b"\xff" * 64, _v1("shell", header, content)[:-3]):
        with pytest.raises(ValueError):
            sockets.read_message(junk, sockets.V1_PROTOCOL)


@pytest.mark.parametrize(
    ("channel", "msg_type", "content", "allowed"),
    [
        ("shell", "comm_msg", {"comm_id": "a", "data": {"method": "update", "state": {}}}, True),
        ("shell", "comm_msg", {"comm_id": "a", "data": {"method": "custom", "content": {}}}, True),
        ("shell", "comm_msg", {"comm_id": "a", "data": {"method": "display"}}, False),
        ("shell", "comm_msg", {"data": {"method": "update"}}, False),
        ("shell", "comm_close", {"comm_id": "a"}, True),
        ("shell", "kernel_info_request", {}, True),
        ("control", "kernel_info_request", {}, True),
        ("control", "comm_msg", {"comm_id": "a", "data": {"method": "update"}}, False),
        ("shell", "execute_request", {"code": "1"}, False),
        ("stdin", "input_reply", {"value": "x"}, False),
        ("iopub", "stream", {"name": "stdout", "text": "x"}, False),
    ],
)
def test_only_what_a_page_sends_is_let_through(
    channel: str, msg_type: str, content: dict[str, Any], allowed: bool
) -> None:
    msg = {"channel": channel, "header": {"msg_type": msg_type}, "content": content}
    assert (sockets.refusal(msg) is None) is allowed


def test_internals_are_recognised_in_kernel_messages() -> None:
    assert sockets.withheld(b'{"text": "Traceback (most recent call last):"}')
    assert sockets.withheld(f'"File \\"{sys.prefix}/lib/python3.11/x.py\\""')
    assert not sockets.withheld('{"state": {"value": "7H 8H 9H"}}')


@pytest.mark.parametrize(
    ("headers", "cookies", "runs"),
    [
        ({"User-Agent": "Mozilla/5.0 Chrome/126.0", "Sec-Fetch-Mode": "navigate"}, {}, True),
        ({"User-Agent": "Mozilla/5.0 Chrome/126.0"}, {}, False),  # no navigation headers
        ({"User-Agent": "Mozilla/5.0 Safari/605.1.15"}, {visitors.JS_COOKIE: "1"}, True),
        ({"User-Agent": "Twitterbot/1.0", "Sec-Fetch-Mode": "navigate"}, {}, False),
        ({"User-Agent": "WhatsApp/2.23.20.0"}, {visitors.JS_COOKIE: "1"}, False),
        ({}, {}, False),
    ],
)
def test_who_gets_a_render(headers: dict[str, str], cookies: dict[str, str], runs: bool) -> None:
    assert visitors.will_run_page(headers, cookies) is runs


def test_the_static_page_links_from_the_root_and_reloads_only_for_non_crawlers() -> None:
    shell = visitors.shell_page("/app/", reload=True).decode()
    assert '<base href="/app/">' in shell and "payme-landing" in shell
    assert visitors.JS_COOKIE in shell and "location.replace" in shell
    assert "location.replace" not in visitors.shell_page("/", reload=False).decode()
