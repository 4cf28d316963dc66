"""The kernel websocket: only what a page of the app sends gets through, and a socket to a
kernel that is gone, or going, is refused at once.

What a page sends (:func:`refusal` decides, before anything reaches the kernel):

* widget messages (``comm_msg``) whose method is one the widget front ends use (``update``,
  ``request_state``, ``request_states``, ``custom``), ``comm_close``, and the handshake
  (``kernel_info_request``, ``comm_info_request``), on the shell or control channel;
* ``comm_open`` only for the widget manager's control comm (``jupyter.widget.control``,
  which asks for every widget's state), at most :data:`MAX_CONTROL_OPENS` a socket: a client
  opening a ``jupyter.widget`` comm would make the kernel build a widget of its choosing;
* nothing over :data:`MAX_MESSAGE_BYTES` (256 kB; a page's largest message is a few kB);
  frames over :data:`MAX_FRAME_BYTES` are not even read (Tornado closes the socket).

A refused message is dropped and logged in the server's log; the socket stays open, so a
page that sent it keeps working.  What the kernel sends back is checked too: a message that
holds a traceback or a server path (:func:`payme.app.plain_errors.internal`) is withheld from
the page and logged instead (the kernel's own filter, :mod:`payme.app.plain_errors`, should
already have made it plain).  A socket that names no ``Origin`` (no browser does that) is
refused unless ``--PaymeVoila.allow_socket_without_origin=True``.

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

import json
from typing import Any

# The largest message a page may send over its kernel websocket.  The app's pages send
# clicks, text fields and a card table's gestures: well under 10 kB.
MAX_MESSAGE_BYTES = 256 * 1024
# Frames larger than this are not read at all: Tornado closes the socket (code 1009).
MAX_FRAME_BYTES = 4 * 1024 * 1024
# Control comms one socket may open (a page opens one, again after a reconnection).
MAX_CONTROL_OPENS = 4
# What a page may send, by channel.
ALLOWED = {
    "shell": frozenset(
        {"comm_open", "comm_msg", "comm_close", "comm_info_request", "kernel_info_request"}
    ),
    "control": frozenset({"kernel_info_request"}),
}
# The comm a page's widget manager opens itself, and the methods widget views send.
CONTROL_TARGET = "jupyter.widget.control"
COMM_METHODS = frozenset({"update", "request_state", "request_states", "custom"})
V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"


def read_message(data: str | bytes, subprotocol: str | None) -> dict[str, Any]:
    """A page's websocket message as ``{"channel", "header", "content"}``; ``ValueError``
    when it is not one.

    >>> read_message(json.dumps({"channel": "shell", "header": {"msg_type": "comm_msg"},
    ...                          "content": {"comm_id": "a"}}), None)["header"]["msg_type"]
    'comm_msg'
    """
    try:
        if isinstance(data, bytes) and subprotocol == V1_PROTOCOL:
            return _read_v1(data)
        if isinstance(data, bytes):
            from jupyter_server.services.kernels.connection.base import (
                deserialize_binary_message,
            )

            msg = deserialize_binary_message(data)  # type: ignore[no-untyped-call]
        else:
            msg = json.loads(data)
    except (ValueError, TypeError, KeyError, IndexError, UnicodeDecodeError) as error:
        raise ValueError(f"unreadable ({type(error).__name__})") from None
    if not isinstance(msg, dict):
        raise ValueError("not a message")
    return {key: msg.get(key) for key in ("channel", "header", "content")}


def _read_v1(data: bytes) -> dict[str, Any]:
    """The v1 protocol: offsets, then channel, header, parent header, metadata, content."""
    count = int.from_bytes(data[:8], "little")
    if not 6 <= count <= 64 or len(data) < 8 * (count + 1):
        raise ValueError("bad offsets")
    offsets = [int.from_bytes(data[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    if offsets != sorted(offsets) or offsets[-1] > len(data):
        raise ValueError("bad offsets")
    part = [data[offsets[i] : offsets[i + 1]] for i in range(count - 1)]
    return {
        "channel": part[0].decode("utf-8"),
        "header": json.loads(part[1]),
        "content": json.loads(part[4]),
    }


def refusal(msg: dict[str, Any], control_opens: int = 0) -> str | None:
    """Why a page may not send ``msg`` (see the module's notes), or ``None`` if it may.

    >>> refusal({"channel": "shell", "header": {"msg_type": "execute_request"}, "content": {}})
    'execute_request is not a message a page sends'
    >>> refusal({"channel": "shell", "header": {"msg_type": "comm_open"},
    ...          "content": {"comm_id": "x", "target_name": "jupyter.widget", "data": {}}})
    "a page may not open a comm on 'jupyter.widget'"
    >>> refusal({"channel": "shell", "header": {"msg_type": "comm_msg"},
    ...          "content": {"comm_id": "x", "data": {"method": "update", "state": {}}}})
    """
    channel, header, content = msg.get("channel") or "shell", msg.get("header"), msg.get("content")
    if not isinstance(header, dict) or not isinstance(content, dict):
        return "no header or content"
    msg_type = header.get("msg_type")
    if not isinstance(msg_type, str) or msg_type not in ALLOWED.get(str(channel), ()):
        return f"{str(msg_type)[:40]} is not a message a page sends"
    if msg_type in {"comm_open", "comm_msg", "comm_close"} and not isinstance(
        content.get("comm_id"), str
    ):
        return f"{msg_type} without a comm id"
    if msg_type == "comm_open":
        target = content.get("target_name")
        if target != CONTROL_TARGET:
            return f"a page may not open a comm on {str(target)[:40]!r}"
        if control_opens >= MAX_CONTROL_OPENS:
            return f"more than {MAX_CONTROL_OPENS} control comms on one socket"
    if msg_type == "comm_msg":
        data = content.get("data")
        method = data.get("method") if isinstance(data, dict) else None
        if method not in COMM_METHODS:
            return f"a widget message with method {str(method)[:40]!r}"
    return None


def withheld(data: str | bytes) -> bool:
    """Whether a message from the kernel holds internals (a traceback, a server path)."""
    from payme.app.plain_errors import internal

    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return internal(text)


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
        _control_opens = 0

        def _origin_named(self) -> bool:
            """Whether the socket names an Origin (Tornado checks it only if it does)."""
            headers = self.request.headers
            if "Origin" in headers or "Sec-Websocket-Origin" in headers:
                return True
            if self.settings.get("payme_allow_socket_without_origin"):
                return True
            self.log.warning("payme: refused a kernel websocket without an Origin")
            return False

        def on_message(self, message: str | bytes) -> Any:
            why: str | None
            if len(message) > MAX_MESSAGE_BYTES:
                why = f"{len(message):,} bytes, over {MAX_MESSAGE_BYTES:,}"
            else:
                try:
                    msg = read_message(message, self.selected_subprotocol)
                except ValueError as error:
                    why = str(error)
                else:
                    why = refusal(msg, self._control_opens)
                    if why is None and msg["header"].get("msg_type") == "comm_open":
                        self._control_opens += 1
            if why is not None:
                self.log.warning("payme: refused a message from a page (%s)", why)
                return None
            return super().on_message(message)

        def write_message(self, message: Any, binary: bool = False) -> Any:
            text = json.dumps(message) if isinstance(message, dict) else message
            if isinstance(text, str | bytes) and withheld(text):
                self.log.warning(
                    "payme: withheld a kernel message holding internals: %.2000r", message
                )
                return None
            return super().write_message(message, binary)

        async def get(self, kernel_id: str) -> None:
            if not self._origin_named():
                raise tornado.web.HTTPError(403)
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
