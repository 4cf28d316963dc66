"""What a page makes the browser wait for (issue 10.10; the times are in benchmarks/).

* Every script the front end fetches is named in the page's HTML (a preload tag, from
  payme.app.preload, or a script tag), so the browser fetches it while the kernel runs the
  notebook, and every preload is used (Chromium warns in the console about one that is not):
  with the light front end (payme.app.front_end, the default) that is one script, with
  Voilà's (``--PaymeVoila.front_end=voila``) its entry script and the 88 it asks for.
* The app's pages run on the app's kernel (payme.app.kernel), not on ipykernel's launcher.
* A visit takes the spare kernel started ahead (payme.app.spare): the page gets its query,
  its kernel is locked like any page's, and the next spare is started.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from payme.app.preload import ENTRY, SCRIPTS

from .conftest import VoilaServer, serving, spare_kernel_ids, wait_ready
from .test_security import SEND_MESSAGES_JS, _execute

# Chromium's warning about a preload not used soon after the load event comes about 3 s
# after it.
UNUSED_PRELOAD_WAIT_MS = 4_000


@pytest.fixture(scope="module")
def stock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """The app with Voilà's own front end."""
    yield from serving(tmp_path_factory.mktemp("stock"), ["--PaymeVoila.front_end=voila"])


@pytest.mark.parametrize("name", ["learn_pay_me", "play"])
def test_every_script_is_preloaded(name: str, page: Any, voila_app: VoilaServer) -> None:
    fetched, in_page = _scripts(page, voila_app, name)
    assert [u.rsplit("/", 1)[1].split("?")[0] for u in fetched if "/lite/" in u] == [
        "payme-lite.js"
    ]
    assert not [u for u in in_page if "voila.js" in u]


@pytest.mark.parametrize("name", ["learn_pay_me", "play"])
def test_every_script_of_voila_front_end_is_preloaded(
    name: str, page: Any, stock_server: VoilaServer
) -> None:
    _fetched, in_page = _scripts(page, stock_server, name)
    assert len(in_page) >= len(ENTRY) + len(SCRIPTS) + 1


def _scripts(page: Any, server: VoilaServer, name: str) -> tuple[list[str], list[str]]:
    """The scripts ``page`` fetched opening ``name``, and those its HTML names; asserts that
    the first are among the second and that Chromium warned about nothing."""
    warnings: list[str] = []
    page.on(
        "console",
        lambda m: warnings.append(m.text) if m.type in ("warning", "error") else None,
    )
    page.goto(server.page_url(name), wait_until="commit")
    wait_ready(page)
    page.wait_for_timeout(UNUSED_PRELOAD_WAIT_MS)
    fetched = page.evaluate(
        """() => performance.getEntriesByType('resource')
            .filter(r => ['script', 'link'].includes(r.initiatorType) && r.name.includes('.js'))
            .map(r => r.name)"""
    )
    in_page = page.evaluate(
        """() => [...document.querySelectorAll('link[rel=preload][as=script], script[src]')]
            .map(l => l.href || l.src)"""
    )
    unnamed = sorted(set(fetched) - set(in_page))
    # A failure after moving the front-end pins: these are the new names for
    # payme.app.preload.ENTRY or SCRIPTS (then run `python -m payme.app.site`).
    assert unnamed == [], json.dumps([u.split("/voila/", 1)[1] for u in unnamed], indent=1)
    # Chromium warns about a preload not used soon after the load event.
    assert warnings == []
    return fetched, in_page


def test_pages_run_on_the_app_kernel(open_page: Any) -> None:
    page = open_page("puzzles")
    config = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")
    kernel = config["kernelId"]
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if any(f"kernel-{kernel}.json" in arg for arg in argv):
            found.append(argv)
    assert len(found) == 1, found
    assert found[0][1:3] == ["-m", "payme.app.kernel"]


@pytest.fixture(scope="module")
def spare_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    yield from serving(tmp_path_factory.mktemp("spare"), ["--PaymeVoila.spare_kernels=1"])


def _one_spare(server: VoilaServer, seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    while len(spares := spare_kernel_ids(server)) != 1:
        assert time.monotonic() < deadline, server.log_tail()
        time.sleep(0.2)
    return spares.pop()


def test_a_visit_takes_the_spare_kernel_with_its_own_query(
    spare_server: VoilaServer, page: Any, page_errors: list[str], tmp_path: Path
) -> None:
    spare = _one_spare(spare_server)
    page.goto(spare_server.page_url("puzzles", "id=denexa-7-discard-42"), wait_until="commit")
    wait_ready(page)
    config = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")
    assert config["kernelId"] == spare
    assert f"payme: a visit takes spare kernel {spare}" in spare_server.log_tail(5000)
    # The visit's query reached the kernel started before the visit.
    expect(page.locator(".payme-puzzle-id")).to_have_text("denexa-7-discard-42")
    # Its kernel is locked like any page's: code sent from the page does not run.
    marker = tmp_path / "ran.txt"
    attack = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran')"
    sent = [["shell", "execute_request", _execute(attack)], ["shell", "comm_info_request", {}]]
    refused, answered = page.evaluate(SEND_MESSAGES_JS, sent)
    assert not [m for m in refused if m["msg_type"] in {"stream", "execute_result"}]
    assert answered and not marker.exists()
    # The next visit finds a new spare.
    assert re.fullmatch(r"[-0-9a-f]+", _one_spare(spare_server)) and spare not in (
        spare_kernel_ids(spare_server)
    )
    assert page_errors == []
