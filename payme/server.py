"""Kept so that ``python -m payme.server`` still starts the app: see :mod:`payme.app.server`."""

from payme.app.server import main

if __name__ == "__main__":
    main()
