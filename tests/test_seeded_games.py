"""The greedy, strong and random bots play the seeded games exactly as recorded.

The fixtures (tests/fixtures/seeded_games_*.json) were recorded from the code before the
lay-off search and the bots' draws and discards were made faster (issue 29): a speed-up
must not change a single action.  The expert bot has its own fixture and test
(test_seeded_games_expert.py), since it may be changed on purpose.
"""

from __future__ import annotations

import json

import pytest
from seeded_games_helpers import cases, fixture_path, game_summary


def _pinned(bot: str) -> list[dict[str, object]]:
    data: list[dict[str, object]] = json.loads(fixture_path(bot).read_text())
    assert [(d["rules"], d["seed"]) for d in data] == cases(bot)
    return data


@pytest.mark.parametrize("bot", ["greedy", "strong", "random"])
def test_seeded_games_are_unchanged(bot: str) -> None:
    for pinned in _pinned(bot):
        rules, seed = str(pinned["rules"]), int(str(pinned["seed"]))
        got = dict(rules=rules, **game_summary(rules, bot, seed))
        assert got == pinned, (bot, rules, seed)
