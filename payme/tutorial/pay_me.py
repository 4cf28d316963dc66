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
from payme.tutorial.markup import bullets, cards_html, para, rules_words, sentence, table_html
from payme.tutorial.steps import Step

RANK_OPTIONS: tuple[tuple[str, str], ...] = tuple(
    (rank_token(r), rank_token(r)) for r in range(1, 14)
)


def plural_rank(rank: int) -> str:
    name = RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")


def wild_kinds(rules: Ruleset) -> list[str]:
    kinds = []
    if rules.jokers_wild:
        kinds.append("the jokers")
    if rules.twos_wild:
        kinds.append("every 2")
    if rules.round_rank_wild:
        kinds.append("every card of the round wild rank")
    return kinds


def and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def player_ranges(rules: Ruleset) -> list[tuple[int, int, int]]:
    """``(fewest, most, packs)`` for each step of the rule set's pack table."""
    rows, low = [], rules.min_players
    for most, packs in rules.packs:
        if most >= low:
            rows.append((low, most, packs))
        low = most + 1
    return rows


def _card_name(card: Card) -> str:
    return card.name


# --- 0. cards and how they are written --------------------------------------------------


def cards_text(r: Ruleset) -> str:
    return para(
        "Pay Me uses ordinary playing cards plus jokers. In this tutorial a card is written "
        "as its rank and its suit: 7H is the seven of hearts, TD the ten of diamonds (10D "
        "works too), KC the king of clubs, AS the ace of spades. JK is a joker.",
        "Ranks run A 2 3 4 5 6 7 8 9 T J Q K and count as numbers: ace 1, two to ten as "
        "printed, jack 11, queen 12, king 13. Suits are S ♠, H ♥, D ♦ and C ♣.",
        "Small letters are fine (7h), and cards may be separated by spaces or commas. "
        "When several packs are shuffled together a hand may hold two identical cards.",
    )


def cards_example(r: Ruleset) -> str:
    return cards_html(parse_hand("AS 7H TD JC QS KH JK"), caption="AS 7H TD JC QS KH JK")


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


def goal_text(r: Ruleset) -> str:
    return (
        para(
            f"Pay Me is a rummy game for {r.min_players} to {r.max_players} players. "
            f"A game is {r.hands} hands. In each hand you are dealt a few cards and try to "
            "arrange all of them into melds: groups of cards that belong together.",
            "Cards that fit in no meld are your deadwood, and they cost penalty points.",
        )
        + para(
            "The first player who can meld their whole hand calls “Pay me!” and goes out: "
            "that player scores nothing for the hand, everybody else scores their deadwood.",
            f"After {r.hands} hands the player with the fewest points in total wins.",
        )
        + para(
            f"The hands grow: hand 1 deals {r.dealt_in_hand(1)} cards to each player, and "
            f"every hand deals one more, up to {r.dealt_in_hand(r.hands)} in hand {r.hands}."
        )
    )


def goal_example(r: Ruleset) -> str:
    from payme.display import layout_html
    from payme.solver import evaluate

    ev = evaluate("3H 4H 5H KS KD KC 9C", rules=r, dealt=7)
    return para(
        "A hand of 7 cards laid out by the engine: a run, a set and one card of deadwood."
    ) + str(layout_html(ev))


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


def packs_text(r: Ruleset) -> str:
    return para(
        f"{r.title} is for {r.min_players} to {r.max_players} players. "
        f"A pack is 52 cards plus {r.jokers_per_pack} jokers; the more players, the more "
        "packs are shuffled together, so a hand may hold two identical cards."
    )


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


def deal_text(r: Ruleset) -> str:
    wild = (
        "In each hand one rank is wild: the rank whose number is the number of cards dealt "
        "(3 cards: threes; 10 cards: tens; then jacks at 11, queens at 12 and kings at 13)."
        if r.round_rank_wild
        else "No rank changes with the hand."
    )
    return para(
        "Each hand a new dealer deals: the deal passes to the left. Play starts with the "
        "player left of the dealer and goes clockwise (to the left).",
        "After the deal the rest of the cards are the face-down stock"
        + (", and its top card is turned face up to start the discard pile." if r.upcard else "."),
    ) + para(wild)


def deal_example(r: Ruleset) -> str:
    rows = []
    for hand in range(1, r.hands + 1):
        dealt = r.dealt_in_hand(hand)
        wild = r.round_wild_rank(dealt)
        rows.append(
            (hand, dealt, "—" if wild is None else f"{rank_token(wild)} ({plural_rank(wild)})")
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
                f"Hand {hand} deals {dealt} cards, so the {plural_rank(wild)} "
                f"({rank_token(wild)}) are wild.",
            )
        )
    for token, hand in (("2C", 5), ("9D", 7), ("JK", 3), ("KS", 4)):
        card, dealt = parse_card(token), r.dealt_in_hand(hand)
        scope = r.wild_scope(card, dealt)
        why = (
            f"In hand {hand} ({dealt} cards dealt) the wild cards are "
            f"{and_list(wild_kinds(r))}: the {card.name} "
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


def sets_text(r: Ruleset) -> str:
    size = (
        f"{r.set_min} or more cards" if r.set_max is None else f"{r.set_min} to {r.set_max} cards"
    )
    suits = (
        "no suit may appear twice in one set"
        if r.set_distinct_suits
        else "suits may repeat (with several packs, two 8♥ can be in one set)"
    )
    return para(
        f"A set is {size} of the same rank, like three eights. Under {rules_words(r)}, {suits}."
    )


def sets_example(r: Ruleset) -> str:
    return cards_html(parse_hand("8S 8H 8D"), r, 5, caption="a set of eights")


def sets_questions(r: Ruleset) -> Sequence[Question | None]:
    d = 5  # fives (and in denexa twos) are wild; no example card is
    return [
        pick([lambda: ask.meld(r, "8S 8H 8D", d, shows=bool, claim="three of a rank")], "a set"),
        pick(
            [lambda: ask.meld(r, "8S 8H", d, shows=lambda ok: not ok, claim="too few")],
            "a short set",
        ),
        pick(
            [
                lambda: ask.meld(
                    r,
                    "8S 8H 8H",
                    d,
                    shows=lambda ok: ok == (not r.set_distinct_suits),
                    claim="a repeated suit is allowed exactly when the rules allow it",
                )
            ],
            "repeated suits",
        ),
        pick(
            [
                lambda: ask.meld(
                    r,
                    "8S 8H 8D 8C 8S",
                    d,
                    shows=lambda ok: ok == (r.set_max is None and not r.set_distinct_suits),
                    claim="five cards make a set exactly when sets have no upper size",
                )
            ],
            "a large set",
        ),
        pick(
            [lambda: ask.meld(r, "8S 8H 9D", d, shows=lambda ok: not ok, claim="mixed ranks")],
            "mixed ranks",
        ),
    ]


# --- 5. runs --------------------------------------------------------------------------------


def runs_text(r: Ruleset) -> str:
    return para(
        f"A run is {r.run_min} or more cards of one suit in a row, like 4♥ 5♥ 6♥ 7♥.",
        "The ace is low: A-2-3 is a run, but Q-K-A is not, and a run never wraps around "
        "from king to ace (K-A-2 is not a run).",
    )


def runs_example(r: Ruleset) -> str:
    return cards_html(parse_hand("4H 5H 6H 7H"), r, 9, caption="a run of hearts")


def runs_questions(r: Ruleset) -> Sequence[Question | None]:
    d = 9  # nines are wild: no example card is a nine
    cases: list[tuple[str, Callable[[bool], bool], str]] = [
        ("4H 5H 6H 7H", bool, "four in a row"),
        ("AH 2H 3H", bool, "the ace is low"),
        ("QH KH AH", lambda ok: not ok, "the ace is not high"),
        ("KH AH 2H", lambda ok: not ok, "no wrapping"),
        ("4H 5H 6S", lambda ok: not ok, "one suit only"),
        ("7C 8C", lambda ok: not ok, "too short"),
    ]
    wrap = (
        "Runs do not wrap around: after the king a run stops, so K-A-2 is no run."
        if r.ace == "low"
        else "Runs do not wrap around: the ace is low or high, never both at once."
    )
    why = {"no wrapping": wrap}
    return [
        pick([partial(ask.meld, r, c, d, shows=s, claim=w, why=why.get(w, ""))], w)
        for c, s, w in cases
    ]


# --- 6. wild cards --------------------------------------------------------------------------


def wilds_text(r: Ruleset) -> str:
    return para(
        f"Under {rules_words(r)} the wild cards are {and_list(wild_kinds(r))}. A wild "
        f"card may stand "
        "for any card you need in a meld.",
        "A wild card that has a rank ("
        + (
            "a 2, or a card of the round wild rank"
            if r.twos_wild
            else "a card of the round wild rank"
        )
        + ") may instead be itself: with 7 cards dealt, 7♥ 7♠ 7♦ is a plain set of sevens. "
        "A joker is always wild.",
        "A wild card may even stand for a card you already hold, so a spare copy of a wild "
        "card can play the part of its own twin.",
    )


def wilds_example(r: Ruleset) -> str:
    from payme.display import meld_html
    from payme.solver import evaluate

    ev = evaluate("5H JK 7H 4C 7D 6C", rules=r, dealt=7)
    melds = "".join(str(meld_html(m)) for m in ev.melds)
    return para("With 7 cards dealt, the engine shows what each wild card stands for:") + melds


def wilds_questions(r: Ruleset) -> Sequence[Question | None]:
    cases: list[tuple[str, int, Callable[[bool], bool], str]] = [
        ("5H JK 7H", 9, bool, "a joker fills a gap"),
        ("7H 7S 7D", 7, bool, "wild-rank cards may be themselves"),
        ("4C 7D 6C", 7, bool, "a wild-rank card stands for another card"),
        ("7H 7H 7S", 7, bool, "a spare copy acts as a wild card"),
        ("4H 2S 6H", 7, lambda ok: ok == r.twos_wild, "a 2 is wild exactly when twos are wild"),
    ]
    if r.twos_wild:
        cases.append(("2C 2D 2H", 7, bool, "twos as themselves"))
    return [pick([partial(ask.meld, r, c, d, shows=s, claim=w)], w) for c, d, s, w in cases]


# --- 7. limits on wild cards --------------------------------------------------------------


def wild_limits_text(r: Ruleset) -> str:
    if not (r.wild_at_most_half or r.no_adjacent_wilds_in_run):
        return para(
            f"{sentence(rules_words(r))[:-1]} put no limit on wild cards: a meld may hold "
            f"as many as you "
            "like, and a meld made only of wild cards (JK JK JK) is valid. A set may also be "
            "larger than four cards."
            if r.set_max is None
            else f"{sentence(rules_words(r))[:-1]} put no limit on wild cards."
        )
    limits = []
    if r.wild_at_most_half:
        limits.append("at most half of a meld's cards may be wild")
    if r.no_adjacent_wilds_in_run:
        limits.append("in a run, two wild cards may not sit next to each other")
    return para(
        f"{sentence(rules_words(r))[:-1]} limit wild cards: {and_list(limits)}.",
        "Only a card standing for something other than itself counts as wild here: a 7 "
        "used as a seven (with 7 cards dealt) is a natural card.",
        "So three wild cards alone are never a meld.",
    )


def wild_limits_questions(r: Ruleset) -> Sequence[Question | None]:
    d = 9
    half, adjacent = r.wild_at_most_half, r.no_adjacent_wilds_in_run
    cases: list[tuple[str, Callable[[bool], bool], str]] = [
        ("JK JK QC", lambda ok: ok == (not half), "two wild of three is more than half"),
        ("5H JK JK 8H", lambda ok: ok == (not adjacent), "two wild cards side by side"),
        ("5H JK 7H JK", bool, "wild cards apart, half of the run"),
        ("JK JK JK", lambda ok: ok == (not half), "a meld of wild cards only"),
        ("9C JK 9D", bool, "wild-rank cards as themselves are natural"),
    ]
    return [pick([partial(ask.meld, r, c, d, shows=s, claim=w)], w) for c, s, w in cases]


# --- 8. two melds of the same rank --------------------------------------------------------


def same_rank_text(r: Ruleset) -> str:
    return para(
        "You may hold two separate melds of the same rank: with several packs, two sets of "
        "nines, or the same run twice.",
        "Every card belongs to one meld only.",
    )


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


def turn_text(r: Ruleset) -> str:
    return para(
        "On your turn you first draw one card: the top card of the face-down stock, or the "
        "top card of the discard pile.",
        "Then you either go out (next step) or discard one card face up onto the discard "
        "pile, and the player on your left goes next.",
    ) + para("Try it below in a real game with the engine: draw, then discard.")


# --- 10. going out ------------------------------------------------------------------------


def going_out_text(r: Ruleset) -> str:
    if r.going_out == "discard_required":
        how = (
            "you must discard one card, and every card left after the discard must be in "
            "melds. Going out with no discard is not allowed."
        )
    else:
        how = (
            "every card must be in melds: either all your cards (no discard), or all but "
            "one, which you discard."
        )
    return para(
        f"After drawing you hold one card more than you were dealt. To go out under "
        f"{rules_words(r)}, {how}",
        "You lay your melds on the table and call “Pay me!”. The player who goes out is "
        "called the declarer.",
    )


def going_out_questions(r: Ruleset) -> Sequence[Question | None]:
    optional = r.going_out == "discard_optional"
    return [
        pick(
            [
                lambda: ask.go_out(
                    r,
                    "5H 6H 7H 8H 9H",
                    4,
                    shows=lambda w: (ask.NO_DISCARD in w) == optional and ask.CANNOT not in w,
                    claim="a fully melded hand: with or without a discard as the rules say",
                )
            ],
            "a fully melded hand",
        ),
        pick(
            [
                lambda: ask.go_out(
                    r,
                    "5H 6H 7H 8H KS",
                    4,
                    shows=lambda w: w == ("KS",),
                    claim="one loose card to discard",
                )
            ],
            "one discard",
        ),
        pick(
            [
                lambda: ask.go_out(
                    r,
                    "5H 6H 7H KS QD",
                    4,
                    shows=lambda w: w == (ask.CANNOT,),
                    claim="two loose cards: cannot go out",
                )
            ],
            "a hand that cannot go out",
        ),
        pick(
            [
                lambda: ask.go_out(
                    r,
                    "3C 8D 8S 8H JK 9C TC",
                    6,
                    shows=lambda w: w == ("3C",),
                    claim="a joker completes a run; one card to discard",
                )
            ],
            "going out with a wild card",
        ),
    ]


# --- 10b. laying out the melds: the declarer's arrangement --------------------------------


def arrangement_text(r: Ruleset) -> str:
    wilds = and_list(wild_kinds(r))
    text = para(
        "When you go out you lay your cards on the table separated into melds, and the "
        "arrangement is yours to choose: which cards form which meld and, in a run, which "
        "card each wild card stands for. Any arrangement stands as long as every meld is "
        "valid; the engine's best layout is only a proposal.",
        f"A wild card ({wilds}) inside a run holds the place between its neighbours. At "
        "either end of a run it holds the place you name when you lay it down: JK 5♥ 6♥ "
        "puts the joker in the 4♥ place, 5♥ 6♥ JK in the 7♥ place.",
    )
    if r.lay_off:
        text += para(
            "Your choice matters to the others: a run's wild card keeps the place you gave it, "
            "so nobody can lay off the card it stands for. In a set a wild card stands for the "
            "rank only; its suit is whatever keeps the set valid, so it may change when a card "
            "is laid off onto the set"
            + (
                ": Q♠ may join Q♣ Q♦ JK, the joker then standing for Q♥."
                if r.set_distinct_suits
                else "."
            )
        )
    return text


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


def final_turns_text(r: Ruleset) -> str:
    source = (
        "the stock only (not the discard pile)"
        if tuple(r.final_turn_draw) == ("stock",)
        else " or ".join(
            "the stock" if s == "stock" else "the discard pile" for s in r.final_turn_draw
        )
    )
    return para(
        "When someone goes out the hand is nearly over: every other player, in order from "
        "the declarer's left, takes one final turn.",
        f"A final turn is a draw from {source}, then a discard. Nobody else may go out.",
    )


# --- 12. showing hands and lay-offs -------------------------------------------------------


def lay_offs_text(r: Ruleset) -> str:
    if not r.lay_off:
        return para(
            "After the final turns everyone shows their hand and scores the deadwood left "
            "after making their best melds.",
            f"{sentence(rules_words(r))[:-1]} have no lay-offs: you may not add your cards to the "
            "declarer's melds.",
        )
    return (
        para(
            "After the final turns everyone shows their hand. Then, one at a time from the "
            "declarer's left, each player may lay off cards: add them to the declarer's melds "
            "when the grown meld is still valid.",
            "A set takes another card of its rank (or a wild card); a run takes the next card of "
            "its suit at either end, or a wild card standing for it. Cards may be chained: 8♥ "
            "then 9♥ onto 5♥ 6♥ 7♥.",
            "A wild card already in a meld keeps its place: you cannot swap it out. You never "
            "lay off onto anyone but the declarer, and each player lays off onto the melds as "
            "the players before left them.",
        )
        + para(grown_meld_limits(r))
        + para(
            "Cards you cannot meld or lay off are your deadwood. You may even take a card out "
            "of one of your own melds to lay it off, when that leaves you fewer points."
        )
    )


def grown_meld_limits(r: Ruleset) -> str:
    """What a grown meld must still obey under ``r`` (set sizes, suits, wild limits)."""
    limits = ask.meld_limits(r)
    if not limits:
        return (
            f"A grown meld is any meld valid under {rules_words(r)}: sets have no upper size and "
            "wild cards no limit."
        )
    return f"A grown meld must still be a meld valid under {rules_words(r)}: {and_list(limits)}."


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
                lambda: ask.lay_off_in_turn(
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
                lambda: ask.lay_off_in_turn(
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


def penalty_text(r: Ruleset) -> str:
    wild_rank = (
        "A card of the round wild rank left in your deadwood scores as a wild card."
        if r.wild_points is not None
        else "A card of the round wild rank left in your deadwood scores by its rank, like "
        "any other card."
    )
    return para(
        "Each card in your deadwood costs penalty points; the table below comes from "
        f"{rules_words(r)}. The player who went out scores 0.",
        wild_rank,
    )


def penalty_example(r: Ruleset) -> str:
    rows = []
    for rank in range(1, 14):
        card = Card.regular(rank, "C")
        note = " (wild: every 2)" if r.twos_wild and rank == 2 else ""
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


def stock_out_text(r: Ruleset) -> str:
    return para(
        "If the stock is empty when you must draw, the discard pile except its top card is "
        "shuffled to make a new stock (the sources say little here; this is our reading).",
        "If no card can be drawn at all, the hand ends with nobody out: everyone scores "
        "their deadwood and nobody lays off.",
    )


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


def winning_text(r: Ruleset) -> str:
    return para(
        f"After {r.hands} hands each player's penalty points are added up. The lowest total "
        "wins; players tied on the lowest total share the win.",
        "Below is a whole game the engine played between bots, hand by hand. Who won?",
    )


def _seat_head(players: int) -> tuple[str, ...]:
    return tuple(f"seat {s}" for s in range(players))


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
    rows.append(("in all", *(f"{v:+d}¢" for v in g.money)))
    won = " and ".join(f"seat {s}" for s in g.winners())
    return para(
        f"The money of the same {g.players}-player game, settled by the engine: "
        f"{won} won with the lowest total and took the pot."
    ) + table_html(("", *_seat_head(g.players)), rows)


def money_text(r: Ruleset) -> str:
    if r.money is None:
        return para(
            f"Under {rules_words(r)} the game is played for points only: no money changes hands."
        )
    m = r.money
    return para(
        f"Under {rules_words(r)} the game is played for money. Before the game each "
        f"player puts {m.ante}¢ into "
        "the pot.",
        f"In every hand the player who goes out collects {m.per_hand}¢ from each other player.",
        "At the end the winner takes the pot; tied winners split it (our reading).",
    ) + para(
        "Below, the engine settles the money of a real game: the antes, each hand's payments "
        "and the pot. The questions add one hand's payments and a pot split between tied "
        "winners."
    )


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


def tactics_text(r: Ruleset) -> str:
    text = para(
        "Knowing the rules is half the game. Three habits win the other half.",
    ) + bullets(
        [
            "Among discards that leave the same points, keep the cards that give you more "
            "ways to go out, and throw the one the next player can least use. 7♥ 8♥ wait for "
            "6♥, 9♥ or a wild card; a lone K♦ waits for nothing. A card of a rank or a suit "
            "the next player has just taken from the pile is the one not to give them.",
            "Go out as soon as you can. Going out scores you 0, the lowest score there is, "
            "and everybody else scores what they hold; every turn you wait lets the others "
            "lower their deadwood or go out first.",
            "When you cannot go out yet, watch the table: early in a hand keep pairs and "
            "near-runs (more ways to go out); once someone looks close (they take from the "
            "discard pile, their hand grows quiet), throw your highest cards first to lower "
            "the score you would be caught with.",
        ]
    )
    if "discard" in r.final_turn_draw:
        text += para(
            f"Under {rules_words(r)} the final turns may draw from the discard pile, so the "
            "card you discard when you go out can help the next player: discard the card "
            "the others can least use."
        )
    return text


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


PAY_ME_STEPS: tuple[Step, ...] = (
    Step(
        "cards", "Cards and how we write them", "yes_no", cards_text, cards_questions, cards_example
    ),
    Step(
        "goal",
        "The goal: 11 hands, fewest points",
        "number",
        goal_text,
        goal_questions,
        goal_example,
    ),
    Step("packs", "Players and packs", "number", packs_text, packs_questions, packs_example),
    Step(
        "deal",
        "The deal and the round wild rank",
        "choice",
        deal_text,
        deal_questions,
        deal_example,
    ),
    Step("sets", "Melds: sets", "yes_no", sets_text, sets_questions, sets_example),
    Step("runs", "Melds: runs", "yes_no", runs_text, runs_questions, runs_example),
    Step("wilds", "Wild cards", "yes_no", wilds_text, wilds_questions, wilds_example),
    Step("wild_limits", "Limits on wild cards", "yes_no", wild_limits_text, wild_limits_questions),
    Step("same_rank", "Two melds of the same rank", "number", same_rank_text, same_rank_questions),
    Step(
        "turn",
        "A turn: draw, then discard",
        "yes_no",
        turn_text,
        game_questions.turn_questions,
        demo="turn",
    ),
    Step("going_out", "Going out: “Pay me!”", "choice", going_out_text, going_out_questions),
    Step(
        "arrangement",
        "Laying out your melds: your choice",
        "choice",
        arrangement_text,
        arrangement_questions,
        arrangement_example,
    ),
    Step(
        "final_turns",
        "Final turns",
        "yes_no",
        final_turns_text,
        game_questions.final_turn_questions,
    ),
    Step("lay_offs", "Showing hands and laying off", "cards", lay_offs_text, lay_offs_questions),
    Step("penalty", "Penalty points", "number", penalty_text, penalty_questions, penalty_example),
    Step("stock_out", "When the stock runs out", "yes_no", stock_out_text, stock_out_questions),
    Step(
        "winning",
        "Winning the game",
        "choice",
        winning_text,
        game_questions.winner_questions,
        winning_example,
    ),
    Step("money", "Playing for money", "number", money_text, money_questions, money_example),
    Step("tactics", "A first lesson in tactics", "choice", tactics_text, tactics_questions),
)

__all__ = ["PAY_ME_STEPS", "bullets"]
