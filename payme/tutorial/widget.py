"""The *Learn the rules* widget: steps with Back/Next, a step counter, a check and messages.

A thin view over the step data: the text and example come from the step, the questions
from the engine, and every answer is graded by :meth:`Question.grade`.  Every callback is
:func:`~payme.widgets.guarded`, so nonsense input or an engine error becomes a message and
the page goes on working.

>>> t = Tutorial("classic", step=4)
>>> t.step_key, t.counter_text()
('sets', 'Step 5 of 19')
>>> t.set_answer(t.question.right_answer()); t.check_btn.click()
>>> t.message.kind
'ok'
>>> t.set_answer("maybe"); t.check_btn.click(); t.message.kind
'error'
"""

from __future__ import annotations

import functools
import html
import warnings
from collections.abc import Mapping
from typing import Any, TypeVar
from urllib.parse import urlencode

import ipywidgets as widgets

from payme.rulesets import PRESETS, Ruleset, RulesLike
from payme.rulesets import rules as get_rules
from payme.tutorial import steps_for
from payme.tutorial.checks import Question
from payme.tutorial.markup import cards_html
from payme.tutorial.steps import Step
from payme.widgets import MessageBox, guarded
from payme.words import plain_words

_CSS = """<style>
.payme-tutorial-text p { margin: 0.4em 0; line-height: 1.45; max-width: 46em; }
.payme-tutorial-table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.95em; }
.payme-tutorial-table th, .payme-tutorial-table td { border: 1px solid #bbb;
  padding: 2px 10px; text-align: left; }
.payme-tutorial-table th { background: #f0f0f0; }
.payme-tutorial-prompt { font-weight: 600; margin: 0.3em 0; max-width: 46em; }
</style>"""


@functools.cache
def _full_width() -> widgets.Layout:
    """The layout of the answer widgets: wider than the page, they scroll rather than push it
    sideways.  One shared model, made on first use (a kernel that imports this module ahead
    of its page, payme.app.spare, sends no widget it does not show)."""
    return widgets.Layout(max_width="100%", overflow="auto")


def _button(label: str, tooltip: str, css: str, icon: str = "") -> widgets.Button:
    b = widgets.Button(
        description=label, tooltip=tooltip, icon=icon, layout=widgets.Layout(width="auto")
    )
    b.add_class(css)
    return b


def same_tutorial(a: Ruleset, b: Ruleset) -> bool:
    """Whether one tutorial teaches both rule sets: each game has its own tutorial, so this
    choice (and only this) is keyed by the game; the rules within it are read from fields."""
    return a.game == b.game


def read_query(params: Mapping[str, str], rules: RulesLike) -> tuple[Ruleset, int, list[str]]:
    """The rule set and 0-based step a URL query names, and what was wrong with it.

    ``rules`` is the default (and fixes the game: a rule set of another game is refused).

    >>> read_query({"step": "3", "rules": "family"}, "denexa")[:2]
    (rules('family'), 2)
    """
    problems = []
    ruleset = get_rules(rules)
    name = params.get("rules")
    if name:
        try:
            candidate = get_rules(name)
            if not same_tutorial(candidate, ruleset):
                raise ValueError(f"{candidate.name} is not a rule set of this game")
            ruleset = candidate
        except ValueError as err:
            problems.append(str(err))
    step = 0
    raw = params.get("step")
    if raw:
        try:
            step = int(raw) - 1
            if not 0 <= step < len(steps_for(ruleset)):
                raise ValueError
        except ValueError:
            problems.append(f"step must be 1 to {len(steps_for(ruleset))}, not {raw!r}")
            step = 0
    return ruleset, step, problems


W = TypeVar("W", bound=widgets.DOMWidget)


def _part(widget: W, name: str) -> W:
    """``widget`` marked as the tutorial's part ``name`` (its CSS class, which the style
    sheet and the browser tests find it by)."""
    widget.add_class(f"payme-tutorial-{name}")
    return widget


class Tutorial(widgets.VBox):  # type: ignore[misc]
    """The tutorial for a rule set's game (Pay Me or Rummy 3-Pack).

    ``rules`` picks the rule set (Pay Me offers the other Pay Me presets in a selector);
    ``step`` is 0-based.  :meth:`from_query` reads ``?step=5&rules=family`` (1-based step).
    """

    def __init__(self, rules: RulesLike = "denexa", step: int = 0) -> None:
        ruleset = get_rules(rules)
        self.rules: Ruleset = ruleset
        self.steps: tuple[Step, ...] = steps_for(ruleset)
        self.index = 0
        self.q_index = 0
        self.questions: list[Question] = []
        self._cache: dict[tuple[Ruleset, str], list[Question]] = {}
        self.message = MessageBox()
        guard = guarded(self.message)

        choices = [(r.title, name) for name, r in PRESETS.items() if same_tutorial(r, ruleset)]
        if ruleset.name not in PRESETS:
            choices.append((ruleset.title, ruleset.name))
        self._custom = {ruleset.name: ruleset}
        self.rules_dd = widgets.Dropdown(
            options=choices,
            value=ruleset.name,
            description="Rule set",
            layout=widgets.Layout(width="30em", max_width="100%"),
        )
        self.rules_dd.add_class("payme-tutorial-rules")
        self.rules_dd.layout.display = "" if len(choices) > 1 else "none"
        self.back_btn = _button("Back", "the previous step", "payme-tutorial-back", "arrow-left")
        self.next_btn = _button("Next", "the next step", "payme-tutorial-next", "arrow-right")
        self.counter = _part(widgets.HTML(), "counter")
        self.progress = _part(
            widgets.IntProgress(min=0, max=1, value=0, layout=widgets.Layout(width="10em")),
            "progress",
        )
        self.jump = _part(
            widgets.Dropdown(
                description="Go to", layout=widgets.Layout(width="auto", max_width="100%")
            ),
            "jump",
        )
        self.title = _part(widgets.HTML(), "title")
        self.body = _part(widgets.HTML(layout=_full_width()), "text")

        self.prompt = _part(widgets.HTML(), "prompt")
        self.cards = _part(widgets.HTML(layout=_full_width()), "cards")
        self.answer_box = _part(
            widgets.Box(layout=widgets.Layout(flex_flow="row wrap", max_width="100%")), "answer"
        )
        self.check_btn = _button(
            "Check my answer", "the engine grades your answer", "payme-tutorial-check", "check"
        )
        self.check_btn.button_style = "primary"
        self.show_btn = _button(
            "Show the answer", "the engine's answer and why", "payme-tutorial-show", "eye"
        )
        self.another_btn = _button(
            "Another question",
            "the next question of this step",
            "payme-tutorial-another",
            "refresh",
        )
        self.q_counter = _part(widgets.HTML(), "question-counter")
        self.figure = _part(widgets.HTML(layout=_full_width()), "figure")
        self.demo = _part(widgets.VBox(), "demo")

        self.back_btn.on_click(guard(lambda _b: self.go(self.index - 1)))
        self.next_btn.on_click(guard(lambda _b: self.go(self.index + 1)))
        self.check_btn.on_click(guard(lambda _b: self.check()))
        self.another_btn.on_click(guard(lambda _b: self.next_question()))
        self.show_btn.on_click(guard(lambda _b: self.show_answer()))
        self.rules_dd.observe(guard(lambda ch: self.set_rules(ch["new"])), names="value")
        self.jump.observe(guard(lambda ch: self._jump(ch["new"])), names="value")
        self.answer_widget: Any = None
        self._pending: str | None = None
        self._quiet = False
        # The address bar follows the rule set and step (reload, Back and a copied link
        # restore them): payme.widgets.url_state.
        from payme.widgets.url_state import UrlState

        self.url = UrlState()
        self.url.on_navigate(guard(self.apply_query))

        check_area = widgets.VBox(
            [
                widgets.HTML("<h3 style='margin:0.6em 0 0.2em'>Check yourself</h3>"),
                self.q_counter,
                self.prompt,
                self.cards,
                self.answer_box,
                widgets.HBox(
                    [self.check_btn, self.show_btn, self.another_btn],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.message,
                self.figure,
            ],
            layout=widgets.Layout(
                border="1px solid #ccc", padding="6px 10px", margin="8px 0", max_width="100%"
            ),
        )
        check_area.add_class("payme-tutorial-check-area")
        nav = widgets.HBox(
            [self.back_btn, self.counter, self.next_btn, self.progress, self.jump],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", max_width="100%"),
        )
        super().__init__(
            [
                widgets.HTML(_CSS),
                self.rules_dd,
                nav,
                self.title,
                self.body,
                self.demo,
                check_area,
                self.url,
            ],
            layout=widgets.Layout(max_width="960px", padding="0 6px"),
        )
        self.add_class("payme-tutorial")
        self._fill_jump()
        self.go(step)

    # --- building --------------------------------------------------------------------

    @classmethod
    def from_query(cls, params: Mapping[str, str], rules: RulesLike = "denexa") -> Tutorial:
        """A tutorial opened at ``params["step"]`` (1-based) with ``params["rules"]``.

        A bad value is not an error page: the tutorial opens at step 1 with the default rule
        set and says what was wrong.
        """
        ruleset, step, problems = read_query(params, rules)
        tutorial = cls(ruleset, step)
        if problems:
            tutorial.message.error("; ".join(problems) + ". Starting at step 1.")
        return tutorial

    def share_query(self) -> str:
        """The URL query that reopens this rule set and step (1-based).

        >>> Tutorial("classic", step=4).share_query()
        'step=5&rules=classic'
        """
        return urlencode({"step": self.index + 1, "rules": self.rules.name})

    def apply_query(self, params: Mapping[str, str]) -> None:
        """Show the rule set and step of a URL query (Back/Forward); a bad value is a message."""
        ruleset, step, problems = read_query(params, self.rules)
        if problems:
            self.message.error("; ".join(problems) + ".")
            return
        if ruleset.name != self.rules.name:
            self.rules_dd.value = ruleset.name  # its observer switches the rule set
        self.go(step)

    def _fill_jump(self) -> None:
        self._quiet = True
        self.jump.options = [(f"{i + 1}. {s.title}", i) for i, s in enumerate(self.steps)]
        self._quiet = False

    # --- navigation ------------------------------------------------------------------

    @property
    def step(self) -> Step:
        return self.steps[self.index]

    @property
    def step_key(self) -> str:
        return self.step.key

    @property
    def question(self) -> Question:
        if not self.questions:
            raise ValueError("this step has no question under these rules")
        return self.questions[self.q_index]

    def counter_text(self) -> str:
        return f"Step {self.index + 1} of {len(self.steps)}"

    def _jump(self, index: int | None) -> None:
        if index is not None and not self._quiet and index != self.index:
            self.go(index)

    def set_rules(self, name: str) -> None:
        """Switch rule set, keeping the step."""
        ruleset = self._custom.get(name) or get_rules(name)
        if not same_tutorial(ruleset, self.rules):
            raise ValueError(f"{ruleset.name} is not a rule set of this game")
        previous, self.rules = self.rules, ruleset
        try:
            self.go(self.index)
        except Exception:
            self.rules = previous
            raise

    def go(self, index: int) -> None:
        """Show step ``index`` (0-based), clamped to the first and last steps."""
        if not isinstance(index, int):
            raise ValueError(f"a step number must be a whole number, not {index!r}")
        index = max(0, min(index, len(self.steps) - 1))
        step, r = self.steps[index], self.rules
        # Ask the engine first, so the page changes all at once (or not at all on an error).
        key = (r, step.key)
        if key not in self._cache:
            self._cache[key] = step.questions(r)
        text = step.text(r)
        example = step.example(r) if step.example is not None else ""
        self.index = index
        self.questions = self._cache[key]
        self.back_btn.disabled = self.index == 0
        self.next_btn.disabled = self.index == len(self.steps) - 1
        self.progress.max = len(self.steps)
        self.progress.value = self.index + 1
        # The address bar follows every step (self.url); this link is the same address, to
        # open, bookmark or share.
        self.url.update(self.share_query())
        link = html.escape("?" + self.share_query())
        self.counter.value = (
            f"<b>{self.counter_text()}</b> "
            f"<a class='payme-tutorial-link' href='{link}' title='Open, bookmark or share this "
            "link to come back to this step (reloading the page opens the step in its "
            "address)'>(link to this step)</a>"
        )
        self._quiet = True
        self.jump.value = self.index
        self._quiet = False
        self.title.value = f"<h2 style='margin:0.4em 0'>{html.escape(step.title)}</h2>"
        self.body.value = f"<div>{text}{example}</div>"
        self._show_demo(step)
        self.show_question(0)

    def _show_demo(self, step: Step) -> None:
        # The step's content asks for the demo (only Pay Me's turn step does).
        if step.demo == "turn":
            from payme.tutorial.demo import TurnDemo

            self.demo.children = [TurnDemo(self.rules)]
        else:
            self.demo.children = []

    # --- the check -------------------------------------------------------------------

    def next_question(self) -> None:
        self.show_question((self.q_index + 1) % max(1, len(self.questions)))

    def show_question(self, q_index: int) -> None:
        self.message.clear()
        self.figure.value = ""
        if not self.questions:
            # A custom rule set may leave a step without an example that fits it.
            self.q_index = 0
            self.q_counter.value = ""
            self.prompt.value = "<div>No question fits this rule set here: read on.</div>"
            self.cards.value = ""
            self.answer_box.children = []
            self.answer_widget = None
            for b in (self.check_btn, self.show_btn, self.another_btn):
                b.disabled = True
            return
        self.check_btn.disabled = self.show_btn.disabled = False
        self.q_index = q_index
        q = self.question
        # The answer widget goes in first and the prompt last, and the widget carries its
        # question's number: a fast hand (or a browser test) that sees the new prompt types
        # into the new box, not the last question's.
        self.answer_widget = self._answer_widget(q)
        self.answer_widget.add_class(f"payme-tutorial-answer-{q_index + 1}")
        self.answer_box.children = [self.answer_widget]
        # The caption names the cards as players write them ("joker joker Q♣", not "JK JK QC").
        caption = plain_words(q.caption, ()) if q.caption else None
        cards = cards_html(q.cards, self.rules, q.dealt, caption=caption) if q.cards else ""
        self.cards.value = q.show + cards
        self.another_btn.disabled = len(self.questions) < 2
        self.q_counter.value = (
            f"<span style='color:#555'>Question {q_index + 1} of {len(self.questions)}</span>"
        )
        self.prompt.value = f"<div>{html.escape(q.prompt)}</div>"

    def _answer_widget(self, q: Question) -> Any:
        if q.kind == "yes_no":
            w = widgets.ToggleButtons(options=[label for label, _ in q.options], value=None)
        elif q.kind == "choice" and len(q.options) <= 10:
            w = widgets.RadioButtons(
                options=list(q.options),
                value=None,
                layout=widgets.Layout(width="auto", max_width="100%"),
            )
        elif q.kind == "choice":
            w = widgets.Dropdown(
                options=[("(choose an answer)", ""), *q.options],
                value="",
                layout=widgets.Layout(width="auto", max_width="100%"),
            )
        elif q.kind == "number":
            w = widgets.Text(
                placeholder="type a number",
                continuous_update=True,
                layout=widgets.Layout(width="12em"),
            )
            w.add_class("payme-tutorial-number")
            with warnings.catch_warnings():
                # on_submit is deprecated in ipywidgets 8 but still the only way to act on
                # Enter; the value syncs as typed (continuous_update), so it is current.
                warnings.simplefilter("ignore", DeprecationWarning)
                w.on_submit(guarded(self.message)(lambda _w: self.check()))
        else:
            toggles = [
                widgets.ToggleButton(
                    description=str(c), tooltip=c.name, layout=widgets.Layout(width="auto")
                )
                for c in q.cards
            ]
            for t in toggles:
                t.add_class("payme-tutorial-card-toggle")
            w = widgets.HBox(toggles, layout=widgets.Layout(flex_flow="row wrap"))
        w.add_class("payme-tutorial-input")
        return w

    def answer_text(self) -> str:
        """The learner's answer as text (``ValueError`` when nothing is chosen yet)."""
        q, w = self.question, self.answer_widget
        if q.kind == "cards":
            return " ".join(t.description for t in w.children if t.value)
        value = w.value
        if value is None or value == "":
            raise ValueError("choose or type an answer first")
        if q.kind == "yes_no":
            return str(dict(q.options)[value])
        return str(value)

    def set_answer(self, text: str) -> None:
        """Put ``text`` into the answer widget as a learner would (for tests and links)."""
        q, w = self.question, self.answer_widget
        if q.kind == "number":
            w.value = text
        elif q.kind == "cards":
            remaining = q.normalise(text).split()
            for t in w.children:
                t.value = t.description in remaining
                if t.value:
                    remaining.remove(t.description)
        else:
            try:
                value = q.normalise(text)
            except ValueError:
                # Not an option: a learner could not choose it; keep the text for check().
                self._pending = text
                return
            if q.kind == "yes_no":
                w.value = next(label for label, v in q.options if v == value)
            else:
                w.value = value
        self._pending = None

    def show_answer(self) -> None:
        """Show the engine's answer and its explanation (for a learner who is stuck)."""
        q = self.question
        labels = dict((v, label) for label, v in q.options)
        answers = [labels.get(v, v) or "no cards" for v in sorted(q.right)]
        self.message.info(f"The engine's answer: {' or '.join(answers)}. {q.explanation}")
        self.figure.value = q.figure

    def check(self) -> None:
        """Grade the current answer with the engine and show the verdict."""
        pending = self._pending
        answer = pending if pending is not None else self.answer_text()
        self._pending = None
        grade = self.question.grade(answer)
        if grade.ok:
            self.message.ok(grade.text())
        else:
            self.message.info(grade.text())
        self.figure.value = self.question.figure


__all__ = ["Tutorial"]
