"""``python -m payme ...`` runs the command line (see :mod:`payme.cli`)."""

from payme.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
