"""*Learn the rules*: step-by-step tutorials for Pay Me and Rummy 3-Pack.

The steps are data (:mod:`payme.tutorial.pay_me`, :mod:`payme.tutorial.three_pack`): a title,
text and examples read from the chosen rule set, and a check whose questions the engine
answers and explains (:mod:`payme.tutorial.checks`).  :class:`Tutorial` (imported lazily, it
needs ipywidgets) shows them with Back/Next, a step counter, a check area and a message box.
:data:`payme.tutorial.coverage.COVERAGE` maps every rule of RULES.md to the steps teaching it.

>>> from payme.rulesets import rules
>>> len(steps_for(rules("family"))) == len(steps_for(rules("denexa")))
True
>>> steps_for(rules("three_pack"))[0].title
'The pack and its special cards'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from payme.rulesets import Ruleset
from payme.tutorial.steps import Step

if TYPE_CHECKING:  # pragma: no cover
    from payme.tutorial.widget import Tutorial


def steps_for(rules: Ruleset) -> tuple[Step, ...]:
    """The tutorial steps for the rule set's game (Pay Me or Rummy 3-Pack)."""
    # Which tutorial to teach is a choice of game, not a rule: each game has its own steps,
    # and what differs between its rule sets is read from the fields within them.
    if rules.game == "pay_me":
        from payme.tutorial.pay_me import PAY_ME_STEPS

        return PAY_ME_STEPS
    if rules.game == "rummy_3_pack":
        from payme.tutorial.three_pack import THREE_PACK_STEPS

        return THREE_PACK_STEPS
    raise ValueError(f"no tutorial for rule sets of kind {rules.game!r}")


def __getattr__(name: str) -> Any:
    if name == "Tutorial":
        from payme.tutorial.widget import Tutorial

        return Tutorial
    if name == "PAY_ME_STEPS":
        from payme.tutorial.pay_me import PAY_ME_STEPS

        return PAY_ME_STEPS
    if name == "THREE_PACK_STEPS":
        from payme.tutorial.three_pack import THREE_PACK_STEPS

        return THREE_PACK_STEPS
    raise AttributeError(f"module 'payme.tutorial' has no attribute {name!r}")


__all__ = ["PAY_ME_STEPS", "THREE_PACK_STEPS", "Step", "Tutorial", "steps_for"]
