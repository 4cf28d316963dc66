"""The one interface both games implement: :class:`Game`.

Play, the bots, replay and simulation use a game only through this interface, so none of
them asks which game it is (see :mod:`payme.game` for the whole contract).

An action is checked completely by :meth:`Game.can` before anything changes; :meth:`Game.apply`
also keeps what it needs to put the game back exactly as it was should an action fail
half-way (a bug, or the machine running out of memory): a refused or failing action never
leaves a game changed.
"""

from __future__ import annotations

import inspect
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, fields
from types import MappingProxyType
from typing import Any, ClassVar, Self, TypeVar, overload

from payme.cards import Card, parse_card, parse_hand
from payme.deprecation import moved_attribute
from payme.game import actions as action_types
from payme.game.actions import CHECK_STEPS, STEPS, Action, IllegalAction, Record, Verdict
from payme.game.view import SeatView, V, held_frozen, stock_estimate
from payme.melds import Meld
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules

GameOption = int | bool | Mapping[str, int] | None
"""The value of a game's keyword option (``turn_limit=40``, ``optional={"NOGO": 1}``)."""

ResultRow = dict[str, Any]
"""One row of :meth:`Game.results` (plain values, one column per key: a DataFrame row)."""


_BY_HAND_DEFAULTS: Mapping[str, object] = MappingProxyType({"source": "stock"})
"""Defaults by hand where the action has none: a draw is from the stock unless told."""


class _ByHand:
    """One method of a game's action surface, made from an action type: ``game.discard("7H")``
    does ``Discard(game.to_move, Card("7H"))`` and ``game.can_discard("7H")`` asks whether it
    is legal.  Its arguments are the action's fields but the seat (the player to move), in
    order and with their defaults; cards may be given as text, a go-out's melds as groups of
    cards in place order (see :func:`~payme.game.arrangement.declare`) and lay-offs as
    ``(meld index, cards)`` pairs.  The name must be the one :data:`~payme.game.actions.STEPS`
    gives the type (``can_`` before it to ask), so both games' surfaces match their steps.
    """

    def __init__(self, kind: type[Action], *, ask: bool) -> None:
        self.kind = kind
        self.ask = ask
        self.name = ("can_" if ask else "") + STEPS[kind].removeprefix("_do_")
        params = [
            inspect.Parameter(
                f.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=_BY_HAND_DEFAULTS.get(
                    f.name, inspect.Parameter.empty if f.default is MISSING else f.default
                ),
            )
            for f in fields(kind)
            if f.name != "seat"
        ]
        self.signature = inspect.Signature(params)
        what = "whether the player to move may do" if ask else "the player to move does"
        self.__doc__ = f"``{self.name}{self.signature}``: {what} a {kind.__name__}."

    def __set_name__(self, owner: type, name: str) -> None:
        if name != self.name:
            raise TypeError(f"{owner.__name__}.{name} should be named {self.name}")

    def __repr__(self) -> str:
        return f"{self.name}{self.signature}"

    def action(self, game: Game, args: tuple[object, ...], kwargs: dict[str, object]) -> Action:
        """The action these arguments describe, for the player to move (seat -1 when the game
        is over: then every action is refused); a group that is no valid meld raises
        :class:`~payme.game.actions.IllegalAction` with the reason."""
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        values = {name: _read_field(game, name, v) for name, v in bound.arguments.items()}
        seat = game.to_move if game.to_move is not None else -1
        return self.kind(seat, **values)


def _read_field(game: Game, name: str, value: Any) -> Any:
    """An action's field given by hand, read: cards from text, melds and lay-offs from
    groups of cards."""
    if name in ("card", "discard") and isinstance(value, str):
        return parse_card(value)
    if name == "melds":
        from payme.game.arrangement import declare

        return declare(value, game.rules, game.dealt)
    if name == "placements":
        return tuple((i, parse_hand(cards)) for i, cards in value)
    return value


class _Do(_ByHand):
    def __init__(self, kind: type[Action]) -> None:
        super().__init__(kind, ask=False)

    @overload
    def __get__(self, game: None, owner: type | None = None) -> _Do: ...
    @overload
    def __get__(self, game: Game, owner: type | None = None) -> Callable[..., Record]: ...
    def __get__(self, game: Game | None, owner: type | None = None) -> Any:
        if game is None:
            return self

        def do(*args: object, **kwargs: object) -> Record:
            if game.to_move is None:
                raise IllegalAction("Nobody is to move: the game is over.", "end of the game")
            return game.apply(self.action(game, args, kwargs))

        return self._named(do)

    def _named(self, method: Callable[..., Any]) -> Callable[..., Any]:
        method.__name__ = method.__qualname__ = self.name
        method.__doc__ = self.__doc__
        method.__signature__ = self.signature  # type: ignore[attr-defined]
        return method


class _Ask(_Do):
    def __init__(self, kind: type[Action]) -> None:
        _ByHand.__init__(self, kind, ask=True)

    @overload  # type: ignore[override]
    def __get__(self, game: None, owner: type | None = None) -> _Ask: ...
    @overload
    def __get__(self, game: Game, owner: type | None = None) -> Callable[..., Verdict]: ...
    def __get__(self, game: Game | None, owner: type | None = None) -> Any:
        if game is None:
            return self

        def can(*args: object, **kwargs: object) -> Verdict:
            try:
                action = self.action(game, args, kwargs)
            except IllegalAction as err:
                return Verdict(False, err.reason, err.rule)
            return game.can(action)

        return self._named(can)


_APPEND_ONLY = frozenset({"_history", "_actions", "_rows", "_summaries", "_public_log"})
"""Lists an action only appends to: undone by cutting them back to their length."""


class Game(ABC):
    """A game of Pay Me or Rummy 3-Pack, from the deal to its winners.

    What every game offers (both games, the same names and meanings): ``rules``,
    ``players``, ``seed``, ``phase``, ``to_move``, ``over``, ``hand_number``, ``dealt``,
    ``legal_actions()``, ``can(action)``, ``verify(action)``, ``apply(action)``,
    ``advance()``, ``history``, ``actions``, ``view(seat)``, ``results()``, ``winners()``,
    ``hand_of(seat)``, ``stock``, ``discard_pile``, ``cards_in_play()``,
    ``to_position()`` / ``from_position(text)`` and the class method ``replay``.
    """

    GAME: ClassVar[str]
    """The rule sets' ``game`` field this engine plays."""
    GAME_NAME: ClassVar[str]
    """The game's name in words (``"Pay Me"``), for messages."""
    RESULT_COLUMNS: ClassVar[tuple[tuple[str, str], ...]]
    """The columns of a simulation's frame for this game, each with a compact pandas dtype:
    the columns of :meth:`results` plus ``game`` and ``bot``, which the simulation adds."""
    BOT_MODULE: ClassVar[str]
    """The module of this game's bots (its ``BOTS`` table: name -> factory)."""
    BOT_TURN_LIMIT: ClassVar[int | None] = None
    """The ``turn_limit`` a game of bots gets unless told otherwise (a safety net)."""
    TABLE_OPTIONS: ClassVar[Mapping[str, GameOption]] = MappingProxyType({})
    """The options a game played by a person at the table gets (Pay Me waits between hands
    so the player can read the result)."""
    GO_OUT_CALL = moved_attribute("", "Game.GO_OUT_CALL", "read rules.go_out_call")
    """Deprecated: what a player calls on going out is the rule set's ``go_out_call``."""
    SCORE_UNIT: ClassVar[str] = "points"
    """What a player's score in a hand counts, in words."""
    KEEPS_SCORE: ClassVar[bool] = False
    """Whether each hand is scored and totalled (a scoreboard, a result after each hand)."""
    DECLARES_MELDS: ClassVar[bool] = False
    """Whether going out lays down melds the player arranges (``GoOut(..., melds=...)``)."""

    rules: Ruleset
    players: int
    seed: int
    turn_limit: int | None
    """An engine option, no rule: the game ends after this many turns (a safety net for bot
    simulations; ``None``: no limit)."""
    phase: str
    """Where the game stands: what kind of action comes next (each game lists its phases)."""
    to_move: int | None
    """The seat whose action comes next (``None`` when the game is over)."""
    _rng: random.Random
    _dealt: int
    _dealer: int
    _hands: list[list[Card]]
    _stock: list[Card]
    _pile: list[Card]
    _turns: list[int]
    _drawn: Card | None
    _history: list[Record]
    _actions: list[Action]

    def _begin(self, rules: RulesLike, players: int, seed: int, turn_limit: int | None) -> Ruleset:
        """Check and keep what every game starts from (its rule set, one of this game's; the
        players; the seed; the turn limit), a ``ValueError`` naming a wrong one, and start
        the empty record and the random source; the rule set, for the engine's own checks."""
        r = get_rules(rules)
        if r.game != self.GAME:
            raise ValueError(f"{r.name} is a {r.game} rule set, not a {self.GAME_NAME} one")
        r.check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        if turn_limit is not None and (not isinstance(turn_limit, int) or turn_limit < 1):
            raise ValueError(
                f"turn_limit must be a positive whole number or None, not {turn_limit!r}"
            )
        self.rules, self.players, self.seed, self.turn_limit = r, players, seed, turn_limit
        self._rng = random.Random(seed)
        self._history = []
        self._actions = []
        return r

    # ------------------------------------------------------------------ state

    @property
    def over(self) -> bool:
        return self.phase == "game_over"

    @property
    def history(self) -> tuple[Record, ...]:
        """Every action and event so far, in order (public information only)."""
        return tuple(self._history)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions players chose, in order: with the seed they replay the game."""
        return tuple(self._actions)

    @property
    @abstractmethod
    def hand_number(self) -> int:
        """The hand being played (1 …; Rummy 3-Pack: always 1, one deal is one game)."""

    @property
    def dealer(self) -> int:
        """The seat that dealt the current hand."""
        return self._dealer

    @property
    def dealt(self) -> int:
        """Cards dealt to each player in the current hand."""
        return self._dealt

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, bottom to top (hidden from players; for tests and the host)."""
        return tuple(self._stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The whole discard pile, bottom to top (for the host; players see :meth:`view`)."""
        return tuple(self._pile)

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards (the whole truth: for tests and the host, not for players)."""
        return tuple(self._hands[seat])

    @abstractmethod
    def cards_in_play(self) -> Counter[Card]:
        """Every card's count wherever it is (always the pack: nothing created or lost)."""

    @abstractmethod
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now (never another player's hidden cards)."""

    def _check_seat(self, seat: object) -> int:
        """``seat`` when it is a seat of this table; else a ``ValueError`` saying so."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(
                f"there is no seat {seat!r} at this table: seat must be 0 to {self.players - 1}"
            )
        return seat

    def _view(
        self,
        kind: type[V],
        seat: int,
        hand: tuple[Card, ...],
        discard_pile: tuple[Card, ...],
        melds: tuple[tuple[Meld, ...], ...],
        **own: Any,
    ) -> V:
        """The view of ``kind`` for ``seat``: the fields every view has, given what differs by
        game, and ``own``, the fields only ``kind`` has (all of them: see
        :func:`~payme.game.view.make_frozen`)."""
        values = self._seat_fields(seat, hand, discard_pile, melds)
        values.update(own)
        return held_frozen(kind, values)

    def _seat_fields(
        self,
        seat: int,
        hand: tuple[Card, ...],
        discard_pile: tuple[Card, ...],
        melds: tuple[tuple[Meld, ...], ...],
    ) -> dict[str, Any]:
        """The fields of :class:`~payme.game.view.SeatView` for ``seat``, in their order, as a
        new dict a view of either game adds its own fields to and then holds
        (:func:`~payme.game.view.held_frozen`): a bot game builds a view at every move."""
        self._check_seat(seat)
        rules, dealt, to_move = self.rules, self._dealt, self.to_move
        stock = len(self._stock)
        counted = rules.stock_counted
        return {
            "seat": seat,
            "players": self.players,
            "rules": rules,
            "phase": self.phase,
            "to_move": to_move,
            "over": self.over,
            "hand_number": self.hand_number,
            "dealt": dealt,
            "wild_rank": rules.round_wild_rank(dealt),
            "dealer": self.dealer,
            "hand": hand,
            "drawn": self._drawn if seat == to_move else None,
            "hand_counts": tuple(map(len, self._hands)),
            "stock_count": stock if counted else None,
            "stock_estimate": stock if counted else stock_estimate(stock),
            "discard_pile": discard_pile,
            "melds": melds,
            "turns": tuple(self._turns),
            "winners": self.winners(),
        }

    @abstractmethod
    def results(self) -> list[ResultRow]:
        """The game's results as rows (each game documents its columns)."""

    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """The seats that won (``()`` until the game is over)."""

    # ------------------------------------------------------------------ positions

    @abstractmethod
    def to_position(self) -> str:
        """The whole position in the game's text notation (see :mod:`payme.game.position`)."""

    @classmethod
    @abstractmethod
    def from_position(cls, text: str, rules: Ruleset | None = None) -> Self:
        """A game set up at the position ``text`` (``rules``: a custom rule set it names)."""

    # ------------------------------------------------------------------ actions

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action of :attr:`to_move`, in a fixed order."""

    def _check(self, action: Action) -> Verdict:
        """The engine's own check of ``action``, by its kind (the method
        :data:`~payme.game.actions.CHECK_STEPS` names); a kind with no check is no action here."""
        check: Callable[[Action], Verdict] | None = getattr(self, CHECK_STEPS[type(action)], None)
        if check is None:
            name = type(action).__name__
            return Verdict(False, f"{name} is not an action in {self.GAME_NAME}.", "actions")
        return check(action)

    @abstractmethod
    def can(self, action: Action) -> Verdict:
        """Whether ``action`` is legal now; when not, the reason and the rule it breaks.

        The check is complete, types included: an action that passes is applied whole."""

    def verify(self, action: Action) -> None:
        """Raise :class:`~payme.game.actions.IllegalAction` (naming the rule) unless
        ``action`` is legal now."""
        verdict = self.can(action)
        if not verdict.ok:
            raise IllegalAction(verdict.reason, verdict.rule)

    def apply(self, action: Action) -> Record:
        """Do ``action`` and return its record.

        An illegal action raises :class:`~payme.game.actions.IllegalAction` and changes
        nothing; an action that fails half-way for any other reason is undone before the error
        goes on.
        """
        self.verify(action)
        saved = self._save()
        try:
            self._actions.append(action)
            return self._act(action)
        except BaseException:
            self._restore(saved)
            raise

    def _apply_owned(self, action: Action) -> Record:
        """:meth:`apply` without keeping what an undo needs, for a game nobody else holds
        (a whole game of bots, thrown away when an action fails): the copy of every list
        :meth:`apply` keeps costs as much as a bot's move.  Illegal actions are still
        refused before anything changes."""
        self.verify(action)
        self._actions.append(action)
        return self._act(action)

    def _apply_listed(self, action: Action) -> Record:
        """:meth:`_apply_owned` of an action taken unchanged from what :meth:`legal_actions`
        listed just before: legal by construction, so :meth:`can` is not asked again (it
        cost a bot game about 3% of its time; a test checks every listed action with it)."""
        self._actions.append(action)
        return self._act(action)

    # ------------------------------------------------------------------ by hand
    # Every kind of action, asked and done by the player to move (see _ByHand), the same in
    # both games: a game refuses, with the reason, the kinds it does not know.

    can_draw = _Ask(action_types.Draw)
    draw = _Do(action_types.Draw)
    can_discard = _Ask(action_types.Discard)
    discard = _Do(action_types.Discard)
    can_go_out = _Ask(action_types.GoOut)
    go_out = _Do(action_types.GoOut)
    can_lay_off = _Ask(action_types.LayOff)
    lay_off = _Do(action_types.LayOff)
    can_lay_down_rummy = _Ask(action_types.LayDownRummy)
    lay_down_rummy = _Do(action_types.LayDownRummy)
    can_drop_out = _Ask(action_types.DropOut)
    drop_out = _Do(action_types.DropOut)

    def _act(self, action: Action) -> Record:
        """Do a legal ``action`` (already checked by :meth:`can`): each game has one private
        step per action it knows, named alike in both (``_do_draw``, ``_do_discard``,
        ``_do_go_out``, ``_do_lay_off``, ``_do_lay_down_rummy``, ``_do_drop_out``)."""
        step: Callable[[Action], Record] = getattr(self, STEPS[type(action)])
        return step(action)

    @abstractmethod
    def advance(self) -> None:
        """Deal the next hand after a finished one (Pay Me with ``auto_advance=False``)."""

    @classmethod
    def new(cls, rules: RulesLike, players: int, seed: int = 0, **options: GameOption) -> Self:
        """A new game; ``options`` are the game's own keyword options (each game checks
        them and names a wrong one)."""
        return cls(rules, players, seed, **options)  # type: ignore[call-arg]

    @classmethod
    def replay(
        cls,
        rules: RulesLike,
        players: int,
        seed: int,
        actions: Iterable[Action],
        **options: GameOption,
    ) -> Self:
        """Rebuild a game from its seed, options and actions (each checked as applied).

        Options only a replay has act after the actions (Rummy 3-Pack's ``tie=True``: the
        table then agreed to a tie game)."""
        end = cls._replay_end(options)
        game = cls.new(rules, players, seed, **options)
        for action in actions:
            if game.phase == "hand_over":
                game.advance()
            game.apply(action)
        end(game)
        return game

    @classmethod
    def _replay_end(cls, options: dict[str, GameOption]) -> Callable[[Self], object]:
        """What :meth:`replay` does after the actions, from the options only a replay has
        (taken out of ``options``): nothing unless a game says otherwise."""
        return lambda game: None

    # ------------------------------------------------------------------ undo

    def _save(self) -> dict[str, object]:
        """What :meth:`_restore` needs to put every attribute back as it is now."""
        saved: dict[str, object] = {}
        for name, value in vars(self).items():
            if name in _APPEND_ONLY:
                saved[name] = len(value)
            elif isinstance(value, list):
                saved[name] = [x.copy() if isinstance(x, list) else x for x in value]
            elif isinstance(value, dict):
                saved[name] = dict(value)
            elif isinstance(value, random.Random):
                saved[name] = value.getstate()
            else:
                saved[name] = value
        return saved

    def _restore(self, saved: dict[str, object]) -> None:
        for name in [n for n in vars(self) if n not in saved]:
            delattr(self, name)
        for name, value in saved.items():
            current = getattr(self, name)
            if name in _APPEND_ONLY:
                assert isinstance(value, int)
                del current[value:]
            elif isinstance(current, random.Random):
                current.setstate(value)  # type: ignore[arg-type]
            else:
                setattr(self, name, value)


G = TypeVar("G", bound=Game)


def narrow_game(game: Game, kind: type[G]) -> G:
    """``game`` as one game's engine, for code made for that game only (checked: another
    game is a ``TypeError`` naming both).

    >>> from payme.game import new_game
    >>> from payme.game.pay_me import PayMeGame
    >>> narrow_game(new_game("three_pack", 2), PayMeGame)
    Traceback (most recent call last):
    ...
    TypeError: expected a PayMeGame, not a ThreePackGame
    """
    if not isinstance(game, kind):
        raise TypeError(f"expected a {kind.__name__}, not a {type(game).__name__}")
    return game


__all__ = ["Game", "GameOption", "ResultRow", "narrow_game"]
