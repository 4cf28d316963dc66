"""The scripts Voilà's front end fetches only after the page has arrived, named up front.

This concerns Voilà's own front end (``--PaymeVoila.front_end=voila``); the app's default,
payme's light front end (:mod:`payme.app.front_end`), is one script the template names.

Voilà's front end starts on the window's load event, which comes after the notebook's last
cell.  Only then does it fetch, in three waves, each waiting for the one before: the widget
extensions' modules, then 16 chunks of Voilà's own bundle (once it has asked for the kernel),
then the widget controls (once the first widget's state has arrived).  Every page fetches the
same 32 files.  The template names them in ``<link rel="preload">`` tags sent with the page's
header, so the browser fetches them while the kernel starts and runs the notebook, and the
three waves find them already there.

The names carry the hashes of the pinned front-end builds (``pyproject.toml`` pins voila,
ipywidgets and jupyterlab_widgets): :func:`missing` lists names no longer installed, and the
browser test ``test_every_script_of_voila_front_end_is_preloaded`` names any script a page
fetches late that is not in :data:`SCRIPTS`.  After moving those pins, update
:data:`SCRIPTS` from that test's message and run ``python -m payme.app.site``.

Voilà's entry script (``voila.js``) itself asks for 56 chunks as soon as it runs, and the
window's load event waits for them; fetched only then, six at a time (HTTP/1.1), they took
0.4 s after it.  :data:`ENTRY` names them too, before the 32 later scripts (a preload at
low priority waits for the page's HTML to end, which comes after the notebook: later than the
front end wants them); the template asks for ``voila.js`` itself at high priority (an async
script is otherwise fetched after all the preloads).

>>> len(ENTRY), len(SCRIPTS), SCRIPTS[0]
(56, 32, ('labextensions', 'anywidget/static/2.3dbf81c0.js'))
>>> print(preload_partial().splitlines()[2])
<link rel="preload" as="script" href="{{ page_config['fullStaticUrl'] | e }}/5764.voila.js">
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ENTRY", "PARTIAL", "SCRIPTS", "missing", "preload_partial"]

# Where the partial goes, under payme/app/ (the template includes it).
PARTIAL = "share/jupyter/voila/templates/payme/payme_preload.html.j2"

# (where it is served from, its path there), in the order the page asks for them.  A
# labextension chunk's ``?v=`` query is part of the URL webpack asks for: a preload is only
# used by a request for exactly its URL.
_WIDGET_EXTENSIONS = (
    "anywidget/static/2.3dbf81c0.js",
    "@voila-dashboards/widgets-manager8/static/651.d9c6fa52270ea21fdf9e.js?v=d9c6fa52270ea21fdf9e",
    "@voila-dashboards/widgets-manager8/static/264.95d855dc9ed80b79c78e.js?v=95d855dc9ed80b79c78e",
    "anywidget/static/528.d9f5934c.js",
    "@jupyter-widgets/jupyterlab-manager/static/651.fe40a967a60b543cf15c.js?v=fe40a967a60b543cf15c",
    "@jupyter-widgets/jupyterlab-manager/static/420.063e2ee9f71033206b1f.js?v=063e2ee9f71033206b1f",
    "@jupyter-widgets/jupyterlab-manager/static/439.33696bc45fbd403becbb.js?v=33696bc45fbd403becbb",
    "@jupyter-widgets/jupyterlab-manager/static/327.8166aeb81cf1531ca240.js?v=8166aeb81cf1531ca240",
    "@jupyter-widgets/jupyterlab-manager/static/722.3fefeac9cae358348cbc.js?v=3fefeac9cae358348cbc",
    "@jupyter-widgets/jupyterlab-manager/static/446.bf169bd3821a9ba1aa62.js?v=bf169bd3821a9ba1aa62",
    "@voila-dashboards/widgets-manager8/static/883.bbe30bf61f3074749dda.js?v=bbe30bf61f3074749dda",
    "@voila-dashboards/widgets-manager8/static/324.aa49bd5aec16839cc9e0.js?v=aa49bd5aec16839cc9e0",
    "@voila-dashboards/widgets-manager8/static/603.9866b69497a4a124e57f.js?v=9866b69497a4a124e57f",
    "@voila-dashboards/widgets-manager8/static/496.45f50ff8111515264be7.js?v=45f50ff8111515264be7",
)
_VOILA_CHUNKS = [4371, 2829, 7259, 6074, 4875, 4486, 6305, 7393, 225, 614, 1996, 2121, 2772]
_VOILA_CHUNKS += [2296, 7245, 5992]
# The chunks Voilà's entry script (voila.js) asks for as soon as it runs, in its order: the
# load event, and so the front end's start, waits for all of them.
_VOILA_ENTRY = [5764, 8135, 3992, 9582, 8925, 7883, 7556, 6049, 1670, 6573, 3311, 4135, 1621]
_VOILA_ENTRY += [3916, 3649, 8487, 9684, 4041, 143, 7155, 3144, 1601, 4972, 9890, 5312, 6468]
_VOILA_ENTRY += [3459, 630, 5688, 2930, 73, 1187, 4173, 7483, 431, 3989, 8766, 9151, 4729]
_VOILA_ENTRY += [6382, 5044, 7598, 9081, 7770, 3249, 4653, 8862, 9981, 5767, 4222, 8773, 3307]
_VOILA_ENTRY += [6008, 8017, 457, 9212]
# The landing page (notebooks/index.ipynb) shows no widget, so it needs none of these.
LANDING = "index"
_WIDGET_CONTROLS = (
    "@jupyter-widgets/jupyterlab-manager/static/727.2abc0b27bd0932fb5f81.js?v=2abc0b27bd0932fb5f81",
    "@jupyter-widgets/jupyterlab-manager/static/586.5a62b313f9ec1d9df348.js?v=5a62b313f9ec1d9df348",
)
ENTRY: tuple[tuple[str, str], ...] = tuple(("static", f"{n}.voila.js") for n in _VOILA_ENTRY)
SCRIPTS: tuple[tuple[str, str], ...] = (
    *(("labextensions", p) for p in _WIDGET_EXTENSIONS),
    *(("static", f"{n}.voila.js") for n in _VOILA_CHUNKS),
    *(("labextensions", p) for p in _WIDGET_CONTROLS),
)

# The page config's URL of each place (Voilà's lab template reads the same keys).
_URL_KEY = {"labextensions": "fullLabextensionsUrl", "static": "fullStaticUrl"}
# Where each place's files are installed, under a Jupyter data directory (Voilà's own
# widget manager is among Voilà's labextensions).
_DATA_DIRS = {
    "labextensions": (("labextensions",), ("voila", "labextensions")),
    "static": (("voila", "templates", "base", "static"),),
}


def preload_partial() -> str:
    """The Jinja partial of preload tags that the payme template includes: :data:`ENTRY`
    first (needed before the load event), then :data:`SCRIPTS` (needed after it); the
    browser fetches them in this order, six at a time."""
    lines = [
        "{#- Generated by `python -m payme.app.site` from payme.app.preload: do not edit. -#}",
        "{#- The chunks voila.js asks for when it runs, fetched beside it -#}",
    ]
    for place, path in ENTRY:
        url = f"{{{{ page_config['{_URL_KEY[place]}'] | e }}}}/{path}"
        lines.append(f'<link rel="preload" as="script" href="{url}">')
    lines.append(
        "{#- Scripts the front end fetches after the page has arrived, fetched now instead -#}"
    )
    controls = {("labextensions", p) for p in _WIDGET_CONTROLS}
    for place, path in SCRIPTS:
        url = f"{{{{ page_config['{_URL_KEY[place]}'] | e }}}}/{path}"
        tag = f'<link rel="preload" as="script" href="{url}">'
        if (place, path) in controls:
            # The landing page has no control: the browser would warn that these went unused.
            tag = f"{{% if payme_page != {LANDING!r} %}}{tag}{{% endif %}}"
        lines.append(tag)
    return "\n".join(lines) + "\n"


def missing() -> list[str]:
    """The listed scripts that no Jupyter data directory holds (``[]``: all installed).

    >>> missing()
    []
    """
    from jupyter_core.paths import jupyter_path

    out = []
    for place, path in (*ENTRY, *SCRIPTS):
        file = path.split("?", 1)[0]
        roots = [Path(d) for sub in _DATA_DIRS[place] for d in jupyter_path(*sub)]
        if not any((root / file).is_file() for root in roots):
            out.append(f"{place}/{file}")
    return out
