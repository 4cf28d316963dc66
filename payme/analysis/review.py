"""The game review: each of your decisions beside the strongest bot's, on one yardstick.

A game is replayed from its settings and your moves (the Play page's URL tokens).  At each
of your decisions the strongest bot (:func:`payme.game.advise`) says what it would do; when
you did something else, both moves are measured by the one yardstick of
:mod:`payme.analysis.yardstick` (Pay Me: the points you pay in the hand less the others'
average; Rummy 3-Pack: your chance of winning), over the same sampled deals of the cards
you had not seen.  The headline, the explanation and the chart all show those numbers.

A decision is charged only when the bot's move measured better than yours by more than
the measure's error; it is then graded like a chess site grades a move (see
:data:`GRADES`).  Each decision keeps its position (:class:`Board`) so a page can draw it
and a link can play on from it.

>>> review = review_game("denexa", 2, ("greedy",), 4, ["s", "d3H"])
>>> [(d.kind, d.agrees, d.grade) for d in review.decisions][:1]
[('draw', True, 'best')]
>>> review_game("denexa", 2, ("greedy",), 4, ["s", "dKS"])
Traceback (most recent call last):
...
ValueError: move 2 (dKS) was refused: You hold no K♠︎.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from payme.analysis.yardstick import GRADE_BOUNDS, Measure, Yardstick, yardstick
from payme.cards import Card
from payme.game.actions import Action, Discard, Draw, GoOut, LayOff
from payme.game.generations import BOT_GENERATION

if TYPE_CHECKING:
    from payme.analysis.yardstick import Measuring
    from payme.play.session import PlaySession

__all__ = [
    "GRADES",
    "Board",
    "Decision",
    "GameReview",
    "Review",
    "ReviewRun",
    "grade_of",
    "review_game",
    "review_text",
]

GRADES: tuple[tuple[str, float], ...] = (
    ("best", 0.0),
    ("good", GRADE_BOUNDS[0]),
    ("inaccuracy", GRADE_BOUNDS[1]),
    ("mistake", GRADE_BOUNDS[2]),
    ("blunder", float("inf")),
)
"""Each grade with the most a decision of that grade was charged (in the yardstick's unit:
points in Pay Me, percentage points of win chance in Rummy 3-Pack): *best* is the bot's move
or one measured as good (nothing charged); *good* is charged under 2; *inaccuracy* 2 to 5;
*mistake* 5 to 10; *blunder* 10 or more."""


def grade_of(charged: float) -> str:
    """The grade of a decision charged ``charged``.

    >>> grade_of(0), grade_of(1.5), grade_of(2), grade_of(7.5), grade_of(10)
    ('best', 'good', 'inaccuracy', 'mistake', 'blunder')
    """
    for name, most in GRADES:
        if charged <= most and (name == "best" or charged < most):
            return name
    return GRADES[-1][0]


@dataclass(frozen=True)
class Board:
    """The position at a decision, as the player saw it (cards as objects)."""

    hand: tuple[Card, ...]
    pile: tuple[Card, ...]
    """The discard pile, bottom to top (as much of it as the player may see)."""
    melds: tuple[tuple[Card, ...], ...]
    """The melds on the table (Pay Me: the declarer's, with lay-offs so far)."""
    counts: tuple[int, ...]
    """Cards in each seat's hand (seat 0 is you)."""
    taken: tuple[tuple[Card, ...], ...]
    """What each seat took from the pile this hand and still holds, as far as you saw."""
    stock: int | None
    phase: str
    names: tuple[str, ...]
    declarer: int | None = None
    """Who went out this hand (Pay Me), once someone has."""
    position: str = ""
    """The engine's position notation (hidden cards included: for tests and replays)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "hand": [c.token for c in self.hand],
            "pile": [c.token for c in self.pile],
            "melds": [[c.token for c in m] for m in self.melds],
            "counts": list(self.counts),
            "taken": [[c.token for c in t] for t in self.taken],
            "stock": self.stock,
            "phase": self.phase,
            "names": list(self.names),
            "declarer": self.declarer,
        }


@dataclass(frozen=True)
class Decision:
    """One decision of yours, the strongest bot's move in its place, and both measured."""

    number: int
    """How many of your moves came before it."""
    before: tuple[str, ...]
    """Your moves before it (URL tokens, ``"n"`` for each new hand): its position."""
    hand: int
    turn: int
    """Your turn within the hand, from 1."""
    kind: str
    """``"draw"``, ``"discard"``, ``"go out"``, ``"layout"`` (the same go-out, laid out
    differently), ``"lay-off"`` or ``"other"``."""
    yours: Action
    best: Action
    your_words: str
    best_words: str
    board: Board
    measured: Measure | None = None
    """Both moves measured (``None`` when they are the same move)."""
    unit: str = "points"
    notes: tuple[str, ...] = ()
    """What the position shows that decides it, in a player's words (the explanation)."""
    layouts: tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]] | None = None
    """Going out both ways: your melds and the bot's, each as cards in place order."""
    open_spots: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None
    """The unseen cards that could be laid off onto your melds and onto the bot's."""

    @property
    def agrees(self) -> bool:
        return bool(self.yours == self.best)

    @property
    def your_value(self) -> float | None:
        return None if self.measured is None else round(self.measured.yours, 2)

    @property
    def best_value(self) -> float | None:
        return None if self.measured is None else round(self.measured.best, 2)

    @property
    def error(self) -> float:
        return 0.0 if self.measured is None else round(self.measured.error, 2)

    @property
    def loss(self) -> float:
        """How much worse your move measured (negative: better; 0 when the same)."""
        return 0.0 if self.measured is None else round(self.measured.loss, 2)

    @property
    def cost(self) -> float:
        """What this decision is charged: the loss, when larger than its error; else 0."""
        return 0.0 if self.measured is None else round(self.measured.charged, 2)

    @property
    def grade(self) -> str:
        return grade_of(self.cost)

    @property
    def pending(self) -> bool:
        """Whether its measure is still being taken (its numbers are those so far)."""
        return self.measured is not None and self.measured.running

    @property
    def headline(self) -> str:
        """One line: the decision, your move and the bot's, and what it cost."""
        if self.agrees:
            return f"{self.your_words}: the strongest bot's move too."
        if self.pending:
            return (
                f"{self.your_words}: being measured against the strongest bot's "
                f"{_lower(self.best_words)}."
            )
        if not self.cost:
            return f"{self.your_words}: as good as the strongest bot's {_lower(self.best_words)}."
        article = "an" if self.grade[0] in "aeiou" else "a"
        return (
            f"{self.your_words}: {article} {self.grade} — {_lower(self.best_words)} was "
            f"{_amount(self.cost, self.unit)} better."
        )

    @property
    def explanation(self) -> str:
        """Why, with both moves and both values (the same numbers as the headline)."""
        if self.agrees:
            return " ".join(self.notes)
        m = self.measured
        assert m is not None
        if not m.deals:
            return "Being measured: no deals played yet."
        values = (
            f"You: {_lower(self.your_words)}, {_value(m.yours, self.unit)}. "
            f"The strongest bot: {_lower(self.best_words)}, {_value(m.best, self.unit)}."
        )
        how = _precision_words(m, self.unit)
        if self.cost and m.running:
            verdict = f"So far yours costs {_amount(self.cost, self.unit)}."
        elif self.cost:
            verdict = f"Yours cost {_amount(self.cost, self.unit)}."
        elif m.loss < -m.error:
            verdict = f"Yours measured {_amount(-m.loss, self.unit)} better than the bot's."
        else:
            verdict = "The difference is within the measure's error: nothing is charged."
        return " ".join([values, verdict, *self.notes, how])

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "before": list(self.before),
            "hand": self.hand,
            "turn": self.turn,
            "kind": self.kind,
            "yours": self.yours.token() if hasattr(self.yours, "token") else str(self.yours),
            "best": self.best.token() if hasattr(self.best, "token") else str(self.best),
            "your_words": self.your_words,
            "best_words": self.best_words,
            "your_value": self.your_value,
            "best_value": self.best_value,
            "error": self.error,
            "deals": None if self.measured is None else self.measured.deals,
            "precise": None if self.measured is None else self.measured.reached,
            "exact": None if self.measured is None else self.measured.exact,
            "pending": self.pending,
            "cost": self.cost,
            "grade": self.grade,
            "headline": self.headline,
            "explanation": self.explanation,
            "board": self.board.as_dict(),
            "layouts": None
            if self.layouts is None
            else [[[c.token for c in m] for m in side] for side in self.layouts],
            "open_spots": None
            if self.open_spots is None
            else [[c.token for c in side] for side in self.open_spots],
        }


@dataclass(frozen=True)
class Review:
    """A whole game's review: every decision, graded, on one
    :class:`~payme.analysis.yardstick.Yardstick`."""

    decisions: tuple[Decision, ...]
    stick: Yardstick
    rules: str
    players: int
    bots: tuple[str, ...]
    seed: int
    position: str | None = None
    names: tuple[str, ...] = field(default=())
    most: int = 0
    """Deals sampled at most per decision in this review (0: the yardstick's own bound)."""
    generation: int = BOT_GENERATION
    """The generation of the bots the game was played with (:mod:`payme.game.generations`)."""

    @property
    def deals_bound(self) -> int:
        return self.most or self.stick.most

    @property
    def unit(self) -> str:
        return self.stick.unit

    def mistakes(self, count: int = 3) -> tuple[Decision, ...]:
        """The ``count`` costliest decisions, costliest first (only those charged)."""
        costly = sorted(
            (d for d in self.decisions if d.cost > 0), key=lambda d: (-d.cost, d.number)
        )
        return tuple(costly[:count])

    @property
    def total_cost(self) -> float:
        return round(sum(d.cost for d in self.decisions), 2)

    def hands(self) -> tuple[int, ...]:
        return tuple(sorted({d.hand for d in self.decisions}))

    def per_hand(self) -> list[dict[str, Any]]:
        """For each hand: the decisions of each grade and the total charged."""
        rows = []
        for hand in self.hands():
            mine = [d for d in self.decisions if d.hand == hand]
            counts = Counter(d.grade for d in mine)
            rows.append(
                {
                    "hand": hand,
                    "decisions": len(mine),
                    **{name: counts.get(name, 0) for name, _ in GRADES},
                    "lost": round(sum(d.cost for d in mine), 2),
                }
            )
        return rows

    def grades(self) -> dict[str, int]:
        counts = Counter(d.grade for d in self.decisions)
        return {name: counts.get(name, 0) for name, _ in GRADES}

    def chart_svg(self, width: int = 560, height: int = 180) -> str:
        """A bar chart of the points (or win chance) lost in each hand, as an SVG string
        (drawn here, no plotting library: the browser-only site shows it too)."""
        from html import escape

        rows = self.per_hand()
        if not rows:
            return ""
        top = max([r["lost"] for r in rows] + [1.0])
        left, bottom, pad = 40, 24, 6
        inner_w, inner_h = width - left - pad, height - bottom - pad
        slot = inner_w / len(rows)
        bar = max(4.0, min(40.0, slot * 0.7))
        unit = "points" if self.unit == "points" else "% win chance"
        parts = [
            f'<svg class="payme-review-chart" xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {width} {height}" width="100%" style="max-width:{width}px" '
            f'role="img" aria-label="{escape(unit)} lost in each hand">',
            f"<title>{escape(unit.capitalize())} lost in each hand</title>",
            f'<line x1="{left}" y1="{pad + inner_h}" x2="{width - pad}" y2="{pad + inner_h}" '
            'stroke="currentColor" stroke-width="1"/>',
            f'<text x="{left - 4}" y="{pad + 10}" text-anchor="end" font-size="11" '
            f'fill="currentColor">{top:g}</text>',
            f'<text x="{left - 4}" y="{pad + inner_h}" text-anchor="end" font-size="11" '
            'fill="currentColor">0</text>',
        ]
        for i, r in enumerate(rows):
            h = inner_h * r["lost"] / top
            x = left + i * slot + (slot - bar) / 2
            y = pad + inner_h - h
            label = "Hand" if self.unit == "points" else "Game"
            parts.append(
                f'<rect class="payme-review-bar" data-hand="{r["hand"]}" data-lost="{r["lost"]:g}" '
                f'x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                f'fill="#c0392b"><title>{label} {r["hand"]}: {r["lost"]:g} {escape(unit)} '
                "lost</title></rect>"
            )
            parts.append(
                f'<text x="{x + bar / 2:.1f}" y="{height - 8}" text-anchor="middle" '
                f'font-size="11" fill="currentColor">{r["hand"]}</text>'
            )
        parts.append("</svg>")
        return "".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "position": self.position,
            "generation": self.generation,
            "yardstick": {
                "unit": self.stick.unit,
                "lower_is_better": self.stick.lower_is_better,
                "tolerance": self.stick.tolerance,
                "most_deals": self.deals_bound,
                "words": self.stick.words,
            },
            "grades": {name: (None if most == float("inf") else most) for name, most in GRADES},
            "total_cost": self.total_cost,
            "per_hand": self.per_hand(),
            "decisions": [d.as_dict() for d in self.decisions],
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False, indent=1)


GameReview = Review
"""The review's former name (kept: the Play page and the API reference use it)."""


# ---------------------------------------------------------------------------- replay


def review_game(
    rules: str,
    players: int,
    bots: Sequence[str],
    seed: int,
    moves: Sequence[str],
    *,
    position: str | None = None,
    most: int | None = None,
    generation: int = BOT_GENERATION,
    workers: int | None = None,
) -> Review:
    """Replay a Play game and review each of your decisions (see the module).

    ``rules``, ``players``, ``bots`` (one per other seat, or one for all), ``seed``,
    ``moves``, ``position`` and ``generation`` are the Play page's URL values (the
    bots replay their moves as the bots of that generation chose them).  ``most`` bounds the deals
    sampled per decision (default: the yardstick's own bound); ``workers``: the processes the
    deals are spread over (default :func:`payme.analysis.workers.workers`; the review is the
    same with any number).  A move the game refuses is a ``ValueError`` naming it.
    """
    run = ReviewRun(
        rules, players, bots, seed, moves, position=position, most=most, generation=generation
    )
    return run.measure(workers)


class ReviewRun:
    """A review being measured: the decisions at once (:meth:`review`, their measures so
    far), then each differing decision's measure a part at a time (:meth:`next_run`), so a
    page can show the board at once and refine the costs as the measures come in.

    The order: every measure is taken first to its first checkpoint (a rough cost for each
    decision in a few hundredths of a second each), then each in turn to its end.

    >>> run = ReviewRun("denexa", 2, ("greedy",), 4, ["s", "d3H"])
    >>> run.done, run.progress()
    (True, 'Every decision measured.')
    """

    def __init__(
        self,
        rules: str,
        players: int,
        bots: Sequence[str],
        seed: int,
        moves: Sequence[str],
        *,
        position: str | None = None,
        most: int | None = None,
        generation: int = BOT_GENERATION,
    ) -> None:
        from payme.analysis.yardstick import Measuring, fork
        from payme.game import advise
        from payme.play.session import YOU, PlaySession, parse_move

        session = PlaySession(rules, players, bots, seed, position, generation)
        stick = yardstick(session.game)
        decisions: list[Decision] = []
        self.runs: dict[int, Measuring] = {}
        """The measure of each differing decision, by its index in the decisions."""
        turn, hand = 0, 0
        for number, token in enumerate(moves):
            action = parse_move(token, YOU, session.rules, session.game.dealt)
            if action is None:
                session.next_hand()
                continue
            verdict = session.game.can(action)
            if not verdict.ok:
                why = session.words(verdict.reason)
                raise ValueError(f"move {number + 1} ({token}) was refused: {why}")
            legal = session.legal()
            now = int(getattr(session.game, "hand_number", 1))
            if now != hand:
                hand, turn = now, 0
            turn += isinstance(action, Draw)  # a turn starts with its draw
            best = advise(session.view(), legal, seed).action
            if action != best:
                self.runs[len(decisions)] = Measuring(
                    fork(session.game), 0, action, best, session.bot_names,
                    seed=session.seed * 1009 + number, most=most,
                )  # fmt: skip
            decisions.append(
                _decide(
                    session, stick, number, tuple(moves[:number]), now, max(turn, 1), action, best
                )
            )
            session.act(action)
        self._decisions = decisions
        self._review = Review(
            (), stick, session.rules.name, session.players, tuple(session.bot_names), seed,
            position, tuple(session.names), most or 0, session.generation,
        )  # fmt: skip

    @property
    def done(self) -> bool:
        return all(run.done for run in self.runs.values())

    def review(self) -> Review:
        """The review with every measure as it stands
        (:attr:`~payme.analysis.yardstick.Measure.running` while it is taken)."""
        decisions = tuple(
            d if i not in self.runs else replace(d, measured=self.runs[i].result())
            for i, d in enumerate(self._decisions)
        )
        return replace(self._review, decisions=decisions)

    def next_run(self) -> Measuring | None:
        """The measure to take further next (``None`` when all are taken)."""
        from payme.analysis.yardstick import MIN_DEALS

        waiting = [run for run in self.runs.values() if not run.done]
        rough = [run for run in waiting if run.deals < MIN_DEALS]
        return (rough or waiting)[0] if waiting else None

    def progress(self) -> str:
        """Where the measuring stands, in a player's words ("Measuring decision 7 of 12,
        ±0.8 so far.")."""
        run = self.next_run()
        if run is None:
            return "Every decision measured."
        order = list(self.runs.values())
        at = next(i for i, r in enumerate(order) if r is run) + 1
        so_far = run.result()
        aim = f"{run.stick.tolerance:g}"
        if not so_far.deals or so_far.error == float("inf"):
            return f"Measuring decision {at} of {len(order)} (aiming at ±{aim})…"
        return (
            f"Measuring decision {at} of {len(order)}: {so_far.deals:,} deals, "
            f"±{so_far.error:.1f} so far (aiming at ±{aim})…"
        )

    def measure(self, workers: int | None = None) -> Review:
        """Take every measure to its end, the deals spread over ``workers`` processes (default
        :func:`payme.analysis.workers.workers`), and give the review."""
        from payme.analysis import workers as pool

        count = pool.workers() if workers is None else workers
        while not self.done:
            waiting = [run for run in self.runs.values() if not run.done]
            for run, pairs in zip(waiting, pool.play_all(waiting, count), strict=True):
                run.add(pairs)
        return self.review()


def _decide(
    session: PlaySession,
    stick: Yardstick,
    number: int,
    before: tuple[str, ...],
    hand: int,
    turn: int,
    yours: Action,
    best: Action,
) -> Decision:
    kind = _kind(yours, best)
    board = _board(session)
    layouts = spots = None
    if kind == "layout":
        layouts, spots = _layouts(session, yours, best)
    return Decision(
        number=number,
        before=before,
        hand=hand,
        turn=turn,
        kind=kind,
        yours=yours,
        best=best,
        your_words=session.describe(yours),
        best_words=session.describe(best),
        board=board,
        measured=None,
        unit=stick.unit,
        notes=tuple(_notes(session, yours, best, kind, spots)),
        layouts=layouts,
        open_spots=spots,
    )


def _kind(yours: Action, best: Action) -> str:
    if isinstance(yours, GoOut):
        if isinstance(best, GoOut) and yours.discard == best.discard and yours != best:
            return "layout"
        return "go out"
    if isinstance(yours, Draw):
        return "draw"
    if isinstance(yours, Discard):
        return "go out" if isinstance(best, GoOut) else "discard"
    if isinstance(yours, LayOff):
        return "lay-off"
    return "other"


def _board(session: PlaySession) -> Board:
    view = session.view()
    players = session.players
    taken: list[tuple[Card, ...]] = [()] * players
    if session.game.KEEPS_SCORE:  # Pay Me: the cards each seat took from the pile and kept
        scored = session.scored_view()
        for s in range(players):
            held = Counter(scored.picked_up[s])
            held.subtract(scored.discarded[s])
            taken[s] = tuple(sorted((+held).elements()))
    melds = tuple(tuple(m) for m in getattr(view, "table", ()) or ())
    if not melds:
        melds = tuple(tuple(m.cards) for ms in view.melds for m in ms)
    return Board(
        hand=tuple(view.hand),
        pile=tuple(view.discard_pile),
        melds=melds,
        counts=tuple(view.hand_counts),
        taken=tuple(taken),
        stock=view.stock_count,
        phase=session.phase,
        names=tuple(session.names),
        declarer=getattr(view, "declarer", None),
        position=session.game.to_position(),
    )


def _unseen(session: PlaySession) -> Counter[Card]:
    from payme.game.bots import unseen_cards

    return unseen_cards(session.scored_view())


def _layouts(
    session: PlaySession, yours: Any, best: Any
) -> tuple[
    tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]],
    tuple[tuple[Card, ...], tuple[Card, ...]],
]:
    """Both go-outs' melds as cards, and the unseen cards each leaves a place for."""
    from payme.game.arrangement import lay_off_spots

    rules, dealt = session.rules, session.game.dealt
    # Only Pay Me lays off onto a declarer's melds (and keeps the view that says what is unseen).
    unseen = _unseen(session) if session.game.KEEPS_SCORE else Counter[Card]()
    sides = []
    spots = []
    for action in (yours, best):
        melds = tuple(action.melds or ())
        sides.append(tuple(tuple(m.cards) for m in melds))
        fits = tuple(
            card for card in sorted(unseen) if lay_off_spots(melds, {card: 1}, rules, dealt)
        )
        spots.append(fits)
    return (sides[0], sides[1]), (spots[0], spots[1])


def _notes(session: PlaySession, yours: Action, best: Action, kind: str, spots: Any) -> list[str]:
    """What the position shows that decides the choice (the opponents' pick-ups, the
    lay-off places a discard or a layout gives), in a player's words."""
    from payme.words import label

    notes: list[str] = []
    view = session.view()
    players = session.players
    nxt = 1 % players
    name = session.names[nxt]
    picked = getattr(view, "picked_up", None)
    if kind == "layout" and spots is not None:
        mine, theirs = spots
        notes.append(
            f"Your layout leaves places for {len(mine)} of the cards you had not seen"
            + (f" ({_cards(mine)})" if 0 < len(mine) <= 8 else "")
            + f"; the bot's for {len(theirs)}"
            + (f" ({_cards(theirs)})" if 0 < len(theirs) <= 8 else "")
            + ": every card laid off onto your melds is points the others do not pay."
        )
    if not _next_may_take(session, view):
        picked = None  # no one takes this discard: the last final turn, or a stock-only one
    final = " in their final turn" if getattr(view, "final_turn", False) else ""
    for action, who in ((yours, "your"), (best, "the bot's")):
        card = getattr(action, "card", None) or getattr(action, "discard", None)
        if card is None or picked is None:
            continue
        if isinstance(action, GoOut) and "discard" not in session.rules.final_turn_draw:
            continue  # going out: the others' final turns draw from the stock only
        wanted = [c for c in picked[nxt] if _joins(card, c)]
        if wanted:
            notes.append(
                f"{name} took {_cards(wanted)} from the pile this hand: {who} discard "
                f"{label(card)} may help {name} meld{final}."
            )
        melds = getattr(view, "table_melds", ()) or ()
        if melds and _fits_melds(card, melds, session):
            notes.append(
                f"{who.capitalize()} discard {label(card)} fits the melds on the table: "
                f"{name} may take it{final} and lay it off."
            )
    if isinstance(yours, Discard) and isinstance(best, Discard):
        notes.append(_kept_words(session, view, yours.card, best.card))
    if kind == "lay-off" and isinstance(yours, LayOff) and isinstance(best, LayOff):
        mine = sum(len(cs) for _, cs in yours.placements)
        theirs = sum(len(cs) for _, cs in best.placements)
        if theirs > mine:
            notes.append(f"The bot lays off {theirs} cards where you laid off {mine}.")
        notes.append(_left_after_lay_offs(session, view, yours, best))
    return notes


def _left_after_lay_offs(session: PlaySession, view: Any, yours: LayOff, best: LayOff) -> str:
    """What each lay-off leaves in the hand: its points and the cards that score (a card
    laid off may break a meld of the hand, as a joker that made Q♠ Q♥ a set)."""
    from payme.cards import sort_cards
    from payme.game.evaluation import layout

    parts = []
    for action, who in ((yours, "yours"), (best, "the bot's")):
        left = list(view.hand)
        for _, cards in action.placements:
            for card in cards:
                left.remove(card)
        points, dead = layout(tuple(sort_cards(left)), session.rules, session.game.dealt)
        scoring = f" ({_cards(dead)})" if dead else ""
        parts.append(f"{who} leaves {points} points in your hand{scoring}")
    return "After the lay-off, " + "; ".join(parts) + "."


def _next_may_take(session: PlaySession, view: Any) -> bool:
    """Whether the next player may still take the card discarded now: always in a turn of
    play; in a final turn only where the rules let a final turn draw the top discard and
    the next player has one left (they did not go out)."""
    if not getattr(view, "final_turn", False):
        return True
    nxt = (view.seat + 1) % session.players
    rules = session.rules
    return "discard" in getattr(rules, "final_turn_draw", ()) and nxt != view.declarer


def _kept_words(session: PlaySession, view: Any, mine: Card, theirs: Card) -> str:
    """What each discard keeps: the deadwood left (in a final turn, after the best lay-offs
    onto the melds on the table), as the board shows it."""
    from payme.cards import sort_cards
    from payme.game.evaluation import best_lay_off_points, layout

    rules, dealt = session.rules, session.game.dealt
    final = bool(getattr(view, "final_turn", False))
    melds = tuple(getattr(view, "table_melds", ()) or ())
    parts = []
    for card, who in ((mine, "your"), (theirs, "the bot's")):
        left = list(view.hand)
        left.remove(card)
        hand = tuple(sort_cards(left))
        points, dead = layout(hand, rules, dealt)
        if final and rules.lay_off and melds:
            points, placed = best_lay_off_points(hand, melds, rules, dealt)
            laid = [c for _, cs in placed for c in cs]
            rest = list(hand)
            for c in laid:
                rest.remove(c)
            after, remaining = layout(tuple(sort_cards(rest)), rules, dealt)
            dead = remaining if after == points else ()  # the cards left, when they score so
            then = "after laying off " + (_cards(laid) if laid else "nothing")
        else:
            then = "in deadwood"
        cards = f": {_cards(dead)} left" if dead else ""
        parts.append(f"{who} discard of {_label(card)} keeps {points} points {then}{cards}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def _label(card: Card) -> str:
    from payme.words import label

    return label(card)


def _joins(card: Card, other: Card) -> bool:
    if card.rank is None or other.rank is None:
        return False
    return card.rank == other.rank or (card.suit == other.suit and abs(card.rank - other.rank) <= 2)


def _fits_melds(card: Card, melds: Sequence[Any], session: PlaySession) -> bool:
    from payme.layoff import grow_meld

    return any(grow_meld(m, (card,), session.rules, session.game.dealt) is not None for m in melds)


def _cards(cards: Sequence[Card]) -> str:
    from payme.words import label

    return " ".join(label(c) for c in cards)


# ---------------------------------------------------------------------------- words


def _precision_words(m: Measure, unit: str) -> str:
    """How the difference was measured, and how precisely: the deals used and the error
    reached, saying so when it falls short of the precision aimed at, and why."""
    if m.exact:
        return "Exact: nothing was left hidden."
    over = f"{m.deals:,} deals of the cards you had not seen"
    if m.running:
        aim = f"{m.tolerance:g}" + ("" if unit == "points" else " percentage points")
        return f"Being measured: {over} so far, to ±{m.error:.1f} (aiming at ±{aim})."
    if not m.error:
        return f"Every one of {over} gave the same difference."
    aim = f"{m.tolerance:g}" + ("" if unit == "points" else " percentage points")
    if m.reached:
        return f"Measured over {over}, to ±{m.error:.1f} (aimed at: ±{aim})."
    need = f"about {m.deals_needed:,} deals would be needed"
    if m.deals < m.most:
        return (
            f"Measured over {over}, to ±{m.error:.1f} only, not the ±{aim} aimed at "
            f"({need}, more than the {m.most:,} sampled at most), and more deals would not "
            "change the grade."
        )
    return (
        f"Measured over {over}, the most sampled, to ±{m.error:.1f} only, not the ±{aim} "
        f"aimed at ({need}): the cost stated may be off by that much."
    )


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _amount(value: float, unit: str) -> str:
    text = f"{value:.1f}".removesuffix(".0")
    if unit == "points":
        return f"{text} point{'s' if text != '1' else ''}"
    return f"{text} percentage point{'s' if text != '1' else ''} of win chance"


def _value(value: float, unit: str) -> str:
    """A move's value in words: Pay Me's points against the others' average (``+2.5``: you
    expect to pay 2.5 points more than they do on average), Rummy 3-Pack's win chance."""
    if unit == "points":
        side = "more" if value > 0 else "fewer"
        if round(value, 1) == 0:
            return "expected +0.0: as many points as the others pay on average"
        return (
            f"expected {value:+.1f}: {abs(value):.1f} points {side} than the others pay on average"
        )
    return f"{value:.0f}% chance to win"


def review_text(review: Review) -> str:
    """The review as plain text (the command line's ``payme review``)."""
    stick = review.stick
    lines = [
        f"Game review: {review.rules}, {review.players} players, seed {review.seed}.",
        f"Yardstick: {stick.words}; each difference measured over the same deals for both "
        f"moves, to ±{stick.tolerance:g} within {review.deals_bound:,} deals at most (past "
        f"{min(stick.settle, review.deals_bound)}, sampling stops short of it only where "
        "that bound could not reach it and more deals could not change the grade); the "
        "deals and the error reached are given with each.",
        "Grades: best (nothing charged), good (< 2), inaccuracy (2-5), mistake (5-10), "
        "blunder (10 or more).",
        "",
    ]
    for row in review.per_hand():
        counts = ", ".join(f"{row[name]} {name}" for name, _ in GRADES if row[name])
        lines.append(f"Hand {row['hand']}: {counts}; {_amount(row['lost'], review.unit)} lost.")
    lines.append(f"Total: {_amount(review.total_cost, review.unit)} lost.")
    lines.append("")
    for d in review.decisions:
        lines.append(f"Hand {d.hand}, turn {d.turn} [{d.grade}] {d.headline}")
        if not d.agrees:
            lines.append("    " + d.explanation)
    return "\n".join(lines)
