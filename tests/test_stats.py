"""payme.analysis.stats on small hand-made frames whose numbers were worked out by hand."""

from __future__ import annotations

import io
import math

import pandas as pd
import pytest
from matplotlib.figure import Figure

from payme.analysis.stats import (
    bot_strength,
    compare_rule_sets,
    final_totals,
    go_out_chance_by_turn,
    mean_interval,
    mean_penalty_by_hand,
    plot_bot_strength,
    plot_go_out_chance,
    plot_mean_penalty_by_hand,
    plot_rule_sets,
    wilson_interval,
)

Z = 1.959963984540054

# Two games of two hands, three seats: strong (0), greedy (1), random (2).
# Game 0: hand 1 seat 0 goes out on turn 2 (seat 1 lays off 5 points); hand 2 seat 1 on turn 4.
# Game 1: hand 1 nobody goes out (5 turns each); hand 2 seat 2 goes out on turn 1.
ROWS = [
    # game hand dealt seat went_out turns deadwood points total
    (0, 1, 3, 0, True, 2, 0, 0, 0),
    (0, 1, 3, 1, False, 2, 20, 15, 15),
    (0, 1, 3, 2, False, 1, 30, 30, 30),
    (0, 2, 4, 0, False, 4, 10, 10, 10),
    (0, 2, 4, 1, True, 4, 0, 0, 15),
    (0, 2, 4, 2, False, 3, 25, 25, 55),
    (1, 1, 3, 0, False, 5, 5, 5, 5),
    (1, 1, 3, 1, False, 5, 10, 10, 10),
    (1, 1, 3, 2, False, 5, 20, 20, 20),
    (1, 2, 4, 0, False, 1, 20, 20, 25),
    (1, 2, 4, 1, False, 1, 5, 5, 15),
    (1, 2, 4, 2, True, 1, 0, 0, 20),
]
BOTS = {0: "strong", 1: "greedy", 2: "random"}


def pay_me_frame() -> pd.DataFrame:
    df = pd.DataFrame(ROWS, columns=["game", "hand", "dealt", "seat", "went_out", "turns",
                                     "deadwood", "points", "total"])  # fmt: skip
    df.insert(4, "bot", pd.Categorical(df["seat"].map(BOTS),
                                       categories=["random", "greedy", "strong"]))  # fmt: skip
    return df


def three_pack_frame() -> pd.DataFrame:
    # game 0: strong went out; game 1: strong went out, random held a RUMMY card;
    # game 2: the stock ran out, nobody won.
    return pd.DataFrame({
        "game": [0, 0, 1, 1, 2, 2],
        "seat": [0, 1] * 3,
        "bot": ["strong", "random"] * 3,
        "winner": [True, False, True, True, False, False],
        "how": ["went out", "", "went out", "rummy card", "", ""],
        "turns": [3, 3, 5, 4, 6, 6],
    })  # fmt: skip


# --- intervals ---------------------------------------------------------------------------


def test_wilson_interval_matches_its_closed_forms() -> None:
    # no successes in n trials: the upper bound is z^2 / (n + z^2)
    low, high = wilson_interval(0, 2)
    assert low == 0 and high == pytest.approx(Z**2 / (2 + Z**2))
    # half the trials: symmetric about 1/2
    low, high = wilson_interval(50, 100)
    assert low + high == pytest.approx(1.0)
    assert 0.40 < low < 0.41  # 0.4038 (a textbook value)
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_mean_interval_is_mean_plus_minus_z_standard_errors() -> None:
    mean, low, high = mean_interval([10, 25])
    assert mean == 17.5
    # sd of (10, 25) is 15/sqrt(2); the standard error divides by sqrt(2) again: 7.5
    assert high - mean == pytest.approx(Z * 7.5) and mean - low == pytest.approx(Z * 7.5)
    assert math.isnan(mean_interval([3])[1])


# --- tables ------------------------------------------------------------------------------


def test_final_totals_take_the_last_hand_and_the_lowest_wins() -> None:
    totals = final_totals(pay_me_frame())
    assert totals["total"].tolist() == [10, 15, 55, 25, 15, 20]
    assert totals["won"].tolist() == [True, False, False, False, True, False]
    assert totals["bot"].astype(str).tolist() == ["strong", "greedy", "random"] * 2


def test_tied_lowest_totals_share_the_win() -> None:
    df = pay_me_frame()
    df.loc[(df["game"] == 0) & (df["hand"] == 2) & (df["seat"] == 1), "total"] = 10
    won = final_totals(df).query("game == 0")["won"].tolist()
    assert won == [True, True, False]


def test_mean_penalty_by_hand() -> None:
    table = mean_penalty_by_hand(pay_me_frame())
    assert table.index.tolist() == [1, 2]
    assert table["dealt"].tolist() == [3, 4]
    assert table["points"].tolist() == pytest.approx([80 / 6, 60 / 6])
    assert table["deadwood"].tolist() == pytest.approx([85 / 6, 60 / 6])
    assert table["declared"].tolist() == [0.5, 1.0]  # hand 1 of game 1 had no declarer


def test_mean_penalty_by_hand_per_bot() -> None:
    table = mean_penalty_by_hand(pay_me_frame(), by_bot=True)
    assert list(table.columns) == ["random", "greedy", "strong"]
    assert table.loc[1].tolist() == [25.0, 12.5, 2.5]
    assert table.loc[2].tolist() == [12.5, 2.5, 15.0]


def test_go_out_chance_by_turn_is_cumulative_over_all_hands() -> None:
    table = go_out_chance_by_turn(pay_me_frame(), by_bot=True)
    assert table.index.tolist() == [1, 2, 3, 4, 5]
    # four hands; declarers went out on turns 2, 4 and 1; one hand had none
    assert table["any"].tolist() == [0.25, 0.5, 0.5, 0.75, 0.75]
    # each bot sat in four hands and went out once: strong on 2, greedy on 4, random on 1
    assert table["strong"].tolist() == [0, 0.25, 0.25, 0.25, 0.25]
    assert table["greedy"].tolist() == [0, 0, 0, 0.25, 0.25]
    assert table["random"].tolist() == [0.25] * 5


def test_go_out_chance_for_rummy_three_pack_counts_only_going_out() -> None:
    table = go_out_chance_by_turn(three_pack_frame())
    assert table["any"].tolist() == pytest.approx([0, 0, 1 / 3, 1 / 3, 2 / 3, 2 / 3])


def test_bot_strength_pay_me() -> None:
    table = bot_strength(pay_me_frame())
    assert table.index.tolist() == ["greedy", "strong", "random"]  # lowest mean total first
    assert table["mean_total"].tolist() == [15.0, 17.5, 37.5]
    assert table["games"].tolist() == [2, 2, 2]
    strong = table.loc["strong"]
    assert strong["total_high"] - 17.5 == pytest.approx(Z * 7.5)  # totals 10 and 25
    random_ = table.loc["random"]
    assert random_["total_high"] - 37.5 == pytest.approx(Z * 17.5)  # totals 55 and 20
    assert table.loc["greedy", "total_low"] == table.loc["greedy", "total_high"] == 15
    assert table["win_rate"].tolist() == [0.5, 0.5, 0.0]
    assert random_["win_low"] == 0 and random_["win_high"] == pytest.approx(Z**2 / (2 + Z**2))


def test_bot_strength_counts_a_game_once_for_a_bot_in_two_seats() -> None:
    df = pay_me_frame()
    df["bot"] = df["seat"].map({0: "greedy", 1: "greedy", 2: "random"})
    table = bot_strength(df)
    # greedy's per-game means: (10 + 15) / 2 and (25 + 15) / 2
    assert table.loc["greedy", "mean_total"] == (12.5 + 20) / 2
    assert table.loc["greedy", "games"] == 2 and table.loc["greedy", "seats"] == 4
    assert table.loc["greedy", "win_rate"] == 0.5


def test_bot_strength_with_money() -> None:
    df = pay_me_frame()
    # 10 cents per hand to the declarer; the 150-cent pot (3 antes of 50) settled in the
    # last hand: seat 0 wins game 0, seat 1 game 1
    df["money"] = [20, -10, -10, 90, -30, -60, 0, 0, 0, -60, 90, -30]
    table = bot_strength(df)
    assert table["mean_money"].to_dict() == {"greedy": 25.0, "strong": 25.0, "random": -50.0}


def test_bot_strength_rummy_three_pack_win_rates() -> None:
    table = bot_strength(three_pack_frame())
    assert table.index.tolist() == ["strong", "random"]
    assert table["wins"].tolist() == [2, 1] and table["seats"].tolist() == [3, 3]
    assert table["win_rate"].tolist() == pytest.approx([2 / 3, 1 / 3])
    low, high = table.loc["random", ["win_low", "win_high"]]
    assert low < 1 / 3 < high and low + table.loc["strong", "win_high"] == pytest.approx(1)


def test_compare_rule_sets() -> None:
    base = pay_me_frame()
    no_lay_off = base.assign(points=base["deadwood"])
    table = compare_rule_sets({"lay-offs": base, "none": no_lay_off})
    row = table.loc["lay-offs"]
    assert row["games"] == 2 and row["players"] == 3
    assert row["mean_points"] == pytest.approx(140 / 12)
    assert row["mean_total"] == pytest.approx((80 / 3 + 60 / 3) / 2)
    assert row["declared"] == 0.75
    assert row["turns_to_go_out"] == pytest.approx(7 / 3)
    assert row["lay_off_saving"] == pytest.approx(5 / 9)  # 5 points over 9 non-declarers
    assert table.loc["none", "lay_off_saving"] == 0


def test_compare_rule_sets_labels_frames_by_their_rules() -> None:
    a, b = pay_me_frame(), pay_me_frame()
    a.attrs["simulation"] = {"rules": "denexa"}
    b.attrs["simulation"] = {"rules": "family"}
    assert compare_rule_sets([a, b]).index.tolist() == ["denexa", "family"]
    with pytest.raises(ValueError, match="both labelled 'denexa'"):
        compare_rule_sets([a, a])


def test_wrong_frames_are_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="for Pay Me games"):
        mean_penalty_by_hand(three_pack_frame())
    with pytest.raises(ValueError, match="lacks points, total"):
        final_totals(pay_me_frame().drop(columns=["points", "total"]))
    with pytest.raises(ValueError, match="the frame is empty"):
        bot_strength(pay_me_frame().iloc[:0])
    with pytest.raises(ValueError, match="at least one frame"):
        compare_rule_sets({})


# --- plots -------------------------------------------------------------------------------


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def test_penalty_plot_draws_each_bots_means() -> None:
    fig = plot_mean_penalty_by_hand(pay_me_frame())
    assert isinstance(fig, Figure)
    lines = {line.get_label(): list(line.get_ydata()) for line in fig.axes[0].lines}
    assert lines == {"random": [25.0, 12.5], "greedy": [12.5, 2.5], "strong": [2.5, 15.0]}
    assert _png(fig).startswith(b"\x89PNG")


def test_go_out_plot_and_bot_strength_plot() -> None:
    fig = plot_go_out_chance(pay_me_frame())
    [line] = fig.axes[0].lines
    assert list(line.get_ydata()) == [0.25, 0.5, 0.5, 0.75, 0.75]
    fig = plot_bot_strength(pay_me_frame())
    widths = [bar.get_width() for bar in fig.axes[0].patches]
    assert widths == [15.0, 17.5, 37.5]
    fig = plot_bot_strength(three_pack_frame())
    assert [bar.get_width() for bar in fig.axes[0].patches] == pytest.approx([2 / 3, 1 / 3])
    assert _png(fig).startswith(b"\x89PNG")


def test_rule_set_plot_has_a_line_per_rule_set_on_each_side() -> None:
    base = pay_me_frame()
    fig = plot_rule_sets({"a": base, "b": base.assign(points=base["deadwood"])})
    left, right = fig.axes
    assert [line.get_label() for line in left.lines] == ["a", "b"]
    assert list(left.lines[1].get_ydata()) == pytest.approx([85 / 6, 60 / 6])
    assert len(right.lines) == 2


def test_wilson_interval_always_holds_the_observed_rate() -> None:
    # At 0 or all successes rounding once put an end a hair past the rate, which made a
    # negative error bar in plot_bot_strength.
    for trials in range(1, 400):
        for successes in (0, 1, trials // 2, trials - 1, trials):
            low, high = wilson_interval(successes, trials)
            assert 0.0 <= low <= successes / trials <= high <= 1.0
