"""A public server that hostile clients cannot sink (issue 27): what a page's websocket may
carry, the kernels' memory limit, no internals in any kernel message, clients that never run
the page, over-long URLs and sockets without an Origin.

Every server here is started by the test on 127.0.0.1; every probe is bounded in time.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import expect

from payme.app.page import COMM_REFUSED
from payme.app.sockets import MAX_MESSAGE_BYTES

from .conftest import (
    BROWSER_HEADERS,
    KERNEL_SOCKET_JS,
    VoilaServer,
    iopub_until_quiet,
    locked_kernel,
    page_kernel_pids,
    serving,
    wait_ready,
)

pytestmark = pytest.mark.e2e

LOST = "The connection to the game was lost — reload to continue."
INTERNALS = ("Traceback", "site-packages", "dist-packages", 'File "/')

# Opens a second socket to the page's kernel from inside the page (so with the page's origin
# and cookies, as a script injected in the page would), sends each message and collects every
# message that comes back, whatever it answers.  A message is [channel, msg_type, content]
# or a string sent as is (a raw frame).  Ends with comm_info_request, whose reply says which
# comms the kernel holds.
PROBE_JS = (
    "async (messages) => {"
    + KERNEL_SOCKET_JS
    + """
  const received = [];
  let info = null;
  const infoId = crypto.randomUUID();
  ws.onmessage = (event) => {
    received.push(typeof event.data === 'string' ? event.data : '[binary]');
    const msg = JSON.parse(event.data);
    if (msg.parent_header && msg.parent_header.msg_id === infoId
        && msg.header.msg_type === 'comm_info_reply') info = msg.content;
  };
  for (const m of messages) {
    ws.send(typeof m === 'string' ? m : envelope(m[0], m[1], m[2]));
  }
  ws.send(envelope('shell', 'comm_info_request', {}, infoId));
  const start = Date.now();
  while (info === null && Date.now() - start < 30000) {
    await new Promise((ok) => setTimeout(ok, 50));
  }
  await new Promise((ok) => setTimeout(ok, 1500));  // late stderr of a failing handler
  const open = ws.readyState === WebSocket.OPEN;
  ws.close();
  return {received, info, open};
}
"""
)


def _probe(page: Any, messages: list[Any]) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(PROBE_JS, messages)
    for text in result["received"]:
        for marker in INTERNALS:
            assert marker not in text, f"a kernel message holds {marker!r}: {text[:500]}"
    assert result["info"] is not None, "comm_info_request was not answered"
    return result


def _comms(result: dict[str, Any]) -> dict[str, Any]:
    comms: dict[str, Any] = result["info"]["comms"]
    return comms


def _comm_open(comm_id: str, target: str = "jupyter.widget") -> list[Any]:
    state = {
        "_model_name": "TextModel",
        "_model_module": "@jupyter-widgets/controls",
        "_model_module_version": "2.0.0",
        "_view_name": "TextView",
        "_view_module": "@jupyter-widgets/controls",
        "_view_module_version": "2.0.0",
        "value": "x" * 1000,
    }
    content = {"comm_id": comm_id, "target_name": target, "data": {"state": state}}
    return ["shell", "comm_open", content]


def test_a_comm_opened_by_the_client_is_refused_and_builds_no_widget(
    open_page: Any, voila_app: VoilaServer, page_errors: list[str]
) -> None:
    page = open_page("puzzles")
    before = _comms(_probe(page, []))
    attacks = [f"attack-{i}" for i in range(5)]
    result = _probe(
        page,
        [
            *(_comm_open(comm_id) for comm_id in attacks),
            # malformed: no target, no comm id, content not a dict (ipykernel's traceback once)
            ["shell", "comm_open", {"comm_id": "attack-x"}],
            ["shell", "comm_open", {"target_name": "jupyter.widget"}],
            ["shell", "comm_open", "nonsense"],
            "{not json",
        ],
    )
    after = _comms(result)
    assert not set(after) & {*attacks, "attack-x"}, "a widget was built from the client"
    assert set(after) == set(before)
    assert result["open"], "the socket stays open: a refused message is only dropped"
    assert "refused a message from a page (a page may not open a comm" in voila_app.log_tail(2000)
    # The page still works.
    ident = page.locator(".payme-puzzle-id")
    first = ident.inner_text()
    page.locator("button.payme-puzzle-new").click()
    expect(ident).not_to_have_text(first)
    assert page_errors == []


def test_a_two_megabyte_frame_is_refused_and_the_page_still_answers_a_click(
    open_page: Any, voila_app: VoilaServer, page_errors: list[str]
) -> None:
    page = open_page("hand_builder", query="hand=7H 8H 9H 5C 5D")
    comms = _comms(_probe(page, []))
    big = "y" * (2 * 2**20)
    # A widget update of every widget (the kernel would apply it to a text field), 2 MB.
    updates = [
        [
            "shell",
            "comm_msg",
            {
                "comm_id": c,
                "data": {"method": "update", "state": {"description": big}, "buffer_paths": []},
            },
        ]
        for c in list(comms)[:3]
    ]
    result = _probe(page, updates)
    assert result["open"]
    assert not any(big[:1000] in text for text in result["received"]), "it reached the kernel"
    log = voila_app.log_tail(3000)
    assert re.search(r"refused a message from a page \(2,09\d,\d{3} bytes, over 262,144\)", log)
    assert MAX_MESSAGE_BYTES == 262_144
    # The page answers as before.
    field = page.locator(".payme-hand-text input")
    field.fill("AS 2S 3S KD 4C")
    field.press("Enter")
    expect(page.locator(".payme-hand-view svg[role=img]")).to_have_count(5)
    assert page_errors == []


def test_no_kernel_message_shows_internals_whatever_the_page_sends(
    open_page: Any, page_errors: list[str]
) -> None:
    """Rummy 3-Pack's table asked for the best lay-off (an AttributeError once, logged with its
    traceback to the page), gestures of every wrong shape, malformed widget messages, and code
    requests: no message that comes back holds a traceback or a path."""
    page = open_page("play", query="rules=three_pack&players=3&bots=greedy&seed=2")
    page.locator(".pm-table .pm-hand-card").first.wait_for(state="visible", timeout=120_000)
    comms = list(_comms(_probe(page, [])))
    gestures: list[Any] = [
        {"do": "lay_off_best"},
        {"do": "lay_off", "card": 5, "meld": "x"},
        {"do": "discard", "card": None, "index": "a"},
        {"do": "draw", "source": ["stock"]},
        {"do": "arrange", "groups": [[{"a": 1}]]},
        {"do": "no_such_move"},
        {"do": None},
        ["a", "list"],
        "text",
    ]
    messages: list[Any] = [
        ["shell", "comm_msg", {"comm_id": c, "data": {"method": "custom", "content": g}}]
        for c in comms
        for g in gestures
    ]
    messages += [
        ["shell", "comm_msg", {"comm_id": comms[0], "data": {"method": "update", "state": None}}],
        ["shell", "comm_msg", {"comm_id": "no-such-comm", "data": {"method": "update"}}],
        ["shell", "comm_msg", {"comm_id": comms[0], "data": {"method": "backbone"}}],
        ["shell", "execute_request", {"code": "1/0", "silent": False}],
        ["control", "debug_request", {"command": "initialize"}],
        ["iopub", "stream", {"name": "stderr", "text": "x"}],
    ]
    _probe(page, messages)
    # The table still plays.
    expect(page.locator(".pm-table")).to_be_visible()
    assert page_errors == []


def test_lay_off_the_best_on_a_three_pack_table_is_answered_in_words(
    open_page: Any,
) -> None:
    page = open_page("play", query="rules=three_pack&players=3&bots=greedy&seed=2")
    page.locator(".pm-table .pm-hand-card").first.wait_for(state="visible", timeout=120_000)
    comms = list(_comms(_probe(page, [])))
    result = _probe(
        page,
        [
            [
                "shell",
                "comm_msg",
                {"comm_id": c, "data": {"method": "custom", "content": {"do": "lay_off_best"}}},
            ]
            for c in comms
        ],
    )
    notices = [t for t in result["received"] if '"notice"' in t]
    # Refused with a reason (the game lacks the shortcut, or it is not the moment): in words.
    assert notices, "the table answered the gesture"
    assert not any("Something went wrong" in t for t in notices), notices


# --- memory ---------------------------------------------------------------------------------

HOG = """
import ipywidgets as w
hog = []
grow = w.Button(description="Use 100 MB more")
grow.on_click(lambda _b: hog.append(b"\\x01" * (100 * 2**20)))
grow
"""


@pytest.fixture(scope="module")
def memory_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """A page whose button makes its kernel use 100 MB more; kernels limited to 250 MB."""
    folder = tmp_path_factory.mktemp("memory")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    notebook.cells = [nbformat.v4.new_code_cell(HOG)]
    nbformat.write(notebook, folder / "hog.ipynb")
    server = VoilaServer(folder, folder, ["--PaymeVoila.kernel_memory_mb=250"]).start()
    try:
        yield server
    finally:
        server.stop()


def test_a_kernel_past_its_memory_limit_ends_and_its_page_says_so(
    memory_server: VoilaServer, page: Any
) -> None:
    page.goto(memory_server.page_url("hog"), wait_until="domcontentloaded")
    wait_ready(page, "button.widget-button")
    button = page.get_by_role("button", name="Use 100 MB more")
    button.click()  # about 160 MB: under the limit
    time.sleep(3)
    assert page.get_by_text(LOST).count() == 0
    assert "over its limit" not in memory_server.log_tail(500)
    button.click()
    button.click()  # about 360 MB: over
    page.get_by_text(LOST).wait_for(state="visible", timeout=30_000)
    assert re.search(r"payme: kernel \S+ uses \d+ MB, over its limit of 250 MB; ending it",
                     memory_server.log_tail(500))  # fmt: skip
    deadline = time.monotonic() + 30
    while page_kernel_pids(memory_server) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert page_kernel_pids(memory_server) == []


# --- clients that never run the page ----------------------------------------------------------


def _plain_get(server: VoilaServer, path: str, headers: dict[str, str] | None = None) -> str:
    """A GET as a crawler sends it: read the whole answer, run nothing."""
    request = urllib.request.Request(server.url(path), headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return str(response.status) + " " + response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return str(error.code) + " " + error.read().decode(errors="replace")


@pytest.fixture(scope="module")
def crawled_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    yield from serving(tmp_path_factory.mktemp("crawled"), ["--PaymeVoila.first_contact_s=3"])


def test_crawlers_and_plain_gets_get_the_static_page_without_a_kernel(
    crawled_server: VoilaServer,
) -> None:
    server = crawled_server
    for agent in (
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0 Safari/537.36",  # no Sec-Fetch
        "",
    ):
        answer = _plain_get(server, "voila/render/play.ipynb?rules=denexa", {"User-Agent": agent})
        assert answer.startswith("200 ") and "payme-landing" in answer, agent
        assert "jupyter-config-data" not in answer
    assert "static page, no kernel" in server.log_tail(200)
    assert _plain_get(server, "voila/render/no_such.ipynb").startswith("404 ")
    assert page_kernel_pids(server) == []


def test_a_page_whose_browser_never_speaks_gives_back_its_turn_and_kernel(
    crawled_server: VoilaServer,
) -> None:
    """A client with a browser's headers that never runs the page: its render turn and kernel
    are given back a few seconds after the render (3 s here, 5 s shipped)."""
    server = crawled_server
    started = time.monotonic()
    answers = []
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for answer in pool.map(
            lambda _i: _plain_get(server, "voila/render/puzzles.ipynb", BROWSER_HEADERS), range(4)
        ):
            answers.append(answer)
    assert all("jupyter-config-data" in a for a in answers), "rendered for a browser"
    sent = time.monotonic() - started
    deadline = time.monotonic() + 20
    while page_kernel_pids(server) and time.monotonic() < deadline:
        time.sleep(0.25)
    assert page_kernel_pids(server) == []
    given_back = time.monotonic() - started
    assert given_back < sent + 3 + 8, (sent, given_back)
    assert server.log_tail(300).count("did not speak within 3 s of its render") == 4


def test_a_browser_that_runs_the_page_keeps_it(crawled_server: VoilaServer, page: Any) -> None:
    page.goto(crawled_server.page_url("puzzles"), wait_until="domcontentloaded")
    wait_ready(page)
    kernel_id = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")["kernelId"]
    time.sleep(5)  # past the 3 s of silence allowed
    assert page.get_by_text(LOST).count() == 0
    ident = page.locator(".payme-puzzle-id")
    first = ident.inner_text()
    page.locator("button.payme-puzzle-new").click()
    expect(ident).not_to_have_text(first)
    assert f"kernel {kernel_id} did not speak" not in crawled_server.log_tail(500)


def test_a_browser_without_navigation_headers_gets_the_page_after_one_reload(
    crawled_server: VoilaServer, browser: Any
) -> None:
    """An older browser (no Sec-Fetch-Mode) gets the static page, whose script sets a cookie
    and loads the page again: then rendered."""
    context = browser.new_context()
    try:
        tab = context.new_page()

        def strip(route: Any) -> None:
            if shells:  # the reload: as the browser sends it (with the cookie now)
                shells.append("payme_js=1" in (route.request.all_headers().get("cookie") or ""))
                route.continue_()
                return
            # The first visit fetched here, without the Sec-Fetch headers a browser adds.
            # (Only this one: Chromium blocks a fulfilled page's socket to 127.0.0.1.)
            headers = {k: v for k, v in route.request.all_headers().items()
                       if not k.lower().startswith("sec-fetch")}  # fmt: skip
            response = route.fetch(headers=headers)
            shells.append("payme-landing" in response.text())
            route.fulfill(response=response)

        shells: list[bool] = []
        tab.route(re.compile(r".*/voila/render/.*"), strip)
        tab.goto(crawled_server.page_url("puzzles"), wait_until="domcontentloaded")
        wait_ready(tab)
        assert "puzzles.ipynb" in tab.url
        assert shells == [True, True], "the static page, then the page with the cookie"
        assert any(c["name"] == "payme_js" for c in context.cookies())
    finally:
        context.close()


# --- URLs and origins -----------------------------------------------------------------------


def test_an_over_long_url_gets_a_readable_414(voila_app: VoilaServer) -> None:
    for path in ("voila/render/play.ipynb?moves=" + "a" * 100_000, "x" * 30_000):
        answer = _plain_get(voila_app, path)
        assert answer.startswith("414 "), answer[:200]
        assert "This link is too long" in answer
    # a long but reasonable query still opens the page (here as a plain GET: the static page)
    assert _plain_get(voila_app, "voila/render/play.ipynb?seed=" + "7" * 8000).startswith("200 ")


def _run(coroutine: Any) -> Any:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _connect(server: VoilaServer, kernel_id: str, origin: str | None) -> int | str:
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    url = server.url(f"api/kernels/{kernel_id}/channels?session_id=t").replace("http", "ws", 1)
    headers = {"Origin": origin} if origin else {}
    try:
        conn = await websocket_connect(HTTPRequest(url, headers=headers, request_timeout=60))
    except HTTPClientError as error:
        return error.code
    conn.close()
    return "open"


def test_a_websocket_without_origin_is_refused(open_page: Any, voila_app: VoilaServer) -> None:
    page = open_page("puzzles")
    config = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")
    kernel_id = config["kernelId"]
    own = voila_app.url().rstrip("/")
    assert _run(_connect(voila_app, kernel_id, None)) == 403
    assert _run(_connect(voila_app, kernel_id, "http://evil.example")) == 403
    assert _run(_connect(voila_app, kernel_id, own)) == "open"
    assert "refused a kernel websocket without an Origin" in voila_app.log_tail(500)


def test_the_security_limits_are_in_the_docs() -> None:
    from payme.app import budget, memory, server, sockets

    docs = (Path(__file__).resolve().parents[2] / "docs" / "app.md").read_text()
    section = docs.split("## Security", 1)[1].split("\n## ", 1)[0]
    for number in (
        f"{sockets.MAX_MESSAGE_BYTES // 1024} kB",
        f"{sockets.MAX_FRAME_BYTES // 2**20} MB",
        f"{memory.KERNEL_BASE_MB} MB",
        f"{memory.default_kernel_limit_mb(2):,} MB",
        f"{memory.ADDRESS_SPACE_MB:,} MB",
        f"{server.MAX_URL_BYTES // 1024} kB",
        f"{budget.FIRST_CONTACT_S:.0f} s",
        f"{int(budget.MEMORY_SHARE * 100)}%",
    ):
        assert number in section, number
    assert COMM_REFUSED in docs


# --- the kernel's own layer (where no payme server filters, e.g. Binder) ------------------------


def test_after_page_ready_the_kernel_shows_no_internals_and_builds_no_client_widget(
    tmp_path: Path,
) -> None:
    code = (
        "import logging, threading, warnings, ipywidgets as w\n"
        "b = w.Button()\n"
        "def fail(_b):\n"
        "    logging.getLogger('payme.widgets').exception('gesture failed')\n"
        "    warnings.warn('old thing', DeprecationWarning, stacklevel=1)\n"
        "    threading.Thread(target=lambda: 1 / 0).start()\n"
        "    import traceback; traceback.print_stack()\n"
        "    raise AttributeError('ThreePackGame has no best_lay_off')\n"
        "b.on_click(fail)\n"
        "print(b.comm.comm_id)"
    )
    with locked_kernel(tmp_path, code) as (client, printed):
        button = printed.split()[0]
        send = client.shell_channel.send
        send(client.session.msg("comm_open", _comm_open("client-widget")[2]))
        send(client.session.msg("comm_open", {"comm_id": "c2", "target_name": 7, "data": None}))
        send(client.session.msg("comm_msg", {"comm_id": button, "data": {"method": "custom",
                                             "content": {"event": "click"}}}))  # fmt: skip
        text = "\n".join(json.dumps(m["content"]) for m in iopub_until_quiet(client))
        assert COMM_REFUSED in text
        for marker in (*INTERNALS, "AttributeError", "ZeroDivisionError", "Deprecation"):
            assert marker not in text, text[:2000]
        msg_id = client.comm_info()
        reply = client.get_shell_msg(timeout=30)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert "client-widget" not in reply["content"]["comms"]
        assert button in reply["content"]["comms"]
