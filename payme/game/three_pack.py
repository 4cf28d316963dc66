"""Rummy 3-Pack: one deal is one game, with up to three winners; matches to 2 game points.

A :class:`ThreePackGame` holds one game from the choice of the first dealer to its winners.
Every rule is read from the :class:`~payme.rulesets.Ruleset` fields (the special cards, what
may never be discarded or left over, what happens when the stock runs out, the instant-win
pair, the holder's win, the variations), so a custom rule set plays by its own data.

>>> g = new_three_pack_game(players=3, seed=4, dealt=7)
>>> g.phase, g.to_move == g.first, len(g.view(g.first).hand)
('draw', True, 7)
>>> g.can(Discard(g.first, g.view(g.first).hand[0])).rule
'a turn: draw, then go out or discard'
>>> g.apply(Draw(g.first, "stock")).event.startswith(f"Seat {g.first} draws from the stock")
True

Readings where the source leaves a choice (RULES.md gives the rules; these are the engine's):

* **Going out needs no discard.**  A player goes out by melding every card but at most one.
  ``GoOut(seat, discard=card)`` names that one card: it goes face up onto the discard pile,
  except a card that may never be discarded (NOMELD), which stays in the hand, face up.
  ``GoOut(seat, discard=None)`` melds every card.  NOGO may never be the card left over.
* **The last stock card.**  When the player who drew it does not go out, the game ends after
  their discard, unless the next player still in the game holds no RUMMY card and some
  draw from the discard pile (the stock is empty: the top discard, or with the Spread-Out
  variation any discard with the cards above it) lets them go out.  Then that player gets a
  turn that may only be such a draw followed by going out (or dropping out).
* **Dropping out** is allowed at any time, for any player still in (``DropOut``); the cards
  leave play face down.  A player who drops during their own turn ends that turn without
  going out.  When fewer than two players remain, the game ends at once; the one left wins
  only as any player would (holding a RUMMY card) — being left alone is no win.
* **The first dealer**: seat 0 deals the face-up cards, starting with seat 1.  Only ties that
  decide something get more cards (the highest card; with Seating, every place in the order).
* **Seating** (variation): seats are numbered after the players have chosen them; the player
  with the lowest card sits in seat 0 (left of the dealer, who sits in the last seat), and each
  next-lowest player picks a free seat at random (the rng stands in for their choice).
  :attr:`ThreePackGame.seating` says which player (by their place at the face-up deal) sits
  in each seat.
* **A tie game** is one nobody won: the table may agree to one at any time
  (:meth:`ThreePackGame.agree_tie`, which ends the game with no winner), or the game ends
  with no one out and no RUMMY card held.  After a tie game a match keeps its first player.
* **Three-Card Draw** and **Spread-Out Discard Pile** both give ``Draw(..., take=2)`` a meaning,
  so a game may use one of them, not both.  Both let a hand grow; the engine (not the rules)
  refuses a draw that would make a hand larger than ``payme.pack.MAX_HAND`` (30) cards, the
  most the solver takes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import cast

from payme.cards import CARDS, N_REGULAR, SUITS, Card, format_hand, parse_card
from payme.codes import CARD_OF, stands_code
from payme.game import position
from payme.game.actions import (
    Action,
    Discard,
    Draw,
    DropOut,
    GoOut,
    IllegalAction,
    LayDownRummy,
    LayOff,
    Record,
    Verdict,
    check_form,
)
from payme.game.arrangement import declared_verdict
from payme.game.base import Game, GameOption, ResultRow
from payme.game.view import PublicEvent, ThreePackView
from payme.melds import Meld
from payme.memo import RecentMemo
from payme.pack import MAX_HAND, Pack
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules
from payme.words import counts_cards

RULE_TURN = "a turn: draw, then go out or discard"
RULE_DRAW = "draw the top of the stock or the top discard"
RULE_NEVER_DISCARD = "NOMELD and NOGO are never discarded"
RULE_GO_OUT = "go out: meld every card but at most one, never NOGO"
RULE_RUMMY = "lay down both RUMMY cards during your turn to win"
RULE_STOCK_OUT = "stock exhausted: only the next player may try to go out"
RULE_DROP = "a player may drop out at any time"
RULE_OVER = "the game is over"

# Face-up deal for the first dealer: K high ... A low, ties by suit spades > clubs >
# diamonds > hearts.
_SUIT_ORDER = {"S": 4, "C": 3, "D": 2, "H": 1}


def deal_order_key(card: Card) -> tuple[int, int]:
    """How a regular card ranks in the face-up deal for the first dealer (higher deals).

    >>> deal_order_key(parse_card("KH")) > deal_order_key(parse_card("QS"))
    True
    >>> deal_order_key(parse_card("7S")) > deal_order_key(parse_card("7C"))
    True
    >>> deal_order_key(parse_card("2H")) > deal_order_key(parse_card("AS"))
    True
    """
    rank, suit = card.rank, card.suit
    if rank is None or suit is None:
        raise ValueError(f"{card} is not a regular card")
    return rank, _SUIT_ORDER[suit]


def seven_pile_shuffle(cards: Sequence[Card]) -> list[Card]:
    """The 7-pile shuffle: deal the cards one at a time into seven piles, then stack them.

    Cards are listed bottom to top (the top card is last).  The card dealt first goes to
    pile 1, the next to pile 2, …; pile 1 is stacked on top, pile 7 at the bottom.

    >>> from payme.cards import parse_hand
    >>> format_hand(seven_pile_shuffle(parse_hand("AS 2S 3S 4S 5S 6S 7S 8S 9S")))
    '3S 4S 5S 6S 7S 8S AS 9S 2S'
    """
    piles: list[list[Card]] = [[] for _ in range(7)]
    for i, card in enumerate(reversed(cards)):  # from the top down
        piles[i % 7].append(card)
    stacked: list[Card] = []
    for pile in reversed(piles):  # pile 7 first, so pile 1 ends on top
        stacked.extend(pile)
    return stacked


_CACHE_SIZE = 1 << 15
_caches: dict[int, tuple[Ruleset, RecentMemo[bytes | int]]] = {}
_OUT = b"\xfe"
_COUNT = b"\xfd"
"""The first byte of a memo's key, saying which question it answers (no card has these
indices); the rest is the hand's sorted card indices."""


def _cache(rules: Ruleset) -> RecentMemo[bytes | int]:
    """Solver answers for one rule set, keyed by a hand's sorted card indices.

    Keyed by the rule set's identity (kept alive in the entry) because hashing a whole
    Ruleset, or a tuple of cards, on every question costs more than many answers.  A
    game asks some 3,000-4,000 questions, and many again in its later turns: the
    :class:`~payme.memo.RecentMemo` keeps the last 32,768-65,536 answers.  (A dict bounded
    at 200,000 answers spent 15-40 ms making its table anew now and then, inside a
    decision.)
    """
    entry = _caches.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _caches[id(rules)] = (rules, RecentMemo(_CACHE_SIZE))
    return entry[1]


def _key(hand: Iterable[Card]) -> bytes:
    return bytes(sorted(c.index for c in hand))


def _recall(
    rules: Ruleset, question: bytes, cards: tuple[Card, ...]
) -> tuple[RecentMemo[bytes | int], bytes, bytes | int | None]:
    """The answers for ``rules``, the key of ``question`` (``_OUT``...) about ``cards``, and
    the answer kept for it (``None``: not asked lately)."""
    cache = _cache(rules)
    key = question + _key(cards)
    return cache, key, cache.get(key)


def _run_gap(rules: Ruleset, a: int, b: int) -> int:
    """How many places apart ranks ``a`` and ``b`` can sit in one sequence."""
    gap = abs(a - b)
    if rules.ace == "low_or_high" and 1 in (a, b):
        gap = min(gap, abs(14 - max(a, b)))
    return gap


class _Lonely:
    """What :func:`_hopeless` and :func:`lonely_cards` read of a rule set, worked out once:
    for each card index its wild scope and its kind (``_WILD``, ``_SINGLE``: a one-card
    meld, ``_STUCK``, ``_BARRED``: stuck and never left over, else its rank), its suit's
    place, and for each rank and reach the ranks of its suit close enough to share a
    sequence with it."""

    __slots__ = ("kind", "near", "need", "rules", "scope", "suit")

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.need = min(rules.set_min, rules.run_min) - 1
        self.kind: list[int] = []
        self.suit: list[int] = []
        self.scope = [rules.wild_scope(card, None) for card in CARDS]
        for card in CARDS:
            if self.scope[card.index] is not None:
                kind = _WILD
            elif card.rank is None or card.suit is None:
                if card.token in rules.single_card_melds:
                    kind = _SINGLE
                else:
                    kind = _BARRED if card.token in rules.never_left_over else _STUCK
            else:
                kind = card.rank
            self.kind.append(kind)
            self.suit.append(SUITS.index(card.suit) if card.suit is not None else 0)
        # near[rank][reach]: a bit for every other rank within ``reach`` places of ``rank``.
        self.near = [
            [
                sum(1 << r for r in range(1, 14) if r != k and _run_gap(rules, k, r) <= reach)
                for reach in range(15)
            ]
            for k in range(14)
        ]


_WILD, _SINGLE, _STUCK, _BARRED = -1, -2, -3, -4
_LONELY: dict[int, _Lonely] = {}


def _hopeless(rules: Ruleset, hand: Sequence[Card]) -> bool:
    """A quick proof that ``hand`` cannot go out: two cards no meld could hold.

    A card that may never be melded is stuck.  A regular card is *lonely* when no other
    regular card of the hand could share a meld with it: none of its rank, and none of its
    suit close enough for the hand's ``w`` wild cards to fill the gap (at most ``w + 1``
    places apart; the ace sits beside the king too when it may be high).  A lonely card can
    be melded only with wild cards (two of them in a three-card meld), and two lonely cards
    never share a meld, so at most ``w // 2`` of them are melded; the rest are stuck.  Two
    stuck cards, or a stuck card that may not be left over, and the hand cannot go out.
    One-card melds (RUMMY) are never stuck.  The solver need not be asked.

    It runs on every go-out question of the Rummy 3-Pack bots, so what it reads of the rule
    set is worked out once (:class:`_Lonely`) and the ranks of each suit are bit masks.
    """
    table = _lonely_table(rules)
    need = table.need
    if need < 1:
        return False
    kinds, suits = table.kind, table.suit
    wilds = stuck = 0
    barred = False
    copies = [0] * 14
    held = [0, 0, 0, 0]
    for c in hand:
        kind = kinds[c.index]
        if kind > 0:
            copies[kind] += 1
            held[suits[c.index]] |= 1 << kind
        elif kind == _WILD:
            wilds += 1
        elif kind != _SINGLE:
            stuck += 1
            barred = barred or kind == _BARRED
    near = table.near
    reach = min(wilds + 1, 14)
    lonely = 0
    for mask in held:
        for rank in range(1, 14):
            if mask >> rank & 1 and copies[rank] == 1 and not mask & near[rank][reach]:
                lonely += 1
    stuck += max(0, lonely - wilds // need)
    return stuck > 1 or (barred and stuck > 0)


def _lonely_table(rules: Ruleset) -> _Lonely:
    table = _LONELY.get(id(rules))
    if table is None or table.rules is not rules:
        table = _LONELY[id(rules)] = _Lonely(rules)
    return table


def lonely_cards(rules: Ruleset, hand: Sequence[Card]) -> int:
    """The natural cards that could join no meld with ``hand``, as a mask of card indices
    (bit ``card.index``): added to the hand, such a card is left over whatever the layout,
    so the hand's fewest unmelded cards grow by exactly one.

    A card is lonely when the hand has no natural card of its rank, none of its suit close
    enough for the wild cards that may sit in a run (WILD, SEQ) to fill the gap, and too
    few wild cards to make a set (WILD, GROUP) or a run with it alone.

    >>> from payme.cards import parse_card, parse_hand
    >>> mask = lonely_cards(get_rules("three_pack"), parse_hand("5H 6H 9C 9S KD GROUP"))
    >>> [mask >> parse_card(t).index & 1 for t in ("2S", "7H", "9D", "QD", "JD")]
    [1, 0, 0, 0, 1]
    """
    table = _lonely_table(rules)
    if table.need < 1:
        return 0
    kinds, suits, near, scopes = table.kind, table.suit, table.near, table.scope
    in_sets = in_runs = ranks = 0
    held = [0, 0, 0, 0]
    for c in hand:
        i = c.index
        kind = kinds[i]
        if kind == _WILD:
            scope = scopes[i]
            in_sets += scope != "run"
            in_runs += scope != "set"
            if i < N_REGULAR:
                kind = i % 13 + 1  # a wild card of a rank may play as itself too
        if kind > 0:
            held[suits[i]] |= 1 << kind
            ranks |= 1 << kind
    if in_sets >= rules.set_min - 1 or in_runs >= rules.run_min - 1:
        return 0  # wild cards alone could meld any card
    reach = min(in_runs + 1, 14)
    mask = 0
    for i in range(N_REGULAR):
        kind = kinds[i]
        if kind > 0 and not ranks >> kind & 1 and not held[suits[i]] & near[kind][reach]:
            mask |= 1 << i
    return mask


def go_out_options(rules: Ruleset, hand: Iterable[Card]) -> tuple[Card | None, ...]:
    """Each card that may be left over when ``hand`` goes out (``None``: no card left).

    The solver's ``can_go_out`` answer, less any card the rules forbid leaving over.

    >>> from payme.cards import parse_hand
    >>> go_out_options(get_rules("three_pack"), parse_hand("5H 6H 7H 9C 9S 9D 2C"))
    (Card('2C'),)
    >>> go_out_options(get_rules("three_pack"), parse_hand("5H 6H 7H 9C 9S 9D NOGO"))
    ()
    """
    cards = tuple(hand)
    cache, key, known = _recall(rules, _OUT, cards)
    if isinstance(known, bytes):
        return tuple([CARD_OF[i] for i in known])
    # Where every card counts 1, one evaluation (the fewest unmelded cards) settles most
    # go-out questions: the solver's can_go_out tries each leftover card in turn.
    found: tuple[Card | None, ...] = ()
    if not (_hopeless(rules, cards) or (counts_cards(rules) and unmelded_count(rules, cards) > 1)):
        from payme.solver import can_go_out

        result = can_go_out(cards, rules)
        never = set(rules.never_left_over)
        found = tuple(d for d in result.discards if d is None or d.token not in never)
    cache.put(key, stands_code(found))
    return found


def unmelded_count(rules: Ruleset, hand: Iterable[Card]) -> int:
    """The fewest cards of ``hand`` left out of melds (RUMMY melds alone; NOMELD/NOGO never).

    >>> from payme.cards import parse_hand
    >>> unmelded_count(get_rules("three_pack"), parse_hand("5H 6H WILD RUMMY NOMELD 2C"))
    2
    """
    cards = tuple(hand)
    cache, key, known = _recall(rules, _COUNT, cards)
    if isinstance(known, int):
        return known
    from payme.solver import evaluate

    count = int(evaluate(cards, rules).deadwood_points)
    cache.put(key, count)
    return count


def _melds_of(rules: Ruleset, hand: Sequence[Card]) -> tuple[Meld, ...]:
    from payme.solver import evaluate

    return tuple(evaluate(tuple(hand), rules).melds)


class ThreePackGame(Game):
    """One game of Rummy 3-Pack (see the module docstring for the readings), dealt and ready
    for the first draw.

    Seats are 0-based and play goes clockwise (seat ``s`` is followed by ``s + 1``).
    ``optional`` chooses the optional cards, e.g. ``{"NOGO": 1, "WILD": 2}``; ``first`` (used
    by matches) skips the face-up deal and names the seat that draws first.

    >>> g = ThreePackGame(players=2, seed=1, dealt=5, optional={"NOMELD": 1})
    >>> len(g.pack), len(g.stock)
    (162, 152)
    >>> ThreePackGame(players=11)
    Traceback (most recent call last):
    ...
    ValueError: three_pack is for 2-10 players, not 11
    """

    GAME = "rummy_3_pack"
    GAME_NAME = "Rummy 3-Pack"
    BOT_MODULE = "payme.game.three_pack_bots"
    SCORE_UNIT = "unmelded cards"
    RESULT_COLUMNS = (
        ("game", "int64"),
        ("seat", "int8"),
        ("bot", "category"),
        ("winner", "bool"),
        ("how", "category"),
        ("turns", "int32"),
        ("dropped", "bool"),
    )

    def __init__(
        self,
        rules: RulesLike = "three_pack",
        players: int = 4,
        seed: int = 0,
        *,
        dealt: int = 7,
        optional: Mapping[str, int] | None = None,
        first: int | None = None,
        turn_limit: int | None = None,
    ) -> None:
        r = self._begin(rules, players, seed, turn_limit)
        self._dealt: int = r.check_dealt(dealt)
        chosen = dict(optional or {})
        r.pack_counts(players, chosen)  # raises naming a bad optional card or count
        if r.variation_go_out and chosen.get("NOGO", 0):
            raise ValueError(
                "the Go Out variation is played without NOGO (CAN'T GO OUT) cards, "
                f"not {chosen['NOGO']}"
            )
        if r.variation_three_card_draw and r.variation_spread_discard_pile:
            raise ValueError(
                "choose Three-Card Draw or Spread-Out Discard Pile, not both: each gives "
                "drawing 2 discards a different meaning"
            )
        self.optional: dict[str, int] = {k: v for k, v in sorted(chosen.items()) if v}
        self.pack: Pack = Pack.of(r, players, self.optional)
        self._stock_rebuilds = r.variation_go_out or r.stock_out == "rebuild"
        self._pair = parse_card(r.instant_win_pair) if r.instant_win_pair else None
        self._pair_copies = self.pack.count(self._pair) if self._pair else 0
        self._holder = parse_card(r.holder_wins) if r.holder_wins else None

        self._hands: list[list[Card]] = [[] for _ in range(players)]
        self._shown: list[list[Meld]] = [[] for _ in range(players)]
        self._out_of_play: list[list[Card]] = [[] for _ in range(players)]
        self._active: list[bool] = [True] * players
        self._stock: list[Card] = []  # top card last
        self._pile: list[Card] = []  # top card last
        self._turns: list[int] = [0] * players
        self._how: list[str] = [""] * players
        self._went_out: int | None = None
        self._public_log: list[PublicEvent] = []
        self._drawn: Card | None = None
        self.phase: str = "draw"
        self.to_move: int | None = None
        self._winners: tuple[int, ...] = ()
        self.tie_agreed = False

        self.preliminary: tuple[tuple[Card, ...], ...] = ()
        """The face-up cards each player got when choosing the first dealer (by player)."""
        self.seating: tuple[int, ...] = tuple(range(players))
        """``seating[seat]``: the player (by place at the face-up deal) sitting in ``seat``."""
        if first is None:
            self._dealer, self.first = self._choose_dealer()
        else:
            if not isinstance(first, int) or not 0 <= first < players:
                raise ValueError(f"first must be a seat from 0 to {players - 1}, not {first!r}")
            self.first = first
            self._dealer = (first - 1) % players
        self._deal()

    # ------------------------------------------------------------------ setup

    def _record(self, event: str, action: Action | None = None, **details: str) -> Record:
        rec = Record(len(self._history) + 1, action, event, 1, tuple(details.items()))
        self._history.append(rec)
        return rec

    def _choose_dealer(self) -> tuple[int, int]:
        n = self.players
        deck = self.pack.shuffled(self._rng)
        got: list[list[Card]] = [[] for _ in range(n)]
        keys: list[list[tuple[int, int]]] = [[] for _ in range(n)]

        def deal_regular(player: int) -> None:
            while True:
                card = deck.pop()
                got[player].append(card)
                if card.is_regular:
                    keys[player].append(deal_order_key(card))
                    return

        for player in [*range(1, n), 0]:  # seat 0 deals, starting on its left
            deal_regular(player)
        # Ties of identical cards are broken by more cards, only where the order matters.
        while True:
            groups: dict[tuple[tuple[int, int], ...], list[int]] = {}
            for p in range(n):
                groups.setdefault(tuple(keys[p]), []).append(p)
            best = max(groups)
            tied = [
                ps
                for key, ps in groups.items()
                if len(ps) > 1 and (key == best or self.rules.variation_seating)
            ]
            if not tied:
                break
            for p in sorted(p for ps in tied for p in ps):
                deal_regular(p)
        self.preliminary = tuple(tuple(c) for c in got)
        shown = "; ".join(f"player {p}: {format_hand(got[p])}" for p in range(n))
        order = sorted(range(n), key=lambda p: keys[p])  # lowest first
        dealer_player = order[-1]
        self._record(
            f"Cards dealt face up to choose the first dealer: {shown}. "
            f"Player {dealer_player} deals, holding the highest card.",
            preliminary=shown,
        )
        if not self.rules.variation_seating:
            return dealer_player, (dealer_player + 1) % n
        # Seating: the lowest card sits in seat 0 with the dealer on its right (the last
        # seat); the others, lowest first, take free seats (a seeded choice stands in for
        # theirs).
        lowest = order[0]
        seats: list[int | None] = [None] * n
        seats[0], seats[n - 1] = lowest, dealer_player
        for p in order[1:]:
            if p == dealer_player:
                continue
            free = [s for s in range(n) if seats[s] is None]
            seats[self._rng.choice(free)] = p
        self.seating = tuple(s for s in seats if s is not None)
        self._record(
            "Seating: "
            + ", ".join(f"seat {s}: player {p}" for s, p in enumerate(self.seating))
            + f". Player {lowest} had the lowest card and plays first.",
            seating=" ".join(map(str, self.seating)),
        )
        return n - 1, 0

    def _shuffle(self, cards: list[Card]) -> list[Card]:
        self._rng.shuffle(cards)
        if self.rules.variation_seven_pile_shuffle:
            cards = seven_pile_shuffle(cards)
        return cards

    def _deal(self) -> None:
        deck = self._shuffle(self.pack.cards())
        n = self.players
        for _ in range(self._dealt):
            for i in range(1, n + 1):
                self._hands[(self._dealer + i) % n].append(deck.pop())
        self._stock = deck
        shuffled = (
            "shuffled (with the 7-pile shuffle)"
            if (self.rules.variation_seven_pile_shuffle)
            else "shuffled"
        )
        opts = ", ".join(f"{v} {k}" for k, v in self.optional.items()) or "none"
        upcard = "no upcard"
        if self.rules.upcard:  # a custom rule set may turn one up; Rummy 3-Pack does not
            self._pile.append(self._stock.pop())
            upcard = f"upcard {self._pile[-1]}"
            self._public_log.append((self._dealer, "discard", (self._pile[-1],)))
        self._record(
            f"Seat {self._dealer} deals: {len(self.pack)} cards {shuffled}, {self._dealt} "
            f"to each of {n} players (optional cards: {opts}); {upcard}. "
            f"Seat {self.first} draws first.",
            dealer=str(self._dealer),
            first=str(self.first),
            dealt=str(self._dealt),
        )
        self.phase = "draw"
        self.to_move = self.first

    # ------------------------------------------------------------------ queries

    def _next_active(self, seat: int) -> int:
        n = self.players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if self._active[s]:
                return s
        return seat

    def _holds(self, seat: int, card: Card | None) -> int:
        if card is None:
            return 0
        return self._hands[seat].count(card) + sum(m.cards.count(card) for m in self._shown[seat])

    def _draw_options(self, seat: int) -> list[Draw]:
        """Every draw the pile and stock allow now (before the final-chance filter)."""
        opts: list[Draw] = []
        room = MAX_HAND - len(self._hands[seat])
        if self._stock:
            opts.append(Draw(seat, "stock"))
        if self._pile:
            opts.append(Draw(seat, "discard", 1))
            if (
                self.rules.variation_three_card_draw
                and len(self._pile) >= 2
                and self._stock
                and room >= 3
            ):
                opts.append(Draw(seat, "discard", 2))
            if self.rules.variation_spread_discard_pile:
                deepest = min(len(self._pile), room)
                opts.extend(Draw(seat, "discard", k) for k in range(2, deepest + 1))
        return opts

    def _drawn_cards(self, draw: Draw) -> list[Card]:
        if draw.source == "stock":
            return [self._stock[-1]]
        taken = self._pile[len(self._pile) - draw.take :]
        if self.rules.variation_three_card_draw and draw.take == 2:
            taken = [*taken, self._stock[-1]]
        return taken

    def _final_draws(self, seat: int) -> list[Draw]:
        hand = self._hands[seat]
        return [
            d
            for d in self._draw_options(seat)
            if go_out_options(self.rules, [*hand, *self._drawn_cards(d)])
        ]

    def _can_lay_down_pair(self, seat: int) -> bool:
        return (
            self._pair is not None
            and self._pair_copies > 0
            and (self._hands[seat].count(self._pair) >= self._pair_copies)
        )

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, in a fixed order."""
        s = self.to_move
        if s is None:
            return []
        acts: list[Action] = []
        if self.phase == "draw":
            acts.extend(self._draw_options(s))
        elif self.phase == "final_draw":
            acts.extend(self._final_draws(s))
        elif self.phase in ("discard", "final_go_out"):
            acts.extend(GoOut(s, d) for d in go_out_options(self.rules, self._hands[s]))
            if self.phase == "discard":
                never = set(self.rules.never_discarded)
                acts.extend(
                    Discard(s, c) for c in sorted(set(self._hands[s])) if c.token not in never
                )
        if self._can_lay_down_pair(s):
            acts.append(LayDownRummy(s))
        acts.append(DropOut(s))
        return acts

    def can(self, action: Action) -> Verdict:
        """Whether ``action`` is legal now; when not, the reason and the rule it breaks."""
        if self.over:
            return Verdict(False, "the game is over", RULE_OVER)
        form = check_form(action, self.players)
        if not form.ok:
            return form
        seat = action.seat
        if not self._active[seat]:
            return Verdict(False, f"seat {seat} has dropped out of the game", RULE_DROP)
        if isinstance(action, DropOut):
            return Verdict(True)
        if isinstance(action, LayOff):
            return Verdict(False, "Rummy 3-Pack has no lay-offs", "no lay-offs in Rummy 3-Pack")
        if seat != self.to_move:
            return Verdict(False, f"it is seat {self.to_move}'s turn, not seat {seat}'s", RULE_TURN)
        return self._check(action)

    def _can_lay_down_rummy(self, action: LayDownRummy) -> Verdict:
        seat = action.seat
        if self._pair is None or self._pair_copies == 0:
            return Verdict(False, "this rule set has no instant-win cards", RULE_RUMMY)
        held = self._hands[seat].count(self._pair)
        if held < self._pair_copies:
            return Verdict(
                False,
                f"seat {seat} holds {held} of the {self._pair_copies} {self._pair} cards",
                RULE_RUMMY,
            )
        return Verdict(True)

    def _can_draw(self, d: Draw) -> Verdict:
        if self.phase in ("discard", "final_go_out"):
            return Verdict(
                False, f"seat {d.seat} has drawn already this turn: go out or discard", RULE_TURN
            )
        if d.source not in ("stock", "discard"):
            return Verdict(False, f"draw from 'stock' or 'discard', not {d.source!r}", RULE_DRAW)
        if not isinstance(d.take, int) or isinstance(d.take, bool) or d.take < 1:
            return Verdict(False, f"take must be 1 or more cards, not {d.take!r}", RULE_DRAW)
        r = self.rules
        if d.source == "stock":
            if d.take != 1:
                return Verdict(False, "the stock gives one card per draw", RULE_DRAW)
            if not self._stock:
                return Verdict(False, "the stock is empty", RULE_STOCK_OUT)
        else:
            if not self._pile:
                return Verdict(False, "the discard pile is empty", RULE_DRAW)
            if d.take > 1:
                if r.variation_three_card_draw:
                    if d.take != 2:
                        return Verdict(
                            False,
                            "Three-Card Draw takes the top two discards (take=2) and the top "
                            "stock card",
                            "variation: Three-Card Draw",
                        )
                    if len(self._pile) < 2:
                        return Verdict(
                            False,
                            "Three-Card Draw needs at least two cards in the discard pile",
                            "variation: Three-Card Draw",
                        )
                    if not self._stock:
                        return Verdict(
                            False,
                            "Three-Card Draw takes the top stock card too, and the stock is empty",
                            "variation: Three-Card Draw",
                        )
                    if len(self._hands[d.seat]) + 3 > MAX_HAND:
                        return Verdict(
                            False,
                            f"a hand may hold at most {MAX_HAND} cards (an engine limit)",
                            "engine limit: hand size",
                        )
                elif r.variation_spread_discard_pile:
                    if d.take > len(self._pile):
                        return Verdict(
                            False,
                            f"the discard pile holds {len(self._pile)} cards, not {d.take}",
                            "variation: Spread-Out Discard Pile",
                        )
                    if len(self._hands[d.seat]) + d.take > MAX_HAND:
                        return Verdict(
                            False,
                            f"a hand may hold at most {MAX_HAND} cards (an engine limit)",
                            "engine limit: hand size",
                        )
                else:
                    return Verdict(False, "only the top discard may be drawn", RULE_DRAW)
        if self.phase == "final_draw":
            hand = [*self._hands[d.seat], *self._drawn_cards(d)]
            if not go_out_options(r, hand):
                return Verdict(
                    False,
                    f"the stock is exhausted: seat {d.seat} may draw only to go out, and "
                    "this draw does not let them",
                    RULE_STOCK_OUT,
                )
        return Verdict(True)

    def _can_discard(self, d: Discard) -> Verdict:
        if self.phase == "draw":
            return Verdict(False, f"seat {d.seat} must draw first", RULE_TURN)
        if self.phase == "final_draw":
            return Verdict(False, "the stock is exhausted: draw only to go out", RULE_STOCK_OUT)
        if self.phase == "final_go_out":
            return Verdict(
                False,
                "after the final chance's draw, the only way on is going out",
                RULE_STOCK_OUT,
            )
        if not isinstance(d.card, Card) or d.card not in self._hands[d.seat]:
            return Verdict(False, f"seat {d.seat} holds no {d.card}", RULE_TURN)
        if d.card.token in self.rules.never_discarded:
            return Verdict(False, f"{d.card} can never be discarded", RULE_NEVER_DISCARD)
        return Verdict(True)

    def _can_go_out(self, g: GoOut) -> Verdict:
        if self.phase in ("draw", "final_draw"):
            return Verdict(False, f"seat {g.seat} must draw before going out", RULE_TURN)
        hand = self._hands[g.seat]
        if g.discard is not None and (not isinstance(g.discard, Card) or g.discard not in hand):
            return Verdict(False, f"seat {g.seat} holds no {g.discard}", RULE_GO_OUT)
        options = go_out_options(self.rules, hand)
        if g.discard in options:
            if g.melds is None:
                return Verdict(True)
            return declared_verdict(g.melds, hand, g.discard, self.rules, None)
        if g.discard is not None and g.discard.token in self.rules.never_left_over:
            return Verdict(False, f"{g.discard} may not be the card left over", RULE_GO_OUT)
        rest = list(hand)
        if g.discard is not None:
            rest.remove(g.discard)
        left = unmelded_count(self.rules, rest)
        if left == 0:  # the rest melds, yet the solver refused: a card that must stay over
            return Verdict(False, "that card may not be left over", RULE_GO_OUT)
        leftover = "without a card left over" if g.discard is None else f"leaving {g.discard}"
        return Verdict(
            False,
            f"going out {leftover}, {left} card{'s' if left > 1 else ''} would stay unmelded",
            RULE_GO_OUT,
        )

    # ------------------------------------------------------------------ acting

    def _do_draw(self, d: Draw) -> Record:
        s = d.seat
        self._turns[s] += 1
        hand = self._hands[s]
        if d.source == "stock":
            hand.append(self._stock.pop())
            self._drawn = hand[-1]
            self._public_log.append((s, "stock", ()))
            text = f"Seat {s} draws from the stock."
            shown = ""
        else:
            taken = self._pile[len(self._pile) - d.take :]
            del self._pile[len(self._pile) - d.take :]
            hand.extend(taken)
            self._drawn = taken[-1] if len(taken) == 1 else None
            self._public_log.append((s, "take", tuple(taken)))
            shown = format_hand(reversed(taken))
            if self.rules.variation_three_card_draw and d.take == 2:
                hand.append(self._stock.pop())
                self._public_log.append((s, "stock", ()))
                text = f"Seat {s} takes {shown} from the discard pile and the top stock card."
            elif d.take == 1:
                text = f"Seat {s} takes {shown} from the discard pile."
            else:
                text = f"Seat {s} takes {shown} from the spread-out discard pile."
        if not self._stock:
            text += " That was the last stock card."
        rec = self._record(text, d, source=d.source, take=str(d.take), cards=shown)
        self.phase = "final_go_out" if self.phase == "final_draw" else "discard"
        return rec

    def _do_discard(self, d: Discard) -> Record:
        s = d.seat
        self._hands[s].remove(d.card)
        self._pile.append(d.card)
        self._public_log.append((s, "discard", (d.card,)))
        rec = self._record(f"Seat {s} discards {d.card}.", d, card=str(d.card))
        self._end_turn(s)
        return rec

    def _do_go_out(self, g: GoOut) -> Record:
        s = g.seat
        hand = self._hands[s]
        rest = list(hand)
        if g.discard is not None:
            rest.remove(g.discard)
        melds = _melds_of(self.rules, rest) if g.melds is None else g.melds
        self._shown[s].extend(melds)
        for m in melds:
            for c in m.cards:
                hand.remove(c)
        left = ""
        if g.discard is not None:
            if g.discard.token in self.rules.never_discarded:
                left = f"; {g.discard} stays in the hand, face up"
            else:
                hand.remove(g.discard)
                self._pile.append(g.discard)
                self._public_log.append((s, "discard", (g.discard,)))
                left = f" and discards {g.discard}"
        laid = ", ".join(format_hand(m.cards) for m in melds)
        rec = self._record(
            f"Seat {s} goes out, melding {laid}{left}.",
            g,
            melds=laid,
            leftover=str(g.discard or ""),
        )
        self._went_out = s
        self._how[s] = "went out"
        self._finish("someone went out")
        return rec

    def _do_lay_down_rummy(self, a: LayDownRummy) -> Record:
        s = a.seat
        pair = self._pair
        assert pair is not None
        if self.phase in ("draw", "final_draw"):
            self._turns[s] += 1  # laying down at the start of a turn is that turn
        for _ in range(self._pair_copies):
            self._hands[s].remove(pair)
        self._shown[s].extend(Meld("single", (pair,), (pair,)) for _ in range(self._pair_copies))
        rec = self._record(f"Seat {s} lays down both {pair} cards and wins.", a)
        self._how[s] = "both rummy"
        self._finish(f"both {pair} cards laid down")
        return rec

    def _do_drop_out(self, a: DropOut) -> Record:
        s = a.seat
        self._out_of_play[s].extend(self._hands[s])
        self._hands[s].clear()
        self._active[s] = False
        rec = self._record(f"Seat {s} drops out; their cards leave play unseen.", a)
        if sum(self._active) < 2:
            self._finish("fewer than two players are left")
        elif s == self.to_move:
            if self.phase in ("final_draw", "final_go_out"):
                self._finish("the player with the last chance dropped out")
            elif self.phase == "discard":
                self._end_turn(s)
            else:
                self._start_turn(self._next_active(s))
        return rec

    def _start_turn(self, seat: int) -> None:
        self._drawn = None
        self.to_move = seat
        self.phase = "draw"
        if not self._draw_options(seat):
            self._finish("no card can be drawn")
        elif self.turn_limit is not None and sum(self._turns) >= self.turn_limit:
            self._finish(f"the turn limit of {self.turn_limit} turns was reached")

    def _end_turn(self, seat: int) -> None:
        nxt = self._next_active(seat)
        if self._stock:
            self._start_turn(nxt)
            return
        if self._stock_rebuilds:
            if len(self._pile) > 1:
                top = self._pile.pop()
                self._stock = self._shuffle(self._pile)
                self._pile = [top]
                self._public_log.append((seat, "rebuild", ()))
                self._record(
                    f"The stock is exhausted: the discard pile but its top card ({top}) is "
                    f"shuffled into a new stock of {len(self._stock)} cards.",
                    rebuilt=str(len(self._stock)),
                )
            self._start_turn(nxt)
            return
        if self._holds(nxt, self._holder):
            self._finish(f"the stock is exhausted and seat {nxt} holds a {self._holder} card")
            return
        if not self._final_draws(nxt):
            # The stock is empty: the only draw left is from the discard pile.
            self._finish(
                f"the stock is exhausted and seat {nxt} cannot go out by drawing from the "
                "discard pile"
            )
            return
        self._record(
            f"The stock is exhausted: seat {nxt} may draw only to go out.", chance=str(nxt)
        )
        self.to_move = nxt
        self.phase = "final_draw"

    @classmethod
    def _replay_end(cls, options: dict[str, GameOption]) -> Callable[[ThreePackGame], object]:
        """``tie=True`` in :meth:`replay`'s options: after the actions the table agreed to a
        tie game (:meth:`ThreePackGame.agree_tie`, no player's action)."""
        tie = bool(options.pop("tie", False))
        return lambda game: game.agree_tie() if tie else None

    # ------------------------------------------------------------------ positions

    def to_position(self) -> str:
        """The whole position as one line of text (see :mod:`payme.game.position`).

        >>> g = new_three_pack_game(players=3, seed=4)
        >>> ThreePackGame.from_position(g.to_position()).to_position() == g.to_position()
        True
        """
        return position.write_position(self.rules, vars(self), _FIELDS)

    @classmethod
    def from_position(cls, text: str, rules: Ruleset | None = None) -> ThreePackGame:
        """A game set up at the position ``text`` (see :mod:`payme.game.position`).

        >>> g = ThreePackGame.from_position("rules=three_pack; players=2; dealt=3; "
        ...     "first=0; hands=5H 6H 7H / 2C 5S 9D; stock=* 8H")
        >>> g.to_move, g.phase, g.stock[-1], g.view(0).stock_count
        (0, 'draw', Card('8H'), None)
        """
        ruleset, values = position.read_position(text, _FIELDS, rules)
        players = values.get("players")
        if not isinstance(players, int):
            raise position.PositionError("a position needs players=N")
        first = values.get("first", 0)
        game = cls(
            ruleset,
            players,
            cast(int, values.get("seed", 0)),
            dealt=cast(int, values.get("_dealt", 7)),
            optional=cast(dict[str, int], values.get("optional", {})),
            first=cast(int, first),
            turn_limit=cast(int | None, values.get("turn_limit")),
        )
        game._set_position(values)
        return game

    def _set_position(self, values: dict[str, object]) -> None:
        P = position.PositionError
        n = self.players
        self._history.clear()
        self._public_log.clear()
        dealer = values.get("dealer", (self.first - 1) % n)
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise P(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self._dealer = dealer
        seating = values.get("seating", list(range(n)))
        if sorted(cast(list[int], seating)) != list(range(n)):
            raise P(f"seating must name each of the {n} players once")
        self.seating = tuple(cast(list[int], seating))
        prelim = values.get("preliminary", [])
        self.preliminary = tuple(tuple(cs) for cs in cast(list[list[Card]], prelim) if cs)
        self.phase, self.to_move = position.read_turn(
            values, PHASES, n, lambda phase: None if phase == "game_over" else self.first
        )
        self._hands = position.read_hands(values, n)
        self._shown = cast(list[list[Meld]], position.seat_lists(values, "_shown", n, list))
        self._out_of_play = cast(
            list[list[Card]], position.seat_lists(values, "_out_of_play", n, list)
        )
        self._pile = cast(list[Card], values.get("_pile", []))
        placed: Counter[Card] = Counter(self._pile)
        for cards in (*self._hands, *self._out_of_play):
            placed.update(cards)
        for melds in self._shown:
            for m in melds:
                placed.update(m.cards)
        pack = Counter(self.pack.cards())
        self._stock = position.stock_cards(values.get("_stock", ("*", [])), pack, placed)
        position.check_cards(
            {
                "the hands": Counter(c for h in self._hands for c in h),
                "the melds shown": Counter(c for ms in self._shown for m in ms for c in m.cards),
                "the cards out of play": Counter(c for h in self._out_of_play for c in h),
                "the stock": Counter(self._stock),
                "the discard pile": Counter(self._pile),
            },
            pack,
        )
        self._active = [bool(a) for a in position.seat_lists(values, "_active", n, 1)]
        self._turns = cast(list[int], position.seat_lists(values, "_turns", n, 0))
        self._how = cast(list[str], position.seat_lists(values, "_how", n, ""))
        went_out = values.get("_went_out")
        if went_out is not None and not (isinstance(went_out, int) and 0 <= went_out < n):
            raise P(f"went_out must be a seat from 0 to {n - 1} or -, not {went_out!r}")
        self._went_out = went_out
        self._public_log = cast(list[PublicEvent], values.get("_public_log", []))
        self._drawn = cast(Card | None, values.get("_drawn"))
        self._winners = tuple(cast(list[int], values.get("_winners", [])))
        self.tie_agreed = bool(values.get("tie_agreed", False))
        self._record("The game is set up at a position.")

    def agree_tie(self) -> Record:
        """End the game as a *tie game*: everyone still in agrees, and nobody wins.

        The source lets the table call a tie unanimously (its example: one card left in the
        stock and nobody willing to draw it).  It is the whole table's decision, not one
        seat's action, so it is a method and a recorded event rather than an ``Action``;
        replay it with ``replay_three_pack(..., tie=True)``.  A RUMMY holder who agrees
        gives up that win.  In a match no one scores, and the same player plays first
        in the next game.
        """
        if self.over:
            raise IllegalAction("the game is over", RULE_OVER)
        self.tie_agreed = True
        rec = self._record("Everyone still in agrees to call the game a tie.")
        self._finish("a tie game")
        return rec

    def _finish(self, why: str) -> None:
        holder = None if self.tie_agreed else self._holder
        for s in range(self.players):
            if self._active[s] and not self._how[s] and self._holds(s, holder):
                self._how[s] = "rummy card"
        winners = tuple(s for s in range(self.players) if self._how[s])
        if self.rules.max_winners is not None:
            assert len(winners) <= self.rules.max_winners, winners
        self._winners = winners
        self.phase = "game_over"
        self.to_move = None
        named = ", ".join(f"seat {s} ({self._how[s]})" for s in winners) if winners else "nobody"
        self._record(f"Game over ({why}). Winners: {named}.", winners=" ".join(map(str, winners)))

    # ------------------------------------------------------------------ results

    def winners(self) -> tuple[int, ...]:
        """The seats that won (empty until the game is over)."""
        return self._winners

    def results(self) -> list[ResultRow]:
        """One row per seat: seat, winner, how ("went out", "rummy card", "both rummy", ""),
        turns, and whether the seat dropped out."""
        return [
            {
                "seat": s,
                "winner": s in self._winners,
                "how": self._how[s] if s in self._winners else "",
                "turns": self._turns[s],
                "dropped": not self._active[s],
            }
            for s in range(self.players)
        ]

    def view(self, seat: int) -> ThreePackView:
        """What the player in ``seat`` may know: their own hand, never another's (of the
        discard pile, the top card only unless it is spread out)."""
        shown = self._pile if self.rules.variation_spread_discard_pile else self._pile[-1:]
        hand = tuple(sorted(self._hands[self._check_seat(seat)]))
        return self._view(
            ThreePackView,
            seat,
            hand,
            tuple(shown),
            tuple(map(tuple, self._shown)),
            optional=tuple(sorted(self.optional.items())),
            pack_counts=self.pack.counts,
            first=self.first,
            seating=self.seating,
            active=tuple(self._active),
            public_log=tuple(self._public_log),
            how=tuple(self._how) if self.over else ("",) * self.players,
        )

    # ------------------------------------------------------------------ the host's view

    @property
    def hand_number(self) -> int:
        """Always 1: a game of Rummy 3-Pack is one deal (a match is many games)."""
        return 1

    @property
    def active(self) -> tuple[bool, ...]:
        """Whether each seat is still in the game (public: dropping out is seen)."""
        return tuple(self._active)

    @property
    def went_out(self) -> int | None:
        """The seat that went out (``None`` if nobody did)."""
        return self._went_out

    def advance(self) -> None:
        """There is no next hand: one deal is one game (a match deals the next game)."""
        raise IllegalAction(
            "A game of Rummy 3-Pack is one deal: there is no next hand.", "one deal, one game"
        )

    def cards_in_play(self) -> Counter[Card]:
        """Every card in the game, wherever it is (for checking nothing is created or lost)."""
        total: Counter[Card] = Counter(self._stock)
        total.update(self._pile)
        for s in range(self.players):
            total.update(self._hands[s])
            total.update(self._out_of_play[s])
            for m in self._shown[s]:
                total.update(m.cards)
        return total

    def __repr__(self) -> str:
        return (
            f"ThreePackGame(players={self.players}, seed={self.seed}, dealt={self._dealt}, "
            f"phase={self.phase!r}, to_move={self.to_move})"
        )


PHASES = ("draw", "discard", "final_draw", "final_go_out", "game_over")
"""Every value of :attr:`ThreePackGame.phase`."""

_FIELDS: tuple[position.Field, ...] = (
    ("players", "players", position.INT),
    ("seed", "seed", position.INT),
    ("dealt", "_dealt", position.INT),
    ("optional", "optional", position.COUNTS),
    ("dealer", "_dealer", position.INT),
    ("first", "first", position.INT),
    ("seating", "seating", position.INTS),
    ("preliminary", "preliminary", position.SEAT_CARDS),
    *position.TABLE,
    ("shown", "_shown", position.SEAT_MELDS),
    ("out_of_play", "_out_of_play", position.SEAT_CARDS),
    ("active", "_active", position.BOOLS),
    ("turns", "_turns", position.INTS),
    ("how", "_how", position.SEAT_STRS),
    ("went_out", "_went_out", position.OPT_INT),
    ("public_log", "_public_log", position.PUBLIC_LOG),
    ("winners", "_winners", position.INTS),
    ("tie_agreed", "tie_agreed", position.BOOL),
    ("turn_limit", "turn_limit", position.OPT_INT),
)
"""Rummy 3-Pack's position fields: ``(key, attribute, codec)``."""


new_three_pack_game = ThreePackGame
"""A new game, dealt and ready for the first draw: the same call as :class:`ThreePackGame`
(one constructor, under the name the module's examples use)."""


def replay_three_pack(
    rules: RulesLike,
    players: int,
    seed: int,
    actions: Iterable[Action],
    **options: GameOption,
) -> ThreePackGame:
    """Rebuild a game from its seed, options and actions (each one checked as it is applied).

    ``tie=True``: after the actions, the table agreed to a tie game
    (:meth:`ThreePackGame.agree_tie`).

    >>> g = new_three_pack_game(players=3, seed=9)
    >>> _ = g.apply(g.legal_actions()[0])
    >>> again = replay_three_pack("three_pack", 3, 9, g.actions)
    >>> again.history == g.history
    True
    """
    return ThreePackGame.replay(rules, players, seed, actions, **options)


def play_three_pack(
    rules: RulesLike = "three_pack",
    players: int = 3,
    bots: Sequence[str] = ("greedy",),
    seed: int = 0,
    *,
    max_actions: int = 100_000,
    **options: GameOption,
) -> ThreePackGame:
    """A game played to its end by bots (``bots[i % len(bots)]`` plays seat ``i``).

    Each bot gets its own seeded random source, derived from the game's seed.

    >>> g = play_three_pack(players=3, bots=("random", "greedy", "strong"), seed=5)
    >>> g.over, len(g.winners()) <= 3
    (True, True)
    """
    from payme.game.three_pack_bots import make_three_pack_bot

    game = ThreePackGame.new(rules, players, seed, **options)
    seats = [
        make_three_pack_bot(bots[i % len(bots)], game.rules, game.seed * 31 + i)
        for i in range(players)
    ]
    for _ in range(max_actions):
        if game.to_move is None:
            return game
        s = game.to_move
        game.apply(seats[s].choose(game.view(s), game.legal_actions()))
    raise RuntimeError(f"the game did not end within {max_actions} actions")


# ---------------------------------------------------------------------- matches


class ThreePackMatch:
    """A match: each game's winners score 1 game point; the first to 2 points wins.

    Players are numbered by their place at the first game's face-up deal; ``table`` is the
    clockwise seating (fixed after the first game).  Players tied at 2 points or more play
    tie-break games among themselves (the same table order, the others sitting out).  The
    first player moves one seat left after each game — also after a tie-break game, where the
    first of the players in it at or after that seat begins — except after a *tie game*: a
    game nobody won, whether the table agreed to call it a tie
    (:meth:`ThreePackGame.agree_tie`) or it ended with no winner.

    >>> m = ThreePackMatch(players=3, seed=2)
    >>> m.play(("greedy", "greedy", "strong")).over
    True
    >>> max(m.points) >= 2 and m.winner is not None
    True
    """

    def __init__(
        self,
        rules: RulesLike = "three_pack",
        players: int = 3,
        seed: int | None = None,
        *,
        dealt: int = 7,
        optional: dict[str, int] | None = None,
    ) -> None:
        self.rules: Ruleset = get_rules(rules)
        self.players = players
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.seed: int = seed
        self._seeds = random.Random(seed)
        self.points: list[int] = [0] * players
        self.games: list[ThreePackGame] = []
        self.game_players: list[tuple[int, ...]] = []
        """For each game, the player sitting in each of its seats."""
        self.tie_break: list[bool] = []
        self.winner: int | None = None
        self._scored = 0  # games whose points are counted
        game = ThreePackGame(
            self.rules, players, self._seeds.randrange(2**63), dealt=dealt, optional=optional
        )
        self.table: tuple[int, ...] = game.seating
        self._first_player = game.seating[game.first]
        self._add(game, tuple(game.seating), tie_break=False)

    def _add(self, game: ThreePackGame, seat_players: tuple[int, ...], tie_break: bool) -> None:
        self.games.append(game)
        self.game_players.append(seat_players)
        self.tie_break.append(tie_break)

    @property
    def game(self) -> ThreePackGame:
        """The current (last started) game."""
        return self.games[-1]

    @property
    def over(self) -> bool:
        return self.winner is not None

    def contenders(self) -> tuple[int, ...]:
        """Players tied at the top with enough points (they play a tie-break game)."""
        goal = self.rules.game_points_to_win or 2
        top = max(self.points)
        if top < goal:
            return ()
        return tuple(p for p in range(self.players) if self.points[p] == top)

    def next_game(
        self,
        *,
        dealt: int | None = None,
        optional: dict[str, int] | None = None,
        rules: RulesLike | None = None,
    ) -> ThreePackGame | None:
        """Score the finished current game and start the next; ``None`` when the match is won.

        The cards dealt, optional cards and variations may change between games.
        """
        game = self.game
        if not game.over:
            raise ValueError("the current game is not over yet")
        if self._scored < len(self.games):
            self._score(game)
        if self.winner is not None:
            return None
        r = get_rules(rules) if rules is not None else game.rules
        contenders = self.contenders()
        if game.winners():  # after a tie game (no winner) the same player starts again
            i = self.table.index(self._first_player)
            self._first_player = self.table[(i + 1) % len(self.table)]
        seated = tuple(p for p in self.table if p in contenders) if contenders else self.table
        # The first player of a game among some players: the first of them at or after the
        # player whose turn it is to play first.
        i = self.table.index(self._first_player)
        order = [self.table[(i + k) % len(self.table)] for k in range(len(self.table))]
        first_player = next(p for p in order if p in seated)
        new = ThreePackGame(
            r,
            len(seated),
            self._seeds.randrange(2**63),
            dealt=dealt if dealt is not None else game.dealt,
            optional=optional if optional is not None else game.optional,
            first=seated.index(first_player),
        )
        self._add(new, seated, tie_break=bool(contenders))
        return new

    def _score(self, game: ThreePackGame) -> None:
        seat_players = self.game_players[self.games.index(game)]
        for s in game.winners():
            self.points[seat_players[s]] += 1
        self._scored += 1
        contenders = self.contenders()
        if len(contenders) == 1:
            self.winner = contenders[0]

    def play(self, bots: Sequence[str], *, max_games: int = 1000) -> ThreePackMatch:
        """Play the match to its end; ``bots[p]`` plays player ``p`` in every game."""
        from payme.game.three_pack_bots import make_three_pack_bot

        for _ in range(max_games):
            game = self.game
            seat_players = self.game_players[-1]
            seats = [
                make_three_pack_bot(bots[p % len(bots)], game.rules, game.seed * 31 + p)
                for p in seat_players
            ]
            while game.to_move is not None:
                s = game.to_move
                game.apply(seats[s].choose(game.view(s), game.legal_actions()))
            if self.next_game() is None:
                return self
        raise RuntimeError(f"the match did not end within {max_games} games")


__all__ = [
    "ThreePackGame",
    "ThreePackMatch",
    "deal_order_key",
    "go_out_options",
    "new_three_pack_game",
    "play_three_pack",
    "replay_three_pack",
    "seven_pile_shuffle",
    "unmelded_count",
]
