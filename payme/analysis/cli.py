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
import sys
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

WRITERS = {".csv": "csv", ".csv.gz": "csv", ".parquet": "parquet", ".pq": "parquet"}
DEFAULT_BOT = "greedy"


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
            interval = f"({row['total_low']:.1f} to {row['total_high']:.1f})"
            lines.append(
                f"{bot!s:<8} {row['mean_total']:7.1f} {interval:<24} {row['win_rate']:8.1%}"
                + (f"  {row['mean_money'] / 100:+.2f} $" if money else "")
            )
    else:
        lines.append("bot      win rate (95% interval)")
        for bot, row in table.iterrows():
            lines.append(
                f"{bot!s:<8} {row['win_rate']:6.1%} ({row['win_low']:.1%} to {row['win_high']:.1%})"
            )
    return "\n".join(lines)


def run_simulate(args: argparse.Namespace, stdout: IO[str] | None = None) -> int:
    """Run ``payme simulate`` with parsed arguments; returns the exit status (0)."""
    from payme.analysis.simulate import default_workers, simulate

    stdout = sys.stdout if stdout is None else stdout
    out = getattr(args, "out", None)
    if out:
        out_format(out)  # refuse a bad extension before playing any game
        if not Path(out).resolve().parent.is_dir():
            raise ValueError(f"--out {out}: the folder {Path(out).parent} does not exist")
    bots = getattr(args, "bots", None) or DEFAULT_BOT
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
    except (TypeError, ConnectionError) as exc:  # shown like any other bad argument
        raise ValueError(str(exc)) from exc
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
