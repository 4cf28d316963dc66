"""Play moves explained: a bot's move or a hint, with its reason in a player's words.

The reasons come from :mod:`payme.advice` (which knows hands, not games); this module reads
a game's actions and a seat's view and asks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from payme.advice import Advice, discard_advice, go_out_advice, lay_off_advice
from payme.cards import Card
from payme.game.actions import Action, Discard, Draw, GoOut, LayOff
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules
from payme.words import amount, short_label

if TYPE_CHECKING:
    from payme.game.view import SeatView


def explain_move(
    action: Action, view: SeatView | Mapping[str, Any], rules: RulesLike | None = None
) -> Advice:
    """A Play move (from a bot or a hint) with its reason, for the seat whose ``view`` it is.

    ``view`` is a seat's view (an object or a dict with ``hand``, ``top_discard`` and, in
    Pay Me, ``dealt``); ``rules`` defaults to the view's own rule set.  ``action`` is a game
    action (``Draw``, ``Discard``, ``GoOut``, ``LayOff``, ``LayDownRummy``, ``DropOut``).

    >>> from payme.game import new_game
    >>> from payme.game.actions import Draw
    >>> g = new_game("denexa", players=2, seed=1)
    >>> advice = explain_move(Draw(g.to_move, "stock"), g.view(g.to_move))
    >>> advice.move, bool(advice.reason)
    ('Draw from the stock', True)
    """

    def get(key: str) -> Any:
        if isinstance(view, dict):
            return view.get(key)
        return getattr(view, key, None)

    r = get_rules(rules) if rules is not None else get("rules") or get_rules("three_pack")
    hand = tuple(get("hand"))
    dealt = get("dealt") if r.dealt_matters else None
    if isinstance(action, Discard):
        return discard_advice(hand, r, dealt, card=action.card)
    if isinstance(action, GoOut):
        return go_out_advice(hand, r, dealt)
    if isinstance(action, LayOff):
        return lay_off_advice(hand, list(get("table_melds") or ()), r, dealt)
    if isinstance(action, Draw):
        return _draw_advice(action, hand, r, dealt, get("top_discard"))
    name = type(action).__name__
    if name == "LayDownRummy":
        return Advice(
            "Lay down both RUMMY cards", "laying down both RUMMY cards in one turn wins at once."
        )
    return Advice(str(action), "")


def _draw_advice(
    action: Draw, hand: tuple[Card, ...], r: Ruleset, dealt: int | None, top: Card | None
) -> Advice:
    from payme.solver import best_discard, evaluate

    now = evaluate(hand, r, dealt).deadwood_points
    if action.source == "discard" and top is not None:
        if action.take > 1:
            return Advice(
                f"Take the top {action.take} discards",
                "the cards they bring meld with yours and lower what you hold unmelded.",
            )
        after = best_discard((*hand, top), rules=r, dealt=dealt)
        return Advice(
            f"Take the top discard ({short_label(top)})",
            f"with {short_label(top)} and then discarding {short_label(after.card)} you would hold "
            f"{amount(after.deadwood_points, r)} unmelded instead of {amount(now, r)}.",
            top,
        )
    if top is None:
        return Advice("Draw from the stock", "the discard pile is empty.")
    after = best_discard((*hand, top), rules=r, dealt=dealt)
    return Advice(
        "Draw from the stock",
        f"the top discard {short_label(top)} would not lower your deadwood ({amount(now, r)} now, "
        f"{amount(after.deadwood_points, r)} with it), and an unknown card may help more "
        "without showing the others what you collect.",
    )


__all__ = ["explain_move"]
