"""Play, the bots, replay, review and simulation hold no branch on which game is played:
what differs between Pay Me and Rummy 3-Pack is data (the rule set's ``go_out_call``, the
engine class's ``KEEPS_SCORE``... and the seat views' ``note``, ``shown_hand``...)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "payme"
MODULES = [
    "widgets/play.py",
    "play/session.py",
    "play/view.py",
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


def test_the_views_say_what_the_table_shows_of_each_seat() -> None:
    """Pay Me: the declarer's note and every hand face up in the lay-offs; Rummy 3-Pack: a
    player who dropped out is out of play."""
    from payme.game import make_bot, new_game
    from payme.game.actions import DropOut

    g = new_game("family", players=3, seed=3, turn_limit=400)
    bots = [make_bot("greedy", "family", seed=s) for s in range(3)]
    while g.phase != "lay_off":
        seat = g.to_move
        assert seat is not None
        g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
    view = g.view(0)
    declarer = view.declarer  # type: ignore[attr-defined]
    assert view.note(declarer) == "went out — Pay me!"
    assert all(view.shown_hand(s) == g.hand_of(s) for s in range(3))
    assert not any(view.out_of_play(s) for s in range(3))
    assert game_kind_words("family") == ("Pay me!", "points", True, True)

    t = new_game("three_pack", players=3, seed=4)
    for _ in range(200):
        drop = [a for a in t.legal_actions() if isinstance(a, DropOut)]
        if drop:
            t.apply(drop[0])
            break
        seat = t.to_move
        assert seat is not None
        t.apply(make_bot("greedy", "three_pack", seed=seat).choose(t.view(seat), t.legal_actions()))
    else:
        pytest.fail("no drop-out was offered in 200 moves")
    dropped = drop[0].seat
    assert t.view(0).out_of_play(dropped) and t.view(0).note(dropped) == "dropped out"
    assert t.view(0).shown_hand(dropped) == ()
    assert game_kind_words("three_pack") == ("", "unmelded cards", False, False)


def game_kind_words(rules: str) -> tuple[str, str, bool, bool]:
    from payme.game import game_class
    from payme.rulesets import rules as get_rules

    kind = game_class(rules)
    return get_rules(rules).go_out_call, kind.SCORE_UNIT, kind.KEEPS_SCORE, kind.DECLARES_MELDS
