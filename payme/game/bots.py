"""Bots that play Pay Me from a seat's view: ``random``, ``greedy`` and ``strong``.

A bot sees only ``game.view(seat)`` and the legal actions; it owns a ``random.Random`` seeded
by :func:`~payme.game.make_bot`, so a game of bots depends on nothing but its seeds.

* ``random`` picks any legal action, uniformly.
* ``greedy`` takes the top discard when that lowers its best deadwood (after its discard),
  discards whatever leaves the fewest deadwood points, goes out whenever it can, and lays off
  as much as it can.
* ``strong`` goes out whenever it can, laying down (among its arrangements) the one that
  leaves the opponents the fewest lay-off spots for the cards they could hold, and
  otherwise weighs its choices: a draw from the stock by the unseen cards (the pack minus
  its hand, the discard pile, the table and the cards it saw others take), keeps wild
  cards, keeps pairs and near-runs with live cards, avoids feeding the next player cards
  that match what it picked up (more so late in the hand), and in a final turn keeps the
  cards it can lay off onto the declarer's melds.

>>> from payme.game import play_game
>>> g = play_game("classic", players=2, bots=("strong", "random"), seed=4)
>>> g.over
True
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from payme.cards import CARDS, N_REGULAR, Card, sort_cards
from payme.game import BOT_NAMES, game_class, make_bot
from payme.game.actions import Action, Discard, Draw, GoOut, LayOff
from payme.game.arrangement import going_out_arrangements, lay_off_spots
from payme.game.base import Game, GameOption, narrow_game
from payme.game.collector import fewer_young_collections
from payme.game.evaluation import (
    Hand,
    best_discard_points,
    best_lay_off_points,
    layout,
    points,
)
from payme.game.generations import BOT_GENERATION, check_generation
from payme.game.pay_me import PayMeGame, discard_action, draw_action
from payme.game.view import PayMeView, SeatView, narrow
from payme.melds import Meld
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules

SAFETY_TURN_LIMIT = PayMeGame.BOT_TURN_LIMIT
"""Turns in one hand after which a bot game ends the hand with no declarer (a safety net:
bots that discard at random may never go out with big hands)."""


class Bot(Protocol):
    """Anything that picks an action from a seat's view and the legal actions.

    The interface every bot keeps (both games): ``name`` (one of :data:`~payme.game.BOT_NAMES` for
    the built-in bots) and ``choose(view, legal)``, which returns one action that ``game.can``
    accepts — one of ``legal``, or a :class:`~payme.game.actions.GoOut` of ``legal`` with the bot's
    own arrangement.  A bot sees only ``game.view(seat)`` (a :class:`~payme.game.view.SeatView` of
    the game's kind) and owns its random source.
    """

    name: str

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action: ...


@dataclass(frozen=True)
class Recommendation:
    """What a bot that explains itself (the experts) would do, and why in a player's words.

    ``options`` pairs each choice it weighed with the penalty points it expects from it
    (lower is better; going out is 0), best first.
    """

    action: Action
    reason: str
    options: tuple[tuple[Action, float], ...] = ()


@runtime_checkable
class Advisor(Bot, Protocol):
    """A bot that also says why: ``advise(view, legal)`` -> :class:`Recommendation`."""

    def advise(self, view: SeatView, legal: Sequence[Action]) -> Recommendation: ...


BotFactory = Callable[[Ruleset, int, int], Bot]
"""What makes a bot: ``factory(rules, seed, generation)`` (:mod:`payme.game.generations`)."""


class SeededBot:
    """What every built-in bot starts from: the rule set and its own random source."""

    name: str

    def __init__(self, rules: Ruleset, seed: int = 0, generation: int = BOT_GENERATION) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.generation = check_generation(generation, "generation")
        """Whose choices this bot makes: the bots of that generation
        (:mod:`payme.game.generations`)."""

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """One action of ``legal`` (each bot decides its own way)."""
        raise NotImplementedError


def by_name(*bots: type[SeededBot], **later: BotFactory) -> dict[str, BotFactory]:
    """A table of bots by their ``name``, with ``later`` (factories by name) added."""
    return {bot.name: bot for bot in bots} | later


def imported_later(module: str, cls: str) -> BotFactory:
    """A factory of the bot class ``module.cls``, imported at the first bot it makes (an
    expert bot builds on its game's strong bot, so its module imports this one)."""

    def make(rules: Ruleset, seed: int, generation: int = BOT_GENERATION) -> Bot:
        bot: Bot = getattr(importlib.import_module(module), cls)(rules, seed, generation)
        return bot

    return make


# ---------------------------------------------------------------------------- evaluation


def _without(hand: Hand, card: Card) -> Hand:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _with(hand: Hand, card: Card) -> Hand:
    return sort_cards((*hand, card))


def _best_after_discard(hand: Hand, rules: Ruleset, dealt: int) -> int:
    return best_discard_points(hand, rules, dealt)[1]


def _worth_taking(hand: Hand, top: Card, rules: Ruleset, dealt: int) -> bool:
    """Whether taking the discard ``top`` into the sorted ``hand`` (and discarding well)
    leaves fewer deadwood points than the hand has now."""
    now = points(hand, rules, dealt)
    return _best_after_discard(_with(hand, top), rules, dealt) < now


def discard_candidates(hand: Hand, rules: Ruleset, dealt: int) -> dict[Card, tuple[int, Hand]]:
    """Discards worth weighing from a sorted ``hand``, each with the points and deadwood
    of what is left: the best layout's deadwood cards (throwing one leaves that layout less
    the card, no search needed), and the solver's best discard (one search), which breaks
    a meld when that is better."""
    total, dead = layout(hand, rules, dealt)
    found: dict[Card, tuple[int, Hand]] = {}
    for card in dead:
        if card not in found:
            found[card] = (total - rules.card_points(card, dealt), _without(dead, card))
    card, _ = best_discard_points(hand, rules, dealt)
    if card not in found:
        found[card] = layout(_without(hand, card), rules, dealt)
    return found


def _is_listed(action: Action, legal: Sequence[Action]) -> bool:
    """Whether ``action`` is the very object one of ``legal`` is (a plain loop: ``any`` over
    a generator costs a bot game about 0.2 ms)."""
    for candidate in legal:  # noqa: SIM110 - the loop is the point (see above)
        if candidate is action:
            return True
    return False


def _best_lay_off(view: PayMeView, legal: Sequence[Action]) -> Action:
    """The legal lay-off that leaves the fewest points (the engine lists the best one)."""
    return _best_listed_lay_off(view.hand, view.table_melds, view.rules, view.dealt, legal)


def _best_listed_lay_off(
    hand: Iterable[Card],
    melds: tuple[Meld, ...],
    rules: Ruleset,
    dealt: int,
    legal: Sequence[Action],
) -> Action:
    """:func:`_best_lay_off` of the seat holding ``hand``, the declarer's ``melds`` on the
    table."""
    if len(legal) == 1:
        # Nothing fits (the engine lists each card that fits alone): no search to make.
        return legal[0]
    wanted = best_lay_off_points(sort_cards(hand), melds, rules, dealt)[1]
    for action in legal:
        if isinstance(action, LayOff) and action.placements == wanted:
            return action
    return legal[0]


# ---------------------------------------------------------------------------- the bots


class RandomBot(SeededBot):
    """Any legal action, uniformly at random."""

    name = "random"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[self.rng.randrange(len(legal))]


class GreedyBot(SeededBot):
    """Lowest deadwood now: takes the discard when it helps, discards to the fewest points."""

    name = "greedy"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return self._choose(narrow(view, PayMeView), legal)

    def _choose(self, view: PayMeView, legal: Sequence[Action]) -> Action:
        first = legal[0]
        if isinstance(first, Draw):
            return self._draw(view, legal)
        if isinstance(first, LayOff):
            return _best_lay_off(view, legal)
        for action in legal:
            if isinstance(action, GoOut):
                return action
        return self._discard(view, legal)

    def _draw(self, view: PayMeView, legal: Sequence[Action]) -> Action:
        sources = {a.source: a for a in legal if isinstance(a, Draw)}
        top = view.top_discard
        if "discard" in sources and top is not None:
            if "stock" not in sources:
                return sources["discard"]
            if _worth_taking(sort_cards(view.hand), top, view.rules, view.dealt):
                return sources["discard"]
        return sources.get("stock") or next(iter(sources.values()))

    def _discard(self, view: PayMeView, legal: Sequence[Action]) -> Action:
        card = best_discard_points(sort_cards(view.hand), view.rules, view.dealt)[0]
        seat = view.seat
        # The listed discard of that card, found without building one to compare with.
        for action in legal:
            if type(action) is Discard and action.card == card and action.seat == seat:
                return action
        return Discard(seat, card)

    def _move(self, played: Game) -> Action | None:
        """What :meth:`choose` of a bot of this very class picks for the seat to move in
        ``played`` (a Pay Me game), found from the game itself without building the seat's
        view or listing every legal action (each cost about as much as the decision), and
        legal by construction (a lay-off is one of those listed); ``None`` where it would
        not be so sure (a card never discarded): then ask :meth:`choose`.  The bot loop of
        a game of bots asks this; a test compares it with :meth:`choose` at every move of
        many games."""
        game = narrow_game(played, PayMeGame)  # a bot plays one game, as choose narrows
        seat = game.to_move
        phase = game.phase
        if seat is None:
            return None
        rules, dealt = game.rules, game.dealt
        if phase == "draw" or phase == "final_draw":
            # _draw of the legal draws (game._legal_draws), without listing them.
            sources = game._draw_sources()
            stock = bool(game._stock) and "stock" in sources
            take = bool(game._pile) and "discard" in sources
            if take and (
                not stock
                or _worth_taking(sort_cards(game._hands[seat]), game._pile[-1], rules, dealt)
            ):
                return draw_action(seat, "discard")
            return draw_action(seat, "stock") if stock else None
        if phase == "lay_off":
            legal = game._layoff_options(seat)
            melds = tuple(game._declarer_melds)
            return _best_listed_lay_off(game._hands[seat], melds, rules, dealt, legal)
        if phase not in ("discard", "final_discard") or not game._hands[seat]:
            return None
        hand = sort_cards(game._hands[seat])
        if phase == "discard":
            outs = game._go_out_discards(hand)
            if outs:
                return GoOut(seat, outs[0])
        card = best_discard_points(hand, rules, dealt)[0]
        if rules.never_discarded and card.token in rules.never_discarded:
            return None
        return discard_action(seat, card)


ARRANGEMENTS = 16
"""Arrangements weighed at most per discard when going out."""


class StrongBot(GreedyBot):
    """Weighs draws by the unseen cards, keeps wild cards and live partial melds, reads the
    table (what others pick up, how late the hand is), and in a final turn plays for the
    fewest points after lay-offs."""

    name = "strong"

    # weight of one expected "out" (an unseen card that would complete a partial meld)
    LIVE_WEIGHT = 2.0
    # extra points a discard costs when the next player has shown interest in it
    FEED_PENALTY = 4.0
    # a discard that saves this many points is taken without weighing the stock
    SURE_GAIN = 10
    # cards that may meld weighed one by one when estimating a draw from the stock
    SAMPLE = 10

    def _choose(self, view: PayMeView, legal: Sequence[Action]) -> Action:
        first = legal[0]
        if isinstance(first, LayOff):
            return _best_lay_off(view, legal)
        if isinstance(first, Draw):
            if view.final_turn:
                return self._final_draw(view, legal)
            return self._draw(view, legal)
        outs = [action for action in legal if isinstance(action, GoOut)]
        if outs:
            return self._go_out(view, outs)
        if view.final_turn:
            return self._final_discard(view)
        return self._discard(view, legal)

    # --- going out

    ARRANGEMENTS = ARRANGEMENTS
    """Arrangements weighed at most per discard when going out."""

    def _go_out(self, view: PayMeView, outs: Sequence[GoOut]) -> GoOut:
        """Go out laying down the arrangement that leaves the opponents the fewest lay-off
        spots for the cards they could hold (every arrangement scores 0: all cards melded),
        as :func:`tightest_go_out` finds it."""
        if not view.rules.lay_off:
            return outs[0]
        return tightest_go_out(view, outs, self.ARRANGEMENTS)

    # --- what is still out there

    def _unseen(self, view: PayMeView) -> Counter[Card]:
        """Cards not in this seat's hand, the discard pile, the table or known hands."""
        return unseen_cards(view)

    @staticmethod
    def _known_in_hand(view: PayMeView, seat: int) -> Counter[Card]:
        """Cards ``seat`` took from the discard pile this hand and has not thrown back."""
        return known_in_hand(view, seat)

    # --- draws

    def _draw(self, view: PayMeView, legal: Sequence[Action]) -> Action:
        sources = {a.source: a for a in legal if isinstance(a, Draw)}
        top = view.top_discard
        if "discard" not in sources or top is None:
            return sources["stock"]
        if "stock" not in sources:
            return sources["discard"]
        rules, dealt = view.rules, view.dealt
        hand = sort_cards(view.hand)
        now = points(hand, rules, dealt)
        with_top = _best_after_discard(_with(hand, top), rules, dealt)
        if rules.is_wild(top, dealt):
            return sources["discard"]  # a wild card is worth more than its points
        if with_top >= now:
            return sources["stock"]
        if with_top == 0 or with_top <= now - self.SURE_GAIN:
            return sources["discard"]
        expected = self._expected_stock(view, hand, now)
        # Taking the discard shows the table what we collect: ask it to beat the stock.
        return sources["discard"] if with_top <= expected - 1 else sources["stock"]

    def _expected_stock(self, view: PayMeView, hand: Hand, now: int) -> float:
        """Expected deadwood after drawing from the stock and discarding well."""
        rules, dealt = view.rules, view.dealt
        unseen = self._unseen(view)
        total = sum(unseen.values())
        if not total:
            return float(now)
        ranks = {c.rank for c in hand if c.rank is not None}
        near = {(c.suit, c.rank + d) for c in hand if c.rank is not None for d in (-2, -1, 1, 2)}
        drop_best = _best_after_discard(hand, rules, dealt)  # fewest points with one card gone
        wild = {c.index for c in _wild_kinds(rules, dealt)}
        expect = 0.0
        relevant: list[tuple[Card, int]] = []
        # In card order (each card once: the key is its index, read in C).
        for card, n in sorted(unseen.items(), key=_first_index):
            if card.index in wild or card.rank in ranks or (card.suit, card.rank) in near:
                relevant.append((card, n))
            else:
                # A card that melds with nothing: keep it in place of the worst deadwood
                # card, or throw it back.
                expect += n * min(now, drop_best + rules.card_points(card, dealt))
        if relevant:
            # Weigh a sample of the cards that may meld (the search costs), scaled up.
            sample = (
                relevant if len(relevant) <= self.SAMPLE else self.rng.sample(relevant, self.SAMPLE)
            )
            weight = sum(n for _, n in sample)
            mean = (
                sum(n * _best_after_discard(_with(hand, card), rules, dealt) for card, n in sample)
                / weight
            )
            expect += mean * sum(n for _, n in relevant)
        return expect / total

    def _final_draw(self, view: PayMeView, legal: Sequence[Action]) -> Action:
        top = view.top_discard
        if top is not None and _fits_table(top, view):
            # It will be laid off: as good as melded.
            take = next((a for a in legal if isinstance(a, Draw) and a.source == "discard"), None)
            if take is not None:
                return take
        return GreedyBot._draw(self, view, legal)

    # --- discards

    def _candidates(self, view: PayMeView) -> dict[Card, tuple[int, Hand]]:
        """Discards worth weighing from the seat's hand (:func:`discard_candidates`)."""
        return discard_candidates(sort_cards(view.hand), view.rules, view.dealt)

    def _final_discard(self, view: PayMeView) -> Action:
        """Fewest points after lay-offs: keep the cards that fit the declarer's melds."""
        rules, dealt = view.rules, view.dealt
        fits = _table_fits(view)
        best_key: tuple[int, int] | None = None
        choice: Card | None = None
        for card, (pts, dead) in self._candidates(view).items():
            saved = sum(rules.card_points(c, dealt) for c in dead if fits >> c.index & 1)
            key = (pts - saved, -rules.card_points(card, dealt))
            if best_key is None or key < best_key:
                best_key, choice = key, card
        assert choice is not None
        return discard_action(view.seat, choice)  # the very object legal_actions lists

    def _discard(self, view: PayMeView, legal: Sequence[Action]) -> Action:
        rules, dealt = view.rules, view.dealt
        candidates = self._candidates(view)
        unseen = self._unseen(view)
        wanted = self._wanted_by_next(view)
        late = min(1.0, sum(view.turns) / max(1, view.players * view.dealt))
        lowest = min(p for p, _ in candidates.values())
        live_outs = _LiveOuts(rules, dealt, unseen)
        best_key: tuple[float, int] | None = None
        choice: Card | None = None
        for card, (pts, dead) in candidates.items():
            if pts > lowest + 10:
                continue  # never throw away a whole meld's worth for potential
            score = float(pts)
            if rules.is_wild(card, dealt):
                score += 15.0  # keep wild cards: they fit anywhere later
            score -= self.LIVE_WEIGHT * (1.0 - 0.5 * late) * live_outs(dead)
            if _matches(card, wanted):
                score += self.FEED_PENALTY * (0.5 + late)
            key = (score, -rules.card_points(card, dealt))
            if best_key is None or key < best_key:
                best_key, choice = key, card
        assert choice is not None
        return discard_action(view.seat, choice)  # the very object legal_actions lists

    def _wanted_by_next(self, view: PayMeView) -> list[Card]:
        nxt = (view.seat + 1) % view.players
        return list(view.picked_up[nxt])


def known_in_hand(view: PayMeView, seat: int) -> Counter[Card]:
    """Cards ``seat`` took from the discard pile this hand and has not thrown back."""
    held = Counter(view.picked_up[seat])
    held.subtract(view.discarded[seat])
    return +held


def unseen_cards(view: PayMeView) -> Counter[Card]:
    """Cards the seat whose ``view`` it is has not seen: not in its hand, the discard pile,
    the table, nor among the cards it saw others take from the pile and keep."""
    return Counter({CARDS[i]: n for i, n in enumerate(unseen_by_index(view)) if n})


def unseen_by_index(view: PayMeView) -> list[int]:
    """:func:`unseen_cards` as the copies unseen of each card, by card index (counted by
    index: the strong and expert bots ask it at every draw and discard)."""
    counts = list(view.rules.pack_counts(view.players))
    for cards in (view.hand, view.discard_pile, *view.table):
        for c in cards:
            counts[c.index] -= 1
    for s in range(view.players):
        if s != view.seat and view.picked_up[s]:
            held = [0] * len(counts)  # known_in_hand, by index
            for c in view.picked_up[s]:
                held[c.index] += 1
            for c in view.discarded[s]:
                held[c.index] -= 1
            for i, n in enumerate(held):
                if n > 0:
                    counts[i] -= n
    return [n if n > 0 else 0 for n in counts]


def tightest_go_out(view: PayMeView, outs: Sequence[GoOut], limit: int = ARRANGEMENTS) -> GoOut:
    """The go-out among ``outs`` (legal go-outs of the seat to move) laid down the way that
    leaves the opponents the fewest lay-off spots for the cards the seat has not seen: the
    first such discard and arrangement in the engine's order.  The bots go out this way and
    the Play page proposes this layout (:func:`proposed_layout`), so accepting the proposal
    is what the strongest bot does."""
    unseen = unseen_cards(view)
    by_discard: dict[Card | None, GoOut] = {}
    for out in outs:
        by_discard.setdefault(out.discard, out)
    best: tuple[int, GoOut] | None = None
    for discard, melds in going_out_arrangements(
        view.hand, [out.discard for out in outs], view.rules, view.dealt, limit
    ):
        spots = lay_off_spots(melds, unseen, view.rules, view.dealt)
        if best is None or spots < best[0]:
            out = by_discard[discard]
            best = (spots, GoOut(out.seat, out.discard, melds))
            if not spots:
                break  # none can leave fewer
    return outs[0] if best is None else best[1]


def proposed_layout(view: PayMeView, discard: Card | None) -> tuple[Meld, ...]:
    """The melds to propose to a player going out with ``discard``: the layout
    :func:`tightest_go_out` lays down for that discard (the engine's best layout where the
    rules have no lay-offs)."""
    from payme.game.arrangement import arrangements

    kept = list(view.hand)
    if discard is not None:
        kept.remove(discard)
    if view.rules.lay_off:
        out = tightest_go_out(view, [GoOut(view.seat, discard)])
        if out.melds:
            return tuple(out.melds)
    found = arrangements(tuple(kept), view.rules, view.dealt, 1)
    return tuple(found[0]) if found else ()


def _matches(card: Card, wanted: Iterable[Card]) -> bool:
    """Whether ``card`` could join a meld with one of the ``wanted`` cards."""
    for w in wanted:
        if w.rank is None or card.rank is None:
            continue
        if w.rank == card.rank or (w.suit == card.suit and abs(w.rank - card.rank) <= 2):
            return True
    return False


def _fits_table(card: Card, view: PayMeView) -> bool:
    """Whether ``card`` alone can be laid off onto one of the declarer's melds."""
    return bool(_table_fits(view) >> card.index & 1)


def _table_fits(view: PayMeView) -> int:
    """The kinds of card that can be laid off alone onto one of the declarer's melds, as a
    mask of card indices (each meld's :func:`~payme.layoff.fitting_mask`, which a test
    compares with growing the meld by each card)."""
    if not view.rules.lay_off or not view.table_melds:
        return 0
    from payme.layoff import fitting_mask
    from payme.melds import tables_for

    t = tables_for(view.rules, view.dealt)
    mask = 0
    for meld in view.table_melds:
        mask |= fitting_mask(meld, t)
    return mask


def completing(a: Card, b: Card, rules: Ruleset) -> list[Card]:
    """The natural cards that make a set or a run of three with the natural cards ``a`` and
    ``b`` (empty when they are neither a pair nor within two ranks in one suit).

    >>> completing(Card("5H"), Card("7H"), get_rules("classic"))
    [Card('6H')]
    """
    assert a.rank is not None and b.rank is not None
    if a.rank == b.rank:
        need = [Card.regular(a.rank, s) for s in "SHDC"]
        if rules.set_distinct_suits:
            need = [c for c in need if c.suit not in (a.suit, b.suit)]
        return need
    if a.suit == b.suit and abs(a.rank - b.rank) <= 2:
        assert a.suit is not None
        lo, hi = sorted((a.rank, b.rank))
        ranks = [lo + 1] if hi - lo == 2 else [lo - 1, hi + 1]
        return [Card.regular(r, a.suit) for r in ranks if 1 <= r <= 13]
    return []


def _first_index(item: tuple[Card, int]) -> int:
    return item[0].index


_WILD_KINDS: dict[tuple[Ruleset, int], tuple[Card, ...]] = {}


def _wild_kinds(rules: Ruleset, dealt: int) -> tuple[Card, ...]:
    """Every kind of card that is wild this hand (in index order), worked out once."""
    key = (rules, dealt)
    found = _WILD_KINDS.get(key)
    if found is None:
        if len(_WILD_KINDS) >= 256:
            _WILD_KINDS.clear()
        found = _WILD_KINDS[key] = tuple(c for c in CARDS if rules.is_wild(c, dealt))
    return found


class _LiveOuts:
    """The chance-weighted points that one draw could save by completing a pair or a
    near-run of a deadwood (the share of unseen cards that fit, times the pair's points),
    for the deadwoods of the discards a bot weighs: each pair's share is found once.
    Pairs are told by their cards' indexes (hashing a pair of cards calls Python twice)."""

    def __init__(self, rules: Ruleset, dealt: int, unseen: Counter[Card]) -> None:
        self.rules, self.dealt, self.unseen = rules, dealt, unseen
        self.total = sum(unseen.values()) or 1
        self.wild_outs = sum(unseen[c] for c in _wild_kinds(rules, dealt) if c in unseen)
        self.pairs: dict[int, float] = {}

    def __call__(self, deadwood: Hand) -> float:
        dead = [c.index for c in deadwood if c.index < N_REGULAR]  # the cards with a rank
        if len(dead) < 2:
            return 0.0
        pairs = self.pairs
        outs = 0.0
        seen_pairs: set[int] = set()
        for i, a in enumerate(dead):
            for b in dead[i + 1 :]:
                pair = a << 8 | b
                if pair in seen_pairs:
                    continue
                seen_pairs.add(pair)
                share = pairs.get(pair)
                if share is None:
                    share = pairs[pair] = self._share(CARDS[a], CARDS[b])
                if share:
                    outs += share
        return outs

    def _share(self, a: Card, b: Card) -> float:
        rules, dealt, unseen = self.rules, self.dealt, self.unseen
        need = _completing(a, b, rules)
        if not need:
            return 0.0
        n = sum(unseen[c] for c in need) + self.wild_outs
        saved = rules.card_points(a, dealt) + rules.card_points(b, dealt)
        return n / self.total * saved


_COMPLETING: dict[tuple[int, int, bool], tuple[Card, ...]] = {}


def _completing(a: Card, b: Card, rules: Ruleset) -> tuple[Card, ...]:
    """:func:`completing` of two natural cards, remembered (it depends on the rule set only
    through ``set_distinct_suits``)."""
    key = (a.index, b.index, rules.set_distinct_suits)
    need = _COMPLETING.get(key)
    if need is None:
        need = _COMPLETING[key] = tuple(completing(a, b, rules))
    return need


# ---------------------------------------------------------------------------- factory


BOTS: dict[str, BotFactory] = by_name(
    RandomBot, GreedyBot, StrongBot, expert=imported_later("payme.game.expert", "ExpertBot")
)
"""Pay Me's bots by name (each game's bot module has a ``BOTS`` table like it)."""


def bot_seed(seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s bot in a game seeded ``seed`` (independent streams)."""
    return (seed * 1_000_003 + seat * 7_919 + 1) % (1 << 62)


def play(
    rules: RulesLike,
    players: int,
    bots: tuple[str, ...],
    seed: int,
    **options: GameOption,
) -> Game:
    """Play one whole game with bots; ``bots`` has one name per seat (or one for all).

    The engine's ``BOT_TURN_LIMIT`` is the game's ``turn_limit`` unless one is given.
    """
    ruleset = get_rules(rules)
    names = bots * players if len(bots) == 1 else bots
    if len(names) != players:
        raise ValueError(f"bots needs one name per seat ({players}) or a single name, not {bots!r}")
    engine = game_class(ruleset)
    if engine.BOT_TURN_LIMIT is not None:
        options.setdefault("turn_limit", engine.BOT_TURN_LIMIT)
    game = engine.new(ruleset, players, seed, **options)
    seated = [make_bot(name, ruleset, bot_seed(seed, s)) for s, name in enumerate(names)]
    # Nobody else holds this game until it is over: its actions need no undo, and those
    # taken unchanged from the legal actions no second check.
    with fewer_young_collections():
        return _play(game, seated, None, game._apply_owned, game._apply_listed)


def play_out(game: Game, seated: Sequence[Bot], max_actions: int | None = None) -> Game:
    """Let ``seated[s]`` play seat ``s`` until the game is over (or ``max_actions`` have
    been taken), dealing each next hand; returns ``game``.

    >>> from payme.game import new_game
    >>> g = new_game("three_pack", 2, seed=1)
    >>> play_out(g, [make_bot("greedy", g.rules, s) for s in (1, 2)], max_actions=3) is g
    True
    >>> len(g.actions)
    3
    """
    return _play(game, seated, max_actions, game.apply, game.apply)


def _play(
    game: Game,
    seated: Sequence[Bot],
    max_actions: int | None,
    apply: Callable[[Action], object],
    apply_listed: Callable[[Action], object],
) -> Game:
    """Play ``game`` with ``apply`` for each bot's action, ``apply_listed`` for an action
    that is one of the legal ones listed (the very object)."""
    taken = 0
    # The greedy bots decide from the game itself (GreedyBot._move).
    movers = [bot._move if type(bot) is GreedyBot else None for bot in seated]
    while not game.over and (max_actions is None or taken < max_actions):
        if game.phase == "hand_over":
            game.advance()
            continue
        seat = game.to_move
        assert seat is not None
        mover = movers[seat]
        if mover is not None:
            move = mover(game)
            if move is not None:
                apply_listed(move)
                taken += 1
                continue
        view = game.view(seat)
        legal = game.legal_actions()
        action = seated[seat].choose(view, legal)
        if _is_listed(action, legal):
            apply_listed(action)
        else:
            apply(action)
        taken += 1
    return game


__all__ = [
    "ARRANGEMENTS",
    "BOTS",
    "BOT_NAMES",
    "SAFETY_TURN_LIMIT",
    "Advisor",
    "Bot",
    "BotFactory",
    "GreedyBot",
    "RandomBot",
    "Recommendation",
    "SeededBot",
    "StrongBot",
    "bot_seed",
    "by_name",
    "imported_later",
    "known_in_hand",
    "play",
    "play_out",
    "proposed_layout",
    "tightest_go_out",
    "unseen_cards",
]
