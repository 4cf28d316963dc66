"""Rule sets as data.

Every rule of RULES.md that differs between the games lives in a field of :class:`Ruleset`;
the engine reads the fields and never asks which preset it was given.  A custom rule set is
a preset with fields replaced:

>>> import dataclasses
>>> from payme.cards import parse_card
>>> r = rules("denexa")
>>> r.packs_for(5), r.round_wild_rank(11), r.card_points(parse_card("2C"), dealt=7)
(3, 11, 15)
>>> tight = dataclasses.replace(r, name="denexa-no-twos", wild_ranks=())
>>> tight.is_wild(parse_card("2C"), dealt=7)
False

A preset prints as the call that gives it; a custom rule set says what it changed:

>>> r, tight
(rules('denexa'), <Ruleset 'denexa-no-twos': rules('denexa') with wild_ranks=()>)
>>> rules("nope")
Traceback (most recent call last):
...
ValueError: unknown rule set 'nope': the presets are denexa, classic, family, three_pack
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field, fields
from typing import Final, Literal

from payme.cards import (
    JOKER_INDEX,
    N_CARDS,
    N_REGULAR,
    RANKS,
    SPECIAL_NAMES,
    Card,
    parse_card,
    pretty_as_repr,
)
from payme.deprecation import deprecated

GameKind = Literal["pay_me", "rummy_3_pack"]
AceRule = Literal["low", "low_or_high"]
GoingOut = Literal["discard_optional", "discard_required", "one_unmelded"]
DrawSource = Literal["stock", "discard"]
WildScope = Literal["any", "set", "run"]
StockOut = Literal["rebuild", "end"]


@dataclass(frozen=True)
class Money:
    """Stakes of a game played for money (``family``), in cents."""

    ante: int = 50
    """Each player pays this into the pot before the game."""
    per_hand: int = 10
    """Each hand's declarer collects this from every other player."""


@dataclass(frozen=True)
class Ruleset:
    """Every rule that differs between the rule sets, as immutable data.

    Field groups follow RULES.md's tables: players and packs, deal, wild cards, melds and
    their wild limits, going out, the final turns, lay-offs, penalty points and money, and
    Rummy 3-Pack's special cards and variations.
    """

    name: str
    title: str
    game: GameKind
    source: str
    """The seed text(s) this rule set was read from."""

    # --- players and packs -------------------------------------------------------------
    min_players: int
    max_players: int
    packs: tuple[tuple[int, int], ...]
    """``(most players, packs)`` steps in increasing order: ``((2, 1), (4, 2), (8, 3))``
    means 1 pack for 2 players, 2 for 3–4, 3 for 5–8."""
    jokers_per_pack: int
    special_cards: tuple[tuple[str, int], ...] = ()
    """Special cards every game's pack holds, as ``(token, copies)``."""
    optional_cards: tuple[tuple[str, int], ...] = ()
    """Special cards the players may add before a game, as ``(token, most copies)``."""

    # --- the deal --------------------------------------------------------------------
    hands: int = 11
    """Hands in a game (Pay Me 11; Rummy 3-Pack's one deal is one game)."""
    first_dealt: int = 3
    """Cards dealt in hand 1; hand *h* deals ``first_dealt + h - 1``."""
    min_dealt: int = 3
    max_dealt: int = 13
    """The range of cards dealt (``dealt``) the functions accept."""
    upcard: bool = True
    """Whether the top stock card is turned up after the deal to start the discard pile."""
    stock_counted: bool = True
    """Whether players may count the stock; ``False``: they may only look and estimate
    (Rummy 3-Pack), so a table shows an estimate, never the exact number."""

    # --- wild cards ------------------------------------------------------------------
    jokers_wild: bool = True
    wild_ranks: tuple[int, ...] = ()
    """Ranks wild in every hand, low to high: ``(2,)`` makes every 2 wild (Denexa); a
    house rule "threes are wild too" is ``(2, 3)``."""
    round_rank_wild: bool = True
    """The rank whose number equals the cards dealt is wild this hand."""
    special_wilds: tuple[tuple[str, WildScope], ...] = ()
    """Special cards that are wild, and in which melds: ``(("WILD", "any"), ("GROUP", "set"))``."""

    # --- melds -----------------------------------------------------------------------
    set_min: int = 3
    set_max: int | None = None
    set_distinct_suits: bool = False
    run_min: int = 3
    meld_words: tuple[str, str] = ("set", "run")
    """What the players call a set and a run (Rummy 3-Pack: a group and a sequence)."""
    ace: AceRule = "low"
    """``low``: A-2-3 only.  ``low_or_high``: A-2-3 or Q-K-A, never K-A-2."""
    wild_at_most_half: bool = False
    """At most half of a meld's cards may be wild (cards standing for something else)."""
    no_adjacent_wilds_in_run: bool = False
    single_card_melds: tuple[str, ...] = ()
    """Special cards that count as a meld on their own (Rummy 3-Pack's RUMMY)."""
    never_melded: tuple[str, ...] = ()
    """Special cards that can never be part of a meld."""

    # --- going out and the end of a hand ---------------------------------------------
    going_out: GoingOut = "discard_optional"
    go_out_call: str = "Pay me!"
    """What a player calls out on going out (Pay Me: "Pay me!"); ``""``: nothing is called."""
    never_discarded: tuple[str, ...] = ()
    """Special cards a player may never discard."""
    never_left_over: tuple[str, ...] = ()
    """Special cards that may not be the one unmelded card when going out."""
    final_turn_draw: tuple[DrawSource, ...] = ("stock",)
    """Where players draw in the final turns after someone goes out; empty: no final turns."""
    lay_off: bool = True
    stock_out: StockOut = "rebuild"
    """``rebuild``: the discard pile but its top card becomes the stock.  ``end``: the game
    ends, but the next player (holding no instant-win card) may try to go out by drawing."""
    instant_win_pair: str | None = None
    """Laying down every copy of this special card in one turn wins at once (RUMMY)."""
    holder_wins: str | None = None
    """Anyone holding this special card at the end is a winner (RUMMY)."""
    max_winners: int | None = None

    # --- penalty points --------------------------------------------------------------
    rank_points: tuple[int, ...] = (5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10)
    """Penalty points of a regular card in deadwood, ace to king."""
    joker_points: int = 15
    wild_points: int | None = None
    """Penalty points of any wild card left in deadwood; ``None``: a wild card of a rank
    scores by its rank."""
    special_points: int = 1
    """Points (unmelded count) of a special card left over."""
    money: Money | None = None

    # --- Rummy 3-Pack: choices and variations ----------------------------------------
    game_points_to_win: int | None = None
    """A match ends when a player has this many game points."""
    variation_go_out: bool = False
    variation_three_card_draw: bool = False
    variation_spread_discard_pile: bool = False
    variation_seating: bool = False
    variation_seven_pile_shuffle: bool = False

    notes: tuple[str, ...] = field(default=(), compare=False)
    """Readings chosen where the source is silent, in plain words (for the docs and UI)."""

    twos_wild: InitVar[bool | None] = None
    """Deprecated (see :data:`~payme.deprecation.REMOVAL`): ``twos_wild=True`` adds 2 to
    :attr:`wild_ranks`, ``False`` takes it out; reading ``rules.twos_wild`` says whether 2 is
    in it.  Not a field: a rule set holds only :attr:`wild_ranks`."""

    def __post_init__(self, twos_wild: bool | None) -> None:
        if twos_wild is not None:
            deprecated(
                "Ruleset(twos_wild=...)", "give wild_ranks, e.g. wild_ranks=(2,)", stacklevel=3
            )
            ranks = set(self.wild_ranks) - {2} | ({2} if twos_wild else set())
            object.__setattr__(self, "wild_ranks", tuple(sorted(ranks)))
        # Every field's type and range, checked in one place (payme.ruleset_checks).
        from payme.ruleset_checks import problems

        found = problems(self)
        if found:
            raise ValueError(f"invalid rule set {self.name!r}: " + "; ".join(found))

    _repr_pretty_ = pretty_as_repr

    def __repr__(self) -> str:
        # The full field list (over 1,000 characters) would swamp every value that holds a
        # rule set (lay-offs, puzzles, chances), so a preset is named and a custom one is
        # shown as the preset it differs least from plus its changed rules.
        preset = PRESETS.get(self.name)
        if preset is not None and (preset is self or _rule_changes(preset, self) == []):
            return f"rules({self.name!r})"
        base = min(PRESETS.values(), key=lambda p: len(_rule_changes(p, self)))
        changes = _rule_changes(base, self)
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in changes[:_REPR_CHANGES])
        if len(changes) > _REPR_CHANGES:
            shown += f" and {len(changes) - _REPR_CHANGES} more"
        return f"<Ruleset {self.name!r}: rules({base.name!r}) with {shown or 'no rule changed'}>"

    # --- derived facts: each a one-line reading of the fields above --------------------

    def packs_for(self, players: int | None = None) -> int:
        """Packs used with ``players`` players (``None``: the largest pack)."""
        if players is None:
            return self.packs[-1][1]
        self.check_players(players)
        return next(n for most, n in self.packs if players <= most)

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {players!r}"
            )

    def check_dealt(self, dealt: int | None) -> int:
        """``dealt`` checked against the rule set's range (a ``ValueError`` saying the range)."""
        if dealt is None or isinstance(dealt, bool) or not isinstance(dealt, int):
            raise ValueError(
                f"dealt (the cards dealt this hand) must be a whole number from "
                f"{self.min_dealt} to {self.max_dealt} for {self.name}, not {dealt!r}"
            )
        if not self.min_dealt <= dealt <= self.max_dealt:
            raise ValueError(
                f"dealt must be from {self.min_dealt} to {self.max_dealt} for {self.name}, "
                f"not {dealt}"
            )
        return dealt

    def dealt_in_hand(self, hand: int) -> int:
        """Cards dealt in hand number ``hand`` (1-based)."""
        if not 1 <= hand <= self.hands:
            raise ValueError(f"{self.name} has hands 1 to {self.hands}, not {hand!r}")
        return self.first_dealt + hand - 1

    @property
    def dealt_matters(self) -> bool:
        """Whether a hand is judged by the cards dealt this round: the round's rank is wild,
        or the cards dealt grow hand by hand (Pay Me), so a hand's size follows ``dealt``.

        >>> rules("classic").dealt_matters, rules("three_pack").dealt_matters
        (True, False)
        """
        return self.round_rank_wild or self.hands > 1

    @property
    def leaves_one_over(self) -> bool:
        """Whether going out leaves one card unmelded in the hand (Rummy 3-Pack) rather than
        discarding it (Pay Me)."""
        return self.going_out == "one_unmelded"

    def round_wild_rank(self, dealt: int) -> int | None:
        """The rank number that is wild when ``dealt`` cards are dealt (``None`` if none)."""
        return dealt if self.round_rank_wild and 1 <= dealt <= 13 else None

    def wild_scope(self, card: Card, dealt: int | None) -> WildScope | None:
        """In which melds ``card`` may act as a wild card this hand; ``None``: never."""
        rank = card.rank
        if rank is not None:
            if rank in self.wild_ranks or (
                dealt is not None and rank == self.round_wild_rank(dealt)
            ):
                return "any"
            return None
        if card.index == JOKER_INDEX:
            return "any" if self.jokers_wild else None
        return dict(self.special_wilds).get(card.token)

    def is_wild(self, card: Card, dealt: int | None) -> bool:
        """Whether ``card`` is wild this hand (``dealt=None``: in every hand, whatever the
        round's rank)."""
        return self.wild_scope(card, dealt) is not None

    def card_points(self, card: Card, dealt: int | None) -> int:
        """Penalty points of ``card`` left in deadwood (an unmelded count in Rummy 3-Pack)."""
        rank = card.rank
        if rank is None:
            return self.joker_points if card.index == JOKER_INDEX else self.special_points
        if self.wild_points is not None and self.is_wild(card, dealt):
            return self.wild_points
        return self.rank_points[rank - 1]

    def pack_counts(
        self, players: int | None = None, optional: dict[str, int] | None = None
    ) -> tuple[int, ...]:
        """Copies of each kind of card (indexed by ``Card.index``) in the game's pack.

        ``players=None`` gives the largest pack; ``optional`` gives the chosen optional
        special cards (``None``: the most of each that the rules allow).
        """
        n = self.packs_for(players)
        counts = [0] * N_CARDS
        for i in range(N_REGULAR):
            counts[i] = n
        counts[JOKER_INDEX] = n * self.jokers_per_pack
        for token, copies in self.special_cards:
            counts[53 + SPECIAL_NAMES.index(token)] += copies
        allowed = dict(self.optional_cards)
        chosen = allowed if optional is None else optional
        for token, copies in chosen.items():
            most = allowed.get(token)
            if most is None:
                raise ValueError(f"{self.name} has no optional {token!r} cards")
            if not 0 <= copies <= most:
                raise ValueError(f"{self.name} allows 0 to {most} optional {token}, not {copies}")
            counts[53 + SPECIAL_NAMES.index(token)] += copies
        return tuple(counts)


_PAY_ME_NOTES = (
    "When the stock runs out, the discard pile except its top card is shuffled into a new "
    "stock; if no card can be drawn at all, the hand ends with no declarer.",
)


def _twos_wild(self: Ruleset) -> bool:
    deprecated("Ruleset.twos_wild", "read wild_ranks (2 in rules.wild_ranks)")
    return 2 in self.wild_ranks


# twos_wild is an init-only argument, deprecated: no field of the rule set (so fields(),
# dataclasses.replace and the checks never see it), and a read-only property.  (Not a
# __getattr__: a class with one pays for it on every attribute read, and the solver reads
# rule sets often.)
del Ruleset.__dataclass_fields__["twos_wild"]
Ruleset.twos_wild = property(_twos_wild, doc="Deprecated: ``2 in rules.wild_ranks``.")  # type: ignore[attr-defined]

DENEXA: Final = Ruleset(
    name="denexa",
    title="Pay Me (Denexa rules)",
    game="pay_me",
    source="payme-denexa.txt",
    min_players=2,
    max_players=8,
    packs=((2, 1), (4, 2), (8, 3)),
    jokers_per_pack=2,
    wild_ranks=(2,),
    set_max=4,
    set_distinct_suits=True,
    wild_at_most_half=True,
    no_adjacent_wilds_in_run=True,
    going_out="discard_optional",
    final_turn_draw=("stock",),
    lay_off=True,
    rank_points=(5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10),
    joker_points=15,
    wild_points=15,
    notes=(*_PAY_ME_NOTES, "Aces are low: K is the highest rank and runs never wrap."),
)

CLASSIC: Final = Ruleset(
    name="classic",
    title="Pay Me (classic rules)",
    game="pay_me",
    source="payme-french.txt, payme-norwegian.txt",
    min_players=2,
    max_players=6,
    packs=((4, 1), (6, 2)),
    jokers_per_pack=2,
    going_out="discard_optional",
    final_turn_draw=("stock",),
    lay_off=False,
    rank_points=(5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10),
    joker_points=15,
    notes=(
        *_PAY_ME_NOTES,
        "Aces are low and runs never wrap.",
        "A joker left in deadwood scores 15.",
    ),
)

FAMILY: Final = Ruleset(
    name="family",
    title="Pay Me (family rules, played for money)",
    game="pay_me",
    source="payme-family.txt",
    min_players=2,
    max_players=8,
    packs=((3, 1), (8, 2)),
    jokers_per_pack=2,
    going_out="discard_required",
    final_turn_draw=("stock", "discard"),
    lay_off=True,
    rank_points=(15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),
    joker_points=25,
    money=Money(ante=50, per_hand=10),
    notes=(
        *_PAY_ME_NOTES,
        "Jokers are wild.",
        "Aces are low and runs never wrap.",
        "The pot goes to the game's winner; tied winners split it.",
    ),
)

THREE_PACK: Final = Ruleset(
    name="three_pack",
    title="Rummy 3-Pack",
    game="rummy_3_pack",
    source="rummy-3-pack.txt",
    min_players=2,
    max_players=10,
    packs=((10, 3),),
    jokers_per_pack=0,
    special_cards=(("RUMMY", 2), ("WILD", 1), ("GROUP", 1), ("SEQ", 1)),
    optional_cards=(("NOMELD", 3), ("NOGO", 3), ("WILD", 6)),
    hands=1,
    first_dealt=7,
    min_dealt=2,
    max_dealt=10,
    upcard=False,
    stock_counted=False,
    jokers_wild=False,
    round_rank_wild=False,
    special_wilds=(("WILD", "any"), ("GROUP", "set"), ("SEQ", "run")),
    meld_words=("group", "sequence"),
    ace="low_or_high",
    single_card_melds=("RUMMY",),
    never_melded=("NOMELD", "NOGO"),
    going_out="one_unmelded",
    go_out_call="",
    never_discarded=("NOMELD", "NOGO"),
    never_left_over=("NOGO",),
    final_turn_draw=(),
    lay_off=False,
    stock_out="end",
    instant_win_pair="RUMMY",
    holder_wins="RUMMY",
    max_winners=3,
    rank_points=(1,) * 13,
    joker_points=1,
    special_points=1,
    game_points_to_win=2,
    notes=(
        "Hand evaluation counts unmelded cards, one point each.",
        "A sequence has at most 13 cards: the ace is low or high, never both.",
    ),
)

PRESETS: Final[dict[str, Ruleset]] = {r.name: r for r in (DENEXA, CLASSIC, FAMILY, THREE_PACK)}

_DESCRIPTIONS: Final = frozenset({"name", "title", "source", "notes"})
"""Fields that describe a rule set rather than change a rule (left out of its repr)."""
_REPR_CHANGES: Final = 4
"""Changed rules a custom rule set's repr lists before it just counts the rest."""


def _rule_changes(base: Ruleset, other: Ruleset) -> list[str]:
    """The names of the rule fields whose values differ between two rule sets."""
    return [
        f.name
        for f in fields(Ruleset)
        if f.name not in _DESCRIPTIONS and getattr(base, f.name) != getattr(other, f.name)
    ]


DEFAULT: Final = "denexa"

RulesLike = Ruleset | str
"""What the public functions accept as a rule set: a :class:`Ruleset`, or a preset's name."""


def rules(name: RulesLike = DEFAULT) -> Ruleset:
    """A preset rule set by name (``denexa``, ``classic``, ``family``, ``three_pack``).

    A :class:`Ruleset` passes through unchanged, so every function can take either.
    """
    if isinstance(name, Ruleset):
        return name
    if isinstance(name, str):
        preset = PRESETS.get(name.strip().lower())
        if preset is not None:
            return preset
    raise ValueError(f"unknown rule set {name!r}: the presets are {', '.join(PRESETS)}")


def rank_token(rank: int) -> str:
    """The rank letter of a rank number (``10`` → ``"T"``)."""
    return RANKS[rank - 1]


__all__ = [
    "CLASSIC",
    "DEFAULT",
    "DENEXA",
    "FAMILY",
    "PRESETS",
    "THREE_PACK",
    "Money",
    "RulesLike",
    "Ruleset",
    "parse_card",
    "rank_token",
    "rules",
]
