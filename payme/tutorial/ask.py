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
from payme.deprecation import renamed
from payme.rulesets import Ruleset, rank_token
from payme.tutorial.checks import (
    Example,
    Question,
    cards_question,
    choice_question,
    number_question,
    yes_no_question,
)
from payme.tutorial.markup import rules_words
from payme.words import counts_cards

if TYPE_CHECKING:  # pragma: no cover
    from payme.layoff import LayOffResult

NO_DISCARD = "none"
CANNOT = "cannot"


def hand_note(rules: Ruleset, dealt: int) -> str:
    """Where the round matters: "7 cards dealt, so sevens are wild"."""
    if not rules.dealt_matters:
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
    why: str = "",
) -> Question | None:
    """ "Is this a meld?" graded by ``check_meld``; its reason is the explanation.

    ``why`` puts the rule the example is about first, when the engine's reason names
    another one (K-A-2 fails because runs do not wrap around, whatever else is wrong).
    """
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
        f"{why} {result.reason}" if why else str(result.reason),
        cards=hand,
        caption=format_hand(hand),
        dealt=dealt,
        claim=claim,
        holds=None if shows is None else (lambda: shows(verdict())),
    )


def _points_sentence(rules: Ruleset, cards: Sequence[Card], dealt: int | None) -> str:
    """``"9C 15 + 4S 5 = 20 points"``; where cards are counted, ``"2 unmelded cards (7H NOGO)"``."""
    if counts_cards(rules):
        n = len(cards)
        return f"{n} unmelded card{'s' if n != 1 else ''} ({format_hand(cards)})"
    parts = [f"{c} {rules.card_points(c, dealt)}" for c in cards]
    return f"{' + '.join(parts)} = {sum(rules.card_points(c, dealt) for c in cards)} points"


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


def go_out_choices(rules: Ruleset, hand: Sequence[Card]) -> tuple[tuple[str, str], ...]:
    """The answers offered: each distinct card as the one left over, none, or "cannot"."""
    distinct = sorted(set(hand))
    if not rules.leaves_one_over:
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


def _left_over(rules: Ruleset, way: str) -> str:
    """One way to go out where one card may be left over (Rummy 3-Pack), in words: what
    happens to that card (discarded, or kept when it may never be discarded) and, for a card
    whose holder wins, what discarding it gives up."""
    if way == NO_DISCARD:
        return "every card melded"
    card = parse_hand(way)[0]
    if card.special is not None and card.special in rules.never_discarded:
        return f"{way} left over (it is never discarded: it stays in your hand)"
    if card.special is not None and card.special == rules.holder_wins:
        return (
            f"{way} left over and discarded (you still win by going out, but give up the win "
            f"that holding {way} brings)"
        )
    return f"{way} left over and discarded"


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
        if rules.leaves_one_over:
            named = ", ".join(_left_over(rules, w) for w in right)
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
        go_out_choices(rules, hand),
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
    if not rules.lay_off:
        # Nobody lays off here: ask what the hand scores instead of which card goes where.
        return lay_off_points(rules, cards, declarer, dealt, claim=claim)
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
        why_not=lambda given: lay_off_mistakes(rules, given, right, declarer, dealt),
    )


def lay_off_mistakes(
    rules: Ruleset, given: str, right: Sequence[Card], declarer: Sequence[str], dealt: int
) -> str:
    """Why a chosen set of lay-offs is wrong: each card that cannot go, and why; each card
    left out that could go."""
    chosen, best = Counter(parse_hand(given)), Counter(right)
    parts = [why_cannot_lay_off(rules, c, declarer, dealt) for c in (chosen - best).elements()]
    missed = list((best - chosen).elements())
    if missed:
        parts.append(f"{format_hand(missed)} could go onto the declarer's melds too.")
    return " ".join(parts)


def why_cannot_lay_off(rules: Ruleset, card: Card, declarer: Sequence[str], dealt: int) -> str:
    """One sentence: why ``card`` cannot be laid off (or why laying it off does not pay).

    >>> from payme.rulesets import rules
    >>> why_cannot_lay_off(rules("denexa"), parse_hand("6H")[0], ["5H JK 7H"], 10)
    'The joker in 5H JK(6H) 7H already stands for 6H, and a wild card keeps its place.'
    """
    from payme.layoff import grow_meld
    from payme.melds import parse_declared_meld

    melds = [parse_declared_meld(m, rules, dealt) for m in declarer]
    for meld in melds:
        if grow_meld(meld, (card,), rules, dealt) is not None:
            return (
                f"{card} fits {meld}, but laying it off here leaves you more points than "
                "keeping it (or the cards before it decide where it goes)."
            )
    for meld in melds:
        for c, stands in zip(meld.cards, meld.stands_for, strict=True):
            if stands == card and c != card:
                what = "joker" if c.token == "JK" else f"wild {c}"
                return (
                    f"The {what} in {meld} already stands for {card}, and a wild card keeps "
                    "its place."
                )
    for meld in melds:
        low, high, rank = meld.low, meld.high, card.rank
        same_suit = meld.kind == "run" and card.suit == meld.suit
        if same_suit and rank is not None and low is not None and high is not None:
            if low <= rank <= high:
                return f"{meld} already holds the {card} place."
            return f"{card} is not next to either end of {meld}."
        first = meld.stands_for[0]
        if meld.kind == "set" and first is not None and rank == first.rank:
            return f"{meld} cannot take {card}: {grown_limits(rules)}."
    return f"{card} matches no meld of the declarer by rank or by suit."


def meld_limits(rules: Ruleset) -> list[str]:
    """What every meld, grown by lay-offs too, must obey under ``rules``."""
    limits = []
    if rules.set_max is not None:
        limits.append(f"a set may hold at most {rules.set_max} cards")
    if rules.set_distinct_suits:
        limits.append("no suit twice in a set")
    if rules.wild_at_most_half:
        limits.append("at most half of a meld's cards wild")
    if rules.no_adjacent_wilds_in_run:
        limits.append("no two wild cards side by side in a run")
    return limits


def grown_limits(rules: Ruleset) -> str:
    """What stops a set from growing under ``rules`` (size, suits, wild cards)."""
    return ", and ".join(meld_limits(rules)[:3]) or "the grown meld would not be valid"


def lay_off_in_turn_question(
    rules: Ruleset,
    before: str,
    cards: str,
    declarer: Sequence[str],
    dealt: int,
    *,
    ask_for: str = "points",
    shows: Callable[[LayOffResult, LayOffResult], bool] | None = None,
    claim: str = "",
) -> Question | None:
    """The second opponent's lay-offs after the first has laid off, by ``lay_off_in_turn``.

    ``before`` is the hand of the player left of the declarer, who lays off first;
    ``cards`` is the learner's hand.  ``ask_for`` is ``"points"`` (what the learner scores)
    or ``"cards"`` (which cards the learner lays off).  ``shows`` gets the learner's result
    in turn and the result had the learner laid off first (both :class:`LayOffResult`).
    """
    from payme.display import layoff_html
    from payme.layoff import lay_off, lay_off_in_turn
    from payme.solver import evaluate

    if ask_for not in ("points", "cards"):
        raise ValueError(f"ask_for must be 'points' or 'cards', not {ask_for!r}")
    hand = parse_hand(cards)

    def both() -> tuple[LayOffResult, LayOffResult]:
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
        f"{grown}. Your turn next. "
        + _lay_off_sentence(rules, mine_lo, [str(m) for m in mine_lo.declarer_melds], dealt, own)
    )
    if alone.lay_offs != mine_lo.lay_offs or alone.deadwood_points != mine_lo.deadwood_points:
        explanation += (
            f" (Had you laid off first you would have laid off "
            f"{format_hand(alone.laid_off) or 'nothing'} and scored {alone.deadwood_points}.)"
        )
    example = Example(
        caption="your hand: " + format_hand(hand),
        figure=str(layoff_html(mine_lo)),
        show=declarer_html(rules, declarer, dealt) + cards_before_html(rules, before, dealt),
        dealt=dealt,
        claim=claim,
        holds=None if shows is None else (lambda: shows(*both())),
    )
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
            **example,
        )
    return cards_question(
        _with_note(
            setting + "Which of your cards do you lay off (choose none if none)?", rules, dealt
        ),
        hand,
        mine_lo.laid_off,
        explanation,
        **example,
        # Your lay-offs go onto the melds as the player before you left them.
        why_not=lambda given: lay_off_mistakes(
            rules, given, mine_lo.laid_off, [str(m) for m in mine_lo.declarer_melds], dealt
        ),
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
        head = f"There are no lay-offs under {rules_words(rules)}, so your hand scores as it stands"
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


__getattr__ = renamed("payme.tutorial.ask", {"go_out_options": "payme.tutorial.ask:go_out_choices"})

__all__ = [
    "CANNOT",
    "NO_DISCARD",
    "cards_before_html",
    "copies_needed",
    "deadwood_cost",
    "declarer_html",
    "go_out",
    "go_out_choices",
    "hand_note",
    "lay_off_cards",
    "lay_off_in_turn_question",
    "lay_off_points",
    "layout_points",
    "meld",
]
