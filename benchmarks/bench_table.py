"""The card table's server side: time from a click's message to the table's new state.

A player of the Play page is simulated in one fresh process: each click is sent to the
page as the browser sends it (``CardTable._receive`` with the gesture's message), which
plays the move, lets every bot move until it is your turn again, builds the new table state
and serialises it to JSON as the widget's sync does.  The clicks are chosen as the strongest
bot would play, against strong bots (the slowest), four players; every kind of click is
timed apart (the first click of the process, cold, is reported alone).  The time is until
the table shows your move; the bots' replies follow in a second state, timed too::

    .venv/bin/python -m benchmarks table      # or: .venv/bin/python -m benchmarks.bench_table

``BENCH_TABLE_GAMES`` sets the games per rule set (default 2).  The target is a median of at
most 150 ms for every kind of click.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

GAMES = int(os.environ.get("BENCH_TABLE_GAMES", "2"))
RULES = ("denexa", "family", "three_pack")
TARGET_MS = 150.0


def _gesture(page: Any) -> dict[str, Any]:
    """The click a good player makes now, as the browser would send it."""
    from payme.game.actions import Discard, Draw, GoOut, LayOff

    session = page.session
    state = page.table.state
    if session.hand_over:
        return {"do": "next_hand"}
    if state["mode"] == "arrange":
        return {"do": "lay_down"}
    move = session.advice()
    if isinstance(move, Draw):
        return {"do": "draw", "source": move.source}
    if isinstance(move, Discard):
        return {"do": "discard", "card": move.card.token, "index": 0}
    if isinstance(move, GoOut):
        card = move.discard.token if move.discard else None
        return {"do": "go_out", "card": card, "index": 0}
    if isinstance(move, LayOff):
        if len(move.placements) == 1 and len(move.placements[0][1]) == 1 and not page._layoff:
            (index, (card,)), = move.placements  # fmt: skip
            return {"do": "lay_off", "card": card.token, "meld": index}
        return {"do": "lay_off_done"} if page._layoff else {"do": "lay_off_best"}
    return {"do": "hint"}


def _timed_click(page: Any, gesture: dict[str, Any]) -> tuple[float, float]:
    """Milliseconds until the table's first new state (your move) and its last (the bots'
    replies too); each state is serialised to JSON as the widget's sync does."""
    table = page.table
    shown: list[float] = []
    show = table.show

    def timed_show(state: dict[str, Any]) -> None:
        show(state)
        json.dumps(table.state)
        json.dumps(table.faces)
        shown.append(time.perf_counter())

    table.show = timed_show
    began = time.perf_counter()
    try:
        table._receive(table, gesture, None)
    finally:
        table.show = show
    end = time.perf_counter()
    first = shown[0] if shown else end
    return (first - began) * 1000, (end - began) * 1000


def measure() -> tuple[float, dict[str, list[float]], list[float]]:
    from payme.widgets.play import PlayPage

    page = PlayPage()
    page.table.send = lambda *args, **kwargs: None  # no browser: a refusal goes nowhere
    cold: float | None = None
    times: dict[str, list[float]] = defaultdict(list)
    replies: list[float] = []
    for rules in RULES:
        for seed in range(GAMES):
            page.start(rules, 4, ("strong",), seed)
            turns = 0
            while not page.session.over and turns < 400:
                gesture = _gesture(page)
                kind = gesture["do"]
                ms, whole = _timed_click(page, gesture)
                if cold is None:
                    cold = ms
                    continue
                times[f"{kind} ({'Pay Me' if rules != 'three_pack' else 'Rummy 3-Pack'})"].append(
                    ms
                )
                replies.append(whole)
                turns += 1
                if turns % 7 == 0:
                    times["hint"].append(_timed_click(page, {"do": "hint"})[0])
    return cold or 0.0, times, replies


def _p90(values: list[float]) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def run() -> str:
    cold, times, replies = measure()
    rows = []
    worst_median = 0.0
    for kind, values in sorted(times.items()):
        median = statistics.median(values)
        worst_median = max(worst_median, median)
        rows.append(
            f"| {kind} | {len(values)} | {median:.1f} | {_p90(values):.1f} | {max(values):.1f} |"
        )
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    verdict = "met" if worst_median <= TARGET_MS else "NOT met"
    return "\n".join(
        [
            "## Card table: click to new table state (server side)",
            "",
            f"Measured {when} on {platform.machine()} {platform.system()}, Python "
            f"{platform.python_version()}, {os.cpu_count()} cores (shared with other work). "
            f"{GAMES} games per rule set ({', '.join(RULES)}), 4 players, strong bots, clicks "
            "chosen as the strongest bot would play; each time runs until the table's new "
            "state (your move) is built and serialised to JSON. Command: "
            "`.venv/bin/python -m benchmarks table`.",
            "",
            f"First click of a fresh process (cold): {cold:.1f} ms.",
            "",
            "| click | count | median ms | 90th pct ms | max ms |",
            "|---|---|---|---|---|",
            *rows,
            "",
            f"Target: median ≤ {TARGET_MS:.0f} ms for every kind of click — {verdict} "
            f"(worst median {worst_median:.1f} ms).",
            "",
            "The table shows your move as soon as it is played; the bots then reply and the "
            "table shows their moves one by one (at most 0.9 s of animation per round). Time "
            "from a click to the bots' last reply on the server: median "
            f"{statistics.median(replies):.1f} ms, 90th percentile "
            f"{_p90(replies):.1f} ms, max {max(replies):.1f} ms "
            f"over {len(replies)} clicks.",
        ]
    )


if __name__ == "__main__":
    print(run())
