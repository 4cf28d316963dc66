"""The app's generated static files (header partial, landing page, pictures) are current."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

from payme.app import site
from payme.app.page import PAGES


def test_generated_files_are_current() -> None:
    # A failure here: run `python -m payme.app.site` and commit the files it writes.
    assert site.stale() == []


def test_stale_notices_a_change(tmp_path: Path) -> None:
    assert set(site.stale(tmp_path)) == set(site.built())
    site.write(tmp_path)
    assert site.stale(tmp_path) == []
    landing = tmp_path / "static" / "index.html"
    landing.write_text(landing.read_text().replace("Pay Me", "Pay You"))
    assert site.stale(tmp_path) == ["static/index.html"]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict[str, str | None]] = []
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.links.append(dict(attrs))
        if tag == "img":
            self.images.append(dict(attrs))


def test_landing_page_links_every_page_in_the_same_tab_with_pictures() -> None:
    parser = _Links()
    parser.feed(site.landing_page())
    hrefs = [a["href"] for a in parser.links]
    for p in PAGES:
        assert hrefs.count(f"voila/render/{p.notebook}") >= 2  # the header and its card
    assert all("target" not in a for a in parser.links)
    assert "New to Pay Me? Start here" in site.landing_page()
    sources = {i["src"] for i in parser.images}
    for p in PAGES:
        name = p.notebook.removesuffix(".ipynb")
        assert f"voila/templates/payme/static/img/{name}.svg" in sources
    # Every picture has alternative text (decorative ones an empty alt).
    assert all(i.get("alt") is not None for i in parser.images)


def test_hero_picture_is_the_solvers_layout() -> None:
    from payme.solver import evaluate

    ev = evaluate(site.HERO_HAND, rules=site.HERO_RULES, dealt=site.HERO_DEALT)
    svg = ET.fromstring(site.hero_svg())
    title = svg.find(f"{{{site.SVG_NS}}}title")
    assert title is not None and title.text == site.hero_text()
    assert f"{ev.deadwood_points} points" in site.hero_text()
    # One drawn card per card of the hand, and again per card of the layout.
    cards = svg.findall(f"{{{site.SVG_NS}}}svg")
    laid = sum(len(m.cards) for m in ev.melds) + len(ev.deadwood)
    assert len(cards) == len(site.HERO_HAND.split()) + laid


def test_header_partial_marks_the_current_page() -> None:
    from jinja2 import DictLoader, Environment

    env = Environment(loader=DictLoader({"h": site.header_partial()}))
    page = env.get_template("h").render(payme_page="puzzles", resources={"base_url": "/"})
    assert page.count('aria-current="page"') == 1
    assert '<a href="puzzles.ipynb" aria-current="page">Puzzles</a>' in page
    assert "<h1>Puzzles</h1>" in page


def test_style_sheet_braces_balance() -> None:
    """A lost brace makes the browser drop every rule after it (a merge once did that)."""
    import re

    text = (site.APP / "static" / "payme.css").read_text()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    depth = 0
    for number, line in enumerate(text.splitlines(), 1):
        depth += line.count("{") - line.count("}")
        assert 0 <= depth <= 2, f"payme.css line {number}: braces out of step"
        # A rule inside a rule (depth 2) only under an at-rule such as @media.
        if depth == 0:
            media = False
        if line.lstrip().startswith("@"):
            media = True
        assert depth < 2 or media, f"payme.css line {number}: a rule inside a rule"
    assert depth == 0
