"""The Learn-the-rules tutorials, driven through the widget's own handlers (no browser).

Every step of every rule set renders; every question is graded by the engine (a right
answer right, a wrong one wrong, both explained); every example still shows what it claims
under the chosen rule set; every rule of RULES.md maps to a step.  Expected values here come
from RULES.md's tables (independent of the code) or from the rule set's data.
"""

from __future__ import annotations

import dataclasses
import html
import logging
import re
from pathlib import Path

import pytest

from payme.cards import parse_card, parse_hand
from payme.rulesets import rules
from payme.tutorial import steps_for
from payme.tutorial.checks import Question, normalise_cards
from payme.tutorial.coverage import COVERAGE, SECTIONS, rule_items, uncovered, unused
from payme.tutorial.game_questions import table_names
from payme.tutorial.widget import Tutorial
from tests.presets import ALL, PAY_ME

PRESETS = ALL
REPO = Path(__file__).resolve().parents[1]


def _index(t: Tutorial, key: str) -> int:
    """The number of the step called ``key`` (tests name steps, never count them)."""
    return next(i for i, step in enumerate(t.steps) if step.key == key)


def _at(name: str, key: str) -> Tutorial:
    """A tutorial of the rule set ``name`` opened at the step called ``key``."""
    steps = steps_for(rules(name))
    return Tutorial(name, step=next(i for i, step in enumerate(steps) if step.key == key))


@pytest.fixture(scope="module", params=PRESETS)
def walked(request: pytest.FixtureRequest) -> Tutorial:
    """A tutorial walked from the first step to the last with the Next button."""
    t = Tutorial(request.param)
    while not t.next_btn.disabled:
        t.next_btn.click()
        assert t.message.kind != "error", t.message.text
    return t


def test_every_step_of_every_rule_set_renders(walked: Tutorial) -> None:
    t = walked
    steps = steps_for(t.rules)
    assert t.index == len(steps) - 1
    assert t.counter_text() == f"Step {len(steps)} of {len(steps)}"
    for i, step in enumerate(steps):
        t.go(i)
        assert html.escape(step.title) in t.title.value
        assert "<p>" in t.body.value
        assert t.questions, f"{step.key} has no question"
        assert t.prompt.value and t.answer_box.children
        assert t.back_btn.disabled == (i == 0)
        assert t.next_btn.disabled == (i == len(steps) - 1)
    # Back walks back.
    t.back_btn.click()
    assert t.index == len(steps) - 2


def _grade_through_widget(t: Tutorial, answer: str) -> tuple[str | None, str]:
    t.set_answer(answer)
    t.check_btn.click()
    return t.message.kind, t.message.text


def test_every_check_grades_right_and_wrong_answers_with_an_explanation(
    walked: Tutorial,
) -> None:
    t = walked
    graded = 0
    for i, _step in enumerate(steps_for(t.rules)):
        t.go(i)
        for j in range(len(t.questions)):
            t.show_question(j)
            q = t.question
            assert q.explanation.strip(), q.prompt
            kind, text = _grade_through_widget(t, q.right_answer())
            assert (kind, text.split(" ")[0]) == ("ok", "Right."), (q.prompt, text)
            assert q.explanation in text
            # A first miss keeps the question open: a hint, not the answer or its reason.
            t.show_question(j)
            kind, text = _grade_through_widget(t, q.wrong_answer())
            assert kind == "retry" and "Try again. Hint: " in text, (q.prompt, text)
            assert q.explanation not in text and t.step.hint_text(t.rules) in text
            assert not t.check_btn.disabled
            # The second miss shows the answer and the engine's reason.
            kind, text = _grade_through_widget(t, q.wrong_answer())
            assert kind == "wrong" and f"The answer: {t.right_answers()}." in text
            assert q.explanation in text
            graded += 1
    assert graded >= 2 * len(steps_for(t.rules))


def test_every_example_shows_what_it_claims(walked: Tutorial) -> None:
    t = walked
    claims = 0
    for i in range(len(t.steps)):
        t.go(i)
        for q in t.questions:
            if q.holds is not None:
                assert q.holds(), f"{t.step_key}: {q.claim} ({q.caption}) under {t.rules.name}"
                claims += 1
    assert claims >= 5


def _questions(name: str, key: str) -> list[Question]:
    r = rules(name)
    step = next(s for s in steps_for(r) if s.key == key)
    return step.questions(r)


def _seat(name: str, players: int, you: int = 0) -> int:
    """The seat a question names ``name`` ("You", "West", ...), as seen from seat ``you``."""
    return [n.lower() for n in table_names(players, you)].index(name.lower())


def _by_caption(name: str, key: str, caption: str) -> Question:
    return next(q for q in _questions(name, key) if q.caption.endswith(caption))


# --- the steps adapt to the rule set (expected values from RULES.md's tables) ------------


@pytest.mark.parametrize(
    ("name", "repeated_suit_ok", "five_card_set_ok"),
    [("denexa", "no", "no"), ("classic", "yes", "yes"), ("family", "yes", "yes")],
)
def test_sets_follow_the_rule_set(name: str, repeated_suit_ok: str, five_card_set_ok: str) -> None:
    assert _by_caption(name, "sets", "8S 8H 8H").right_answer() == repeated_suit_ok
    assert _by_caption(name, "sets", "8S 8H 8D 8C 8S").right_answer() == five_card_set_ok


@pytest.mark.parametrize(
    ("name", "half", "adjacent", "all_wild", "two_as_wild"),
    [
        ("denexa", "no", "no", "no", "yes"),
        ("classic", "yes", "yes", "yes", "no"),
        ("family", "yes", "yes", "yes", "no"),
    ],
)
def test_wild_cards_follow_the_rule_set(
    name: str, half: str, adjacent: str, all_wild: str, two_as_wild: str
) -> None:
    assert _by_caption(name, "wild_limits", "JK JK QC").right_answer() == half
    assert _by_caption(name, "wild_limits", "5H JK JK 8H").right_answer() == adjacent
    assert _by_caption(name, "wild_limits", "JK JK JK").right_answer() == all_wild
    assert _by_caption(name, "wilds", "4H 2S 6H").right_answer() == two_as_wild
    # The spare-copy case holds everywhere (RULES.md's fine points).
    assert _by_caption(name, "wilds", "7H 7H 7S").right_answer() == "yes"


@pytest.mark.parametrize(
    ("name", "nine_points", "without_discard"),
    [("denexa", 15, True), ("classic", 10, True), ("family", 9, False)],
)
def test_points_and_going_out_follow_the_rule_set(
    name: str, nine_points: int, without_discard: bool
) -> None:
    nine = next(q for q in _questions(name, "penalty") if q.caption == "9H")
    assert nine.right == {str(nine_points)}
    full = _by_caption(name, "going_out", "5H 6H 7H 8H 9H")
    assert ("none" in full.right) == without_discard
    assert {"5H", "9H"} <= full.right


@pytest.mark.parametrize(
    ("name", "lays_off"), [("denexa", True), ("classic", False), ("family", True)]
)
def test_lay_offs_follow_the_rule_set(name: str, lays_off: bool) -> None:
    chain = _by_caption(name, "lay_offs", "8H 9H KD")
    r = rules(name)
    kd = r.card_points(parse_card("KD"), 4)
    everything = sum(r.card_points(parse_card(c), 4) for c in ("8H", "9H", "KD"))
    assert chain.right == {str(kd if lays_off else everything)}
    fixed_wild = _by_caption(name, "lay_offs", "6H 4H KC")
    if not lays_off:
        # Nobody lays off: the question asks for the score, never for cards to lay off.
        assert fixed_wild.kind == "number" and "lay off" not in fixed_wild.prompt
        return
    # A wild card already in a meld is never replaced: 6H never lays off.
    assert fixed_wild.right == {normalise_cards("4H")}


@pytest.mark.parametrize(
    ("name", "source_discard"), [("denexa", "no"), ("classic", "no"), ("family", "yes")]
)
def test_final_turn_draw_follows_the_rule_set(name: str, source_discard: str) -> None:
    q = next(q for q in _questions(name, "final_turns") if "discard pile" in q.prompt)
    assert q.right_answer() == source_discard


def test_packs_table_reads_the_rule_set() -> None:
    from payme.tutorial.pay_me import packs_example

    # RULES.md: classic 1 pack for 2-4, 2 for 5-6; family 1 for 2-3, 2 for 4-8.
    assert "<td>2–4</td><td>1</td>" in packs_example(rules("classic"))
    assert "<td>5–6</td><td>2</td>" in packs_example(rules("classic"))
    assert "<td>4–8</td><td>2</td>" in packs_example(rules("family"))
    assert "<td>5–8</td><td>3</td>" in packs_example(rules("denexa"))


def test_deal_table_lists_each_hand_and_its_wild_rank() -> None:
    from payme.tutorial.pay_me import deal_example

    table = deal_example(rules("denexa"))
    assert table.count("<tr>") == 1 + 11
    assert "<td>1</td><td>3</td><td>3 (threes)</td>" in table
    assert "<td>11</td><td>13</td><td>K (kings)</td>" in table


def test_money_only_for_family() -> None:
    assert _questions("denexa", "money")[0].right_answer() == "no"
    cents = [q.right_answer() for q in _questions("family", "money")]
    assert cents[:2] == ["200", "30"]  # 4 players × 50¢ ante; 3 × 10¢ per hand


def test_a_custom_rule_set_gets_examples_that_fit_it() -> None:
    custom = dataclasses.replace(rules("denexa"), name="denexa-no-twos", wild_ranks=())
    t = Tutorial(custom)
    t.go(_index(t, "wilds"))
    twos = next(q for q in t.questions if q.caption == "4H 2S 6H")
    assert twos.right_answer() == "no"
    assert all(q.holds is None or q.holds() for q in t.questions)
    # The custom rule set is offered in the selector next to the presets.
    assert "denexa-no-twos" in [v for _, v in t.rules_dd.options]


# --- bad input: a message, never an exception ---------------------------------------------


def test_nonsense_answers_show_a_message_and_the_tutorial_keeps_working() -> None:
    t = Tutorial("family")
    t.go(_index(t, "penalty"))
    assert t.question.kind == "number"
    t.set_answer("lots!!")
    t.check_btn.click()
    assert t.message.kind == "error" and "whole number" in t.message.text
    t.set_answer("")
    t.check_btn.click()
    assert t.message.kind == "error" and "answer first" in t.message.text
    t.set_answer(t.question.right_answer())
    t.check_btn.click()
    assert t.message.kind == "ok"
    t.next_btn.click()
    assert t.step_key == "stock_out"


def test_a_yes_no_check_refuses_other_words() -> None:
    t = _at("denexa", "sets")
    t.set_answer("perhaps")
    t.check_btn.click()
    assert t.message.kind == "error" and "Yes, No" in t.message.text


def test_the_step_and_rule_set_come_from_the_url_query() -> None:
    t = Tutorial.from_query({"step": "5", "rules": "family"})
    assert (t.index, t.rules.name, t.message.kind) == (4, "family", None)
    # Links name the step by its content file's key: adding a step never moves them.
    assert "?step=sets&amp;rules=family" in t.counter.value
    assert Tutorial.from_query({"step": "runs"}).step_key == "runs"
    three = Tutorial.from_query({"step": "going_out"}, rules="three_pack")
    assert three.step_key == "going_out" and three.message.kind is None
    for bad in (
        {"step": "banana"},
        {"step": "99"},
        {"rules": "three_pack"},
        {"rules": "x"},
        {"step": "0"},
        {"step": "melds"},
    ):
        t = Tutorial.from_query(bad)
        assert t.index == 0 and t.message.kind == "error", bad


def test_changing_the_rule_set_keeps_the_step_and_redraws_it() -> None:
    t = _at("denexa", "sets")
    before = t.body.value
    t.rules_dd.value = "classic"
    assert (t.step_key, t.rules.name) == ("sets", "classic")
    assert t.body.value != before and "classic" in t.body.value


def test_the_turn_demo_asks_the_game_engine() -> None:
    from payme.tutorial.demo import TurnDemo

    demo = TurnDemo("denexa")
    demo.discard_btn.click()  # no card drawn yet
    assert demo.message.kind == "error"
    assert demo.game.phase == "draw"
    demo.pile_btn.click()
    assert demo.game.phase == "discard" and demo.message.kind == "ok"
    demo.stock_btn.click()  # a second draw in one turn
    assert demo.message.kind == "error" and "discard" in demo.message.text
    demo.card_dd.value = demo.card_dd.options[0]
    demo.discard_btn.click()
    assert demo.game.to_move == 0 and demo.game.phase == "draw"
    hand = demo.game.view(0).hand
    demo.new_btn.click()
    assert demo.game.view(0).hand != hand or demo.game.seed != 11


# --- every rule of RULES.md is taught -------------------------------------------------------


def _rules_md() -> str:
    # docs/RULES.md is the project's copy of the rule book the engine implements.
    return (REPO / "docs" / "RULES.md").read_text(encoding="utf-8")


def test_every_rule_of_rules_md_maps_to_a_step() -> None:
    items = [i for i in rule_items(_rules_md()) if i[0] in SECTIONS]
    assert {s for s, _ in items} == set(SECTIONS)
    assert uncovered(items) == []
    assert unused(items) == []


def test_the_coverage_map_names_real_steps_and_every_step_teaches_a_rule() -> None:
    keys = {
        "pay_me": {s.key for s in steps_for(rules("denexa"))},
        "three_pack": {s.key for s in steps_for(rules("three_pack"))},
    }
    named = set()
    for _section, _words, steps in COVERAGE:
        assert steps
        for ref in steps:
            game, key = ref.split(":")
            assert key in keys[game], ref
            named.add(ref)
    for game, game_keys in keys.items():
        assert {f"{game}:{k}" for k in game_keys} <= named


def test_step_keys_are_unique() -> None:
    for name in ("denexa", "three_pack"):
        keys = [s.key for s in steps_for(rules(name))]
        assert len(keys) == len(set(keys))


@pytest.mark.parametrize("name", PAY_ME)
def test_winning_teaches_a_shared_win_found_by_the_engine(name: str) -> None:
    questions = _questions(name, "winning")
    shared = [q for q in questions if "+" in q.right_answer()]
    assert shared, "no tied game was found"
    assert "share the win" in shared[0].explanation


def test_three_pack_winners_include_rummy_holders() -> None:
    questions = _questions("three_pack", "winners")
    assert any("+" in q.right_answer() for q in questions)  # went out + RUMMY holder
    assert any("rummy card" in q.explanation for q in questions)


def test_show_the_answer_gives_the_engine_answer_and_its_reason() -> None:
    t = _at("denexa", "sets")
    q = t.question
    t.show_btn.click()
    label = next(label for label, v in q.options if v in q.right)
    assert t.message.kind == "info"
    assert label in t.message.text and q.explanation in t.message.text
    assert t.progress.value == 5 and t.progress.max == len(t.steps)


def test_no_preset_misses_an_example(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="payme.tutorial"):
        for name in PRESETS:
            for step in steps_for(rules(name)):
                assert step.questions(rules(name)), (name, step.key)
    assert [r.getMessage() for r in caplog.records] == []


@pytest.mark.parametrize(
    "changes",
    [
        {"jokers_wild": False},
        {"round_rank_wild": False},
        {"set_distinct_suits": False, "set_max": None, "lay_off": False},
        {"going_out": "discard_required", "final_turn_draw": ("stock", "discard")},
    ],
)
def test_custom_rule_sets_walk_through_without_errors(changes: dict[str, object]) -> None:
    custom = dataclasses.replace(rules("denexa"), name="custom", **changes)  # type: ignore[arg-type]
    t = Tutorial(custom)
    for i in range(len(t.steps)):
        t.go(i)
        assert t.message.kind != "error", (t.step_key, t.message.text)
        for q in t.questions:
            assert q.holds is None or q.holds(), (t.step_key, q.claim)


# --- rules that had only text before: each now has an engine-graded check ----------------
# Expected values are worked out here from RULES.md (penalty tables, the ante, the order of
# play), not read from the code that grades them.


@pytest.mark.parametrize(("name", "both_alone"), [("denexa", 20), ("family", 19)])
def test_lay_offs_in_turn_are_checked(name: str, both_alone: int) -> None:
    # Declarer 5H 6H 7H; the player on the declarer's left holds 8H KD and lays off 8H
    # first.  You hold 9H QC: 9H now fits after 8H, leaving QC (10 in both rule sets).
    points = _by_caption(name, "lay_offs", "your hand: 9H QC")
    assert "lays off first" in points.prompt
    assert points.grade("10").ok
    assert not points.grade(str(both_alone)).ok  # as if 9H could not be laid off
    # You hold 8H 9H QC: the 8H's place is taken, so only 9H goes on.
    cards = _by_caption(name, "lay_offs", "your hand: 8H 9H QC")
    assert cards.grade("9H").ok
    assert not cards.grade("8H 9H").ok  # what laying off first would allow
    assert not cards.grade("").ok
    for q in (points, cards):
        assert "8H onto 5H 6H 7H" in q.explanation


def test_lay_offs_in_turn_are_not_asked_where_nobody_lays_off() -> None:
    assert not any("lays off first" in q.prompt for q in _questions("classic", "lay_offs"))


def test_the_family_pot_is_split_between_tied_winners() -> None:
    pot = next(q for q in _questions("family", "money") if "share the win" in q.prompt)
    # RULES.md: each of 4 players antes 50¢; two tied winners split the 200¢ pot.
    assert "4-player" in pot.prompt and "50¢" in pot.prompt
    assert pot.grade("100").ok
    for wrong in ("200", "50", "0"):
        assert not pot.grade(wrong).ok
    assert "200¢" in pot.explanation


def test_the_pot_question_only_for_rule_sets_with_money() -> None:
    for name in ("denexa", "classic"):
        assert not any("share the win" in q.prompt for q in _questions(name, "money"))


def test_spread_out_discard_pile_is_checked_by_a_real_game() -> None:
    qs = _questions("three_pack", "variations")
    spread = next(q for q in qs if q.prompt.startswith("Spread-Out Discard Pile is on"))
    pile = [str(c) for c in spread.cards]  # bottom to top
    assert len(pile) >= 4
    # RULES.md: any discard may be taken together with every card above it.
    assert spread.grade(" ".join(pile[-3:])).ok
    assert not spread.grade(pile[-3]).ok  # the wanted card alone
    assert not spread.grade(pile[-1]).ok  # only the top card
    assert not spread.grade(" ".join(pile)).ok  # the whole pile
    standard = next(q for q in qs if q.prompt.startswith("Without the variation"))
    assert standard.grade("no").ok and not standard.grade("yes").ok
    assert "only the top discard" in standard.explanation.lower()


@pytest.mark.parametrize("name", ["denexa", "family"])
def test_the_deal_passes_to_the_left(name: str) -> None:
    import re

    qs = _questions(name, "deal")
    deals = next(q for q in qs if q.prompt.endswith("Who deals hand 2?"))
    match = re.search(r"(\d+)-player game (\w+) dealt hand 1", deals.prompt)
    assert match
    players, first = int(match[1]), _seat(match[2], int(match[1]))
    # Seats are numbered clockwise: the next seat is the one on the left.
    assert deals.grade(str((first + 1) % players)).ok
    assert not deals.grade(str(first)).ok
    starts = next(q for q in qs if q.prompt.endswith("Who plays first in hand 2?"))
    assert starts.grade(str((first + 2) % players)).ok
    assert not starts.grade(str((first + 1) % players)).ok


@pytest.mark.parametrize(
    ("name", "queens", "joker", "own_meld_points", "without"),
    # RULES.md: denexa sets hold at most 4 cards with no suit twice, and at most half of a
    # meld may be wild; family has neither limit.  8H 9H TH 9S 9D onto 5H 6H 7H: lay off
    # 8H, meld 9H 9S 9D, TH (10 in both) is left; without that, 20 (denexa) or 18 (family).
    [("denexa", "QS", "", 10, 20), ("family", "QS QS", "JK", 10, 18)],
)
def test_lay_offs_obey_the_grown_meld_limits(
    name: str, queens: str, joker: str, own_meld_points: int, without: int
) -> None:
    sets = _by_caption(name, "lay_offs", "your hand: QS QS 3D")
    assert sets.grade(queens).ok
    assert not sets.grade("QS QS" if queens == "QS" else "QS").ok
    wild = _by_caption(name, "lay_offs", "your hand: JK 3D")
    assert wild.grade(joker).ok
    assert not wild.grade("" if joker else "JK").ok
    own = _by_caption(name, "lay_offs", "your hand: 8H 9H TH 9S 9D")
    assert own.grade(str(own_meld_points)).ok
    assert not own.grade(str(without)).ok


def test_the_go_out_variation_rebuilds_the_stock() -> None:
    q = next(q for q in _questions("three_pack", "variations") if q.prompt.startswith("Go Out"))
    # RULES.md: the stock is rebuilt from the discard pile except its top card (and nobody
    # counts it, so the question names what happens, not a number).
    assert q.kind == "choice"
    assert q.grade("rebuild").ok
    assert not q.grade("all").ok and not q.grade("end").ok


def test_the_last_chance_after_the_stock_runs_out_is_checked() -> None:
    from payme.solver import can_go_out

    q = next(q for q in _questions("three_pack", "stock") if "last chance" in q.prompt)
    hand = list(q.cards)
    top = parse_card(q.caption.rsplit(" ", 1)[-1])
    # RULES.md: only the next player, holding no RUMMY card, may draw (the top discard: the
    # stock is empty) to go out.
    if parse_card("RUMMY") in hand:
        expected = "rummy"
    elif can_go_out([*hand, top], rules="three_pack", dealt=len(hand)).ok:
        expected = "chance"
    else:
        expected = "cannot"
    assert q.grade(expected).ok
    assert not q.grade(next(v for _, v in q.options if v != expected)).ok


def test_laying_down_both_rummy_cards_is_checked_in_a_real_game() -> None:

    qs = _questions("three_pack", "rummy")
    may = next(q for q in qs if q.prompt.endswith("May you lay them down now?"))
    assert [str(c) for c in may.cards].count("RUMMY") == 2
    assert may.grade("yes").ok and not may.grade("no").ok
    won = next(q for q in qs if q.prompt.endswith("Who has won?"))
    assert won.prompt.startswith("You lay down")
    you = next(value for text, value in won.options if text == "You")
    # RULES.md: laying down both RUMMY cards wins at once; nobody else holds one.
    assert won.grade(you).ok
    assert not won.grade("none").ok


def test_identical_face_up_cards_for_the_first_dealer_are_checked() -> None:
    import re

    q = next(
        q
        for q in _questions("three_pack", "first_dealer")
        if q.prompt.startswith("Identical cards get another card")
    )
    # "... were 8♠ 5♦ for you, 5♠ for West and 8♠ 2♥ for East. Who deals?"
    seat = {name.lower(): int(value) for name, value in q.options}
    listed = q.prompt.replace("\ufe0e", "").split(" were ")[1].split(". Who deals?")[0]
    dealt = {
        seat[name.lower()]: [str(c) for c in parse_hand(cards)]
        for cards, name in re.findall(r"([^,]+?) for (\w+)(?:, | and |$)", listed)
    }
    assert len(dealt) == len(q.options)  # every player named, none as "player N"
    # RULES.md: K high ... A low, ties by suit S > C > D > H; identical cards get another.
    suit = {"S": 4, "C": 3, "D": 2, "H": 1}
    ranks = "A23456789TJQK"

    def key(cards: list[str]) -> list[tuple[int, int]]:
        regular = [c for c in cards if len(c) == 2 and c[0] in ranks and c[1] in suit]
        return [(ranks.index(c[0]), suit[c[1]]) for c in regular]

    top = max(key(c)[0] for c in dealt.values())
    tied = [p for p, c in dealt.items() if key(c)[0] == top]
    assert len(tied) > 1  # the example shows identical cards
    dealer = max(tied, key=lambda p: key(dealt[p])[1:])
    assert q.grade(str(dealer)).ok
    assert not q.grade(str(next(p for p in tied if p != dealer))).ok


def test_every_rule_has_an_engine_graded_check() -> None:
    from payme.tutorial.coverage import CHECKS

    assert [(s, w) for s, w, _ in CHECKS] == [(s, w) for s, w, _ in COVERAGE]
    cache: dict[tuple[str, str], list[Question]] = {}
    for (section, words, checks), (_, _, steps) in zip(CHECKS, COVERAGE, strict=True):
        assert checks, (section, words)
        for name, key, marker in checks:
            game = "three_pack" if rules(name).game == "rummy_3_pack" else "pay_me"
            # The check sits in a step the coverage map says teaches the rule.
            assert f"{game}:{key}" in steps, (words, name, key)
            questions = cache.setdefault((name, key), _questions(name, key))
            found = [q for q in questions if marker in f"{q.prompt} {q.caption}"]
            assert found, f"{words!r}: no question of {name}:{key} shows {marker!r}"
            for q in found:
                assert q.grade(q.right_answer()).ok and not q.grade(q.wrong_answer()).ok


@pytest.mark.parametrize("name", PAY_ME)
def test_the_hand_ends_with_no_declarer_when_no_card_can_be_drawn(name: str) -> None:
    qs = _questions(name, "stock_out")
    who = next(q for q in qs if q.prompt.endswith("Who is the declarer of this hand?"))
    # RULES.md: if no card can be drawn at all, the hand ends with no declarer.
    assert who.grade("none").ok
    assert not any(who.grade(str(s)).ok for s in range(4))
    score = next(q for q in qs if "hand ends with no card drawn" in q.prompt)
    # Your (seat 0's) 13 cards hold no meld (no three of a rank, no three in suit sequence), so all
    # are deadwood.  RULES.md's penalty table: denexa and classic A-7 5, 8-K 10 (6 x 5 +
    # 7 x 10); family 2-10 face value, J Q K 10, A 15 (7+9+10+10+2+4+8+10+2+5+15+8+10).
    assert score.caption == "your hand: 7S 9S JS QS 2H 4H 8H TH 2D 5D AC 8C KC"
    assert "wild" not in score.show  # this table has no wild cards
    assert score.grade("100").ok
    assert not score.grade("0").ok  # nobody went out, so nobody scores 0 as declarer
    assert "nobody lays off" in score.explanation.lower()


def test_the_deal_goes_clockwise_one_card_at_a_time() -> None:
    import re

    qs = [q for q in _questions("three_pack", "first_dealer") if "Who receives" in q.prompt]
    assert len(qs) == 2
    for q in qs:
        match = re.match(r"(\w+) deals? \d+ cards each to (\d+) players", q.prompt)
        assert match
        players = int(match[2])
        dealer = _seat(match[1], players)
        nth = re.search(r"card number (\d+)", q.prompt)
        k = int(nth[1]) if nth else 1
        # RULES.md: clockwise (to the left, seat + 1), one card at a time, so the k-th card
        # goes k seats to the dealer's left; the dealer gets every players-th card.
        assert q.grade(str((dealer + k) % players)).ok
        assert not q.grade(str((dealer + k + 1) % players)).ok
        assert not q.grade(str((dealer + k - 1) % players)).ok


def test_the_first_player_stays_after_a_tie_game() -> None:
    import re

    q = next(
        q for q in _questions("three_pack", "match") if "agrees to call it a tie game" in q.prompt
    )
    match = re.match(r"(\w+) plays first in game 1", q.prompt)
    assert match
    first = int(dict(q.options)[match[1]])  # a player's name, as in every question
    # RULES.md: the first player moves one seat left each game, but not after a tie game.
    assert q.grade(str(first)).ok
    assert not any(q.grade(str(p)).ok for p in range(3) if p != first)


# --- the declarer's arrangement and the Rummy 3-Pack stock (RULES.md, newest rules) --------


@pytest.mark.parametrize("name", PAY_ME)
def test_the_declarer_names_the_place_of_a_wild_card_at_a_run_end(name: str) -> None:
    qs = _questions(name, "arrangement")
    # RULES.md: JK 5H 6H holds the 4H place, 5H 6H JK the 7H place.
    low = _by_caption(name, "arrangement", "JK 5H 6H")
    high = _by_caption(name, "arrangement", "5H 6H JK")
    assert low.grade("4H").ok and not low.grade("7H").ok
    assert high.grade("7H").ok and not high.grade("4H").ok
    lay_off_prompts = [q for q in qs if "lay off" in q.prompt]
    if not rules(name).lay_off:
        assert lay_off_prompts == []  # classic: nobody lays off, so nothing is asked
        return
    placed = _by_caption(name, "arrangement", "your hand: 7H 4H KC")
    assert placed.grade("4H").ok
    assert not placed.grade("4H 7H").ok and not placed.grade("7H").ok
    suit = _by_caption(name, "arrangement", "your hand: QS 3D")
    assert suit.grade("QS").ok and not suit.grade("").ok


def test_the_arrangement_is_taught_in_the_text() -> None:
    r = rules("denexa")
    text = next(s for s in steps_for(r) if s.key == "arrangement").text(r)
    assert "4♥ place" in text and "7♥ place" in text
    assert "its suit is whatever keeps the set valid" in text
    assert "Q♠ may join Q♣ Q♦ JK" in text


def test_rummy_3_pack_never_asks_for_the_exact_stock_size() -> None:
    r = rules("three_pack")
    asked = [q for step in steps_for(r) for q in step.questions(r)]
    import re

    size = re.compile(r"how many cards (are )?(left in|does|do) the (new )?stock", re.I)
    for q in asked:
        assert not size.search(q.prompt), q.prompt
        assert q.kind != "number" or "stock" not in q.prompt.split(".")[-1], q.prompt
    count = next(q for q in asked if "May you count the stock" in q.prompt)
    # RULES.md: the stock is never counted; a player may only look and estimate.
    assert count.grade("no").ok and not count.grade("yes").ok
    assert "estimate" in count.explanation
    step = next(s for s in steps_for(r) if s.key == "no_upcard")
    assert "estimate" in step.text(r) and "never the exact number" in step.text(r)


# --- issue 11.1: what misled a new user, and 11.2: every answer explained -------------------


def _all_questions(name: str) -> list[tuple[str, Question]]:
    r = rules(name)
    return [(step.key, q) for step in steps_for(r) for q in step.questions(r)]


def _page_text(name: str) -> str:
    r = rules(name)
    parts = []
    for step in steps_for(r):
        parts.append(step.text(r))
        if step.example is not None:
            parts.append(step.example(r))
        for q in step.questions(r):
            parts += [q.prompt, q.explanation, q.caption, *(label for label, _ in q.options)]
    import re

    # What a learner reads: the markup (and the cards' drawings) left out.
    return html.unescape(re.sub(r"<svg.*?</svg>|<[^>]+>", " ", " ".join(parts), flags=re.S))


def test_the_whole_game_of_the_winning_step_is_shown() -> None:
    from payme.tutorial.game_questions import finished_game

    t = Tutorial("denexa")
    t.go(_index(t, "winning"))
    g = finished_game(rules("denexa"))
    body = t.body.value
    assert body.count("<tr>") == 1 + 11 + 1  # head, 11 hands, totals
    assert "<td>total</td><td></td>" + "".join(f"<td>{v}</td>" for v in g.totals) in body
    assert "(went out)" in body


def test_the_family_money_step_shows_a_games_money() -> None:
    from payme.tutorial.game_questions import finished_game

    t = Tutorial("family")
    t.go(_index(t, "money"))
    g = finished_game(rules("family"))
    body = t.body.value
    # RULES.md: every player antes 50¢; the declarer collects 10¢ from each other player.
    assert "<td>ante to the pot</td>" + "<td>-50¢</td>" * g.players in body
    assert "<td>in all</td>" + "".join(f"<td>{v:+d}¢</td>" for v in g.money) in body
    hand_one = [row for row in g.results() if row["hand"] == 1]
    cells = "".join(f"<td>{'+20' if row['went_out'] else '-10'}¢</td>" for row in hand_one)
    assert f"<td>hand 1</td>{cells}" in body


def test_k_a_2_is_explained_by_runs_not_wrapping() -> None:
    for name in PAY_ME:
        q = _by_caption(name, "runs", "KH AH 2H")
        assert q.explanation.startswith("Runs do not wrap around"), q.explanation


def test_classic_never_asks_which_card_to_lay_off() -> None:
    for key, q in _all_questions("classic"):
        assert "lay off (choose" not in q.prompt, (key, q.prompt)


def test_a_wrong_lay_off_says_why_the_card_cannot_go() -> None:
    q = _by_caption("denexa", "lay_offs", "your hand: 6H 4H KC")
    text = q.grade("4H 6H").text()
    assert "The joker in 5H JK(6H) 7H already stands for 6H" in text
    q = _by_caption("denexa", "arrangement", "your hand: 7H 4H KC")
    assert "already stands for 7H" in q.grade("4H 7H").text()
    assert "4H could go onto the declarer's melds too" in q.grade("").text()


def test_the_pay_me_tutorial_never_mentions_rummy_3_pack_cards() -> None:
    text = _page_text("denexa")
    for token in ("RUMMY", "NOMELD", "NOGO", "GROUP", "SEQ"):
        assert token not in text, token


@pytest.mark.parametrize("name", PRESETS)
def test_no_identifiers_reach_the_learner(name: str) -> None:
    import re

    text = _page_text(name)
    for word in ("three_pack", "rule sets are data", "LayDownRummy", "rule set", "_"):
        assert word not in text, word
    assert not re.search(r"\b(denexa|classic|family)\b(?! rules)", text)
    assert not re.search(r"= \d+ unmelded", text)
    doubled = re.search(r".{40}\b([a-z]+) \1\b.{40}", text)  # "the the", "rules rules"
    assert not doubled, doubled


@pytest.mark.parametrize("name", PRESETS)
def test_every_question_comes_with_a_reason_that_starts_a_sentence(name: str) -> None:
    for key, q in _all_questions(name):
        for text in (q.prompt, q.explanation):
            assert text[:1].isupper() or text[:1].isdigit(), (key, text)
        # A reason, not a bare verdict: which rule, meld or cards.
        assert len(q.explanation.split()) >= 3, (key, q.prompt, q.explanation)


def test_three_pack_teaches_the_variations_rules_in_the_text() -> None:
    r = rules("three_pack")
    text = next(s for s in steps_for(r) if s.key == "variations").text(r)
    assert "never both" in text and "Three-Card Draw or Spread-Out Discard Pile" in text
    assert "lowest card takes the seat on the dealer's left" in html.unescape(text)


def test_the_turn_demo_shows_the_finished_hands_result() -> None:
    from payme.game.actions import Draw, GoOut
    from payme.tutorial.demo import TurnDemo

    demo = TurnDemo("denexa")
    for _ in range(200):
        legal = demo.game.legal_actions()
        out = [a for a in legal if isinstance(a, GoOut)]
        if out:
            demo._act(out[0])
            break
        draws = [a for a in legal if isinstance(a, Draw)]
        demo._act(draws[0] if draws else legal[0])
    summary = demo.game.summaries[0]
    assert demo.message.text.startswith("Hand 1 is over: you went out. Scores: you 0, ")
    assert f"the bot {summary.points[1]}" in demo.message.text


@pytest.mark.parametrize("name", PAY_ME)
def test_a_first_lesson_in_tactics_is_checked(name: str) -> None:
    r = rules(name)
    step = next(s for s in steps_for(r) if s.key == "tactics")
    text = html.unescape(step.text(r))
    assert "Go out as soon as you can" in text
    assert ("final turns may draw from the discard pile" in text) == (name == "family")
    qs = step.questions(r)
    tie = next(q for q in qs if q.prompt.startswith("You have just drawn"))
    # 7H 8H KD 4S 4D 4C: KD and 8H leave equal points (denexa, classic) or KD leaves fewer
    # (family); either way KD goes and 7H 8H stay as a near-run.
    assert tie.grade("KD").ok and not tie.grade("8H").ok
    pile = next(q for q in qs if "in the final turn" in q.prompt)
    assert pile.grade("yes" if name == "family" else "no").ok
    now = next(q for q in qs if "Which scores you less" in q.prompt)
    assert now.grade("now").ok and "scores 0" in now.explanation


def test_a_wrong_lay_off_in_turn_says_the_place_is_taken() -> None:
    # The player before lays off 8H onto 5H 6H 7H; your 8H then has no place left.
    q = _by_caption("denexa", "lay_offs", "your hand: 8H 9H QC")
    text = q.grade("8H 9H").text()
    assert "5H 6H 7H 8H already holds the 8H place" in text


def test_the_demo_tells_its_moves_with_players_not_seat_numbers() -> None:
    """Issue 10: the demo's log says "You" and "The bot", never "Seat 0", and cards as 9♠."""
    import re

    from payme.tutorial.demo import TurnDemo

    demo = TurnDemo("denexa")
    demo.stock_btn.click()
    demo.card_dd.value = demo.card_dd.options[0]
    demo.discard_btn.click()
    told = demo.message.text + demo.events.value
    assert "You discard" in told and "The bot" in told, told
    assert not re.search(r"[Ss]eat \d", told), told
    assert not re.search(r"\b[2-9TJQKA][SHDC]\b", told), told
    demo.discard_btn.click()  # out of turn order: the refusal names no seat either
    assert demo.message.kind == "error"
    assert not re.search(r"[Ss]eat \d", demo.message.text), demo.message.text


@pytest.mark.parametrize("name", ALL)
def test_no_question_calls_a_player_by_seat_number(name: str) -> None:
    """Issue 10: every check of every step names players ("You", "West"), never "seat 0"."""
    import re

    r = rules(name)
    for step in steps_for(r):
        for q in step.questions(r):
            words = [q.prompt, q.explanation, q.caption, *(text for text, _ in q.options)]
            for text in words:
                assert not re.search(r"\b[Ss]eats? \d", text), (step.key, text)


def test_the_seating_explanation_lists_the_other_players_as_a_sentence() -> None:
    ruleset = rules("three_pack")
    step = next(s for s in steps_for(ruleset) if s.key == "variations")
    seating = next(q for q in step.questions(ruleset) if "Seating" in q.prompt)
    # "then Player 3 and Player 2 follow clockwise", never "then Player 3, Player 2 clockwise"
    then = seating.explanation.split("then ", 1)[1]
    others = then.removesuffix(" follow clockwise.")
    assert others != then
    names = others.replace(" and ", ", ").split(", ")
    assert len(names) >= 2 and all(re.fullmatch(r"Player \d", n) for n in names)
    assert " and " in others and others.count(" and ") == 1


def test_a_questions_cards_are_named_as_players_write_them() -> None:
    """The caption over a question's cards says "joker joker Q♣", never the notation's codes."""
    t = Tutorial("denexa")
    t.go(_index(t, "wild_limits"))
    for index, question in enumerate(t.questions):
        t.show_question(index)
        if question.caption == "JK JK QC":
            assert "joker joker Q♣" in t.cards.value and "JK JK QC" not in t.cards.value
            return
    raise AssertionError("the wild-limits step has no question on JK JK QC")


def test_progress_is_kept_in_the_browser_record_and_read_back() -> None:
    import json

    t = _at("denexa", "sets")
    assert t.store.key == "payme-learn-pay_me" and t.store.saved == ""  # opening saves nothing
    t.set_answer(t.question.right_answer())
    t.check_btn.click()
    record = json.loads(t.store.saved)
    assert record == {"done": ["sets"], "last": "sets"}
    assert "1 of 19" in t.progress_note.value and "✔ 5. Melds: sets" in dict(
        (v, k) for k, v in t.jump.options
    ).get(4, "")
    # A right answer after the answer was shown does not count.
    t.go(_index(t, "runs"))
    t.show_answer()
    t.set_answer(t.question.right_answer())
    t.check_btn.click()
    assert t.message.kind == "ok" and "runs" not in t.done
    # A new visit: the page side hands over the stored record.
    again = Tutorial("denexa")
    again.store.loaded = json.dumps({"done": ["sets", "gone"], "last": "runs"})
    assert again.done == {"sets"}  # a key no longer a step is dropped
    assert again.resume_btn.layout.display == "" and "step 6" in again.resume_btn.description
    again.resume_btn.click()
    assert again.step_key == "runs" and again.resume_btn.layout.display == "none"
    assert json.loads(again.store.saved)["last"] == "runs"
    # A damaged record is no error.
    Tutorial("denexa").store.loaded = "[1, 2"


@pytest.mark.parametrize("name", ALL)
def test_every_step_has_a_hint_naming_its_rule(name: str) -> None:
    from payme.rulesets import rules as get

    r = get(name)
    for s in steps_for(r):
        hint = s.hint_text(r)
        assert hint != s.title and len(hint) > 30, (s.key, hint)
        assert "{" not in hint and hint[0].isupper() and hint.endswith("."), (s.key, hint)
