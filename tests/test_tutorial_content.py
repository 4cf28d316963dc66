"""The tutorials' words live in Markdown files (payme/tutorial/content/): they parse, every
name they use exists, each file has its step, and the meld checks they list are graded by
the engine, trying candidate examples in order."""

from __future__ import annotations

import dataclasses
from importlib.resources import files

import pytest

from payme.rulesets import rules
from payme.tutorial import steps_for
from payme.tutorial.content import context, load, parse, parse_meld_check, render
from tests.presets import ALL, PAY_ME, THREE_PACK

GAMES = {"pay_me": PAY_ME, "three_pack": THREE_PACK}


@pytest.mark.parametrize("game", GAMES)
def test_every_content_file_is_a_step_in_file_order(game: str) -> None:
    folder = files("payme.tutorial").joinpath("content", game)
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".md"))
    contents = load(game)
    assert [f"{i + 1:02d}-{c.key}.md" for i, c in enumerate(contents)] == names
    for name in GAMES[game]:
        assert [s.key for s in steps_for(rules(name))] == [c.key for c in contents]
        assert [s.title for s in steps_for(rules(name))] == [c.title for c in contents]


@pytest.mark.parametrize("name", ALL)
def test_every_file_renders_under_every_preset(name: str) -> None:
    game = "three_pack" if name == "three_pack" else "pay_me"
    for step in steps_for(rules(name)):
        text = step.text(rules(name))
        assert text.startswith(("<p>", "<ul>")), (step.key, text[:80])
        assert "{" not in text.replace("{}", "") or "<svg" in text, step.key  # no raw names
        assert ":::" not in text, step.key
    assert load(game)


def test_the_text_follows_the_rule_set() -> None:
    sets = next(c for c in load("pay_me") if c.key == "sets")
    assert "no suit may appear twice" in sets.html(rules("denexa"))
    assert "suits may repeat" in sets.html(rules("family"))
    assert "suits may repeat" not in sets.html(rules("denexa"))
    money = next(c for c in load("pay_me") if c.key == "money")
    assert "50¢" in money.html(rules("family"), {"game_money": lambda r: ""})
    assert "points only" in money.html(rules("denexa"), {"game_money": lambda r: ""})


def test_mistakes_in_a_file_name_the_file_and_the_problem() -> None:
    r = rules("denexa")
    with pytest.raises(ValueError, match=r"x\.md: unknown name \{nope\}"):
        render("Hands: {nope}", r, {}, where="x.md")
    with pytest.raises(ValueError, match="unknown name 'lay_of' in a condition"):
        render("::: if lay_of\nx\n::: end", r, {}, where="x.md")
    with pytest.raises(ValueError, match="has no '::: end'"):
        render("::: if lay_off\nx", r, {}, where="x.md")
    with pytest.raises(ValueError, match="no figure named 'table'"):
        render("::: figure table", r, {}, where="x.md")
    with pytest.raises(ValueError, match="front matter lacks check"):
        parse("---\nkey: a\ntitle: A\n---\ntext", "a.md")
    with pytest.raises(ValueError, match="give the cards dealt after @"):
        parse_meld_check("8S 8H 8D | valid | three")


def test_a_meld_check_tries_its_candidates_in_order() -> None:
    check = parse_meld_check("5H JK 7H @9 or 5H 9C 7H @9 | valid | a wild card fills a gap")
    assert check.candidates == (("5H JK 7H", 9), ("5H 9C 7H", 9))
    wilds = next(c for c in load("pay_me") if c.key == "wilds")
    [denexa_gap] = [q for q in wilds.meld_questions(rules("denexa")) if q and "gap" in q.claim]
    assert denexa_gap.caption == "5H JK 7H"
    # Without wild jokers the joker example shows nothing: the next candidate is asked.
    no_jokers = dataclasses.replace(rules("denexa"), name="no-jokers", jokers_wild=False)
    [gap] = [q for q in wilds.meld_questions(no_jokers) if q and "gap" in q.claim]
    assert gap.caption == "5H 9C 7H" and gap.grade("yes").ok


def test_conditions_read_the_rule_sets_data() -> None:
    family, denexa = context(rules("family")), context(rules("denexa"))
    assert family["final_turn_from_pile"] and not denexa["final_turn_from_pile"]
    assert family["money"] is True and denexa["money"] is False
    assert denexa["set_size"] == "3 to 4 cards" and denexa["rules"] == "the Denexa rules"
