"""The Analysis page: simulate bot games with a progress bar, then tables, plots and a download.

:class:`AnalysisPage` wraps :func:`payme.simulate` and :mod:`payme.analysis.stats`: choose
a rule set, players, bots and a number of games; *Run* plays them (the bar follows), then the
page shows each bot's strength with 95% intervals, the mean penalty by hand, the chance of
going out by turn, optionally the three Pay Me rule sets compared, and a CSV of every row.
pandas and matplotlib are imported on the first run, so the page itself opens fast.

>>> page = AnalysisPage()
>>> page.games_box.value, page.rules_box.value
(20, 'denexa')
"""

from __future__ import annotations

import base64
import io
import threading
from html import escape
from typing import Any

from payme.rulesets import PRESETS

__all__ = ["MAX_GAMES", "AnalysisPage", "figure_html", "frame_html"]

MAX_GAMES = 2000
"""The most games one run may play from the page (a run blocks this page's kernel)."""

# Rule sets compared side by side (the Pay Me presets).
_COMPARED = ("denexa", "classic", "family")


def _import_heavy() -> None:
    import matplotlib.figure  # noqa: F401
    import pandas  # noqa: F401

    import payme.analysis.simulate
    import payme.analysis.stats  # noqa: F401


def figure_html(figure: Any, alt: str) -> str:
    """A matplotlib figure as an inline PNG ``<img>`` (no file, works offline)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (
        f'<img class="payme-analysis-plot" alt="{escape(alt)}" '
        f'src="data:image/png;base64,{data}" style="max-width:100%">'
    )


def _plot(make: Any, df: Any, alt: str) -> str:
    """One plot, or a note saying why it could not be drawn (the other results still show)."""
    try:
        return figure_html(make(df), alt)
    except Exception as error:  # a plot's failure must not hide the tables
        return f'<p class="payme-analysis-note">{escape(alt)}: not drawn ({escape(str(error))})</p>'


def frame_html(frame: Any, caption: str) -> str:
    """A small table with a caption, numbers rounded for reading."""
    table = frame.to_html(float_format=lambda x: f"{x:.3g}", border=0, classes="payme-table")
    return f"<figure><figcaption><b>{escape(caption)}</b></figcaption>{table}</figure>"


def csv_link(frame: Any, name: str) -> str:
    """A download link carrying the frame as CSV in a data URL."""
    data = base64.b64encode(frame.to_csv(index=False).encode()).decode("ascii")
    return (
        f'<a class="payme-analysis-download" download="{escape(name)}" '
        f'href="data:text/csv;base64,{data}">Download the {len(frame)} rows (CSV)</a>'
    )


class AnalysisPage:
    """The Analysis page's widgets; ``.widget`` is what to display."""

    def __init__(self) -> None:
        import ipywidgets as w

        from payme.widgets import MessageBox

        self.message = MessageBox()
        self.rules_box = w.Dropdown(options=list(PRESETS), value="denexa", description="Rules")
        self.players_box = w.BoundedIntText(value=3, min=2, max=8, description="Players")
        self.bots_box = w.Text(
            value="strong, greedy, random",
            description="Bots",
            placeholder="one per seat, or one for all",
        )
        self.games_box = w.BoundedIntText(value=20, min=1, max=MAX_GAMES, description="Games")
        self.seed_box = w.BoundedIntText(value=7, min=0, max=10**9, description="Seed")
        self.compare_box = w.Checkbox(value=False, description="compare denexa, classic, family")
        for box in (self.rules_box, self.players_box, self.bots_box, self.games_box, self.seed_box):
            box.style.description_width = "60px"
            box.layout.width = "240px" if box is self.bots_box else "190px"
        self.run_button = w.Button(
            description="Run",
            icon="play",
            button_style="primary",
            tooltip="Play the games and show the results",
        )
        self.progress = w.IntProgress(value=0, min=0, max=1, description="Games")
        self.progress_text = w.HTML()
        self.results = w.HTML()
        for widget, cls in (
            (self.rules_box, "payme-analysis-rules"), (self.players_box, "payme-analysis-players"),
            (self.bots_box, "payme-analysis-bots"), (self.games_box, "payme-analysis-games"),
            (self.seed_box, "payme-analysis-seed"), (self.compare_box, "payme-analysis-compare"),
            (self.run_button, "payme-analysis-run"), (self.progress, "payme-analysis-progress"),
            (self.progress_text, "payme-analysis-progress-text"),
            (self.results, "payme-analysis-results"),
        ):  # fmt: skip
            widget.add_class(cls)
        self._running = False
        self._wire()
        wrap = w.Layout(flex_flow="row wrap")
        self.widget = w.VBox(
            [
                w.HBox([self.rules_box, self.players_box, self.bots_box], layout=wrap),
                w.HBox([self.games_box, self.seed_box, self.compare_box], layout=wrap),
                w.HBox([self.run_button, self.progress, self.progress_text], layout=wrap),
                self.message,
                self.results,
            ]
        )
        self.widget.add_class("payme-analysis")

    def _wire(self) -> None:
        from payme.widgets import guarded

        self.run_button.on_click(guarded(self.message)(lambda _b: self.run()))

    def apply_query(self, query: dict[str, str]) -> None:
        """Settings from the URL (``?rules=family&players=3&bots=greedy&games=50&seed=1``)."""
        from payme.widgets import guarded

        @guarded(self.message)
        def apply() -> None:
            if "rules" in query:
                if query["rules"] not in PRESETS:
                    raise ValueError(
                        f"unknown rule set {query['rules']!r}: the presets are {', '.join(PRESETS)}"
                    )
                self.rules_box.value = query["rules"]
            for key, box in (
                ("players", self.players_box), ("games", self.games_box), ("seed", self.seed_box)
            ):  # fmt: skip
                if key in query:
                    text = query[key].strip()
                    if not text.isdigit() or not box.min <= int(text) <= box.max:
                        raise ValueError(
                            f"{key} must be a whole number from {box.min} to {box.max}, "
                            f"not {query[key]!r}"
                        )
                    box.value = int(text)
            if "bots" in query:
                self.bots_box.value = query["bots"]

        if query:
            apply()

    # ------------------------------------------------------------------ running

    def warm_up(self, background: bool = True) -> None:
        """Import pandas, matplotlib and the statistics ahead of the first run.

        In the background by default: the page shows at once while the imports (a second or
        more) go on; a run started before they finish just waits for them.
        """
        if background:
            threading.Thread(target=_import_heavy, name="payme-warm-up", daemon=True).start()
        else:
            _import_heavy()

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.max = max(total, 1)
        self.progress.value = done
        self.progress_text.value = f"{done} / {total} games"

    def _bots(self) -> list[str]:
        bots = [b.strip().lower() for b in self.bots_box.value.replace(",", " ").split()]
        if not bots:
            from payme.game import BOT_NAMES

            raise ValueError(f"name at least one bot ({', '.join(BOT_NAMES)})")
        return bots

    def run(self) -> None:
        """Play the games, then show the tables, plots and the download link."""
        if self._running:  # a click while a run is going: the kernel queues it until now
            return
        self._running = True
        self.run_button.disabled = True
        try:
            self._run()
        finally:
            self._running = False
            self.run_button.disabled = False

    def _run(self) -> None:
        from payme.analysis import stats
        from payme.analysis.simulate import simulate

        rules = self.rules_box.value
        players = int(self.players_box.value)
        games = int(self.games_box.value)
        seed = int(self.seed_box.value)
        bots = self._bots()
        seats = bots * players if len(bots) == 1 else bots
        compare = self.compare_box.value and rules != "three_pack"
        runs = list(_COMPARED) if compare else [rules]
        if compare and rules not in runs:
            runs.insert(0, rules)
        self.message.info(f"Playing {games} game(s) of {', '.join(runs)} with {', '.join(seats)}…")
        self.results.value = ""
        frames: dict[str, Any] = {}
        for name in runs:
            self.progress.description = name
            frames[name] = simulate(
                games, name, players, seats, seed,
                workers=1 if games < 40 else None, progress=self._on_progress,
            )  # fmt: skip
        df = frames[rules]
        parts = [csv_link(df, f"payme-{rules}-{games}-games.csv")]
        parts.append(frame_html(stats.bot_strength(df), "Bot strength (95% intervals)"))
        if stats.is_three_pack(df):
            parts.append(_plot(stats.plot_bot_strength, df, "Win rate of each bot"))
        else:
            parts.append(_plot(stats.plot_bot_strength, df, "Final total of each bot"))
            parts.append(_plot(stats.plot_mean_penalty_by_hand, df, "Mean penalty by hand"))
            parts.append(_plot(stats.plot_go_out_chance, df, "Chance of going out by turn"))
            if len(frames) > 1:
                parts.append(frame_html(stats.compare_rule_sets(frames), "Rule sets compared"))
                parts.append(_plot(stats.plot_rule_sets, frames, "Rule sets compared"))
        self.results.value = "".join(parts)
        self.message.ok(f"Done: {games} game(s) of {rules}, {len(df)} rows.")
