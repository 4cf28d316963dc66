"""No internals reach the browser (issue 14.6): no 500 on any URL, security headers and
SameSite cookies on every response, and widget messages that fail answered in plain words."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from payme.app.page import COMM_REFUSED

from .conftest import BROWSER_HEADERS, VoilaServer, iopub_until_quiet, locked_kernel

pytestmark = pytest.mark.e2e

SECURITY_HEADERS = ("X-Content-Type-Options", "Content-Security-Policy", "Referrer-Policy")

# URLs that answered 500 before, and their neighbours.
KNOWN = [
    "voila/templates/payme/conf.json",
    "voila/templates/",
    "voila/templates/x",
    "voila/templates/payme/static/../conf.json",
    "voila/templates/nope/static/x.css",
    "logout",
    "login",
    "voila/render/%00",
    "voila/render/a%00b.ipynb",
    "voila/static/nope",
    "nothing/here",
    "api/kernels/abc",
    "voila/api/shutdown/abc",
    "payme/api/alive/zz",
    "voila/files/%2e%2e/%2e%2e/etc/passwd",
]


def _answer(url: str) -> tuple[int, Any]:
    request = urllib.request.Request(url)
    opener = urllib.request.build_opener(_NoRedirect())
    try:
        with opener.open(request, timeout=120) as response:
            response.read()
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@pytest.mark.parametrize("path", KNOWN)
def test_no_url_answers_500_and_errors_carry_the_headers(voila_app: VoilaServer, path: str) -> None:
    status, headers = _answer(voila_app.url(path))
    assert status < 500, f"/{path} answered {status}"
    for name in SECURITY_HEADERS:
        assert headers.get(name), f"/{path} ({status}) lacks {name}"


# Paths a client could send, built from the app's own route prefixes and awkward pieces.
_PIECES = st.sampled_from(
    [
        "voila", "render", "templates", "static", "payme", "api", "kernels", "files",
        "labextensions", "themes", "shutdown", "query", "execution", "alive", "tree",
        "lab", "..", ".", "%2e%2e", "%00", "%ff", "x.ipynb", "conf.json", "index.html",
        "a" * 300, "%25", "~", "%5c", "static%2f..%2f", "",
    ]
)  # fmt: skip


@settings(
    max_examples=int(os.environ.get("PAYME_FUZZ_PATHS", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(_PIECES, min_size=1, max_size=5))
def test_fuzzed_paths_never_answer_500(voila_app: VoilaServer, pieces: list[str]) -> None:
    path = "/".join(pieces)
    if path.startswith("voila/render/") and path.endswith(".ipynb"):
        return  # a real page would start a kernel: covered by the page tests
    status, headers = _answer(voila_app.url(path))
    assert status < 500, f"/{path} answered {status}"
    assert headers.get("X-Content-Type-Options") == "nosniff"


def _run(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own (Playwright's sync API may hold this thread's
    event loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _socket(server: VoilaServer, kernel_id: str) -> int | str:
    """Open a kernel websocket as a page does: ``"open"``, or the HTTP status it was refused
    with."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    url = server.url(f"api/kernels/{kernel_id}/channels?session_id=fuzz").replace("http", "ws", 1)
    try:
        # A browser's socket names the page's origin (one that names none is refused).
        origin = {"Origin": server.url().rstrip("/")}
        conn = await websocket_connect(HTTPRequest(url, headers=origin, request_timeout=120))
    except HTTPClientError as error:
        return error.code
    conn.close()
    return "open"


@pytest.mark.parametrize(
    "kernel_id",
    ["00000000-0000-4000-8000-000000000000", "a-b-c-d-e", "x" * 8 + "-0-0-0-" + "y" * 300],
)
def test_a_socket_to_no_kernel_is_refused_plainly(voila_app: VoilaServer, kernel_id: str) -> None:
    assert _run(_socket(voila_app, kernel_id)) == 404
    # Jupyter's error page failed to render under Voilà here, logging a traceback.
    assert "static_path" not in voila_app.log_tail(400)


def test_a_socket_to_a_kernel_being_shut_down_is_refused_at_once(voila_app: VoilaServer) -> None:
    """The race of a page's socket with its kernel's shutdown (a cull, a closed tab): Jupyter's
    handler waited 60 s for the kernel to come alive, then answered 500."""
    request = urllib.request.Request(voila_app.page_url("puzzles"), headers=BROWSER_HEADERS)
    with urllib.request.urlopen(request, timeout=120) as response:
        # The page config's kernel id, as JSON or as the template's script fills it in.
        found = re.search(r'kernelId"?\s*[:=]\s*"([-0-9a-f]+)"', response.read().decode())
    assert found, "the page names its kernel"
    kernel_id = found.group(1)

    async def shutdown() -> int:
        from tornado.httpclient import AsyncHTTPClient

        reply = await AsyncHTTPClient().fetch(
            voila_app.url(f"voila/api/shutdown/{kernel_id}"),
            method="POST",
            body=b"",
            headers={"Origin": voila_app.url().rstrip("/")},
            raise_error=False,
        )
        return reply.code

    async def socket_after(delay: float) -> tuple[int | str, float]:
        await asyncio.sleep(delay)
        started = time.monotonic()
        return await _socket(voila_app, kernel_id), time.monotonic() - started

    async def race() -> list[Any]:
        delays = (0, 0.01, 0.03, 0.1, 0.2, 0.4, 0.8, 1.6)
        return await asyncio.gather(shutdown(), *(socket_after(d) for d in delays))

    stopped, *sockets = _run(race())
    assert stopped == 204
    for answer, seconds in sockets:
        assert answer == "open" or answer == 404, sockets
        assert seconds < 30, sockets
    assert any(answer == 404 for answer, _ in sockets), sockets


def test_cookies_are_same_site_lax(voila_app: VoilaServer) -> None:
    status, headers = _answer(voila_app.page_url("no_such_page"))
    assert status == 404
    cookies = headers.get_all("Set-Cookie") or []
    assert cookies, "Voilà sets its cookies on every page"
    for cookie in cookies:
        assert "SameSite=Lax" in cookie, cookie


def test_a_failing_widget_message_answers_in_plain_words(tmp_path: Path) -> None:
    """A malformed comm message, and a dropdown sent an impossible index, under page_ready()."""
    code = (
        "import ipywidgets as w\n"
        "d = w.Dropdown(options=['Pay Me', 'Rummy 3-Pack'])\n"
        "def pick(change):\n"
        "    {'Pay Me': 1}[change['new']]\n"  # a handler failing with KeyError: None
        "d.observe(pick, 'value')\n"
        "print(d.comm.comm_id)"
    )
    with locked_kernel(tmp_path, code) as (client, printed):
        comm_id = printed.split()[0]
        for content in (
            {"data": {"method": "update", "state": {"index": 99}}},  # no comm id at all
            {"comm_id": comm_id, "data": {"method": "update", "state": {"index": None}}},
            {"comm_id": comm_id, "data": {"method": "update", "state": {"index": 99}}},
            {"comm_id": comm_id, "data": "not a dict"},
        ):
            client.shell_channel.send(client.session.msg("comm_msg", content))
        streamed = [
            str(msg["content"])
            for msg in iopub_until_quiet(client)
            if msg["msg_type"] in {"stream", "error"}
        ]
        text = "\n".join(streamed)
        assert COMM_REFUSED in text
        assert "Traceback" not in text and "KeyError" not in text and "site-packages" not in text
