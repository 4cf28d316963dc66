"""Phrases the app writes about cards and rules, each in one place.

The engine, the pages and the tutorial say "sevens are wild" or "12 points" the same way
because they ask here.  What a phrase depends on is read from the rule set's data, never
from which game it is.

>>> from payme.rulesets import rules
>>> rank_plural(7), rank_plural(6), rank_plural(1), rank_plural(12)
('sevens', 'sixes', 'aces', 'queens')
>>> wild_phrase(rules("denexa"), 7), wild_phrase(rules("three_pack"), 7)
('sevens are wild', '')
>>> deadwood_unit(rules("family")), deadwood_unit(rules("three_pack"))
('points', 'unmelded cards')
>>> amount(1, rules("three_pack")), amount(15, rules("denexa"))
('1 unmelded card', '15 points')
"""

from __future__ import annotations

from payme.cards import RANK_NAMES
from payme.rulesets import Ruleset


def rank_plural(rank: int) -> str:
    """The rank's name in the plural, as in "a set of sevens" (1 is the ace, 13 the king)."""
    name = RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")


def counts_cards(rules: Ruleset) -> bool:
    """Whether every card left over costs 1: then deadwood is a count of cards, not points
    (Rummy 3-Pack's "unmelded cards")."""
    return set(rules.rank_points) == {1} and rules.special_points == 1


def deadwood_unit(rules: Ruleset) -> str:
    """What deadwood is counted in: ``"points"``, or ``"unmelded cards"``."""
    return "unmelded cards" if counts_cards(rules) else "points"


def amount(n: int, rules: Ruleset) -> str:
    """``n`` in the rule set's unit of deadwood: "15 points", "1 unmelded card"."""
    unit = deadwood_unit(rules)
    return f"{n} {unit if n != 1 else unit.removesuffix('s')}"


def wild_phrase(rules: Ruleset, dealt: int | None) -> str:
    """What the round makes wild, e.g. "sevens are wild" (``""`` where no rank is wild)."""
    wild = rules.round_wild_rank(dealt) if dealt is not None else None
    return f"{rank_plural(wild)} are wild" if wild is not None else ""


__all__ = ["amount", "counts_cards", "deadwood_unit", "rank_plural", "wild_phrase"]
