"""Build the app as a static site (``make static``): Voici pages whose Python runs in the
visitor's browser (JupyterLite's Pyodide kernel), into ``build/static/``.

Everything comes from pinned versions in the package registries, and nothing is fetched
from a CDN when the site is viewed:

* the build tools (``requirements-build.txt``) in their own virtual environment;
* Pyodide itself from the ``pyodide`` npm package (``npm pack``), with a ``pyodide-lock.json``
  trimmed to the two packages the kernel loads from it (micropip and packaging, their wheels
  from PyPI);
* the kernel-side wheels from PyPI (``requirements-kernel.txt``), the pure-Python payme wheel
  (``PAYME_PURE=1``), and empty stand-in wheels for ``ssl``, ``sqlite3`` and ``jedi``, which
  the kernel asks for (the real ones live only on Pyodide's CDN; jedi only completes code);
* one shell page (``shell.ipynb``, written here from the app's notebooks) that shows every
  page of the app in one kernel: a visitor boots Python once and moves between pages
  without booting it again, while the address names the page (``play.html?seed=5``).

Downloads are kept in ``build/static-cache/`` between builds.  Run with ``--serve`` to
serve the site on 127.0.0.1 after building (``make static-serve``).
"""

from __future__ import annotations

import argparse
import ast
import base64
import contextlib
import gzip
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BUILD = REPO / "build"
CACHE = BUILD / "static-cache"
OUT = BUILD / "static"

PYODIDE_VERSION = "0.27.6"
# The files of the npm package the site needs (the .d.ts, maps and console are left out).
PYODIDE_FILES = (
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "pyodide.js",
    "pyodide.mjs",
    "python_stdlib.zip",
    "package.json",
)
# Names the kernel installs at start that exist only on Pyodide's CDN (ssl, sqlite3) or
# only serve code completion (jedi, 4.9 MB), and the two packages of front-end files that
# ipywidgets requires (the page has its own front end): empty wheels stand in for them, at
# versions that satisfy what requires them.
STAND_INS = {
    "ssl": "1.0.0",
    "sqlite3": "1.0.0",
    "jedi": "0.19.2",
    "widgetsnbextension": "4.0.13",
    "jupyterlab_widgets": "3.0.13",
}

ANYWIDGET = "anywidget==0.11.0"
KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"
KERNEL_PLUGIN = KERNEL_EXTENSION + ":kernel"
# The extension's wheels the kernel installs itself (its widgetsnbextension stand-ins are
# left out: the site has its own).
KERNEL_OWN = ("pyodide_kernel-", "ipykernel-", "piplite-")

# The app's notebooks, run as the shell's pages; index is the landing page.
SHELL_NAME = "shell"


def log(message: str) -> None:
    print(f"static: {message}", flush=True)


def run(*cmd: str | Path, cwd: Path = REPO, env: dict[str, str] | None = None) -> None:
    result = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        sys.exit(
            f"static: {' '.join(map(str, cmd))} failed ({result.returncode}):\n"
            f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
        )


def uv() -> str:
    """uv from the project's .venv (make .venv/.installed puts it there) or the PATH."""
    here = Path(sys.executable).parent / "uv"
    found = str(here) if here.exists() else shutil.which("uv")
    if found is None:
        sys.exit("static: uv not found (run `make .venv/.installed` first)")
    return found


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------- the downloads (cached)


def build_venv() -> Path:
    """The build tools' virtual environment, made again when their pins change."""
    venv = CACHE / "venv"
    pins = (HERE / "requirements-build.txt").read_text() + ANYWIDGET
    stamp = venv / ".pins"
    if stamp.exists() and stamp.read_text() == pins:
        return venv
    log("installing the build tools (Voici, JupyterLite)")
    shutil.rmtree(venv, ignore_errors=True)
    run(uv(), "venv", "--quiet", "--python", sys.executable, venv)
    python = venv / "bin" / "python"
    run(
        uv(), "pip", "install", "--quiet", "--python", python, "-r", HERE / "requirements-build.txt"
    )
    # anywidget's front end (its lab extension) is bundled into the site: installed alone,
    # since its Python side runs in the browser, not here.
    run(uv(), "pip", "install", "--quiet", "--no-deps", "--python", python, ANYWIDGET)
    stamp.write_text(pins)
    return venv


def pyodide_package() -> Path:
    """The unpacked ``pyodide`` npm package."""
    folder = CACHE / f"pyodide-{PYODIDE_VERSION}"
    if (folder / "pyodide.asm.wasm").exists():
        return folder
    log(f"fetching the pyodide {PYODIDE_VERSION} npm package")
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("static: npm not found (apt-get install -y npm)")
    work = CACHE / "npm"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    run(npm, "pack", "--silent", f"pyodide@{PYODIDE_VERSION}", cwd=work)
    (tarball,) = work.glob("pyodide-*.tgz")
    with tarfile.open(tarball) as archive:
        archive.extractall(work, filter="data")
    shutil.rmtree(folder, ignore_errors=True)
    (work / "package").rename(folder)
    shutil.rmtree(work)
    return folder


def kernel_wheels(venv: Path) -> Path:
    """The kernel-side wheels from PyPI (pure Python, for Python 3.12)."""
    folder = CACHE / "wheels"
    pins = (HERE / "requirements-kernel.txt").read_text()
    stamp = folder / ".pins"
    if stamp.exists() and stamp.read_text() == pins:
        return folder
    log("fetching the kernel's wheels from PyPI")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    pip_venv = CACHE / "pip-venv"
    if not (pip_venv / "bin" / "pip").exists():
        run(uv(), "venv", "--quiet", "--seed", "--python", sys.executable, pip_venv)
    run(
        pip_venv / "bin" / "pip",
        "download",
        "--quiet",
        "--no-deps",
        "--dest",
        folder,
        "--only-binary=:all:",
        "--python-version",
        "3.12",
        "--platform",
        "any",
        "--implementation",
        "py",
        "--abi",
        "none",
        "-r",
        HERE / "requirements-kernel.txt",
    )
    stamp.write_text(pins)
    return folder


def stand_in_wheel(name: str, version: str, folder: Path) -> Path:
    """An installable wheel named ``name`` holding no module at all."""
    dist = f"{name}-{version}.dist-info"
    files = {
        f"{dist}/METADATA": (
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
            "Summary: An empty stand-in (the payme static site does without this module)\n"
        ),
        f"{dist}/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: payme static build\nRoot-Is-Purelib: true\n"
            "Tag: py3-none-any\n"
        ),
    }
    record = []
    for path, text in files.items():
        data = text.encode()
        hashed = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={hashed},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    files[f"{dist}/RECORD"] = "\n".join(record) + "\n"
    target = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, text in files.items():
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            archive.writestr(info, text)
    return target


def payme_wheel(folder: Path) -> Path:
    """The pure-Python payme wheel (``PAYME_PURE=1``)."""
    for old in folder.glob("payme-*.whl"):
        old.unlink()
    log("building the pure-Python payme wheel")
    env = {**os.environ, "PAYME_PURE": "1"}
    run(uv(), "build", "--quiet", "--wheel", "--out-dir", folder, REPO, env=env)
    (wheel,) = folder.glob("payme-*.whl")
    if not wheel.name.endswith("-py3-none-any.whl"):
        sys.exit(f"static: the payme wheel is not pure Python: {wheel.name}")
    return wheel


# ---------------------------------------------------------------- the shell page


def page_cells(notebook: Path) -> list[str]:
    """The code a page of the server app runs, as the shell runs it: the cells that are not
    for JupyterLab only, nor nbval's checks (``keep_output``), nor the closing
    ``page_ready()`` (the server's lock; a browser kernel serves its own visitor)."""
    nb = json.loads(notebook.read_text())
    cells = []
    for cell in nb["cells"]:
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell["cell_type"] != "code" or tags & {
            "jupyterlab-only",
            "skip-execution",
            "keep_output",
        }:
            continue
        source = "".join(cell["source"])
        lines = source.splitlines()
        for node in ast.parse(source).body:
            if (
                isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) == "page_ready"
            ):
                for line in range(node.lineno - 1, node.end_lineno or node.lineno):
                    lines[line] = ""
        kept = "\n".join(lines).strip()
        body = ast.parse(kept).body
        if body and not all(isinstance(n, ast.Import | ast.ImportFrom) for n in body):
            cells.append(kept)
    return cells


def shell_notebook(pages: dict[str, list[str]]) -> dict[str, object]:
    """The one notebook Voici renders: the shell (payme.app.static_site) shows the page the
    address names and swaps pages in this one kernel (payme and the widgets are loaded with
    Pyodide: lite_config)."""
    shell = (
        "from payme.app.static_site import Shell\n\n"
        f"PAGES = {json.dumps(pages, indent=1)}\n"
        "Shell(PAGES).show()\n"
    )

    def code(source: str) -> dict[str, object]:
        return {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": source,
        }

    return {
        "cells": [code(shell)],
        "metadata": {
            "kernelspec": {
                "display_name": "Python (Pyodide)",
                "language": "python",
                "name": "python",
            },
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def static_header() -> str:
    """The site header of every page (its links swap pages once Python runs) and the
    placeholder shown while Python starts in the browser."""
    from html import escape

    from payme.app.page import PAGES

    links = ['<a class="payme-brand" href="index.html" data-payme-page="index">Home</a>']
    for page in PAGES:
        name = Path(page.notebook).stem
        links.append(f'<a href="{name}.html" data-payme-page="{name}">{escape(page.title)}</a>')
    return (
        '<header class="payme-site-header"><nav aria-label="Pages of the app">\n'
        + "\n".join(links)
        + "\n</nav></header>\n"
        '<div class="payme-skeleton" aria-busy="true">\n'
        '  <h1 class="payme-static-title">Pay Me</h1>\n'
        '  <p class="payme-skeleton-note" role="status">Starting Python in your browser '
        "(a few seconds, once: the other pages then open at once)…</p>\n"
        '  <div class="payme-skeleton-block"></div>\n'
        '  <div class="payme-skeleton-block"></div>\n'
        '  <div class="payme-skeleton-block payme-tall"></div>\n'
        "</div>\n"
    )


def app_pages() -> dict[str, list[str]]:
    sys.path.insert(0, str(REPO))
    from payme.app.page import PAGES

    names = ["index", *(Path(page.notebook).stem for page in PAGES)]
    return {name: page_cells(REPO / "notebooks" / f"{name}.ipynb") for name in names}


# ---------------------------------------------------------------- the site


# Where the browser's Python runs: the environment markers of a wheel's requirements are
# read for it (Pyodide 0.27's Python 3.12 on Emscripten).
BROWSER = {
    "implementation_name": "cpython",
    "os_name": "posix",
    "platform_machine": "wasm32",
    "platform_system": "Emscripten",
    "python_full_version": "3.12.7",
    "python_version": "3.12",
    "sys_platform": "emscripten",
    "extra": "",
}


def lock_entry(wheel: Path) -> dict[str, object]:
    """A pyodide-lock.json entry for a pure-Python wheel: Pyodide then loads it, and what it
    needs, from the site (never from a package index)."""
    from email.parser import Parser

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(archive.read(meta).decode())
    depends = []
    for line in metadata.get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(BROWSER):
            depends.append(canonicalize_name(requirement.name))
    imports = sorted(
        {
            n.split("/")[0].removesuffix(".py")
            for n in names
            if not n.split("/")[0].endswith((".dist-info", ".data"))
            and (n.endswith(".py") or "/" in n)
        }
    )
    return {
        "name": canonicalize_name(metadata["Name"]),
        "version": metadata["Version"],
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": digest(wheel),
        "package_type": "package",
        "imports": imports,
        "depends": depends,
        "unvendored_tests": False,
    }


def site_lock(package: Path, wheels: Iterable[Path], target: Path) -> None:
    """Pyodide's lock file with only the site's wheels (copied beside it): the kernel's
    packages, payme and the stand-ins, all loaded from the site."""
    lock = json.loads((package / "pyodide-lock.json").read_text())
    entries = {}
    for wheel in wheels:
        shutil.copy2(wheel, target / wheel.name)
        entry = lock_entry(wheel)
        entries[str(entry["name"])] = entry
    missing = {d for e in entries.values() for d in e["depends"]} - set(entries)  # type: ignore[attr-defined]
    if missing:
        sys.exit(
            f"static: the site's wheels need {sorted(missing)}: add them to requirements-kernel.txt"
        )
    lock["packages"] = dict(sorted(entries.items()))
    (target / "pyodide-lock.json").write_text(json.dumps(lock))


def lite_config(work: Path, preload: list[str]) -> None:
    """JupyterLite's settings: no PyPI, and every package of the lock loaded with Pyodide
    itself (fetched in parallel while it starts; the kernel then installs nothing)."""
    (work / "jupyter_lite_config.json").write_text(
        json.dumps(
            {
                "LiteBuildConfig": {
                    "apps": ["voici"],
                    "no_sourcemaps": True,
                    "no_unused_shared_packages": True,
                    "output_dir": str(work / "_output"),
                    "contents": [str(work / "contents")],
                },
                "VoilaConfiguration": {"template": "payme-static"},
            },
            indent=1,
        )
    )
    (work / "jupyter-lite.json").write_text(
        json.dumps(
            {
                "jupyter-lite-schema-version": 0,
                "jupyter-config-data": {
                    "litePluginSettings": {
                        KERNEL_PLUGIN: {
                            "disablePyPIFallback": True,
                            "loadPyodideOptions": {"packages": preload},
                        }
                    }
                },
            },
            indent=1,
        )
    )


def build() -> None:
    venv = build_venv()
    package = pyodide_package()
    wheels = kernel_wheels(venv)
    work = CACHE / "work"
    shutil.rmtree(work, ignore_errors=True)
    (work / "contents").mkdir(parents=True)
    payme = payme_wheel(work)
    stand_ins = [stand_in_wheel(name, version, work) for name, version in STAND_INS.items()]
    # The kernel's own wheels (pyodide_kernel, its ipykernel and piplite), from the
    # extension just installed, join the lock too, so that Pyodide loads everything at once.
    extension = venv / "share" / "jupyter" / "labextensions" / KERNEL_EXTENSION / "static" / "pypi"
    own = [w for w in extension.glob("*.whl") if w.name.startswith(KERNEL_OWN)]
    names = {str(lock_entry(w)["name"]) for w in [payme, *stand_ins, *own, *wheels.glob("*.whl")]}
    # The kernel looks for "pyodide_kernel" by that spelling before it installs it itself.
    lite_config(work, sorted(name.replace("pyodide-kernel", "pyodide_kernel") for name in names))
    # Pyodide where JupyterLite looks for a local copy (it then points the kernel at it).
    pyodide = work / "static" / "pyodide"
    pyodide.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(package / name, pyodide / name)
    site_lock(package, [payme, *stand_ins, *own, *wheels.glob("*.whl")], pyodide)
    notebook = shell_notebook(app_pages())
    (work / "contents" / f"{SHELL_NAME}.ipynb").write_text(json.dumps(notebook, indent=1))
    # The site's template (the payme look and navigation) where Voilà's template search finds it.
    templates = venv / "share" / "jupyter" / "voila" / "templates" / "payme-static"
    shutil.rmtree(templates, ignore_errors=True)
    shutil.copytree(HERE / "template", templates)
    (templates / "static").mkdir()
    shutil.copy2(
        REPO / "payme" / "app" / "static" / "payme.css", templates / "static" / "payme.css"
    )
    (templates / "static_header.html.j2").write_text(static_header())
    log("building the site with Voici")
    run(venv / "bin" / "voici", "build", "--no-sourcemaps", cwd=work)
    output = work / "_output"
    # JupyterLite's own lab app, never fetched by a Voici page.
    shutil.rmtree(output / "build")
    render = output / "voici" / "render"
    shell = render / f"{SHELL_NAME}.html"
    shell.write_text(page_relative(shell.read_text()))
    for name in app_pages():
        shutil.copy2(shell, render / f"{name}.html")
    shell.unlink()
    (output / "files" / f"{SHELL_NAME}.ipynb").unlink()
    images = output / "img"
    shutil.copytree(REPO / "payme" / "app" / "static" / "img", images)
    (output / "index.html").write_text(REDIRECT)
    # GitHub Pages runs Jekyll on a site unless told not to (it would drop _-named files).
    (output / ".nojekyll").write_text("")
    (output / "voici" / "index.html").write_text(REDIRECT.replace("voici/render/", "render/"))
    shutil.rmtree(OUT, ignore_errors=True)
    output.rename(OUT)
    compress(OUT, GZIP)
    log(f"built {OUT.relative_to(REPO)}")


def page_relative(page: str) -> str:
    """The kernel's URLs in a page's config made relative to the page (voici/render/), not
    to the site's root: the kernel resolves them against the page's address."""
    start = page.index(CONFIG_START) + len(CONFIG_START)
    end = page.index("</script>", start)
    config = json.loads(page[start:end])
    kernel = config["litePluginSettings"][KERNEL_PLUGIN]
    kernel["pyodideUrl"] = "../../" + kernel["pyodideUrl"].removeprefix("./")
    kernel["pipliteUrls"] = ["../../" + url.removeprefix("./") for url in kernel["pipliteUrls"]]
    return page[:start] + json.dumps(config) + page[end:]


CONFIG_START = '<script id="jupyter-config-data" type="application/json">'


# The site's root sends a visitor to the landing page, keeping a link's query.
REDIRECT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Pay Me</title>
<meta http-equiv="refresh" content="0; url=voici/render/index.html">
<script>location.replace("voici/render/index.html" + location.search + location.hash)</script>
</head><body><a href="voici/render/index.html">Pay Me</a></body></html>
"""


# Gzipped copies of the site's text and wasm files, for `make static-serve` (a host such as
# GitHub Pages compresses by itself; these stay out of the site to publish).
GZIP = CACHE / "gzip"
COMPRESSED = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".txt")


def compress(site: Path, target: Path) -> None:
    shutil.rmtree(target, ignore_errors=True)
    for path in site.rglob("*"):
        if path.suffix in COMPRESSED and path.is_file() and path.stat().st_size > 1024:
            out = target / path.relative_to(site)
            out = out.with_name(out.name + ".gz")
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0))


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site, gzipped where the browser accepts it and a copy was made."""

    def __init__(self, *args: Any, gzipped: Path, **kwargs: Any) -> None:
        self.gzipped = gzipped
        super().__init__(*args, **kwargs)

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        try:
            packed = self.gzipped / path.relative_to(Path(self.directory).resolve())
        except ValueError:
            return super().send_head()
        packed = packed.with_name(packed.name + ".gz")
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and packed.is_file()):
            return super().send_head()
        body = packed.open("rb")
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(packed.stat().st_size))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return body

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: one line per file of a page is noise


def serve(port: int, host: str = "127.0.0.1") -> None:
    handler = partial(SiteHandler, directory=str(OUT.resolve()), gzipped=GZIP)
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        log(f"serving {OUT.relative_to(REPO)} at http://{host}:{port}/ (Ctrl-C stops)")
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help="serve the site after building")
    parser.add_argument("--no-build", action="store_true", help="serve the site as built")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if not args.no_build:
        build()
    if args.serve or args.no_build:
        serve(args.port, args.host)


if __name__ == "__main__":
    main()
