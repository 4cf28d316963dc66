"""The Play page: a whole game of Pay Me or Rummy 3-Pack against bots, on a card table.

:class:`PlayPage` draws a :class:`~payme.play.session.PlaySession` (the game, with no
widgets in it) on a :class:`~payme.widgets.table.CardTable` and turns the table's gestures
into moves; a New game dialog, the scoreboard, the game review and the page's address
(:class:`~payme.widgets.url_state.UrlState`) sit around it.

>>> page = PlayPage()
>>> page.apply_query({"rules": "denexa", "players": "2", "bots": "greedy", "seed": "3", "gen": "2"})
>>> page.gesture({"do": "draw", "source": "stock"}); page.session.moves
['s']
>>> page.url.query
'rules=denexa&players=2&bots=greedy&seed=3&gen=2&moves=s'

The address keeps the bots' generation (``gen``, :mod:`payme.game.generations`): a link
made before the bots changed has none and replays with the first generation's bots.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from payme.cards import Card, parse_card
from payme.deprecation import renamed
from payme.game import BOT_NAMES, actions
from payme.game.actions import go_out_with
from payme.game.generations import BOT_GENERATION, FIRST_GENERATION, check_generation
from payme.play.session import YOU, PlaySession, bot_word
from payme.rulesets import PRESETS
from payme.words import label, seat_names

if TYPE_CHECKING:
    import asyncio

    from payme.analysis.review import ReviewRun

__all__ = ["HOW_TO_PLAY", "YOU", "PlayPage", "PlaySession", "merge_order"]

REVIEW_STEP = 8
"""Deals a review measures at a time in the browser's Python (one process: the page answers
between two steps; 16 play-outs, a few tenths of a second there)."""
REVIEW_PART = 256
"""Deals a worker process measures at a time for the review on show (a second or so)."""
REVIEW_REDRAW_S = 1.0
"""How often the review on show is redrawn while its measures are refined."""

__getattr__ = renamed(
    "payme.widgets.play",
    {
        "encode_move": "payme.play.session:move_token",
        "decode_move": "payme.play.session:parse_move",
        "label": "payme.words:label",
        "seat_names": "payme.words:seat_names",
    },
)


# ---------------------------------------------------------------------- the page

HOW_TO_PLAY = """
<div class="payme-panel">
<p><b>Your turn</b>: draw a card (click the stock or the discard pile), then discard one
(click a card to select it, and again to throw it, or use <i>Discard</i>). When every card
you keep fits in melds &mdash; sets of one rank, runs in one suit &mdash; select the card to
throw and go out (<i>Pay me!</i> in Pay Me).</p>
<p><b>After someone goes out</b> (Pay Me) the others lay cards off onto the melds on the table:
select a card, then the meld. A wild card laid off on a run can stand for the card at
either end: choose the end.</p>
<p><b>Scores</b>: in Pay Me the cards left in your hand count against you; <i>this hand</i> is
what your cards score now, <i>total</i> the game's running score, lowest wins. In Rummy
3-Pack the first to go out wins; you may <i>drop out</i> (your cards leave play unseen).</p>
<p><b>Keyboard</b>: Tab to the stock, the pile or your hand; &larr; &rarr; move between cards,
Shift with an arrow moves a card, Enter selects and Enter again discards. Drag cards to order
your hand: the page's address keeps the order, the game and every move, so Back steps back
one move and a copied link opens the same position.</p>
</div>
"""
"""What the How to play control shows: the rules in brief and the table's controls."""


def _named(places: Sequence[tuple[Card | None, ...]]) -> tuple[tuple[Card | None, ...], ...] | None:
    """Lay-off places as the engine takes them: ``None`` when no place was named."""
    return tuple(places) if any(p is not None for ps in places for p in ps) else None


def merge_order(order: Sequence[str], hand: Sequence[str]) -> list[str]:
    """The cards of ``hand`` in the player's ``order``: those still held keep their places
    (copies counted), new ones go to the right, as the table does.

    >>> merge_order(["9S", "JK", "7H"], ["7H", "9S", "KD"])
    ['9S', '7H', 'KD']
    """
    left: dict[str, int] = {}
    for card in hand:
        left[card] = left.get(card, 0) + 1
    out = []
    for card in [*order, *hand]:
        if left.get(card):
            out.append(card)
            left[card] -= 1
    return out


class PlayPage:
    """The Play page's widgets over a :class:`PlaySession`; ``.widget`` is what to display.

    ``apply_query({"rules": "family", "players": "3", "bots": "strong,greedy", "seed": "5",
    "moves": "s.d7H"})`` starts the game a URL describes and replays its moves (a bad value
    becomes a message, not an error).  :meth:`gesture` is what the table's clicks call.
    """

    def __init__(self) -> None:
        import ipywidgets as w

        from payme.widgets import MessageBox
        from payme.widgets.table import CardTable
        from payme.widgets.url_state import UrlState

        self.message = MessageBox()
        # The game lives in the address: Back/Forward between games replays the other one.
        self.url = UrlState()
        self.url.on_navigate(lambda query: self.apply_query(query))
        self.table = CardTable()
        self.table.add_class("payme-play-table")
        self.table.on_gesture(self.gesture)
        self.new_button = w.Button(
            description="New game…", tooltip="Choose the rules and your opponents"
        )
        self.new_button.add_class("payme-play-new")
        self.review_button = w.Button(
            description="How am I doing?",
            tooltip="A review of the hands played so far: each of your decisions next to "
            "the strongest bot's",
        )
        self.review_button.add_class("payme-play-review-button")
        # The rules and the controls, out of the way of the table until asked for.
        self.help_button = w.ToggleButton(
            description="How to play", tooltip="The rules in brief and the table's controls"
        )
        self.help_button.add_class("payme-play-help-button")
        self.help_view = w.HTML(HOW_TO_PLAY, layout=w.Layout(display="none"))
        self.help_view.add_class("payme-play-help")
        self.help_button.observe(self._toggle_help, names="value")
        # The review, shown above the table when asked for (with a button to close it): its
        # summary (grades per hand, points lost per hand, the costliest decisions), then the
        # board that steps through each decision's position with the arrow keys.  Its
        # widgets (the board's script among them) are built when it is first asked for
        # (_build_review), so the page's first render carries none of them.
        self.review_box = w.VBox(layout=w.Layout(display="none"))
        self.review_box.add_class("payme-play-review-box")
        self._review_run: ReviewRun | None = None
        self.review_deals: int | None = None
        """Deals measured at most per decision in the review (``None``: the yardstick's)."""
        self.review_task: asyncio.Task[None] | None = None
        """The review's measuring on the kernel's event loop (``None`` when none goes on)."""
        self.scores_view = w.HTML()
        self.scores_view.add_class("payme-play-scores")

        # The New game dialog, hidden until asked for: its controls (rule sets by title,
        # opponents' strengths from a menu) are built when it is first opened, so the page's
        # first render carries none of them (_build_dialog).
        self.dialog = w.VBox(
            layout=w.Layout(display="none", border="1px solid #999", padding="8px",
                            max_width="100%"),
        )  # fmt: skip
        self.dialog.add_class("payme-play-dialog")
        self._dialog_built = False

        from payme.widgets import guarded

        guard = guarded(self.message)
        self._guard = guard
        self.new_button.on_click(guard(lambda _b: self._toggle_dialog()))
        self.review_button.on_click(guard(lambda _b: self.show_review()))

        self.session: PlaySession | None = None
        self._layoff: list[tuple[int, tuple[Card, ...]]] = []
        # The place named for each card laid off (a wild card's end of a run), or None.
        self._places: list[tuple[Card | None, ...]] = []
        self._hints = False  # asked for a hint: one is shown after each move, until hidden
        self._arrange: dict[str, Any] | None = None
        self._advice = ""
        self._serial = 0
        self._push = False
        self._moves_shown: list[str] = []
        # The player's own order of the hand (card tokens) and the deal it belongs to.
        self._order: list[str] = []
        self._order_deal = ""
        title = w.HTML('<div class="payme-page-header"><h1>Play</h1></div>')
        title.add_class("payme-play-title")
        bar = w.HBox(
            [title, self.new_button, self.help_button, self.review_button],
            layout=w.Layout(align_items="center"),
        )
        bar.add_class("payme-play-bar")
        self.widget = w.VBox(
            [bar, self.help_view, self.dialog, self.message, self.review_box, self.table,
             self.scores_view,
             self.url],
            layout=w.Layout(max_width="100%"),
        )  # fmt: skip
        self.widget.add_class("payme-play")
        self.start("denexa", 3, ("greedy",), random.randrange(10**6))

    # ------------------------------------------------------------------ the dialog

    def _build_dialog(self) -> None:
        """The New game dialog's controls, set to the game on the table; built once, when
        the dialog is first opened."""
        import ipywidgets as w

        if self._dialog_built:
            return
        self._dialog_built = True
        self.rules_box = w.Dropdown(
            options=[(r.title, name) for name, r in PRESETS.items()],
            value="denexa",
            description="Rules",
        )
        self.players_box = w.Dropdown(options=[], description="Players")
        self.bots_box = w.VBox()
        self.deal_button = w.Button(description="Deal", button_style="primary")
        self.cancel_button = w.Button(description="Cancel")
        for box, cls in (
            (self.rules_box, "payme-play-rules"),
            (self.players_box, "payme-play-players"),
            (self.deal_button, "payme-play-deal"),
            (self.cancel_button, "payme-play-cancel"),
        ):
            box.add_class(cls)
        self.rules_box.style.description_width = "70px"
        self.players_box.style.description_width = "70px"
        self.rules_box.layout.width = "min(360px, 100%)"
        self.players_box.layout.width = "min(200px, 100%)"
        self.dialog.children = [
            w.HTML("<b>New game</b>"),
            self.rules_box,
            self.players_box,
            self.bots_box,
            w.HBox([self.deal_button, self.cancel_button]),
        ]
        self._sync_dialog()
        self.rules_box.observe(lambda _c: self._fill_players(), names="value")
        self.players_box.observe(lambda _c: self._fill_bots(), names="value")
        self.cancel_button.on_click(self._guard(lambda _b: self._toggle_dialog(False)))
        self.deal_button.on_click(self._guard(lambda _b: self._deal_from_dialog()))

    def _sync_dialog(self) -> None:
        """Set the dialog's controls (if built) to the game on the table."""
        session = self.session
        if not self._dialog_built or session is None:
            return
        if session.rules.name in PRESETS:
            self.rules_box.value = session.rules.name
        self._fill_players(session.players)
        for box, bot in zip(self.bots_box.children, session.bot_names, strict=False):
            box.value = bot

    def _fill_players(self, players: int | None = None) -> None:
        ruleset = PRESETS[self.rules_box.value]
        chosen = players or self.players_box.value or 3
        options = list(range(ruleset.min_players, ruleset.max_players + 1))
        self.players_box.options = [(str(n), n) for n in options]
        self.players_box.value = min(max(chosen, options[0]), options[-1])
        self._fill_bots()

    def _fill_bots(self) -> None:
        """One menu per opponent's seat: the menus already there are kept (a seat's name
        and bot stay), new seats get one, and the menus of seats gone are closed."""
        import ipywidgets as w

        players = int(self.players_box.value or 2)
        old = list(self.bots_box.children)
        boxes = []
        for seat, name in enumerate(seat_names(players)[1:], start=1):
            if seat - 1 < len(old):
                box = old[seat - 1]
                box.description = name
            else:
                box = w.Dropdown(
                    options=[(bot_word(b), b) for b in BOT_NAMES],
                    value="greedy",
                    description=name,
                )
                box.style.description_width = "70px"
                box.layout.width = "min(300px, 100%)"
                box.add_class(f"payme-play-bot-{seat}")
            boxes.append(box)
        self.bots_box.children = boxes
        for box in old[len(boxes) :]:
            box.close()

    def _toggle_help(self, change: dict[str, Any]) -> None:
        self.help_view.layout.display = None if change["new"] else "none"

    def _toggle_dialog(self, show: bool | None = None) -> None:
        self._build_dialog()
        visible = self.dialog.layout.display != "none"
        self.dialog.layout.display = None if (not visible if show is None else show) else "none"

    def _deal_from_dialog(self) -> None:
        bots = tuple(box.value for box in self.bots_box.children)
        self.start(self.rules_box.value, int(self.players_box.value), bots,
                   random.randrange(10**6), push=True)  # fmt: skip
        self._toggle_dialog(False)

    # ------------------------------------------------------------------ starting

    def apply_query(self, query: dict[str, str], *, push: bool = False) -> None:
        """Start the game a URL's query describes and replay its moves."""
        from payme.widgets import guarded
        from payme.widgets.url_state import whole_number

        @guarded(self.message)
        def apply() -> None:
            rules = query.get("rules", "denexa")
            if rules not in PRESETS:
                raise ValueError(
                    f"unknown rule set {rules!r}: the presets are {', '.join(PRESETS)}"
                )
            numbers = {}
            for key, default in (("players", "3"), ("seed", None)):
                text = query.get(key, default)
                if text is None:
                    continue
                numbers[key] = whole_number(text, key)
            bots = tuple(b for b in re.split(r"[\s,]+", query.get("bots", "greedy").lower()) if b)
            seed = numbers.get("seed", random.randrange(10**6))
            moves = [m for m in query.get("moves", "").split(".") if m]
            position = query.get("position") or None
            # A link names its bots' generation; one without (made before generations)
            # was played by the first; a query without a seed is a new game: today's bots.
            gen = query.get("gen")
            if gen is not None:
                generation = check_generation(gen, "gen")
            else:
                generation = FIRST_GENERATION if "seed" in numbers else BOT_GENERATION
            self.start(
                rules, numbers["players"], bots or ("greedy",), seed, moves,
                position=position, push=push,
                order=[t for t in query.get("order", "").split(".") if t],
                generation=generation,
            )  # fmt: skip

        if query:
            apply()
        else:
            self.refresh()

    def start(
        self,
        rules: str,
        players: int,
        bots: Sequence[str],
        seed: int,
        moves: Sequence[str] = (),
        *,
        position: str | None = None,
        push: bool = False,
        order: Sequence[str] = (),
        generation: int = BOT_GENERATION,
    ) -> None:
        """Start a game (replaying ``moves``, from ``position`` if given: the engine's
        position notation; ``order``: the player's order of the hand, as card tokens;
        ``generation``: the bots' generation, today's for a new game); a bad setting is a
        ``ValueError`` saying so."""
        session = PlaySession.from_moves(
            rules, players, bots, seed, moves, position, strict=False, generation=generation
        )
        self.session = session
        self._layoff, self._places, self._arrange, self._advice = [], [], None, ""
        self._moves_shown = list(session.moves)
        self._order, self._order_deal = list(order), self._deal()
        self._close_review()
        self._sync_dialog()
        # The table says the rules and each seat its bot: the message box is for problems.
        self.message.clear()
        if session.stopped:
            self.message.error(session.words(session.stopped))
        self._push = push
        self.refresh()

    # ------------------------------------------------------------------ gestures

    def _need_session(self) -> PlaySession:
        if self.session is None:
            raise ValueError("Start a game first.")
        return self.session

    def gesture(self, gesture: dict[str, Any]) -> None:
        """Carry out one gesture from the table (``{"do": "draw", "source": "stock"}`` …).

        A refused move raises ``ValueError`` with the rule's reason in players' words; the
        table shows it next to the card.
        """
        kind = gesture.get("do")
        handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "draw": self._draw,
            "discard": self._discard,
            "go_out": self._go_out,
            "arrange": self._arrange_groups,
            "arrange_best": lambda _g: self._open_arrangement(self._arrange_discard()),
            "arrange_cancel": self._arrange_cancel,
            "lay_down": self._lay_down,
            "lay_off": self._lay_off_card,
            "lay_off_undo": self._lay_off_undo,
            "lay_off_done": self._lay_off_done,
            "lay_off_best": self._lay_off_best,
            "rummy": lambda _g: self._try(actions.LayDownRummy(YOU)),
            "drop_out": lambda _g: self._try(actions.DropOut(YOU)),
            "next_hand": self._next_hand,
            "hint": self._hint,
            "hint_off": self._hint_off,
            "order": self._keep_order,
            "undo": self._undo,
            "review": self._review_gesture,
            "new_game": lambda _g: self._new_game(),
        }
        handler = handlers.get(str(kind))
        if handler is None:
            raise ValueError(f"unknown gesture {kind!r}")
        session = self._need_session()
        try:
            handler(gesture)
        except ValueError as exc:
            raise ValueError(session.words(str(exc))) from None

    def _card(self, gesture: dict[str, Any]) -> Card:
        token = gesture.get("card")
        if not isinstance(token, str):
            raise ValueError("Select a card of your hand first.")
        card = parse_card(token)
        if card not in self._need_session().hand():
            raise ValueError(f"{label(card)} is not in your hand.")
        return card

    def _check_turn(self) -> PlaySession:
        session = self._need_session()
        if session.over:
            raise actions.IllegalAction("The game is over: start a new one.", "the game is over")
        if session.hand_over:
            raise actions.IllegalAction("The hand is over: deal the next hand first.", "the deal")
        mover = session.game.to_move
        if not session.your_turn and mover is not None:
            who = session.names[mover]
            raise actions.IllegalAction(f"It is not your turn: {who} is playing.", "turn order")
        return session

    def _try(self, action: actions.Action) -> None:
        """Play ``action`` if the engine allows it; otherwise raise with the rule's reason."""
        session = self._check_turn()
        verdict = session.game.can(action)
        if not verdict.ok:
            raise actions.IllegalAction(verdict.reason, verdict.rule)
        self._act(action)

    def _act(self, action: actions.Action) -> None:
        session = self._need_session()
        session.act(action, bots=False)
        self._layoff, self._places, self._arrange = [], [], None
        self._close_review()
        self._bots_reply()

    def _bots_reply(self) -> None:
        """Show your move at once, then the bots' replies (the table animates them); a hint
        asked for is worked out again for the new position."""
        session = self._need_session()
        self._advice = self._hint_now() if session.your_turn else ""
        self.refresh()
        if not session.your_turn and not session.hand_over and not session.over:
            session.play_bots()
            self._advice = self._hint_now()
            self.refresh()

    def _hint_now(self) -> str:
        session = self._need_session()
        if not self._hints or not session.your_turn:
            return ""
        return "Hint: " + session.hint().rstrip(".") + "."

    def _draw(self, gesture: dict[str, Any]) -> None:
        self._try(actions.Draw(YOU, "stock" if gesture.get("source") == "stock" else "discard"))

    def _discard(self, gesture: dict[str, Any]) -> None:
        self._try(actions.Discard(YOU, self._card(gesture)))

    def _go_out(self, gesture: dict[str, Any]) -> None:
        session = self._check_turn()
        outs = [a for a in session.legal() if isinstance(a, actions.GoOut)]
        chosen = self._card(gesture) if gesture.get("card") else None
        if not outs:
            verdict = session.game.can(actions.GoOut(YOU, chosen))
            raise actions.IllegalAction(verdict.reason or "You cannot go out now.", verdict.rule)
        action = next((a for a in outs if a.discard == chosen), None)
        if action is None and chosen is None and len(outs) == 1:
            action = outs[0]
        if action is None:
            names = " or ".join(label(a.discard) for a in outs if a.discard)
            if chosen is None:
                raise actions.IllegalAction(
                    f"Select the card to discard as you go out: {names}.", "going out"
                )
            raise actions.IllegalAction(
                f"You cannot go out discarding {label(chosen)}; you can by discarding {names}.",
                "going out",
            )
        if session.kind.DECLARES_MELDS:
            self._open_arrangement(action.discard)
        else:
            self._act(action)

    # The arrangement step: the player lays out the melds before going out.

    def _arrange_discard(self) -> Card | None:
        if self._arrange is None:
            raise ValueError("You are not going out now.")
        discard: Card | None = self._arrange["discard"]
        return discard

    def _open_arrangement(self, discard: Card | None) -> None:
        """The arrangement step: the layout the strongest bot would lay down (the one the
        review rates best, :func:`~payme.game.bots.proposed_layout`), for the player to
        change."""
        from payme.game.bots import proposed_layout

        session = self._check_turn()
        cards = list(session.hand())
        if discard is not None:
            cards.remove(discard)
        proposal = proposed_layout(session.scored_view(), discard)
        # The melds themselves, not their cards: cards alone may read as another meld
        # (3♠ 2♥ 3♥ with threes wild: a run A♥ 2♥ 3♥ or a set of twos).
        groups: list[Any] = list(proposal) if proposal else [tuple(cards)]
        self._arrange = {"discard": discard, "groups": groups}
        self.refresh()

    def _arrange_groups(self, gesture: dict[str, Any]) -> None:
        discard = self._arrange_discard()
        raw = gesture.get("groups")
        if not isinstance(raw, list) or not all(isinstance(g, list) for g in raw):
            raise ValueError("An arrangement is a list of melds, each a list of cards.")
        groups = [tuple(parse_card(str(t)) for t in g) for g in raw if g]
        held = sorted(c for g in groups for c in g)
        hand = list(self._need_session().hand())
        if discard is not None:
            hand.remove(discard)
        if held != sorted(hand):
            raise ValueError("The melds must hold exactly the cards you keep.")
        self._arrange = {"discard": discard, "groups": groups}
        self.refresh()

    def _arrange_cancel(self, _gesture: dict[str, Any]) -> None:
        self._arrange = None
        self.refresh()

    def _lay_down(self, _gesture: dict[str, Any]) -> None:
        discard = self._arrange_discard()
        assert self._arrange is not None
        session = self._need_session()
        groups = self._arrange["groups"]
        self._try(go_out_with(YOU, discard, groups, session.rules, session.game.dealt))

    # Lay-offs: select a card, then the meld it joins.

    def _lay_off_card(self, gesture: dict[str, Any]) -> None:
        session = self._check_turn()
        card = self._card(gesture)
        meld = gesture.get("meld")
        if not isinstance(meld, int):
            raise ValueError("Click the meld the card joins.")
        if card not in self._hand_left():
            raise ValueError(f"{label(card)} is already laid off.")
        place = gesture.get("place")
        named = (parse_card(place),) if isinstance(place, str) and place else (None,)
        placements = (*self._layoff, (meld, (card,)))
        places = (*self._places, named)
        verdict = session.game.can(actions.LayOff(YOU, placements, _named(places)))
        if not verdict.ok:
            raise actions.IllegalAction(verdict.reason, verdict.rule)
        self._layoff, self._places = list(placements), list(places)
        self.refresh()

    def _lay_off_undo(self, _gesture: dict[str, Any]) -> None:
        self._layoff, self._places = [], []
        self.refresh()

    def _lay_off_done(self, _gesture: dict[str, Any]) -> None:
        self._try(actions.LayOff(YOU, tuple(self._layoff), _named(self._places)))

    def _lay_off_best(self, _gesture: dict[str, Any]) -> None:
        session = self._check_turn()
        best = getattr(session.game, "best_lay_off", None)
        if best is None:  # a game without the shortcut: refused in words, the game unchanged
            raise actions.IllegalAction(
                "This game cannot pick the best lay-off for you: click a card, then the meld "
                "it joins.",
                "lay-offs",
            )
        self._try(best(YOU))

    def _hand_left(self) -> list[Card]:
        hand = list(self._need_session().hand())
        for _index, cards in self._layoff:
            for card in cards:
                hand.remove(card)
        return hand

    def _next_hand(self, _gesture: dict[str, Any]) -> None:
        session = self._need_session()
        session.next_hand(bots=False)
        self._layoff, self._places, self._arrange = [], [], None
        self._close_review()
        self._bots_reply()

    def _keep_order(self, gesture: dict[str, Any]) -> None:
        """The player dragged or sorted the hand: the address keeps the order (in place)."""
        cards = gesture.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise ValueError("An order of the hand is a list of cards.")
        held = sorted(c.token for c in self._need_session().hand())
        order = [parse_card(c).token for c in cards]
        if sorted(order) != held:
            return  # an order of a hand since changed: the next one will do
        self._order, self._order_deal = order, self._deal()
        self.url.update(self.query(), push=False)

    def _deal(self) -> str:
        session = self.session
        if session is None:
            return ""
        return f"{session.seed}-{session.game.hand_number}"

    def _hand_order(self) -> list[str]:
        """The player's order of the hand now: the cards still held in the order given,
        new cards at the right (what the table does); empty when none was given."""
        session = self._need_session()
        if not self._order or self._order_deal != self._deal():
            return []
        return merge_order(self._order, [c.token for c in session.hand()])

    def _undo(self, _gesture: dict[str, Any]) -> None:
        """Take back your last move (and the bots' replies to it): a new history entry."""
        session = self._need_session()
        if not session.moves:
            raise ValueError("There is no move of yours to take back.")
        self.start(session.rules.name, session.players, session.bot_names, session.seed,
                   session.moves[:-1], position=session.position, push=True,
                   order=self._hand_order(), generation=session.generation)  # fmt: skip

    def _new_game(self) -> None:
        """The same rules and opponents, a new deal."""
        session = self._need_session()
        self.start(session.rules.name, session.players, session.bot_names,
                   random.randrange(10**6), push=True)  # fmt: skip

    def _hint(self, _gesture: dict[str, Any]) -> None:
        self._hints = True
        self._advice = self._hint_now() or "Hint: no move to make now."
        self.refresh()

    def _hint_off(self, _gesture: dict[str, Any]) -> None:
        self._hints, self._advice = False, ""
        self.refresh()

    # ------------------------------------------------------------------ drawing

    def query(self) -> str:
        """The URL query of the game as it stands (rules, players, bots, seed, moves, and
        the order you put your hand in)."""
        query = self.query_for(self._need_session().moves)
        order = self._hand_order()
        return query + ("&order=" + ".".join(order) if order else "")

    def refresh(self) -> None:
        """Draw the session on the table, the scoreboard and the buttons."""
        from payme.play.view import TableState, scores_html

        session = self._need_session()
        self._serial += 1
        state = TableState(self, session).build()
        state["serial"] = self._serial
        state["you"]["order"] = self._hand_order()
        state["can"]["undo"] = bool(session.moves) and session.your_turn
        self.table.show(state)
        # A new game and each of your moves is a new history entry (Back steps back one
        # move); anything else only updates the entry, so a reload or a copied link shows
        # this very position.
        moved = session.moves != self._moves_shown
        self.url.update(self.query(), push=self._push or moved)
        self._push, self._moves_shown = False, list(session.moves)
        session.steps = []
        # At the end the final screen holds the scoreboard.
        self.scores_view.value = "" if session.over else scores_html(session)

    def _build_review(self) -> None:
        """The review's widgets, built once, when the review is first asked for."""
        import ipywidgets as w

        from payme.widgets.review import ReviewBoard

        if self.review_box.children:
            return
        self.review_title = w.HTML()
        self.review_view = w.HTML()
        self.review_view.add_class("payme-play-review")
        self.review_board = ReviewBoard()
        close = w.Button(description="Close the review")
        close.add_class("payme-play-review-close")
        close.on_click(lambda _b: self._close_review())
        self.review_box.children = [
            w.HBox([self.review_title, close], layout=w.Layout(align_items="center")),
            self.review_board,
            self.review_view,
        ]

    def show_review(self) -> None:
        """The game review so far, right above the table: your decisions next to the
        strongest bot's, and the board of each decision's position (the end of the game and
        How am I doing? both open it).

        The board is shown at once; on the kernel's event loop each decision is then
        measured a part at a time (:class:`~payme.analysis.review.ReviewRun`), its deals
        spread over the worker processes (:mod:`payme.analysis.workers`; one process in
        the browser's Python), and the costs shown are refined as the measures come in,
        under a progress line.  The page answers clicks meanwhile.  Without a running event
        loop (plain Python) every measure is taken before this returns."""
        import asyncio

        from payme.analysis.review import ReviewRun

        session = self._need_session()
        self._build_review()
        self._stop_review()
        run = ReviewRun(
            session.rules.name, session.players, session.bot_names, session.seed, session.moves,
            position=session.position, generation=session.generation, most=self.review_deals,
        )  # fmt: skip
        self._review_run = run
        title = "How you played" if session.over else "How you are doing so far"
        self.review_title.value = f"<h2>{title}</h2>"
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            run.measure()
        self._draw_review(run)
        self.review_box.layout.display = None
        self.refresh()
        if not run.done and loop is not None:
            self.review_task = loop.create_task(self._refine_review(run))

    def _draw_review(self, run: ReviewRun) -> None:
        """The review as its measures stand, with the progress line while they are taken."""
        from payme.display.review import review_html

        review = run.review()
        # The board shows the summary (grades, chart); below it, the costliest decisions.
        self.review_view.value = review_html(review, self.query_for, summary=False)
        progress = None if run.done else run.progress()
        self.review_board.show(review, self.query_for, progress=progress)

    async def _refine_review(self, run: ReviewRun) -> None:
        """Take ``run``'s measures a part at a time, the page redrawn about once a second
        and after each decision; it ends when the review is closed or asked for again."""
        import asyncio
        import time

        from payme.analysis import workers

        count = workers.workers()
        drawn = time.monotonic()
        while self._review_run is run and (step := run.next_run()) is not None:
            if count > 1:
                parts = workers.parts(step, count, largest=REVIEW_PART)[:count]
                futures = workers.submit(parts, count)
                done = await asyncio.gather(*(asyncio.wrap_future(f) for f in futures))
                pairs = [pair for part in done for pair in part]
            else:
                # One process (Python in the browser): a few deals, then the page's turn.
                pairs = step.play(step.pending()[:REVIEW_STEP])
                await asyncio.sleep(0)
            if self._review_run is not run:
                return
            step.add(pairs)
            if step.done or run.done or time.monotonic() - drawn > REVIEW_REDRAW_S:
                self._draw_review(run)
                drawn = time.monotonic()

    def _stop_review(self) -> None:
        """Stop measuring the review on show (its finished measures stay remembered)."""
        self._review_run = None
        if self.review_task is not None:
            self.review_task.cancel()
            self.review_task = None

    def _review_gesture(self, _gesture: dict[str, Any]) -> None:
        """Review my game, from the final screen: the review opens above the table, and the
        table is drawn again (the page waits for its answer)."""
        self.show_review()

    def _close_review(self) -> None:
        """The review is of the moves made when it was asked for: it goes with the next."""
        self._stop_review()
        self.review_box.layout.display = "none"
        if self.review_box.children:
            self.review_view.value = ""

    def query_for(self, moves: Sequence[str]) -> str:
        """The URL query of this game after the first ``moves`` of yours."""
        session = self._need_session()
        state: dict[str, Any] = {
            "rules": session.rules.name,
            "players": session.players,
            "bots": ",".join(session.bot_names),
            "seed": session.seed,
            "gen": session.generation,
        }
        if session.position:
            state["position"] = session.position
        state["moves"] = ".".join(moves)
        return urlencode(state, safe=",")
