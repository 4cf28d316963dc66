"""A slow crawler beside a real visitor: four plain GETs every 18 s (issue 27's pattern).

Before the server told browsers from other clients, each plain GET of a page held a render
turn for about 20 s and a kernel for up to 45 s, and this pattern took a real visitor's first
control from 4.8 s to 20.9 s (and showed it the busy page).  Serves ``notebooks/`` as
``make app`` does (settings from voila.json, K and R at their defaults for this machine) and
runs cycles of 18 s, taking turns between three conditions:

* *no crawler*: nothing but the visitor;
* *plain GETs*: four GETs of Hand builder at the start of the cycle, sent together, each read
  to the end, with a desktop browser's ``User-Agent`` but none of a browser's navigation
  headers (a crawler that does not say what it is; one that does gets the same static page
  by its ``User-Agent``);
* *GETs with a browser's headers*: the same four, with ``Sec-Fetch-Mode: navigate`` too, so
  each is rendered, with a kernel, and never runs: only the first-contact deadline
  (``--PaymeVoila.first_contact_s``, 5 s) gives their turns and kernels back;

and 0.5 s after the GETs (right behind them, the worst moment) a real visitor opens Hand
builder in Chromium (a new browser profile each time): the time to its first visible control
is recorded, and whether it saw the busy page.

Run (about 6 minutes; it prints the table, and ``python -m benchmarks crawlers`` writes it into
docs/benchmarks.md)::

    .venv/bin/python -m benchmarks.bench_crawlers
"""

from __future__ import annotations

import http.client
import os
import platform
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.bench_load import PAGE, STATE, WATCH
from benchmarks.report import median_worst
from payme.app.budget import default_max_kernels, default_max_renders
from tests.e2e.conftest import (
    BROWSER_HEADERS,
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOKS,
    VoilaServer,
    page_kernel_pids,
)

CYCLE_S = 18.0
GETS = 4
BEHIND_S = 0.5
ROUNDS = int(os.environ.get("BENCH_CRAWLERS_ROUNDS", "4"))
TIMEOUT_S = 120
# A desktop Chrome's User-Agent, without the navigation headers Chrome sends with it.
DESKTOP_AGENT = BROWSER_HEADERS["User-Agent"]
CONDITIONS = {
    "no crawler": None,
    "plain GETs": {"User-Agent": DESKTOP_AGENT, "Accept": "text/html"},
    "GETs with a browser's headers": dict(BROWSER_HEADERS),
}


def _crawl(server: VoilaServer, headers: dict[str, str], statuses: list[int]) -> None:
    def one() -> None:
        request = urllib.request.Request(server.page_url(PAGE), headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                response.read()
                statuses.append(response.status)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)
        except (OSError, http.client.HTTPException):  # cut off (the server stopping at the end)
            statuses.append(0)

    threads = [threading.Thread(target=one) for _ in range(GETS)]
    for thread in threads:
        thread.start()


def _visit(server: VoilaServer, browser: Any) -> tuple[float | None, bool]:
    """A real visitor: seconds to the first visible control (None: none within the time),
    and whether the busy page was shown on the way."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(WATCH)
    page = context.new_page()
    try:
        start = time.time() * 1000
        page.evaluate("url => { window.location.href = url; }", server.page_url(PAGE))
        deadline = time.monotonic() + TIMEOUT_S
        state: list[Any] = [0, None, 0, None]
        while time.monotonic() < deadline:
            try:
                state = page.evaluate(STATE)
            except Exception:  # navigating
                state = [0, None, 0, None]
            if state[0]:
                break
            time.sleep(0.1)
        ready = (state[0] - start) / 1000 if state[0] else None
        return ready, bool(state[1])
    finally:
        for tab in context.pages:
            tab.close(run_before_unload=True)
        context.close()


def run() -> str:
    """Run the cycles; the Markdown section."""
    from playwright.sync_api import sync_playwright

    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    times: dict[str, list[float]] = {name: [] for name in CONDITIONS}
    busy: dict[str, int] = dict.fromkeys(CONDITIONS, 0)
    missing: dict[str, int] = dict.fromkeys(CONDITIONS, 0)
    statuses: dict[str, list[int]] = {name: [] for name in CONDITIONS}
    kernels_after: dict[str, list[int]] = {name: [] for name in CONDITIONS}
    with tempfile.TemporaryDirectory() as tmp:
        server = VoilaServer(NOTEBOOKS, Path(tmp), [], defaults=True).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                _visit(server, browser)  # one discarded visit: caches, the first spare
                time.sleep(3)
                for _round in range(ROUNDS):
                    for name, headers in CONDITIONS.items():
                        cycle = time.monotonic()
                        if headers is not None:
                            _crawl(server, headers, statuses[name])
                        time.sleep(BEHIND_S)
                        ready, was_busy = _visit(server, browser)
                        if ready is None:
                            missing[name] += 1
                        else:
                            times[name].append(ready)
                        busy[name] += was_busy
                        print(f"{name}: {ready} s, busy page {was_busy}", flush=True)
                        time.sleep(max(0.0, cycle + CYCLE_S - 2 - time.monotonic()))
                        kernels_after[name].append(len(page_kernel_pids(server)))
                        time.sleep(max(0.0, cycle + CYCLE_S - time.monotonic()))
                browser.close()
        finally:
            server.stop()
    load_end = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    base = statistics.median(times["no crawler"]) if times["no crawler"] else float("nan")

    lines = [
        "## Web app beside a slow crawler: four plain GETs every 18 s",
        "",
        f"Measured {started} on {platform.node()} · {os.cpu_count()} cores · load average "
        f"{load} at the start, {load_end} at the end; K = {default_max_kernels()}, R = "
        f"{default_max_renders()} (the defaults); {ROUNDS} cycles of {CYCLE_S:.0f} s per "
        "condition, taking turns; the visitor opens Hand builder "
        f"{BEHIND_S} s after the GETs. Command: `python -m benchmarks crawlers`.",
        "",
        "| condition | first control, median / worst s | × no crawler (median) "
        "| busy page shown | no control in 120 s | GETs answered | page kernels 16 s after |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in CONDITIONS:
        ratio = statistics.median(times[name]) / base if times[name] and base == base else None
        answered = ", ".join(f"{s}×{statuses[name].count(s)}" for s in sorted(set(statuses[name])))
        lines.append(
            f"| {name} | {median_worst(times[name])} | {f'{ratio:.2f}' if ratio else '-'} "
            f"| {busy[name]} | {missing[name]} | {answered or '-'} "
            f"| {max(kernels_after[name], default=0)} at most |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run())
