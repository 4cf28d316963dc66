"""No internals leave a page's kernel: every error it would print becomes the app's plain line.

A page's kernel streams what it writes to standard error (and anything written to file
descriptor 2) to the page over its websocket.  Left alone that carried tracebacks with the
server's paths: a failing click logged with ``logging.exception``, ipykernel's own log of a
malformed comm message, a warning, an exception in a background thread.  Once the page is
ready (:func:`payme.app.page.page_ready`), :func:`install`

* makes every log record plain: its message becomes :data:`PLAIN_ERROR`, with no traceback
  and no arguments, whichever logger or handler writes it;
* sends exceptions of threads, unraisable exceptions and uncaught ones to the same line, and
  warnings nowhere;
* filters the kernel's standard error: the page gets :data:`PLAIN_ERROR` (at most once a
  second) instead of any text, and the server's log (the kernel's own stderr) gets the
  original, so operators keep the details; standard output keeps its text unless it holds
  a traceback or a server path, which it loses the same way.

The server withholds any kernel message that still holds a traceback or a path
(:mod:`payme.app.sockets`): a second layer, and the only one where the pages are served
without ``payme app`` (Binder runs the page's kernel without the server's filter, so this
module is the layer there).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

# What the page is told when something it sent could not be used, or a click failed.
PLAIN_ERROR = "The app could not use something the page sent; it was ignored."
# Text that marks internals: a traceback's head, an installed package's path, this
# process's own folders.
MARKERS = ("Traceback (most recent call last)", "site-packages", "dist-packages")
# The page is told at most once in this many seconds (one failure writes many lines).
REPEAT_S = 1.0


def internal(text: str) -> bool:
    """Whether ``text`` holds a traceback or a path of this machine's Python or package.

    >>> internal("Traceback (most recent call last):"), internal("Pick a card.")
    (True, False)
    >>> internal(f'  File "{sys.prefix}/lib/x.py", line 3')
    True
    """
    if any(marker in text for marker in MARKERS):
        return True
    roots = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(__file__))}
    return any(root and root != os.sep and root in text for root in roots)


class _PlainRecords:
    """A log record factory whose records say only :data:`PLAIN_ERROR`."""

    def __init__(self, make: Callable[..., logging.LogRecord]) -> None:
        self.make = make

    def __call__(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record = self.make(*args, **kwargs)
        record.msg, record.args = PLAIN_ERROR, ()
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return record


class _PlainStream:
    """Wraps a kernel output stream's ``write``: what the page gets is decided by ``keep``
    (the text, or ``None`` for the plain line); the original goes to ``log``."""

    def __init__(
        self, write: Callable[[str], Any], keep: Callable[[str], str | None], log_fd: int | None
    ) -> None:
        self.write_page = write
        self.keep = keep
        self.log_fd = log_fd
        self.last = 0.0
        self.lock = threading.Lock()

    def __call__(self, text: str) -> int:
        kept = self.keep(text)
        if kept is not None:
            self.write_page(kept)
            return len(text)
        if self.log_fd is not None:
            with contextlib.suppress(OSError):
                os.write(self.log_fd, text.encode(errors="replace"))
        with self.lock:
            now = time.monotonic()
            if now - self.last < REPEAT_S:
                return len(text)
            self.last = now
        self.write_page(PLAIN_ERROR + "\n")
        return len(text)


def _plain_line(*_args: Any, **_kwargs: Any) -> None:
    sys.stderr.write(PLAIN_ERROR + "\n")


def _stderr_text(text: str) -> str | None:
    """The page's copy of a write to standard error: the plain line itself, or nothing."""
    return text if text.strip() in ("", PLAIN_ERROR) else None


def _stdout_text(text: str) -> str | None:
    """The page's copy of a write to standard output: the text, unless it is internal."""
    return None if internal(text) else text


def install() -> None:
    """Make every error this kernel would show the page plain (see the module's notes).

    Idempotent.  Called by :func:`payme.app.page.page_ready` under Voilà only.  IPython puts
    the streams' own ``write`` back when the cell that called this ends (it tees them during
    a cell), so the streams are wrapped again once the cell is over, and again before each
    widget message (:func:`wrap_streams`, cheap when they still are).
    """
    factory = logging.getLogRecordFactory()
    if not isinstance(factory, _PlainRecords):
        logging.setLogRecordFactory(_PlainRecords(factory))
    sys.excepthook = _plain_line
    threading.excepthook = _plain_line
    sys.unraisablehook = _plain_line
    warnings.showwarning = lambda *_args, **_kwargs: None
    wrap_streams()
    with contextlib.suppress(RuntimeError):  # no event loop: no cell to wait for
        asyncio.get_running_loop().call_soon(wrap_streams)


def wrap_streams() -> None:
    """Filter what standard error and standard output send to the page (idempotent)."""
    for stream, keep in ((sys.stderr, _stderr_text), (sys.stdout, _stdout_text)):
        write = getattr(stream, "write", None)
        if write is None or isinstance(write, _PlainStream):
            continue
        # ipykernel sends file descriptor 2 to the page too (through this same write), and
        # keeps a copy of the process's own: the server's log.
        log_fd = getattr(stream, "_original_stdstream_copy", None)
        try:
            stream.write = _PlainStream(write, keep, log_fd)  # type: ignore[method-assign]
        except (AttributeError, TypeError):  # a stream that cannot be wrapped (a file)
            continue
