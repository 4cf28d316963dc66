"""Pictures of the Play page's card table at laptop, desktop and phone size.

Run from the repository: ``.venv/bin/python docs/screenshots/play_table.py``.  It serves the
app on a free port, opens a 4-player family game in Chromium at 1366x768, 1280x720 and
390x844 (your final turn: East went out), and saves the first screen (what a player sees
with no scrolling) as ``docs/play-laptop.png``, ``docs/play-desktop.png`` and
``docs/play-phone.png``.  It prints where the hand, the Discard button and the piles end on
each screen (all must be inside it).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))

from docs.screenshots.take import app_in_chromium, open_page  # noqa: E402

SIZES = {"laptop": (1366, 768), "desktop": (1280, 720), "phone": (390, 844)}
QUERY = "rules=family&players=4&bots=strong,greedy,expert&seed=5&moves=s.dAC.s"
READY = ".pm-table .pm-hand-card"


def main(argv: list[str]) -> None:
    query = argv[0] if argv else QUERY
    out_dir = Path(argv[1]) if len(argv) > 1 else REPO / "docs"
    with app_in_chromium() as (server, browser):
        for size, (w, h) in SIZES.items():
            page = open_page(browser, server.page_url("play", query), (w, h), READY)
            page.wait_for_timeout(1500)
            boxes = page.evaluate(
                """() => [...document.querySelectorAll(
                    '.pm-hand-card, .pm-do-discard, .pm-stock, .pm-pile')]
                    .map(e => [e.className.split(' ')[0],
                               e.getBoundingClientRect().bottom])"""
            )
            lowest = {}
            for name, bottom in boxes:
                lowest[name] = max(lowest.get(name, 0), round(bottom))
            width = page.evaluate("document.documentElement.scrollWidth")
            out = out_dir / f"play-{size}.png"
            page.screenshot(path=str(out))
            print(f"{out}  {w}x{h}  bottoms={lowest}  scrollWidth={width}")
            page.close()


if __name__ == "__main__":
    main(sys.argv[1:])
