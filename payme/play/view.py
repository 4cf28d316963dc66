"""What the Play page's card table shows: the JSON of your seat's view, and the results.

:class:`TableState` turns a :class:`~payme.play.session.PlaySession` into the state a
``payme.widgets.table.CardTable`` draws (your hand, the opponents, stock, pile, melds,
the moves allowed now, the arrangement step); :func:`hand_result_html` and
:func:`three_pack_result_html` are the result shown after a Pay Me hand and after a game of
Rummy 3-Pack; :func:`scores_html` is the scoreboard.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from payme.cards import Card
from payme.game.actions import Discard, Draw, DropOut, GoOut, LayDownRummy, LayOff
from payme.play.session import YOU, PlaySession, _labels, _money, _plural
from payme.words import label

if TYPE_CHECKING:  # pragma: no cover
    from payme.game.view import HandSummary
    from payme.widgets.play import PlayPage

__all__ = [
    "TableState",
    "final_html",
    "hand_result_html",
    "scores_html",
    "standings",
    "three_pack_result_html",
]


def _stands(meld: Any) -> list[Card | None]:
    from payme.display.html import stand_ins

    return stand_ins(meld)


class TableState:
    """The JSON the table draws, built from the session (one seat's view only)."""

    def __init__(self, page: PlayPage, session: PlaySession) -> None:
        self.page = page
        self.session = session
        self.table = page.table
        self.view = session.view()
        self.kind = session.kind
        self.dealt = session.game.dealt
        self.last = session.last_moves()

    def face(self, card: Card, stands_for: Card | None = None) -> str:
        wild = self.session.rules.is_wild(card, self.dealt)
        return self.table.face(card, "wild" if wild and stands_for is None else None, stands_for)

    def build(self) -> dict[str, Any]:
        s = self.session
        legal = s.legal()
        kinds = {type(a) for a in legal}
        sources = {a.source for a in legal if isinstance(a, Draw) and a.take == 1}
        mode = "wait"
        if s.your_turn:
            mode = "lay_off" if s.phase == "lay_off" else "play"
            if self.page._arrange is not None:
                mode = "arrange"
        hand = self.page._hand_left() if mode == "lay_off" else list(s.hand())
        drawn = self.view.drawn
        top = s.top_discard()
        state: dict[str, Any] = {
            "title": s.title(),
            "status": s.status() + self._kept_points(mode, hand),
            "advice": self.page._advice,
            "phase": s.phase,
            "mode": mode,
            "waiting": not s.your_turn and not s.hand_over and not s.over,
            "you": {
                "name": "You",
                "hand": [self.face(c) for c in hand],
                "drawn": self.face(drawn) if drawn is not None else None,
                "wild": [self.face(c) for c in hand if s.rules.is_wild(c, self.dealt)],
                "deal": self._deal_id(),
                "turn": s.your_turn,
                "score": self._score(YOU),
            },
            "seats": [self._seat(seat) for seat in range(1, s.players)],
            "stock": {"text": s.stock_text(), "can": "stock" in sources},
            "pile": {
                "top": self.face(top) if top is not None else None,
                "can": "discard" in sources,
            },
            "melds": self._melds(mode),
            "can": {
                "discard": Discard in kinds,
                "go_out": GoOut in kinds,
                "lay_off": LayOff in kinds,
                "rummy": LayDownRummy in kinds,
                "drop_out": DropOut in kinds,
                "hint": bool(legal),
                "next_hand": s.hand_over,
            },
            "pending": bool(self.page._layoff),
            "go_out_word": s.rules.go_out_call or "Go out",
            "go_out_title": "Go out: every card you keep laid down in melds, discarding the "
            "selected card"
            + (f" (you call “{s.rules.go_out_call}”)" if s.rules.go_out_call else ""),
            "drop_out_title": "Drop out: leave this game; your cards leave play unseen and "
            "you cannot win it",
            "anim": s.steps,
            "said": self._said(),
            "log": s.log(14),
        }
        if mode == "arrange":
            state["arrange"] = self._arrangement()
        panel = self._panel()
        if panel:
            state["panel"] = panel
        return state

    def _said(self) -> str:
        """What the bots just did, for screen readers: each seat's turn in one sentence
        ("West took 9♥ from the discard pile, discarded 4♣."), then what you do now."""
        s = self.session
        last: dict[int, str] = {}
        for step in s.steps:
            last[step["seat"]] = step["last"]
        if not last:
            return ""
        turns = " ".join(f"{s.names[seat]} {words}." for seat, words in last.items())
        return f"{turns} {s.status()}".strip()

    def _kept_points(self, mode: str, hand: list[Card]) -> str:
        """In the lay-offs: what the cards you still hold would score this hand."""
        if mode != "lay_off":
            return ""
        from payme.solver import evaluate

        points = evaluate(tuple(hand), self.session.rules, self.dealt).deadwood_points
        return f" This hand your cards left count {_plural(points, 'point')}."

    def _deal_id(self) -> str:
        game = self.session.game
        return f"{self.session.seed}-{game.hand_number}"

    def _score(self, seat: int) -> str:
        if not self.kind.KEEPS_SCORE:
            return ""
        view = self.session.scored_view()
        text = f"total {view.totals[seat]}"
        if view.money is not None:
            text += f" · {_money(view.money[seat])}"
        return text

    def _seat(self, seat: int) -> dict[str, Any]:
        s = self.session
        view = self.view
        return {
            "seat": seat,
            "name": s.names[seat],
            "who": f"{s.bot_names[seat - 1]} bot",
            "count": view.hand_counts[seat],
            "turn": s.game.to_move == seat and not s.hand_over and not s.over,
            "out": view.out_of_play(seat),
            "score": self._score(seat),
            "shown": [self.face(c) for c in view.shown_hand(seat)],
            "note": view.note(seat),
            "last": self.last.get(seat, ""),
        }

    def _melds(self, mode: str) -> list[dict[str, Any]]:
        """Every meld on the table, by the player who laid it, numbered from 1 (the numbers
        lay-offs use: a declarer's melds are the only ones laid off onto)."""
        from payme.display.html import meld_label, stand_ins

        s = self.session
        out: list[dict[str, Any]] = []
        for seat, laid_down in enumerate(self.view.melds):
            melds = list(laid_down)
            if not melds:
                continue
            laid = self._laid_by(len(melds))
            start = len(out)
            if mode == "lay_off" and self.page._layoff:
                melds = self._grown(melds)
                for index, cards in self.page._layoff:
                    laid[index].extend(("You", c) for c in cards)
            for meld in melds:
                i = len(out)
                cards = tuple(meld.cards)
                stands = stand_ins(meld)
                by: list[str | None] = [None] * len(cards)
                for who, card in laid[i - start]:
                    for k in reversed(range(len(cards))):
                        if cards[k] == card and by[k] is None:
                            by[k] = who
                            break
                out.append({
                    "id": i, "number": i + 1, "owner": s.names[seat],
                    "label": meld_label(meld, s.rules),
                    "cards": [self._meld_face(c, st) for c, st in zip(cards, stands, strict=True)],
                    "laid": by, "target": mode == "lay_off",
                })  # fmt: skip
                if mode == "lay_off":
                    out[-1]["places"] = self._places(meld)
        return out

    def _places(self, meld: Any) -> dict[str, list[dict[str, str]]]:
        """For each wild card you hold that could take more than one place on ``meld`` (the
        two ends of a run), the places to choose from: the card it would stand for."""
        from payme.layoff import lay_off_places

        s = self.session
        out: dict[str, list[dict[str, str]]] = {}
        for card in set(self.page._hand_left()):
            if not s.rules.is_wild(card, self.dealt):
                continue
            ends = lay_off_places(meld, card, s.rules, self.dealt)
            if len(ends) > 1:
                out[card.token] = [
                    {"card": end.token, "name": label(end),
                     "end": "low end" if k == 0 else "high end"}
                    for k, end in enumerate(ends)
                ]  # fmt: skip
        return out

    def _meld_face(self, card: Card, stands: Card | None) -> str:
        if stands is not None and stands != card:
            return self.table.face(card, None, stands)
        return self.table.face(card)

    def _laid_by(self, count: int) -> list[list[tuple[str, Card]]]:
        """Who laid off which card onto each meld this hand (from the public log)."""
        s = self.session
        laid: list[list[tuple[str, Card]]] = [[] for _ in range(count)]
        hand = s.game.hand_number
        for record in s.game.history:
            if record.hand == hand and isinstance(record.action, LayOff):
                for index, cards in record.action.placements:
                    if 0 <= index < count:
                        laid[index].extend((s.names[record.action.seat], c) for c in cards)
        return laid

    def _grown(self, melds: list[Any]) -> list[Any]:
        from payme.layoff import grow_meld

        grown = list(melds)
        for (index, cards), place in zip(self.page._layoff, self.page._places, strict=True):
            bigger = grow_meld(grown[index], cards, self.session.rules, self.dealt, places=place)
            if bigger is not None:
                grown[index] = bigger
        return grown

    def _arrangement(self) -> dict[str, Any]:
        from payme.game.arrangement import check_arrangement

        arrange = self.page._arrange or {}
        s = self.session
        discard = arrange.get("discard")
        kept = list(s.hand())
        if discard is not None:
            kept.remove(discard)
        groups = arrange.get("groups", [])
        check = check_arrangement(groups, tuple(kept), s.rules, self.dealt)
        shown = []
        for cards, meld_check in zip(groups, check.checks, strict=True):
            meld = meld_check.meld
            faces = (
                [self._meld_face(c, st) for c, st in zip(meld.cards, _stands(meld), strict=True)]
                if meld is not None
                else [self.face(c) for c in cards]
            )
            shown.append({
                "cards": faces, "ok": bool(meld_check.ok), "reason": s.words(meld_check.reason),
            })  # fmt: skip
        return {
            "groups": shown,
            "ok": check.ok,
            "discard_name": label(discard) if discard is not None else "nothing",
            "problem": "" if check.ok else s.words(check.reason),
        }

    def _panel(self) -> dict[str, str] | None:
        s = self.session
        if not (s.hand_over or s.over):
            return None
        if not self.kind.KEEPS_SCORE:
            return {"title": s.status(), "kind": "final", "html": final_html(s)}
        last = s.scored_view().last_hand
        if last is None:
            return None
        html = hand_result_html(s, last)
        if s.over:
            html = final_html(s) + f"<h4>Hand {last.number}</h4>" + html + scores_html(s)
            return {"title": s.status(), "kind": "final", "html": html}
        return {"title": f"Hand {last.number}: the result", "kind": "hand", "html": html}


def standings(session: PlaySession) -> list[tuple[int, str, str]]:
    """The game's standings, best first: (place, player, how it ended) — Pay Me by the
    total (and the money), Rummy 3-Pack winners first."""
    names = session.names
    if session.kind.KEEPS_SCORE:
        totals = list(session.scored.totals)
        money = session.scored.money
        order = sorted(range(session.players), key=lambda seat: totals[seat])
        rows = []
        for seat in order:
            place = 1 + sum(t < totals[seat] for t in totals)
            how = f"total {totals[seat]}" + (f" · {_money(money[seat])}" if money else "")
            rows.append((place, names[seat], how))
        return rows
    rows = []
    for row in session.game.results():
        seat = row["seat"]
        if row["winner"]:
            won: str = row["how"]
            how = "won: " + _WHY_WON.get(won, won)
        else:
            how = "dropped out" if row["dropped"] else "did not win"
        rows.append((1 if row["winner"] else 2, names[seat], how))
    return sorted(rows, key=lambda r: r[0])


def final_html(session: PlaySession) -> str:
    """The end of the game: the standings, and beside them the review and a new game."""
    rows = "".join(
        f"<tr><td>{place}</td><th scope='row'>{escape(name)}</th><td>{escape(how)}</td></tr>"
        for place, name, how in standings(session)
    )
    return (
        '<div class="pm-final">'
        '<table class="pm-standings"><caption>Standings</caption>'
        "<thead><tr><th scope='col'>Place</th><th scope='col'>Player</th>"
        f"<th scope='col'>Result</th></tr></thead><tbody>{rows}</tbody></table>"
        '<div class="pm-final-actions">'
        '<button type="button" class="pm-review-link pm-primary" data-do="review" '
        'title="Each of your decisions next to the strongest bot\'s">Review my game</button>'
        '<button type="button" class="pm-new-game" data-do="new_game" '
        'title="The same rules and opponents, a new deal">New game</button>'
        "</div></div>"
    )


def hand_result_html(session: PlaySession, last: HandSummary) -> str:
    """Every player's hand at the end: melds and deadwood apart, lay-offs on the melds they
    joined, the points and how they were reached, the running totals (and the money)."""
    from payme.display.html import deadwood_html, meld_html, meld_label
    from payme.solver import evaluate

    rules, names = session.rules, session.names
    totals = [0] * session.players
    for summary in session.scored.summaries:
        for seat in range(session.players):
            totals[seat] += summary.points[seat]
        if summary.number == last.number:
            break
    parts = []
    if last.declarer is not None:
        who = names[last.declarer]
        whose = "Your" if last.declarer == YOU else f"{who}'s"
        scores = "score" if last.declarer == YOU else "scores"
        parts.append(f"<p><b>{escape(who)} went out</b> and {scores} 0.</p>")
        laid_on: list[list[Card]] = [[] for _ in last.table]
        for placements in last.lay_offs:
            for index, added in placements:
                laid_on[index].extend(added)
        on_table = session.scored_view().table_melds
        table_html = "".join(
            meld_html(m, width=40, rules=rules, caption=f"Meld {i + 1}: {meld_label(m, rules)}",
                      laid_off=laid_on[i]) if on_table else ""
            for i, m in enumerate(on_table)
        )  # fmt: skip
        if table_html:
            parts.append(
                f'<div class="payme-result-table"><p>{escape(whose)} melds on the table '
                "(cards laid off by others are ticked):</p>"
                f'<div class="payme-card-row">{table_html}</div></div>'
            )
    else:
        parts.append(f"<p><b>Nobody went out</b> ({escape(last.how)}).</p>")
    rows = []
    for seat in range(session.players):
        if seat == last.declarer:
            continue
        cards = list(last.hands[seat])
        laid: list[str] = []
        for index, added in last.lay_offs[seat]:
            laid.append(f"{_labels(added)} onto meld {index + 1}")
            for card in added:
                cards.remove(card)
        layout = evaluate(cards, rules, last.dealt)
        before, after = last.deadwood[seat], last.points[seat]
        how = (
            f"{_plural(before, 'point')} before lay-offs, {after} after"
            if laid
            else _plural(after, "point")
        )
        melds = "".join(meld_html(m, width=36, rules=rules) for m in layout.melds)
        dead = (
            deadwood_html(layout.deadwood, layout.deadwood_points, rules, width=36)
            if layout.deadwood
            else ""
        )
        money = ""
        if last.money is not None:
            money = f" · {_money(last.money[seat])}"
        rows.append(
            f'<div class="payme-result-seat">'
            f'<p class="payme-flush"><b>{escape(names[seat])}</b>: {escape(how)}'
            f" · total {totals[seat]}{escape(money)}"
            + (f"<br>Laid off {escape('; '.join(laid))}." if laid else "")
            + "</p>"
            f'<div class="payme-card-row">'
            f"{melds}{dead}</div></div>"
        )
    parts.extend(rows)
    if last.declarer is not None and last.money is not None:
        parts.append(
            f"<p>{escape(names[last.declarer])} collects "
            f"{_money(last.money[last.declarer])} this hand.</p>"
        )
    return "".join(parts)


_WHY_WON = {
    "went out": "went out",
    "rummy card": "held a RUMMY card",
    "both rummy": "laid down both RUMMY cards",
}


def three_pack_result_html(session: PlaySession) -> str:
    """Who won Rummy 3-Pack and why (went out, held a RUMMY card)."""
    names = session.names
    items = []
    for row in session.game.results():
        seat = row["seat"]
        if row["winner"]:
            won: str = row["how"]
            why = _WHY_WON.get(won, won)
            items.append(f"<li><b>{escape(names[seat])}</b> won: {escape(why)}.</li>")
        elif row["dropped"]:
            items.append(f"<li>{escape(names[seat])} dropped out.</li>")
        else:
            items.append(f"<li>{escape(names[seat])} did not win.</li>")
    head = escape(session.status())
    return f"<p><b>{head}</b></p><ul>{''.join(items)}</ul>"


def scores_html(session: PlaySession) -> str:
    """The scoreboard: a row a hand, then the totals (and money where the rules pay it)."""
    if not session.kind.KEEPS_SCORE:
        return ""
    head, *body = session.scores()
    th = "".join(f'<th scope="col">{escape(c)}</th>' for c in head)
    trs = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in body)
    return (
        '<div class="payme-wide"><b>Scoreboard</b> (penalty points; '
        "✔ went out)"
        f'<table class="payme-scoreboard"><thead><tr>{th}</tr></thead>'
        f"<tbody>{trs}</tbody></table></div>"
    )
