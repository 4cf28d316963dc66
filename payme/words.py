"""Phrases the app writes about cards and rules, each in one place.

The engine, the pages and the tutorial say "sevens and jokers are wild" or "12 points" the same way
because they ask here.  What a phrase depends on is read from the rule set's data, never
from which game it is.

>>> from payme.rulesets import rules
>>> rank_plural(7), rank_plural(6), rank_plural(1), rank_plural(12)
('sevens', 'sixes', 'aces', 'queens')
>>> wild_phrase(rules("classic"), 7), wild_phrase(rules("three_pack"), 7)
('sevens and jokers are wild', '')
>>> deadwood_unit(rules("family")), deadwood_unit(rules("three_pack"))
('points', 'unmelded cards')
>>> amount(1, rules("three_pack")), amount(15, rules("denexa"))
('1 unmelded card', '15 points')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from payme.cards import CARDS, JOKER_INDEX, RANK_NAMES, SUIT_SYMBOLS, Card, parse_card
from payme.rulesets import Ruleset

TEXT_STYLE: Final = "\ufe0e"
"""Variation selector 15: asks for the text (not emoji) form of the symbol before it."""
SUIT_MARKS: Final = {suit: symbol + TEXT_STYLE for suit, symbol in SUIT_SYMBOLS.items()}
"""Each suit's symbol as printed on a card: ``payme.cards.SUIT_SYMBOLS`` in text style."""
RANK_LABELS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The ranks as printed on a card, ace to king."""


def rank_label(rank: int) -> str:
    """The rank as printed on a card: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
    return RANK_LABELS[rank - 1]


def short_label(card: Card) -> str:
    """A card as printed on it: ``7♥︎`` (text-style symbol), ``10♣︎``, ``JK``, ``WILD``.

    >>> short_label(parse_card("TC")), short_label(parse_card("JK"))
    ('10♣︎', 'JK')
    """
    rank, suit = card.rank, card.suit
    if rank is None or suit is None:
        return card.token
    return rank_label(rank) + SUIT_MARKS[suit]


def short_labels(cards: Iterable[Card]) -> str:
    """Cards as printed on them, one space apart: ``7♥︎ 8♥︎ JK``."""
    return " ".join(short_label(c) for c in cards)


def joined(items: Iterable[str], last: str = "and") -> str:
    """Items as a sentence lists them: ``"a, b and c"`` (``last="or"``: ``"a, b or c"``).

    >>> joined(["twos", "sevens", "jokers"]), joined(["9♣", "7♥"], "or"), joined(["you"])
    ('twos, sevens and jokers', '9♣ or 7♥', 'you')
    >>> joined([])
    ''
    """
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def rank_plural(rank: int) -> str:
    """The rank's name in the plural, as in "a set of sevens" (1 is the ace, 13 the king)."""
    name = RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")


def counts_cards(rules: Ruleset) -> bool:
    """Whether every card left over costs 1: then deadwood is a count of cards, not points
    (Rummy 3-Pack's "unmelded cards")."""
    return set(rules.rank_points) == {1} and rules.special_points == 1


def deadwood_unit(rules: Ruleset | None) -> str:
    """What deadwood is counted in: ``"points"`` (also where no rule set is given), or
    ``"unmelded cards"``."""
    return "unmelded cards" if rules is not None and counts_cards(rules) else "points"


def amount(n: int, rules: Ruleset | None) -> str:
    """``n`` in the rule set's unit of deadwood: "15 points", "1 unmelded card" (points
    where no rule set is given)."""
    unit = deadwood_unit(rules)
    return f"{n} {unit if n != 1 else unit.removesuffix('s')}"


def wild_phrase(rules: Ruleset, dealt: int | None) -> str:
    """What a round with a wild rank makes wild, every wild card named, e.g. "twos, sevens
    and jokers are wild" (``""`` where the round has no wild rank).

    Remembered by the rule set object and ``dealt`` (a rule set is immutable, and hashes
    slowly): a game writes it at every deal."""
    key = (id(rules), dealt)
    known = _PHRASES.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    wild = rules.round_wild_rank(dealt) if dealt is not None else None
    phrase = f"{wild_cards(rules, dealt)} are wild" if wild is not None else ""
    if len(_PHRASES) >= 256:
        _PHRASES.clear()
    _PHRASES[key] = (rules, phrase)  # holding the rule set keeps its id in use
    return phrase


_PHRASES: dict[tuple[int, int | None], tuple[Ruleset, str]] = {}


def wild_kinds(rules: Ruleset) -> list[str]:
    """Every kind of card the rules make wild, whatever the round, in words (read through
    :meth:`~payme.rulesets.Ruleset.is_wild`, so a house rule "threes are wild too" is named).

    >>> from payme.rulesets import rules
    >>> wild_kinds(rules("denexa"))
    ['the jokers', 'every 2', 'every card of the round wild rank']
    >>> import dataclasses
    >>> wild_kinds(dataclasses.replace(rules("classic"), wild_ranks=(3,), jokers_wild=False))
    ['every 3', 'every card of the round wild rank']
    """
    kinds = ["the jokers"] if rules.is_wild(CARDS[JOKER_INDEX], None) else []
    kinds += [
        f"every {rank_label(rank)}"
        for rank in range(1, 14)
        if rules.is_wild(Card.regular(rank, "S"), None)
    ]
    if rules.round_rank_wild:
        kinds.append("every card of the round wild rank")
    return kinds


def wild_cards(rules: Ruleset, dealt: int | None) -> str:
    """Every kind of card that is wild in a round, in words, read from the rule set (``""``
    where nothing is): the ranks, then jokers, then special cards with the melds they serve.

    >>> from payme.rulesets import rules
    >>> wild_cards(rules("denexa"), 3), wild_cards(rules("family"), 7)
    ('twos, threes and jokers', 'sevens and jokers')
    >>> wild_cards(rules("three_pack"), 7)
    'WILD (in any meld), GROUP (in groups only) and SEQ (in sequences only)'
    """
    pack = rules.pack_counts(None)
    parts = [
        rank_plural(rank)
        for rank in range(1, 14)
        if rules.wild_scope(Card.regular(rank, "S"), dealt) is not None
    ]
    if pack[JOKER_INDEX] and rules.is_wild(CARDS[JOKER_INDEX], dealt):
        parts.append("jokers")
    where = {"any": "in any meld", "set": "in groups only", "run": "in sequences only"}
    for card in CARDS[JOKER_INDEX + 1 :]:
        scope = rules.wild_scope(card, dealt)
        if pack[card.index] and scope is not None:
            parts.append(f"{card.token} ({where[scope]})")
    return joined(parts)


# Where the opponents sit, clockwise from your left, for each number of players.
_SEATS: dict[int, tuple[str, ...]] = {
    2: ("North",),
    3: ("West", "East"),
    4: ("West", "North", "East"),
    5: ("West", "North-West", "North-East", "East"),
    6: ("West", "North-West", "North", "North-East", "East"),
    7: ("South-West", "West", "North-West", "North-East", "East", "South-East"),
    8: ("South-West", "West", "North-West", "North", "North-East", "East", "South-East"),
}


def seat_names(players: int) -> tuple[str, ...]:
    """ "You" and the opponents' places at the table, clockwise from your left.

    >>> seat_names(4)
    ('You', 'West', 'North', 'East')
    >>> seat_names(10)[-1]
    'Player 10'
    """
    if players in _SEATS:
        return ("You", *_SEATS[players])
    return ("You", *(f"Player {s + 1}" for s in range(1, players)))


def label(card: Card | None) -> str:
    """A card as players write it: ``9♠``, ``10♥``, ``joker``; ``—`` for none.

    >>> label(parse_card("TH")), label(parse_card("JK")), label(None)
    ('10♥︎', 'joker', '—')
    """
    if card is None:
        return "—"
    if card.token == "JK":
        return "joker"
    return short_label(card)


# Verbs an engine sentence puts after a seat, said again after "you" ("you go", not "you goes").
_VERBS = "deals|goes|takes|draws|discards|lays|has|does|holds|is|was|wins|scores|plays"


def plain_words(text: str, names: Sequence[str]) -> str:
    """An engine sentence in players' words: seat numbers become ``names``, card codes
    become ``9♠``, meld numbers count from 1.

    >>> names = ("You", "The bot")
    >>> plain_words("Seat 0 takes 9S from the discard pile. It is seat 1's turn.", names)
    "You take 9♠︎ from the discard pile. It is the bot's turn."
    >>> plain_words("It is seat 0's turn, not seat 1's.", seat_names(2))
    "It is your turn, not North's."
    >>> plain_words("Seats 0, 1, 2 share the win; seats 1 and 2 pay.", seat_names(3))
    'You, West and East share the win; West and East pay.'
    >>> plain_words("Seat 0 lays down both RUMMY cards and wins. Seat 1 draws and wins.", names)
    'You lay down both RUMMY cards and win. The bot draws and wins.'
    """

    def name(word: str, number: int) -> str:
        called = names[number] if number < len(names) else f"{word} {number}"
        # "You" and "The bot" are common words: lower case inside a sentence.
        common = called == "You" or called.startswith("The ")
        return called[0].lower() + called[1:] if word[0].islower() and common else called

    def seat(match: re.Match[str]) -> str:
        return name(match.group(1), int(match.group(2)))

    def several(match: re.Match[str]) -> str:
        # "seats 0, 1 and 2" -> "you, West and East", each named as "seat N" would be.
        named = [name(match.group(1), int(n)) for n in re.findall(r"\d+", match.group(2))]
        return joined(named)

    text = re.sub(r"\b([Ss]eats|[Pp]layers) (\d+(?:(?:, | and |, and )\d+)+)\b", several, text)
    text = re.sub(r"\b([Ss]eat|[Pp]layer) (\d+)\b", seat, text)
    text = re.sub(r"\b(you|You)'s\b", lambda m: "your" if m.group(1) == "you" else "Your", text)
    text = re.sub(rf"\b(you|You) ({_VERBS})\b",
                  lambda m: f"{m.group(1)} {_plain_verb(m.group(2))}", text)  # fmt: skip
    # A second verb of the same sentence: "you lay down both RUMMY cards and win".
    text = re.sub(rf"\b([Yy]ou [^.;:(]*? and) ({_VERBS})\b",
                  lambda m: f"{m.group(1)} {_plain_verb(m.group(2))}", text)  # fmt: skip
    text = re.sub(r"\bmeld (\d+)\b", lambda m: f"meld {int(m.group(1)) + 1}", text)
    return re.sub(
        r"\b(JK|RUMMY|WILD|GROUP|SEQ|NOMELD|NOGO|[2-9TJQKA][SHDC])\b",
        lambda m: label(parse_card(m.group(1))) if m.group(1) != "JK" else "joker",
        text,
    )


def _plain_verb(verb: str) -> str:
    return {
        "goes": "go",
        "has": "have",
        "does": "do",
        "is": "are",
        "was": "were",
        "cannot": "cannot",
    }.get(verb, verb[:-1])


__all__ = [
    "RANK_LABELS",
    "SUIT_MARKS",
    "TEXT_STYLE",
    "amount",
    "counts_cards",
    "deadwood_unit",
    "joined",
    "label",
    "plain_words",
    "rank_label",
    "rank_plural",
    "seat_names",
    "short_label",
    "short_labels",
    "wild_cards",
    "wild_kinds",
    "wild_phrase",
]
