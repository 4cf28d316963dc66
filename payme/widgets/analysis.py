"""The Analysis page: simulate bot games with a progress bar, then tables, plots and a download.

:class:`AnalysisPage` wraps :func:`payme.simulate` and :mod:`payme.analysis.stats`: choose
a rule set, players, bots and a number of games; *Run* plays them in small batches on the
kernel's event loop (no thread: the page runs the same in the browser under Pyodide), and
each bot's results with 95% intervals fill in as the games finish, the first after one game;
*Stop* ends the run and keeps what has been played.  When the run ends the page adds the mean
penalty by hand, the chance of going out by turn, optionally the three Pay Me rule sets
compared, and a CSV of every row.  Every table has human column names with units and a
line explaining each measure.  The settings live in the page's address (reload, Back and a
copied link restore them).  pandas and matplotlib are imported on the first run, so the page
itself opens fast.

>>> page = AnalysisPage()
>>> page.games_box.value, page.rules_box.value
(20, 'denexa')
>>> page.settings_query()
'rules=denexa&players=3&bots=strong,+greedy,+random&games=20&seed=7'
>>> page.games_box.value = 0
>>> page.check_settings()
Traceback (most recent call last):
...
ValueError: Games must be a whole number from 1 to 2,000, not 0.
"""

from __future__ import annotations

import asyncio
import base64
import csv
import importlib.util
import io
import math
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any
from urllib.parse import urlencode

from payme.analysis.simulate import bot_names
from payme.deprecation import renamed
from payme.rulesets import PRESETS, Ruleset
from payme.words import joined

__all__ = [
    "PAGE_MAX_GAMES",
    "AnalysisPage",
    "bot_table_html",
    "figure_html",
    "frame_html",
    "plain_table",
    "styled_table",
]

PAGE_MAX_GAMES = 2000
"""The most games one run may play from the page (a run of ``payme simulate`` may play
:data:`payme.analysis.simulate.MAX_GAMES`)."""
MAX_SEED = 10**9

# Rule sets compared side by side (the Pay Me presets).
_COMPARED = ("denexa", "classic", "family")


def _comparable(r: Ruleset) -> bool:
    """Whether ``r`` can join the compared rule sets: they replay the same deals in one
    engine, so this is a choice of engine, keyed by the game (Rummy 3-Pack scores no points
    to compare)."""
    return all(PRESETS[name].game == r.game for name in _COMPARED)


@dataclass(frozen=True)
class Column:
    """A table column as a reader sees it: a label with its unit, a format, what it means."""

    label: str
    fmt: str
    meaning: str


# Every measure the page shows, by its column in payme.analysis.stats.
COLUMNS: dict[str, Column] = {
    "games": Column("Games", "{:,.0f}", "games played"),
    "seats": Column("Seats", "{:,.0f}", "seats the bot played, over all games"),
    "players": Column("Players", "{:,.0f}", "players at the table"),
    "wins": Column("Wins", "{:,.0f}", "games won"),
    "mean_total": Column(
        "Final total (points)", "{:,.1f}", "penalty points after the last hand; lower is better"
    ),
    "total_low": Column("Total, 95% low", "{:,.1f}", "the 95% interval of the final total"),
    "total_high": Column("Total, 95% high", "{:,.1f}", "the 95% interval of the final total"),
    "win_rate": Column("Wins (%)", "{:.0%}", "share of games won (a shared win counts)"),
    "win_low": Column("Wins, 95% low", "{:.0%}", "the 95% interval of the win share"),
    "win_high": Column("Wins, 95% high", "{:.0%}", "the 95% interval of the win share"),
    "mean_money": Column(
        "Money per game (¢)", "{:+,.1f}", "net cents won per game (family rules' stakes)"
    ),
    "mean_points": Column(
        "Penalty per hand (points)", "{:,.1f}", "mean penalty of a player in one hand"
    ),
    "declared": Column(
        "Hands someone went out (%)",
        "{:.0%}",
        "share of hands that ended with a player going out; bots always manage it, so it "
        "stays at 100% unless the stock and discards run dry",
    ),
    "turns_to_go_out": Column(
        "Turns to go out", "{:,.1f}", "mean turns the player going out needed in that hand"
    ),
    "lay_off_saving": Column(
        "Saved by laying off (points)",
        "{:+,.2f}",
        "mean points a player who did not go out saved by laying cards off on the "
        "declarer's melds; below zero when bots lay off badly (the random bot breaks its "
        "own melds to lay off)",
    ),
}


# Seconds after the page is built before the background warm-up starts: by then a visitor's
# browser has usually rendered the page (about 1-2 s on a quiet 2-core machine).
WARM_UP_DELAY_S = 3.0


def _import_heavy() -> None:
    import matplotlib.figure  # noqa: F401
    import pandas  # noqa: F401

    import payme.analysis.simulate
    import payme.analysis.stats  # noqa: F401


def _title(name: str) -> str:
    return PRESETS[name].title if name in PRESETS else name


def _short(name: str) -> str:
    """A Pay Me rule set's short name in words, from its title: ``Denexa``, ``Classic``.

    >>> _short("classic"), _short("three_pack")
    ('Classic', 'Rummy 3-Pack')
    """
    title = _title(name)
    inner = re.search(r"\((\w+)", title)
    return inner.group(1).capitalize() if inner else title


def figure_html(figure: Any, alt: str) -> str:
    """A matplotlib figure as an inline SVG ``<img>`` (no file, works offline), scaled to fit.

    SVG, because it stays sharp at any width and draws faster than a PNG (docs/benchmarks.md,
    *Measurements behind the code*); no ``bbox_inches="tight"``, because the figures'
    constrained layout already fits them (a tight box would draw each figure once more)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (
        f'<figure class="payme-plot"><img class="payme-analysis-plot" alt="{escape(alt)}" '
        f'src="data:image/svg+xml;base64,{data}">'
        f"<figcaption>{escape(alt)}</figcaption></figure>"
    )


def _plot(make: Any, df: Any, alt: str) -> str:
    """One plot, or a note saying why it could not be drawn (the other results still show)."""
    try:
        return figure_html(make(df), alt)
    except Exception as error:  # a plot's failure must not hide the tables
        return f'<p class="payme-analysis-note">{escape(alt)}: not drawn ({escape(str(error))})</p>'


def _measures(columns: Any, separate: bool = False) -> str:
    """The list under a table saying what each of its measures means (``separate``: the
    95% interval's ends are columns of their own, not in brackets beside the value)."""
    meanings = []
    for column in columns:
        if column in COLUMNS and not column.endswith(("_low", "_high")):
            info = COLUMNS[column]
            meanings.append(f"<li><b>{escape(info.label)}</b>: {escape(info.meaning)}.</li>")
    if any(c.endswith(("_low", "_high")) for c in columns):
        ends = "95% low / high" if separate else "(low–high)"
        meanings.append(
            f"<li><b>{ends}</b>: the 95% interval: the true value lies between them in 95 "
            "runs of 100; more games give narrower intervals.</li>"
        )
    return f'<ul class="payme-measures">{"".join(meanings)}</ul>'


def _cell(row: Mapping[str, Any], column: str) -> str:
    """A measure as one cell: ``44.2 (30.1–58.3)`` when it has a 95% interval."""
    fmt = COLUMNS[column].fmt
    value = row.get(column)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    text = fmt.format(value)
    stem = {"mean_total": "total", "win_rate": "win"}.get(column)
    low, high = (row.get(f"{stem}_low"), row.get(f"{stem}_high")) if stem else (None, None)
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return text
    return f"{text} ({fmt.format(low)}–{fmt.format(high)})"


def cards_table(
    caption: str, head: str, columns: list[str], rows: Sequence[tuple[str, Mapping[str, Any]]]
) -> str:
    """A table of measures (a row per bot or rule set), one cell per measure with its
    interval; on a phone each row becomes a card of label–value lines (payme.css), so
    nothing needs sideways scrolling."""
    heads = "".join(f'<th scope="col">{escape(_label(c))}</th>' for c in columns)
    body = "".join(
        f'<tr><th scope="row" data-label="{escape(head)}">{escape(name)}</th>'
        + "".join(
            f'<td data-label="{escape(_label(c))}"><span>{escape(_cell(row, c))}</span></td>'
            for c in columns
        )
        + "</tr>"
        for name, row in rows
    )
    return (
        f'<table class="payme-table payme-cards-table"><caption>{escape(caption)}</caption>'
        f'<thead><tr><th scope="col">{escape(head)}</th>{heads}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def _label(column: str) -> str:
    return COLUMNS[column].label if column in COLUMNS else column


def bot_table_html(lines: list[dict[str, Any]], caption: str) -> str:
    """Each bot's results (rows of :func:`payme.analysis.stats.strength`) as a table that
    reads on a phone: the final total and the wins each one cell with their 95% interval.

    >>> from payme.analysis.stats import strength
    >>> html = bot_table_html(strength([
    ...     {"game": 0, "seat": 0, "bot": "greedy", "total": 40, "won": True},
    ...     {"game": 1, "seat": 0, "bot": "greedy", "total": 60, "won": False}], ["greedy"]),
    ...     "Each bot's results")
    >>> "50.0 (30.4–69.6)" in html and "Greedy" in html
    True
    """
    if not lines:
        return ""
    wanted = ["mean_total", "win_rate", "mean_money", "games", "wins", "seats"]
    columns = [c for c in wanted if c in lines[0]]
    if "mean_total" in columns:
        columns.remove("seats")
    rows = [(str(line["bot"]).capitalize(), line) for line in lines]
    return cards_table(caption, "Bot", columns, rows) + _measures(
        [*columns, *(c for c in lines[0] if c.endswith(("_low", "_high")))]
    )


def compare_html(frame: Any, caption: str) -> str:
    """The rule sets compared (a frame of :func:`payme.analysis.stats.compare_rule_sets`)."""
    records = frame.reset_index().to_dict("records")
    columns = [c for c in frame.columns if c in COLUMNS and not c.endswith(("_low", "_high"))]
    rows = [(_short(str(r["rules"])), r) for r in records]
    return cards_table(caption, "Rule set", columns, rows) + _measures(list(frame.columns))


def styled_table(frame: Any, caption: str, index_label: str) -> str:
    """A pandas ``Styler`` table: human column names with units, numbers formatted, one line
    per measure saying what it means, inside a frame that scrolls sideways on a phone."""
    shown = frame.rename(
        index=lambda name: _title(str(name)) if name in PRESETS else str(name).capitalize()
    )
    labels = {c: COLUMNS[c].label if c in COLUMNS else c for c in shown.columns}
    formats = {labels[c]: COLUMNS[c].fmt for c in shown.columns if c in COLUMNS}
    shown = shown.rename(columns=labels)
    shown.index.name = index_label
    # The row names become the first column, so the head is one row of plain labels.
    styler = (
        shown.reset_index()
        .style.format(formats, na_rep="–")
        .hide(axis="index")
        .set_caption(escape(caption))
        .set_table_attributes('class="payme-table"')
    )
    return _framed(styler.to_html(), caption, list(frame.columns))


def _framed(table: str, caption: str, columns: list[str]) -> str:
    """A table in a frame that scrolls sideways on a phone, then one line per measure."""
    return (
        f'<div class="payme-table-frame" role="region" aria-label="{escape(caption)}" '
        f'tabindex="0">{table}</div>' + _measures(columns, separate=True)
    )


def plain_table(results: list[dict[str, Any]], caption: str) -> str:
    """Each bot's results (:func:`payme.analysis.plain.bot_results`) as the same table
    :func:`styled_table` draws, without pandas (the static site's Analysis page).

    >>> html = plain_table([{"bot": "greedy", "games": 2, "win_rate": 0.5}], "Results")
    >>> "<th>Wins (%)</th>" in html and "<td>50%</td>" in html and "Greedy" in html
    True
    """
    columns = [c for c in (results[0] if results else {}) if c != "bot"]
    head = "".join(f"<th>{escape(COLUMNS[c].label if c in COLUMNS else c)}</th>" for c in columns)
    body = []
    for row in results:
        cells = [f"<td>{escape(str(row['bot']).capitalize())}</td>"]
        for c in columns:
            value = row[c]
            shown = (
                "–" if value != value else COLUMNS[c].fmt.format(value) if c in COLUMNS else value
            )
            cells.append(f"<td>{escape(str(shown))}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    table = (
        f'<table class="payme-table"><caption>{escape(caption)}</caption>'
        f"<thead><tr><th>Bot</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )
    return _framed(table, caption, columns)


def frame_html(frame: Any, caption: str) -> str:
    """A table of results (bots or rule sets) as :func:`styled_table` draws it."""
    label = "Rule set" if frame.index.name == "rules" else "Bot"
    return styled_table(frame, caption, label)


def csv_link(frame: Any, name: str) -> str:
    """A download link carrying the frame as CSV in a data URL."""
    data = base64.b64encode(frame.to_csv(index=False).encode()).decode("ascii")
    return (
        f'<p><a class="payme-analysis-download" download="{escape(name)}" '
        f'href="data:text/csv;base64,{data}">Download every row ({len(frame):,} rows, CSV)</a>'
        "</p>"
    )


# A batch of games plays for about this long before the page updates and the kernel answers
# the browser (a Stop click, say); the first batch is one game, so the first figures come
# after one game.
BATCH_SECONDS = 0.25


def next_batch(size: int, seconds: float, target: float = BATCH_SECONDS) -> int:
    """How many games the next batch plays: the last batch's rate scaled to ``target``
    seconds, growing at most 4 times a step.

    >>> next_batch(1, 0.05), next_batch(8, 0.5), next_batch(8, 0.0)
    (4, 4, 32)
    """
    rate = size / max(seconds, 1e-6)
    return max(1, min(4 * size, int(rate * target)))


def _whole(text: object, label: str, low: int, high: int) -> int:
    """A whole number within ``low..high``, or a ValueError saying what is allowed."""
    value = str(text).strip()
    shown = value if len(value) <= 20 else value[:20] + "…"
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or not low <= number <= high:
        raise ValueError(
            f"{label} must be a whole number from {low:,} to {high:,}, not {shown or 'empty'}."
        )
    return number


class AnalysisPage:
    """The Analysis page's widgets; ``.widget`` is what to display."""

    def __init__(self) -> None:
        import ipywidgets as w

        from payme.widgets import MessageBox
        from payme.widgets.url_state import UrlState

        self.message = MessageBox()
        wide = {"description_width": "initial"}
        self.rules_box = w.Dropdown(
            options=[(r.title, name) for name, r in PRESETS.items()],
            value="denexa",
            description="Rule set",
            style=wide,
            layout=w.Layout(width="auto", max_width="100%"),
        )
        self.players_box = w.IntText(value=3, description="Players", style=wide)
        self.players_limit = w.HTML()
        self.bots_box = w.Text(
            value="strong, greedy, random",
            description="Bots",
            placeholder="e.g. strong, greedy, random",
            style=wide,
            layout=w.Layout(width="24em", max_width="100%"),
        )
        self.games_box = w.IntText(value=20, description="Games", style=wide)
        self.seed_box = w.IntText(value=7, description="Seed", style=wide)
        self.compare_box = w.Checkbox(
            value=False,
            description="Also play the same games under all three Pay Me rule sets",
            indent=False,
            layout=w.Layout(width="auto", max_width="100%"),
        )
        for box in (self.players_box, self.games_box, self.seed_box):
            box.layout.width = "15em"
        self.run_button = w.Button(
            description="Run",
            icon="play",
            button_style="primary",
            tooltip="Play the games and show the results",
        )
        self.stop_button = w.Button(
            description="Stop", icon="stop", tooltip="End the run now", disabled=True
        )
        self.progress = w.IntProgress(value=0, min=0, max=1, description="Progress")
        self.progress.style.description_width = "initial"
        self.progress_text = w.HTML()
        self.results = w.HTML(layout=w.Layout(max_width="100%"))
        self.url = UrlState()
        for widget, cls in (
            (self.rules_box, "payme-analysis-rules"), (self.players_box, "payme-analysis-players"),
            (self.bots_box, "payme-analysis-bots"), (self.games_box, "payme-analysis-games"),
            (self.seed_box, "payme-analysis-seed"), (self.compare_box, "payme-analysis-compare"),
            (self.run_button, "payme-analysis-run"), (self.stop_button, "payme-analysis-stop"),
            (self.progress, "payme-analysis-progress"),
            (self.progress_text, "payme-analysis-progress-text"),
            (self.results, "payme-analysis-results"),
        ):  # fmt: skip
            widget.add_class(cls)
        # Without pandas (the static site: Python in the browser) the results are drawn by
        # payme itself (payme.analysis.plain, payme.display.charts), and a run plays in the
        # kernel's one thread (a browser's Python starts none), as everywhere (self.start).
        self.plain = importlib.util.find_spec("pandas") is None
        if self.plain:
            self.compare_box.description += " (in the server version of the app)"
        self._running = False
        self._stop_asked = False
        self.task: asyncio.Task[None] | None = None
        """The run in progress on the kernel's event loop (``None`` when run directly)."""
        self._quiet = False
        self._show_limits()
        self._wire()
        wrap = w.Layout(flex_flow="row wrap", align_items="center", max_width="100%")

        def hint(text: str) -> Any:
            note = w.HTML(f'<span class="payme-limit">{escape(text)}</span>')
            note.add_class("payme-analysis-limit")
            return note

        self.widget = w.VBox(
            [
                w.HBox([self.rules_box], layout=wrap),
                w.HBox([self.players_box, self.players_limit], layout=wrap),
                w.HBox(
                    [
                        self.bots_box,
                        hint(f"{joined(bot_names(), 'or')}; one per seat, or one for all"),
                    ],
                    layout=wrap,
                ),
                w.HBox([self.games_box, hint(f"1 to {PAGE_MAX_GAMES:,}")], layout=wrap),
                w.HBox(
                    [self.seed_box, hint("0 to 1,000,000,000; the same seed plays the same games")],
                    layout=wrap,
                ),
                self.compare_box,
                w.HBox(
                    [self.run_button, self.stop_button, self.progress, self.progress_text],
                    layout=wrap,
                ),
                self.message,
                self.results,
                self.url,
            ],
            layout=w.Layout(max_width="100%"),
        )
        self.widget.add_class("payme-analysis")
        self.url.update(self.settings_query(), push=False)

    def _wire(self) -> None:
        from payme.widgets import guarded

        guard = guarded(self.message)
        self.run_button.on_click(guard(lambda _b: self.start()))
        self.stop_button.on_click(guard(lambda _b: self.stop()))
        for box in (self.rules_box, self.compare_box):
            box.observe(guard(lambda _c: self._show_limits()), names="value")
        for box in (
            self.rules_box, self.players_box, self.bots_box, self.games_box, self.seed_box,
            self.compare_box,
        ):  # fmt: skip
            box.observe(guard(self._settings_changed), names="value")
        self.url.on_navigate(guard(self.apply_query))

    def _show_limits(self) -> None:
        r = PRESETS[self.rules_box.value]
        most = r.max_players
        note = "for these rules"
        if self.compare_box.value and _comparable(r):
            most = min(PRESETS[name].max_players for name in _COMPARED)
            note = "to compare the rule sets"
        self.players_limit.value = (
            f'<span class="payme-limit">{r.min_players} to {most} {note}</span>'
        )
        self.compare_box.disabled = self.plain or not _comparable(r)

    def _settings_changed(self, _change: Any = None) -> None:
        if not self._quiet:
            self.url.update(self.settings_query())

    # ------------------------------------------------------------------ settings and URL

    def settings_query(self) -> str:
        """The URL query that reopens the page with these settings."""
        params: dict[str, str] = {
            "rules": str(self.rules_box.value),
            "players": str(self.players_box.value),
            "bots": str(self.bots_box.value),
            "games": str(self.games_box.value),
            "seed": str(self.seed_box.value),
        }
        if self.compare_box.value:
            params["compare"] = "1"
        return urlencode(params, safe=",")

    def apply_query(self, query: Mapping[str, str]) -> None:
        """Settings from the URL (``?rules=family&players=3&bots=greedy&games=50&seed=1``).

        A bad value is a message naming it and what is allowed; the other settings still
        apply.
        """
        problems = []
        self._quiet = True
        try:
            if "rules" in query:
                if query["rules"] in PRESETS:
                    self.rules_box.value = query["rules"]
                else:
                    problems.append(
                        f"there is no rule set called {query['rules'][:30]!r}; the rule sets "
                        f"are {', '.join(r.title for r in PRESETS.values())}"
                    )
            for key, box, low, high in (
                ("players", self.players_box, 2, 10),
                ("games", self.games_box, 1, PAGE_MAX_GAMES),
                ("seed", self.seed_box, 0, MAX_SEED),
            ):
                if key in query:
                    try:
                        box.value = _whole(query[key], key.capitalize(), low, high)
                    except ValueError as error:
                        problems.append(str(error).rstrip("."))
            if "bots" in query:
                self.bots_box.value = query["bots"]
            self.compare_box.value = query.get("compare") == "1"
        finally:
            self._quiet = False
        self.url.update(self.settings_query(), push=False)
        if problems:
            self.message.error("Link: " + "; ".join(problems) + ".")

    def check_settings(self) -> tuple[str, int, list[str], int, int]:
        """The settings, checked: rule set, players, bots (one per seat), games, seed.

        Each bad value raises a ValueError naming it and what is allowed.
        """
        rules = str(self.rules_box.value)
        r = PRESETS[rules]
        players = _whole(self.players_box.value, "Players", r.min_players, r.max_players)
        if self.compare_box.value and _comparable(r):
            most = min(PRESETS[name].max_players for name in _COMPARED)
            if players > most:
                raise ValueError(
                    f"Comparing the three Pay Me rule sets needs 2 to {most} players (the most "
                    f"every one of them allows), not {players}."
                )
        games = _whole(self.games_box.value, "Games", 1, PAGE_MAX_GAMES)
        seed = _whole(self.seed_box.value, "Seed", 0, MAX_SEED)
        from payme.game import BOT_NAMES

        bots = [b.strip().lower() for b in str(self.bots_box.value).replace(",", " ").split()]
        if not bots:
            raise ValueError(f"Name at least one bot: {joined(BOT_NAMES, 'or')}.")
        unknown = [b for b in bots if b not in BOT_NAMES]
        if unknown:
            name = unknown[0] if len(unknown[0]) <= 20 else unknown[0][:20] + "…"
            raise ValueError(f"There is no bot called {name!r}: use {joined(BOT_NAMES, 'or')}.")
        if len(bots) not in (1, players):
            raise ValueError(
                f"{players} players need {players} bots (one per seat) or one for all, "
                f"not {len(bots)}."
            )
        return rules, players, bots * players if len(bots) == 1 else bots, games, seed

    # ------------------------------------------------------------------ running

    def warm_up(self, background: bool = True, delay: float = WARM_UP_DELAY_S) -> None:
        """Import pandas, matplotlib and the statistics ahead of the end of the first run.

        In the background by default: after ``delay`` seconds on the kernel's event loop (no
        thread; a page in the browser has none), since the imports (a second or more of CPU)
        would otherwise compete with the page's first render.  Without a running event loop
        (plain Python) nothing is done; a run imports them when it needs them.

        >>> AnalysisPage().warm_up(background=False)
        >>> import sys; "pandas" in sys.modules
        True
        """
        if self.plain:
            return  # nothing heavy to import
        if not background:
            _import_heavy()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_later(delay, _import_heavy)

    def start(self) -> None:
        """Check the settings and start the run on the kernel's event loop: it plays a batch
        of games, shows the results so far, and lets the kernel answer the browser (Stop)
        before the next batch.  Without a running event loop the run plays at once.

        A second click while a run goes on does nothing (the button is disabled too).
        """
        if self._running:
            return
        settings = self._checked()
        if settings is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        session = self._session(*settings)
        if loop is None:
            for _ in session:
                pass
            return
        self.task = loop.create_task(self._play(session))

    @staticmethod
    async def _play(session: Iterator[None]) -> None:
        for _ in session:
            # Let the kernel handle what the browser sent meanwhile (a Stop click).
            await asyncio.sleep(0)

    def stop(self) -> None:
        """Ask the run to end after the batch of games being played; the games played so
        far stay on show."""
        if self._running:
            self._stop_asked = True
            self.message.info("Stopping…")

    async def wait(self) -> None:
        """Wait for the run on the event loop to end (tests, notebooks)."""
        if self.task is not None:
            await self.task

    def run(self) -> None:
        """Play the games now, in this thread, and show the results."""
        settings = self._checked()
        if settings is None:
            return
        for _ in self._session(*settings):
            pass

    def _checked(self) -> tuple[str, int, list[str], int, int] | None:
        """The checked settings, or ``None`` after saying what is wrong (old results go:
        they would sit under a message about other settings)."""
        try:
            return self.check_settings()
        except ValueError as error:
            self.results.value = ""
            self.message.error(str(error))
            return None

    def _session(self, *settings: Any) -> Iterator[None]:
        """The run, a batch of games per step; any failure becomes a message.  The page is
        marked running at once (a second Run click before the first batch does nothing)."""
        self._running, self._stop_asked = True, False
        self.run_button.disabled = True
        self.stop_button.disabled = False
        self.stop_button.button_style = "danger"
        return self._batches(*settings)

    def _batches(self, *settings: Any) -> Iterator[None]:
        try:
            yield from self._steps(*settings)
        except Exception as error:  # the page keeps working after any failure
            from payme.widgets.messages import describe_error

            self.message.error(describe_error(error))
        finally:
            self._running = False
            self.run_button.disabled = False
            self.stop_button.disabled = True
            self.stop_button.button_style = ""

    def _steps(
        self, rules: str, players: int, seats: list[str], games: int, seed: int
    ) -> Iterator[None]:
        from payme.analysis import simulate as sim
        from payme.analysis.stats import final_records

        compare = bool(self.compare_box.value) and _comparable(PRESETS[rules]) and not self.plain
        runs = list(_COMPARED) if compare else [rules]
        if rules not in runs:
            runs.insert(0, rules)
        each = " each" if len(runs) > 1 else ""
        names = ", ".join(_short(n) for n in runs) if each else _title(rules)
        self.message.info(
            f"Playing {games:,} game{'s' if games != 1 else ''}{each} of {names}, "
            f"with {', '.join(seats)}…"
        )
        self.results.value = ""
        plans = {name: sim.plan(games, name, players, seats, seed) for name in runs}
        rows: dict[str, list[Any]] = {name: [] for name in runs}
        records: list[dict[str, Any]] = []  # the main rule set's, one per game × seat
        played = 0
        for name in runs:
            plan = plans[name]
            columns = [c for c, _ in plan.columns]
            self.progress.description = _short(name)
            self.progress.max = games
            done, size = 0, 1
            while done < games and not self._stop_asked:
                n = min(size, games - done)
                began = time.perf_counter()
                batch = sim.play_batch(plan, done, done + n)
                size = next_batch(n, time.perf_counter() - began)
                rows[name].extend(batch)
                done += n
                self.progress.value = done
                self.progress_text.value = f"{done:,} of {games:,} games"
                if name == rules:
                    played = done
                    dicts = [dict(zip(columns, row, strict=True)) for row in batch]
                    records.extend(dicts if "winner" in columns else final_records(dicts))
                    self._show_so_far(plan, records, done, games)
                yield
            if self._stop_asked:
                break
        if not records:
            self.results.value = ""
            self.message.info("Stopped before the first game ended: no results.")
            return
        self._show_final(rules, plans, rows, records, played, games, names, each)

    def _bot_lines(self, plan: Any, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        from payme.analysis.simulate import bot_names as known
        from payme.analysis.stats import strength

        return strength(records, [*known(), *plan.bots])

    def _show_so_far(self, plan: Any, records: list[dict[str, Any]], done: int, games: int) -> None:
        """Each bot's results over the games played so far (pure Python: no pandas yet)."""
        if done == games:
            return  # the final results follow at once
        caption = (
            f"Each bot's results so far: {_title(plan.rules.name)}, {done:,} of {games:,} games"
        )
        self.results.value = (
            bot_table_html(self._bot_lines(plan, records), caption)
            + '<p class="payme-analysis-note">The figures fill in as games finish; the plots '
            "and the download come when the run ends.</p>"
        )

    def _show_final(
        self,
        rules: str,
        plans: dict[str, Any],
        rows: dict[str, list[Any]],
        records: list[dict[str, Any]],
        played: int,
        games: int,
        names: str,
        each: str,
    ) -> None:
        stopped = played < games
        if self.plain:
            self._show_plain(rules, plans[rules], rows[rules], records, played, games)
            return
        from payme.analysis import stats
        from payme.analysis.simulate import to_frame

        frames = {n: to_frame(plans[n], r) for n, r in rows.items() if r}
        df = frames[rules]
        caption = f"Each bot's results: {_title(rules)}" + (
            f", {played:,} of {games:,} games (stopped)" if stopped else ""
        )
        parts = [csv_link(df, f"payme-{rules}-{played}-games.csv")]
        parts.append(bot_table_html(self._bot_lines(plans[rules], records), caption))
        if stats.is_three_pack(df):
            parts.append(_plot(stats.plot_bot_strength, df, "Win rate of each bot"))
        else:
            parts.append(_plot(stats.plot_bot_strength, df, "Final total of each bot"))
            parts.append(_plot(stats.plot_mean_penalty_by_hand, df, "Mean penalty by hand"))
            parts.append(_plot(stats.plot_go_out_chance, df, "Chance of going out by turn"))
            if len(frames) > 1 and not stopped:
                parts.append(
                    compare_html(stats.compare_rule_sets(frames), "The rule sets compared")
                )
                parts.append(_plot(stats.plot_rule_sets, frames, "The rule sets compared"))
        self.results.value = "".join(parts)
        if stopped:
            self.message.info(
                f"Stopped after {played:,} of {games:,} game{'s' if games != 1 else ''}: the "
                f"results below are from those; {len(df):,} rows to download."
            )
            return
        self.message.ok(
            f"Done: {games:,} game{'s' if games != 1 else ''}{each} of {names}; "
            f"{len(df):,} rows to download."
        )

    def _show_plain(
        self,
        rules: str,
        plan: Any,
        played_rows: list[Any],
        records: list[dict[str, Any]],
        played: int,
        games: int,
    ) -> None:
        """The final results without pandas or matplotlib: tables and charts drawn by payme
        (the static site's Analysis page)."""
        from payme.analysis import plain
        from payme.display.charts import bar_chart, line_chart

        columns = [c for c, _ in plan.columns]
        rows = [dict(zip(columns, row, strict=True)) for row in played_rows]
        stopped = played < games
        caption = f"Each bot's results: {_title(rules)}" + (
            f", {played:,} of {games:,} games (stopped)" if stopped else ""
        )
        results = self._bot_lines(plan, records)
        parts = [_csv_rows_link(rows, f"payme-{rules}-{played}-games.csv")]
        parts.append(bot_table_html(results, caption))
        if "mean_total" in results[0]:
            bars = [(r["bot"], r["mean_total"], r["total_low"], r["total_high"]) for r in results]
            title = "Final total of each bot"
            parts.append(_chart(bar_chart(bars, title=title, unit="points"), title))
            title = "Mean penalty by hand"
            lines = plain.penalty_by_hand(rows)
            chart = line_chart(lines, title=title, x_label="hand", unit="points")
            parts.append(_chart(chart, title))
        else:
            bars = [
                (r["bot"], 100 * r["win_rate"], 100 * r["win_low"], 100 * r["win_high"])
                for r in results
            ]
            title = "Win rate of each bot"
            parts.append(_chart(bar_chart(bars, title=title, unit="% of games"), title))
        self.results.value = "".join(parts)
        plural = "s" if games != 1 else ""
        if stopped:
            self.message.info(
                f"Stopped after {played:,} of {games:,} game{plural}: the results below are "
                f"from those; {len(rows):,} rows to download."
            )
            return
        self.message.ok(
            f"Done: {games:,} game{plural} of {_title(rules)}; {len(rows):,} rows to download."
        )


def _chart(svg: str, caption: str) -> str:
    """An SVG chart drawn by payme, as :func:`figure_html` frames a matplotlib one."""
    return (
        f'<figure class="payme-plot payme-analysis-plot">{svg}'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def _csv_rows_link(rows: list[dict[str, Any]], name: str) -> str:
    """:func:`csv_link` for rows as dicts (no pandas)."""
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    data = base64.b64encode(buffer.getvalue().encode()).decode("ascii")
    return (
        f'<p><a class="payme-analysis-download" download="{escape(name)}" '
        f'href="data:text/csv;base64,{data}">Download every row ({len(rows):,} rows, CSV)</a>'
        "</p>"
    )


__getattr__ = renamed(
    "payme.widgets.analysis", {"MAX_GAMES": "payme.widgets.analysis:PAGE_MAX_GAMES"}
)
