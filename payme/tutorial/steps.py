"""A tutorial step as data: a title, text and an example drawn from the rule set's data, and
the questions of its check (built by asking the engine).

>>> from payme.rulesets import rules
>>> from payme.tutorial import steps_for
>>> steps = steps_for(rules("classic"))
>>> steps[0].key, steps[0].check
('cards', 'yes_no')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from payme.rulesets import Ruleset
from payme.tutorial.checks import AnswerKind, Question


@dataclass(frozen=True)
class Step:
    """One step of a tutorial.

    ``text`` and ``example`` turn the chosen rule set's data into HTML (the example draws
    cards with :mod:`payme.display`); ``ask`` builds the check's questions, each graded
    by the engine.  ``check`` names the main kind of answer the learner gives.
    """

    key: str
    title: str
    check: AnswerKind
    text: Callable[[Ruleset], str]
    ask: Callable[[Ruleset], Sequence[Question | None]]
    """Builds the check's questions; ``None`` marks an example the rule set cannot show."""
    example: Callable[[Ruleset], str] | None = None
    demo: str | None = None
    """Name of an interactive demo the widget adds (``"turn"``: play a turn in a real game)."""

    def questions(self, rules: Ruleset) -> list[Question]:
        """The check's questions under ``rules``, each answered by the engine (the engine's
        words made a player's: no rule-set names as code spells them)."""
        from payme.tutorial.markup import players_words

        return [
            replace(
                q,
                prompt=players_words(rules, q.prompt),
                explanation=players_words(rules, q.explanation),
            )
            for q in self.ask(rules)
            if q is not None
        ]


__all__ = ["Step"]
