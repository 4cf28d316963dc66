"""Cards drawn as SVG, and hands, melds and layouts as HTML (payme.display)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from html import unescape
from types import SimpleNamespace

import pytest

from payme.cards import CARDS, SPECIAL_NAMES, Card, parse_card, parse_hand
from payme.display import (
    MARKS,
    card_svg,
    chance_html,
    go_out_html,
    hand_html,
    layoff_html,
    layout_html,
    meld_html,
    meld_label,
)
from payme.rulesets import rules

SVG = "{http://www.w3.org/2000/svg}"
VS15 = "\ufe0e"


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def parse_fragment(html: str) -> ET.Element:
    """Our HTML fragments are also well-formed XML: parse them to inspect the structure."""
    return ET.fromstring(f"<root>{html}</root>")


def cards_in(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter(f"{SVG}svg") if el.get("role") == "img"]


def title_of(svg: ET.Element) -> str:
    title = svg.find(f"{SVG}title")
    assert title is not None and title.text
    return title.text


def texts(svg: ET.Element) -> list[str]:
    return [t.text or "" for t in svg.iter(f"{SVG}text")]


@pytest.mark.parametrize("mark", [None, *MARKS])
def test_every_card_is_well_formed_svg_with_role_and_title(mark: str | None) -> None:
    for card in CARDS:
        svg = parse_svg(card_svg(card, mark=mark))
        assert svg.get("role") == "img"
        assert svg.get("data-card") == card.token
        # The title is the first child: screen readers take it as the image's name.
        assert svg[0].tag == f"{SVG}title"
        assert title_of(svg).startswith(card.name)


def test_regular_cards_show_rank_and_text_style_suit_in_suit_colour() -> None:
    seven_hearts = parse_svg(card_svg(parse_card("7H")))
    assert "7" in texts(seven_hearts)
    assert "♥" + VS15 in texts(seven_hearts)
    ten_spades = parse_svg(card_svg(parse_card("TS")))
    assert "10" in texts(ten_spades) and "♠" + VS15 in texts(ten_spades)
    fills = {
        token: {g.get("fill") for g in parse_svg(card_svg(parse_card(token))).iter(f"{SVG}g")}
        for token in ("7H", "7D", "7S", "7C")
    }
    assert fills["7H"] == fills["7D"] != fills["7S"] == fills["7C"]


def test_court_cards_show_their_letter() -> None:
    for token, letter in (("JC", "J"), ("QD", "Q"), ("KS", "K"), ("AH", "A")):
        assert letter in texts(parse_svg(card_svg(parse_card(token))))


def _geometry(svg_text: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """The drawing without colours and words: what is left tells shapes apart."""
    out = []
    for el in parse_svg(svg_text).iter():
        if el.tag in (f"{SVG}title", f"{SVG}text"):
            continue
        attrs = tuple(
            sorted((k, v) for k, v in el.attrib.items()
                   if k not in ("fill", "stroke", "data-card", "class"))
        )  # fmt: skip
        out.append((el.tag, attrs))
    return out


def test_jokers_and_special_cards_are_distinct_in_words_and_in_shape() -> None:
    tokens = ["JK", *SPECIAL_NAMES]
    words = {
        "JK": "JOKER", "RUMMY": "RUMMY", "WILD": "WILD", "GROUP": "GROUP", "SEQ": "SEQ",
        "NOMELD": "MELD", "NOGO": "GO OUT",
    }  # fmt: skip
    shapes = set()
    for token in tokens:
        svg_text = card_svg(parse_card(token))
        assert words[token] in texts(parse_svg(svg_text)), token
        shapes.add(repr(_geometry(svg_text)))
    # Each special card keeps a shape of its own even printed without colour.
    assert len(shapes) == len(tokens)
    # And none looks like a regular card.
    assert repr(_geometry(card_svg(parse_card("7H")))) not in shapes


def test_wild_stand_in_is_tagged_and_titled() -> None:
    svg = parse_svg(card_svg(parse_card("7H"), mark="wild", stands_for=parse_card("6H")))
    assert "WILD→6♥" + VS15 in texts(svg)
    assert title_of(svg) == "seven of hearts, wild, stands for six of hearts"
    # A stand-in other than the card itself marks it wild even without mark="wild".
    implicit = parse_svg(card_svg(parse_card("JK"), stands_for=parse_card("KS")))
    assert "WILD→K♠" + VS15 in texts(implicit)
    assert "wild" in title_of(implicit)


def test_deadwood_meld_and_selected_marks_differ_by_shape_not_only_colour() -> None:
    def outline(mark: str | None) -> ET.Element:
        svg = parse_svg(card_svg(parse_card("9C"), mark=mark))
        return next(el for el in svg if el.tag == f"{SVG}rect")

    assert outline("deadwood").get("stroke-dasharray")
    assert not outline("meld").get("stroke-dasharray")
    assert float(outline("meld").get("stroke-width", 0)) > float(
        outline(None).get("stroke-width", 0)
    )
    selected = parse_svg(card_svg(parse_card("9C"), mark="selected"))
    assert "✓" in texts(selected)
    assert title_of(parse_svg(card_svg(parse_card("9C"), mark="deadwood"))).endswith("deadwood")


def test_card_svg_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown card mark 'shiny'"):
        card_svg(parse_card("7H"), mark="shiny")
    with pytest.raises(TypeError, match="needs a Card"):
        card_svg("7H")  # type: ignore[arg-type]


def test_width_scales_the_card() -> None:
    svg = parse_svg(card_svg(parse_card("7H"), width=30))
    assert (svg.get("width"), svg.get("height")) == ("30", "42")


def test_hand_wraps_and_has_one_image_per_card() -> None:
    hand = parse_hand("7H 8H 9H JK 2C 5S 5D 5C KD QS AC TD 3H 4H")
    html = hand_html(hand, caption="A hand <of 14>")
    root = parse_fragment(html)
    assert [c.get("data-card") for c in cards_in(root)] == [c.token for c in hand]
    row = next(el for el in root.iter("div") if "payme-cards" in (el.get("class") or ""))
    assert "flex-wrap:wrap" in (row.get("style") or "")
    assert "A hand &lt;of 14&gt;" in html  # captions are escaped
    with pytest.raises(ValueError, match="marks has 1 entries for 2 cards"):
        hand_html(parse_hand("7H 8H"), marks=["wild"])


def _real_meld(text: str, rules_name: str, dealt: int) -> object:
    from payme.melds import check_meld

    check = check_meld(text, rules=rules_name, dealt=dealt)
    assert check.ok, check.reason
    return check.meld


def test_meld_box_labels_run_and_tags_wild_stand_in() -> None:
    meld = _real_meld("7H JK 5H", "denexa", 9)
    root = parse_fragment(meld_html(meld))
    figure = root.find("figure")
    assert figure is not None and "payme-meld" in (figure.get("class") or "")
    assert figure.get("aria-label") == f"Run 5♥{VS15}–7♥{VS15}"
    titles = {svg.get("data-card"): title_of(svg) for svg in cards_in(root)}
    assert titles["JK"] == "joker, wild, stands for six of hearts"
    assert titles["5H"] == "five of hearts, in a meld"


def test_meld_labels_for_sets_and_three_pack_words() -> None:
    assert meld_label(_real_meld("7S 7D 7C", "classic", 9)) == "Set of sevens"
    assert meld_label(_real_meld("KS KD KC", "three_pack", 7), rules("three_pack")) == (
        "Group of kings"
    )
    seq = _real_meld("QH KH AH", "three_pack", 7)
    assert meld_label(seq, rules("three_pack")) == f"Sequence Q♥{VS15}–A♥{VS15}"
    # Duck typing: any object with kind, cards and stands_for.
    fake = SimpleNamespace(kind="set", cards=parse_hand("JK JK JK"), stands_for=(None,) * 3)
    assert meld_label(fake) == "Set of wild cards"


def test_layout_shows_melds_and_deadwood_with_points_caption() -> None:
    run = _real_meld("7H 8H JK", "denexa", 5)
    evaluation = SimpleNamespace(
        melds=(run,), deadwood=parse_hand("KD QS"), deadwood_points=20, rules=rules("denexa")
    )
    html = layout_html(evaluation)
    root = parse_fragment(html)
    dead = next(el for el in root.iter("figure") if "payme-deadwood" in (el.get("class") or ""))
    assert dead.get("aria-label") == "Deadwood: 20 points"
    assert "dashed" in (dead.get("style") or "")
    dead_cards = [svg.get("data-card") for svg in cards_in(dead)]
    assert dead_cards == ["KD", "QS"]
    assert all(title_of(svg).endswith("deadwood") for svg in cards_in(dead))
    assert len(cards_in(root)) == 5

    counted = SimpleNamespace(
        melds=(), deadwood=parse_hand("NOGO"), deadwood_points=1, rules=rules("three_pack")
    )
    assert "Deadwood: 1 unmelded card" in layout_html(counted)
    clean = SimpleNamespace(melds=(run,), deadwood=(), deadwood_points=0, rules=rules("denexa"))
    assert "No deadwood: 0 points" in layout_html(clean)


def test_layoff_names_the_declarers_meld_and_marks_laid_off_cards() -> None:
    run = _real_meld("5H 6H 7H", "denexa", 9)
    layoff = SimpleNamespace(
        deadwood_points=10, melds=(), lay_offs=((0, parse_hand("8H")),),
        deadwood=parse_hand("KD"), declarer_melds=(run,),
    )  # fmt: skip
    html = unescape(layoff_html(layoff))
    assert f"Laid off 8♥{VS15} onto declarer's meld 1 (Run 5♥{VS15}–7♥{VS15})" in html
    assert "Deadwood: 10 points" in html

    # With the engine's grown melds, the laid-off card is shown in its place, marked.
    from payme.layoff import lay_off

    real = lay_off("8H KD", ["5H 6H 7H"], rules="denexa", dealt=9)
    root = parse_fragment(layoff_html(real))
    grown = [f for f in root.iter("figure") if "making Run 5" in (f.get("aria-label") or "")]
    assert len(grown) == 1
    titles = [title_of(svg) for svg in cards_in(grown[0])]
    assert titles == ["five of hearts, in a meld", "six of hearts, in a meld",
                      "seven of hearts, in a meld", "eight of hearts, laid off"]  # fmt: skip


def test_go_out_lists_discards_and_the_no_discard_option() -> None:
    yes = go_out_html(SimpleNamespace(ok=True, discards=(None, parse_card("KD"))))
    assert "without discarding" in yes and f"K♦{VS15}" in yes
    assert len(cards_in(parse_fragment(yes))) == 1
    no = go_out_html(SimpleNamespace(ok=False, discards=()))
    assert "Cannot go out" in no


def test_chance_shows_fraction_and_winning_cards_with_counts() -> None:
    chance = SimpleNamespace(
        probability=Fraction(3, 47), unseen=47,
        winning=((parse_card("6H"), 1), (parse_card("JK"), 2)),
    )  # fmt: skip
    html = chance_html(chance)
    assert "3 of 47 unseen cards = 3/47 ≈ 6.4%" in html
    assert re.findall(r"×(\d)", html) == ["1", "2"]
    assert [s.get("data-card") for s in cards_in(parse_fragment(html))] == ["6H", "JK"]


def test_card_repr_html_uses_the_svg() -> None:
    card: Card = parse_card("QS")
    assert card._repr_html_() == card_svg(card)
