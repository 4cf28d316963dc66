"""A full game of Pay Me: eleven hands, turns, going out, final turns, lay-offs and scores.

The game owns a ``random.Random(seed)``; the same rules, players, seed and actions give the
same game (see :func:`payme.game.replay`).  Every rule comes from the
:class:`~payme.rulesets.Ruleset`'s fields; the game never asks which preset it was given.

>>> from payme.game.actions import Draw
>>> g = PayMeGame("denexa", players=2, seed=3)
>>> g.phase, g.to_move, len(g.view(0).hand)
('draw', 0, 3)
>>> g.can(Draw(1, "stock"))
Verdict(ok=False, reason="It is seat 0's turn, not seat 1's.", rule='turn order')
>>> g.draw("stock").event
'Seat 0 draws from the stock.'
>>> g.phase
'discard'

Seats are numbered 0 … players-1 clockwise; "left" is the next seat.  The last seat deals
the first hand, so seat 0 plays first; the deal then passes left.  Engine readings (where
RULES.md is silent) are listed in the docstring of :mod:`payme.game`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, cast

from payme.cards import CARDS, Card, format_hand, parse_hand, sort_cards
from payme.deprecation import moved_attribute, renamed
from payme.game import position
from payme.game.actions import (
    Action,
    Discard,
    Draw,
    DrawFrom,
    GoOut,
    IllegalAction,
    LayOff,
    Record,
    Verdict,
    check_form,
)
from payme.game.arrangement import declared_verdict
from payme.game.base import Game, GameOption, ResultRow
from payme.game.evaluation import best_lay_off_points, go_out_discards, points
from payme.game.view import HandSummary, PayMeView, held_frozen
from payme.melds import Meld, fixed_meld_problem, tables_for
from payme.pack import Pack, shuffle
from payme.rulesets import Ruleset, RulesLike
from payme.words import wild_phrase

PHASES = ("draw", "discard", "final_draw", "final_discard", "lay_off", "hand_over", "game_over")
"""Every value of :attr:`~payme.game.base.Game.phase`."""

_YES = Verdict(True)


def _no(reason: str, rule: str) -> Verdict:
    return Verdict(False, reason, rule)


class PayMeGame(Game):
    """One game of Pay Me for ``players`` players under ``rules``.

    ``turn_limit`` (an engine option, not a rule): a hand in which that many turns pass
    without anyone going out ends like the no-card end (no declarer, everyone scores their
    deadwood).  ``None`` (the default) plays on until someone goes out or no card can be
    drawn; simulations of bots that may never go out (``random``) set it.

    ``auto_advance`` (default ``True``): after a hand is scored the next one is dealt at
    once; with ``False`` the game waits in phase ``"hand_over"`` until :meth:`advance`.
    """

    GAME = "pay_me"
    GAME_NAME = "Pay Me"
    BOT_MODULE = "payme.game.bots"
    # Small integer types keep a million-game frame in memory; pandas widens them in sums
    # and means, so statistics do not overflow.  ``money`` is added for games with stakes.
    RESULT_COLUMNS = (
        ("game", "int64"),
        ("hand", "int8"),
        ("dealt", "int8"),
        ("wild_rank", "Int8"),  # nullable: a custom rule set may have no round wild rank
        ("seat", "int8"),
        ("bot", "category"),
        ("went_out", "bool"),
        ("turns", "int32"),
        ("deadwood", "int32"),
        ("points", "int32"),
        ("total", "int32"),
    )
    BOT_TURN_LIMIT = 400
    TABLE_OPTIONS: ClassVar[Mapping[str, GameOption]] = MappingProxyType(
        {"auto_advance": False, "turn_limit": BOT_TURN_LIMIT}
    )
    GO_OUT_CALL = moved_attribute("Pay me!", "PayMeGame.GO_OUT_CALL", "read rules.go_out_call")
    KEEPS_SCORE = True
    DECLARES_MELDS = True

    def __init__(
        self,
        rules: RulesLike = "denexa",
        players: int = 4,
        seed: int = 0,
        *,
        turn_limit: int | None = None,
        auto_advance: bool = True,
    ) -> None:
        self._begin(rules, players, seed, turn_limit)
        self.auto_advance = auto_advance
        self.pack = Pack.of(self.rules, players)
        most = self.rules.first_dealt + self.rules.hands - 1
        if players * most > len(self.pack):
            raise ValueError(
                f"{self.rules.name}'s pack for {players} players has {len(self.pack)} cards, "
                f"too few to deal {most} cards to each of {players} players"
            )
        self._summaries: list[HandSummary] = []
        self._totals = [0] * players
        self._money: list[int] | None = [0] * players if self.rules.money else None
        self._rows: list[ResultRow] = []
        self._hand_number = 0
        self.phase = "hand_over"
        self.to_move: int | None = None
        self._go_out_cache: tuple[tuple[Card, ...], tuple[Card | None, ...]] | None = None
        self._deal(1)

    # The current hand (set by each deal).
    _hands: list[list[Card]]
    _stock: list[Card]
    _pile: list[Card]
    _table: list[list[Card]]
    _declarer: int | None
    _declarer_melds: list[Meld]
    _turns: list[int]
    _turns_this_hand: int
    _picked_up: list[list[Card]]
    _discarded: list[list[Card]]
    _drawn: Card | None
    _final_queue: list[int]
    _layoff_queue: list[int]
    _shown: list[list[Card]] | None
    _lay_offs: list[tuple[tuple[int, tuple[Card, ...]], ...]]
    _last_chance: bool
    _deadwood: list[int]

    # ------------------------------------------------------------------ positions

    def to_position(self) -> str:
        """The whole position as one line of text (see :mod:`payme.game.position`).

        >>> g = PayMeGame("denexa", players=2, seed=3)
        >>> PayMeGame.from_position(g.to_position()).to_position() == g.to_position()
        True
        """
        return position.write_position(self.rules, vars(self), _FIELDS)

    @classmethod
    def from_position(cls, text: str, rules: Ruleset | None = None) -> PayMeGame:
        """A game set up at the position ``text`` (see :mod:`payme.game.position`).

        >>> g = PayMeGame.from_position(
        ...     "rules=denexa; players=2; hands=5H 6H 7H / 8C 9D TD; pile=2C; stock=* 8H")
        >>> g.phase, g.to_move, g.can_draw("stock").ok, g.stock[-1]
        ('draw', 0, True, Card('8H'))
        """
        ruleset, values = position.read_position(text, _FIELDS, rules)
        players = values.get("players")
        if not isinstance(players, int):
            raise position.PositionError("a position needs players=N")
        seed = values.get("seed", 0)
        game = cls(
            ruleset,
            players,
            seed if isinstance(seed, int) else 0,
            turn_limit=values.get("turn_limit"),  # type: ignore[arg-type]
            auto_advance=bool(values.get("auto_advance", True)),
        )
        game._set_position(values)
        return game

    def _set_position(self, values: dict[str, object]) -> None:
        P = position.PositionError
        rules, n = self.rules, self.players
        number = values.get("_hand_number", 1)
        if not isinstance(number, int) or not 1 <= number <= rules.hands:
            raise P(f"hand must be 1 to {rules.hands}, not {number!r}")
        self._history.clear()
        self._hand_number = number
        self._dealt = rules.dealt_in_hand(number)
        self._dealer = (n - 1 + number - 1) % n
        self.phase, self.to_move = position.read_turn(
            values,
            PHASES,
            n,
            lambda phase: None if phase in ("hand_over", "game_over") else (self._dealer + 1) % n,
        )
        self._hands = position.read_hands(values, n)
        self._pile = cast(list[Card], values.get("_pile", []))
        self._declarer_melds = cast(list[Meld], values.get("_declarer_melds", []))
        self._table = [list(m.cards) for m in self._declarer_melds]
        placed: Counter[Card] = Counter(self._pile)
        for cards in (*self._hands, *self._table):
            placed.update(cards)
        pack = Counter(self.pack.cards())
        self._stock = position.stock_cards(values.get("_stock", ("*", [])), pack, placed)
        position.check_cards(
            {
                "the hands": Counter(c for h in self._hands for c in h),
                "the stock": Counter(self._stock),
                "the discard pile": Counter(self._pile),
                "the declarer's melds": Counter(c for m in self._table for c in m),
            },
            pack,
        )
        for meld in self._declarer_melds:
            why = fixed_meld_problem(meld, tables_for(rules, self._dealt))
            if why:
                raise P(f"the declarer's meld {meld} is not valid: {why}")
        self._drawn = cast(Card | None, values.get("_drawn"))
        declarer = values.get("_declarer")
        if declarer is not None and not (isinstance(declarer, int) and 0 <= declarer < n):
            raise P(f"declarer must be a seat from 0 to {n - 1} or -, not {declarer!r}")
        self._declarer = declarer
        self._totals = _per_seat_ints(values, "_totals", n)
        self._turns = _per_seat_ints(values, "_turns", n)
        if rules.money is not None:
            self._money = _per_seat_ints(values, "_money", n)
        elif values.get("_money") is not None:
            raise P(f"{rules.name} is not played for money: money=-")
        self._turns_this_hand = cast(int, values.get("_turns_this_hand", 0))
        self._picked_up = cast(list[list[Card]], position.seat_lists(values, "_picked_up", n, list))
        self._discarded = cast(list[list[Card]], position.seat_lists(values, "_discarded", n, list))
        self._final_queue = cast(list[int], values.get("_final_queue", []))
        self._layoff_queue = cast(list[int], values.get("_layoff_queue", []))
        shown = values.get("_shown")
        self._shown = None if shown is None else cast(list[list[Card]], shown)
        self._deadwood = cast(list[int], values.get("_deadwood", []))
        self._lay_offs = cast(
            list[tuple[tuple[int, tuple[Card, ...]], ...]],
            position.seat_lists(values, "_lay_offs", n, tuple),
        )
        self._last_chance = bool(values.get("_last_chance", False))
        self._go_out_cache = None
        self._record("The game is set up at a position.")

    # ------------------------------------------------------------------ public state

    @property
    def hand_number(self) -> int:
        """The hand being played (1 … ``rules.hands``)."""
        return self._hand_number

    @property
    def declarer(self) -> int | None:
        """Who went out in the current hand (``None`` until someone does)."""
        return self._declarer

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def money(self) -> tuple[int, ...] | None:
        return None if self._money is None else tuple(self._money)

    @property
    def summaries(self) -> tuple[HandSummary, ...]:
        """Every finished hand, with all hands shown."""
        return tuple(self._summaries)

    @property
    def table(self) -> tuple[tuple[Card, ...], ...]:
        """The declarer's melds as laid, with lay-offs so far."""
        return tuple(tuple(m) for m in self._table)

    def cards_in_play(self) -> Counter[Card]:
        """Every card's count over stock, discard pile, hands and table (always the pack)."""
        count: Counter[Card] = Counter(self._stock)
        count.update(self._pile)
        for hand in self._hands:
            count.update(hand)
        for meld in self._table:
            count.update(meld)
        return count

    def snapshot(self) -> tuple[object, ...]:
        """The whole state as plain values: equal snapshots mean identical games."""
        return (
            self.rules, self.players, self.seed, self.hand_number, self.phase, self.to_move,
            tuple(map(tuple, self._hands)), tuple(self._stock), tuple(self._pile),
            self.table, self._declarer, tuple(self._totals), self.money, tuple(self._history),
            tuple(self._actions), self._rng.getstate(),
        )  # fmt: skip

    # ------------------------------------------------------------------ the deal

    def _record(self, event: str, action: Action | None = None, **details: object) -> Record:
        return self._recorded(
            event, action, tuple([(k, str(v)) for k, v in details.items()]) if details else ()
        )

    def _recorded(
        self, event: str, action: Action | None, details: tuple[tuple[str, str], ...]
    ) -> Record:
        """:meth:`_record` with its details as the record holds them (a draw's and a
        discard's ``(("card", token),)``, written by the moves a game makes most)."""
        # Built without the frozen dataclass's constructor (see view.held_frozen): a bot game
        # records about 300 events a game.
        history = self._history
        rec = held_frozen(
            Record,
            {
                "number": len(history) + 1,
                "action": action,
                "event": event,
                "hand": self._hand_number,
                "details": details,
            },
        )
        history.append(rec)
        return rec

    def _deal(self, number: int) -> None:
        rules = self.rules
        self._hand_number = number
        self._dealt = rules.dealt_in_hand(number)
        # The last seat deals hand 1 so that seat 0 plays first; the deal passes left.
        self._dealer = (self.players - 1 + number - 1) % self.players
        cards = self.pack.shuffled(self._rng)
        # One card at a time from the top of the stock (the end of the list), starting at
        # the dealer's left: the k-th card taken goes to the k-th seat after the dealer.
        n = self.players
        taken = cards[len(cards) - n * self._dealt :]
        taken.reverse()
        del cards[len(cards) - n * self._dealt :]
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        for k in range(n):
            self._hands[(self._dealer + 1 + k) % n] = taken[k::n]
        self._stock: list[Card] = cards
        self._pile: list[Card] = []
        self._table: list[list[Card]] = []
        self._declarer: int | None = None
        self._declarer_melds: list[Meld] = []
        self._turns = [0] * self.players
        self._turns_this_hand = 0
        self._picked_up: list[list[Card]] = [[] for _ in range(self.players)]
        self._discarded: list[list[Card]] = [[] for _ in range(self.players)]
        self._drawn: Card | None = None
        self._final_queue: list[int] = []
        self._layoff_queue: list[int] = []
        self._shown: list[list[Card]] | None = None
        self._lay_offs: list[tuple[tuple[int, tuple[Card, ...]], ...]] = [
            () for _ in range(self.players)
        ]
        self._go_out_cache = None
        self._last_chance = False
        self._deadwood: list[int] = []
        wild = rules.round_wild_rank(self._dealt)
        self._record(
            f"Hand {number}: seat {self._dealer} deals {self._dealt} cards to each player"
            + (f"; {wild_phrase(rules, self._dealt)}." if wild else "."),
            dealer=self._dealer,
            dealt=self._dealt,
        )
        if rules.upcard and self._stock:
            up = self._stock.pop()
            self._pile.append(up)
            self._record(f"The upcard is {up}.", card=up)
        self._start_turn((self._dealer + 1) % self.players)

    def _start_turn(self, seat: int) -> None:
        if self.turn_limit is not None and self._turns_this_hand >= self.turn_limit:
            self._end_hand(f"the turn limit of {self.turn_limit} was reached")
            return
        self._refill_stock()
        if not self._stock and not self._pile:
            self._end_hand("no card could be drawn")
            return
        if not self._stock and self.rules.stock_out == "end":
            # The stock is not rebuilt: the player after the one who took the last stock
            # card gets one turn to go out (holding no instant-win card); then it ends.
            barred = self.rules.instant_win_pair
            if self._last_chance or (
                barred is not None and any(c.token == barred for c in self._hands[seat])
            ):
                self._end_hand("the stock ran out")
                return
            self._last_chance = True
        self.phase = "draw"
        self.to_move = seat

    def _refill_stock(self) -> None:
        """When the stock is empty, the discard pile but its top card becomes the stock
        (rule sets whose ``stock_out`` is ``"rebuild"``)."""
        if self._stock or len(self._pile) < 2 or self.rules.stock_out != "rebuild":
            return
        top = self._pile.pop()
        self._stock = self._pile
        shuffle(self._stock, self._rng)
        self._pile = [top]
        self._record(
            f"The stock ran out: the discard pile but its top card ({top}) is shuffled "
            f"into a new stock of {len(self._stock)} cards.",
            stock=len(self._stock),
        )

    # ------------------------------------------------------------------ legality

    def legal_actions(self) -> list[Action]:
        """Every legal action of :attr:`to_move`, in a fixed order.

        In the lay-off phase the placements are too many to list: the list holds laying
        off nothing, the best lay-off (fewest points), and each single card that fits a meld.
        Likewise a :class:`~payme.game.actions.GoOut` is listed with ``melds=None`` (the
        engine's layout); the same go-out with any valid arrangement
        (:mod:`payme.game.arrangement`) is legal too.
        """
        seat = self.to_move
        if seat is None:
            return []
        phase = self.phase
        if phase in ("draw", "final_draw"):
            return self._legal_draws(seat)
        if phase == "lay_off":
            return self._layoff_options(seat)
        if phase != "discard" and phase != "final_discard":
            return []
        hand = sort_cards(self._hands[seat])
        barred = self.rules.never_discarded
        # The hand in order, each card once (dict keys keep the order).
        throws: list[Action] = [
            discard_action(seat, c)
            for c in dict.fromkeys(hand)
            if not barred or c.token not in barred
        ]
        if phase == "discard":
            outs = self._go_out_discards(hand)
            if outs:
                return [GoOut(seat, d) for d in outs] + throws
        return throws

    def _legal_draws(self, seat: int) -> list[Action]:
        """The draws ``seat`` may make now (the legal actions of a draw phase)."""
        return [draw_action(seat, src) for src in self._draw_sources() if self._can_draw_from(src)]

    def _draw_sources(self) -> tuple[DrawFrom, ...]:
        if self.phase == "final_draw":
            return tuple(self.rules.final_turn_draw)
        return ("stock", "discard")

    def _can_draw_from(self, source: DrawFrom) -> bool:
        return bool(self._stock) if source == "stock" else bool(self._pile)

    def _go_out_discards(self, key: tuple[Card, ...] | None = None) -> tuple[Card | None, ...]:
        """Every discard that lets the player to move go out (``key``: their hand sorted)."""
        seat = self.to_move
        assert seat is not None
        if key is None:
            key = sort_cards(self._hands[seat])
        if self._go_out_cache is None or self._go_out_cache[0] != key:
            discards = go_out_discards(key, self.rules, self._dealt)
            if self.rules.going_out == "discard_required":
                discards = tuple(d for d in discards if d is not None)
            self._go_out_cache = (key, discards)
        return self._go_out_cache[1]

    def can(self, action: Action) -> Verdict:
        """Whether ``action`` is legal now; when not, the reason and the rule it breaks."""
        if self.over:
            return _no("The game is over.", "end of the game")
        if self.phase == "hand_over":
            return _no("The hand is over: deal the next one first (advance).", "the deal")
        form = check_form(action, self.players)
        if not form.ok:
            return form
        if not isinstance(action, (Draw, Discard, GoOut, LayOff)):
            return _no(f"{type(action).__name__} is not an action in Pay Me.", "Pay Me actions")
        if action.seat != self.to_move:
            return _no(f"It is seat {self.to_move}'s turn, not seat {action.seat}'s.", "turn order")
        return self._check(action)

    def _can_draw(self, action: Draw) -> Verdict:
        if self.phase not in ("draw", "final_draw"):
            return _no(self._phase_hint(), "a turn: draw, then discard")
        if action.take != 1:
            return _no("In Pay Me a draw takes exactly one card.", "a turn: draw one card")
        if action.source not in ("stock", "discard"):
            return _no(f"Draw from 'stock' or 'discard', not {action.source!r}.", "a turn: draw")
        if action.source not in self._draw_sources():
            return _no(
                "In this rule set the final turn draws from the "
                + " or the ".join(self.rules.final_turn_draw)
                + " only.",
                "final turn draw",
            )
        if not self._can_draw_from(action.source):
            what = "stock" if action.source == "stock" else "discard pile"
            return _no(f"The {what} is empty.", "a turn: draw")
        return _YES

    def _can_discard(self, action: Discard) -> Verdict:
        if self.phase not in ("discard", "final_discard"):
            return _no(self._phase_hint(), "a turn: draw, then discard")
        if action.card not in self._hands[action.seat]:
            return _no(f"Seat {action.seat} holds no {action.card}.", "discard a card you hold")
        if action.card.token in self.rules.never_discarded:
            return _no(f"{action.card} may never be discarded.", "cards never discarded")
        return _YES

    def _can_go_out(self, action: GoOut) -> Verdict:
        if self.phase == "final_discard":
            return _no(
                "A final turn after someone went out ends with a discard, not by going out.",
                "final turns",
            )
        if self.phase != "discard":
            return _no(self._phase_hint(), "a turn: draw, then go out or discard")
        hand = self._hands[action.seat]
        if action.discard is not None and action.discard not in hand:
            return _no(f"Seat {action.seat} holds no {action.discard}.", "discard a card you hold")
        if action.discard is None and self.rules.going_out == "discard_required":
            return _no(
                "In this rule set going out needs a discard: the cards left after it must "
                "all be in melds.",
                "going out: must discard",
            )
        if action.discard in self._go_out_discards():
            return self._can_declare(action)
        if action.discard is None:
            reason = "Not every card of the hand fits in melds."
        else:
            reason = f"After discarding {action.discard} the cards left do not all fit in melds."
        return _no(reason + " Going out needs every card melded.", "going out")

    def _can_declare(self, action: GoOut) -> Verdict:
        """The declarer's own arrangement, when given: valid melds of exactly the cards kept."""
        if action.melds is None:
            return _YES
        return declared_verdict(action.melds, self._hands[action.seat], action.discard,
                                self.rules, self._dealt)  # fmt: skip

    def _can_lay_off(self, action: LayOff) -> Verdict:
        if not self.rules.lay_off:
            return _no("In this rule set nobody lays off onto the declarer's melds.", "no lay-offs")
        if self.phase != "lay_off":
            return _no(self._phase_hint(), "lay-offs come after the hands are shown")
        try:
            self._grow_table(action.seat, action.placements, action.places)
        except IllegalAction as err:
            return _no(err.reason, err.rule)
        return _YES

    def _phase_hint(self) -> str:
        return {
            "draw": "Draw a card first (from the stock or the discard pile).",
            "final_draw": "Draw a card first: this is your final turn.",
            "discard": "You have drawn: now discard a card or go out.",
            "final_discard": "You have drawn your final card: now discard.",
            "lay_off": "The hands are shown: now lay off onto the declarer's melds, or pass.",
        }.get(self.phase, f"Not now (phase {self.phase}).")

    # ------------------------------------------------------------------ acting

    def _do_draw(self, action: Draw) -> Record:
        seat = action.seat
        if action.source == "stock":
            card = self._stock.pop()
            rec = self._record(f"Seat {seat} draws from the stock.", action)
        else:
            card = self._pile.pop()
            self._picked_up[seat].append(card)
            token = card.token
            rec = self._recorded(
                f"Seat {seat} takes {token} from the discard pile.", action, (("card", token),)
            )
        self._hands[seat].append(card)
        self._drawn = card
        self._turns[seat] += 1
        self.phase = "discard" if self.phase == "draw" else "final_discard"
        return rec

    def _do_discard(self, action: Discard) -> Record:
        seat, card = action.seat, action.card
        self._hands[seat].remove(card)
        self._pile.append(card)
        self._discarded[seat].append(card)
        self._drawn = None
        token = card.token
        rec = self._recorded(f"Seat {seat} discards {token}.", action, (("card", token),))
        if self.phase == "final_discard":
            self._next_final_turn()
        elif self._last_chance:
            self._end_hand("the stock ran out")
        else:
            self._turns_this_hand += 1
            self._start_turn((seat + 1) % self.players)
        return rec

    def _do_go_out(self, action: GoOut) -> Record:
        from payme.solver import evaluate

        seat = action.seat
        hand = self._hands[seat]
        if action.discard is not None:
            hand.remove(action.discard)
            self._pile.append(action.discard)
            self._discarded[seat].append(action.discard)
        self._drawn = None
        declared = action.melds
        if declared is None:
            declared = evaluate(tuple(hand), self.rules, self._dealt).melds
        self._declarer = seat
        self._declarer_melds = list(declared)
        self._table = [list(m.cards) for m in declared]
        self._hands[seat] = []
        melds = "; ".join(format_hand(m) for m in self._table)
        how = "without discarding" if action.discard is None else f"discarding {action.discard}"
        call = f" {self.rules.go_out_call}" if self.rules.go_out_call else ""
        rec = self._record(
            f"Seat {seat} goes out {how}:{call} Melds: {melds}.",
            action,
            discard=action.discard or "",
            melds=melds,
        )
        self._final_queue = [(seat + k) % self.players for k in range(1, self.players)]
        if not self.rules.final_turn_draw:
            self._final_queue = []
        self._next_final_turn()
        return rec

    def _next_final_turn(self) -> None:
        while self._final_queue:
            seat = self._final_queue.pop(0)
            self._refill_stock()
            if any(self._can_draw_from(s) for s in self.rules.final_turn_draw):
                self.phase = "final_draw"
                self.to_move = seat
                return
            self._record(f"Seat {seat} cannot draw a card and skips the final turn.")
        self._show_hands()

    def _show_hands(self) -> None:
        declarer = self._declarer
        assert declarer is not None
        self._shown = [list(h) for h in self._hands]
        self._deadwood = [
            0 if s == declarer else points(sort_cards(h), self.rules, self._dealt)
            for s, h in enumerate(self._hands)
        ]
        self._record(
            "The hands are shown: "
            + "; ".join(
                f"seat {s} {format_hand(sort_cards(h))}"
                for s, h in enumerate(self._hands)
                if s != declarer
            )
            + "."
        )
        if self.rules.lay_off and self._table:
            self._layoff_queue = [(declarer + k) % self.players for k in range(1, self.players)]
            self.phase = "lay_off"
            self.to_move = self._layoff_queue.pop(0)
        else:
            self._score_hand("went out")

    # ------------------------------------------------------------------ lay-offs

    def _grow_table(
        self, seat: int, placements: object, places: object = None
    ) -> tuple[list[Meld], list[Card]]:
        """The declarer's melds after ``placements`` (wild cards at the ``places`` named,
        see :class:`~payme.game.actions.LayOff`) and the seat's hand left, or raise."""
        from payme.layoff import grow_meld

        if not isinstance(placements, tuple | list):
            raise IllegalAction(
                "Placements must be a sequence of (meld index, cards) pairs.", "lay-offs"
            )
        melds = list(self._declarer_melds)
        hand = list(self._hands[seat])
        named = places if isinstance(places, tuple) else (None,) * len(placements)
        for item, place in zip(placements, named, strict=False):
            if not (isinstance(item, tuple | list) and len(item) == 2):
                raise IllegalAction(
                    f"A placement is a (meld index, cards) pair, not {item!r}.", "lay-offs"
                )
            index, cards = item
            if not isinstance(index, int) or not 0 <= index < len(melds):
                raise IllegalAction(
                    f"There is no declarer's meld number {index!r}: the melds are numbered "
                    f"0 to {len(melds) - 1}.",
                    "lay off onto the declarer's melds",
                )
            try:
                added = parse_hand(cards)
            except ValueError as err:
                raise IllegalAction(str(err), "lay-offs") from None
            for card in added:
                if card not in hand:
                    raise IllegalAction(
                        f"Seat {seat} has no {card} left to lay off.", "lay off cards you hold"
                    )
                hand.remove(card)
            grown = grow_meld(melds[index], added, self.rules, self._dealt, places=place)
            if grown is None:
                raise IllegalAction(*self._refused_lay_off(melds[index], added, place))
            melds[index] = grown
        return melds, hand

    def _refused_lay_off(
        self, meld: Meld, added: tuple[Card, ...], place: tuple[Card | None, ...] | None
    ) -> tuple[str, str]:
        """Why ``added`` may not join ``meld`` (at the places named): a reason and a rule."""
        from payme.layoff import grow_meld, lay_off_places

        on = f"the meld {format_hand(meld.cards)}"
        if place is None or grow_meld(meld, added, self.rules, self._dealt) is None:
            return (
                f"{format_hand(added)} does not fit on {on}: the grown meld would not be valid.",
                "lay-offs: the grown meld must be valid",
            )
        rule = "lay-offs: whoever lays off names the place of a wild card on a run"
        if meld.kind != "run":
            return (
                f"A wild card in a set stands for its rank, not one card: lay "
                f"{format_hand(added)} off onto {on} without naming a place.",
                rule,
            )
        named = [f"{c} as {w}" for c, w in zip(added, place, strict=True) if w is not None]
        if len(added) == 1:
            ends = lay_off_places(meld, added[0], self.rules, self._dealt)
            if ends:
                where = " or ".join(str(c) for c in ends)
                return (
                    f"{named[0]} is not a place on {on}: a card laid off on a run goes next "
                    f"to one of its ends, and {added[0]} can stand for {where} there.",
                    rule,
                )
        return (
            f"{', '.join(named)} are not places {format_hand(added)} can take on {on}.",
            rule,
        )

    def _single_lay_offs(self, seat: int) -> list[LayOff]:
        """Each card of ``seat``'s hand that fits one of the declarer's melds by itself
        (what :func:`payme.layoff.single_lay_offs` finds, read from each meld's mask of the
        cards that fit it alone: worked out once for every opponent laying off)."""
        from payme.layoff import fitting_mask

        t = tables_for(self.rules, self._dealt)
        melds = tuple(self._declarer_melds)
        # The opponents lay off onto the same melds one after another (and a meld hashes
        # slowly): the masks of the melds asked about last are kept, told by identity
        # (a tuple compares its items by identity first).
        last_melds, last_t, masks = _LAST_MASKS
        if last_t is not t or last_melds != melds:
            masks = [fitting_mask(meld, t) for meld in melds]
            _LAST_MASKS[:] = [melds, t, masks]
        fits = 0
        for mask in masks:
            fits |= mask
        # In card order, then meld order (the order the legal actions list them in); by
        # card index (a set of cards hashes each by a Python call).
        return [
            LayOff(seat, ((index, (CARDS[i],)),))
            for i in sorted({c.index for c in self._hands[seat] if fits >> c.index & 1})
            for index, mask in enumerate(masks)
            if mask >> i & 1
        ]

    def _layoff_options(self, seat: int) -> list[Action]:
        options: list[Action] = [LayOff(seat, ())]
        singles = self._single_lay_offs(seat)
        best = self._best_lay_off(seat, bool(singles))
        if best.placements:
            options.append(best)
        options += [single for single in singles if single != best]
        return options

    def best_lay_off(self, seat: int | None = None) -> LayOff:
        """The lay-off that leaves ``seat`` (default: the one to move) the fewest points."""
        seat = self.to_move if seat is None else seat
        if self.phase != "lay_off" or seat is None:
            raise IllegalAction("There is nothing to lay off now.", "lay-offs")
        return self._best_lay_off(seat, bool(self._single_lay_offs(seat)))

    def _best_lay_off(self, seat: int, any_fits: bool) -> LayOff:
        # Every chain starts with a card that fits by itself: without one, nothing fits.
        if not any_fits:
            return LayOff(seat, ())
        hand = sort_cards(self._hands[seat])
        placements = best_lay_off_points(
            hand, tuple(self._declarer_melds), self.rules, self._dealt
        )[1]
        return LayOff(seat, placements)

    def _do_lay_off(self, action: LayOff) -> Record:
        seat = action.seat
        melds, hand = self._grow_table(seat, action.placements, action.places)
        self._declarer_melds = melds
        self._table = [list(m.cards) for m in melds]
        self._hands[seat] = hand
        placed = tuple((i, parse_hand(cs)) for i, cs in action.placements)
        self._lay_offs[seat] = placed
        if placed:
            text = ", ".join(f"{format_hand(cs)} on meld {i}" for i, cs in placed)
            rec = self._record(f"Seat {seat} lays off {text}.", action)
        else:
            rec = self._record(f"Seat {seat} lays off nothing.", action)
        if self._layoff_queue:
            self.to_move = self._layoff_queue.pop(0)
        else:
            self._score_hand("went out")
        return rec

    # ------------------------------------------------------------------ scoring

    def _end_hand(self, why: str) -> None:
        """The hand ends with no declarer: everyone scores their deadwood."""
        self._record(f"The hand ends with no declarer: {why}.")
        self._shown = [list(h) for h in self._hands]
        self._deadwood = [points(sort_cards(h), self.rules, self._dealt) for h in self._hands]
        self._score_hand(why)

    def _score_hand(self, how: str) -> None:
        declarer = self._declarer
        scored = [
            0 if s == declarer else points(sort_cards(h), self.rules, self._dealt)
            for s, h in enumerate(self._hands)
        ]
        if declarer is None:
            scored = list(self._deadwood)
        money: list[int] | None = None
        stakes = self.rules.money
        if stakes is not None:
            money = [0] * self.players
            if declarer is not None:
                for s in range(self.players):
                    if s != declarer:
                        money[s] -= stakes.per_hand
                        money[declarer] += stakes.per_hand
        for s in range(self.players):
            self._totals[s] += scored[s]
        last = self.hand_number == self.rules.hands
        if last and stakes is not None and money is not None:
            for s, share in enumerate(self.pot_shares()):
                money[s] += share - stakes.ante
        if money is not None and self._money is not None:
            for s in range(self.players):
                self._money[s] += money[s]
        wild = self.rules.round_wild_rank(self._dealt)
        for s in range(self.players):
            self._rows.append(
                {
                    "hand": self.hand_number,
                    "dealt": self._dealt,
                    "wild_rank": wild,
                    "seat": s,
                    "went_out": s == declarer,
                    "turns": self._turns[s],
                    "deadwood": self._deadwood[s],
                    "points": scored[s],
                    "total": self._totals[s],
                    "money": None if money is None else money[s],
                }
            )
        assert self._shown is not None
        self._summaries.append(
            HandSummary(
                number=self.hand_number,
                dealt=self._dealt,
                dealer=self._dealer,
                declarer=declarer,
                hands=tuple(tuple(h) for h in self._shown),
                table=self.table,
                lay_offs=tuple(self._lay_offs),
                deadwood=tuple(self._deadwood),
                points=tuple(scored),
                turns=tuple(self._turns),
                money=None if money is None else tuple(money),
                how=how,
            )
        )
        self._record(
            f"Hand {self.hand_number} scores: "
            + ", ".join(f"seat {s} {p}" for s, p in enumerate(scored))
            + "; totals: "
            + ", ".join(str(t) for t in self._totals)
            + "."
        )
        self.to_move = None
        if last:
            self.phase = "game_over"
            won = self.winners()
            self._record(
                "The game is over: "
                + (f"seat {won[0]} wins" if len(won) == 1 else
                   "seats " + ", ".join(map(str, won)) + " share the win")
                + f" with {self._totals[won[0]]} points."
            )  # fmt: skip
        else:
            self.phase = "hand_over"
            if self.auto_advance:
                self.advance()

    def pot_shares(self) -> list[int]:
        """Each seat's share of the pot (cents): split evenly among the current leaders.

        Cents that do not split evenly go one each to the winners in seat order from the
        first dealer's left (seat 0 first), so no cent is lost.  The game pays these out at
        its end; before then they are what the pot would pay if the game ended now.  A rule
        set without stakes has no pot: that is an error.

        >>> g = PayMeGame("family", players=3, seed=1)
        >>> g.pot_shares()  # nobody has scored yet: all three lead and share the 150 cents
        [50, 50, 50]
        """
        stakes = self.rules.money
        if stakes is None:
            raise ValueError(f"rule set {self.rules.name!r} plays for no money: it has no pot")
        pot = stakes.ante * self.players
        won = self._leaders()
        share, odd = divmod(pot, len(won))
        shares = [0] * self.players
        for k, s in enumerate(won):
            shares[s] = share + (1 if k < odd else 0)
        return shares

    def _leaders(self) -> tuple[int, ...]:
        best = min(self._totals)
        return tuple(s for s, t in enumerate(self._totals) if t == best)

    def winners(self) -> tuple[int, ...]:
        """The seats with the lowest total once the game is over (ties share); else ``()``."""
        return self._leaders() if self.over else ()

    def advance(self) -> None:
        """Deal the next hand after a finished one (only needed with ``auto_advance=False``)."""
        if self.phase != "hand_over":
            raise IllegalAction("There is no finished hand to move past.", "the deal")
        self._deal(self.hand_number + 1)

    def results(self) -> list[ResultRow]:
        """One row per finished hand and seat.

        Keys: ``hand, dealt, wild_rank, seat, went_out, turns, deadwood, points, total,
        money`` (``money``: cents won or lost in that hand for rule sets with stakes, the
        antes and the pot settled in the last hand's row; ``None`` otherwise).
        """
        return [dict(row) for row in self._rows]

    # ------------------------------------------------------------------ views

    def view(self, seat: int) -> PayMeView:
        """What ``seat`` may see now (no other player's hidden cards)."""
        declared = tuple(self._declarer_melds)
        declarer = self._declarer
        players = self.players
        melds: list[tuple[Meld, ...]] = [()] * players
        if declarer is not None:
            melds[declarer] = declared
        showing = self.phase == "lay_off" and self._shown is not None
        # Built at every move of a bot game: one dict, held by the view (map(tuple, ...)
        # is the cheapest copy of a list of lists).
        values = self._seat_fields(
            seat, tuple(self._hands[self._check_seat(seat)]), tuple(self._pile), tuple(melds)
        )
        values["declarer"] = declarer
        values["table"] = tuple(map(tuple, self._table))
        values["table_melds"] = declared
        values["shown"] = tuple(map(tuple, self._hands)) if showing else (None,) * players
        values["picked_up"] = tuple(map(tuple, self._picked_up))
        values["discarded"] = tuple(map(tuple, self._discarded))
        values["totals"] = tuple(self._totals)
        money = self._money
        values["money"] = None if money is None else tuple(money)
        values["last_hand"] = self._summaries[-1] if self._summaries else None
        return held_frozen(PayMeView, values)

    def __repr__(self) -> str:
        return (
            f"PayMeGame(rules={self.rules.name!r}, players={self.players}, seed={self.seed}, "
            f"hand={self.hand_number}, phase={self.phase!r}, to_move={self.to_move})"
        )


_DISCARDS: dict[int, Discard] = {}
_DRAWS: dict[tuple[int, str], Draw] = {}


def draw_action(seat: int, source: DrawFrom) -> Draw:
    """``Draw(seat, source)``, one object for each (actions are values; the legal actions
    list the draws at every turn)."""
    action = _DRAWS.get((seat, source))
    if action is None:
        action = _DRAWS[seat, source] = Draw(seat, source)
    return action


_LAST_MASKS: list[Any] = [(), None, []]


def discard_action(seat: int, card: Card) -> Discard:
    """``Discard(seat, card)``, one object for each (actions are values): the legal actions
    list every card of the hand at every turn."""
    # Keyed by one int: a (seat, card) tuple hashes the card by a Python call each time.
    key = seat << 8 | card.index
    action = _DISCARDS.get(key)
    if action is None:
        action = _DISCARDS[key] = Discard(seat, card)
    return action


def _per_seat_ints(values: dict[str, object], attr: str, players: int) -> list[int]:
    value = values.get(attr, [0] * players)
    if not isinstance(value, list) or len(value) != players:
        raise position.PositionError(f"{attr.strip('_')} needs one number per seat ({players})")
    return value


_FIELDS: tuple[position.Field, ...] = (
    ("players", "players", position.INT),
    ("seed", "seed", position.INT),
    ("hand", "_hand_number", position.INT),
    *position.TABLE,
    ("declarer", "_declarer", position.OPT_INT),
    ("table", "_declarer_melds", position.MELDS),
    ("totals", "_totals", position.INTS),
    ("money", "_money", position.OPT_INTS),
    ("turns", "_turns", position.INTS),
    ("hand_turns", "_turns_this_hand", position.INT),
    ("picked_up", "_picked_up", position.SEAT_CARDS),
    ("discarded", "_discarded", position.SEAT_CARDS),
    ("final_turns", "_final_queue", position.INTS),
    ("lay_off_turns", "_layoff_queue", position.INTS),
    ("shown", "_shown", position.OPT_SEAT_CARDS),
    ("deadwood", "_deadwood", position.INTS),
    ("lay_offs", "_lay_offs", position.SEAT_PLACEMENTS),
    ("last_chance", "_last_chance", position.BOOL),
    ("turn_limit", "turn_limit", position.OPT_INT),
    ("auto_advance", "auto_advance", position.BOOL),
)
"""Pay Me's position fields: ``(key, attribute, codec)``."""


__getattr__ = renamed("payme.game.pay_me", {"replay": "payme.game:replay"})

__all__ = ["PHASES", "PayMeGame"]
