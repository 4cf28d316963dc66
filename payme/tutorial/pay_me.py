"""The steps of *Learn Pay Me*: every rule of RULES.md's Pay Me sections, each with a check.

Texts and examples read the chosen rule set's fields (packs, wild cards, meld limits, going
out, final turns, lay-offs, points, money), so one list of steps serves denexa, classic,
family and any custom rule set derived from them.  Each question's answer is computed by
the engine; an example that would not show its point under the chosen rule set is swapped
for the next candidate (see :func:`payme.tutorial.checks.pick`).

>>> from payme.rulesets import rules
>>> [s.key for s in PAY_ME_STEPS][:4]
['cards', 'goal', 'packs', 'deal']
>>> q = PAY_ME_STEPS[2].questions(rules("denexa"))[0]
>>> q.prompt, q.right_answer()
('How many packs are shuffled together for 2 players?', '1')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from payme.cards import CARDS, JOKER_INDEX, RANK_NAMES, Card, format_hand, parse_card, parse_hand
from payme.pack import Pack, check_hand
from payme.rulesets import Ruleset, rank_token
from payme.tutorial import ask, game_questions
from payme.tutorial.checks import (
    Question,
    choice_question,
    number_question,
    pick,
    yes_no_question,
)
from payme.tutorial.content import wild_kinds
from payme.tutorial.markup import cards_html, para, rules_words, sentence, table_html
from payme.tutorial.steps import Step, steps_from_content
from payme.words import joined, rank_label, rank_plural

RANK_OPTIONS: tuple[tuple[str, str], ...] = tuple(
    (rank_token(r), rank_token(r)) for r in range(1, 14)
)


def player_ranges(rules: Ruleset) -> list[tuple[int, int, int]]:
    """``(fewest, most, packs)`` for each step of the rule set's pack table."""
    rows, low = [], rules.min_players
    for most, packs in rules.packs:
        if most >= low:
            rows.append((low, most, packs))
        low = most + 1
    return rows


# --- 0. cards and how they are written --------------------------------------------------


def _parses(r: Ruleset, token: str) -> tuple[bool, str]:
    try:
        card = parse_card(token)
    except ValueError as err:
        why = str(err)
        if not r.special_cards:
            # The special cards of other games are no concern of this one's learner.
            why = why.split(", or one of ")[0]
        return False, f"No: {why}."
    return True, f"Yes: {token!r} is read as {card}, the {card.name}."


def cards_questions(r: Ruleset) -> Sequence[Question | None]:
    qs = []
    for token in ("JS", "QH"):
        card = parse_card(token)
        qs.append(
            number_question(
                f"What rank number does the {card.name} ({card}) have?",
                int(card.rank or 0),
                f"{card} is a {RANK_NAMES[card.rank or 1]}: rank number {card.rank}.",
                cards=(card,),
                caption=token,
            )
        )
    for token in ("10d", "1X", "kc"):
        ok, why = _parses(r, token)
        qs.append(yes_no_question(f"Is {token!r} a way to write a card?", ok, why))
    players = max(r.min_players, min(4, r.max_players))
    twins = parse_hand("7H 7H")
    try:
        check_hand(twins, r, players)
        ok, why = (
            True,
            f"Yes: with {players} players {rules_words(r)} shuffle {r.packs_for(players)} "
            "packs together, so there are two 7H.",
        )
    except ValueError as err:
        ok, why = False, f"No: {err}."
    qs.append(
        yes_no_question(
            f"In a {players}-player game under {rules_words(r)}, may one hand hold two 7H?",
            ok,
            why,
            cards=twins,
            caption="7H 7H",
        )
    )
    return qs


# --- 1. the goal --------------------------------------------------------------------------


def goal_questions(r: Ruleset) -> Sequence[Question | None]:
    qs = [
        number_question(
            "How many hands does a game of Pay Me have?",
            r.hands,
            f"Under {rules_words(r)} a game is {r.hands} hands.",
        )
    ]
    for hand in (1, 6, r.hands):
        dealt = r.dealt_in_hand(hand)
        qs.append(
            number_question(
                f"How many cards is each player dealt in hand {hand}?",
                dealt,
                f"Hand {hand} deals {dealt} cards to each player "
                f"(hand 1 deals {r.dealt_in_hand(1)}, and each hand one more).",
            )
        )
    return qs


# --- 2. players and packs -----------------------------------------------------------------


def packs_example(r: Ruleset) -> str:
    rows = []
    for low, most, packs in player_ranges(r):
        players = f"{low}" if low == most else f"{low}–{most}"
        rows.append((players, packs, len(Pack.of(r, most))))
    jokers = " ".join(["JK"] * r.jokers_per_pack)
    sample = cards_html(
        parse_hand(f"AS KH 7D 2C {jokers}"),
        caption=f"a pack: 13 cards of each suit ♠ ♥ ♦ ♣ and {r.jokers_per_pack} jokers",
    )
    return sample + table_html(("players", "packs", "cards in the pack"), rows)


def packs_questions(r: Ruleset) -> Sequence[Question | None]:
    qs = []
    for _low, most, _packs in player_ranges(r):
        n = r.packs_for(most)
        qs.append(
            number_question(
                f"How many packs are shuffled together for {most} players?",
                n,
                f"With {most} players {rules_words(r)} use {n} pack(s): "
                f"{len(Pack.of(r, most))} cards.",
            )
        )
    triple = parse_hand("7H 7H 7H")
    try:
        check_hand(triple, r)
        ok, why = (
            True,
            (
                f"Yes: the largest pack under {rules_words(r)} is {r.packs_for(None)} packs, so "
                "there can be three 7H."
            ),
        )
    except ValueError as err:
        ok, why = False, f"No: {err}."
    qs.append(
        yes_no_question(
            f"When the number of players is not known, the largest pack of "
            f"{rules_words(r)} counts. "
            "May a hand then hold three 7H?",
            ok,
            why,
            cards=triple,
            caption="7H 7H 7H",
        )
    )
    too_many = r.max_players + 1
    try:
        r.check_players(too_many)
        allowed, why = True, f"{sentence(rules_words(r))[:-1]} allow {too_many} players."
    except ValueError as err:
        allowed, why = False, f"No: {err}."
    qs.append(
        yes_no_question(
            f"May {too_many} people play one game under {rules_words(r)}?", allowed, why
        )
    )
    return qs


# --- 3. the deal and the round wild rank --------------------------------------------------


def deal_example(r: Ruleset) -> str:
    rows = []
    for hand in range(1, r.hands + 1):
        dealt = r.dealt_in_hand(hand)
        wild = r.round_wild_rank(dealt)
        rows.append(
            (hand, dealt, "—" if wild is None else f"{rank_token(wild)} ({rank_plural(wild)})")
        )
    first = r.dealt_in_hand(1)
    sample = cards_html(
        parse_hand("3H 9C JK")[:first],
        r,
        first,
        caption=f"a hand of {first} cards in hand 1: wild cards marked WILD",
    )
    return sample + table_html(("hand", "cards dealt", "round wild rank"), rows)


def deal_questions(r: Ruleset) -> Sequence[Question | None]:
    qs: list[Question | None] = []
    for hand in (2, 9, r.hands):
        dealt = r.dealt_in_hand(hand)
        wild = r.round_wild_rank(dealt)
        if wild is None:
            continue
        qs.append(
            choice_question(
                f"Which rank is the round wild rank in hand {hand}?",
                RANK_OPTIONS,
                {rank_token(wild)},
                f"Hand {hand} deals {dealt} cards, so the {rank_plural(wild)} "
                f"({rank_token(wild)}) are wild.",
            )
        )
    for token, hand in (("2C", 5), ("9D", 7), ("JK", 3), ("KS", 4)):
        card, dealt = parse_card(token), r.dealt_in_hand(hand)
        scope = r.wild_scope(card, dealt)
        why = (
            f"In hand {hand} ({dealt} cards dealt) the wild cards are "
            f"{joined(wild_kinds(r))}: the {card.name} "
            + ("is wild." if scope is not None else "is not.")
        )
        qs.append(
            # No card drawn here: its wild mark would give the answer away.
            yes_no_question(
                f"In hand {hand}, is the {card.name} ({card}) a wild card?",
                scope is not None,
                why,
            )
        )
    qs.extend(game_questions.deal_questions(r))
    return qs


# --- 4. sets --------------------------------------------------------------------------------


# --- 5. runs --------------------------------------------------------------------------------


# --- 6. wild cards --------------------------------------------------------------------------


def wilds_example(r: Ruleset) -> str:
    from payme.display import meld_html
    from payme.solver import evaluate

    ev = evaluate("5H JK 7H 4C 7D 6C", rules=r, dealt=7)
    return "".join(str(meld_html(m)) for m in ev.melds)


# --- 7. limits on wild cards --------------------------------------------------------------


# --- 8. two melds of the same rank --------------------------------------------------------


def same_rank_questions(r: Ruleset) -> Sequence[Question | None]:
    def two_melds(ev: object) -> bool:
        return getattr(ev, "deadwood_points", 1) == 0 and len(getattr(ev, "melds", ())) >= 2

    return [
        pick(
            [
                lambda: ask.layout_points(
                    r,
                    "9S 9H 9D 9S 9H 9C",
                    4,
                    shows=lambda ev: getattr(ev, "deadwood_points", 1) == 0,
                    claim="six nines all meld",
                )
            ],
            "six nines",
        ),
        pick(
            [
                lambda: ask.layout_points(
                    r, "5H 6H 7H 5H 6H 7H", 10, shows=two_melds, claim="the same run twice"
                )
            ],
            "the same run twice",
        ),
    ]


# --- 9. a turn ----------------------------------------------------------------------------


# --- 10. going out ------------------------------------------------------------------------


def going_out_questions(r: Ruleset) -> Sequence[Question | None]:
    optional = r.going_out == "discard_optional"
    examples: list[tuple[str, int, Callable[[tuple[str, ...]], bool], str, str]] = [
        # (hand, dealt, what the engine's answer must show, the claim, what it shows)
        (
            "5H 6H 7H 8H 9H",
            4,
            lambda w: (ask.NO_DISCARD in w) == optional and ask.CANNOT not in w,
            "a fully melded hand: with or without a discard as the rules say",
            "a fully melded hand",
        ),
        ("5H 6H 7H 8H KS", 4, lambda w: w == ("KS",), "one loose card to discard", "one discard"),
        (
            "5H 6H 7H KS QD",
            4,
            lambda w: w == (ask.CANNOT,),
            "two loose cards: cannot go out",
            "a hand that cannot go out",
        ),
        (
            "3C 8D 8S 8H JK 9C TC",
            6,
            lambda w: w == ("3C",),
            "a joker completes a run; one card to discard",
            "going out with a wild card",
        ),
    ]
    return [
        pick([partial(ask.go_out, r, hand, dealt, shows=shows, claim=claim)], what)
        for hand, dealt, shows, claim, what in examples
    ]


# --- 10b. laying out the melds: the declarer's arrangement --------------------------------


def arrangement_example(r: Ruleset) -> str:
    from payme.display import meld_html
    from payme.melds import parse_declared_meld

    if not r.jokers_wild:
        return ""
    melds = "".join(
        str(meld_html(parse_declared_meld(m, r, 9), caption=f"laid down as {m}"))
        for m in ("JK 5H 6H", "5H 6H JK")
    )
    return para("The same three cards laid down two ways (9 cards dealt):") + melds


def _joker_place(r: Ruleset, laid: str, dealt: int) -> Question | None:
    """ "Which card does the joker stand for?" graded by the declared meld's stand-ins."""
    from payme.melds import parse_declared_meld

    if not r.jokers_wild:
        return None
    meld = parse_declared_meld(laid, r, dealt)
    joker = parse_card("JK")
    stands = next(s for c, s in zip(meld.cards, meld.stands_for, strict=True) if c == joker)
    if stands is None:
        return None
    low, high = Card.regular(4, "H"), Card.regular(7, "H")
    options = tuple((f"{c.name} ({c})", str(c)) for c in (low, high))
    return choice_question(
        f"You go out and lay down a run as {laid} ({dealt} cards dealt). Which card does "
        "the joker stand for?",
        options,
        {str(stands)},
        f"A wild card at the end of a run holds the place you name when you lay it down: "
        f"laid as {laid}, the joker stands for {stands} ({meld}).",
        cards=parse_hand(laid),
        caption=laid,
        dealt=dealt,
        claim="the declarer names the place of a wild card at the end of a run",
        holds=lambda: parse_declared_meld(laid, r, dealt).stands_for == meld.stands_for,
    )


def arrangement_questions(r: Ruleset) -> Sequence[Question | None]:
    qs = [
        pick([lambda: _joker_place(r, "JK 5H 6H", 9)], "a wild card at the low end"),
        pick([lambda: _joker_place(r, "5H 6H JK", 9)], "a wild card at the high end"),
    ]
    if not r.lay_off:
        return qs  # nobody lays off, so the declarer's choice cannot block a lay-off
    seven, queen = parse_card("7H"), parse_card("QS")
    return [
        *qs,
        pick(
            [
                lambda: ask.lay_off_cards(
                    r,
                    "7H 4H KC",
                    ["5H 6H JK"],
                    9,
                    shows=lambda laid: seven not in laid and bool(laid),
                    claim="the wild card holds the 7H place the declarer named",
                )
            ],
            "the place a declarer named",
        ),
        pick(
            [
                lambda: ask.lay_off_cards(
                    r,
                    "QS 3D",
                    ["QC QD JK"],
                    9,
                    shows=lambda laid: queen in laid,
                    claim="a set's wild card changes suit so another queen fits",
                )
            ],
            "a set's wild card changing suit",
        ),
    ]


# --- 11. final turns ----------------------------------------------------------------------


# --- 12. showing hands and lay-offs -------------------------------------------------------


def grown_meld_limits(r: Ruleset) -> str:
    """What a grown meld must still obey under ``r`` (set sizes, suits, wild limits)."""
    limits = ask.meld_limits(r)
    if not limits:
        return (
            f"A grown meld is any meld valid under {rules_words(r)}: sets have no upper size and "
            "wild cards no limit."
        )
    return f"A grown meld must still be a meld valid under {rules_words(r)}: {joined(limits)}."


def lay_offs_questions(r: Ruleset) -> Sequence[Question | None]:
    lays = r.lay_off
    return [*lay_off_questions(r), *(in_turn_questions(r) if lays else [])]


def in_turn_questions(r: Ruleset) -> list[Question | None]:
    """Several opponents lay off in turn, from the declarer's left, each onto the melds as
    the ones before left them (graded by :func:`payme.layoff.lay_off_in_turn`).

    Only for rule sets with lay-offs.  Jacks are wild with 11 cards dealt; no example card
    is a jack or a 2.
    """
    nine, eight = parse_card("9H"), parse_card("8H")
    return [
        pick(
            [
                lambda: ask.lay_off_in_turn_question(
                    r,
                    "8H KD",
                    "9H QC",
                    ["5H 6H 7H"],
                    11,
                    ask_for="points",
                    shows=lambda mine, alone: mine.deadwood_points < alone.deadwood_points,
                    claim="9H fits only after the player before lays off 8H",
                )
            ],
            "a lay-off made possible by the player before",
        ),
        pick(
            [
                lambda: ask.lay_off_in_turn_question(
                    r,
                    "8H KD",
                    "8H 9H QC",
                    ["5H 6H 7H"],
                    11,
                    ask_for="cards",
                    shows=lambda mine, alone: mine.laid_off == (nine,) and eight in alone.laid_off,
                    claim="the player before took the 8H's place: only 9H still fits",
                )
            ],
            "a lay-off taken by the player before",
        ),
    ]


def lay_off_questions(r: Ruleset) -> list[Question | None]:
    lays = r.lay_off
    queen, joker = parse_card("QS"), parse_card("JK")
    return [
        pick(
            [
                lambda: ask.lay_off_points(
                    r,
                    "8H 9H KD",
                    ["5H 6H 7H"],
                    4,
                    shows=lambda alone, after: (after < alone) == lays,
                    claim="a chain of two lay-offs lowers the score exactly when allowed",
                )
            ],
            "chained lay-offs",
        ),
        pick(
            [
                lambda: ask.lay_off_cards(
                    r,
                    "6H 4H KC",
                    ["5H JK 7H"],
                    10,
                    shows=lambda laid: (
                        parse_card("6H") not in laid and (parse_card("4H") in laid) == lays
                    ),
                    claim="a wild card in a meld is never replaced",
                )
            ],
            "a fixed wild card",
        ),
        pick(
            [
                lambda: ask.lay_off_cards(
                    r,
                    "QS 3D",
                    ["QC QD JK"],
                    10,
                    shows=lambda laid: (parse_card("QS") in laid) == lays,
                    claim="a set takes another card of its rank",
                )
            ],
            "laying off onto a set",
        ),
        # Jacks are wild with 11 cards dealt (and 2s in denexa); no example card is either.
        pick(
            [
                lambda: ask.lay_off_cards(
                    r,
                    "QS QS 3D",
                    ["QC QD QH"],
                    11,
                    shows=lambda laid: (
                        laid.count(queen)
                        == (0 if not lays else 1 if r.set_distinct_suits or r.set_max == 4 else 2)
                    ),
                    claim="a set grows only as far as the rule set's sets may",
                )
            ],
            "a set that may not grow past four cards",
        ),
        pick(
            [
                lambda: ask.lay_off_cards(
                    r,
                    "JK 3D",
                    ["5H JK 7H JK"],
                    11,
                    shows=lambda laid: (joker in laid) == (lays and not r.wild_at_most_half),
                    claim="wild limits still hold after a lay-off",
                )
            ],
            "wild limits in lay-offs",
        ),
        pick(
            [
                lambda: ask.lay_off_points(
                    r,
                    "8H 9H TH 9S 9D",
                    ["5H 6H 7H"],
                    11,
                    shows=lambda alone, after: (after < alone) == lays,
                    claim="8H leaves your own run to be laid off; 9H joins 9S 9D",
                )
            ],
            "a lay-off taken from your own meld",
        ),
    ]


# --- 13. penalty points -------------------------------------------------------------------


def penalty_example(r: Ruleset) -> str:
    rows = []
    for rank in range(1, 14):
        card = Card.regular(rank, "C")
        note = f" (wild: every {rank_label(rank)})" if r.is_wild(card, None) else ""
        rows.append((f"{rank_token(rank)}{note}", r.card_points(card, None)))
    rows.append(("joker", r.card_points(CARDS[JOKER_INDEX], None)))
    nine = parse_card("9C")
    rows.append(("9 in hand 7 (nines wild)", r.card_points(nine, 9)))
    return table_html(("card left over", "penalty points"), rows)


def penalty_questions(r: Ruleset) -> Sequence[Question | None]:
    qs = [
        pick(
            [
                lambda: ask.deadwood_cost(
                    r, "9C 4S KD", 9, claim="a round-wild-rank card in deadwood"
                )
            ],
            "deadwood with a wild-rank card",
        ),
        pick(
            [lambda: ask.deadwood_cost(r, "AH 5D JK", 9, claim="ace, five, joker")], "ace and joker"
        ),
        pick([lambda: ask.deadwood_cost(r, "2D 8S KH", 7, claim="a two")], "a two"),
    ]
    nine, dealt = parse_card("9H"), 9
    qs.append(
        number_question(
            f"With {dealt} cards dealt, how many points does a 9♥ left in your deadwood cost?",
            r.card_points(nine, dealt),
            f"Nines are wild in that hand; {rules_words(r)} score it "
            + ("as a wild card" if r.wild_points is not None else "by its rank")
            + f": {r.card_points(nine, dealt)} points.",
            cards=(nine,),
            caption="9H",
            dealt=dealt,
        )
    )
    return qs


# --- 14. the stock runs out ---------------------------------------------------------------


def stock_out_questions(r: Ruleset) -> Sequence[Question | None]:
    rebuild = r.stock_out == "rebuild"
    return [
        yes_no_question(
            "The stock is empty and you must draw. Is the discard pile (all but its top card) "
            "shuffled into a new stock?",
            rebuild,
            f"{sentence(rules_words(r))[:-1]}: "
            + (
                "yes, the stock is rebuilt from the discard pile, keeping its top card."
                if rebuild
                else "no, the game ends."
            ),
        ),
        *game_questions.stock_out_questions(r),
        *game_questions.no_card_questions(r),
    ]


# --- 15. winning --------------------------------------------------------------------------


def _seat_head(players: int) -> tuple[str, ...]:
    """The table's column heads: the players as the questions name them (You, West, ...)."""
    return game_questions.table_names(players)


def winning_example(r: Ruleset) -> str:
    """The whole game the step's question asks about, hand by hand (played by the engine)."""
    g = game_questions.finished_game(r)
    rows: list[tuple[object, ...]] = []
    for hand in range(1, r.hands + 1):
        cells = [
            f"{row['points']} (went out)" if row["went_out"] else row["points"]
            for row in g.results()
            if row["hand"] == hand
        ]
        rows.append((hand, r.dealt_in_hand(hand), *cells))
    rows.append(("total", "", *g.totals))
    return para(
        f"A whole game the engine played between {g.players} bots: each hand's penalty "
        "points (the player who went out scores 0), and the totals after "
        f"{r.hands} hands."
    ) + table_html(("hand", "cards dealt", *_seat_head(g.players)), rows)


# --- 16. money ----------------------------------------------------------------------------


def money_example(r: Ruleset) -> str:
    """The money of the game of the step before, settled by the engine: antes, each hand's
    payments to the player who went out, and the pot paid to the winner."""
    if r.money is None:
        return ""
    g = game_questions.finished_game(r)
    ante = r.money.ante
    rows: list[tuple[object, ...]] = [("ante to the pot", *([f"{-ante:+d}¢"] * g.players))]
    pot = g.pot_shares()
    for hand in range(1, r.hands + 1):
        cells = []
        for row in g.results():
            if row["hand"] == hand:
                # The engine books the antes and the pot with the game's last hand; here
                # they have rows of their own.
                last = hand == r.hands
                paid = row["money"] + (ante - pot[row["seat"]] if last else 0)
                cells.append(f"{paid:+d}¢")
        rows.append((f"hand {hand}", *cells))
    rows.append(("the pot to the winner", *(f"{v:+d}¢" for v in pot)))
    rows.append(("in all", *(f"{v:+d}¢" for v in g.money or ())))
    won = game_questions.say(game_questions.together(g.winners()), g.players)
    return para(
        f"The money of the same {g.players}-player game, settled by the engine: "
        f"{won} won with the lowest total and took the pot."
    ) + table_html(("", *_seat_head(g.players)), rows)


def money_questions(r: Ruleset) -> Sequence[Question | None]:
    if r.money is None:
        return [
            yes_no_question(
                f"Is the game played for money under {rules_words(r)}?",
                False,
                f"No: {rules_words(r)} set no stakes: points decide the game.",
            )
        ]
    m = r.money
    players = min(4, r.max_players)
    return [
        number_question(
            f"In a {players}-player game, how many cents are in the pot at the start?",
            m.ante * players,
            f"Each of the {players} players antes {m.ante}¢: {m.ante * players}¢.",
        ),
        number_question(
            f"In a {players}-player game you go out. How many cents do you collect in all?",
            m.per_hand * (players - 1),
            f"Each of the other {players - 1} players pays you {m.per_hand}¢.",
        ),
        *game_questions.money_questions(r),
    ]


# --- 18. a first lesson in tactics --------------------------------------------------------


def _tie_discard_question(r: Ruleset) -> Question | None:
    """Which discard, when two leave the same points: graded by the engine's advice."""
    from payme.advice import discard_advice, plain

    hand, dealt = parse_hand("7H 8H KD 4S 4D 4C"), 5
    advice = discard_advice(hand, r, dealt)
    if advice.card is None:
        return None
    options = tuple((f"Discard {c.name} ({c})", str(c)) for c in sorted(set(hand)))
    return choice_question(
        "You have just drawn and cannot go out. Which card do you discard?",
        options,
        {str(advice.card)},
        plain(advice.text()),
        cards=hand,
        caption=format_hand(hand),
        dealt=dealt,
        claim="equal points: keep the cards with more ways to go out",
        holds=lambda: discard_advice(hand, r, dealt).card == advice.card,
    )


def tactics_questions(r: Ruleset) -> Sequence[Question | None]:
    takes_pile = "discard" in r.final_turn_draw
    return [
        pick([lambda: _tie_discard_question(r)], "a discard among equals"),
        yes_no_question(
            "You go out and discard 9♣. May the next player take your 9♣ in the final turn?",
            takes_pile,
            (
                f"Yes: under {rules_words(r)} a final turn may draw from the discard pile, so "
                "discard the card the others can least use."
                if takes_pile
                else f"No: under {rules_words(r)} the final turns draw from the stock only, "
                "so your last discard helps nobody."
            ),
        ),
        choice_question(
            "You can go out now. Or you could wait a turn, hoping to make one more meld. "
            "Which scores you less?",
            (("Go out now", "now"), ("Wait a turn", "wait")),
            {"now"},
            "Go out now: the player who goes out scores 0, and no hand scores less. Waiting "
            "only gives the others a turn to lower their deadwood or to go out first.",
        ),
    ]


def no_questions(r: Ruleset) -> Sequence[Question | None]:
    """For a step whose questions are all meld checks in its content file."""
    return []


def goal_layout(r: Ruleset) -> str:
    from payme.display import layout_html
    from payme.solver import evaluate

    return str(layout_html(evaluate("3H 4H 5H KS KD KC 9C", rules=r, dealt=7)))


def grown_meld_limits_html(r: Ruleset) -> str:
    return para(grown_meld_limits(r))


FIGURES: dict[str, Callable[[Ruleset], str]] = {
    "goal_layout": goal_layout,
    "packs_table": packs_example,
    "deal_table": deal_example,
    "wild_melds": wilds_example,
    "run_end_wilds": arrangement_example,
    "grown_meld_limits": grown_meld_limits_html,
    "penalty_table": penalty_example,
    "whole_game": winning_example,
    "game_money": money_example,
}
"""Tables and drawings the content files name with ``::: figure NAME``."""

ASKS: dict[str, Callable[[Ruleset], Sequence[Question | None]]] = {
    "cards": cards_questions,
    "goal": goal_questions,
    "packs": packs_questions,
    "deal": deal_questions,
    "sets": no_questions,
    "runs": no_questions,
    "wilds": no_questions,
    "wild_limits": no_questions,
    "same_rank": same_rank_questions,
    "turn": game_questions.turn_questions,
    "going_out": going_out_questions,
    "arrangement": arrangement_questions,
    "final_turns": game_questions.final_turn_questions,
    "lay_offs": lay_offs_questions,
    "penalty": penalty_questions,
    "stock_out": stock_out_questions,
    "winning": game_questions.winner_questions,
    "money": money_questions,
    "tactics": tactics_questions,
}
"""The questions of each step that the code builds (beyond its file's meld checks)."""

PAY_ME_STEPS: tuple[Step, ...] = steps_from_content("pay_me", ASKS, FIGURES)

__all__ = ["ASKS", "FIGURES", "PAY_ME_STEPS"]
