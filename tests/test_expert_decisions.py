"""The expert bot decides every position of the pinned seeded games as recorded
(tests/fixtures/expert_decisions.json, made by tests/expert_decisions_helpers.py before the
speed-ups of issue 29): each action, and in Pay Me the reason and weighed options of its
advice, in every preset, in Rummy 3-Pack, and with the bots of generation 1."""

from __future__ import annotations

import json

import pytest
from expert_decisions_helpers import FIXTURE, cases, summary

PINNED = {(d["rules"], d["generation"], d["game"]): d for d in json.loads(FIXTURE.read_text())}


def test_the_fixture_pins_every_case() -> None:
    assert sorted(PINNED) == sorted(cases())
    assert all(d["decisions"] >= 5 for d in PINNED.values())


@pytest.mark.parametrize(("rules", "generation", "game"), cases())
def test_expert_decisions_are_unchanged(rules: str, generation: int, game: int) -> None:
    pinned = PINNED[rules, generation, game]
    got = summary(rules, generation, game)
    assert got["first"] == pinned["first"]
    assert got == pinned
