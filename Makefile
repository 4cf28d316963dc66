# Two commands for a newcomer: `make app` and `make test`. Both build .venv first.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 8866

.PHONY: app test lint typecheck unit bench chromium clean

$(PY):
	python3 -m venv $(VENV)

# uv installs the stack in about half pip's time; --compile-bytecode matters because
# these machines set PYTHONDONTWRITEBYTECODE=1.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q uv
	$(VENV)/bin/uv pip install --python $(PY) --compile-bytecode -e ".[test]"
	# jsonschema's optional IRI checker builds a grammar at import: every Jupyter process
	# starts ~3 s faster without it (only the 'iri' format check is lost).
	-$(VENV)/bin/uv pip uninstall --python $(PY) rfc3987-syntax
	touch $@

chromium:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

app: $(STAMP)
	$(VENV)/bin/voila notebooks/ --no-browser --port=$(PORT) --Voila.ip=127.0.0.1

lint: $(STAMP)
	$(VENV)/bin/ruff check payme tests benchmarks

typecheck: $(STAMP)
	$(VENV)/bin/mypy

test: $(STAMP) chromium lint typecheck
	$(VENV)/bin/pytest

bench: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) test-artifacts .mypy_cache .ruff_cache
