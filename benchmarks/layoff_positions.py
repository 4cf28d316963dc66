"""Hard lay-off positions built at random, for the lay-off benchmark and its tests.

A position is an opponent's hand, the declarer's melds on the table, the rule set and the
cards dealt.  The search for the joint optimum (``payme.layoff``) is hardest where many
sets of cards can be laid off together: many wild cards in the hand, many open melds, and
cards that extend the runs or join the sets.  :func:`hard_position` builds such positions
from one pack (every card at most as often as the pack holds it), and :func:`harder` makes
one small change to a position (a card swapped, a meld added or dropped) for a search that
keeps whatever is slowest.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from payme.cards import Card
from payme.melds import Meld, parse_declared_meld
from payme.pack import Pack
from payme.rulesets import Ruleset, RulesLike, rules


@dataclass(frozen=True)
class Position:
    """An opponent's hand against the declarer's melds."""

    rules: Ruleset
    dealt: int
    hand: tuple[Card, ...]
    melds: tuple[Meld, ...]

    def __str__(self) -> str:
        melds = ", ".join(f"`{' '.join(map(str, m.cards))}`" for m in self.melds)
        hand = " ".join(map(str, self.hand))
        return f"{self.rules.name}, dealt {self.dealt}, hand `{hand}`, melds {melds}"


def _left(r: Ruleset, used: Counter[Card]) -> Counter[Card]:
    pack = Counter(Pack.of(r).cards())
    pack.subtract(used)
    return +pack


def _random_meld(rng: random.Random, r: Ruleset, dealt: int, left: Counter[Card]) -> Meld | None:
    wilds = [c for c in left if r.is_wild(c, dealt)]
    suit = rng.choice("SHDC")
    if rng.random() < 0.55:
        low = rng.randint(1, 11)
        cards = [Card.regular(rank, suit) for rank in range(low, min(14, low + rng.randint(3, 5)))]
    else:
        rank = rng.randint(1, 13)
        cards = [Card.regular(rank, s) for s in rng.sample("SHDC", rng.randint(3, 4))]
    if wilds and rng.random() < 0.5:
        cards[rng.randrange(len(cards))] = rng.choice(wilds)
    need = Counter(cards)
    if any(left[c] < n for c, n in need.items()):
        return None
    try:
        return parse_declared_meld(cards, r, dealt)
    except ValueError:
        return None


def _near(melds: tuple[Meld, ...]) -> list[Card]:
    """Cards that extend a run or join a set of ``melds``."""
    near: list[Card] = []
    for m in melds:
        if m.kind == "run" and m.suit and m.low and m.high:
            near += [
                Card.regular(p, m.suit)
                for p in (m.low - 2, m.low - 1, m.high + 1, m.high + 2)
                if 1 <= p <= 13
            ]
        elif m.rank:
            near += [Card.regular(m.rank, s) for s in "SHDC"]
    return near


def _draw_hand(
    rng: random.Random, r: Ruleset, dealt: int, melds: tuple[Meld, ...], size: int
) -> tuple[Card, ...]:
    left = _left(r, Counter(c for m in melds for c in m.cards))
    near = [c for c in _near(melds) if left[c]]
    hand: list[Card] = []
    while len(hand) < size and +left:
        wilds = [c for c in left if left[c] and r.is_wild(c, dealt)]
        roll = rng.random()
        pool = wilds if roll < 0.45 and wilds else near if roll < 0.85 and near else list(+left)
        card = rng.choice(pool)
        if left[card] > 0:
            left[card] -= 1
            hand.append(card)
    return tuple(hand)


def hard_position(
    rng: random.Random,
    name: RulesLike = "denexa",
    melds: int | None = None,
    cards: int | None = None,
) -> Position:
    """A random position with many wild cards and open melds (``melds`` declarer's melds
    and ``cards`` in the hand, random up to the rule set's largest when not given)."""
    r = rules(name)
    dealt = rng.randint(r.min_dealt, r.max_dealt)
    want = melds if melds is not None else rng.randint(4, 20)
    found: list[Meld] = []
    used: Counter[Card] = Counter()
    for _ in range(want * 20):
        if len(found) >= want:
            break
        m = _random_meld(rng, r, dealt, _left(r, used))
        if m is not None:
            found.append(m)
            used.update(m.cards)
    size = cards if cards is not None else rng.randint(8, r.max_dealt + 1)
    hand = _draw_hand(rng, r, dealt, tuple(found), size)
    return Position(r, dealt, hand, tuple(found))


def harder(rng: random.Random, p: Position) -> Position:
    """``p`` with one small change: a card of the hand swapped for another the pack still
    holds (often a wild card or one near a meld), or a declarer's meld added or dropped."""
    roll = rng.random()
    melds = list(p.melds)
    if roll < 0.15 and len(melds) > 1:
        melds.pop(rng.randrange(len(melds)))
        return Position(p.rules, p.dealt, p.hand, tuple(melds))
    if roll < 0.3 and len(melds) < 20:
        used = Counter(c for m in melds for c in m.cards) + Counter(p.hand)
        m = _random_meld(rng, p.rules, p.dealt, _left(p.rules, used))
        if m is not None:
            return Position(p.rules, p.dealt, p.hand, (*melds, m))
        return p
    hand = list(p.hand)
    hand.pop(rng.randrange(len(hand)))
    used = Counter(c for m in melds for c in m.cards) + Counter(hand)
    left = _left(p.rules, used)
    wilds = [c for c in left if p.rules.is_wild(c, p.dealt)]
    near = [c for c in _near(p.melds) if left[c]]
    pool = wilds if rng.random() < 0.5 and wilds else near or list(left)
    hand.append(rng.choice(pool))
    return Position(p.rules, p.dealt, tuple(hand), p.melds)
