"""The tutorials' words, read from Markdown files anyone who knows the game can edit.

Each step is one file in ``payme/tutorial/content/<game>/``, named ``NN-key.md`` (NN orders
the steps).  A file starts with a small front matter between ``---`` lines, then the text:

.. code-block:: markdown

    ---
    key: sets
    title: Melds: sets
    check: yes_no
    ---
    A set is {set_size} of the same rank, like three eights.

    ::: if set_distinct_suits
    Under {rules}, no suit may appear twice in one set.
    ::: else
    Under {rules}, suits may repeat.
    ::: end

    ::: cards 8S 8H 8D @5 | a set of eights

    ::: check meld 8S 8H 8D @5 | valid | three of a rank

What the text may hold:

* Paragraphs (separated by a blank line), ``- `` bullets and ``**bold**``.
* ``{name}``: a value of the chosen rule set (:func:`context` lists them: ``{hands}``,
  ``{rules}``, ``{set_min}`` ...).
* ``::: if NAME`` / ``::: if not NAME`` … ``::: else`` … ``::: end``: text for some rule
  sets only; NAME is a yes/no value of the context.
* ``::: cards CARDS @DEALT | caption``: a row of cards drawn (``@DEALT`` marks the wild cards
  of that hand; optional).
* ``::: figure NAME``: a table or drawing the code makes from the engine (a step's
  ``figures``).
* ``::: check meld CARDS @DEALT | EXPECT | what it shows``: an "Is this a valid meld?"
  question graded by the engine.  EXPECT is ``valid``, ``invalid`` or ``valid if NAME``
  (``not`` and ``and`` allowed); ``CARDS @D or CARDS @D`` gives candidate examples, the first
  that shows the point is asked.  ``::: check meld … | … | … | why`` puts a sentence before the
  engine's reason.

>>> from payme.rulesets import rules
>>> step = load("pay_me")[4]
>>> step.key, step.title
('sets', 'Melds: sets')
>>> "no suit may appear twice" in step.html(rules("denexa"))
True
>>> "suits may repeat" in step.html(rules("classic"))
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cache
from importlib.resources import files
from typing import Any

from payme.cards import Card
from payme.deprecation import renamed
from payme.rulesets import Ruleset
from payme.tutorial.checks import AnswerKind, Question
from payme.words import joined, rank_label, wild_kinds

Figure = Callable[[Ruleset], str]


@dataclass(frozen=True)
class MeldExamples:
    """One ``::: check meld`` line: candidate examples, what they must show, and why."""

    candidates: tuple[tuple[str, int], ...]
    expect: str
    claim: str
    why: str = ""


@dataclass(frozen=True)
class StepContent:
    """One step's file: its front matter, its text, and the meld checks it lists."""

    key: str
    title: str
    check: AnswerKind
    body: str
    demo: str | None = None
    path: str = ""
    hint: str = ""
    """The rule the step's questions touch, in one sentence (front matter ``hint:``), shown
    after a first wrong answer; ``{name}`` values are filled from the rule set."""
    readings: tuple[str, ...] = ()
    """Words naming the rule set's readings this step teaches (front matter ``readings:``,
    ``;`` between them): each note of :attr:`Ruleset.notes` holding one of them is shown
    in an "Our reading" box under the text."""

    def reading_notes(self, rules: Ruleset) -> list[str]:
        """The rule set's readings (its ``notes``) this step teaches."""
        words = [w.lower() for w in self.readings]
        return [n for n in rules.notes if any(w in n.lower() for w in words)]

    def hint_text(self, rules: Ruleset) -> str:
        """The step's hint under ``rules`` (its title when the file gives none)."""
        return _fill(self.hint, context(rules), self.path) if self.hint else self.title

    def html(self, rules: Ruleset, figures: Mapping[str, Figure] | None = None) -> str:
        """The step's text under ``rules``, as HTML (figures drawn by ``figures``), with an
        "Our reading" box for each reading of the rule set it teaches."""
        boxes = "".join(
            '<p class="payme-reading"><b>Our reading:</b> '
            f"{html.escape(note)} (the sources leave this open; the app plays it so)</p>"
            for note in self.reading_notes(rules)
        )
        return render(self.body, rules, figures or {}, where=self.path) + boxes

    def meld_checks(self, rules: Ruleset) -> list[MeldExamples]:
        """The ``::: check meld`` lines that apply under ``rules`` (outside false ``if``s)."""
        checks = []
        for line in _kept_lines(self.body, context(rules), self.path):
            if line.startswith("::: check meld "):
                checks.append(parse_meld_check(line[len("::: check meld ") :], self.path))
        return checks

    def meld_questions(self, rules: Ruleset) -> list[Question | None]:
        """The step's meld checks as questions, each graded by ``check_meld``."""
        from functools import partial

        from payme.tutorial import ask
        from payme.tutorial.checks import pick

        ctx = context(rules)
        out: list[Question | None] = []
        for check in self.meld_checks(rules):
            want = expectation(check.expect, ctx, self.path)
            out.append(
                pick(
                    [
                        partial(
                            ask.meld,
                            rules,
                            cards,
                            dealt,
                            shows=_is(want),
                            claim=check.claim,
                            why=check.why,
                        )
                        for cards, dealt in check.candidates
                    ],
                    check.claim,
                )
            )
        return out


def _is(want: bool) -> Callable[[bool], bool]:
    """What a meld check's example must show: the engine's verdict is ``want``."""
    return lambda ok: ok == want


# --- reading the files ------------------------------------------------------------------


@cache
def load(game: str) -> tuple[StepContent, ...]:
    """The steps of ``game`` (``"pay_me"`` or ``"three_pack"``) in their files' order."""
    folder = files("payme.tutorial").joinpath("content", game)
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".md"))
    if not names:
        raise ValueError(f"no tutorial content for {game!r}")
    return tuple(
        parse(folder.joinpath(n).read_text(encoding="utf-8"), f"{game}/{n}") for n in names
    )


def parse(text: str, where: str = "") -> StepContent:
    """A step file: ``key``, ``title`` and ``check`` (and maybe ``demo``, ``hint`` and
    ``readings``) in the front matter."""
    match = re.match(r"---\n(.*?)\n---\n(.*)", text, flags=re.S)
    if not match:
        raise ValueError(f"{where}: a step file starts with front matter between --- lines")
    meta: dict[str, str] = {}
    for line in match[1].splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"{where}: front matter lines read 'name: value', not {line!r}")
        meta[name.strip()] = value.strip()
    missing = {"key", "title", "check"} - set(meta)
    if missing:
        raise ValueError(f"{where}: the front matter lacks {', '.join(sorted(missing))}")
    if meta["check"] not in ("yes_no", "number", "choice", "cards"):
        raise ValueError(f"{where}: check must be yes_no, number, choice or cards")
    return StepContent(
        meta["key"],
        meta["title"],
        meta["check"],  # type: ignore[arg-type]
        match[2],
        meta.get("demo") or None,
        where,
        meta.get("hint", ""),
        tuple(w.strip() for w in meta.get("readings", "").split(";") if w.strip()),
    )


def parse_meld_check(text: str, where: str = "") -> MeldExamples:
    """``8S 8H 8D @5 or 9S 9H 9D @4 | valid if twos_wild | claim | why``."""
    parts = [p.strip() for p in text.split("|")]
    if len(parts) not in (3, 4):
        raise ValueError(f"{where}: a meld check reads 'CARDS @DEALT | EXPECT | claim'")
    candidates = []
    for option in parts[0].split(" or "):
        cards, at, dealt = option.partition("@")
        if not at or not dealt.strip().isdigit():
            raise ValueError(f"{where}: give the cards dealt after @, like '8S 8H 8D @5'")
        candidates.append((cards.strip(), int(dealt)))
    return MeldExamples(tuple(candidates), parts[1], parts[2], parts[3] if len(parts) == 4 else "")


def expectation(expect: str, ctx: Mapping[str, object], where: str = "") -> bool:
    """``valid`` → True, ``invalid`` → False, ``valid if a and not b`` → as the context says."""
    if expect == "valid":
        return True
    if expect == "invalid":
        return False
    match = re.fullmatch(r"(valid|invalid) if (.+)", expect)
    if not match:
        raise ValueError(f"{where}: expect valid, invalid or 'valid if NAME', not {expect!r}")
    truth = all(condition(term.strip(), ctx, where) for term in match[2].split(" and "))
    return truth if match[1] == "valid" else not truth


def condition(term: str, ctx: Mapping[str, object], where: str = "") -> bool:
    negate = term.startswith("not ")
    name = term[4:].strip() if negate else term
    if name not in ctx:
        raise ValueError(f"{where}: unknown name {name!r} in a condition")
    return bool(ctx[name]) != negate


# --- the rule set's values -------------------------------------------------------------------


def context(r: Ruleset) -> dict[str, object]:
    """Every value a step's text may name, for rule set ``r``.

    Every field of the rule set by its name (``{hands}``, ``{set_min}``, ``if lay_off`` ...),
    and words made from them: ``{rules}`` ("the Denexa rules"; ``{Rules}`` to start a
    sentence), ``{title}``, ``{first_dealt}``/``{last_dealt}``, ``{wild_cards}``,
    ``{ranked_wilds}`` ("a 2, or a card of the round wild rank"), ``{set_size}``,
    ``{final_turn_source}``, ``{ante}``/``{per_hand}``; yes/no values ``twos_wild``,
    ``money``, ``sets_unlimited``, ``wild_limits``, ``final_turn_from_pile``,
    ``discard_required``, ``wild_rank_in_deadwood_is_wild``, ``ace_low_only``.

    >>> from payme.rulesets import rules
    >>> c = context(rules("family"))
    >>> c["rules"], c["set_size"], c["final_turn_from_pile"], c["money"]
    ('the family rules', '3 or more cards', True, True)
    """
    from payme.tutorial.markup import rules_words

    ctx: dict[str, object] = {f.name: getattr(r, f.name) for f in fields(r)}
    sources = tuple(r.final_turn_draw)
    ctx.update(
        rules=rules_words(r),
        Rules=rules_words(r)[:1].upper() + rules_words(r)[1:],
        title=r.title,
        first_dealt=r.dealt_in_hand(1),
        last_dealt=r.dealt_in_hand(r.hands),
        wild_cards=joined(wild_kinds(r)),
        twos_wild=r.is_wild(Card.regular(2, "S"), None),
        ranked_wilds=", or ".join(
            [
                f"a {rank_label(rank)}"
                for rank in range(1, 14)
                if r.is_wild(Card.regular(rank, "S"), None)
            ]
            + (["a card of the round wild rank"] if r.round_rank_wild else [])
        ),
        set_size=(
            f"{r.set_min} or more cards"
            if r.set_max is None
            else f"{r.set_min} to {r.set_max} cards"
        ),
        sets_unlimited=r.set_max is None,
        wild_limits=r.wild_at_most_half or r.no_adjacent_wilds_in_run,
        final_turn_from_pile="discard" in sources,
        final_turn_source=(
            "the stock only (not the discard pile)"
            if sources == ("stock",)
            else " or ".join("the stock" if s == "stock" else "the discard pile" for s in sources)
        ),
        discard_required=r.going_out == "discard_required",
        wild_rank_in_deadwood_is_wild=r.wild_points is not None,
        ace_low_only=r.ace == "low",
        money=r.money is not None,
        ante=r.money.ante if r.money else 0,
        per_hand=r.money.per_hand if r.money else 0,
        packs_most=r.packs_for(None),
        special=", ".join(f"{n} {t}" for t, n in r.special_cards),
        optional=", ".join(f"0–{n} {t}" for t, n in r.optional_cards),
    )
    return ctx


# --- rendering ----------------------------------------------------------------------------


def _kept_lines(body: str, ctx: Mapping[str, object], where: str) -> list[str]:
    """The body's lines with ``::: if`` blocks resolved (nested blocks allowed)."""
    kept: list[str] = []
    stack: list[tuple[bool, bool]] = []  # (this block's condition, the enclosing ones hold)
    for raw in body.splitlines():
        line = raw.rstrip()
        live = all(cond for cond, _ in stack)
        if line.startswith("::: if "):
            stack.append((condition(line[len("::: if ") :].strip(), ctx, where), live))
        elif line == "::: else":
            if not stack:
                raise ValueError(f"{where}: '::: else' without '::: if'")
            cond, outer = stack.pop()
            stack.append((not cond, outer))
        elif line == "::: end":
            if not stack:
                raise ValueError(f"{where}: '::: end' without '::: if'")
            stack.pop()
        elif live:
            kept.append(line)
    if stack:
        raise ValueError(f"{where}: an '::: if' has no '::: end'")
    return kept


def _fill(text: str, ctx: Mapping[str, object], where: str) -> str:
    def value(match: re.Match[str]) -> str:
        name = match[1]
        if name not in ctx:
            raise ValueError(f"{where}: unknown name {{{name}}}")
        return str(ctx[name])

    return re.sub(r"\{(\w+)\}", value, text)


def _inline(text: str) -> str:
    """Escaped text with ``**bold**``."""
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(text, quote=False))


def render(body: str, rules: Ruleset, figures: Mapping[str, Figure], where: str = "") -> str:
    """A step's text as HTML under ``rules``.

    >>> from payme.rulesets import rules
    >>> render("Hands: {hands}.\\n\\n- one\\n- **two**", rules("denexa"), {})
    '<p>Hands: 11.</p><ul><li>one</li><li><b>two</b></li></ul>'
    """
    from payme.cards import parse_hand
    from payme.tutorial.markup import cards_html

    ctx = context(rules)
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if para:
            out.append("<p>" + _inline(" ".join(para)) + "</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    for line in _kept_lines(body, ctx, where):
        text = _fill(line, ctx, where)
        stripped = text.strip()
        if not stripped:
            flush()
        elif stripped.startswith("::: check "):
            continue  # questions, not text
        elif stripped.startswith("::: cards "):
            flush()
            spec, _, caption = stripped[len("::: cards ") :].partition("|")
            cards, _, dealt = spec.partition("@")
            out.append(
                cards_html(
                    parse_hand(cards),
                    rules if dealt.strip() else None,
                    int(dealt) if dealt.strip() else None,
                    caption=caption.strip() or None,
                )
            )
        elif stripped.startswith("::: figure "):
            flush()
            name = stripped[len("::: figure ") :].strip()
            if name not in figures:
                raise ValueError(f"{where}: no figure named {name!r}")
            out.append(figures[name](rules))
        elif stripped.startswith(":::"):
            raise ValueError(f"{where}: unknown line {stripped!r}")
        elif stripped.startswith("- "):
            if para:
                flush()
            items.append(stripped[2:])
        elif items and raw_continuation(line):
            items[-1] += " " + stripped
        else:
            if items:
                flush()
            para.append(stripped)
    flush()
    return "".join(out)


def raw_continuation(line: str) -> bool:
    """An indented line continues the bullet above it."""
    return line.startswith("  ")


__getattr__ = renamed(
    "payme.tutorial.content",
    {
        "MeldCheck": "payme.tutorial.content:MeldExamples",
        "describe": "payme.tutorial.content:describe_context",
        "and_list": "payme.words:joined",
        "plural_rank": "payme.words:rank_plural",
    },
)

__all__ = [
    "MeldExamples",
    "StepContent",
    "condition",
    "context",
    "expectation",
    "load",
    "parse",
    "parse_meld_check",
    "render",
    "wild_kinds",
]


def describe_context(value: Any) -> str:  # pragma: no cover - a helper for editors at the prompt
    """The context's names and values for a rule set, a line each
    (``print(describe_context(rules("family")))``)."""
    return "\n".join(f"{k} = {v!r}" for k, v in sorted(context(value).items()))
