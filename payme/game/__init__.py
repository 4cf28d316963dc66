"""Games of Pay Me and Rummy 3-Pack, played by people and bots.

Both games implement one interface, :class:`payme.game.base.Game` (Pay Me:
:class:`~payme.game.pay_me.PayMeGame`; Rummy 3-Pack:
:class:`~payme.game.three_pack.ThreePackGame`).  Play, the bots, replay and simulation use
a game only through it and never ask which game it is; what differs between the games is
data (the rule set's fields, the view's fields, the engine's class attributes)::

    from payme.game import new_game, play_game, replay, from_position, make_bot, BOT_NAMES
    g = new_game(rules="denexa", players=4, seed=7)           # a Game (here a PayMeGame)
    g = new_game(rules="three_pack", players=4, seed=7, dealt=7, optional={"NOGO": 1})
    g.rules, g.players, g.seed   # seed defaults to 0 in both games
    g.hand_number, g.dealt       # Rummy 3-Pack: always hand 1 (one deal is one game)
    g.to_move          # seat (0-based) whose decision it is; None when nobody is to move
    g.phase            # Pay Me: "draw", "discard", "final_draw", "final_discard",
                       # "lay_off", "hand_over", "game_over"; Rummy 3-Pack: "draw",
                       # "discard", "final_draw", "final_go_out", "game_over"
    g.over             # bool
    g.legal_actions()  # every legal Action of g.to_move, in a fixed order (a GoOut is
                       # listed with melds=None; any valid arrangement of it is legal too)
    g.can(action)      # Verdict(ok, reason, rule): checked completely, types included
    g.verify(action)   # raises IllegalAction(reason naming the rule)
    g.apply(action)    # -> Record; an illegal action raises IllegalAction and changes
                       # nothing; an action failing half-way is undone before it raises
    g.advance()        # deal the next hand after a finished one (Pay Me with
                       # auto_advance=False; Rummy 3-Pack has none and says so)
    g.history          # tuple[Record, ...]: every action and event (public information)
    g.actions          # tuple[Action, ...]: what players chose
    g.view(seat)       # that player's view: never another's hidden cards (see below)
    g.results()        # list of row dicts: Pay Me — one per finished hand x seat
                       #   hand, dealt, wild_rank, seat, went_out, turns, deadwood, points,
                       #   total, money (cents in that hand; None without stakes)
                       # Rummy 3-Pack — one per seat: seat, winner, how, turns, dropped
    g.winners()        # seats that won (Pay Me: lowest total, ties share; () until over)
    g.hand_of(seat), g.stock, g.discard_pile, g.cards_in_play()   # the host's whole truth
    g.to_position()    # the whole position as one line of text (payme.game.position)
    from_position(text)                                # a game set up at that position
    replay(rules, players, seed, actions, **options)   # rebuilds the game exactly
    play_game(rules, players, bots=("greedy", ...), seed=S, **options) -> finished game
    make_bot(name, rules, seed, generation=BOT_GENERATION) -> Bot;  bot.choose(view, legal_actions)
                       # -> Action (an older generation: the bots of an older release)
    BOT_NAMES == ("random", "greedy", "strong", "expert")
    advise(view, legal_actions) -> Recommendation(action, reason, options)   # the expert's hint
    game_class(rules)  # the engine class; its GAME, BOT_MODULE, BOT_TURN_LIMIT,
                       # RESULT_COLUMNS, TABLE_OPTIONS, SCORE_UNIT, KEEPS_SCORE
                       # and DECLARES_MELDS say what differs between the engines

Every view (:class:`~payme.game.view.SeatView`) has what a card table draws: ``seat``,
``players``, ``rules``, ``phase``, ``to_move``, ``over``, ``hand_number``, ``dealt``,
``wild_rank``, ``dealer``, ``hand``, ``drawn`` (the card just drawn), ``hand_counts``,
``stock_count`` (``None`` where the rules never count the stock: Rummy 3-Pack),
``stock_estimate`` (what a look tells; the count where counting is allowed),
``discard_pile`` (bottom to top, what this seat may see; ``top_discard``), ``melds`` (the
melds on the table by the seat that laid them), ``turns``, ``winners`` and ``your_turn``,
and what a table shows of each seat: ``note(seat)``, ``shown_hand(seat)``,
``out_of_play(seat)``, ``public_cards()``, ``optional_counts()``.
A :class:`~payme.game.view.PayMeView` adds ``declarer``, ``table`` / ``table_melds`` (the
declarer's melds with lay-offs so far), ``shown`` (every hand, in the lay-off phase only),
``picked_up`` and ``discarded`` per seat this hand, ``totals``, ``money``, ``final_turn``
and ``last_hand`` (a :class:`~payme.game.view.HandSummary` of the hand finished last, every
hand shown; ``g.summaries`` holds them all).  A :class:`~payme.game.view.ThreePackView`
adds ``optional``, ``pack_counts``, ``first``, ``seating``, ``active``, ``public_log`` and
``how`` (how each winner won).

Going out carries the declarer's arrangement: ``GoOut(seat, discard, melds=...)`` (see
:mod:`payme.game.arrangement`: ``declare`` reads melds written in place order, e.g.
``"JK 5H 6H"``, ``check_arrangement`` gives a reason per meld, ``arrangements`` lists the
choices, the engine's best layout first).  ``melds=None`` lays down the engine's layout.

Every action by hand, for the player to move, in both games (made from the action types:
``can_<step>`` asks, ``<step>`` acts; a game refuses the kinds it does not know, saying why)::

    g.can_draw(source="stock", take=1), g.draw(source="stock", take=1)
    g.can_discard(card), g.discard(card)
    g.can_go_out(discard=None, melds=None), g.go_out(discard=None, melds=None)
    g.can_lay_off(placements=()), g.lay_off(placements=())  # ((meld index, cards), ...)
    g.can_lay_down_rummy(), g.lay_down_rummy()
    g.can_drop_out(), g.drop_out()
    g.best_lay_off()                               # Pay Me: the LayOff leaving the fewest points

Same rules, players, seed and actions give the same game: the game owns a
``random.Random(seed)`` (the shuffles and stock rebuilds); bots own their own seeded rngs.

Readings the Pay Me engine uses where RULES.md is silent:

* Seats 0 … n-1 sit clockwise; "left" is the next seat.  The last seat deals hand 1, so seat
  0 plays first; the deal passes left each hand.  A fresh shuffled pack is dealt each hand.
* A player may take the top discard and discard that same card again.
* The stock is rebuilt (the discard pile but its top card, shuffled with the game's rng)
  when a player is about to draw and the stock is empty.  When neither the stock nor the
  discard pile has a card, the hand ends with no declarer: everyone scores their deadwood
  and nobody lays off.  In a final turn a player who cannot draw from the allowed sources
  skips the turn.
* A custom rule set with ``stock_out="end"`` never rebuilds the stock: the player after the
  one who took the last stock card gets one turn (drawing from the discard pile) to go out,
  unless holding an instant-win card, and then the hand ends with no declarer.  Cards in
  ``never_discarded`` are never discarded.  Rummy 3-Pack's other fields (instant wins,
  holders who win, match points, variations) do not apply to Pay Me's scoring.
* A final turn is a draw and a discard; it never goes out (the table says "then discard").
* The declarer lays down the best layout of the cards it goes out with.  Lay-offs come one
  opponent at a time from the declarer's left; a player may lay off nothing.  The points
  scored are the best layout of the cards left after the lay-offs.
* Money (``rules.money``): the antes and the pot are settled in the last hand's row; the pot
  is split evenly among tied winners and odd cents go one each to the tied winners in seat
  order (seat 0 first).  A hand with no declarer moves no money.
* ``turn_limit`` (engine option, default ``None``): a hand with that many turns and no one
  out ends like the no-card end.  Bot simulations use it as a safety net only.

>>> g = play_game("denexa", players=3, bots=("greedy", "greedy", "random"), seed=1)
>>> g.over, len(g.results()) == 11 * 3, sum(r["points"] for r in g.results()) == sum(g.totals)
(True, True, True)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from payme.game.generations import BOT_GENERATION, check_generation
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules

if TYPE_CHECKING:  # pragma: no cover
    from payme.game.actions import Action
    from payme.game.base import Game, GameOption
    from payme.game.bots import Bot, BotFactory, Recommendation
    from payme.game.view import SeatView

BOT_NAMES: tuple[str, ...] = ("random", "greedy", "strong", "expert")
"""The bots every game offers, weakest first (each game's bot module has one of each)."""

_ENGINES: dict[str, tuple[str, str]] = {
    "pay_me": ("payme.game.pay_me", "PayMeGame"),
    "rummy_3_pack": ("payme.game.three_pack", "ThreePackGame"),
}
"""The engine class for each kind of rule set (``Ruleset.game``), imported on first use."""


def game_class(rules: RulesLike) -> type[Game]:
    """The engine that plays a rule set's game.

    >>> game_class("family").__name__, game_class("three_pack").__name__
    ('PayMeGame', 'ThreePackGame')
    """
    ruleset = get_rules(rules)
    found = _ENGINES.get(ruleset.game)
    if found is None:
        raise ValueError(f"no game engine for rule sets of kind {ruleset.game!r}")
    module, name = found
    engine: type[Game] = getattr(importlib.import_module(module), name)
    return engine


def new_game(
    rules: RulesLike = "denexa", players: int = 4, seed: int = 0, **options: GameOption
) -> Game:
    """A new game of the rule set's kind: Pay Me, or Rummy 3-Pack.

    >>> new_game("family", players=8, seed=2).pack.counts[0]    # two packs for 8 players
    2
    """
    ruleset = get_rules(rules)
    return game_class(ruleset).new(ruleset, players, seed, **options)


def replay(
    rules: RulesLike,
    players: int,
    seed: int,
    actions: Iterable[Action],
    **options: GameOption,
) -> Game:
    """Rebuild a game from its seed and actions (either kind of game).

    ``options`` are the game's own options; Rummy 3-Pack also takes ``tie=True`` for a game
    the table agreed to call a tie after these actions (an agreement is no player's action,
    so it is not in ``actions``).

    >>> g = new_game("three_pack", players=3, seed=4, first=0)
    >>> _ = g.apply(g.legal_actions()[0]); _ = g.agree_tie()
    >>> again = replay("three_pack", 3, 4, g.actions, first=0, tie=True)
    >>> again.history == g.history and again.winners() == ()
    True
    """
    ruleset = get_rules(rules)
    return game_class(ruleset).replay(ruleset, players, seed, actions, **options)


def from_position(text: str, rules: Ruleset | None = None) -> Game:
    """A game of either kind set up at a position (see :mod:`payme.game.position`); the
    rule set the text names picks the game (``rules``: a custom rule set it names).

    >>> g = from_position("rules=three_pack; players=2; dealt=3; first=1; "
    ...                   "hands=2C 5S 9D / 5H 6H 7H; stock=* 8H")
    >>> type(g).__name__, g.to_move, g.hand_of(1)
    ('ThreePackGame', 1, (Card('5H'), Card('6H'), Card('7H')))
    """
    from payme.game.position import PositionError, read_position

    if rules is None:
        head = text.split(";", 1)[0].strip() if isinstance(text, str) else ""
        if not head.startswith("rules="):
            read_position(text, ())  # raises, saying what is wrong
            raise PositionError("a position names its rule set first: rules=NAME")
        ruleset = get_rules(head.removeprefix("rules=").strip())
    else:
        ruleset = rules
    return game_class(ruleset).from_position(text, rules)


def make_bot(name: str, rules: RulesLike, seed: int = 0, generation: int = BOT_GENERATION) -> Bot:
    """A bot by name (``random``, ``greedy``, ``strong`` or ``expert``) for the rule set's
    game (its engine names the module of its bots), choosing as the bots of ``generation``
    did (:mod:`payme.game.generations`; today's by default).

    >>> make_bot("greedy", "denexa").name
    'greedy'
    >>> make_bot("strong", "three_pack").name
    'strong'
    >>> make_bot("clever", "denexa")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'clever': the bots are random, greedy, strong, expert
    >>> make_bot("expert", "family", generation=1).GIFT_SPOTS
    0
    """
    ruleset = get_rules(rules)
    if name not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}: the bots are {', '.join(BOT_NAMES)}")
    generation = check_generation(generation, "generation")
    bots: Mapping[str, BotFactory] = importlib.import_module(game_class(ruleset).BOT_MODULE).BOTS
    return bots[name](ruleset, seed, generation)


def advise(view: SeatView, legal: Sequence[Action], seed: int = 0) -> Recommendation:
    """The expert bot's advice for a seat: the action to take and why, in a player's words
    (a :class:`~payme.game.bots.Recommendation` ``(action, reason, options)``).

    ``view`` is the seat's own view (``game.view(seat)``) and ``legal`` its legal actions
    now (``game.legal_actions()``); nothing else is read, so the advice never depends on
    another player's hidden cards.  ``seed`` seeds the few sampled choices: the same view,
    legal actions and seed give the same advice.  Works for both games (Pay Me and Rummy
    3-Pack).

    >>> g = new_game("family", players=3, seed=2)
    >>> advise(g.view(g.to_move), g.legal_actions()).action in g.legal_actions()
    True
    """
    from payme.game.bots import Advisor

    bot = make_bot("expert", view.rules, seed)
    assert isinstance(bot, Advisor), "every game's expert bot explains itself"
    return bot.advise(view, legal)


def play_game(
    rules: RulesLike = "denexa",
    players: int = 4,
    bots: str | Sequence[str] = ("greedy",),
    seed: int = 0,
    **options: GameOption,
) -> Game:
    """Play a whole game with a bot in every seat and return the finished game.

    ``bots`` names one bot per seat, or one bot for every seat (a single name, alone or in
    a tuple).  Seat ``s``'s bot is seeded from ``seed`` and ``s``, so the game depends on
    nothing but the arguments.  A plain module-level function with plain arguments: it
    pickles for worker processes.

    >>> play_game("family", 3, bots="greedy", seed=1).over
    True
    """
    from payme.game.bots import play

    # A string is one bot's name: tuple("greedy") would be its letters.
    names = (bots,) if isinstance(bots, str) else tuple(bots)
    return play(rules, players, names, seed, **options)


__all__ = [
    "BOT_GENERATION",
    "BOT_NAMES",
    "advise",
    "from_position",
    "game_class",
    "make_bot",
    "new_game",
    "play_game",
    "replay",
]
