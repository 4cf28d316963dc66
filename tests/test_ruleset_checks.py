"""Every Ruleset field checked for type and range, with a message naming the field (issue 14.5)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from payme.rulesets import PRESETS, rules

DENEXA = rules("denexa")


def _refusal(**changes: Any) -> str:
    with pytest.raises(ValueError) as info:
        dataclasses.replace(DENEXA, **changes)
    return str(info.value)


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        # the cases of issue 14
        ({"run_min": 1}, "run_min"),  # evaluate and check_meld disagreed
        ({"set_min": 100}, "set_min"),  # IndexError
        ({"joker_points": -5}, "joker_points"),  # IndexError / AssertionError
        ({"rank_points": (5,) * 12 + (-10,)}, "rank_points[12]"),
        ({"packs": ((8, 10**6),)}, "packs[0] packs"),  # tried to allocate 2 GB
        # types
        ({"jokers_wild": 1}, "jokers_wild"),
        ({"wild_ranks": (2, 14)}, "wild_ranks[1]"),
        ({"wild_ranks": (3, 2)}, "wild_ranks must list each rank once"),
        ({"min_players": True}, "min_players"),
        ({"max_players": 8.0}, "max_players"),
        ({"wild_points": "15"}, "wild_points"),
        ({"ace": "high"}, "ace"),
        ({"going_out": None}, "going_out"),
        ({"final_turn_draw": ("deck",)}, "final_turn_draw[0]"),
        ({"special_wilds": (("WILD", "all"),)}, "special_wilds[0] melds"),
        ({"special_cards": (("JOKER", 1),)}, "special_cards[0] card"),
        ({"never_discarded": ("XX",)}, "never_discarded[0]"),
        ({"rank_points": (5,) * 12}, "rank_points"),
        ({"notes": (1,)}, "notes[0]"),
        # ranges and consistency
        ({"set_max": 2}, "set_max"),
        ({"min_players": 9}, "min_players"),
        ({"packs": ((4, 2), (2, 1), (8, 3))}, "packs"),
        ({"packs": ((4, 2),)}, "packs must cover"),
        ({"jokers_per_pack": 10**9}, "jokers_per_pack"),
        ({"first_dealt": 5}, "first_dealt"),  # 11 hands from 5 would deal 15
        ({"max_dealt": 40}, "max_dealt"),
        ({"hands": 0}, "hands"),
        ({"money": "50"}, "money"),
    ],
)
def test_a_bad_field_is_refused_by_name(changes: dict[str, Any], named: str) -> None:
    message = _refusal(**changes)
    assert message.startswith("invalid rule set 'denexa': ")
    assert named in message
    assert len(message) < 400  # a huge value is cut short, never echoed whole


def test_every_problem_is_reported_at_once() -> None:
    message = _refusal(run_min=1, set_min=100, joker_points=-1)
    assert "run_min" in message and "set_min" in message and "joker_points" in message


def test_presets_and_their_custom_variants_are_accepted() -> None:
    for preset in PRESETS.values():
        assert dataclasses.replace(preset, name=f"{preset.name}-copy") == dataclasses.replace(
            preset, name=f"{preset.name}-copy"
        )
    dataclasses.replace(DENEXA, never_discarded=("JK",), first_dealt=5, hands=1)


@given(
    run_min=st.integers(-5, 30),
    set_min=st.integers(-5, 30),
    joker_points=st.integers(-100, 2000),
    packs=st.integers(-2, 20),
)
def test_numbers_are_accepted_exactly_within_their_ranges(
    run_min: int, set_min: int, joker_points: int, packs: int
) -> None:
    changes = {
        "run_min": run_min,
        "set_min": set_min,
        "set_max": None,
        "joker_points": joker_points,
        "packs": ((8, packs),),
    }
    fine = 3 <= run_min <= 13 and 3 <= set_min <= 13 and 0 <= joker_points <= 1000
    fine = fine and 1 <= packs <= 8
    if fine:
        custom = dataclasses.replace(DENEXA, **changes)
        assert custom.run_min == run_min and custom.packs_for(8) == packs
    else:
        message = _refusal(**changes)
        wrong = [
            name
            for name, ok in (
                ("run_min", 3 <= run_min <= 13),
                ("set_min", 3 <= set_min <= 13),
                ("joker_points", 0 <= joker_points <= 1000),
                ("packs", 1 <= packs <= 8),
            )
            if not ok
        ]
        assert all(name in message for name in wrong)
