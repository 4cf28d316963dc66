"""Games of Pay Me and Rummy 3-Pack, played by people and bots.

The interface both games implement (Pay Me: :mod:`payme.game.pay_me`; Rummy 3-Pack:
:mod:`payme.game.three_pack`)::

    from payme.game import new_game, play_game, make_bot, BOT_NAMES, replay
    g = new_game(rules="denexa", players=4, seed=7)           # PayMeGame
    g = new_game(rules="three_pack", players=4, seed=7, dealt=7, optional={"NOGO": 1})
    g.rules, g.players, g.seed
    g.to_move          # seat (0-based) whose decision it is; None when the game is over
    g.phase            # "draw", "discard", "final_draw", "final_discard", "lay_off",
                       # "hand_over", "game_over" (Rummy 3-Pack has its own)
    g.over             # bool
    g.legal_actions()  # every legal Action of g.to_move, in a fixed order
    g.can(action)      # Verdict(ok, reason, rule)
    g.verify(action)   # raises IllegalAction(reason naming the rule)
    g.apply(action)    # -> Record; an illegal action raises IllegalAction, state unchanged
    g.advance()        # Pay Me: deal the next hand after a finished one (auto_advance=False)
    g.history          # tuple[Record, ...]: every action and event (public information)
    g.actions          # tuple[Action, ...]: what players chose
    replay(rules, players, seed, actions, **options)   # rebuilds the game exactly
    g.view(seat)       # that player's view (SeatView): never another's hidden cards
    g.results()        # list[dict]: Pay Me — one row per finished hand x seat
                       #   hand, dealt, wild_rank, seat, went_out, turns, deadwood, points,
                       #   total, money (cents in that hand; None without stakes)
                       # Rummy 3-Pack — one row per seat: seat, winner, how, turns
    g.winners()        # seats that won (Pay Me: lowest total, ties share; () until over)
    play_game(rules, players, bots=("greedy", ...), seed=S, **options) -> finished game
    make_bot(name, rules, seed) -> Bot;  Bot.choose(view, legal_actions) -> Action
    BOT_NAMES == ("random", "greedy", "strong", "expert")
    advise(view, legal_actions) -> Advice(action, reason, options)   # the expert's hint

Pay Me's UI trio (every action: ask, insist, act)::

    g.can_draw("stock" | "discard"), g.draw(source)
    g.can_discard(card), g.discard(card)
    g.can_go_out(discard=None), g.go_out(discard=None)
    g.can_lay_off(placements), g.lay_off(placements)   # placements: ((meld index, cards), ...)
    g.best_lay_off()                                   # the LayOff leaving the fewest points

Pay Me's ``g.view(seat)`` is a :class:`~payme.game.view.SeatView`: ``hand``, ``drawn`` (the
card just drawn), ``discard_pile`` (bottom to top; ``top_discard``), ``stock_count``,
``hand_counts``, ``declarer``, ``table`` / ``table_melds`` (the declarer's melds with
lay-offs so far), ``shown`` (every hand, in the lay-off phase only), ``picked_up`` and
``discarded`` per seat this hand, ``turns``, ``totals``, ``money``, ``phase``, ``to_move``,
``dealt``, ``wild_rank``, ``dealer`` and ``last_hand`` (a :class:`~payme.game.view.HandSummary`
of the hand finished last, every hand shown).  ``g.summaries`` holds every finished hand.

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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from payme.rulesets import RulesLike
from payme.rulesets import rules as get_rules

if TYPE_CHECKING:  # pragma: no cover
    from payme.game.bots import Bot

BOT_NAMES: tuple[str, ...] = ("random", "greedy", "strong", "expert")
"""The bots every game offers, weakest first."""


def new_game(rules: RulesLike = "denexa", players: int = 4, seed: int = 0, **options: Any) -> Any:
    """A new game of the rule set's kind: Pay Me, or Rummy 3-Pack.

    >>> new_game("family", players=8, seed=2).pack.counts[0]    # two packs for 8 players
    2
    """
    ruleset = get_rules(rules)
    if ruleset.game == "pay_me":
        from payme.game.pay_me import PayMeGame

        return PayMeGame(ruleset, players, seed, **options)
    if ruleset.game == "rummy_3_pack":
        from payme.game.three_pack import ThreePackGame

        return ThreePackGame(ruleset, players, seed, **options)
    raise ValueError(f"no game engine for rule sets of kind {ruleset.game!r}")


def replay(
    rules: RulesLike, players: int, seed: int, actions: Sequence[Any], **options: Any
) -> Any:
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
    if ruleset.game == "pay_me":
        from payme.game.pay_me import replay as replay_pay_me

        return replay_pay_me(ruleset, players, seed, actions, **options)
    if ruleset.game == "rummy_3_pack":
        from payme.game.three_pack import replay_three_pack

        return replay_three_pack(ruleset, players, seed, actions, **options)
    raise ValueError(f"no game engine for rule sets of kind {ruleset.game!r}")


def make_bot(name: str, rules: RulesLike, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``greedy``, ``strong`` or ``expert``) for the rule set's
    game."""
    from payme.game.bots import make_bot as _make_bot

    return _make_bot(name, rules, seed)


def advise(view: Any, legal: Sequence[Any], seed: int = 0) -> Any:
    """The expert bot's advice for a seat: ``Advice(action, reason, options)``.

    ``view`` is ``game.view(seat)`` and ``legal`` is ``game.legal_actions()``; see
    :func:`payme.game.expert.advise`.

    >>> g = new_game("family", players=3, seed=2)
    >>> advise(g.view(g.to_move), g.legal_actions()).action in g.legal_actions()
    True
    """
    from payme.game.expert import advise as _advise

    return _advise(view, legal, seed)


def play_game(
    rules: RulesLike = "denexa",
    players: int = 4,
    bots: Sequence[str] = ("greedy",),
    seed: int = 0,
    **options: Any,
) -> Any:
    """Play a whole game with a bot in every seat and return the finished game.

    ``bots`` names one bot per seat (a single name fills every seat).  Seat ``s``'s bot is
    seeded from ``seed`` and ``s``, so the game depends on nothing but the arguments.
    A plain module-level function with plain arguments: it pickles for worker processes.
    """
    from payme.game.bots import play

    return play(rules, players, tuple(bots), seed, **options)


__all__ = ["BOT_NAMES", "advise", "make_bot", "new_game", "play_game", "replay"]
