"""payme.simulate: rows, dtypes, determinism on one core, many cores and Dask; the CLI.

Most tests drive the simulation machinery with a small fake game (``fake_play``, seeded
like the real one), so they are fast and check the plumbing on its own; the tests marked
"real game" play real bot games with ``payme.game.play_game`` and check the rules' totals.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import payme
from payme.analysis.simulate import (
    SimulationError,
    batches,
    game_seed,
    plan,
    play_batch,
    simulate,
)
from payme.rulesets import Ruleset
from payme.rulesets import rules as get_rules

ROOT = Path(__file__).resolve().parent.parent


# --- a fake game: the interface of payme.game, with made-up but consistent numbers ----------


class FakeGame:
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self._rows = rows

    def results(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self._rows]


def fake_play(
    rules: Ruleset,
    players: int,
    bots: tuple[str, ...] = ("greedy",),
    seed: int = 0,
    **options: Any,
) -> FakeGame:
    """A 'game' whose rows follow from the seed alone; one declarer per hand scores 0."""
    rng = random.Random(seed)
    if rules.game == "rummy_3_pack":
        out = rng.randrange(players)
        return FakeGame([
            {"seat": s, "winner": s == out, "how": "went out" if s == out else "",
             "turns": rng.randint(1, 9)}
            for s in range(players)
        ])  # fmt: skip
    rows, totals = [], [0] * players
    for hand in range(1, rules.hands + 1):
        dealt = rules.dealt_in_hand(hand)
        declarer = rng.randrange(players)
        for seat in range(players):
            deadwood = 0 if seat == declarer else rng.randrange(0, 60, 5)
            points = max(0, deadwood - rng.choice((0, 5)))
            totals[seat] += points
            rows.append({
                "hand": hand, "dealt": dealt, "wild_rank": rules.round_wild_rank(dealt),
                "seat": seat, "went_out": seat == declarer, "turns": rng.randint(1, 6),
                "deadwood": deadwood, "points": points, "total": totals[seat],
                "money": (10 * (players - 1) if seat == declarer else -10)
                if rules.money else None,
            })  # fmt: skip
    return FakeGame(rows)


def failing_play(rules: Ruleset, players: int, bots: Any = (), seed: int = 0, **o: Any) -> Any:
    if seed == game_seed(3, 2):
        raise RuntimeError("the stock caught fire")
    return fake_play(rules, players, bots, seed)


# --- shape and dtypes --------------------------------------------------------------------------


def test_pay_me_frame_has_one_sorted_row_per_game_hand_seat_with_compact_dtypes() -> None:
    df = simulate(games=3, players=3, bots=("strong", "greedy", "random"), seed=1,
                  workers=1, play=fake_play)  # fmt: skip
    assert list(df.columns) == [
        "game", "hand", "dealt", "wild_rank", "seat", "bot", "went_out", "turns",
        "deadwood", "points", "total",
    ]  # fmt: skip
    assert len(df) == 3 * 11 * 3
    assert df[["game", "hand", "seat"]].equals(
        df[["game", "hand", "seat"]].sort_values(["game", "hand", "seat"], ignore_index=True)
    )
    assert df["game"].tolist()[::33] == [0, 1, 2]
    assert df["bot"].dtype == "category"
    assert list(df["bot"].cat.categories) == ["random", "greedy", "strong", "expert"]
    assert df.loc[df["seat"] == 0, "bot"].unique().tolist() == ["strong"]
    assert df.loc[df["seat"] == 2, "bot"].unique().tolist() == ["random"]
    assert df["went_out"].dtype == bool
    assert str(df["hand"].dtype) == "int8" and str(df["wild_rank"].dtype) == "Int8"
    assert str(df["total"].dtype) == "int32" and str(df["game"].dtype) == "int64"
    assert df.attrs["simulation"]["rules"] == "denexa"
    assert df.attrs["simulation"]["bots"] == ("strong", "greedy", "random")


def test_family_adds_money_and_three_pack_has_winners() -> None:
    family = simulate(games=2, rules="family", players=2, bots="greedy", seed=0,
                      workers=1, play=fake_play)  # fmt: skip
    assert family.columns[-1] == "money" and str(family["money"].dtype) == "int32"
    assert family.groupby(["game", "hand"])["money"].sum().eq(0).all()

    tp = simulate(games=4, rules="three_pack", players=3, bots="random", seed=0,
                  workers=1, play=fake_play)  # fmt: skip
    assert list(tp.columns) == ["game", "seat", "bot", "winner", "how", "turns", "dropped"]
    assert len(tp) == 4 * 3
    assert tp["how"].dtype == "category"
    assert tp.groupby("game")["winner"].sum().eq(1).all()
    assert set(tp["how"]) == {"went out", ""}


def test_a_single_bot_name_fills_every_seat() -> None:
    df = simulate(games=1, players=4, bots="Strong", workers=1, play=fake_play)
    assert df.groupby("seat")["bot"].first().tolist() == ["strong"] * 4
    one = simulate(games=1, players=2, bots=["random"], workers=1, play=fake_play)
    assert set(one["bot"]) == {"random"}


# --- determinism -------------------------------------------------------------------------------


def test_game_i_depends_only_on_seed_and_i() -> None:
    seeds = {game_seed(7, i) for i in range(1000)}
    assert len(seeds) == 1000 and all(0 <= s < 2**63 for s in seeds)
    short = simulate(games=3, players=2, bots="greedy", seed=7, workers=1, play=fake_play)
    long = simulate(games=7, players=2, bots="greedy", seed=7, workers=1, play=fake_play)
    assert_frame_equal(short, long[long["game"] < 3].reset_index(drop=True))
    other = simulate(games=3, players=2, bots="greedy", seed=8, workers=1, play=fake_play)
    assert not short.equals(other)
    # a game's rows are exactly what its own seed plays
    game2 = fake_play(get_rules("denexa"), 2, ("greedy",) * 2, game_seed(7, 2)).results()
    assert long.loc[long["game"] == 2, "total"].tolist() == [r["total"] for r in game2]


def test_many_processes_give_the_single_core_frame() -> None:
    args: dict[str, Any] = dict(
        games=23,
        rules="family",
        players=3,
        bots=("strong", "random", "greedy"),
        seed="abc",
        play=fake_play,
    )
    one = simulate(workers=1, **args)
    assert_frame_equal(simulate(workers=2, **args), one)
    assert_frame_equal(simulate(workers=3, **args), one)


def test_left_to_itself_simulate_starts_processes_only_for_a_long_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from payme.analysis import simulate as module

    pooled: list[list[tuple[int, int]]] = []
    pool = module._run_pool

    def watched(plan: Any, work: list[tuple[int, int]], workers: int, report: Any) -> Any:
        pooled.append(work)
        return pool(plan, work, workers, report)

    monkeypatch.setattr(module, "_run_pool", watched)
    monkeypatch.setattr(module, "default_workers", lambda: 2)
    args: dict[str, Any] = dict(games=9, rules="family", players=3, seed=5, play=fake_play)
    quick = simulate(**args)  # the fake games take microseconds: all played here
    assert not pooled
    monkeypatch.setattr(module, "POOL_WORTH", 0.0)  # now any run is worth the processes
    pooled_frame = simulate(**args)
    assert pooled and pooled[0][0][0] == 1  # game 0 was played here, the rest by the pool
    assert sorted(g for a, b in pooled[0] for g in range(a, b)) == list(range(1, 9))
    assert_frame_equal(pooled_frame, quick)
    assert_frame_equal(quick, simulate(workers=1, **args))


def test_batches_cover_every_game_once() -> None:
    for games in (1, 2, 7, 100, 1001):
        for workers in (1, 2, 5):
            parts = batches(games, workers)
            assert [g for a, b in parts for g in range(a, b)] == list(range(games))


@pytest.fixture(scope="module")
def dask_address():  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def test_dask_cluster_gives_the_single_core_frame(dask_address: str) -> None:
    args: dict[str, Any] = dict(games=17, rules="denexa", players=4, seed=5, play=fake_play)
    seen: list[tuple[int, int]] = []
    on_dask = simulate(scheduler=dask_address, progress=lambda d, t: seen.append((d, t)), **args)
    assert_frame_equal(on_dask, simulate(workers=1, **args))
    assert seen[0] == (0, 17) and seen[-1] == (17, 17)


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    import dask

    quick = dask.config.set({"distributed.comm.timeouts.connect": "1s"})
    with quick, pytest.raises(ConnectionError, match="could not reach the Dask scheduler"):
        simulate(games=1, players=2, scheduler="tcp://127.0.0.1:9", play=fake_play)


# --- progress ----------------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_callback_counts_up_to_the_total(workers: int) -> None:
    seen: list[tuple[int, int]] = []
    simulate(games=30, players=2, workers=workers, play=fake_play,
             progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    assert seen[0] == (0, 30) and seen[-1] == (30, 30)
    done = [d for d, _ in seen]
    assert done == sorted(done) and len(seen) > 2 and {t for _, t in seen} == {30}


def test_automatic_progress_shows_for_long_runs_someone_can_watch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from payme.analysis.progress import AUTO_MIN_GAMES, wants_bar

    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    assert not wants_bar(None, 10 * AUTO_MIN_GAMES)  # pytest's stderr is no terminal
    monkeypatch.setitem(sys.modules, "ipykernel", object())  # as in a Jupyter kernel
    assert wants_bar(None, AUTO_MIN_GAMES)
    assert not wants_bar(None, AUTO_MIN_GAMES - 1)
    assert not wants_bar(False, 10 * AUTO_MIN_GAMES)


def slow_play(rules: Ruleset, players: int, bots: Any = (), seed: int = 0, **o: Any) -> Any:
    time.sleep(0.4)
    return fake_play(rules, players, bots, seed)


class Stop(Exception):
    pass


@pytest.mark.slow  # waits on 4-second games by design: make test runs it, make check not
def test_a_progress_callback_can_stop_a_run_at_once() -> None:
    def stop_after_first(done: int, total: int) -> None:
        if done > 0:
            raise Stop

    # (other tests in this process may have started pools of their own, the review's kept
    # for the process's life: only the simulation's workers must be gone)
    before = set(multiprocessing.active_children())
    started = time.perf_counter()
    with pytest.raises(Stop):
        # 160 slow games in batches of 10 (4 s each): the first two batches end together
        # at ~4 s; waiting for the batches already handed out would take ~8 s
        simulate(games=160, players=2, workers=2, play=slow_play, progress=stop_after_first)
    assert time.perf_counter() - started < 6.5
    # and no worker goes on playing in the background
    deadline = time.perf_counter() + 3
    while set(multiprocessing.active_children()) - before and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert set(multiprocessing.active_children()) - before == set()


def test_progress_true_draws_a_bar_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    simulate(games=4, players=2, workers=1, play=fake_play, progress=True)
    err = capsys.readouterr().err
    assert "4/4" in err and "game" in err
    simulate(games=4, players=2, workers=1, play=fake_play)  # few games: no bar by default
    assert capsys.readouterr().err == ""


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"games": 0}, ValueError, "games must be at least 1, not 0"),
        ({"games": 2.5}, TypeError, "games must be a whole number"),
        ({"rules": "poker"}, ValueError, "presets are denexa, classic, family, three_pack"),
        ({"players": 9}, ValueError, "denexa is for 2-8 players, not 9"),
        ({"players": 1, "bots": "greedy"}, ValueError, "2-8 players, not 1"),
        (
            {"bots": ("greedy", "smart", "random", "strong")},
            ValueError,
            "unknown bot 'smart': the bots are random, greedy, strong",
        ),
        ({"bots": ("greedy", "random")}, ValueError, "4 players need 4 bots"),
        ({"bots": ()}, ValueError, "got 0: none"),
        ({"bots": 3}, TypeError, "bots must be a bot name or one name per seat"),
        ({"bots": ("greedy", None)}, TypeError, "a bot is named by a string, not None"),
        ({"seed": 1.5}, TypeError, "seed must be a whole number or a string"),
        ({"workers": 0}, ValueError, "workers must be at least 1"),
        ({"workers": 2, "scheduler": "tcp://x:1"}, ValueError, "not both"),
        ({"scheduler": 42}, TypeError, "scheduler must be an address"),
        ({"progress": "yes"}, TypeError, "progress must be True, False, None"),
    ],
)
def test_bad_arguments_are_refused_up_front(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        simulate(**{"games": 2, "play": fake_play, **kwargs})


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_game_is_named_with_its_seed(workers: int) -> None:
    with pytest.raises(SimulationError, match=f"game 2 .*seed {game_seed(3, 2)}.*caught fire"):
        simulate(games=5, players=2, seed=3, workers=workers, play=failing_play)


def test_rows_missing_a_column_are_reported() -> None:
    checked = plan(1, "denexa", 2, "greedy", 0, play=lambda *a, **k: FakeGame([{"seat": 0}]))
    with pytest.raises(SimulationError, match="lack hand, dealt"):
        play_batch(checked, 0, 1)


def test_importing_payme_and_analysis_stays_light() -> None:
    code = (
        "import sys, payme, payme.analysis, payme.analysis.simulate, payme.analysis.cli;"
        "heavy = [m for m in ('pandas', 'numpy', 'matplotlib', 'tqdm', 'distributed') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)  # fmt: skip
    assert out.stdout.strip() == "[]"


def test_simulate_is_exported_from_payme() -> None:
    assert payme.simulate is simulate


# --- the command line (real games) -------------------------------------------------------------


def _payme(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "payme", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip


@pytest.mark.slow  # three CLI processes importing pandas: make test runs it, make check not
def test_cli_writes_csv_and_parquet_with_the_simulated_rows(tmp_path: Path) -> None:
    args = ["simulate", "--games", "2", "--players", "2", "--bots", "greedy",
            "--seed", "4", "--workers", "1"]  # fmt: skip
    expected = simulate(games=2, players=2, bots="greedy", seed=4, workers=1)
    csv = tmp_path / "games.csv"
    done = _payme(*args, "--out", str(csv))
    assert done.returncode == 0, done.stderr
    assert "2 denexa games, 2 players (greedy, greedy), seed 4: 44 rows" in done.stdout
    assert f"wrote {csv}" in done.stdout and "mean final total" in done.stdout
    back = pd.read_csv(csv)
    assert list(back.columns) == list(expected.columns)
    assert back["total"].tolist() == expected["total"].tolist()
    assert back["bot"].tolist() == expected["bot"].astype(str).tolist()

    parquet = tmp_path / "games.parquet"
    assert _payme(*args, "--out", str(parquet)).returncode == 0
    assert_frame_equal(pd.read_parquet(parquet), expected)  # dtypes survive Parquet


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--out", "games.xlsx"], "write .csv, .csv.gz, .parquet or .pq, not .xlsx"),
        (["--out", "no/such/folder/games.csv"], "does not exist"),
        (["--bots", "greedy", "clever"], "unknown bot 'clever'"),
        (["--players", "12"], "denexa is for 2-8 players, not 12"),
        (["--games", "0"], "expected 1 or more"),
    ],
)
def test_cli_bad_arguments_exit_2_with_one_line(extra: list[str], message: str) -> None:
    done = _payme("simulate", "--games", "1", "--players", "2", *extra)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


# --- real games ----------------------------------------------------------------------------


def test_real_pay_me_rows_add_up() -> None:
    df = simulate(games=2, rules="family", players=2, bots=("greedy", "random"), seed=11,
                  workers=1)  # fmt: skip
    assert len(df) == 2 * 11 * 2
    assert (df["dealt"] == df["hand"] + 2).all() and (df["wild_rank"] == df["dealt"]).all()
    running = df.groupby(["game", "seat"])["points"].cumsum()
    assert (running == df["total"]).all()
    assert df.groupby(["game", "hand"])["went_out"].sum().le(1).all()
    assert (df.loc[df["went_out"], "points"] == 0).all()
    # lay-offs never cost a sensible bot points (a random bot may break its own melds)
    sensible = df["bot"] != "random"
    assert (df.loc[sensible, "points"] <= df.loc[sensible, "deadwood"]).all()
    assert df.groupby("game")["money"].sum().eq(0).all()


def test_real_games_are_the_same_on_two_processes_and_on_dask(dask_address: str) -> None:
    args: dict[str, Any] = dict(
        games=3, rules="denexa", players=2, bots=("random", "greedy"), seed=9
    )
    one = simulate(workers=1, **args)
    assert_frame_equal(simulate(workers=2, **args), one)
    assert_frame_equal(simulate(scheduler=dask_address, **args), one)


def test_real_rummy_three_pack_rows() -> None:
    df = simulate(games=6, rules="three_pack", players=3, bots=("greedy", "greedy", "random"),
                  seed=2, workers=2)  # fmt: skip
    assert len(df) == 6 * 3 and not df["dropped"].any()
    assert df.groupby("game")["winner"].sum().le(3).all()
    assert ((df["how"] != "") == df["winner"]).all()
    assert df.groupby("game")["how"].apply(lambda h: (h == "went out").sum()).le(1).all()


def test_games_run_with_fewer_young_collections_and_the_threshold_comes_back() -> None:
    import gc

    from payme.game.collector import YOUNG_THRESHOLD

    seen: list[int] = []

    def watching_play(rules: Ruleset, players: int, bots: Any = (), seed: int = 0, **o: Any) -> Any:
        seen.append(gc.get_threshold()[0])
        return fake_play(rules, players, bots, seed)

    before = gc.get_threshold()
    simulate(games=3, players=2, bots="greedy", workers=1, play=watching_play)
    assert seen == [max(before[0], YOUNG_THRESHOLD)] * 3
    assert gc.get_threshold() == before
    # Also after a game that fails.
    with pytest.raises(SimulationError):
        simulate(games=4, players=2, bots="greedy", seed=3, workers=1, play=failing_play)
    assert gc.get_threshold() == before
