"""The exact chance of going out on the next draw.

Before drawing, a player holds ``dealt`` cards.  The next card comes from the stock; seen
from the player, it is equally likely to be any card they have not seen: the rule set's
pack minus their hand minus any cards known to be elsewhere (the discard pile, say).  The
chance of going out is the share of those unseen cards after which the hand of ``dealt + 1``
cards can go out.  Identical cards give identical hands, so each distinct kind of card is
evaluated once and weighted by its copies: at most 59 evaluations, whatever the pack size.

>>> chance = go_out_chance("7H 8H 9H 5S 5D 5C", rules="denexa", dealt=6, players=2)
>>> chance.unseen, chance.outs            # 1 pack: 54 cards, 6 in the hand
(48, 48)
>>> chance.probability                   # any card drawn is discarded: the rest is melded
Fraction(1, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from payme.cards import CARDS, Card, CardsLike, html_by, parse_hand
from payme.pack import check_hand
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules

__all__ = ["GoOutChance", "go_out_chance", "unseen_counts"]


@dataclass(frozen=True)
class GoOutChance:
    """How likely the next draw is to let ``hand`` go out.

    ``winning`` lists each card that would, with its unseen copies, in canonical order.
    """

    hand: tuple[Card, ...]
    rules: Ruleset
    dealt: int
    probability: Fraction
    winning: tuple[tuple[Card, int], ...]
    unseen: int
    """How many cards might be drawn (the denominator)."""
    losing: tuple[tuple[Card, int], ...] = ()
    """The other unseen cards, with their copies: drawing one of these does not let it out."""

    @property
    def outs(self) -> int:
        """Unseen cards that let the hand go out (the numerator before reducing)."""
        return sum(n for _, n in self.winning)

    @property
    def percent(self) -> float:
        return float(self.probability) * 100

    def __str__(self) -> str:
        if self.unseen == 0:
            return "no unseen cards left to draw"
        return (
            f"{self.outs} of {self.unseen} unseen cards let the hand go out "
            f"({self.probability}, {self.percent:.1f}%)"
        )

    _repr_html_ = html_by("chance_html")


def unseen_counts(
    hand: Iterable[Card],
    rules: Ruleset,
    *,
    players: int | None = None,
    known: Iterable[Card] = (),
    optional: dict[str, int] | None = None,
) -> Counter[Card]:
    """Copies of each card not in ``hand`` nor ``known``: what the next draw may be.

    >>> from payme.rulesets import rules
    >>> left = unseen_counts(parse_hand("7H JK"), rules("classic"), players=2)
    >>> left[CARDS[0]], left[parse_hand("7H")[0]], left[parse_hand("JK")[0]], sum(left.values())
    (1, 0, 1, 52)
    """
    mine = tuple(hand)
    seen = (*mine, *known)
    # Names the card when the pack cannot hold the hand and the known cards together.
    check_hand(seen, rules, players, optional, max_cards=max(len(seen), 1))
    counts = rules.pack_counts(players, optional)
    left: Counter[Card] = Counter({CARDS[i]: n for i, n in enumerate(counts) if n})
    left.subtract(Counter(seen))
    return +left  # drop kinds with none left


def go_out_chance(
    hand: CardsLike,
    rules: RulesLike = "denexa",
    dealt: int | None = None,
    unseen: CardsLike | None = None,
    *,
    players: int | None = None,
    known: CardsLike = (),
    optional: dict[str, int] | None = None,
) -> GoOutChance:
    """The exact probability that the next card drawn lets ``hand`` go out.

    ``hand`` holds ``dealt`` cards (before drawing).  ``unseen`` is the cards the draw may
    be (every copy listed); by default it is the pack for ``players`` (``None``: the rule
    set's largest pack) minus ``hand`` minus ``known``.

    >>> go_out_chance("7H 8H", rules="denexa", dealt=3)
    Traceback (most recent call last):
    ...
    ValueError: a hand before the draw holds the 3 cards dealt, not 2
    """
    from payme.solver import can_go_out  # the engine; imported here to keep import light

    ruleset = get_rules(rules)
    cards = parse_hand(hand)
    if dealt is None:
        dealt = len(cards)
    ruleset.check_dealt(dealt)
    if len(cards) != dealt:
        raise ValueError(f"a hand before the draw holds the {dealt} cards dealt, not {len(cards)}")
    if unseen is None:
        pool = unseen_counts(
            cards, ruleset, players=players, known=parse_hand(known), optional=optional
        )
    else:
        if known:
            raise ValueError("give either unseen or known, not both: unseen already says it")
        pool = Counter(parse_hand(unseen))
        check_hand(
            (*cards, *pool.elements()),
            ruleset,
            players,
            optional,
            max_cards=len(cards) + sum(pool.values()),
        )
    total = sum(pool.values())
    winning: list[tuple[Card, int]] = []
    losing: list[tuple[Card, int]] = []
    for card in sorted(pool):
        ok = can_go_out((*cards, card), rules=ruleset, dealt=dealt).ok
        (winning if ok else losing).append((card, pool[card]))
    outs = sum(n for _, n in winning)
    probability = Fraction(outs, total) if total else Fraction(0)
    return GoOutChance(cards, ruleset, dealt, probability, tuple(winning), total, tuple(losing))
