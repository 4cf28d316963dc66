"""Hands, melds and layouts as HTML fragments of inline SVG cards.

The engine's result objects are read by duck typing (``meld.kind``, ``meld.cards``,
``meld.stands_for``; ``evaluation.melds``, ``.deadwood``, ``.deadwood_points``, ``.rules``;
``layoff.melds``, ``.lay_offs``, ``.deadwood``; ``go_out.ok``, ``.discards``), so this module
imports no engine module but :mod:`payme.cards`.  Every group carries a label in words as
well as its outline: meld boxes are captioned "Set of sevens" / "Run 5♥–7♥", deadwood sits under
"Deadwood: 23 points" inside a dashed outline.

>>> from payme.cards import parse_hand
>>> html = hand_html(parse_hand("7H 8H JK"), marks=[None, None, "wild"], caption="My hand")
>>> html.count('role="img"'), "My hand" in html
(3, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any, Final

from payme.cards import Card, parse_card
from payme.display.svg import CARD_RED, DEADWOOD_TEXT, MELD_LINE, MELD_TEXT, MUTED, card_svg
from payme.words import SUIT_MARKS, amount, counts_cards, rank_label, rank_plural, short_label

# A picture of cards carries its own look, as an SVG card does (it is shown where the style
# sheet is not: a notebook's output), in the palette's colours (payme.display.svg's constants,
# which tests/test_styles.py compares with payme.css's tokens).
_ROW: Final = (
    "display:flex;flex-wrap:wrap;gap:4px;align-items:flex-end;max-width:100%;box-sizing:border-box"
)
# 16 px: the app's smallest text size (docs/design.md), so captions read on a phone too.
_CAPTION: Final = "font:600 16px/1.3 system-ui,'DejaVu Sans',sans-serif;margin:0 0 4px 0"
# Cards that are wild by their nature (not by rank), in every rule set that uses them.
_ALWAYS_WILD: Final = frozenset({"JK", "WILD", "GROUP", "SEQ"})


def _as_card(value: Any) -> Card | None:
    if value is None or isinstance(value, Card):
        return value
    if isinstance(value, str):
        return parse_card(value)
    return None


def _cards(cards: Iterable[Any]) -> list[Card]:
    out = []
    for c in cards:
        card = _as_card(c)
        if card is None:
            raise TypeError(f"expected a card, got {c!r}")
        out.append(card)
    return out


def hand_html(
    cards: Iterable[Card | str],
    *,
    marks: Sequence[str | None] | None = None,
    caption: str | None = None,
    stands_for: Sequence[Card | None] | None = None,
    width: int = 60,
    any_suit: bool = False,
) -> str:
    """A row of cards that wraps on narrow screens, with an optional caption.

    ``marks`` and ``stands_for``, when given, hold one entry per card (see :func:`card_svg`);
    ``any_suit``: the cards are a set's, whose wild cards stand for a rank in any suit.

    >>> hand_html(["7H"], marks=[None, None])
    Traceback (most recent call last):
    ...
    ValueError: marks has 2 entries for 1 cards: give one per card
    """
    hand = _cards(cards)
    for name, extra in (("marks", marks), ("stands_for", stands_for)):
        if extra is not None and len(extra) != len(hand):
            raise ValueError(
                f"{name} has {len(extra)} entries for {len(hand)} cards: give one per card"
            )
    svgs = [
        card_svg(
            card,
            mark=marks[i] if marks is not None else None,
            stands_for=stands_for[i] if stands_for is not None else None,
            width=width,
            any_suit=any_suit,
        )
        for i, card in enumerate(hand)
    ]
    body = "".join(svgs) if svgs else f'<span style="color:{MUTED}">(no cards)</span>'
    row = f'<div class="payme-cards" style="{_ROW}">{body}</div>'
    if caption is None:
        return f'<div class="payme-hand" style="max-width:100%">{row}</div>'
    return (
        f'<figure class="payme-hand" style="margin:4px 0;max-width:100%">'
        f'<figcaption style="{_CAPTION}">{escape(caption)}</figcaption>{row}</figure>'
    )


# --- melds ------------------------------------------------------------------------------


def meld_kind(meld: Any) -> str:
    """``"set"``, ``"run"`` or ``"single"`` (a card that is a meld by itself, like RUMMY)."""
    kind = str(getattr(meld, "kind", "")).lower()
    if "set" in kind or "group" in kind:
        return "set"
    if "run" in kind or "seq" in kind:
        return "run"
    return "single" if len(tuple(meld.cards)) == 1 else kind or "meld"


def stand_ins(meld: Any) -> list[Card | None]:
    """What each card of ``meld`` stands for (``None``: the engine did not say).

    Accepts ``stands_for`` as one entry per card, as ``(card, stand-in)`` pairs, or as a
    mapping from position or card to stand-in.
    """
    cards = _cards(meld.cards)
    raw = getattr(meld, "stands_for", None)
    out: list[Card | None] = [None] * len(cards)
    if raw is None:
        return out
    if isinstance(raw, dict):
        pairs = list(raw.items())
    else:
        items = list(raw)
        if len(items) == len(cards) and all(x is None or isinstance(x, Card | str) for x in items):
            return [_as_card(x) for x in items]
        pairs = [tuple(x) for x in items]
    used: set[int] = set()
    for key, value in pairs:
        if isinstance(key, int) and 0 <= key < len(cards):
            out[key] = _as_card(value)
            used.add(key)
            continue
        key_card = _as_card(key)
        for i, card in enumerate(cards):
            if i not in used and card == key_card:
                out[i] = _as_card(value)
                used.add(i)
                break
    return out


def _is_wild_here(card: Card, stand: Card | None) -> bool:
    if stand is not None:
        return stand != card
    return card.token in _ALWAYS_WILD


def meld_label(meld: Any, rules: Any = None) -> str:
    """The meld in words: ``"Set of sevens"``, ``"Run 5♥–7♥"``; Rummy 3-Pack's words
    (``"Group of kings"``, ``"Sequence …"``) when ``rules`` is that game's."""
    cards = _cards(meld.cards)
    stands = stand_ins(meld)
    kind_word = str(getattr(meld, "kind", "")).lower()
    set_word, run_word = rules.meld_words if rules is not None else ("set", "run")
    if "group" in kind_word:
        set_word = "group"
    if "seq" in kind_word:
        run_word = "sequence"
    kind = meld_kind(meld)
    shown = [s if s is not None else c for c, s in zip(cards, stands, strict=True)]
    regular = [c for c in shown if c.rank is not None]
    if kind == "set":
        word = set_word.capitalize()
        set_ranks = {c.rank for c in regular}
        if len(set_ranks) == 1:
            (rank,) = set_ranks
            assert rank is not None
            return f"{word} of {rank_plural(rank)}"
        return f"{word} of wild cards" if not regular else word
    if kind == "run":
        word = run_word.capitalize()
        if not regular:
            return f"{word} of wild cards"
        ranks = [c.rank or 0 for c in regular]
        # An ace above a king is a high ace (Q-K-A in Rummy 3-Pack).
        if 1 in ranks and 13 in ranks and 2 not in ranks:
            ranks = [14 if r == 1 else r for r in ranks]
        suit = regular[0].suit or ""
        lo, hi = min(ranks), max(ranks)
        # Wild cards without a stand-in sit at an end we cannot know: count them in.
        span = len(cards) - 1
        if hi - lo < span:
            hi = min(lo + span, 14)
        sym = SUIT_MARKS.get(suit, "")
        return f"{word} {rank_label((lo - 1) % 13 + 1)}{sym}–{rank_label((hi - 1) % 13 + 1)}{sym}"
    if kind == "single":
        return f"{cards[0].token}: a meld by itself"
    return kind.capitalize()


def meld_html(
    meld: Any,
    *,
    width: int = 60,
    caption: str | None = None,
    rules: Any = None,
    laid_off: Iterable[Card] = (),
) -> str:
    """A meld in a labelled box; each wild card is tagged with what it stands for.

    >>> from types import SimpleNamespace
    >>> from payme.cards import parse_hand
    >>> m = SimpleNamespace(kind="run", cards=parse_hand("5H JK 7H"),
    ...                     stands_for=(None, parse_card("6H"), None))
    >>> html = meld_html(m)
    >>> "Run 5♥\ufe0e–7♥\ufe0e" in html, "joker, wild, stands for six of hearts" in html
    (True, True)
    """
    cards = _cards(meld.cards)
    stands = stand_ins(meld)
    marks: list[str | None] = [
        "wild" if _is_wild_here(c, s) else "meld" for c, s in zip(cards, stands, strict=True)
    ]
    # Cards laid off onto this meld get their own mark (a wild one keeps its WILD tag).
    added = list(laid_off)
    for i in reversed(range(len(cards))):
        if cards[i] in added and marks[i] != "wild":
            added.remove(cards[i])
            marks[i] = "laid_off"
    # Natural cards need no "stands for itself" in their title.
    shown = [s if s is not None and s != c else None for c, s in zip(cards, stands, strict=True)]
    label = caption if caption is not None else meld_label(meld, rules)
    # A set's wild card stands for its rank, in whatever suit keeps the set valid: its tag
    # names no suit ("WILD→any Q"), so a Q♠ laid off later does not seem to take its place.
    row = hand_html(
        cards, marks=marks, stands_for=shown, width=width, any_suit=meld_kind(meld) == "set"
    )
    return (
        f'<figure class="payme-meld" role="group" aria-label="{escape(label)}" '
        f'style="margin:0;padding:4px 6px 6px;border:2px solid {MELD_LINE};border-radius:8px;'
        f'width:fit-content;max-width:100%;box-sizing:border-box">'
        f'<figcaption style="{_CAPTION};color:{MELD_TEXT}">{escape(label)}</figcaption>'
        f"{row}</figure>"
    )


# --- layouts, lay-offs, going out --------------------------------------------------------


def _counts_cards(rules: Any) -> bool:
    """Whether hand evaluation counts unmelded cards (Rummy 3-Pack) instead of points."""
    return rules is not None and counts_cards(rules)


def points_phrase(points: int, rules: Any = None) -> str:
    """``"23 points"``, ``"1 point"``, or ``"2 unmelded cards"`` where cards are counted."""
    return amount(points, rules)


def deadwood_html(
    cards: Iterable[Card | str], points: int | None, rules: Any = None, *, width: int = 60
) -> str:
    """Deadwood cards in a dashed box under a "Deadwood: 23 points" caption."""
    hand = _cards(cards)
    if points is None:
        caption = "Deadwood"
    elif not hand:
        caption = "No deadwood: 0 points" if not _counts_cards(rules) else "No unmelded cards"
    else:
        caption = f"Deadwood: {points_phrase(points, rules)}"
    body = hand_html(hand, marks=["deadwood"] * len(hand), width=width) if hand else ""
    return (
        f'<figure class="payme-deadwood" role="group" aria-label="{escape(caption)}" '
        f'style="margin:0;padding:4px 6px 6px;border:2px dashed {CARD_RED};border-radius:8px;'
        f'max-width:100%;width:fit-content;box-sizing:border-box">'
        f'<figcaption style="{_CAPTION};color:{DEADWOOD_TEXT}">{escape(caption)}</figcaption>'
        f"{body}</figure>"
    )


def _melds_row(melds: Iterable[Any], width: int, rules: Any = None) -> str:
    boxes = "".join(meld_html(m, width=width, rules=rules) for m in melds)
    if not boxes:
        return '<p class="payme-no-melds" style="margin:2px 0">No melds.</p>'
    return f'<div class="payme-melds" style="{_ROW};gap:8px">{boxes}</div>'


def layout_html(evaluation: Any, *, width: int = 60) -> str:
    """The best layout: melds in labelled boxes, then the deadwood and its points."""
    melds = tuple(evaluation.melds)
    rules = getattr(evaluation, "rules", None)
    points = int(evaluation.deadwood_points)
    summary = (
        f"{len(melds)} meld{'s' if len(melds) != 1 else ''}, "
        f"deadwood {points_phrase(points, rules)}"
    )
    return (
        f'<div class="payme-layout" style="display:flex;flex-direction:column;gap:8px;'
        f'max-width:100%">'
        f'<p class="payme-summary" style="margin:0;font-weight:600">Best layout: '
        f"{escape(summary)}</p>"
        f"{_melds_row(melds, width, rules)}"
        f"{deadwood_html(evaluation.deadwood, points, rules, width=width)}</div>"
    )


def layoff_html(layoff: Any, *, width: int = 60) -> str:
    """An opponent's best lay-off: its own melds, the cards laid off onto each declarer's
    meld, and what is left as deadwood."""
    rules = getattr(layoff, "rules", None)
    points = int(layoff.deadwood_points)
    parts = [
        '<div class="payme-layoff" style="display:flex;flex-direction:column;gap:8px;'
        'max-width:100%">',
        f'<p class="payme-summary" style="margin:0;font-weight:600">After lay-offs: '
        f"deadwood {escape(points_phrase(points, rules))}</p>",
        _melds_row(tuple(layoff.melds), width, rules),
    ]
    declarer = tuple(getattr(layoff, "declarer_melds", ()) or ())
    grown = tuple(getattr(layoff, "grown_melds", ()) or ())
    for index, added in layoff.lay_offs:
        cards = _cards(added)
        target = f"declarer's meld {index + 1}"
        if 0 <= index < len(declarer):
            target += f" ({meld_label(declarer[index], rules)})"
        names = " ".join(short_label(c) for c in cards)
        caption = f"Laid off {names} onto {target}"
        if 0 <= index < len(grown):
            # The grown meld shows where each card went and what a wild one stands for.
            parts.append(
                meld_html(grown[index], width=width, rules=rules, laid_off=cards,
                          caption=f"{caption}, making {meld_label(grown[index], rules)}")
            )  # fmt: skip
            continue
        marks = ["wild" if c.token in _ALWAYS_WILD else "laid_off" for c in cards]
        parts.append(hand_html(cards, marks=marks, caption=caption, width=width))
    parts.append(deadwood_html(layoff.deadwood, points, rules, width=width))
    parts.append("</div>")
    return "".join(parts)


def go_out_html(go_out: Any, *, width: int = 48) -> str:
    """Whether a hand can go out, and with which discards (``None``: without discarding)."""
    discards = tuple(go_out.discards)
    if not go_out.ok:
        reason = getattr(go_out, "reason", None)
        text = "✘ Cannot go out" + (f": {reason}" if reason else ".")
        return f'<p class="payme-go-out payme-go-out-no" style="margin:0">{escape(text)}</p>'
    cards = [d for d in discards if d is not None]
    parts = ['<div class="payme-go-out payme-go-out-yes">']
    ways = []
    if None in discards:
        ways.append("without discarding")
    if cards:
        ways.append("by discarding " + " or ".join(short_label(c) for c in _cards(cards)))
    parts.append(
        f'<p style="margin:0 0 4px 0;font-weight:600">✔ Can go out {escape(", or ".join(ways))}</p>'
    )
    if cards:
        parts.append(hand_html(cards, marks=["selected"] * len(cards), width=width))
    parts.append("</div>")
    return "".join(parts)


def chance_html(chance: Any, *, width: int = 40) -> str:
    """The chance of going out on the next draw, and the cards that would do it (with how
    many copies of each are unseen).  Reads ``probability``, ``winning``, ``unseen``."""
    unseen = int(chance.unseen)
    winning = [(c, int(n)) for c, n in chance.winning]
    outs = sum(n for _, n in winning)
    if unseen == 0:
        head = "No unseen cards are left to draw."
    else:
        p = chance.probability
        head = (
            f"Chance of going out on the next draw: {outs} of {unseen} unseen cards "
            f"= {p.numerator}/{p.denominator} ≈ {float(p) * 100:.1f}%"
        )
    parts = [
        f'<div class="payme-chance"><p class="payme-chance-text" style="margin:0 0 4px 0;'
        f'font-weight:600">{escape(head)}</p>'
    ]
    losing = [(c, int(n)) for c, n in getattr(chance, "losing", ())]
    # Show the shorter list: when most draws win, the few that do not say more.
    show_losing = bool(losing) and len(losing) < len(winning)
    shown = losing if show_losing else winning
    if winning and not losing and hasattr(chance, "losing"):
        parts.append('<p style="margin:0">Any card drawn lets the hand go out.</p>')
    elif shown:
        cells = "".join(
            '<div class="payme-out" style="display:flex;flex-direction:column;'
            'align-items:center;font:12px system-ui,sans-serif">'
            f"{card_svg(card, width=width)}<span>×{n}</span></div>"
            for card, n in shown
        )
        what = (
            "Every other card lets the hand go out; these do not (unseen copies)"
            if show_losing
            else "Cards that would let the hand go out (unseen copies)"
        )
        css = "payme-losing" if show_losing else "payme-winning"
        parts.append(
            f'<figure class="{css}" style="margin:0"><figcaption style="{_CAPTION}">'
            f'{what}</figcaption><div style="{_ROW}">{cells}</div></figure>'
        )
    elif unseen:
        parts.append('<p style="margin:0">No card drawn would let this hand go out.</p>')
    parts.append("</div>")
    return "".join(parts)
