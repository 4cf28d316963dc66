"""The expert bot against the strong bot: strength in both games, and time per decision.

Games are played duplicate style: each seeded deal is played once for every rotation of
the lineup (the bots move one seat on each time), so every bot sits in every seat with the
same cards and neither the seat nor the luck of the deal favours a bot.  Intervals are 95%
normal intervals over the deals (each deal's rotations averaged first, since they share
their cards).

1. Pay Me (``denexa`` and ``family``): four-player games with the lineup expert, strong,
   greedy, greedy.  For each bot, its mean final total (lower is better); the paired
   difference expert − strong and the ratio of their means (interval by the delta method
   on the paired deals).  Target: the expert's mean at least 10% below the strong bot's
   (ratio ≤ 0.90).
2. Rummy 3-Pack: three-player games (7 cards dealt, no optional cards) with expert, strong
   and greedy: each bot's win rate (with a 95% Wilson interval over the games, too) and the
   paired difference expert − strong.  Target: the expert wins more often.
3. Time per decision of the expert bot (CPU milliseconds: median, p95, p99, slowest, and how
   many took over 50 ms) over every decision the expert makes in those games.  Target:
   ≤ 50 ms.  The interpreter's full garbage collections run inside whichever decision
   triggers them and count in its time; the table also says how many decisions held one,
   the longest such collection, and the slowest decision without it.  Each process takes
   what it holds after its imports out of later collections (``gc.freeze``), as the app's
   page kernels do after start-up (``payme.app.page``): a bot's decisions run there, and
   a full collection then walks only what was made since.  ``BENCH_BOTS_FREEZE=0`` leaves
   that out, timing the bot in a process that never froze anything.

Run::

    .venv/bin/python -m benchmarks bots --doc docs/bots.md

``BENCH_BOTS_N`` sets the games per kind (default 1000), ``BENCH_BOTS_TIMED`` extra games
per kind played in the main process for their timing alone (default 0),
``BENCH_BOTS_WORKERS`` the processes (default 2), ``BENCH_BOTS_KINDS`` which kinds to
play (default ``denexa,family,three_pack``),
``BENCH_BOTS_LOG`` a file to which each game's bots and results are appended as it ends
(its decision times go to ``LOG.ms``; ``python -m benchmarks.bench_bots LOG [KIND ...]``
prints the tables of the whole deals in it, and ``python -m benchmarks.bench_bots
--against BASE TRIAL [KIND ...]`` the paired changes of a trial's log against a baseline's
on the deals both hold),
``BENCH_BOTS_FREEZE`` (default 1) whether start-up is frozen,
and ``BENCH_BOTS_FIRST`` the first game number to play (a second process can take the
upper part of the range).  A run started again with the same ``BENCH_BOTS_LOG`` skips the
games already in it.
"""

from __future__ import annotations

import gc
import importlib
import math
import os
import statistics
import time
from collections.abc import Sequence
from multiprocessing import get_context
from typing import Any

from benchmarks.bench_three_pack import wilson
from benchmarks.report import heading, interval, mean_total_rows
from payme.game import make_bot, new_game
from payme.game.bots import SAFETY_TURN_LIMIT, bot_seed

GAMES = int(os.environ.get("BENCH_BOTS_N", "1000"))
TIMED = int(os.environ.get("BENCH_BOTS_TIMED", "0"))
WORKERS = int(os.environ.get("BENCH_BOTS_WORKERS", "2"))
KINDS = tuple(os.environ.get("BENCH_BOTS_KINDS", "denexa,family,three_pack").split(","))
LOG = os.environ.get("BENCH_BOTS_LOG", "")
FIRST = int(os.environ.get("BENCH_BOTS_FIRST", "0"))
FREEZE = os.environ.get("BENCH_BOTS_FREEZE", "1") != "0"
SEED = 13_2026
PAY_ME_LINEUP = ("expert", "strong", "greedy", "greedy")
THREE_PACK_LINEUP = ("expert", "strong", "greedy")
DEALT = 7


def lineup(kind: str) -> tuple[str, ...]:
    return THREE_PACK_LINEUP if kind == "three_pack" else PAY_ME_LINEUP


def seating(kind: str, game: int) -> tuple[str, ...]:
    """The lineup rotated by the game number: each bot sits in every seat in turn."""
    names = lineup(kind)
    k = game % len(names)
    return names[k:] + names[:k]


def deal(kind: str, game: int) -> int:
    """The deal (seed offset) of a game: one deal for every rotation of the lineup."""
    return game // len(lineup(kind))


def play(kind: str, bots: Sequence[str], seed: int, timings: list[float] | None = None) -> Any:
    """One game with a bot in each seat (as ``payme.game.play_game`` plays it); with
    ``timings``, the CPU seconds of each of the expert's decisions are appended to it."""
    options: dict[str, Any] = {"dealt": DEALT} if kind == "three_pack" else {}
    if kind != "three_pack":
        options["turn_limit"] = SAFETY_TURN_LIMIT
    game = new_game(kind, len(bots), seed, **options)
    seated = [make_bot(name, kind, bot_seed(seed, s)) for s, name in enumerate(bots)]
    while not game.over:
        if game.phase == "hand_over":
            game.advance()
            continue
        seat = game.to_move
        assert seat is not None  # a game not over has a player to move
        view, legal = game.view(seat), game.legal_actions()
        if timings is not None and bots[seat] == "expert":
            collected = _COLLECTING[1]
            started = time.process_time()
            action = seated[seat].choose(view, legal)
            timings.append(time.process_time() - started)
            if _COLLECTING[1] > collected:  # a full collection ran inside the decision
                _SWEPT[len(timings) - 1] = _COLLECTING[1] - collected
        else:
            action = seated[seat].choose(view, legal)
        game.apply(action)
    return game


_COLLECTING = [0.0, 0.0]
"""When the garbage collector's running full collection began, and the CPU seconds of all
full collections so far (kept by :func:`_watch`)."""
_SWEPT: dict[int, float] = {}
"""For the decisions of the game being timed, by number: the CPU seconds of the full
garbage collections that ran inside it (the interpreter's, not the bot's work)."""


def _watch(phase: str, info: dict[str, int]) -> None:
    if info["generation"] == 2:
        if phase == "start":
            _COLLECTING[0] = time.process_time()
        else:
            _COLLECTING[1] += time.process_time() - _COLLECTING[0]


gc.callbacks.append(_watch)

_WARM = False
"""Whether this process has already played a game (its first decision pays the imports)."""


def _start_up() -> None:
    """Import what the games use and, unless ``BENCH_BOTS_FREEZE=0``, take every object held
    then out of later collections, as the app's page kernels do once the page is built."""
    for name in (
        "payme.solver",
        "payme.layoff",
        "payme.game.expert",
        "payme.game.three_pack_expert",
    ):
        importlib.import_module(name)
    if FREEZE:
        gc.collect()
        gc.freeze()


def _one_game(
    job: tuple[str, int],
) -> tuple[tuple[str, ...], tuple[float, ...], list[float], list[float]]:
    """Each seat's bot and result (its final total in Pay Me, 1 for a win in Rummy 3-Pack),
    the CPU seconds of each of the expert's decisions, and of the full garbage collections
    inside each; a process's first game is played twice, the first time untimed (imports
    and memos filled), so every time is warm."""
    global _WARM
    kind, number = job
    bots = seating(kind, number)
    if not _WARM:
        _start_up()
        play(kind, bots, SEED + deal(kind, number))
        _WARM = True
    timings: list[float] = []
    _SWEPT.clear()
    game = play(kind, bots, SEED + deal(kind, number), timings)
    swept = [_SWEPT.get(i, 0.0) for i in range(len(timings))]
    if kind == "three_pack":
        won = set(game.winners())
        return bots, tuple(1.0 if s in won else 0.0 for s in range(len(bots))), timings, swept
    return bots, tuple(float(t) for t in game.totals), timings, swept


def _per_bot(
    kind: str, played: list[tuple[tuple[str, ...], tuple[float, ...]]]
) -> dict[str, list[float]]:
    """Per deal, each bot's mean result over its seats in the deal's games."""
    names = sorted({b for bots, _ in played for b in bots})
    seats: dict[tuple[str, int], list[float]] = {}
    for number, (bots, results) in enumerate(played):
        for b, r in zip(bots, results, strict=True):
            seats.setdefault((b, deal(kind, number)), []).append(r)
    deals = sorted({d for _, d in seats})
    return {name: [statistics.fmean(seats[name, d]) for d in deals] for name in names}


def ratiointerval(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """mean(a) / mean(b) over paired games and its 95% interval (delta method).

    >>> [round(x, 3) for x in ratiointerval([9, 11, 10, 10], [10, 12, 11, 11])]
    [0.909, 0.902, 0.916]
    """
    n = len(a)
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    r = ma / mb
    resid = [x - r * y for x, y in zip(a, b, strict=True)]
    half = 1.96 * statistics.stdev(resid) / math.sqrt(n) / mb if n > 1 else 0.0
    return r, r - half, r + half


def _ms(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _stamp(cpu: float, swept: float) -> str:
    return f"{1000 * cpu:.2f}" + (f"+{1000 * swept:.2f}" if swept else "")


def timing_line(
    kind: str, timings: Sequence[float], games: int, swept: Sequence[float] = ()
) -> str:
    """One row of the time-per-decision table (CPU ms over every decision of the games):
    with ``swept`` (each decision's full garbage collections), the slowest decision is
    also given without them, how many decisions held one, and the longest of those.

    >>> timing_line("denexa", [0.001, 0.002, 0.030, 0.004], 1, [0.0, 0.0, 0.012, 0.0])
    '| denexa | 1 | 4 | 4.00 | 30.0 | 30.0 | 30.0 | 0 | 18.0 | 1 | 12.0 | ≤ 50 ms |'
    """
    swept = list(swept) or [0.0] * len(timings)
    work = [t - g for t, g in zip(timings, swept, strict=True)]
    return (
        f"| {kind} | {games:,} | {len(timings):,} | {_ms(timings, 0.5):.2f} | "
        f"{_ms(timings, 0.95):.1f} | {_ms(timings, 0.99):.1f} | {_ms(timings, 1.0):.1f} | "
        f"{sum(1 for t in timings if t > 0.050):,} | {_ms(work, 1.0):.1f} | "
        f"{sum(1 for g in swept if g):,} | {_ms(swept, 1.0):.1f} | ≤ 50 ms |"
    )


TIMING_HEAD = [
    "| game | games | expert decisions | median | p95 | p99 | slowest | over 50 ms "
    "| slowest without full collections | decisions with a full collection "
    "| longest full collection in one | target |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
]


def strength_lines(kind: str, games: list[tuple[tuple[str, ...], tuple[float, ...]]]) -> list[str]:
    """The Markdown tables of one kind's games (whole deals, in order of game number)."""
    lines: list[str] = []
    per = _per_bot(kind, games)
    n = len(games)
    deals = len(per["expert"])
    lines += [
        "",
        f"### {kind}: {n:,} games ({deals:,} deals), lineup {', '.join(lineup(kind))} rotated",
        "",
    ]
    if kind == "three_pack":
        lines += [
            f"Seeds {SEED}…{SEED + deals - 1}; {DEALT} cards dealt; no optional cards or "
            "variations. A game can have more than one winner.",
            "",
            "| bot | wins | win rate | 95% interval (Wilson) |",
            "| --- | ---: | ---: | --- |",
        ]
        won = {name: 0 for name in per}
        for bots, results in games:
            for b, r in zip(bots, results, strict=True):
                won[b] += int(r)
        for name in sorted(per, key=lambda b: -won[b]):
            wins = won[name]
            lo, hi = wilson(wins, n)
            lines.append(f"| {name} | {wins} | {wins / n:.3f} | {lo:.3f} – {hi:.3f} |")
        diff = [x - y for x, y in zip(per["expert"], per["strong"], strict=True)]
        mean, half = interval(diff)
        lines += [
            "",
            "| paired difference of win rates | mean | 95% interval |",
            "| --- | ---: | --- |",
            f"| expert − strong | {mean:+.3f} | {mean - half:+.3f} – {mean + half:+.3f} |",
            "",
            "Target (the expert wins more often than the strong bot): "
            + ("met, the whole interval above zero." if mean - half > 0 else "not shown."),
        ]
        return lines
    lines += [
        f"Seeds {SEED}…{SEED + deals - 1}; four players; 11 hands. Mean final total "
        "(lower is better), interval over the deals.",
        "",
        *mean_total_rows(per, per),
    ]
    diff = [x - y for x, y in zip(per["expert"], per["strong"], strict=True)]
    mean, half = interval(diff)
    r, lo, hi = ratiointerval(per["expert"], per["strong"])
    lines += [
        "",
        "| expert against strong (paired deals) | value | 95% interval |",
        "| --- | ---: | --- |",
        f"| difference of totals | {mean:+.1f} | {mean - half:+.1f} – {mean + half:+.1f} |",
        f"| ratio of mean totals (target ≤ 0.90) | {r:.3f} | {lo:.3f} – {hi:.3f} |",
        "",
        "Target (at least 10% below the strong bot): "
        + (
            "met, the whole interval at or below 0.90."
            if hi <= 0.90
            else "met by the mean, but the interval reaches above 0.90."
            if r <= 0.90
            else "not met."
        ),
    ]
    return lines


def read_log(path: str, kind: str) -> list[tuple[tuple[str, ...], tuple[float, ...]]]:
    """The games of ``kind`` in ``BENCH_BOTS_LOG`` files (comma-separated), whole deals
    only: a run stopped before its end still gives the deals it finished, and runs over
    parts of the range (``BENCH_BOTS_FIRST``) add up."""
    k = len(lineup(kind))
    rows: dict[int, list[str]] = {}
    for path_ in path.split(","):
        with open(path_) as log:
            rows.update((int(r[1]), r) for r in map(str.split, log) if r and r[0] == kind)
    whole = [g for g in sorted(rows) if all(g // k * k + i in rows for i in range(k))]
    return [(tuple(rows[g][2 : 2 + k]), tuple(float(x) for x in rows[g][2 + k :])) for g in whole]


def _logged(path: str) -> set[tuple[str, int]]:
    """The games already in ``BENCH_BOTS_LOG`` (a stopped run started again goes on from
    them: the same seeds give the same games)."""
    if not os.path.exists(path):
        return set()
    with open(path) as log:
        return {(r[0], int(r[1])) for r in map(str.split, log) if r}


def read_timings(path: str, kind: str) -> tuple[list[float], list[float]]:
    """Every timed decision of ``kind`` in the ``LOG.ms`` files beside the logs, and the
    full garbage collections inside each (seconds; 0 where none ran or none was noted)."""
    found: list[float] = []
    swept: list[float] = []
    for path_ in path.split(","):
        if os.path.exists(path_ + ".ms"):
            with open(path_ + ".ms") as log:
                for r in map(str.split, log):
                    if r and r[0] == kind:
                        for stamp in r[2:]:
                            cpu, _, part = stamp.partition("+")
                            found.append(float(cpu) / 1000)
                            swept.append(float(part or 0) / 1000)
    return found, swept


def run() -> str:
    """Run the benchmark and return its Markdown section."""
    wall = time.perf_counter()
    lines = [
        *heading(
            "The expert bot against the strong bot",
            f"BENCH_BOTS_N={GAMES} BENCH_BOTS_TIMED={TIMED} BENCH_BOTS_WORKERS={WORKERS} "
            f"BENCH_BOTS_KINDS={','.join(KINDS)} .venv/bin/python -m benchmarks bots "
            "--doc docs/bots.md",
        ),
        "The machine is shared with other work: times are CPU seconds, still noisy.",
        "",
    ]
    timing: list[str] = []
    if TIMED:
        _start_up()
    for kind in KINDS:
        timings: list[float] = []
        for k in range(TIMED):  # extra games, timed after a first untimed one
            play(kind, seating(kind, k), SEED + 500_000 + k, timings if k else None)
        if timings:
            timing.append(timing_line(kind, timings, TIMED - 1))
    # Whole deals only: the games are rounded up to a multiple of the lineup's length.
    # Deal by deal across the kinds: a run stopped early (BENCH_BOTS_LOG keeps what it
    # finished) still has a like share of every kind.
    jobs = sorted(
        (
            (kind, g)
            for kind in KINDS
            for g in range(-(-GAMES // len(lineup(kind))) * len(lineup(kind)))
            if g >= FIRST
        ),
        key=lambda job: (deal(*job), KINDS.index(job[0]), job[1]),
    )
    done = _logged(LOG) if LOG else set()
    jobs = [job for job in jobs if job not in done]  # a run resumed: its games are in LOG
    played = []
    decided: dict[str, list[float]] = {kind: [] for kind in KINDS}
    collections: dict[str, list[float]] = {kind: [] for kind in KINDS}
    with get_context("spawn").Pool(WORKERS if jobs else 1) as pool:
        for number, (bots, results, times, swept) in enumerate(
            pool.imap(_one_game, jobs, chunksize=4)
        ):
            played.append((bots, results))
            kind = jobs[number][0]
            decided[kind] += times
            collections[kind] += swept
            if LOG:
                # One line per game as it finishes: a long run can be read before it ends.
                with open(LOG, "a") as log:
                    print(kind, jobs[number][1], *bots, *results, file=log)
                with open(LOG + ".ms", "a") as log:
                    # "12.50" or, with a full collection inside, "61.20+48.10" (its part)
                    print(kind, jobs[number][1], *map(_stamp, times, swept), file=log)
    for kind in KINDS if GAMES else ():
        n = sum(1 for k, _ in jobs if k == kind)
        if n:
            timing.append(timing_line(kind, decided[kind], n, collections[kind]))
    lines += [
        "### Time per decision of the expert bot (CPU ms)",
        "",
        "Every decision of the expert in the games below (each process plays its first game",
        "once untimed: imports and memos are filled before anything is timed).",
        "",
        *TIMING_HEAD,
        *timing,
    ]
    for kind in KINDS if GAMES else ():  # BENCH_BOTS_N=0: the timing alone
        if LOG:  # every game of the log, those of an earlier part of the run too
            lines += strength_lines(kind, read_log(LOG, kind))
            continue
        games = [p for (k, _), p in zip(jobs, played, strict=True) if k == kind]
        lines += strength_lines(kind, games)
    lines += ["", f"Wall time for the whole benchmark {time.perf_counter() - wall:.0f} s."]
    return "\n".join(lines) + "\n"


def log_section(path: str, kinds: Sequence[str]) -> str:
    """The tables of the games in ``BENCH_BOTS_LOG`` files (comma-separated): the time per
    decision from the ``LOG.ms`` files beside them, then each kind's strength."""
    rows = []
    for kind in kinds:
        decisions, swept = read_timings(path, kind)
        if decisions:
            rows.append(timing_line(kind, decisions, _timed_games(path, kind), swept))
    lines = ["### Time per decision of the expert bot (CPU ms)", "", *TIMING_HEAD, *rows]
    for kind in kinds:
        lines += strength_lines(kind, read_log(path, kind))
    return "\n".join(lines) + "\n"


def against_lines(
    base: list[tuple[tuple[str, ...], tuple[float, ...]]],
    trial: list[tuple[tuple[str, ...], tuple[float, ...]]],
    kind: str,
) -> list[str]:
    """A trial's games against a baseline's on the deals both hold (a variant of a bot
    tried on the first deals of the benchmark): each Pay Me bot's change of mean total a
    game, paired deal by deal, with its 95% interval, and the expert-to-strong ratio of
    each (lower is better for the expert).

    >>> deal = lambda e, s: [(("expert", "strong"), (float(e), float(s)))] * 4  # 4 seatings
    >>> base, trial = deal(10, 12) + deal(12, 10), deal(9, 12)  # the trial: the first deal
    >>> for line in against_lines(base, trial, "family")[2:]:
    ...     print(line)
    | expert | 1 | -1.00 ± 0.00 |
    | strong | 1 | +0.00 ± 0.00 |
    | ratio expert / strong | 1 | 0.750 (was 0.833) |
    """
    k = len(lineup(kind))
    deals = min(len(base), len(trial)) // k
    was, now = _per_bot(kind, base[: deals * k]), _per_bot(kind, trial[: deals * k])
    lines = ["| bot | deals | trial − base |", "| --- | ---: | ---: |"]
    for name in ("expert", "strong"):
        mean, half = interval([t - b for t, b in zip(now[name], was[name], strict=True)])
        lines.append(f"| {name} | {deals} | {mean:+.2f} ± {half:.2f} |")
    ratio = ratiointerval(now["expert"], now["strong"])
    old = ratiointerval(was["expert"], was["strong"])
    lines.append(f"| ratio expert / strong | {deals} | {ratio[0]:.3f} (was {old[0]:.3f}) |")
    return lines


def _timed_games(path: str, kind: str) -> int:
    """How many games of ``kind`` the ``LOG.ms`` files hold the decision times of."""
    games = 0
    for path_ in path.split(","):
        if os.path.exists(path_ + ".ms"):
            with open(path_ + ".ms") as log:
                games += sum(1 for r in map(str.split, log) if r and r[0] == kind)
    return games


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--against"]:  # ... --against BASE TRIAL [KIND ...]: a trial
        for kind in sys.argv[4:] or KINDS:
            base, trial = read_log(sys.argv[2], kind), read_log(sys.argv[3], kind)
            if base and trial:
                print(f"{kind}:", *against_lines(base, trial, kind), sep="\n")
    elif len(sys.argv) >= 2:  # python -m benchmarks.bench_bots LOG [KIND ...]: a log's tables
        print(log_section(sys.argv[1], sys.argv[2:] or KINDS))
    else:
        print(run())
