"""The benchmark runner: ``python -m benchmarks [NAME ...]``.

Runs the named benchmark modules (``benchmarks/bench_NAME.py``; no names: all of them, in
name order), prints each one's markdown section and writes it into ``docs/benchmarks.md``
between the markers ``<!-- bench:NAME -->`` and ``<!-- /bench:NAME -->`` (a section not yet
in the file is appended), so every benchmark keeps its own part of the page up to date.
``--no-write`` only prints; ``--list`` lists the names.  A benchmark that fails is reported
and the others still run; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import time
import traceback
from pathlib import Path

from benchmarks import PREFIX, available

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
HEADER = """# Benchmarks

Each section below is written by `python -m benchmarks NAME` (`make bench` runs them all:
`python -m benchmarks`). Numbers depend on the machine and on how busy it is; each section
says where and when it was measured.
"""


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"


def write_section(doc: Path, name: str, text: str) -> None:
    """Put ``text`` into ``name``'s section of ``doc`` (created or appended when missing)."""
    start, end = _markers(name)
    block = f"{start}\n{text.rstrip()}\n{end}"
    old = doc.read_text() if doc.exists() else HEADER
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(old):
        new = pattern.sub(lambda _: block, old)
    else:
        new = old.rstrip() + "\n\n" + block + "\n"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(new)


def main(argv: list[str] | None = None) -> int:
    names = available()
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description="Run payme's benchmarks."
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"any of: {' '.join(names)}")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--list", action="store_true", help="list the benchmark names")
    parser.add_argument("--doc", type=Path, default=DOC, help="the markdown file to update")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(names))
        return 0
    unknown = [n for n in args.names if n not in names]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}: choose from {' '.join(names)}")
    failed = []
    for name in args.names or names:
        print(f"## running {name} ...", file=sys.stderr, flush=True)
        began = time.perf_counter()
        try:
            module = importlib.import_module(f"benchmarks.{PREFIX}{name}")
            text = module.run()
        except Exception:
            traceback.print_exc()
            failed.append(name)
            continue
        print(text, flush=True)
        print(f"## {name} took {time.perf_counter() - began:.0f} s", file=sys.stderr)
        if not args.no_write:
            write_section(args.doc, name, text)
    if failed:
        print(f"failed: {' '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
