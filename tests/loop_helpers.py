"""Running a coroutine in tests that share a process with Playwright's sync API."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any


def run_in_own_loop(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """``asyncio.run`` in a thread of its own: in a whole test run, Playwright's sync API may
    hold this thread's event loop, and ``asyncio.run`` then refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
