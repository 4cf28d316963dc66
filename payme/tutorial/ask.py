"""Questions whose answers the hand engine computes: melds, layouts, going out, lay-offs.

Each builder runs the engine on an example; when the caller passes ``shows`` (what the
example must show under the chosen rule set) and the engine's result does not show it, the
builder returns ``None`` so the step can try another example (see :func:`checks.pick`).

>>> from payme.rulesets import rules
>>> q = meld(rules("classic"), "8S 8H 8H", dealt=5)
>>> q.right_answer(), q.grade("no").ok
('yes', False)
>>> meld(rules("denexa"), "8S 8H 8H", dealt=5, shows=lambda ok: ok) is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from payme.cards import Card, format_hand, parse_hand
from payme.rulesets import Ruleset, rank_token
from payme.tutorial.checks import (
    Question,
    cards_question,
    choice_question,
    number_question,
    yes_no_question,
)

if TYPE_CHECKING:  # pragma: no cover
    from payme.layoff import LayOff

NO_DISCARD = "none"
CANNOT = "cannot"


def hand_note(rules: Ruleset, dealt: int) -> str:
    """Where the round matters: "7 cards dealt, so sevens are wild"."""
    if rules.game != "pay_me":
        return ""
    wild = rules.round_wild_rank(dealt)
    if wild is None:
        return f"{dealt} cards dealt"
    return f"{dealt} cards dealt, so every {rank_token(wild)} is wild"


def _with_note(prompt: str, rules: Ruleset, dealt: int) -> str:
    note = hand_note(rules, dealt)
    return f"{prompt} ({note})" if note else prompt


def meld(
    rules: Ruleset,
    cards: str,
    dealt: int,
    *,
    shows: Callable[[bool], bool] | None = None,
    claim: str = "",
) -> Question | None:
    """ "Is this a meld?" graded by ``check_meld``; its reason is the explanation."""
    from payme.melds import check_meld

    hand = parse_hand(cards)

    def verdict() -> bool:
        return bool(check_meld(hand, rules=rules, dealt=dealt).ok)

    result = check_meld(hand, rules=rules, dealt=dealt)
    if shows is not None and not shows(bool(result.ok)):
        return None
    return yes_no_question(
        _with_note("Is this a valid meld?", rules, dealt),
        bool(result.ok),
        str(result.reason),
        cards=hand,
        caption=format_hand(hand),
        dealt=dealt,
        claim=claim,
        holds=None if shows is None else (lambda: shows(verdict())),
    )


def _points_sentence(rules: Ruleset, cards: Sequence[Card], dealt: int | None) -> str:
    parts = [f"{c} {rules.card_points(c, dealt)}" for c in cards]
    unit = "unmelded cards" if rules.game != "pay_me" else "points"
    return f"{' + '.join(parts)} = {sum(rules.card_points(c, dealt) for c in cards)} {unit}"


def deadwood_cost(
    rules: Ruleset,
    cards: str,
    dealt: int,
    *,
    shows: Callable[[int], bool] | None = None,
    claim: str = "",
) -> Question | None:
    """ "What does this deadwood cost?" for cards that make no meld (checked by ``evaluate``)."""
    from payme.solver import evaluate

    hand = parse_hand(cards)
    ev = evaluate(hand, rules=rules, dealt=dealt)
    if ev.melds or (shows is not None and not shows(ev.deadwood_points)):
        return None
    return number_question(
        _with_note(
            "These cards are left over. How many penalty points do they cost?", rules, dealt
        ),
        ev.deadwood_points,
        f"No meld can be made from them, so every card counts: "
        f"{_points_sentence(rules, ev.deadwood, dealt)}.",
        cards=hand,
        caption=format_hand(hand),
        dealt=dealt,
        claim=claim,
        holds=None
        if shows is None
        else (lambda: shows(evaluate(hand, rules=rules, dealt=dealt).deadwood_points)),
    )


def _layout_sentence(rules: Ruleset, ev: object, dealt: int | None) -> str:
    melds = getattr(ev, "melds", ())
    deadwood = tuple(getattr(ev, "deadwood", ()))
    laid = "; ".join(format_hand(m.cards) for m in melds) or "no meld"
    rest = _points_sentence(rules, deadwood, dealt) if deadwood else "no deadwood, 0 points"
    return f"Best layout: {laid}. Left over: {rest}."


def layout_points(
    rules: Ruleset,
    cards: str,
    dealt: int,
    *,
    shows: Callable[[object], bool] | None = None,
    claim: str = "",
    prompt: str = "What is the fewest penalty points this hand can score?",
) -> Question | None:
    """The fewest deadwood points, graded by ``evaluate``; the layout is drawn after."""
    from payme.display import layout_html
    from payme.solver import evaluate

    hand = parse_hand(cards)
    ev = evaluate(hand, rules=rules, dealt=dealt)
    if shows is not None and not shows(ev):
        return None
    return number_question(
        _with_note(prompt, rules, dealt),
        ev.deadwood_points,
        _layout_sentence(rules, ev, dealt),
        cards=hand,
        caption=format_hand(hand),
        figure=str(layout_html(ev)),
        dealt=dealt,
        claim=claim,
        holds=None if shows is None else (lambda: shows(evaluate(hand, rules=rules, dealt=dealt))),
    )


def go_out_options(rules: Ruleset, hand: Sequence[Card]) -> tuple[tuple[str, str], ...]:
    """The answers offered: each distinct card as the one left over, none, or "cannot"."""
    distinct = sorted(set(hand))
    if rules.game == "pay_me":
        return (
            *((f"Go out, discarding {c}", str(c)) for c in distinct),
            ("Go out without a discard", NO_DISCARD),
            ("It cannot go out", CANNOT),
        )
    return (
        *((f"Go out, with {c} left over", str(c)) for c in distinct),
        ("Go out with every card melded", NO_DISCARD),
        ("It cannot go out", CANNOT),
    )


def go_out(
    rules: Ruleset,
    cards: str,
    dealt: int,
    *,
    shows: Callable[[tuple[str, ...]], bool] | None = None,
    claim: str = "",
) -> Question | None:
    """ "Can this hand go out, and how?" graded by ``can_go_out`` (any right way counts)."""
    from payme.display import go_out_html
    from payme.solver import can_go_out, evaluate

    hand = parse_hand(cards)

    def ways() -> tuple[str, ...]:
        out = can_go_out(hand, rules=rules, dealt=dealt)
        if not out.ok:
            return (CANNOT,)
        return tuple(NO_DISCARD if d is None else str(d) for d in out.discards)

    right = ways()
    if shows is not None and not shows(right):
        return None
    out = can_go_out(hand, rules=rules, dealt=dealt)
    if out.ok:
        named = ", ".join(
            "going out without a discard" if w == NO_DISCARD else f"discarding {w}" for w in right
        )
        if rules.game != "pay_me":
            named = ", ".join(
                "every card melded" if w == NO_DISCARD else f"{w} left over" for w in right
            )
        explanation = f"The engine finds {len(right)} way(s) to go out: {named}."
    else:
        ev = evaluate(hand, rules=rules, dealt=dealt)
        explanation = (
            "It cannot go out: no card left over (or discarded) leaves every other card in "
            "melds. " + _layout_sentence(rules, ev, dealt)
        )
    return choice_question(
        _with_note(
            f"You hold these {len(hand)} cards after drawing. What can you do? (Any way that "
            "works counts.)",
            rules,
            dealt,
        ),
        go_out_options(rules, hand),
        right,
        explanation,
        cards=hand,
        caption=format_hand(hand),
        figure=str(go_out_html(out)),
        dealt=dealt,
        claim=claim,
        holds=None if shows is None else (lambda: shows(ways())),
    )


def lay_off_points(
    rules: Ruleset,
    cards: str,
    declarer: Sequence[str],
    dealt: int,
    *,
    shows: Callable[[int, int], bool] | None = None,
    claim: str = "",
) -> Question | None:
    """Points after laying off onto the declarer's melds, graded by ``lay_off``.

    ``shows`` gets (points without lay-offs, points with them).
    """
    from payme.display import layoff_html
    from payme.layoff import lay_off
    from payme.solver import evaluate

    hand = parse_hand(cards)

    def both() -> tuple[int, int]:
        alone = evaluate(hand, rules=rules, dealt=dealt).deadwood_points
        lo = lay_off(hand, list(declarer), rules=rules, dealt=dealt)
        return alone, lo.deadwood_points

    alone, after = both()
    if shows is not None and not shows(alone, after):
        return None
    lo = lay_off(hand, list(declarer), rules=rules, dealt=dealt)
    return number_question(
        _with_note(
            "Someone went out with the melds shown. How many penalty points does your hand "
            "score after any lay-offs?",
            rules,
            dealt,
        ),
        after,
        _lay_off_sentence(rules, lo, declarer, dealt, alone),
        cards=hand,
        caption="your hand: " + format_hand(hand),
        show=declarer_html(rules, declarer, dealt),
        figure=str(layoff_html(lo)),
        dealt=dealt,
        claim=claim,
        holds=None if shows is None else (lambda: shows(*both())),
    )


def lay_off_cards(
    rules: Ruleset,
    cards: str,
    declarer: Sequence[str],
    dealt: int,
    *,
    shows: Callable[[tuple[Card, ...]], bool] | None = None,
    claim: str = "",
) -> Question | None:
    """ "Which of your cards go onto the declarer's melds?" graded by ``lay_off``."""
    from payme.display import layoff_html
    from payme.layoff import lay_off
    from payme.solver import evaluate

    hand = parse_hand(cards)

    def laid() -> tuple[Card, ...]:
        lo = lay_off(hand, list(declarer), rules=rules, dealt=dealt)
        return tuple(sorted(c for _, added in lo.lay_offs for c in added))

    right = laid()
    if shows is not None and not shows(right):
        return None
    lo = lay_off(hand, list(declarer), rules=rules, dealt=dealt)
    alone = evaluate(hand, rules=rules, dealt=dealt).deadwood_points
    return cards_question(
        _with_note(
            "Someone went out with the melds shown. Which of your cards do you lay off "
            "(choose none if none)?",
            rules,
            dealt,
        ),
        hand,
        right,
        _lay_off_sentence(rules, lo, declarer, dealt, alone),
        caption="your hand: " + format_hand(hand),
        show=declarer_html(rules, declarer, dealt),
        figure=str(layoff_html(lo)),
        dealt=dealt,
        claim=claim,
        holds=None if shows is None else (lambda: shows(laid())),
    )


def lay_off_in_turn(
    rules: Ruleset,
    before: str,
    cards: str,
    declarer: Sequence[str],
    dealt: int,
    *,
    ask_for: str = "points",
    shows: Callable[[LayOff, LayOff], bool] | None = None,
    claim: str = "",
) -> Question | None:
    """The second opponent's lay-offs after the first has laid off, by ``lay_off_in_turn``.

    ``before`` is the hand of the player left of the declarer, who lays off first;
    ``cards`` is the learner's hand.  ``ask_for`` is ``"points"`` (what the learner scores)
    or ``"cards"`` (which cards the learner lays off).  ``shows`` gets the learner's result
    in turn and the result had the learner laid off first (both :class:`LayOff`).
    """
    from payme.display import layoff_html
    from payme.layoff import lay_off, lay_off_in_turn
    from payme.solver import evaluate

    if ask_for not in ("points", "cards"):
        raise ValueError(f"ask_for must be 'points' or 'cards', not {ask_for!r}")
    hand = parse_hand(cards)

    def both() -> tuple[LayOff, LayOff]:
        _first, mine = lay_off_in_turn([before, hand], list(declarer), rules=rules, dealt=dealt)
        alone = lay_off(hand, list(declarer), rules=rules, dealt=dealt)
        return mine, alone

    mine, alone = both()
    if shows is not None and not shows(mine, alone):
        return None
    first, mine_lo = lay_off_in_turn([before, hand], list(declarer), rules=rules, dealt=dealt)
    own = evaluate(hand, rules=rules, dealt=dealt).deadwood_points
    first_did = (
        "; ".join(f"{format_hand(c)} onto {declarer[i]}" for i, c in first.lay_offs)
        if first.lay_offs
        else "nothing"
    )
    grown = ", ".join(str(m) for m in mine_lo.declarer_melds)
    explanation = (
        f"The player before you lays off first: {first_did}, leaving the declarer's melds as "
        f"{grown}. Then you: "
        + _lay_off_sentence(rules, mine_lo, [str(m) for m in mine_lo.declarer_melds], dealt, own)
    )
    if alone.lay_offs != mine_lo.lay_offs or alone.deadwood_points != mine_lo.deadwood_points:
        explanation += (
            f" (Had you laid off first you would have laid off "
            f"{format_hand(alone.laid_off) or 'nothing'} and scored {alone.deadwood_points}.)"
        )
    show = declarer_html(rules, declarer, dealt) + cards_before_html(rules, before, dealt)
    caption, figure = "your hand: " + format_hand(hand), str(layoff_html(mine_lo))
    holds = None if shows is None else (lambda: shows(*both()))
    setting = (
        "Someone went out with the melds shown. The player on the declarer's left holds "
        f"{format_hand(parse_hand(before))} and lays off first; you sit next and lay off "
        "onto the melds as that player left them. "
    )
    if ask_for == "points":
        return number_question(
            _with_note(setting + "How many penalty points does your hand score?", rules, dealt),
            mine_lo.deadwood_points,
            explanation,
            cards=hand,
            caption=caption,
            show=show,
            figure=figure,
            dealt=dealt,
            claim=claim,
            holds=holds,
        )
    return cards_question(
        _with_note(
            setting + "Which of your cards do you lay off (choose none if none)?", rules, dealt
        ),
        hand,
        mine_lo.laid_off,
        explanation,
        caption=caption,
        show=show,
        figure=figure,
        dealt=dealt,
        claim=claim,
        holds=holds,
    )


def cards_before_html(rules: Ruleset, before: str, dealt: int) -> str:
    """The hand of the player who lays off before the learner."""
    from payme.tutorial.markup import cards_html

    return cards_html(
        parse_hand(before),
        rules,
        dealt,
        caption="the player on the declarer's left (lays off first)",
    )


def declarer_html(rules: Ruleset, declarer: Sequence[str], dealt: int) -> str:
    """The declarer's melds as laid down, each wild card labelled with what it stands for."""
    from payme.display import meld_html
    from payme.melds import parse_declared_meld

    rows = "".join(
        str(meld_html(parse_declared_meld(m, rules, dealt), caption=f"declarer's meld {i + 1}"))
        for i, m in enumerate(declarer)
    )
    return f'<div class="payme-tutorial-declarer">{rows}</div>'


def _lay_off_sentence(
    rules: Ruleset, lo: object, declarer: Sequence[str], dealt: int, alone: int
) -> str:
    placements = getattr(lo, "lay_offs", ())
    deadwood = tuple(getattr(lo, "deadwood", ()))
    points = getattr(lo, "deadwood_points", 0)
    if not rules.lay_off:
        head = f"{rules.name} has no lay-offs, so your hand scores as it stands"
    elif placements:
        moves = "; ".join(f"{format_hand(cards)} onto {declarer[i]}" for i, cards in placements)
        head = f"Lay off {moves}"
    else:
        head = "No card of yours fits the declarer's melds"
    left = _points_sentence(rules, deadwood, dealt) if deadwood else "nothing, 0 points"
    return f"{head}. Without lay-offs: {alone} points. Left over: {left}; you score {points}."


def copies_needed(cards: str) -> int:
    """The most copies of one card in ``cards`` (to check an example fits a pack)."""
    counts = Counter(parse_hand(cards))
    return max(counts.values(), default=0)


__all__ = [
    "CANNOT",
    "NO_DISCARD",
    "cards_before_html",
    "copies_needed",
    "deadwood_cost",
    "declarer_html",
    "go_out",
    "go_out_options",
    "hand_note",
    "lay_off_cards",
    "lay_off_in_turn",
    "lay_off_points",
    "layout_points",
    "meld",
]
