"""Questions answered by the game engine: turns, final turns, the stock, winners, money.

The games are real :mod:`payme.game` games with fixed seeds, driven by the engine's own bots
to the moment a question needs (someone has just gone out, the stock is empty ...).  The
learner's answer is graded by ``game.can(action)`` and the game's views and results.

>>> from payme.rulesets import rules
>>> q = turn_questions(rules("denexa"))[1]
>>> q.prompt.startswith("It is your turn"), q.right_answer()
(True, 'no')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Unpack, cast

from payme.cards import format_hand
from payme.game.actions import Action, Discard, Draw, GoOut
from payme.game.base import Game, narrow_game
from payme.game.pay_me import PayMeGame
from payme.rulesets import Ruleset
from payme.tutorial.checks import (
    Question,
    Shown,
    choice_question,
    number_question,
    yes_no_question,
)
from payme.tutorial.markup import cards_html, rules_words
from payme.words import joined, plain_words, seat_names

PLAYERS = 3
"""Seats at the tutorial's demo table (the first seat is "you")."""
MAX_STEPS = 3000
"""Safety net for driving a game to a moment (a hand of Pay Me ends far sooner)."""


def table_names(players: int, you: int = 0) -> tuple[str, ...]:
    """Each seat's name as the player in seat ``you`` sees the table.

    >>> table_names(3), table_names(3, you=1)
    (('You', 'West', 'East'), ('East', 'You', 'West'))
    """
    names = seat_names(players)
    return tuple(names[(s - you) % players] for s in range(players))


def seat_options(players: int, you: int = 0) -> tuple[tuple[str, str], ...]:
    """Answers naming a player as the table names them; the value is the seat number.

    >>> seat_options(3)
    (('You', '0'), ('West', '1'), ('East', '2'))
    """
    return tuple((name, str(s)) for s, name in enumerate(table_names(players, you)))


def totals_words(totals: Iterable[int]) -> str:
    """Totals per seat as a sentence reads them, for :func:`say` to name the seats.

    >>> say(f"The totals are {totals_words((110, 80, 335))}.", 3)
    'The totals are 110 for you, 80 for West and 335 for East.'
    """
    parts = [f"{t} for seat {s}" for s, t in enumerate(totals)]
    return joined(parts)


def say(text: str, players: int, you: int = 0) -> str:
    """``text`` (written, like the engine's, with "seat N") in players' words.

    >>> say("Seat 0 deals; seat 1 and seat 2 share the win.", 3)
    'You deal; West and East share the win.'
    """
    return plain_words(text, table_names(players, you))


def together(seats: Iterable[int], start: bool = False) -> str:
    """Several seats in the engine's words, for :func:`say` to name (``start``: they begin
    a sentence or an answer).

    >>> say(together((0, 2)), 3), say(together((0, 2), start=True), 3)
    ('you and East', 'You and East')
    """
    text = joined([f"seat {s}" for s in seats])
    return text[0].upper() + text[1:] if start else text


def _may(
    g: Game, action: Action, prompt: str, yes: str = "Yes.", **shown: Unpack[Shown]
) -> Question:
    """ "May you ...?" answered by the engine: ``g.can(action)``, with its reason when not
    (``yes`` when it may), said to the seat that acts."""
    verdict = g.can(action)
    why = yes if verdict.ok else say(str(verdict.reason), g.players, action.seat)
    return yes_no_question(prompt, verdict.ok, why, **shown)


def mover(g: Game) -> int:
    """The seat to move in an example's game (the examples stop before the game ends)."""
    seat = g.to_move
    if seat is None:
        raise LookupError("the example's game is over: nobody is to move")
    return seat


def new_table(r: Ruleset, seed: int = 1) -> PayMeGame:
    return PayMeGame.new(r, players=PLAYERS, seed=seed)


def drive(
    r: Ruleset,
    stop: Callable[[PayMeGame], bool],
    *,
    bots: str = "greedy",
    players: int = PLAYERS,
    seeds: range = range(1, 12),
) -> PayMeGame:
    """A game driven by bots until ``stop(game)``; the first seed that gets there."""
    from payme.game import make_bot

    for seed in seeds:
        game = PayMeGame.new(r, players=players, seed=seed, turn_limit=400)
        seats = [make_bot(bots, r, seed * 10 + s) for s in range(players)]
        for _ in range(MAX_STEPS):
            if stop(game):
                return game
            if game.over or game.to_move is None:
                break
            seat = mover(game)
            game.apply(seats[seat].choose(game.view(seat), game.legal_actions()))
    raise LookupError(f"no {r.name} game reached the moment asked for")


# --- a turn ------------------------------------------------------------------------------


def turn_questions(r: Ruleset) -> list[Question]:
    g = new_table(r)
    me = mover(g)
    view = g.view(me)
    top = view.top_discard
    qs = [
        yes_no_question(
            "The cards are dealt. Is a card already face up on the discard pile?",
            top is not None,
            (
                f"Yes: after the deal the engine turned up {top} from the stock."
                if top is not None
                else "No: the discard pile starts empty."
            ),
            cards=view.hand,
            dealt=view.dealt,
            caption=f"your hand; the discard pile shows {top or 'nothing'}",
        )
    ]
    card = view.hand[0]
    qs.append(
        _may(
            g,
            Discard(me, card),
            f"It is your turn and you have not drawn yet. May you discard {card} now?",
            cards=view.hand,
            dealt=view.dealt,
            caption="your hand",
        )
    )
    qs.append(
        _may(
            g,
            Draw(me, "discard"),
            f"May you start your turn by taking the {top} from the discard pile?",
            f"Yes: you may draw the top discard ({top}) or the top card of the stock.",
        )
    )
    g.apply(Draw(me, "stock"))
    view = g.view(me)
    qs.append(
        _may(
            g,
            Draw(me, "stock"),
            f"You drew {view.drawn} from the stock. May you draw another card?",
            cards=view.hand,
            dealt=view.dealt,
            caption="your hand after drawing",
        )
    )
    assert view.drawn is not None, "a card was just drawn"
    g.apply(Discard(me, view.drawn))
    qs.append(
        choice_question(
            f"You discard {view.drawn}. Whose turn is it now?",
            seat_options(g.players, me),
            {str(mover(g))},
            say(f"Play goes to the left: after seat {me} comes seat {mover(g)}.", g.players, me),
        )
    )
    return qs


# --- the deal passes to the left -----------------------------------------------------


def deal_questions(r: Ruleset) -> list[Question]:
    """Who deals the next hand, and who plays first in it: a real game's second deal."""
    g = drive(r, lambda g: g.hand_number == 2)
    first_dealer = g.summaries[0].dealer
    seats = seat_options(g.players)
    deal_event = next(
        str(rec.event) for rec in reversed(g.history) if str(rec.event).startswith("Hand 2")
    )
    return [
        choice_question(
            say(
                f"In a {g.players}-player game seat {first_dealer} dealt hand 1 (the players "
                "are named clockwise, to your left). Who deals hand 2?",
                g.players,
            ),
            seats,
            {str(g.dealer)},
            say(f"The deal passes to the left. The game: {deal_event}", g.players),
        ),
        choice_question(
            say(f"Seat {g.dealer} deals hand 2. Who plays first in hand 2?", g.players),
            seats,
            {str(mover(g))},
            say(f"Play starts left of the dealer: seat {mover(g)} draws first.", g.players),
        ),
    ]


# --- final turns -------------------------------------------------------------------------


def final_turn_questions(r: Ruleset) -> list[Question]:
    g = drive(r, lambda g: g.phase == "final_draw")
    seat = mover(g)
    view = g.view(seat)
    declarer = view.declarer
    top = view.top_discard
    qs = [
        choice_question(
            say(
                f"Seat {declarer} has just gone out. Who takes the first final turn?",
                g.players,
                seat,
            ),
            seat_options(g.players, seat),
            {str(seat)},
            say(
                f"The final turns go round from the declarer's left: seat {seat} first, and "
                "every other player gets one.",
                g.players,
                seat,
            ),
        )
    ]
    if top is not None:
        qs.append(
            _may(
                g,
                Draw(seat, "discard"),
                say(
                    f"Seat {declarer} went out. In your final turn, may you take "
                    f"the {top} from the discard pile?",
                    g.players,
                    seat,
                ),
                f"Yes: {rules_words(r)} let a final turn draw from the discard pile too.",
                cards=view.hand,
                dealt=view.dealt,
                caption="your hand",
            )
        )
    g.apply(Draw(seat, "stock"))
    view = g.view(seat)
    qs.append(
        _may(
            g,
            GoOut(seat, view.drawn),
            f"You drew {view.drawn} in your final turn. May you go out now?",
            cards=view.hand,
            dealt=view.dealt,
            caption="your hand after the final draw",
        )
    )
    return qs


# --- the stock runs out ------------------------------------------------------------------


def stock_out_questions(r: Ruleset) -> list[Question]:
    # Random bots rarely go out, so the stock runs low in a two-player game.
    g = drive(
        r,
        lambda g: g.phase == "draw" and g.view(mover(g)).stock_count == 1,
        bots="random",
        players=2,
        seeds=range(1, 10),
    )
    seat = mover(g)
    g.apply(Draw(seat, "stock"))
    drawn = g.view(seat).drawn
    assert drawn is not None, "a card was just drawn"
    g.apply(Discard(seat, drawn))
    pile_before = len(g.view(seat).discard_pile) if g.to_move is None else None
    after = g.view(seat)
    events = " ".join(str(rec.event) for rec in g.history[-2:])
    size = len(after.discard_pile) if pile_before is None else pile_before
    return [
        number_question(
            f"You draw the last card of the stock and discard {drawn}. When the "
            "next player is about to draw, how many cards are left in the discard pile?",
            size,
            say(f"The game: {events}", g.players, seat) + f" The discard pile keeps {size} card(s) "
            f"({format_hand(after.discard_pile)}); the stock now has {after.stock_count}.",
        )
    ]


def no_card_table(r: Ruleset) -> Ruleset:
    """``r`` at a table where the deal uses up the pack: one 52-card pack, no jokers and no
    wild cards, four players dealt 13 each, one hand.  Nothing is left to draw."""
    import dataclasses

    return dataclasses.replace(
        r,
        name=f"{r.name} (whole pack dealt)",
        min_players=min(r.min_players, 4),
        max_players=max(r.max_players, 4),
        packs=((max(r.max_players, 4), 1),),
        jokers_per_pack=0,
        wild_ranks=(),
        round_rank_wild=False,
        special_wilds=(),
        first_dealt=13,
        max_dealt=13,
        hands=1,
        money=None,
    )


def _two_scores(table: Ruleset, dealt: int) -> str:
    """What a 2 scores at a table where it is no wild card (the penalty step teaches 2s only
    as wild cards where they are)."""
    from payme.cards import parse_card

    points = table.card_points(parse_card("2C"), dealt)
    return f"a 2 is an ordinary card and scores {points} point{'s' if points != 1 else ''}"


def no_card_questions(r: Ruleset) -> list[Question]:
    """The hand that ends because no card can be drawn: a real game dealt out to the last card."""
    table = no_card_table(r)
    g = PayMeGame(table, players=4, seed=1)
    summary = g.summaries[-1]
    seat = 0
    hand = sorted(summary.hands[seat])
    caption = f"your hand: {format_hand(hand)}"
    ended = next(str(rec.event) for rec in g.history if "no declarer" in str(rec.event))
    setup = (
        "At a table with one 52-card pack and no jokers or wild cards, 4 players are "
        "dealt 13 cards each: no stock is left and no upcard can be turned."
    )
    nobody = "none"
    return [
        choice_question(
            say(
                f"{setup} The first player has nothing to draw. Who is the declarer of this hand?",
                4,
            ),
            (*seat_options(4), ("nobody", nobody)),
            {nobody if summary.declarer is None else str(summary.declarer)},
            say(f"The game: {ended}", 4),
        ),
        number_question(
            f"{setup} The hand ends with no card drawn. How many points do you score for it? "
            f"(Nothing is wild at this table: {_two_scores(table, summary.dealt)}.)",
            summary.points[seat],
            say(
                f"The game: {ended} Nobody lays off; the scores are "
                + ", ".join(f"seat {s} {p}" for s, p in enumerate(summary.points))
                + f" (deadwood {', '.join(map(str, summary.deadwood))}).",
                4,
            ),
            # Drawn under the table's own rules: nothing in it is wild (the chosen rule
            # set would mark its 2s or the round's wild rank).
            show=cards_html(hand, table, summary.dealt, caption=caption),
            caption=caption,
        ),
    ]


# --- winning and money -------------------------------------------------------------------


@lru_cache(maxsize=8)
def finished_game(r: Ruleset, seed: int = 2) -> PayMeGame:
    from payme.game import play_game

    return narrow_game(
        play_game(r, players=PLAYERS, bots=("greedy", "greedy", "random"), seed=seed), PayMeGame
    )


def winner_questions(r: Ruleset) -> list[Question]:
    g = finished_game(r)
    totals = tuple(g.totals)
    won = tuple(g.winners())
    options = list(seat_options(g.players))
    # Offer a shared win too: the two lowest totals (the right answer when they are equal).
    lowest = sorted(range(len(totals)), key=lambda s: totals[s])
    tied = [s for s in lowest if totals[s] == totals[lowest[0]]]
    pair = tied if len(tied) > 1 else sorted(lowest[:2])
    options.append(
        (say(together(pair, start=True) + " share the win", g.players), "+".join(map(str, pair)))
    )
    right = "+".join(map(str, won))
    table = totals_words(totals)
    qs = [
        choice_question(
            say(f"After {r.hands} hands the totals are {table}. Who won?", g.players),
            options,
            {right},
            say(
                "The game's verdict: "
                + (f"seat {won[0]} wins" if len(won) == 1 else together(won) + " share the win")
                + f" with the lowest total, {min(totals)} points.",
                g.players,
            ),
        )
    ]
    qs.extend(tie_questions(r))
    first = [row for row in g.results() if row["hand"] == 1]
    out = [row["seat"] for row in first if row["went_out"]]
    if out:
        qs.append(
            number_question(
                say(
                    f"In hand 1 seat {out[0]} went out. How many points did seat {out[0]} score?",
                    g.players,
                ),
                next(row["points"] for row in first if row["seat"] == out[0]),
                say(
                    "The player who goes out scores 0; the others score "
                    + ", ".join(
                        f"seat {row['seat']} {row['points']}"
                        for row in first
                        if row["seat"] != out[0]
                    )
                    + ".",
                    g.players,
                ),
            )
        )
    return qs


def tie_questions(r: Ruleset) -> list[Question]:
    """A tie for the lowest total, found in short games of the same rules cut to one hand."""
    import dataclasses

    from payme.game import play_game

    short = dataclasses.replace(r, name=f"{r.name} (one hand)", hands=1)
    for seed in range(1, 40):
        g = cast(PayMeGame, play_game(short, players=PLAYERS, bots=("greedy",), seed=seed))
        won = tuple(g.winners())
        if len(won) > 1:
            break
    else:
        return []
    totals = totals_words(g.totals)
    tied = "+".join(map(str, won))
    return [
        choice_question(
            say(
                f"The same rules cut to a one-hand game ended with the totals {totals}. Who won?",
                g.players,
            ),
            (
                *seat_options(g.players),
                (say(together(won, start=True) + " share the win", g.players), tied),
            ),
            {tied},
            say(f"The game: {g.history[-1].event}", g.players),
        )
    ]


def money_questions(r: Ruleset) -> list[Question]:
    if r.money is None:
        return []
    g = finished_game(r)
    rows = [row for row in g.results() if row["hand"] < r.hands and row["went_out"]]
    if not rows:
        return pot_split_questions(r)
    row = rows[0]
    return [
        number_question(
            say(
                f"In hand {row['hand']} of a {g.players}-player game seat {row['seat']} went "
                f"out. How many cents did seat {row['seat']} win in that hand?",
                g.players,
            ),
            row["money"],
            say(
                f"The game's result for hand {row['hand']}: seat {row['seat']} won "
                f"{row['money']}¢, {r.money.per_hand}¢ from each of the other "
                f"{g.players - 1} players.",
                g.players,
            ),
        ),
        *pot_split_questions(r),
    ]


TIE_PLAYERS = 4
"""Players at the table whose pot is split (four antes make an even pot to share)."""


def tied_money_game(r: Ruleset) -> PayMeGame | None:
    """A finished game of ``r`` cut to one hand where exactly two players tie for the win.

    ``None`` when the first few seeds give no such tie (the rules may make ties rare).
    """
    import dataclasses

    from payme.game import play_game

    short = dataclasses.replace(r, name=f"{r.name} (one hand)", hands=1)
    players = max(r.min_players, min(TIE_PLAYERS, r.max_players))
    for seed in range(1, 60):
        g = narrow_game(play_game(short, players=players, bots=("greedy",), seed=seed), PayMeGame)
        if len(g.winners()) == 2:
            return g
    return None


def pot_split_questions(r: Ruleset) -> list[Question]:
    """How the pot is split between tied winners, settled by the game engine itself."""
    if r.money is None:
        return []
    g = tied_money_game(r)
    if g is None:
        return []
    won = g.winners()
    # The engine's own settlement of the pot (the code that pays it out at the game's end),
    # so the tutorial never does the division itself.
    shares = g.pot_shares()
    share = shares[won[0]]
    if any(shares[s] != share for s in won):
        return []  # an uneven split (odd cents) is not what this question is about
    totals = totals_words(g.totals)
    pairs = together(won)
    money = ", ".join(f"seat {s} {m:+d}¢" for s, m in enumerate(g.money or ()))
    return [
        number_question(
            say(
                f"A {g.players}-player game under {rules_words(r)}, cut to one hand, "
                f"ended with the totals {totals}, so {pairs} share the win. Each player "
                f"anted {r.money.ante}¢ at the start. How many cents of the pot does each of "
                f"{pairs} take?",
                g.players,
            ),
            share,
            say(
                f"The game settles the pot of {sum(shares)}¢ ({g.players} antes of "
                f"{r.money.ante}¢): {pairs} take {share}¢ each. {g.history[-1].event} "
                f"With the antes and the hand's {r.money.per_hand}¢ payments, the game's "
                f"money: {money}.",
                g.players,
            ),
        )
    ]


__all__ = [
    "PLAYERS",
    "deal_questions",
    "drive",
    "final_turn_questions",
    "finished_game",
    "money_questions",
    "new_table",
    "pot_split_questions",
    "say",
    "seat_options",
    "stock_out_questions",
    "table_names",
    "tie_questions",
    "tied_money_game",
    "together",
    "turn_questions",
    "winner_questions",
]
