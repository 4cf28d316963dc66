"""Questions a tutorial step asks, and how the engine grades them.

A :class:`Question` is built by asking the engine first: its right answers and its
explanation come from ``check_meld``, ``evaluate``, ``can_go_out``, ``lay_off``, the game
engine or the rule set's data, never from text written into a step.  The learner's answer is
a short string whatever the widget (``"yes"``, ``"12"``, ``"QS"``, ``"8H 9H"``), so tests can
grade answers without a browser.

>>> from payme.rulesets import rules
>>> q = number_question("How many packs do 5 players use?", rules("denexa").packs_for(5),
...                     "With 5 players denexa uses 3 packs.")
>>> q.grade("3").ok, q.grade("2").ok
(True, False)
>>> q.grade("three")
Traceback (most recent call last):
...
ValueError: type a whole number, like 12 (not 'three')
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypedDict, Unpack

from payme.cards import Card, CardError, format_hand, parse_hand

_log = logging.getLogger("payme.tutorial")

AnswerKind = Literal["yes_no", "number", "choice", "cards"]
YES_NO: tuple[tuple[str, str], ...] = (("Yes", "yes"), ("No", "no"))


@dataclass(frozen=True)
class Grade:
    """The engine's verdict on one answer."""

    ok: bool
    headline: str
    """"Right." or "Not quite." with what the learner answered."""
    explanation: str
    """Why, in the engine's words."""

    def __bool__(self) -> bool:
        return self.ok

    def text(self) -> str:
        return f"{self.headline} {self.explanation}"


@dataclass(frozen=True)
class Question:
    """One question of a step's check.

    ``right`` holds every answer the engine accepts, in normal form (see :func:`normalise`);
    ``explanation`` is the engine's reason, shown after any answer.  ``holds`` re-runs the
    engine to confirm the example still shows what ``claim`` says (tests call it).
    """

    prompt: str
    kind: AnswerKind
    right: frozenset[str]
    explanation: str
    cards: tuple[Card, ...] = ()
    caption: str = ""
    options: tuple[tuple[str, str], ...] = ()
    """``(label, value)`` pairs for ``yes_no`` and ``choice`` questions."""
    figure: str = ""
    """HTML shown with the verdict, e.g. the engine's best layout drawn as cards."""
    show: str = ""
    """HTML shown with the question, e.g. the declarer's melds to lay off onto."""
    dealt: int | None = None
    """The cards dealt in the example's hand (it fixes which cards are wild)."""
    claim: str = ""
    """What this example is meant to show under the chosen rule set."""
    holds: Callable[[], bool] | None = field(default=None, compare=False)
    why_not: Callable[[str], str] | None = field(default=None, compare=False)
    """For a wrong answer (in normal form): why it is wrong, put before the explanation
    (a card that cannot be laid off: which card already holds its place)."""

    def __post_init__(self) -> None:
        from payme.tutorial.markup import sentence

        # Every sentence a learner reads starts with a capital, whatever the engine said.
        object.__setattr__(self, "explanation", sentence(self.explanation))
        if not self.right:
            raise ValueError(f"question {self.prompt!r} has no right answer")
        if self.kind in ("yes_no", "choice"):
            values = {v for _, v in self.options}
            if not self.right <= values:
                raise ValueError(f"question {self.prompt!r}: a right answer is not an option")

    def normalise(self, answer: str) -> str:
        return normalise(self.kind, answer, self.options)

    def grade(self, answer: str) -> Grade:
        """Grade ``answer``; a ``ValueError`` saying what to type when it makes no sense."""
        given = self.normalise(answer)
        if given in self.right:
            return Grade(True, "Right.", self.explanation)
        why = self.why_not(given) if self.why_not is not None else ""
        return Grade(
            False,
            f"Not quite ({self.shown(given)}).",
            f"{why} {self.explanation}" if why else self.explanation,
        )

    def shown(self, value: str) -> str:
        """How an answer value reads to a person."""
        labels = dict((v, label) for label, v in self.options)
        if value in labels:
            return f"you chose {labels[value]!r}"
        if self.kind == "cards":
            return f"you chose {value or 'no cards'}"
        return f"you answered {value}"

    def right_answer(self) -> str:
        """One answer the engine accepts (for tests and a "show me" button)."""
        return sorted(self.right)[0]

    def wrong_answer(self) -> str:
        """An answer the engine rejects (for tests)."""
        if self.kind in ("yes_no", "choice"):
            return next(v for _, v in self.options if v not in self.right)
        if self.kind == "number":
            return str(max(int(v) for v in self.right) + 1)
        # cards: one card fewer than the right choice, or one more when it is empty
        right = self.right_answer().split()
        if right:
            return " ".join(right[1:])
        return normalise_cards(str(self.cards[0]))


def normalise(kind: AnswerKind, answer: str, options: Sequence[tuple[str, str]] = ()) -> str:
    """An answer in normal form; a ``ValueError`` saying what is expected instead."""
    if not isinstance(answer, str):
        raise ValueError(f"an answer must be text, not {type(answer).__name__}")
    text = answer.strip()
    if kind == "number":
        try:
            return str(int(text))
        except ValueError:
            raise ValueError(f"type a whole number, like 12 (not {text!r})") from None
    if kind in ("yes_no", "choice"):
        for label, value in options:
            if text.lower() in (label.lower(), value.lower()):
                return value
        allowed = ", ".join(label for label, _ in options)
        raise ValueError(f"choose one of: {allowed} (not {text!r})")
    return normalise_cards(text)


def normalise_cards(text: str) -> str:
    """Cards as canonical tokens in canonical order (copies kept); errors name the token."""
    try:
        return format_hand(sorted(parse_hand(text)))
    except CardError as err:
        raise ValueError(f"those are not cards: {err}") from None


# --- builders: each asks the engine first -----------------------------------------------


class Example(TypedDict, total=False):
    """What a question shows with its prompt besides the cards to choose from: the
    :class:`Question` fields of the same names, as keywords of the builders below."""

    caption: str
    figure: str
    show: str
    dealt: int | None
    claim: str
    holds: Callable[[], bool] | None


class Shown(Example, total=False):
    """An :class:`Example` with its cards."""

    cards: tuple[Card, ...]


def yes_no_question(prompt: str, truth: bool, explanation: str, **shown: Unpack[Shown]) -> Question:
    """A yes-or-no question whose right answer is ``truth``."""
    right = frozenset({"yes" if truth else "no"})
    return Question(prompt, "yes_no", right, explanation, options=YES_NO, **shown)


def number_question(prompt: str, truth: int, explanation: str, **shown: Unpack[Shown]) -> Question:
    """A question answered with the whole number ``truth``."""
    return Question(prompt, "number", frozenset({str(int(truth))}), explanation, **shown)


def choice_question(
    prompt: str,
    options: Sequence[tuple[str, str]],
    right: Iterable[str],
    explanation: str,
    **shown: Unpack[Shown],
) -> Question:
    """Choose one of ``options`` (``(label, value)`` pairs); ``right`` holds the right values."""
    return Question(
        prompt, "choice", frozenset(right), explanation, options=tuple(options), **shown
    )


def cards_question(
    prompt: str,
    cards: Iterable[Card],
    right: Iterable[Card],
    explanation: str,
    *,
    why_not: Callable[[str], str] | None = None,
    **example: Unpack[Example],
) -> Question:
    """Choose some of ``cards``; ``right`` is the one right choice (a multiset)."""
    right_choice = frozenset({format_hand(sorted(right))})
    return Question(
        prompt, "cards", right_choice, explanation, tuple(cards), why_not=why_not, **example
    )


def pick(candidates: Iterable[Callable[[], Question | None]], what: str) -> Question | None:
    """The first candidate example that shows what the step needs (``None``: it does not).

    Each candidate asks the engine; one that does not illustrate the point under the chosen
    rule set returns ``None`` and the next is tried.  When none does (a custom rule set may
    change the point itself), the question is left out and the miss is logged; the preset
    rule sets never miss (the tests check the log).
    """
    for make in candidates:
        try:
            question = make()
        except ValueError as err:
            # The example itself is not valid under these rules (a declarer's meld that
            # needs a joker when jokers are not wild, say): it shows nothing here.
            _log.info("an example for %s does not fit: %s", what, err)
            continue
        if question is not None:
            return question
    _log.info("no example shows %s", what)
    return None


__all__ = [
    "YES_NO",
    "AnswerKind",
    "Example",
    "Grade",
    "Question",
    "Shown",
    "cards_question",
    "choice_question",
    "normalise",
    "normalise_cards",
    "number_question",
    "pick",
    "yes_no_question",
]
