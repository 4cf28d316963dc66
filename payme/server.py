"""Serve the payme web app: Voilà over ``notebooks/``, with the file browser taken out.

``python -m payme.server notebooks/`` takes the same options as ``voila`` (the Makefile's
``make app`` runs it).  Compared with plain ``voila notebooks/`` it

* answers ``/`` with a redirect to the landing page ``voila/render/index.ipynb``;
* removes Voilà's tree pages (``/voila/tree...``) and its contents API
  (``/voila/api/contents...``), so a visitor can open the app's pages but never list or read
  the files around them (those URLs answer 404);
* shuts a page's kernel down when the visitor leaves the page (Voilà's own request for that
  is refused for want of an XSRF token, so kernels would pile up);
* reads ``voila.json`` from the repository (template, theme, tracebacks, headers) and finds
  the repository's Voilà template under ``share/jupyter``, whatever the working directory.

The page-side half of the protection, refusing code sent over the kernel websocket, is
:func:`payme.webapp.page_ready`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
LANDING = "voila/render/index.ipynb"
# URL fragments of the Voilà routes that list or describe files.
_REMOVED_ROUTES = ("/voila/tree", "/voila/api/contents")


def _share_dir() -> Path | None:
    """The repository's ``share/jupyter`` (holding the payme Voilà template), if present."""
    share = REPO / "share" / "jupyter"
    return share if (share / "voila" / "templates" / "payme").is_dir() else None


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


def make_app_class() -> type:
    """Build the Voilà application subclass (Voilà is imported only here)."""
    import tornado.web
    from jupyter_core.paths import jupyter_config_path
    from jupyter_server.utils import url_path_join
    from traitlets import default
    from voila.app import Voila

    class PaymeVoila(Voila):  # type: ignore[misc]
        name = "payme-voila"
        description = "The payme web app (Voilà without a file browser)."

        @default("config_file_paths")
        def _config_file_paths_default(self) -> list[str]:
            return [str(REPO), os.getcwd(), *jupyter_config_path()]

        def init_handlers(self) -> list[Any]:
            handlers = [
                _with_shutdown_fix(h)
                for h in super().init_handlers()
                if keep_route(h[0], self.server_url)
            ]
            landing = url_path_join(self.server_url, LANDING)
            # Tornado tries handlers in order; put the root redirect first.
            handlers.insert(0, (self.server_url, tornado.web.RedirectHandler, {"url": landing}))
            return handlers

    return PaymeVoila


def main(argv: list[str] | None = None) -> None:
    """Run the app; ``argv`` as for ``voila`` (default: ``sys.argv[1:]``)."""
    share = _share_dir()
    if share is not None:
        # Voilà looks for templates along JUPYTER_PATH.
        paths = [str(share), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))]
        os.environ["JUPYTER_PATH"] = os.pathsep.join(paths)
    app_class: Any = make_app_class()
    app_class.launch_instance(argv=sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
