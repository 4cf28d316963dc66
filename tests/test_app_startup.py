"""What a page view costs before its notebook runs: the app's kernel (no debugger), the
server's compiled templates (kept between views) and the kernel client that starts the
notebook as soon as the kernel answers."""

from __future__ import annotations

import json
import os
import queue
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jinja2 import DictLoader, Environment
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from payme.app.jinja_cache import MemoryBytecodeCache, install
from payme.app.kernel_client import PageKernelClient
from payme.app.server import SHARE
from tests.loop_helpers import run_in_own_loop as _run


def printed_by(client: Any, code: str) -> str:
    """What running ``code`` in the (blocking) ``client``'s kernel prints, errors included."""
    msg_id = client.execute(code)
    printed = []
    while True:
        try:
            msg = client.get_iopub_msg(timeout=30)
        except queue.Empty:
            break
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] in ("stream", "error"):
            printed.append(msg["content"].get("text") or str(msg["content"]))
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    return "".join(printed)


def test_the_app_kernel_spec_overrides_python3_under_the_app_path() -> None:
    spec = json.loads((SHARE / "kernels" / "python3" / "kernel.json").read_text())
    assert spec["argv"][:3] == ["python", "-m", "payme.app.kernel"]
    assert "{connection_file}" in spec["argv"]
    # The app server puts SHARE first on JUPYTER_PATH: its python3 is the one found.
    manager = KernelSpecManager(kernel_dirs=[str(SHARE / "kernels")])
    assert manager.get_kernel_spec("python3").argv[:3] == ["python", "-m", "payme.app.kernel"]


def test_the_app_kernel_runs_code_without_the_debugger_and_keeps_bytecode(
    tmp_path: Path,
) -> None:
    # The spec as the app server finds it ("python" is this interpreter).
    specs = KernelSpecManager(kernel_dirs=[str(SHARE / "kernels")])
    manager = KernelManager(kernel_spec_manager=specs, kernel_name="python3")
    # As on a machine that asks Python not to write bytecode: the app's kernel writes it.
    manager.start_kernel(cwd=str(tmp_path), env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        printed = printed_by(
            client,
            "import sys, ipykernel.debugger as d\n"
            "print(sys.modules['debugpy'] is None, d._is_debugpy_available, "
            "sys.dont_write_bytecode, 6 * 7)",
        )
        assert printed.split() == ["True", "False", "False", "42"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_compiled_templates_are_shared_between_environments() -> None:
    cache = MemoryBytecodeCache()
    sources = {"page": "{% extends 'base' %}{% block body %}Hi {{ who }}{% endblock %}"}
    sources["base"] = "<p>{% block body %}{% endblock %}</p>"

    def render(texts: dict[str, str]) -> str:
        env = Environment(loader=DictLoader(texts), bytecode_cache=cache)
        return env.get_template("page").render(who="you")

    assert render(sources) == "<p>Hi you</p>"
    assert len(cache) == 2
    assert render(sources) == "<p>Hi you</p>"
    # An edited template does not reuse the old code (its checksum differs).
    assert render({**sources, "base": "<div>{% block body %}{% endblock %}</div>"}) == (
        "<div>Hi you</div>"
    )


def test_install_gives_every_voila_exporter_the_cache() -> None:
    from voila.exporter import VoilaExporter

    install()
    install()  # idempotent: the hook is not wrapped twice
    first, second = VoilaExporter(), VoilaExporter()
    assert first.environment is not second.environment
    assert first.environment.bytecode_cache is second.environment.bytecode_cache
    assert isinstance(first.environment.bytecode_cache, MemoryBytecodeCache)


class _Channel:
    """A kernel channel that hands out queued messages, then reports none (queue.Empty)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, object]] = []

    async def get_msg(self, timeout: float | None = None) -> dict[str, object]:
        if not self.messages:
            raise queue.Empty
        return self.messages.pop(0)


def _message(msg_type: str, parent: str, **content: object) -> dict[str, object]:
    return {"msg_type": msg_type, "parent_header": {"msg_id": parent}, "content": content}


class _ScriptedClient(PageKernelClient):
    """A PageKernelClient talking to a scripted kernel: ``answer(request_number)`` says which
    messages the kernel sends for the n-th kernel_info_request."""

    def __init__(self, answer: Callable[[int, str], tuple[list, list]], alive: bool = True):
        super().__init__()
        self.shell, self.iopub = _Channel(), _Channel()
        self.requests: list[str] = []
        self.answer, self.alive = answer, alive

    @property
    def shell_channel(self) -> _Channel:  # type: ignore[override]
        return self.shell

    @property
    def iopub_channel(self) -> _Channel:  # type: ignore[override]
        return self.iopub

    def kernel_info(self) -> str:  # type: ignore[override]
        request = f"info-{len(self.requests)}"
        self.requests.append(request)
        shell, iopub = self.answer(len(self.requests) - 1, request)
        self.shell.messages += shell
        self.iopub.messages += iopub
        return request

    async def _async_is_alive(self) -> bool:
        return self.alive


def _reply(request: str) -> dict[str, object]:
    return _message("kernel_info_reply", request, protocol_version="5.3", status="ok")


def test_page_client_is_ready_at_the_idle_of_its_own_request() -> None:
    def answer(n: int, request: str) -> tuple[list, list]:
        # Something broadcast earlier comes first; then busy, the reply and idle.
        iopub = [_message("stream", "someone-else", text="hi"), _message("status", request)]
        iopub.append(_message("status", request, execution_state="idle"))
        return [_reply(request)], iopub

    client = _ScriptedClient(answer)
    _run(client.wait_for_ready(timeout=5))
    assert client.requests == ["info-0"]  # one request: no waiting for silence, no retry
    assert client.iopub.messages == []  # what was broadcast before the idle is read


def test_page_client_asks_again_when_the_broadcast_channel_missed_the_idle() -> None:
    # The broadcast channel of a new kernel connects late: the first idle is lost.
    def answer(n: int, request: str) -> tuple[list, list]:
        idle = [_message("status", request, execution_state="idle")]
        return ([_reply(request)] if n == 0 else []), ([] if n == 0 else idle)

    client = _ScriptedClient(answer)
    _run(client.wait_for_ready(timeout=5))
    assert client.requests == ["info-0", "info-1"]


def test_page_client_gives_up_on_a_dead_or_silent_kernel() -> None:
    silent = _ScriptedClient(lambda n, request: ([], []), alive=False)
    with pytest.raises(RuntimeError, match="died"):
        _run(silent.wait_for_ready(timeout=5))
    no_idle = _ScriptedClient(lambda n, request: ([_reply(request)], []))
    with pytest.raises(RuntimeError, match=r"respond in 0\.1 seconds"):
        _run(no_idle.wait_for_ready(timeout=0.1))


def test_the_server_runs_notebooks_through_the_page_client(tmp_path: Path) -> None:
    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager
    from traitlets.config import Config

    settings = json.loads((SHARE.parents[1] / "voila.json").read_text())
    specs = KernelSpecManager(kernel_dirs=[str(SHARE / "kernels")])
    manager = ServerKernelManager(
        config=Config(settings), kernel_spec_manager=specs, kernel_name="python3"
    )

    async def first_cell() -> list[str]:
        await manager.start_kernel(cwd=str(tmp_path))
        client = manager.client()
        assert isinstance(client, PageKernelClient)
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=60)
            msg_id = client.execute("print(6 * 7)")
            printed = []
            while True:
                msg = await client.get_iopub_msg(timeout=30)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if msg["msg_type"] == "stream":
                    printed.append(msg["content"]["text"])
                if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    return printed
        finally:
            client.stop_channels()
            await manager.shutdown_kernel(now=True)

    assert _run(first_cell()) == ["42\n"]
