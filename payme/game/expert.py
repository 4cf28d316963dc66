"""The expert bot: weighs every choice by the cards it has not seen, and says why.

It plays from one seat's view only (its own hand, the discard pile, the table, the cards it
saw others take from the pile and throw back — never another player's hidden cards) and the
legal actions.  Where the strong bot uses rules of thumb, it works out what each choice is
worth over the next draw:

* **Discards.**  For each sensible discard it takes the hand that is left and looks at every
  kind of card the next draw may bring (the unseen cards, each weighted by its copies): the
  exact chance of going out on that draw, and the points held after it.  A hand is worth
  the expected points after that draw (lower is better; going out scores 0): the draw is
  sure to come, since when another player goes out first everyone else still takes a
  final turn (a draw and a discard; a hand left all in melds scores 0 there too).
  The hand kept after that next draw is itself worth its points less what the draw after
  it may save by going out (the chance that one card completes its last deadwood pair, or
  is wild), that draw weighed by ``1 − HAZARD``, ``HAZARD`` being the chance that another
  player goes out before it draws again (about 0.2-0.3 a round in measured four-player
  games): so the weighing looks two draws ahead, the second one roughly.
* **Draws.**  Taking the top discard is worth the best hand it leaves; the stock is worth
  the expected best hand over the unseen cards, both weighed the same way.  It takes the
  discard only when that is better by a margin (a card taken from the pile tells the table
  what it collects).
* **Work.**  Each decision has a budget of work units (a search of a hand with ``w`` wild
  cards costs ``1 + w²``, as the solver's time grows with them): beyond it a draw is
  weighed over an even spread of the cards that may meld, and fewer discards are weighed.
  The budget counts work, never time, so a seed replays the same game on any machine.
* **Going out**: whenever it can.  **Final turns and lay-offs** play for the fewest points
  after lay-offs, as the strong bot does.

:func:`payme.game.advise` is the public face: a seat's view and its legal actions in, a
:class:`~payme.game.bots.Recommendation` out (the action, a sentence saying why in a player's
words, and the choices it weighed with their expected penalty points).  The hints and the
game review use it.

>>> from payme.game import advise, new_game
>>> g = new_game("denexa", players=3, seed=5)
>>> advice = advise(g.view(g.to_move), g.legal_actions(), seed=1)
>>> g.can(advice.action).ok, advice.reason != ""
(True, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from payme.cards import CARDS, Card
from payme.deprecation import renamed
from payme.game.actions import Action, Discard, Draw, GoOut, LayOff
from payme.game.bots import (
    Recommendation,
    StrongBot,
    _best_lay_off,
    _fits_table,
    _matches,
    _with,
    _without,
    completing,
    discard_candidates,
    known_in_hand,
    unseen_by_index,
)
from payme.game.evaluation import (
    Hand,
    best_discard_points,
    best_lay_off_points,
    go_out_discards,
    layout,
    layout_code,
    layout_codes_with,
)
from payme.game.generations import BOT_GENERATION
from payme.game.view import PayMeView, SeatView, narrow
from payme.melds import Meld
from payme.rulesets import Ruleset
from payme.solver.backend import CORE
from payme.words import short_label


def _by_card(kind: tuple[Card, int]) -> int:
    return kind[0].index


_RANKED = [c.rank is not None for c in CARDS]
"""Whether each card (by index) has a rank."""
Pairs = tuple[tuple[int, int, int], ...]
"""The pairs of a deadwood (:func:`_pairs_in`)."""
_TABLES: dict[
    tuple[int, int], tuple[Ruleset, list[bool], list[int], list[bool], dict[bytes, Pairs]]
] = {}
_SHAPES_HELD = 1 << 15
"""Deadwoods whose pairs are kept for a rule set and cards dealt (then they are dropped)."""


def _card_tables(
    rules: Ruleset, dealt: int
) -> tuple[list[bool], list[int], list[bool], dict[bytes, Pairs]]:
    """Under ``rules`` with ``dealt`` cards dealt, for each card (by index): whether it is
    wild, the points it scores and whether it is natural (a rank, not wild); and the pairs
    of the deadwoods met so far (:func:`_pairs_in`).  Made once: keyed by the rule set's
    identity, which is kept, as a rule set hashes slowly."""
    known = _TABLES.get((id(rules), dealt))
    if known is None or known[0] is not rules:
        if len(_TABLES) >= 256:
            _TABLES.clear()
        wild = [rules.is_wild(c, dealt) for c in CARDS]
        known = _TABLES[id(rules), dealt] = (
            rules,
            wild,
            [rules.card_points(c, dealt) for c in CARDS],
            [ranked and not w for ranked, w in zip(_RANKED, wild, strict=True)],
            {},
        )
    return known[1], known[2], known[3], known[4]


_WILD_KINDS: dict[int, tuple[list[bool], list[int]]] = {}


def _wild_kinds(wild: list[bool]) -> list[int]:
    """The indices of the wild cards of a table of :func:`_card_tables` (remembered by the
    table's identity; the tables are kept while they are used)."""
    known = _WILD_KINDS.get(id(wild))
    if known is None or known[0] is not wild:
        if len(_WILD_KINDS) >= 256:
            _WILD_KINDS.clear()
        known = _WILD_KINDS[id(wild)] = (wild, [i for i, w in enumerate(wild) if w])
    return known[1]


def _pairs_in(dead: bytes, natural: list[bool]) -> Pairs:
    """The pairs :meth:`Outlook.pair_savings` sums for a deadwood of these card indices,
    in its order: for each, the places of its two cards in the deadwood and the pair as
    ``a * _KINDS + b``."""
    places = [p for p, i in enumerate(dead) if natural[i]]
    found = []
    for x, pa in enumerate(places):
        row = dead[pa] * _KINDS
        for pb in places[x + 1 :]:
            if _RELATED[row + dead[pb]]:
                found.append((pa, pb, row + dead[pb]))
    return tuple(found)


_NEEDS: dict[bool, Callable[[int, int], tuple[int, ...]]] = {}


def _needs_table(rules: Ruleset) -> Callable[[int, int], tuple[int, ...]]:
    """For two natural cards (by index): the indices of the cards that complete them
    (:func:`~payme.game.bots.completing`, in its order), remembered (it depends on the
    rule set only through ``set_distinct_suits``)."""
    distinct = bool(rules.set_distinct_suits)
    known = _NEEDS.get(distinct)
    if known is None:
        found: dict[int, tuple[int, ...]] = {}

        def needs(a: int, b: int) -> tuple[int, ...]:
            key = a * _KINDS + b
            need = found.get(key)
            if need is None:
                need = found[key] = tuple(c.index for c in completing(CARDS[a], CARDS[b], rules))
            return need

        known = _NEEDS[distinct] = needs
    return known


def search_cost(hand: Hand, rules: Ruleset, dealt: int) -> int:
    """Work units of one search of ``hand``: a search grows fast with the wild cards the
    hand holds (each can stand for many cards; with five, one search of a 10-card hand took
    2-3 ms here, against 0.05 ms with none), so ``1 + w²`` for ``w`` wild cards.

    >>> from payme.cards import parse_hand
    >>> from payme.rulesets import rules
    >>> search_cost(parse_hand("KS KH JK 5D"), rules("family"), 13)
    10
    """
    wild = _card_tables(rules, dealt)[0]
    wilds = sum(1 for c in hand if wild[c.index])
    return 1 + wilds * wilds


class Outlook:
    """What the next draw may bring a hand, over a seat's unseen cards.

    ``unseen`` counts each kind of card the seat has not seen (a ``Counter`` of cards, or
    the copies of each card by index, as ``payme.game.bots.unseen_by_index`` gives
    them); the next stock card is equally likely to be any one of them.  ``per_draw``
    bounds the work of weighing one hand's next draw (in the units of :meth:`cost`):
    beyond it, an even spread of the cards that may meld stands for them all.
    """

    MIN_SAMPLE = 6
    """Cards that may meld searched at least, whatever the cost."""

    def __init__(
        self,
        rules: Ruleset,
        dealt: int,
        unseen: Counter[Card] | list[int],
        hazard: float,
        per_draw: int = 100,
        pair_weight: float = 1.0,
    ) -> None:
        self.rules = rules
        self.dealt = dealt
        # By card index, from tables made once per rule set and cards dealt (a decision
        # builds an outlook, and cards hash and rule sets answer slowly): each kind's
        # copies unseen, whether it is wild and unseen (a wild kind none of which is unseen
        # counts as not wild here), and a natural card for pair_savings (one with a rank
        # that is not wild among the unseen kinds).
        wild, self._points, natural_in_rules, shapes = _card_tables(rules, dealt)
        if isinstance(unseen, list) and len(unseen) == _KINDS:
            # Copies by card index (payme.game.bots.unseen_by_index): the kinds are those
            # with copies, so only the wild kinds need a look.
            self.kinds = [(CARDS[i], n) for i, n in enumerate(unseen) if n]
            counts = unseen.copy()
            wild_kinds = [i for i in _wild_kinds(wild) if counts[i]]
        else:
            if isinstance(unseen, list):
                unseen = Counter({CARDS[i]: n for i, n in enumerate(unseen) if n})
            self.kinds = sorted(unseen.items(), key=_by_card)
            counts = [0] * _KINDS
            for card, n in self.kinds:
                counts[card.index] = n
            wild_kinds = [card.index for card, _ in self.kinds if wild[card.index]]
        self.total = total = sum(counts)
        self.hazard = hazard
        self.pair_weight = pair_weight
        unseen_wild = [False] * _KINDS
        natural = _RANKED.copy()
        wilds = mask = 0
        for i in wild_kinds:
            unseen_wild[i] = True
            natural[i] = False
            wilds += counts[i]
            mask |= 1 << i
        self._counts, self._wild, self._natural = counts, unseen_wild, natural
        self._wild_mask = mask
        # Which pairs of a deadwood count depends on the cards alone when every wild kind
        # with a rank has a copy unseen (it is not natural here, as in the rules): then the
        # pairs found are shared with every such outlook of the rule set and cards dealt.
        self._shapes = shapes if natural == natural_in_rules else None
        self._needs = _needs_table(rules)
        self._draws: dict[Hand, tuple[float, float]] = {}
        self._pairs: dict[bytes, float] = {}  # by the deadwood's card indices
        self._pair_terms: dict[int, float] = {}
        self._outs: dict[int, float] = {}  # out_chance of two natural cards, by their pair
        self._kepts: dict[bytes, float] = {}  # kept, by the best layout's code
        self.wild_share = wilds / max(1, total)
        self._kept_core: Any = None  # payme.solver._core.Kept, made when first needed
        self.per_draw = per_draw
        self.sampled: set[Hand] = set()
        """Hands whose next draw was weighed over a sample of the cards that may meld."""

    def can_go_out(self, hand: Hand) -> bool:
        """Whether a hand of ``dealt + 1`` cards goes out: its best layout leaves at most one
        card unmelded (to discard).  A hand whose fewest points leave two or more cards but
        that could meld all but one in a costlier way is counted as not going out: rare,
        and the search it would take costs more than the rare miss."""
        return len(layout(hand, self.rules, self.dealt)[1]) <= 1

    def kept(self, hand: Hand) -> float:
        """What a hand of ``dealt + 1`` cards is worth after it goes out (0) or throws the
        deadwood card whose loss leaves the best hand (:meth:`estimate`)."""
        return self._kept(layout_code(bytes([c.index for c in hand]), self.rules, self.dealt))

    def _kept(self, code: bytes) -> float:
        """:meth:`kept` of a hand whose best layout is ``code`` (``scored_code(points,
        deadwood)``, :mod:`payme.codes`): it depends on nothing else, and many hands share
        one (a drawn card that joins a meld leaves the deadwood as it was)."""
        if len(code) <= 3:
            return 0.0  # one deadwood card or none: it goes out
        known = self._kepts.get(code)
        if known is None:
            known = self._kepts[code] = self._kept_of(code)
        return known

    def _kept_of(self, code: bytes) -> float:
        """:meth:`_kept` worked out (two deadwood cards or more): by the compiled core where
        it runs (``payme.solver._core.Kept``, the same floats as
        :meth:`_kept_of_python`, some ten times faster)."""
        core = self._kept_core or self._compiled()
        if core is None:
            return self._kept_of_python(code)
        known: float = core.kept(code)
        return known

    def _compiled(self) -> Any:
        """The compiled core's ``Kept`` for these unseen cards (made when first needed), or
        ``None`` where the compiled core does not run."""
        if CORE is None:
            return None
        core = self._kept_core = CORE.Kept(
            self._points,
            self._natural,
            self._counts,
            self._wild,
            _RELATED_BYTES,
            self.total,
            self.wild_share,
            self.hazard,
            self.pair_weight,
            self._needs,
        )
        return core

    def _kept_of_python(self, code: bytes) -> float:
        """:meth:`_kept_of` in Python (the reference, and where no compiled core runs)."""
        # By card index: :meth:`estimate` of each hand left after throwing one deadwood
        # card (the first copy of each kind), worked out here with the same floats.
        pts = code[0] << 8 | code[1]
        dead = code[2:]
        points = self._points
        best = float("inf")
        if len(dead) <= 3:
            stay = 1.0 - self.hazard
            for j, i in enumerate(dead):
                if dead.index(i) != j:
                    continue  # a second copy: the same hand as the first
                left = pts - points[i]
                value = (
                    left * (1.0 - stay * self._out_chance(dead[:j] + dead[j + 1 :]))
                    if left
                    else 0.0
                )
                if value < best:
                    best = value
            return best
        # Three or more cards left after the throw: :meth:`estimate`'s pair savings, worked
        # out here with the same floats (this runs some 35,000 times in a slow decision).
        factor = (1.0 - self.hazard) * self.pair_weight
        pairs = self._pairs
        terms: list[tuple[int, int, float]] | None = None
        for j, i in enumerate(dead):
            if dead.index(i) != j:
                continue  # a second copy: the same hand as the first
            left = pts - points[i]
            if not left:
                value = 0.0
            else:
                key = dead[:j] + dead[j + 1 :]
                saved = pairs.get(key)
                if saved is None:
                    # The pairs of the deadwood less this card, summed in pair_savings'
                    # order: the same float.
                    if terms is None:
                        terms = self._pair_terms_of(dead)
                    saved = 0.0
                    for a, b, term in terms:
                        if a != j and b != j:
                            saved += term
                    pairs[key] = saved
                value = max(0.0, left - factor * saved)
            if value < best:
                best = value
        return best

    def _pair_terms_of(self, indices: bytes) -> list[tuple[int, int, float]]:
        """The terms :meth:`pair_savings` sums for a deadwood of these card indices, in its
        order, each with the places of its two cards in the deadwood."""
        shapes = self._shapes
        shape = None if shapes is None else shapes.get(indices)
        if shape is None:
            shape = _pairs_in(indices, self._natural)
            if shapes is not None:
                if len(shapes) >= _SHAPES_HELD:
                    shapes.clear()
                shapes[indices] = shape
        known = self._pair_terms
        found: list[tuple[int, int, float]] = []
        for pa, pb, pair in shape:
            term = known.get(pair)
            found.append(
                (pa, pb, self._pair_saving(pair // _KINDS, pair % _KINDS) if term is None else term)
            )
        return found

    def points_of(self, card: Card) -> int:
        """The points ``card`` scores in the deadwood."""
        return self._points[card.index]

    def estimate(self, pts: int, dead: Hand) -> float:
        """A quick worth of a hand of ``dealt`` cards holding ``pts`` points in its deadwood
        ``dead``, when the hand is not over before a further draw: its points, less what
        that draw may save.  Two deadwood cards or fewer: the chance that it lets the hand
        go out (:meth:`out_chance`).  Three or more: what completing a pair or a near-run
        saves (:meth:`pair_savings`), since such a hand is seldom one card from going out
        but its pairs are what the next draws build on."""
        if not pts:
            return float(pts)
        if len(dead) > 2:
            return max(0.0, pts - (1.0 - self.hazard) * self.pair_weight * self.pair_savings(dead))
        return pts * (1.0 - (1.0 - self.hazard) * self.out_chance(dead))

    def pair_savings(self, dead: Hand) -> float:
        """The points one draw is expected to take out of the deadwood ``dead`` by making a
        meld of three with two of its natural cards: for each such pair, the share of
        unseen cards that complete it (the natural cards it needs, or a wild card) times
        the pair's points.

        >>> from payme.cards import parse_hand
        >>> from payme.rulesets import rules as get_rules
        >>> o = Outlook(get_rules("classic"), 10, Counter(parse_hand("6H 6H 2C 2D")), 0.3)
        >>> o.pair_savings(tuple(parse_hand("5H 7H KS")))  # 6H: half the unseen cards
        5.0
        """
        # By card index, not by card: this runs some 200,000 times in a slow decision, and
        # indices (and the bytes of them, the memo's key) cost no hashing of cards.  The
        # sum runs over the same pairs in the same order as pair by pair over the cards, so
        # it is the same float.
        indices = [c.index for c in dead]
        key = bytes(indices)
        pairs = self._pairs
        known = pairs.get(key)
        if known is not None:
            return known
        related = _RELATED
        if len(indices) > 2:
            # A card added to a weighed deadwood that pairs with none of it adds nothing
            # (the draw of a card that melds with nothing, weighed for every such card).
            base = pairs.get(key[:-1])
            if base is not None:
                last = indices[-1]
                if not any(related[i * _KINDS + last] for i in indices[:-1]):
                    pairs[key] = base
                    return base
        natural = self._natural
        naturals = [i for i in indices if natural[i]]
        terms = self._pair_terms
        saved = 0.0
        for i, a in enumerate(naturals):
            row = a * _KINDS
            for b in naturals[i + 1 :]:
                if related[row + b]:
                    term = terms.get(row + b)
                    saved += self._pair_saving(a, b) if term is None else term
        pairs[key] = saved
        return saved

    def _pair_saving(self, a: int, b: int) -> float:
        """One pair's term of :meth:`pair_savings`, for the cards of indices ``a`` and
        ``b`` (each pair's found once a decision)."""
        key = a * _KINDS + b
        known = self._pair_terms.get(key)
        if known is None:
            counts, wild, total = self._counts, self._wild, self.total
            need = self._needs(a, b)
            n = sum(counts[c] for c in need if not wild[c])
            share = n / total + self.wild_share if total and need else 0.0
            points = self._points[a] + self._points[b]
            known = self._pair_terms[key] = share * points
        return known

    def out_chance(self, dead: Hand) -> float:
        """The chance that one draw lets a hand whose best layout leaves ``dead`` unmelded go
        out, counted from the pair it holds: a card completing two deadwood cards into a
        set or a run, or a wild card.  One card left needs a card that extends a meld (only
        wild cards are counted); three or more seldom go out in one draw (counted as 0)."""
        return self._out_chance(bytes([c.index for c in dead]))

    def _out_chance(self, dead: bytes) -> float:
        """:meth:`out_chance` of a deadwood given by its cards' indices."""
        if not dead:
            return 1.0
        if len(dead) > 2 or not self.total:
            return 0.0
        wilds = self.wild_share
        if len(dead) == 1:
            return wilds
        a, b = dead
        natural = self._natural
        if not (natural[a] and natural[b]):
            return wilds
        key = a * _KINDS + b
        known = self._outs.get(key)
        if known is None:
            counts, wild = self._counts, self._wild
            need = self._needs(a, b)
            known = self._outs[key] = (
                wilds + sum(counts[c] for c in need if not wild[c]) / self.total
            )
        return known

    def may_meld(self, hand: Hand) -> Callable[[Card], bool]:
        """A quick test of whether a card could join a meld with cards of ``hand`` (never a
        false no): it is wild, or the hand holds a natural card of its rank or of its suit
        within two ranks, or two wild cards to make a meld with it."""
        mask = self._may_meld_mask(hand)
        return lambda card: bool(mask >> card.index & 1)

    def _may_meld_mask(self, hand: Hand) -> int:
        """:meth:`may_meld` as a mask of card indices: the unseen wild cards, and the cards
        of the rank of a card of the hand or of its suit within two ranks (three with two
        wild cards held)."""
        wild_card = _card_tables(self.rules, self.dealt)[0]
        wilds = sum(1 for c in hand if wild_card[c.index])
        if wilds >= 2 and not self.rules.wild_at_most_half:
            return _ALL_CARDS  # the card and two wild cards make a meld
        # Two wild cards bridge a gap of three ranks (5♥ + two wild cards + 8♥).
        near = _NEAR_3 if wilds >= 2 else _NEAR_2
        mask = self._wild_mask
        for c in hand:
            mask |= near[c.index]
        return mask

    def draw(self, hand: Hand) -> tuple[float, float]:
        """For a hand of ``dealt`` cards: the expected points held after the next draw and a
        good discard, and the chance that the draw lets it go out.

        A card that can join nothing in the hand (not wild, no card of its rank, none of its
        suit within two ranks, fewer than two wild cards to pair it with) leaves the layout
        as it is: the hand throws it back or keeps it in place of its worst deadwood card.
        Every other kind is solved exactly.
        """
        known = self._draws.get(hand)
        if known is None:
            known = self._draws[hand] = self._draw(hand)
        return known

    def _draw(self, hand: Hand) -> tuple[float, float]:
        rules, dealt = self.rules, self.dealt
        pts, dead = layout(hand, rules, dealt)
        if not self.total:
            return float(pts), 0.0
        if not dead:
            return 0.0, 1.0  # every card melds: throw the new one and go out
        here = self.estimate(pts, dead)
        # A card that melds with nothing either goes back (the hand stays) or takes the
        # place of a deadwood card; with three or more deadwood cards left that counts
        # only by points, so the worst card goes.
        swaps = [(pts - self.points_of(w), _without(dead, w)) for w in set(dead)]
        if len(dead) > 3:
            swaps = [min(swaps, key=lambda s: s[0])]
        may_meld = self._may_meld_mask(hand)
        expect = 0.0
        outs = 0.0
        melding: list[tuple[Card, int]] = []
        # A card that pairs with no card of a swap's deadwood adds no pair savings to it:
        # with three or more cards, its estimate is worked out here with the same floats.
        factor = (1.0 - self.hazard) * self.pair_weight
        plain = [
            (p, d, self.pair_savings(d), _related_to_any(d)) if len(d) >= 2 else (p, d, 0.0, -1)
            for p, d in swaps
        ]
        # A card near no swap's deadwood is worth what its points make it: found once for
        # each number of points (the same floats).
        near_any = 0
        for _, _, _, near in plain:
            near_any |= near
        by_points: dict[int, float] = {}
        points = self._points
        for card, n in self.kinds:
            i = card.index
            bit = 1 << i
            if may_meld & bit:
                melding.append((card, n))
                continue
            add = points[i]
            if near_any & bit:
                values = [
                    self.estimate(p + add, (*d, card))
                    if near & bit
                    else (max(0.0, p + add - factor * saved) if p + add else 0.0)
                    for p, d, saved, near in plain
                ]
                expect += n * min(here, *values)
                continue
            value = by_points.get(add)
            if value is None:
                value = by_points[add] = min(
                    here,
                    *[
                        (max(0.0, p + add - factor * saved) if p + add else 0.0)
                        for p, _, saved, _ in plain
                    ],
                )
            expect += n * value
        tried = self._sample(hand, melding)
        if tried:
            # The cards tried stand for every card that may meld (evenly spread over them).
            scale = sum(n for _, n in melding) / sum(n for _, n in tried)
            key = bytes([c.index for c in hand])
            kepts = self._kepts
            # The best layouts of the hand with each card tried: those not remembered
            # searched in one call of the solver.
            codes = layout_codes_with(key, bytes([c.index for c, _ in tried]), rules, dealt)
            core = self._kept_core or self._compiled()
            if core is not None:  # the loop below in C, the same floats
                expect, outs = core.weigh(codes, [n for _, n in tried], scale, expect, outs, kepts)
                return expect / self.total, outs / self.total
            for (_, n), code in zip(tried, codes, strict=True):
                if len(code) <= 3:
                    value = 0.0  # one deadwood card or none: it goes out
                else:
                    known = kepts.get(code)
                    value = self._kept(code) if known is None else known
                if value == 0.0:
                    outs += n * scale  # it goes out
                expect += n * scale * value
        return expect / self.total, outs / self.total

    def cost(self, hand: Hand) -> int:
        """Work units of one search of ``hand`` plus a card (``search_cost``)."""
        return search_cost(hand, self.rules, self.dealt)

    def _sample(self, hand: Hand, melding: list[tuple[Card, int]]) -> list[tuple[Card, int]]:
        """The kinds of card that may meld that are searched: all of them when their work
        fits :attr:`per_draw` units, else as many as fit, evenly spread over them (the same
        ones every time: the choice depends on the hand and the unseen cards alone)."""
        most = max(self.MIN_SAMPLE, self.per_draw // self.cost(hand))
        if len(melding) <= most:
            return melding
        self.sampled.add(hand)
        step = len(melding) / most
        return [melding[int(i * step)] for i in range(most)]

    def work(self, hand: Hand) -> int:
        """The work units :meth:`draw` takes for a hand of ``dealt`` cards (0 when already
        weighed).  Counting them, not the clock, bounds the time per decision and keeps a
        seed's game the same on any machine."""
        if hand in self._draws or not layout(hand, self.rules, self.dealt)[1]:
            return 0
        may_meld = self._may_meld_mask(hand)
        melding = [(card, n) for card, n in self.kinds if may_meld >> card.index & 1]
        return len(self._sample(hand, melding)) * self.cost(hand)

    def worth(self, hand: Hand) -> float:
        """Expected penalty of holding ``hand`` (``dealt`` cards): the expected hand after
        the next draw.  That draw is sure to come, even when someone goes out first: every
        other player then takes a final turn (a draw and a discard, and a hand left all in
        melds scores 0 there too), so the hazard of the hand ending weighs only the draw
        after it (:meth:`estimate`)."""
        return self.draw(hand)[0]


class ExpertBot(StrongBot):
    """The strongest Pay Me bot: each draw and discard weighed over the unseen cards."""

    name = "expert"

    HAZARD = 0.3
    """The chance that someone else goes out before this seat draws again (per round; about
    0.2 early in a hand to 0.3 later in four-player family games of the benchmark lineup)."""
    PAIR_WEIGHT = 1.0
    """Weight of the pair savings in a hand's worth (0.5, 2 and 3 tried: no gain or worse)."""
    BIG_HAND = 9
    """Cards dealt from which a hand is big and its pairs weigh :attr:`BIG_PAIR_WEIGHT`."""
    BIG_PAIR_WEIGHT = 0.5
    """Weight of the pair savings in a big hand.  A big deadwood holds many pairs, and one
    draw completes one of them at most (a wild card counts for every pair in the sum), so
    the full sum overrates what the next draw saves and keeps high pairs too long: halved,
    the expert's `denexa` total fell by 0.75 ± 0.52 points a game (100 deals; 0.3 and from
    7 cards dealt measured alike)."""
    PER_DRAW = 200
    """Work units (:meth:`Outlook.cost`) for weighing one hand's next draw (100 until
    2026-12-02: doubled with :attr:`WORK`, the expert's `denexa` total fell by 0.57 ± 0.59
    points a game over 250 deals, its slowest decisions no slower)."""
    WORK = 400
    """Work units one discard decision may spend on weighing the hands it could keep (the
    first is always weighed), chosen so that the slowest decision stays within a few tens of
    milliseconds (docs/benchmarks.md, *Measurements behind the code*)."""
    FINAL_WIDTH = 4
    """Last discards tried with an exact lay-off search (the rest are ranked out first)."""
    WIDTH = 3
    """Discards weighed in full (the most promising by points, the rest are worse)."""
    TAKE_MARGIN = 0.5
    """Points a taken discard must gain over the stock (it shows the table what we keep)."""
    FINAL_WORK = 24
    """Work units (:meth:`Outlook.cost`) for the stock cards tried in a last draw: the
    kinds of card that may meld or lay off tried at most (24 with no wild card held)."""
    FINAL_MIN = 2
    """Kinds of such stock cards tried at least, whatever the cost."""
    FINAL_DISCARD_WORK = 20
    """Work units (``search_cost`` of the hand) for the exact lay-off searches of a
    last discard (at most ``FINAL_WIDTH``): four with two wild cards or fewer held, two with
    three, one with four, none with more (the ranking alone). Searches of a 13-card
    `family` hand holding three or four wild cards are the slowest (no wild limits prune
    them; docs/benchmarks.md, *Measurements behind the code*)."""
    FINAL_SEARCHES = 4
    """Work units for the exact lay-off searches of a last draw's top discard (at most
    ``FINAL_WIDTH``): none with two wild cards or more held (a lay-off search of a 13-card hand
    holding three is slow: docs/benchmarks.md, *Measurements behind the code*), the cards that
    fit the declarer's melds one by one counted instead."""

    def __init__(self, rules: Ruleset, seed: int = 0, generation: int = BOT_GENERATION) -> None:
        super().__init__(rules, seed, generation)
        if self.generation < 2:  # generation 1 gave the next player's use of a discard no weight
            self.GIFT_SPOTS = 0
            self.FINAL_GIFT_POINTS = 0.0
        self._fitting: dict[Card, bool] = {}
        """Whether each card fits the declarer's melds, for the decision being made."""

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return self.advise(view, legal).action

    # --- the public face

    def advise(self, view: SeatView, legal: Sequence[Action]) -> Recommendation:
        """The action to take and why (``legal`` is the seat's legal actions, non-empty)."""
        return self._advise(narrow(view, PayMeView), legal)

    def _advise(self, view: PayMeView, legal: Sequence[Action]) -> Recommendation:
        if not legal:
            raise ValueError("no legal action to advise on")
        first = legal[0]
        if isinstance(first, LayOff):
            action = _best_lay_off(view, legal)
            assert isinstance(action, LayOff)
            if not action.placements:
                return Recommendation(action, "Nothing in your hand fits the declarer's melds.")
            cards = " ".join(short_label(c) for _, cs in action.placements for c in cs)
            return Recommendation(action, f"Lay off {cards}: those cards then score nothing.")
        if isinstance(first, Draw):
            if view.final_turn:
                return self._advise_final_draw(view, legal)
            return self._advise_draw(view, legal)
        outs = [action for action in legal if isinstance(action, GoOut)]
        if outs:
            out, spared = self._expert_go_out(view, outs)
            words = "Go out now: you score nothing and everyone else pays"
            if out.melds and len(out.melds) > 1 and view.rules.lay_off:
                words += "; lay the melds down this way to leave the fewest places to lay off"
            if spared is not None and out.discard is not None:
                words += (
                    f"; discard {short_label(out.discard)}, not {short_label(spared)}: the next "
                    f"player may take the discard in a final turn, and {short_label(spared)} "
                    "would help them (it lays off onto your melds or joins what they took "
                    "from the pile)"
                )
            return Recommendation(out, words + ".")
        if view.final_turn:
            return self._advise_final_discard(view)
        return self._advise_discard(view)

    # --- weighing

    def _outlook(self, view: PayMeView) -> Outlook:
        return Outlook(
            view.rules,
            view.dealt,
            unseen_by_index(view),
            self.HAZARD,
            self.PER_DRAW,
            self.BIG_PAIR_WEIGHT if view.dealt >= self.BIG_HAND else self.PAIR_WEIGHT,
        )

    def _keeps(self, view: PayMeView, hand: Hand) -> list[tuple[Card, Hand]]:
        """Discards worth weighing from ``hand`` (``dealt + 1`` cards), most promising first:
        the deadwood of its best layout, and the solver's best discard, never a wild card
        while another will do."""
        rules, dealt = view.rules, view.dealt
        total, dead = layout(hand, rules, dealt)
        scored: dict[Card, int] = {}
        for card in dead:
            scored[card] = total - rules.card_points(card, dealt)
        card, pts = best_discard_points(hand, rules, dealt)
        scored.setdefault(card, pts)
        plain = {c: p for c, p in scored.items() if not rules.is_wild(c, dealt)}
        pool = plain or scored
        order = sorted(pool, key=lambda c: (pool[c], -rules.card_points(c, dealt), c))
        return [(c, _without(hand, c)) for c in order[: self.WIDTH]]

    def _best_keep(self, view: PayMeView, hand: Hand, outlook: Outlook) -> list[tuple[float, Card]]:
        """Each weighed discard from ``hand`` with the expected penalty of what it keeps,
        best first (feeding the next player what it collects costs a little)."""
        return self._weigh_keeps(view, hand, outlook)[0]

    def _weigh_keeps(
        self, view: PayMeView, hand: Hand, outlook: Outlook
    ) -> tuple[list[tuple[float, Card]], list[tuple[float, Card]]]:
        """:meth:`_best_keep`'s list, and the same discards weighed without the cost of
        feeding the next player (to say so when that cost decides)."""
        wanted = self._wanted_by_next(view)
        late = min(1.0, sum(view.turns) / max(1, view.players * view.dealt))
        weighed: list[tuple[float, Card]] = []
        plain: list[tuple[float, Card]] = []
        budget = self.WORK
        for card, rest in self._keeps(view, hand):
            work = outlook.work(rest)
            if weighed and work > budget:
                break  # the most promising discards are weighed first
            budget -= work
            value = outlook.worth(rest)
            plain.append((value, card))
            if wanted and _matches(card, wanted):
                value += 0.25 * self.FEED_PENALTY * (0.5 + late)
            weighed.append((value, card))

        def order(vc: tuple[float, Card]) -> tuple[float, int, Card]:
            return (vc[0], -view.rules.card_points(vc[1], view.dealt), vc[1])

        weighed.sort(key=order)
        plain.sort(key=order)
        return weighed, plain

    def _advise_discard(self, view: PayMeView) -> Recommendation:
        hand = tuple(sorted(view.hand))
        outlook = self._outlook(view)
        weighed, plain = self._weigh_keeps(view, hand, outlook)
        value, card = weighed[0]
        rest = _without(hand, card)
        _, chance = outlook.draw(rest)
        options = tuple((Discard(view.seat, c), v) for v, c in weighed)
        pts = layout(rest, view.rules, view.dealt)[0]
        reason = f"Discard {short_label(card)}: the hand you keep has {pts} points of deadwood"
        if chance > 0:
            reason += f" and a {chance:.0%} chance of going out on the next draw"
        if len(weighed) > 1:
            other_value, other = weighed[1]
            reason += (
                f"; it expects {value:.1f} penalty points against {other_value:.1f} "
                f"for discarding {short_label(other)}"
            )
        fed = plain[0][1]
        if fed != card:
            took = [c for c in self._wanted_by_next(view) if _matches(fed, [c])]
            reason += (
                f"; {short_label(fed)} would keep as good a hand, but the next player took "
                f"{' '.join(short_label(c) for c in took)} from the pile this hand and "
                f"{short_label(fed)} could help them meld"
            )
        return Recommendation(Discard(view.seat, card), reason + ".", options)

    GIFT_SPOTS = 3
    """Going out, a discard the next player can use (it lays off onto the melds laid down,
    or joins a card they took from the pile) weighs as this many lay-off spots, where the
    rules let a final turn take the top discard: they take it for sure, where an unseen card
    fits a spot only if an opponent holds it (about one in three).  0 for the bots of
    generation 1 (:mod:`payme.game.generations`)."""

    def _gift(self, view: PayMeView, card: Card | None, melds: Sequence[Meld]) -> bool:
        """Whether the next player, in a final turn, could use ``card`` from the pile."""
        if card is None or "discard" not in view.rules.final_turn_draw:
            return False
        if _matches(card, self._wanted_by_next(view)):
            return True
        from payme.game.arrangement import lay_off_spots

        return bool(view.rules.lay_off and lay_off_spots(melds, {card: 1}, view.rules, view.dealt))

    def _expert_go_out(self, view: PayMeView, outs: Sequence[GoOut]) -> tuple[GoOut, Card | None]:
        """The go-out to make, and the discard it spares the next player (``None`` when the
        gift did not decide): the layout of each discard as the strong bot lays it down
        (:func:`~payme.game.bots.tightest_go_out`), ranked by the lay-off spots it leaves,
        a discard the next player can use counting :attr:`GIFT_SPOTS` more."""
        from payme.game.arrangement import lay_off_spots
        from payme.game.bots import tightest_go_out, unseen_cards

        plain = self._go_out(view, outs)
        rules = view.rules
        discards = list(dict.fromkeys(out.discard for out in outs))
        if len(discards) < 2 or "discard" not in rules.final_turn_draw or not self.GIFT_SPOTS:
            return plain, None
        unseen = unseen_cards(view)
        ranked: list[tuple[int, int, GoOut]] = []
        for i, discard in enumerate(discards):
            out = tightest_go_out(view, [o for o in outs if o.discard == discard])
            melds = tuple(out.melds or ())
            spots = lay_off_spots(melds, unseen, rules, view.dealt) if rules.lay_off else 0
            gift = self._gift(view, discard, melds)
            ranked.append((spots + self.GIFT_SPOTS * gift, i, out))
        best = min(ranked, key=lambda r: (r[0], r[1]))[2]
        if best.discard == plain.discard:
            return plain, None
        melds = tuple(plain.melds or ())
        spared = plain.discard if self._gift(view, plain.discard, melds) else None
        return best, spared

    def _final_options(
        self, view: PayMeView, hand: Hand, width: int
    ) -> list[tuple[int, int, Card]]:
        """The last discards from ``hand`` (``dealt + 1`` cards), each with the points the
        cards kept score after the best lay-offs onto the declarer's melds, best first.

        Each deadwood card (and the solver's best discard) is ranked by the points left
        after laying off the cards that fit the declarer's melds one by one; the ``width``
        best are tried with the best lay-offs counted exactly (each costs a lay-off search,
        so their number is bounded: the time per decision stays within budget, whatever the
        hand).  With ``width`` 0, the ranking alone (no lay-off search)."""
        rules, dealt = view.rules, view.dealt
        melds = tuple(view.table_melds)
        found = discard_candidates(hand, rules, dealt)
        fits = self._fits
        ranked = sorted(
            (
                pts - sum(rules.card_points(c, dealt) for c in left if fits(c, view)),
                -rules.card_points(card, dealt),
                card,
            )
            for card, (pts, left) in found.items()
        )
        if not width:
            return ranked
        weighed: list[tuple[int, int, Card]] = []
        for _, _, card in ranked[:width]:
            rest = _without(hand, card)
            if rules.lay_off and melds:
                pts = best_lay_off_points(rest, melds, rules, dealt)[0]
            else:
                pts = layout(rest, rules, dealt)[0]
            weighed.append((pts, -rules.card_points(card, dealt), card))
        weighed.sort()
        return weighed

    def _fits(self, card: Card, view: PayMeView) -> bool:
        """Whether ``card`` alone lays off onto the declarer's melds (remembered for the
        decision: the last draw asks it of the same cards many times)."""
        known = self._fitting.get(card)
        if known is None:
            known = self._fitting[card] = _fits_table(card, view)
        return known

    def _advise_final_discard(self, view: PayMeView) -> Recommendation:
        """The last discard of the hand: the fewest points after the best lay-offs
        (:meth:`_final_options`, with exact searches as far as ``FINAL_DISCARD_WORK``
        allows: with the wild cards held counted one by one instead, the expert's `denexa`
        total rose by 1.5 ± 0.3 points a game in 166 deals of the benchmark, where wild
        cards lay off)."""
        rules = view.rules
        hand = tuple(sorted(view.hand))
        self._fitting = {}
        cost = search_cost(hand, rules, view.dealt)
        width = min(self.FINAL_WIDTH, self.FINAL_DISCARD_WORK // cost)
        weighed = self._final_options(view, hand, width)
        gift = self.FINAL_GIFT_POINTS / max(1, view.players - 1)
        scored = (
            sorted(
                (pts + gift * self._final_gift(view, card), key, pts, card)
                for pts, key, card in weighed
            )
            if gift
            else [(float(pts), key, pts, card) for pts, key, card in weighed]
        )
        _, _, pts, card = scored[0]
        action = Discard(view.seat, card)
        options = tuple((Discard(view.seat, c), float(v)) for v, _, _, c in scored)
        after = "after laying off onto the declarer's melds" if rules.lay_off else "in the end"
        reason = (
            f"Discard {short_label(card)}: this is your last turn, and the cards you keep score "
            f"{pts} points {after}"
        )
        plain = weighed[0][2]
        if plain != card:
            reason += (
                f"; {short_label(plain)} would keep {weighed[0][0]}, but the next player may "
                f"take it from the pile in their final turn: " + self._gift_words(view, plain)
            )
        else:
            reason += ", the fewest you can"
        return Recommendation(action, reason + ".", options)

    FINAL_GIFT_POINTS = 8.0
    """A last discard the next player can use (it lays off onto the declarer's melds or
    joins a card they took from the pile), where their final turn may take the top discard,
    counts as this many points shared among the others: they take it for a card of theirs
    that would score, about 8 points, and the points against the table count each other
    player's saving once in their average.  0 for the bots of generation 1."""

    def _final_gift(self, view: PayMeView, card: Card) -> bool:
        """Whether ``card``, discarded in this final turn, is one the next player can use in
        theirs: they still have one (they are not the declarer), it may take the top discard,
        and ``card`` lays off onto the declarer's melds or makes a meld of three with two cards
        they took from the pile and still hold (a card that merely joins one of them: no
        weight, measured worse for the expert)."""
        nxt = (view.seat + 1) % view.players
        if nxt == view.declarer or "discard" not in view.rules.final_turn_draw:
            return False
        held = sorted(known_in_hand(view, nxt).elements())
        natural = card.rank is not None and not view.rules.is_wild(card, view.dealt)
        for i, a in enumerate(held):
            for b in held[i + 1 :]:
                plain = a.rank is not None and b.rank is not None
                if natural and plain and card in completing(a, b, view.rules):
                    return True
        return bool(view.rules.lay_off and self._fits(card, view))

    def _gift_words(self, view: PayMeView, card: Card) -> str:
        """Why the next player can use ``card`` (see :meth:`_final_gift`)."""
        nxt = (view.seat + 1) % view.players
        took = [c for c in known_in_hand(view, nxt).elements() if _matches(card, [c])]
        if took:
            return (
                f"they took {' '.join(short_label(c) for c in took)} from the pile this hand "
                f"and {short_label(card)} could help them meld"
            )
        return f"{short_label(card)} lays off onto the declarer's melds"

    def _advise_final_draw(self, view: PayMeView, legal: Sequence[Action]) -> Recommendation:
        """The last draw of the hand, where the rules let it be the top discard: the points
        kept after the last discard and the best lay-offs, with the top discard (exact)
        against a card from the stock (expected over the unseen cards).

        A stock card that melds with nothing in the hand and fits none of the declarer's
        melds either goes back or takes the place of the costliest card that would stay in
        the deadwood; the others are each tried (as many kinds as ``FINAL_WORK`` allows,
        evenly spread), each by the points its best last discard leaves less the cards
        that fit the declarer's melds one by one (no lay-off search: with wild cards held,
        a search of a 13-card hand is slow; docs/benchmarks.md, *Measurements behind the
        code*)."""
        sources = {a.source: a for a in legal if isinstance(a, Draw)}
        top = view.top_discard
        if "discard" not in sources or top is None:
            return Recommendation(
                sources.get("stock") or legal[0],
                "Draw from the stock: in this last turn it is the only place to draw from.",
            )
        if "stock" not in sources:
            return Recommendation(
                sources["discard"], f"Take {short_label(top)}: the stock is empty."
            )
        rules, dealt = view.rules, view.dealt
        hand = tuple(sorted(view.hand))
        self._fitting = {}
        grown = _with(hand, top)
        outlook = self._outlook(view)
        # Lay-off searches grow with the wild cards held, like the solver's (Outlook.cost).
        width = min(self.FINAL_WIDTH, self.FINAL_SEARCHES // outlook.cost(hand))
        take = float(self._final_options(view, grown, width)[0][0])
        melds = tuple(view.table_melds)
        pts, dead = layout(hand, rules, dealt)
        left = Counter(dead)
        if width and rules.lay_off and melds:
            now, placed = best_lay_off_points(hand, melds, rules, dealt)
            for _, cards in placed:
                left.subtract(cards)
        else:  # the cards that fit the declarer's melds one by one
            now = pts
            for card in dead:
                if self._fits(card, view):
                    now -= rules.card_points(card, dealt)
                    left[card] -= 1
        costliest = max((rules.card_points(c, dealt) for c in +left), default=0)
        may_meld = outlook.may_meld(hand)
        expect = 0.0
        tried: list[tuple[Card, int]] = []
        for card, n in outlook.kinds:
            if may_meld(card) or self._fits(card, view):
                tried.append((card, n))
            else:
                expect += n * (now - max(0, costliest - outlook.points_of(card)))
        most = max(self.FINAL_MIN, self.FINAL_WORK // outlook.cost(hand))
        if len(tried) > most:
            step = len(tried) / most
            sample = [tried[int(i * step)] for i in range(most)]
        else:
            sample = tried
        if sample:
            scale = sum(n for _, n in tried) / sum(n for _, n in sample)
            for card, n in sample:
                best = self._final_options(view, _with(hand, card), 0)[0][0]
                expect += n * scale * min(now, best)
        stock = expect / outlook.total if outlook.total else float(now)
        options = tuple(
            sorted(((sources["discard"], take), (sources["stock"], stock)), key=lambda av: av[1])
        )
        if take < stock:
            return Recommendation(
                sources["discard"],
                f"Take {short_label(top)}: this is your last turn, and with it the cards you keep "
                f"score {take:.0f} points against {stock:.1f} expected after a card from "
                "the stock.",
                options,
            )
        return Recommendation(
            sources["stock"],
            f"Draw from the stock: this is your last turn, and a card from the stock leaves "
            f"{stock:.1f} points expected against {take:.0f} with {short_label(top)}.",
            options,
        )

    def _advise_draw(self, view: PayMeView, legal: Sequence[Action]) -> Recommendation:
        sources = {a.source: a for a in legal if isinstance(a, Draw)}
        top = view.top_discard
        if "discard" not in sources or top is None:
            return Recommendation(
                sources["stock"], "Draw from the stock: there is no discard to take."
            )
        if "stock" not in sources:
            return Recommendation(sources["discard"], "Take the top discard: the stock is empty.")
        rules, dealt = view.rules, view.dealt
        hand = tuple(sorted(view.hand))
        grown = _with(hand, top)
        outlook = self._outlook(view)
        if go_out_discards(grown, rules, dealt):
            return Recommendation(
                sources["discard"],
                f"Take {short_label(top)}: with it you can go out at once.",
                ((sources["discard"], 0.0),),
            )
        if not outlook.may_meld(hand)(top):
            # A card that joins nothing only swaps points: the stock may bring as much.
            pts = layout(hand, rules, dealt)[0]
            if layout(grown, rules, dealt)[0] - rules.card_points(top, dealt) >= pts - 5:
                return Recommendation(
                    sources["stock"],
                    f"Draw from the stock: {short_label(top)} melds with nothing in your hand.",
                )
        # Both sides weighed alike: the best hand kept after taking it, against the
        # expected hand kept after a card from the stock.
        take = outlook.kept(grown)
        stock = outlook.draw(hand)[0]
        options = sorted(
            ((sources["discard"], take), (sources["stock"], stock)), key=lambda av: av[1]
        )
        if take <= stock - self.TAKE_MARGIN:
            return Recommendation(
                sources["discard"],
                f"Take {short_label(top)}: it leaves a hand expected to pay {take:.1f} points "
                f"against {stock:.1f} after a card from the stock.",
                tuple(options),
            )
        return Recommendation(
            sources["stock"],
            f"Draw from the stock: {short_label(top)} does not help enough "
            f"(expected {stock:.1f} penalty points against {take:.1f} if you take it).",
            tuple(options),
        )


def _related(a: Card, b: Card) -> bool:
    """Whether two cards are a pair or a near-run (both with a rank: some card completes
    them; a joker never is)."""
    if a.rank is None or b.rank is None:
        return False
    return a.rank == b.rank or (a.suit == b.suit and abs(a.rank - b.rank) <= 2)


_KINDS = len(CARDS)
_ALL_CARDS = (1 << _KINDS) - 1


def _near_mask(card: Card, reach: int) -> int:
    """The cards of ``card``'s rank, and of its suit within ``reach`` ranks (none for a
    card without a rank), as a mask of card indices."""
    rank = card.rank
    if rank is None:
        return 0
    return sum(
        1 << c.index
        for c in CARDS
        if c.rank == rank
        or (c.suit == card.suit and c.rank is not None and 0 < abs(c.rank - rank) <= reach)
    )


_NEAR_2 = [_near_mask(c, 2) for c in CARDS]
"""For each card (by index), :meth:`Outlook.may_meld`'s cards for it, as a mask."""
_NEAR_3 = [_near_mask(c, 3) for c in CARDS]
"""The same with two wild cards held (a gap of three ranks bridged)."""
_RELATED = [_related(a, b) for a in CARDS for b in CARDS]
"""``_RELATED[a.index * _KINDS + b.index]``: :func:`_related` looked up, not worked out."""
_RELATED_BYTES = bytes(_RELATED)
""":data:`_RELATED` as bytes (for the compiled core's ``Kept``)."""
_RELATED_TO = [sum(1 << b.index for b in CARDS if _related(a, b)) for a in CARDS]
"""``_RELATED_TO[a.index]``: the cards related to ``a``, as a mask of card indices."""


def _related_to_any(cards: Hand) -> int:
    """The cards related to any of ``cards``, as a mask of card indices."""
    mask = 0
    for c in cards:
        mask |= _RELATED_TO[c.index]
    return mask


__all__ = ["ExpertBot", "Outlook"]

__getattr__ = renamed(
    "payme.game.expert",
    {
        "label": "payme.words:short_label",
        "Advice": "payme.game.bots:Recommendation",
        "advise": "payme.game:advise",
    },
)
