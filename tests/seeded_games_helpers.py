"""Seeded bot games reduced to what they decided, for the fixtures that pin the bots'
play (tests/test_seeded_games.py, tests/test_seeded_games_expert.py).

A game is summed up by its final totals and a digest of its actions.  Each action is
written as its kind, then each field that differs from the field's default (so an
optional field added later, left at its default, does not change the digest).

Regenerate a fixture (only with a reason: a bot meant to play differently)::

    .venv/bin/python tests/seeded_games_helpers.py greedy strong random  # or: expert

A second fixture pins what the engine writes down and shows (tests/fixtures/
seeded_records.json, made on main at ef46219 before the engine's speed work of issue 29):
for a few greedy, strong and expert games, a digest of every record of the game's history,
its results, its hand summaries and its final position, and a digest of every view and
list of legal actions the bots were given.  Regenerate it (only with a reason: a change to
what the engine records, or the expert meant to play differently)::

    .venv/bin/python tests/seeded_games_helpers.py records
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from payme.game import make_bot, new_game, play_game
from payme.game.bots import bot_seed, play_out

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


RECORDED_BOTS = ("greedy", "strong", "expert")
RECORDS_PATH = FIXTURES / "seeded_records.json"


def record_cases() -> list[tuple[str, str, int]]:
    """The games whose records are pinned: (bot, rules, seed), a few per bot."""
    out = []
    for bot in RECORDED_BOTS:
        games = 2 if bot == "expert" else 5
        out += [(bot, "denexa", SEED + 500 + k) for k in range(games)]
        out += [(bot, "family", SEED + 1500)]
    return out


class _Watching:
    """A bot that hands on every view and list of legal actions it is given to a digest."""

    def __init__(self, bot: Any, seen: Any) -> None:
        self.bot, self.seen, self.name = bot, seen, bot.name

    def choose(self, view: Any, legal: Any) -> Any:
        self.seen.update(repr(view).encode())
        self.seen.update(repr(list(legal)).encode())
        return self.bot.choose(view, legal)


def history_digest(game: Any) -> str:
    """A digest of every record of ``game``'s history: number, hand, action, event, details."""
    history = hashlib.sha256()
    for rec in game.history:
        action = "-" if rec.action is None else action_text(rec.action)
        line = f"{rec.number}|{rec.hand}|{action}|{rec.event}|{rec.details!r}\n"
        history.update(line.encode())
    return history.hexdigest()


def records_summary(bot: str, rules: str, seed: int) -> dict[str, Any]:
    """Digests of what one seeded four-player game of ``bot`` recorded and showed: its
    history (each record's number, hand, action, event and details), results, hand
    summaries and final position; and every view and legal-action list the bots saw."""
    game = new_game(rules, 4, seed, turn_limit=400)
    seen = hashlib.sha256()
    seated = [_Watching(make_bot(bot, rules, bot_seed(seed, s)), seen) for s in range(4)]
    play_out(game, seated)
    ending = repr((game.results(), getattr(game, "summaries", ()), game.to_position()))
    return {
        "bot": bot,
        "rules": rules,
        "seed": seed,
        "records": len(game.history),
        "history": history_digest(game),
        "ending": hashlib.sha256(ending.encode()).hexdigest(),
        "views": seen.hexdigest(),
    }


def record_records() -> None:
    data = [records_summary(*case) for case in record_cases()]
    RECORDS_PATH.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        if name == "records":
            record_records()
            print("recorded", RECORDS_PATH)
            continue
        record(name)
        print("recorded", fixture_path(name))
