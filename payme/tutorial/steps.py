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
from typing import Any

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
    hint: Callable[[Ruleset], str] | None = None
    """The rule the questions touch, in one sentence: shown after a first wrong answer."""

    def hint_text(self, rules: Ruleset) -> str:
        """The step's hint under ``rules`` in a player's words (its title when it has none)."""
        from payme.tutorial.markup import players_words

        return players_words(rules, self.hint(rules) if self.hint is not None else self.title)

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


Ask = Callable[[Ruleset], Sequence[Question | None]]


def steps_from_content(
    game: str,
    asks: dict[str, Ask],
    figures: dict[str, Callable[[Ruleset], str]],
) -> tuple[Step, ...]:
    """The steps of ``game`` in the order of its content files (:mod:`payme.tutorial.content`).

    A step's text comes from its file; its questions are the file's meld checks, then
    ``asks[key]`` (questions the code builds from real games and the engine).  A file and a
    question builder without each other are an error, so nothing is silently left out.
    """
    from payme.tutorial.content import load

    contents = load(game)
    keys = [c.key for c in contents]
    if set(keys) != set(asks) or len(keys) != len(set(keys)):
        raise ValueError(
            f"the {game} content files ({sorted(keys)}) and question builders "
            f"({sorted(asks)}) must name the same steps, once each"
        )
    steps = []
    for c in contents:

        def text(r: Ruleset, c: Any = c) -> str:
            return str(c.html(r, figures))

        def ask(r: Ruleset, c: Any = c) -> list[Question | None]:
            return [*c.meld_questions(r), *asks[c.key](r)]

        steps.append(Step(c.key, c.title, c.check, text, ask, demo=c.demo, hint=c.hint_text))
    return tuple(steps)


__all__ = ["Step", "steps_from_content"]
