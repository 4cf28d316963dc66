"""Browser-test fixtures: serve ``notebooks/`` with the payme app server, drive it with Chromium.

Use them like this::

    def test_something(open_page, page_errors):
        page = open_page("hand_builder", query="hand=7H 8H 9H")   # waits for the first widget
        page.locator(".payme-hand-input input").fill("nonsense")
        ...
        assert not page_errors

Fixtures
--------
``voila_app``   (session) the running :class:`VoilaServer` with the repository's settings
                (payme/app/voila.json) plus tracebacks shown; ``voila_app.url(path)``,
                ``voila_app.page_url(name, query)``.  ``PAYME_VOILA_ARGS`` adds options.
``browser``     (session) headless Chromium from ``/usr/bin/chromium`` (``PAYME_CHROMIUM``).
``page``        a fresh 1000x700 page with a 60 s default timeout; a screenshot of it is saved
                to ``test-artifacts/`` when the test fails.
``page_errors`` uncaught JavaScript errors and console errors of ``page``, collected as they
                happen (a list of strings).
``outside_requests`` every request of ``page`` to a host other than 127.0.0.1/localhost.
``open_page``   ``open_page(name, query="", ready=FIRST_WIDGET)`` opens
                ``notebooks/<name>.ipynb`` and waits until ``ready`` is visible; an error
                output in the page (tracebacks are shown in tests) fails the test at once,
                with the traceback text.

Chromium missing: the browser tests are skipped on a developer machine, but fail when
``CI=true``, so CI never passes with them quietly skipped.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from payme.app.kernel import VISIT_FILE

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("PAYME_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    # Offline machine: fail every lookup except the app's own host at once.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]
READY_TIMEOUT_S = float(os.environ.get("VOILA_READY_TIMEOUT_S", "90"))
# A notebook is executed while its page is requested; on a loaded 2-core machine that can
# take long, so the page waits are generous (the speed target is measured in benchmarks).
PAGE_TIMEOUT_MS = 120_000

# The headers a browser sends when it navigates to a page: the server renders a page only for
# such a request (or a browser that ran the static page's script; payme.app.visitors), and
# gives a plain GET the static landing page.  For tests that fetch a page without a browser.
BROWSER_HEADERS = {
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36",
    "Sec-Fetch-Mode": "navigate",
    "Sec-Fetch-Dest": "document",
}

# What counts as "the page is usable": the first rendered widget.
FIRST_WIDGET = ".jupyter-widgets"
# Outputs Voilà renders for an exception in a cell (tracebacks are on in tests).
# The start of a page script that talks to the page's own kernel over a second websocket
# (so with the page's origin and cookies, as a script injected in the page would; the legacy
# JSON protocol, which Jupyter Server speaks when no subprotocol is asked for): ``ws`` the
# open socket, ``envelope(channel, msg_type, content, msg_id?)`` a message as sent.
KERNEL_SOCKET_JS = """
  const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  const url = `ws://${location.host}/api/kernels/${config.kernelId}/channels`;
  const ws = new WebSocket(url);
  await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
  const session = crypto.randomUUID();
  const envelope = (channel, msg_type, content, msg_id) => JSON.stringify({
    header: {msg_id: msg_id || crypto.randomUUID(), msg_type, session, username: 'visitor',
             date: new Date().toISOString(), version: '5.3'},
    parent_header: {}, metadata: {}, content, channel, buffers: [],
  });
"""

ERROR_OUTPUT = (
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], '
    ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error'], "
    ".voila-error, .jp-OutputArea-output.jp-mod-error"
)

# Page-to-ready times measured by open_page, printed at the end of the run.
TIMINGS: list[tuple[str, float]] = []


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _stop_with_parent() -> None:
    """In the child, before exec: ask Linux to SIGTERM it when pytest dies.

    Without this a pytest killed hard (a CI timeout, SIGKILL) leaves Voilà and its kernels
    running, since no teardown runs.  Elsewhere than Linux this does nothing.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)


class VoilaServer:
    """The app server (``python -m payme.app.server``) on a free port, stopped by :meth:`stop`.

    ``extra`` options are passed on (e.g. ``["--preheat_kernel=True"]``).  ``defaults=True``
    leaves out ``--Voila.ip`` and ``--show_tracebacks`` to test the settings in ``voila.json``.
    """

    def __init__(
        self,
        target: Path,
        logdir: Path,
        extra: list[str] | None = None,
        *,
        defaults: bool = False,
    ) -> None:
        self.port = free_port()
        self.log_path = logdir / f"voila-{self.port}.log"
        self.cmd = [
            sys.executable,
            "-m",
            "payme.app.server",
            str(target),
            "--no-browser",
            f"--port={self.port}",
            *([] if defaults else ["--Voila.ip=127.0.0.1", "--show_tracebacks=True"]),
            *(extra or []),
        ]
        self.proc: subprocess.Popen[bytes] | None = None
        self.cwd = REPO

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}/{path.lstrip('/')}"

    def page_url(self, name: str, query: str = "") -> str:
        name = name if name.endswith(".ipynb") else f"{name}.ipynb"
        return self.url(f"voila/render/{name}") + (f"?{query.lstrip('?')}" if query else "")

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def start(self) -> VoilaServer:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("wb")  # a file, never a pipe that could fill and block
        try:
            self.proc = subprocess.Popen(
                self.cmd,
                cwd=self.cwd,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=_stop_with_parent,
            )
            self._wait_ready()
        except BaseException:
            # pytest runs no teardown for a fixture that raised before its yield
            self.stop()
            raise
        finally:
            log.close()
        return self

    def _follow_moved_port(self) -> None:
        """The free port chosen for the server can be taken before it binds (a kernel's
        ports are random too); Jupyter then serves on the next port and says so."""
        log = self.log_tail(200)
        if "is already in use" in log:
            moved = re.search(r"running at:\s*http://[^/\s]+:(\d+)/", log)
            if moved:
                self.port = int(moved.group(1))

    def _wait_ready(self) -> None:
        # A static file: answers as soon as the server listens, and starts no kernel.
        deadline = time.monotonic() + READY_TIMEOUT_S
        assert self.proc is not None
        while time.monotonic() < deadline:
            probe = self.url("voila/static/voila.js")
            if self.proc.poll() is not None:
                raise RuntimeError(f"Voilà exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(probe, timeout=2):
                    return
            except urllib.error.HTTPError:
                return  # any HTTP answer means it is serving
            except OSError:
                self._follow_moved_port()
                time.sleep(0.1)
        raise TimeoutError(
            f"Voilà not ready after {READY_TIMEOUT_S:.0f} s on port {self.port}:\n{self.log_tail()}"
        )

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        # SIGTERM lets Voilà shut its kernels down itself.
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            # The kernels then exit through ipykernel's parent poller.
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def kernel_pids(server: VoilaServer) -> list[int]:
    """The process ids of the server's kernels (its child processes, read from /proc)."""
    assert server.proc is not None
    parent = str(server.proc.pid)
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        if fields[1] == parent:  # fields after the name: state, ppid, ...
            found.append(int(stat.parent.name))
    return found


def spare_kernel_ids(server: VoilaServer) -> set[str]:
    """The ids of the spare kernels no visit has taken yet (payme.app.spare), from the log."""
    log = server.log_tail(1_000_000)
    started = set(re.findall(r"payme: spare kernel ([-0-9a-f]+) started", log))
    taken = set(re.findall(r"payme: a visit takes spare kernel ([-0-9a-f]+)", log))
    gone = set(re.findall(r"Kernel shutdown: ([-0-9a-f]+)", log))
    return started - taken - gone


def page_kernel_pids(server: VoilaServer) -> list[int]:
    """The process ids of the server's kernels that serve a page: spares left out, and so
    are processes that have ended (a zombie until the server reaps it).

    A spare is known from its start by its environment, which names its visit file
    (payme.app.spare), before the log says it started: it serves a page once the log says a
    visit took it.
    """
    taken = set(
        re.findall(r"payme: a visit takes spare kernel ([-0-9a-f]+)", server.log_tail(1_000_000))
    )
    found = []
    for pid in kernel_pids(server):
        proc = Path(f"/proc/{pid}")
        try:
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            argv = (proc / "cmdline").read_bytes().decode(errors="replace")
            environ = (proc / "environ").read_bytes()
        except OSError:
            continue  # the process ended meanwhile
        if state == "Z":
            continue
        named = re.search(r"kernel-([-0-9a-f]+)\.json", argv)
        started_spare = VISIT_FILE.encode() + b"=" in environ
        if started_spare and (named is None or named.group(1) not in taken):
            continue
        found.append(pid)
    return found


def _require_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    message = f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
    if in_ci():
        pytest.fail(message + "; browser tests may not be skipped in CI", pytrace=False)
    pytest.skip(message)


def serving(workdir: Path, options: list[str]) -> Iterator[VoilaServer]:
    """For a fixture: the app over ``notebooks/`` with ``options``, stopped at teardown."""
    server = VoilaServer(NOTEBOOKS, workdir, options).start()
    try:
        yield server
    finally:
        server.stop()


def leave(context: Any) -> None:
    """Close a browser context the way a visitor closes a tab: each page's ``beforeunload``
    runs, so Voilà's script asks the server to shut its kernel down.

    Playwright's ``context.close()`` alone skips it, and each page's kernel then lived until the
    culler took it 30-40 s later: a fast run of tests opened pages quicker than that, reached the
    server's kernel budget and was served the busy page (HTTP 503).
    """
    for pg in list(context.pages):
        try:
            with pg.expect_event("close", timeout=10_000):
                pg.close(run_before_unload=True)
        except Exception as exc:  # a crashed or hung page: the culler still takes its kernel
            print(f"closing {pg.url} with its goodbye failed: {exc}")
    context.close()


def rightmost(page: Any, root: str) -> float:
    """How far right (px) the furthest element inside ``root`` reaches, cards included."""
    return float(
        page.evaluate(
            """(root) => Math.max(...[...document.querySelectorAll(root + ' *')]
                 .map(e => e.getBoundingClientRect().right))""",
            root,
        )
    )


@pytest.fixture(scope="session")
def voila_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    _require_chromium()
    # PAYME_VOILA_ARGS adds options, e.g. "--preheat_kernel=False" to compare.
    extra = os.environ.get("PAYME_VOILA_ARGS", "").split()
    yield from serving(tmp_path_factory.mktemp("voila"), extra)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    _require_chromium()
    from playwright.sync_api import expect, sync_playwright

    # expect() retries for 5 s by default; a loaded 2-core CI machine can take longer to
    # answer a click that plays a game in the kernel, so give assertions the page's patience.
    expect.set_options(timeout=30_000)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    # Keep each phase's report on the item, so the page fixture knows whether the test failed.
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    context.set_default_timeout(60_000)
    pg = context.new_page()
    try:
        yield pg
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[-150:]
            try:
                pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
            except Exception as exc:  # a crashed page must not hide the test's own failure
                print(f"screenshot failed: {exc}")
        leave(context)


@pytest.fixture
def page_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))

    def on_console(msg: Any) -> None:
        if msg.type == "error" and not _harmless_console_error(msg.text):
            errors.append(f"console: {msg.text}")

    page.on("console", on_console)
    return errors


def _harmless_console_error(text: str) -> bool:
    # Chromium reports the favicon it cannot find; not the app's fault.
    return "favicon" in text


@pytest.fixture
def outside_requests(page: Any) -> list[str]:
    urls: list[str] = []

    def on_request(req: Any) -> None:
        host = re.sub(r"^[a-z]+://([^/:]+).*$", r"\1", req.url)
        if req.url.startswith(("data:", "blob:", "about:")):
            return
        if host not in {"127.0.0.1", "localhost"}:
            urls.append(req.url)

    page.on("request", on_request)
    return urls


def wait_ready(page: Any, ready: str = FIRST_WIDGET, timeout_ms: int = PAGE_TIMEOUT_MS) -> None:
    """Wait until ``ready`` is visible; fail with the traceback if an error output appears."""
    # Only visible matches count: a page may hold hidden widgets before its first visible one.
    target = page.locator(f"{ready} >> visible=true").or_(page.locator(ERROR_OUTPUT))
    target.first.wait_for(state="visible", timeout=timeout_ms)
    errors = page.locator(ERROR_OUTPUT)
    if errors.count():
        pytest.fail(f"error shown in {page.url}:\n{errors.first.inner_text()}", pytrace=False)


@pytest.fixture
def open_page(page: Any, voila_app: VoilaServer) -> Callable[..., Any]:
    def _open(name: str, query: str = "", ready: str = FIRST_WIDGET) -> Any:
        start = time.monotonic()
        page.goto(
            voila_app.page_url(name, query),
            wait_until="domcontentloaded",
            timeout=PAGE_TIMEOUT_MS,
        )
        wait_ready(page, ready)
        TIMINGS.append((name + (f"?{query}" if query else ""), time.monotonic() - start))
        return page

    return _open


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if TIMINGS:
        terminalreporter.section("payme app: page opened -> ready (s)")
        for name, seconds in TIMINGS:
            terminalreporter.write_line(f"{seconds:6.2f}  {name}")


@contextlib.contextmanager
def locked_kernel(folder: Path, code: str) -> Iterator[tuple[Any, str]]:
    """A real kernel under Voilà's environment that ran ``code`` and then ``page_ready()``, as
    a page's last cell does: ``(client, what the code printed)``, the set-up's messages drained.
    """
    import queue

    from jupyter_client.manager import start_new_kernel

    env = {**os.environ, "VOILA_BASE_URL": "/", "VOILA_PREHEAT": "False"}
    manager, client = start_new_kernel(kernel_name="python3", env=env, cwd=str(folder))
    try:
        printed: list[str] = []

        def keep(msg: dict[str, Any]) -> None:
            if msg["msg_type"] == "stream":
                printed.append(msg["content"]["text"])

        code += "\nfrom payme.app.page import page_ready; page_ready()"
        reply = client.execute_interactive(code, timeout=60, output_hook=keep)
        assert reply["content"]["status"] == "ok", reply
        while True:  # drop what the set-up sent
            try:
                client.get_iopub_msg(timeout=1)
            except queue.Empty:
                break
        yield client, "".join(printed)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def iopub_until_quiet(client: Any, quiet_s: float = 5) -> list[dict[str, Any]]:
    """The kernel's broadcasts until none comes for ``quiet_s`` seconds."""
    import queue

    found = []
    while True:
        try:
            found.append(client.get_iopub_msg(timeout=quiet_s))
        except queue.Empty:
            return found
