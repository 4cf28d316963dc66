"""Looks live in the style sheet (payme/app/static/payme.css) under named tokens: no module
writes a ``<style>`` block, and the colours a card picture carries (payme.display.svg) and
the card table's fallbacks (payme/widgets/table.css) are the sheet's tokens."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from payme.display import svg

PAYME = Path(__file__).resolve().parent.parent / "payme"
SHEET = (PAYME / "app" / "static" / "payme.css").read_text()
TABLE = (PAYME / "widgets" / "table.css").read_text()


def tokens(css: str) -> dict[str, str]:
    """The custom properties a sheet sets to a plain colour: ``{"--payme-ink": "#1c2420"}``."""
    return {m[1]: m[2].lower() for m in re.finditer(r"(--[\w-]+):\s*(#[0-9a-fA-F]{3,8})\b", css)}


def test_no_module_writes_a_style_block() -> None:
    found = [
        str(path.relative_to(PAYME))
        for path in PAYME.rglob("*.py")
        if re.search(r"<style\b", path.read_text(), re.IGNORECASE)
    ]
    assert not found, f"<style> blocks in Python (move them to payme.css): {found}"


# Where a style attribute may still stand in HTML that Python writes:
PICTURES = {
    # pictures of cards and charts carry their own look, as an SVG card does: they are shown
    # where the style sheet is not (a notebook's output); their colours are the palette's
    # constants (payme.display.svg, compared with the sheet below)
    "display/html.py",
    "display/charts.py",
}
COMPUTED = {
    # a value worked out at run time, never a look the sheet could hold
    "analysis/review.py": "the review chart's width in pixels, from its number of decisions",
}
STYLE_ATTRIBUTE = re.compile(r"""(?<![\w-])style=\\?["']([^"']*)""")


def test_looks_are_classes_not_style_attributes() -> None:
    """HTML written by Python takes its looks from the sheet's classes: a ``style=""``
    attribute stands only in a picture (:data:`PICTURES`) or holds a computed value
    (:data:`COMPUTED`, its value interpolated: ``{width}``)."""
    found = []
    for path in PAYME.rglob("*.py"):
        where = path.relative_to(PAYME).as_posix()
        if where in PICTURES:
            continue
        for value in STYLE_ATTRIBUTE.findall(path.read_text()):
            if where in COMPUTED and "{" in value:
                continue
            found.append(f"{where}: style={value!r}")
    assert not found, f"inline looks (give them a class in payme.css): {found}"


def test_the_widgets_scripts_set_only_computed_styles() -> None:
    """The browser scripts set no style attribute; an element's ``.style`` is set only to a
    value worked out as it moves (a dragged card's offset, a note's place)."""
    lite = PAYME / "app" / "static" / "lite"  # a bundle of ipywidgets' own: its sources here
    ours = [p for p in PAYME.rglob("*.js") if lite not in p.parents]
    for path in [*ours, *(PAYME.parent / "frontend" / "src").glob("*.js")]:
        text = path.read_text()
        assert not re.search(r"""style=|setAttribute\(\s*["']style|cssText""", text), path.name
        for value in re.findall(r"\.style\.\w+\s*=\s*([^;]+);", text):
            assert value.strip().startswith("`") and "${" in value, (path.name, value)


def test_pictures_are_drawn_in_the_palettes_colours() -> None:
    """A picture of cards names no colour of its own: each is one of the palette's."""
    assert not re.findall(r"#[0-9a-fA-F]{3,8}\b", (PAYME / "display" / "html.py").read_text())


def test_the_sheet_styles_each_class_the_modules_use_for_looks() -> None:
    """Each spacing class that replaced a style attribute has its rule in the sheet."""
    used = set()
    for path in PAYME.rglob("*.py"):
        text = path.read_text()
        used |= set(re.findall(r"class=\\?[\"']([^\"'{]*)", text))
        used |= set(re.findall(r"add_class\(\"([\w-]+)\"\)", text))
    looks = {"payme-flush", "payme-above", "payme-below", "payme-around", "payme-apart",
             "payme-lead", "payme-widget-title", "payme-card-row", "payme-card-group",
             "payme-wide", "payme-pick-status", "payme-scoreboard"}  # fmt: skip
    named = {name for classes in used for name in classes.split()}
    for name in looks:
        assert name in named, f"{name} is no longer used: drop its rule from payme.css"
        assert re.search(rf"\.{name}\b[^{{]*{{", SHEET), f"payme.css has no rule for .{name}"


@pytest.mark.parametrize(
    ("token", "constant"),
    [
        ("--payme-card-red", "CARD_RED"),
        ("--payme-card-black", "CARD_BLACK"),
        ("--payme-card-face", "CARD_FACE"),
        ("--payme-card-back", "CARD_BACK"),
        ("--payme-card-back-stripe", "CARD_BACK_STRIPE"),
        ("--payme-right-line", "MELD_LINE"),
        ("--payme-info-line", "CHOSEN_LINE"),
        ("--payme-right", "MELD_TEXT"),
        ("--payme-wrong", "DEADWOOD_TEXT"),
        ("--payme-muted", "MUTED"),
    ],
)
def test_a_card_picture_is_drawn_in_the_palettes_colours(token: str, constant: str) -> None:
    assert tokens(SHEET)[token] == getattr(svg, constant).lower()


def test_the_card_tables_fallbacks_are_the_palettes_tokens() -> None:
    """Each ``var(--payme-x, #fallback)`` of table.css falls back to the sheet's own value,
    and a card's back is drawn from the back tokens."""
    palette = tokens(SHEET)
    uses = re.findall(r"var\((--payme-[\w-]+),\s*(#[0-9a-fA-F]{3,8})\)", TABLE)
    assert uses, "table.css reads no token"
    wrong = [(name, value) for name, value in uses if palette.get(name) != value.lower()]
    assert not wrong, f"fallbacks that are not the palette's: {wrong}"
    back = TABLE[TABLE.index(".pm-back {") :].split("}", 1)[0]
    assert "--pm-card-back" in back and "#7a1f2b" not in back


def test_a_card_back_is_drawable_from_python() -> None:
    back = ET.fromstring(svg.card_back_svg(width=40))
    assert back.get("width") == "40" and back.get("role") == "img"
    fills = {el.get("fill") for el in back.iter() if el.get("fill")}
    assert {svg.CARD_BACK, svg.CARD_BACK_STRIPE, svg.CARD_FACE} <= fills
    assert back.find("{http://www.w3.org/2000/svg}title") is not None
