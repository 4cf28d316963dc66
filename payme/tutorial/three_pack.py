"""The steps of *Learn Rummy 3-Pack*: every rule of RULES.md's Rummy 3-Pack section.

Answers come from ``check_meld``, ``can_go_out`` and ``evaluate``, from real games of
:mod:`payme.game.three_pack` (the first dealer, no upcard, turns, NOMELD and NOGO, winners,
the exhausted stock, dropping out, matches and the variations' rules) and from the
``three_pack`` rule set's data (the pack).

>>> from payme.rulesets import rules
>>> [s.key for s in THREE_PACK_STEPS][:3]
['pack', 'players', 'first_dealer']
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any

from payme.cards import Card, CardError, format_hand, parse_card, parse_hand
from payme.game.actions import Discard, Draw, DropOut, Verdict
from payme.game.base import GameOption
from payme.game.three_pack import ThreePackGame, ThreePackMatch
from payme.pack import Pack, check_hand
from payme.rulesets import Ruleset
from payme.tutorial import ask
from payme.tutorial.checks import (
    Question,
    cards_question,
    choice_question,
    number_question,
    pick,
    yes_no_question,
)
from payme.tutorial.game_questions import PLAYERS, mover, say, seat_options, together
from payme.tutorial.markup import rules_words, sentence, table_html
from payme.tutorial.steps import Step, steps_from_content
from payme.words import joined
from payme.words import label as card_label

DEALT = 7
"""Cards dealt in the tutorial's examples (the players may choose 2 to 10)."""


def _game(r: Ruleset, seed: int = 1, **options: GameOption) -> ThreePackGame:
    return ThreePackGame.new(r, PLAYERS, seed, dealt=DEALT, **options)


def _drive(
    r: Ruleset,
    stop: Callable[[ThreePackGame], bool],
    *,
    bots: str = "greedy",
    seeds: range = range(1, 60),
    **options: GameOption,
) -> ThreePackGame:
    """A game played by bots until ``stop(game)`` (the first seed that gets there)."""
    from payme.game.three_pack_bots import make_three_pack_bot

    for seed in seeds:
        g = _game(r, seed, **options)
        seats = [make_three_pack_bot(bots, r, seed * 31 + s) for s in range(PLAYERS)]
        for _ in range(5000):
            if stop(g):
                return g
            if g.to_move is None:
                break
            s = mover(g)
            g.apply(seats[s].choose(g.view(s), g.legal_actions()))
    raise LookupError("no game reached the moment asked for")


def _verdict(v: Verdict, yes: str, players: int = PLAYERS, you: int = 0) -> str:
    return yes if v.ok else sentence(say(str(v.reason), players, you))


# --- 1. the pack --------------------------------------------------------------------------


def pack_example(r: Ruleset) -> str:
    rows = [(t, n, dict(r.optional_cards).get(t, 0)) for t, n in r.special_cards]
    rows += [(t, 0, n) for t, n in r.optional_cards if t not in dict(r.special_cards)]
    return table_html(("special card", "always in the pack", "optional, up to"), rows)


def pack_questions(r: Ruleset) -> Sequence[Question | None]:
    plain = Pack.of(r, PLAYERS, {})
    chosen = {"NOGO": 1, "WILD": 2}
    more = Pack.of(r, PLAYERS, chosen)
    qs = [
        number_question(
            "How many cards are in the pack when no optional card is chosen?",
            len(plain),
            f"{r.packs_for(PLAYERS)} × 52 regular cards plus "
            + " + ".join(f"{n} {t}" for t, n in r.special_cards)
            + f" = {len(plain)} cards.",
        ),
        number_question(
            "The players add 1 NOGO and 2 extra WILD cards. How many WILD cards does the pack "
            "hold now?",
            more.count(parse_card("WILD")),
            f"The engine's pack holds {more.count(parse_card('WILD'))} WILD cards "
            f"({len(more)} cards in all).",
        ),
    ]
    try:
        check_hand(parse_hand("JK"), r, PLAYERS)
        has_joker, why = True, "Yes, the pack holds jokers."
    except CardError as err:
        has_joker, why = False, f"No: {err}."
    qs.append(
        yes_no_question(
            "Is there a joker in the pack?", has_joker, why, cards=parse_hand("JK"), caption="JK"
        )
    )
    return qs


# --- 2. players and cards dealt -----------------------------------------------------------


def players_questions(r: Ruleset) -> Sequence[Question | None]:
    qs = []
    for players in (r.max_players, r.max_players + 1):
        try:
            r.check_players(players)
            ok, why = True, f"Yes: {rules_words(r)} is for {r.min_players}-{r.max_players} players."
        except ValueError as err:
            ok, why = False, f"No: {err}."
        qs.append(yes_no_question(f"May {players} people play one game?", ok, why))
    try:
        r.check_dealt(r.max_dealt + 2)
        ok, why = True, "Yes."
    except ValueError as err:
        ok, why = False, f"No: {err}."
    qs.append(
        yes_no_question(f"May the players agree to deal {r.max_dealt + 2} cards each?", ok, why)
    )
    return qs


# --- 3. the first dealer ------------------------------------------------------------------


def first_dealer_questions(r: Ruleset) -> Sequence[Question | None]:
    from payme.game.three_pack import deal_order_key

    qs = []
    for pair in (("7S", "7C"), ("2H", "AS"), ("QS", "KH"), ("9D", "9H")):
        cards = [parse_card(t) for t in pair]
        best = max(range(len(cards)), key=lambda i: deal_order_key(cards[i]))
        qs.append(
            choice_question(
                say(f"You are dealt {pair[0]} and seat 1 {pair[1]} face up. Who deals?", 2),
                seat_options(2),
                {str(best)},
                say(
                    f"{cards[best].name} ranks higher in the deal for the first dealer, so "
                    f"seat {best} deals.",
                    2,
                ),
                cards=tuple(cards),
                caption=" vs ".join(card_label(c) for c in cards),
            )
        )
    g = _game(r, seed=5)
    qs.append(
        choice_question(
            say(f"In a real game the face-up cards were {_face_up(g)}. Who deals?", g.players),
            seat_options(g.players),
            {str(g.seating[g.dealer])},
            _players_said(str(g.history[0].event), g.players),
        )
    )
    qs.extend(_identical_cards_questions(r))
    qs.extend(_deal_order_questions(r))
    return qs


def _deal_order_questions(r: Ruleset) -> list[Question]:
    """Who received a given card of a real deal: the deck as the engine shuffled it, matched
    against the hands it dealt (a card kind held by one seat only names its receiver)."""
    from payme.game.three_pack import ThreePackGame

    class _Recorded(ThreePackGame):
        deck: tuple[Card, ...] = ()

        def _shuffle(self, cards: list[Card]) -> list[Card]:
            shuffled = super()._shuffle(cards)
            if not self.deck:  # the deal's shuffle (a later one rebuilds the stock)
                self.deck = tuple(shuffled)
            return shuffled

    g = _Recorded(r, PLAYERS, 5, dealt=DEALT)
    dealt_cards = g.deck[::-1][: PLAYERS * DEALT]  # the deal takes cards off the top

    def receiver(k: int) -> int | None:
        holders = [s for s in range(PLAYERS) if dealt_cards[k - 1] in g.hand_of(s)]
        return holders[0] if len(holders) == 1 else None

    seats = seat_options(PLAYERS)
    qs = []
    for k in (1, PLAYERS + 2):
        seat = receiver(k)
        if seat is None:
            continue
        nth = "the first card dealt" if k == 1 else f"card number {k} of the deal"
        qs.append(
            choice_question(
                say(
                    f"Seat {g.dealer} deals {DEALT} cards each to {PLAYERS} players (the "
                    f"players are named clockwise, to your left). Who receives {nth}?",
                    PLAYERS,
                ),
                seats,
                {str(seat)},
                say(
                    f"The game dealt {dealt_cards[k - 1]} as {nth}, and seat {seat} holds it: "
                    "the deal goes clockwise from the dealer's left, face down, one card at "
                    "a time.",
                    PLAYERS,
                ),
            )
        )
    return qs


def _identical_cards_questions(r: Ruleset) -> list[Question]:
    """A real deal for the first dealer where two players turned up identical cards."""
    for seed in range(1, 60):
        g = _game(r, seed=seed)
        if any(sum(c.is_regular for c in cards) > 1 for cards in g.preliminary):
            break
    else:
        return []
    return [
        choice_question(
            say(
                "Identical cards get another card. In a real game the face-up cards, in the "
                f"order dealt, were {_face_up(g)}. Who deals?",
                g.players,
            ),
            seat_options(g.players),
            {str(g.seating[g.dealer])},
            _players_said(str(g.history[0].event), g.players),
        )
    ]


def _face_up(g: ThreePackGame) -> str:
    """The cards each player turned up to choose the first dealer, for :func:`say`."""
    parts = [f"{format_hand(c)} for seat {p}" for p, c in enumerate(g.preliminary)]
    return joined(parts)


def _players_said(text: str, players: int) -> str:
    """The engine's words about players before they are seated ("player 2") with the names
    the tutorial gives the table (You, West, East), as every other question does.

    >>> _players_said("Player 1 deals; player 2 turned up a joker.", 3)
    'West deals; East turned up a joker.'
    """
    seats = re.sub(
        r"\b([Pp])layer (\d+)\b", lambda m: f"{'Seat' if m[1] == 'P' else 'seat'} {m[2]}", text
    )
    return say(seats, players)


# --- 4. no upcard, the first draw -----------------------------------------------------------


def stock_questions_after_deal(r: Ruleset) -> list[Question]:
    """May the stock be counted? The rule set's data says; a real deal's estimate shows
    what a player sees instead."""
    from payme.game.three_pack import new_three_pack_game

    g = new_three_pack_game(r, players=4, seed=3, dealt=9)
    seen = g.view(0).stock_estimate
    why = (
        "Yes: the rules let players count the stock."
        if r.stock_counted
        else "No: the stock is never counted. You may look at it and estimate; after this "
        f"deal a look says about {seen} cards, and that estimate is all a player (or the "
        "app) may know."
    )
    return [
        yes_no_question(
            "Four players are dealt 9 cards each. May you count the stock to learn exactly "
            "how many cards are left?",
            r.stock_counted,
            why,
        )
    ]


def no_upcard_questions(r: Ruleset) -> Sequence[Question | None]:
    g = _game(r, seed=2)
    first = mover(g)
    view = g.view(first)
    top = view.top_discard
    verdict = g.can(Draw(first, "discard"))
    return [
        yes_no_question(
            "The cards are dealt. Is a card face up on the discard pile?",
            top is not None,
            f"The engine's table: the discard pile shows {top}."
            if top is not None
            else "No: the discard pile is empty until the first discard.",
        ),
        choice_question(
            say(f"Seat {g.dealer} dealt. Who draws first?", g.players),
            seat_options(g.players),
            {str(first)},
            say(f"The player left of the dealer begins: seat {first}.", g.players),
        ),
        yes_no_question(
            "May the first player start by drawing from the discard pile?",
            verdict.ok,
            _verdict(verdict, "Yes."),
        ),
        *stock_questions_after_deal(r),
    ]


# --- 5. a turn ----------------------------------------------------------------------------


def turn_questions(r: Ruleset) -> Sequence[Question | None]:
    g = _game(r, seed=2)
    me = mover(g)
    hand = g.view(me).hand
    regular = next(c for c in hand if c.is_regular)
    before = g.can(Discard(me, regular))
    g.apply(Draw(me, "stock"))
    again = g.can(Draw(me, "stock"))
    after = g.can(Discard(me, regular))
    # The answers are the engine's; the words answer the question asked, to "you".
    return [
        yes_no_question(
            f"It is your turn and you have not drawn. May you discard {regular}?",
            before.ok,
            "Yes."
            if before.ok
            else f"No: you may not discard {regular} yet. A turn starts with a draw (the top "
            "of the stock or the top of the discard pile); then you may discard it.",
            cards=hand,
            caption="your hand",
        ),
        yes_no_question(
            "You have drawn from the stock. May you draw a second card?",
            again.ok,
            "Yes."
            if again.ok
            else "No: one draw a turn. Having drawn, you go out if you can, or discard.",
        ),
        yes_no_question(
            f"You have drawn from the stock. May you discard {regular} now?",
            after.ok,
            _verdict(after, f"Yes: after drawing you may discard {regular} (or go out)."),
        ),
    ]


# --- 6. groups and sequences ----------------------------------------------------------------


# --- 7. WILD, GROUP and SEQ -----------------------------------------------------------------


def wilds_example(r: Ruleset) -> str:
    from payme.display import meld_html
    from payme.solver import evaluate

    ev = evaluate("7H WILD 9H 5S 5D GROUP", rules=r, dealt=DEALT)
    return "".join(str(meld_html(m)) for m in ev.melds)


# --- 8. RUMMY -------------------------------------------------------------------------------


def rummy_questions(r: Ruleset) -> Sequence[Question | None]:
    qs: list[Question | None] = []
    pair = r.instant_win_pair
    qs.append(
        yes_no_question(
            "You lay down both RUMMY cards during your turn. Do you win at once?",
            pair == "RUMMY",
            f"Yes: laying down both {pair} cards during your turn wins the game at once, "
            "whatever else you hold."
            if pair
            else "No card wins at once.",
        )
    )
    qs.extend(_both_rummy_questions(r))
    return qs


def _both_rummy_questions(r: Ruleset) -> list[Question]:
    """A real game where the player to move holds both RUMMY cards: they lay them down."""
    from payme.game.actions import LayDownRummy

    rummy = parse_card("RUMMY")
    # Random bots keep what they draw, so one soon holds both RUMMY cards.
    g = _drive(
        r, lambda g: g.to_move is not None and g.hand_of(mover(g)).count(rummy) == 2, bots="random"
    )
    seat = mover(g)
    hand = g.view(seat).hand
    verdict = g.can(LayDownRummy(seat))
    qs = [
        yes_no_question(
            "It is your turn and you hold both RUMMY cards. May you lay them down now?",
            verdict.ok,
            _verdict(
                verdict,
                "The game allows it: both RUMMY cards may be laid down during your turn.",
                g.players,
                seat,
            ),
            cards=hand,
            caption="your hand",
        )
    ]
    if not verdict.ok:
        return qs
    g.apply(LayDownRummy(seat))
    won = tuple(g.winners()) if g.over else ()
    options = (*seat_options(g.players, you=seat), ("nobody yet: play goes on", "none"))
    qs.append(
        choice_question(
            say(f"Seat {seat} lays down both RUMMY cards. Who has won?", g.players, seat),
            options,
            {"+".join(map(str, won)) or "none"},
            say("The game: " + " ".join(str(rec.event) for rec in g.history[-2:]), g.players, seat),
        )
    )
    return qs


# --- 9. NOMELD and NOGO ---------------------------------------------------------------------


def _holding(r: Ruleset, token: str) -> ThreePackGame:
    card = parse_card(token)
    return _drive(
        r,
        lambda g: g.to_move is not None and g.phase == "discard" and card in g.view(mover(g)).hand,
        optional={"NOMELD": 3, "NOGO": 3},
    )


def nomeld_questions(r: Ruleset) -> Sequence[Question | None]:
    qs: list[Question | None] = []
    for token in ("NOMELD", "NOGO"):
        g = _holding(r, token)
        seat = mover(g)
        verdict = g.can(Discard(seat, parse_card(token)))
        qs.append(
            yes_no_question(
                f"You have drawn and hold a {token}. May you discard it?",
                verdict.ok,
                _verdict(verdict, "Yes."),
                cards=g.view(seat).hand,
                caption="your hand",
            )
        )
    return qs


# --- 10. going out --------------------------------------------------------------------------


def going_out_questions(r: Ruleset) -> Sequence[Question | None]:
    cases: list[tuple[str, Callable[[tuple[str, ...]], bool], str]] = [
        ("7H 7S 7D 8C 9C TC QS RUMMY", lambda w: w == ("QS",), "one card left over"),
        ("7H 7S 7D 8C 9C TC JC RUMMY", lambda w: ask.NO_DISCARD in w, "every card melds"),
        ("7H 7S 7D 8C 9C TC NOMELD RUMMY", lambda w: w == ("NOMELD",), "NOMELD may be left"),
        ("7H 7S 7D 8C 9C TC NOGO RUMMY", lambda w: w == (ask.CANNOT,), "NOGO may not"),
        ("7H 7S 2D 8C 9C QC KD RUMMY", lambda w: w == (ask.CANNOT,), "too many loose cards"),
    ]
    qs = [pick([partial(ask.go_out, r, c, DEALT, shows=s, claim=w)], w) for c, s, w in cases]
    qs.append(
        pick(
            [
                lambda: ask.layout_points(
                    r,
                    "7H 7S 7D 8C 9C TC QS KD",
                    DEALT,
                    prompt="At best, how many of these cards are left unmelded?",
                    claim="hand evaluation counts unmelded cards",
                )
            ],
            "an unmelded count",
        )
    )
    return qs


# --- 11. winners ----------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _finished(r: Ruleset, seed: int, bots: str = "greedy") -> ThreePackGame:
    from payme.game.three_pack import play_three_pack

    return play_three_pack(r, players=PLAYERS, bots=(bots,), seed=seed, dealt=DEALT)


def _rummy_holders(g: ThreePackGame) -> list[int]:
    rummy = parse_card("RUMMY")
    return [
        s
        for s in range(g.players)
        if g.active[s]
        and s != g.went_out
        and (rummy in g.hand_of(s) or any(rummy in m.cards for m in g.view(s).melds[s]))
    ]


def winners_questions(r: Ruleset) -> Sequence[Question | None]:
    """Finished games: one where someone went out and a RUMMY holder also wins, if found."""
    found: list[Any] = []
    # Greedy bots go out; random bots seldom do, so their games show the stock's end.
    for seed in range(1, 40):
        g = _finished(r, seed)
        if g.went_out is not None and _rummy_holders(g):
            found.append(g)
            break
    no_declarer = [
        g for g in (_finished(r, seed, "random") for seed in range(1, 12)) if g.went_out is None
    ]
    # Prefer a game where a RUMMY card makes someone a winner with nobody out.
    found.extend(sorted(no_declarer, key=lambda g: not _rummy_holders(g))[:1])
    qs = []
    for g in found:
        won = tuple(g.winners())
        holders = _rummy_holders(g)
        facts = (
            f"seat {g.went_out} went out"
            if g.went_out is not None
            else "nobody went out (" + str(g.history[-1].event).split("(")[1].split(")")[0] + ")"
        )
        held = (
            "seat " + " and seat ".join(map(str, holders)) + " held a RUMMY card"
            if holders
            else "no " + ("other " if g.went_out is not None else "") + "player held a RUMMY card"
        )
        options = list(seat_options(g.players))
        options.append(("nobody", "none"))
        for combo in {won, (*holders,)} - {()}:
            if len(combo) > 1:
                label = say(together(combo, start=True), g.players)
                options.append((label, "+".join(map(str, combo))))
        how = [row for row in g.results() if row["winner"]]
        qs.append(
            choice_question(
                say(f"A game has ended: {facts}; at the end {held}. Who won?", g.players),
                options,
                {"+".join(map(str, won)) or "none"},
                say(
                    f"The game: {g.history[-1].event}"
                    + (
                        " (" + "; ".join(f"seat {row['seat']}: {row['how']}" for row in how) + ")"
                        if how
                        else ""
                    ),
                    g.players,
                ),
            )
        )
    return qs


# --- 12. the stock runs out -----------------------------------------------------------------


def stock_questions(r: Ruleset) -> Sequence[Question | None]:
    g = _drive(
        r,
        lambda g: g.to_move is not None and g.phase == "draw" and len(g.stock) == 1,
        bots="random",
    )
    seat = mover(g)
    g.apply(Draw(seat, "stock"))
    hand = g.view(seat).hand
    card = next(c for c in hand if g.can(Discard(seat, c)).ok)
    g.apply(Discard(seat, card))
    last = [rec.event for rec in g.history[-2:]]
    return [
        yes_no_question(
            say(
                f"Seat {seat} drew the last stock card and discarded {card} without going "
                "out. Is the discard pile shuffled into a new stock?",
                g.players,
            ),
            len(g.stock) > 0,
            say(" ".join(last), g.players),
        ),
        yes_no_question(
            "Is the game over now?",
            bool(g.over),
            say(" ".join(last), g.players),
        ),
        *_last_chance_questions(g, seat),
    ]


LAST_CHANCE: tuple[tuple[str, str], ...] = (
    ("No: you hold a RUMMY card", "rummy"),
    ("No: taking the top discard would not let you go out", "cannot"),
    ("Yes: you may draw once, only to go out", "chance"),
)


def _last_chance_questions(g: ThreePackGame, seat: int) -> list[Question]:
    """After the last stock card: does the next player get the one chance to go out?

    The answer is the engine's: the game either offers that player a final draw or says
    why it ended (a RUMMY card in their hand, or no draw that lets them go out).
    """
    nxt = next((s for k in range(1, g.players) if g.active[s := (seat + k) % g.players]), None)
    if nxt is None:
        return []
    event = str(g.history[-1].event)
    if g.phase == "final_draw" and mover(g) == nxt:
        right = "chance"
    elif f"seat {nxt} holds a" in event:
        right = "rummy"
    elif f"seat {nxt} cannot go out by drawing" in event:
        right = "cannot"
    else:
        return []
    top = g.view(nxt).top_discard
    return [
        choice_question(
            say(
                f"Seat {seat} drew the last stock card and discarded {top}. You play next "
                "(your hand is shown). Do you get a last chance to draw?",
                g.players,
                nxt,
            ),
            LAST_CHANCE,
            {right},
            say(
                f"The game: {event} Only the next player may try, and only when they hold "
                "no RUMMY card and taking the top discard lets them go out (the stock is "
                "empty: the discard pile is the only place left to draw from).",
                g.players,
                nxt,
            ),
            cards=g.view(nxt).hand,
            caption=f"your hand; the top discard is {top}",
        )
    ]


# --- 13. dropping out -----------------------------------------------------------------------


def drop_questions(r: Ruleset) -> Sequence[Question | None]:
    g = _game(r, seed=4)
    other = (mover(g) + 1) % g.players
    verdict = g.can(DropOut(other))
    qs = [
        yes_no_question(
            say(f"It is seat {mover(g)}'s turn. May seat {other} drop out now?", g.players),
            verdict.ok,
            _verdict(
                verdict,
                say(f"Yes: the game lets seat {other} drop out at any time.", g.players),
                g.players,
            ),
        )
    ]
    g.apply(DropOut(other))
    active = sum(g.view(0).active)
    qs.append(
        number_question(
            say(
                f"Seat {other} has dropped out of a {g.players}-player game. How many players "
                "are still in it?",
                g.players,
            ),
            active,
            say(str(g.history[-1].event), g.players),
        )
    )
    return qs


# --- 14. matches and tie-breaks -------------------------------------------------------------


@lru_cache(maxsize=2)
def _match(r: Ruleset) -> ThreePackMatch:
    return ThreePackMatch(r, players=PLAYERS, seed=3, dealt=DEALT).play(("greedy",))


def _points_words(points: Sequence[int]) -> str:
    """Game points per seat in words, for :func:`say`: ``1 for seat 0, 2 for seat 1 ...``."""
    from payme.tutorial.game_questions import totals_words

    return totals_words(points)


def match_questions(r: Ruleset) -> Sequence[Question | None]:
    m = _match(r)
    qs = [
        number_question(
            "How many game points win a match?",
            int(r.game_points_to_win or 0),
            f"{rules_words(r)} plays matches to {r.game_points_to_win} game points.",
        ),
        choice_question(
            say(
                "The engine played a match, which ended with "
                + _points_words(m.points)
                + ". Who won the match?",
                m.players,
            ),
            seat_options(m.players),
            {str(m.winner)},
            say(
                f"Seat {m.winner} reached {r.game_points_to_win} game points alone "
                f"after {len(m.games)} game(s)"
                + (" (with tie-break games)" if any(m.tie_break) else "")
                + ".",
                m.players,
            ),
        ),
    ]
    qs.extend(_tie_break_questions(r))
    qs.extend(_tie_game_questions(r))
    if len(m.games) > 1 and m.games[0].winners():
        g0, g1 = m.games[0], m.games[1]
        first0 = m.game_players[0][g0.first]
        first1 = m.game_players[1][g1.first]
        qs.append(
            choice_question(
                say(
                    f"Seat {first0} played first in game 1, which had a winner. Who plays "
                    "first in game 2?",
                    m.players,
                ),
                seat_options(m.players),
                {str(first1)},
                say(
                    f"The first player moves one seat left: seat {first1} starts game 2.", m.players
                ),
            )
        )
    return qs


def _tie_game_questions(r: Ruleset) -> list[Question]:
    """A match whose first game the table agrees to call a tie: who starts game 2."""
    from payme.game.three_pack import ThreePackMatch

    m = ThreePackMatch(r, players=PLAYERS, seed=3, dealt=DEALT)
    g0 = m.game
    first0 = m.game_players[0][g0.first]
    g0.agree_tie()
    g1 = m.next_game()
    if g1 is None:
        return []
    first1 = m.game_players[1][g1.first]
    return [
        choice_question(
            say(
                f"Seat {first0} plays first in game 1 of a match, and the table agrees to call "
                "it a tie game (nobody wins). Who plays first in game 2?",
                m.players,
            ),
            seat_options(m.players),
            {str(first1)},
            say(
                f"The engine started game 2 with seat {first1}: after a tie game the first "
                f"player does not move. Game points: {_points_words(m.points)}.",
                m.players,
            ),
        )
    ]


def _tie_break_questions(r: Ruleset) -> list[Question]:
    """A match the engine played where two players reached the goal in the same game."""
    from payme.game.three_pack import ThreePackMatch

    for seed in range(1, 30):
        m = ThreePackMatch(r, players=PLAYERS, seed=seed, dealt=DEALT).play(("greedy",))
        if any(m.tie_break):
            break
    else:
        return []
    k = m.tie_break.index(True)
    points = [0] * m.players
    for game, seats in zip(m.games[:k], m.game_players[:k], strict=True):
        for s in game.winners():
            points[seats[s]] += 1
    playing = m.game_players[k]
    everyone = tuple(range(m.players))
    options = [
        (say(together(playing, start=True) + " only", m.players), "+".join(map(str, playing)))
    ]
    if playing != everyone:
        options.append(("all players", "+".join(map(str, everyone))))
    options.append(("nobody: the match is over", "none"))
    return [
        choice_question(
            say(
                f"After game {k} of a match the game points are {_points_words(points)}. "
                "Who plays the next game?",
                m.players,
            ),
            tuple(options),
            {"+".join(map(str, playing))},
            say(
                f"The engine's match: players tied at {r.game_points_to_win} or more play a "
                f"tie-break game, so game {k + 1} is played by {together(playing)}; "
                f"seat {m.winner} wins the match.",
                m.players,
            ),
        )
    ]


# --- 15. variations -------------------------------------------------------------------------


def variations_questions(r: Ruleset) -> Sequence[Question | None]:
    from payme.game.three_pack import new_three_pack_game, seven_pile_shuffle

    qs = []
    go_out = dataclasses.replace(r, variation_go_out=True)
    # The engine decides (it refuses NOGO cards with Go Out); the words answer the question.
    try:
        new_three_pack_game(go_out, players=3, seed=1, optional={"NOGO": 1})
        ok, why = True, "Yes."
    except ValueError:
        ok = False
        why = (
            "No: the Go Out variation is played without NOGO (CAN'T GO OUT) cards: the game "
            "goes on until someone goes out, and a NOGO card could make that impossible."
        )
    qs.append(yes_no_question("May a game with the Go Out variation use NOGO cards?", ok, why))
    qs.extend(go_out_rebuild_questions(r))
    both = dataclasses.replace(
        r, variation_three_card_draw=True, variation_spread_discard_pile=True
    )
    try:
        new_three_pack_game(both, players=3, seed=1)
        ok, why = True, "Yes."
    except ValueError as err:
        ok, why = False, f"No: {err}."
    qs.append(
        yes_no_question(
            "May one game use Three-Card Draw and Spread-Out Discard Pile together?", ok, why
        )
    )
    three = dataclasses.replace(r, variation_three_card_draw=True)
    g = _game(three, seed=1)
    me = mover(g)
    verdict = g.can(Draw(me, "discard", take=2))
    qs.append(
        yes_no_question(
            "Three-Card Draw is on and the discard pile is still empty. May the first player take "
            "two discards and the top stock card?",
            verdict.ok,
            _verdict(verdict, "Yes."),
        )
    )
    g = _drive(three, lambda g: g.phase == "draw" and len(g.discard_pile) >= 2)
    me = mover(g)
    before, pile = len(g.view(me).hand), len(g.discard_pile)
    verdict = g.can(Draw(me, "discard", take=2))
    if verdict.ok:
        g.apply(Draw(me, "discard", take=2))
        qs.append(
            number_question(
                f"Three-Card Draw is on, the discard pile holds {pile} cards and you "
                f"hold {before}. You take the top two discards and the top stock card. How many "
                "cards do you hold now?",
                len(g.view(me).hand),
                say(f"The game: {g.history[-1].event}", g.players, me)
                + f" You hold {len(g.view(me).hand)} cards and still discard only one.",
            )
        )
    qs.extend(spread_questions(r))
    seating = dataclasses.replace(r, variation_seating=True)
    g = _game(seating, seed=6)
    # Before the seating nobody has a seat, so nobody has a seat name yet: the players are
    # counted from 1 as people at a table would ("Player 1"), the engine's numbers plus one.
    shown = "; ".join(
        f"Player {p + 1}: {' '.join(card_label(x) for x in c)}" for p, c in enumerate(g.preliminary)
    )
    qs.append(
        choice_question(
            f"With the Seating variation the face-up cards were {shown}. Which player takes "
            "the first seat, the first to play?",
            tuple((f"Player {p + 1}", str(p)) for p in range(g.players)),
            {str(g.seating[0])},
            f"The lowest card chooses first: Player {g.seating[0] + 1} takes the first seat, "
            "then " + joined([f"Player {p + 1}" for p in g.seating[1:]]) + " follow clockwise.",
        )
    )
    nine = parse_hand("AS 2S 3S 4S 5S 6S 7S 8S 9S")
    top = seven_pile_shuffle(nine)[-1]
    qs.append(
        choice_question(
            "Nine cards, A♠ (bottom) to 9♠ (top), are dealt into seven piles from the top and "
            "stacked with pile 1 on top. Which card is on top now?",
            tuple((card_label(c), str(c)) for c in nine),
            {str(top)},
            "The 7-pile shuffle gives "
            + " ".join(card_label(c) for c in seven_pile_shuffle(nine))
            + f" (bottom to top): {card_label(top)} is on top.",
            cards=nine,
            caption="before the shuffle, bottom to top",
        )
    )
    return qs


def go_out_rebuild_questions(r: Ruleset) -> list[Question]:
    """Go Out: the last stock card is drawn and play goes on with a rebuilt stock."""
    go_out = dataclasses.replace(r, variation_go_out=True)
    # Random bots seldom go out, so their games reach the end of the stock.
    g = _drive(
        go_out,
        lambda g: g.to_move is not None and g.phase == "draw" and len(g.stock) == 1,
        bots="random",
    )
    seat = mover(g)
    g.apply(Draw(seat, "stock"))
    card = next(c for c in g.view(seat).hand if g.can(Discard(seat, c)).ok)
    pile = len(g.discard_pile) + 1  # with the discard about to be made
    g.apply(Discard(seat, card))
    events = " ".join(str(rec.event) for rec in g.history[-3:])
    stock, left = len(g.stock), tuple(g.discard_pile)
    if stock == pile - 1 and left == (card,):
        right = "rebuild"
    elif stock == pile:
        right = "all"
    else:
        right = "end"
    return [
        choice_question(
            say(
                f"Go Out is on. Seat {seat} draws the last stock card and discards {card}. "
                "Nobody has gone out. What happens to the discard pile?",
                g.players,
            ),
            (
                ("All but its top card is shuffled into a new stock", "rebuild"),
                ("The whole pile is shuffled into a new stock", "all"),
                ("Nothing: the game ends", "end"),
            ),
            {right},
            say(f"The game: {events}", g.players)
            + " With Go Out the game goes on until someone goes out: "
            f"the pile but its top card ({card}) becomes the new stock. (Nobody counts it: "
            "the stock is never counted.)",
        )
    ]


def spread_questions(r: Ruleset) -> list[Question]:
    """Spread-Out Discard Pile: which discards a draw takes, graded by a real game.

    The learner names the cards taken to reach the third card from the top; the engine's
    ``Draw(seat, "discard", take=3)`` is applied and the cards it puts in the hand are the
    answer.  A game without the variation says why the same draw is refused.
    """
    from collections import Counter

    spread = dataclasses.replace(r, variation_spread_discard_pile=True)
    g = _drive(spread, lambda g: g.phase == "draw" and len(g.discard_pile) >= 4)
    me = mover(g)
    pile = tuple(g.view(me).discard_pile)
    depth = 3
    target = pile[-depth]
    verdict = g.can(Draw(me, "discard", take=depth))
    if not verdict.ok:
        return []
    before = Counter(g.view(me).hand)
    record = g.apply(Draw(me, "discard", take=depth))
    taken = tuple(sorted((Counter(g.view(me).hand) - before).elements()))
    qs = [
        cards_question(
            f"Spread-Out Discard Pile is on. The discard pile holds {len(pile)} cards "
            f"(shown bottom to top) and you want the {target} third from the top. Which "
            "cards do you take?",
            pile,
            taken,
            say(f"The game: {record.event}", g.players, me)
            + " Any discard may be taken, together with every card "
            "above it.",
            caption="the discard pile, bottom to top",
        )
    ]
    plain = _drive(r, lambda g: g.phase == "draw" and len(g.discard_pile) >= 2)
    seat = mover(plain)
    top_two = tuple(plain.discard_pile[-2:])
    refused = plain.can(Draw(seat, "discard", take=2))
    qs.append(
        yes_no_question(
            f"Without the variation (the standard rules), the top two discards are "
            f"{format_hand(top_two)}. May you take the {top_two[0]} under the top card, "
            "together with the top card?",
            refused.ok,
            _verdict(refused, "Yes."),
            cards=top_two,
            caption="the top of the discard pile, bottom to top",
        )
    )
    return qs


def no_questions(r: Ruleset) -> Sequence[Question | None]:
    """For a step whose questions are all meld checks in its content file."""
    return []


FIGURES: dict[str, Callable[[Ruleset], str]] = {
    "special_cards_table": pack_example,
    "special_wild_melds": wilds_example,
}
"""Tables and drawings the content files name with ``::: figure NAME``."""

ASKS: dict[str, Callable[[Ruleset], Sequence[Question | None]]] = {
    "pack": pack_questions,
    "players": players_questions,
    "first_dealer": first_dealer_questions,
    "no_upcard": no_upcard_questions,
    "turn": turn_questions,
    "melds": no_questions,
    "wilds": no_questions,
    "rummy": rummy_questions,
    "nomeld_nogo": nomeld_questions,
    "going_out": going_out_questions,
    "winners": winners_questions,
    "stock": stock_questions,
    "drop_out": drop_questions,
    "match": match_questions,
    "variations": variations_questions,
}
"""The questions of each step that the code builds (beyond its file's meld checks)."""

THREE_PACK_STEPS: tuple[Step, ...] = steps_from_content("three_pack", ASKS, FIGURES)

__all__ = ["ASKS", "FIGURES", "THREE_PACK_STEPS"]
