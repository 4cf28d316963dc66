"""The pack a rule set plays with, and checking a hand against it.

>>> from payme.rulesets import rules
>>> from payme.cards import parse_card, parse_hand
>>> pack = Pack.of(rules("three_pack"), players=4, optional={"NOGO": 1})
>>> len(pack), pack.count(parse_card("RUMMY")), pack.count(parse_card("NOGO"))
(162, 2, 1)
>>> check_hand(parse_hand("JK 7H"), rules("three_pack"))
Traceback (most recent call last):
...
payme.cards.CardError: JK is not in the pack for Rummy 3-Pack: it has no jokers
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from payme.cards import CARDS, Card, CardError, parse_hand
from payme.rulesets import Ruleset

MAX_HAND = 30
"""The most cards the hand-evaluation functions take (a full Pay Me hand is 14)."""


@dataclass(frozen=True)
class Pack:
    """The cards of one game's pack: copies of each kind of card, by ``Card.index``."""

    rules: Ruleset
    counts: tuple[int, ...]

    @staticmethod
    def of(
        rules: Ruleset, players: int | None = None, optional: dict[str, int] | None = None
    ) -> Pack:
        """The pack for ``players`` (``None``: the largest) and chosen optional cards."""
        return Pack(rules, rules.pack_counts(players, optional))

    def __len__(self) -> int:
        return sum(self.counts)

    def count(self, card: Card) -> int:
        return self.counts[card.index]

    def cards(self) -> list[Card]:
        """Every card of the pack, in canonical order (copies repeated)."""
        ordered = _ORDERED.get(self.counts)
        if ordered is None:
            if len(_ORDERED) >= 64:
                _ORDERED.clear()
            ordered = _ORDERED[self.counts] = tuple(
                [CARDS[i] for i, n in enumerate(self.counts) for _ in range(n)]
            )
        return list(ordered)

    def shuffled(self, rng: random.Random) -> list[Card]:
        """The cards in an order ``rng.shuffle`` gives them (see :func:`shuffle`)."""
        cards = self.cards()
        shuffle(cards, rng)
        return cards


_ORDERED: dict[tuple[int, ...], tuple[Card, ...]] = {}
"""Each pack's cards in canonical order, by its counts (a game deals a new pack each hand)."""


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same order from the same random state, drawn the same
    way, but twice as fast for a plain ``random.Random`` (its shuffle calls a Python method
    for each card; a game shuffles a pack at every deal).  A test compares the two."""
    if type(rng) is not random.Random or getattr(random.Random, "_randbelow", None) is not _BELOW:
        rng.shuffle(cards)
        return
    # random.Random.shuffle with its _randbelow_with_getrandbits written in.
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


_BELOW = getattr(random.Random, "_randbelow_with_getrandbits", 0)
"""The way a plain ``random.Random`` draws below a bound, which :func:`shuffle` writes in
(its private name: when it is gone, :func:`shuffle` leaves the work to ``rng.shuffle``)."""


def _missing_reason(rules: Ruleset, card: Card) -> str:
    if card.is_joker:
        return "it has no jokers"
    if card.special is not None:
        return "that special card belongs to another game"
    return "it does not hold that card"


def check_hand(
    cards: Iterable[Card],
    rules: Ruleset,
    players: int | None = None,
    optional: dict[str, int] | None = None,
    *,
    max_cards: int = MAX_HAND,
) -> tuple[Card, ...]:
    """``cards`` if the pack can supply them all; a :class:`~payme.cards.CardError` naming
    the problem if not.

    The pack is the one for ``players``; ``None`` means the rule set's largest pack (with every
    optional card), which is what hand evaluation uses when it does not know the table.
    """
    hand = tuple(cards)
    if len(hand) > max_cards:
        raise CardError(
            f"a hand of {len(hand)} cards is too large: at most {max_cards} are allowed"
        )
    counts = rules.pack_counts(players, optional)
    for card, n in sorted(Counter(hand).items()):
        held = counts[card.index]
        if held == 0:
            raise CardError(
                f"{card} is not in the pack for {rules.title}: {_missing_reason(rules, card)}",
                token=str(card),
            )
        if n > held:
            size = "largest pack" if players is None else f"pack for {players} players"
            # In words a player uses: the rule set's title, not its identifier.
            raise CardError(
                f"{n} copies of {card}, but the {size} of {rules.title} holds only {held}",
                token=str(card),
            )
    return hand


__all__ = ["MAX_HAND", "Pack", "check_hand", "parse_hand", "shuffle"]
