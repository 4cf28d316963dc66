"""Melds: what a valid set or run is under a rule set, and why a group of cards is not one.

:func:`check_meld` is exact: a group of cards is a valid meld when *some* choice of what
each wild card stands for makes it one.  Every verdict comes with one plain sentence.

>>> check_meld("5H JK 7H", rules="denexa", dealt=7).reason
'Valid run of hearts 5–7; JK stands for 6H.'
>>> check_meld("7H 7H 7S", rules="denexa", dealt=7).reason
'Valid set of sevens; 7H stands for 7D.'
>>> bool(check_meld("JK JK 5H", rules="denexa", dealt=7))
False
>>> str(check_meld("QH KH WILD", rules="three_pack").meld)
'QH KH WILD(AH)'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Final, Literal

from payme.cards import (
    CARDS,
    JOKER_INDEX,
    N_CARDS,
    N_REGULAR,
    RANKS,
    SUIT_NAMES,
    SUITS,
    Card,
    CardError,
    CardsLike,
    format_hand,
    html_by,
    parse_card,
    parse_hand,
    pretty_as_repr,
)
from payme.pack import MAX_HAND, check_hand
from payme.rulesets import Ruleset, RulesLike, WildScope
from payme.rulesets import rules as get_rules
from payme.words import joined, rank_plural

MeldKind = Literal["set", "run", "single"]

ACE_HIGH: Final = 14
"""The place of an ace at the top of a run (Q-K-A), where the rule set allows it."""
RUN_MOST: Final = 13
"""A run never holds more than 13 cards: the ace is low or high, never both."""


# --------------------------------------------------------------------------------------
# The meld value type


@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """A valid meld and what each of its cards plays as.

    ``cards`` of a run are in place order (low to high); a set's are in canonical order.
    ``stands_for[i]`` is the card ``cards[i]`` plays as: the card itself when natural, the
    card of its place (run) or a card of the set's rank for a wild card, and ``None`` only
    in a meld made only of wild cards, which fixes nothing.

    >>> m = check_meld("7H JK 5H", rules="denexa", dealt=9).meld
    >>> m.kind, m.suit, m.low, m.high, m.wild_count
    ('run', 'H', 5, 7, 1)
    >>> str(m)
    '5H JK(6H) 7H'

    Its repr is a call that builds it again: the cards as text, each wild card followed by
    what it plays as in brackets (``?`` in a meld of wild cards only, which fixes nothing).
    Building a meld does not check it against a rule set; :func:`check_meld` does.

    >>> m
    Meld('run', '5H JK(6H) 7H')
    >>> Meld('run', '5H JK(6H) 7H') == m
    True
    >>> Meld("set", "JK JK")
    Traceback (most recent call last):
    ...
    ValueError: a meld's text needs what each wild card plays as: 'JK' stands for itself; write e.g. 'JK(6H)', or 'JK(?)' in a meld of wild cards only
    """  # noqa: E501

    kind: MeldKind
    cards: tuple[Card, ...]
    stands_for: tuple[Card | None, ...]

    def __init__(
        self,
        kind: MeldKind,
        cards: tuple[Card, ...] | str,
        stands_for: tuple[Card | None, ...] | None = None,
    ) -> None:
        if isinstance(cards, str):
            if stands_for is not None:
                raise TypeError("give what the wild cards play as in the text or in stands_for")
            cards, stands_for = _parse_meld_text(cards, kind)
        elif stands_for is None:
            raise TypeError("a meld needs stands_for: what each card plays as")
        if kind not in _KINDS:
            raise ValueError(f"a meld's kind is one of {', '.join(_KINDS)}, not {kind!r}")
        if len(cards) != len(stands_for):
            raise ValueError("a meld needs one stands_for entry per card")
        _set(self, "kind", kind)
        _set(self, "cards", cards)
        _set(self, "stands_for", stands_for)

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def wild_count(self) -> int:
        """Cards playing as something other than themselves (every card of an all-wild meld)."""
        return sum(1 for c, s in zip(self.cards, self.stands_for, strict=True) if s is not c)

    @property
    def wilds(self) -> tuple[Card, ...]:
        """The cards playing as something other than themselves."""
        return tuple(c for c, s in zip(self.cards, self.stands_for, strict=True) if s is not c)

    @property
    def all_wild(self) -> bool:
        """Whether the meld is made only of wild cards (and so fixes no rank or suit)."""
        return self.kind != "single" and all(s is None for s in self.stands_for)

    @property
    def rank(self) -> int | None:
        """A set's rank number (``None`` for runs and all-wild melds)."""
        if self.kind != "set":
            return None
        for s in self.stands_for:
            if s is not None:
                return s.rank
        return None

    @property
    def suit(self) -> str | None:
        """A run's suit letter (``None`` for sets and all-wild melds)."""
        if self.kind != "run" or self.stands_for[0] is None:
            return None
        return self.stands_for[0].suit

    @property
    def low(self) -> int | None:
        """The rank number of a run's lowest place (an ace at the bottom is 1)."""
        if self.kind != "run" or self.stands_for[0] is None:
            return None
        return self.stands_for[0].rank

    @property
    def high(self) -> int | None:
        """The rank number of a run's highest place; an ace at the top of Q-K-A is 14."""
        low = self.low
        return None if low is None else low + len(self.cards) - 1

    def __str__(self) -> str:
        parts = []
        for c, s in zip(self.cards, self.stands_for, strict=True):
            parts.append(str(c) if s is c or s is None else f"{c}({s})")
        return " ".join(parts)

    _repr_pretty_ = pretty_as_repr

    def __repr__(self) -> str:
        parts = []
        for c, s in zip(self.cards, self.stands_for, strict=True):
            parts.append(str(c) if s is c else f"{c}({'?' if s is None else s})")
        return f"Meld({self.kind!r}, {' '.join(parts)!r})"

    _repr_html_ = html_by("meld_html")


_new_object: Final = object.__new__
_set: Final = object.__setattr__
_KINDS: Final = ("set", "run", "single")
_MELD_CARD: Final = re.compile(r"([^()]+)(?:\(([^()]+)\))?")


def _parse_meld_text(text: str, kind: str) -> tuple[tuple[Card, ...], tuple[Card | None, ...]]:
    """The cards and stand-ins of a meld written as :class:`Meld`'s repr writes it."""
    cards: list[Card] = []
    stands: list[Card | None] = []
    for token in text.split():
        match = _MELD_CARD.fullmatch(token)
        if match is None:
            raise CardError(f"{token!r} is not a card, or a card and what it plays as: 'JK(6H)'")
        card = parse_card(match[1])
        plays_as = match[2]
        if plays_as is None:
            if not card.is_regular and kind != "single":
                raise ValueError(
                    f"a meld's text needs what each wild card plays as: {token!r} stands for "
                    f"itself; write e.g. '{card}(6H)', or '{card}(?)' in a meld of wild cards only"
                )
            stands.append(card)
        else:
            stands.append(None if plays_as.strip() == "?" else parse_card(plays_as))
        cards.append(card)
    return tuple(cards), tuple(stands)


def new_meld(kind: MeldKind, cards: tuple[Card, ...], stands_for: tuple[Card | None, ...]) -> Meld:
    """A :class:`Meld` made without ``__init__``'s check, for the solver's hot path, whose
    melds pair each card with its stand-in by construction (the same object otherwise)."""
    m = _new_object(Meld)
    _set(m, "kind", kind)
    _set(m, "cards", cards)
    _set(m, "stands_for", stands_for)
    return m


@dataclass(frozen=True)
class MeldCheck:
    """The verdict of :func:`check_meld`: ``ok``, one sentence of ``reason``, and the meld."""

    ok: bool
    reason: str
    meld: Meld | None = None

    def __bool__(self) -> bool:
        return self.ok


# --------------------------------------------------------------------------------------
# What a rule set and a round make of each kind of card


class RuleTables:
    """Facts about each of the 59 kinds of card under one rule set and one round.

    Built once per ``(rules, dealt)`` and cached: the meld checker and the solver read
    these instead of asking the rule set card by card.
    """

    __slots__ = (
        "ace_high",
        "adjacent_limit",
        "all_wild_run_ok",
        "all_wild_set_ok",
        "dealt",
        "distinct_suits",
        "half_limit",
        "largest_pack",
        "never",
        "points",
        "rules",
        "run_min",
        "scope",
        "set_max",
        "set_min",
        "single",
        "unit_points",
    )

    def __init__(self, rules: Ruleset, dealt: int | None) -> None:
        self.rules = rules
        self.dealt = dealt
        self.scope: tuple[WildScope | None, ...] = tuple(rules.wild_scope(c, dealt) for c in CARDS)
        self.single = frozenset(c.index for c in CARDS if c.special in rules.single_card_melds)
        # A card that is neither regular, nor wild, nor a meld by itself can never be melded.
        self.never = frozenset(
            c.index
            for c in CARDS
            if c.special in rules.never_melded
            or (c.index >= N_REGULAR and self.scope[c.index] is None and c.index not in self.single)
        )
        self.points = tuple(rules.card_points(c, dealt) for c in CARDS)
        self.unit_points = (1,) * N_CARDS
        self.set_min = rules.set_min
        self.run_min = rules.run_min
        self.distinct_suits = rules.set_distinct_suits
        most = rules.set_max
        if self.distinct_suits:
            most = 4 if most is None else min(most, 4)
        self.set_max = most
        self.ace_high = rules.ace == "low_or_high"
        self.half_limit = rules.wild_at_most_half
        self.adjacent_limit = rules.no_adjacent_wilds_in_run
        # A meld of wild cards only breaks the half-wild limit; in a run it also breaks the
        # adjacent-wild limit.
        self.all_wild_set_ok = not self.half_limit
        self.all_wild_run_ok = not self.half_limit and not self.adjacent_limit
        self.largest_pack = rules.pack_counts(None)


_TABLES: dict[tuple[int, int | None], tuple[Ruleset, RuleTables]] = {}


def needs_dealt(rules: Ruleset) -> bool:
    """Whether ``dealt`` matters: :attr:`~payme.rulesets.Ruleset.dealt_matters` (the wild
    rank, the hand size)."""
    return rules.dealt_matters


def tables_for(rules: RulesLike, dealt: int | None) -> RuleTables:
    """The cached :class:`RuleTables` for a rule set and round; checks ``dealt``.

    ``dealt`` is required (and range-checked) where it fixes the round wild rank; elsewhere
    (Rummy 3-Pack) it is ignored.
    """
    r = get_rules(rules)
    d = r.check_dealt(dealt) if needs_dealt(r) else None
    key = (id(r), d)
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is r:
        return hit[1]
    t = RuleTables(r, d)
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[key] = (r, t)
    return t


def hand_cards(hand: CardsLike, t: RuleTables) -> tuple[Card, ...]:
    """``hand`` parsed and checked against the rule set's largest pack (``CardError`` if not).

    >>> t = tables_for("three_pack", None)
    >>> hand_cards("5h rummy", t)
    (Card('5H'), Card('RUMMY'))
    >>> hand_cards("JK", t)
    Traceback (most recent call last):
    ...
    payme.cards.CardError: JK is not in the pack for Rummy 3-Pack: it has no jokers
    """
    fast = type(hand) is tuple and all(type(c) is Card for c in hand)
    cards: tuple[Card, ...] = hand if fast else parse_hand(hand)  # type: ignore[assignment]
    if len(cards) > MAX_HAND:
        check_hand(cards, t.rules)  # raises the "too large" error
    counts = [0] * N_CARDS
    pack = t.largest_pack
    for c in cards:
        i = c.index
        counts[i] += 1
        if counts[i] > pack[i]:
            check_hand(cards, t.rules)  # raises, naming the card
            raise CardError(f"{c} is not in the {t.rules.name} pack")  # pragma: no cover
    return cards


# --------------------------------------------------------------------------------------
# Words


def _place_token(place: int) -> str:
    return RANKS[(place - 1) % 13]


def _stand_ins(cards: Iterable[Card], stands: Iterable[Card | None]) -> str:
    pairs = [f"{c} stands for {s}" for c, s in zip(cards, stands, strict=True) if s is not c and s]
    return "; " + joined(pairs) if pairs else ""


def _times(n: int) -> str:
    return {2: "twice", 3: "three times"}.get(n, f"{n} times")


def _describe(meld: Meld) -> str:
    """The one-sentence reason for a valid meld."""
    if meld.kind == "single":
        return f"Valid meld: {meld.cards[0]} counts as a meld on its own."
    if meld.all_wild:
        return f"Valid {meld.kind} made only of wild cards, which may stand for any cards."
    tail = _stand_ins(meld.cards, meld.stands_for)
    if meld.kind == "set":
        rank = meld.rank
        assert rank is not None
        return f"Valid set of {rank_plural(rank)}{tail}."
    suit, low, high = meld.suit, meld.low, meld.high
    assert suit is not None and low is not None and high is not None
    span = f"{_place_token(low)}–{_place_token(high)}"
    return f"Valid run of {SUIT_NAMES[suit]} {span}{tail}."


# --------------------------------------------------------------------------------------
# Interpreting a group of cards as a set or a run


def _index(c: Card) -> int:
    return c.index


def build_set(rank: int | None, naturals: list[Card], wilds: list[Card]) -> Meld:
    """A set meld from its natural cards and its wild cards, in canonical order.

    Each wild card stands for a card of the set's rank in a suit the set lacks (S H D C
    order; suits repeat only when the rule set allows and all four are there).
    """
    if rank is None:
        cards = tuple(sorted(wilds, key=_index))
        return Meld("set", cards, (None,) * len(cards))
    have = {c.index // 13 for c in naturals}
    missing = [s for s in range(4) if s not in have] or [0, 1, 2, 3]
    rows = [(c.index, 0, c, c) for c in naturals]
    for i, w in enumerate(sorted(wilds, key=_index)):
        rows.append((w.index, 1 + i, w, CARDS[missing[i % len(missing)] * 13 + rank - 1]))
    rows.sort(key=lambda row: (row[0], row[1]))
    return _meld("set", tuple([r[2] for r in rows]), tuple([r[3] for r in rows]))


def build_run(suit: str, low: int, by_place: dict[int, Card], wilds: list[Card]) -> Meld:
    """A run meld of ``len(by_place) + len(wilds)`` places from ``low``; wilds fill the gaps."""
    n = len(by_place) + len(wilds)
    spare = iter(sorted(wilds, key=_index))
    base = SUITS.index(suit) * 13 - 1
    cards: list[Card] = []
    stands: list[Card | None] = []
    for place in range(low, low + n):
        natural = by_place.get(place)
        if natural is not None:
            cards.append(natural)
            stands.append(natural)
        else:
            cards.append(next(spare))
            stands.append(CARDS[base + (1 if place == ACE_HIGH else place)])
    return _meld("run", tuple(cards), tuple(stands))


def _meld(kind: MeldKind, cards: tuple[Card, ...], stands: tuple[Card | None, ...]) -> Meld:
    """A meld whose cards all stand for themselves shares one tuple for both (the solver
    keeps many such melds: fewer objects for the garbage collector to visit)."""
    return Meld(kind, cards, cards if stands == cards else stands)


def _fixed(cards: tuple[Card, ...], t: RuleTables) -> list[Card]:
    """Regular cards that are never wild: they always stand for themselves."""
    return [c for c in cards if c.index < N_REGULAR and t.scope[c.index] is None]


def _kind_blocked(cards: tuple[Card, ...], t: RuleTables, kind: str, least: int) -> str:
    """What stops ``cards`` being a ``kind`` (``"set"`` or ``"run"``) before their ranks and
    suits are read: too few cards, or a card wild only in the other kind (``""``: nothing)."""
    if len(cards) < least:
        return f"A {kind} needs at least {least} cards, but this has {len(cards)}."
    other = "run" if kind == "set" else "set"
    for c in cards:
        if c.index >= N_REGULAR and t.scope[c.index] == other:
            return f"{c} is wild only in {other}s, so it cannot be in a {kind}."
    return ""


def _try_set(cards: tuple[Card, ...], t: RuleTables) -> tuple[Meld | None, str]:
    if blocked := _kind_blocked(cards, t, "set", t.set_min):
        return None, blocked
    n = len(cards)
    if t.set_max is not None and n > t.set_max:
        if t.distinct_suits and (t.rules.set_max is None or t.rules.set_max > 4):
            why = "each suit only once, so at most 4 cards"
            return None, f"A set may hold {why}, but this has {n}."
        return None, f"A set has at most {t.set_max} cards, but this has {n}."
    fixed = _fixed(cards, t)
    ranks = sorted({c.rank for c in fixed if c.rank is not None})
    if len(ranks) > 1:
        names = " and ".join(rank_plural(r) for r in ranks[:2])
        return None, f"A set needs cards of one rank, but this mixes {names}."
    if ranks:
        choices: list[int | None] = [ranks[0]]
    else:
        present = [c.index % 13 + 1 for c in cards if c.index < N_REGULAR]
        # The rank with the most natural cards needs the fewest wild ones.
        choices = [r for r in sorted(set(present), key=lambda r: (-present.count(r), r))]
        if t.all_wild_set_ok or not choices:
            choices.append(None)
    first_reason = ""
    for rank in choices:
        meld, reason = _set_of_rank(cards, rank, t)
        if meld is not None:
            return meld, reason
        first_reason = first_reason or reason
    return None, first_reason


def _set_of_rank(
    cards: tuple[Card, ...], rank: int | None, t: RuleTables
) -> tuple[Meld | None, str]:
    n = len(cards)
    naturals: list[Card] = []
    wilds: list[Card] = []
    seen: dict[str | None, int] = {}
    for c in cards:
        if rank is not None and c.rank == rank:
            seen[c.suit] = seen.get(c.suit, 0) + 1
            if not t.distinct_suits or seen[c.suit] == 1:
                naturals.append(c)
                continue
            if t.scope[c.index] is None:
                return None, (
                    f"A set may hold each suit only once, but {c} appears "
                    f"{_times(sum(1 for d in cards if d is c))}."
                )
        wilds.append(c)
    w = len(wilds)
    if t.half_limit and 2 * w > n:
        return None, _too_wild(w, n)
    return build_set(rank, naturals, wilds), ""


def _too_wild(w: int, n: int) -> str:
    many = "all" if w == n else str(w)
    return f"At most half of a meld's cards may be wild, but {many} of these {n} would be."


def _run_windows(n: int, ace_high: bool) -> list[tuple[int, bool]]:
    """Every ``(lowest place, ace counts high)`` a run of ``n`` cards may occupy, best first."""
    wins = [(low, False) for low in range(1, RUN_MOST - n + 2)]
    if ace_high:
        wins += [(low, True) for low in range(2, ACE_HIGH - n + 2) if low + n - 1 == ACE_HIGH]
    # Prefer the window whose wild cards extend the run upward (largest lowest place).
    return sorted(wins, key=lambda w: -w[0])


def _place(card: Card, ace_is_high: bool) -> int:
    rank = card.rank
    assert rank is not None
    return ACE_HIGH if rank == 1 and ace_is_high else rank


def _try_run(cards: tuple[Card, ...], t: RuleTables) -> tuple[Meld | None, str]:
    if blocked := _kind_blocked(cards, t, "run", t.run_min):
        return None, blocked
    n = len(cards)
    if n > RUN_MOST:
        return None, f"A run has at most {RUN_MOST} cards, but this has {n}."
    fixed = _fixed(cards, t)
    suits = sorted({c.suit for c in fixed if c.suit is not None}, key=SUITS.index)
    if len(suits) > 1:
        names = " and ".join(SUIT_NAMES[s] for s in suits[:2])
        return None, f"A run needs cards of one suit, but this mixes {names}."
    for c in fixed:
        k = sum(1 for d in fixed if d is c)
        if k > 1:
            return None, f"A run may hold each rank only once, but {c} appears {_times(k)}."
    if suits:
        suit_choices: list[str | None] = [suits[0]]
    else:
        held = [SUITS[c.index // 13] for c in cards if c.index < N_REGULAR]
        suit_choices = [
            s for s in sorted(set(held), key=lambda s: (-held.count(s), SUITS.index(s)))
        ]
        if t.all_wild_run_ok or not suit_choices:
            suit_choices.append(None)
    reasons: list[str] = []
    for suit in suit_choices:
        meld, why = _run_in_suit(cards, suit, fixed, t)
        if meld is not None:
            return meld, ""
        reasons.append(why)
    return None, reasons[0]


def _placements(
    cards: tuple[Card, ...], suit: str, fixed: list[Card], t: RuleTables
) -> Iterator[tuple[int, bool, dict[int, Card], list[Card]]]:
    """Each window a run of ``cards`` in ``suit`` may fill, best first: its lowest place,
    whether the ace counts high, the cards playing as themselves by place, and the rest
    (the wild cards, which fill the gaps)."""
    n = len(cards)
    for low, ace_is_high in _run_windows(n, t.ace_high):
        high = low + n - 1
        if any(not low <= _place(c, ace_is_high) <= high for c in fixed):
            continue
        by_place: dict[int, Card] = {}
        wilds: list[Card] = []
        for c in cards:
            if c.suit == suit:
                p = _place(c, ace_is_high)
                if low <= p <= high and p not in by_place:
                    by_place[p] = c
                    continue
            wilds.append(c)
        yield low, ace_is_high, by_place, wilds


def _run_in_suit(
    cards: tuple[Card, ...], suit: str | None, fixed: list[Card], t: RuleTables
) -> tuple[Meld | None, str]:
    n = len(cards)
    if suit is None:
        if t.half_limit:
            return None, _too_wild(n, n)
        if t.adjacent_limit:
            return None, "In a run no two wild cards may sit next to each other."
        return Meld("run", tuple(sorted(cards)), (None,) * n), ""
    best: tuple[int, int, bool, dict[int, Card], list[Card]] | None = None
    fits = False
    fewest_wild = n
    adjacent_only = False
    for low, ace_is_high, by_place, wilds in _placements(cards, suit, fixed, t):
        high = low + n - 1
        fits = True
        w = len(wilds)
        fewest_wild = min(fewest_wild, w)
        if t.half_limit and 2 * w > n:
            continue
        if t.adjacent_limit and any(
            p not in by_place and p + 1 not in by_place for p in range(low, high)
        ):
            adjacent_only = True
            continue
        if best is None or len(by_place) > best[0]:
            best = (len(by_place), low, ace_is_high, by_place, wilds)
    if best is not None:
        return build_run(suit, best[1], best[3], best[4]), ""
    if not fits:
        return None, _too_far(fixed, n, t)
    if adjacent_only and not (t.half_limit and 2 * fewest_wild > n):
        return None, "In a run no two wild cards may sit next to each other, but here two would."
    return None, _too_wild(fewest_wild, n)


def run_variants(cards: tuple[Card, ...], t: RuleTables) -> list[Meld]:
    """Every valid run ``cards`` make, one per suit and window (where the wild cards sit).

    :func:`interpret` settles on one run; a declarer may lay the same cards out with the
    wild cards at the other end, which changes what opponents can lay off.

    >>> t = tables_for("family", 9)
    >>> [str(m) for m in run_variants(parse_hand("5H 6H JK"), t)]
    ['5H 6H JK(7H)', 'JK(4H) 5H 6H']
    """
    n = len(cards)
    if n < t.run_min or n > RUN_MOST:
        return []
    if any(c.index >= N_REGULAR and t.scope[c.index] == "set" for c in cards):
        return []
    fixed = _fixed(cards, t)
    suits = {c.suit for c in fixed if c.suit is not None}
    if len(suits) > 1:
        return []
    choices = sorted(suits or {c.suit for c in cards if c.suit is not None})
    found: list[Meld] = []
    seen: set[tuple[Card | None, ...]] = set()
    for suit in choices:
        assert suit is not None
        for low, _, by_place, wilds in _placements(cards, suit, fixed, t):
            meld = build_run(suit, low, by_place, wilds)
            if meld.stands_for not in seen and not fixed_meld_problem(meld, t):
                seen.add(meld.stands_for)
                found.append(meld)
    return found


def _too_far(fixed: list[Card], n: int, t: RuleTables) -> str:
    ranks = sorted(c.rank for c in fixed if c.rank is not None)
    lo, hi = ranks[0], ranks[-1]
    if 1 in ranks and any(r >= 13 - n + 2 for r in ranks if r != 1):
        # The ace sits next to the king: either the ace is low only, or the run would wrap.
        as_high = sorted(ACE_HIGH if r == 1 else r for r in ranks)
        if not t.ace_high and len(fixed) < n:
            # A wild card could stand for the 2 (K-A-2) or the queen (Q-K-A): name both rules.
            return (
                "Runs never wrap around and the ace is low only, so neither K-A-2 nor Q-K-A "
                "is a run."
            )
        if as_high[-1] - as_high[0] < n and not t.ace_high:
            return "The ace is low in a run, so a run cannot go up to an ace (Q-K-A)."
        if as_high[-1] - as_high[0] >= n:
            if t.ace_high:
                return (
                    "A run may not wrap around from K to A to 2: the ace is low or high, "
                    "never both."
                )
            return "Runs never wrap around: the ace is low, so K-A-2 is not a run."
    low_c = next(c for c in fixed if c.rank == lo)
    high_c = next(c for c in fixed if c.rank == hi)
    return (
        f"{low_c} and {high_c} are too far apart for one run of {n} cards "
        f"(it would need {hi - lo + 1})."
    )


def interpret(cards: tuple[Card, ...], t: RuleTables) -> tuple[Meld | None, str]:
    """The meld ``cards`` make (a set when they can, else a run), or ``None`` and why not.

    The reason is one sentence for either verdict.
    """
    cards = tuple(sorted(cards))
    n = len(cards)
    if n == 0:
        return None, "A meld needs cards, but none were given."
    single = [c for c in cards if c.index in t.single]
    if single:
        if n == 1:
            meld = Meld("single", cards, cards)
            return meld, _describe(meld)
        return None, f"{single[0]} is a meld on its own and never joins other cards."
    for c in cards:
        if c.index in t.never:
            if c.index == JOKER_INDEX:
                return None, "JK is not wild under these rules, so it can never be melded."
            return None, f"{c} can never be melded."
    least = min(t.set_min, t.run_min)
    if n < least:
        return None, f"A meld needs at least {least} cards, but this has {n}."
    set_only = [c for c in cards if c.index >= N_REGULAR and t.scope[c.index] == "set"]
    run_only = [c for c in cards if c.index >= N_REGULAR and t.scope[c.index] == "run"]
    if set_only and run_only:
        return None, f"One meld may not hold both {set_only[0]} and {run_only[0]}."
    as_set, set_reason = _try_set(cards, t)
    if as_set is not None:
        return as_set, _describe(as_set)
    as_run, run_reason = _try_run(cards, t)
    if as_run is not None:
        return as_run, _describe(as_run)
    fixed = _fixed(cards, t)
    one_rank = len({c.rank for c in fixed}) <= 1
    one_suit = len({c.suit for c in fixed}) <= 1
    if one_rank and not one_suit:
        return None, set_reason
    if one_suit and not one_rank:
        return None, run_reason
    if run_only:
        return None, run_reason
    if set_only or one_rank:
        return None, set_reason
    return None, (
        "These cards are neither one rank (for a set) nor one suit (for a run): "
        f"{format_hand(fixed)}."
    )


def check_meld(
    cards: CardsLike, rules: RulesLike = "denexa", dealt: int | None = None
) -> MeldCheck:
    """Whether ``cards`` form a valid meld under ``rules``, with a one-sentence reason.

    ``dealt`` (the cards dealt this hand) fixes the round wild rank and is required for the
    Pay Me rule sets; Rummy 3-Pack ignores it.

    >>> check_meld("7H 7S 7D", rules="denexa", dealt=7).reason
    'Valid set of sevens.'
    >>> check_meld("7H 7H 7S", rules="classic", dealt=9).reason
    'Valid set of sevens.'
    >>> check_meld("7H 7H 7S", rules="denexa", dealt=9).reason
    'A set may hold each suit only once, but 7H appears twice.'
    >>> check_meld("JK JK JK", rules="classic", dealt=5).ok
    True
    >>> check_meld("KH AH 2H", rules="three_pack").reason
    'A run may not wrap around from K to A to 2: the ace is low or high, never both.'
    """
    t = tables_for(rules, dealt)
    hand = hand_cards(cards, t)
    meld, reason = interpret(hand, t)
    return MeldCheck(meld is not None, reason, meld)


# --------------------------------------------------------------------------------------
# A declarer's meld given as text (for lay-offs)


def check_declared_meld(
    cards: Meld | CardsLike, rules: RulesLike = "denexa", dealt: int | None = None
) -> MeldCheck:
    """Whether ``cards`` are a valid meld *as laid down*, with a one-sentence reason.

    A :class:`Meld` is checked exactly as given (each wild card's stand-in included).  Cards
    given as text or cards that can form a set are a set; otherwise they are a run listed
    from low to high, each wild card standing for the card of its place — so the order
    says what an end wild card holds: ``JK 5H 6H`` is 4H-5H-6H, ``5H 6H JK`` is 5H-6H-7H.

    >>> check_declared_meld("JK 5H 6H", "family", 9).reason
    'Valid run of hearts 4–6; JK stands for 4H.'
    >>> check_declared_meld("5H 6H JK", "family", 9).meld
    Meld('run', '5H 6H JK(7H)')
    >>> check_declared_meld("5H 7H JK", "denexa", 9).reason
    '5H 7H JK is not a run listed from low to high: each card must stand for the card of its place.'
    """
    t = tables_for(rules, dealt)
    if isinstance(cards, Meld):
        hand_cards(cards.cards, t)
        why = fixed_meld_problem(cards, t)
        if why:
            return MeldCheck(False, f"{cards} is not a valid meld as laid down: {why}.")
        return MeldCheck(True, _describe(cards), cards)
    meld, reason, _ = _read_declared(hand_cards(cards, t), t)
    return MeldCheck(meld is not None, reason, meld)


def _read_declared(hand: tuple[Card, ...], t: RuleTables) -> tuple[Meld | None, str, bool]:
    """The meld ``hand`` makes as listed, its reason, and whether only the order is wrong."""
    meld, reason = interpret(hand, t)
    if meld is None or meld.kind != "run" or meld.all_wild:
        return meld, reason, False
    ordered = _run_as_listed(hand, t)
    if ordered is None:
        return (
            None,
            f"{format_hand(hand)} is not a run listed from low to high: each card must "
            "stand for the card of its place.",
            True,
        )
    return ordered, _describe(ordered), False


def parse_declared_meld(
    cards: Meld | CardsLike, rules: RulesLike = "denexa", dealt: int | None = None
) -> Meld:
    """A declarer's meld as laid down: a :class:`Meld`, or its cards as text or cards.

    Read as :func:`check_declared_meld` reads it; an invalid meld is a ``ValueError``
    saying why.

    >>> str(parse_declared_meld("5H JK 7H", "denexa", 9))
    '5H JK(6H) 7H'
    >>> str(parse_declared_meld("JK 6H 7H", "denexa", 9))
    'JK(5H) 6H 7H'
    >>> parse_declared_meld("5H 7H JK", "denexa", 9)
    Traceback (most recent call last):
    ...
    ValueError: 5H 7H JK is not a run listed from low to high: each card must stand for the card of its place.
    """  # noqa: E501
    if isinstance(cards, Meld):
        t = tables_for(rules, dealt)
        hand_cards(cards.cards, t)
        why = fixed_meld_problem(cards, t)
        if why:
            raise ValueError(f"invalid meld {cards}: {why}")
        return cards
    t = tables_for(rules, dealt)
    hand = hand_cards(cards, t)
    meld, reason, order_only = _read_declared(hand, t)
    if meld is None:
        raise ValueError(
            reason if order_only else f"{format_hand(hand)} is not a valid meld: {reason}"
        )
    return meld


def _run_as_listed(hand: tuple[Card, ...], t: RuleTables) -> Meld | None:
    n = len(hand)
    best: Meld | None = None
    best_naturals = -1
    for suit in SUITS:
        for low, _ace_is_high in _run_windows(n, t.ace_high):
            stands: list[Card | None] = []
            naturals = 0
            for i, c in enumerate(hand):
                place = low + i
                want = Card.regular(1 if place == ACE_HIGH else place, suit)
                if c is want:
                    naturals += 1
                elif t.scope[c.index] not in ("any", "run"):
                    break  # neither the card of this place nor a wild card allowed in runs
                stands.append(want)
            else:
                if naturals == 0 or naturals <= best_naturals:
                    continue
                meld = Meld("run", hand, tuple(stands))
                if not fixed_meld_problem(meld, t):
                    best, best_naturals = meld, naturals
    return best


def fixed_meld_problem(meld: Meld, t: RuleTables) -> str:
    """Why a meld with the stand-ins it records is invalid (``""`` when it is valid).

    Unlike :func:`check_meld`, which looks for *some* way the cards work, this checks the
    meld exactly as given (what a declarer laid down).
    """
    cards, stands = meld.cards, meld.stands_for
    n = len(cards)
    if meld.kind == "single":
        ok = n == 1 and cards[0].index in t.single and stands[0] is cards[0]
        return "" if ok else "a one-card meld must be a single card that melds alone"
    for c, s in zip(cards, stands, strict=True):
        if c.index in t.single or c.index in t.never:
            return f"{c} cannot be part of a {meld.kind}"
        if s is not c:
            scope = t.scope[c.index]
            if scope is None or (scope != "any" and scope != meld.kind):
                return f"{c} is not a wild card that may stand for {s or 'a card'} in a {meld.kind}"
        if s is not None and s.index >= N_REGULAR:
            return f"{c} must stand for a regular card"
    wild = sum(1 for c, s in zip(cards, stands, strict=True) if s is not c)
    if t.half_limit and 2 * wild > n:
        return _too_wild(wild, n)
    if all(s is None for s in stands):
        ok = t.all_wild_set_ok if meld.kind == "set" else t.all_wild_run_ok
        least = t.set_min if meld.kind == "set" else t.run_min
        if not ok or n < least:
            return f"an all-wild {meld.kind} of {n} cards is not allowed"
        return ""
    if any(s is None for s in stands):
        return "only a meld made only of wild cards may leave its cards' stand-ins open"
    real = [s for s in stands if s is not None]
    if meld.kind == "set":
        if n < t.set_min or (t.set_max is not None and n > t.set_max):
            return f"a set of {n} cards is not allowed"
        if len({s.rank for s in real}) != 1:
            return "a set's cards must all stand for one rank"
        if t.distinct_suits and len({s.suit for s in real}) != n:
            return "a set may hold each suit only once"
        return ""
    if n < t.run_min or n > RUN_MOST:
        return f"a run of {n} cards is not allowed"
    if len({s.suit for s in real}) != 1:
        return "a run's cards must all stand for one suit"
    ranks = [s.rank or 0 for s in real]
    high_ace = t.ace_high and n > 1 and ranks[-1] == 1 and ranks[0] != 1
    places = [ACE_HIGH if (r == 1 and high_ace) else r for r in ranks]
    if any(b != a + 1 for a, b in pairwise(places)):
        return "a run's cards must stand for consecutive ranks, listed low to high"
    if t.adjacent_limit:
        for i in range(n - 1):
            if stands[i] is not cards[i] and stands[i + 1] is not cards[i + 1]:
                return "in a run no two wild cards may sit next to each other"
    return ""


__all__ = [
    "ACE_HIGH",
    "RUN_MOST",
    "Meld",
    "MeldCheck",
    "MeldKind",
    "RuleTables",
    "build_run",
    "build_set",
    "check_declared_meld",
    "check_meld",
    "fixed_meld_problem",
    "hand_cards",
    "interpret",
    "needs_dealt",
    "parse_declared_meld",
    "run_variants",
    "tables_for",
]
