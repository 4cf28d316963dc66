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

A wrong answer leaves the question open with a hint; a second miss shows the answer:

>>> t.next_question(); t.set_answer(t.question.wrong_answer()); t.check_btn.click()
>>> t.message.kind, t.question.explanation in t.message.text
('retry', False)
>>> t.check_btn.click(); t.message.kind, t.question.explanation in t.message.text
('wrong', True)
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
    A step is named by its key (its content file's, ``step=runs``: a link that stays right
    when steps are added) or by its number (links made before keys were used).

    >>> read_query({"step": "3", "rules": "family"}, "denexa")[:2]
    (rules('family'), 2)
    >>> read_query({"step": "runs"}, "denexa")[:2]
    (rules('denexa'), 5)
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
    raw = (params.get("step") or "").strip()
    if raw:
        steps = steps_for(ruleset)
        keys = [s.key for s in steps]
        if raw in keys:
            step = keys.index(raw)
        elif raw.isdigit() and 1 <= int(raw) <= len(steps):
            step = int(raw) - 1
        else:
            problems.append(
                f"step must be a step's name (like {keys[min(5, len(keys) - 1)]!r}) or "
                f"a number from 1 to {len(steps)}, not {raw!r}"
            )
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
        self.misses = 0
        """Wrong answers to the question shown (the first keeps it open with a hint)."""
        self.revealed = False
        """Whether the question shown has had its answer shown (then a right answer is not
        counted as the step answered right)."""
        self.done: set[str] = set()
        """Keys of the steps answered right (in this visit and, through the browser's
        storage, earlier ones)."""
        self._resume: int | None = None
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
        self.progress_note = _part(widgets.HTML(layout=_full_width()), "progress-note")
        self.resume_btn = _button(
            "Continue where you left off",
            "the step you were on when you last visited",
            "payme-tutorial-resume",
            "play",
        )
        self.resume_btn.layout.display = "none"
        self.figure = _part(widgets.HTML(layout=_full_width()), "figure")
        self.demo = _part(widgets.VBox(), "demo")

        self.back_btn.on_click(guard(lambda _b: self.go(self.index - 1)))
        self.next_btn.on_click(guard(lambda _b: self.go(self.index + 1)))
        self.check_btn.on_click(guard(lambda _b: self.check()))
        self.another_btn.on_click(guard(lambda _b: self.next_question()))
        self.show_btn.on_click(guard(lambda _b: self.show_answer()))
        self.resume_btn.on_click(guard(lambda _b: self.resume()))
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
        # Progress lives in the visitor's browser (localStorage), one record per game.
        from payme.widgets.browser_store import BrowserStore

        self.store = BrowserStore(f"payme-learn-{ruleset.game}")
        self.store.on_load(guard(self.restore))
        self._opening = True

        check_area = widgets.VBox(
            [
                widgets.HTML("<h3 class='payme-widget-title'>Check yourself</h3>"),
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
                self.rules_dd,
                nav,
                widgets.HBox(
                    [self.progress_note, self.resume_btn],
                    layout=widgets.Layout(
                        flex_flow="row wrap", align_items="center", max_width="100%"
                    ),
                ),
                self.title,
                self.body,
                self.demo,
                check_area,
                self.url,
                self.store,
            ],
            layout=widgets.Layout(max_width="960px", padding="0 6px"),
        )
        self.add_class("payme-tutorial")
        self._fill_jump()
        self.go(step)
        self._opening = False

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
        """The URL query that reopens this rule set and step (the step by its name).

        >>> Tutorial("classic", step=4).share_query()
        'step=sets&rules=classic'
        """
        return urlencode({"step": self.step_key, "rules": self.rules.name})

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
        self.jump.options = [
            (f"{'✔ ' if s.key in self.done else ''}{i + 1}. {s.title}", i)
            for i, s in enumerate(self.steps)
        ]
        self.jump.value = self.index
        self._quiet = False

    # --- progress (kept in the browser) ----------------------------------------------

    def restore(self, record: Mapping[str, Any]) -> None:
        """Take in the progress the browser kept from earlier visits (``record``: the steps
        answered right, ``done``, and the step last shown, ``last``); unknown keys are
        dropped (a step since renamed)."""
        keys = [s.key for s in self.steps]
        done = record.get("done")
        if isinstance(done, list):
            self.done |= {k for k in done if k in keys}
        last = record.get("last")
        if isinstance(last, str) and last in keys and keys.index(last) != self.index:
            self._resume = keys.index(last)
        self._show_progress()

    def resume(self) -> None:
        """Go to the step shown when the visitor last left."""
        if self._resume is not None:
            self.go(self._resume)

    def _save_progress(self) -> None:
        self.store.save({"done": sorted(self.done), "last": self.step_key})

    def _show_progress(self) -> None:
        """The step list with ticks, the count, and the way back to where the visitor was."""
        n, total = len(self.done), len(self.steps)
        link = "?" + urlencode({"rules": self.rules.name, "step": ""})
        items = "".join(
            f"<li class='{'payme-step-done' if s.key in self.done else 'payme-step-open'}'>"
            f"<span class='payme-step-mark' aria-hidden='true'>"
            f"{'✔' if s.key in self.done else '○'}</span> "
            f"<a href='{html.escape(link + s.key)}'>{i + 1}. {html.escape(s.title)}</a>"
            f"{' <i>(answered right)</i>' if s.key in self.done else ''}"
            f"{' <b>(this step)</b>' if i == self.index else ''}</li>"
            for i, s in enumerate(self.steps)
        )
        self.progress_note.value = (
            f"<details class='payme-tutorial-steps'><summary><b>Your progress:</b> "
            f"<span class='payme-tutorial-done-count'>{n} of {total}</span> steps answered "
            f"right (kept in this browser) · all steps</summary><ol>{items}</ol></details>"
        )
        if self._resume is not None and self._resume != self.index:
            step = self.steps[self._resume]
            self.resume_btn.description = (
                f"Continue where you left off: step {self._resume + 1}, {step.title}"
            )
            self.resume_btn.layout.display = ""
        else:
            self.resume_btn.layout.display = "none"
        self._fill_jump()

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
        self.title.value = f"<h2 class='payme-widget-title'>{html.escape(step.title)}</h2>"
        self.body.value = f"<div>{text}{example}</div>"
        self._show_demo(step)
        self.show_question(0)
        if not self._opening:
            # The visitor moved: this is now where they left off.
            self._resume = None
            self._save_progress()
        self._show_progress()

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
        self.misses, self.revealed = 0, False
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
            f"<span class='payme-muted'>Question {q_index + 1} of {len(self.questions)}</span>"
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

    def right_answers(self) -> str:
        """The engine's answers to the question shown, as the learner would give them."""
        q = self.question
        labels = dict((v, label) for label, v in q.options)
        return " or ".join(labels.get(v, v) or "no cards" for v in sorted(q.right))

    def hint(self) -> str:
        """The rule the question shown touches (the step's hint), said after a first miss."""
        return self.step.hint_text(self.rules)

    def show_answer(self) -> None:
        """Show the engine's answer and its explanation (for a learner who is stuck)."""
        q = self.question
        self.revealed = True
        self.message.info(f"The engine's answer: {self.right_answers()}. {q.explanation}")
        self.figure.value = q.figure

    def check(self) -> None:
        """Grade the current answer with the engine and show the verdict.

        A first wrong answer says "Not quite" with the rule it touches as a hint and leaves
        the question open; the answer and the full reason come with a second wrong answer
        (or "Show the answer")."""
        pending = self._pending
        answer = pending if pending is not None else self.answer_text()
        self._pending = None
        q = self.question
        grade = q.grade(answer)
        if grade.ok:
            self.message.ok(grade.text())
            self.figure.value = q.figure
            if not self.revealed and self.step_key not in self.done:
                self.done.add(self.step_key)
                self._save_progress()
                self._show_progress()
            return
        self.misses += 1
        shown = q.shown(q.normalise(answer))
        given = shown[:1].upper() + shown[1:]
        if self.misses == 1 and not self.revealed:
            self.figure.value = ""
            self.message.retry(f"{given}. Try again. Hint: {self.hint()}")
            return
        self.revealed = True
        self.message.wrong(f"{given}. The answer: {self.right_answers()}. {grade.explanation}")
        self.figure.value = q.figure


__all__ = ["Tutorial"]
