"""Each page's kernel memory after real use: where the per-kernel memory limit comes from.

Serves ``notebooks/`` as ``make app`` does and opens each page in Chromium, one at a time, uses
it the way a visitor does, and samples the page kernel's resident memory (its worker processes
included, as :mod:`payme.app.memory` counts it) and its mapped address space every 0.2 s:

* the landing page and the two tutorials: opened, then left 5 s;
* Hand builder: five hands typed;
* Puzzles: ten new puzzles;
* Play: two whole hands of Pay Me played by clicks on the table, then one of Rummy 3-Pack;
* Analysis: the largest run the page allows (2,000 games, the three Pay Me rule sets
  compared), with its plots and CSV.

Run (about 5 minutes on a quiet machine; it prints a Markdown table)::

    .venv/bin/python -m benchmarks.bench_memory
"""

from __future__ import annotations

import os
import platform
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.sampler import Sampler
from payme.app.memory import default_kernel_limit_mb, pss_mb, rss_mb
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, NOTEBOOKS, VoilaServer, page_kernel_pids


def _vsz_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Peak(Sampler):
    """The page kernel's peak resident memory (with its children: resident sets added up,
    every 0.2 s, and proportional sets, every second) and its address space."""

    def __init__(self, server: VoilaServer) -> None:
        super().__init__()
        self.server = server
        self.rss = self.pss = self.vsz = 0.0
        self._turn = 0

    def sample(self) -> None:
        for pid in page_kernel_pids(self.server):
            self.rss = max(self.rss, rss_mb(pid))
            self.vsz = max(self.vsz, _vsz_mb(pid))
            if self._turn % 5 == 0:
                self.pss = max(self.pss, pss_mb(pid))
        self._turn += 1


def _idle(page: Any) -> None:
    page.wait_for_timeout(5000)


def _hands(page: Any) -> None:
    box = page.locator(".payme-hand-text input")
    for hand in ("7H 8H 9H KD QS 4C 3D", "AS 2S 3S 4S 5S 6S 7S", "JK JK 5D 5C 5H 9S 9D",
                 "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "KD KH KS 2D 3D 4D"):  # fmt: skip
        box.fill(hand)
        box.press("Enter")
        page.wait_for_timeout(800)


def _puzzles(page: Any) -> None:
    for _ in range(10):
        page.locator("button.payme-puzzle-new").click()
        page.wait_for_timeout(600)


def _play(page: Any) -> None:
    from tests.e2e.test_play import _play_by_clicks

    _play_by_clicks(page, hands=2)


def _three_pack(page: Any) -> None:
    from tests.e2e.test_play import _play_by_clicks

    _play_by_clicks(page, hands=1)


def _analysis(page: Any) -> None:
    page.locator("button.payme-analysis-run").click()
    page.locator(".payme-message", has_text="Done:").wait_for(timeout=900_000)
    page.wait_for_timeout(2000)


PAGE_READY = ".jupyter-widgets"
# BENCH_MEMORY_PAGES="analysis play" measures only those pages.
ONLY = os.environ.get("BENCH_MEMORY_PAGES", "").split()
USES: list[tuple[str, str, str, Callable[[Any], None]]] = [
    ("index", "", ".payme-landing", _idle),
    ("learn_pay_me", "", PAGE_READY, _idle),
    ("learn_three_pack", "", PAGE_READY, _idle),
    ("hand_builder", "", ".payme-hand-text input", _hands),
    ("puzzles", "", "button.payme-puzzle-new", _puzzles),
    ("play", "rules=denexa&players=2&bots=greedy&seed=4", ".pm-table .pm-hand-card", _play),
    ("play", "rules=three_pack&players=3&bots=greedy&seed=2", ".pm-table .pm-hand-card",
     _three_pack),
    ("analysis", "games=2000&players=4&bots=greedy&compare=1&seed=1", "button.payme-analysis-run",
     _analysis),
]  # fmt: skip


def run() -> str:
    """Measure every page; the Markdown table."""
    from playwright.sync_api import sync_playwright

    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        # No limit while measuring: the point is to see what the pages need.
        unlimited = ["--PaymeVoila.kernel_memory_mb=100000"]
        server = VoilaServer(NOTEBOOKS, Path(tmp), unlimited, defaults=True).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name, query, ready, use in USES:
                    if ONLY and name not in ONLY:
                        continue
                    while page_kernel_pids(server):
                        time.sleep(0.5)
                    context = browser.new_context(viewport={"width": 1280, "height": 900})
                    page = context.new_page()
                    page.set_default_timeout(120_000)
                    with Peak(server) as peak:
                        page.goto(server.page_url(name, query), wait_until="domcontentloaded")
                        page.locator(ready).first.wait_for(state="visible", timeout=120_000)
                        page.wait_for_timeout(4000)  # Analysis loads pandas after 3 s
                        opened = max((rss_mb(p) for p in page_kernel_pids(server)), default=0)
                        use(page)
                    rows.append((name, query, opened, peak.rss, peak.pss, peak.vsz))
                    print(f"{name} {query}: {opened:.0f} -> {peak.rss:.0f} MB", flush=True)
                    for tab in context.pages:
                        tab.close(run_before_unload=True)
                    context.close()
                browser.close()
        finally:
            server.stop()
    lines = [
        f"Measured {started} on {platform.node()} · {os.cpu_count()} cores · load average "
        f"{load} at the start; `python -m benchmarks memory`. Memory of the page's kernel "
        "with its worker processes (MB): resident, once the page has loaded; at its peak "
        "during use, resident sets added up (pages the workers share with the kernel counted "
        "in each) and proportional sets (Pss: what the server's limit is checked against); "
        f"address space mapped (VmSize) at its peak. Limit here: {default_kernel_limit_mb()} MB "
        "a kernel.",
        "",
        "| page | use | loaded MB | peak resident, added up MB | peak Pss MB | address space MB |",
        "|---|---|---|---|---|---|",
    ]
    for name, query, opened, peak_mb, pss, vsz in rows:
        lines.append(
            f"| {name} | {query or '-'} | {opened:.0f} | {peak_mb:.0f} | {pss:.0f} | {vsz:.0f} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run())
