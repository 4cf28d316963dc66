"""The expert bot plays the seeded games as recorded (tests/fixtures/seeded_games_expert.json).

Kept apart from the other bots' fixtures: a change meant to make the expert play better
(e.g. issue 24) regenerates this one, with its reason in the commit message::

    .venv/bin/python tests/seeded_games_helpers.py expert

A speed-up (issue 29) must leave it unchanged.
"""

from __future__ import annotations

import json

from seeded_games_helpers import cases, fixture_path, game_summary


def test_expert_seeded_games_are_unchanged() -> None:
    data = json.loads(fixture_path("expert").read_text())
    assert [(d["rules"], d["seed"]) for d in data] == cases("expert")
    for pinned in data:
        got = dict(rules=pinned["rules"], **game_summary(pinned["rules"], "expert", pinned["seed"]))
        assert got == pinned, (pinned["rules"], pinned["seed"])
