"""The card table: an anywidget that draws a card game's table in the browser.

The widget knows no rules.  Python gives it a small JSON *state* (what one player sees: their
hand, each opponent's name and card count, the stock, the top discard, the melds on the
table, which gestures are allowed now) and the card faces it needs; the ES module
(``table.js``, shipped beside this file, no CDN) draws it and sends the player's gestures
back as ``{"do": ...}`` messages to the handler given to :meth:`CardTable.on_gesture`.
Play uses it for whole games; a tutorial demo or a puzzle can show a position with it.

The state's fields (all optional but ``you``)::

    title, status              two lines of text at the top
    mode                       "play", "lay_off", "arrange" or "wait": which controls show
    you                        {"name", "hand": [face keys], "drawn", "wild": [keys],
                                "deal": id (a new id resets the player's own card order),
                                "turn": bool, "score"}
    seats                      [{"seat", "name", "who", "count", "turn", "out", "score",
                                 "shown": [keys]}]     the opponents, clockwise from your left
    stock, pile                {"text", "can"} / {"top": key or None, "can"}
    melds                      [{"id", "number", "owner", "label", "cards": [keys],
                                 "laid": [name or None per card], "target": bool}]
    can                        {"discard", "go_out", "lay_off", "rummy", "hint", "next_hand"}
    arrange                    the going-out step: {"groups": [{"cards", "ok", "reason"}],
                                "discard_name", "ok", "problem"}
    panel                      {"title", "html"}: a result or review shown under the table
    anim                       bot moves to show one by one: [{"text", "seat", "counts",
                                "stock", "top"}]
    log, serial                the last events, a change counter

A face key is a card token with an optional mark: ``"7H"``, ``"JK~wild"``, ``"JK~wild~6H"``
(standing for 6♥).  :meth:`CardTable.face` registers the SVG for a key.

>>> from payme.cards import parse_card
>>> table = CardTable()
>>> table.face(parse_card("JK"), stands_for=parse_card("6H"))
'JK~wild~6H'
>>> table.show({"you": {"hand": ["JK~wild~6H"]}})
>>> sorted(table.faces), table.faces["JK~wild~6H"][1]
(['JK~wild~6H'], 'joker, wild, stands for six of hearts')
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from payme.cards import Card
from payme.display.svg import card_svg, card_title
from payme.widgets.scripts import script

__all__ = ["CardTable", "face_key", "position_table"]

_HERE = Path(__file__).parent
_log = logging.getLogger("payme.widgets")

Gesture = dict[str, Any]


def face_key(card: Card, mark: str | None = None, stands_for: Card | None = None) -> str:
    """The key the table knows a card's face by.

    >>> from payme.cards import parse_card
    >>> face_key(parse_card("7H")), face_key(parse_card("7H"), "wild")
    ('7H', '7H~wild')
    """
    if stands_for is not None and stands_for != card:
        return f"{card.token}~wild~{stands_for.token}"
    return card.token if mark is None else f"{card.token}~{mark}"


class CardTable(anywidget.AnyWidget):
    """The table widget: set :attr:`state`, register faces, listen to gestures."""

    _esm = script("table.js")
    _css = _HERE / "table.css"
    state = traitlets.Dict().tag(sync=True)
    faces = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._handler: Callable[[Gesture], None] | None = None
        self._pending: dict[str, list[str]] = {}
        self.on_msg(self._receive)

    def face(self, card: Card, mark: str | None = None, stands_for: Card | None = None) -> str:
        """The key of ``card``'s face, its SVG added to what the page will be sent."""
        key = face_key(card, mark, stands_for)
        if key not in self.faces and key not in self._pending:
            wild = mark if mark == "wild" else None
            self._pending[key] = [
                card_svg(card, mark=wild, stands_for=stands_for),
                card_title(card, mark=wild, stands_for=stands_for),
            ]
        return key

    def show(self, state: dict[str, Any]) -> None:
        """Send the faces registered since the last call, then the new state."""
        if self._pending:
            self.faces = {**self.faces, **self._pending}
            self._pending = {}
        self.state = state

    def notice(self, text: str, anchor: str | None = None) -> None:
        """Show ``text`` next to a place on the table (``"stock"``, ``"pile"``, ``"card-3"``,
        ``"meld-2"``, ``"hand"``) until the next state."""
        self.send({"notice": text, "anchor": anchor})

    def on_gesture(self, handler: Callable[[Gesture], None]) -> None:
        """Call ``handler(message)`` for each gesture the page sends."""
        self._handler = handler

    def _receive(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or self._handler is None:
            return
        try:
            self._handler(content)
        except ValueError as exc:  # a refused move: the rule's reason, next to the card
            self.notice(str(exc), _anchor(content))
        except Exception:  # never a traceback on the page; the page keeps working
            _log.exception("card table gesture %r failed", content)
            self.notice("Something went wrong with that move; the game is unchanged.", None)


def _anchor(gesture: Gesture) -> str | None:
    """Where a refusal of ``gesture`` is shown: next to the card, pile or meld it touched."""
    kind = gesture.get("do")
    if kind == "draw":
        return "stock" if gesture.get("source") == "stock" else "pile"
    if kind == "lay_off" and gesture.get("meld") is not None:
        return f"meld-{gesture['meld']}"
    index = gesture.get("index")
    if isinstance(index, int):
        return f"card-{index}"
    return "hand"


def position_table(
    hand: Any,
    *,
    rules: Any = "denexa",
    dealt: int | None = None,
    top_discard: Any = None,
    melds: Any = (),
    owner: str = "West",
    opponents: Any = (("West", 7),),
    title: str = "",
    status: str = "",
) -> CardTable:
    """A table showing one position, with nothing to play: for a tutorial's demo or a
    puzzle.  ``hand`` and ``top_discard`` are cards (text or :class:`Card`), ``melds``
    the melds on the table (text like ``"JK 5H 6H"``, or :class:`~payme.melds.Meld`), laid
    by ``owner``; ``opponents`` pairs each opponent's name with its card count.

    >>> table = position_table("5H 6H JK 9S", rules="family", dealt=3, top_discard="KC",
    ...                        melds=["7S 7D 7C"], title="Can you go out?")
    >>> table.state["you"]["hand"], table.state["pile"]["top"], table.state["mode"]
    (['5H', '6H', 'JK~wild', '9S'], 'KC', 'view')
    >>> [m["label"] for m in table.state["melds"]]
    ['Set of sevens']
    """
    from payme.cards import parse_card, parse_hand
    from payme.display.html import meld_label, stand_ins
    from payme.melds import parse_declared_meld
    from payme.rulesets import rules as get_rules

    ruleset = get_rules(rules)
    table = CardTable()

    def face(card: Card) -> str:
        return table.face(card, "wild" if ruleset.is_wild(card, dealt) else None)

    cards = parse_hand(hand)
    top = parse_card(top_discard) if isinstance(top_discard, str) else top_discard
    shown = []
    for number, meld in enumerate(melds, start=1):
        read = parse_declared_meld(meld, ruleset, dealt)
        stands = stand_ins(read)
        shown.append({
            "id": number - 1, "number": number, "owner": owner,
            "label": meld_label(read, ruleset), "laid": [None] * len(read.cards),
            "cards": [table.face(c, None, st if st != c else None)
                      for c, st in zip(read.cards, stands, strict=True)],
            "target": False,
        })  # fmt: skip
    table.show({
        "title": title, "status": status, "mode": "view",
        "you": {"name": "You", "hand": [face(c) for c in cards], "deal": title,
                "wild": [face(c) for c in cards if ruleset.is_wild(c, dealt)]},
        "seats": [{"seat": i, "name": name, "count": count}
                  for i, (name, count) in enumerate(opponents, start=1)],
        "stock": {"text": "", "can": False},
        "pile": {"top": face(top) if top is not None else None, "can": False},
        "melds": shown, "can": {}, "serial": 0,
    })  # fmt: skip
    return table
