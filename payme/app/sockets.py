"""The kernel websocket: a page's socket to a kernel that is gone, or going, is refused at once.

Jupyter's handler (``/api/kernels/<id>/channels``) waits for the kernel to come alive: for a
kernel being shut down (culled, or its page closed) that never happens, so after 60 s it
answered 500, and its error page failed to render under Voilà (Jupyter's template needs a
``static_path`` setting Voilà's server lacks), logging a second traceback.  The handler here
answers 404 at once when the kernel is gone, stopping (see :mod:`payme.app.budget`) or dead,
turns a failure of a kernel that went away meanwhile into the same 404, and writes its errors
as one plain line.

>>> from payme.app.sockets import error_line
>>> error_line(404, "Not Found")
'404 Not Found: no such game; reload the page to start one.\\n'
"""

from __future__ import annotations

from typing import Any


def error_line(status: int, reason: str) -> str:
    """The body of a refused kernel websocket: one line, no internals."""
    if status == 404:
        return f"{status} {reason}: no such game; reload the page to start one.\n"
    return f"{status} {reason}\n"


def kernel_socket_handler() -> type:
    """A subclass of Voilà's kernel websocket handler with the refusals above."""
    import tornado.web
    from jupyter_core.utils import ensure_async
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    class KernelSocketHandler(VoilaKernelWebsocketHandler):  # type: ignore[misc]
        async def get(self, kernel_id: str) -> None:
            if not await self._running(kernel_id):
                raise tornado.web.HTTPError(404)
            try:
                await super().get(kernel_id)
            except Exception as error:
                if isinstance(error, tornado.web.HTTPError) and error.status_code < 500:
                    raise
                if await self._running(kernel_id):
                    raise
                # The kernel went away while the socket was being opened.
                raise tornado.web.HTTPError(404) from None

        async def _running(self, kernel_id: str) -> bool:
            budget = self.settings.get("payme_budget")
            if budget is not None and kernel_id in budget.stopping:
                return False
            if kernel_id not in self.kernel_manager:
                return False
            kernel = self.kernel_manager.get_kernel(kernel_id)
            ready = getattr(kernel, "ready", None)
            if ready is not None and not ready.done():
                return True  # still starting: Jupyter's handler waits for it
            return bool(await ensure_async(kernel.is_alive()))

        def write_error(self, status_code: int, **kwargs: Any) -> None:
            self.set_header("Content-Type", "text/plain; charset=UTF-8")
            self.finish(error_line(status_code, self._reason))

    return KernelSocketHandler
