"""The command line under hostile input (issue 14.7): oversized and non-UTF-8 lines, echoes cut
short, and ``simulate`` refusing bad arguments before playing anything."""

from __future__ import annotations

import asyncio
import io
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stderr
from pathlib import Path

import pytest
from process_helpers import run_fresh

from payme.analysis.cli import check_scheduler
from payme.cli import EXCERPT, MAX_LINE, main

GOOD = "7H 8H 9H JK 2C 5S 5D 5C"


def _payme(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return run_fresh([sys.executable, "-m", "payme", *argv], stdin, text=False, timeout=120)


def test_an_oversized_batch_line_is_refused_unread_and_the_batch_goes_on() -> None:
    huge = ("7H " * 2_000_000).encode()  # 6 MB on one line
    result = _payme("evaluate", "-", "--dealt", "7", stdin=huge + b"\n" + GOOD.encode() + b"\n")
    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first == {"error": f"line longer than {MAX_LINE} characters: not read", "line": 1}
    assert second["hand"] == GOOD
    assert len(result.stdout) < 2_000  # nothing of the huge line is echoed


def test_a_line_that_is_not_utf8_is_an_error_of_that_line_only() -> None:
    stdin = GOOD.encode() + b"\n\xff\xfe 7H\n" + GOOD.encode() + b"\n"
    result = _payme("evaluate", "-", "--dealt", "7", stdin=stdin)
    assert result.returncode == 0, result.stderr
    objects = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [o.get("line") for o in objects] == [None, 2, None]
    assert "not UTF-8" in objects[1]["error"]
    assert objects[0] == objects[2]


def test_a_bad_line_is_echoed_as_a_short_excerpt() -> None:
    out = io.StringIO()
    bad = "Q" * (MAX_LINE - 10)
    assert main(["evaluate", "-", "--dealt", "7"], stdin=io.StringIO(bad + "\n"), stdout=out) == 0
    obj = json.loads(out.getvalue())
    assert obj["input"].startswith("Q" * EXCERPT) and len(obj["input"]) < EXCERPT + 30
    assert len(obj["error"]) <= 400


def test_an_oversized_hand_argument_is_refused_before_parsing() -> None:
    err = io.StringIO()
    with redirect_stderr(err):
        status = main(["evaluate", "7H " * 100_000, "--dealt", "7"], stdout=io.StringIO())
    assert status == 2
    assert "at most" in err.getvalue() and len(err.getvalue()) < 400


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--rules", "denexa", "--dealt", "5"], "--dealt is for rule sets with one deal"),
        (["--rules", "three_pack", "--dealt", "50"], "dealt must be from 2 to 10"),
        (["--games", str(10**9)], "at most 1,000,000 games"),
        (["--players", "99"], "2-8 players"),
        (["--bots", "greedy", "nobody"], "unknown bot 'nobody'"),
        (["--out", "/no/such/folder/games.csv"], "does not exist"),
        (["--out", "games.xlsx"], "write .csv"),
        (["--scheduler", "localhost"], "give an address like tcp://HOST:8786"),
        (["--scheduler", "tcp://127.0.0.1:1"], "no Dask scheduler answers"),
    ],
)
def test_simulate_refuses_bad_arguments_before_playing(argv: list[str], named: str) -> None:
    started = time.monotonic()
    result = _payme("simulate", "--games", "3", *argv)
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert result.stdout == b""
    assert named in err and "Traceback" not in err and err.count("\n") == 1, err
    assert time.monotonic() - started < 60  # refused, not played (a game run takes longer)


def test_simulate_refuses_an_output_path_it_cannot_write(tmp_path: Path) -> None:
    folder = tmp_path / "out.csv"
    folder.mkdir()
    result = _payme("simulate", "--games", "2", "--out", str(folder))
    assert result.returncode == 2 and b"is a folder" in result.stderr
    if Path("/proc").is_dir():  # a file system no one may create files in, even root
        result = _payme("simulate", "--games", "2", "--out", "/proc/games.csv")
        assert result.returncode == 2 and b"cannot be written" in result.stderr


@pytest.fixture
def not_dask() -> Iterator[int]:
    """A TCP server that answers anything with junk, as an unrelated service would."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.sendall(b"\xff" * 64 + b"HTTP/1.1 400 Bad Request\r\n\r\n")
                time.sleep(0.2)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        server.close()


def test_a_scheduler_address_that_is_not_dask_is_refused_quickly(not_dask: int) -> None:
    started = time.monotonic()
    with pytest.raises(ValueError, match=r"no Dask scheduler answers|is not a Dask scheduler"):
        check_scheduler(f"tcp://127.0.0.1:{not_dask}")
    assert time.monotonic() - started < 5


def test_a_closed_port_is_refused_at_once() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(ValueError, match="Connection refused"):
        check_scheduler(f"tcp://127.0.0.1:{port}")
    assert time.monotonic() - started < 5


@pytest.fixture
def silent() -> Iterator[int]:
    """A port where connections are accepted (by the system's backlog) but nothing answers."""
    with socket.create_server(("127.0.0.1", 0), backlog=8) as server:
        yield server.getsockname()[1]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_scheduler_check_works_inside_a_running_event_loop(silent: int) -> None:
    # asyncio.run cannot start inside a running loop (a notebook, an async program): the
    # handshake runs in a loop of its own, so a server that never answers is told as such
    # there too (it was "does not speak Dask's protocol", from asyncio.run's own refusal).
    async def check() -> str:
        with pytest.raises(ValueError) as refused:
            check_scheduler(f"tcp://127.0.0.1:{silent}")
        return str(refused.value)

    # In a thread of its own: the test's own thread may already have a running loop (a
    # browser test before it leaves one), where asyncio.run(check()) could not start.
    with ThreadPoolExecutor(max_workers=1) as pool:
        inside = pool.submit(asyncio.run, check()).result()
    with pytest.raises(ValueError) as outside:
        check_scheduler(f"tcp://127.0.0.1:{silent}")
    assert "no answer within" in str(outside.value)
    assert inside == str(outside.value)


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("closed", "Connection refused"),
        ("not_dask", "no Dask scheduler answers"),
        ("silent", "no Dask scheduler answers"),
    ],
)
def test_the_real_cli_refuses_a_bad_scheduler_within_5_s(
    kind: str, reason: str, request: pytest.FixtureRequest
) -> None:
    """``payme simulate --scheduler ADDRESS`` as a user runs it, in a fresh process: exit 2, one
    line naming the problem, no traceback, within 5 s.  On a machine so busy that a fresh
    process's start-up and imports (payme's and Dask's client, timed before and after) take
    over 2 s, half as much again as the extra is allowed on top (a loaded machine slows the
    refusal's own work as much): the check's own waiting is what is bounded."""
    port = _closed_port() if kind == "closed" else request.getfixturevalue(kind)
    start_up = _start_up()
    started = time.monotonic()
    result = _payme("simulate", "--games", "3", "--scheduler", f"tcp://127.0.0.1:{port}")
    elapsed = time.monotonic() - started
    start_up = max(start_up, _start_up())
    err = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b"", err
    assert reason in err and "Traceback" not in err and err.count("\n") == 1, err
    assert elapsed <= 5 + 1.5 * max(0.0, start_up - 2), (elapsed, start_up)


def _start_up() -> float:
    """Seconds a fresh process takes to start and import what the check imports."""
    started = time.monotonic()
    code = "import payme.cli, payme.analysis.cli, distributed.comm.core"
    run_fresh([sys.executable, "-c", code], timeout=120)
    return time.monotonic() - started


def test_the_python_api_refuses_a_billion_games_at_once_in_little_memory() -> None:
    """payme.simulate(games=10**9) is refused like the CLI's --games, before any game or
    plan is made: within a second of CPU and 200 MB (it once reached 6.4 GB in 10 s)."""
    code = (
        "import time, payme\n"
        "t = time.process_time()\n"
        "try:\n"
        "    payme.simulate(games=10**9)\n"
        "except ValueError as e:\n"
        "    print('refused:', e)\n"
        "print(time.process_time() - t)\n"
        # VmHWM is this process's own peak: ru_maxrss would also count the pytest worker
        # it was forked from (Linux keeps the larger of the two across exec).
        "print(int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0]) / 1024)\n"
    )
    done = run_fresh([sys.executable, "-c", code], timeout=60)
    assert done.returncode == 0, done.stderr
    said, cpu, peak_mb = done.stdout.splitlines()
    assert said == "refused: games must be at most 1,000,000 in one run, not 1,000,000,000"
    assert float(cpu) < 1.0
    assert float(peak_mb) < 200


def test_the_plan_of_a_long_run_is_as_small_as_a_short_ones() -> None:
    from payme.analysis.simulate import MAX_GAMES, batches

    small, large = batches(100, 2), batches(MAX_GAMES, 2)
    assert len(large) == MAX_GAMES // 20 and large[-1] == (MAX_GAMES - 20, MAX_GAMES)
    assert sys.getsizeof(large.__dict__) == sys.getsizeof(small.__dict__)


def test_one_game_prints_no_interval_rather_than_nan() -> None:
    out = io.StringIO()
    status = main(["simulate", "--games", "1", "--workers", "1", "--seed", "3"], stdout=out)
    assert status == 0
    text = out.getvalue()
    assert "nan" not in text
    assert "(no interval from one game)" in text
