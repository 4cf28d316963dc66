"""Sphinx settings for payme's documentation, built by ``make docs``: the narrative pages
(``docs/*.md``, Markdown read by MyST) and the API reference (``docs/api/``, generated from
the docstrings)."""

from __future__ import annotations

import payme

project = "payme"
author = "the payme authors"
copyright = "2026, the payme authors"
release = payme.__version__
version = release

# No napoleon: the docstrings are reST, not Google or NumPy style, and napoleon would read an
# attribute docstring such as "Special cards ...: ``(token, copies)``" as a type annotation.
extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# Headings get anchors, so a page may link to another page's section (page.md#section).
myst_heading_anchors = 3

# The docstrings are reST with doctest examples; a name is documented where it is defined
# (its module's page), in source order, so the reference reads like the modules.
autodoc_default_options = {
    "members": True,
    "member-order": "bysource",
    "show-inheritance": True,
}
autodoc_typehints = "description"
autodoc_class_signature = "separated"

# Every cross-reference must resolve (make docs runs nitpicky, -n -W).  The build runs
# offline, so there is no intersphinx inventory for the standard library, pandas or
# matplotlib: references into them are left as plain text.  pandas and matplotlib hints are
# imported only for type checkers, so they stay as written (``pd.DataFrame``, ``Figure``).
nitpick_ignore_regex = [
    ("py:class", r"(collections|collections\.abc|typing|abc|fractions|random|types)\.\w+"),
    ("py:class", r"(pathlib|dataclasses)\.\w+"),
    # The compiled core's types (payme/solver/_core.c) have no Python source to document.
    ("py:class", r"(payme\.solver\._core\.)?(Hands|Fields|GSearch|NSearch)"),
    ("py:class", r"(pd|pandas|matplotlib)\..*|Figure|Axes"),
    # Type variables in signatures (autodoc links them, but they are not documented objects).
    ("py:class", r"payme\.game\.view\.(V|_D)|payme\.game\.base\.G"),
    ("py:class", r"payme\.codes\.(R|K|V)|payme\.memo\.V"),
    ("py:obj", r"payme\.memo\.V"),  # RecentMemo's base, Generic[V]
    # The widgets need ipywidgets and are not in this reference; the play model names the
    # page that draws it.
    ("py:class", r"(payme\.widgets\.play\.)?PlayPage"),
    # A return type the simulation's module keeps out of its __all__ (so out of the reference).
    ("py:class", r"payme\.analysis\.simulate\.Batches"),
    # The standard library's process pool; the review's tuple of a run of deals (an alias).
    ("py:class", r"(concurrent\.futures(\.process)?\.)?(ProcessPoolExecutor|Future)"),
    ("py:class", r"(payme\.analysis\.yardstick\.)?PairsTask"),
]

html_theme = "alabaster"
html_title = f"payme {release}"
exclude_patterns = ["_build", "screenshots"]
