"""The project's habits: one version, a licence that matches the metadata, a changelog entry
for the version, and a public interface that ``payme`` names and documents."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest

import payme

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_lives_once_in_the_package() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "payme.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", payme.__version__)
    # The installed metadata was read from payme/__init__.py when the package was installed.
    installed = importlib.metadata.version("payme")
    assert installed == payme.__version__, "stale install: make -B .venv/.installed"


def test_the_licence_file_matches_the_metadata() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert re.search(r"^Copyright \(c\) 20\d\d the payme authors$", text, re.MULTILINE)
    assert "WITHOUT WARRANTY OF ANY KIND" in text


def test_the_changelog_has_an_entry_for_this_version() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    heading = re.search(
        rf"^## \[{re.escape(payme.__version__)}\] - (\d{{4}}-\d\d-\d\d)$", text, re.M
    )
    assert heading, f"CHANGELOG.md has no '## [{payme.__version__}] - date' entry"
    entry = text[heading.end() :].split("\n## ", 1)[0]
    assert re.search(r"^### (Added|Changed|Fixed|Removed|Deprecated|Security)$", entry, re.M)


@pytest.mark.parametrize("name", payme.__all__)
def test_every_public_name_loads_and_is_named_in_the_docstring(name: str) -> None:
    assert getattr(payme, name) is not None
    assert payme.__doc__ is not None
    assert re.search(rf"[`.~]{re.escape(name)}`", payme.__doc__), f"{name} is not listed"
