"""Helpers for tests that run payme in a fresh process, the way a user's shell does."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_fresh(
    args: list[str], stdin: str | bytes | None = None, *, text: bool = True, timeout: float = 60
) -> subprocess.CompletedProcess[Any]:
    """Run ``args`` in a fresh process, from the checkout, importing this checkout's payme;
    ``text=False`` for bytes in and out."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        args,
        input=stdin,
        capture_output=True,
        text=text,
        env=env,
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )
