"""Which tutorial steps teach each rule of RULES.md.

:data:`COVERAGE` pairs every rule of RULES.md (its section, and the opening words of its
bullet, table row or paragraph) with the tutorial steps that teach it, as
``"pay_me:<step key>"`` or ``"three_pack:<step key>"``.  :func:`rule_items` reads the rule
items out of RULES.md, so a test can check that none is left without a step and that no
entry here names a rule or a step that does not exist.  :data:`CHECKS` names, for every
rule, the engine-graded questions that check it (a marker found in a question's prompt or
caption under a given rule set), so a test can check that no rule is taught by text alone.

>>> items = rule_items("## Melds\\n\\n- **Set**: cards of one rank.\\n| a | b |\\n| --- | --- |\\n| x | y |\\n")
>>> items
[('Melds', 'Set: cards of one rank.'), ('Melds', 'x')]
>>> uncovered(items, [("Melds", "Set:", ("pay_me:sets",))])
[('Melds', 'x')]
"""  # noqa: E501

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

SECTIONS: tuple[str, ...] = (
    "Cards and notation",
    "Pay Me: what the three Pay Me rule sets share",
    "Melds",
    "The three rule sets",
    "Lay-offs",
    "Hand evaluation (the analyser's core)",
    "Rummy 3-Pack — rule set three_pack (rummy-3-pack.txt)",
    "Fine points (each follows from the rules above; stated so nobody has to guess)",
)
"""The sections of RULES.md whose rules the tutorials teach (markdown stripped)."""

Entry = tuple[str, str, tuple[str, ...]]

_PM = "Pay Me: what the three Pay Me rule sets share"
_TABLE = "The three rule sets"
_HAND = "Hand evaluation (the analyser's core)"
_R3 = "Rummy 3-Pack — rule set three_pack (rummy-3-pack.txt)"
_FINE = "Fine points (each follows from the rules above; stated so nobody has to guess)"

COVERAGE: tuple[Entry, ...] = (
    # Cards and notation
    ("Cards and notation", "rank + suit", ("pay_me:cards",)),
    ("Cards and notation", "JK", ("pay_me:cards", "pay_me:deal", "pay_me:wilds")),
    ("Cards and notation", "RUMMY WILD GROUP SEQ NOMELD NOGO", ("three_pack:pack",)),
    ("Cards and notation", "Input is case-insensitive", ("pay_me:cards",)),
    ("Cards and notation", "Rank numbers", ("pay_me:cards", "pay_me:deal")),
    (
        "Cards and notation",
        "With several decks",
        ("pay_me:cards", "pay_me:packs", "pay_me:same_rank"),
    ),
    ("Cards and notation", "Bad input is an error", ("pay_me:cards", "three_pack:pack")),
    # Pay Me: shared rules
    (_PM, "A game is 11 hands", ("pay_me:goal",)),
    (_PM, "Round wild rank", ("pay_me:deal",)),
    (_PM, "The deal passes to the left", ("pay_me:deal", "pay_me:turn")),
    (_PM, "A turn", ("pay_me:turn", "pay_me:going_out", "pay_me:tactics")),
    (
        _PM,
        "After someone goes out",
        ("pay_me:final_turns", "pay_me:lay_offs", "pay_me:penalty", "pay_me:winning"),
    ),
    (_PM, "After 11 hands the lowest total wins", ("pay_me:winning",)),
    (_PM, "Stock runs out", ("pay_me:stock_out",)),
    # Melds
    ("Melds", "Set: cards of one rank", ("pay_me:sets", "pay_me:runs")),
    ("Melds", "Ace is low in Pay Me", ("pay_me:runs",)),
    ("Melds", "A wild card may stand for any card", ("pay_me:wilds",)),
    ("Melds", "A player may hold two separate melds", ("pay_me:same_rank",)),
    # The three rule sets (table rows, then the note under the table)
    (_TABLE, "players", ("pay_me:packs",)),
    (_TABLE, "packs", ("pay_me:packs",)),
    (_TABLE, "wild cards", ("pay_me:deal", "pay_me:wilds")),
    (_TABLE, "sets", ("pay_me:sets",)),
    (_TABLE, "runs", ("pay_me:runs",)),
    (_TABLE, "wild limits", ("pay_me:wild_limits",)),
    (_TABLE, "going out", ("pay_me:going_out",)),
    (_TABLE, "final turn draws from", ("pay_me:final_turns",)),
    (_TABLE, "lay off onto the declarer's melds", ("pay_me:lay_offs",)),
    (_TABLE, "penalty points", ("pay_me:penalty",)),
    (_TABLE, "money", ("pay_me:money",)),
    (_TABLE, "In classic and family a card of the round wild rank", ("pay_me:penalty",)),
    # Lay-offs
    (
        "Lay-offs",
        "When going out, the declarer lays the hand out",
        ("pay_me:arrangement", "pay_me:lay_offs"),
    ),
    # Hand evaluation
    (_HAND, "For a hand, a rule set and the number of cards dealt", ("pay_me:deal",)),
    (_HAND, "Best layout", ("pay_me:same_rank", "pay_me:goal")),
    (_HAND, "Can go out", ("pay_me:going_out", "three_pack:going_out")),
    (_HAND, "Best lay-off", ("pay_me:lay_offs",)),
    # Rummy 3-Pack
    (_R3, "A different rummy game with no points", ("three_pack:players", "three_pack:winners")),
    (_R3, "Pack:", ("three_pack:pack",)),
    (_R3, "Players 2–10", ("three_pack:players",)),
    (_R3, "First dealer", ("three_pack:first_dealer",)),
    (_R3, "No upcard", ("three_pack:no_upcard",)),
    (_R3, "The stock is never counted", ("three_pack:no_upcard",)),
    (_R3, "A turn", ("three_pack:turn", "three_pack:going_out")),
    (_R3, "Melds: a group", ("three_pack:melds",)),
    (_R3, "WILD stands for any regular card", ("three_pack:wilds",)),
    (_R3, "RUMMY counts as a meld by itself", ("three_pack:rummy",)),
    (_R3, "NOMELD and NOGO can never be melded", ("three_pack:nomeld_nogo",)),
    (_R3, "Going out:", ("three_pack:going_out",)),
    (_R3, "Winners", ("three_pack:winners",)),
    (_R3, "Stock exhausted", ("three_pack:stock",)),
    (_R3, "Dropping out", ("three_pack:drop_out",)),
    (_R3, "Match:", ("three_pack:match",)),
    (_R3, "Variations", ("three_pack:variations",)),
    (_R3, "Hand evaluation in three_pack counts unmelded cards", ("three_pack:going_out",)),
    # Fine points
    (_FINE, "A wild card may stand for a card that is not in the pack", ("pay_me:wilds",)),
    (_FINE, "Where a rule set has no wild limits", ("pay_me:wild_limits", "pay_me:sets")),
    (_FINE, "In denexa a card counts as wild in a meld only", ("pay_me:wild_limits",)),
    (_FINE, "In denexa penalty points, a wild card is 15", ("pay_me:penalty",)),
    (
        _FINE,
        "three_pack: RUMMY never joins other cards",
        ("three_pack:rummy", "three_pack:melds", "three_pack:going_out"),
    ),
    (
        _FINE,
        "When hand evaluation does not know the player count",
        ("pay_me:packs", "three_pack:pack"),
    ),
)


Check = tuple[str, str, tuple[tuple[str, str, str], ...]]
"""``(section, opening words, ((rule set, step key, marker), ...))``."""

CHECKS: tuple[Check, ...] = (
    # For every rule of COVERAGE, the questions that check it: a question of that step,
    # under that rule set, whose prompt or caption contains the marker.  The engine grades
    # each one, so no rule is taught by text alone.
    (
        "Cards and notation",
        "rank + suit",
        (("denexa", "cards", "What rank number does the jack of spades"),),
    ),
    ("Cards and notation", "JK", (("denexa", "deal", "is the joker (JK) a wild card"),)),
    (
        "Cards and notation",
        "RUMMY WILD GROUP SEQ NOMELD NOGO",
        (("three_pack", "pack", "How many WILD cards"),),
    ),
    (
        "Cards and notation",
        "Input is case-insensitive",
        (("denexa", "cards", "Is 'kc' a way to write a card"),),
    ),
    (
        "Cards and notation",
        "Rank numbers",
        (("denexa", "cards", "What rank number does the queen"),),
    ),
    (
        "Cards and notation",
        "With several decks",
        (("denexa", "cards", "may one hand hold two 7H"),),
    ),
    (
        "Cards and notation",
        "Bad input is an error",
        (
            ("denexa", "cards", "Is '1X' a way to write a card"),
            ("three_pack", "pack", "Is there a joker in the pack"),
        ),
    ),
    (
        _PM,
        "A game is 11 hands",
        (
            ("denexa", "goal", "How many hands does a game"),
            ("denexa", "goal", "How many cards is each player dealt in hand 6"),
        ),
    ),
    (_PM, "Round wild rank", (("denexa", "deal", "round wild rank in hand 9"),)),
    (
        _PM,
        "The deal passes to the left",
        (
            ("denexa", "deal", "Who deals hand 2"),
            ("denexa", "deal", "Who plays first in hand 2"),
            ("denexa", "turn", "Is a card already face up"),
        ),
    ),
    (
        _PM,
        "A turn",
        (
            ("denexa", "turn", "May you draw another card"),
            ("denexa", "turn", "Whose turn is it now"),
        ),
    ),
    (
        _PM,
        "After someone goes out",
        (
            ("denexa", "final_turns", "Who takes the first final turn"),
            ("denexa", "winning", "How many points did"),
        ),
    ),
    (
        _PM,
        "After 11 hands the lowest total wins",
        (
            ("denexa", "winning", "After 11 hands the totals are"),
            ("denexa", "winning", "cut to a one-hand game"),
        ),
    ),
    (
        _PM,
        "Stock runs out",
        (
            ("denexa", "stock_out", "shuffled into a new stock"),
            ("denexa", "stock_out", "the last card of the stock"),
            ("denexa", "stock_out", "Who is the declarer of this hand"),
            ("classic", "stock_out", "hand ends with no card drawn"),
            ("family", "stock_out", "hand ends with no card drawn"),
        ),
    ),
    (
        "Melds",
        "Set: cards of one rank",
        (("denexa", "sets", "8S 8H 8D"), ("denexa", "runs", "4H 5H 6H 7H")),
    ),
    (
        "Melds",
        "Ace is low in Pay Me",
        (("denexa", "runs", "QH KH AH"), ("denexa", "runs", "KH AH 2H")),
    ),
    (
        "Melds",
        "A wild card may stand for any card",
        (("denexa", "wilds", "7H 7S 7D"), ("denexa", "wilds", "5H JK 7H")),
    ),
    (
        "Melds",
        "A player may hold two separate melds",
        (("denexa", "same_rank", "9S 9H 9D 9S 9H 9C"),),
    ),
    (_TABLE, "players", (("denexa", "packs", "May 9 people play"),)),
    (_TABLE, "packs", (("classic", "packs", "packs are shuffled together for 6 players"),)),
    (_TABLE, "wild cards", (("denexa", "deal", "is the two of clubs (2C) a wild card"),)),
    (_TABLE, "sets", (("denexa", "sets", "8S 8H 8D 8C 8S"),)),
    (_TABLE, "runs", (("denexa", "runs", "7C 8C"),)),
    (
        _TABLE,
        "wild limits",
        (("denexa", "wild_limits", "5H JK JK 8H"), ("denexa", "wild_limits", "JK JK QC")),
    ),
    (_TABLE, "going out", (("family", "going_out", "5H 6H 7H 8H 9H"),)),
    (_TABLE, "final turn draws from", (("family", "final_turns", "from the discard pile"),)),
    (_TABLE, "lay off onto the declarer's melds", (("classic", "lay_offs", "8H 9H KD"),)),
    (
        _TABLE,
        "penalty points",
        (("denexa", "penalty", "AH 5D JK"), ("family", "penalty", "AH 5D JK")),
    ),
    (
        _TABLE,
        "money",
        (
            ("family", "money", "how many cents are in the pot"),
            ("family", "money", "share the win"),
        ),
    ),
    (
        _TABLE,
        "In classic and family a card of the round wild rank",
        (("family", "penalty", "how many points does a 9♥ left"),),
    ),
    (
        "Lay-offs",
        "When going out, the declarer lays the hand out",
        (
            ("denexa", "arrangement", "lay down a run as JK 5H 6H"),
            ("family", "arrangement", "lay down a run as 5H 6H JK"),
            ("denexa", "arrangement", "your hand: 7H 4H KC"),
            ("denexa", "arrangement", "your hand: QS 3D"),
            ("denexa", "lay_offs", "6H 4H KC"),
            ("denexa", "lay_offs", "QS QS 3D"),
            ("denexa", "lay_offs", "JK 3D"),
            ("denexa", "lay_offs", "lays off first"),
        ),
    ),
    (
        _HAND,
        "For a hand, a rule set and the number of cards dealt",
        (("denexa", "deal", "In hand 7, is the nine"),),
    ),
    (_HAND, "Best layout", (("denexa", "same_rank", "5H 6H 7H 5H 6H 7H"),)),
    (
        _HAND,
        "Can go out",
        (("denexa", "going_out", "5H 6H 7H KS QD"), ("three_pack", "going_out", "QS RUMMY")),
    ),
    (_HAND, "Best lay-off", (("denexa", "lay_offs", "8H 9H TH 9S 9D"),)),
    (_R3, "A different rummy game with no points", (("three_pack", "winners", "Who won"),)),
    (_R3, "Pack:", (("three_pack", "pack", "How many cards are in the pack"),)),
    (
        _R3,
        "Players 2–10",
        (
            ("three_pack", "players", "May 11 people"),
            ("three_pack", "players", "deal 12 cards each"),
        ),
    ),
    (
        _R3,
        "First dealer",
        (
            ("three_pack", "first_dealer", "Identical cards get another card"),
            ("three_pack", "first_dealer", "vs 9♥"),
            ("three_pack", "first_dealer", "receives the first card dealt"),
            ("three_pack", "first_dealer", "receives card number"),
        ),
    ),
    (
        _R3,
        "No upcard",
        (
            ("three_pack", "no_upcard", "Is a card face up on the discard pile"),
            ("three_pack", "no_upcard", "Who draws first"),
        ),
    ),
    (
        _R3,
        "The stock is never counted",
        (("three_pack", "no_upcard", "May you count the stock"),),
    ),
    (_R3, "A turn", (("three_pack", "turn", "May you draw a second card"),)),
    (
        _R3,
        "Melds: a group",
        (("three_pack", "melds", "KH AH 2H"), ("three_pack", "melds", "7H 7S 8H")),
    ),
    (
        _R3,
        "WILD stands for any regular card",
        (("three_pack", "wilds", "GROUP SEQ 7H"), ("three_pack", "wilds", "WILD WILD WILD")),
    ),
    (
        _R3,
        "RUMMY counts as a meld by itself",
        (
            ("three_pack", "rummy", "down both RUMMY cards. Who has won"),
            ("three_pack", "rummy", "7H RUMMY 9H"),
        ),
    ),
    (
        _R3,
        "NOMELD and NOGO can never be melded",
        (
            ("three_pack", "nomeld_nogo", "hold a NOGO"),
            ("three_pack", "nomeld_nogo", "NOMELD 7H 7S"),
        ),
    ),
    (_R3, "Going out:", (("three_pack", "going_out", "NOGO RUMMY"),)),
    (_R3, "Winners", (("three_pack", "winners", "held a RUMMY card"),)),
    (
        _R3,
        "Stock exhausted",
        (("three_pack", "stock", "last chance"), ("three_pack", "stock", "Is the game over now")),
    ),
    (_R3, "Dropping out", (("three_pack", "drop_out", "drop out now"),)),
    (
        _R3,
        "Match:",
        (
            ("three_pack", "match", "Who plays the next game"),
            ("three_pack", "match", "Who plays first in game 2"),
            ("three_pack", "match", "agrees to call it a tie game"),
        ),
    ),
    (
        _R3,
        "Variations",
        (
            ("three_pack", "variations", "Go Out is on"),
            ("three_pack", "variations", "Three-Card Draw is on, the discard pile"),
            ("three_pack", "variations", "Spread-Out Discard Pile is on"),
            ("three_pack", "variations", "Seating variation"),
            ("three_pack", "variations", "seven piles"),
        ),
    ),
    (
        _R3,
        "Hand evaluation in three_pack counts unmelded cards",
        (("three_pack", "going_out", "how many of these cards are left unmelded"),),
    ),
    (
        _FINE,
        "A wild card may stand for a card that is not in the pack",
        (("denexa", "wilds", "7H 7H 7S"),),
    ),
    (
        _FINE,
        "Where a rule set has no wild limits",
        (("classic", "wild_limits", "JK JK JK"), ("classic", "sets", "8S 8H 8D 8C 8S")),
    ),
    (
        _FINE,
        "In denexa a card counts as wild in a meld only",
        (("denexa", "wild_limits", "9C JK 9D"),),
    ),
    (_FINE, "In denexa penalty points, a wild card is 15", (("denexa", "penalty", "2D 8S KH"),)),
    (
        _FINE,
        "three_pack: RUMMY never joins other cards",
        (
            ("three_pack", "rummy", "RUMMY 7S 7H 7D"),
            ("three_pack", "melds", "AH 2H 3H 4H"),
            ("three_pack", "going_out", "NOMELD RUMMY"),
        ),
    ),
    (
        _FINE,
        "When hand evaluation does not know the player count",
        (("denexa", "packs", "three 7H"),),
    ),
)


def _plain(text: str) -> str:
    """Markdown emphasis and code marks removed, spaces squeezed."""
    text = re.sub(r"[*`]", "", text)
    return re.sub(r"\s+", " ", text).strip()


def rule_items(markdown: str) -> list[tuple[str, str]]:
    """``(section, text)`` for every bullet, table row and paragraph of RULES.md.

    A table's header and separator rows are skipped; a row's text is its first cell.
    Continuation lines of a bullet or paragraph are not separate items.
    """
    items: list[tuple[str, str]] = []
    section = ""
    in_table = False
    previous_blank = True
    for raw in markdown.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            previous_blank, in_table = True, False
            continue
        if stripped.startswith("#"):
            section = _plain(stripped.lstrip("#"))
        elif stripped.startswith("|"):
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if not in_table:
                in_table = True  # the header row
            elif not set(cells[0]) <= set("-: "):
                items.append((section, _plain(cells[0])))
        elif stripped.startswith("- "):
            items.append((section, _plain(stripped[2:])))
        elif previous_blank and not line.startswith(" "):
            items.append((section, _plain(stripped)))
        previous_blank = False
    return items


def uncovered(
    items: Iterable[tuple[str, str]], coverage: Sequence[Entry] = COVERAGE
) -> list[tuple[str, str]]:
    """The items no coverage entry names (same section, text starting with its words)."""
    return [
        (section, text)
        for section, text in items
        if not any(s == section and text.startswith(words) for s, words, _ in coverage)
    ]


def unused(items: Sequence[tuple[str, str]], coverage: Sequence[Entry] = COVERAGE) -> list[Entry]:
    """Coverage entries that name no item (a stale entry after RULES.md changed)."""
    return [
        entry
        for entry in coverage
        if not any(s == entry[0] and t.startswith(entry[1]) for s, t in items)
    ]


__all__ = ["CHECKS", "COVERAGE", "SECTIONS", "rule_items", "uncovered", "unused"]
