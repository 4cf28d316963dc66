"""A slow, obviously correct reference for hand evaluation, going out and lay-offs.

Written straight from RULES.md and independent of ``payme.melds`` and ``payme.solver``: it
shares only the card notation and the rule set's data (``wild_scope``, ``card_points``).

* :func:`meld_ok` tries every role of every card (a wild card of a rank may stand for itself
  or for another card) and every place of a run, and asks the rule book's questions.
* :func:`best_points` tries every split of the hand into blocks; each block is a meld or
  deadwood.
* :func:`go_out_discards` and :func:`lay_off_points` are the same brute force applied to
  RULES.md's going-out and lay-off rules.

Only for small hands (up to about 8 cards): the work grows exponentially.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise, permutations, product

from payme.cards import Card
from payme.rulesets import Ruleset

# A role: ("n", rank, suit) a natural card, or ("w", scope) a wild card standing in.
Role = tuple[object, ...]


def _roles(card: Card, rules: Ruleset, dealt: int | None) -> list[Role]:
    roles: list[Role] = []
    if card.rank is not None:
        roles.append(("n", card.rank, card.suit))
    scope = rules.wild_scope(card, dealt)
    if scope is not None:
        roles.append(("w", scope))
    return roles


def _one_kind(kind: str, wild_scopes: list[str], values: list[object]) -> bool:
    """Every wild card may be in a ``kind`` and the natural cards agree on ``values`` (their
    rank for a set, their suit for a run)."""
    return all(s in ("any", kind) for s in wild_scopes) and len(set(values)) <= 1


def _set_ok(rules: Ruleset, naturals: list[tuple[int, str]], wild_scopes: list[str]) -> bool:
    n = len(naturals) + len(wild_scopes)
    if not _one_kind("set", wild_scopes, [rank for rank, _ in naturals]):
        return False
    if n < rules.set_min or (rules.set_max is not None and n > rules.set_max):
        return False
    if rules.set_distinct_suits:
        suits = [suit for _, suit in naturals]
        # The wild cards must stand for the missing suits, so at most four cards in all.
        if len(set(suits)) != len(suits) or n > 4:
            return False
    return not (rules.wild_at_most_half and 2 * len(wild_scopes) > n)


def _run_positions(rules: Ruleset, rank: int) -> tuple[int, ...]:
    """Where a natural card of ``rank`` may sit in a run: 1..13, or an ace at 14 too."""
    if rank == 1 and rules.ace == "low_or_high":
        return (1, 14)
    return (rank,)


def _run_ok(rules: Ruleset, naturals: list[tuple[int, str]], wild_scopes: list[str]) -> bool:
    n = len(naturals) + len(wild_scopes)
    if not _one_kind("run", wild_scopes, [suit for _, suit in naturals]):
        return False
    if n < rules.run_min or n > 13:
        return False
    if rules.wild_at_most_half and 2 * len(wild_scopes) > n:
        return False
    top = 14 if rules.ace == "low_or_high" else 13
    for start in range(1, top - n + 2):
        places = range(start, start + n)
        for chosen in product(*(_run_positions(rules, rank) for rank, _ in naturals)):
            if len(set(chosen)) != len(chosen) or not all(p in places for p in chosen):
                continue
            wild_places = sorted(set(places) - set(chosen))
            if rules.no_adjacent_wilds_in_run and any(b - a == 1 for a, b in pairwise(wild_places)):
                continue
            return True
    return False


def meld_ok(cards: Sequence[Card], rules: Ruleset, dealt: int | None) -> bool:
    """Whether ``cards`` form one valid meld: some role for each card makes a set or a run.

    >>> from payme.cards import parse_hand
    >>> from payme.rulesets import rules
    >>> meld_ok(parse_hand("7H 7H 7S"), rules("denexa"), 7)
    True
    >>> meld_ok(parse_hand("5H JK JK"), rules("denexa"), 9)
    False
    """
    tokens = [c.token for c in cards]
    if any(t in rules.never_melded for t in tokens):
        return False
    if any(t in rules.single_card_melds for t in tokens):
        return len(cards) == 1
    options = [_roles(c, rules, dealt) for c in cards]
    if any(not o for o in options):
        return False
    for choice in product(*options):
        naturals = [(r[1], r[2]) for r in choice if r[0] == "n"]
        wilds = [r[1] for r in choice if r[0] == "w"]
        if _set_ok(rules, naturals, wilds) or _run_ok(rules, naturals, wilds):  # type: ignore[arg-type]
            return True
    return False


def _sub(cards: tuple[Card, ...], taken: Iterable[Card]) -> tuple[Card, ...]:
    left = Counter(cards)
    left.subtract(taken)
    return tuple(sorted(left.elements()))


@dataclass
class Reference:
    """The brute-force answers for one rule set and one ``dealt``, with memo tables."""

    rules: Ruleset
    dealt: int | None
    _melds: dict[tuple[Card, ...], bool] = field(default_factory=dict)
    _best: dict[tuple[Card, ...], int] = field(default_factory=dict)

    def is_meld(self, cards: tuple[Card, ...]) -> bool:
        key = tuple(sorted(cards))
        known = self._melds.get(key)
        if known is None:
            known = self._melds[key] = meld_ok(key, self.rules, self.dealt)
        return known

    def points(self, cards: Iterable[Card]) -> int:
        return sum(self.rules.card_points(c, self.dealt) for c in cards)

    def _blocks_with_first(self, cards: tuple[Card, ...]) -> Iterable[tuple[Card, ...]]:
        """Every distinct meld holding ``cards[0]`` and some of the others."""
        first, rest = cards[0], cards[1:]
        seen: set[tuple[Card, ...]] = set()
        for size in range(0, len(rest) + 1):
            for others in combinations(rest, size):
                block = (first, *others)
                if block not in seen:
                    seen.add(block)
                    if self.is_meld(block):
                        yield block

    def best_points(self, hand: Iterable[Card]) -> int:
        """The fewest penalty points over every split of ``hand`` into melds and deadwood."""
        cards = tuple(sorted(hand))
        known = self._best.get(cards)
        if known is not None:
            return known
        if not cards:
            return 0
        # The lowest card is either deadwood or in some meld; try both, every way.
        best = self.points(cards[:1]) + self.best_points(cards[1:])
        for block in self._blocks_with_first(cards):
            best = min(best, self.best_points(_sub(cards, block)))
        self._best[cards] = best
        return best

    def all_melded(self, hand: Iterable[Card]) -> bool:
        """Whether every card of ``hand`` can be in a meld (no deadwood at all)."""
        cards = tuple(hand)
        if not cards:
            return True
        # Points are >= 1 per deadwood card in every preset, but a custom rule set might
        # score a card 0, so ask the question directly.
        return self._all_melded(tuple(sorted(cards)))

    def _all_melded(self, cards: tuple[Card, ...]) -> bool:
        if not cards:
            return True
        return any(self._all_melded(_sub(cards, block)) for block in self._blocks_with_first(cards))

    def go_out_discards(self, hand: Sequence[Card]) -> set[Card | None]:
        """RULES.md's going out: the discards (``None``: none) that leave every card melded.

        ``discard_optional``: all melded, or all but one discard.  ``discard_required``: a
        discard, the rest melded.  ``one_unmelded``: at most one card left unmelded and it is
        not one the rules forbid leaving over; it is listed (``None`` when none is left).
        """
        cards = tuple(hand)
        found: set[Card | None] = set()
        mode = self.rules.going_out
        if mode != "discard_required" and self.all_melded(cards):
            found.add(None)
        for card in set(cards):
            if mode == "one_unmelded" and card.token in self.rules.never_left_over:
                continue
            if self.all_melded(_sub(cards, [card])):
                found.add(card)
        return found

    # --- lay-offs ------------------------------------------------------------------

    def lay_off_points(self, hand: Sequence[Card], declared: Sequence[DeclaredMeld]) -> int:
        """The fewest points with the opponent's own melds and lay-offs together.

        Every way of sending each card to the opponent's own cards or onto one declarer's
        meld is tried; a meld's share must grow it into a valid meld.
        """
        cards = tuple(sorted(hand))
        if not self.rules.lay_off or not declared:
            return self.best_points(cards)
        best = self.best_points(cards)
        targets = range(-1, len(declared))
        seen: set[tuple[tuple[Card, ...], ...]] = set()
        for where in product(targets, repeat=len(cards)):
            shares = tuple(
                tuple(c for c, w in zip(cards, where, strict=True) if w == i)
                for i in range(len(declared))
            )
            if shares in seen:
                continue
            seen.add(shares)
            if all(
                not share or declared[i].grows(share, self.rules, self.dealt)
                for i, share in enumerate(shares)
            ):
                kept = [c for c, w in zip(cards, where, strict=True) if w == -1]
                best = min(best, self.best_points(kept))
        return best


@dataclass(frozen=True)
class DeclaredMeld:
    """A declarer's meld as laid down, stand-ins fixed, in the reference's own terms.

    A set: ``rank``, the suits it already holds (naturals and definite stand-ins), its size
    and wild count (a wild card's suit is not fixed).  A run: ``suit``, ``low`` and the places
    of its wild cards.  A meld of wild cards only fixes nothing and takes only wild cards.
    """

    kind: str  # "set" or "run"
    size: int
    wilds: int
    all_wild: bool = False
    rank: int | None = None
    suits: tuple[str, ...] = ()
    suit: str | None = None
    low: int = 0
    wild_places: tuple[int, ...] = ()

    def grows(self, added: Sequence[Card], rules: Ruleset, dealt: int | None) -> bool:
        """Whether adding ``added`` (in any order, at either end) leaves a valid meld."""
        options = [_roles(c, rules, dealt) for c in added]
        if any(not o for o in options) or any(
            c.token in rules.never_melded or c.token in rules.single_card_melds for c in added
        ):
            return False
        n = self.size + len(added)
        for choice in product(*options):
            new_wilds = [r[1] for r in choice if r[0] == "w"]
            naturals = [(int(r[1]), str(r[2])) for r in choice if r[0] == "n"]  # type: ignore[call-overload]
            w = self.wilds + len(new_wilds)
            if rules.wild_at_most_half and 2 * w > n:
                continue
            if self.all_wild:
                # Fixes no rank or suit: only further wild cards, within the size limits.
                if naturals or any(s not in ("any", self.kind) for s in new_wilds):
                    continue
                if self.kind == "run":
                    if n <= 13 and not rules.no_adjacent_wilds_in_run:
                        return True
                elif (rules.set_max is None or n <= rules.set_max) and (
                    not rules.set_distinct_suits or n <= 4
                ):
                    return True
                continue
            if self.kind == "set":
                if self._set_grows(rules, naturals, new_wilds, n):
                    return True
            elif self._run_grows(rules, choice, n):
                return True
        return False

    def _set_grows(
        self, rules: Ruleset, naturals: list[tuple[int, str]], new_wilds: list[str], n: int
    ) -> bool:
        if any(s not in ("any", "set") for s in new_wilds):
            return False
        if any(rank != self.rank for rank, _ in naturals):
            return False
        if rules.set_max is not None and n > rules.set_max:
            return False
        if rules.set_distinct_suits:
            suits = list(self.suits) + [suit for _, suit in naturals]
            if len(set(suits)) != len(suits) or n > 4:
                return False
        return True

    def _run_grows(self, rules: Ruleset, choice: Sequence[Role], n: int) -> bool:
        if any(r[0] == "w" and r[1] not in ("any", "run") for r in choice):
            return False
        top = 14 if rules.ace == "low_or_high" else 13
        k = len(choice)
        high = self.low + self.size - 1
        for below in range(k + 1):
            lo, hi = self.low - below, high + (k - below)
            if lo < 1 or hi > top or hi - lo + 1 > 13:
                continue
            places = [*range(lo, self.low), *range(high + 1, hi + 1)]
            for order in set(permutations(range(k))):
                wild_places = list(self.wild_places)
                fits = True
                for place, i in zip(places, order, strict=True):
                    role = choice[i]
                    if role[0] == "w":
                        wild_places.append(place)
                    elif role[2] != self.suit or place not in _run_positions(
                        rules,
                        int(role[1]),  # type: ignore[call-overload]
                    ):
                        fits = False
                        break
                if not fits:
                    continue
                wild_places.sort()
                if rules.no_adjacent_wilds_in_run and any(
                    b - a == 1 for a, b in pairwise(wild_places)
                ):
                    continue
                return True
        return False
