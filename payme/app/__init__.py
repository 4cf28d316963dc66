"""The web app layer: the Voilà server, what every page shares, the template and static files.

* :mod:`payme.app.server`: ``payme app`` / ``python -m payme.app.server``, Voilà without a file
  browser, with the settings in ``voila.json`` next to it;
* :mod:`payme.app.page`: the helpers each notebook page calls (header, URL query, kernel lock);
* :mod:`payme.app.front_end`: which front end the pages load (payme's light one, built into
  ``static/lite/`` from the repository's ``frontend/``, or Voilà's);
* ``share/jupyter/voila/templates/payme/``: the Voilà template of every page;
* ``static/``: files served without a kernel (``payme.css``, the landing page).

Importing this package is light (no Voilà, Jupyter or widgets):

>>> import payme.app.page, payme.app.server
"""
