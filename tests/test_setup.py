"""The project's set-up: how notebooks are stored, what ships, how the app is configured."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import nbformat
import pytest

from payme.app.page import PAGES

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


def _is_app_page(path: Path) -> bool:
    """A notebook the app serves as a page; one marked ``"payme": {"app_page": false}`` in
    its metadata is for JupyterLab only (explore_with_python.ipynb, a tour of the API)."""
    meta = nbformat.read(path, as_version=4).metadata
    return bool(meta.get("payme", {}).get("app_page", True))


PAGE_NOTEBOOKS = [p for p in NOTEBOOKS if _is_app_page(p)]


def test_there_are_notebooks() -> None:
    assert (REPO / "notebooks" / "index.ipynb") in PAGE_NOTEBOOKS
    # The tour of the API for JupyterLab (run by nbval) is no page of the app.
    assert [p.name for p in NOTEBOOKS if p not in PAGE_NOTEBOOKS] == ["explore_with_python.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_stored_without_outputs(path: Path) -> None:
    """Outputs are stripped, except cells tagged keep_output (checked by nbval)."""
    nb = nbformat.read(path, as_version=4)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "keep_output" in cell.metadata.get("tags", []):
            continue
        assert cell.outputs == [], f"{path.name} cell {index} has stored outputs"
        assert cell.execution_count is None, f"{path.name} cell {index} has an execution count"
    assert "widgets" not in nb.metadata, f"{path.name} stores widget state"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_on_the_standard_kernel(path: Path) -> None:
    # Voilà starts the kernel named in the notebook; only python3 exists on a fresh machine.
    nb = nbformat.read(path, as_version=4)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("path", PAGE_NOTEBOOKS, ids=lambda p: p.name)
def test_page_ends_with_page_ready(path: Path) -> None:
    """Every page locks its kernel against code sent from the browser as its last step."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, f"{path.name} has no code"
    assert "page_ready()" in code[-1].source, f"{path.name}: last code cell lacks page_ready()"


def test_landing_page_links_every_notebook() -> None:
    linked = {page.notebook for page in PAGES}
    present = {p.name for p in PAGE_NOTEBOOKS} - {"index.ipynb"}
    assert present <= linked, f"not linked from the landing page: {present - linked}"


def test_static_landing_page_links_every_page() -> None:
    """payme/app/static/index.html (served at /) links every page, relative to /, same tab."""
    import html.parser

    class Links(html.parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.links: list[dict[str, str | None]] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "a":
                self.links.append(dict(attrs))

    parser = Links()
    parser.feed((REPO / "payme" / "app" / "static" / "index.html").read_text())
    hrefs = {link.get("href") for link in parser.links}
    assert {f"voila/render/{page.notebook}" for page in PAGES} <= hrefs
    assert all("target" not in link for link in parser.links)


def _run(code: str, cwd: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_import_payme_is_light(tmp_path: Path) -> None:
    # Run from outside the repository: the kernels of the app start in notebooks/, so the
    # package must be installed, not merely found in the working directory.
    heavy = ["pandas", "numpy", "ipywidgets", "IPython", "matplotlib", "voila", "dask"]
    out = _run(
        "import sys, payme, payme.app.page, payme.app.server\n"
        f"print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
        "print(payme.__file__)",
        tmp_path,
    )
    loaded, location = out.splitlines()
    assert loaded == "[]"
    assert Path(location).resolve() == (REPO / "payme" / "__init__.py").resolve()


def test_package_is_typed() -> None:
    assert files("payme").joinpath("py.typed").is_file()
    pyproject = (REPO / "pyproject.toml").read_text()
    # The wheel ships the whole folder, py.typed too.
    assert 'include = ["payme", "payme.*"]' in pyproject
    assert 'payme = ["**/*"]' in pyproject


def test_app_settings() -> None:
    config = json.loads((REPO / "payme" / "app" / "voila.json").read_text())
    assert config["Voila"]["ip"] == "127.0.0.1"
    voila = config["VoilaConfiguration"]
    assert voila["show_tracebacks"] is False
    assert voila["strip_sources"] is True
    assert voila["template"] == "payme"
    template = REPO / "payme" / "app" / "share" / "jupyter" / "voila" / "templates" / "payme"
    assert (template / "index.html.j2").is_file()
    assert (REPO / "payme" / "app" / "static" / "payme.css").is_file()


def test_kernel_settings_bound_the_kernels() -> None:
    """No kernel outlives its page for long, and a dead one is not restarted without its lock."""
    config = json.loads((REPO / "payme" / "app" / "voila.json").read_text())
    culling = config["MappingKernelManager"]
    assert culling["cull_idle_timeout"] == 30  # a page that never connects, or has gone
    assert culling["cull_connected"] is False  # connected pages: PaymeVoila.idle_timeout
    assert culling["cull_interval"] <= 10
    assert config["KernelRestarter"]["restart_limit"] == 0


def test_make_app_listens_on_loopback_by_default() -> None:
    result = subprocess.run(
        ["make", "-n", "app"], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    serve = [line for line in result.stdout.splitlines() if "payme.app.server" in line]
    assert serve and "--Voila.ip=127.0.0.1" in serve[-1]


def test_page_render_waits_for_every_output() -> None:
    """A page's render collects each cell's outputs until the kernel says it is idle.

    nbclient gives up after ``iopub_timeout`` seconds (4 by default) and renders the page
    without the outputs still on the way; on a busy machine that left a page showing only
    "Setting up the page…" (the load benchmark's "no page"). voila.json raises it, and the
    setting reaches the executor Voilà builds with the app's configuration.
    """
    import nbformat
    from traitlets.config.loader import JSONFileConfigLoader
    from voila.execute import VoilaExecutor

    config = JSONFileConfigLoader("voila.json", str(REPO / "payme" / "app")).load_config()
    executor = VoilaExecutor(nbformat.v4.new_notebook(), config=config)
    assert executor.iopub_timeout >= 60
    assert VoilaExecutor(nbformat.v4.new_notebook()).iopub_timeout == 4  # nbclient's default
