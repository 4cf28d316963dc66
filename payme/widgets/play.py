"""The Play page: a whole game of Pay Me or Rummy 3-Pack against bots, on a card table.

Two layers.  :class:`PlaySession` is the game behind the page with no widgets in it: you in
seat 0, bots in the other seats, every move checked by the engine (an illegal one raises
:class:`~payme.game.actions.IllegalAction` and changes nothing), the bots moving until it is
your turn again, and your moves kept as a short text (:attr:`PlaySession.moves`) that the
page's URL carries, so a reload or a shared link replays the same game.  :class:`PlayPage`
draws a session on a :class:`~payme.widgets.table.CardTable` and turns gestures into moves.

>>> s = PlaySession("denexa", players=2, bots=("greedy",), seed=3)
>>> s.your_turn, s.phase
(True, 'draw')
>>> [s.describe(a) for a in s.legal()]
['Draw from the stock', 'Take 5♦︎ from the discard pile']
>>> _ = s.act(s.legal()[0]); s.phase, s.moves
('discard', ['s'])
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import urlencode

from payme.cards import Card, parse_card, parse_hand
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

__all__ = [
    "YOU",
    "PlayPage",
    "PlaySession",
    "decode_move",
    "encode_move",
    "label",
    "seat_names",
]

YOU = 0
"""Your seat: the first to play in hand 1."""

# A Pay Me hand nobody ends (bots that never go out) stops after this many turns.
_TURN_LIMIT = 400

# Where the opponents sit, clockwise from your left, for each number of players.
_SEATS: dict[int, tuple[str, ...]] = {
    2: ("North",),
    3: ("West", "East"),
    4: ("West", "North", "East"),
    5: ("West", "North-West", "North-East", "East"),
    6: ("West", "North-West", "North", "North-East", "East"),
    7: ("South-West", "West", "North-West", "North-East", "East", "South-East"),
    8: ("South-West", "West", "North-West", "North", "North-East", "East", "South-East"),
}

BOT_WORDS: dict[str, str] = {
    "random": "Random (weakest)",
    "greedy": "Greedy",
    "strong": "Strong",
    "expert": "Expert (strongest)",
}
"""The bot strengths as the New game menu names them (a new bot shows its own name)."""


def bot_word(name: str) -> str:
    return BOT_WORDS.get(name, name.capitalize())


def seat_names(players: int) -> tuple[str, ...]:
    """ "You" and the opponents' places at the table, clockwise from your left.

    >>> seat_names(4)
    ('You', 'West', 'North', 'East')
    >>> seat_names(10)[-1]
    'Player 10'
    """
    if players in _SEATS:
        return ("You", *_SEATS[players])
    return ("You", *(f"Player {s + 1}" for s in range(1, players)))


def label(card: Card | None) -> str:
    """A card as players write it: ``9♠``, ``10♥``, ``joker``; ``—`` for none.

    >>> label(parse_card("TH")), label(parse_card("JK")), label(None)
    ('10♥︎', 'joker', '—')
    """
    from payme.display.svg import short_label

    if card is None:
        return "—"
    if card.token == "JK":
        return "joker"
    return str(short_label(card))


def _labels(cards: Sequence[Card]) -> str:
    return " ".join(label(c) for c in cards)


# ---------------------------------------------------------------------- move notation
#
# Your moves in the URL, one short token each, joined by dots: "s" draw from the stock, "p"
# take from the pile ("p3": take 3), "d7H" discard, "o9C" go out discarding 9C ("o" with
# none; "o9C_JK-5H-6H_7S-7D-7C" with the melds as laid down), "l0-8H-9H_1-QS" lay off
# (meld index, cards; "l" alone: nothing), "r" lay down the RUMMY cards, "x" drop out, and
# "n" deal the next hand.


def encode_move(action: Action | None) -> str:
    """The URL token of one of your moves (``None``: dealing the next hand).

    >>> encode_move(Draw(0, "stock")), encode_move(Discard(0, parse_card("7H")))
    ('s', 'd7H')
    >>> encode_move(LayOff(0, ((0, parse_hand("8H 9H")),)))
    'l0-8H-9H'
    """
    if action is None:
        return "n"
    if isinstance(action, Draw):
        head = "s" if action.source == "stock" else "p"
        return head + (str(action.take) if action.take != 1 else "")
    if isinstance(action, Discard):
        return "d" + action.card.token
    if isinstance(action, GoOut):
        text = "o" + (action.discard.token if action.discard else "")
        melds = getattr(action, "melds", None)
        if melds:
            text += "".join("_" + "-".join(c.token for c in _meld_cards(m)) for m in melds)
        return text
    if isinstance(action, LayOff):
        return "l" + "_".join(
            "-".join([str(i), *(c.token for c in cards)]) for i, cards in action.placements
        )
    if isinstance(action, LayDownRummy):
        return "r"
    if isinstance(action, DropOut):
        return "x"
    raise ValueError(f"no URL token for {action!r}")


def _meld_cards(meld: Any) -> tuple[Card, ...]:
    return tuple(meld.cards) if hasattr(meld, "cards") else parse_hand(meld)


def decode_move(
    token: str, seat: int = YOU, rules: Any = "denexa", dealt: int | None = None
) -> Action | None:
    """The move a URL token stands for (``None``: deal the next hand); a bad token is a
    ``ValueError`` naming it.  ``rules`` and ``dealt`` read a go-out's declared melds.

    >>> decode_move("d7H")
    Discard(seat=0, card=Card('7H'))
    >>> decode_move("q")
    Traceback (most recent call last):
    ...
    ValueError: 'q' is not a move: moves are s, p, d<card>, o<card>, l<melds>, r, x or n
    """
    try:
        head, rest = token[:1], token[1:]
        if head == "n" and not rest:
            return None
        if head in ("s", "p"):
            take = int(rest) if rest else 1
            return Draw(seat, "stock" if head == "s" else "discard", take)
        if head == "d" and rest:
            return Discard(seat, parse_card(rest))
        if head == "o":
            discard, *melds = rest.split("_")
            card = parse_card(discard) if discard else None
            if melds:
                groups = [parse_hand(m.replace("-", " ")) for m in melds]
                return go_out_with(seat, card, groups, rules, dealt)
            return GoOut(seat, card)
        if head == "l":
            placements = []
            for part in rest.split("_") if rest else []:
                index, *cards = part.split("-")
                placements.append((int(index), parse_hand(" ".join(cards))))
            return LayOff(seat, tuple(placements))
        if head == "r" and not rest:
            return LayDownRummy(seat)
        if head == "x" and not rest:
            return DropOut(seat)
    except ValueError as exc:
        raise ValueError(f"{token!r} is not a move: {exc}") from None
    raise ValueError(
        f"{token!r} is not a move: moves are s, p, d<card>, o<card>, l<melds>, r, x or n"
    )


def go_out_with(
    seat: int,
    discard: Card | None,
    groups: Sequence[Sequence[Card]],
    rules: Any,
    dealt: int | None,
) -> GoOut:
    """Going out with the melds laid down as ``groups`` (each listed in place order, so a
    run's order says what its wild cards stand for); an invalid meld is refused with why.

    >>> go_out_with(0, None, [parse_hand("JK 5H 6H")], "family", 9).melds
    (Meld('run', 'JK(4H) 5H 6H'),)
    """
    from payme.game.arrangement import declare

    return GoOut(seat, discard, declare([tuple(g) for g in groups], rules, dealt))


# ---------------------------------------------------------------------- the session


class PlaySession:
    """A game with you in seat :data:`YOU` and a bot in every other seat.

    ``bots`` names one bot per other seat (a single name fills them all).  Pay Me games stop
    after each hand (phase ``"hand_over"``) until :meth:`next_hand`, so the hand's result can
    be read.  :attr:`steps` holds what the bots did since your last move (for the table to
    show one by one); :attr:`moves` your moves as URL tokens.
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
        self.names = seat_names(players)
        self.pay_me = self.rules.game == "pay_me"
        options: dict[str, Any] = (
            {"auto_advance": False, "turn_limit": _TURN_LIMIT} if self.pay_me else {}
        )
        self.game = new_game(self.rules, players, seed, **options)
        self.bots = {
            seat: make_bot(name, self.rules, seed * 1000 + seat)
            for seat, name in enumerate(names, start=1)
        }
        self._advisor = make_bot(BOT_NAMES[-1], self.rules, seed)
        self.moves: list[str] = []
        self.steps: list[dict[str, Any]] = []
        self.play_bots()

    @classmethod
    def from_moves(
        cls,
        rules: str,
        players: int,
        bots: Sequence[str],
        seed: int,
        moves: Sequence[str],
    ) -> PlaySession:
        """The session after replaying your ``moves`` (URL tokens); the bots replay theirs.

        A token that is not a move, or a move the game refuses, is a ``ValueError`` saying
        which move it was.
        """
        session = cls(rules, players, bots, seed)
        for number, token in enumerate(moves, start=1):
            try:
                action = decode_move(token, YOU, session.rules, session.game.dealt)
                if action is None:
                    session.next_hand()
                else:
                    session.act(action)
            except ValueError as exc:
                raise ValueError(
                    f"move {number} of the link ({token}) cannot be played: {exc}"
                ) from None
        session.steps = []
        return session

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

    def act(self, action: Action, *, bots: bool = True) -> list[Record]:
        """Play your move, then (unless ``bots=False``) let the bots move until it is your
        turn again.

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
        self.moves.append(encode_move(action))
        self.steps = []
        if bots:
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
            self.steps.append(self._step(seat, move))

    def _step(self, seat: int, move: Action) -> dict[str, Any]:
        """What the table shows while a bot's move is on screen."""
        view = self.view()
        pay_me = not isinstance(view, dict)
        counts = view.hand_counts if pay_me else view["hand_sizes"]
        top = view.top_discard if pay_me else view["top_discard"]
        return {
            "seat": seat,
            "text": self.say(move),
            "counts": list(counts),
            "stock": self.stock_text(),
            "top": top.token if top is not None else None,
        }

    def next_hand(self, *, bots: bool = True) -> list[Record]:
        """Deal the next Pay Me hand after a finished one, and let the bots move."""
        if not self.hand_over:
            raise IllegalAction("The hand is not over yet.", "the deal")
        start = len(self.game.history)
        self.game.advance()
        self.moves.append("n")
        self.steps = []
        if bots:
            self.play_bots()
        return list(self.game.history[start:])

    def advice(self) -> Action | None:
        """The move the strongest bot would make in your place (``None``: no move now)."""
        legal = self.legal()
        return self._advisor.choose(self.view(), legal) if legal else None

    def hint(self) -> str:
        """The strongest bot's advice for your move, in words, with its reason."""
        from payme.game import advise

        legal = self.legal()
        if not legal:
            return "No move to make now."
        advice = advise(self.view(), legal, self.seed)
        reason = str(getattr(advice, "reason", "")).strip()
        return self.describe(advice.action) + (f" — {reason}" if reason else "")

    # ------------------------------------------------------------------ words

    def top_discard(self) -> Card | None:
        view = self.view()
        top: Card | None = view["top_discard"] if isinstance(view, dict) else view.top_discard
        return top

    def stock_text(self) -> str:
        """The stock as players see it: counted, or only estimated where the rules say the
        stock may never be counted (Rummy 3-Pack)."""
        view = self.view()
        count = int(view["stock_count"] if isinstance(view, dict) else view.stock_count)
        if self.rules.stock_counted:
            return _plural(count, "card")
        if count == 0:
            return "empty"
        if count <= 5:
            return "a few cards"
        estimate = view["stock_estimate"] if isinstance(view, dict) else count
        return f"about {estimate} cards"

    def describe(self, action: Action) -> str:
        """Your move in words, e.g. ``Discard 7♥`` or ``Go out (Pay me!), discarding 9♣``."""
        if isinstance(action, Draw):
            if action.source == "stock":
                return "Draw from the stock" + (f" ({action.take})" if action.take > 1 else "")
            top = self.top_discard()
            if action.take > 1:
                return f"Take the top {action.take} cards of the discard pile"
            return f"Take {label(top)} from the discard pile" if top else "Take the top discard"
        if isinstance(action, Discard):
            return f"Discard {label(action.card)}"
        if isinstance(action, GoOut):
            shout = "Pay me!" if self.pay_me else "go out"
            tail = f", discarding {label(action.discard)}" if action.discard else ""
            return f"Go out ({shout}){tail}"
        if isinstance(action, LayOff):
            if not action.placements:
                return "Lay off nothing"
            parts = [
                f"{_labels(cards)} onto meld {index + 1}" for index, cards in action.placements
            ]
            return "Lay off " + "; ".join(parts)
        if isinstance(action, LayDownRummy):
            return "Lay down both RUMMY cards"
        if isinstance(action, DropOut):
            return "Drop out"
        return str(action)

    def say(self, action: Action) -> str:
        """Anyone's move as the log tells it: ``West discards 7♥``."""
        seat = getattr(action, "seat", YOU)
        who = self.names[seat]
        you = seat == YOU

        def verb(word: str) -> str:
            return word if you else word + "s"

        if isinstance(action, Draw):
            if action.source == "stock":
                return f"{who} {verb('draw')} from the stock."
            return f"{who} {'take' if you else 'takes'} a card from the discard pile."
        if isinstance(action, Discard):
            return f"{who} {verb('discard')} {label(action.card)}."
        if isinstance(action, GoOut):
            shout = " — Pay me!" if self.pay_me else ""
            tail = f", discarding {label(action.discard)}" if action.discard else ""
            return f"{who} {'go' if you else 'goes'} out{tail}{shout}"
        if isinstance(action, LayOff):
            if not action.placements:
                return f"{who} {verb('lay')} off nothing."
            parts = [f"{_labels(cards)} onto meld {i + 1}" for i, cards in action.placements]
            return f"{who} {verb('lay')} off " + "; ".join(parts) + "."
        if isinstance(action, LayDownRummy):
            return f"{who} {verb('lay')} down both RUMMY cards and {verb('win')}!"
        if isinstance(action, DropOut):
            return f"{who} {verb('drop')} out."
        return str(action)

    def words(self, text: str) -> str:
        """An engine sentence in players' words: seat numbers become names, card codes
        become ``9♠``, meld numbers count from 1."""
        names = self.names

        def seat(match: re.Match[str]) -> str:
            number = int(match.group(2))
            name = names[number] if number < len(names) else match.group(0)
            return name if match.group(1)[0].isupper() or name != "You" else "you"

        text = re.sub(r"\b([Ss]eat) (\d+)\b", seat, text)
        text = re.sub(r"\b(you|You) (deals|goes|takes|draws|discards|lays|has)\b",
                      lambda m: f"{m.group(1)} {_plain_verb(m.group(2))}", text)  # fmt: skip
        text = re.sub(r"\bmeld (\d+)\b", lambda m: f"meld {int(m.group(1)) + 1}", text)
        return re.sub(
            r"\b(JK|RUMMY|WILD|GROUP|SEQ|NOMELD|NOGO|[2-9TJQKA][SHDC])\b",
            lambda m: label(parse_card(m.group(1))) if m.group(1) != "JK" else "joker",
            text,
        )

    def status(self) -> str:
        """One line: whose turn and what to do."""
        game = self.game
        if self.over:
            winners = game.winners()
            if not winners:
                return "Game over: nobody won."
            names = " and ".join(self.names[s] for s in winners)
            verb = "win" if winners == (YOU,) or len(winners) > 1 else "wins"
            return f"Game over: {names} {verb}."
        if self.hand_over:
            return "The hand is over: read the result, then deal the next hand."
        if game.to_move is None:
            return ""
        if not self.your_turn:
            return f"{self.names[game.to_move]} to play."
        todo = {
            "draw": "draw a card from the stock or the discard pile",
            "discard": "discard a card, or go out" if self.pay_me else "discard, or go out",
            "final_draw": "your final turn: draw a card",
            "final_discard": "your final turn: discard a card",
            "lay_off": "lay off cards onto the declarer's melds (select a card, then a meld)",
            "final_go_out": "go out if you can, or pass by dropping out",
        }.get(self.phase, self.phase.replace("_", " "))
        return f"Your turn: {todo}."

    def title(self) -> str:
        game = self.game
        if self.pay_me:
            wild = game.rules.round_wild_rank(game.dealt)
            text = f"{self.rules.title} · hand {game.hand_number} of {game.rules.hands}"
            text += f" · {game.dealt} cards dealt"
            return text + (f" · {_rank_word(wild)} wild" if wild else "")
        return f"{self.rules.title} · {game.dealt} cards dealt"

    def log(self, last: int = 12) -> list[str]:
        """The most recent events in players' words, oldest first."""
        out = []
        for record in self.game.history[-last:]:
            out.append(self.say(record.action) if record.action else self.words(record.event))
        return out

    def scores(self) -> list[list[str]]:
        """The scoreboard as rows of text: a header row, one row per hand, then totals."""
        seats = list(self.names)
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
            rows.append(["money", *[_money(m) for m in money]])
        return rows


def _plain_verb(verb: str) -> str:
    return {"goes": "go", "has": "have"}.get(verb, verb[:-1])


def _money(cents: int) -> str:
    sign = "+" if cents > 0 else "−" if cents < 0 else ""
    return f"{sign}${abs(cents) / 100:.2f}"


def _rank_word(rank: int) -> str:
    return {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}.get(rank, f"{rank}s")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------- the page


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
            description="Review my game",
            tooltip="Each of your decisions next to the strongest bot's",
            layout=w.Layout(display="none"),
        )
        self.review_button.add_class("payme-play-review-button")
        self.scores_view = w.HTML()
        self.scores_view.add_class("payme-play-scores")
        self.review_view = w.HTML()
        self.review_view.add_class("payme-play-review")

        # The New game dialog: rule sets by title, opponents' strengths from a menu.
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
        self.dialog = w.VBox(
            [
                w.HTML("<b>New game</b>"),
                self.rules_box,
                self.players_box,
                self.bots_box,
                w.HBox([self.deal_button, self.cancel_button]),
            ],
            layout=w.Layout(display="none", border="1px solid #999", padding="8px",
                            max_width="100%"),
        )  # fmt: skip
        self.dialog.add_class("payme-play-dialog")
        self.rules_box.observe(lambda _c: self._fill_players(), names="value")
        self.players_box.observe(lambda _c: self._fill_bots(), names="value")
        self._fill_players(3)

        from payme.widgets import guarded

        guard = guarded(self.message)
        self.new_button.on_click(guard(lambda _b: self._toggle_dialog()))
        self.cancel_button.on_click(guard(lambda _b: self._toggle_dialog(False)))
        self.deal_button.on_click(guard(lambda _b: self._deal_from_dialog()))
        self.review_button.on_click(guard(lambda _b: self.show_review()))

        self.session: PlaySession | None = None
        self._layoff: list[tuple[int, tuple[Card, ...]]] = []
        self._arrange: dict[str, Any] | None = None
        self._advice = ""
        self._serial = 0
        self._push = False
        self.widget = w.VBox(
            [
                w.HBox([self.new_button, self.review_button],
                       layout=w.Layout(flex_flow="row wrap")),
                self.dialog,
                self.message,
                self.table,
                self.review_view,
                self.scores_view,
                self.url,
            ],
            layout=w.Layout(max_width="100%"),
        )  # fmt: skip
        self.widget.add_class("payme-play")
        self.start("denexa", 3, ("greedy",), random.randrange(10**6))

    # ------------------------------------------------------------------ the dialog

    def _fill_players(self, players: int | None = None) -> None:
        ruleset = PRESETS[self.rules_box.value]
        chosen = players or self.players_box.value or 3
        options = list(range(ruleset.min_players, ruleset.max_players + 1))
        self.players_box.options = [(str(n), n) for n in options]
        self.players_box.value = min(max(chosen, options[0]), options[-1])
        self._fill_bots()

    def _fill_bots(self) -> None:
        import ipywidgets as w

        players = int(self.players_box.value or 2)
        old = [box.value for box in self.bots_box.children]
        boxes = []
        for seat, name in enumerate(seat_names(players)[1:], start=1):
            box = w.Dropdown(
                options=[(bot_word(b), b) for b in BOT_NAMES],
                value=old[seat - 1] if seat - 1 < len(old) else "greedy",
                description=name,
            )
            box.style.description_width = "70px"
            box.layout.width = "min(300px, 100%)"
            box.add_class(f"payme-play-bot-{seat}")
            boxes.append(box)
        self.bots_box.children = boxes

    def _toggle_dialog(self, show: bool | None = None) -> None:
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
                if not text.strip().isdigit():
                    raise ValueError(f"{key} must be a whole number, not {text!r}")
                numbers[key] = int(text)
            bots = tuple(b for b in re.split(r"[\s,]+", query.get("bots", "greedy").lower()) if b)
            seed = numbers.get("seed", random.randrange(10**6))
            moves = [m for m in query.get("moves", "").split(".") if m]
            self.start(rules, numbers["players"], bots or ("greedy",), seed, moves, push=push)

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
        push: bool = False,
    ) -> None:
        """Start a game (replaying ``moves``); a bad setting is a ``ValueError`` saying so."""
        session = PlaySession.from_moves(rules, players, bots, seed, moves)
        self.session = session
        self._layoff, self._arrange, self._advice = [], None, ""
        self.review_view.value = ""
        self.rules_box.value = rules
        self._fill_players(players)
        for box, bot in zip(self.bots_box.children, session.bot_names, strict=False):
            box.value = bot
        against = ", ".join(
            f"{session.names[s]} ({b} bot)" for s, b in enumerate(session.bot_names, start=1)
        )
        self.message.info(f"{session.rules.title}: you against {against}.")
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
        handler = {
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
            "rummy": lambda _g: self._act(LayDownRummy(YOU)),
            "next_hand": self._next_hand,
            "hint": self._hint,
        }.get(str(kind))
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
            raise IllegalAction("The game is over: start a new one.", "the game is over")
        if session.hand_over:
            raise IllegalAction("The hand is over: deal the next hand first.", "the deal")
        if not session.your_turn:
            who = session.names[session.game.to_move]
            raise IllegalAction(f"It is not your turn: {who} is playing.", "turn order")
        return session

    def _try(self, action: Action) -> None:
        """Play ``action`` if the engine allows it; otherwise raise with the rule's reason."""
        session = self._check_turn()
        verdict = session.game.can(action)
        if not verdict.ok:
            raise IllegalAction(verdict.reason, verdict.rule)
        self._act(action)

    def _act(self, action: Action) -> None:
        session = self._need_session()
        session.act(action, bots=False)
        self._layoff, self._arrange, self._advice = [], None, ""
        self._bots_reply()

    def _bots_reply(self) -> None:
        """Show your move at once, then the bots' replies (the table animates them)."""
        session = self._need_session()
        self.refresh()
        if not session.your_turn and not session.hand_over and not session.over:
            session.play_bots()
            self.refresh()

    def _draw(self, gesture: dict[str, Any]) -> None:
        self._try(Draw(YOU, "stock" if gesture.get("source") == "stock" else "discard"))

    def _discard(self, gesture: dict[str, Any]) -> None:
        self._try(Discard(YOU, self._card(gesture)))

    def _go_out(self, gesture: dict[str, Any]) -> None:
        session = self._check_turn()
        outs = [a for a in session.legal() if isinstance(a, GoOut)]
        chosen = self._card(gesture) if gesture.get("card") else None
        if not outs:
            verdict = session.game.can(GoOut(YOU, chosen))
            raise IllegalAction(verdict.reason or "You cannot go out now.", verdict.rule)
        action = next((a for a in outs if a.discard == chosen), None)
        if action is None and chosen is None and len(outs) == 1:
            action = outs[0]
        if action is None:
            names = " or ".join(label(a.discard) for a in outs if a.discard)
            if chosen is None:
                raise IllegalAction(
                    f"Select the card to discard as you go out: {names}.", "going out"
                )
            raise IllegalAction(
                f"You cannot go out discarding {label(chosen)}; you can by discarding {names}.",
                "going out",
            )
        if session.pay_me:
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
        """The arrangement step: the engine's best layout, for the player to change."""
        from payme.game.arrangement import arrangements

        session = self._check_turn()
        cards = list(session.hand())
        if discard is not None:
            cards.remove(discard)
        proposals = arrangements(tuple(cards), session.rules, session.game.dealt, 1)
        groups = [tuple(m.cards) for m in proposals[0]] if proposals else [tuple(cards)]
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
        placements = (*self._layoff, (meld, (card,)))
        verdict = session.game.can(LayOff(YOU, placements))
        if not verdict.ok:
            raise IllegalAction(verdict.reason, verdict.rule)
        self._layoff = list(placements)
        self.refresh()

    def _lay_off_undo(self, _gesture: dict[str, Any]) -> None:
        self._layoff = []
        self.refresh()

    def _lay_off_done(self, _gesture: dict[str, Any]) -> None:
        self._try(LayOff(YOU, tuple(self._layoff)))

    def _lay_off_best(self, _gesture: dict[str, Any]) -> None:
        session = self._check_turn()
        self._try(session.game.best_lay_off(YOU))

    def _hand_left(self) -> list[Card]:
        hand = list(self._need_session().hand())
        for _index, cards in self._layoff:
            for card in cards:
                hand.remove(card)
        return hand

    def _next_hand(self, _gesture: dict[str, Any]) -> None:
        session = self._need_session()
        session.next_hand(bots=False)
        self._layoff, self._arrange, self._advice = [], None, ""
        self._bots_reply()

    def _hint(self, _gesture: dict[str, Any]) -> None:
        session = self._need_session()
        self._advice = "Hint: " + session.hint().rstrip(".") + "."
        self.refresh()

    # ------------------------------------------------------------------ drawing

    def query(self) -> str:
        """The URL query of the game as it stands (rules, players, bots, seed, moves)."""
        return self.query_for(self._need_session().moves)

    def refresh(self) -> None:
        """Draw the session on the table, the scoreboard and the buttons."""
        session = self._need_session()
        self._serial += 1
        state = _TableState(self, session).build()
        state["serial"] = self._serial
        self.table.show(state)
        # A new game is a new history entry (Back returns to the game before); each move
        # only updates the entry, so a reload or a copied link shows this very position.
        self.url.update(self.query(), push=self._push)
        self._push = False
        session.steps = []
        self.scores_view.value = _scores_html(session)
        self.review_button.layout.display = None if session.over else "none"

    def show_review(self) -> None:
        """The game review: your decisions next to the strongest bot's."""
        from payme.analysis.review import review_game, review_html

        session = self._need_session()
        review = review_game(
            session.rules.name, session.players, session.bot_names, session.seed, session.moves
        )
        self.review_view.value = review_html(review, self.query_for)

    def query_for(self, moves: Sequence[str]) -> str:
        """The URL query of this game after the first ``moves`` of yours."""
        session = self._need_session()
        return urlencode(
            {
                "rules": session.rules.name,
                "players": session.players,
                "bots": ",".join(session.bot_names),
                "seed": session.seed,
                "moves": ".".join(moves),
            },
            safe=",",
        )


def _stands(meld: Any) -> list[Card | None]:
    from payme.display.html import stand_ins

    return stand_ins(meld)


class _TableState:
    """The JSON the table draws, built from the session (one seat's view only)."""

    def __init__(self, page: PlayPage, session: PlaySession) -> None:
        self.page = page
        self.session = session
        self.table = page.table
        self.view = session.view()
        self.pay_me = session.pay_me
        self.dealt = session.game.dealt

    def face(self, card: Card, stands_for: Card | None = None) -> str:
        wild = self.session.rules.is_wild(card, self.dealt)
        return self.table.face(card, "wild" if wild and stands_for is None else None, stands_for)

    def build(self) -> dict[str, Any]:
        s = self.session
        legal = s.legal()
        kinds = {type(a) for a in legal}
        sources = {a.source for a in legal if isinstance(a, Draw) and a.take == 1}
        mode = "wait"
        if s.your_turn:
            mode = "lay_off" if s.phase == "lay_off" else "play"
            if self.page._arrange is not None:
                mode = "arrange"
        hand = self.page._hand_left() if mode == "lay_off" else list(s.hand())
        drawn = None if isinstance(self.view, dict) else self.view.drawn
        top = s.top_discard()
        state: dict[str, Any] = {
            "title": s.title(),
            "status": s.status(),
            "advice": self.page._advice,
            "phase": s.phase,
            "mode": mode,
            "waiting": not s.your_turn and not s.hand_over and not s.over,
            "you": {
                "name": "You",
                "hand": [self.face(c) for c in hand],
                "drawn": self.face(drawn) if drawn is not None else None,
                "wild": [self.face(c) for c in hand if s.rules.is_wild(c, self.dealt)],
                "deal": self._deal_id(),
                "turn": s.your_turn,
                "score": self._score(YOU),
            },
            "seats": [self._seat(seat) for seat in range(1, s.players)],
            "stock": {"text": s.stock_text(), "can": "stock" in sources},
            "pile": {
                "top": self.face(top) if top is not None else None,
                "can": "discard" in sources,
            },
            "melds": self._melds(mode),
            "can": {
                "discard": Discard in kinds,
                "go_out": GoOut in kinds,
                "lay_off": LayOff in kinds,
                "rummy": LayDownRummy in kinds,
                "hint": bool(legal),
                "next_hand": s.hand_over,
            },
            "pending": bool(self.page._layoff),
            "go_out_word": "Pay me! (go out)" if self.pay_me else "Go out",
            "anim": s.steps,
            "log": s.log(14),
        }
        if mode == "arrange":
            state["arrange"] = self._arrangement()
        panel = self._panel()
        if panel:
            state["panel"] = panel
        return state

    def _deal_id(self) -> str:
        game = self.session.game
        return f"{self.session.seed}-{getattr(game, 'hand_number', 1)}"

    def _score(self, seat: int) -> str:
        if not self.pay_me:
            return ""
        view = self.view
        text = _plural(view.totals[seat], "point")
        if view.money is not None:
            text += f" · {_money(view.money[seat])}"
        return text

    def _seat(self, seat: int) -> dict[str, Any]:
        s = self.session
        view = self.view
        if isinstance(view, dict):
            count = view["hand_sizes"][seat]
            out = not view["active"][seat]
            shown: list[str] = []
        else:
            count = view.hand_counts[seat]
            out = False
            cards = view.shown[seat] if view.phase == "lay_off" else None
            shown = [self.face(c) for c in cards] if cards else []
        return {
            "seat": seat,
            "name": s.names[seat],
            "who": f"{s.bot_names[seat - 1]} bot",
            "count": count,
            "turn": s.game.to_move == seat and not s.hand_over and not s.over,
            "out": out,
            "score": self._score(seat),
            "shown": shown,
            "note": self._note(seat),
        }

    def _note(self, seat: int) -> str:
        """What stands out about a seat: it went out, or dropped out."""
        view = self.view
        if isinstance(view, dict):
            return "dropped out" if not view["active"][seat] else ""
        if view.declarer == seat and view.phase not in ("draw", "discard"):
            return "went out — Pay me!"
        return ""

    def _melds(self, mode: str) -> list[dict[str, Any]]:
        from payme.display.html import meld_label, stand_ins

        s = self.session
        view = self.view
        out: list[dict[str, Any]] = []
        if isinstance(view, dict):  # Rummy 3-Pack: melds laid face up by whoever went out
            number = 0
            for seat, melds in enumerate(view["shown"]):
                for cards in melds:
                    number += 1
                    out.append({
                        "id": number - 1, "number": number, "owner": s.names[seat],
                        "label": f"{len(cards)} cards", "cards": [self.face(c) for c in cards],
                        "laid": [None] * len(cards), "target": False,
                    })  # fmt: skip
            return out
        melds = list(view.table_melds)
        if not melds or view.declarer is None:
            return out
        laid = self._laid_by(len(melds))
        if mode == "lay_off" and self.page._layoff:
            melds = self._grown(melds)
            for index, cards in self.page._layoff:
                laid[index].extend(("You", c) for c in cards)
        for i, meld in enumerate(melds):
            cards = tuple(meld.cards)
            stands = stand_ins(meld)
            by: list[str | None] = [None] * len(cards)
            for who, card in laid[i]:
                for k in reversed(range(len(cards))):
                    if cards[k] == card and by[k] is None:
                        by[k] = who
                        break
            out.append({
                "id": i, "number": i + 1, "owner": s.names[view.declarer],
                "label": meld_label(meld, s.rules),
                "cards": [self._meld_face(c, st) for c, st in zip(cards, stands, strict=True)],
                "laid": by, "target": mode == "lay_off",
            })  # fmt: skip
        return out

    def _meld_face(self, card: Card, stands: Card | None) -> str:
        if stands is not None and stands != card:
            return self.table.face(card, None, stands)
        return self.table.face(card)

    def _laid_by(self, count: int) -> list[list[tuple[str, Card]]]:
        """Who laid off which card onto each meld this hand (from the public log)."""
        s = self.session
        laid: list[list[tuple[str, Card]]] = [[] for _ in range(count)]
        hand = getattr(s.game, "hand_number", 1)
        for record in s.game.history:
            if record.hand == hand and isinstance(record.action, LayOff):
                for index, cards in record.action.placements:
                    if 0 <= index < count:
                        laid[index].extend((s.names[record.action.seat], c) for c in cards)
        return laid

    def _grown(self, melds: list[Any]) -> list[Any]:
        from payme.layoff import grow_meld

        grown = list(melds)
        for index, cards in self.page._layoff:
            bigger = grow_meld(grown[index], cards, self.session.rules, self.dealt)
            if bigger is not None:
                grown[index] = bigger
        return grown

    def _arrangement(self) -> dict[str, Any]:
        from payme.game.arrangement import check_arrangement

        arrange = self.page._arrange or {}
        s = self.session
        discard = arrange.get("discard")
        kept = list(s.hand())
        if discard is not None:
            kept.remove(discard)
        groups = arrange.get("groups", [])
        check = check_arrangement(groups, tuple(kept), s.rules, self.dealt)
        shown = []
        for cards, meld_check in zip(groups, check.checks, strict=True):
            meld = meld_check.meld
            faces = (
                [self._meld_face(c, st) for c, st in zip(meld.cards, _stands(meld), strict=True)]
                if meld is not None
                else [self.face(c) for c in cards]
            )
            shown.append({
                "cards": faces, "ok": bool(meld_check.ok), "reason": s.words(meld_check.reason),
            })  # fmt: skip
        return {
            "groups": shown,
            "ok": check.ok,
            "discard_name": label(discard) if discard is not None else "nothing",
            "problem": "" if check.ok else s.words(check.reason),
        }

    def _panel(self) -> dict[str, str] | None:
        s = self.session
        if not (s.hand_over or s.over):
            return None
        if not self.pay_me:
            return {"title": "Game over", "html": _three_pack_result_html(s)}
        last = self.view.last_hand
        if last is None:
            return None
        return {"title": f"Hand {last.number}: the result", "html": _hand_result_html(s, last)}


def _hand_result_html(session: PlaySession, last: Any) -> str:
    """Every player's hand at the end: melds and deadwood apart, lay-offs on the melds they
    joined, the points and how they were reached, the running totals (and the money)."""
    from payme.display.html import deadwood_html, meld_html
    from payme.solver import evaluate

    rules, names = session.rules, session.names
    totals = [0] * session.players
    for summary in session.game.summaries:
        for seat in range(session.players):
            totals[seat] += summary.points[seat]
        if summary.number == last.number:
            break
    parts = []
    if last.declarer is not None:
        who = names[last.declarer]
        whose = "Your" if last.declarer == YOU else f"{who}'s"
        parts.append(f"<p><b>{escape(who)} went out</b> and scores 0.</p>")
        laid_on: list[list[Card]] = [[] for _ in last.table]
        for placements in last.lay_offs:
            for index, cards in placements:
                laid_on[index].extend(cards)
        melds = session.view().table_melds if session.hand_over else ()
        table_html = "".join(
            meld_html(m, width=40, rules=rules, caption=f"Meld {i + 1}",
                      laid_off=laid_on[i]) if melds else ""
            for i, m in enumerate(melds)
        )  # fmt: skip
        if table_html:
            parts.append(
                f'<div class="payme-result-table"><p>{escape(whose)} melds on the table '
                "(cards laid off by others are ticked):</p>"
                f'<div style="display:flex;flex-wrap:wrap;gap:8px">{table_html}</div></div>'
            )
    else:
        parts.append(f"<p><b>Nobody went out</b> ({escape(last.how)}).</p>")
    rows = []
    for seat in range(session.players):
        if seat == last.declarer:
            continue
        cards = list(last.hands[seat])
        laid: list[str] = []
        for index, added in last.lay_offs[seat]:
            laid.append(f"{_labels(added)} onto meld {index + 1}")
            for card in added:
                cards.remove(card)
        layout = evaluate(cards, rules, last.dealt)
        before, after = last.deadwood[seat], last.points[seat]
        how = (
            f"{_plural(before, 'point')} before lay-offs, {after} after"
            if laid
            else _plural(after, "point")
        )
        melds = "".join(meld_html(m, width=36, rules=rules) for m in layout.melds)
        dead = (
            deadwood_html(layout.deadwood, layout.deadwood_points, rules, width=36)
            if layout.deadwood
            else ""
        )
        money = ""
        if last.money is not None:
            money = f" · {_money(last.money[seat])}"
        rows.append(
            f'<div class="payme-result-seat" style="margin:6px 0">'
            f'<p style="margin:2px 0"><b>{escape(names[seat])}</b>: {escape(how)}'
            f" · total {totals[seat]}{escape(money)}"
            + (f"<br>Laid off {escape('; '.join(laid))}." if laid else "")
            + "</p>"
            f'<div style="display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end">'
            f"{melds}{dead}</div></div>"
        )
    parts.extend(rows)
    if last.declarer is not None and last.money is not None:
        parts.append(
            f"<p>{escape(names[last.declarer])} collects "
            f"{_money(last.money[last.declarer])} this hand.</p>"
        )
    if session.over:
        parts.append(f"<p><b>{escape(session.status())}</b></p>")
    return "".join(parts)


_WHY_WON = {
    "went out": "went out",
    "rummy card": "held a RUMMY card",
    "both rummy": "laid down both RUMMY cards",
}


def _three_pack_result_html(session: PlaySession) -> str:
    """Who won Rummy 3-Pack and why (went out, held a RUMMY card)."""
    names = session.names
    items = []
    for row in session.game.results():
        seat = row["seat"]
        if row["winner"]:
            why = _WHY_WON.get(row["how"], row["how"])
            items.append(f"<li><b>{escape(names[seat])}</b> won: {escape(why)}.</li>")
        elif row["dropped"]:
            items.append(f"<li>{escape(names[seat])} dropped out.</li>")
        else:
            items.append(f"<li>{escape(names[seat])} did not win.</li>")
    head = escape(session.status())
    return f"<p><b>{head}</b></p><ul>{''.join(items)}</ul>"


def _scores_html(session: PlaySession) -> str:
    if not session.pay_me:
        return ""
    head, *body = session.scores()
    th = "".join(f'<th scope="col" style="padding:2px 8px">{escape(c)}</th>' for c in head)
    trs = "".join(
        "<tr>"
        + "".join(f'<td style="padding:2px 8px;text-align:right">{escape(c)}</td>' for c in row)
        + "</tr>"
        for row in body
    )
    return (
        '<div style="max-width:100%;overflow-x:auto"><b>Scoreboard</b> (penalty points; '
        "✔ went out)"
        f'<table class="payme-scoreboard"><thead><tr>{th}</tr></thead>'
        f"<tbody>{trs}</tbody></table></div>"
    )
