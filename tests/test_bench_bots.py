"""The expert-against-strong benchmark's tools for trials (benchmarks/bench_bots.py)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.bench_bots import against_lines, read_log, seating


def _log(path: Path, totals: list[tuple[float, float]]) -> str:
    """A ``BENCH_BOTS_LOG`` of whole `denexa` deals: per deal, the expert's and the strong
    bot's totals in every seating (each greedy bot 100)."""
    lines = []
    for deal, (expert, strong) in enumerate(totals):
        for rotation in range(4):
            number = 4 * deal + rotation
            bots = seating("denexa", number)
            result = {"expert": expert, "strong": strong, "greedy": 100.0}
            lines.append(" ".join(["denexa", str(number), *bots, *(str(result[b]) for b in bots)]))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_a_trial_is_compared_with_its_baseline_deal_by_deal(tmp_path: Path) -> None:
    base = read_log(_log(tmp_path / "base.log", [(90, 100), (110, 120), (100, 100)]), "denexa")
    # The trial played the first two deals only: only those are compared.
    trial = read_log(_log(tmp_path / "trial.log", [(88, 101), (106, 121)]), "denexa")
    rows = against_lines(base, trial, "denexa")
    assert rows[2] == "| expert | 2 | -3.00 ± 1.96 |"  # changes -2 and -4
    assert rows[3] == "| strong | 2 | +1.00 ± 0.00 |"
    assert rows[4] == "| ratio expert / strong | 2 | 0.874 (was 0.909) |"  # 194/222, 200/220


def test_a_partial_deal_in_a_log_is_left_out(tmp_path: Path) -> None:
    path = tmp_path / "cut.log"
    _log(path, [(90, 100), (110, 120)])
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:6]))  # 1.5 deals
    assert len(read_log(str(path), "denexa")) == 4


def test_the_timing_row_tells_the_full_collections_inside_decisions_apart(tmp_path: Path) -> None:
    from benchmarks.bench_bots import read_timings, timing_line

    log = tmp_path / "bots.log"
    # Each decision's CPU ms, and after a "+" the full garbage collection inside it.
    (tmp_path / "bots.log.ms").write_text(
        "denexa 0 1.00 2.00 61.20+48.10\ndenexa 1 4.00 9.50+3.00\n"
    )
    decisions, swept = read_timings(str(log), "denexa")
    assert len(decisions) == len(swept) == 5
    cells = [c.strip() for c in timing_line("denexa", decisions, 2, swept).split("|")[1:-1]]
    # games, decisions, median, p95, p99, slowest, over 50 ms, slowest without collections,
    # decisions with one, the longest one
    assert cells[1:] == [
        "2",
        "5",
        "4.00",
        "61.2",
        "61.2",
        "61.2",
        "1",
        "13.1",
        "2",
        "48.1",
        "≤ 50 ms",
    ]
