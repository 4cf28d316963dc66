"""Simulated games' results in plain Python, without pandas: for the static site, where
Python runs in the visitor's browser (Pyodide) and pandas is not on the site.

The same games as :func:`~payme.analysis.simulate.simulate` (game *i* is played with
:func:`~payme.analysis.simulate.game_seed` ``(seed, i)``) and the same measures as
:func:`payme.analysis.stats.bot_strength` and
:func:`~payme.analysis.stats.mean_penalty_by_hand`, on lists of dicts.

>>> rows = play_rows(2, "denexa", 2, ["greedy", "random"], seed=1)
>>> len(rows), sorted(rows[0])[:4]
(44, ['bot', 'deadwood', 'dealt', 'game'])
>>> [row["bot"] for row in bot_results(rows)]          # best first: the lowest final total
['greedy', 'random']
>>> by_hand = penalty_by_hand(rows)
>>> sorted(by_hand), len(by_hand["greedy"])
(['greedy', 'random'], 11)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from payme.analysis.simulate import plan, play_batch
from payme.analysis.stats import mean_interval, wilson_interval
from payme.rulesets import RulesLike

__all__ = ["bot_results", "penalty_by_hand", "play_rows"]

Progress = Callable[[int, int], Any]


def play_rows(
    games: int,
    rules: RulesLike,
    players: int,
    bots: str | Iterable[str],
    seed: int | str = 0,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` games in this process, one row per player per hand (as dicts with the
    columns of :func:`~payme.analysis.simulate.simulate`'s frame); ``progress(done,
    total)`` after each game."""
    checked = plan(games, rules, players, bots, seed)
    names = [name for name, _ in checked.columns]
    rows: list[dict[str, Any]] = []
    for game in range(games):
        rows.extend(
            dict(zip(names, row, strict=True)) for row in play_batch(checked, game, game + 1)
        )
        if progress is not None:
            progress(game + 1, games)
    return rows


def _bots(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The bots in the order they were first seated."""
    return list(dict.fromkeys(str(row["bot"]) for row in rows))


def bot_results(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each bot's results with 95% intervals, best first (the columns of
    :func:`payme.analysis.stats.bot_strength`, with ``bot`` in each row)."""
    if rows and "winner" in rows[0]:  # Rummy 3-Pack: who won each game
        out = []
        for bot in _bots(rows):
            won = [bool(row["winner"]) for row in rows if row["bot"] == bot]
            wins = sum(won)
            low, high = wilson_interval(wins, len(won))
            out.append(
                {"bot": bot, "seats": len(won), "wins": wins, "win_rate": wins / len(won),
                 "win_low": low, "win_high": high}
            )  # fmt: skip
        return sorted(out, key=lambda row: -row["win_rate"])
    last: dict[tuple[int, int], dict[str, Any]] = {}
    money: dict[tuple[int, int], int] = defaultdict(int)
    for row in rows:
        key = (row["game"], row["seat"])
        if key not in last or row["hand"] > last[key]["hand"]:
            last[key] = row
        money[key] += int(row.get("money") or 0)
    lowest: dict[int, int] = {}
    for (game, _seat), row in last.items():
        lowest[game] = min(lowest.get(game, row["total"]), row["total"])
    out = []
    for bot in _bots(rows):
        mine = [(key, row) for key, row in last.items() if row["bot"] == bot]
        per_game: dict[int, list[int]] = defaultdict(list)
        for (game, _seat), row in mine:
            per_game[game].append(row["total"])
        mean, low, high = mean_interval(sum(t) / len(t) for t in per_game.values())
        wins = sum(row["total"] == lowest[game] for (game, _seat), row in mine)
        win_low, win_high = wilson_interval(wins, len(mine))
        result = {
            "bot": bot, "games": len(per_game), "seats": len(mine),
            "mean_total": mean, "total_low": low, "total_high": high,
            "win_rate": wins / len(mine), "win_low": win_low, "win_high": win_high,
        }  # fmt: skip
        if "money" in rows[0]:
            result["mean_money"] = sum(money[key] for key, _row in mine) / len(mine)
        out.append(result)
    return sorted(out, key=lambda row: row["mean_total"])


def penalty_by_hand(rows: Sequence[dict[str, Any]]) -> dict[str, list[tuple[int, float]]]:
    """Each bot's mean penalty points in each hand: ``{bot: [(hand, mean), ...]}``."""
    points: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        points[str(row["bot"])][int(row["hand"])].append(int(row["points"]))
    return {
        bot: [(hand, sum(p) / len(p)) for hand, p in sorted(points[bot].items())]
        for bot in _bots(rows)
    }
