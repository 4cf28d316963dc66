"""Screenshots of every page of the app at desktop (1280x900), laptop (1366x768) and phone
(390x844) size.

Run from the repository: ``.venv/bin/python docs/screenshots/take.py [page ...]``.  It serves
the app (like ``make app``) on a free port, opens each page in Chromium, waits for its first
control, and saves ``docs/screenshots/<page>-desktop.png``, ``-laptop.png`` and ``-phone.png``.  It also
prints each page's document width at phone size (it must not exceed 390).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, NOTEBOOKS, VoilaServer  # noqa: E402
from tests.e2e.test_design import PAGES as TESTED_PAGES  # noqa: E402

# Every page the design tests check (its path, and what shows it is ready), and the
# Analysis page with results.
PAGES = {
    **TESTED_PAGES,
    "analysis_results": (
        "voila/render/analysis.ipynb?players=3&bots=greedy&games=5&compare=1",
        "button.payme-analysis-run",
    ),
}
# What to do on a page before its picture: (button to click, text to wait for).
ACTIONS = {"analysis_results": ("button.payme-analysis-run", "Done")}
SIZES = {"desktop": (1280, 900), "laptop": (1366, 768), "phone": (390, 844)}


def open_page(browser: Any, url: str, size: tuple[int, int], ready: str) -> Any:
    """A new page of ``size`` (width, height) at ``url``, once ``ready`` shows."""
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url, wait_until="domcontentloaded")
    page.locator(f"{ready} >> visible=true").first.wait_for(timeout=120_000)
    return page


@contextmanager
def app_in_chromium() -> Iterator[tuple[VoilaServer, Any]]:
    """The app served on a free port (like ``make app``) and a Chromium to open it in; both
    stopped on leaving."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = VoilaServer(NOTEBOOKS, Path(tmp)).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                yield server, browser
                browser.close()
        finally:
            server.stop()


def main(names: list[str]) -> None:
    with app_in_chromium() as (server, browser):
        for name in names or list(PAGES):
            path, ready = PAGES[name]
            for size, dims in SIZES.items():
                page = open_page(browser, server.url(path), dims, ready)
                if name in ACTIONS:
                    button, text = ACTIONS[name]
                    page.locator(button).click()
                    page.get_by_text(text).first.wait_for(timeout=300_000)
                page.wait_for_timeout(800)
                out = HERE / f"{name}-{size}.png"
                page.screenshot(path=str(out), full_page=True)
                width = page.evaluate("document.documentElement.scrollWidth")
                print(f"{out.relative_to(REPO)}  scrollWidth={width}")
                page.close()


if __name__ == "__main__":
    main(sys.argv[1:])
