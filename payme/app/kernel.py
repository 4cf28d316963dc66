"""The app pages' kernel: ipykernel without the debugger, and with bytecode kept.

A page's kernel starts on every visit, before its notebook can run, so what the kernel imports
at start is time the visitor waits for.  ipykernel imports the debugger (debugpy and pydevd,
about 0.07 s of CPU) at start whenever it is installed, yet a page of the app never debugs:
its kernel refuses every request but the widgets' (:func:`payme.app.page.page_ready`).  The
app's kernel spec (``share/jupyter/kernels/python3/kernel.json``, found first on the
``JUPYTER_PATH`` that :mod:`payme.app.server` sets) starts this module instead of
``ipykernel_launcher``; JupyterLab and nbval keep the ordinary kernel.

Every visit's kernel imports the same modules.  Where ``PYTHONDONTWRITEBYTECODE`` is set (as
in many container images, and on the machine these pages were measured on), Python never
writes their bytecode, so each kernel compiled payme's modules from source again: 0.1-0.2 s
of CPU a visit (Rummy 3-Pack's tutorial module alone 0.07 s).  This kernel writes bytecode
whatever that variable says: the first visit writes it, later ones read it (where the
package's folder is read-only, as in a system install, nothing is written and nothing fails).

    python -m payme.app.kernel -f CONNECTION_FILE
"""

from __future__ import annotations

import sys


def main() -> None:
    """Start an IPython kernel with the debugger left out (``debugpy`` cannot be imported)
    that writes the bytecode of what it imports."""
    sys.dont_write_bytecode = False
    # ipykernel then answers that it has no debugger, as when debugpy is not installed.
    sys.modules["debugpy"] = None  # type: ignore[assignment]
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
