"""The client the server runs a page's notebook through: ready as soon as the kernel is.

Before Voilà runs a page's first cell it waits until the new kernel answers
(``wait_for_ready``).  jupyter_client's wait ends by draining the kernel's broadcast channel
(IOPub) until it has been silent for 0.2 s, so every page paid a fixed 0.2 s between a kernel
that was ready and its first cell, on the way to the page's first control.  A page's kernel
is new and has broadcast nothing but the answer to this very request, so :class:`PageKernelClient`
waits for exactly that: the reply to its ``kernel_info_request`` on the shell channel, then
the broadcast saying the kernel went idle after handling it.  That idle message proves the
broadcast channel is connected (the point of the old wait) and that nothing of the request is
still on its way; the executor reads only messages answering its own requests anyway.

``voila.json`` makes it the server's kernel client
(``ServerKernelManager.client_factory``); the browser's connection does not use it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from queue import Empty
from typing import Any

from jupyter_client.asynchronous.client import AsyncKernelClient

# How long the client waits for a reply before asking again, and for the idle broadcast.  The
# shell channel queues requests until the kernel reads them, so one request is enough while the
# kernel starts; the broadcast channel of a kernel just started may not be connected yet, and
# ZeroMQ drops what a subscriber missed, so when the idle does not come soon another request
# is sent (its idle then comes over the connected channel).
REPLY_WAIT_S = 1.0
IDLE_WAIT_S = 0.05


class PageKernelClient(AsyncKernelClient):
    """``AsyncKernelClient`` whose ``wait_for_ready`` ends at the idle broadcast of its own
    ``kernel_info_request`` instead of after 0.2 s of broadcast silence.

    >>> PageKernelClient.wait_for_ready.__qualname__
    'PageKernelClient.wait_for_ready'
    """

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        """Return once the kernel has answered a ``kernel_info_request`` and the idle
        broadcast of one has arrived; ``RuntimeError`` if the kernel died or ``timeout`` s
        passed."""
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        sent = {self.kernel_info()}
        while (reply := await self._reply_to(sent)) is None:
            self._check(deadline, timeout)
            sent.add(self.kernel_info())
        while not await self._idle_after(sent):
            self._check(deadline, timeout)
            sent.add(self.kernel_info())
        self._handle_kernel_info_reply(reply)

    def _check(self, deadline: float, timeout: float | None) -> None:
        if time.monotonic() > deadline:
            raise RuntimeError(f"Kernel didn't respond in {timeout:g} seconds")

    async def _reply_to(self, sent: set[str]) -> dict[str, Any] | None:
        """The shell reply to one of the ``sent`` requests, or ``None`` after
        :data:`REPLY_WAIT_S` (or at once if the kernel has died)."""
        if not await self._async_is_alive():
            raise RuntimeError("Kernel died before replying to kernel_info")
        return await self._first(self.shell_channel, REPLY_WAIT_S, lambda msg: True, sent)

    async def _idle_after(self, sent: set[str]) -> bool:
        """Whether the broadcast ``idle`` status of one of the ``sent`` requests arrives
        within :data:`IDLE_WAIT_S` (everything broadcast before it is read on the way)."""

        def idle(msg: dict[str, Any]) -> bool:
            return bool(
                msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle"
            )

        return await self._first(self.iopub_channel, IDLE_WAIT_S, idle, sent) is not None

    @staticmethod
    async def _first(
        channel: Any, wait: float, wanted: Callable[[dict[str, Any]], bool], sent: set[str]
    ) -> dict[str, Any] | None:
        """The first message on ``channel`` within ``wait`` seconds that answers one of the
        ``sent`` requests and is ``wanted``, or ``None``."""
        until = time.monotonic() + wait
        while (left := until - time.monotonic()) > 0:
            try:
                msg: dict[str, Any] = await channel.get_msg(timeout=left)
            except Empty:
                return None
            if msg["parent_header"].get("msg_id") in sent and wanted(msg):
                return msg
        return None
