"""Meld checking: every rule of RULES.md about melds, for each rule set, worked out by hand."""

from __future__ import annotations

import dataclasses

import pytest

from payme import CardError, check_meld, parse_hand
from payme.melds import Meld, parse_declared_meld
from payme.rulesets import CLASSIC, DENEXA, FAMILY
from payme.rulesets import THREE_PACK as THREE
from tests.presets import ALL, PAY_ME


def ok(cards: str, r: object = "denexa", dealt: int | None = 9) -> bool:
    return check_meld(cards, rules=r, dealt=dealt).ok  # type: ignore[arg-type]


def reason(cards: str, r: object = "denexa", dealt: int | None = 9) -> str:
    return check_meld(cards, rules=r, dealt=dealt).reason  # type: ignore[arg-type]


# --- sets and runs, shared by every rule set ------------------------------------------


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(
    ("cards", "valid"),
    [
        ("5H 5S 5D", True),  # a set: one rank
        ("5H 6H 7H", True),  # a run: one suit, consecutive ranks
        ("7H 5H 6H", True),  # order given does not matter
        ("5H 6H 7H 8H 9H TH", True),  # runs have no upper size below 13
        ("5H 5S", False),  # at least 3 cards
        ("5H 6H", False),
        ("5H 6S 7D", False),  # neither one rank nor one suit
        ("5H 6H 8H", False),  # a gap and no wild card
        ("5H 5H 6H", False),  # a run holds each rank once
        ("AH 2H 3H", True),  # ace low
    ],
)
def test_plain_sets_and_runs(name: str, cards: str, valid: bool) -> None:
    dealt = None if name == "three_pack" else 12  # queens wild: no card above is wild
    assert ok(cards, name, dealt) is valid


@pytest.mark.parametrize("name", PAY_ME)
def test_ace_is_low_in_pay_me(name: str) -> None:
    assert ok("AH 2H 3H", name, 12)
    assert not ok("QH KH AH", name, 5)
    assert not ok("KH AH 2H", name, 5)
    assert "ace is low" in reason("QH KH AH", name, 5)


def test_three_pack_ace_low_or_high_never_both() -> None:
    assert ok("AH 2H 3H", THREE, None)
    assert ok("QH KH AH", THREE, None)
    assert ok("JH QH KH AH", THREE, None)
    assert not ok("KH AH 2H", THREE, None)
    assert "wrap" in reason("KH AH 2H", THREE, None)
    thirteen = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    assert ok(thirteen, THREE, None)
    assert ok("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", THREE, None)
    # Fourteen cards would need the ace both low and high.
    assert not ok(thirteen + " WILD", THREE, None)
    assert "at most 13" in reason(thirteen + " WILD", THREE, None)


def test_meld_fields() -> None:
    m = check_meld("QH KH AH", rules=THREE).meld
    assert m is not None
    assert (m.kind, m.suit, m.low, m.high) == ("run", "H", 12, 14)
    s = check_meld("5C 5S JK", rules=DENEXA, dealt=9).meld
    assert s is not None
    assert (s.kind, s.rank, s.wild_count) == ("set", 5, 1)
    # The joker stands for a five of a suit the set lacks: hearts comes first.
    assert [str(x) for x in s.stands_for] == ["5S", "5C", "5H"]
    assert str(s) == "5S 5C JK(5H)"


# --- denexa: sets of 3 or 4, distinct suits, wild limits -------------------------------


def test_denexa_sets() -> None:
    assert ok("5H 5S 5D 5C")
    assert not ok("5H 5S 5D 5C 5H")
    assert not ok("5H 5S 5D 5C JK")
    assert "at most 4" in reason("5H 5S 5D 5C JK")
    assert not ok("7H 7H 7S")
    assert reason("7H 7H 7S") == "A set may hold each suit only once, but 7H appears twice."


def test_denexa_half_wild_limit() -> None:
    assert ok("5H 5S JK")  # 1 of 3
    assert not ok("5H JK JK")  # 2 of 3
    assert "At most half" in reason("5H JK JK")
    assert ok("5H 5S JK 2C")  # 2 of 4 is half
    assert not ok("JK JK JK")
    assert ok("5H JK 7H JK 9H")  # 2 of 5 in a run
    assert ok("5H JK 7H JK")  # 2 of 4 is half
    assert not ok("5H JK JK 2C 9H")  # 3 of 5 would be wild


def test_denexa_no_adjacent_wilds_in_run() -> None:
    assert not ok("5H JK JK 8H 9H 10H")
    assert "next to each other" in reason("5H JK JK 8H 9H TH")
    assert ok("5H JK 7H JK 9H")
    assert ok("JK 6H 7H JK")  # wilds at both ends are not next to each other


def test_wild_card_of_a_rank_stands_for_itself() -> None:
    # With 7 dealt, sevens are wild, but 7H 7S 7D is a plain set of sevens.
    chk = check_meld("7H 7S 7D", rules=DENEXA, dealt=7)
    assert chk.ok and chk.meld is not None and chk.meld.wild_count == 0
    assert chk.reason == "Valid set of sevens."
    # Twos are wild in denexa, yet A-2-3 is a natural run and 2-2-2 a natural set.
    run = check_meld("AH 2H 3H", rules=DENEXA, dealt=9)
    assert run.ok and run.meld is not None and run.meld.wild_count == 0
    assert ok("2C 2D 2S")
    # A card counts as wild only when it stands for something else: 2H 3H 4H + JK is fine
    # (one wild of four).
    assert ok("2H 3H 4H JK")


def test_spare_copy_of_wild_rank_acts_as_wild() -> None:
    chk = check_meld("7H 7H 7S", rules=DENEXA, dealt=7)
    assert chk.ok
    assert chk.meld is not None and chk.meld.wild_count == 1
    assert chk.reason == "Valid set of sevens; 7H stands for 7D."
    assert not ok("7H 7H 7H", DENEXA, 7)  # two of three would be wild
    assert ok("9H 9H 9S 9D", DENEXA, 9)


def test_denexa_twos_wild_and_round_rank_wild() -> None:
    assert ok("2C 5H 5S")  # 2C stands for a five
    assert ok("KC 5H 5S", DENEXA, 13)  # kings are wild with 13 dealt
    assert not ok("KC 5H 5S", DENEXA, 12)
    assert ok("5H 2C 7H")  # 2C stands for 6H


def test_custom_rule_set_without_wild_twos() -> None:
    no_twos = dataclasses.replace(DENEXA, name="denexa-no-twos", wild_ranks=())
    assert ok("2C 5H 5S", DENEXA)
    assert not ok("2C 5H 5S", no_twos)
    assert not ok("5H 2C 7H", no_twos)
    assert ok("2C 2D 2S", no_twos)


def test_a_house_rule_makes_any_rank_wild() -> None:
    threes = dataclasses.replace(DENEXA, name="threes-too", wild_ranks=(2, 3))
    assert ok("3C 5H 5S", threes, 9) and not ok("3C 5H 5S", DENEXA, 9)
    assert ok("5H 3C 7H", threes, 9)  # 3C stands for 6H
    assert ok("2C 5H 5S", threes, 9)  # twos stay wild


def test_custom_rule_set_with_big_sets() -> None:
    loose = dataclasses.replace(DENEXA, name="loose", set_max=None, set_distinct_suits=False)
    assert ok("5H 5H 5S 5D 5C", loose)
    assert not ok("5H 5H 5S 5D 5C", DENEXA)


# --- classic and family: no wild limits, sets of any size ------------------------------


@pytest.mark.parametrize("name", ["classic", "family"])
def test_no_wild_limits(name: str) -> None:
    assert ok("JK JK JK", name)  # a meld made only of wild cards
    assert ok("5H JK JK", name)
    assert ok("5H JK JK 8H", name)
    assert ok("7H 7H 7S", name)  # suits may repeat
    assert ok("5H 5S 5D 5C 5H", name)  # more than four
    assert ok("9H 5S 5D", name, 9)  # the round wild rank is wild
    assert not ok("2C 5H 5S", name, 9)  # twos are not
    chk = check_meld("JK JK JK", rules=name, dealt=9)
    assert chk.meld is not None and chk.meld.stands_for == (None, None, None)
    assert "only of wild cards" in chk.reason


def test_family_jokers_are_wild() -> None:
    assert ok("JK 5H 5S", FAMILY)
    no_jokers = dataclasses.replace(FAMILY, name="family-plain", jokers_wild=False)
    assert not ok("JK 5H 5S", no_jokers)
    assert "JK" in reason("JK 5H 5S", no_jokers)


# --- three_pack's special cards ----------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "valid"),
    [
        ("WILD WILD WILD", True),
        ("WILD WILD", False),
        ("GROUP WILD WILD", True),
        ("SEQ WILD WILD", True),
        ("GROUP SEQ WILD", False),
        ("GROUP SEQ WILD WILD", False),
        ("GROUP 5H 5S", True),
        ("GROUP 5H 6H", False),
        ("SEQ 5H 6H", True),
        ("SEQ 5H 5S", False),
        ("WILD 5H 6H", True),
        ("WILD 5H 5S", True),
        ("5H 5H 5H 5S 5S 5D", True),  # groups: suits repeat, no upper size
        ("RUMMY", True),
        ("RUMMY RUMMY", False),
        ("RUMMY 5H 5S", False),
        ("RUMMY WILD WILD", False),
        ("NOMELD 5H 5S", False),
        ("NOGO WILD WILD", False),
        ("NOMELD", False),
    ],
)
def test_three_pack_specials(cards: str, valid: bool) -> None:
    assert ok(cards, THREE, None) is valid


def test_three_pack_reasons() -> None:
    assert reason("GROUP SEQ WILD", THREE, None) == "One meld may not hold both GROUP and SEQ."
    assert "only in sets" in reason("GROUP 5H 6H", THREE, None)
    assert "only in runs" in reason("SEQ 5H 5S", THREE, None)
    assert "on its own" in reason("RUMMY 5H 5S", THREE, None)
    assert reason("NOMELD 5H 5S", THREE, None) == "NOMELD can never be melded."
    single = check_meld("RUMMY", rules=THREE)
    assert single.meld is not None and single.meld.kind == "single"


def test_three_pack_ignores_dealt() -> None:
    assert check_meld("5H 5S 5D", rules="three_pack").ok
    assert check_meld("5H 5S 5D", rules="three_pack", dealt=99).ok


# --- reasons, errors, declared melds -------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "r", "dealt"),
    [
        ("5H JK 7H", "denexa", 9),
        ("5H JK JK", "denexa", 9),
        ("5H 6S 7D", "classic", 9),
        ("KH AH 2H", "three_pack", None),
        ("7H 7H 7S", "denexa", 7),
        ("", "denexa", 9),
    ],
)
def test_reason_is_one_sentence(cards: str, r: str, dealt: int | None) -> None:
    text = check_meld(cards, rules=r, dealt=dealt).reason
    assert text.endswith(".")
    assert ". " not in text[:-1]
    assert text[0].isupper()


def test_valid_reasons_name_the_stand_ins() -> None:
    assert reason("5H JK 7H") == "Valid run of hearts 5–7; JK stands for 6H."
    assert reason("5S 5D 5C") == "Valid set of fives."
    assert reason("6S 6D JK") == "Valid set of sixes; JK stands for 6H."


def test_bad_input_is_an_error() -> None:
    with pytest.raises(CardError, match="1X"):
        check_meld("5H 1X 7H", rules="denexa", dealt=9)
    with pytest.raises(CardError, match="7H"):
        check_meld("7H 7H 7H 7H", rules="denexa", dealt=9)  # 3 packs hold 3
    with pytest.raises(CardError, match="JK"):
        check_meld("JK 5H 5S", rules="three_pack")
    with pytest.raises(ValueError, match="3 to 13"):
        check_meld("5H 6H 7H", rules="denexa")
    with pytest.raises(ValueError, match="3 to 13"):
        check_meld("5H 6H 7H", rules="classic", dealt=14)
    with pytest.raises(ValueError, match="presets"):
        check_meld("5H 6H 7H", rules="nope", dealt=5)


def test_declared_melds() -> None:
    m = parse_declared_meld("5H JK 7H", DENEXA, 9)
    assert [str(c) for c in m.stands_for] == ["5H", "6H", "7H"]
    m = parse_declared_meld("JK 6H 7H", DENEXA, 9)
    assert [str(c) for c in m.stands_for] == ["5H", "6H", "7H"]
    m = parse_declared_meld("6H 7H JK", DENEXA, 9)
    assert [str(c) for c in m.stands_for] == ["6H", "7H", "8H"]
    # Cards that can form a set are a set.
    assert parse_declared_meld("7H 7S JK", DENEXA, 9).kind == "set"
    # A run must be listed low to high.
    with pytest.raises(ValueError, match="low to high"):
        parse_declared_meld("5H 7H JK", DENEXA, 9)
    with pytest.raises(ValueError, match="not a valid meld"):
        parse_declared_meld("5H 6S 7D", DENEXA, 9)
    # A Meld passes through when valid, and is refused when not.
    assert parse_declared_meld(m, DENEXA, 9) is m
    bad = Meld("run", parse_hand("5H JK JK"), parse_hand("5H 6H 7H"))
    with pytest.raises(ValueError):
        parse_declared_meld(bad, DENEXA, 9)
    assert parse_declared_meld(bad, CLASSIC, 9) is bad


def test_all_wild_declared_run_in_three_pack() -> None:
    m = parse_declared_meld("SEQ WILD WILD", THREE, None)
    assert m.kind == "run" and m.stands_for == (None, None, None)


@pytest.mark.parametrize("name", PAY_ME)
def test_k_a_2_names_the_wrap_rule_in_every_pay_me_rule_set(name: str) -> None:
    """K-A-2 fails because runs do not wrap (the ace is low only), whether the 2 is a
    natural card (Classic, Family) or a wild one that could also stand for a queen (Denexa)."""
    why = reason("KH AH 2H", name)
    assert "wrap around" in why and "K-A-2" in why, why
    assert "wrap around" in reason("KH AH JK", name)
    # Q-K-A alone is the other half of the rule: the ace does not go high.
    assert reason("QH KH AH", name) == (
        "The ace is low in a run, so a run cannot go up to an ace (Q-K-A)."
    )
