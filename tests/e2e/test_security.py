"""What a visitor (or a script in the page) cannot do to the app.

* The kernel refuses code sent over its websocket once the page has run (``page_ready``).
* No file browser, contents API or notebook file is reachable through the app.
* The server listens on 127.0.0.1 with the repository's settings, and hides tracebacks.
* Nothing is fetched from outside 127.0.0.1.
"""

from __future__ import annotations

import json
import re
import shutil
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from .conftest import BROWSER_HEADERS, KERNEL_SOCKET_JS, NOTEBOOKS, VoilaServer

pytestmark = pytest.mark.e2e

# Sends Jupyter messages over the page's own kernel websocket and collects the replies.
SEND_MESSAGES_JS = (
    "async (messages) => {"
    + KERNEL_SOCKET_JS
    + """
  const results = {};
  const pending = new Set();
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    const parent = msg.parent_header && msg.parent_header.msg_id;
    if (!parent || !(parent in results)) return;
    results[parent].push({channel: msg.channel, msg_type: msg.header.msg_type,
                          content: msg.content});
    if (msg.header.msg_type.endsWith('_reply')) pending.delete(parent);
  };
  const ids = [];
  for (const [channel, msg_type, content] of messages) {
    const msg_id = crypto.randomUUID();
    ids.push(msg_id);
    results[msg_id] = [];
    pending.add(msg_id);
    ws.send(envelope(channel, msg_type, content, msg_id));
  }
  // The last message is an allowed request: once it is answered, the shell channel (which
  // handles messages one at a time, in order) has dealt with everything sent before it.
  const last = ids[ids.length - 1];
  const start = Date.now();
  while (pending.has(last) && Date.now() - start < 30000) {
    await new Promise((ok) => setTimeout(ok, 50));
  }
  await new Promise((ok) => setTimeout(ok, 500));
  ws.close();
  return ids.map((id) => results[id]);
}
"""
)


def _execute(code: str) -> dict[str, Any]:
    return {
        "code": code,
        "silent": False,
        "store_history": True,
        "user_expressions": {},
        "allow_stdin": False,
        "stop_on_error": True,
    }


def _reply(messages: list[dict[str, Any]]) -> dict[str, Any]:
    replies = [m for m in messages if m["msg_type"].endswith("_reply")]
    assert replies, f"no reply among {messages}"
    return replies[0]


def test_kernel_refuses_code_sent_from_the_page(
    open_page: Any, tmp_path: Path, page_errors: list[str]
) -> None:
    page = open_page("index", ready=".payme-landing")
    marker = tmp_path / "ran.txt"
    attack = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran'); print('RAN')"
    results = page.evaluate(
        SEND_MESSAGES_JS,
        [
            # a harmless request the app needs: proves the channel reaches the kernel
            ["shell", "comm_info_request", {}],
            ["shell", "execute_request", _execute(attack)],
            ["control", "execute_request", _execute(attack)],
            ["shell", "complete_request", {"code": "import o", "cursor_pos": 8}],
            ["shell", "inspect_request", {"code": "open", "cursor_pos": 4, "detail_level": 0}],
            [
                "shell",
                "history_request",
                {"output": True, "raw": True, "hist_access_type": "tail", "n": 10},
            ],
            [
                "control",
                "debug_request",
                {"type": "request", "seq": 1, "command": "initialize", "arguments": {}},
            ],
            ["shell", "comm_info_request", {}],
        ],
    )
    first, *refused, last = results
    assert _reply(first)["content"]["status"] == "ok"
    assert _reply(last)["content"]["status"] == "ok"
    for messages in refused:
        # Voilà's server drops them (no reply at all); if one got through, page_ready's lock
        # answers with an error.  Either way nothing runs and nothing is printed.
        replies = [m for m in messages if m["msg_type"].endswith("_reply")]
        assert all(r["content"]["status"] == "error" for r in replies), replies
        assert [m for m in messages if m["msg_type"] in {"stream", "execute_result"}] == []
    assert not marker.exists(), "the kernel ran code sent from the page"
    assert page_errors == []


def _status(url: str, *, follow: bool = False) -> tuple[int, str]:
    # As a browser asks: a plain GET of a page gets the static landing page, not a render.
    request = urllib.request.Request(url, method="GET", headers=BROWSER_HEADERS)
    opener = urllib.request.build_opener(*([] if follow else [_NoRedirect()]))
    try:
        with opener.open(request, timeout=60) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode(errors="replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


# Jupyter's file and code routes, Voilà's tree and contents API, and tricks around them.
FORBIDDEN_PATHS = [
    "voila/tree",
    "voila/tree/",
    "voila/api/contents",
    "voila/api/contents/",
    "voila/api/contents/index.ipynb",
    "voila/files/index.ipynb",
    "voila/files/../pyproject.toml",
    "voila/files/%2e%2e/pyproject.toml",
    "voila/render/%2e%2e/pyproject.toml",
    "voila/render/../payme/app/page.py",
    "voila/static/../../../../../../etc/passwd",
    "tree",
    "tree/",
    "lab",
    "lab/tree/index.ipynb",
    "notebooks/index.ipynb",
    "edit/index.ipynb",
    "files/index.ipynb",
    "api/contents",
    "api/contents/index.ipynb",
    "api/sessions",
    "api/kernels",
    "api/kernelspecs",
    "api/terminals",
    "terminals/1",
    "nbconvert/html/index.ipynb",
]


@pytest.mark.parametrize("path", FORBIDDEN_PATHS)
def test_no_file_browser_or_contents_api(voila_app: VoilaServer, path: str) -> None:
    # Redirects are followed: Voilà sends some unknown paths on to /voila/files/, which
    # must then refuse them.
    status, body = _status(voila_app.url(path), follow=True)
    assert status in (403, 404), f"/{path} answered {status}: {body[:200]}"
    for secret in ("page_ready", '"cells"', "[project]", "root:x:0:0"):
        assert secret not in body


def test_root_is_the_landing_page_not_a_file_tree(voila_app: VoilaServer) -> None:
    status, html = _status(voila_app.url("/"))
    assert status == 200
    assert "payme-landing" in html
    assert "jp-DirListing" not in html and "voila/tree" not in html


def _external_hosts(html: str) -> list[str]:
    hosts = re.findall(r"""(?:src|href)\s*=\s*["'](?:https?:)?//([^/"']+)""", html)
    return [host for host in hosts if host not in {"127.0.0.1", "localhost"}]


def test_page_fetches_nothing_from_outside(voila_app: VoilaServer) -> None:
    request = urllib.request.Request(voila_app.page_url("index"), headers=BROWSER_HEADERS)
    with urllib.request.urlopen(request, timeout=120) as response:
        html = response.read().decode()
    assert _external_hosts(html) == []


def test_error_page_fetches_nothing_from_outside(
    voila_app: VoilaServer, page: Any, outside_requests: list[str]
) -> None:
    # Voilà's own pages (a broken link's 404) use the template's page.html too.
    status, html = _status(voila_app.page_url("no_such_page"))
    assert status == 404
    assert _external_hosts(html) == []
    page.goto(voila_app.page_url("no_such_page"))
    assert "404" in page.locator("h1").inner_text()
    page.locator("a", has_text="payme home").click()
    page.locator(".payme-landing").wait_for(state="visible", timeout=120_000)
    assert outside_requests == []


# --- the server as `make app` starts it: settings from voila.json, nothing forced ---------

BROKEN_CELL = "raise RuntimeError('secret detail from the server')"


@pytest.fixture(scope="module")
def default_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    folder = tmp_path_factory.mktemp("site")
    shutil.copy(NOTEBOOKS / "index.ipynb", folder / "index.ipynb")
    broken = nbformat.v4.new_notebook()
    broken.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    broken.cells = [nbformat.v4.new_code_cell(BROKEN_CELL)]
    nbformat.write(broken, folder / "broken.ipynb")
    server = VoilaServer(folder, tmp_path_factory.mktemp("log"), defaults=True).start()
    try:
        yield server
    finally:
        server.stop()


def _listening_addresses(port: int) -> set[str]:
    """Local addresses with a socket listening on ``port`` (from /proc/net/tcp{,6})."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            address, port_hex = fields[1].rsplit(":", 1)
            if int(port_hex, 16) == port and fields[3] == "0A":  # 0A = LISTEN
                found.add(address)
    return found


def test_server_listens_on_loopback_only(default_server: VoilaServer) -> None:
    addresses = _listening_addresses(default_server.port)
    # 127.0.0.1 in /proc/net/tcp's little-endian hex
    assert addresses == {"0100007F"}, addresses


def test_tracebacks_hidden_from_visitors(default_server: VoilaServer) -> None:
    status, html = _status(default_server.page_url("broken"))
    assert "secret detail from the server" not in html
    assert "RuntimeError" not in html
    assert BROKEN_CELL not in html
    assert status == 200


def test_landing_page_served_with_repo_settings(default_server: VoilaServer) -> None:
    status, html = _status(default_server.page_url("index"))
    assert status == 200
    assert "payme-landing" in html
    # the repository's template: no CDN links at all
    assert "cdn.jsdelivr.net" not in html and "cdnjs" not in html


# --- the kernel's own lock (page_ready), independent of Voilà's server-side filter ---------


def test_page_ready_locks_a_real_kernel(tmp_path: Path) -> None:
    """Under Voilà's environment, page_ready() makes the kernel refuse code, keep comms."""
    import os

    from jupyter_client.manager import start_new_kernel

    env = {**os.environ, "VOILA_BASE_URL": "/", "VOILA_PREHEAT": "False"}
    manager, client = start_new_kernel(kernel_name="python3", env=env, cwd=str(tmp_path))
    try:
        # Run the page's last cell, as Voilà does.
        reply = client.execute_interactive(
            "from payme.app.page import page_ready; page_ready()", timeout=60
        )
        assert reply["content"]["status"] == "ok"
        marker = tmp_path / "ran.txt"
        attack = f"open({str(marker)!r}, 'w').write('ran')"
        output: list[dict[str, Any]] = []
        reply = client.execute_interactive(attack, timeout=30, output_hook=output.append)
        assert reply["content"]["status"] == "error"
        assert "disabled" in reply["content"]["evalue"]
        assert not marker.exists()
        assert not [m for m in output if m["msg_type"] in {"stream", "execute_result"}]
        # completion could evaluate attributes: refused too
        msg_id = client.complete("import o", 8)
        reply = client.get_shell_msg(timeout=30)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert reply["content"]["status"] == "error"
        # the widgets' channel still answers
        msg_id = client.comm_info()
        reply = client.get_shell_msg(timeout=30)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert reply["content"]["status"] == "ok"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


# --- kernels end with their page -----------------------------------------------------------


def _kernel_id(page: Any) -> str:
    config = page.locator("#jupyter-config-data").text_content()
    return str(json.loads(config or "{}")["kernelId"])


def _wait_for_log(server: VoilaServer, text: str, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in server.log_tail(5000):
            return True
        time.sleep(0.2)
    return False


def test_leaving_a_page_shuts_its_kernel_down(
    open_page: Any, voila_app: VoilaServer, page_errors: list[str]
) -> None:
    page = open_page("index", ready=".payme-landing")
    kernel = _kernel_id(page)
    page.goto(voila_app.url("voila/static/voila.js"))  # leave the page
    assert _wait_for_log(voila_app, f"Kernel shutdown: {kernel}"), voila_app.log_tail()
    assert f"403 POST /voila/api/shutdown/{kernel}" not in voila_app.log_tail(5000)
    assert page_errors == []


def test_other_sites_cannot_shut_kernels_down(open_page: Any, voila_app: VoilaServer) -> None:
    page = open_page("index", ready=".payme-landing")
    kernel = _kernel_id(page)
    url = voila_app.url(f"voila/api/shutdown/{kernel}")
    for headers in ({"Origin": "http://evil.example"}, {}):
        request = urllib.request.Request(url, data=b"", method="POST", headers=headers)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code in (403, 404)
    assert f"Kernel shutdown: {kernel}" not in voila_app.log_tail(5000)


def test_kernels_of_abandoned_pages_are_culled(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """voila.json culls idle kernels without a connection (a tab that died without saying
    goodbye); here with a 5 s timeout instead of 15 minutes."""
    folder = tmp_path_factory.mktemp("cull")
    shutil.copy(NOTEBOOKS / "index.ipynb", folder / "index.ipynb")
    server = VoilaServer(
        folder,
        folder,
        ["--MappingKernelManager.cull_idle_timeout=5", "--MappingKernelManager.cull_interval=1"],
    ).start()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.page_url("index"))
        page.locator(".payme-landing").wait_for(state="visible", timeout=120_000)
        kernel = _kernel_id(page)
        # The landing's text is in the served HTML: wait until the page has connected to
        # its kernel too, or (on a loaded machine) the culler may race the first connection.
        assert _wait_for_log(server, f"Connecting to kernel {kernel}", 60), server.log_tail()
        page.close(run_before_unload=False)  # no goodbye: the shutdown request is never sent
        assert _wait_for_log(server, f"Kernel shutdown: {kernel}", 60), server.log_tail()
        assert "Culling kernel" in server.log_tail(5000)
    finally:
        context.close()
        server.stop()
