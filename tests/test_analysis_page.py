"""The Analysis page's settings, messages and Stop, without a browser."""

from __future__ import annotations

import time
from html import escape

import pytest

from payme.widgets.analysis import COLUMNS, AnalysisPage
from tests.loop_helpers import run_in_own_loop


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("games_box", 0, "Games must be a whole number from 1 to 2,000, not 0."),
        ("games_box", -5, "Games must be a whole number from 1 to 2,000, not -5."),
        ("games_box", 2001, "Games must be a whole number from 1 to 2,000, not 2001."),
        ("players_box", 9, "Players must be a whole number from 2 to 8, not 9."),
        ("seed_box", -1, "Seed must be a whole number from 0 to 1,000,000,000, not -1."),
    ],
)
def test_settings_outside_their_limits_are_errors(field: str, value: int, said: str) -> None:
    page = AnalysisPage()
    getattr(page, field).value = value
    with pytest.raises(ValueError) as caught:
        page.check_settings()
    assert str(caught.value) == said
    page.run()  # from the page: the message, and no results
    assert page.message.kind == "error" and page.message.text == said
    assert page.results.value == ""


def test_players_limit_follows_the_rule_set() -> None:
    page = AnalysisPage()
    assert "2 to 8" in page.players_limit.value
    page.rules_box.value = "classic"
    assert "2 to 6" in page.players_limit.value
    page.rules_box.value = "three_pack"
    assert "2 to 10" in page.players_limit.value and page.compare_box.disabled


def test_bots_are_checked_by_name_and_count() -> None:
    page = AnalysisPage()
    page.bots_box.value = "strong, " + "x" * 500
    with pytest.raises(ValueError, match=r"no bot called 'x{20}…'"):
        page.check_settings()
    page.bots_box.value = "strong, greedy"
    with pytest.raises(ValueError, match="3 players need 3 bots"):
        page.check_settings()


def test_compare_mode_names_every_rule_set_in_words() -> None:
    page = AnalysisPage()
    page.apply_query({"games": "2", "players": "2", "bots": "greedy", "compare": "1"})
    page.run()
    assert (
        page.message.text == "Done: 2 games each of Denexa, Classic, Family; 44 rows to download."
    )
    html = page.results.value
    for column in ("Saved by laying off (points)", "Hands someone went out (%)"):
        assert column in html
    # Each measure is explained once, under its table.
    assert escape(COLUMNS["lay_off_saving"].meaning) in html
    assert "lay_off_saving" not in html and "denexa" not in html.replace("payme-denexa", "")


def test_settings_round_trip_through_the_address() -> None:
    page = AnalysisPage()
    page.apply_query({"rules": "family", "players": "4", "bots": "greedy", "games": "50"})
    query = page.settings_query()
    other = AnalysisPage()
    from urllib.parse import parse_qsl

    other.apply_query(dict(parse_qsl(query)))
    assert other.settings_query() == query
    assert page.url.query == query  # the address bar follows


def test_a_run_on_the_event_loop_streams_results_and_stops_keeping_them() -> None:
    # No thread: the run is a task on the event loop (the kernel's in Voila, the browser's
    # under Pyodide); it yields after each batch, so Stop is heard and the table fills in.
    import asyncio

    page = AnalysisPage()
    page.apply_query({"games": "2000", "players": "2", "bots": "greedy, random", "seed": "3"})
    seen: list[tuple[float, str]] = []

    async def scenario() -> None:
        began = time.perf_counter()
        page.start()
        page.start()  # a second click while running does nothing
        assert page.task is not None and page.run_button.disabled
        while "so far" not in page.results.value:
            await asyncio.sleep(0.01)
        seen.append((time.perf_counter() - began, page.results.value))
        page.stop()
        await page.wait()

    run_in_own_loop(scenario())
    first, table = seen[0]
    assert "results so far: Pay Me (Denexa rules)" in table
    assert "Greedy" in table and "Random" in table and "(" in table  # with intervals
    assert first < 5  # one game (a loaded machine; about 0.05 s when quiet)
    assert page.message.text.startswith("Stopped after ")
    assert "of 2,000 games: the results below are from those" in page.message.text
    assert "(stopped)" in page.results.value and "payme-analysis-download" in page.results.value
    assert not page.run_button.disabled and page.stop_button.disabled


def test_stop_before_the_first_game_ends_shows_no_results() -> None:

    page = AnalysisPage()
    page.apply_query({"games": "5", "players": "2", "bots": "random"})

    async def scenario() -> None:
        page.start()
        page.stop()  # before the task's first batch
        await page.wait()

    run_in_own_loop(scenario())
    assert page.message.text == "Stopped before the first game ended: no results."
    assert page.results.value == "" and not page.run_button.disabled


def test_compare_mode_states_its_player_limit() -> None:
    page = AnalysisPage()
    page.apply_query({"players": "8", "compare": "1"})
    page.run()
    assert page.message.text == (
        "Comparing the three Pay Me rule sets needs 2 to 6 players (the most every one of "
        "them allows), not 8."
    )


def test_a_plot_is_an_inline_svg_image_with_its_words() -> None:
    import base64
    import re

    from matplotlib.figure import Figure

    from payme.widgets.analysis import figure_html

    fig = Figure(figsize=(3, 2), layout="constrained")
    ax = fig.subplots()
    ax.plot([1, 2, 3], [3, 1, 2])
    ax.set_title("Penalty <points>")
    html = figure_html(fig, 'Mean penalty by hand "3 players"')
    found = re.search(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    assert found, html[:200]
    svg = base64.b64decode(found.group(1)).decode("utf-8")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "</svg>" in svg
    assert "<dc:date>" not in svg  # no timestamp: the same run gives the same page
    assert 'alt="Mean penalty by hand &quot;3 players&quot;"' in html
    assert "<figcaption>Mean penalty by hand &quot;3 players&quot;</figcaption>" in html


def test_without_pandas_the_run_streams_and_ends_with_payme_drawn_results() -> None:
    # The static site's path (Python in the browser, no pandas): the same batches, the same
    # responsive table, charts drawn by payme; Stop is offered there too (no thread needed).
    page = AnalysisPage()
    page.plain = True
    page.apply_query({"games": "3", "players": "2", "bots": "greedy, random"})
    page.run()
    assert page.message.text == "Done: 3 games of Pay Me (Denexa rules); 66 rows to download."
    assert "payme-cards-table" in page.results.value
    assert page.results.value.count("payme-analysis-plot") == 2
    assert page.stop_button.layout.display != "none"
