"""The Puzzles page: hand-evaluation puzzles from :mod:`payme.puzzles`, answered and graded.

Choose a rule set, a kind of puzzle and a difficulty, then "New puzzle".  The page draws the
hand (and, for a lay-off puzzle, the declarer's melds), takes an answer suited to the kind —
a card clicked or typed, a go-out choice, deadwood points or cards, lay-off points — and
shows the engine's verdict with the best answer explained and drawn.

A puzzle is rebuilt from its id, so the page's state is the URL's ``?id=…``: a Voilà reload
(a new kernel) shows the same puzzle, and the page offers that link.

>>> page = PuzzlePage.from_query({"id": "denexa-7-discard-42"})
>>> page.puzzle.id, page.share_query()
('denexa-7-discard-42', 'id=denexa-7-discard-42')
>>> page.set_answer("QX"); page.check()
>>> page.answer_message.kind, page.verdict.value
('error', '')

A wrong answer gets another try (a hint, no solution); a second miss shows the solution:

>>> page.set_answer(page.puzzle_wrong_answer()); page.check()
>>> page.answer_message.kind, page.verdict.value, page.next_button.layout.display
('retry', '', 'none')
>>> page.check(); "payme-msg-wrong" in page.verdict.value, page.next_button.layout.display
(True, '')
>>> PuzzlePage.from_query({"id": "nonsense"}).message.text.startswith("Link: bad puzzle id")
True
"""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Mapping
from html import escape
from typing import Any, Final
from urllib.parse import urlencode

import ipywidgets as widgets

from payme.cards import parse_hand
from payme.deprecation import renamed
from payme.display import (
    go_out_html,
    hand_html,
    layoff_html,
    layout_html,
    meld_html,
    short_label,
)
from payme.puzzles import (
    DIFFICULTIES,
    HINTS,
    Difficulty,
    Puzzle,
    PuzzleKind,
    kinds_for,
    new_puzzle,
    puzzle_from_id,
)
from payme.rulesets import PRESETS, Ruleset
from payme.rulesets import rules as get_rules
from payme.widgets.messages import MessageBox, guarded
from payme.widgets.url_state import UrlState
from payme.words import wild_cards

__all__ = ["KIND_LABELS", "PuzzlePage", "wild_this_round"]

KIND_LABELS: Final[dict[str, str]] = {
    "discard": "Choose the discard",
    "go_out": "Can it go out?",
    "deadwood": "Find the deadwood",
    "lay_off": "Lay off onto the declarer",
}
ANY: Final = "any"
# The answer box's label and hint, per kind.
_ANSWER_BOX: Final[dict[str, tuple[str, str]]] = {
    "discard": ("Discard", "a card, e.g. 7H — or click one above"),
    "go_out": ("Answer", "no, none (no discard) or the card to discard"),
    "deadwood": ("Deadwood", "points (e.g. 15) or the cards (e.g. KD 4C)"),
    "lay_off": ("Points", "your fewest penalty points, e.g. 10"),
}
_GO_OUT_CHOICES: Final = (("Can't go out", "no"), ("Go out without discarding", "none"))
_WIDE: Final = {"description_width": "initial"}


def wild_this_round(rules: Ruleset, dealt: int) -> str:
    """What is wild in a round, read from the rule set (never from its name).

    >>> wild_this_round(get_rules("classic"), 7)
    'Wild this round: sevens and jokers.'
    >>> wild_this_round(get_rules("three_pack"), 7)
    'Wild this round: WILD (in any meld), GROUP (in groups only) and SEQ (in sequences only).'
    """
    listed = wild_cards(rules, dealt)
    return f"Wild this round: {listed}." if listed else "Nothing is wild this round."


def _seed_of(puzzle_id: str) -> int:
    return int(puzzle_id.rsplit("-", 1)[1])


class PuzzlePage(widgets.VBox):  # type: ignore[misc]
    """The whole Puzzles page as one widget (the notebook displays it).

    Settings: ``.rules_dd``, ``.kind_dd``, ``.difficulty_dd``, ``.new_button``.  The puzzle:
    ``.info`` (id, difficulty, round), ``.question``, ``.declarer_view``, ``.hand_view``.
    The answer: ``.card_choice`` (one button per card, for discard and go-out puzzles),
    ``.go_out_choice``, ``.card_toggles`` (deadwood cards), ``.answer_text``,
    ``.check_button``, ``.solution_button``, ``.answer_message``.  The result: ``.verdict``
    and ``.solution_view``.  ``.share`` holds the link; ``.message`` settings and link errors.

    ``seed`` makes the sequence of new puzzles repeatable (tests); by default it is random.
    """

    def __init__(
        self,
        rules: str = "denexa",
        kind: str = "discard",
        difficulty: str = "easy",
        *,
        puzzle: Puzzle | None = None,
        seed: int | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        self._syncing = False
        self.puzzle: Puzzle | None = None
        self.message = MessageBox()
        self.answer_message = MessageBox()
        guard = guarded(self.message)
        answer_guard = guarded(self.answer_message)

        self.rules_dd = widgets.Dropdown(
            options=[(r.title, name) for name, r in PRESETS.items()],
            value=get_rules(rules).name,
            description="Rule set",
            style=_WIDE,
            layout=widgets.Layout(width="auto", max_width="100%"),
        )
        self.kind_dd = widgets.Dropdown(
            description="Puzzle", style=_WIDE, layout=widgets.Layout(width="auto")
        )
        self.difficulty_dd = widgets.Dropdown(
            options=[(d, d) for d in (*DIFFICULTIES, ANY)],
            value=difficulty,
            description="Difficulty",
            style=_WIDE,
            layout=widgets.Layout(width="auto"),
        )
        self.new_button = widgets.Button(
            description="New puzzle", icon="random", button_style="primary",
            tooltip="Deal a new puzzle with these settings",
            layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        self._fill_kinds(kind)

        self.info = widgets.HTML()
        self.question = widgets.HTML()
        self.declarer_view = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.hand_view = widgets.HTML(layout=widgets.Layout(max_width="100%"))

        self.card_choice = widgets.ToggleButtons(
            options=[], value=None, style={"button_width": "auto"},
            layout=widgets.Layout(flex_flow="row wrap", max_width="100%"),
        )  # fmt: skip
        self.go_out_choice = widgets.ToggleButtons(
            options=list(_GO_OUT_CHOICES), value=None, style={"button_width": "auto"},
            tooltips=["This hand cannot go out this turn",
                      "Every card fits in melds: go out and keep them all"],
            layout=widgets.Layout(flex_flow="row wrap", max_width="100%"),
        )  # fmt: skip
        self.card_toggles: list[widgets.ToggleButton] = []
        self._toggle_box = widgets.HBox(
            layout=widgets.Layout(flex_flow="row wrap", max_width="100%")
        )
        self.pick_caption = widgets.HTML()
        self.answer_text = widgets.Text(
            continuous_update=True,
            style=_WIDE,
            layout=widgets.Layout(flex="1 1 240px", min_width="0", max_width="30em"),
        )
        self.check_button = widgets.Button(
            description="Check", icon="check", button_style="success",
            tooltip="Grade your answer (or press Enter in the box)",
            layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        self.solution_button = widgets.Button(
            description="Show solution", icon="eye",
            tooltip="Show the best answer without grading",
            layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        self.next_button = widgets.Button(
            description="Next puzzle", icon="arrow-right", button_style="primary",
            tooltip="Another puzzle with these settings",
            layout=widgets.Layout(width="auto", display="none"),
        )  # fmt: skip
        self.misses = 0
        """Wrong answers to the puzzle shown (the first gets another try, with a hint)."""
        self.revealed = False
        self.verdict = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.solution_view = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.share = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        # The address bar follows the puzzle shown (reload, Back and a copied link restore it).
        self.url = UrlState()

        for widget, css in (
            (self.rules_dd, "payme-puzzle-rules"),
            (self.kind_dd, "payme-puzzle-kind"),
            (self.difficulty_dd, "payme-puzzle-difficulty"),
            (self.new_button, "payme-puzzle-new"),
            (self.info, "payme-puzzle-info"),
            (self.question, "payme-puzzle-question"),
            (self.declarer_view, "payme-puzzle-declarer"),
            (self.hand_view, "payme-puzzle-hand"),
            (self.card_choice, "payme-puzzle-cards"),
            (self.go_out_choice, "payme-puzzle-go-out"),
            (self._toggle_box, "payme-puzzle-toggles"),
            (self.answer_text, "payme-puzzle-answer"),
            (self.check_button, "payme-puzzle-check"),
            (self.solution_button, "payme-puzzle-solution"),
            (self.next_button, "payme-puzzle-next"),
            (self.verdict, "payme-puzzle-verdict"),
            (self.solution_view, "payme-puzzle-solution-view"),
            (self.share, "payme-share"),
            (self.message, "payme-puzzle-message"),
            (self.answer_message, "payme-puzzle-answer-message"),
        ):
            widget.add_class(css)

        self.rules_dd.observe(guard(self._rules_changed), names="value")
        self.new_button.on_click(guard(lambda _b: self.new_puzzle()))
        self.card_choice.observe(answer_guard(self._card_chosen), names="value")
        self.go_out_choice.observe(answer_guard(self._go_out_chosen), names="value")
        self.answer_text.observe(answer_guard(self._text_typed), names="value")
        with warnings.catch_warnings():
            # on_submit is deprecated in ipywidgets 8 but still the only way to act on Enter;
            # the value syncs as typed (continuous_update), so it is current.
            warnings.simplefilter("ignore", DeprecationWarning)
            self.answer_text.on_submit(answer_guard(lambda _w: self.check()))
        self.check_button.on_click(answer_guard(lambda _b: self.check()))
        self.solution_button.on_click(answer_guard(lambda _b: self.show_solution()))
        self.next_button.on_click(guard(lambda _b: self.new_puzzle()))

        settings = widgets.HBox(
            [self.rules_dd, self.kind_dd, self.difficulty_dd, self.new_button],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", max_width="100%"),
        )
        self._picks = widgets.VBox(
            [self.pick_caption, self.go_out_choice, self.card_choice, self._toggle_box],
            layout=widgets.Layout(max_width="100%"),
        )
        answer_row = widgets.HBox(
            [self.answer_text, self.check_button, self.solution_button, self.answer_message],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", max_width="100%"),
        )
        super().__init__(
            children=[
                settings,
                self.message,
                self.info,
                self.question,
                self.declarer_view,
                self.hand_view,
                self._picks,
                answer_row,
                self.verdict,
                self.next_button,
                self.solution_view,
                self.share,
                self.url,
            ],
            layout=widgets.Layout(max_width="100%", overflow="hidden"),
        )
        self.add_class("payme-puzzle-page")
        self.url.on_navigate(guard(self.apply_query))
        if puzzle is not None:
            self.show(puzzle)
        else:
            guard(self.new_puzzle)()

    # --- settings -----------------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        return PRESETS[self.rules_dd.value]

    @property
    def kind(self) -> PuzzleKind | None:
        value = self.kind_dd.value
        return None if value == ANY else value

    @property
    def difficulty(self) -> Difficulty | None:
        value = self.difficulty_dd.value
        return None if value == ANY else value

    def _fill_kinds(self, want: str | None) -> None:
        kinds = kinds_for(self.rules)
        self.kind_dd.options = [(KIND_LABELS[k], k) for k in kinds] + [("Any kind", ANY)]
        keep = want if want in (*kinds, ANY) else kinds[0]
        self.kind_dd.value = keep

    def _rules_changed(self, change: dict[str, Any]) -> None:
        # Lay-off puzzles exist only where the rules allow lay-offs.
        self._fill_kinds(self.kind_dd.value)

    # --- puzzles ------------------------------------------------------------------------

    def new_puzzle(self) -> None:
        """Generate one puzzle from the settings (once per click) and show it."""
        self.message.clear()
        seed = self._rng.randrange(10**6)
        puzzle = new_puzzle(self.kind, self.rules, None, self.difficulty, seed)
        if self.puzzle is not None and puzzle.id == self.puzzle.id:
            again = _seed_of(puzzle.id) + 1
            puzzle = new_puzzle(self.kind, self.rules, None, self.difficulty, again)
        self.show(puzzle)

    def show(self, puzzle: Puzzle) -> None:
        """Show ``puzzle``: its hand, question and an answer input suited to its kind."""
        self.puzzle = puzzle
        r, dealt = puzzle.rules, puzzle.dealt
        self.answer_message.clear()
        self.verdict.value = ""
        self.solution_view.value = ""
        self.misses, self.revealed = 0, False
        self.next_button.layout.display = "none"
        self.info.value = (
            '<p class="payme-apart">'
            f"{escape(r.title)} · {dealt} cards dealt · {escape(wild_this_round(r, dealt))} · "
            f'Difficulty: <span class="payme-puzzle-grade">{puzzle.difficulty}</span></p>'
        )
        title = KIND_LABELS[puzzle.kind]
        title += "" if title.endswith("?") else ":"
        self.question.value = (
            f'<p class="payme-around payme-lead"><b>{escape(title)}</b> '
            f"{escape(puzzle.question)}</p>"
        )
        if puzzle.declarer_melds:
            boxes = "".join(meld_html(m, rules=r) for m in puzzle.declarer_melds)
            self.declarer_view.value = (
                '<figure class="payme-card-group"><figcaption>The declarer\'s melds</figcaption>'
                '<div class="payme-card-row">'
                f"{boxes}</div></figure>"
            )
            self.declarer_view.layout.display = None
        else:
            self.declarer_view.value = ""
            self.declarer_view.layout.display = "none"
        n = len(puzzle.hand)
        drawn = " + 1 drawn" if n == dealt + 1 else ""
        marks = ["wild" if r.is_wild(c, dealt) else None for c in puzzle.hand]
        self.hand_view.value = hand_html(
            puzzle.hand, marks=marks, caption=f"Your hand: {n} cards ({dealt} dealt{drawn})"
        )
        self._build_answer(puzzle)
        self.share.value = self._share_html()
        self.url.update(self.share_query())

    def _build_answer(self, puzzle: Puzzle) -> None:
        self._syncing = True
        try:
            label, hint = _ANSWER_BOX[puzzle.kind]
            self.answer_text.description = label
            self.answer_text.placeholder = hint
            self.answer_text.value = ""
            distinct = sorted(set(puzzle.hand))
            self.card_choice.options = [(short_label(c), str(c)) for c in distinct]
            self.card_choice.tooltips = [c.name for c in distinct]
            self.card_choice.value = None
            self.go_out_choice.value = None
            # One toggle per card, for a deadwood puzzle only (other kinds never show them);
            # the last puzzle's toggles are closed, so no model outlives its puzzle.
            for toggle in self.card_toggles:
                toggle.close()
            self.card_toggles = []
            for card in puzzle.hand if puzzle.kind == "deadwood" else ():
                toggle = widgets.ToggleButton(
                    description=short_label(card), tooltip=card.name,
                    layout=widgets.Layout(width="auto"),
                )  # fmt: skip
                toggle.add_class("payme-puzzle-card-toggle")
                toggle.observe(guarded(self.answer_message)(self._toggled), names="value")
                self.card_toggles.append(toggle)
            self._toggle_box.children = self.card_toggles
        finally:
            self._syncing = False
        kind = puzzle.kind
        shown = {
            "discard": (self.card_choice,),
            "go_out": (self.go_out_choice, self.card_choice),
            "deadwood": (self._toggle_box,),
            "lay_off": (),
        }[kind]
        for widget in (self.go_out_choice, self.card_choice, self._toggle_box):
            widget.layout.display = None if widget in shown else "none"
        caption = {
            "discard": "Click the card to discard, or type it below.",
            "go_out": "Choose, or click the card you would discard to go out:",
            "deadwood": "Click the cards left over as deadwood, or type the points below.",
            "lay_off": "Type the fewest penalty points you can end with.",
        }[kind]
        self.pick_caption.value = f'<p class="payme-apart">{escape(caption)}</p>'

    # --- answering ----------------------------------------------------------------------

    def set_answer(self, text: str) -> None:
        """Type ``text`` into the answer box, as a visitor would."""
        self.answer_text.value = text

    def _set_text(self, text: str) -> None:
        self._syncing = True
        try:
            self.answer_text.value = text
        finally:
            self._syncing = False

    def _card_chosen(self, change: dict[str, Any]) -> None:
        self._chosen(change, self.go_out_choice)

    def _go_out_chosen(self, change: dict[str, Any]) -> None:
        self._chosen(change, self.card_choice)

    def _chosen(self, change: dict[str, Any], other: Any) -> None:
        """An answer picked in one list: the other list is cleared, the answer typed in."""
        if self._syncing or change["new"] is None:
            return
        self._syncing = True
        try:
            other.value = None
        finally:
            self._syncing = False
        self._set_text(change["new"])
        self.answer_message.clear()

    def _toggled(self, change: dict[str, Any]) -> None:
        if self._syncing or self.puzzle is None:
            return
        chosen = [str(c) for c, t in zip(self.puzzle.hand, self.card_toggles, strict=True)
                  if t.value]  # fmt: skip
        self._set_text(" ".join(chosen))
        self.answer_message.clear()

    def _text_typed(self, change: dict[str, Any]) -> None:
        """Typed text selects the matching buttons (quietly: bad text is reported on Check)."""
        if self._syncing or self.puzzle is None:
            return
        text = str(change["new"]).strip()
        try:
            cards = parse_hand(text) if text and not text.isdigit() else ()
        except ValueError:
            cards = ()
        self._syncing = True
        try:
            options = {value for _, value in self.card_choice.options}
            one = str(cards[0]) if len(cards) == 1 else None
            self.card_choice.value = one if one in options else None
            self.go_out_choice.value = text.lower() if text.lower() in ("no", "none") else None
            left = list(cards)
            for card, toggle in zip(self.puzzle.hand, self.card_toggles, strict=False):
                toggle.value = card in left
                if card in left:
                    left.remove(card)
        finally:
            self._syncing = False

    def check(self) -> None:
        """Grade the answer in the box; bad input is a message beside it, not a verdict."""
        puzzle = self.puzzle
        if puzzle is None:
            raise ValueError("no puzzle yet: click New puzzle")
        # A new check replaces the last one's verdict, so no old "Right" stays beside a new
        # problem.
        self.answer_message.clear()
        self.verdict.value = ""
        self.solution_view.value = ""
        text = str(self.answer_text.value).strip()
        if not text:
            self.answer_message.error(
                "Choose or type an answer first"
                + (" (0 if nothing is left over)." if puzzle.kind == "deadwood" else ".")
            )
            return
        try:
            verdict = puzzle.check(text)
        except ValueError as error:  # CardError too: the engine names the problem
            self.answer_message.error(f"{error}")
            return
        if not verdict.correct:
            self.misses += 1
            if self.misses == 1 and not self.revealed:
                # Another try: what is wrong with this answer and the rule it turns on,
                # never the best answer.
                said = re.sub(r"^Not quite[.:]?\s*", "", verdict.feedback)
                said = said[:1].upper() + said[1:]
                self.answer_message.retry(f"{said} Try again. Hint: {HINTS[puzzle.kind]}".strip())
                return
        self.revealed = True
        self.verdict.value = _verdict_html(verdict.correct, verdict.explanation)
        self.solution_view.value = self._solution_html(puzzle)
        self.next_button.layout.display = ""

    def show_solution(self) -> None:
        """Show the best answer, explained and drawn, without grading."""
        puzzle = self.puzzle
        if puzzle is None:
            raise ValueError("no puzzle yet: click New puzzle")
        self.answer_message.clear()
        self.revealed = True
        self.next_button.layout.display = ""
        self.verdict.value = (
            '<div class="payme-verdict-solution payme-msg payme-msg-info" role="status">'
            f"ℹ <b>Solution:</b> {escape(puzzle.solution())}</div>"
        )
        self.solution_view.value = self._solution_html(puzzle)

    @staticmethod
    def _solution_html(p: Puzzle) -> str:
        """The best answer drawn with payme.display (computed by the engine)."""
        from payme.layoff import lay_off
        from payme.solver import best_discard, can_go_out, evaluate

        if p.kind == "deadwood":
            return layout_html(evaluate(p.hand, p.rules, p.dealt))
        if p.kind == "lay_off":
            return layoff_html(lay_off(p.hand, list(p.declarer_melds), p.rules, p.dealt))
        if p.kind == "discard":
            best = best_discard(p.hand, rules=p.rules, dealt=p.dealt)
            return (
                f'<p class="payme-below">After discarding {escape(short_label(best.card))}:'
                f"</p>{layout_html(best.evaluation)}"
            )
        out = can_go_out(p.hand, p.rules, p.dealt)
        kept = list(p.hand)
        if out.ok and out.discards[0] is not None:
            kept.remove(out.discards[0])
        return go_out_html(out) + layout_html(evaluate(kept, p.rules, p.dealt))

    def puzzle_wrong_answer(self) -> str:
        """An answer the engine grades wrong for the puzzle shown (for tests and demos)."""
        p = self.puzzle
        if p is None:
            raise ValueError("no puzzle yet: click New puzzle")
        for answer in (*map(str, sorted(set(p.hand))), "no", "none", *map(str, range(200))):
            try:
                if not p.check(answer).correct:
                    return answer
            except ValueError:
                continue
        raise ValueError(f"puzzle {p.id} has no wrong answer")

    # --- the URL ------------------------------------------------------------------------

    def share_query(self) -> str:
        """The URL query that reopens this puzzle."""
        return urlencode({"id": self.puzzle.id}) if self.puzzle is not None else ""

    def _share_html(self) -> str:
        href = "?" + self.share_query()
        ident = self.puzzle.id if self.puzzle is not None else ""
        return (
            '<p class="payme-apart">'
            f'<a class="payme-share-link" href="{escape(href)}">Link to this puzzle</a> '
            '<span class="payme-muted">(the address bar holds it too) · puzzle number '
            f'<span class="payme-puzzle-id">{escape(ident)}</span></span></p>'
        )

    @classmethod
    def from_query(cls, params: Mapping[str, str], *, seed: int | None = None) -> PuzzlePage:
        """The page for a URL query: ``?id=…`` shows that puzzle; a bad id becomes a message
        and a fresh puzzle."""
        page = cls(seed=seed) if not params.get("id") else cls(puzzle=_placeholder(), seed=seed)
        page.apply_query(params)
        return page

    def apply_query(self, params: Mapping[str, str]) -> None:
        """Show the puzzle named by ``params["id"]`` (settings follow it)."""
        text = params.get("id", "").strip()
        if not text:
            return
        try:
            puzzle = puzzle_from_id(text)
        except ValueError as error:
            guarded(self.message)(self.new_puzzle)()
            self.message.error(f"Link: {error}; here is a fresh puzzle instead.")
            return
        self.rules_dd.value = puzzle.rules.name
        self.kind_dd.value = puzzle.kind
        self.difficulty_dd.value = puzzle.difficulty
        self.show(puzzle)


def _verdict_html(correct: bool, explanation: str) -> str:
    """A graded answer: a *right* box, or a *wrong* one (red, never an info blue).

    >>> "payme-msg-wrong" in _verdict_html(False, "No: 9♣ leaves 12 points.")
    True
    """
    # The explanation starts with the verdict in words ("Right." / "Not quite: …").
    mark, css = ("✔", "right") if correct else ("✘", "wrong")
    return (
        f'<div class="payme-verdict-{css} payme-msg payme-msg-{css}" role="status">'
        f"<b>{mark}</b> {escape(explanation)}</div>"
    )


def _placeholder() -> Puzzle:
    # A page opened from a link shows the linked puzzle at once; this cheap puzzle stands in
    # while the widgets are built, so no puzzle is generated twice.
    return puzzle_from_id("denexa-3-deadwood-0")


# Renamed 2026-12-02: payme.words.wild_phrase is another sentence.
__getattr__ = renamed(__name__, {"wild_phrase": "payme.widgets.puzzles:wild_this_round"})
