"""Old Play links keep opening the same game after the bots change (bot generations).

``fixtures/play_links_gen1.json`` holds whole games played on the Play page of release
8b7f1e6, each as the link that page wrote (your moves only, no ``gen``: the bots replay
theirs from the seed) and what the game came to: the digest of every action, the totals and
the winners (made by ``fixtures/make_play_links_gen1.py`` against that release's code).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest

from payme.analysis.review import review_game
from payme.cli import main
from payme.game import make_bot
from payme.game.generations import BOT_GENERATION, FIRST_GENERATION
from payme.play.session import PlaySession
from payme.widgets.play import PlayPage

FIXTURES = Path(__file__).parent / "fixtures"
GAMES: list[dict[str, Any]] = json.loads((FIXTURES / "play_links_gen1.json").read_text())
_spec = importlib.util.spec_from_file_location(
    "make_play_links_gen1", FIXTURES / "make_play_links_gen1.py"
)
assert _spec is not None and _spec.loader is not None
maker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(maker)


def _query(game: dict[str, Any]) -> dict[str, str]:
    return dict(parse_qsl(game["query"]))


def _came_to(session: PlaySession) -> dict[str, Any]:
    outcome = maker.outcome(session.game)
    return {key: outcome[key] for key in ("digest", "totals", "winners")}


def _expected(game: dict[str, Any]) -> dict[str, Any]:
    return {key: game[key] for key in ("digest", "totals", "winners")}


def _replay(game: dict[str, Any], generation: int) -> PlaySession:
    q = _query(game)
    return PlaySession.from_moves(
        q["rules"], int(q["players"]), q["bots"].split(","), int(q["seed"]),
        q["moves"].split("."), strict=False, generation=generation,
    )  # fmt: skip


def test_the_fixture_covers_every_rule_set_and_the_bots() -> None:
    queries = [_query(g) for g in GAMES]
    assert {q["rules"] for q in queries} == {"denexa", "classic", "family", "three_pack"}
    assert {q["players"] for q in queries} == {"2", "3", "4"}
    assert {"expert", "strong", "greedy"} <= {b for q in queries for b in q["bots"].split(",")}
    assert all("gen" not in q for q in queries)  # links made before generations


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g["query"].split("&moves")[0])
def test_an_old_link_opens_the_same_whole_game(game: dict[str, Any]) -> None:
    page = PlayPage()
    page.apply_query(_query(game))
    assert page.message.kind != "error", page.message.text
    session = page.session
    assert session is not None and session.generation == FIRST_GENERATION
    assert not session.stopped and session.over
    assert _came_to(session) == _expected(game)
    # the address it keeps now names the generation, and opens the same game again
    assert "&gen=1&" in page.url.query


def test_todays_bots_play_some_old_links_differently() -> None:
    """Replayed with today's bots (the expert weighs what its discard gives the next
    player), some family games with an expert come out differently or stop part-way; the
    other bots and rule sets are unchanged."""
    differ = []
    for game in GAMES:
        session = _replay(game, BOT_GENERATION)
        if session.stopped or _came_to(session) != _expected(game):
            differ.append(_query(game))
    assert len(differ) >= 3
    assert all(q["rules"] == "family" and "expert" in q["bots"] for q in differ)


def test_a_new_game_and_its_link_carry_todays_generation() -> None:
    page = PlayPage()
    page.apply_query({"rules": "family", "players": "2", "bots": "expert"})  # no seed: new
    assert page.session is not None and page.session.generation == BOT_GENERATION
    assert f"&gen={BOT_GENERATION}&" in page.url.query
    page._new_game()
    assert page.session.generation == BOT_GENERATION
    again = PlayPage()
    again.apply_query(dict(parse_qsl(page.url.query)))
    assert again.session is not None and again.session.generation == BOT_GENERATION


@pytest.mark.parametrize("gen", ["0", "3", "two", "1.5", ""])
def test_a_bad_generation_is_named(gen: str) -> None:
    page = PlayPage()
    page.apply_query({"rules": "denexa", "players": "2", "bots": "greedy", "seed": "4", "gen": gen})
    assert page.message.kind == "error"
    assert "gen must be a bot generation, 1 or 2" in page.message.text
    with pytest.raises(ValueError, match="generation must be a bot generation, 1 or 2"):
        PlaySession("denexa", 2, ("greedy",), 4, generation=int(gen) if gen.isdigit() else 9)
    with pytest.raises(ValueError, match="generation must be a bot generation"):
        make_bot("expert", "family", 1, generation=3)


def test_the_first_generation_expert_gives_no_weight_to_gifts() -> None:
    old, new = make_bot("expert", "family", 1, 1), make_bot("expert", "family", 1)
    assert (old.GIFT_SPOTS, old.FINAL_GIFT_POINTS) == (0, 0.0)  # type: ignore[attr-defined]
    assert (new.GIFT_SPOTS, new.FINAL_GIFT_POINTS) == (3, 8.0)  # type: ignore[attr-defined]


def _changed() -> dict[str, Any]:
    """The fixture's first game that today's bots cannot replay to the end."""
    return next(g for g in GAMES if _replay(g, BOT_GENERATION).stopped)


def test_the_review_replays_an_old_link_with_its_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The review replays the game with the link's bots (each decision's measure is held to
    its first 32 deals here: the replay is what is tested)."""
    import payme.analysis.review as review_module

    graded: list[int] = []
    decide = review_module._decide

    def noting(session: Any, stick: Any, number: int, *rest: Any) -> Any:
        graded.append(number)
        return decide(session, stick, number, *rest)

    monkeypatch.setattr(review_module, "_decide", noting)
    game = _changed()
    q = _query(game)
    moves = q["moves"].split(".")
    stop = _replay(game, BOT_GENERATION).stopped
    number = int(stop.split("move ")[1].split(" ")[0])  # the move today's bots refuse
    args = (q["rules"], int(q["players"]), q["bots"].split(","), int(q["seed"]), moves[:number])
    with pytest.raises(ValueError, match=f"move {number} "):
        review_game(*args, generation=BOT_GENERATION, most=32)
    graded.clear()
    review = review_game(*args, generation=FIRST_GENERATION, most=32)
    assert review.generation == FIRST_GENERATION
    assert graded[-1] == number - 1  # every move replayed, the refused one too


def test_payme_review_reads_the_links_generation(capsys: pytest.CaptureFixture[str]) -> None:
    game = _changed()
    q = _query(game)
    moves = q["moves"].split(".")[:12]
    link = game["query"].split("&moves=")[0] + "&moves=" + ".".join(moves)
    assert main(["review", link, "--deals", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["generation"] == FIRST_GENERATION
    assert main(["review", link + "&gen=2", "--deals", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["generation"] == 2
    assert main(["review", link + "&gen=7"]) == 2
    assert "gen must be a bot generation, 1 or 2, not '7'" in capsys.readouterr().err
