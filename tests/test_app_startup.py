"""What a page view costs before its notebook runs: the app's kernel (no debugger) and the
server's compiled templates (kept between views)."""

from __future__ import annotations

import json
import os
import queue
from pathlib import Path

from jinja2 import DictLoader, Environment
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from payme.app.jinja_cache import MemoryBytecodeCache, install
from payme.app.server import SHARE


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
        msg_id = client.execute(
            "import sys, ipykernel.debugger as d\n"
            "print(sys.modules['debugpy'] is None, d._is_debugpy_available, "
            "sys.dont_write_bytecode, 6 * 7)"
        )
        printed = []
        while True:
            try:
                msg = client.get_iopub_msg(timeout=30)
            except queue.Empty:
                break
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                printed.append(msg["content"]["text"])
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        assert "".join(printed).split() == ["True", "False", "False", "42"]
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
