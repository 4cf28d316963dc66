"""Helpers for the puzzle tests: the answers worked out by the solver, not by the page."""

from __future__ import annotations

from payme import evaluate
from payme.puzzles import Puzzle


def discard_points(p: Puzzle) -> dict[str, int]:
    """Deadwood points left by each discard from the puzzle's hand, straight from the solver."""
    out = {}
    for card in set(p.hand):
        rest = list(p.hand)
        rest.remove(card)
        out[str(card)] = evaluate(rest, p.rules, p.dealt).deadwood_points
    return out
