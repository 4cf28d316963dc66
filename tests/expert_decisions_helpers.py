"""Every decision of the expert bot over seeded games, for the fixture that pins them
(tests/test_expert_decisions.py): a speed-up of the expert (issue 29) must leave each one
as it was.

The games: four-player Pay Me tables of each preset (``denexa``, ``classic``, ``family``)
and three-player Rummy 3-Pack tables (7 cards dealt), two experts seated with the strong
and greedy bots (so the experts see each other's discards and those of the weaker bots),
with today's bots and, in ``family`` (where generation 2 changed the expert), those of
generation 1 (:mod:`payme.game.generations`: an old Play link replays them).

Each expert decision is written as its action (``seeded_games_helpers.action_text``) and,
in Pay Me, the advice it comes from: the reason a hint shows and the weighed options with
their expected penalty points (to 9 decimals).  A game is pinned by the number of its
expert decisions and a digest of them, and the first few decisions in full (so a change
shows where it starts).

Regenerate (only with a reason: a bot meant to play differently)::

    .venv/bin/python tests/expert_decisions_helpers.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from seeded_games_helpers import action_text

from payme.game import make_bot, new_game
from payme.game.bots import bot_seed, play_out

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "expert_decisions.json"
GAMES = 10
SEED = 29_000
SHOWN = 8
"""Decisions of each game kept in full."""

KINDS: tuple[tuple[str, int], ...] = (
    ("denexa", 2),
    ("classic", 2),
    ("family", 2),
    ("family", 1),
    ("three_pack", 2),
)
"""(rules, bot generation) of the pinned games."""


def lineup(rules: str, game: int) -> tuple[str, ...]:
    """The bots of a game: two experts among strong and greedy bots, seated by the game's
    number."""
    names = (
        ("expert", "strong", "greedy")
        if rules == "three_pack"
        else ("expert", "strong", "expert", "greedy")
    )
    k = game % len(names)
    return names[k:] + names[:k]


def decision_text(bot: Any, view: Any, legal: Any) -> tuple[Any, str]:
    """The expert's action for a position, and the decision written out."""
    if hasattr(bot, "_advise"):  # the Pay Me expert: its advice is its decision
        advice = bot.advise(view, legal)
        options = " ".join(f"{action_text(a)}={v:.9f}" for a, v in advice.options)
        return advice.action, f"{action_text(advice.action)} | {advice.reason} | {options}"
    action = bot.choose(view, legal)
    return action, action_text(action)


class _Recording:
    """An expert that writes each of its decisions into ``out`` as it makes it."""

    def __init__(self, bot: Any, seat: int, out: list[str]) -> None:
        self.bot, self.seat, self.out = bot, seat, out

    def choose(self, view: Any, legal: Any) -> Any:
        action, text = decision_text(self.bot, view, legal)
        self.out.append(f"{self.seat}: {text}")
        return action


def expert_decisions(rules: str, generation: int, game_number: int) -> list[str]:
    """Every decision of the experts in one seeded game, in order."""
    bots = lineup(rules, game_number)
    seed = SEED + game_number
    options: dict[str, Any] = {"dealt": 7} if rules == "three_pack" else {"turn_limit": 400}
    game = new_game(rules, len(bots), seed, **options)
    out: list[str] = []
    seated = [
        make_bot(name, rules, bot_seed(seed, s), generation=generation)
        for s, name in enumerate(bots)
    ]
    play_out(
        game,
        [
            _Recording(b, s, out) if n == "expert" else b
            for s, (n, b) in enumerate(zip(bots, seated, strict=True))
        ],
    )
    assert game.over
    return out


def summary(rules: str, generation: int, game_number: int) -> dict[str, Any]:
    decisions = expert_decisions(rules, generation, game_number)
    return {
        "rules": rules,
        "generation": generation,
        "game": game_number,
        "decisions": len(decisions),
        "digest": hashlib.sha256("\n".join(decisions).encode()).hexdigest(),
        "first": decisions[:SHOWN],
    }


def cases() -> list[tuple[str, int, int]]:
    """(rules, bot generation, game number) of every pinned game: Rummy 3-Pack's games
    are short, so three times as many of them."""
    return [
        (rules, gen, k)
        for rules, gen in KINDS
        for k in range(GAMES * (3 if rules == "three_pack" else 1))
    ]


def record() -> None:
    data = [summary(*case) for case in cases()]
    FIXTURE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    record()
    print("recorded", FIXTURE)
