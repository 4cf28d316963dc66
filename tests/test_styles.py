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
