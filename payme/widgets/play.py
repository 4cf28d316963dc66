"""The Play page: a whole game of Pay Me or Rummy 3-Pack against bots, in the browser.

Two layers.  :class:`PlaySession` is the game behind the page with no widgets in it: you in
seat 0, bots in the other seats, every move checked by the engine (an illegal one raises
:class:`~payme.game.actions.IllegalAction` and changes nothing), the bots moving until it is
your turn again.  :class:`PlayPage` draws a session with ipywidgets and turns clicks into
moves; its buttons are enabled from the legal moves, so fast repeated clicks meet an engine
that has already moved on and are refused with a message, never applied twice.

>>> s = PlaySession("denexa", players=2, bots=("greedy",), seed=3)
>>> s.your_turn, s.phase
(True, 'draw')
>>> [s.describe(a) for a in s.legal()]
['Draw from the stock', 'Take the top discard (5♦︎)']
>>> _ = s.act(s.legal()[0]); s.phase
'discard'
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from payme.cards import Card
from payme.game import BOT_NAMES, make_bot, new_game
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
)
from payme.rulesets import PRESETS
from payme.rulesets import rules as get_rules

__all__ = ["YOU", "PlayPage", "PlaySession"]

YOU = 0
"""Your seat: the first to play in hand 1."""

# A Pay Me hand nobody ends (bots that never go out) stops after this many turns.
_TURN_LIMIT = 400


def _label(card: Card) -> str:
    from payme.display.svg import short_label

    return str(short_label(card))


class PlaySession:
    """A game with you in seat :data:`YOU` and a bot in every other seat.

    ``bots`` names one bot per other seat (a single name fills them all).  Pay Me games stop
    after each hand (phase ``"hand_over"``) until :meth:`next_hand`, so the hand's result can
    be read.
    """

    def __init__(
        self,
        rules: str = "denexa",
        players: int = 4,
        bots: Sequence[str] = ("greedy",),
        seed: int = 0,
    ) -> None:
        self.rules = get_rules(rules)
        self.rules.check_players(players)
        names = tuple(bots) * (players - 1) if len(bots) == 1 else tuple(bots)
        if len(names) != players - 1:
            raise ValueError(
                f"give one bot for each of the {players - 1} other seats, or one for all; "
                f"got {len(names)}"
            )
        for name in names:
            if name not in BOT_NAMES:
                raise ValueError(f"unknown bot {name!r}: the bots are {', '.join(BOT_NAMES)}")
        self.players = players
        self.seed = seed
        self.bot_names = names
        self.pay_me = self.rules.game == "pay_me"
        options: dict[str, Any] = (
            {"auto_advance": False, "turn_limit": _TURN_LIMIT} if self.pay_me else {}
        )
        self.game = new_game(self.rules, players, seed, **options)
        self.bots = {
            seat: make_bot(name, self.rules, seed * 1000 + seat)
            for seat, name in enumerate(names, start=1)
        }
        self._advisor = make_bot("strong", self.rules, seed)
        self.play_bots()

    # ------------------------------------------------------------------ state

    @property
    def phase(self) -> str:
        return str(self.game.phase)

    @property
    def over(self) -> bool:
        return bool(self.game.over)

    @property
    def hand_over(self) -> bool:
        """A Pay Me hand has been scored and the next one waits for :meth:`next_hand`."""
        return self.phase == "hand_over"

    @property
    def your_turn(self) -> bool:
        return not self.over and not self.hand_over and self.game.to_move == YOU

    def view(self) -> Any:
        return self.game.view(YOU)

    def hand(self) -> tuple[Card, ...]:
        view = self.view()
        return tuple(view["hand"] if isinstance(view, dict) else view.hand)

    def legal(self) -> list[Action]:
        """Your legal moves now (none when it is not your turn)."""
        return list(self.game.legal_actions()) if self.your_turn else []

    # ------------------------------------------------------------------ moves

    def act(self, action: Action) -> list[Record]:
        """Play your move, then let the bots move until it is your turn again.

        Returns the records of everything that happened.  An illegal move raises
        ``IllegalAction`` (a ``ValueError`` naming the rule) and changes nothing.
        """
        start = len(self.game.history)
        if self.over:
            raise IllegalAction("The game is over: start a new one.", "the game is over")
        if self.hand_over:
            raise IllegalAction("The hand is over: deal the next hand first.", "the deal")
        if self.game.to_move != YOU or getattr(action, "seat", None) != YOU:
            raise IllegalAction("It is not your turn.", "turn order")
        self.game.apply(action)
        self.play_bots()
        return list(self.game.history[start:])

    def play_bots(self) -> None:
        """Let the bots move until it is your turn, the hand is over or the game is."""
        while not self.over and not self.hand_over and self.game.to_move != YOU:
            seat = self.game.to_move
            if seat is None:
                break
            move = self.bots[seat].choose(self.game.view(seat), self.game.legal_actions())
            self.game.apply(move)

    def next_hand(self) -> list[Record]:
        """Deal the next Pay Me hand after a finished one, and let the bots move."""
        if not self.hand_over:
            raise IllegalAction("The hand is not over yet.", "the deal")
        start = len(self.game.history)
        self.game.advance()
        self.play_bots()
        return list(self.game.history[start:])

    def hint(self) -> str:
        """The engine's advice for your move (what the strong bot would do)."""
        legal = self.legal()
        if not legal:
            return "No move to make now."
        return self.describe(self._advisor.choose(self.view(), legal))

    # ------------------------------------------------------------------ words

    def describe(self, action: Action) -> str:
        """A move in words, e.g. ``Discard 7♥`` or ``Go out (Pay me!), discarding 9♣``."""
        if isinstance(action, Draw):
            if action.source == "stock":
                return "Draw from the stock" + (f" ({action.take})" if action.take > 1 else "")
            view = self.view()
            top = view["top_discard"] if isinstance(view, dict) else view.top_discard
            what = f" ({_label(top)})" if top is not None and action.take == 1 else ""
            many = f" {action.take} cards" if action.take > 1 else ""
            return f"Take the top discard{many}{what}"
        if isinstance(action, Discard):
            return f"Discard {_label(action.card)}"
        if isinstance(action, GoOut):
            shout = "Pay me!" if self.pay_me else "go out"
            tail = f", discarding {_label(action.discard)}" if action.discard else ""
            return f"Go out ({shout}){tail}"
        if isinstance(action, LayOff):
            if not action.placements:
                return "Lay off nothing"
            parts = [
                f"{' '.join(_label(c) for c in cards)} onto meld {index + 1}"
                for index, cards in action.placements
            ]
            return "Lay off " + "; ".join(parts)
        if isinstance(action, LayDownRummy):
            return "Lay down the RUMMY cards"
        if isinstance(action, DropOut):
            return "Drop out"
        return str(action)

    def seat_name(self, seat: int) -> str:
        return "You" if seat == YOU else f"Seat {seat} ({self.bot_names[seat - 1]} bot)"

    def status(self) -> str:
        """One line: which hand, what is wild, whose turn."""
        game = self.game
        if self.pay_me:
            wild = game.rules.round_wild_rank(game.dealt)
            head = f"Hand {game.hand_number} of {game.rules.hands}: {game.dealt} cards dealt"
            head += f", {_rank_word(wild)} wild" if wild else ""
        else:
            head = f"Rummy 3-Pack: {game.dealt} cards dealt"
        if self.over:
            winners = ", ".join(self.seat_name(s) for s in game.winners()) or "nobody"
            return f"{head}. Game over: won by {winners}."
        if self.hand_over:
            return f"{head}. The hand is over: read the result, then deal the next hand."
        mover = self.seat_name(game.to_move) if game.to_move is not None else "nobody"
        todo = {
            "draw": "draw a card",
            "discard": "go out or discard",
            "final_draw": "final turn: draw",
            "final_discard": "final turn: discard",
            "lay_off": "lay off onto the declarer's melds",
            "final_go_out": "go out or drop out",
        }.get(self.phase, self.phase.replace("_", " "))
        return f"{head}. {mover}: {todo}." if self.your_turn else f"{head}. {mover} to move."

    def log(self, last: int = 12) -> list[str]:
        """The most recent events, oldest first."""
        return [record.event for record in self.game.history[-last:]]

    def scores(self) -> list[list[str]]:
        """The scoreboard as rows of text: a header row, one row per hand, then totals."""
        seats = [self.seat_name(s).split(" (")[0] for s in range(self.players)]
        if not self.pay_me:
            rows = [["", *seats]]
            if self.over:
                results = self.game.results()
                rows.append(
                    ["winner", *[r["how"] or ("dropped" if r["dropped"] else "") for r in results]]
                )
            return rows
        rows = [["hand", *seats]]
        by_hand: dict[int, list[str]] = {}
        for row in self.game.results():
            cells = by_hand.setdefault(row["hand"], [""] * self.players)
            cells[row["seat"]] = str(row["points"]) + (" ✔" if row["went_out"] else "")
        rows += [[str(h), *cells] for h, cells in sorted(by_hand.items())]
        rows.append(["total", *[str(t) for t in self.game.totals]])
        money = self.game.money
        if money is not None:
            rows.append(["money", *[f"{m / 100:+.2f}" for m in money]])
        return rows


def _rank_word(rank: int) -> str:
    return {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}.get(rank, f"{rank}s")


# ---------------------------------------------------------------------- the page


class PlayPage:
    """The Play page's widgets over a :class:`PlaySession`; ``.widget`` is what to display.

    ``apply_query({"rules": "family", "players": "3", "bots": "strong,greedy", "seed": "5"})``
    starts the game a URL describes (bad values become a message, not an error).
    """

    def __init__(self) -> None:
        import ipywidgets as w

        from payme.widgets import HandView, MessageBox

        self.message = MessageBox()
        self.rules_box = w.Dropdown(options=list(PRESETS), value="denexa", description="Rules")
        self.players_box = w.BoundedIntText(value=3, min=2, max=8, description="Players")
        self.bots_box = w.Text(
            value="greedy", description="Bots", placeholder="e.g. strong, greedy, random"
        )
        self.seed_box = w.BoundedIntText(value=1, min=0, max=10**9, description="Seed")
        self.new_button = w.Button(
            description="New game",
            icon="play",
            button_style="primary",
            tooltip="Deal a new game with these settings",
        )
        for box in (self.rules_box, self.players_box, self.bots_box, self.seed_box):
            box.style.description_width = "60px"
            box.layout.width = "210px"
        self.status = w.HTML()
        self.table = w.HTML()
        self.hand_view = HandView()
        self.cards = w.ToggleButtons(options=[], description="Card")
        self.cards.style.button_width = "auto"
        self.buttons: dict[str, Any] = {}
        for key, text, icon, tip in (
            ("draw_stock", "Draw from stock", "download", "Draw the top card of the stock"),
            ("draw_discard", "Take discard", "hand-paper", "Take the top card of the discard pile"),
            ("discard", "Discard", "upload", "Discard the selected card"),
            ("go_out", "Go out", "flag-checkered", "Go out, discarding the selected card"),
            ("lay_off", "Lay off (best)", "layer-group", "Lay off whatever leaves fewest points"),
            ("lay_off_none", "Lay off nothing", "ban", "Keep your cards"),
            ("rummy", "Lay down RUMMY", "star", "Lay down both RUMMY cards and win"),
            ("next_hand", "Next hand", "forward", "Deal the next hand"),
            ("hint", "Hint", "lightbulb", "What would the strong bot do?"),
        ):
            button = w.Button(description=text, icon=icon, tooltip=tip)
            button.add_class(f"payme-play-{key.replace('_', '-')}")
            self.buttons[key] = button
        self.moves = w.Dropdown(options=[], description="Any move")
        self.moves.layout.width = "420px"
        self.play_move = w.Button(description="Play this move", icon="check")
        self.play_move.add_class("payme-play-move")
        self.log_view = w.HTML()
        self.scores_view = w.HTML()

        for widget, cls in (
            (self.status, "payme-play-status"),
            (self.table, "payme-play-table"),
            (self.hand_view, "payme-play-hand"),
            (self.cards, "payme-play-cards"),
            (self.log_view, "payme-play-log"),
            (self.scores_view, "payme-play-scores"),
            (self.new_button, "payme-play-new"),
            (self.moves, "payme-play-moves"),
            (self.rules_box, "payme-play-rules"),
            (self.players_box, "payme-play-players"),
            (self.bots_box, "payme-play-bots"),
            (self.seed_box, "payme-play-seed"),
        ):
            widget.add_class(cls)

        self.session: PlaySession | None = None
        self._wire()
        row = w.HBox
        self.widget = w.VBox(
            [
                row(
                    [
                        self.rules_box,
                        self.players_box,
                        self.bots_box,
                        self.seed_box,
                        self.new_button,
                    ],
                    layout=w.Layout(flex_flow="row wrap"),
                ),
                self.message,
                self.status,
                self.table,
                self.hand_view,
                self.cards,
                row(list(self.buttons.values()), layout=w.Layout(flex_flow="row wrap")),
                row([self.moves, self.play_move], layout=w.Layout(flex_flow="row wrap")),
                row([self.scores_view, self.log_view], layout=w.Layout(flex_flow="row wrap")),
            ]
        )
        self.widget.add_class("payme-play")
        self.start()

    # ------------------------------------------------------------------ wiring

    def _wire(self) -> None:
        from payme.widgets import guarded

        guard = guarded(self.message)
        self.new_button.on_click(guard(lambda _b: self.start()))
        self.buttons["draw_stock"].on_click(guard(lambda _b: self._draw("stock")))
        self.buttons["draw_discard"].on_click(guard(lambda _b: self._draw("discard")))
        self.buttons["discard"].on_click(guard(lambda _b: self._discard()))
        self.buttons["go_out"].on_click(guard(lambda _b: self._go_out()))
        self.buttons["lay_off"].on_click(guard(lambda _b: self._lay_off(best=True)))
        self.buttons["lay_off_none"].on_click(guard(lambda _b: self._lay_off(best=False)))
        self.buttons["rummy"].on_click(guard(lambda _b: self._act(LayDownRummy(YOU))))
        self.buttons["next_hand"].on_click(guard(lambda _b: self._next_hand()))
        self.buttons["hint"].on_click(guard(lambda _b: self._hint()))
        self.play_move.on_click(guard(lambda _b: self._play_chosen()))
        self.cards.observe(guard(self._draw_hand), names="value")

    def apply_query(self, query: dict[str, str]) -> None:
        """Set the settings from a URL's query and start that game."""
        from payme.widgets import guarded

        @guarded(self.message)
        def apply() -> None:
            if "rules" in query:
                if query["rules"] not in PRESETS:
                    raise ValueError(
                        f"unknown rule set {query['rules']!r}: the presets are {', '.join(PRESETS)}"
                    )
                self.rules_box.value = query["rules"]
            for key, box in (("players", self.players_box), ("seed", self.seed_box)):
                if key in query:
                    text = query[key].strip()
                    if not text.isdigit():
                        raise ValueError(f"{key} must be a whole number, not {query[key]!r}")
                    box.value = int(text)
            if "bots" in query:
                self.bots_box.value = query["bots"]
            self.start()

        if query:
            apply()

    def start(self) -> None:
        """Start a new game from the settings (a bad setting becomes a message)."""
        bots = [b.strip().lower() for b in self.bots_box.value.replace(",", " ").split()]
        self.session = PlaySession(
            self.rules_box.value,
            int(self.players_box.value),
            bots or ["greedy"],
            int(self.seed_box.value),
        )
        self.message.info(
            f"New game of {self.session.rules.name} against "
            f"{', '.join(self.session.bot_names)}. You are seat 0."
        )
        self.refresh()

    # ------------------------------------------------------------------ moves

    def _need_session(self) -> PlaySession:
        if self.session is None:
            raise ValueError("Start a game first.")
        return self.session

    def _act(self, action: Action) -> None:
        session = self._need_session()
        said = session.describe(action)
        session.act(action)
        self.message.ok(f"You: {said}.")
        self.refresh()

    def _find(self, kind: type, **match: Any) -> Action:
        session = self._need_session()
        for action in session.legal():
            if isinstance(action, kind) and all(getattr(action, k) == v for k, v in match.items()):
                return action
        if not session.your_turn:
            raise IllegalAction("It is not your turn.", "turn order")
        raise IllegalAction(f"That move is not allowed now ({session.status()})", "the rules")

    def _selected(self) -> Card:
        session = self._need_session()
        index = self.cards.value
        hand = session.hand()
        if index is None or not 0 <= index < len(hand):
            raise ValueError("Pick a card of your hand first (the row of card buttons).")
        return hand[int(index)]

    def _draw(self, source: str) -> None:
        self._act(self._find(Draw, source=source, take=1))

    def _discard(self) -> None:
        self._act(self._find(Discard, card=self._selected()))

    def _go_out(self) -> None:
        session = self._need_session()
        outs = [a for a in session.legal() if isinstance(a, GoOut)]
        if not outs:
            raise IllegalAction("You cannot go out with this hand now.", "going out")
        index = self.cards.value
        hand = session.hand()
        chosen = hand[index] if index is not None and 0 <= index < len(hand) else None
        action = next((a for a in outs if a.discard == chosen), None)
        if action is None:
            if chosen is not None:
                names = ", ".join(_label(a.discard) for a in outs if a.discard) or "no card"
                raise IllegalAction(
                    f"You cannot go out discarding {_label(chosen)}; you can by discarding "
                    f"{names}.",
                    "going out",
                )
            action = outs[0]
        self._act(action)

    def _lay_off(self, *, best: bool) -> None:
        session = self._need_session()
        if not best:
            self._act(self._find(LayOff, placements=()))
            return
        if session.phase != "lay_off" or not session.your_turn:
            raise IllegalAction("Lay-offs come after someone goes out.", "lay-offs")
        self._act(session.game.best_lay_off(YOU))

    def _next_hand(self) -> None:
        session = self._need_session()
        session.next_hand()
        self.message.info(f"Hand {session.game.hand_number} dealt.")
        self.refresh()

    def _hint(self) -> None:
        self.message.info("Hint: " + self._need_session().hint() + ".")

    def _play_chosen(self) -> None:
        index = self.moves.value
        legal = self._need_session().legal()
        if index is None or not 0 <= index < len(legal):
            raise ValueError("Choose a move in the list first.")
        self._act(legal[index])

    # ------------------------------------------------------------------ drawing

    def refresh(self) -> None:
        session = self._need_session()
        view = session.view()
        self.status.value = f"<b>{escape(session.status())}</b>"
        self.table.value = _table_html(session, view)
        hand = session.hand()
        self.cards.options = [(_label(c), i) for i, c in enumerate(hand)]
        self.cards.value = None
        self._draw_hand()
        legal = session.legal()
        kinds = {type(a) for a in legal}
        sources = {a.source for a in legal if isinstance(a, Draw) and a.take == 1}
        enabled = {
            "draw_stock": "stock" in sources,
            "draw_discard": "discard" in sources,
            "discard": Discard in kinds,
            "go_out": GoOut in kinds,
            "lay_off": LayOff in kinds and session.pay_me,
            "lay_off_none": any(isinstance(a, LayOff) and not a.placements for a in legal),
            "rummy": LayDownRummy in kinds,
            "next_hand": session.hand_over,
            "hint": bool(legal),
        }
        for key, button in self.buttons.items():
            button.disabled = not enabled[key]
        self.buttons["rummy"].layout.display = None if not session.pay_me else "none"
        self.buttons["lay_off"].layout.display = None if session.pay_me else "none"
        self.buttons["lay_off_none"].layout.display = None if session.pay_me else "none"
        self.buttons["next_hand"].layout.display = None if session.pay_me else "none"
        self.moves.options = [(session.describe(a), i) for i, a in enumerate(legal)]
        self.moves.value = 0 if legal else None
        self.play_move.disabled = not legal
        self.scores_view.value = _scores_html(session.scores())
        self.log_view.value = (
            '<div style="min-width:320px"><b>What happened</b><ol>'
            + "".join(f"<li>{escape(line)}</li>" for line in session.log())
            + "</ol></div>"
        )

    def _draw_hand(self, _change: Any = None) -> None:
        """Your hand, the selected card and wild cards marked (by a sign as well as colour)."""
        session = self._need_session()
        view = session.view()
        hand = session.hand()
        dealt = session.game.dealt
        selected = self.cards.value
        marks: list[str | None] = [
            "selected" if i == selected else "wild" if session.rules.is_wild(c, dealt) else None
            for i, c in enumerate(hand)
        ]
        drawn = None if isinstance(view, dict) else view.drawn
        caption = "Your hand" + (f" (you drew {_label(drawn)})" if drawn is not None else "")
        self.hand_view.update(hand, marks=marks, caption=caption)


def _table_html(session: PlaySession, view: Any) -> str:
    from payme.display import hand_html, meld_html

    if isinstance(view, dict):
        top, stock, counts = view["top_discard"], view["stock_count"], view["hand_sizes"]
        melds_html = ""
    else:
        top, stock, counts = view.top_discard, view.stock_count, view.hand_counts
        melds_html = "".join(meld_html(m, width=40) for m in view.table_melds)
    others = ", ".join(
        f"{session.seat_name(s)}: {counts[s]} cards" for s in range(session.players) if s != YOU
    )
    pile = hand_html([top] if top is not None else [], caption="Discard pile", width=48)
    parts = [
        f"<p>{escape(others)}. Stock: {stock} cards.</p>",
        f'<div style="display:flex;gap:12px;flex-wrap:wrap">{pile}</div>',
    ]
    if melds_html:
        parts.append(
            "<p><b>Declarer's melds</b></p>"
            f'<div style="display:flex;gap:8px;flex-wrap:wrap">{melds_html}</div>'
        )
    parts.append(_shown_html(session, view))
    return "".join(parts)


def _flat(groups: Any) -> tuple[Card, ...]:
    """Cards from a sequence of cards or of melds (sequences of cards)."""
    out: list[Card] = []
    for item in groups:
        out.extend([item] if isinstance(item, Card) else item)
    return tuple(out)


def _shown_html(session: PlaySession, view: Any) -> str:
    """Cards on show: every hand in the lay-off step, and the result of the last hand."""
    from payme.display import hand_html

    def row(seat: int, cards: Any, note: str) -> str:
        caption = f"{session.seat_name(seat)}{note}"
        return hand_html(tuple(cards), caption=caption, width=36)

    if isinstance(view, dict):  # Rummy 3-Pack: melds laid face up when going out
        shown = [
            row(s, _flat(melds), ": melds shown") for s, melds in enumerate(view["shown"]) if melds
        ]
        return f'<div class="payme-play-shown">{"".join(shown)}</div>' if shown else ""
    if view.phase == "lay_off":
        shown = [row(s, cards, "") for s, cards in enumerate(view.shown) if cards and s != YOU]
        return (
            '<div class="payme-play-shown"><p><b>Every hand is shown</b></p>'
            + "".join(shown)
            + "</div>"
        )
    last = view.last_hand
    if last is None or not (session.hand_over or session.over):
        return ""
    who = session.seat_name(last.declarer) if last.declarer is not None else "nobody"
    head = (
        f"Hand {last.number}: {who} went out"
        if last.declarer is not None
        else (f"Hand {last.number} ended: {last.how}")
    )
    rows = [
        row(
            s,
            cards,
            f": {last.points[s]} points"
            + (
                f" ({last.deadwood[s]} before lay-offs)"
                if last.deadwood[s] != last.points[s]
                else ""
            ),
        )
        for s, cards in enumerate(last.hands)
    ]
    return f'<div class="payme-play-result"><p><b>{escape(head)}</b></p>{"".join(rows)}</div>'


def _scores_html(rows: list[list[str]]) -> str:
    head, *body = rows
    th = "".join(f'<th style="padding:2px 8px">{escape(c)}</th>' for c in head)
    trs = "".join(
        "<tr>"
        + "".join(f'<td style="padding:2px 8px;text-align:right">{escape(c)}</td>' for c in row)
        + "</tr>"
        for row in body
    )
    return (
        '<div style="min-width:280px"><b>Scoreboard</b> (penalty points; ✔ went out)'
        f'<table class="payme-scoreboard"><thead><tr>{th}</tr></thead>'
        f"<tbody>{trs}</tbody></table></div>"
    )
