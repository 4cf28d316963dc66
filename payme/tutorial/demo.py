"""A small interactive demo of a Pay Me turn, played in a real game against one bot.

Every click is an action asked of the game engine (``game.can`` first, then
``game.apply``); a refused action shows the engine's reason.  The bot on the other seat
plays its turn at once, so the learner always faces a fresh turn.

>>> demo = TurnDemo("denexa")
>>> demo.stock_btn.click(); demo.game.phase
'discard'
>>> demo.card_dd.value = str(demo.game.view(0).drawn); demo.discard_btn.click()
>>> demo.game.to_move, demo.game.phase         # the bot has played its turn
(0, 'draw')
>>> demo.discard_btn.click(); demo.message.kind      # not now: draw first
'error'
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as widgets

from payme.cards import parse_card
from payme.game.actions import Action, Discard, Draw, GoOut, IllegalAction
from payme.rulesets import RulesLike
from payme.rulesets import rules as get_rules
from payme.tutorial.markup import cards_html
from payme.widgets import MessageBox, guarded
from payme.words import plain_words

if TYPE_CHECKING:
    from payme.game.view import HandSummary

ME = 0


class TurnDemo(widgets.VBox):  # type: ignore[misc]
    """Your hand, the discard pile, and buttons to draw, discard or go out."""

    def __init__(self, rules: RulesLike = "denexa", seed: int = 11) -> None:
        from payme.game import make_bot
        from payme.game.pay_me import PayMeGame

        self.rules = get_rules(rules)
        self.seed = seed
        self.game = PayMeGame.new(self.rules, players=2, seed=seed)
        self.bot = make_bot("greedy", self.rules, seed)
        self.message = MessageBox()
        guard = guarded(self.message)
        self.table = widgets.HTML(layout=widgets.Layout(max_width="100%", overflow="auto"))
        self.table.add_class("payme-demo-table")
        self.stock_btn = widgets.Button(
            description="Draw from the stock", layout=widgets.Layout(width="auto")
        )
        self.pile_btn = widgets.Button(
            description="Take the top discard", layout=widgets.Layout(width="auto")
        )
        self.card_dd = widgets.Dropdown(description="Card", layout=widgets.Layout(width="11em"))
        self.discard_btn = widgets.Button(
            description="Discard it", layout=widgets.Layout(width="auto")
        )
        self.out_btn = widgets.Button(
            description="Go out (Pay me!)", layout=widgets.Layout(width="auto")
        )
        self.new_btn = widgets.Button(description="New deal", layout=widgets.Layout(width="auto"))
        for b, css in (
            (self.stock_btn, "stock"),
            (self.pile_btn, "pile"),
            (self.discard_btn, "discard"),
            (self.out_btn, "go-out"),
            (self.new_btn, "new"),
        ):
            b.add_class(f"payme-demo-{css}")
        self.events = widgets.HTML()
        self.stock_btn.on_click(guard(lambda _b: self.draw("stock")))
        self.pile_btn.on_click(guard(lambda _b: self.draw("discard")))
        self.discard_btn.on_click(guard(lambda _b: self.discard(self.card_dd.value)))
        self.out_btn.on_click(guard(lambda _b: self.go_out(self.card_dd.value)))
        self.new_btn.on_click(guard(lambda _b: self.new_deal()))
        super().__init__(
            [
                widgets.HTML("<h3 class='payme-widget-title'>Try a turn</h3>"),
                self.table,
                widgets.HBox(
                    [self.stock_btn, self.pile_btn], layout=widgets.Layout(flex_flow="row wrap")
                ),
                widgets.HBox(
                    [self.card_dd, self.discard_btn, self.out_btn, self.new_btn],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.message,
                self.events,
            ],
            layout=widgets.Layout(border="1px dashed #aaa", padding="4px 10px", max_width="100%"),
        )
        self.add_class("payme-turn-demo")
        self.refresh()

    def new_deal(self) -> None:
        from payme.game.pay_me import PayMeGame

        self.seed += 1
        self.game = PayMeGame.new(self.rules, players=2, seed=self.seed)
        self.message.clear()
        self.refresh()

    def _act(self, action: Action) -> None:
        verdict = self.game.can(action)
        if not verdict.ok:
            raise IllegalAction(_words(verdict.reason), verdict.rule)
        finished = len(self.game.summaries)
        record = self.game.apply(action)
        events = [_words(record.event)]
        # The bot plays until it is our move again (or the hand ends).
        while self.game.to_move not in (ME, None):
            seat = self.game.to_move
            bot_action = self.bot.choose(self.game.view(seat), self.game.legal_actions())
            events.append(_words(self.game.apply(bot_action).event))
        self.refresh()
        if len(self.game.summaries) > finished:
            # A hand ended: its score comes first, before anything of the next hand.
            self.message.ok(hand_result(self.game.summaries[finished], bool(self.game.over)))
            self.events.value = "<p class='payme-muted'>" + html.escape(" ".join(events)) + "</p>"
        else:
            self.message.ok(" ".join(events))

    def draw(self, source: str) -> None:
        self._act(Draw(ME, source))  # type: ignore[arg-type]

    def discard(self, token: str | None) -> None:
        if not token:
            raise ValueError("choose a card to discard first")
        self._act(Discard(ME, parse_card(token)))

    def go_out(self, token: str | None) -> None:
        card = parse_card(token) if token else None
        verdict = self.game.can(GoOut(ME, card))
        if not verdict.ok and card is not None:
            # Going out with no discard may be what the learner meant.
            alone = self.game.can(GoOut(ME, None))
            if alone.ok:
                verdict, card = alone, None
        if not verdict.ok:
            raise IllegalAction(_words(verdict.reason), verdict.rule)
        self._act(GoOut(ME, card))

    def refresh(self) -> None:
        g = self.game
        view = g.view(ME)
        top = view.top_discard
        pile = (
            cards_html((top,), self.rules, view.dealt, caption="discard pile")
            if top
            else ("<p>The discard pile is empty.</p>")
        )
        self.table.value = (
            f"<p>Hand {view.hand_number}: {view.dealt} cards dealt. Phase: "
            f"<b>{g.phase.replace('_', ' ')}</b>; stock {view.stock_count} cards.</p>"
            + cards_html(view.hand, self.rules, view.dealt, caption="your hand")
            + pile
        )
        options = [str(c) for c in sorted(set(view.hand))]
        self.card_dd.options = options
        # Offer the card just drawn first: the usual discard when it does not help.
        self.card_dd.value = str(view.drawn) if view.drawn is not None else options[0]
        self.events.value = (
            "<p class='payme-muted'>"
            + html.escape(" ".join(_words(rec.event) for rec in g.history[-3:]))
            + "</p>"
        )


def _words(event: str) -> str:
    """An engine sentence with the demo's players named: "You" and "The bot"."""
    return plain_words(event, ("You", "The bot"))


def hand_result(summary: HandSummary, last: bool = False) -> str:
    """A finished hand of the demo in words: who went out, what each player scores.

    >>> from payme.game.view import HandSummary
    >>> hand_result(HandSummary(1, 3, 1, 0, ((), ()), (), ((), ()), (0, 14), (0, 14),
    ...                         (2, 2), None, "went out"))
    'Hand 1 is over: you went out. Scores: you 0, the bot 14. Hand 2 is dealt: play on.'
    """
    names = ("you", "the bot")
    if summary.declarer is None:
        head = f"Hand {summary.number} is over with nobody out ({summary.how})"
    else:
        head = f"Hand {summary.number} is over: {names[summary.declarer]} went out"
    scores = ", ".join(f"{names[s]} {p}" for s, p in enumerate(summary.points))
    tail = "The game is over." if last else f"Hand {summary.number + 1} is dealt: play on."
    return f"{head}. Scores: {scores}. {tail}"


__all__ = ["TurnDemo", "hand_result"]
