"""The game review's one yardstick: what a move is worth, measured the same way for any move.

A move is worth what the hand (Pay Me) or the game (Rummy 3-Pack) then brings, on average
over the deals the player could be facing:

* **Pay Me**: the penalty points you pay in the hand, less the average the others pay (your
  *points against the table*; lower is better).  Going out scores 0 for you, but how you lay
  your melds down changes what the others can shed onto them, so a layout is measured on the
  same scale as a discard.
* **Rummy 3-Pack**: your chance of winning the game, in percent (higher is better; a win
  shared between two players counts half).

How it is estimated:

* **Exact where the hand is decided.**  When nothing hidden is left (every hand shown, as in
  the lay-offs) one play-out is the answer.
* **Sampled deals otherwise.**  The cards you have not seen (the others' hands but the cards
  you saw them take from the pile and keep, and the stock) are dealt again at random, as
  many times as needed; on each deal both moves are played, and the hand is played out
  to its end by the bots at the table (your own later moves by :data:`CONTINUATION`).
* **Common random numbers.**  Both moves meet the very same deals, the same shuffles and the
  same bots, so the *difference* between them is measured far more precisely than either
  value alone: a deal where anyone would lose costs both moves alike.
* **Enough deals.**  Deals are played in runs up to checkpoints (:class:`Measuring`), from
  :data:`MIN_DEALS` on, until the difference is known to within its
  :attr:`Yardstick.tolerance` (the half-width of its 95% confidence interval: ±0.5 point in
  Pay Me), or :attr:`Yardstick.most` deals are spent (:data:`MOST_DEALS`); the runs may be
  spread over worker processes (:mod:`payme.analysis.workers`) with the same result.  The
  error reached is kept with the measure, and a move is charged only when the best move is
  better by more than that error.

>>> from payme.game import new_game
>>> from payme.game.actions import Draw
>>> g = new_game("denexa", players=2, seed=3)
>>> m = measure(g, 0, Draw(0, "stock"), Draw(0, "discard"), ("greedy",), seed=1, most=64)
>>> MIN_DEALS <= m.deals <= 64 and m.error >= 0
True
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from payme.analysis.stats import Z95
from payme.cards import Card
from payme.game.actions import Action, Draw
from payme.memo import RecentMemo

if TYPE_CHECKING:
    from payme.game.base import Game
    from payme.game.bots import Bot
    from payme.game.pay_me import PayMeGame
    from payme.game.view import HandSummary

__all__ = [
    "BATCH",
    "CONTINUATION",
    "GRADE_BOUNDS",
    "MIN_DEALS",
    "MOST_DEALS",
    "Measure",
    "Measuring",
    "Yardstick",
    "measure",
    "play_pairs",
    "play_to_the_end",
    "redeal",
    "settled",
    "yardstick",
]

BATCH = 16
"""Deals sampled at a time."""
GRADE_BOUNDS = (2.0, 5.0, 10.0)
"""The costs (in the yardstick's unit) where a decision's grade changes: under the first it
is *good*, then *inaccuracy*, *mistake*, and *blunder* from the last on
(:data:`payme.analysis.review.GRADES`)."""
MIN_DEALS = 32
"""Deals sampled at least (fewer say nothing of the spread)."""
CONTINUATION = "strong"
"""The bot that plays your later moves in a play-out (the moves that follow the one
measured); the other seats are played by the bots you played against."""


@dataclass(frozen=True)
class Yardstick:
    """What a game's moves are measured by (one per game, stated once)."""

    unit: str
    """``"points"`` (Pay Me) or ``"% win chance"`` (Rummy 3-Pack)."""
    lower_is_better: bool
    tolerance: float
    """The half-width of the 95% confidence interval the sampling stops at."""
    most: int
    """Deals sampled at most for one decision (the error reached is then reported)."""
    words: str
    """The yardstick in a player's words."""
    settle: int = 128
    """Deals after which sampling stops short of :attr:`tolerance` when more deals could
    not change the verdict (:func:`settled`: the whole interval in one grade) *and* the
    tolerance is out of reach within :attr:`most` deals at the spread seen."""

    def loss(self, yours: float, best: float) -> float:
        """How much worse ``yours`` is than ``best`` (negative: better)."""
        return yours - best if self.lower_is_better else best - yours


MOST_DEALS = 8192
"""Deals sampled at most for one decision by default: ±0.5 point at the largest spread seen
in the benchmark's decisions (22 points per deal: 7,700 deals)."""

POINTS_MARGIN = Yardstick(
    "points",
    True,
    0.5,
    MOST_DEALS,
    "the penalty points you pay in the hand less the average the others pay "
    "(lower is better), over deals of the cards you had not seen",
)
WIN_CHANCE = Yardstick(
    "% win chance",
    False,
    5.0,
    MOST_DEALS,
    "your chance of winning the game, over deals of the cards you had not seen",
)


def yardstick(game: Game) -> Yardstick:
    """The yardstick of ``game``'s kind: points for Pay Me, win chance for Rummy 3-Pack."""
    return POINTS_MARGIN if game.KEEPS_SCORE else WIN_CHANCE


@dataclass(frozen=True)
class Measure:
    """Two moves measured over the same deals (``yours`` and ``best`` are averages)."""

    yours: float
    best: float
    error: float
    """The 95% half-width of the difference ``yours - best`` (0 when exact)."""
    deals: int
    """Deals sampled (1 with ``exact``)."""
    exact: bool
    seed: int
    """The deals are ``redeal(game, seat, random.Random(deal_seed(seed, i)))``."""
    lower_is_better: bool = True
    tolerance: float = 0.5
    """The half-width the sampling aimed at (the yardstick's)."""
    most: int = 0
    """The deals it could sample at most (0: exact)."""
    running: bool = False
    """Whether sampling goes on (a measure so far, shown while a review is refined)."""

    @property
    def reached(self) -> bool:
        """Whether the difference was measured as precisely as aimed (exact, or within
        :attr:`tolerance`); else :attr:`most` deals were spent first."""
        return self.exact or self.error <= self.tolerance

    @property
    def deals_needed(self) -> int:
        """About how many deals the aimed precision takes, from the spread seen (the
        error shrinks as one over the square root of the deals)."""
        if self.reached:
            return self.deals
        return math.ceil(self.deals * (self.error / self.tolerance) ** 2 / BATCH) * BATCH

    @property
    def loss(self) -> float:
        """How much worse your move measured than the best move (negative: better)."""
        diff = self.yours - self.best
        return diff if self.lower_is_better else -diff

    @property
    def charged(self) -> float:
        """The cost charged: the loss when it is larger than the error, else 0."""
        loss = round(self.loss, 2)
        return loss if loss > self.error else 0.0


def deal_seed(seed: int, i: int) -> int:
    """The seed of deal ``i`` of a measure seeded ``seed``."""
    return seed * 1_000_003 + i


# ---------------------------------------------------------------------------- deals


def fork(game: Game) -> Game:
    """A copy of ``game`` to play on (lists copied one level down; no history)."""
    new = object.__new__(type(game))
    for name, value in vars(game).items():
        if name in ("_history", "_actions", "_public_log"):
            value = list(value)
        elif isinstance(value, list):
            value = [x.copy() if isinstance(x, list) else x for x in value]
        elif isinstance(value, random.Random):
            copy = random.Random()
            copy.setstate(value.getstate())
            value = copy
        elif isinstance(value, dict):
            value = dict(value)
        setattr(new, name, value)
    return new


def _known_cards(game: Game, seat: int, other: int) -> Counter[Card]:
    """Cards ``seat`` saw ``other`` take from the discard pile and not throw back."""
    picked: list[list[Card]] | None = getattr(game, "_picked_up", None)
    if picked is not None:  # a game that keeps each seat's pick-ups and discards
        held = Counter(picked[other])
        held.subtract(getattr(game, "_discarded", [[]] * game.players)[other])
        return +held
    held = Counter()
    log: list[tuple[int, str, tuple[Card, ...]]] = getattr(game, "_public_log", [])
    for who, kind, cards in log:
        if who != other:
            continue
        if kind == "take":
            held.update(cards)
        elif kind == "discard":
            held.subtract(cards)
    return +held


def hidden(game: Game, seat: int) -> bool:
    """Whether anything is hidden from ``seat`` that the rest of the hand depends on."""
    phase = game.phase
    if phase == "lay_off" and getattr(game, "_shown", None) is not None:
        return False  # every hand is shown for the lay-offs
    if phase == "final_discard" and not getattr(game, "_final_queue", True):
        return False  # the last final turn: no card is drawn after it, hands are shown next
    others = sum(len(h) for s, h in enumerate(game._hands) if s != seat)
    known = sum(sum(_known_cards(game, seat, s).values()) for s in range(game.players) if s != seat)
    return bool(game._stock) or others > known


def redeal(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` with the cards ``seat`` has not seen dealt again at random: each
    other seat keeps the cards ``seat`` saw it take and keep, and gets the rest of its
    hand from the unseen cards; the stock is the unseen cards left, shuffled."""
    g = fork(game)
    pool = list(g._stock)
    refill: list[tuple[int, list[Card], int]] = []
    for s, hand in enumerate(g._hands):
        if s == seat:
            continue
        rest = Counter(hand)
        keep: list[Card] = []
        for card, n in _known_cards(game, seat, s).items():
            k = min(n, rest[card])
            keep += [card] * k
            rest[card] -= k
        pool += list((+rest).elements())
        refill.append((s, keep, len(hand) - len(keep)))
    pool.sort()
    rng.shuffle(pool)
    for s, keep, n in refill:
        g._hands[s] = keep + [pool.pop() for _ in range(n)]
    g._stock = pool
    g._rng = random.Random(rng.random())
    if hasattr(g, "_go_out_cache"):
        g._go_out_cache = None
    return g


# ---------------------------------------------------------------------------- play-outs


def _result(game: Game, seat: int, start: int) -> float | None:
    """The measured value once decided (``None`` while the hand is being played)."""
    if game.KEEPS_SCORE:
        summaries: list[HandSummary] = getattr(game, "_summaries", [])
        if len(summaries) <= start:
            return None
        points = summaries[start].points
        others = [p for s, p in enumerate(points) if s != seat]
        return float(points[seat] - sum(others) / max(1, len(others)))
    if not game.over:
        return None
    winners = game.winners()
    return 100.0 / len(winners) if seat in winners else 0.0


def play_to_the_end(
    game: Game,
    seat: int,
    bots: dict[int, Bot],
    streams: dict[int, list[Card]] | None = None,
    first: Action | None = None,
    limit: int = 2000,
) -> float:
    """Play ``game`` (a copy: it is changed) to the end of the hand (Pay Me) or the game
    (Rummy 3-Pack) with ``bots`` by seat, and return ``seat``'s value (see the module).

    ``streams``: the stock cards each seat draws in turn, while they are in the stock (the
    stock is a random order all the same; this keeps each seat's draws the same in two
    play-outs where someone takes from the pile in one but not the other).  ``first``: the
    move to make first (legal for the seat to move)."""
    start = len(getattr(game, "_summaries", ()))
    move = first
    checked = True  # the first move is checked; a bot's listed move is legal as listed
    for _ in range(limit):
        if move is not None:
            if streams and isinstance(move, Draw) and move.source == "stock":
                _next_from(game._stock, streams.get(move.seat))
            (game._apply_owned if checked else game._apply_listed)(move)
        value = _result(game, seat, start)
        if value is not None:
            return value
        mover = game.to_move
        if mover is None:
            break
        if game.phase == "lay_off" and getattr(bots[mover], "name", "") in BEST_LAYING_OFF:
            # what these bots lay off, without the list (lay-offs are Pay Me's)
            move = cast("PayMeGame", game).best_lay_off(mover)
            checked = False  # the engine's own best lay-off
            continue
        legal = game.legal_actions()
        move = bots[mover].choose(game.view(mover), legal)
        checked = not any(a is move for a in legal)
    value = _result(game, seat, start)
    if value is None:
        raise RuntimeError("a play-out did not end")
    return value


BEST_LAYING_OFF = frozenset({"greedy", "strong", "expert"})
"""The bots that lay off the engine's best lay-off (``PayMeGame.best_lay_off``) whenever
they lay off: a play-out asks the engine for it directly, not for the list of lay-offs."""


def _next_from(stock: list[Card], stream: list[Card] | None) -> None:
    """Put the first card of ``stream`` still in ``stock`` on top of it (the end)."""
    while stream:
        card = stream.pop(0)
        if card in stock:
            i = len(stock) - 1 - stock[::-1].index(card)
            stock[i], stock[-1] = stock[-1], stock[i]
            return


def _streams(game: Game, rng: random.Random) -> dict[int, list[Card]]:
    """Each seat's stock cards in turn: the stock dealt out to the seats at random."""
    cards = list(game._stock)
    rng.shuffle(cards)
    n = game.players
    return {s: cards[s::n] for s in range(n)}


def _bots(game: Game, seat: int, names: Sequence[str], seed: int) -> dict[int, Bot]:
    from payme.game import make_bot

    bots = {seat: make_bot(CONTINUATION, game.rules, seed)}
    others = [s for s in range(game.players) if s != seat]
    for s, name in zip(others, names, strict=True):
        bots[s] = make_bot(name, game.rules, seed * 7 + s)
    return bots


_memo: RecentMemo[bytes] = RecentMemo(4096)
"""Measures already taken, by position, moves, bots and seed (a review shown twice, or a
"How am I doing?" and then the end-of-game review, measures each decision once)."""


class Measuring:
    """Two moves being measured over the same deals, a part at a time (:func:`measure` runs
    one to its end; a review on a page shows each measure so far and refines it).

    The deals are played in runs that end at *checkpoints*; only there is the error looked
    at and the next checkpoint chosen, so the deals played, and the measure, are the same
    however the runs are cut into parts (one at a time, or spread over processes):

    * the first checkpoint is at :data:`MIN_DEALS`; sampling stops at a checkpoint where the
      95% half-width of the difference is within the yardstick's tolerance, where ``most``
      deals are spent, or (from :attr:`Yardstick.settle` deals on) where the tolerance is out
      of reach within ``most`` deals at the spread seen and more deals could not change the
      grade (:func:`settled`);
    * otherwise the next checkpoint is where the spread seen says the tolerance is reached
      (rounded up to a :data:`BATCH`), but no more than twice the deals so far (a spread
      read off a few deals can be far off) and at least a batch more.

    >>> from payme.game import new_game
    >>> g = new_game("denexa", players=2, seed=3)
    >>> moves = (Draw(0, "stock"), Draw(0, "discard"))
    >>> run = Measuring(g, 0, *moves, ("greedy",), seed=2, most=64)
    >>> run.pending()
    range(0, 32)
    >>> while not run.done:
    ...     run.add(run.play(run.pending()[:8]))
    >>> _memo.clear()  # the same measure again, taken at once
    >>> run.result() == measure(g, 0, *moves, ("greedy",), seed=2, most=64)
    True
    """

    def __init__(
        self,
        game: Game,
        seat: int,
        yours: Action,
        best: Action,
        bots: Sequence[str],
        *,
        seed: int = 0,
        most: int | None = None,
    ) -> None:
        import struct

        self.stick = stick = yardstick(game)
        self.game, self.seat, self.yours, self.best = game, seat, yours, best
        self.bots, self.seed = tuple(bots), seed
        self.most = stick.most if most is None else most
        self.exact = not hidden(game, seat)
        self.key = repr(
            (game.to_position(), seat, yours, best, self.bots, seed, self.most)
        ).encode()
        self.mine: list[float] = []
        self.theirs: list[float] = []
        self._goal = 1 if self.exact else min(MIN_DEALS, max(2, self.most))
        self._found: Measure | None = None
        known = _memo.get(self.key)
        if known is not None:
            y, b, e, d, x = struct.unpack("dddi?", known)
            self._found = self._measure(y, b, e, d, x)

    def _measure(
        self,
        yours: float,
        best: float,
        error: float,
        deals: int,
        exact: bool,
        running: bool = False,
    ) -> Measure:
        stick = self.stick
        return Measure(
            yours, best, error, deals, exact, self.seed, stick.lower_is_better,
            stick.tolerance, self.most, running,
        )  # fmt: skip

    @property
    def done(self) -> bool:
        return self._found is not None

    @property
    def deals(self) -> int:
        """Deals played so far (of a finished measure: the deals it used)."""
        return self._found.deals if self._found is not None else len(self.mine)

    def pending(self) -> range:
        """The deals to play before the next checkpoint (empty when done)."""
        if self._found is not None:
            return range(0)
        return range(len(self.mine), self._goal)

    def play(self, deals: range) -> list[tuple[float, float]]:
        """Both moves' values on each of ``deals`` (see :func:`play_pairs`)."""
        return play_pairs(self.task(deals))

    def task(self, deals: range) -> PairsTask:
        """What :func:`play_pairs` needs to play ``deals`` (picklable: for another process)."""
        return (self.game, self.seat, self.yours, self.best, self.bots, self.seed,
                deals.start, deals.stop, self.exact)  # fmt: skip

    def add(self, pairs: Sequence[tuple[float, float]]) -> None:
        """Record the values of the next ``len(pairs)`` deals (in order); at a checkpoint,
        stop or choose the next one."""
        if self._found is not None or len(self.mine) + len(pairs) > self._goal:
            raise ValueError("more deals than the measure asked for")
        for a, b in pairs:
            self.mine.append(a)
            self.theirs.append(b)
        if len(self.mine) == self._goal:
            self._checkpoint()

    def _checkpoint(self) -> None:
        import struct

        n, stick = len(self.mine), self.stick
        diffs = [a - b for a, b in zip(self.mine, self.theirs, strict=True)]
        error = 0.0 if self.exact else _half_width(diffs)
        loss = sum(diffs) / n * (1 if stick.lower_is_better else -1)
        need = _needed(n, error, stick)
        stop = (
            self.exact
            or error <= stick.tolerance
            or n >= self.most
            or (n >= stick.settle and need > self.most and settled(loss, error))
        )
        if not stop:
            ahead = math.ceil(need * 1.05 / BATCH) * BATCH
            self._goal = min(self.most, max(n + BATCH, min(2 * n, ahead)))
            return
        found = self._measure(sum(self.mine) / n, sum(self.theirs) / n, error, n, self.exact)
        _memo.put(self.key, struct.pack("dddi?", found.yours, found.best, error, n, self.exact))
        self._found = found

    def result(self) -> Measure:
        """The measure: the finished one, or the one so far (:attr:`Measure.running`; its
        error infinite before two deals)."""
        if self._found is not None:
            return self._found
        n = len(self.mine)
        if not n:
            return self._measure(0.0, 0.0, math.inf, 0, self.exact, running=True)
        diffs = [a - b for a, b in zip(self.mine, self.theirs, strict=True)]
        return self._measure(
            sum(self.mine) / n, sum(self.theirs) / n, _half_width(diffs), n, self.exact, True
        )

    def run(self, workers: int = 1) -> Measure:
        """Play to the end (the runs spread over ``workers`` processes,
        :mod:`payme.analysis.workers`) and give the measure."""
        from payme.analysis.workers import play_all

        while not self.done:
            self.add(play_all([self], workers)[0])
        return self.result()


PairsTask = tuple["Game", int, Action, Action, tuple[str, ...], int, int, int, bool]
"""A run of deals to play: game, seat, your move, the best move, the bots, the measure's
seed, the first deal and the deal after the last, exact."""


def play_pairs(task: PairsTask) -> list[tuple[float, float]]:
    """Both moves' values on each deal of ``task`` (a module-level function: a worker
    process plays it)."""
    game, seat, yours, best, bots, seed, start, stop, exact = task
    pairs = []
    for i in range(start, stop):
        s = deal_seed(seed, i)
        pairs.append((one_deal(game, seat, yours, bots, s, exact),
                      one_deal(game, seat, best, bots, s, exact)))  # fmt: skip
    return pairs


def measure(
    game: Game,
    seat: int,
    yours: Action,
    best: Action,
    bots: Sequence[str],
    *,
    seed: int = 0,
    most: int | None = None,
    workers: int = 1,
) -> Measure:
    """``yours`` and ``best`` (both legal for ``seat`` to move in ``game``) measured over the
    same deals (see the module and :class:`Measuring`).  ``bots``: the bots in the other
    seats, in seat order; ``workers``: the processes to spread the deals over."""
    return Measuring(game, seat, yours, best, bots, seed=seed, most=most).run(workers)


def value_over_deals(
    game: Game, seat: int, move: Action, bots: Sequence[str], seed: int, deals: int
) -> list[float]:
    """``move``'s value on each of the first ``deals`` deals of a measure seeded ``seed``
    (what :func:`measure` averages; a test replays both moves with it)."""
    exact = not hidden(game, seat)
    return [one_deal(game, seat, move, bots, deal_seed(seed, i), exact) for i in range(deals)]


def one_deal(
    game: Game, seat: int, move: Action, bots: Sequence[str], seed: int, exact: bool = False
) -> float:
    """``move``'s value on the deal seeded ``seed`` (the game itself when ``exact``)."""
    rng = random.Random(seed)
    g = fork(game) if exact else redeal(game, seat, rng)
    streams = None if exact else _streams(g, rng)
    return play_to_the_end(g, seat, _bots(g, seat, bots, seed), streams, first=move)


def settled(loss: float, error: float) -> bool:
    """Whether more deals could not change a decision's grade: the 95% interval
    ``loss ± error`` lies within one grade (:data:`GRADE_BOUNDS`), or wholly under the
    first bound (a charge, if any, under 2).

    >>> settled(7.0, 1.5), settled(4.5, 1.0), settled(0.3, 1.2), settled(1.0, 1.5)
    (True, False, True, False)
    """
    lo, hi = max(0.0, loss - error), max(0.0, loss + error)
    if hi < GRADE_BOUNDS[0]:
        return True
    band = sum(1 for bound in GRADE_BOUNDS if lo >= bound)
    return lo > 0 and band == sum(1 for bound in GRADE_BOUNDS if hi >= bound)


def _needed(deals: int, error: float, stick: Yardstick) -> int:
    """About how many deals bring ``error`` (reached over ``deals``) to the tolerance."""
    return math.ceil(deals * (error / stick.tolerance) ** 2)


def _half_width(diffs: Sequence[float]) -> float:
    n = len(diffs)
    if n < 2:
        return math.inf
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return Z95 * math.sqrt(var / n)
