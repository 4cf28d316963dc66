"""Which tutorial steps teach each rule of RULES.md.

:data:`COVERAGE` pairs every rule of RULES.md (its section, and the opening words of its
bullet, table row or paragraph) with the tutorial steps that teach it, as
``"pay_me:<step key>"`` or ``"three_pack:<step key>"``.  :func:`rule_items` reads the rule
items out of RULES.md, so a test can check that none is left without a step and that no
entry here names a rule or a step that does not exist.

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
    ("Cards and notation", "JK", ("pay_me:cards", "pay_me:wilds")),
    ("Cards and notation", "RUMMY WILD GROUP SEQ NOMELD NOGO", ("three_pack:pack",)),
    ("Cards and notation", "Input is case-insensitive", ("pay_me:cards",)),
    ("Cards and notation", "Rank numbers", ("pay_me:cards", "pay_me:deal")),
    ("Cards and notation", "With several decks", ("pay_me:packs", "pay_me:same_rank")),
    ("Cards and notation", "Bad input is an error", ("pay_me:cards", "three_pack:pack")),
    # Pay Me: shared rules
    (_PM, "A game is 11 hands", ("pay_me:goal",)),
    (_PM, "Round wild rank", ("pay_me:deal",)),
    (_PM, "The deal passes to the left", ("pay_me:deal", "pay_me:turn")),
    (_PM, "A turn", ("pay_me:turn", "pay_me:going_out")),
    (_PM, "After someone goes out", ("pay_me:final_turns", "pay_me:lay_offs",
                                     "pay_me:penalty")),
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
    ("Lay-offs", "The declarer's melds are fixed as laid down", ("pay_me:lay_offs",)),
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
    (_FINE, "three_pack: RUMMY never joins other cards", ("three_pack:rummy",
                                                          "three_pack:melds",
                                                          "three_pack:going_out")),
    (_FINE, "When hand evaluation does not know the player count", ("pay_me:packs",
                                                                    "three_pack:pack")),
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


def unused(
    items: Sequence[tuple[str, str]], coverage: Sequence[Entry] = COVERAGE
) -> list[Entry]:
    """Coverage entries that name no item (a stale entry after RULES.md changed)."""
    return [
        entry
        for entry in coverage
        if not any(s == entry[0] and t.startswith(entry[1]) for s, t in items)
    ]


__all__ = ["COVERAGE", "SECTIONS", "rule_items", "uncovered", "unused"]
