"""The build's code: the solver's optional compiled core, and the notebooks in the wheel.

Everything else about the package is in pyproject.toml.  The compiled core
(``payme/solver/_core.c``) is optional: where no C compiler is found, or the build fails,
the package installs without it and the pure-Python solver runs (the same answers,
slower); one message says so.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
CORE_SOURCE = HERE / "payme" / "solver" / "_core.c"
# The core carries a digest of the source it was built from: payme.solver.backend compares it
# with the _core.c beside it and runs the pure-Python solver instead of an out-of-date build
# (a checkout updated without reinstalling).
SOURCE_DIGEST = hashlib.sha256(CORE_SOURCE.read_bytes()).hexdigest()[:16]
# The lay-off search's compiled heart, a module of its own, carries its own digest the same way.
LAYOFF_SOURCE = HERE / "payme" / "solver" / "_layoff_core.c"
LAYOFF_DIGEST = hashlib.sha256(LAYOFF_SOURCE.read_bytes()).hexdigest()[:16]


class OptionalBuildExt(build_ext):
    """Build the compiled core and the lay-off search's compiled heart if possible; otherwise
    say so once (one line, however many of the two fail) and carry on."""

    said = False

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler at all: setuptools' own check fails here
            self._fell_back(error, "payme.solver._core")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # the compiler is there but failed
            self._fell_back(error, ext.name)

    @classmethod
    def _fell_back(cls, error: BaseException, name: str) -> None:
        if cls.said:
            return  # the line already printed covers this one too
        cls.said = True
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        if name == "payme.solver._layoff_core":
            print(
                "payme: the lay-off search's compiled heart was not built (" + first + "); "
                "lay-offs will be searched in Python instead: the same answers, slower.",
                file=sys.stderr,
            )
            return
        print(
            "payme: the solver's compiled core was not built (" + first + "); the pure-Python "
            "solver will run instead: the same answers, slower. Install a C compiler (gcc) "
            "and reinstall to build it.",
            file=sys.stderr,
        )


class BuildPyWithNotebooks(build_py):
    """The app's pages live in the top-level notebooks/ (the project's layout); the wheel
    carries a copy inside the package, so that ``pip install "payme[app]"`` then
    ``payme app`` needs no clone."""

    def run(self) -> None:
        super().run()
        if PURE:
            # The browser's Python never serves pages: the served pages' front end
            # (payme.app.front_end, 1.2 MB) stays out of the static site's download.
            shutil.rmtree(Path(self.build_lib) / "payme" / "app" / "static" / "lite", True)
        source = HERE / "notebooks"
        if source.is_dir() and not self.editable_mode:
            target = Path(self.build_lib) / "payme" / "app" / "notebooks"
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))


# PAYME_PURE=1 builds a pure-Python wheel (tagged py3-none-any, no compiled core): the one
# a browser's Python (Pyodide, the static site of ``make static``) can install.
PURE = os.environ.get("PAYME_PURE", "").strip() == "1"

setup(
    ext_modules=[]
    if PURE
    else [
        Extension(
            "payme.solver._core",
            sources=["payme/solver/_core.c"],
            extra_compile_args=["-O2"] if sys.platform != "win32" else [],
            define_macros=[("PAYME_CORE_SOURCE", f'"{SOURCE_DIGEST}"')],
            optional=True,
        ),
        Extension(
            "payme.solver._layoff_core",
            sources=["payme/solver/_layoff_core.c"],
            extra_compile_args=["-O2"] if sys.platform != "win32" else [],
            define_macros=[("PAYME_LAYOFF_SOURCE", f'"{LAYOFF_DIGEST}"')],
            optional=True,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithNotebooks},
)
