# Two commands for a newcomer:
#   make app    set up .venv and serve the app on http://127.0.0.1:8866 (HOST=0.0.0.0 to share it)
#   make test   set up .venv and run everything: ruff, mypy, the docs, pytest (unit, doctests,
#               notebooks, browser)
# For the edit-test loop:
#   make check  ruff, mypy and the fast unit tests and doctests (no slow sweeps, notebooks or
#               browser), in about a minute
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8866
PYTEST_ARGS ?=
PYTEST_ARGS_PURE ?=
VOILA_ARGS ?=

.PHONY: app test check lint typecheck pytest pytest-fast pytest-pure docs bench chromium clean static static-serve npm lite-js

$(PY):
	python3 -m venv $(VENV)

# uv installs the stack in about half pip's time; --compile-bytecode matters because
# these machines set PYTHONDONTWRITEBYTECODE=1.  The install builds the solver's compiled
# core (payme/solver/_core.c, and the lay-off search's payme/solver/_layoff_core.c) where a
# C compiler is found; without one the pure-Python solver runs, and the line after the
# install says so once.
$(STAMP): pyproject.toml setup.py payme/solver/_core.c payme/solver/_layoff_core.c | $(PY)
	$(PY) -m pip install -q uv
	$(VENV)/bin/uv pip install --python $(PY) --compile-bytecode -e ".[test]"
	@$(PY) -c "from payme.solver.backend import describe; print(describe())"
	# jsonschema's optional IRI checker builds a grammar at import: every Jupyter process
	# starts ~3 s faster without it (only the 'iri' format check is lost).
	-$(VENV)/bin/uv pip uninstall --python $(PY) rfc3987-syntax
	touch $@

# The browser tests drive Debian's Chromium (Playwright cannot download its own here).
# Installed when missing if we may (root, or CI); otherwise the browser tests say what to do.
chromium:
	@if ! command -v chromium >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else \
	    echo "chromium is missing: sudo apt-get install -y chromium (browser tests are skipped without it)"; \
	  fi; \
	fi

# The static site's build fetches Pyodide with npm (Debian's, installed when missing if we
# may: root, or CI).
npm:
	@if ! command -v npm >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm; \
	  else \
	    echo "npm is missing: sudo apt-get install -y npm (make static needs it)"; exit 1; \
	  fi; \
	fi

# The app: Voilà over notebooks/ through payme.app.server (no file browser; settings in
# payme/app/voila.json).
# More Voilà options: make app VOILA_ARGS="--preheat_kernel=True --pool_size=1"
app: $(STAMP)
	$(PY) -m payme.app.server notebooks/ --port=$(PORT) --Voila.ip=$(HOST) $(VOILA_ARGS)

# The pages' light front end (payme/app/static/lite/, committed: `make app` and the tests need
# no npm) from frontend/ (its package.json and lock file pin every package; payme.app.front_end
# says what it does).  Rebuild it after changing frontend/src or a pin.
lite-js: npm
	cd frontend && npm ci --no-audit --no-fund && node build.mjs

# The app as a static site (Voici + Pyodide: Python runs in each visitor's browser) into
# build/static/, from pinned versions in the package registries (static/build.py; the
# downloads are kept in build/static-cache/).  npm fetches the pyodide package.
STATIC_PORT ?= 8000
static: $(STAMP) npm
	$(PY) static/build.py

# Serve build/static/ (built first if missing) on http://$(HOST):$(STATIC_PORT)/.
static-serve: $(STAMP)
	@test -f build/static/index.html || $(PY) static/build.py
	$(PY) static/build.py --no-build --host $(HOST) --port $(STATIC_PORT)

lint: $(STAMP)
	$(VENV)/bin/ruff check payme tests benchmarks docs/conf.py static
	$(VENV)/bin/ruff format --check payme tests benchmarks docs/conf.py static

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# pytest exits 5 when it collected no tests: a failure, said out loud.
pytest: $(STAMP) chromium npm
	@rc=0; $(VENV)/bin/pytest -rfEs $(PYTEST_ARGS) </dev/null || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; \
	exit $$rc

test: lint typecheck docs pytest pytest-pure

# The fast tier: the package's doctests, the unit tests and the README's tour, without the
# tests marked slow (long sweeps), the notebooks (nbval) or the browser (tests/e2e), spread
# over every core (pytest-xdist; CHECK_WORKERS=0 runs them in one process).
CHECK_WORKERS ?= auto
pytest-fast: $(STAMP)
	@rc=0; $(VENV)/bin/pytest -q -rfE -m "not slow and not e2e" --ignore=tests/e2e \
	  -n $(CHECK_WORKERS) $(PYTEST_ARGS) payme tests README.md </dev/null || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; \
	exit $$rc

check: lint typecheck pytest-fast

# The fast tier again with the solver's pure-Python core (the reference and the fallback;
# the runs above use the compiled core where it is built): about 36 s on two idle cores.
# The slow sweeps and the browser run once, with the compiled core, and the 20,000-hand
# check (tests/test_backend.py) ties the two cores; tests marked compiled need the compiled
# core and are left out here; PURE_MARKERS="not e2e and not compiled" takes the slow
# sweeps too (about 4 CPU-minutes more, see docs/benchmarks.md).
PURE_MARKERS ?= not slow and not e2e and not compiled
pytest-pure: $(STAMP)
	@rc=0; PAYME_SOLVER=python $(VENV)/bin/pytest -q -rfE -m "$(PURE_MARKERS)" --ignore=tests/e2e \
	  -n $(CHECK_WORKERS) $(PYTEST_ARGS_PURE) payme tests README.md </dev/null || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; \
	exit $$rc

# The documentation into build/docs/ (git-ignored): the narrative pages (docs/*.md, read by
# MyST) and the API reference (docs/api/, from the docstrings); nitpicky (-n: every
# cross-reference must resolve) and a warning fails it (-W); -E rereads every page.
docs: $(STAMP)
	$(VENV)/bin/sphinx-build -n -W --keep-going -q -E -b html docs build/docs
	@echo "Documentation: build/docs/index.html"

# RLCard and OpenSpiel are compared against in the same run: benchmark-only extras (where
# they do not install, their columns say so and the rest still runs).
bench: $(STAMP)
	-$(VENV)/bin/uv pip install --python $(PY) -q -e ".[bench]"
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) test-artifacts build/docs build/static build/static-cache .mypy_cache .ruff_cache
