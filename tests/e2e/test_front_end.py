"""The pages' light front end (payme.app.front_end, the default) beyond what the app's pages
use today: a notebook's Output widget works as with Voilà's front end.

What it shows when the page arrives (printed into it while the notebook ran) is there, and
what a button's callback prints or displays into it while the page is open is captured from
the kernel's messages and shown; the page logs no error or warning.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import expect

from .conftest import VoilaServer, wait_ready

OUTPUT_NOTEBOOK = """\
import ipywidgets as w
from IPython.display import HTML, display

out = w.Output()
button = w.Button(description="Say")

def say(_):
    with out:
        print("said from a callback")
        display(HTML("<b class='said'>in bold</b>"))

button.on_click(say)
with out:
    print("printed while the page was built")
w.VBox([button, out])
"""


@pytest.fixture(scope="module")
def output_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    folder = tmp_path_factory.mktemp("output-notebook")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(OUTPUT_NOTEBOOK)]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, folder / "output.ipynb")
    server = VoilaServer(folder, Path(folder) / "log").start()
    try:
        yield server
    finally:
        server.stop()


def test_an_output_widget_shows_what_is_printed_into_it(
    output_server: VoilaServer, page: Any, page_errors: list[str]
) -> None:
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.goto(output_server.page_url("output"), wait_until="domcontentloaded")
    wait_ready(page, ".jupyter-widgets button")
    area = page.locator(".widget-output")
    expect(area).to_contain_text("printed while the page was built")
    page.get_by_role("button", name="Say").click()
    expect(area.locator("b.said")).to_have_text("in bold")
    expect(area).to_contain_text("said from a callback")
    assert not page.locator("script[src*='voila.js']").count()
    assert page_errors == [] and warnings == []
