"""The exact hand solver: best layout, going out, best discard.

Every answer is exact: the search (:mod:`payme.solver.search`) weighs every way to split the
hand into melds and deadwood, over packed card counts and memoised, with candidate melds
looked up by shape (:mod:`payme.solver.shapes`); hands without wild or special cards take
a lean path to the same layouts (:mod:`payme.solver.natural`).  Among equally good layouts
the first in the search's fixed order is returned, so the same hand in any order gives the
same answer.

>>> ev = evaluate("7H 8H 9H JK 2C 5S 5D 5C", rules="denexa", dealt=7)
>>> ev.deadwood_points, len(ev.melds)
(0, 2)
>>> evaluate("AS 2D 9C KH", rules="family", dealt=3).deadwood_points
36
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

from payme.cards import CARDS, N_REGULAR, Card, CardsLike, format_hand, html_by, parse_hand
from payme.codes import scored_code
from payme.deprecation import renamed
from payme.melds import Meld, RuleTables, hand_cards, tables_for
from payme.memo import RecentMemo
from payme.rulesets import Ruleset, RulesLike
from payme.solver.layout import path_layout
from payme.solver.natural import Natural, natural_discard, natural_for, natural_layout
from payme.solver.search import INF, Search, replay_picks, scan
from payme.solver.shapes import book_for

# --------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, repr=False)
class Evaluation:
    """A best layout of a hand: melds, deadwood and its penalty points.

    ``cards`` is the hand in canonical order; every card is in exactly one meld or in the
    deadwood.  In Rummy 3-Pack ``deadwood_points`` is the count of unmelded cards.
    """

    cards: tuple[Card, ...]
    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    rules: Ruleset
    dealt: int | None

    def __repr__(self) -> str:
        # Not a call: an evaluation is computed by evaluate(), never built from its parts.
        return f"<Evaluation {self} under {self.rules!r}, dealt={self.dealt!r}>"

    def __str__(self) -> str:
        parts = [f"[{m}]" for m in self.melds]
        dead = format_hand(self.deadwood) if self.deadwood else "none"
        return f"{' '.join(parts) or 'no melds'}; deadwood {dead} = {self.deadwood_points}"

    _repr_html_ = html_by("layout_html")

    if not TYPE_CHECKING:  # mypy keeps checking attribute names

        def __getattr__(self, name: str) -> Any:
            # Reached only for an attribute not set: an evaluation made by evaluate() knows
            # its points at once and lays out its melds and deadwood on first use (most
            # callers ask only the points).  See _lazy_evaluation.
            d = self.__dict__
            pending = d.get("_pending")
            if pending is None or name not in _LAID_OUT:
                if name in _LAID_OUT and name in d:
                    return d[name]  # another thread laid it out meanwhile
                raise AttributeError(f"'Evaluation' object has no attribute {name!r}")
            if len(pending) > 2 and name != "melds":
                # The compiled core's evaluation also knows its cards' and its deadwood's
                # indexes, or how to find them without the layout (which gives the same).
                if len(pending) == 3:
                    pending = d["_pending"] = (*pending[:2], *pending[2](*pending[1]))
                value = d[name] = tuple([CARDS[i] for i in pending[2 if name == "cards" else 3]])
                return value
            d["cards"], d["melds"], d["deadwood"] = pending[0](*pending[1])
            d.pop("_pending", None)
            return d[name]

    def __getstate__(self) -> dict[str, Any]:
        # Pickled and copied laid out: the pending work holds the hand's search.
        if "_pending" in self.__dict__:
            self.melds  # noqa: B018 - lays it out
        return {k: v for k, v in self.__dict__.items() if k != "_pending"}


_LAID_OUT: Final = frozenset(("cards", "melds", "deadwood"))
"""The fields an evaluation made by :func:`evaluate` works out on first use."""

Laid = tuple[tuple[Card, ...], tuple[Meld, ...], tuple[Card, ...]]
"""An evaluation's cards, melds and deadwood."""
LayOut = tuple[Callable[..., Laid], tuple[Any, ...]]
"""A function and its arguments, giving an evaluation's cards, melds and deadwood (the
compiled core's evaluations may add a function of the same arguments that gives the card
indexes of their cards and deadwood, as bytes, and then those indexes)."""


@dataclass(frozen=True)
class GoOutCheck:
    """Whether a hand can go out, and with which discards (``None``: without discarding)."""

    ok: bool
    discards: tuple[Card | None, ...] = ()

    def __bool__(self) -> bool:
        return self.ok


@dataclass(frozen=True)
class BestDiscard:
    """The best discard of a hand and the layout of the cards kept."""

    card: Card
    evaluation: Evaluation

    @property
    def deadwood_points(self) -> int:
        return self.evaluation.deadwood_points

    def __iter__(self) -> Iterator[Card | Evaluation]:
        # So that ``card, ev = best_discard(...)`` works.
        return iter((self.card, self.evaluation))


# --------------------------------------------------------------------------------------
# Public functions


def _evaluation(
    cards: tuple[Card, ...], t: RuleTables, h: Search, d: int
) -> tuple[int, Evaluation, Card | None]:
    path = h.walk(d)
    total = path.total
    melds, deadwood, dropped = path_layout(h, path)
    kept = list(cards)
    if dropped is not None:
        kept.remove(dropped)
    pts = t.points
    # The search's total leaves out the cards it set aside (priced apart when it started).
    points = total + h.aside if h.cost is pts else sum(pts[c.index] for c in deadwood)
    ev = _new_evaluation(
        tuple(sorted(kept, key=_index)), tuple(melds), tuple(deadwood), points, t.rules, t.dealt
    )
    return total, ev, dropped


_new_object: Final = object.__new__


def _new_evaluation(
    cards: tuple[Card, ...],
    melds: tuple[Meld, ...],
    deadwood: tuple[Card, ...],
    points: int,
    rules: Ruleset,
    dealt: int | None,
) -> Evaluation:
    """An :class:`Evaluation`, made without the frozen dataclass's ``__init__`` (which sets
    each field through ``object.__setattr__``): the same object, for the hot path."""
    ev = _new_object(Evaluation)
    d = ev.__dict__
    d["cards"] = cards
    d["melds"] = melds
    d["deadwood"] = deadwood
    d["deadwood_points"] = points
    d["rules"] = rules
    d["dealt"] = dealt
    return ev


def _lazy_evaluation(points: int, rules: Ruleset, dealt: int | None, pending: LayOut) -> Evaluation:
    """An :class:`Evaluation` that knows its points and lays out its cards, melds and
    deadwood when one of them is first read (``pending``: the function that does it, and
    its arguments); every field then holds what an eager evaluation holds."""
    ev = _new_object(Evaluation)
    ev.__dict__.update(deadwood_points=points, rules=rules, dealt=dealt, _pending=pending)
    return ev


def _laid_out(cards: tuple[Card, ...], h: Search, total: int, picks: tuple[int, ...]) -> Laid:
    """The cards, melds and deadwood of a hand searched with no discard owed, from its
    search's picks (see :meth:`Search.picks`)."""
    melds, deadwood, _ = path_layout(h, replay_picks(h, total, picks, 1))
    return tuple(sorted(cards, key=_index)), tuple(melds), tuple(deadwood)


def _discard_laid_out(hand: str | tuple[Card, ...], t: RuleTables, thrown: int) -> Laid:
    """The cards kept after the compiled core's best discard of a hand (``Hands.discard``
    in _core.c), laid out as :func:`best_discard` lays them out without the core: a hand of
    natural cards by the lean path, any other by the general search with the discard
    owed (both make the same choice as the core)."""
    cards = hand if type(hand) is tuple else parse_hand(hand)
    nat = natural_for(t)
    plain = natural_discard(cards, t, nat)
    if plain is not None:
        assert plain[0].index == thrown, "the cores chose differently"
        kept, melds, deadwood, _ = plain[1]
        return kept, melds, deadwood
    cards = hand_cards(cards, t)
    _, ev, dropped = _evaluation(cards, t, Search(cards, t, t.points, nat.book), 0)
    assert dropped is not None and dropped.index == thrown, "the cores chose differently"
    return ev.cards, ev.melds, ev.deadwood


def _card_indexes(
    hand: str | tuple[Card, ...], t: RuleTables, total: int, picks: tuple[int, ...]
) -> tuple[bytes, bytes]:
    """The card indexes of the cards and of the deadwood of an evaluation the compiled core
    made (the same arguments as :func:`_laid_out_later`): its walk replayed in C."""
    hands = natural_for(t).hands
    assert hands is not None, "an evaluation of the compiled core without it"
    return hands.card_indexes(hand, t, total, picks)


def _laid_out_later(
    hand: str | tuple[Card, ...], t: RuleTables, total: int, picks: tuple[int, ...]
) -> Laid:
    """The same from the compiled core's picks (``Hands.evaluation`` in _core.c makes an
    evaluation to be laid out so; its cards and deadwood alone come from
    :func:`_card_indexes`, which gives the same): the hand's search set up again in Python
    (the same candidates in the same order), its picks replayed; a hand of natural cards
    laid out by the lean path, as :func:`evaluate` lays it out without the core."""
    cards = hand if type(hand) is tuple else parse_hand(hand)
    nat = natural_for(t)
    found = scan(cards, nat.book)
    plain = natural_layout(cards, t, nat, found) if found is not None else None
    if plain is not None:
        return plain[0], plain[1], plain[2]
    return _laid_out(cards, Search(cards, t, t.points, nat.book, found), total, picks)


_index: Final = attrgetter("index")
_LEAN_DISCARD = True
"""Whether best_discard takes the lean path for hands of natural cards (a switch for the
tests that compare it with the general path)."""  # a card's index, as a sort key (C speed)


def evaluate(hand: CardsLike, rules: RulesLike = "denexa", dealt: int | None = None) -> Evaluation:
    """The best layout of ``hand``: fewest penalty points, exact; the same for any card order.

    ``dealt`` (the cards dealt this hand) fixes the round wild rank and is required for the
    Pay Me rule sets; Rummy 3-Pack ignores it and counts unmelded cards.

    >>> ev = evaluate("5H 6H 7H 7H 7S JK", rules="denexa", dealt=7)
    >>> ev.deadwood_points, ev.deadwood
    (0, ())
    >>> print(evaluate("KS KD 2H 9C", rules="denexa", dealt=5))
    [KS 2H(KH) KD]; deadwood 9C = 10
    >>> evaluate("RUMMY NOGO 5H 5S WILD", rules="three_pack").deadwood
    (Card('NOGO'),)
    """
    t, nat = _prepared(rules, dealt)
    hands = nat.hands
    if hands is not None:
        # The compiled core takes the hand whole, text or cards, and makes its evaluation:
        # the points now, the layout when asked, from the search's picks (see _laid_out_later).
        # None: a hand it leaves to the path below.
        ev: Evaluation | None = hands.evaluation(hand)
        if ev is not None:
            return ev
    cards = hand if type(hand) is tuple else parse_hand(hand)
    # One pass checks the cards against the pack and reads them for either path; a hand
    # it does not take is checked again below, which names what is wrong.
    found = scan(cards, nat.book)
    if found is not None:
        plain = natural_layout(cards, t, nat, found)
        if plain is not None:
            kept, melds, deadwood, points = plain
            return _new_evaluation(kept, melds, deadwood, points, t.rules, t.dealt)
        h = Search(cards, t, t.points, nat.book, found)
    else:
        cards = hand_cards(cards, t)
        h = Search(cards, t, t.points, book_for(t))
    total = h.value(h.state0, h.n_any, 1)
    if total >= INF:  # pragma: no cover - leaving every card unmelded always answers
        return _evaluation(cards, t, h, 1)[1]
    # The points now; the layout when asked, from the search's picks (its memo let go).
    picks = h.picks(1)
    h.release()
    return _lazy_evaluation(
        total + h.aside, t.rules, t.dealt, (_laid_out, (cards, h, total, picks))
    )


_PREPARED: dict[tuple[int, int | None], tuple[RulesLike, RuleTables, Natural]] = {}


def _prepared(rules: RulesLike, dealt: int | None) -> tuple[RuleTables, Natural]:
    """The tables of a rule set and round, looked up in one step when seen before.

    Keyed by the identity of ``rules`` (a name or a Ruleset) and ``dealt``; only a plain
    ``int`` or ``None`` is cached, so a ``dealt`` of another type is always checked.
    """
    last = _LAST
    if last is not None and last[0] is rules and last[1] is dealt:
        return last[2], last[3]  # the rule set and round of the call before (most calls)
    cacheable = dealt is None or type(dealt) is int
    if cacheable:
        hit = _PREPARED.get((id(rules), dealt))
        if hit is not None and hit[0] is rules:
            _remember(rules, dealt, hit[1], hit[2])
            return hit[1], hit[2]
    t = tables_for(rules, dealt)
    nat = natural_for(t)
    if nat.hands is not None:
        # What the compiled core's evaluations are: this module's, laid out here.
        nat.hands.bind(
            Evaluation,
            t.rules,
            t.dealt,
            _laid_out_later,
            t,
            _discard_laid_out,
            _card_indexes,
            BestDiscard,
        )
    if cacheable:
        if len(_PREPARED) > 256:
            _PREPARED.clear()
        _PREPARED[(id(rules), dealt)] = (rules, t, nat)
        _remember(rules, dealt, t, nat)
    return t, nat


_LAST: tuple[RulesLike, int | None, RuleTables, Natural, bool] | None = None
"""The last cacheable rule set and round :func:`_prepared` answered, checked by identity
first, and whether its best discard may take the compiled core's whole-hand path (no card
barred from the discard, none whose holder wins: see :func:`best_discard`)."""


def _remember(rules: RulesLike, dealt: int | None, t: RuleTables, nat: Natural) -> None:
    global _LAST
    r = t.rules
    whole = not r.never_discarded and r.holder_wins is None
    _LAST = (rules, dealt, t, nat, whole)  # one tuple: a thread reads the old or the new


def layouts_with_each(
    key: bytes,
    adds: bytes,
    rules: RulesLike,
    dealt: int | None,
    memo: RecentMemo[bytes] | None = None,
) -> list[bytes]:
    """The best layout of each hand made of the cards whose indices are ``key`` (lowest
    first) and one card of ``adds`` (card indices), as :func:`payme.codes.scored_code` of
    its fewest deadwood points and its deadwood's card indices: what :func:`evaluate` gives
    for each of those hands, in the order of ``adds``.  The compiled core searches them all
    in one call (the hands a draw may make); the pure-Python solver, or a hand the core
    leaves to it, evaluates them one by one.  With ``memo`` (answers by a hand's card
    indices, lowest first): the answers it holds are taken from it, the others put into it.

    >>> from payme.cards import parse_card
    >>> from payme.codes import points_of
    >>> key = bytes(sorted(parse_card(c).index for c in ("5H", "6H", "9C")))
    >>> adds = bytes([parse_card("7H").index, parse_card("9D").index])
    >>> [points_of(code) for code in layouts_with_each(key, adds, "classic", 3)]
    [10, 30]
    """
    hands = _prepared(rules, dealt)[1].hands
    found: list[bytes | None] = (
        hands.layouts(key, adds, memo) if hands is not None else [None] * len(adds)
    )
    out: list[bytes] = []
    for i, code in zip(adds, found, strict=True):
        if code is None:
            hand = bytes(sorted(key + bytes((i,))))
            code = None if memo is None else memo.get(hand)
            if code is None:
                ev = evaluate(tuple([CARDS[j] for j in hand]), rules, dealt)
                code = scored_code(ev.deadwood_points, bytes([c.index for c in ev.deadwood]))
                if memo is not None:
                    memo.put(hand, code)
        out.append(code)
    return out


def can_go_out(
    hand: CardsLike, rules: RulesLike = "denexa", dealt: int | None = None
) -> GoOutCheck:
    """Whether a hand just after drawing may go out, and every discard that lets it.

    Pay Me hands hold ``dealt + 1`` cards.  ``discards`` lists each distinct card whose
    discard leaves every other card in melds, in canonical order, and ``None`` (first) when
    the whole hand melds and the rule set lets a player go out without discarding.  Rummy
    3-Pack: at most one card may be left unmelded and it may not be NOGO; ``discards`` holds
    that card, or ``None`` when none is left.

    >>> can_go_out("5H 6H 7H 9C 9S 9D 2C 4D", rules="denexa", dealt=7)
    GoOutCheck(ok=True, discards=(Card('4D'),))
    >>> can_go_out("5H 6H 7H 9C", rules="classic", dealt=3)
    GoOutCheck(ok=True, discards=(Card('9C'),))
    >>> can_go_out("5H 6H 7H 8H", rules="family", dealt=3)
    GoOutCheck(ok=True, discards=(Card('5H'), Card('8H')))
    >>> can_go_out("5H 6H 7H 8H", rules="denexa", dealt=3)
    GoOutCheck(ok=True, discards=(None, Card('5H'), Card('8H')))
    """
    t, nat = _prepared(rules, dealt)
    out = nat.out_hands
    if out is not None:
        # The compiled core answers the same questions in one call, text or cards (None: a
        # hand it leaves to the path below, which names what is wrong with it).
        hit: tuple[int, ...] | None = out.go_out(hand, -1 if t.dealt is None else t.dealt + 1)
        if hit is not None:
            if not hit:
                return _CANNOT  # most hands (immutable, so one object serves them all)
            return GoOutCheck(True, tuple([None if i < 0 else CARDS[i] for i in hit]))
    cards = hand_cards(hand, t)
    r = t.rules
    mode = r.going_out
    # Where the cards dealt are known (Pay Me), the hand is the one just after drawing.
    if t.dealt is not None and len(cards) != t.dealt + 1:
        raise ValueError(
            f"going out is judged on a hand of dealt + 1 = {t.dealt + 1} cards "
            f"(just after drawing), not {len(cards)}"
        )
    barred = set(r.never_left_over if mode == "one_unmelded" else r.never_discarded)
    h = Search(cards, t, t.unit_points, book_for(t))
    # Removing one card leaves at most one fewer unmelded card: a hand that leaves two or
    # more unmelded at best cannot go out at all (one search answers most hands).
    aside = len(h.fixed_dead) + len(h.isolated)
    if aside >= 2 or aside + h.value(h.state0, h.n_any, 1, 2) >= 2:
        return GoOutCheck(False, ())
    found: list[Card | None] = []
    if mode != "discard_required" and _melds_without(h, None):
        found.append(None)
    for c in sorted(set(cards), key=_index):
        if c.token not in barred and _melds_without(h, c):
            found.append(c)
    return GoOutCheck(bool(found), tuple(found))


_CANNOT: Final = GoOutCheck(False, ())
"""The answer for a hand that cannot go out."""


def _melds_without(h: Search, card: Card | None) -> bool:
    """Whether every card of the searched hand but one copy of ``card`` (if any) can be
    melded.  One search serves every card: removing a card is a different start state."""
    aside = [*h.fixed_dead, *h.isolated]
    state, b = h.state0, h.n_any
    if card is not None and card in aside:
        aside.remove(card)
    elif card is not None and card not in h.singles:
        scope = h.t.scope[card.index]
        if card.index < N_REGULAR:
            state -= h.book.unit_of[card.index]
        elif scope == "any":
            b -= 1
        elif scope == "set":
            state -= h.unit_g
        else:
            state -= h.unit_q
    if aside:
        return False
    # Budget 1: only "can everything be melded?" matters, so the search stops early.
    return h.value(state, b, 1, 1) == 0


def best_discard(
    hand: CardsLike, rules: RulesLike = "denexa", dealt: int | None = None
) -> BestDiscard:
    """The discard leaving the fewest deadwood points, every discard weighed in one search.

    Ties go to the first in the search's fixed order.  Cards the rule set forbids
    discarding are never chosen, nor is a card whose holder wins the game (Rummy 3-Pack's
    RUMMY: it costs no points, but throwing it away throws away a win) while any other
    card may go.

    >>> card, ev = best_discard("5H 6H 7H 8H KC 3S", rules="denexa", dealt=9)
    >>> card, ev.deadwood_points
    (Card('KC'), 5)
    >>> best_discard("NOGO RUMMY 7H 8H 9H", rules="three_pack").card
    Card('7H')
    """
    last = _LAST
    asked = False  # whether the compiled core has been asked (and left the hand to Python)
    if last is not None and last[0] is rules and last[1] is dealt and last[4] and _LEAN_DISCARD:
        # The rule set and round of the call before (most calls): the compiled core weighs
        # the hand whole, text or cards, as the paths below do, and makes the answer; the
        # melds of the cards kept are laid out when first read (None: a hand it leaves to
        # the paths below).
        hands = last[3].hands
        if hands is not None:
            answer: BestDiscard | None = hands.best(hand)
            if answer is not None:
                return answer
            asked = True
    t, nat = _prepared(rules, dealt)
    r = t.rules
    lean = not r.never_discarded and r.holder_wins is None and _LEAN_DISCARD
    if lean and nat.hands is not None and not asked:
        # The same for a rule set or round other than the last call's.
        answer = nat.hands.best(hand)
        if answer is not None:
            return answer
    cards = hand if type(hand) is tuple else parse_hand(hand)
    if lean:
        # One pass checks the cards against the pack; a hand of natural cards only takes
        # the lean path, which makes the general search's choices faster.
        found = scan(cards, nat.book)
        if found is not None:
            plain = natural_discard(cards, t, nat, found)
            if plain is not None:
                card, (kept, melds, deadwood, points) = plain
                ev = _new_evaluation(kept, melds, deadwood, points, r, t.dealt)
                return BestDiscard(card, ev)
    cards = hand_cards(cards, t)
    barred = set(r.never_discarded)
    keep = r.holder_wins
    if keep is not None and any(c.token not in barred and c.token != keep for c in cards):
        barred.add(keep)
    h = Search(cards, t, t.points, book_for(t))
    pts = t.points
    options: list[tuple[int, int, int, Card]] = []
    # 1. One search weighs discarding any card it handles (natural or pure wild).
    total = h.value(h.state0, h.n_any, 0)
    aside = sum(pts[c.index] for c in (*h.fixed_dead, *h.isolated))
    if total < INF:
        options.append((total + aside, 0, 0, cards[0]))
    # 2. Cards the search sets aside: deadwood whatever happens, or melds on their own.
    kept_total: int | None = None
    for c in sorted(set((*h.fixed_dead, *h.isolated, *h.singles)), key=_index):
        if c.token in barred:
            continue
        if kept_total is None:
            kept_total = h.value(h.state0, h.n_any, 1) + aside
        saved = 0 if c in h.singles else pts[c.index]
        options.append((kept_total - saved, 1, c.index, c))
    if not options:
        raise ValueError("this hand holds no card that may be discarded")
    options.sort(key=lambda o: o[:3])
    best = options[0]
    if best[1] == 0:
        _, ev, dropped = _evaluation(cards, t, h, 0)
        assert dropped is not None
        if dropped.token in barred:
            # A custom rule set bars a card the search may throw: weigh the allowed
            # discards one by one instead.
            return _discard_one_by_one(cards, t, barred)
        return BestDiscard(dropped, ev)
    card = best[3]
    rest = list(cards)
    rest.remove(card)
    return BestDiscard(card, evaluate(tuple(rest), t.rules, t.dealt))


def _discard_one_by_one(cards: tuple[Card, ...], t: RuleTables, barred: set[str]) -> BestDiscard:
    found: BestDiscard | None = None
    for c in sorted(set(cards), key=_index):
        if c.token in barred:
            continue
        rest = list(cards)
        rest.remove(c)
        ev = evaluate(tuple(rest), t.rules, t.dealt)
        if found is None or ev.deadwood_points < found.deadwood_points:
            found = BestDiscard(c, ev)
    if found is None:
        raise ValueError("this hand holds no card that may be discarded")
    return found


__all__ = ["BestDiscard", "Evaluation", "GoOutCheck", "best_discard", "can_go_out", "evaluate"]

# Names this module had before each name got one meaning (kept for one release).
__getattr__ = renamed(
    __name__, {"GoOut": "payme.solver:GoOutCheck", "Discard": "payme.solver:BestDiscard"}
)
