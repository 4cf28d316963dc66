"""The app as a visitor meets it: the landing page, its links, every page loading cleanly."""

from __future__ import annotations

import shutil
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from payme.app.page import PAGES

from .conftest import BROWSER_HEADERS, NOTEBOOKS, REPO, VoilaServer, wait_ready

APP_STATIC = REPO / "payme" / "app" / "static"

pytestmark = pytest.mark.e2e

# Pages whose notebooks exist, each opened and checked for errors.  A page joins this list
# when its notebook lands in notebooks/; a listed page that fails to load fails the test.
LIVE_PAGES: list[str] = [
    "learn_pay_me",
    "learn_three_pack",
    "hand_builder",
    "puzzles",
    "play",
    "analysis",
]


def test_root_is_the_static_landing_page(
    page: Any, voila_app: VoilaServer, page_errors: list[str], outside_requests: list[str]
) -> None:
    """``/`` is payme/app/static/index.html: every page linked, same tab, no kernel."""
    # A kernel starts only for a page render or a kernels API call; none may be asked for.
    # (Counting kernel processes raced with the previous tests' kernels being shut down.)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(voila_app.url("/"), wait_until="load")
    landing = page.locator(".payme-landing")
    landing.wait_for(state="visible", timeout=30_000)
    assert page.url == voila_app.url("/")
    assert "Pay Me" in landing.inner_text() and "Rummy 3-Pack" in landing.inner_text()
    links = page.locator(".payme-landing a[href*='voila/render/']")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert {f"voila/render/{p.notebook}" for p in PAGES} <= set(hrefs)
    assert page.locator("a[target]").count() == 0  # same-tab links only
    assert not [u for u in asked if "voila/render" in u or "/api/kernels" in u], asked
    page.locator(".payme-landing a[href='voila/render/puzzles.ipynb']").first.click()
    wait_ready(page)
    # Same tab; the puzzle page then writes its puzzle into the address.
    assert page.url.split("?")[0] == voila_app.page_url("puzzles")
    assert page_errors == []
    assert outside_requests == []


def test_landing_page_answers_without_a_kernel(voila_app: VoilaServer) -> None:
    started = time.monotonic()
    with urllib.request.urlopen(voila_app.url("/"), timeout=30) as response:
        html = response.read().decode()
    # A generous bound for a loaded CI machine; the page is a file read.
    assert time.monotonic() - started < 2.0
    assert html == (APP_STATIC / "index.html").read_text()
    assert response.headers["X-Content-Type-Options"] == "nosniff"


STYLE_SHEET = "voila/templates/payme/static/payme.css"


@pytest.mark.parametrize("path", ["voila/render/index.ipynb", "voila/render/no_such_page.ipynb"])
def test_every_page_links_the_app_style_sheet(voila_app: VoilaServer, path: str) -> None:
    """Notebook pages and Voilà's own pages (a 404) link payme/app/static/payme.css."""
    try:
        request = urllib.request.Request(voila_app.url(path), headers=BROWSER_HEADERS)
        with urllib.request.urlopen(request, timeout=120) as response:
            html = response.read().decode()
    except urllib.error.HTTPError as error:
        html = error.read().decode()
    assert f'href="/{STYLE_SHEET}' in html
    with urllib.request.urlopen(voila_app.url(STYLE_SHEET), timeout=30) as response:
        assert response.headers["Content-Type"].startswith("text/css")
        assert response.read() == (APP_STATIC / "payme.css").read_bytes()


def test_landing_page_links_every_page(
    page: Any, open_page: Any, page_errors: list[str], outside_requests: list[str]
) -> None:
    warnings: list[str] = []
    page.on("console", lambda msg: warnings.append(msg.text) if msg.type == "warning" else None)
    page.add_init_script("window.paymeStallMs = 1500;")
    page = open_page("index", ready=".payme-landing")
    # The landing page has no control: its skeleton goes once its content is there, it is
    # never called stalled, and nothing preloaded for controls goes unused (Chromium warns
    # about an unused preload a few seconds after the load event).
    assert page.locator(".payme-skeleton").is_hidden()
    page.wait_for_timeout(4000)
    assert page.locator("#payme-page-stalled").count() == 0
    assert [w for w in warnings if "preload" in w] == []
    # Under Voilà (Binder's first page) JupyterLab's rendered-HTML styles do not win: the
    # button's words are white on green, and the destinations have no list bullets.
    style = page.evaluate(
        "[getComputedStyle(document.querySelector('.payme-cta')).color,"
        " getComputedStyle(document.querySelector('.payme-destinations > li')).listStyleType]"
    )
    assert style == ["rgb(255, 255, 255)", "none"]
    links = page.locator(".payme-destinations a")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert hrefs == [p.notebook for p in PAGES]
    # Each link resolves to a page of the app, next to the landing page.
    resolved = page.evaluate("[...document.querySelectorAll('.payme-landing a')].map(a => a.href)")
    assert all("/voila/render/" in url for url in resolved)
    # No code is shown to the visitor (the JupyterLab-only introduction is there, hidden).
    assert page.locator(".jp-InputArea:visible").count() == 0
    assert page_errors == []
    assert outside_requests == []


def test_every_existing_page_is_tested() -> None:
    present = {
        p.notebook.removesuffix(".ipynb") for p in PAGES if (NOTEBOOKS / p.notebook).exists()
    }
    assert present <= set(LIVE_PAGES), f"add to LIVE_PAGES: {sorted(present - set(LIVE_PAGES))}"


@pytest.mark.parametrize("name", LIVE_PAGES)
def test_page_loads_without_error(
    name: str, open_page: Any, page_errors: list[str], outside_requests: list[str]
) -> None:
    page = open_page(name)  # fails on any error output in the page
    assert page.locator(".payme-page-header h1").first.is_visible()
    # No code or notes for JupyterLab readers are shown (cells tagged jupyterlab-only).
    assert page.locator(".jp-InputArea:visible").count() == 0
    assert page.locator(".celltag_jupyterlab-only:visible").count() == 0
    assert page_errors == []
    assert outside_requests == []


@pytest.mark.parametrize("name", ["landing", *LIVE_PAGES])
def test_console_is_clean(name: str, page: Any, voila_app: VoilaServer) -> None:
    """No console error and no warning on any page (issue 10.9): the Jupyter front end's
    versions agree (pyproject.toml pins them), nothing 404s, nothing throws."""
    messages: list[str] = []

    def keep(message: Any) -> None:
        if message.type in ("error", "warning"):
            messages.append(f"{message.type}: {message.text}")

    page.on("console", keep)
    page.on("pageerror", lambda exc: messages.append(f"pageerror: {exc}"))
    if name == "landing":
        page.goto(voila_app.url("/"), wait_until="load")
    else:
        page.goto(voila_app.page_url(name), wait_until="domcontentloaded")
        wait_ready(page)
    page.wait_for_load_state("networkidle")
    assert messages == []


@pytest.mark.parametrize("name", LIVE_PAGES)
def test_site_header_links_every_page_and_home(
    name: str, open_page: Any, voila_app: VoilaServer
) -> None:
    page = open_page(name)
    nav = page.locator(".payme-site-header nav a")
    assert nav.all_inner_texts() == ["Home", *(p.title for p in PAGES)]
    # The current page is marked, and only it.
    current = page.locator('.payme-site-header a[aria-current="page"]')
    assert current.count() == 1
    assert current.get_attribute("href") == f"{name}.ipynb"
    # Same-tab links.
    assert page.locator(".payme-site-header a[target]").count() == 0
    nav.first.click()
    page.locator(".payme-landing").wait_for(state="visible", timeout=120_000)
    assert page.url == voila_app.url("/")


def test_preheated_kernel_reads_the_query_of_the_visit(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """With --preheat_kernel the notebook runs before the visit; query_params() must still
    give the visitor's query (Voilà hands it over once the request arrives)."""
    folder = tmp_path_factory.mktemp("preheat")
    shutil.copy(NOTEBOOKS / "play.ipynb", folder / "play.ipynb")
    server = VoilaServer(folder, folder, ["--preheat_kernel=True", "--pool_size=1"]).start()
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    try:
        deadline = time.monotonic() + 120
        while "Kernel pool of play.ipynb is filled" not in server.log_tail(1000):
            assert time.monotonic() < deadline, "the preheated kernel never got ready"
            time.sleep(0.5)
        page = context.new_page()
        page.goto(server.page_url("play", "rules=family&players=3&seed=2"))
        # The table's title names the rule set of the visit's query, and a seat its bot.
        title = page.locator(".pm-title")
        title.wait_for(state="visible", timeout=120_000)
        page.wait_for_function(
            "() => document.querySelector('.pm-title').innerText.includes('family')",
            timeout=60_000,
        )
        assert title.inner_text().startswith("Pay Me (family rules, played for money)")
        seats = page.locator(".pm-table").first.inner_text()
        assert "West" in seats and "greedy bot" in seats
        assert "Using pre-heated kernel" in server.log_tail(1000)
    finally:
        context.close()
        server.stop()
