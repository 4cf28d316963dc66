"""Going out, per rule set (RULES.md: the going-out row and the Fine points), by hand."""

from __future__ import annotations

import dataclasses

import pytest

from payme import CardError, can_go_out, parse_hand, rules


def discards(hand: str, r: object, dealt: int | None) -> list[str | None]:
    out = can_go_out(hand, rules=r, dealt=dealt)  # type: ignore[arg-type]
    assert out.ok == bool(out.discards)
    return [None if c is None else str(c) for c in out.discards]


@pytest.mark.parametrize("name", ["denexa", "classic"])
def test_discard_optional(name: str) -> None:
    # Every card melded: go out without discarding, or discard an end of the run.
    assert discards("5H 6H 7H 8H", name, 3) == [None, "5H", "8H"]
    assert discards("5H 6H 7H 9C", name, 3) == ["9C"]
    assert discards("5H 6H 8H KC", name, 3) == []


def test_family_must_discard() -> None:
    assert discards("5H 6H 7H 8H", "family", 3) == ["5H", "8H"]
    assert discards("5H 6H 7H 9C", "family", 3) == ["9C"]
    assert discards("5H 6H 8H KC", "family", 3) == []


def test_full_hand_of_thirteen() -> None:
    hand = "3S 4S 5S 6H 6D 6C 8C 9C TC JC QD QH QS 4D"
    assert discards(hand, "denexa", 13) == ["4D"]
    assert discards(hand, "family", 13) == ["4D"]


def test_wild_cards_in_going_out() -> None:
    # 7 dealt: 7C joins QS QD as a wild card; 5H 6H 7H is a run; 9D is thrown.
    assert discards("5H 6H 7H 7C QS QD 9D 2S", "denexa", 7) == ["9D"]
    # In classic 2S is not wild, so 2S must go and 9D stays: no way out.
    assert discards("5H 6H 7H 7C QS QD 9D 2S", "classic", 7) == []
    # denexa's half-wild limit: 5H + JK + JK is no meld, so the hand cannot go out ...
    assert discards("5H JK JK 9C", "denexa", 3) == []
    # ... but classic allows it, and JK JK 9C is a set of nines there.
    assert discards("5H JK JK 9C", "classic", 3) == ["5H", "9C"]


def test_three_pack_one_unmelded() -> None:
    tp = "three_pack"
    assert discards("5H 5S 5D", tp, None) == [None]
    assert discards("5H 5S 5D 5C", tp, None) == [None, "5S", "5H", "5D", "5C"]
    # NOMELD may be the one card left over (it stays in the hand); NOGO may not.
    assert discards("5H 5S 5D NOMELD", tp, None) == ["NOMELD"]
    assert discards("5H 5S 5D NOGO", tp, None) == []
    assert discards("RUMMY 5H", tp, None) == ["5H"]
    assert discards("RUMMY RUMMY", tp, None) == [None, "RUMMY"]
    assert discards("WILD WILD WILD 9C", tp, None) == [None, "9C", "WILD"]
    assert discards("5H 6H 8S 9S", tp, None) == []
    # Any hand size is judged.
    assert discards("AH 2H 3H QS KS AS 7D", tp, None) == ["7D"]


def test_custom_going_out_rule() -> None:
    strict = dataclasses.replace(
        rules("denexa"), name="denexa-strict", going_out="discard_required"
    )
    assert discards("5H 6H 7H 8H", strict, 3) == ["5H", "8H"]


def test_hand_size_and_errors() -> None:
    with pytest.raises(ValueError, match="dealt \\+ 1 = 4"):
        can_go_out("5H 6H 7H 8H 9H", rules="denexa", dealt=3)
    with pytest.raises(ValueError, match="3 to 13"):
        can_go_out("5H 6H 7H 8H", rules="denexa")
    with pytest.raises(CardError, match="QQ"):
        can_go_out("5H 6H 7H QQ", rules="denexa", dealt=3)
    out = can_go_out(parse_hand("5H 6H 7H 8H"), rules=rules("classic"), dealt=3)
    assert bool(out) is True
