"""Seeded bot games reduced to what they decided, for the fixtures that pin the bots'
play (tests/test_seeded_games.py, tests/test_seeded_games_expert.py).

A game is summed up by its final totals and a digest of its actions.  Each action is
written as its kind, then each field that differs from the field's default (so an
optional field added later, left at its default, does not change the digest).

Regenerate a fixture (only with a reason: a bot meant to play differently)::

    .venv/bin/python tests/seeded_games_helpers.py greedy strong random  # or: expert
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from payme.game import play_game

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAMES = 40
SEED = 4_400


def action_text(action: Any) -> str:
    """One action as text: its kind and the fields not at their default."""
    parts = [type(action).__name__]
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if f.default is not dataclasses.MISSING and value == f.default:
            continue
        parts.append(f"{f.name}={value!r}")
    return " ".join(parts)


def game_summary(rules: str, bot: str, seed: int) -> dict[str, Any]:
    """The final totals and the action digest of one seeded four-player game."""
    game = play_game(rules, 4, (bot,), seed=seed)
    digest = hashlib.sha256("\n".join(map(action_text, game.actions)).encode()).hexdigest()
    return {
        "seed": seed,
        "totals": list(game.totals),
        "actions": len(game.actions),
        "digest": digest,
    }


def cases(bot: str) -> list[tuple[str, int]]:
    """The games pinned for ``bot``: denexa mostly, a few family games."""
    out = [("denexa", SEED + k) for k in range(GAMES)]
    out += [("family", SEED + 1000 + k) for k in range(GAMES // 4)]
    return out


def fixture_path(bot: str) -> Path:
    return FIXTURES / f"seeded_games_{bot}.json"


def record(bot: str) -> None:
    data = [dict(rules=rules, **game_summary(rules, bot, seed)) for rules, seed in cases(bot)]
    fixture_path(bot).write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        record(name)
        print("recorded", fixture_path(name))
