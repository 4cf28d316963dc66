"""The Hand builder page: build a hand, see everything the engine knows about it.

Choose a rule set and the cards dealt, type or click a hand, and the page shows the best
layout (with what each wild card stands for) and its deadwood; for a hand just after drawing
(dealt + 1 cards) whether it can go out, with which discards, and the best discard; for a
hand before drawing (dealt cards) the exact chance that the next draw lets it go out.

The state lives in the URL's query (``?rules=family&dealt=9&hand=7H+8H+9H``) so a Voilà
reload, which starts a new kernel, shows the same hand; the page offers that link.

>>> hb = HandBuilder.from_query({"rules": "classic", "dealt": "3", "hand": "7H 8H 9H"})
>>> hb.rules.name, hb.dealt, hb.hand
('classic', 3, (Card('7H'), Card('8H'), Card('9H')))
>>> hb.share_query()
'rules=classic&dealt=3&hand=7H+8H+9H'
>>> HandBuilder.from_query({"hand": "7H 1X"}).input.error.startswith("unknown card '1X'")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any
from urllib.parse import urlencode

import ipywidgets as widgets

from payme.cards import CardError, CardsLike, format_hand, parse_hand
from payme.display import chance_html, go_out_html, points_phrase, short_label
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules
from payme.widgets.hand_views import HandView, LayoutView
from payme.widgets.messages import MessageBox, guarded
from payme.widgets.pickers import HandInput, RulesPicker
from payme.widgets.url_state import UrlState, whole_number

__all__ = ["HandBuilder"]

# The going-out rule of each kind, in words (RULES.md), shown next to the verdict.
GOING_OUT = {
    "discard_optional": "every card in melds, either all of them or all but one discard",
    "discard_required": "you must discard, and every card left after the discard is in melds",
    "one_unmelded": "at most one card left unmelded after drawing, and it may not be CAN'T GO OUT",
}


def _section(title: str, body: widgets.Widget, css: str) -> widgets.VBox:
    head = widgets.HTML(f'<h2 class="payme-widget-title">{escape(title)}</h2>')
    box = widgets.VBox([head, body], layout=widgets.Layout(max_width="100%"))
    box.add_class(css)
    return box


class HandBuilder(widgets.VBox):  # type: ignore[misc]
    """The whole Hand builder as one widget (the notebook displays it).

    ``.picker`` (RulesPicker), ``.input`` (HandInput), ``.hand_view``, ``.layout_view``,
    ``.verdict`` (going out / chance), ``.share`` (the link), ``.message`` (engine errors).
    """

    def __init__(
        self,
        rules: RulesLike = "denexa",
        dealt: int = 7,
        hand: CardsLike = (),
        players: int | None = None,
    ) -> None:
        ruleset = get_rules(rules)
        self.message = MessageBox()
        self.picker = RulesPicker(ruleset, dealt=dealt, players=players, show_players=True)
        self.input = HandInput(ruleset, players, value=hand, max_cards=ruleset.max_dealt + 1)
        self.hand_view = HandView()
        self.layout_view = LayoutView()
        self.verdict = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.verdict.add_class("payme-verdict")
        self.share = widgets.HTML()
        self.share.add_class("payme-share")
        # Cards seen elsewhere (the discard pile, a player's shown cards) are not drawn.
        self.seen = widgets.Text(
            description="Seen elsewhere",
            placeholder="e.g. the discard pile: KD 4C",
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(flex="1 1 260px", min_width="0", max_width="40em"),
        )
        self.seen.add_class("payme-seen-text")
        self.seen_message = MessageBox()
        # The address bar follows the page (reload, Back and a copied link restore it).
        self.url = UrlState()
        self.guard = guarded(self.message)
        self.picker.on_change(self.guard(self._rules_changed))
        self.input.on_change(self.guard(self.refresh))
        self.seen.observe(self.guard(lambda _change: self.refresh()), names="value")
        super().__init__(
            children=[
                _section("1. Rule set and round", self.picker, "payme-hb-rules"),
                _section("2. Your hand", self._hand_box(), "payme-hb-hand"),
                self.message,
                _section("3. Best layout", self.layout_view, "payme-hb-layout"),
                _section("4. Going out", self._verdict_box(), "payme-hb-verdict"),
                self.share,
                self.url,
            ],
            layout=widgets.Layout(max_width="100%", overflow="hidden"),
        )
        self.add_class("payme-hand-builder")
        self.url.on_navigate(self.guard(self.apply_query))
        self.guard(self.refresh)()

    def _verdict_box(self) -> widgets.VBox:
        seen_row = widgets.HBox(
            [self.seen, self.seen_message],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", max_width="100%"),
        )
        return widgets.VBox([self.verdict, seen_row], layout=widgets.Layout(max_width="100%"))

    def _hand_box(self) -> widgets.VBox:
        return widgets.VBox([self.input, self.hand_view], layout=widgets.Layout(max_width="100%"))

    # --- state --------------------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        return self.picker.rules

    @property
    def dealt(self) -> int:
        return self.picker.dealt

    @property
    def hand(self) -> tuple[Any, ...]:
        return self.input.value

    def share_query(self) -> str:
        """The URL query that reopens this page with this rule set, round and hand."""
        params: dict[str, str] = {"rules": self.rules.name, "dealt": str(self.dealt)}
        if self.picker.players is not None:
            params["players"] = str(self.picker.players)
        optional = self.picker.optional
        if optional is not None and optional != dict(self.rules.optional_cards):
            params["optional"] = ",".join(f"{t}:{n}" for t, n in optional.items())
        if self.input.error is not None and self.input.text.strip():
            params["hand"] = " ".join(self.input.text.split())  # as typed: a reload shows it
        elif self.hand:
            params["hand"] = format_hand(self.hand)
        if self.seen.value.strip():
            params["seen"] = self.seen.value.strip()
        return urlencode(params, safe=":,")

    @classmethod
    def from_query(cls, params: Mapping[str, str]) -> HandBuilder:
        """A builder filled from a URL query; a bad value becomes a message, never an error.

        >>> hb = HandBuilder.from_query({"rules": "nope", "dealt": "x"})
        >>> hb.rules.name, hb.message.text.startswith("Link: unknown rule set 'nope'")
        ('denexa', True)
        """
        builder = cls()
        builder.apply_query(params)
        return builder

    def apply_query(self, params: Mapping[str, str]) -> None:
        """Set rule set, players, dealt and hand from query values (each checked)."""
        problems = []
        for key, setter in (
            ("rules", self._set_rules_text),
            ("players", self._set_players_text),
            ("dealt", self._set_dealt_text),
            ("optional", self._set_optional_text),
        ):
            if params.get(key):
                try:
                    setter(params[key])
                except ValueError as error:
                    problems.append(str(error))
        # A state without a hand (or seen cards) has none: Back to it empties the box.
        # "+" separates cards in a URL; a query pasted undecoded still reads.
        self.input.text = params.get("hand", "").replace("+", " ")
        self.seen.value = params.get("seen", "").replace("+", " ")
        if problems:
            self.message.error("Link: " + "; ".join(problems))

    def _set_rules_text(self, text: str) -> None:
        self.picker.rules = text

    def _set_players_text(self, text: str) -> None:
        self.picker.players = whole_number(text, "players")

    def _set_optional_text(self, text: str) -> None:
        """``NOMELD:1,NOGO:0,WILD:6``: how many of each optional special card."""
        chosen: dict[str, int] = {}
        for part in text.replace(" ", ",").split(","):
            if not part:
                continue
            token, sep, count = part.partition(":")
            if not sep or not count.isdigit():
                raise ValueError(f"optional cards are written like NOGO:1,WILD:6, not {part!r}")
            chosen[token.upper()] = int(count)
        self.picker.optional = chosen

    def _set_dealt_text(self, text: str) -> None:
        self.picker.dealt = whole_number(text, "dealt")

    # --- updates ------------------------------------------------------------------------

    def _rules_changed(self) -> None:
        ruleset = self.picker.rules
        self.input.picker.max_cards = ruleset.max_dealt + 1
        # Notifies: refresh runs.
        self.input.set_rules(ruleset, self.picker.players, self.picker.optional)

    def refresh(self) -> None:
        """Recompute everything shown from the rule set, the round and the hand."""
        from payme.solver import can_go_out, evaluate

        self.message.clear()
        self._check_seen()
        ruleset, dealt, cards = self.rules, self.dealt, self.hand
        self.share.value = self._share_html()
        self.url.update(self.share_query())
        if self.input.error is not None:
            # The box holds a hand the page cannot read (its message says why): nothing of
            # the last good hand stays on show, since it no longer matches the box.
            self.hand_view.update(())
            self.hand_view.value = ""
            self.layout_view.show_html(
                '<p class="payme-msg payme-msg-info" role="status">ℹ The layout appears '
                "when the hand above reads as cards of this rule set.</p>"
            )
            self.verdict.value = ""
            return
        wild = ["wild" if ruleset.is_wild(c, dealt) else None for c in cards]
        n = len(cards)
        self.hand_view.update(
            cards,
            marks=wild,
            caption=f"{n} card{'s' if n != 1 else ''} (cards marked WILD are wild this round)"
            if n
            else None,
        )
        if not cards:
            self.layout_view.show_text("Type a hand above, or click cards, to see its layout.")
            self.verdict.value = ""
            return
        self.layout_view.show(evaluate(cards, rules=ruleset, dealt=dealt))
        if n == dealt + 1:
            out = can_go_out(cards, rules=ruleset, dealt=dealt)
            parts = [
                f"<p class='payme-below'>{n} cards = {dealt} dealt + 1 drawn: "
                "the hand just after drawing.</p>",
                go_out_html(out),
                f"<p class='payme-above payme-muted'>The rule: "
                f"{escape(GOING_OUT[ruleset.going_out])}.</p>",
                self._best_discard_html(cards),
            ]
            self.verdict.value = "".join(parts)
        elif n == dealt:
            self.verdict.value = (
                f"<p class='payme-below'>{n} cards = the {dealt} dealt: the hand before "
                "drawing. A card drawn from the stock is any card you have not seen, all "
                "equally likely: the pack minus this hand and any cards seen elsewhere "
                "(below).</p>" + chance_html(self._chance(cards))
            )
        else:
            self.verdict.value = (
                f"<p class='payme-flush'>With {dealt} cards dealt a hand holds {dealt} cards "
                f"before drawing and {dealt + 1} after. This hand has {n}, so only its "
                "layout is shown.</p>"
            )

    def _check_seen(self) -> tuple[Any, ...]:
        """The "seen elsewhere" cards; bad text becomes a message beside the box."""
        self.seen_message.clear()
        try:
            return parse_hand(self.seen.value)
        except CardError as error:
            self.seen_message.error(f"{error}; the chance ignores the seen cards")
            return ()

    def _chance(self, cards: tuple[Any, ...]) -> Any:
        """The next-draw chance, without the seen cards if the pack cannot hold them too."""
        from payme.odds import go_out_chance

        players, optional = self.picker.players, self.picker.optional
        known = self._check_seen()
        try:
            return go_out_chance(
                cards, self.rules, self.dealt, players=players, known=known, optional=optional
            )
        except CardError as error:
            self.seen_message.error(f"{error}; the chance ignores the seen cards")
        return go_out_chance(cards, self.rules, self.dealt, players=players, optional=optional)

    def _best_discard_html(self, cards: tuple[Any, ...]) -> str:
        from payme.advice import discard_advice, ranking_note
        from payme.solver import best_discard

        try:
            result = best_discard(cards, rules=self.rules, dealt=self.dealt)
            advice = discard_advice(cards, rules=self.rules, dealt=self.dealt)
        except ValueError as error:  # e.g. only cards that may never be discarded
            return f"<p class='payme-above'><b>Best discard:</b> {escape(str(error))}.</p>"
        # The advice breaks ties between equal discards by the ways left to go out.
        chosen = (advice.card, result.deadwood_points) if advice.card else result
        note = ranking_note(self.rules)
        return (
            self._discard_html(chosen)
            + f"<p class='payme-discard-why payme-above'>{escape(advice.reason)}</p>"
            + (f"<p class='payme-advice-note payme-above'>{escape(note)}</p>" if note else "")
        )

    def _discard_html(self, result: Any) -> str:
        """The best discard, read by duck typing (a Card, or an object with ``card``/
        ``discard`` and maybe ``deadwood_points``/``evaluation``)."""
        card = result
        points = None
        for name in ("card", "discard"):
            if hasattr(result, name):
                card = getattr(result, name)
                break
        if isinstance(result, tuple) and result:
            card = result[0]
            if len(result) > 1:
                rest = result[1]
                points = getattr(rest, "deadwood_points", rest if isinstance(rest, int) else None)
        for holder in (result, getattr(result, "evaluation", None)):
            value = getattr(holder, "deadwood_points", None)
            if isinstance(value, int):
                points = value
        if card is None:
            return "<p class='payme-above'><b>Best discard:</b> none needed.</p>"
        tail = ""
        if points is not None:
            tail = f" (leaves deadwood of {points_phrase(points, self.rules)})"
        return (
            f"<p class='payme-best-discard payme-above'><b>Best discard:</b> "
            f"{escape(short_label(card))}{escape(tail)}</p>"
        )

    def _share_html(self) -> str:
        href = "?" + self.share_query()
        return (
            '<p class="payme-apart">'
            f'<a class="payme-share-link" href="{escape(href)}">Link to this hand</a> '
            '<span class="payme-muted">(the address bar always holds it too: bookmark or '
            "share it)</span></p>"
        )
