"""The web app shell: what every page of the Voilà app shares.

Each notebook in ``notebooks/`` starts with :func:`page_header`, reads its URL with
:func:`query_params` and ends with :func:`page_ready`.  Outside Voilà (JupyterLab, nbval) the
three behave harmlessly: the header is still shown, the query is empty and the kernel is left
alone.

>>> query_params()          # not running under Voilà
{}
>>> under_voila()
False
"""

from __future__ import annotations

import gc
import html
import os
import sys
from collections.abc import Callable
from typing import Any, NamedTuple
from urllib.parse import parse_qsl

from payme.app import plain_errors

__all__ = [
    "LANDING_PAGE",
    "PAGES",
    "Page",
    "home_url",
    "landing_html",
    "page_header",
    "page_ready",
    "query_params",
    "set_site_query",
    "under_static_site",
    "under_voila",
]

# Pages link to each other by relative URLs, so the same links work under `voila notebooks/`
# (pages at /voila/render/NAME.ipynb) and under Jupyter Server on Binder
# (/user/.../voila/render/notebooks/NAME.ipynb).
LANDING_PAGE = "index.ipynb"


class Page(NamedTuple):
    """One page of the app: its notebook in ``notebooks/``, a title and one line about it."""

    notebook: str
    title: str
    blurb: str


# Every page the landing page links, in the order a newcomer would visit them.
PAGES: tuple[Page, ...] = (
    Page(
        "learn_pay_me.ipynb",
        "Learn Pay Me",
        "The rules step by step: the deal, wild cards, melds, going out and paying up.",
    ),
    Page(
        "learn_three_pack.ipynb",
        "Learn Rummy 3-Pack",
        "The cousin game with three packs and its special cards.",
    ),
    Page(
        "hand_builder.ipynb",
        "Hand builder",
        "Pick or type a hand and see its best layout, its deadwood and its penalty points.",
    ),
    Page(
        "puzzles.ipynb",
        "Puzzles",
        "Which card would you discard? Check your answer against the exact solver.",
    ),
    Page(
        "play.ipynb",
        "Play",
        "A whole game of Pay Me or Rummy 3-Pack against bots, with hints on request.",
    ),
    Page(
        "analysis.ipynb",
        "Analysis",
        "Simulate many games between bots and compare rule sets and strategies.",
    ),
)

# Shell messages a Voilà page needs from the browser: the widget comms and the handshake.
# Everything else (execute, complete, inspect, history, debug ...) could run or probe code.
_ALLOWED_SHELL = frozenset(
    {"comm_open", "comm_msg", "comm_close", "comm_info_request", "kernel_info_request"}
)
# The only comm a page opens itself: its widget manager's, to ask for every widget's state.
# A comm opened on "jupyter.widget" would build a widget of the sender's choosing.
_PAGE_COMM_TARGETS = frozenset({"jupyter.widget.control"})
# The control channel also accepts every shell message type; the server needs these two.
_ALLOWED_CONTROL = frozenset({"kernel_info_request", "shutdown_request", "interrupt_request"})


# The page's query string, once read (a page's kernel serves exactly one visit).
_query: str | None = None
# On the static site the shell hands each page its address's query (set_site_query).
_site_query: str | None = None


def under_static_site() -> bool:
    """True in a visitor's browser, on the static site of ``make static`` (Python there is
    Pyodide, whose platform is ``emscripten``).

    >>> under_static_site()
    False
    """
    return sys.platform == "emscripten"


def set_site_query(query: str | None) -> None:
    """The static site's shell (:mod:`payme.app.static_site`): the query string of the page
    it is about to build, which :func:`query_params` then returns.

    >>> set_site_query("step=3&rules=family"); query_params()
    {'step': '3', 'rules': 'family'}
    >>> set_site_query(None); query_params()
    {}
    """
    global _site_query
    _site_query = None if query is None else query.lstrip("?")


def under_voila() -> bool:
    """True when this kernel was started by Voilà (it sets ``VOILA_*`` variables).

    >>> under_voila()
    False
    """
    return "VOILA_BASE_URL" in os.environ or "VOILA_PREHEAT" in os.environ


def query_params() -> dict[str, str]:
    """The page URL's query string as a dict under Voilà; ``{}`` anywhere else.

    A repeated key keeps its last value.  With preheated kernels the notebook runs before
    any visitor arrives; Voilà's ``get_query_string`` then waits for the request.

    >>> query_params()
    {}
    """
    global _query
    if _site_query is not None:
        return dict(parse_qsl(_site_query, keep_blank_values=True))
    if not under_voila():
        return {}
    if _query is None:
        query = os.environ.get("QUERY_STRING", "")
        if os.environ.get("VOILA_PREHEAT") == "True":
            # Voilà answers this wait once per kernel: keep the answer for later calls.
            from voila.utils import get_query_string

            query = get_query_string() or ""
        _query = query
    return dict(parse_qsl(_query, keep_blank_values=True))


def home_url() -> str:
    """Where a page's "home" link goes: the root's landing page under ``payme app``.

    Elsewhere (Voilà as a Jupyter Server extension on Binder, JupyterLab) the landing
    notebook next to the page.

    >>> home_url()
    'index.ipynb'
    """
    if os.environ.get("PAYME_APP") == "1":
        return os.environ.get("VOILA_BASE_URL") or "/"
    if under_static_site():
        return "index.html"
    return LANDING_PAGE


def header_html(title: str, intro: str) -> str:
    """The HTML of a page's own header: its title and one intro paragraph.

    The navigation between pages is the template's (on every page, before the kernel runs).

    >>> header_html("Play", "A game <vs> bots.")
    '<div class="payme-page-header"><h1>Play</h1><p>A game &lt;vs&gt; bots.</p></div>'
    """
    return (
        '<div class="payme-page-header">'
        f"<h1>{html.escape(title)}</h1><p>{html.escape(intro)}</p></div>"
    )


def landing_html() -> str:
    """The landing page's content, as ``notebooks/index.ipynb`` shows it (the app serves the
    same content as a static page at ``/``, without a kernel: :mod:`payme.app.site`).

    On the static site (:func:`under_static_site`) the pages are ``NAME.html`` beside it and
    the pictures in the site's ``img/``.

    >>> text = landing_html()
    >>> all(f'href="{page.notebook}"' in text for page in PAGES)
    True
    """
    from payme.app.site import landing_body

    if under_static_site():
        return landing_body(static="../../", pages="", suffix=".html")
    # index.ipynb is served at voila/render/index.ipynb: the static files are a level up.
    return landing_body(static="../templates/payme/static/", pages="")


def page_header(title: str, intro: str) -> Any:
    """A widget with the page's title, a one-paragraph intro and a link to the landing page.

    >>> page_header("Puzzles", "Find the best discard.").value.startswith('<div class="payme')
    True
    """
    import ipywidgets as widgets

    header = widgets.HTML(header_html(title, intro))
    header.add_class("payme-header")
    return header


def page_ready() -> None:
    """Last cell of every page: under Voilà, lock the kernel against code sent by the page.

    Voilà runs the notebook itself and then only relays the widgets' comm messages; but its
    kernel websocket would pass an ``execute_request`` from any script in the page straight
    to the kernel.  After this call the kernel answers such requests with an error and runs
    nothing.  Outside Voilà it does nothing, so notebooks still work in JupyterLab.

    >>> page_ready()   # not under Voilà: a no-op
    """
    if not under_voila():
        return
    from IPython import get_ipython

    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    if kernel is None:
        return
    lock_kernel(kernel)
    # From now on errors come from the visitor's clicks (widget callbacks), which IPython
    # would answer with a full traceback streamed to the page: a plain line instead, and so
    # for logged errors, warnings and anything else written to standard error.
    shell.showtraceback = _plain_traceback
    plain_errors.install()
    _keep_start_up()


def _keep_start_up() -> None:
    """Take what the kernel holds now (its modules, the page's widgets) out of every later
    garbage collection: collect once, then :func:`gc.freeze` the rest.

    A page's kernel tracks some 68,000 objects once the page is built (ipykernel, IPython,
    ipywidgets, the page), nearly all of them kept until the kernel ends.  Each full
    collection walks them all -- 60 ms on the machine of docs/app.md -- inside whichever
    click happens to trigger it, such as a bot's turn at the Play table.  Frozen, they are
    never walked again; what the page makes from then on is collected as usual.
    """
    gc.collect()
    gc.freeze()


def lock_kernel(kernel: Any) -> None:
    """Replace every kernel message handler outside the allow-lists with a refusal, and guard
    the widgets' messages (:func:`_guarded_comm`)."""
    for handlers, allowed in (
        (kernel.shell_handlers, _ALLOWED_SHELL),
        (kernel.control_handlers, _ALLOWED_CONTROL),
    ):
        for msg_type in list(handlers):
            if msg_type not in allowed:
                handlers[msg_type] = _refuser(kernel, msg_type)
    for msg_type in ("comm_open", "comm_msg", "comm_close"):
        if msg_type in kernel.shell_handlers:
            kernel.shell_handlers[msg_type] = _guarded_comm(kernel.shell_handlers[msg_type])


# What the page is told when a widget message cannot be used: plain words, no details (the
# kernel's stderr reaches the browser, so a traceback would show the server's paths).
COMM_REFUSED = plain_errors.PLAIN_ERROR


def _plain_traceback(*args: Any, **kwargs: Any) -> None:
    print(COMM_REFUSED, file=sys.stderr)


def _guarded_comm(handler: Any) -> Callable[[Any, Any, dict[str, Any]], None]:
    """A comm handler that ignores malformed messages and comms opened by the page on
    targets other than its widget manager's, and answers a failing widget update with
    :data:`COMM_REFUSED` instead of a traceback.

    Jupyter's own handlers log the traceback of any failure (a message without a comm id, a
    dropdown sent ``index: null``) to stderr, which the kernel streams to the page.
    """
    manager = getattr(handler, "__self__", None)

    def guarded(stream: Any, ident: Any, parent: dict[str, Any]) -> None:
        plain_errors.wrap_streams()
        content = parent.get("content") if isinstance(parent, dict) else None
        if not isinstance(content, dict) or not isinstance(content.get("comm_id"), str):
            print(COMM_REFUSED, file=sys.stderr)
            return
        msg_type = parent.get("header", {}).get("msg_type")
        if msg_type == "comm_open" and content.get("target_name") not in _PAGE_COMM_TARGETS:
            print(COMM_REFUSED, file=sys.stderr)
            return
        try:
            if msg_type == "comm_msg" and manager is not None:
                # Jupyter's comm_msg catches the widget's error itself to log its traceback.
                comm = manager.get_comm(content["comm_id"])
                if comm is not None:
                    comm.handle_msg(parent)
            else:
                handler(stream, ident, parent)
        except Exception:
            print(COMM_REFUSED, file=sys.stderr)

    return guarded


def _refuser(kernel: Any, msg_type: str) -> Callable[[Any, Any, dict[str, Any]], None]:
    reply_type = msg_type.replace("_request", "_reply")

    def refuse(stream: Any, ident: Any, parent: dict[str, Any]) -> None:
        # Reply with an error so a client gets an answer instead of hanging.
        content = {
            "status": "error",
            "ename": "PermissionError",
            "evalue": f"{msg_type} is disabled in the payme web app",
            "traceback": [],
            "execution_count": kernel.execution_count,
        }
        kernel.session.send(stream, reply_type, content, parent, ident=ident)

    return refuse
