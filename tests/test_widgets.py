"""The widget layer, driven without a browser: set values and call handlers as clicks would."""

from __future__ import annotations

from typing import Any

import pytest

from payme.cards import Card, CardError, parse_card, parse_hand
from payme.rulesets import PRESETS, rules
from payme.widgets import (
    CardPicker,
    HandInput,
    HandView,
    LayoutView,
    MessageBox,
    RulesPicker,
    guarded,
)


def click(picker: CardPicker, token: str) -> None:
    """What a click on a card button does in the browser: set that row's value."""
    card = parse_card(token)
    for row in picker.rows:
        if any(value == card.index for _, value in row.options):
            row.value = card.index
            return
    raise AssertionError(f"{token} has no button")


def label_of(picker: CardPicker, token: str) -> str:
    card = parse_card(token)
    for row in picker.rows:
        for label, value in row.options:
            if value == card.index:
                return str(label)
    raise AssertionError(f"{token} has no button")


# --- messages and the guard ------------------------------------------------------------------


def test_guarded_turns_any_error_into_a_message_and_returns_none() -> None:
    box = MessageBox()

    @guarded(box)
    def bad_card(_: Any = None) -> int:
        raise ValueError("unknown card '1X'")

    @guarded(box)
    def bug() -> int:
        return {}["missing"]  # type: ignore[no-any-return]

    assert bad_card() is None
    assert (box.kind, box.text) == ("error", "unknown card '1X'")
    assert "1X" in box.value and 'role="alert"' in box.value
    assert bug() is None
    assert box.text.startswith("something went wrong (KeyError")
    box.clear()
    assert (box.kind, box.value) == (None, "")


# --- the rules picker -------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_picker_offers_exactly_the_rule_sets_dealt_range(name: str) -> None:
    ruleset = rules(name)
    picker = RulesPicker(name, dealt=ruleset.min_dealt, show_players=True)
    assert picker.dealt_options == list(range(ruleset.min_dealt, ruleset.max_dealt + 1))
    players = [v for _, v in picker._players_dd.options]
    assert players == [0, *range(ruleset.min_players, ruleset.max_players + 1)]  # 0: not set
    assert picker.players is None
    with pytest.raises(ValueError, match="dealt must be from"):
        picker.dealt = ruleset.max_dealt + 1


def test_rules_picker_keeps_dealt_inside_the_new_range_and_calls_back() -> None:
    seen: list[tuple[str, int]] = []
    picker = RulesPicker("denexa", dealt=13)
    picker.on_change(lambda p: seen.append((p.rules.name, p.dealt)))
    calls: list[int] = []
    picker.on_change(lambda: calls.append(1))  # a callback without arguments works too
    picker._rules_dd.value = "three_pack"  # the dropdown as a visitor changes it
    assert (picker.rules.name, picker.dealt) == ("three_pack", 10)
    assert seen == [("three_pack", 10)] and calls == [1]
    picker._dealt_dd.value = 4
    assert seen[-1] == ("three_pack", 4)
    # The round's wild cards, all of them, are in the dealt labels of Pay Me rule sets.
    picker.rules = "family"
    labels = dict((v, k) for k, v in picker._dealt_dd.options)
    assert labels[11] == "11 cards (wild: jacks and jokers)"
    picker.rules = "denexa"
    labels = dict((v, k) for k, v in picker._dealt_dd.options)
    assert labels[9] == "9 cards (wild: twos, nines and jokers)"


# --- the card picker ------------------------------------------------------------------------


def test_card_picker_respects_copies_in_a_one_pack_game() -> None:
    picker = CardPicker("classic", players=2)  # one pack
    click(picker, "7H")
    assert picker.value == parse_hand("7H")
    assert label_of(picker, "7H").endswith(" 0")
    click(picker, "7H")  # no second copy
    assert picker.value == parse_hand("7H")
    assert picker.message.kind == "error" and "7H" in picker.message.text
    click(picker, "JK")
    click(picker, "JK")
    click(picker, "JK")  # two jokers per pack
    assert picker.value.count(parse_card("JK")) == 2


def test_card_picker_three_pack_copies_and_specials() -> None:
    picker = CardPicker("three_pack", players=4)
    for _ in range(3):
        click(picker, "7H")
    assert label_of(picker, "7H").endswith(" 0")
    click(picker, "7H")  # a 4th 7H: three packs hold three
    assert picker.value.count(parse_card("7H")) == 3
    assert "holds 3" in picker.message.text
    tokens = {Card.from_index(v).token for _, v in picker.rows[-1].options}
    assert tokens == {"RUMMY", "WILD", "GROUP", "SEQ", "NOMELD", "NOGO"}
    with pytest.raises(ValueError, match="JK is not in the pack for Rummy 3-Pack"):
        picker.value = "JK"


def test_card_picker_counts_left_follow_the_pack_for_the_players() -> None:
    picker = CardPicker("denexa", players=8)  # three packs
    assert picker.count("7H") == 3 and picker.left("7H") == 3
    picker.value = "7H 7H"
    assert picker.left("7H") == 1
    # One pack: two 7H no longer fit; the picker says so and starts empty for the new pack.
    with pytest.raises(CardError, match="2 copies of 7H"):
        picker.set_rules("denexa", players=2)
    assert picker.value == () and picker.count("7H") == 1 and picker.players == 2


def test_card_picker_undo_sort_clear_and_full_hand() -> None:
    picker = CardPicker("denexa", max_cards=3)
    for token in ("KS", "2H", "7D", "9C"):
        click(picker, token)
    assert picker.value == parse_hand("KS 2H 7D")
    assert "full" in picker.message.text
    picker._sort.click()
    assert picker.value == parse_hand("KS 2H 7D") and picker.value == tuple(sorted(picker.value))
    picker._undo.click()
    assert picker.value == parse_hand("KS 2H")
    picker._clear.click()
    assert picker.value == ()


# --- the hand input -------------------------------------------------------------------------


def test_hand_input_names_the_bad_token_and_keeps_working() -> None:
    box = HandInput("denexa", players=2)
    changes: list[tuple[Card, ...]] = []
    box.on_change(lambda b: changes.append(b.value))
    box._text.value = "7H 8H zz9 9H"  # typed, then Enter
    # Listeners hear of the failure (what they show is stale) and see the error.
    assert box.value == () and changes == [()]
    assert "'zz9'" in box.message.text and box.message.kind == "error"
    assert box.error is not None
    box._text.value = "7h 8h 9h"
    assert box.value == parse_hand("7H 8H 9H") and box.error is None
    assert box.message.kind is None
    assert changes == [(), parse_hand("7H 8H 9H")]
    click(box.picker, "JK")  # clicks keep the text in sync
    assert box.text == "7H 8H 9H JK"
    assert changes[-1] == parse_hand("7H 8H 9H JK")


def test_hand_input_refuses_more_copies_than_the_pack_holds() -> None:
    box = HandInput("denexa", players=2)
    box.text = "7H 7H"
    assert box.value == () and "2 copies of 7H" in box.message.text


def test_hand_input_switching_to_a_pack_without_the_cards_gives_a_message() -> None:
    box = HandInput("denexa")
    box.text = "7H JK"
    box.set_rules("three_pack")  # no jokers there: a message, not an exception
    assert box.value == () and "JK is not in the pack for Rummy 3-Pack" in box.message.text
    box.text = "7H RUMMY"
    assert box.value == parse_hand("7H RUMMY")


def test_hand_input_use_button_reads_the_text_again() -> None:
    box = HandInput("family")
    box._text.value = "AS 1X"
    assert box.error is not None
    box._use.click()  # same text: still the same message, no exception
    assert "'1X'" in box.message.text


# --- views ----------------------------------------------------------------------------------


def test_hand_view_is_one_html_widget_with_one_image_per_card() -> None:
    view = HandView("7H 8H")
    assert view.value.count('role="img"') == 2
    view.update(parse_hand("JK 5S 5D"), marks=["wild", None, None], caption="Drawn")
    assert view.value.count('role="img"') == 3 and "WILD" in view.value and "Drawn" in view.value
    assert "payme-hand-view" in view._dom_classes


def test_layout_view_shows_an_evaluation_by_duck_typing() -> None:
    from types import SimpleNamespace

    view = LayoutView()
    view.show(SimpleNamespace(melds=(), deadwood=parse_hand("KD"), deadwood_points=10,
                              rules=rules("denexa")))  # fmt: skip
    assert "Deadwood: 10 points" in view.value
    view.show_text("a <b> note")
    assert "a &lt;b&gt; note" in view.value


# --- the hand builder -------------------------------------------------------------------------


def test_hand_builder_shows_the_engines_layout_going_out_and_chance() -> None:
    import payme
    from payme.widgets.hand_builder import HandBuilder

    hand = "5H 6H JK 9S 9D 7C KD QS"  # 8 cards with 7 dealt: just after drawing
    hb = HandBuilder(rules="denexa", dealt=7, hand=hand)
    ev = payme.evaluate(hand, rules="denexa", dealt=7)
    assert f"Deadwood: {ev.deadwood_points} points" in hb.layout_view.value
    out = payme.can_go_out(hand, rules="denexa", dealt=7)
    assert ("Can go out" in hb.verdict.value) == out.ok
    best = payme.best_discard(hand, rules="denexa", dealt=7)
    assert f"leaves deadwood of {best.deadwood_points} points" in hb.verdict.value
    # Take a card out: 7 cards = the cards dealt, so the chance of the next draw is shown.
    hb.input.picker._undo.click()
    from payme.odds import go_out_chance

    chance = go_out_chance(hb.hand, "denexa", 7)
    assert f"{chance.outs} of {chance.unseen} unseen cards" in hb.verdict.value
    assert hb.message.kind is None


def test_hand_builder_survives_nonsense_and_rule_changes() -> None:
    from urllib.parse import parse_qsl

    import payme
    from payme.display import points_phrase
    from payme.widgets.hand_builder import HandBuilder

    hb = HandBuilder.from_query({"rules": "family", "dealt": "nine", "players": "99",
                                 "hand": "7H 8H JK"})  # fmt: skip
    assert hb.rules.name == "family" and hb.hand == parse_hand("7H 8H JK")
    assert "dealt must be a whole number, not 'nine'" in hb.message.text
    assert "family is for 2-8 players, not 99" in hb.message.text
    hb.input.text = "7H 8H ??"
    assert "'??'" in hb.input.message.text
    # Nothing of the last good hand stays on show beside the message.
    assert hb.hand_view.value == "" and hb.verdict.value == ""
    assert "Run" not in hb.layout_view.value and "layout appears" in hb.layout_view.value
    assert "hand=7H+8H+%3F%3F" in hb.share_query()  # the address holds what was typed
    hb.input.text = "7H 8H JK"
    assert hb.hand == parse_hand("7H 8H JK")
    hb.picker.rules = "three_pack"  # the joker is not in that pack: a message, no exception
    assert hb.input.message.text.startswith("This hand does not fit Rummy 3-Pack: JK is not in")
    assert hb.input.text == "7H 8H JK"  # the typed hand stays
    assert hb.hand == () and "layout appears" in hb.layout_view.value
    assert "0 cards" not in hb.hand_view.value
    hb.picker.rules = "family"  # back to a pack that holds it: the hand returns
    assert hb.hand == parse_hand("7H 8H JK") and hb.input.error is None
    hb.picker.rules = "three_pack"
    hb.input.text = "RUMMY 7C 7D 7S KD"
    unmelded = payme.evaluate(hb.hand, rules="three_pack", dealt=7).deadwood_points
    assert f"Deadwood: {points_phrase(unmelded, rules('three_pack'))}" in hb.layout_view.value
    assert hb.share_query() == "rules=three_pack&dealt=7&hand=RUMMY+7C+7D+7S+KD"
    again = HandBuilder.from_query(dict(parse_qsl(hb.share_query())))
    assert (again.rules, again.dealt, again.hand) == (hb.rules, hb.dealt, hb.hand)
    # A hand pasted with "+" between cards (as in a URL) is read too.
    assert HandBuilder.from_query({"hand": "7H+8H+9H"}).hand == parse_hand("7H 8H 9H")


def test_rummy_three_pack_optional_cards_change_the_pack() -> None:
    picker = RulesPicker("three_pack", show_players=True)
    assert picker.optional == {"NOMELD": 3, "NOGO": 3, "WILD": 6}  # all: the largest pack
    picker.optional = {"NOGO": 1}  # left out: none of that card
    assert picker.optional == {"NOMELD": 0, "NOGO": 1, "WILD": 0}
    with pytest.raises(ValueError, match="0 to 3 optional NOGO, not 4"):
        picker.optional = {"NOGO": 4}
    assert RulesPicker("family", show_players=True).optional is None

    cards = CardPicker("three_pack", optional={"NOGO": 1})
    assert (cards.count("NOGO"), cards.count("NOMELD"), cards.count("WILD")) == (1, 0, 1)
    click(cards, "NOGO")
    click(cards, "NOGO")
    assert cards.value == parse_hand("NOGO") and "No NOGO left" in cards.message.text


def test_hand_builder_seen_cards_and_optional_cards_change_the_chance() -> None:
    from urllib.parse import parse_qsl

    from payme.odds import go_out_chance
    from payme.widgets.hand_builder import HandBuilder

    hand = "7H 8H 9S 9D 9C"
    hb = HandBuilder.from_query({"rules": "classic", "dealt": "5", "players": "2", "hand": hand})
    full = go_out_chance(hand, "classic", 5, players=2)
    assert f"{full.outs} of {full.unseen} unseen" in hb.verdict.value
    hb.seen.value = "6H 9H"
    fewer = go_out_chance(hand, "classic", 5, players=2, known="6H 9H")
    assert f"{fewer.outs} of {fewer.unseen} unseen" in hb.verdict.value
    hb.seen.value = "7H"  # the only 7H is in the hand: a message beside the box
    assert "2 copies of 7H" in hb.seen_message.text
    assert f"{full.outs} of {full.unseen} unseen" in hb.verdict.value

    three = HandBuilder.from_query(
        {"rules": "three_pack", "dealt": "3", "optional": "NOGO:1", "hand": "7H 8H RUMMY"}
    )
    assert three.picker.optional == {"NOMELD": 0, "NOGO": 1, "WILD": 0}
    chance = go_out_chance("7H 8H RUMMY", "three_pack", 3, optional={"NOGO": 1})
    assert f"{chance.outs} of {chance.unseen} unseen" in three.verdict.value
    query = three.share_query()
    assert "optional=NOMELD:0,NOGO:1,WILD:0" in query
    again = HandBuilder.from_query(dict(parse_qsl(query)))
    assert again.picker.optional == three.picker.optional and again.hand == three.hand


def test_every_button_of_the_hand_builder_has_description_icon_and_tooltip() -> None:
    import ipywidgets as widgets

    from payme.widgets.hand_builder import HandBuilder

    def walk(w: Any) -> list[Any]:
        return [w, *(x for child in getattr(w, "children", ()) for x in walk(child))]

    everything = walk(HandBuilder())
    buttons = [w for w in everything if isinstance(w, widgets.Button)]
    assert len(buttons) >= 4
    for b in buttons:
        assert b.description and b.icon and b.tooltip, b
    # Card buttons: one tooltip per card, naming it and the copies left.
    rows = [w for w in everything if isinstance(w, widgets.ToggleButtons)]
    assert rows and all(len(r.tooltips) == len(r.options) for r in rows)
    assert "seven of hearts: 3 of 3 left" in rows[1].tooltips


def test_seen_box_nonsense_is_a_message_whatever_the_hand_size() -> None:
    from payme.widgets.hand_builder import HandBuilder

    hb = HandBuilder(rules="denexa", dealt=3, hand="7H 8H 9H KD")  # dealt + 1: no chance shown
    hb.seen.value = "QS what"
    assert "'what'" in hb.seen_message.text
    hb.seen.value = "QS"
    assert hb.seen_message.kind is None
