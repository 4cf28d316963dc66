"""The web app under load: many pages opened at once, and many abandoned loads.

Serves ``notebooks/`` with the app server as ``make app`` does (settings from voila.json, the
kernel budget K and the renders at once R at their defaults for this machine, or
``BENCH_LOAD_MAX_KERNELS`` / ``BENCH_LOAD_MAX_RENDERS``), then

* opens N = 5, 10, 20 Hand builder pages at once in Chromium (one browser context each) and
  records each page's time to its first visible control, whether it was shown the busy page
  on the way (it then retries by itself), whether it said that it did not finish loading
  (a minute without controls; the message goes if they come), or the lost-connection
  message, the peak memory
  (resident set of the server and all its kernels, sampled every 0.2 s), then closes the tabs
  without the goodbye request (as a crashed browser does) and counts the pages' kernels still
  alive 60 s later (the spare kernel started for the next visit, payme.app.spare, is not a
  page's; the peak memory and the most kernels at once include it);
* sends 50 page requests that hang up after the first bytes (a crawler, a link preview) and
  counts the pages' kernels alive 60 s later, with the peak memory meanwhile.

Run (about 6 minutes; it prints the table and writes it into docs/benchmarks.md)::

    .venv/bin/python -m benchmarks load
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import socket
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.report import median_worst
from benchmarks.sampler import Sampler
from payme.app.budget import default_max_kernels, default_max_renders, total_memory_mb
from tests.e2e.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOKS,
    VoilaServer,
    kernel_pids,
    page_kernel_pids,
)

PAGE = "hand_builder"
CONTROLS = ", ".join(f".jupyter-widgets {tag}" for tag in ("button", "input", "select", "textarea"))
BUSY = ".payme-busy"
LOST = "#payme-connection-lost"
STALLED = "#payme-page-stalled"
SIZES = tuple(int(n) for n in os.environ.get("BENCH_LOAD_SIZES", "5 10 20").split())
ABANDONED = int(os.environ.get("BENCH_LOAD_ABANDONED", "50"))
# The server's log of the last run is kept here (for the kernels' start and cull times).
LOG_COPY = Path(__file__).resolve().parent.parent / "test-artifacts" / "bench-load-voila.log"
AFTER_S = 60
TIMEOUT_S = 240


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


class PeakMemory(Sampler):
    """Samples the server's and its kernels' resident memory in a thread; keeps the peak."""

    def __init__(self, server: VoilaServer) -> None:
        super().__init__()
        self.server = server
        self.peak = 0.0
        self.peak_kernels = 0

    def sample(self) -> None:
        assert self.server.proc is not None
        kernels = kernel_pids(self.server)
        self.peak = max(self.peak, _rss_mb([self.server.proc.pid, *kernels]))
        self.peak_kernels = max(self.peak_kernels, len(kernels))


def _wait_quiet(server: VoilaServer) -> None:
    deadline = time.monotonic() + 120
    while page_kernel_pids(server) and time.monotonic() < deadline:
        time.sleep(0.5)


# Run in every document of a tab (the busy page's reloads included): notes, by the page's own
# clock, when a control is first visible, whether the busy page was shown (kept in the tab's
# session storage across reloads) and when the lost-connection message appeared.  The page
# watches itself, so a slow poll from here cannot delay or miss a moment.
WATCH = (
    """
(() => {
  const controls = "@CONTROLS@";
  const mark = () => {
    if (document.querySelector("@BUSY@")) sessionStorage.setItem("paymeBusy", "1");
    if (!window.paymeLost && document.querySelector("@LOST@")) window.paymeLost = Date.now();
    if (document.querySelector("@STALLED@")) sessionStorage.setItem("paymeStalled", "1");
    if (window.paymeReady) return;
    for (const el of document.querySelectorAll(controls)) {
      if (el.getClientRects().length && getComputedStyle(el).visibility !== "hidden") {
        window.paymeReady = Date.now();
        return;
      }
    }
  };
  setInterval(mark, 50);
})();
""".replace("@CONTROLS@", CONTROLS)
    .replace("@BUSY@", BUSY)
    .replace("@LOST@", LOST)
    .replace("@STALLED@", STALLED)
)
STATE = (
    "() => [window.paymeReady || 0, sessionStorage.getItem('paymeBusy'), window.paymeLost || 0,"
    " sessionStorage.getItem('paymeStalled')]"
)


def open_at_once(server: VoilaServer, browser: Any, n: int) -> dict[str, Any]:
    """N tabs opened together: time to first control each, busy pages, memory, leftovers."""
    _wait_quiet(server)
    contexts = [browser.new_context(viewport={"width": 1000, "height": 700}) for _ in range(n)]
    pages = []
    logs: list[list[str]] = []
    for context in contexts:
        context.add_init_script(WATCH)
        page = context.new_page()
        log: list[str] = []
        page.on("console", lambda m, log=log: log.append(f"{m.type}: {m.text}"[:300]))
        page.on("pageerror", lambda e, log=log: log.append(f"pageerror: {e}"[:300]))
        page.on("framenavigated", lambda f, log=log: _note_navigation(f, log))
        logs.append(log)
        pages.append(page)
    states: dict[int, list[Any]] = {}
    with PeakMemory(server) as memory:
        start = time.time() * 1000
        for page in pages:  # all requests leave at once: nothing waits for an answer here
            page.evaluate("url => { window.location.href = url; }", server.page_url(PAGE))
        while time.time() * 1000 - start < TIMEOUT_S * 1000:
            for i, page in enumerate(pages):
                with contextlib.suppress(Exception):  # a page navigating meanwhile
                    states[i] = page.evaluate(STATE)
            if len(states) == n and all(ready or lost for ready, _, lost, _ in states.values()):
                break
            time.sleep(0.5)
        # A page whose kernel went after its first control says so within 5 s.
        time.sleep(6)
        for i, page in enumerate(pages):
            with contextlib.suppress(Exception):
                states[i] = page.evaluate(STATE)
        alive_open = len(page_kernel_pids(server))
        for i, page in enumerate(pages):
            ready, _, lost, _ = states.get(i, (0, None, 0, None))
            if not (ready or lost):
                _explain_no_page(page, n, i, logs[i])
        for context in contexts:  # no goodbye request: as if the browser crashed
            for page in context.pages:
                page.close(run_before_unload=False)
            context.close()
        time.sleep(AFTER_S)
    found = list(states.values())
    return {
        "n": n,
        "times": sorted(
            (ready - start) / 1000 for ready, _, lost, _ in found if ready and not lost
        ),
        "busy": sum(1 for _, busy, _, _ in found if busy),
        "lost": sum(1 for _, _, lost, _ in found if lost),
        "stalled": sum(1 for *_, stalled in found if stalled),
        "no_page": n - sum(1 for ready, _, lost, _ in found if ready or lost),
        "open": alive_open,
        "after": len(page_kernel_pids(server)),
        "peak": memory.peak,
        "peak_kernels": memory.peak_kernels,
    }


def _note_navigation(frame: Any, log: list[str]) -> None:
    if frame.parent_frame is None:
        log.append(f"{time.strftime('%H:%M:%S')} navigated {frame.url}"[:300])


def _explain_no_page(page: Any, n: int, i: int, log: list[str]) -> None:
    """What a tab without a control shows: a screenshot and its log in test-artifacts/."""
    out = LOG_COPY.parent
    out.mkdir(exist_ok=True)
    lines = [f"tab {i} of {n}", *log]
    with contextlib.suppress(Exception):
        lines.append(f"url: {page.url}")
        lines.append(f"title: {page.title()}")
        lines.append("text: " + page.evaluate("() => document.body.innerText")[:1500])
        page.screenshot(path=str(out / f"bench-load-no-page-{n}-{i}.png"))
    (out / f"bench-load-no-page-{n}-{i}.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines), flush=True)


def abandon(server: VoilaServer, count: int) -> dict[str, Any]:
    """``count`` requests hung up after the first bytes; kernels alive ``AFTER_S`` later."""
    _wait_quiet(server)
    statuses: list[str] = []
    with PeakMemory(server) as memory:
        for _ in range(count):
            with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
                request = f"GET /voila/render/{PAGE}.ipynb HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                sock.sendall(request.encode())
                statuses.append(sock.recv(64).decode(errors="replace").split(" ")[1])
        time.sleep(AFTER_S)
    return {
        "ok": statuses.count("200"),
        "busy": statuses.count("503"),
        "after": len(page_kernel_pids(server)),
        "peak": memory.peak,
        "peak_kernels": memory.peak_kernels,
    }


def run() -> str:
    """Run the benchmark and return its Markdown section."""
    from playwright.sync_api import sync_playwright

    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    memory = total_memory_mb()
    limit = int(os.environ.get("BENCH_LOAD_MAX_KERNELS", "0")) or default_max_kernels()
    renders = int(os.environ.get("BENCH_LOAD_MAX_RENDERS", "0")) or default_max_renders()
    options = [f"--PaymeVoila.max_kernels={limit}", f"--PaymeVoila.max_renders={renders}"]
    with tempfile.TemporaryDirectory() as tmp:
        server = VoilaServer(NOTEBOOKS, Path(tmp), options, defaults=True)
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                opened = [open_at_once(server, browser, n) for n in SIZES]
                browser.close()
            dropped = abandon(server, ABANDONED)
        finally:
            server.stop()
            LOG_COPY.parent.mkdir(exist_ok=True)
            with contextlib.suppress(OSError):
                shutil.copyfile(server.log_path, LOG_COPY)
    load_end = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())

    lines = [
        "## Web app under load: pages opened at once, abandoned loads",
        "",
        f"Measured {started} on {platform.node()} · {os.cpu_count()} cores · "
        f"{(memory or 0) / 1024:.1f} GB memory · load average {load} at the start, "
        f"{load_end} at the end; kernel budget K = {limit} (`--PaymeVoila.max_kernels`), "
        f"pages rendered at once R = {renders} (`--PaymeVoila.max_renders`). Page: {PAGE}. "
        "Time to first control counts from opening the tabs, busy-page retries included. "
        "Memory: resident set of the server and its kernels together, peak of samples "
        "every 0.2 s. The tabs are closed without the goodbye request (as a crashed "
        f"browser does) and the pages' kernels counted {AFTER_S} s later (the spare kernel "
        "kept for the next visit is not a page's; the peak memory and the most kernels at "
        "once count it). Command: "
        "`python -m benchmarks load`.",
        "",
        "| visitors | first control, median / worst s | shown the busy page on the way "
        "| told to reload | connection lost | no page | kernels while open "
        f"| kernels {AFTER_S} s after | peak memory MB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in opened:
        lines.append(
            f"| {r['n']} at once | {median_worst(r['times'], 1)} | {r['busy']} | {r['stalled']} "
            f"| {r['lost']} "
            f"| {r['no_page']} | {r['open']} | {r['after']} | {r['peak']:.0f} |"
        )
    lines.append(
        f"| {ABANDONED} abandoned loads | - | {dropped['busy']} | - | - | - "
        f"| {dropped['peak_kernels']} at most | {dropped['after']} | {dropped['peak']:.0f} |"
    )
    lines += [
        "",
        f"{ABANDONED} page requests hung up after the first bytes: {dropped['ok']} started a "
        f"kernel, {dropped['busy']} got the busy page; at most {dropped['peak_kernels']} "
        f"kernels at once, {dropped['after']} alive {AFTER_S} s later; peak memory "
        f"{dropped['peak']:.0f} MB.",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run())
