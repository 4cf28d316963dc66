"""The static site's Python side (``make static``), checked here on the server's Python: the
shell that runs the app's pages in one kernel, the pandas-free Analysis results, what the
package says in a browser, and the pure-Python wheel the site installs."""

from __future__ import annotations

import math
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from payme.analysis import plain, stats
from payme.analysis.simulate import simulate
from payme.app import page as app_page
from payme.app.page import PAGES, landing_html, query_params
from payme.app.static_site import Shell, run_page
from tests.loop_helpers import run_in_own_loop

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "static"))
import build as static_build  # noqa: E402


def test_the_shell_runs_every_page_of_the_app_with_its_query() -> None:
    pages = static_build.app_pages()
    assert set(pages) == {"index", *(Path(p.notebook).stem for p in PAGES)}
    # The pages' notebook code, less the JupyterLab-only cells, nbval's and page_ready().
    for name, cells in pages.items():
        assert cells, name
        assert not any("page_ready()" in c.splitlines()[-1] for c in cells), name
        assert not any("NBVAL_CHECK_OUTPUT" in c for c in cells), name
    shown = run_page("hand_builder", ["from payme.app.page import query_params", "query_params()"])
    assert shown == [{}]
    shell = Shell(
        {"index": ["1"], "puzzles": ["from payme.app.page import query_params\nquery_params()"]}
    )
    shell.open("puzzles?id=denexa-7-discard-42&x=%20y")
    assert shell.current == "puzzles"
    assert shell.shown == [{"id": "denexa-7-discard-42", "x": " y"}]
    assert query_params() == {}  # the query was the page's alone
    shell.open("nowhere?x=1")
    assert shell.problem == "There is no page called 'nowhere' here." and shell.current == "puzzles"


def test_a_page_that_fails_leaves_the_shell_working() -> None:
    shell = Shell({"index": ["1"], "bad": ["1 / 0"]})
    shell.open("bad")
    assert shell.current == "" and shell._built == {}
    shell.open("index")
    assert shell.current == "index"


def test_in_a_browser_links_go_to_the_site_pages_and_no_compiler_is_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from payme.solver import backend

    monkeypatch.setattr(sys, "platform", "emscripten")
    assert app_page.under_static_site()
    text = landing_html()
    for p in PAGES:
        name = p.notebook.removesuffix(".ipynb")
        assert f'href="{name}.html"' in text
    assert ".ipynb" not in text
    assert 'src="../../img/hand.svg"' in text
    assert app_page.home_url() == "index.html"
    if backend.CORE is None and not backend.STALE:
        monkeypatch.delenv("PAYME_SOLVER", raising=False)
        said = backend.describe()
        assert "browser" in said and "gcc" not in said and "compiler" not in said


def test_plain_results_match_the_pandas_ones() -> None:
    for rules, bots in (("family", ["strong", "greedy", "random"]), ("three_pack", ["greedy"] * 3)):
        rows = plain.play_rows(4, rules, 3, bots, seed=3)
        df = simulate(4, rules, 3, bots, seed=3, workers=1)
        assert len(rows) == len(df)
        expected = stats.bot_strength(df)
        got = {row["bot"]: row for row in plain.bot_results(rows)}
        assert list(got) == [str(b) for b in expected.index]
        for bot, row in expected.iterrows():
            for column, value in row.items():
                mine = got[str(bot)][column]
                assert (math.isnan(value) and math.isnan(mine)) or mine == pytest.approx(value), (
                    rules,
                    bot,
                    column,
                )
        if rules == "family":
            by_hand = stats.mean_penalty_by_hand(df, by_bot=True)
            for bot, line in plain.penalty_by_hand(rows).items():
                assert [m for _h, m in line] == pytest.approx(list(by_hand[bot]))


def test_the_analysis_page_without_pandas_shows_tables_and_plots() -> None:
    from payme.widgets.analysis import AnalysisPage

    page = AnalysisPage()
    page.plain = True
    page.apply_query({"rules": "denexa", "players": "2", "bots": "greedy,random", "games": "2"})

    async def in_the_browser() -> None:  # Pyodide's page has a running event loop
        page.start()
        await page.wait()

    run_in_own_loop(in_the_browser())
    html = page.results.value
    assert html.count("<svg") == 2 and "<table" in html and "Download every row (44 rows" in html
    assert "Done: 2 games" in page.message.value


def test_the_pure_python_wheel(tmp_path: Path) -> None:
    """PAYME_PURE=1 builds the wheel the browser installs: py3-none-any, no compiled code
    (a few seconds; in the fast tiers, the pure-Python one among them)."""
    wheel = static_build.payme_wheel(tmp_path)
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        tags = archive.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
    assert "Root-Is-Purelib: true" in tags and "Tag: py3-none-any" in tags
    assert not [n for n in names if n.endswith((".so", ".pyd", ".dylib"))]
    assert "payme/app/static_site.js" in names and "payme/analysis/plain.py" in names


def test_the_build_reads_wheels_for_the_browser(tmp_path: Path) -> None:
    wheel = static_build.stand_in_wheel("jedi", "0.19.2", tmp_path)
    entry = static_build.lock_entry(wheel)
    assert entry["name"] == "jedi" and entry["depends"] == [] and entry["imports"] == []
    subprocess.run([sys.executable, "-m", "zipfile", "-t", str(wheel)], check=True)
