"""Values print as what they are: a card's, a meld's and a preset rule set's repr paste back;
a card is built only from a valid token or index, and anything else is refused at once."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from payme import CardError, check_meld, evaluate, parse_hand, rules
from payme.cards import CARDS, N_CARDS, Card
from payme.layoff import LayOffResult, lay_off
from payme.melds import Meld
from payme.odds import go_out_chance
from payme.puzzles import puzzle_from_id
from payme.rulesets import PRESETS

# eval() of a repr sees exactly the names a user would import.
NAMES = {
    "Card": Card,
    "Meld": Meld,
    "rules": rules,
    "LayOffResult": LayOffResult,
    "Fraction": Fraction,
}


# --- Card --------------------------------------------------------------------------------


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_every_card_repr_pastes_back_to_the_same_shared_card(card: Card) -> None:
    again = eval(repr(card), NAMES)
    assert again is card
    assert str(again) == card.token  # the broken card of old raised TypeError here


def test_card_takes_any_notation_parse_card_takes() -> None:
    assert Card("10♦") is Card("td") is parse_hand("TD")[0]
    assert Card("jk").is_joker and Card("nogo").special == "NOGO"
    assert Card(Card("7H")) is Card("7H")
    assert Card(19) is Card.from_index(19) is Card("7H")


@pytest.mark.parametrize("index", [-1, -2, 59, 60, 10**9])
def test_card_refuses_an_index_out_of_range(index: int) -> None:
    with pytest.raises(CardError, match=f"no card has index {index}: indices run from 0 to 58"):
        Card(index)
    with pytest.raises(CardError, match="no card has index"):
        Card.from_index(index)


@pytest.mark.parametrize("bad", [1.5, 3.0, True, False, None, b"7H", ["7H"], object()])
def test_card_refuses_a_wrong_type_at_once(bad: object) -> None:
    with pytest.raises(TypeError, match=r"a card is a token like '7H' or an index 0-58, not "):
        Card(bad)  # type: ignore[arg-type]


def test_card_refuses_an_unknown_token() -> None:
    with pytest.raises(CardError, match="unknown card '7X'"):
        Card("7X")


def test_three_minus_two_cards_are_no_longer_a_set_of_queens() -> None:
    # Card(-2) used to be NOMELD in disguise, and three of them "a valid set of queens".
    with pytest.raises(CardError):
        check_meld([Card(-2)] * 3, rules="denexa", dealt=9)


@given(st.integers())
def test_card_of_any_int_is_the_indexed_card_or_a_clear_error(index: int) -> None:
    if 0 <= index < N_CARDS:
        assert Card(index) is CARDS[index]
        assert Card(index).index == index
    else:
        with pytest.raises(CardError):
            Card(index)


def test_cards_stay_shared_through_pickle_and_copy() -> None:
    hand = parse_hand("7H JK NOGO 7H")
    assert all(a is b for a, b in zip(pickle.loads(pickle.dumps(hand)), hand, strict=True))
    assert copy.copy(hand[0]) is hand[0] and copy.deepcopy(hand[1]) is hand[1]


# --- Ruleset -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_preset_prints_as_the_call_that_gives_it(name: str) -> None:
    assert repr(rules(name)) == f"rules({name!r})"
    assert eval(repr(rules(name)), NAMES) is rules(name)


def test_a_custom_rule_set_says_what_it_changed_and_does_not_pass_for_a_preset() -> None:
    denexa = rules("denexa")
    mine = dataclasses.replace(denexa, name="mine", wild_ranks=(2, 3))
    assert repr(mine) == "<Ruleset 'mine': rules('denexa') with wild_ranks=(2, 3)>"
    # Keeping a preset's name while changing a rule is not that preset.
    same_name = dataclasses.replace(denexa, joker_points=1)
    assert repr(same_name) == "<Ruleset 'denexa': rules('denexa') with joker_points=1>"
    # Only words changed: no rule changed, and it says so.
    renamed = dataclasses.replace(denexa, name="renamed", title="My Pay Me")
    assert repr(renamed) == "<Ruleset 'renamed': rules('denexa') with no rule changed>"


def test_a_custom_rule_set_far_from_every_preset_stays_short() -> None:
    three = rules("three_pack")
    odd = dataclasses.replace(
        three, name="odd", hands=3, first_dealt=4, set_min=4, run_min=4, joker_points=3
    )
    text = repr(odd)
    assert text.startswith("<Ruleset 'odd': rules('three_pack') with hands=3, first_dealt=4")
    assert text.endswith("and 1 more>")
    assert len(text) < 120


def test_values_holding_a_rule_set_print_it_short_and_paste_back() -> None:
    lo = lay_off("8H 9H KD KS", ["5H 6H 7H", "QC QD JK"], rules="denexa", dealt=12)
    assert "rules=rules('denexa')" in repr(lo) and len(repr(lo)) < 400  # was 1,503
    assert eval(repr(lo), NAMES) == lo
    puzzle = puzzle_from_id("denexa-7-discard-3")
    assert "rules=rules('denexa')" in repr(puzzle) and len(repr(puzzle)) < 300  # was 1,395
    chance = go_out_chance("7H 8H 9C", rules="denexa", dealt=3)
    assert "rules=rules('denexa')," in repr(chance)
    assert "Ruleset(" not in repr(chance)


# --- Meld --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "name", "dealt", "shown"),
    [
        ("5H JK 7H", "denexa", 7, "Meld('run', '5H JK(6H) 7H')"),
        ("7H 7H 7S", "denexa", 7, "Meld('set', '7S 7H 7H(7D)')"),
        ("JK JK JK", "classic", 5, "Meld('set', 'JK(?) JK(?) JK(?)')"),
        ("RUMMY", "three_pack", None, "Meld('single', 'RUMMY')"),
        ("QH KH WILD", "three_pack", None, "Meld('run', 'QH KH WILD(AH)')"),
    ],
)
def test_a_meld_repr_pastes_back(cards: str, name: str, dealt: int | None, shown: str) -> None:
    meld = check_meld(cards, rules=name, dealt=dealt).meld
    assert meld is not None
    assert repr(meld) == shown
    assert eval(shown, NAMES) == meld


# Few kinds of card, so that most draws are melds (of every shape: runs, sets, wild cards).
MELDISH = parse_hand("5H 6H 7H 8H 5S 5D 5C 3H 3C JK")


@given(st.lists(st.sampled_from(MELDISH), min_size=3, max_size=6), st.integers(3, 13))
def test_every_meld_check_meld_finds_pastes_back(cards: list[Card], dealt: int) -> None:
    try:
        meld = check_meld(cards, rules="classic", dealt=dealt).meld
    except CardError:  # more copies than the pack holds
        return
    if meld is not None:
        assert eval(repr(meld), NAMES) == meld


def test_a_meld_from_text_refuses_what_it_cannot_mean() -> None:
    with pytest.raises(ValueError, match="what each wild card plays as: 'JK' stands for itself"):
        Meld("set", "5H 5S JK")
    with pytest.raises(CardError, match="unknown card '6X'"):
        Meld("run", "5H JK(6X) 7H")
    with pytest.raises(CardError, match="is not a card, or a card and what it plays as"):
        Meld("run", "5H JK(6H 7H")
    with pytest.raises(ValueError, match="a meld's kind is one of set, run, single, not 'pair'"):
        Meld("pair", "5H 5S")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a meld needs stands_for"):
        Meld("run", parse_hand("5H 6H 7H"))
    with pytest.raises(ValueError, match="one stands_for entry per card"):
        Meld("run", parse_hand("5H 6H 7H"), parse_hand("5H 6H"))


# --- values computed, never built: their repr does not imitate a call ----------------------


def test_an_evaluation_prints_its_layout_and_its_real_rule_set() -> None:
    ev = evaluate("7H 8H 9H JK 2C 5S 5D 5C KD", rules="denexa", dealt=7)
    assert repr(ev) == (
        "<Evaluation [5S 5D 5C] [2C(6H) 7H 8H 9H JK(TH)]; deadwood KD = 10"
        " under rules('denexa'), dealt=7>"
    )
    custom = dataclasses.replace(rules("denexa"), wild_ranks=())
    assert "under <Ruleset 'denexa': rules('denexa') with wild_ranks=()>" in repr(
        evaluate("7H 8H 9H", rules=custom, dealt=7)
    )


def test_pretty_printers_print_the_repr_not_the_dataclass_fields() -> None:
    # A failing hypothesis example (and IPython) shows what pastes back.
    from hypothesis.vendor.pretty import pretty

    meld = check_meld("5H JK 7H", rules="denexa", dealt=7).meld
    assert pretty([Card("7H"), meld, rules("family")]) == (
        "[Card('7H'), Meld('run', '5H JK(6H) 7H'), rules('family')]"
    )
