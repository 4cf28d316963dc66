"""The web app's speed and memory: page opened -> first interactive widget, kernel RSS per page.

Serves ``notebooks/`` with the app server twice, as ``make app`` does (settings from
``voila.json``): once with a fresh kernel started per visit, once with Voilà's preheated kernels
(a pool of one executed kernel per notebook).  For each page, Chromium opens it ``REPEATS``
times; the time runs from ``page.goto`` to the first visible button/text box/dropdown (the
landing page has none: its list of links counts).  ``home`` is the page a visitor gets at the
root, ``/`` (the landing page as a file, no kernel; every page's header links to it);
``index`` is the same content as a notebook page, at /voila/render/index.ipynb.  Memory is
the resident set size of the page's kernel process, read from /proc while the page is open.
Visits are 2 s apart (``SETTLE_S``), so each finds the server idle::

    .venv/bin/python -m benchmarks app      # or: .venv/bin/python -m benchmarks.bench_app

``BENCH_APP_REPEATS`` sets the visits per page (default 3).

Side by side, for a change's before and after on a busy machine: ``--compare DIR`` serves
this checkout and another one (``DIR``: e.g. ``git worktree add /tmp/before main``, with its
compiled core) at once and alternates cold visits between them (A then B, then B then A; a
first round is discarded), and prints per page the median first control, the kernel's CPU
at that moment, the server's CPU during the visit, the widget models the page's state
carries, the CPU time of the browser's processes on the way to the first control (less
noisy than the wall time on a shared machine), and when the kernel was ready, the notebook
had run and the window's load event came (the phases before the front end starts;
``--pages a,b`` limits the pages)::

    .venv/bin/python -m benchmarks.bench_app --compare /tmp/before --pages play,puzzles

``--front-ends voila,lite`` serves the *before* side's pages with Voilà's own front end and
the *after* side's with payme's light one (:mod:`payme.app.front_end`); without
``--compare`` both sides are this checkout, so the two front ends are compared alone::

    BENCH_APP_REPEATS=5 .venv/bin/python -m benchmarks.bench_app --front-ends voila,lite
"""

from __future__ import annotations

import json
import os
import platform
import re
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from payme.app.page import PAGES
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, NOTEBOOKS, VoilaServer

REPEATS = int(os.environ.get("BENCH_APP_REPEATS", "3"))
# The first *visible* control: some pages keep a hidden <select> or input in the DOM.
INTERACTIVE = ".jupyter-widgets :is(button, input, select, textarea):visible"
# The app's home page: the landing page the server answers ``/`` with, a file (no kernel),
# which every page's header links to. ``index`` is the same page as a notebook, at the
# address it had before (/voila/render/index.ipynb).
HOME = "home"
READY = {"index": ".payme-landing", HOME: ".payme-landing"}
# First paint: the page's heading, which the template streams before the kernel has run.
HEADING = ".payme-skeleton h1, .payme-page-header h1, .payme-landing h1"
TIMEOUT_MS = 120_000
PREHEAT = ["--preheat_kernel=True", "--pool_size=1"]
# Seconds between visits: what a visit leaves to do (the spare kernel's start for the next
# visit, payme.app.spare; the kernel's shutdown as its page closes) is done before the next
# visit, which finds the server idle, as a visitor who reads a page before the next does.
SETTLE_S = 2.0


def _pages() -> list[str]:
    names = ["index"] + [p.notebook.removesuffix(".ipynb") for p in PAGES]
    return [HOME] + [n for n in names if (NOTEBOOKS / f"{n}.ipynb").exists()]


def _url(server: VoilaServer, name: str) -> str:
    return server.url("/") if name == HOME else server.page_url(name)


def _page_kernel(page: Any, name: str) -> int | None:
    """The process id of the kernel behind an open page (none for the home page)."""
    if name == HOME:
        return None
    config = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")
    return _kernel_pid(config.get("kernelId", "?"))


def _rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) / 1024 if match else float("nan")


def _kernel_pid(kernel_id: str) -> int | None:
    """The process whose command line names the kernel's connection file."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if f"kernel-{kernel_id}.json" in cmdline:
            return int(proc.name)
    return None


def _pool_refills(server: VoilaServer, name: str) -> int:
    return server.log_tail(100_000).count(f"Kernel pool of {name}.ipynb is filled")


def _wait_for_pool(server: VoilaServer, name: str, at_least: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while _pool_refills(server, name) < at_least and time.monotonic() < deadline:
        time.sleep(0.2)


def _visit(context: Any, server: VoilaServer, name: str) -> tuple[float, float, float]:
    """Open one page; return (seconds to its heading, seconds to the first interactive
    widget, kernel RSS in MB)."""
    page = context.new_page()
    try:
        start = time.monotonic()
        page.goto(_url(server, name), wait_until="commit", timeout=TIMEOUT_MS)
        page.locator(HEADING).first.wait_for(state="visible", timeout=TIMEOUT_MS)
        heading = time.monotonic() - start
        page.locator(READY.get(name, INTERACTIVE)).first.wait_for(
            state="visible", timeout=TIMEOUT_MS
        )
        seconds = time.monotonic() - start
        pid = _page_kernel(page, name)
        rss = _rss_mb(pid) if pid else float("nan")
        return heading, seconds, rss
    finally:
        page.close()


Timings = dict[str, dict[str, list[float]]]


def measure(preheat: bool) -> Timings:
    """Per page: ``cold`` (a new browser profile each visit), ``warm`` (the browser has
    Voilà's scripts cached, as after the landing page) and ``rss`` (MB)."""
    from playwright.sync_api import sync_playwright

    results: Timings = {}
    pages = _pages()
    with tempfile.TemporaryDirectory() as tmp:
        server = VoilaServer(NOTEBOOKS, Path(tmp), PREHEAT if preheat else [], defaults=True)
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                if preheat:  # a warm server: every notebook's first kernel is ready
                    for name in pages:
                        if name != HOME:
                            _wait_for_pool(server, name, at_least=1)
                warm_context = browser.new_context(viewport={"width": 1000, "height": 700})
                for name in pages:
                    found: dict[str, list[float]] = {"cold": [], "warm": [], "rss": [], "paint": []}
                    for kind in ("cold", "warm"):
                        for _ in range(REPEATS):
                            if preheat and name != HOME:  # the pool refilled after a visit
                                _wait_for_pool(server, name, at_least=1 + found_visits(found))
                            if kind == "cold":
                                context = browser.new_context(
                                    viewport={"width": 1000, "height": 700}
                                )
                                paint, seconds, mb = _visit(context, server, name)
                                context.close()
                            else:
                                paint, seconds, mb = _visit(warm_context, server, name)
                            found[kind].append(seconds)
                            if kind == "cold":
                                found["paint"].append(paint)
                            found["rss"].append(mb)
                            time.sleep(SETTLE_S)  # a visit to a server that is idle again
                    results[name] = found
                browser.close()
        finally:
            server.stop()
    return results


def found_visits(found: dict[str, list[float]]) -> int:
    return len(found["cold"]) + len(found["warm"])


def _machine() -> str:
    load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    return (
        f"{platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()} · "
        f"load average at start {load}"
    )


def run() -> str:
    """Run the benchmark and return its Markdown section."""
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    machine = _machine()
    fresh = measure(preheat=False)
    heated = measure(preheat=True)

    def cell(times: list[float]) -> str:
        return f"{statistics.median(times):.2f} ({max(times):.2f})" if times else "-"

    lines = [
        "## Web app: page opened -> first interactive widget, and kernel memory",
        "",
        f"Measured {started} on {machine}; {REPEATS} visits per page and column, headless "
        "Chromium 156; median (slowest) seconds. *cold*: a new browser profile each visit; "
        "*warm*: Voilà's scripts already cached, as when a visitor comes from the landing "
        "page. *fresh kernel*: the page's notebook runs during the visit, in the spare "
        "kernel the server started ahead (payme.app.spare); *preheated*: Voilà's pool, whose "
        f"kernels have run the notebook already. Visits are {SETTLE_S:g} s apart. The "
        "machine is shared with other work, so the times are noisy upper bounds.",
        "",
        "The first column is the first paint: the page's heading (and the site header), "
        "which the template sends before the kernel has run the notebook.",
        "",
        "| page | heading, fresh kernel, cold | fresh kernel, cold | fresh kernel, warm "
        "| preheated, cold | preheated, warm | kernel RSS MB |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, found in fresh.items():
        other = heated.get(name, {"cold": [], "warm": [], "rss": [], "paint": []})
        rss = [x for x in found["rss"] + other["rss"] if x == x]  # drop NaN
        lines.append(
            f"| {name} | {cell(found['paint'])} | {cell(found['cold'])} | {cell(found['warm'])} | "
            f"{cell(other['cold'])} | {cell(other['warm'])} | "
            f"{f'{statistics.median(rss):.0f}' if rss else '-'} |"  # home: no kernel
        )
    total = sum(statistics.median([x for x in f["rss"] if x == x] or [0.0]) for f in fresh.values())
    lines += [
        "",
        f"Preheating keeps one executed kernel waiting per notebook: about {total:.0f} MB "
        "idle for these pages, and each visit starts the next kernel in the background.",
    ]
    return "\n".join(lines) + "\n"


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# When, in seconds after the request, the page's kernel was ready (the template's mark), its
# notebook had run (the page's HTML is complete) and the window's load event fired (Voilà's
# front end starts then).
PHASES_JS = """() => {
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
  const nav = performance.getEntriesByType("navigation")[0];
  return {ready: mark("payme-kernel-ready") / 1000, notebook: mark("payme-notebook-done") / 1000,
          load: nav.loadEventStart / 1000};
}"""
PHASES = (("ready", "kernel ready"), ("notebook", "notebook run"), ("load", "load event"))


def _browser_cpu(cdp: Any) -> dict[int, float]:
    """CPU seconds so far of each of the browser's processes, by process id."""
    found = cdp.send("SystemInfo.getProcessInfo")["processInfo"]
    return {int(p["id"]): float(p["cpuTime"]) for p in found}


def _counted_visit(browser: Any, server: VoilaServer, name: str) -> dict[str, float]:
    """One cold visit: seconds to the first control, kernel and server CPU, widget models."""
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    models = [0]

    def on_socket(socket: Any) -> None:
        def received(payload: str | bytes) -> None:
            data = payload if isinstance(payload, bytes) else payload.encode()
            models[0] += data.count(b'"_model_name"')

        socket.on("framereceived", received)

    page.on("websocket", on_socket)
    # The CPU time of the browser's processes (renderers, GPU, network, the browser's own)
    # from the request to the first control: what the page costs the browser, which a busy
    # machine does not inflate as it does the wall time.
    cdp = browser.new_browser_cdp_session()
    browser_cpu = _browser_cpu(cdp)
    assert server.proc is not None
    server_cpu = _cpu_seconds(server.proc.pid)
    try:
        start = time.monotonic()
        page.goto(_url(server, name), wait_until="commit", timeout=TIMEOUT_MS)
        page.locator(READY.get(name, INTERACTIVE)).first.wait_for(
            state="visible", timeout=TIMEOUT_MS
        )
        seconds = time.monotonic() - start
        used = _browser_cpu(cdp)
        pid = _page_kernel(page, name)
        return {
            "seconds": seconds,
            "browser": sum(cpu - browser_cpu.get(p, 0.0) for p, cpu in used.items()),
            "kernel": _cpu_seconds(pid) if pid else float("nan"),
            "server": _cpu_seconds(server.proc.pid) - server_cpu,
            "models": models[0],
            **page.evaluate(PHASES_JS),
        }
    finally:
        context.close()


def compare(
    other: Path,
    pages: list[str],
    repeats: int = REPEATS,
    front_ends: tuple[str | None, str | None] = (None, None),
) -> str:
    """A Markdown table: this checkout (*after*) against ``other`` (*before*), side by side.

    ``front_ends`` names the front end each side's server gives its pages (``None``: its
    default; see :mod:`payme.app.front_end`): ``other`` may then be this very checkout.
    """
    from playwright.sync_api import sync_playwright

    here = Path(__file__).resolve().parents[1]
    found: dict[str, dict[str, list[dict[str, float]]]] = {"before": {}, "after": {}}
    with tempfile.TemporaryDirectory() as tmp:
        servers = {}
        saved = os.environ.get("PYTHONPATH")
        try:
            sides = (("before", other.resolve(), front_ends[0]), ("after", here, front_ends[1]))
            for kind, root, front_end in sides:
                os.environ["PYTHONPATH"] = str(root)  # its server and kernels import its payme
                extra = [f"--PaymeVoila.front_end={front_end}"] if front_end else []
                servers[kind] = VoilaServer(root / "notebooks", Path(tmp), extra, defaults=True)
                servers[kind].cwd = root
                servers[kind].start()
        finally:
            os.environ.pop("PYTHONPATH", None)
            if saved is not None:
                os.environ["PYTHONPATH"] = saved
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for round_ in range(repeats + 1):
                    for name in pages:
                        order = ["before", "after"][:: 1 if round_ % 2 == 0 else -1]
                        for kind in order:
                            visit = _counted_visit(browser, servers[kind], name)
                            if round_:  # the first round warms caches on both sides
                                found[kind].setdefault(name, []).append(visit)
                            # What a visit leaves to do must not count against the next
                            # visit, of either checkout.
                            time.sleep(SETTLE_S)
                browser.close()
        finally:
            for server in servers.values():
                server.stop()

    def median(kind: str, name: str, key: str) -> float:
        return statistics.median(v[key] for v in found[kind][name])

    named = f"; front ends {front_ends[0] or 'default'} → {front_ends[1] or 'default'}"
    lines = [
        f"Side by side, {datetime.now(UTC):%Y-%m-%d %H:%M UTC}, {_machine()}; {repeats} cold "
        f"visits each, alternating; medians, before → after ({other} → {here}"
        + (named if any(front_ends) else "")
        + ").",
        "",
        "| page | first control (s) | "
        + " | ".join(f"{label} (s)" for _, label in PHASES)
        + " | kernel CPU (s) | server CPU (s) | browser CPU (s) | widget models |",
        "|---|---|" + "---|" * len(PHASES) + "---|---|---|---|",
    ]
    keys = ["seconds", *(key for key, _ in PHASES), "kernel", "server", "browser"]
    for name in pages:
        cells = [
            f"{median('before', name, key):.2f} → {median('after', name, key):.2f}" for key in keys
        ]
        before, after = median("before", name, "models"), median("after", name, "models")
        cells.append(f"{before:.0f} → {after:.0f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", type=Path, help="another checkout to compare with")
    parser.add_argument("--pages", help="comma-separated page names (default: all)")
    parser.add_argument(
        "--front-ends",
        metavar="BEFORE,AFTER",
        help="the pages' front end on each side of --compare (lite or voila, see "
        "payme.app.front_end); without --compare both sides are this checkout",
    )
    args = parser.parse_args()
    if args.compare or args.front_ends:
        pair = (args.front_ends or ",").split(",")
        if len(pair) != 2:
            parser.error("--front-ends takes two names: BEFORE,AFTER (e.g. voila,lite)")
        print(
            compare(
                args.compare or Path(__file__).resolve().parents[1],
                args.pages.split(",") if args.pages else _pages(),
                front_ends=(pair[0] or None, pair[1] or None),
            )
        )
    else:
        print(run())
