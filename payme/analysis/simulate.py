"""Simulate many bot games into a pandas DataFrame, on every core or on a Dask cluster.

Game *i* of a simulation is played with the seed :func:`game_seed` ``(seed, i)``, so a game's
rows depend only on the arguments and its number: the frame is the same whether the games
run in this process, in a pool of processes, or on a Dask cluster, and any one game can be
replayed on its own:

>>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
True

>>> import payme
>>> df = payme.simulate(games=1, rules="denexa", players=2, bots="greedy", seed=1, workers=1)
>>> df.shape                                       # 1 game x 11 hands x 2 seats
(22, 11)
>>> list(df.columns[:6])
['game', 'hand', 'dealt', 'wild_rank', 'seat', 'bot']
>>> df.groupby("seat")["points"].sum().tolist() == df.loc[df["hand"] == 11, "total"].tolist()
True

Pandas is imported only when :func:`simulate` runs, so ``import payme`` stays light.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import math
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from payme.analysis.progress import ProgressLike, check_progress, reporter
from payme.game import game_class
from payme.game.collector import fewer_young_collections
from payme.game.pay_me import PayMeGame
from payme.game.three_pack import ThreePackGame
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

Row = tuple[Any, ...]
PlayFn = Callable[..., Any]
"""Plays one game: ``play(rules, players, bots=..., seed=..., **options)`` -> an object whose
``results()`` gives the rows of GAME_INTERFACE (``payme.game.play_game`` by default)."""

# Columns of the frame and their dtypes.  Small integer types keep a million-game frame in
# memory; pandas widens them in sums and means, so statistics do not overflow.
PAY_ME_COLUMNS: tuple[tuple[str, str], ...] = PayMeGame.RESULT_COLUMNS
MONEY_COLUMN: tuple[str, str] = ("money", "int32")
THREE_PACK_COLUMNS: tuple[tuple[str, str], ...] = ThreePackGame.RESULT_COLUMNS
STANDARD_MIX: tuple[str, ...] = ("strong", "greedy", "random", "greedy")
"""The default seating: one strong bot, one random bot and two greedy ones."""
HOW_WON: tuple[str, ...] = ("went out", "both rummy", "rummy card", "")
"""Rummy 3-Pack's ways to win, in the order of the ``how`` categories ("" = did not win)."""

# Workers take games in batches: big enough that sending the work costs little, small
# enough that the progress bar moves and the last batches balance the load.
MAX_BATCH = 20
BATCHES_PER_WORKER = 8
MAX_GAMES = 1_000_000
"""The most games one run plays (about a day on 2 cores); more is refused before anything
is set up (the CLI and the Analysis page have their own, smaller or equal, caps)."""
IN_FLIGHT_PER_WORKER = 4
"""Batches handed to each worker process ahead of its results: the rest wait, unsubmitted,
so a long run's plan costs the same memory as a short one's."""
POOL_WORTH = 0.5
"""Seconds of one core a run must still need, after its first game, for worker processes
to pay for their start (when ``workers`` is left to :func:`simulate`)."""


class SimulationError(RuntimeError):
    """A game of a simulation failed; the message names the game and its seed."""


def game_seed(seed: int | str, game: int) -> int:
    """The seed of game number ``game`` (0-based) in a simulation seeded with ``seed``.

    A 63-bit hash of ``"{seed}:{game}"``: independent of the platform, the Python version
    and how the games are split between workers.

    >>> game_seed(7, 0)
    7985665222500292864
    >>> game_seed("7", 0) == game_seed(7, 0)
    True
    """
    digest = hashlib.blake2b(f"{seed}:{game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class Plan:
    """A checked simulation: everything a worker needs to play a batch of games."""

    rules: Ruleset
    players: int
    bots: tuple[str, ...]
    seed: int | str
    options: Mapping[str, Any] = field(default_factory=dict)
    play: PlayFn | None = None

    @property
    def columns(self) -> tuple[tuple[str, str], ...]:
        # The engine's results and their dtypes, and the money won where stakes are played.
        columns = game_class(self.rules).RESULT_COLUMNS
        return (*columns, MONEY_COLUMN) if self.rules.money is not None else columns


def bot_names() -> tuple[str, ...]:
    """The bots a simulation can seat (``payme.game.BOT_NAMES``)."""
    from payme.game import BOT_NAMES

    return tuple(BOT_NAMES)


def _check_int(name: str, value: object, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {value!r}")
    if value < least:
        raise ValueError(f"{name} must be at least {least}, not {value}")
    return value


def check_bots(bots: str | Iterable[str] | None, players: int) -> tuple[str, ...]:
    """``bots`` as one name per seat: a single name (or a one-name list) seats it everywhere;
    ``None`` seats the standard mix (:data:`STANDARD_MIX`) around the table.

    >>> check_bots(None, 6)
    ('strong', 'greedy', 'random', 'greedy', 'strong', 'greedy')
    >>> check_bots("greedy", 3)
    ('greedy', 'greedy', 'greedy')
    >>> check_bots(["Strong", " random"], 2)
    ('strong', 'random')
    >>> check_bots(["greedy", "clever"], 2)
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'clever': the bots are random, greedy, strong, expert
    >>> check_bots(["greedy", "random"], 3)
    Traceback (most recent call last):
    ...
    ValueError: 3 players need 3 bots (one per seat, or one for all), got 2: greedy, random
    """
    if bots is None:
        return tuple(STANDARD_MIX[seat % len(STANDARD_MIX)] for seat in range(players))
    if isinstance(bots, str):
        names = [bots]
    elif isinstance(bots, Iterable):
        names = list(bots)
    else:
        raise TypeError(f"bots must be a bot name or one name per seat, not {bots!r}")
    known = bot_names()
    checked = []
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"a bot is named by a string, not {name!r}")
        key = name.strip().lower()
        if key not in known:
            raise ValueError(f"unknown bot {name!r}: the bots are {', '.join(known)}")
        checked.append(key)
    if len(checked) == 1:
        return tuple(checked) * players
    if len(checked) != players:
        raise ValueError(
            f"{players} players need {players} bots (one per seat, or one for all), "
            f"got {len(checked)}: {', '.join(checked) or 'none'}"
        )
    return tuple(checked)


def plan(
    games: int,
    rules: RulesLike,
    players: int,
    bots: str | Iterable[str] | None,
    seed: int | str,
    options: Mapping[str, Any] | None = None,
    play: PlayFn | None = None,
) -> Plan:
    """Check a simulation's arguments up front, with errors that say what is allowed.

    >>> plan(10**9, "denexa", 4, None, 7)
    Traceback (most recent call last):
    ...
    ValueError: games must be at most 1,000,000 in one run, not 1,000,000,000
    """
    _check_int("games", games, 1)
    if games > MAX_GAMES:
        raise ValueError(f"games must be at most {MAX_GAMES:,} in one run, not {games:,}")
    ruleset = get_rules(rules)
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be a whole number, not {players!r}")
    ruleset.check_players(players)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"seed must be a whole number or a string, not {seed!r}")
    if play is not None and not callable(play):
        raise TypeError(f"play must be a function that plays one game, not {play!r}")
    return Plan(ruleset, players, check_bots(bots, players), seed, dict(options or {}), play)


def _rows_of_game(plan: Plan, game: int, results: Sequence[Mapping[str, Any]]) -> list[Row]:
    names = [name for name, _ in plan.columns]
    rows = []
    for result in results:
        # "dropped" (Rummy 3-Pack: left the game) is absent from engines without dropping out
        row = {"dropped": False, **result, "game": game, "bot": plan.bots[result["seat"]]}
        missing = [name for name in names if name not in row]
        if missing:
            raise SimulationError(f"game {game}: results() rows lack {', '.join(missing)}")
        rows.append(tuple(row[name] for name in names))
    return rows


def play_batch(plan: Plan, start: int, stop: int) -> list[Row]:
    """Play games ``start`` to ``stop - 1`` of ``plan`` and return their rows as tuples.

    Runs in a worker process or on a Dask worker, so it takes and returns only picklable
    data.
    """
    play = plan.play
    if play is None:
        from payme.game import play_game

        play = play_game
    rows = []
    with fewer_young_collections():
        for game in range(start, stop):
            seed = game_seed(plan.seed, game)
            try:
                finished = play(plan.rules, plan.players, bots=plan.bots, seed=seed, **plan.options)
                results = finished.results()
            except Exception as exc:
                raise SimulationError(
                    f"game {game} ({plan.rules.name}, {plan.players} players, bots "
                    f"{', '.join(plan.bots)}, seed {seed}) failed: {exc!r}"
                ) from exc
            rows.extend(_rows_of_game(plan, game, results))
    return rows


class Batches(Sequence[tuple[int, int]]):
    """``range(games)`` cut into ``(start, stop)`` batches of ``size``, computed on demand:
    the plan of a long run takes no more memory than a short one's."""

    def __init__(self, games: int, size: int, offset: int = 0) -> None:
        self.games, self.size, self.offset = games, size, offset
        self._starts = range(0, games, size)

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
        if isinstance(index, slice):
            return [self._batch(start) for start in self._starts[index]]
        return self._batch(self._starts[index])

    def _batch(self, start: int) -> tuple[int, int]:
        stop = min(start + self.size, self.games)
        return (start + self.offset, stop + self.offset)

    def __repr__(self) -> str:
        return f"Batches(games={self.games}, size={self.size}, offset={self.offset})"


def batches(games: int, workers: int) -> Batches:
    """Split ``range(games)`` into ``(start, stop)`` batches for ``workers`` workers (a lazy
    sequence: nothing is built per batch until it is asked for).

    >>> list(batches(10, 1))
    [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    >>> batches(1000, 2)[:2], len(batches(1000, 2))
    ([(0, 20), (20, 40)], 50)
    """
    size = max(1, min(MAX_BATCH, math.ceil(games / (workers * BATCHES_PER_WORKER))))
    if workers == 1:
        size = max(1, min(size, math.ceil(games / 5)))  # still report progress in steps
    return Batches(games, size)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _run_here(
    plan: Plan, work: Sequence[tuple[int, int]], report: Callable[[int], None]
) -> list[Row]:
    rows = []
    for start, stop in work:
        rows.extend(play_batch(plan, start, stop))
        report(stop - start)
    return rows


def _after_first(games: int, workers: int) -> Batches:
    """:func:`batches` of the games after game 0.

    >>> list(_after_first(5, 1))
    [(1, 2), (2, 3), (3, 4), (4, 5)]
    """
    plain = batches(games - 1, workers)
    return Batches(plain.games, plain.size, offset=1)


def _run_local(plan: Plan, games: int, cores: int, report: Callable[[int], None]) -> list[Row]:
    """The games on this machine's cores, in worker processes when they pay for themselves.

    Starting the processes (and their first games, whose caches are cold) costs a few
    tenths of a second, so the first game is played here and timed: when the others
    would take less than :data:`POOL_WORTH` seconds, they are played here too.
    """
    if cores == 1 or games == 1:
        return _run_here(plan, batches(games, 1), report)
    began = time.perf_counter()
    rows = play_batch(plan, 0, 1)
    report(1)
    work = _after_first(games, cores)
    if (time.perf_counter() - began) * (games - 1) < POOL_WORTH or len(work) == 1:
        return rows + _run_here(plan, _after_first(games, 1), report)
    return rows + _run_pool(plan, work, cores, report)


def _run_pool(
    plan: Plan, work: Sequence[tuple[int, int]], workers: int, report: Callable[[int], None]
) -> list[Row]:
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    done: dict[int, list[Row]] = {}
    pool = ProcessPoolExecutor(max_workers=min(workers, len(work)))
    ahead = max(1, workers * IN_FLIGHT_PER_WORKER)
    try:
        running: dict[Future[list[Row]], tuple[int, int]] = {}
        queue = iter(work)

        def submit_more() -> None:
            for start, stop in queue:
                running[pool.submit(play_batch, plan, start, stop)] = (start, stop)
                if len(running) >= ahead:
                    return

        # Forked workers share this process's memory until one side writes to it, and a
        # garbage collection in a worker writes to every object it visits: the whole heap
        # copied page by page (measured in docs/benchmarks.md).  Objects frozen when the
        # workers fork are never visited.  (A fork
        # pool starts its workers at the first submits.)
        gc.freeze()
        try:
            submit_more()
        finally:
            gc.unfreeze()
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                start, stop = running.pop(future)
                done[start] = future.result()
                report(stop - start)
            submit_more()
    except BaseException:
        # A failed game, Ctrl-C, or a progress callback asking to stop: drop the queued
        # batches and stop the running ones now rather than waiting for them to finish.
        workers_now = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers_now:  # the executor offers no public way to stop them
            if process.is_alive():
                process.terminate()
        raise
    pool.shutdown(wait=True)
    return [row for start, _ in work for row in done[start]]


def _run_dask(plan: Plan, games: int, scheduler: Any, report: Callable[[int], None]) -> list[Row]:
    # distributed is untyped; it is only ever loaded here
    dist: Any = importlib.import_module("distributed")
    own_client = isinstance(scheduler, str)
    client: Any
    if own_client:
        try:
            client = dist.Client(scheduler, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ConnectionError(
                f"could not reach the Dask scheduler at {scheduler!r}: {exc}"
            ) from exc
    else:
        client = scheduler
    try:
        threads = sum(client.nthreads().values()) or 1
        work = batches(games, threads)
        # scatter the plan once rather than pickling it into every task
        [shared] = client.scatter([plan], broadcast=True)
        futures = [
            client.submit(play_batch, shared, start, stop, pure=False) for start, stop in work
        ]
        where = {f.key: batch for f, batch in zip(futures, work, strict=True)}
        done: dict[int, list[Row]] = {}
        try:
            for future in dist.as_completed(futures, loop=client.loop):
                start, stop = where[future.key]
                done[start] = future.result()
                report(stop - start)
        finally:
            client.cancel(futures)
        return [row for start, _ in work for row in done[start]]
    finally:
        if own_client:
            client.close()


def to_frame(plan: Plan, rows: list[Row]) -> pd.DataFrame:
    """The rows as a DataFrame with the plan's columns and dtypes, sorted."""
    import pandas as pd

    names = [name for name, _ in plan.columns]
    frame = pd.DataFrame.from_records(rows, columns=names)
    for name, dtype in plan.columns:
        if name == "bot":
            frame[name] = pd.Categorical(frame[name], categories=_bot_categories(plan))
        elif name == "how":
            extra = sorted(set(frame[name]) - set(HOW_WON))
            frame[name] = pd.Categorical(frame[name], categories=[*HOW_WON, *extra])
        else:
            frame[name] = frame[name].astype(dtype)
    keys = ["game", "hand", "seat"] if "hand" in frame else ["game", "seat"]
    frame = frame.sort_values(keys, kind="stable", ignore_index=True)
    frame.attrs["simulation"] = {
        "rules": plan.rules.name,
        "players": plan.players,
        "bots": plan.bots,
        "seed": plan.seed,
        "games": int(frame["game"].nunique()),
        "options": dict(plan.options),
    }
    return frame


def _bot_categories(plan: Plan) -> list[str]:
    known = list(bot_names())
    return known + sorted(set(plan.bots) - set(known))


def simulate(
    games: int = 100,
    rules: RulesLike = "denexa",
    players: int = 4,
    bots: str | Sequence[str] | None = None,
    seed: int | str = 7,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    progress: ProgressLike = None,
    play: PlayFn | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Play ``games`` seeded bot games and return one row per game × hand × seat.

    Pay Me rule sets: columns ``game, hand, dealt, wild_rank, seat, bot, went_out, turns,
    deadwood, points, total`` (and ``money`` in cents where the rule set plays for money;
    antes and the pot are settled in the last hand's row).  ``three_pack``: one row per
    game × seat with ``game, seat, bot, winner, how, turns, dropped``.  Rows are sorted by
    game, hand and seat; ``df.attrs["simulation"]`` records the arguments.

    ``bots``: one name per seat, or a single name for every seat (default: the standard
    mix ``strong, greedy, random, greedy``, repeated around the table).  ``workers``: processes
    to use (``1`` plays in this process; default: every core, when the run is long enough
    to pay for starting the processes, as its first game, played here, shows).
    ``scheduler``: a Dask scheduler address such as ``"tcp://10.0.0.5:8786"`` (or a
    ``distributed.Client``) to play on a cluster instead; its workers need payme installed.
    ``progress``: ``True`` for a bar, ``False`` for none, ``None`` for a bar on long watched
    runs, or a callable ``(done, total)``.  ``options`` go to the game (e.g. ``dealt=7`` for
    ``three_pack``).  ``play`` replaces the game engine (a picklable ``play(rules, players,
    bots, seed, **options)`` returning an object with ``results()``), for tests and
    experiments.

    The same arguments give the same frame on one core, on many or on a cluster: game
    ``i`` is seeded with ``game_seed(seed, i)``.
    """
    checked = plan(games, rules, players, bots, seed, options, play)
    progress = check_progress(progress)
    if workers is not None:
        _check_int("workers", workers, 1)
        if scheduler is not None:
            raise ValueError("give workers (local processes) or scheduler (Dask), not both")
    if (
        scheduler is not None
        and not isinstance(scheduler, str)
        and not hasattr(scheduler, "submit")
    ):
        raise TypeError(
            f"scheduler must be an address like 'tcp://host:8786' or a distributed.Client, "
            f"not {scheduler!r}"
        )
    if play is None and checked.options:
        _check_options(checked)

    with reporter(progress, games) as report:
        if scheduler is not None:
            rows = _run_dask(checked, games, scheduler, report)
        elif workers is None:
            rows = _run_local(checked, games, default_workers(), report)
        elif workers == 1 or len(batches(games, workers)) == 1:
            rows = _run_here(checked, batches(games, 1), report)
        else:
            rows = _run_pool(checked, batches(games, workers), workers, report)
    return to_frame(checked, rows)


def _check_options(plan: Plan) -> None:
    """Refuse bad game options here, before any worker starts, by setting up one game."""
    from payme.game import new_game

    new_game(rules=plan.rules, players=plan.players, seed=game_seed(plan.seed, 0), **plan.options)


__all__ = [
    "HOW_WON",
    "MAX_GAMES",
    "STANDARD_MIX",
    "Batches",
    "Plan",
    "PlayFn",
    "SimulationError",
    "batches",
    "check_bots",
    "game_seed",
    "play_batch",
    "simulate",
]
