"""Inputs: the rule-set picker, the card picker and the hand input (text and clicks in sync).

Each is an ipywidgets box that can be displayed or placed in a layout as it is.  Values are
engine objects (a :class:`~payme.rulesets.Ruleset`, :class:`~payme.cards.Card` tuples); every
change is checked by the engine, and a bad one becomes a message beside the input.

>>> picker = CardPicker("classic", players=2)
>>> picker.add("7H"); picker.add("7H")
>>> picker.value, picker.left("7H")
((Card('7H'),), 0)
>>> picker.message.text
'No 7H left: the pack of Pay Me (classic rules) for 2 players holds 1.'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import ipywidgets as widgets

from payme.cards import (
    CARDS,
    SUITS,
    Card,
    CardError,
    CardsLike,
    format_hand,
    parse_hand,
    token_help,
)
from payme.pack import MAX_HAND, check_hand
from payme.rulesets import PRESETS, Ruleset, RulesLike
from payme.rulesets import rules as get_rules
from payme.widgets.messages import MessageBox, call_back, guarded
from payme.words import short_label, wild_cards

__all__ = ["CardPicker", "HandInput", "RulesPicker"]

Callback = Callable[..., Any]
_WIDE = {"description_width": "initial"}


def _pack_phrase(rules: Ruleset, players: int | None) -> str:
    if players is None:
        return f"the largest pack of {rules.title}"
    return f"the pack of {rules.title} for {players} players"


class RulesPicker(widgets.HBox):  # type: ignore[misc]
    """Rule set, cards dealt (within the rule set's range) and, optionally, players.

    ``.rules`` (a Ruleset), ``.dealt`` (int), ``.players`` (int or ``None`` = not set: the
    largest pack).  ``.on_change(cb)`` calls ``cb(picker)`` (or ``cb()``) after any change.

    >>> p = RulesPicker("denexa", dealt=7)
    >>> p.rules = "three_pack"          # dealt stays 7: inside 2..10
    >>> p.rules.name, p.dealt, p.dealt_options[0], p.dealt_options[-1]
    ('three_pack', 7, 2, 10)
    >>> p.rules = "family"; p.dealt = 13; p.rules = "three_pack"
    >>> p.dealt                         # 13 is outside 2..10: the nearest allowed value
    10
    """

    def __init__(
        self,
        rules: RulesLike = "denexa",
        dealt: int = 7,
        players: int | None = None,
        show_dealt: bool = True,
        show_players: bool = False,
    ) -> None:
        ruleset = get_rules(rules)
        self._rulesets: dict[str, Ruleset] = dict(PRESETS)
        self._rulesets[ruleset.name] = ruleset
        self._callbacks: list[Callback] = []
        self._quiet = False
        self.message = MessageBox()
        self._rules_dd = widgets.Dropdown(
            options=[(r.title, name) for name, r in self._rulesets.items()],
            value=ruleset.name,
            description="Rule set",
            style=_WIDE,
            layout=widgets.Layout(width="auto", max_width="100%"),
        )
        self._dealt_dd = widgets.Dropdown(
            description="Cards dealt",
            style=_WIDE,
            layout=widgets.Layout(width="auto", max_width="100%"),
        )
        self._players_dd = widgets.Dropdown(
            description="Players",
            style=_WIDE,
            layout=widgets.Layout(width="auto", max_width="100%"),
        )
        self._rules_dd.add_class("payme-rules")
        self._dealt_dd.add_class("payme-dealt")
        self._players_dd.add_class("payme-players")
        # Optional special cards the players choose before a game (Rummy 3-Pack's).
        self._optional_dds: dict[str, widgets.Dropdown] = {}
        self._optional_box = widgets.HBox(
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", max_width="100%")
        )
        self._optional_box.add_class("payme-optional-cards")
        guard = guarded(self.message)
        self._guard = guard
        self._fill_options(ruleset, dealt, players)
        children = [self._rules_dd]
        if show_dealt:
            children.append(self._dealt_dd)
        if show_players:
            children += [self._players_dd, self._optional_box]
        super().__init__(
            children=[*children, self.message],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.add_class("payme-rules-picker")
        self._rules_dd.observe(guard(self._rules_changed), names="value")
        self._dealt_dd.observe(guard(self._value_changed), names="value")
        self._players_dd.observe(guard(self._value_changed), names="value")

    # --- options ------------------------------------------------------------------------

    @staticmethod
    def _dealt_label(ruleset: Ruleset, n: int) -> str:
        wild = ruleset.round_wild_rank(n)
        if wild is None:
            return f"{n} cards"
        return f"{n} cards (wild: {wild_cards(ruleset, n)})"

    def _fill_options(self, ruleset: Ruleset, dealt: int | None, players: int | None) -> None:
        self._quiet = True
        try:
            lo, hi = ruleset.min_dealt, ruleset.max_dealt
            want = ruleset.first_dealt if dealt is None else min(max(dealt, lo), hi)
            self._dealt_dd.options = [(self._dealt_label(ruleset, n), n) for n in range(lo, hi + 1)]
            self._dealt_dd.value = want
            choices: list[tuple[str, int]] = [("not set (largest pack)", 0)]
            for n in range(ruleset.min_players, ruleset.max_players + 1):
                packs = ruleset.packs_for(n)
                choices.append((f"{n} ({packs} pack{'s' if packs > 1 else ''})", n))
            self._players_dd.options = choices
            ok = players is not None and ruleset.min_players <= players <= ruleset.max_players
            self._players_dd.value = players if ok and players is not None else 0
            self._fill_optional(ruleset)
        finally:
            self._quiet = False

    def _fill_optional(self, ruleset: Ruleset) -> None:
        """One dropdown per optional special card; all of them by default (the largest pack)."""
        self._optional_dds = {}
        for token, most in ruleset.optional_cards:
            # The card's printed name ("CAN'T GO OUT"), not its token ("NOGO").
            printed = parse_hand([token])[0].name
            extra = "Extra " if token in dict(ruleset.special_cards) else ""
            dd = widgets.Dropdown(
                options=list(range(most + 1)),
                value=most,
                description=f"{extra}{printed} cards",
                style=_WIDE,
                layout=widgets.Layout(width="auto"),
            )
            dd.add_class(f"payme-optional-{token.lower()}")
            dd.observe(self._guard(self._value_changed), names="value")
            self._optional_dds[token] = dd
        self._optional_box.children = list(self._optional_dds.values())
        self._optional_box.layout.display = None if self._optional_dds else "none"

    # --- values -------------------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        return self._rulesets[self._rules_dd.value]

    @rules.setter
    def rules(self, value: RulesLike) -> None:
        ruleset = get_rules(value)
        if ruleset.name not in self._rulesets or self._rulesets[ruleset.name] != ruleset:
            self._rulesets[ruleset.name] = ruleset
            self._rules_dd.options = [(r.title, n) for n, r in self._rulesets.items()]
        self._rules_dd.value = ruleset.name

    @property
    def dealt(self) -> int:
        return int(self._dealt_dd.value)

    @dealt.setter
    def dealt(self, value: int) -> None:
        self.rules.check_dealt(value)
        self._dealt_dd.value = value

    @property
    def players(self) -> int | None:
        # 0 stands for "not set": a Dropdown shows a None value as an empty box.
        value = int(self._players_dd.value or 0)
        return value or None

    @players.setter
    def players(self, value: int | None) -> None:
        if value is not None:
            self.rules.check_players(value)
        self._players_dd.value = value or 0

    @property
    def optional(self) -> dict[str, int] | None:
        """The chosen optional special cards (``None`` when the rule set has none)."""
        if not self._optional_dds:
            return None
        return {token: int(dd.value) for token, dd in self._optional_dds.items()}

    @optional.setter
    def optional(self, chosen: dict[str, int]) -> None:
        self.rules.pack_counts(None, chosen)  # a ValueError naming a bad token or count
        self._quiet = True
        try:
            # As in Ruleset.pack_counts: a card left out of ``chosen`` is not used.
            for token, dd in self._optional_dds.items():
                dd.value = chosen.get(token, 0)
        finally:
            self._quiet = False
        self._notify()

    @property
    def dealt_options(self) -> list[int]:
        return [v for _, v in self._dealt_dd.options]

    def on_change(self, callback: Callback) -> None:
        self._callbacks.append(callback)

    def _notify(self) -> None:
        self.message.clear()
        for cb in self._callbacks:
            call_back(cb, self)

    def _rules_changed(self, change: dict[str, Any]) -> None:
        self._fill_options(self.rules, self.dealt, self.players)
        self._notify()

    def _value_changed(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self._notify()


class CardPicker(widgets.VBox):  # type: ignore[misc]
    """Build a hand by clicking the cards of the rule set's pack; copies are respected.

    ``.rows``: one ToggleButtons row per suit (spades, hearts, diamonds, clubs) and one for
    jokers or special cards; each button's value is a ``Card.index`` and its label shows how
    many copies are left.  A click sets the row's value; the picker adds the card and resets
    the row, so the same card can be clicked again.  ``.value`` is the hand
    (``tuple[Card, ...]``, in click order); setting it checks it against the pack.
    ``.on_change(cb)`` after each change.
    """

    def __init__(
        self,
        rules: RulesLike = "denexa",
        players: int | None = None,
        *,
        value: CardsLike = (),
        max_cards: int = MAX_HAND,
        message: MessageBox | None = None,
        optional: dict[str, int] | None = None,
    ) -> None:
        self._rules = get_rules(rules)
        self._players = players
        self._optional = optional
        self.max_cards = max_cards
        self._value: tuple[Card, ...] = ()
        self._counts: tuple[int, ...] = ()
        self._callbacks: list[Callback] = []
        self.message = message if message is not None else MessageBox()
        self.rows: list[widgets.ToggleButtons] = []
        guard = guarded(self.message)
        for suit in (*SUITS, ""):
            row = widgets.ToggleButtons(
                options=[], value=None, style={"button_width": "auto"},
                layout=widgets.Layout(flex_flow="row wrap", max_width="100%"),
            )  # fmt: skip
            row.add_class("payme-pick-row")
            if suit in ("H", "D"):  # hearts and diamonds in red; the symbol still says the suit
                row.add_class("payme-pick-red")
            row.observe(guard(self._clicked), names="value")
            self.rows.append(row)
        self._undo = widgets.Button(
            description="Remove last", icon="undo", tooltip="Take the last card added out",
            layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        self._sort = widgets.Button(
            description="Sort", icon="sort", tooltip="Put the hand in suit and rank order",
            layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        self._clear = widgets.Button(
            description="Clear", icon="trash", tooltip="Empty the hand",
            layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        for button, name in ((self._undo, "undo"), (self._sort, "sort"), (self._clear, "clear")):
            button.add_class(f"payme-pick-{name}")
        self._undo.on_click(guard(lambda _b: self._set(self._value[:-1])))
        self._sort.on_click(guard(lambda _b: self._set(tuple(sorted(self._value)))))
        self._clear.on_click(guard(lambda _b: self._set(())))
        self._status = widgets.HTML()
        self._status.add_class("payme-pick-status")
        buttons = widgets.HBox(
            [self._undo, self._sort, self._clear, self._status],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        # What the buttons' numbers mean, said once above them (each button's tooltip and
        # name say it too: "seven of hearts: 2 of 3 left").
        caption = widgets.HTML(
            '<p class="payme-pick-caption payme-around">Click a card to add it to the '
            "hand. The number on each button is how many copies of that card are still in "
            "the pack.</p>"
        )
        super().__init__(children=[caption, *self.rows, buttons])
        self.add_class("payme-card-picker")
        self.stale = False
        """Whether the hand typed beside the picker failed to read: then the picker shows no
        counts (they would be of the last hand that read, not of the box)."""
        self.set_rules(self._rules, players, value=value, optional=optional)

    # --- the pack -----------------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        return self._rules

    @property
    def players(self) -> int | None:
        return self._players

    @property
    def optional(self) -> dict[str, int] | None:
        return self._optional

    def set_rules(
        self,
        rules: RulesLike,
        players: int | None = None,
        *,
        value: CardsLike | None = None,
        optional: dict[str, int] | None = None,
    ) -> None:
        """Switch to another pack (rule set, players, optional special cards); the hand is
        kept if the new pack can supply it.

        A hand the new pack cannot supply raises :class:`~payme.cards.CardError` and the
        picker is left empty for the new pack.
        """
        ruleset = get_rules(rules)
        if players is not None:
            ruleset.check_players(players)
        counts = ruleset.pack_counts(players, optional)
        self._rules, self._players, self._optional = ruleset, players, optional
        self._counts = counts
        self.rows[-1].options = []  # rebuilt by _refresh
        keep = self._value if value is None else parse_hand(value)
        self._value = ()
        try:
            self._set(keep, notify=False)
        finally:
            self._refresh()

    def count(self, card: Card | str) -> int:
        """Copies of ``card`` in the pack."""
        return self._counts[parse_hand([card])[0].index]

    def left(self, card: Card | str) -> int:
        """Copies of ``card`` still in the pack after the hand's."""
        c = parse_hand([card])[0]
        return self._counts[c.index] - self._value.count(c)

    # --- the hand -----------------------------------------------------------------------

    @property
    def value(self) -> tuple[Card, ...]:
        return self._value

    @value.setter
    def value(self, cards: CardsLike) -> None:
        self._set(parse_hand(cards))

    def on_change(self, callback: Callback) -> None:
        self._callbacks.append(callback)

    def add(self, card: Card | str) -> None:
        """Add one card; a message (not an error) when none is left or the hand is full."""
        c = parse_hand([card])[0]
        if len(self._value) >= self.max_cards:
            self.message.error(f"The hand is full: at most {self.max_cards} cards here.")
            return
        held = self._counts[c.index]
        if held == 0:
            self.message.error(f"{c} is not in {_pack_phrase(self._rules, self._players)}.")
            return
        if self.left(c) <= 0:
            self.message.error(
                f"No {c} left: {_pack_phrase(self._rules, self._players)} holds {held}."
            )
            return
        self._set((*self._value, c))

    def _set(self, cards: Iterable[Card], notify: bool = True) -> None:
        hand = tuple(cards)
        if len(hand) > self.max_cards:
            raise CardError(
                f"a hand of {len(hand)} cards is too large here: at most {self.max_cards}"
            )
        check_hand(hand, self._rules, self._players, self._optional)
        self._value = hand
        self.message.clear()
        self._refresh()
        if notify:
            for cb in self._callbacks:
                call_back(cb, self)

    def _refresh(self) -> None:
        held = Counter(self._value)
        for row, suit in zip(self.rows, SUITS, strict=False):
            cards = [CARDS[SUITS.index(suit) * 13 + r] for r in range(13)]
            self._fill_row(row, cards, held)
        specials = [c for c in CARDS[52:] if self._counts[c.index] > 0]
        self._fill_row(self.rows[-1], specials, held)
        self.rows[-1].layout.display = None if specials else "none"
        n = len(self._value)
        size = sum(self._counts)
        if getattr(self, "stale", False):
            self._status.value = (
                '<span class="payme-pick-stale-note">No counts while '
                "the hand typed above has a problem</span>"
            )
            return
        self._status.value = (
            f"<span>{n} card{'s' if n != 1 else ''} in the hand · "
            f"{size - n} of {size} left in the pack</span>"
        )

    def set_stale(self, stale: bool) -> None:
        """Grey the picker and hide its counts (``True``: the typed hand failed to read), or
        show them again."""
        if stale == self.stale:
            return
        self.stale = stale
        if stale:
            self.add_class("payme-picker-stale")
        else:
            self.remove_class("payme-picker-stale")
        self._refresh()

    def _fill_row(self, row: widgets.ToggleButtons, cards: list[Card], held: Counter[Card]) -> None:
        options, tips = [], []
        for c in cards:
            total = self._counts[c.index]
            left = total - held[c]
            if getattr(self, "stale", False):
                options.append((short_label(c), c.index))
                tips.append(c.name)
                continue
            options.append((f"{short_label(c)} {left}", c.index))
            tips.append(f"{c.name}: {left} of {total} left")
        if list(row.options) != options:
            row.options = options
            row.tooltips = tips
        row.value = None

    def _clicked(self, change: dict[str, Any]) -> None:
        index = change["new"]
        if index is None:
            return
        # Reset first, so clicking the same card again is a new click.
        self._reset_rows()
        self.add(CARDS[index])

    def _reset_rows(self) -> None:
        for row in self.rows:
            if row.value is not None:
                row.value = None


class HandInput(widgets.VBox):  # type: ignore[misc]
    """A hand typed as text or clicked in the card picker, the two kept in sync.

    Text is read when Enter is pressed, the box loses focus, or "Use hand" is clicked.  Bad
    text shows a message beside the box naming the bad token and only the cards of the rule
    set's pack; ``.value`` then keeps the last good hand, ``.error`` holds the message, and
    the picker is greyed without counts (they would be the last good hand's).

    >>> hi = HandInput("denexa")
    >>> hi.text = "7H 8H 1X"
    >>> hi.value, hi.error, hi.picker.stale
    ((), "unknown card '1X': a card is a rank (A 2-9 T or 10 J Q K) followed by a suit (S H D C or ♠ ♥ ♦ ♣), or JK for a joker", True)
    >>> hi.text = "7h 8h 9h"
    >>> hi.value, hi.error, hi.picker.stale
    ((Card('7H'), Card('8H'), Card('9H')), None, False)
    """  # noqa: E501

    def __init__(
        self,
        rules: RulesLike = "denexa",
        players: int | None = None,
        *,
        value: CardsLike = (),
        max_cards: int = MAX_HAND,
        placeholder: str = "e.g. 7H 8H 9H JK 5S 5D 5C",
        show_picker: bool = True,
    ) -> None:
        self._callbacks: list[Callback] = []
        self._syncing = False
        self.error: str | None = None
        self.message = MessageBox()
        self._text = widgets.Text(
            description="Hand",
            placeholder=placeholder,
            continuous_update=False,
            style=_WIDE,
            layout=widgets.Layout(flex="1 1 260px", min_width="0", max_width="40em"),
        )
        self._text.add_class("payme-hand-text")
        self._use = widgets.Button(
            description="Use hand", icon="check", tooltip="Read the typed hand (or press Enter)",
            layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        self._use.add_class("payme-hand-use")
        self.picker = CardPicker(
            rules, players, value=value, max_cards=max_cards, message=self.message
        )
        self._text.value = format_hand(self.picker.value)
        guard = guarded(self.message)
        self._text.observe(guard(lambda _c: self._read_text()), names="value")
        self._use.on_click(guard(lambda _b: self._read_text()))
        self.picker.on_change(guard(self._picked))
        row = widgets.HBox(
            [self._text, self._use, self.message],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(children=[row, self.picker] if show_picker else [row])
        self.add_class("payme-hand-input")

    @property
    def rules(self) -> Ruleset:
        return self.picker.rules

    @property
    def value(self) -> tuple[Card, ...]:
        return self.picker.value

    @value.setter
    def value(self, cards: CardsLike) -> None:
        self.picker.value = cards  # checked; notifies through _picked

    @property
    def text(self) -> str:
        return str(self._text.value)

    @text.setter
    def text(self, text: str) -> None:
        if text == self._text.value:
            self._read_text()
        else:
            self._text.value = text  # the observer reads it

    def on_change(self, callback: Callback) -> None:
        self._callbacks.append(callback)

    def set_rules(
        self,
        rules: RulesLike,
        players: int | None = None,
        optional: dict[str, int] | None = None,
    ) -> None:
        """Change the pack; the typed hand stays, and what no longer fits becomes a message.

        >>> hi = HandInput("three_pack")
        >>> hi.text = "7H RUMMY 8H"
        >>> hi.set_rules("denexa")          # no RUMMY card in Pay Me
        >>> hi.text, hi.value, hi.error.startswith("This hand does not fit Pay Me")
        ('7H RUMMY 8H', (), True)
        >>> hi.set_rules("three_pack")      # back: the typed hand is read again
        >>> hi.value, hi.error
        ((Card('7H'), Card('RUMMY'), Card('8H')), None)
        """
        # The box may hold a hand the picker could not take (it failed to read, or did not
        # fit the previous pack): read the box again with the new pack.
        pending = self.error is not None
        ruleset = get_rules(rules)
        try:
            typed = parse_hand(self.text) if pending else None
        except CardError as error:  # still unreadable: the new pack changes nothing
            self.picker.set_rules(ruleset, players, optional=optional, value=())
            self._fail(self._unreadable(error))
            self._notify()
            return
        try:
            self.picker.set_rules(ruleset, players, optional=optional, value=typed)
        except CardError as error:
            # Keep the typed text, so the visitor can fix it; the hand is empty meanwhile.
            self._fail(
                f"This hand does not fit {ruleset.title}: {error}. Change the hand, or pick "
                "another rule set"
            )
            self._notify()
            return
        self._ok()
        self._sync_text()
        self._notify()

    def _fail(self, text: str) -> None:
        self.error = text
        self.message.error(text)
        self.picker.set_stale(True)

    def _ok(self) -> None:
        self.error = None
        self.message.clear()
        self.picker.set_stale(False)

    def _unreadable(self, error: CardError) -> str:
        """A card that does not read, with how cards are written in this rule set's pack
        only (no RUMMY under Pay Me, no joker under Rummy 3-Pack)."""
        if error.token is None or not str(error).startswith("unknown card"):
            return str(error)
        r = self.rules
        specials = [t for t, _ in (*r.special_cards, *r.optional_cards)]
        return f"unknown card {error.token!r}: {token_help(r.jokers_per_pack > 0, specials)}"

    def _read_text(self) -> None:
        if self._syncing:
            return
        try:
            cards = parse_hand(self.text)
            self._syncing = True
            try:
                self.picker.value = cards
            finally:
                self._syncing = False
        except CardError as error:
            # Listeners hear of it too: what they show of the last good hand is now stale.
            self._fail(self._unreadable(error))
            self._notify()
            return
        self._ok()
        self._notify()

    def _picked(self) -> None:
        if self._syncing:
            return
        if self.error is not None:  # the click replaces the hand that failed to read
            self._ok()
        self._sync_text()
        self._notify()

    def _sync_text(self) -> None:
        self._syncing = True
        try:
            self._text.value = format_hand(self.picker.value)
        finally:
            self._syncing = False

    def _notify(self) -> None:
        for cb in self._callbacks:
            call_back(cb, self)
