"""Tables and plots of simulated games, for the Analysis page and notebooks.

Every function takes a frame as :func:`~payme.analysis.simulate.simulate` returns it (or
any frame with the same columns) and returns a new ``pandas.DataFrame`` or a
``matplotlib.figure.Figure``.
Figures are built without pyplot, so they work under any backend (Agg on a server) and
never pile up in pyplot's global state.

>>> import pandas as pd
>>> df = pd.DataFrame({
...     "game": [0, 0, 0, 0], "hand": [1, 1, 2, 2], "dealt": [3, 3, 4, 4],
...     "seat": [0, 1, 0, 1], "bot": ["greedy", "random"] * 2,
...     "went_out": [True, False, False, True], "turns": [2, 2, 3, 3],
...     "deadwood": [0, 20, 15, 0], "points": [0, 10, 15, 0], "total": [0, 10, 15, 10]})
>>> mean_penalty_by_hand(df)["points"].tolist()
[5.0, 7.5]
>>> final_totals(df)[["seat", "total", "won"]].to_dict("list")
{'seat': [0, 1], 'total': [15, 10], 'won': [False, True]}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""

PAY_ME_NEEDS = ("game", "hand", "seat", "bot", "went_out", "turns", "points", "total")
THREE_PACK_NEEDS = ("game", "seat", "bot", "winner")


# --- checks ----------------------------------------------------------------------------


def is_three_pack(df: pd.DataFrame) -> bool:
    """Whether ``df`` holds Rummy 3-Pack games (one row per game × seat, with winners)."""
    return "winner" in df.columns and "hand" not in df.columns


def _need(df: pd.DataFrame, columns: Iterable[str], what: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(
            f"{what} needs the columns {', '.join(columns)} of a simulation; "
            f"this frame lacks {', '.join(missing)}"
        )
    if df.empty:
        raise ValueError(f"{what} needs at least one row; the frame is empty")


def _pay_me(df: pd.DataFrame, what: str) -> None:
    if is_three_pack(df):
        raise ValueError(f"{what} is for Pay Me games; this frame holds Rummy 3-Pack games")
    _need(df, PAY_ME_NEEDS, what)


def _bots(df: pd.DataFrame) -> list[str]:
    """The bots present, in the category order when ``bot`` is categorical."""
    present = set(df["bot"])
    order = list(df["bot"].cat.categories) if hasattr(df["bot"], "cat") else sorted(present)
    return [b for b in order if b in present]


# --- intervals -------------------------------------------------------------------------


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is sensible for 0 or all
    successes and for few trials.

    >>> low, high = wilson_interval(3, 10)
    >>> round(low, 4), round(high, 4)
    (0.1078, 0.6032)
    >>> wilson_interval(0, 0)
    (nan, nan)
    """
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # Mathematically the interval holds p; rounding can put an end a hair past it when p is
    # 0 or 1 (which once gave a negative error bar), so clamp the ends to p as well.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def mean_interval(values: Iterable[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its normal-approximation 95% interval.

    >>> [round(x, 2) for x in mean_interval([10, 20, 30, 40])]   # sd 12.91, n 4
    [25.0, 12.35, 37.65]
    """
    xs = [float(x) for x in values]
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(xs) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


# --- tables ----------------------------------------------------------------------------


def final_records(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One record per game × seat from Pay Me rows (one per game × hand × seat, any order):
    ``game, seat, bot, total, won`` (and ``money`` when the rows have it), sorted.

    The last hand's total is the final total; a game is won by the lowest final total
    (tied players all win); ``money`` is the sum over the game: the seat's net winnings.
    Pure Python (no pandas): the Analysis page tallies games with it as they finish.

    >>> rows = [{"game": 0, "hand": h, "seat": s, "bot": b, "total": t}
    ...         for h, s, b, t in [(1, 0, "a", 5), (1, 1, "b", 0), (2, 0, "a", 5), (2, 1, "b", 9)]]
    >>> [(r["bot"], r["total"], r["won"]) for r in final_records(rows)]
    [('a', 5, True), ('b', 9, False)]
    """
    last: dict[tuple[int, int], dict[str, Any]] = {}
    money: dict[tuple[int, int], float] = {}
    for row in rows:
        key = (int(row["game"]), int(row["seat"]))
        if key not in last or row["hand"] > last[key]["hand"]:
            last[key] = dict(row)
        if "money" in row:
            money[key] = money.get(key, 0) + row["money"]
    lowest: dict[int, int] = {}
    for (game, _), row in last.items():
        lowest[game] = min(lowest.get(game, row["total"]), row["total"])
    out = []
    for key in sorted(last):
        row = last[key]
        record = {"game": key[0], "seat": key[1], "bot": row["bot"], "total": row["total"]}
        if key in money:
            record["money"] = money[key]
        record["won"] = row["total"] == lowest[key[0]]
        out.append(record)
    return out


def final_totals(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game × seat: the bot, its final total, whether it won (and its money).

    A Pay Me game is won by the lowest final total; tied players all win.  ``money`` (when
    the frame has it) is the sum of the seat's money over the game: its net winnings.
    """
    import pandas as pd

    _pay_me(df, "final_totals")
    names = ["game", "hand", "seat", "bot", "total", *(["money"] if "money" in df else [])]
    records = final_records(df[names].to_dict("records"))
    out = pd.DataFrame.from_records(records)
    if hasattr(df["bot"], "cat"):
        out["bot"] = pd.Categorical(out["bot"], categories=df["bot"].cat.categories)
    return out


def strength(records: Iterable[Mapping[str, Any]], bots: Iterable[str]) -> list[dict[str, Any]]:
    """Each bot's results with 95% intervals, best first, from one record per game × seat
    (pure Python: :func:`bot_strength` and the Analysis page's running tally share it).

    Pay Me records (:func:`final_records`): ``mean_total`` with ``total_low``/``total_high``
    (a bot seated twice in one game is averaged over its seats first, so each game is one
    sample: ``games``), ``win_rate`` with Wilson ``win_low``/``win_high`` over ``seats``, and
    ``mean_money`` when the records have money.  Rummy 3-Pack records (``bot, winner``):
    ``seats``, ``wins``, ``win_rate``, ``win_low``, ``win_high``.  ``bots`` gives the order
    of equal bots.
    """
    records = list(records)
    order = [b for b in dict.fromkeys(bots) if any(r["bot"] == b for r in records)]
    rows: list[dict[str, Any]] = []
    for bot in order:
        mine = [r for r in records if r["bot"] == bot]
        if "winner" in mine[0]:
            wins, seats = sum(bool(r["winner"]) for r in mine), len(mine)
            low, high = wilson_interval(wins, seats)
            rows.append({
                "bot": bot, "seats": seats, "wins": wins, "win_rate": wins / seats,
                "win_low": low, "win_high": high,
            })  # fmt: skip
            continue
        per_game: dict[int, list[float]] = {}
        for r in mine:
            per_game.setdefault(int(r["game"]), []).append(float(r["total"]))
        mean, low, high = mean_interval(sum(v) / len(v) for v in per_game.values())
        wins, seats = sum(bool(r["won"]) for r in mine), len(mine)
        win_low, win_high = wilson_interval(wins, seats)
        row: dict[str, Any] = {
            "bot": bot, "games": len(per_game), "seats": seats,
            "mean_total": mean, "total_low": low, "total_high": high,
            "win_rate": wins / seats, "win_low": win_low, "win_high": win_high,
        }  # fmt: skip
        if "money" in mine[0]:
            row["mean_money"] = sum(float(r["money"]) for r in mine) / seats
        rows.append(row)
    key = "win_rate" if rows and "mean_total" not in rows[0] else "mean_total"
    rows.sort(key=lambda r: -r[key] if key == "win_rate" else r[key])
    return rows


def mean_penalty_by_hand(df: pd.DataFrame, by_bot: bool = False) -> pd.DataFrame:
    """Mean penalty points per player in each hand (declarers' zeros included).

    Indexed by ``hand``.  ``by_bot=False``: columns ``dealt`` (cards dealt), ``deadwood``
    (mean points before lay-offs, when the frame has it), ``points`` (after lay-offs) and
    ``declared`` (share of hands someone went out).  ``by_bot=True``: one column of mean
    points per bot.
    """
    _pay_me(df, "mean_penalty_by_hand")
    if by_bot:
        table = df.pivot_table(
            index="hand", columns="bot", values="points", aggfunc="mean", observed=True
        )
        table = table[[b for b in _bots(df) if b in table.columns]]
        table.columns = list(table.columns.astype(str))
        return table
    by_hand = df.groupby("hand", sort=True)
    table = by_hand[["points"]].mean()
    if "deadwood" in df.columns:
        table.insert(0, "deadwood", by_hand["deadwood"].mean())
    if "dealt" in df.columns:
        table.insert(0, "dealt", by_hand["dealt"].first())
    declared = df.groupby(["hand", "game"])["went_out"].any().groupby(level="hand").mean()
    table["declared"] = declared.astype(float)
    return table


def _going_out(df: pd.DataFrame) -> pd.DataFrame:
    """Rows ``game, hand, seat, bot, turns, went_out`` for either game.

    A Rummy 3-Pack game is one hand, and only a win by going out counts as going out.
    """
    if is_three_pack(df):
        _need(df, ("game", "seat", "bot", "how", "turns"), "go_out_chance_by_turn")
        rows = df[["game", "seat", "bot", "turns"]].copy()
        rows["hand"] = 1
        rows["went_out"] = (df["how"].astype(str) == "went out").to_numpy()
        return rows
    _pay_me(df, "go_out_chance_by_turn")
    return df[["game", "hand", "seat", "bot", "turns", "went_out"]]


def go_out_chance_by_turn(df: pd.DataFrame, by_bot: bool = False) -> pd.DataFrame:
    """The chance that a hand has been won by going out by each player's turn *t*.

    A hand's rows give each seat's turn count; the declarer's is the turn on which it went
    out (its ``t``-th turn, so ``t`` counts rounds of play).  Column ``any``: the share of
    all hands whose declarer went out on turn ``t`` or earlier — a cumulative curve that
    stays below 1 when some hands end with nobody out (the stock gave out).  With
    ``by_bot=True``, one more column per bot: the share of that bot's seat-hands in which
    that bot itself went out by its turn ``t``.  Indexed by ``turn`` = 1 … the most turns
    any seat took.  Rummy 3-Pack frames work too (a game is one hand; a win by going out
    counts, a win by RUMMY cards does not).
    """
    import pandas as pd

    rows = _going_out(df)
    longest = int(rows["turns"].max())
    turns = pd.RangeIndex(1, max(longest, 1) + 1, name="turn")
    hands = rows.groupby(["game", "hand"]).ngroups
    declarer_turns = rows.loc[rows["went_out"].astype(bool), "turns"]
    # a hand has at most one declarer, so counting declarers counts hands
    won_on = declarer_turns.value_counts().reindex(turns, fill_value=0)
    table = pd.DataFrame({"any": won_on.cumsum() / hands}, index=turns)
    if by_bot:
        for bot in _bots(rows):
            mine = rows[rows["bot"] == bot]
            out = mine.loc[mine["went_out"].astype(bool), "turns"]
            counts = out.value_counts().reindex(turns, fill_value=0)
            table[str(bot)] = counts.cumsum() / len(mine)
    return table


def bot_strength(df: pd.DataFrame) -> pd.DataFrame:
    """Each bot's results with 95% confidence intervals, best bot first.

    Pay Me: ``mean_total`` (final total; lower is better) with ``total_low``/``total_high``,
    and ``win_rate`` with Wilson ``win_low``/``win_high`` (shared wins count as wins), plus
    ``mean_money`` (net cents per game) when the frame has money.  A bot seated twice in
    one game is averaged over its seats first, so each game is one independent sample of
    its total (``games``); win rates count seat-games (``seats``).  Intervals use the normal
    approximation, fine from a few dozen games on.

    Rummy 3-Pack: ``seats``, ``wins``, ``win_rate`` with Wilson ``win_low``/``win_high``.
    """
    import pandas as pd

    if is_three_pack(df):
        _need(df, THREE_PACK_NEEDS, "bot_strength")
        records = df[["bot", "winner"]].to_dict("records")
        return pd.DataFrame(strength(records, _bots(df))).set_index("bot")
    totals = final_totals(df)
    return pd.DataFrame(strength(totals.to_dict("records"), _bots(totals))).set_index("bot")


def _labelled(frames: Mapping[str, pd.DataFrame] | Iterable[pd.DataFrame]) -> dict[str, Any]:
    """Frames by label: a mapping as given, or each frame's ``attrs`` rule set name."""
    if isinstance(frames, Mapping):
        labelled = dict(frames)
    else:
        labelled = {}
        for i, frame in enumerate(frames):
            name = frame.attrs.get("simulation", {}).get("rules", f"frame {i}")
            if name in labelled:
                raise ValueError(
                    f"two frames are both labelled {name!r}: pass a dict of label -> frame"
                )
            labelled[name] = frame
    if not labelled:
        raise ValueError("compare_rule_sets needs at least one frame")
    return labelled


def compare_rule_sets(
    frames: Mapping[str, pd.DataFrame] | Iterable[pd.DataFrame],
) -> pd.DataFrame:
    """One row per rule set (Pay Me): how the rules change the game.

    ``frames``: ``{label: frame}``, or frames from :func:`~payme.analysis.simulate.simulate`
    (labelled by their rule set).  Columns: ``games``; ``players``; ``mean_points`` (penalty per
    player per hand); ``mean_total`` (final total per player) with its 95% interval ``total_low`` /
    ``total_high`` (over games, each game's mean); ``declared`` (share of hands someone went out);
    ``turns_to_go_out`` (mean of the declarer's turn count); ``lay_off_saving`` (mean points a
    non-declarer saved by laying off).
    """
    import pandas as pd

    rows = []
    for label, df in _labelled(frames).items():
        _pay_me(df, "compare_rule_sets")
        totals = final_totals(df)
        mean, low, high = mean_interval(totals.groupby("game")["total"].mean())
        out = df[df["went_out"].astype(bool)]
        others = df[~df["went_out"].astype(bool)]
        saving = (
            float((others["deadwood"] - others["points"]).mean())
            if "deadwood" in df.columns and len(others)
            else math.nan
        )
        rows.append({
            "rules": label,
            "games": int(df["game"].nunique()),
            "players": int(df.groupby("game")["seat"].nunique().max()),
            "mean_points": float(df["points"].mean()),
            "mean_total": mean, "total_low": low, "total_high": high,
            "declared": float(df.groupby(["game", "hand"])["went_out"].any().mean()),
            "turns_to_go_out": float(out["turns"].mean()) if len(out) else math.nan,
            "lay_off_saving": saving,
        })  # fmt: skip
    return pd.DataFrame(rows).set_index("rules")


# --- plots -----------------------------------------------------------------------------


def _figure(width: float = 6.4, height: float = 4.0, ncols: int = 1) -> tuple[Figure, Any]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(1, ncols)
    return fig, axes


def _hand_ticks(ax: Axes, df: pd.DataFrame) -> None:
    """Label hands with the cards dealt: "1\\n3" = hand 1, 3 cards."""
    if "dealt" not in df.columns:
        return
    dealt = df.groupby("hand")["dealt"].first()
    ax.set_xticks(list(dealt.index))
    ax.set_xticklabels([f"{h}\n{d}" for h, d in dealt.items()])
    ax.set_xlabel("hand (cards dealt below)")


def plot_mean_penalty_by_hand(df: pd.DataFrame, by_bot: bool = True) -> Figure:
    """Mean penalty points per player by hand: one line per bot (or one for everyone)."""
    table = mean_penalty_by_hand(df, by_bot=by_bot)
    fig, ax = _figure()
    series = table.columns if by_bot else ["points"]
    for name in series:
        ax.plot(table.index, table[name], marker="o", label=str(name))
    if by_bot:
        ax.legend(title="bot")
    ax.set_xlabel("hand")
    _hand_ticks(ax, df)
    ax.set_ylabel("mean penalty points per player")
    ax.set_title("Penalty points by hand")
    ax.grid(alpha=0.3)
    return fig


def plot_go_out_chance(df: pd.DataFrame, by_bot: bool = False) -> Figure:
    """The chance a hand has been won by going out, by turn (cumulative, as steps)."""
    table = go_out_chance_by_turn(df, by_bot=by_bot)
    fig, ax = _figure()
    for name in table.columns:
        label = "any player" if name == "any" else str(name)
        ax.step(table.index, table[name], where="post", label=label)
    ax.set_xlabel("turn (each player's turn count)")
    ax.set_ylabel("chance someone has gone out" if not by_bot else "chance of having gone out")
    ax.set_ylim(0, 1)
    ax.set_title("Going out, turn by turn")
    ax.legend()
    ax.grid(alpha=0.3)
    return fig


def plot_bot_strength(df: pd.DataFrame) -> Figure:
    """Each bot's mean final total (Pay Me) or win rate (Rummy 3-Pack), with 95% intervals."""
    table = bot_strength(df)
    if is_three_pack(df):
        value, low, high = table["win_rate"], table["win_low"], table["win_high"]
        xlabel, title = "win rate", "Bot strength (higher is better)"
    else:
        value, low, high = table["mean_total"], table["total_low"], table["total_high"]
        xlabel, title = "mean final total (penalty points)", "Bot strength (lower is better)"
    fig, ax = _figure(height=1.2 + 0.6 * len(table))
    positions = list(range(len(table)))
    errors = [
        (value - low).fillna(0).clip(lower=0).tolist(),
        (high - value).fillna(0).clip(lower=0).tolist(),
    ]
    ax.barh(positions, value, xerr=errors, capsize=4, color="#6a8cc7")
    ax.set_yticks(positions)
    ax.set_yticklabels([str(b) for b in table.index])
    ax.invert_yaxis()  # best first, at the top
    ax.set_xlabel(xlabel + " (95% interval)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return fig


def plot_rule_sets(frames: Mapping[str, pd.DataFrame] | Iterable[pd.DataFrame]) -> Figure:
    """Rule sets side by side: penalty by hand (left) and going out by turn (right)."""
    labelled = _labelled(frames)
    fig, (left, right) = _figure(width=10, ncols=2)
    for label, df in labelled.items():
        penalty = mean_penalty_by_hand(df)
        left.plot(penalty.index, penalty["points"], marker="o", label=label)
        chance = go_out_chance_by_turn(df)
        right.step(chance.index, chance["any"], where="post", label=label)
    left.set_xlabel("hand")
    left.set_ylabel("mean penalty points per player")
    left.set_title("Penalty points by hand")
    right.set_xlabel("turn")
    right.set_ylabel("chance someone has gone out")
    right.set_ylim(0, 1)
    right.set_title("Going out, turn by turn")
    for ax in (left, right):
        ax.legend(title="rules")
        ax.grid(alpha=0.3)
    return fig


__all__ = [
    "bot_strength",
    "compare_rule_sets",
    "final_records",
    "final_totals",
    "go_out_chance_by_turn",
    "mean_interval",
    "mean_penalty_by_hand",
    "plot_bot_strength",
    "plot_go_out_chance",
    "plot_mean_penalty_by_hand",
    "plot_rule_sets",
    "strength",
    "wilson_interval",
]
