"""The ``payme simulate`` command: simulate bot games and write the rows to CSV or Parquet.

``payme.cli`` defines the arguments (``--games N --rules R --players P --bots B [B ...]
--seed S --out FILE --workers W --scheduler ADDR``) and calls :func:`run_simulate`::

    payme simulate --games 1000 --rules denexa --players 4 \\
        --bots strong greedy random greedy --seed 7 --out games.parquet

The file type follows ``--out``'s extension (``.csv``, ``.csv.gz``, ``.parquet``, ``.pq``);
a summary (games, time, and each bot's results) goes to standard output.  Bad arguments
raise ``ValueError`` with a one-line message, which ``payme.cli`` prints with exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import socket
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from payme.analysis.simulate import MAX_GAMES  # the cap of payme.simulate, said as --games
from payme.deprecation import renamed

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

WRITERS = {".csv": "csv", ".csv.gz": "csv", ".parquet": "parquet", ".pq": "parquet"}
DEFAULT_BOT = "greedy"
SCHEDULER_TIMEOUT_S = 2.0
"""How long to wait for a Dask scheduler to answer before refusing its address."""


def out_format(path: str) -> str:
    """``"csv"`` or ``"parquet"`` for an output path, from its extension.

    >>> out_format("games.parquet"), out_format("runs/Games.CSV"), out_format("a.csv.gz")
    ('parquet', 'csv', 'csv')
    >>> out_format("games.xlsx")
    Traceback (most recent call last):
    ...
    ValueError: --out games.xlsx: write .csv, .csv.gz, .parquet or .pq, not .xlsx
    """
    name = Path(path).name.lower()
    suffix = ".csv.gz" if name.endswith(".csv.gz") else Path(name).suffix
    kind = WRITERS.get(suffix)
    if kind is None:
        shown = suffix or "no extension"
        raise ValueError(f"--out {path}: write .csv, .csv.gz, .parquet or .pq, not {shown}")
    return kind


def write_frame(df: pd.DataFrame, path: str) -> None:
    """Write ``df`` as CSV or Parquet, chosen by ``path``'s extension."""
    kind = out_format(path)
    if kind == "csv":
        df.to_csv(path, index=False)
    else:
        df.to_parquet(path, index=False)


def _interval(low: float, high: float, form: str) -> str:
    """``(low to high)``, or words when there is no interval (one game tells no spread).

    >>> _interval(1.25, 3.5, "{:.1f}"), _interval(float("nan"), float("nan"), "{:.1f}")
    ('(1.2 to 3.5)', '(no interval from one game)')
    """
    if math.isnan(low) or math.isnan(high):
        return "(no interval from one game)"
    return f"({form.format(low)} to {form.format(high)})"


def summary(df: pd.DataFrame, seconds: float, where: str, out: str | None) -> str:
    """A few lines: what was simulated, how fast, and each bot's results."""
    from payme.analysis.stats import bot_strength

    info: dict[str, Any] = df.attrs.get("simulation", {})
    games = int(df["game"].nunique())
    head = (
        f"{games} {info.get('rules', '')} game{'s' if games != 1 else ''}, "
        f"{info.get('players', '?')} players ({', '.join(info.get('bots', ()))}), "
        f"seed {info.get('seed', '?')}: {len(df)} rows in {seconds:.1f} s "
        f"({games / seconds if seconds > 0 else float('inf'):.1f} games/s, {where})"
    )
    lines = [head]
    if out:
        lines.append(f"wrote {out}")
    table = bot_strength(df)
    if "mean_total" in table.columns:
        money = "mean_money" in table.columns
        lines.append(
            "bot      mean final total (95% interval)  win rate"
            + ("  money per game" if money else "")
        )
        for bot, row in table.iterrows():
            interval = _interval(row["total_low"], row["total_high"], "{:.1f}")
            lines.append(
                f"{bot!s:<8} {row['mean_total']:7.1f} {interval:<24} {row['win_rate']:8.1%}"
                + (f"  {row['mean_money'] / 100:+.2f} $" if money else "")
            )
    else:
        lines.append("bot      win rate (95% interval)")
        for bot, row in table.iterrows():
            lines.append(
                f"{bot!s:<8} {row['win_rate']:6.1%} "
                + _interval(row["win_low"], row["win_high"], "{:.1%}")
            )
    return "\n".join(lines)


def check_out(out: str) -> None:
    """Refuse an output path that cannot be written, before any game is played.

    >>> check_out("/no/such/folder/games.csv")
    Traceback (most recent call last):
    ...
    ValueError: --out /no/such/folder/games.csv: the folder /no/such/folder does not exist
    """
    out_format(out)
    path = Path(out)
    folder = path.resolve().parent
    if not folder.is_dir():
        raise ValueError(f"--out {out}: the folder {path.parent} does not exist")
    if path.is_dir():
        raise ValueError(f"--out {out}: is a folder, not a file")
    existed = path.exists()
    try:  # the one sure test (permissions, read-only or special file systems)
        with path.open("ab"):
            pass
    except OSError as exc:
        raise ValueError(f"--out {out}: cannot be written ({exc.strerror})") from None
    if not existed:
        path.unlink()


def check_scheduler(address: str, timeout: float = SCHEDULER_TIMEOUT_S) -> None:
    """Refuse a Dask scheduler address that is malformed or where nothing answers.

    The whole check (name look-up, connection and Dask's handshake) shares one ``timeout``:
    a look-up that hangs, a host that never answers and a service that is not Dask are all
    refused within it (plus the import of Dask's client, done only once something answers).

    >>> check_scheduler("localhost")
    Traceback (most recent call last):
    ...
    ValueError: --scheduler localhost: give an address like tcp://HOST:8786
    """
    from urllib.parse import urlsplit

    shown = address if len(address) <= 60 else address[:60] + "…"
    try:
        parts = urlsplit(address)
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if parts.scheme not in ("tcp", "tls") or not host or not port:
        raise ValueError(f"--scheduler {shown}: give an address like tcp://HOST:8786")
    deadline = time.monotonic() + timeout
    try:
        family, kind, proto, _, where = _look_up(host, port, timeout)[0]
        with socket.socket(family, kind, proto) as sock:
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            sock.connect(where)
        from distributed.comm.core import connect  # noqa: F401 (imported before the clock runs)

        # A real scheduler answers in milliseconds; give the handshake at least a second.
        left = max(1.0, deadline - time.monotonic())
        reply = _in_own_loop(lambda: asyncio.wait_for(_identity(address, left), left))
    except Exception as exc:  # refused, timed out, or not speaking Dask's protocol
        if isinstance(exc, TimeoutError):
            reason = f"no answer within {timeout:g} s"
        elif isinstance(exc, OSError) and exc.strerror:
            reason = exc.strerror
        else:
            reason = "it does not speak Dask's protocol"
        raise ValueError(
            f"--scheduler {shown}: no Dask scheduler answers at {host}:{port} ({reason})"
        ) from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise ValueError(f"--scheduler {shown}: {host}:{port} is not a Dask scheduler")


def _in_own_loop(make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run the coroutine ``make()`` to its end in a thread of its own, so that it works
    whether or not the caller is inside a running event loop (``asyncio.run`` refuses to
    start in one: in a notebook or any async program it would never run the handshake)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def _look_up(host: str, port: int, timeout: float) -> list[Any]:
    """``socket.getaddrinfo`` for a TCP connection, given up after ``timeout`` seconds (the
    system's resolver has no time limit of its own)."""
    import queue
    import threading

    answer: queue.Queue[list[Any] | OSError] = queue.Queue()

    def look_up() -> None:
        try:
            answer.put(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as exc:
            answer.put(exc)

    # A daemon thread: a look-up that hangs does not keep the process from exiting.
    threading.Thread(target=look_up, daemon=True).start()
    try:
        found = answer.get(timeout=timeout)
    except queue.Empty:
        raise TimeoutError from None
    if isinstance(found, OSError):
        raise found
    return found


async def _identity(address: str, timeout: float) -> Any:
    """What the Dask server at ``address`` says it is (a scheduler answers ``type``)."""
    from distributed.comm.core import connect

    comm = await connect(address, timeout=timeout)  # type: ignore[no-untyped-call]
    try:
        await comm.write({"op": "identity", "reply": True})
        return await asyncio.wait_for(comm.read(), timeout)
    finally:
        comm.abort()


def check_dealt_option(rules_name: str, dealt: int | None) -> None:
    """``--dealt`` only where a game is one deal of a chosen size, and within its range.

    >>> check_dealt_option("denexa", 5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --dealt is for rule sets with one deal per game, such as three_pack: Pay Me ...
    """
    from payme.rulesets import rules

    if dealt is None:
        return
    r = rules(rules_name)
    if r.hands > 1:
        last = r.first_dealt + r.hands - 1
        raise ValueError(
            "--dealt is for rule sets with one deal per game, such as three_pack: "
            f"{r.title} deals {r.first_dealt} to {last} cards over its {r.hands} hands"
        )
    r.check_dealt(dealt)


def run_simulate(args: argparse.Namespace, stdout: IO[str] | None = None) -> int:
    """Run ``payme simulate`` with parsed arguments; returns the exit status (0).

    Every argument is checked before the first game: games, rules, players, bots, dealt, the
    output path and the scheduler's address.
    """
    from payme.analysis.simulate import default_workers, plan, simulate

    stdout = sys.stdout if stdout is None else stdout
    if args.games > MAX_GAMES:
        raise ValueError(f"--games {args.games}: at most {MAX_GAMES:,} games in one run")
    out = getattr(args, "out", None)
    if out:
        check_out(out)  # refuse a bad path before playing any game
    check_dealt_option(args.rules, getattr(args, "dealt", None))
    bots = getattr(args, "bots", None) or DEFAULT_BOT
    try:
        plan(args.games, args.rules, args.players, bots, args.seed, {}, None)
    except TypeError as exc:
        raise ValueError(str(exc)) from None
    if getattr(args, "scheduler", None):
        check_scheduler(args.scheduler)
    workers = getattr(args, "workers", None)
    scheduler = getattr(args, "scheduler", None)
    options: dict[str, Any] = {}
    if getattr(args, "dealt", None) is not None:
        options["dealt"] = args.dealt
    start = time.perf_counter()
    try:
        df = simulate(
            games=args.games,
            rules=args.rules,
            players=args.players,
            bots=bots,
            seed=args.seed,
            workers=workers,
            scheduler=scheduler,
            **options,
        )
    except (TypeError, OSError) as exc:  # shown like any other bad argument
        raise ValueError(f"{type(exc).__name__}: {exc}") from None
    seconds = time.perf_counter() - start
    if out:
        write_frame(df, out)
    if scheduler:
        where = f"Dask at {scheduler}"
    else:
        n = default_workers() if workers is None else workers
        where = f"{n} worker{'s' if n != 1 else ''}"
    stdout.write(summary(df, seconds, where, out) + "\n")
    return 0


# ---------------------------------------------------------------------------- payme review


def review_query(game: str) -> dict[str, str]:
    """The Play settings a ``payme review`` argument gives: a Play URL, its query, or your
    moves alone (dot-separated URL tokens).

    >>> review_query("http://localhost:8866/voila/render/play.ipynb?rules=family&seed=5&moves=s.d7H")
    {'rules': 'family', 'seed': '5', 'moves': 's.d7H'}
    >>> review_query("s.d7H")
    {'moves': 's.d7H'}
    """
    from urllib.parse import parse_qsl, urlsplit

    text = game.strip()
    if "=" not in text:
        return {"moves": text}
    query = urlsplit(text).query if "?" in text else text
    return dict(parse_qsl(query.lstrip("?"), keep_blank_values=True))


def run_review(args: argparse.Namespace, stdout: IO[str]) -> int:
    """``payme review GAME``: the game review as text, or JSON with ``--json``."""
    from payme.analysis.review import review_game, review_text
    from payme.game.generations import FIRST_GENERATION, check_generation

    query = review_query(args.game)
    rules = args.rules or query.get("rules", "denexa")
    seed_text = str(args.seed) if args.seed is not None else query.get("seed")
    if seed_text is None:
        raise ValueError("give the game's seed: --seed N, or a Play URL that has seed=N")
    try:
        seed = int(seed_text)
        players = int(args.players or query.get("players", "3"))
    except ValueError:
        raise ValueError(f"seed and players are whole numbers, not {seed_text!r}") from None
    bots_text = args.bots or query.get("bots", "greedy")
    bots = tuple(b for b in bots_text.replace(",", " ").split() if b)
    moves = [m for m in query.get("moves", "").split(".") if m]
    position = args.position or query.get("position") or None
    gen_text = args.gen if args.gen is not None else query.get("gen")
    generation = FIRST_GENERATION if gen_text is None else check_generation(gen_text, "gen")
    review = review_game(
        rules, players, bots, seed, moves, position=position, most=args.deals,
        generation=generation, workers=getattr(args, "workers", None),
    )  # fmt: skip
    stdout.write(review.to_json() if args.json else review_text(review))
    stdout.write("\n")
    return 0


__getattr__ = renamed(
    "payme.analysis.cli",
    {
        "check_dealt": "payme.analysis.cli:check_dealt_option",
    },
)
