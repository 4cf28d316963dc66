"""The teaching slips of issue 25, each checked on the rendered step (its text, and its
questions as the page shows them), under every rule set where the slip could appear."""

from __future__ import annotations

import html
import re

import pytest

from payme.rulesets import PRESETS, Ruleset, rules
from payme.tutorial import steps_for
from payme.tutorial.checks import Question
from payme.tutorial.steps import Step

PAY_ME = [n for n, r in PRESETS.items() if r.game == "pay_me"]


def step(r: Ruleset, key: str) -> Step:
    return next(s for s in steps_for(r) if s.key == key)


def shown(r: Ruleset, key: str) -> tuple[str, list[Question]]:
    """The step's text as drawn, and its questions as the page asks them."""
    s = step(r, key)
    return html.unescape(s.text(r)), s.questions(r)


def question_html(r: Ruleset, q: Question) -> str:
    """A question's pictures as the page draws them (the ``show`` and the cards)."""
    from payme.tutorial.markup import cards_html

    return html.unescape(q.show + (cards_html(q.cards, r, q.dealt) if q.cards else ""))


@pytest.mark.parametrize("name", PAY_ME)
def test_runs_explains_the_wild_badge_of_a_two_before_wild_cards_are_taught(name: str) -> None:
    # Slip: step 6 showed 2♥ marked WILD before step 7 taught wild 2s.
    r = rules(name)
    text, questions = shown(r, "runs")
    badged = [q for q in questions if "WILD" in question_html(r, q)]
    if 2 in r.wild_ranks:
        assert badged, "the A-2-3 question shows a wild 2 under these rules"
        assert "every 2 is also a wild card" in text and "the 2♥ is simply" in text
    else:
        assert not badged and "every 2 is also a wild card" not in text


@pytest.mark.parametrize("name", PAY_ME)
def test_wild_limits_say_why_wild_twos_as_themselves_make_a_set(name: str) -> None:
    # Slip: step 8 said "three wild cards alone are never a meld" right after step 7
    # accepted 2♣ 2♦ 2♥.
    r = rules(name)
    text, _ = shown(r, "wild_limits")
    _, wild_questions = shown(r, "wilds")
    twos = [q for q in wild_questions if sorted(map(str, q.cards)) == ["2C", "2D", "2H"]]
    if r.wild_at_most_half:
        assert "three wild cards alone are never a meld" not in text
        assert "that all stand for other cards, like JK JK JK, are never a meld" in text
    if 2 in r.wild_ranks and r.wild_at_most_half:
        assert twos and twos[0].right == {"yes"}
        assert "2♣ 2♦ 2♥ from the last step is a plain set of twos" in text


@pytest.mark.parametrize("name", PAY_ME)
def test_two_wilds_apart_in_one_run_are_taught(name: str) -> None:
    # Slip: nothing taught that W 7♣ 8♣ W is a run.
    r = rules(name)
    text, questions = shown(r, "wild_limits")
    apart = [q for q in questions if [str(c) for c in q.cards] == ["JK", "7C", "8C", "JK"]]
    assert apart and apart[0].right == {"yes"}, "JK 7C 8C JK is asked and valid"
    if r.no_adjacent_wilds_in_run:
        assert "JK 7♣ 8♣ JK is the run 6♣ 7♣ 8♣ 9♣" in text


@pytest.mark.parametrize("key", ["arrangement", "lay_offs"])
@pytest.mark.parametrize("name", ["denexa", "family"])
def test_a_sets_wild_card_is_not_drawn_as_one_suit(name: str, key: str) -> None:
    # Slip: steps 12 and 14 labelled a set's joker "WILD→Q♠", then let Q♠ be laid off.
    r = rules(name)
    text, questions = shown(r, key)
    pictures = [question_html(r, q) for q in questions]
    tags = [t for p in pictures for t in re.findall(r"WILD→([^<]+)</text>", p)]
    set_tags = [t for p in pictures for t in re.findall(r"WILD→any ([^<]+)</text>", p)]
    assert set_tags, "a set with a wild card is shown"
    # A set's wild names a rank only; a run's wild names its one card.
    for p in pictures:
        for box in re.findall(r'aria-label="Set of [^"]*".*?</figure>', p, flags=re.S):
            assert not re.search(r"WILD→[^<a]*[♠♥♦♣]", box), box[:300]
    assert any(t.startswith("any ") for t in tags)
    if key == "arrangement":
        assert "its suit is whatever keeps the set valid" in text


@pytest.mark.parametrize("name", PAY_ME)
def test_the_stock_out_scoring_question_gives_a_twos_value(name: str) -> None:
    # Slip: step 16's table has no wild cards and needs a 2's points, never given.
    r = rules(name)
    _, questions = shown(r, "stock_out")
    scored = [q for q in questions if "How many points do you score" in q.prompt]
    assert scored
    from payme.cards import parse_card
    from payme.tutorial.game_questions import no_card_table

    two = no_card_table(r).card_points(parse_card("2C"), 13)
    for q in scored:
        assert f"a 2 is an ordinary card and scores {two} points" in q.prompt
    assert not any(" has nothing" in q.prompt and "You," in q.prompt for q in questions)


@pytest.mark.parametrize("name", list(PRESETS))
def test_readings_are_marked_the_same_way_in_the_step_that_teaches_each(name: str) -> None:
    # Slip: steps 16 and 18 said "this is our reading" without saying which rules are the
    # sources' and which readings. Now every reading (the rule set's notes) shows once, in
    # an "Our reading" box, and the first step says what the box means.
    r = rules(name)
    steps = steps_for(r)
    texts = {s.key: html.unescape(re.sub(r"<[^>]+>", "", s.text(r))) for s in steps}
    for note in r.notes:
        boxed = [k for k, t in texts.items() if f"Our reading: {note}" in t]
        assert len(boxed) == 1, (note, boxed)
    marked = sum(t.count("Our reading:") for t in texts.values())
    assert marked == len(r.notes)
    for key, t in texts.items():
        loose = re.sub(r"Our reading: [^(]*\(the sources leave this open", "", t)
        assert "our reading" not in loose.lower() or key == steps[1].key or key == steps[0].key
    intro = texts[steps[0].key] + texts[steps[1].key]
    assert "Our reading" in intro and "the source" in intro


def test_three_pack_turn_answers_the_question_asked() -> None:
    # Slip: "may you discard T♥?" was answered "West must draw first".
    r = rules("three_pack")
    _, questions = shown(r, "turn")
    first = questions[0]
    assert first.right == {"no"}
    assert first.explanation.startswith("No: you may not discard")
    assert "West" not in first.explanation and "must draw first" not in first.explanation
    assert questions[1].explanation.startswith("No: one draw a turn")


def test_three_pack_going_out_never_discards_nomeld_and_says_what_a_rummy_costs() -> None:
    # Slip: step 10 said you go out "by discarding NOMELD" (step 9 forbids it) and listed
    # "RUMMY left over" without saying the RUMMY's win is given up.
    r = rules("three_pack")
    text, questions = shown(r, "going_out")
    said = " ".join(q.explanation for q in questions)
    assert "discarding NOMELD" not in said and "NOMELD left over and discarded" not in said
    assert "NOMELD left over (it is never discarded: it stays in your hand)" in said
    assert "RUMMY left over and discarded (you still win by going out, but give up" in said
    assert "a NOMELD stays in your hand" in text


def test_three_pack_last_chance_text_and_feedback_agree() -> None:
    # Slip: step 12's text said the last chance is taking the top discard, its feedback
    # said any draw.
    r = rules("three_pack")
    text, questions = shown(r, "stock")
    assert "could go out by taking the top discard" in text
    said = " ".join(q.explanation for q in questions)
    assert "a draw lets them" not in said
    assert "cannot go out by drawing from the discard pile" in said
    chance = [q for q in questions if "last chance" in q.prompt]
    assert chance and "taking the top discard lets them go out" in chance[0].explanation
    assert ("No: taking the top discard would not let you go out", "cannot") in chance[0].options


def test_three_pack_go_out_variation_feedback_reads_as_a_sentence() -> None:
    # Slip: step 15's feedback ended "…without NOGO cards, not 1".
    r = rules("three_pack")
    _, questions = shown(r, "variations")
    nogo = next(q for q in questions if q.prompt.startswith("May a game with the Go Out"))
    assert nogo.right == {"no"}
    assert not re.search(r"not \d+\.?$", nogo.explanation)
    assert nogo.explanation.startswith("No: the Go Out variation is played without NOGO")
