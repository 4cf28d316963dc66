"""Play, the bots, replay, review and simulation hold no branch on which game is played:
what differs between Pay Me and Rummy 3-Pack is data (the engine class's ``GO_OUT_CALL``,
``KEEPS_SCORE``... and the seat views' ``note``, ``shown_hand``...)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "payme"
MODULES = [
    "widgets/play.py",
    "widgets/play_session.py",
    "widgets/play_view.py",
    "analysis/review.py",
    "analysis/simulate.py",
    "game/bots.py",
    "game/three_pack_bots.py",
    "game/__init__.py",
]
BRANCHES = [
    re.compile(r"rules\.game\s*[!=]="),
    re.compile(r"\.game\s*[!=]=\s*[\"']"),
    re.compile(r"(?<!game)\.pay_me\b"),  # not the module payme.game.pay_me
    re.compile(r"isinstance\([^)]*(PayMeView|ThreePackView|PayMeGame|ThreePackGame)"),
    re.compile(r"[!=]=\s*[\"'](pay_me|rummy_3_pack)[\"']"),
]


@pytest.mark.parametrize("module", MODULES)
def test_no_branch_on_the_game(module: str) -> None:
    text = (ROOT / module).read_text()
    found = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        for pattern in BRANCHES
        if pattern.search(line) and not line.lstrip().startswith(("from ", "import "))
    ]
    assert not found, f"{module} branches on the game:\n" + "\n".join(found)


def test_the_guard_sees_a_branch() -> None:
    """The patterns catch the branches this test forbids (so it can fail)."""
    samples = [
        'self.pay_me = self.rules.game == "pay_me"',
        "if isinstance(view, ThreePackView):",
        "if session.pay_me:",
        "if isinstance(game, PayMeGame):",
    ]
    for sample in samples:
        assert any(p.search(sample) for p in BRANCHES), sample
