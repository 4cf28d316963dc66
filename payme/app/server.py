"""Serve the payme web app: Voilà over ``notebooks/``, with the file browser taken out.

``python -m payme.app.server notebooks/`` (or ``python -m payme.server``) takes the same
options as ``voila`` (the Makefile's ``make app`` runs it).  Compared with plain
``voila notebooks/`` it

* answers ``/`` with the landing page ``static/index.html``, a file: no kernel starts for it;
* removes Voilà's tree pages (``/voila/tree...``) and its contents API
  (``/voila/api/contents...``), so a visitor can open the app's pages but never list or read
  the files around them (those URLs answer 404);
* shuts a page's kernel down when the visitor leaves the page (Voilà's own request for that
  is refused for want of an XSRF token, so kernels would pile up);
* reads ``voila.json`` next to this file (template, theme, tracebacks, headers) and finds
  the app's Voilà template under ``share/jupyter`` here, whatever the working directory;
* serves the files of ``static/`` here (the style sheet) without a kernel, as the payme
  template's static files (``voila/templates/payme/static/...``).

The page-side half of the protection, refusing code sent over the kernel websocket, is
:func:`payme.app.page.page_ready`.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from payme.app.memory import ADDRESS_SPACE_MB, LIMIT_ENV

APP = Path(__file__).resolve().parent
# A Jupyter data directory holding the app's Voilà template (voila/templates/payme).
SHARE = APP / "share" / "jupyter"
# Files served without a kernel, looked up first among the payme template's static files.
STATIC = APP / "static"
TEMPLATE = "payme"
# The landing page, served at the root as a file.
LANDING = "index.html"
# URL fragments of the Voilà routes that list or describe files, and the log-in pages of a
# server that has no log-in (its /logout answered 500).
_REMOVED_ROUTES = ("/voila/tree", "/voila/api/contents", "/login", "/logout")
# A template's static file: voila/templates/<template>/static/<file>.
_TEMPLATE_STATIC = re.compile(r"[A-Za-z0-9_-]+/static/[^\x00]+")
# The longest URL (path and query) the app serves; longer ones get the 414 page.  The longest
# page state, a Play game's URL with its moves, is a few kB.
MAX_URL_BYTES = 16 * 1024
# How much of a request's head the server reads (Tornado's default is 64 kB, beyond which it
# closed the connection without an answer): room for a 414 page for URLs up to about this.
MAX_HEADER_BYTES = 1024 * 1024
# The 414 page (plain HTML, no kernel).
URL_TOO_LONG = "too_long.html"


def notebooks_dir() -> Path:
    """The app's pages: the copy a wheel carries, else a clone's top-level ``notebooks/``.

    >>> notebooks_dir().joinpath("play.ipynb").is_file()
    True
    """
    for folder in (APP / "notebooks", APP.parents[1] / "notebooks"):
        if folder.is_dir():
            return folder
    raise FileNotFoundError(
        f"the app's notebooks are missing: neither {APP / 'notebooks'} (an installed wheel) "
        f"nor {APP.parents[1] / 'notebooks'} (a clone) exists"
    )


def with_notebooks(argv: list[str]) -> list[str]:
    """Voilà's arguments with the app's notebooks folder first, unless one is given.

    >>> with_notebooks(["--port=9000"])[1:]
    ['--port=9000']
    >>> with_notebooks(["."]) == [str(Path.cwd())]
    True

    A folder given is made absolute (Jupyter's checks of hidden files require it).
    """
    given = [not arg.startswith("-") and Path(arg).exists() for arg in argv]
    if any(given):
        return [str(Path(a).resolve()) if g else a for a, g in zip(argv, given, strict=True)]
    return [str(notebooks_dir()), *argv]


def keep_route(pattern: str, base_url: str = "/") -> bool:
    """Whether a Voilà route stays: the root and the file-listing routes go.

    >>> keep_route("/voila/render/(.*)"), keep_route("/voila/tree(?P<path>...)")
    (True, False)
    >>> keep_route("/"), keep_route("/voila/api/contents(?P<path>...)")
    (False, False)
    """
    if pattern.rstrip("/") == base_url.rstrip("/"):
        return False
    return not any(pattern.startswith(base_url.rstrip("/") + r) for r in _REMOVED_ROUTES)


def _with_shutdown_fix(handler: Any) -> Any:
    """Swap Voilà's kernel-shutdown handler for one that accepts the page's own beacon.

    Leaving a page, Voilà's script asks the server to shut the page's kernel down with
    ``navigator.sendBeacon``, which cannot carry Jupyter's XSRF token, so Voilà 0.5.13 answers
    403 and the kernel lives on until the server stops (voila-dashboards/voila#1458): every
    visit would leak a kernel.  The replacement accepts the request when the browser says it
    comes from this very origin (``Origin`` equals the host), and checks XSRF otherwise.
    """
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    if len(handler) < 2 or handler[1] is not VoilaShutdownKernelHandler:
        return handler

    class SameOriginShutdownHandler(VoilaShutdownKernelHandler):  # type: ignore[misc]
        def check_xsrf_cookie(self) -> None:
            if self.request.headers.get("Origin") and self.check_origin():
                return None
            super().check_xsrf_cookie()
            return None

    return (handler[0], SameOriginShutdownHandler, *handler[2:])


def _with_app_static(handler: Any) -> Any:
    """Swap Voilà's template static-file handler for one that also serves :data:`STATIC`.

    ``voila/templates/payme/static/payme.css`` then comes from ``payme/app/static/`` (looked up
    before the template's and its base templates' own static folders).
    """
    from voila.static_file_handler import TemplateStaticFileHandler

    if len(handler) < 2 or handler[1] is not TemplateStaticFileHandler:
        return handler

    import tornado.web

    class AppStaticFileHandler(TemplateStaticFileHandler):  # type: ignore[misc]
        def parse_url_path(self, path: str) -> str:
            # Voilà's handler answers 500 to anything else (it splits and asserts).
            if not _TEMPLATE_STATIC.fullmatch(path) or ".." in path.split("/"):
                raise tornado.web.HTTPError(404)
            try:
                url_path: str = super().parse_url_path(path)
            except ValueError:  # an unknown template
                raise tornado.web.HTTPError(404) from None
            if path.startswith(f"{TEMPLATE}/static/"):
                roots: list[str] = getattr(self, "roots")  # noqa: B009 (set by super)
                self.roots = [str(STATIC), *roots]
            return url_path

        @classmethod
        def get_absolute_path(cls, root: str, path: str) -> str:
            prefix = f"{TEMPLATE}/static/"
            if path.startswith(prefix):
                own = (STATIC / path[len(prefix) :]).resolve()
                if own.is_file():
                    return str(own)
            try:
                return str(super().get_absolute_path(root, path))
            except (ValueError, AssertionError):  # a path Voilà cannot split: not found
                raise tornado.web.HTTPError(404) from None

    return (handler[0], AppStaticFileHandler, *handler[2:])


def _headers_transform(headers: dict[str, str]) -> type:
    """An output transform giving every response the app's security headers: error pages and
    static files too, whichever handler (or none) answers.  (Cookies get ``SameSite=Lax``
    from voila.json: tornado adds them after the transforms.)"""
    import tornado.web

    class AppHeaders(tornado.web.OutputTransform):
        def transform_first_chunk(
            self, status_code: int, response: Any, chunk: bytes, finishing: bool
        ) -> tuple[int, Any, bytes]:
            for name, value in headers.items():
                if name not in response:
                    response[name] = value
            return status_code, response, chunk

    return AppHeaders


def _landing_handler() -> type:
    """The handler of ``/``: the landing page's file, with the app's headers, no kernel."""
    from jupyter_server.base.handlers import JupyterHandler

    class LandingHandler(JupyterHandler):
        def get(self) -> None:
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.set_header("Cache-Control", "no-cache")
            self.finish((STATIC / LANDING).read_bytes())

    return LandingHandler


def _too_long_handler() -> type:
    """The handler of a URL over :data:`MAX_URL_BYTES`: the 414 page."""
    from jupyter_server.base.handlers import JupyterHandler

    class TooLongHandler(JupyterHandler):
        async def prepare(self, **_kwargs: Any) -> None:  # every method, before Jupyter's checks
            self.set_status(414)
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.set_header("Cache-Control", "no-store")
            self.finish((STATIC / URL_TOO_LONG).read_bytes())

    return TooLongHandler


def refuse_long_urls(app: Any, limit: int = MAX_URL_BYTES) -> None:
    """Make the Tornado application ``app`` answer URLs longer than ``limit`` with the 414
    page, whatever their route (the query string included)."""
    find_handler = app.find_handler
    too_long = _too_long_handler()

    def find(request: Any, **kwargs: Any) -> Any:
        if len(request.uri or "") > limit:
            return app.get_handler_delegate(request, too_long)
        return find_handler(request, **kwargs)

    app.find_handler = find


def make_app_class() -> type:
    """Build the Voilà application subclass (Voilà is imported only here)."""
    from jupyter_core.paths import jupyter_config_path
    from jupyter_server.utils import url_path_join
    from tornado.ioloop import IOLoop
    from traitlets import Bool, Enum, Float, Integer, default
    from voila.tornado.handler import TornadoVoilaHandler
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    from payme.app import front_end as pages_front_end
    from payme.app.budget import (
        FIRST_CONTACT_S,
        KernelBudget,
        budget_handlers,
        default_max_kernels,
        default_max_renders,
        default_memory_mb,
        watch_kernel_manager,
    )
    from payme.app.jinja_cache import install as cache_templates
    from payme.app.memory import default_kernel_limit_mb
    from payme.app.sockets import MAX_FRAME_BYTES, kernel_socket_handler
    from payme.app.spare import SPARE_KERNELS, SparePool

    pages_front_end.add_to_templates()  # the payme template reads which front end to load
    cache_templates()  # templates compiled once per server, not per page view
    page_handler, alive_handler = budget_handlers(TornadoVoilaHandler)
    socket_handler = kernel_socket_handler()

    from voila.app import Voila

    class PaymeVoila(Voila):  # type: ignore[misc]
        name = "payme-voila"
        description = "The payme web app (Voilà without a file browser)."

        max_kernels = Integer(
            0,
            config=True,
            help="Most page kernels at once; more visitors get the busy page, which retries "
            "(0: the fewer of what half the machine's memory holds and 12 a core, see "
            "payme.app.budget).",
        )
        max_renders = Integer(
            0,
            config=True,
            help="Most pages rendered at once; more visitors wait in line, then get the busy "
            "page (0: two a core, see payme.app.budget).",
        )
        queue_wait = Float(
            10,
            config=True,
            help="Seconds a visitor waits in line for a render before getting the busy page.",
        )
        idle_timeout = Float(
            600,
            config=True,
            help="Seconds a connected page may stay idle before its kernel is shut down.",
        )
        spare_kernels = Integer(
            SPARE_KERNELS,
            config=True,
            help="Kernels started ahead of visits, each taken by the next visit instead of "
            "starting its own (0: none; off with --preheat_kernel; see payme.app.spare).",
        )

        kernel_memory_mb = Float(
            0,
            config=True,
            help="Memory (MB) a page's kernel may use, its worker processes included; a "
            "kernel over it is ended and its page says the connection was lost (0: 400 MB "
            "and 400 MB a core, see payme.app.memory).",
        )
        kernels_memory_mb = Float(
            0,
            config=True,
            help="Memory (MB) all kernels may use together; a visit that would pass it gets "
            "the busy page (0: half the machine's memory).",
        )
        allow_socket_without_origin = Bool(
            False,
            config=True,
            help="Accept kernel websockets that name no Origin (browsers always name one; "
            "a script may not).",
        )
        first_contact_s = Float(
            FIRST_CONTACT_S,
            config=True,
            help="Seconds after its render a page may stay silent (no question from its "
            "script, no websocket) before its render turn and kernel are given back.",
        )

        front_end = Enum(
            pages_front_end.FRONT_ENDS,
            default_value=pages_front_end.DEFAULT_FRONT_END,
            config=True,
            help="The pages' front end: 'lite', payme's own (static/lite, built from "
            "frontend/), or 'voila', Voilà's JupyterLab-based one (see payme.app.front_end).",
        )

        def init_settings(self) -> dict[str, Any]:
            settings: dict[str, Any] = super().init_settings()
            if pages_front_end.choose(self.front_end) != self.front_end:
                self.log.warning(
                    "payme: the light front end is not installed (%s): pages use Voilà's",
                    pages_front_end.BUNDLE,
                )
            settings["payme_allow_socket_without_origin"] = self.allow_socket_without_origin
            settings["websocket_max_message_size"] = MAX_FRAME_BYTES
            budget = KernelBudget(
                self.max_kernels or default_max_kernels(),
                self.max_renders or default_max_renders(),
                self.queue_wait,
                memory_mb=self.kernels_memory_mb or default_memory_mb(),
            )
            budget.first_contact_s = self.first_contact_s
            self.log.info(
                "payme: at most %d page kernels and %d renders at once; %.0f MB a kernel, "
                "%.0f MB for all",
                budget.max_kernels,
                budget.max_renders,
                self.kernel_memory_mb or default_kernel_limit_mb(),
                budget.memory_mb or 0,
            )
            settings["payme_budget"] = budget
            spares = self._spares(budget)
            watch_kernel_manager(
                self.kernel_manager,
                budget,
                self.idle_timeout,
                self.log,
                spares,
                kernel_memory_mb=self.kernel_memory_mb or None,
            )
            return settings

        def _spares(self, budget: KernelBudget) -> SparePool | None:
            """The spare kernels (none with Voilà's preheated kernels, which start ahead
            already); the first is started as soon as the server runs."""
            if self.spare_kernels <= 0 or self.voila_configuration.preheat_kernel:
                return None
            manager = self.kernel_manager
            spares = SparePool(
                manager,
                self.spare_kernels,
                start_kernel=manager.start_kernel,  # its own, before the budget wraps it
                room=lambda: len(manager.list_kernel_ids()) + budget.starting < budget.max_kernels,
                quiet=lambda: budget.rendering == 0 and budget.queued == 0,
                log=self.log,
            )
            budget.spare_ids = lambda: spares.spares
            IOLoop.current().add_callback(spares.refill_later, 0.0)
            self.log.info("payme: keeps %d spare kernel(s) started ahead of visits", spares.size)
            return spares

        @default("config_file_paths")
        def _config_file_paths_default(self) -> list[str]:
            return [str(APP), os.getcwd(), *jupyter_config_path()]

        def init_handlers(self) -> list[Any]:
            handlers = [
                _with_app_static(_with_shutdown_fix(h))
                for h in super().init_handlers()
                if keep_route(h[0], self.server_url)
            ]
            self.app.add_transform(_headers_transform(dict(self.app.settings.get("headers", {}))))
            refuse_long_urls(self.app)
            listen = self.app.listen
            self.app.listen = lambda port, address="", **kw: listen(
                port, address, **{"max_header_size": MAX_HEADER_BYTES, **kw}
            )
            # Pages under the kernel budget; kernel sockets refused at once when the kernel is
            # gone or going.
            swap = {TornadoVoilaHandler: page_handler, VoilaKernelWebsocketHandler: socket_handler}
            handlers = [(h[0], swap.get(h[1], h[1]), *h[2:]) for h in handlers]
            alive = url_path_join(self.server_url, r"/payme/api/alive/([-0-9a-f]+)")
            handlers.insert(0, (alive, alive_handler))
            # Tornado tries handlers in order; the root's landing page comes first.
            handlers.insert(0, (self.server_url, _landing_handler()))
            return handlers

    return PaymeVoila


def main(argv: list[str] | None = None) -> None:
    """Run the app; ``argv`` as for ``voila`` (default: ``sys.argv[1:]``).

    Without a notebook folder among the arguments, the app's own (:func:`notebooks_dir`).
    """
    # The pages' kernels inherit this: their header links home to the root's landing page.
    os.environ["PAYME_APP"] = "1"
    # ... and this: the address space each may map (payme.app.memory).
    os.environ.setdefault(LIMIT_ENV, str(ADDRESS_SPACE_MB))
    # Voilà looks for templates along JUPYTER_PATH.
    paths = [str(SHARE), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(paths)
    app_class: Any = make_app_class()
    app_class.launch_instance(argv=with_notebooks(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
