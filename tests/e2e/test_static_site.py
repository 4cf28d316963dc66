"""The static site (``make static``) in Chromium: Python runs in the browser (Pyodide).

The test builds the site (the downloads are kept in build/static-cache/), serves it on
127.0.0.1 as ``make static-serve`` does (gzipped), opens a page cold, then moves through
every page of the app by its header links -- in the same Python, which is never booted
again -- making one real move on each, restores a finished game and its review from a
link, and checks that no request left 127.0.0.1.  Its timings and sizes go to
test-artifacts/static-site.json (docs/static-site.md records a run).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import ThreadingHTTPServer
from typing import Any

import pytest

from payme import best_discard, evaluate
from payme.puzzles import puzzle_from_id
from payme.rulesets import rules
from payme.tutorial import steps_for

from .conftest import ARTIFACTS, REPO, free_port

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

sys.path.insert(0, str(REPO / "static"))
import build as static_build  # noqa: E402

TIMEOUT_MS = 120_000
TABLE = ".pm-table"
# A short Rummy 3-Pack game (6 moves of yours) for the link with a finished game.
SEED = 5


def expect() -> Any:
    from playwright.sync_api import expect as pw_expect

    return pw_expect


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The site, built by ``static/build.py`` and served on 127.0.0.1."""
    result = subprocess.run(
        [sys.executable, str(REPO / "static" / "build.py")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    handler = partial(
        CountingHandler,
        directory=str(static_build.OUT.resolve()),
        gzipped=static_build.GZIP,
    )
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/voici/render/"
    finally:
        server.shutdown()
        server.server_close()


SENT = {"bytes": 0}


class CountingHandler(static_build.SiteHandler):
    """The site's handler, counting the bytes it sends (headers and bodies, as transferred)."""

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        SENT["bytes"] += len(data)
        outputfile.write(data)

    def end_headers(self) -> None:
        SENT["bytes"] += sum(len(h) for h in getattr(self, "_headers_buffer", []))
        super().end_headers()


class Visit:
    """A browser context on the site: its requests (and bytes), errors and timings."""

    def __init__(self, browser: Any, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(60_000)
        self.page = self.context.new_page()
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", self._request)
        self.page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        self.page.on(
            "console",
            lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
        )

    def _request(self, request: Any) -> None:
        if request.url.startswith(("data:", "blob:", "about:")):
            return
        if not re.match(r"^[a-z]+://(127\.0\.0\.1|localhost)[:/]", request.url):
            self.outside.append(request.url)

    def close(self) -> None:
        self.context.close()


def _children_cpu() -> float:
    """CPU seconds used so far by this process' descendants (Playwright's driver and the
    browser's processes, the page's Python among them): a busy shared machine stretches the
    wall clock, not this."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        used[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    mine, total = {os.getpid()}, 0.0
    changed = True
    while changed:
        changed = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                total += used[pid]
                changed = True
    return total


def _timed(action: Any) -> float:
    start = time.monotonic()
    action()
    return time.monotonic() - start


def _go(page: Any, link: str, ready: str) -> float:
    """Follow the header's link to another page; seconds until its first control shows."""
    title = page.locator(".payme-site-header a", has_text=re.compile(f"^{re.escape(link)}$"))
    return _timed(
        lambda: (title.click(), page.locator(f"{ready} >> visible=true").first.wait_for())
    )


def _serial(page: Any) -> str:
    return str(page.locator(TABLE).get_attribute("data-serial"))


def _act(page: Any, target: Any) -> None:
    before = _serial(page)
    target.click()
    page.wait_for_function(
        """before => {
            const t = document.querySelector('.pm-table');
            return t && t.dataset.busy === 'false' && t.dataset.serial !== before;
        }""",
        arg=before,
    )


def test_every_page_in_one_browser_python(site: str, browser: Any) -> None:
    timings: dict[str, float] = {}
    visit = Visit(browser, {"width": 1280, "height": 900})
    SENT["bytes"] = 0
    page = visit.page
    try:
        # Cold: a first visit, straight to a step of the rules from a link with settings.
        r = rules("classic")
        steps = steps_for(r)
        index = next(i for i, s in enumerate(steps) if s.key == "sets")
        question = steps[index].questions(r)[0]
        cpu = _children_cpu()
        timings["cold: first control (Learn Pay Me)"] = _timed(
            lambda: (
                page.goto(f"{site}learn_pay_me.html?step={index + 1}&rules=classic"),
                page.locator(".payme-tutorial-counter").wait_for(timeout=TIMEOUT_MS),
            )
        )
        cold_bytes = SENT["bytes"]
        timings["cold: browser CPU seconds to first control"] = _children_cpu() - cpu
        assert cold_bytes <= 20_000_000, f"first visit: {cold_bytes:,} bytes"
        expect()(page.locator(".payme-tutorial-title h2")).to_have_text(steps[index].title)
        expect()(page.locator(".payme-tutorial-rules select")).to_have_value(r.title)
        right = next(label for label, v in question.options if v in question.right)
        page.locator(".payme-tutorial-input button").filter(
            has_text=re.compile(f"^{re.escape(right)}$")
        ).click()
        page.locator("button.payme-tutorial-check").click()
        message = page.locator(".payme-tutorial-check-area .payme-message")
        expect()(message).to_contain_text("Right.")
        expect()(page).to_have_title("Learn Pay Me")

        # Every other page by the header's links: the address names it, Python is not booted
        # again (the same kernel: no new pyodide.asm.wasm is fetched).
        sent_before = SENT["bytes"]
        timings["page change: Learn Rummy 3-Pack"] = _go(
            page, "Learn Rummy 3-Pack", ".payme-tutorial-counter"
        )
        expect()(page).to_have_url(re.compile(r"/learn_three_pack\.html"))
        expect()(page.locator(".payme-tutorial-rules select")).to_have_value(
            rules("three_pack").title
        )

        timings["page change: Hand builder"] = _go(page, "Hand builder", ".payme-hand-text input")
        hand = "7H 8H 9H JK 2C 5S 5D 5C"
        box = page.locator(".payme-hand-text input")
        box.fill(hand)
        box.press("Enter")
        points = evaluate(hand, rules="denexa", dealt=7).deadwood_points
        caption = page.locator(".payme-deadwood figcaption")
        expect()(caption).to_contain_text(f"{points} point")
        expect()(page.locator(".payme-hand-view svg[role=img]")).to_have_count(8)

        timings["page change: Puzzles"] = _go(page, "Puzzles", ".payme-puzzle-id")
        puzzle = puzzle_from_id(page.locator(".payme-puzzle-id").inner_text().strip())
        best = best_discard(puzzle.hand, rules=puzzle.rules, dealt=puzzle.dealt).card
        page.locator(f".payme-puzzle-cards button[title='{best.name}']").click()
        page.locator("button.payme-puzzle-check").click()
        expect()(page.locator(".payme-verdict-right")).to_contain_text("Right.")

        timings["page change: Play"] = _go(page, "Play", f"{TABLE} .pm-hand-card")
        cards = page.locator(f"{TABLE} .pm-hand-card")
        held = cards.count()
        _act(page, page.locator(f"{TABLE} .pm-stock"))  # draw
        expect()(cards).to_have_count(held + 1)
        cards.first.click()  # select
        _act(page, page.locator(f"{TABLE} .pm-hand-card").first)  # and discard it
        expect()(page).to_have_url(re.compile(r"moves=s\.d"))
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "static-play-1280.png"))

        timings["page change: Analysis"] = _go(page, "Analysis", "button.payme-analysis-run")
        games = page.locator(".payme-analysis-games input")
        games.fill("2")
        games.press("Enter")
        run_time = _timed(
            lambda: (
                page.locator("button.payme-analysis-run").click(),
                page.locator(".payme-analysis-results svg").first.wait_for(timeout=TIMEOUT_MS),
            )
        )
        timings["Analysis: 2 games run and drawn"] = run_time
        expect()(page.locator(".payme-analysis-results svg")).to_have_count(2)
        expect()(page.locator(".payme-analysis-results table")).to_contain_text("Greedy")
        expect()(page).to_have_url(re.compile(r"analysis\.html\?.*games=2"))
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "static-analysis-1280.png"))
        # A long run streams its results and stops on Stop (a task on the browser's loop).
        games.fill("2000")
        games.press("Enter")
        page.locator("button.payme-analysis-run").click()
        results = page.locator(".payme-analysis-results")
        expect()(results).to_contain_text("so far", timeout=TIMEOUT_MS)
        page.locator("button.payme-analysis-stop").click()
        expect()(page.get_by_text("Stopped after")).to_be_visible(timeout=TIMEOUT_MS)
        expect()(results).to_contain_text("(stopped)")

        # Back returns to the Play page as it was left; Home shows the landing page.
        page.go_back()  # Analysis' own address changes (games=2000, games=2)
        page.go_back()
        page.go_back()
        expect()(page).to_have_url(re.compile(r"/play\.html"))
        expect()(page.locator(TABLE)).to_be_visible()
        timings["page change: Home"] = _go(page, "Home", ".payme-landing")
        page.screenshot(path=str(ARTIFACTS / "static-home-1280.png"))
        changes_bytes = SENT["bytes"] - sent_before
        assert changes_bytes < 1_000_000, "the page changes fetched much: Python again?"
        assert visit.outside == []
        assert visit.errors == []
    finally:
        visit.close()

    # Warm (the browser's cache kept): a finished game from a link with its settings, on a
    # phone; its review lists every decision.
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        phone_page = phone.new_page()
        phone_page.goto(f"{site}index.html")
        phone_page.locator(".payme-landing").wait_for(timeout=TIMEOUT_MS)
        phone_page.screenshot(path=str(ARTIFACTS / "static-home-390.png"))
        moves, decisions = _finished_three_pack_game()
        url = f"{site}play.html?rules=three_pack&players=2&bots=greedy&seed={SEED}&moves={moves}"
        other = phone.new_page()
        outside: list[str] = []
        other.on(
            "request",
            lambda req: (
                outside.append(req.url)
                if not re.match(r"^([a-z]+://(127\.0\.0\.1|localhost)[:/]|data:|blob:)", req.url)
                else None
            ),
        )
        timings["warm: first control (Play from a link)"] = _timed(
            lambda: (
                other.goto(url),
                other.locator(f"{TABLE} .pm-panel").wait_for(timeout=TIMEOUT_MS),
            )
        )
        other.locator("button.payme-play-review-button").click()
        # The review plays out sampled deals in the browser's Python: slow on a loaded machine.
        expect()(other.locator(".pm-rv .pm-rv-dot")).to_have_count(decisions, timeout=180_000)
        other.evaluate("window.scrollTo(0, 0)")
        other.screenshot(path=str(ARTIFACTS / "static-play-390.png"))
        assert outside == []
    finally:
        phone.close()

    with open("/proc/loadavg") as load:
        load_average = load.read().split()[0]
    report = {
        "timings_s": timings,
        "first_visit_bytes_gzip": cold_bytes,
        "page_changes_bytes": changes_bytes,
        "load_average_1min": load_average,
    }
    (ARTIFACTS / "static-site.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))


def _finished_three_pack_game() -> tuple[str, int]:
    """A whole scripted Rummy 3-Pack game's moves, and its review's number of decisions."""
    from payme.analysis.review import review_game
    from payme.game.actions import Discard
    from payme.play.session import PlaySession

    session = PlaySession("three_pack", 2, ("greedy",), SEED)
    while not session.over:
        legal = session.legal()
        draw = [a for a in legal if type(a).__name__ == "Draw" and a.source == "stock"]
        discards = [a for a in legal if isinstance(a, Discard)]
        session.act(draw[0] if draw else discards[0] if discards else legal[0])
    review = review_game("three_pack", 2, ("greedy",), SEED, session.moves)
    return ".".join(session.moves), len(review.decisions)
