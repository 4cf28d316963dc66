"""What every benchmark's report states: the machine, the commit and mean ± 95% intervals.

One copy, so that the sections of ``docs/benchmarks.md`` describe their runs the same way.

>>> interval([1.0, 1.0, 1.0])
(1.0, 0.0)
"""

from __future__ import annotations

import math
import os
import platform
import statistics
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime


def machine() -> str:
    """The processor, cores, Python and the load when the run started, in one line."""
    try:
        load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:  # not on Unix
        load = "n/a"
    return (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average at start {load}"
    )


def cpu_name() -> str:
    """The processor's model and how many the machine has, e.g. ``"Intel(R) Xeon(R) ... x2"``."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            names = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
        if names:
            cpu = f"{names[0]} x{len(names)}"
    except OSError:  # not on Linux
        pass
    return cpu


def commit(checkout: str | None = None) -> str:
    """The short hash of the checked-out commit (of the current directory's checkout, or of
    ``checkout``), or ``"unknown"`` outside a git checkout."""
    where = [] if checkout is None else ["-C", checkout]
    try:
        done = subprocess.run(["git", *where, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True, timeout=10)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip()


def heading(title: str, command: str) -> list[str]:
    """A benchmark section's first lines: its title, when, at which commit and on what
    machine it was measured, and the command that measures it again."""
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return [
        f"## {title}",
        "",
        f"Measured {started} at commit {commit()} on {machine()}.",
        f"Command: `{command}`.",
    ]


def median_worst(values: Sequence[float], digits: int = 2) -> str:
    """A table cell of timings: ``median / slowest`` to ``digits`` places (``-``: none).

    >>> median_worst([1.0, 3.0, 2.0]), median_worst([2.25], 1), median_worst([])
    ('2.00 / 3.00', '2.2 / 2.2', '-')
    """
    if not values:
        return "-"
    return f"{statistics.median(values):.{digits}f} / {max(values):.{digits}f}"


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval (mean ± 1.96 s/√n).

    >>> [round(x, 2) for x in interval([1.0, 3.0])]
    [2.0, 1.96]
    """
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def mean_total_rows(per: Mapping[str, Sequence[float]], bots: Iterable[str]) -> list[str]:
    """A Markdown table of each bot's mean final total with its 95% interval, best first.

    >>> mean_total_rows({"a": [10.0, 10.0], "b": [4.0, 4.0]}, ["a", "b"])[2:]
    ['| b | 4.0 | 4.0 – 4.0 |', '| a | 10.0 | 10.0 – 10.0 |']
    """
    rows = ["| bot | mean total | 95% interval |", "| --- | ---: | --- |"]
    for name in sorted(bots, key=lambda b: statistics.fmean(per[b])):
        mean, half = interval(per[name])
        rows.append(f"| {name} | {mean:.1f} | {mean - half:.1f} – {mean + half:.1f} |")
    return rows


__all__ = ["commit", "cpu_name", "interval", "machine", "mean_total_rows"]
