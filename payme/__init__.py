"""payme: learn and analyse the rummy game Pay Me (and its cousin Rummy 3-Pack).

The engine (cards, rule sets, melds, the exact hand solver, lay-offs) is pure Python and
imports nothing heavy.  Names are loaded on first use, so ``import payme`` stays fast and
never pulls in pandas, ipywidgets or IPython.

>>> import payme
>>> payme.rules("family").lay_off
True

The public interface is the names in ``__all__`` (below), each importable from ``payme``;
they keep working from release to release, and a renamed one keeps its old name for a
release with a deprecation warning.  Everything else (the modules' other names, anything
starting with ``_``) may change.

- Cards and rule sets: :class:`~payme.cards.Card`, :exc:`~payme.cards.CardError`,
  :func:`~payme.cards.parse_card`, :func:`~payme.cards.parse_hand`,
  :func:`~payme.cards.format_hand`, :class:`~payme.rulesets.Ruleset`,
  :class:`~payme.rulesets.Money`, :func:`~payme.rulesets.rules`, ``PRESETS`` (the preset
  rule sets by name), :class:`~payme.pack.Pack`, :func:`~payme.pack.check_hand`.
- Melds and hands: :class:`~payme.melds.Meld`, :class:`~payme.melds.MeldCheck`,
  :func:`~payme.melds.check_meld`, :func:`~payme.solver.evaluate`,
  :func:`~payme.solver.can_go_out`, :func:`~payme.solver.best_discard` and what they
  return, :class:`~payme.solver.Evaluation`, :class:`~payme.solver.GoOutCheck` and
  :class:`~payme.solver.BestDiscard`; :func:`~payme.layoff.lay_off` (a
  :class:`~payme.layoff.LayOffResult`),
  :func:`~payme.layoff.lay_off_in_turn`, :func:`~payme.layoff.grow_meld`,
  :func:`~payme.odds.go_out_chance` (a :class:`~payme.odds.GoOutChance`);
  :func:`~payme.solver.backend.solver_backend` (which core runs the solver: compiled or
  pure Python, the same answers).
- Puzzles: :func:`~payme.puzzles.new_puzzle`, :func:`~payme.puzzles.puzzle_from_id` (each a
  :class:`~payme.puzzles.Puzzle`).
- Games and analysis: :func:`~payme.game.new_game`, :func:`~payme.game.play_game`,
  :func:`~payme.game.replay`, :func:`~payme.analysis.simulate.simulate`.

The subpackages ``payme.widgets``, ``payme.tutorial`` and ``payme.app`` are the web app's
own layer, not part of this interface.  ``payme.__version__`` is the package's one version
(the packaging metadata reads it from here).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    # cards and rule sets
    "Card": "payme.cards",
    "CardError": "payme.cards",
    "parse_card": "payme.cards",
    "parse_hand": "payme.cards",
    "format_hand": "payme.cards",
    "Ruleset": "payme.rulesets",
    "Money": "payme.rulesets",
    "rules": "payme.rulesets",
    "PRESETS": "payme.rulesets",
    "Pack": "payme.pack",
    "check_hand": "payme.pack",
    # melds and hand evaluation
    "Meld": "payme.melds",
    "MeldCheck": "payme.melds",
    "check_meld": "payme.melds",
    "Evaluation": "payme.solver",
    "GoOutCheck": "payme.solver",
    "BestDiscard": "payme.solver",
    "evaluate": "payme.solver",
    "can_go_out": "payme.solver",
    "best_discard": "payme.solver",
    "solver_backend": "payme.solver.backend",
    "LayOffResult": "payme.layoff",
    "lay_off": "payme.layoff",
    "lay_off_in_turn": "payme.layoff",
    "grow_meld": "payme.layoff",
    "GoOutChance": "payme.odds",
    "go_out_chance": "payme.odds",
    # puzzles
    "Puzzle": "payme.puzzles",
    "new_puzzle": "payme.puzzles",
    "puzzle_from_id": "payme.puzzles",
    # games and analysis (pandas is imported only when simulate runs)
    "new_game": "payme.game",
    "play_game": "payme.game",
    "replay": "payme.game",
    "simulate": "payme.analysis.simulate",
}

if TYPE_CHECKING:  # pragma: no cover
    from payme.analysis.simulate import simulate
    from payme.cards import Card, CardError, format_hand, parse_card, parse_hand
    from payme.game import new_game, play_game, replay
    from payme.layoff import LayOffResult, grow_meld, lay_off, lay_off_in_turn
    from payme.melds import Meld, MeldCheck, check_meld
    from payme.odds import GoOutChance, go_out_chance
    from payme.pack import Pack, check_hand
    from payme.puzzles import Puzzle, new_puzzle, puzzle_from_id
    from payme.rulesets import PRESETS, Money, Ruleset, rules
    from payme.solver import (
        BestDiscard,
        Evaluation,
        GoOutCheck,
        best_discard,
        can_go_out,
        evaluate,
    )
    from payme.solver.backend import solver_backend

__all__ = [
    "PRESETS",
    "BestDiscard",
    "Card",
    "CardError",
    "Evaluation",
    "GoOutChance",
    "GoOutCheck",
    "LayOffResult",
    "Meld",
    "MeldCheck",
    "Money",
    "Pack",
    "Puzzle",
    "Ruleset",
    "best_discard",
    "can_go_out",
    "check_hand",
    "check_meld",
    "evaluate",
    "format_hand",
    "go_out_chance",
    "grow_meld",
    "lay_off",
    "lay_off_in_turn",
    "new_game",
    "new_puzzle",
    "parse_card",
    "parse_hand",
    "play_game",
    "puzzle_from_id",
    "replay",
    "rules",
    "simulate",
    "solver_backend",
]


_RENAMED: dict[str, str] = {"GoOut": "GoOutCheck", "LayOff": "LayOffResult"}
"""Public names renamed so that each name has one meaning (``GoOut`` and ``LayOff`` are
also the game's actions, :mod:`payme.game.actions`): the old names work for one release."""


def __getattr__(name: str) -> Any:
    if name in _RENAMED:
        from payme.deprecation import deprecated

        new = _RENAMED[name]
        deprecated(f"payme.{name}", f"use payme.{new}")
        return __getattr__(new)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'payme' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
