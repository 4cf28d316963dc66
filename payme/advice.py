"""Advice with its reason: which move to make, and why, in a player's words.

Every page that advises (the hand builder's best discard, the puzzles' solutions, Play's
hints, the tutorial) takes its words from here, so each piece of advice says the move *and*
the reason: which rule, which meld, which cards.  The move itself comes from the engine
(:func:`payme.solver.best_discard`, :func:`payme.solver.can_go_out`, :func:`payme.layoff.lay_off`);
this module only explains it.

>>> a = discard_advice("7H 8H KD 4S 4D 4C", rules="denexa", dealt=5)
>>> print(plain(a.text()))
Discard K♦: K♦ is in no meld and would cost 10 points; after it goes your deadwood is 7♥ 8♥ (15 points), and 3 kinds of card drawn next let you go out (6♥, 9♥ or a wild card). Discarding 8♥ would leave as many points, but keeps fewer ways to go out.
>>> "RUMMY" in discard_advice("NOGO RUMMY 7H 8H 9H", rules="three_pack").text()
True
>>> discard_advice("NOGO RUMMY 7H 8H 9H", rules="three_pack").card
Card('7H')
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from payme.cards import Card, CardsLike, parse_hand
from payme.deprecation import renamed
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules
from payme.words import amount, counts_cards, joined, short_label, short_labels


@dataclass(frozen=True)
class Advice:
    """A move in words (``"Discard K♦"``) and one or two sentences saying why."""

    move: str
    reason: str
    card: Card | None = None
    """The card the move plays, when it plays one."""

    def text(self) -> str:
        """``"Discard K♦: K♦ is in no meld …"``."""
        return f"{self.move}: {self.reason}" if self.reason else self.move

    def __str__(self) -> str:
        return self.text()


def plain(text: str) -> str:
    """``text`` without the text-style marks after suit symbols (for doctests and logs)."""
    return text.replace("\ufe0e", "")


def ranking_note(rules: RulesLike) -> str:
    """What advice under ``rules`` ranks by, when it is not simply penalty points.

    >>> ranking_note("denexa")
    ''
    >>> print(ranking_note("three_pack"))
    Rummy 3-Pack has no points: a discard is ranked by the unmelded cards it leaves. RUMMY is never advised as a discard (holding it when the game ends makes you a winner); NOMELD and NOGO may never be discarded.
    """  # noqa: E501
    r = get_rules(rules)
    parts = []
    if counts_cards(r):
        parts.append(
            f"{r.title} has no points: a discard is ranked by the unmelded cards it leaves."
        )
    if r.holder_wins:
        parts.append(
            f"{r.holder_wins} is never advised as a discard (holding it when the game ends "
            "makes you a winner)"
            + (
                f"; {joined(r.never_discarded)} may never be discarded."
                if r.never_discarded
                else "."
            )
        )
    elif r.never_discarded:
        parts.append(f"{joined(r.never_discarded)} may never be discarded.")
    return " ".join(parts)


def _outs(r: Ruleset, kept: Sequence[Card], dealt: int | None) -> list[str]:
    """The kinds of card that, drawn next, let ``kept`` go out (wild cards named once)."""
    from payme.odds import go_out_chance

    try:
        chance = go_out_chance(kept, r, len(kept) if dealt is None else dealt)
    except ValueError:
        return []
    named, wild = [], False
    for card, _copies in chance.winning:
        if r.is_wild(card, dealt) and (card.rank is None or not _natural_helps(r, kept, card)):
            wild = True
            continue
        named.append(short_label(card))
    if wild:
        named.append("a wild card")
    return named


def _natural_helps(r: Ruleset, kept: Sequence[Card], card: Card) -> bool:
    # A wild card of a rank (a 2, the round's rank) is named by itself only when the hand
    # needs that very card; otherwise it is one more "wild card".
    return any(c.rank == card.rank for c in kept)


def _discards(r: Ruleset, cards: tuple[Card, ...], dealt: int | None) -> list[tuple[int, Card]]:
    """``(deadwood points left, card)`` for every card ``best_discard`` would consider."""
    from payme.solver import evaluate

    barred = set(r.never_discarded)
    if r.holder_wins and any(c.token not in barred and c.token != r.holder_wins for c in cards):
        barred.add(r.holder_wins)
    found = []
    for c in sorted(set(cards)):
        if c.token in barred:
            continue
        rest = list(cards)
        rest.remove(c)
        found.append((evaluate(tuple(rest), r, dealt).deadwood_points, c))
    return found


def discard_advice(
    hand: CardsLike,
    rules: RulesLike = "denexa",
    dealt: int | None = None,
    *,
    card: Card | str | None = None,
) -> Advice:
    """The best discard of ``hand`` (or the discard of ``card``) and why.

    The fewest points left decide (:func:`payme.solver.best_discard`, which never throws
    away a card whose holder wins, RUMMY, while another may go, nor one the rules forbid
    discarding).  Among discards leaving equal points, the one whose kept cards have the
    most kinds of next card to go out with wins, then a card that is not wild (a wild card
    thrown away helps the next player).  The reason says whether the card is in a meld,
    what it would cost, what is left, and how the rest may go out.
    """
    from payme.solver import best_discard, evaluate

    r = get_rules(rules)
    cards = parse_hand(hand)
    if card is None:
        best = best_discard(cards, rules=r, dealt=dealt)
        chosen = best.card
        tied = [c for pts, c in _discards(r, cards, dealt) if pts == best.deadwood_points]
        if len(tied) > 1:
            chosen = max(
                tied,
                key=lambda c: (
                    len(_outs(r, _without(cards, c), dealt)),
                    not r.is_wild(c, dealt),
                    r.card_points(c, dealt),
                    c == best.card,
                ),
            )
    else:
        chosen = card if isinstance(card, Card) else parse_hand(card)[0]
        if chosen not in cards:
            raise ValueError(f"{chosen} is not in the hand")
        tied = []
    kept = _without(cards, chosen)
    after = evaluate(kept, r, dealt)
    whole = evaluate(cards, r, dealt)
    in_meld = next((m for m in whole.melds if chosen in m.cards), None)
    name = short_label(chosen)
    cost = r.card_points(chosen, dealt)
    loose = [r.card_points(c, dealt) for c in whole.deadwood]
    if (
        in_meld is None
        and loose.count(max(loose, default=0)) == 1
        and cost == max(loose)
        and len(loose) > 1
        and not counts_cards(r)
    ):
        where = (
            f"{name} is in no meld and would cost {amount(cost, r)}, the most of your "
            "cards in no meld"
        )
    elif in_meld is None:
        where = f"{name} is in no meld and would cost {amount(cost, r)}"
    else:
        where = (
            f"{name} breaks your meld {short_labels(in_meld.cards)}, yet every other discard "
            "leaves as much or more"
        )
    if after.deadwood:
        left = (
            f"your deadwood is {short_labels(after.deadwood)} ({amount(after.deadwood_points, r)})"
        )
        outs = _outs(r, kept, dealt)
    else:
        left = "every card you keep is in a meld, so you can go out now"
        outs = []
    ways = ""
    if len(outs) > 6:
        ways = f", and {len(outs)} kinds of card drawn next let you go out"
    elif outs:
        ways = (
            f", and {len(outs)} kind{'s' if len(outs) != 1 else ''} of card drawn next "
            f"let{'s' if len(outs) == 1 else ''} you go out ({joined(outs, 'or')})"
        )
    reason = f"{where}; after it goes {left}{ways}."
    others = [c for c in tied if c != chosen]
    if others:
        same = "as many unmelded cards" if counts_cards(r) else "as many points"
        fewer = max(len(_outs(r, _without(cards, c), dealt)) for c in others) < len(outs)
        reason += f" Discarding {joined(map(short_label, others), 'or')} would leave {same}" + (
            ", but keeps fewer ways to go out." if fewer else ": it does as well."
        )
    if r.is_wild(chosen, dealt):
        reason += (
            " A wild card thrown away may help the next player: keep wild cards when "
            "another discard costs the same."
        )
    if (
        r.holder_wins
        and chosen.token != r.holder_wins
        and r.holder_wins in {c.token for c in cards}
    ):
        reason += (
            f" Keep {r.holder_wins}: holding it when the game ends makes you a winner, "
            "even though it costs nothing now."
        )
    return Advice(f"Discard {name}", reason, chosen)


def _without(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    rest = list(cards)
    rest.remove(card)
    return tuple(rest)


def go_out_advice(hand: CardsLike, rules: RulesLike = "denexa", dealt: int | None = None) -> Advice:
    """Whether ``hand`` (just after drawing) can go out, how, and why.

    >>> print(plain(go_out_advice("5H 6H 7H 8H KS", "denexa", 4).text()))
    Go out (Pay me!), discarding K♠: 5♥ 6♥ 7♥ 8♥ make a run, so every card but K♠ is in a meld.
    """
    from payme.solver import can_go_out, evaluate

    r = get_rules(rules)
    cards = parse_hand(hand)
    out = can_go_out(cards, rules=r, dealt=dealt)
    shout = f" ({r.go_out_call})" if r.go_out_call else ""
    if not out.ok:
        ev = evaluate(cards, r, dealt)
        return Advice(
            "You cannot go out yet",
            f"{short_labels(ev.deadwood)} fit in no meld ({amount(ev.deadwood_points, r)}); to go "
            "out every card must be in a meld but at most one.",
        )
    discard = out.discards[0]
    kept = list(cards)
    if discard is not None:
        kept.remove(discard)
    ev = evaluate(tuple(kept), r, dealt)
    melds = "; ".join(f"{short_labels(m.cards)} make a {_kind(m)}" for m in ev.melds)
    if discard is None:
        return Advice(f"Go out{shout} with no discard", f"{melds}, so every card is in a meld.")
    return Advice(
        f"Go out{shout}, discarding {short_label(discard)}",
        f"{melds}, so every card but {short_label(discard)} is in a meld.",
        discard,
    )


def lay_off_advice(
    hand: CardsLike,
    declarer_melds: Sequence[Any],
    rules: RulesLike = "denexa",
    dealt: int | None = None,
) -> Advice:
    """Which cards to lay off onto the declarer's melds, and what that saves.

    >>> print(plain(lay_off_advice("8H 9H KD", ["5H 6H 7H"], "denexa", 4).text()))
    Lay off 8♥ 9♥ onto 5♥ 6♥ 7♥: each extends the run in turn, so your score falls from 30 points to 10 points.
    """  # noqa: E501
    from payme.layoff import lay_off
    from payme.solver import evaluate

    r = get_rules(rules)
    cards = parse_hand(hand)
    alone = evaluate(cards, r, dealt).deadwood_points
    if not r.lay_off:
        return Advice(
            "Nothing to lay off",
            f"{r.title} has no lay-offs: your hand scores its deadwood, {amount(alone, r)}.",
        )
    lo = lay_off(cards, list(declarer_melds), rules=r, dealt=dealt)
    if not lo.lay_offs:
        return Advice(
            "Lay off nothing",
            f"none of your cards fits the declarer's melds; you score {amount(alone, r)}.",
        )
    parts = [
        f"{short_labels(added)} onto {short_labels(lo.declarer_melds[i].cards)}"
        for i, added in lo.lay_offs
    ]
    return Advice(
        "Lay off " + "; ".join(parts),
        f"each extends the {_kind(lo.declarer_melds[lo.lay_offs[0][0]])} in turn, so your score "
        f"falls from {amount(alone, r)} to "
        f"{amount(lo.deadwood_points, r)}.",
    )


def _kind(meld: Any) -> str:
    """A meld's kind in a player's words (a RUMMY card alone is a meld of its own)."""
    return {"set": "set", "run": "run"}.get(str(meld.kind), "meld")


__all__ = [
    "Advice",
    "amount",
    "discard_advice",
    "go_out_advice",
    "lay_off_advice",
    "plain",
    "ranking_note",
]

__getattr__ = renamed(
    "payme.advice",
    {
        "label": "payme.words:short_label",
        "labels": "payme.words:short_labels",
        "explain_move": "payme.game.explain:explain_move",
    },
)
