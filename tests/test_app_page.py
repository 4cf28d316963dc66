"""payme.app.page outside a browser: the query string under Voilà, with and without preheating."""

from __future__ import annotations

import sys
import types

import pytest

from payme.app import page


@pytest.fixture
def fresh_query(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page, "_query", None)


def test_outside_voila_the_query_is_empty(
    fresh_query: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VOILA_BASE_URL", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.setenv("QUERY_STRING", "hand=7H")
    assert page.query_params() == {}


def test_query_from_the_environment(fresh_query: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOILA_BASE_URL", "/")
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.setenv("QUERY_STRING", "hand=7H+8H&rules=family&empty=&rules=classic")
    assert page.query_params() == {"hand": "7H 8H", "rules": "classic", "empty": ""}


def test_preheated_kernel_waits_for_the_visit_once(
    fresh_query: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[None] = []

    def get_query_string(url: str | None = None) -> str:
        calls.append(None)
        return "seed=5"

    fake = types.ModuleType("voila.utils")
    fake.get_query_string = get_query_string  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "voila.utils", fake)
    monkeypatch.setenv("VOILA_BASE_URL", "/")
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("QUERY_STRING", "stale=1")
    assert page.query_params() == {"seed": "5"}
    # Voilà answers the wait once per kernel; a second call must not wait again.
    assert page.query_params() == {"seed": "5"}
    assert len(calls) == 1


def test_page_header_escapes() -> None:
    html = page.page_header("<Play>", "Cards & bots").value
    assert "&lt;Play&gt;" in html and "Cards &amp; bots" in html


def test_header_links_home_to_the_root_under_the_app_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PAYME_APP", "1")
    monkeypatch.setenv("VOILA_BASE_URL", "/base/")
    assert page.home_url() == "/base/"
    monkeypatch.delenv("PAYME_APP")
    assert page.home_url() == page.LANDING_PAGE
