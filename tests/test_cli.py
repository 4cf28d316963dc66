"""The command line (API.md "Command line"): in-process calls, and a few real processes."""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import sys
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest
from process_helpers import run_fresh

from payme.cards import format_hand, parse_hand
from payme.cli import main
from payme.layoff import lay_off
from payme.melds import check_meld
from payme.rulesets import PRESETS, rules
from payme.solver import can_go_out, evaluate

HAND = "7H 8H 9H JK 2C 5S 5D 5C"


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        status = main(list(argv), stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue(), err.getvalue()


def run_json(*argv: str) -> dict[str, Any]:
    status, out, err = run(*argv, "--json")
    assert status == 0, err
    assert out.count("\n") == 1, "one JSON object on one line"
    data: dict[str, Any] = json.loads(out)
    return data


def tokens(cards: Any) -> list[str | None]:
    return [None if c is None else str(c) for c in cards]


# --- evaluate -------------------------------------------------------------------------------


def test_evaluate_json_is_the_evaluation() -> None:
    data = run_json("evaluate", HAND, "--rules", "denexa", "--dealt", "7")
    ev = evaluate(HAND, "denexa", 7)
    assert data["hand"] == HAND and data["rules"] == "denexa" and data["dealt"] == 7
    assert data["deadwood_points"] == ev.deadwood_points
    assert data["deadwood"] == tokens(ev.deadwood)
    assert data["melds"] == [
        {"kind": m.kind, "cards": tokens(m.cards), "stands_for": tokens(m.stands_for)}
        for m in ev.melds
    ]
    # 8 cards with 7 dealt: a hand just after drawing, so going out is answered too.
    out = can_go_out(HAND, "denexa", 7)
    assert data["can_go_out"] is out.ok is True
    assert data["discards"] == tokens(out.discards)


def test_evaluate_json_says_nothing_about_going_out_for_other_hand_sizes() -> None:
    data = run_json("evaluate", "KS KD 2H 9C", "--dealt", "5")
    assert data["deadwood_points"] == 10 and data["deadwood"] == ["9C"]
    assert data["can_go_out"] is None and data["discards"] is None


def test_evaluate_text_shows_melds_stand_ins_deadwood_points_and_going_out() -> None:
    status, out, _ = run("evaluate", "5H JK 7H 9C 9S 9D 4D KC", "--dealt", "7")
    assert status == 0
    assert "JK=6H" in out
    assert "deadwood  4D KC" in out
    assert "points    15" in out
    assert "go out    no" in out
    status, out, _ = run("evaluate", "5H 6H 7H 9C 9S 9D 2C 4D", "--dealt", "7")
    assert "go out    yes, discarding 4D" in out


def test_three_pack_needs_no_dealt() -> None:
    data = run_json("evaluate", "RUMMY WILD QH KH 3C", "--rules", "three_pack")
    assert data["dealt"] is None and data["deadwood_points"] == 1
    assert data["can_go_out"] is True and data["discards"] == ["3C"]


def test_batch_mode_writes_one_json_object_per_line_and_goes_on_after_errors() -> None:
    lines = ["7H 8H 9H JK", "1X 7H", "5H 6H 7H 8H", "AS AS AS"]
    status, out, err = run(
        "evaluate", "-", "--rules", "family", "--dealt", "3", "--json", stdin="\n".join(lines)
    )
    assert status == 0 and err == ""
    objects = [json.loads(line) for line in out.splitlines()]
    assert len(objects) == 4
    assert objects[0]["deadwood_points"] == 0 and objects[0]["hand"] == "7H 8H 9H JK"
    assert "1X" in objects[1]["error"] and objects[1]["line"] == 2
    assert objects[2]["can_go_out"] is True
    assert "AS" in objects[3]["error"]  # family's largest pack (2 packs) holds two
    # Without --json the batch mode writes JSON Lines all the same.
    status, out2, _ = run(
        "evaluate", "-", "--rules", "family", "--dealt", "3", stdin="\n".join(lines)
    )
    assert out2 == out


# --- the other commands ---------------------------------------------------------------------


def test_check_meld() -> None:
    data = run_json("check-meld", "5H JK 7H", "--dealt", "7")
    chk = check_meld("5H JK 7H", "denexa", 7)
    assert data["ok"] is chk.ok is True and data["reason"] == chk.reason
    status, out, _ = run("check-meld", "JK JK 5H", "--dealt", "7")
    assert status == 0 and out.startswith("not a meld: ")


def test_go_out() -> None:
    hand = "5H 6H 7H 8H"
    data = run_json("go-out", hand, "--rules", "family", "--dealt", "3")
    assert data["can_go_out"] is True
    assert data["discards"] == tokens(can_go_out(hand, "family", 3).discards) == ["5H", "8H"]
    status, out, _ = run("go-out", hand, "--rules", "family", "--dealt", "3")
    assert status == 0
    assert out.strip() == "go out    yes, discarding 5H or 8H"


def test_lay_off() -> None:
    args = (
        "lay-off",
        "8H 9H KD KS",
        "--declarer",
        "5H 6H 7H",
        "--declarer",
        "QC QD JK",
        "--dealt",
        "12",
    )
    data = run_json(*args)
    lo = lay_off("8H 9H KD KS", ["5H 6H 7H", "QC QD JK"], "denexa", 12)
    assert data["deadwood_points"] == lo.deadwood_points == 20
    assert data["lay_offs"] == [{"meld": 0, "cards": ["8H", "9H"]}]
    assert data["deadwood"] == tokens(lo.deadwood)
    assert [m["cards"] for m in data["declarer"]] == [["5H", "6H", "7H"], ["QD", "QC", "JK"]]
    status, out, _ = run(*args)
    assert status == 0
    assert "lay off   8H 9H onto [0]" in out and "points    20" in out


def test_rules_lists_the_presets_and_shows_every_field() -> None:
    status, out, _ = run("rules")
    assert status == 0 and [line.split()[0] for line in out.splitlines()] == list(PRESETS)
    data = run_json("rules", "family")
    fields = [f.name for f in dataclasses.fields(rules("family"))]
    assert list(data) == fields
    assert data["joker_points"] == 25 and data["going_out"] == "discard_required"
    assert data["money"] == {"ante": 50, "per_hand": 10}
    status, out, _ = run("rules", "denexa")
    assert any(line.split() == ["wild_at_most_half", "true"] for line in out.splitlines())


def test_simulate_passes_its_arguments_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import payme.analysis.cli as analysis_cli

    seen: list[argparse.Namespace] = []

    def fake(args: argparse.Namespace, stdout: Any = None) -> int:
        seen.append(args)
        return 0

    monkeypatch.setattr(analysis_cli, "run_simulate", fake)
    status, _, err = run(
        "simulate",
        "--games",
        "12",
        "--rules",
        "family",
        "--players",
        "3",
        "--bots",
        "strong",
        "greedy",
        "random",
        "--seed",
        "7",
        "--out",
        "x.parquet",
        "--workers",
        "2",
        "--scheduler",
        "tcp://h:1",
    )
    assert status == 0, err
    (args,) = seen
    assert (
        args.games,
        args.rules,
        args.players,
        args.bots,
        args.seed,
        args.out,
        args.workers,
        args.scheduler,
    ) == (12, "family", 3, ["strong", "greedy", "random"], 7, "x.parquet", 2, "tcp://h:1")


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["evaluate", "7H 1X", "--dealt", "7"], "1X"),
        (["evaluate", "JK 7H", "--rules", "three_pack"], "JK"),
        (["evaluate", "AS AS AS AS", "--dealt", "7"], "AS"),
        (["evaluate", "7H", "--rules", "nope", "--dealt", "7"], "nope"),
        (["evaluate", "7H", "--dealt", "14"], "dealt"),
        (["evaluate", "7H", "--dealt", "seven"], "seven"),
        (["evaluate", "7H"], "--dealt"),
        (["go-out", "7H 8H", "--dealt", "7"], "dealt + 1"),
        (["lay-off", "8H", "--declarer", "5H 6H 8H", "--dealt", "7"], "not a valid meld"),
        (["rules", "nope"], "nope"),
        (["shuffle"], "shuffle"),
        (["simulate", "--games", "0"], "--games"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_status_2(argv: list[str], named: str) -> None:
    status, out, err = run(*argv)
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0] and named in lines[0], err
    assert "Traceback" not in err


# --- real processes -------------------------------------------------------------------------


def test_python_dash_m_payme_and_the_console_script() -> None:
    want = evaluate(HAND, "denexa", 7).deadwood_points
    result = run_fresh([sys.executable, "-m", "payme", "evaluate", HAND, "--dealt", "7", "--json"])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["deadwood_points"] == want
    script = Path(sys.executable).with_name("payme")
    if script.exists():  # installed by `pip install -e .` (the Makefile does)
        result = run_fresh([str(script), "evaluate", "-", "--dealt", "7"], HAND + "\nZZ\n")
        assert result.returncode == 0, result.stderr
        first, second = result.stdout.splitlines()
        assert json.loads(first)["deadwood_points"] == want
        assert "ZZ" in json.loads(second)["error"]


def test_a_bad_card_in_a_real_process_exits_2_without_a_traceback() -> None:
    result = run_fresh([sys.executable, "-m", "payme", "evaluate", "7H 1X", "--dealt", "7"])
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "1X" in result.stderr


def test_evaluate_starts_without_pandas() -> None:
    code = (
        "import sys, io\n"
        "from payme.cli import main\n"
        f"main(['evaluate', {HAND!r}, '--dealt', '7'], stdout=io.StringIO())\n"
        "print(sorted(m for m in ('pandas', 'ipywidgets', 'IPython', 'numpy') "
        "if m in sys.modules))\n"
    )
    result = run_fresh([sys.executable, "-c", code])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_hands_round_trip_through_the_json() -> None:
    data = run_json("evaluate", "10h,8H 9h jk", "--dealt", "3")
    assert data["hand"] == format_hand(parse_hand("TH 8H 9H JK"))
