"""One card drawn as inline SVG.

Cards are built with :mod:`xml.etree.ElementTree`, so every text is escaped by the library.
Each card is an ``<svg role="img">`` whose ``<title>`` names it in words, and nothing is told
apart by colour alone: suits carry their symbol, wild cards a "WILD→6♥" tag, deadwood a dashed
outline, meld cards a solid one, jokers and Rummy 3-Pack's special cards their name and a
shape of their own.

>>> from payme.cards import parse_card
>>> svg = card_svg(parse_card("7H"), mark="wild", stands_for=parse_card("6H"))
>>> svg.startswith('<svg ') and 'role="img"' in svg
True
>>> card_title(parse_card("7H"), mark="wild", stands_for=parse_card("6H"))
'seven of hearts, wild, stands for six of hearts'
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Final, Literal

from payme.cards import RANK_NAMES, Card
from payme.deprecation import renamed
from payme.words import SUIT_MARKS, rank_label, short_label

Mark = Literal["wild", "deadwood", "meld", "selected", "laid_off"]
MARKS: Final = ("wild", "deadwood", "meld", "selected", "laid_off")


# The palette's colours a card is drawn in, the values of payme/app/static/payme.css's
# tokens (tests/test_styles.py compares them): an SVG picture carries its own colours, as it
# is shown where the style sheet is not (a notebook, the static site, a saved page).
CARD_RED: Final = "#b3001b"  # --payme-card-red: hearts and diamonds
CARD_BLACK: Final = "#1c2420"  # --payme-card-black: spades and clubs
CARD_FACE: Final = "#fffdf8"  # --payme-card-face: a card's white, and the edge round its back
CARD_BACK: Final = "#7a1f2b"  # --payme-card-back: a back's stripes are this
CARD_BACK_STRIPE: Final = "#a3283a"  # --payme-card-back-stripe: ... and this
MELD_LINE: Final = "#2e7d32"  # --payme-right-line: a meld card's outline
CHOSEN_LINE: Final = "#1565c0"  # --payme-info-line: a chosen or laid-off card's outline
MELD_TEXT: Final = "#1b5e20"  # --payme-right: a meld's caption
DEADWOOD_TEXT: Final = "#8a1020"  # --payme-wrong: the deadwood's caption
MUTED: Final = "#4b5852"  # --payme-muted: "(no cards)"
FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"

# Jokers and special cards: (colour, label lines, shape).  The shapes differ so the cards
# stay distinct in grey scale and for colour-blind readers.
_SPECIAL_LOOK: Final[dict[str, tuple[str, tuple[str, ...], str]]] = {
    "JK": ("#5b2a86", ("JOKER",), "star"),
    "RUMMY": ("#8a6100", ("RUMMY", "CAN'T", "LOSE"), "crown"),
    "WILD": ("#00695c", ("WILD",), "burst"),
    "GROUP": ("#1f4e99", ("GROUP",), "stack"),
    "SEQ": ("#6a3d9a", ("SEQ",), "steps"),
    "NOMELD": ("#6d4c41", ("NO", "MELD"), "forbid"),
    "NOGO": ("#a31515", ("CAN'T", "GO OUT"), "octagon"),
}

_W, _H = 60, 84  # the viewBox; ``width`` scales it


def card_title(
    card: Card, *, mark: str | None = None, stands_for: Card | None = None, any_suit: bool = False
) -> str:
    """The card in words, with its mark: the text alternative of its SVG.

    ``any_suit``: the card is a wild card in a set, standing for its rank in whatever suit
    keeps the set valid (RULES.md, Lay-offs), not for one card.

    >>> from payme.cards import parse_card
    >>> card_title(parse_card("KS"), mark="deadwood")
    'king of spades, deadwood'
    >>> card_title(parse_card("JK"), mark="wild")
    'joker, wild'
    >>> card_title(parse_card("JK"), stands_for=parse_card("QS"), any_suit=True)
    'joker, wild, stands for a queen of any suit the set still lacks'
    """
    parts = [card.name]
    if mark == "wild" or (stands_for is not None and stands_for != card):
        parts.append("wild")
    elif mark is not None:
        parts.append(
            {"deadwood": "deadwood", "meld": "in a meld", "selected": "selected",
             "laid_off": "laid off"}[mark]
        )  # fmt: skip
    if stands_for is not None and any_suit and stands_for != card and stands_for.rank:
        parts.append(f"stands for a {RANK_NAMES[stands_for.rank]} of any suit the set still lacks")
    elif stands_for is not None:
        parts.append("stands for itself" if stands_for == card else f"stands for {stands_for.name}")
    return ", ".join(parts)


def _check_mark(mark: str | None) -> None:
    if mark is not None and mark not in MARKS:
        raise ValueError(f"unknown card mark {mark!r}: use None or one of {', '.join(MARKS)}")


def _text(parent: ET.Element, x: float, y: float, text: str, size: float, **attrs: str) -> None:
    el = ET.SubElement(
        parent, "text", {"x": f"{x:g}", "y": f"{y:g}", "font-size": f"{size:g}", **attrs}
    )
    el.text = text


def _regular_face(svg: ET.Element, rank: int, suit: str) -> None:
    colour = CARD_RED if suit in "HD" else CARD_BLACK
    face = ET.SubElement(svg, "g", {"fill": colour, "font-family": FONT, "class": "payme-face"})
    label, symbol = rank_label(rank), SUIT_MARKS[suit]
    # Corner index, read first when cards overlap or wrap.
    _text(face, 5, 18, label, 16 if len(label) == 1 else 14, **{"font-weight": "bold"})
    _text(face, 5.5, 33, symbol, 14)
    # No upside-down index at the bottom: on screen nobody holds the card the other way,
    # and an upside-down 9 reads as a 6.
    if rank > 10:
        # Court cards: a framed letter in the middle tells them apart from pips at a glance.
        ET.SubElement(
            face,
            "rect",
            {"x": "20", "y": "28", "width": "30", "height": "36", "rx": "3",
             "fill": "none", "stroke": colour, "stroke-width": "1"},
        )  # fmt: skip
        _text(face, 35, 52, label, 20, **{"text-anchor": "middle", "font-weight": "bold"})
        _text(face, 35, 62, symbol, 9, **{"text-anchor": "middle"})
    else:
        _text(face, 36, 60, symbol, 30, **{"text-anchor": "middle"})


def _shape(parent: ET.Element, shape: str, colour: str) -> None:
    """A small emblem in the lower half of a special card (centre 30, 58)."""
    common = {"fill": colour, "stroke": colour}
    if shape == "star":
        pts = "30,44 33.5,53 43,53 35.5,58.5 38.5,68 30,62 21.5,68 24.5,58.5 17,53 26.5,53"
        ET.SubElement(parent, "polygon", {"points": pts, **common})
    elif shape == "crown":
        ET.SubElement(
            parent, "polygon", {"points": "18,66 18,50 24,57 30,47 36,57 42,50 42,66", **common}
        )
    elif shape == "burst":
        for angle in (0, 45, 90, 135):
            ET.SubElement(
                parent,
                "rect",
                {"x": "28", "y": "45", "width": "4", "height": "24",
                 "transform": f"rotate({angle} 30 57)", **common},
            )  # fmt: skip
    elif shape == "stack":
        for dx in (0, 6, 12):
            ET.SubElement(
                parent,
                "rect",
                {"x": f"{17 + dx}", "y": f"{47 + dx / 3:g}", "width": "14", "height": "19",
                 "rx": "2", "fill": "white", "stroke": colour, "stroke-width": "2"},
            )  # fmt: skip
    elif shape == "steps":
        for i in range(3):
            h = 7 + 6 * i
            ET.SubElement(
                parent,
                "rect",
                {"x": f"{17 + 9 * i}", "y": f"{68 - h}", "width": "8", "height": f"{h}", **common},
            )
    elif shape == "forbid":
        ET.SubElement(
            parent,
            "circle",
            {"cx": "30", "cy": "57", "r": "10", "fill": "none", "stroke": colour,
             "stroke-width": "3"},
        )  # fmt: skip
        ET.SubElement(
            parent,
            "line",
            {"x1": "23", "y1": "64", "x2": "37", "y2": "50", "stroke": colour,
             "stroke-width": "3"},
        )  # fmt: skip
    elif shape == "octagon":
        pts = "25.5,46 34.5,46 41,52.5 41,61.5 34.5,68 25.5,68 19,61.5 19,52.5"
        ET.SubElement(parent, "polygon", {"points": pts, **common})
        ET.SubElement(
            parent,
            "rect",
            {"x": "23", "y": "55.5", "width": "14", "height": "3", "fill": "white"},
        )


def _special_face(svg: ET.Element, token: str) -> None:
    colour, lines, shape = _SPECIAL_LOOK[token]
    face = ET.SubElement(svg, "g", {"font-family": FONT, "class": "payme-face"})
    # A coloured band with the card's name: specials read as words, not as suits.
    ET.SubElement(
        face,
        "rect",
        {"x": "4", "y": "4", "width": "52", "height": "34", "rx": "3", "fill": colour},
    )
    size = 11 if max(len(line) for line in lines) <= 5 and len(lines) < 3 else 9
    step = size + 1
    # Centre the lines in the band (y 4..38): the baseline sits about 0.35 em below centre.
    top = 21 - (len(lines) - 1) * step / 2 + size * 0.35
    for i, line in enumerate(lines):
        _text(
            face, 30, round(top + i * step, 1), line, size,
            **{"text-anchor": "middle", "fill": "white", "font-weight": "bold"},
        )  # fmt: skip
    _shape(face, shape, colour)


def _tag(svg: ET.Element, text: str) -> None:
    """A dark label across the bottom of the card (the "WILD→6♥" tag)."""
    ET.SubElement(
        svg,
        "rect",
        {"x": "2", "y": "67", "width": "56", "height": "15", "rx": "3", "fill": "#202020",
         "class": "payme-tag"},
    )  # fmt: skip
    _text(
        svg, 30, 78.5, text, 10 if len(text) <= 8 else 8.5,
        **{"text-anchor": "middle", "fill": "white", "font-family": FONT, "font-weight": "bold"},
    )  # fmt: skip


def card_svg(
    card: Card,
    *,
    mark: str | None = None,
    stands_for: Card | None = None,
    width: int = 60,
    any_suit: bool = False,
) -> str:
    """One card as an inline SVG string with ``role="img"`` and a ``<title>``.

    ``mark`` is ``None``, ``"wild"`` (a "WILD" tag, "WILD→6♥" when ``stands_for`` is given;
    "WILD→any Q" with ``any_suit``, a set's wild card, whose suit is not fixed),
    ``"deadwood"`` (dashed red outline), ``"meld"`` (solid green outline), ``"selected"`` or
    ``"laid_off"`` (a card added to another player's meld)
    (thick blue outline and a tick).  A card standing for another card is marked wild even
    without ``mark``.

    >>> from payme.cards import parse_card
    >>> 'data-card="NOGO"' in card_svg(parse_card("NOGO"), width=40)
    True
    >>> card_svg(parse_card("7H"), mark="shiny")
    Traceback (most recent call last):
    ...
    ValueError: unknown card mark 'shiny': use None or one of wild, deadwood, meld, selected, laid_off
    """  # noqa: E501
    if not isinstance(card, Card):
        raise TypeError(f"card_svg needs a Card, not {type(card).__name__}")
    _check_mark(mark)
    wild = mark == "wild" or (stands_for is not None and stands_for != card)
    shown_mark = "wild" if wild else mark
    height = round(width * _H / _W)
    classes = ["payme-card"] + ([f"payme-card-{shown_mark}"] if shown_mark else [])
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {_W} {_H}",
            "width": str(width),
            "height": str(height),
            "role": "img",
            "class": " ".join(classes),
            "data-card": card.token,
            "style": "flex:0 0 auto;display:block",
        },
    )
    title = ET.SubElement(svg, "title")
    title.text = card_title(card, mark=mark, stands_for=stands_for, any_suit=any_suit)

    outline = {"stroke": "#666", "stroke-width": "1"}
    if shown_mark == "deadwood":
        outline = {"stroke": CARD_RED, "stroke-width": "2.5", "stroke-dasharray": "5 3"}
    elif shown_mark == "meld":
        outline = {"stroke": MELD_LINE, "stroke-width": "2.5"}
    elif shown_mark in ("selected", "laid_off"):
        outline = {"stroke": CHOSEN_LINE, "stroke-width": "4"}
    elif shown_mark == "wild":
        outline = {"stroke": "#202020", "stroke-width": "2"}
    ET.SubElement(
        svg,
        "rect",
        {"x": "1.5", "y": "1.5", "width": f"{_W - 3}", "height": f"{_H - 3}", "rx": "5",
         "fill": CARD_FACE, **outline},
    )  # fmt: skip

    rank, suit, special = card.rank, card.suit, card.special
    if rank is not None and suit is not None:
        _regular_face(svg, rank, suit)
    elif special is not None:
        _special_face(svg, special)

    if wild and stands_for is not None and any_suit and stands_for.rank:
        _tag(svg, "WILD→any " + rank_label(stands_for.rank))
    elif wild:
        _tag(svg, "WILD" if stands_for is None else "WILD→" + short_label(stands_for))
    if shown_mark in ("selected", "laid_off"):
        ET.SubElement(svg, "circle", {"cx": "50", "cy": "10", "r": "8", "fill": CHOSEN_LINE})
        _text(
            svg, 50, 14, "✓", 12,
            **{"text-anchor": "middle", "fill": "white", "font-family": FONT},
        )  # fmt: skip
    return ET.tostring(svg, encoding="unicode")


def card_back_svg(*, width: int = 60) -> str:
    """The back of a card as an inline SVG string, drawn as the card table draws backs:
    stripes of the palette's two back colours inside the card's white edge.

    >>> back = card_back_svg(width=40)
    >>> 'role="img"' in back and "<title>the back of a card</title>" in back
    True
    """
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {_W} {_H}",
            "width": str(width),
            "height": str(round(width * _H / _W)),
            "role": "img",
            "class": "payme-card payme-card-back",
            "style": "flex:0 0 auto;display:block",
        },
    )
    ET.SubElement(svg, "title").text = "the back of a card"
    stripes = ET.SubElement(
        ET.SubElement(svg, "defs"),
        "pattern",
        {"id": "payme-back-stripes", "width": "8", "height": "8",
         "patternUnits": "userSpaceOnUse", "patternTransform": "rotate(45)"},
    )  # fmt: skip
    for x, colour in ((0, CARD_BACK), (4, CARD_BACK_STRIPE)):
        ET.SubElement(
            stripes, "rect", {"x": str(x), "y": "0", "width": "4", "height": "8", "fill": colour}
        )
    ET.SubElement(
        svg,
        "rect",
        {"x": "1.5", "y": "1.5", "width": f"{_W - 3}", "height": f"{_H - 3}", "rx": "5",
         "fill": CARD_FACE, "stroke": "#666", "stroke-width": "1"},
    )  # fmt: skip
    ET.SubElement(
        svg,
        "rect",
        {"x": "5", "y": "5", "width": f"{_W - 10}", "height": f"{_H - 10}", "rx": "3",
         "fill": "url(#payme-back-stripes)"},
    )  # fmt: skip
    return ET.tostring(svg, encoding="unicode")


__getattr__ = renamed(
    "payme.display.svg",
    {
        "SUIT_SYMBOLS": "payme.words:SUIT_MARKS",
        "RANK_LABELS": "payme.words:RANK_LABELS",
        "TEXT_STYLE": "payme.words:TEXT_STYLE",
        "RED": "payme.display.svg:CARD_RED",
        "BLACK": "payme.display.svg:CARD_BLACK",
    },
)
