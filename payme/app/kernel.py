"""The app pages' kernel: ipykernel without the debugger, with bytecode kept, and, as a spare
kernel started ahead of a visit, with the pages' modules already imported.

A page's kernel starts on every visit, before its notebook can run, so what the kernel imports
at start is time the visitor waits for.  ipykernel imports the debugger (debugpy and pydevd, a
measurable share of its start-up; docs/benchmarks.md, *Measurements behind the code*) at start
whenever it is installed, yet a page of the app never debugs: its kernel refuses every request
but the widgets' (:func:`payme.app.page.page_ready`).  The
app's kernel spec (``share/jupyter/kernels/python3/kernel.json``, found first on the
``JUPYTER_PATH`` that :mod:`payme.app.server` sets) starts this module instead of
``ipykernel_launcher``; JupyterLab and nbval keep the ordinary kernel.

Every visit's kernel imports the same modules.  Where ``PYTHONDONTWRITEBYTECODE`` is set (as
in many container images, and on the machine these pages were measured on), Python never
writes their bytecode, so each kernel compiled payme's modules from source again: 0.1-0.2 s
of CPU a visit (Rummy 3-Pack's tutorial module alone 0.07 s).  This kernel writes bytecode
whatever that variable says: the first visit writes it, later ones read it (where the
package's folder is read-only, as in a system install, nothing is written and nothing fails).

A spare kernel (:mod:`payme.app.spare`) is started before anyone asks for it, so its
environment cannot hold the visit's (the page's query string, Voilà's URLs).  The server
names a file in :data:`VISIT_FILE`; when the page's first cell is about to run, the kernel
reads the visit's variables from it into ``os.environ`` and deletes it.  While it waits, it
imports the modules every page needs (:data:`PRELOAD`).

    python -m payme.app.kernel -f CONNECTION_FILE
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# The environment variable naming a spare kernel's visit file (absent in a page's own kernel).
VISIT_FILE = "PAYME_VISIT_FILE"
# What the pages import (notebooks/*.ipynb), imported by a spare kernel while it waits:
# 0.05-0.15 s of a page's first cell.  tests/test_app_spare.py checks that it covers the
# notebooks' imports.
PRELOAD = (
    "ipywidgets",
    "anywidget",
    "IPython.display",
    "payme.app.page",
    "payme.tutorial.widget",
    "payme.widgets.hand_builder",
    "payme.widgets.puzzles",
    "payme.widgets.play",
    "payme.widgets.analysis",
)


def visit_settings(path: str, unregister: Callable[[Any], None]) -> Callable[..., None]:
    """The hook that, before the first cell, moves the visit's variables from ``path`` into
    ``os.environ`` (and deletes the file), then calls ``unregister`` with itself.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "visit.json")
    >>> with open(path, "w") as file:
    ...     json.dump({"env": {"QUERY_STRING": "step=3"}}, file)
    >>> done = []
    >>> visit_settings(path, done.append)()
    >>> os.environ.pop("QUERY_STRING"), os.path.exists(path), len(done)
    ('step=3', False, 1)
    """

    def apply(*_info: Any) -> None:
        unregister(apply)
        # No file: the server could not write it; the page then opens without its query
        # (it still counts as a Voilà page, so page_ready still locks the kernel).
        with contextlib.suppress(OSError, ValueError):
            visit = json.loads(Path(path).read_text())
            os.environ.update({str(k): str(v) for k, v in visit.get("env", {}).items()})
        with contextlib.suppress(OSError):
            os.remove(path)

    return apply


def limit_address_space(env: dict[str, str] | os._Environ[str] = os.environ) -> int | None:
    """Limit this process's address space to the MB that ``env`` names (``RLIMIT_AS``,
    :data:`payme.app.memory.LIMIT_ENV`); the limit in bytes, or ``None`` when none is set.

    >>> limit_address_space({})
    """
    import resource

    from payme.app.memory import LIMIT_ENV

    try:
        megabytes = int(env.get(LIMIT_ENV, ""))
    except ValueError:
        return None
    if megabytes <= 0:
        return None
    limit = megabytes * 2**20
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        return limit
    return None


def main() -> None:
    """Start an IPython kernel with the debugger left out (``debugpy`` cannot be imported)
    that writes the bytecode of what it imports, under the app's address-space limit; a
    spare one also imports :data:`PRELOAD` and waits for its visit's variables."""
    limit_address_space()
    sys.dont_write_bytecode = False
    # ipykernel then answers that it has no debugger, as when debugpy is not installed.
    sys.modules["debugpy"] = None  # type: ignore[assignment]
    from ipykernel.kernelapp import IPKernelApp

    app: Any = IPKernelApp.instance()
    app.initialize()
    visit_file = os.environ.pop(VISIT_FILE, None)
    if visit_file:
        events = app.shell.events
        events.register("pre_run_cell", visit_settings(visit_file, partial_unregister(events)))
        # After initialize: ipywidgets registers its comm targets at import only when the
        # kernel's shell exists.
        for name in PRELOAD:
            with contextlib.suppress(ImportError):
                importlib.import_module(name)
        # Out of every later collection (see payme.app.page._keep_start_up): done here, while
        # the spare waits, the page's own call has only the page's objects left to walk.
        gc.collect()
        gc.freeze()
    app.start()


def partial_unregister(events: Any) -> Callable[[Any], None]:
    """``events.unregister("pre_run_cell", hook)`` as a one-argument function."""
    return lambda hook: events.unregister("pre_run_cell", hook)


if __name__ == "__main__":
    main()
