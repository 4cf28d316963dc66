"""The layers import downwards only: the engine (cards, melds, rule sets, the solver, the
advice on hands...) knows no game, analysis, play model, page or widget; the games and the
analysis know no screen (display, widgets), so both run headless.

Every import counts, also one inside a function; only imports for type checkers
(``if TYPE_CHECKING:``) are left out, as they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PAYME = Path(__file__).resolve().parent.parent / "payme"

# The engine: the package's top-level modules and the solver.  Left out: the package's
# front door (``payme/__init__.py`` gathers the public names, ``simulate`` among them) and
# the command lines (``cli.py``, ``__main__.py``, ``server.py``), which start the others.
FRONT_DOORS = {"__init__.py", "__main__.py", "cli.py", "server.py"}
ENGINE = [p for p in sorted(PAYME.glob("*.py")) if p.name not in FRONT_DOORS]
ENGINE += sorted((PAYME / "solver").rglob("*.py"))

# (the modules, what they must not import)
RULES = [
    (ENGINE, ("payme.game", "payme.analysis", "payme.play", "payme.widgets", "payme.app")),
    (sorted((PAYME / "game").rglob("*.py")), ("payme.widgets", "payme.display", "payme.app")),
    (sorted((PAYME / "analysis").rglob("*.py")), ("payme.widgets", "payme.display", "payme.app")),
    # the play model (a game at the table, the data its table draws) knows no widget or page
    (sorted((PAYME / "play").rglob("*.py")), ("payme.widgets", "payme.app")),
]


def imported(source: str) -> list[tuple[int, str]]:
    """Every module a source imports at run time, with its line (``from payme import
    display`` counts as ``payme.display``); imports under ``if TYPE_CHECKING:`` are left out.

    >>> imported("import os\\nfrom payme import display\\nif TYPE_CHECKING:\\n    import payme.app")
    [(1, 'os'), (2, 'payme'), (2, 'payme.display')]
    """
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for child in node.body for n in ast.walk(child)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return sorted(found)


def crossings(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path.name}:{line} imports {name}"
        for path in paths
        for line, name in imported(path.read_text())
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


@pytest.mark.parametrize(("paths", "forbidden"), RULES, ids=["engine", "game", "analysis", "play"])
def test_each_layer_imports_only_the_layers_below_it(
    paths: list[Path], forbidden: tuple[str, ...]
) -> None:
    assert paths, "no modules found: the layout changed"
    found = crossings(paths, forbidden)
    assert not found, "layers crossed:\n" + "\n".join(found)


def test_the_guard_sees_a_crossing(tmp_path: Path) -> None:
    """The check catches each way of importing upwards (so the test above can fail)."""
    module = tmp_path / "bad.py"
    module.write_text(
        "from payme.widgets.play import PlayPage\n"
        "def f():\n"
        "    from payme import display\n"
        "    import payme.game.actions\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from payme.analysis import review\n"
    )
    found = crossings([module], ("payme.widgets", "payme.display", "payme.game", "payme.analysis"))
    assert [line.split(" imports ")[1] for line in found] == [
        "payme.widgets.play",
        "payme.widgets.play.PlayPage",
        "payme.display",
        "payme.game.actions",
    ]


# Parameters and attributes that hold a game (or the session around one), by name.
GAME_NAMES = {"game", "g", "session"}
# Left as they are for now, and why (none).
UNTYPED: set[str] = set()


def untyped_games(source: str) -> list[str]:
    """Each parameter or attribute named like a game whose annotation is missing or ``Any``.

    >>> untyped_games("def f(game: Any, g: Game, session=None):\\n    self.game: Any = game")
    ['f(game: Any)', 'f(session: None)', 'self.game: Any']
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
                note = ast.unparse(arg.annotation) if arg.annotation else None
                if arg.arg in GAME_NAMES and (note is None or "Any" in note):
                    found.append(f"{node.name}({arg.arg}: {note})")
        elif isinstance(node, ast.AnnAssign):
            target = ast.unparse(node.target).removeprefix("self.")
            if target in GAME_NAMES and "Any" in ast.unparse(node.annotation):
                found.append(f"{ast.unparse(node.target)}: {ast.unparse(node.annotation)}")
    return found


def test_games_are_typed_as_games() -> None:
    """A helper that takes a game says which (``Game``, ``PayMeGame``, ``PlaySession``...):
    no ``Any`` for games, so mypy checks what is read from them."""
    found = [
        f"{where}: {name}"
        for path in sorted(PAYME.rglob("*.py"))
        if (where := path.relative_to(PAYME).as_posix()) not in UNTYPED
        for name in untyped_games(path.read_text())
    ]
    assert not found, "games typed as Any:\n" + "\n".join(found)
