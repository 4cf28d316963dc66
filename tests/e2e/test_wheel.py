"""The app from a wheel, with no clone: build it, install it in a fresh virtual environment with
``payme[app]``, run ``payme app`` outside the repository and fetch its pages over HTTP.

Slow (about a minute with a warm package cache), so ``make check`` leaves it out; ``make test``
and CI run it, and CI never skips it (uv is installed by the Makefile into ``.venv``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from payme.app.page import PAGES

from .conftest import BROWSER_HEADERS, REPO, VoilaServer, in_ci

pytestmark = pytest.mark.slow


def _uv() -> str:
    found = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if found is None:
        message = "uv not found (make .venv/.installed installs it)"
        if in_ci():
            pytest.fail(message + "; the wheel test may not be skipped in CI", pytrace=False)
        pytest.skip(message)
    return found


def _run(*cmd: str | Path, cwd: Path) -> None:
    result = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, f"{cmd} failed:\n{result.stdout}\n{result.stderr}"


@pytest.fixture(scope="module")
def installed_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    uv = _uv()
    work = tmp_path_factory.mktemp("wheel")
    _run(uv, "build", "--wheel", "--out-dir", work / "dist", REPO, cwd=work)
    (wheel,) = (work / "dist").glob("payme-*.whl")
    _run(uv, "venv", "--quiet", "--python", sys.executable, work / "venv", cwd=work)
    python = work / "venv" / "bin" / "python"
    _run(
        uv,
        "pip",
        "install",
        "--quiet",
        "--python",
        python,
        f"payme[app] @ {wheel.as_uri()}",
        cwd=work,
    )
    server = VoilaServer(work, work / "log")
    # The installed command, run from a folder that holds no notebooks and no source.
    server.cmd = [
        str(work / "venv" / "bin" / "payme"),
        "app",
        "--no-browser",
        f"--port={server.port}",
    ]
    server.cwd = work
    env_path = os.environ.get("PYTHONPATH")
    assert not env_path or str(REPO) not in env_path
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _fetch(url: str) -> str:
    # As a browser asks (a plain GET of a page gets the static landing page instead).
    request = urllib.request.Request(url, headers=BROWSER_HEADERS)
    with urllib.request.urlopen(request, timeout=300) as response:
        assert response.status == 200
        return str(response.read().decode())


def test_installed_app_serves_the_landing_page(installed_app: VoilaServer) -> None:
    html = _fetch(installed_app.url("/"))
    assert "payme-landing" in html
    for page in PAGES:
        assert f'href="voila/render/{page.notebook}"' in html


def test_installed_app_renders_a_notebook_page(installed_app: VoilaServer) -> None:
    html = _fetch(installed_app.page_url("hand_builder"))
    # Voilà ran the packaged notebook with the installed package: its header and its widgets.
    assert "<title>payme: Hand builder</title>" in html
    assert "payme-page-header" in html
    assert "application/vnd.jupyter.widget-view+json" in html
    assert "Traceback" not in html and "There was an error" not in html
    css = _fetch(installed_app.url("voila/templates/payme/static/payme.css"))
    assert css == (REPO / "payme" / "app" / "static" / "payme.css").read_text()


def test_installed_app_serves_its_own_copy_of_the_notebooks(installed_app: VoilaServer) -> None:
    python = installed_app.cwd / "venv" / "bin" / "python"
    code = "from payme.app.server import notebooks_dir; print(notebooks_dir())"
    result = subprocess.run(
        [python, "-c", code], cwd=installed_app.cwd, capture_output=True, text=True, timeout=60
    )
    folder = Path(result.stdout.strip())
    assert folder.is_relative_to(installed_app.cwd / "venv"), result
    assert sorted(p.name for p in folder.glob("*.ipynb")) == sorted(
        p.name for p in (REPO / "notebooks").glob("*.ipynb")
    )


def test_installed_wheel_runs_the_compiled_solver_core(installed_app: VoilaServer) -> None:
    # The wheel was built where a C compiler is (CI has gcc): it carries the compiled core.
    python = installed_app.cwd / "venv" / "bin" / "python"
    code = "import payme; print(payme.solver_backend())"
    result = subprocess.run(
        [python, "-c", code], cwd=installed_app.cwd, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip() == "compiled", result


def test_without_a_compiler_the_wheel_is_pure_python_and_says_so_once(
    tmp_path: Path,
) -> None:
    """No C compiler (CC names none): the build still succeeds, with one line saying that
    the pure-Python solver will run, and the wheel holds no compiled module.  Built from the
    source distribution (as pip does from PyPI), which also shows the sdist carries what the
    wheel needs (the notebooks, the C source)."""
    env = dict(os.environ, CC=str(tmp_path / "no-such-compiler"))
    result = subprocess.run(
        [_uv(), "build", "--out-dir", tmp_path / "dist", REPO],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    said = (result.stdout + result.stderr).count("the solver's compiled core was not built")
    assert said == 1, result.stderr
    (wheel,) = (tmp_path / "dist").glob("payme-*.whl")
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert "payme/solver/search.py" in names
    assert "payme/app/notebooks/index.ipynb" in names
