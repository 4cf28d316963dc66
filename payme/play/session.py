"""The game behind the Play page, with no widgets in it: you in seat 0 and bots elsewhere.

:class:`PlaySession` checks every move with the engine (an illegal one raises
:class:`~payme.game.actions.IllegalAction` and changes nothing), lets the bots move until it
is your turn again, keeps what they did for the table to show one by one, and keeps your
moves as short tokens (:func:`move_token` / :func:`parse_move`) that the page's URL
carries, so a reload or a shared link replays the same game.  It also says everything in a
player's words: "You", seat names, cards as 9♠, melds numbered from 1.

>>> s = PlaySession("denexa", players=2, bots=("greedy",), seed=3)
>>> s.your_turn, s.phase
(True, 'draw')
>>> [s.describe(a) for a in s.legal()]
['Draw from the stock', 'Take 5♦︎ from the discard pile']
>>> _ = s.act(s.legal()[0]); s.phase, s.moves
('discard', ['s'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from payme.cards import Card, parse_card
from payme.game import BOT_NAMES, actions, game_class, make_bot, new_game
from payme.game.actions import Action, IllegalAction, Record, parse_action
from payme.game.base import Game
from payme.game.bots import Recommendation
from payme.game.generations import BOT_GENERATION, check_generation
from payme.game.view import SeatView
from payme.rulesets import RulesLike
from payme.rulesets import rules as get_rules
from payme.words import joined, label, plain_words, seat_names, wild_cards

if TYPE_CHECKING:
    from payme.game.pay_me import PayMeGame
    from payme.game.view import PayMeView

__all__ = [
    "BOT_WORDS",
    "NEXT_HAND",
    "YOU",
    "PlaySession",
    "bot_word",
    "move_token",
    "parse_move",
]

YOU = 0
"""Your seat: the first to play in hand 1."""


BOT_WORDS: dict[str, str] = {
    "random": "Random (weakest)",
    "greedy": "Greedy",
    "strong": "Strong",
    "expert": "Expert (strongest)",
}
"""The bot strengths as the New game menu names them (a new bot shows its own name)."""


def bot_word(name: str) -> str:
    return BOT_WORDS.get(name, name.capitalize())


def _labels(cards: Sequence[Card]) -> str:
    return " ".join(label(c) for c in cards)


# ---------------------------------------------------------------------- your moves as text

NEXT_HAND: Final = "n"
"""The token of dealing the next hand: your moves are actions' tokens
(:meth:`~payme.game.actions.Discard.token`...) and this."""


def move_token(move: Action | None) -> str:
    """The token of one of your moves in the page's URL (``None``: dealing the next hand).

    >>> move_token(actions.Draw(0, "stock")), move_token(None)
    ('s', 'n')
    """
    return NEXT_HAND if move is None else move.token()


def parse_move(
    token: str, seat: int = YOU, rules: RulesLike = "denexa", dealt: int | None = None
) -> Action | None:
    """The move a :func:`move_token` wrote (``None``: deal the next hand); a bad token is a
    ``ValueError`` naming it (see :func:`~payme.game.actions.parse_action`).

    >>> parse_move("d7H"), parse_move("n")
    (Discard(seat=0, card=Card('7H')), None)
    >>> parse_move("q")
    Traceback (most recent call last):
    ...
    ValueError: 'q' is not a move: moves are s, p, d<card>, o<card>, l<melds>, r or x
    """
    return None if token == NEXT_HAND else parse_action(token, seat, rules, dealt)


# ---------------------------------------------------------------------- the session


class PlaySession:
    """A game with you in seat :data:`YOU` and a bot in every other seat.

    ``bots`` names one bot per other seat (a single name fills them all).  Pay Me games stop
    after each hand (phase ``"hand_over"``) until :meth:`next_hand`, so the hand's result can
    be read.  ``steps`` holds what the bots did since your last move (for the table to
    show one by one); ``moves`` your moves as URL tokens.  ``position`` (the engine's
    position notation, :mod:`payme.game.position`) starts the game at that position
    instead of a fresh deal; its rule set, players and seed then stand.  ``generation``
    says whose choices the bots make (:mod:`payme.game.generations`): a link made before
    the bots changed replays with the bots it was played with.
    """

    def __init__(
        self,
        rules: RulesLike = "denexa",
        players: int = 4,
        bots: str | Sequence[str] = ("greedy",),
        seed: int = 0,
        position: str | None = None,
        generation: int = BOT_GENERATION,
    ) -> None:
        if isinstance(bots, str):
            bots = (bots,)  # one name: that bot in every other seat (not one seat a letter)
        game = _game_at(position) if position else None
        if game is not None:
            rules, players, seed = game.rules, game.players, game.seed
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
        self.position = position
        self.generation = check_generation(generation, "generation")
        self.bot_names = names
        self.names = seat_names(players)
        self.kind = game_class(self.rules)
        """The engine class: what differs between the games is its data (``KEEPS_SCORE``...)."""
        options: dict[str, Any] = dict(self.kind.TABLE_OPTIONS)
        if game is None:
            game = new_game(self.rules, players, seed, **options)
        else:
            for key, value in options.items():
                setattr(game, key, value)
        self.game: Game = game
        self.bots = {
            seat: make_bot(name, self.rules, seed * 1000 + seat, self.generation)
            for seat, name in enumerate(names, start=1)
        }
        self.moves: list[str] = []
        self.steps: list[dict[str, Any]] = []
        self.stopped = ""
        """Why replaying a link stopped early (``from_moves(strict=False)``); else empty."""
        self.play_bots()

    @classmethod
    def from_moves(
        cls,
        rules: RulesLike,
        players: int,
        bots: Sequence[str],
        seed: int,
        moves: Sequence[str],
        position: str | None = None,
        *,
        strict: bool = True,
        generation: int = BOT_GENERATION,
    ) -> PlaySession:
        """The session after replaying your ``moves`` (URL tokens); the bots replay theirs.

        A token that is not a move, or a move the game refuses, is a ``ValueError`` saying
        which move it was; with ``strict=False`` the replay stops there instead, and
        :attr:`stopped` says why (a link made before the bots changed keeps what it can).
        """
        session = cls(rules, players, bots, seed, position, generation)
        for number, token in enumerate(moves, start=1):
            try:
                action = parse_move(token, YOU, session.rules, session.game.dealt)
                if action is None:
                    session.next_hand()
                else:
                    session.act(action)
            except ValueError as exc:
                why = f"move {number} of the link ({token}) cannot be played: {exc}"
                if strict:
                    raise ValueError(why) from None
                session.stopped = why + f" The game is shown after move {number - 1}."
                break
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

    @property
    def scored(self) -> PayMeGame:
        """The game as one that keeps score (Pay Me: totals, money, hand summaries); a
        ``TypeError`` for a game that does not (Rummy 3-Pack: one deal, winners only)."""
        if not self.kind.KEEPS_SCORE:
            raise TypeError(f"{self.rules.title} keeps no score: it has no totals or hands")
        return cast("PayMeGame", self.game)  # the one engine that keeps score

    def view(self) -> SeatView:
        return self.game.view(YOU)

    def scored_view(self) -> PayMeView:
        """Your view of a game that keeps score (see :attr:`scored`)."""
        return self.scored.view(YOU)

    def hand(self) -> tuple[Card, ...]:
        view = self.view()
        return tuple(view.hand)

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
        self.moves.append(action.token())
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
            record = self.game.apply(move)
            self.steps.append(self._step(seat, move, record))

    def _step(self, seat: int, move: Action, record: Record) -> dict[str, Any]:
        """What the table shows while a bot's move is on screen: the move in words, the
        pile it touched (``"stock"`` or ``"pile"``, lit on the table), the seat's turn so
        far ("took 9♥ from the pile, discarded 4♣") and the counts after it."""
        view = self.view()
        counts, top = view.hand_counts, view.top_discard
        pile = None
        if isinstance(move, actions.Draw):
            pile = "stock" if move.source == "stock" else "pile"
        elif isinstance(move, actions.Discard) or (
            isinstance(move, actions.GoOut) and move.discard
        ):
            pile = "pile"
        return {
            "seat": seat,
            "text": self.say(move, record),
            "last": self.last_moves().get(seat, ""),
            "pile": pile,
            "counts": list(counts),
            "stock": self.stock_text(),
            "top": top.token if top is not None else None,
        }

    def last_moves(self) -> dict[int, str]:
        """Each seat's last turn this hand in words, without its name: ``{1: "took 9♥
        from the pile, discarded 4♣"}`` (a seat that has not moved is left out)."""
        hand = self.game.hand_number
        turns: dict[int, list[str]] = {}
        for record in self.game.history:
            action = record.action
            if action is None or record.hand != hand:
                continue
            seat = action.seat
            if isinstance(action, actions.Draw) or seat not in turns:
                turns[seat] = []  # a turn starts with its draw
            turns[seat].append(self.done(action, record))
        return {seat: ", ".join(parts) for seat, parts in turns.items()}

    def done(self, action: Action, record: Record | None = None) -> str:
        """A move as what was done, without who: ``discarded 4♣``, ``took 9♥ from the
        pile`` (the discard pile), ``went out, discarding 7♠ — Pay me!``."""
        _, past, rest = self._deed(action, record, "the pile")
        return f"{past} {rest}" if past else rest

    def _deed(self, action: Action, record: Record | None, pile: str) -> tuple[str, str, str]:
        """A move as its verb, the verb's past and the rest, the one wording :meth:`done`
        and :meth:`say` share: ``("discard", "discarded", "4♣")`` (``pile``: how the
        discard pile is called; a move of no known kind: ``("", "", str(action))``)."""
        if isinstance(action, actions.Draw):
            if action.source == "stock":
                return "draw", "drew", "from the stock"
            details = dict(record.details) if record is not None else {}
            taken = details.get("card") or details.get("cards")
            one = action.take == 1
            what = label(parse_card(taken)) if taken and one else "a card" if one else "cards"
            return "take", "took", f"{what} from {pile}"
        if isinstance(action, actions.Discard):
            return "discard", "discarded", label(action.card)
        if isinstance(action, actions.GoOut):
            call = self.rules.go_out_call
            tail = f", discarding {label(action.discard)}" if action.discard else ""
            return "go", "went", f"out{tail}" + (f" — {call}" if call else "")
        if isinstance(action, actions.LayOff):
            return "lay", "laid", f"off {_placed(action.placements)}"
        if isinstance(action, actions.LayDownRummy):
            return "lay", "laid", "down both RUMMY cards"
        if isinstance(action, actions.DropOut):
            return "drop", "dropped", "out"
        return "", "", str(action)

    def next_hand(self, *, bots: bool = True) -> list[Record]:
        """Deal the next Pay Me hand after a finished one, and let the bots move."""
        if not self.hand_over:
            raise IllegalAction("The hand is not over yet.", "the deal")
        start = len(self.game.history)
        self.game.advance()
        self.moves.append(NEXT_HAND)
        self.steps = []
        if bots:
            self.play_bots()
        return list(self.game.history[start:])

    def advice(self) -> Action | None:
        """The move the strongest bot would make in your place (``None``: no move now)."""
        advice = self._advice()
        return None if advice is None else advice.action

    def _advice(self) -> Recommendation | None:
        from payme.game import advise

        legal = self.legal()
        return advise(self.view(), legal, self.seed) if legal else None

    def hint(self) -> str:
        """The strongest bot's advice for your move, in words, with its reason, the move
        said once.

        >>> PlaySession("three_pack", 3, ("greedy",), 2).hint()[:50]
        'Take 3♣︎ from the discard pile — it melds with you'
        """
        advice = self._advice()
        if advice is None:
            return "No move to make now."
        move = self.describe(advice.action)
        reason = str(getattr(advice, "reason", "")).strip()
        # The reason names the move again ("Take 3♣: it melds ..."): say the move once.
        head, colon, rest = reason.partition(": ")
        if colon and move.startswith(head):
            reason = rest
        return move + (f" — {reason}" if reason else "")

    # ------------------------------------------------------------------ words

    def top_discard(self) -> Card | None:
        view = self.view()
        top: Card | None = view.top_discard
        return top

    def stock_text(self) -> str:
        """The stock as players see it: counted, or only estimated where the rules say the
        stock may never be counted (Rummy 3-Pack)."""
        view = self.view()
        if view.stock_count is not None:
            return _plural(view.stock_count, "card")
        estimate = view.stock_estimate
        if estimate == 0:
            return "empty"
        if estimate <= 5:
            return "a few cards"
        return f"about {estimate} cards"

    def describe(self, action: Action) -> str:
        """Your move in words, e.g. ``Discard 7♥`` or ``Go out (Pay me!), discarding 9♣``."""
        if isinstance(action, actions.Draw):
            if action.source == "stock":
                return "Draw from the stock" + (f" ({action.take})" if action.take > 1 else "")
            top = self.top_discard()
            if action.take > 1:
                return f"Take the top {action.take} cards of the discard pile"
            return f"Take {label(top)} from the discard pile" if top else "Take the top discard"
        if isinstance(action, actions.Discard):
            return f"Discard {label(action.card)}"
        if isinstance(action, actions.GoOut):
            call = self.rules.go_out_call
            tail = f", discarding {label(action.discard)}" if action.discard else ""
            return "Go out" + (f" ({call})" if call else "") + tail
        if isinstance(action, actions.LayOff):
            return "Lay off " + _placed(action.placements)
        if isinstance(action, actions.LayDownRummy):
            return "Lay down both RUMMY cards"
        if isinstance(action, actions.DropOut):
            return "Drop out"
        return str(action)

    def say(self, action: Action, record: Record | None = None) -> str:
        """Anyone's move as the log tells it: ``West discards 7♥`` (``record``: the card a
        draw from the pile took, which everyone saw)."""
        seat = getattr(action, "seat", YOU)
        you = seat == YOU
        verb, _, rest = self._deed(action, record, "the discard pile")
        if not verb:
            return rest
        text = f"{self.names[seat]} {_says(verb, you)} {rest}"
        if isinstance(action, actions.LayDownRummy):
            return f"{text} and {_says('win', you)}!"
        return text if isinstance(action, actions.GoOut) else text + "."

    def words(self, text: str) -> str:
        """An engine sentence in players' words (see :func:`~payme.words.plain_words`)."""
        return plain_words(text, self.names)

    def status(self) -> str:
        """One line: whose turn and what to do."""
        game = self.game
        if self.over:
            winners = game.winners()
            if not winners:
                return "Game over: nobody won."
            names = joined([self.names[s] for s in winners])
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
            "discard": "discard a card, or go out",
            "final_draw": "your final turn: draw a card",
            "final_discard": "your final turn: discard a card",
            "lay_off": "lay off cards onto the declarer's melds (select a card, then a meld)",
            "final_go_out": "go out if you can, or pass by dropping out",
        }.get(self.phase, self.phase.replace("_", " "))
        return f"Your turn: {todo}."

    def title(self) -> str:
        game = self.game
        if self.kind.KEEPS_SCORE:
            wild = wild_cards(game.rules, game.dealt)
            text = f"{self.rules.title} · hand {game.hand_number} of {game.rules.hands}"
            text += f" · {game.dealt} cards dealt"
            return text + (f" · wild: {wild}" if wild else "")
        return f"{self.rules.title} · {game.dealt} cards dealt"

    def log(self, last: int = 12) -> list[str]:
        """The most recent events in players' words, oldest first."""
        out = []
        for record in self.game.history[-last:]:
            out.append(
                self.say(record.action, record) if record.action else self.words(record.event)
            )
        return out

    def scores(self) -> list[list[str]]:
        """The scoreboard as rows of text: a header row, one row per hand, then totals."""
        seats = list(self.names)
        if not self.kind.KEEPS_SCORE:
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
        rows.append(["total", *[str(t) for t in self.scored.totals]])
        money = self.scored.money
        if money is not None:
            rows.append(["money", *[_money(m) for m in money]])
        return rows


def _says(verb: str, you: bool) -> str:
    """``verb`` as you say it, or as another player does: ``go`` / ``goes``."""
    return verb if you else verb + ("es" if verb.endswith("o") else "s")


def _placed(placements: Sequence[tuple[int, Sequence[Card]]]) -> str:
    """Lay-offs in words, melds counted from 1: ``8♥ 9♥ onto meld 1; Q♠ onto meld 2``."""
    if not placements:
        return "nothing"
    return "; ".join(f"{_labels(cards)} onto meld {i + 1}" for i, cards in placements)


def _game_at(position: str) -> Game:
    """A game set up at ``position`` (the engine's notation); a bad one says why."""
    from payme.game import from_position

    return from_position(position)


def _money(cents: int) -> str:
    sign = "+" if cents > 0 else "−" if cents < 0 else ""
    return f"{sign}${abs(cents) / 100:.2f}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
