"""The static site's shell (``make static``): every page of the app in one browser kernel.

On the static site Python runs in the visitor's browser (Pyodide), and starting it takes
seconds.  So the site has one page, rendered under each page's name
(``voici/render/play.html`` ...): it starts Python once, and :class:`Shell` shows the page
the address names by running that page's notebook code (the same cells the server app
runs, copied by the build).  The site's links then swap pages in the same kernel: the
address changes (``history.pushState``), Back and Forward work, and no page boots Python
again.  A page's query string reaches it through :func:`payme.app.page.query_params`, as
under Voilà, so links with settings open the same state.

>>> shell = Shell({"index": ["x = 1"], "demo": ["from IPython.display import display",
...                                             "display('shown'); 'last'"]})
>>> shell.open("demo?step=2")
>>> shell.current, shell.shown
('demo', ['shown', 'last'])
>>> shell.open("nowhere")
>>> shell.current, shell.problem
('demo', "There is no page called 'nowhere' here.")
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from payme.app.page import PAGES, set_site_query, under_static_site

__all__ = ["Shell", "ShellNav", "run_page"]

TITLES = {"index": "Pay Me", **{page.notebook.removesuffix(".ipynb"): page.title for page in PAGES}}


class ShellNav(anywidget.AnyWidget):
    """The page side of the shell (draws nothing): it sends the address (the page's name,
    then its query) when the page opens, when a link of the site is followed and on
    Back/Forward; it marks the current page in the header and names the tab."""

    _esm = Path(__file__).with_name("static_site.js")
    page = traitlets.Unicode("").tag(sync=True)
    title = traitlets.Unicode("Pay Me").tag(sync=True)


def run_page(name: str, cells: Sequence[str]) -> list[Any]:
    """Run a page's cells in a namespace of their own, as a notebook would, and return what
    they show: every ``display(...)`` and each cell's last expression, in order."""
    import IPython.display

    shown: list[Any] = []
    namespace: dict[str, Any] = {"__name__": "__main__"}
    original = IPython.display.display

    def display(*objects: Any, **_kwargs: Any) -> None:
        shown.extend(objects)

    IPython.display.display = display  # the cells import it from there
    try:
        for index, source in enumerate(cells):
            tree = ast.parse(source)
            last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            if last is not None:
                tree.body.pop()
            label = f"<{name} cell {index + 1}>"
            exec(compile(tree, label, "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), label, "eval"), namespace)
                if value is not None:
                    shown.append(value)
    finally:
        IPython.display.display = original
    return shown


class Shell:
    """Shows the page the address names and swaps pages on the site's links.

    ``pages`` maps each page's name to its notebook's code cells (the build copies them).
    A page built before is shown again as it was left, unless the address brings another
    query (a link with settings), which builds it anew.
    """

    def __init__(self, pages: Mapping[str, Sequence[str]]) -> None:
        self.pages = dict(pages)
        self.current = ""
        self.problem = ""
        self.shown: list[Any] = []
        self._built: dict[str, tuple[str, Any]] = {}
        self._nav: ShellNav | None = None
        self._frame: Any = None

    def show(self) -> None:
        """Display the shell: the navigation's page side and the frame pages go in."""
        import ipywidgets as widgets
        from IPython.display import display

        if under_static_site():
            _keep_nulls()
        self._nav = ShellNav()
        self._nav.layout.display = "none"
        self._frame = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self._frame.add_class("payme-shell-frame")
        self._nav.on_msg(self._on_msg)
        display(widgets.VBox([self._nav, self._frame]))  # type: ignore[no-untyped-call]

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and isinstance(content.get("address"), str):
            self.open(content["address"], follow=content.get("kind") == "link")

    def open(self, address: str, *, follow: bool = False) -> None:
        """Show the page ``address`` names (``"play?seed=5"``).

        Back/Forward within the page shown are its own (its address widget restores its
        state); a link followed (``follow``) with a query builds the page from it.
        """
        name, _, query = address.partition("?")
        name = name or "index"
        if name not in self.pages:
            self._say(f"There is no page called {name[:40]!r} here.")
            return
        built = self._built.get(name)
        if name == self.current and not (follow and query and built and query != built[0]):
            return
        if built is None or (query and query != built[0]):
            try:
                built = (query, self._build(name, query))
            except Exception as error:  # the shell keeps working whatever a page does
                from payme.widgets.messages import describe_error

                self._say(f"This page could not be shown: {describe_error(error)}")
                return
            self._built[name] = built
        self.problem = ""
        self.current = name
        if self._frame is not None:
            self._frame.children = (built[1],)
        if self._nav is not None:
            self._nav.title = TITLES.get(name, "Pay Me")
            self._nav.page = name

    def _build(self, name: str, query: str) -> Any:
        set_site_query(query)
        try:
            self.shown = run_page(name, self.pages[name])
        finally:
            set_site_query(None)
        if self._frame is None:  # outside a browser (the doctest): nothing to draw
            return None
        return _as_widget(self.shown)

    def _say(self, text: str) -> None:
        self.problem = text
        if self._frame is not None:
            from payme.widgets import MessageBox

            box = MessageBox()
            box.error(text)
            self._frame.children = (box,)
            self.current = ""


def _keep_nulls() -> None:
    """Send a widget trait set to ``None`` as JSON's null.

    The Pyodide kernel hands a widget message to the page by converting the Python dict to
    JavaScript, where ``None`` becomes ``undefined`` and the key is dropped: a trait set
    back to ``None`` (a hidden button shown again: ``layout.display = None``) never reached
    the page.  Handed a JavaScript object instead (the message as JSON, parsed by the
    page's ``JSON.parse``), the kernel passes it on as it is, nulls and all.
    """
    import json

    import js  # type: ignore[import-not-found]  # only in a browser's Python
    from IPython import get_ipython

    shell = get_ipython()
    send = shell.send_comm

    def as_js(value: Any) -> Any:
        return js.JSON.parse(json.dumps(value if value is not None else {}, default=str))

    def send_comm(msg_type: str, content: Any, metadata: Any, ident: Any, buffers: Any) -> Any:
        return send(msg_type, as_js(content), as_js(metadata), ident, buffers)

    shell.send_comm = send_comm


def _as_widget(shown: list[Any]) -> Any:
    """What a page showed, as one widget: widgets as they are, HTML as an HTML widget."""
    import ipywidgets as widgets

    parts = []
    for item in shown:
        if isinstance(item, widgets.Widget):
            parts.append(item)
        elif hasattr(item, "_repr_html_"):
            parts.append(widgets.HTML(item._repr_html_()))
        elif hasattr(item, "data") and isinstance(item.data, str):
            parts.append(widgets.HTML(item.data))
    box = widgets.VBox(parts, layout=widgets.Layout(max_width="100%"))
    box.add_class("payme-shell-page")
    return box
