"""Hand-evaluation puzzles generated and graded by the engine.

Four kinds of puzzle, each about one hand:

``deadwood``  Which cards are left over in the best layout? (answer: the deadwood cards, or
              its penalty points)
``discard``   Which card would you discard? (a hand of dealt + 1 cards; any discard that
              leaves the fewest deadwood points is right)
``go_out``    Can this hand go out, and with which discard? (answer: ``no``, ``none`` for
              going out without a discard, or the card to discard)
``lay_off``   The declarer has gone out; how few points can you get to with your own melds
              and lay-offs onto theirs? (answer: the points)

A puzzle is fully determined by its id, ``RULES-DEALT-KIND-SEED`` (``denexa-7-discard-42``),
so a page can put the id in its URL and rebuild the same puzzle after a reload.

Difficulty is a number worked out from the hand (:func:`difficulty_score`):

* 2 points for each wild card in the hand (wild cards multiply the ways to meld);
* 1 point for every 3 distinct candidate melds the hand's cards contain (choices to weigh),
  at most 4;
* 1 point for each card that sits in two or more candidate melds (conflicts), at most 4;
* 4 points when the obvious approach — keep taking the meld worth the most points — does
  not reach the best answer (a trap).

A lay-off puzzle adds 2 points for each card the best answer lays off, and 4 more when
the naive way (meld your own hand first, then lay off what is left) falls short.

Scores 0–4 are *easy*, 5–9 *medium*, 10 and more *hard*.

>>> p = puzzle_from_id("denexa-7-discard-3")
>>> p.id, p.kind, len(p.hand)
('denexa-7-discard-3', 'discard', 8)
>>> p == puzzle_from_id(p.id)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Final, Literal, get_args

from payme.cards import CARDS, N_REGULAR, Card, CardError, CardsLike, format_hand, parse_hand
from payme.deprecation import deprecated, renamed
from payme.melds import Meld, check_meld
from payme.rulesets import PRESETS, Ruleset
from payme.rulesets import rules as get_rules
from payme.words import deadwood_unit, short_label, short_labels

PuzzleKind = Literal["deadwood", "discard", "go_out", "lay_off"]
Difficulty = Literal["easy", "medium", "hard"]
KINDS: Final[tuple[PuzzleKind, ...]] = get_args(PuzzleKind)
DIFFICULTIES: Final[tuple[Difficulty, ...]] = get_args(Difficulty)

EASY_BELOW: Final = 5
HARD_FROM: Final = 10
_MAX_TRIES: Final = 400

QUESTIONS: Final[dict[PuzzleKind, str]] = {
    "deadwood": "Split this hand into melds. Which cards are left over as deadwood "
    "(or: how many penalty points is the best you can do)?",
    "discard": "You have just drawn. Which card do you discard to keep your deadwood lowest?",
    "go_out": "You have just drawn. Can you go out? Answer 'no', 'none' (go out without "
    "discarding) or the card you discard.",
    "lay_off": "The declarer went out with the melds shown. Using your own melds and laying "
    "off onto theirs, how few penalty points can you end the hand with?",
}


# The rule each kind of puzzle turns on: said as a hint after a first wrong answer.
HINTS: Final[dict[PuzzleKind, str]] = {
    "deadwood": "only cards outside every meld count; try each way a card could meld "
    "(a set or a run) and keep the split that leaves the fewest points.",
    "discard": "after the discard, what counts is the deadwood the best split of the rest "
    "leaves; keep the cards in or next to melds.",
    "go_out": "going out needs every card in a meld, except the one card you discard (where "
    "the rules ask for a discard).",
    "lay_off": "first your own melds, then lay off leftover cards that extend the "
    "declarer's melds; sometimes breaking one of your melds lays off more.",
}


@dataclass(frozen=True)
class AnswerCheck:
    """The grade of an answer: right or wrong, and an explanation of the best answer.

    ``feedback`` says what is wrong with a wrong answer without giving the best one away
    (a page shows it, with a hint, to let the player try again)."""

    correct: bool
    explanation: str
    feedback: str = ""

    def __bool__(self) -> bool:
        return self.correct


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a hand (and, for lay-offs, the declarer's melds) and a question."""

    id: str
    kind: PuzzleKind
    rules: Ruleset
    dealt: int
    hand: tuple[Card, ...]
    declarer_melds: tuple[Meld, ...] = ()
    score: int = 0

    @property
    def difficulty(self) -> Difficulty:
        return grade(self.score)

    @property
    def question(self) -> str:
        return QUESTIONS[self.kind]

    @property
    def evaluate_dealt(self) -> int | None:
        """Deprecated: read ``dealt`` (the engine takes it as it is)."""
        deprecated("Puzzle.evaluate_dealt", "read Puzzle.dealt")
        return self.dealt

    def solution(self) -> str:
        """The best answer, explained in a sentence or two (computed by the engine)."""
        return _explain(self)

    def check(self, answer: object) -> AnswerCheck:
        """Grade ``answer`` (text, a number, cards); bad input is a ``ValueError`` saying why."""
        return _check(self, answer)


def grade(score: int) -> Difficulty:
    """The difficulty band of a :func:`difficulty_score`."""
    if score < EASY_BELOW:
        return "easy"
    return "medium" if score < HARD_FROM else "hard"


# --------------------------------------------------------------------------------------
# The difficulty measure


def candidate_melds(hand: tuple[Card, ...], rules: Ruleset, dealt: int | None) -> list[Meld]:
    """Every distinct valid meld of 3 or 4 cards (and single-card melds) within ``hand``."""
    found: dict[tuple[Card, ...], Meld] = {}
    cards = sorted(hand)
    for size in (1, 3, 4):
        for combo in set(combinations(cards, size)):
            if combo in found:
                continue
            chk = check_meld(combo, rules, dealt)
            if chk.ok and chk.meld is not None:
                found[combo] = chk.meld
    return [found[k] for k in sorted(found)]


def _greedy_points(
    hand: tuple[Card, ...], melds: list[Meld], rules: Ruleset, dealt: int | None
) -> int:
    """Deadwood points of the naive approach: keep taking the meld worth the most points."""
    left = Counter(hand)
    ranked = sorted(
        melds, key=lambda m: (-sum(rules.card_points(c, dealt) for c in m.cards), m.cards)
    )
    for meld in ranked:
        need = Counter(meld.cards)
        if all(left[c] >= n for c, n in need.items()):
            left -= need
    return sum(rules.card_points(c, dealt) * n for c, n in left.items())


def difficulty_score(hand: CardsLike, rules: Ruleset | str, dealt: int | None) -> int:
    """The difficulty measure of a hand (see the module docstring).

    >>> difficulty_score("7H 8H 9H", "denexa", 3)
    0
    """
    from payme.solver import evaluate

    r = get_rules(rules)
    cards = parse_hand(hand)
    melds = candidate_melds(cards, r, dealt)
    wilds = sum(1 for c in cards if r.is_wild(c, dealt))
    in_melds = Counter(c for m in melds if len(m.cards) > 1 for c in set(m.cards))
    conflicts = sum(1 for n in in_melds.values() if n >= 2)
    score = 2 * wilds + min(4, len(melds) // 3) + min(4, conflicts)
    if _greedy_points(cards, melds, r, dealt) > evaluate(cards, r, dealt).deadwood_points:
        score += 4
    return score


# --------------------------------------------------------------------------------------
# Generating puzzles


def _regular(rng: random.Random) -> Card:
    return CARDS[rng.randrange(N_REGULAR)]


def _meld_cards(rng: random.Random, rules: Ruleset, dealt: int | None) -> list[Card]:
    """The cards of one random natural meld (sometimes with a wild card swapped in)."""
    if rng.random() < 0.5:
        rank = rng.randint(1, 13)
        size = 3 if rules.set_max == 3 else rng.choice((3, 3, 4))
        suits = (
            rng.sample("SHDC", size)
            if rules.set_distinct_suits or rng.random() < 0.7
            else [rng.choice("SHDC") for _ in range(size)]
        )
        cards = [Card.regular(rank, s) for s in suits]
    else:
        length = rng.choice((3, 3, 4, 5))
        low = rng.randint(1, 14 - length)
        suit = rng.choice("SHDC")
        cards = [Card.regular(low + i, suit) for i in range(length)]
    wilds = [c for c in CARDS if rules.wild_scope(c, dealt) == "any"]
    if wilds and rng.random() < 0.35:
        cards[rng.randrange(len(cards))] = rng.choice(wilds)
    return cards


def _fits_pack(cards: Iterable[Card], rules: Ruleset) -> bool:
    pack = rules.pack_counts(None)
    return all(pack[c.index] >= n for c, n in Counter(cards).items())


def _random_hand(
    rng: random.Random, rules: Ruleset, dealt: int | None, size: int
) -> tuple[Card, ...]:
    """A meld-rich hand: a few melds, then topped up with random cards, then perturbed."""
    while True:
        cards: list[Card] = []
        while len(cards) < size and rng.random() < 0.8:
            cards.extend(_meld_cards(rng, rules, dealt))
        cards = cards[:size]
        while len(cards) < size:
            cards.append(
                _regular(rng) if rng.random() < 0.85 else rng.choice(CARDS[: N_REGULAR + 1])
            )
        for _ in range(rng.randint(0, 2)):
            cards[rng.randrange(size)] = _regular(rng)
        if rules.jokers_per_pack == 0:
            cards = [c if not c.is_joker else _regular(rng) for c in cards]
        if _fits_pack(cards, rules):
            return tuple(sorted(cards))


def _declarer_melds(rng: random.Random, rules: Ruleset, dealt: int | None) -> tuple[Meld, ...]:
    """Two or three melds a declarer might have gone out with."""
    melds: list[Meld] = []
    while len(melds) < rng.choice((2, 3)):
        cards = _meld_cards(rng, rules, dealt)
        # A same-suit set (family) can need more copies than the pack holds: draw again.
        if not _fits_pack(cards, rules):
            continue
        chk = check_meld(cards, rules, dealt)
        if chk.ok and chk.meld is not None and chk.meld.kind != "single":
            melds.append(chk.meld)
    return tuple(melds)


def _build(rules: Ruleset, dealt: int, kind: PuzzleKind, seed: int) -> Puzzle:
    rng = random.Random(f"{rules.name}-{dealt}-{kind}-{seed}")
    size = dealt if kind in ("deadwood", "lay_off") else dealt + 1
    if kind == "go_out" and rng.random() < 0.5:
        hand = _melded_hand(rng, rules, dealt, size)
    else:
        hand = _random_hand(rng, rules, dealt, size)
    declarer: tuple[Meld, ...] = ()
    score = difficulty_score(hand, rules, dealt)
    if kind == "lay_off":
        hand, declarer = _lay_off_position(rng, rules, dealt, hand)
        score = difficulty_score(hand, rules, dealt) + _lay_off_score(hand, declarer, rules, dealt)
    return Puzzle(
        id=f"{rules.name}-{dealt}-{kind}-{seed}",
        kind=kind,
        rules=rules,
        dealt=dealt,
        hand=hand,
        declarer_melds=declarer,
        score=score,
    )


def _lay_off_position(
    rng: random.Random, rules: Ruleset, dealt: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], tuple[Meld, ...]]:
    """A lay-off puzzle's hand and the declarer's melds: a position a game can reach.

    The declarer went out, so every card of their hand is in the melds: ``dealt`` cards
    (after a discard) or ``dealt + 1`` (going out without one, where allowed); every card of
    both hands fits the packs; and the hand has a lay-off to find.

    The first try draws as the generator before 2026-12-05 did, so an old id whose position
    was already possible opens the same puzzle.  An old id whose position was not now opens a
    possible position for the same rule set, cards dealt and seed: of the 330 ids
    ``denexa|family-{3..13}-lay_off-{1..15}``, 307 had a declarer whose melds did not hold
    exactly the cards they had (or nothing to lay off) and now open a new puzzle; 23 are
    unchanged.  Puzzles of the other kinds are unchanged.
    """
    from payme.layoff import lay_off

    while True:  # the draws of the old generator: kept for the ids made with it
        declarer = _declarer_melds(rng, rules, dealt)
        hand = _with_extensions(rng, hand, declarer)
        if _fits_pack([*hand, *(c for m in declarer for c in m.cards)], rules):
            break
    sizes = _declarer_sizes(rules, dealt)
    for _ in range(_MAX_TRIES):
        if (
            sum(len(m.cards) for m in declarer) in sizes
            and _fits_pack([*hand, *(c for m in declarer for c in m.cards)], rules)
            and lay_off(hand, list(declarer), rules, dealt).laid_off
        ):
            return hand, declarer
        declarer = _declarer_melds_of(rng, rules, dealt, rng.choice(sizes))
        hand = _with_extensions(rng, _random_hand(rng, rules, dealt, dealt), declarer, at_least=1)
    raise ValueError(f"no possible lay-off position found for {rules.name} with {dealt} dealt")


def _declarer_sizes(rules: Ruleset, dealt: int) -> tuple[int, ...]:
    """How many cards a declarer can have melded: all of the ``dealt + 1`` held after the
    draw, less the discard (always, or only where the rules require one)."""
    return (dealt,) if rules.going_out == "discard_required" else (dealt, dealt + 1)


def _declarer_melds_of(
    rng: random.Random, rules: Ruleset, dealt: int, total: int
) -> tuple[Meld, ...]:
    """Melds of ``total`` cards in all (each of 3 or more), as a declarer lays them down."""
    sizes: list[int] = []
    left = total
    while left:
        size = left if left <= 5 else rng.randint(3, min(6, left - 3))
        sizes.append(size)
        left -= size
    melds: list[Meld] = []
    used: list[Card] = []
    for size in sizes:
        for _ in range(_MAX_TRIES):
            cards = _meld_of_size(rng, rules, dealt, size)
            if cards is None or not _fits_pack([*used, *cards], rules):
                continue
            chk = check_meld(cards, rules, dealt)
            if chk.ok and chk.meld is not None and chk.meld.kind != "single":
                melds.append(chk.meld)
                used.extend(cards)
                break
        else:
            raise ValueError(f"no meld of {size} cards found for {rules.name}")
    return tuple(melds)


def _meld_of_size(rng: random.Random, rules: Ruleset, dealt: int, size: int) -> list[Card] | None:
    """The cards of one random meld of ``size`` cards (maybe a wild card in it), or ``None``
    when the kind drawn cannot be that long."""
    sets_fit = (rules.set_max is None or size <= rules.set_max) and (
        not rules.set_distinct_suits or size <= 4
    )
    if sets_fit and (size > 13 or rng.random() < 0.5):
        rank = rng.randint(1, 13)
        suits = rng.sample("SHDC", size) if size <= 4 else [rng.choice("SHDC") for _ in range(size)]
        cards = [Card.regular(rank, s) for s in suits]
    elif size <= 13:
        low = rng.randint(1, 14 - size)
        suit = rng.choice("SHDC")
        cards = [Card.regular(low + i, suit) for i in range(size)]
    else:
        return None
    wilds = [c for c in CARDS if rules.wild_scope(c, dealt) == "any"]
    if wilds and rng.random() < 0.35:
        cards[rng.randrange(len(cards))] = rng.choice(wilds)
    return cards


def position_problems(p: Puzzle) -> list[str]:
    """Why ``p`` is not a position a game can reach (empty when it is).

    Checked: the cards dealt within the rule set's range; the hand's size (``dealt`` cards,
    or ``dealt + 1`` just after drawing); every card of the hand and the declarer's melds in
    the rule set's largest pack, no more copies than it holds; for a lay-off puzzle, the
    declarer's melds valid and holding every card the declarer had, and a lay-off to find.

    >>> position_problems(puzzle_from_id("denexa-3-lay_off-1"))
    []
    """
    from payme.layoff import lay_off

    r, dealt = p.rules, p.dealt
    problems = []
    if not r.min_dealt <= dealt <= r.max_dealt:
        problems.append(f"{dealt} cards dealt is outside {r.min_dealt}-{r.max_dealt}")
    size = dealt if p.kind in ("deadwood", "lay_off") else dealt + 1
    if len(p.hand) != size:
        problems.append(f"the hand holds {len(p.hand)} cards, not {size}")
    every = [*p.hand, *(c for m in p.declarer_melds for c in m.cards)]
    if not _fits_pack(every, r):
        problems.append("more copies of a card than the pack holds (or a card not in it)")
    if p.kind == "lay_off":
        melded = sum(len(m.cards) for m in p.declarer_melds)
        if melded not in _declarer_sizes(r, dealt):
            problems.append(f"the declarer melded {melded} cards from {dealt} dealt")
        for m in p.declarer_melds:
            if not check_meld(m.cards, r, dealt).ok:
                problems.append(f"the declarer's meld {format_hand(m.cards)} is not valid")
        if not lay_off(p.hand, list(p.declarer_melds), r, dealt).laid_off:
            problems.append("the hand has nothing to lay off")
    elif p.declarer_melds:
        problems.append(f"a {p.kind} puzzle has no declarer")
    return problems


def _melded_hand(rng: random.Random, rules: Ruleset, dealt: int, size: int) -> tuple[Card, ...]:
    """A hand built from melds only, plus one spare card: often one that can go out."""
    for _ in range(50):
        cards: list[Card] = []
        while len(cards) < size - 1:
            meld = _meld_cards(rng, rules, dealt)
            if len(cards) + len(meld) <= size - 1:
                cards.extend(meld)
            elif size - 1 - len(cards) < 3:
                break
        cards.extend(_regular(rng) for _ in range(size - len(cards)))
        if _fits_pack(cards, rules):
            return tuple(sorted(cards))
    return _random_hand(rng, rules, dealt, size)


def _with_extensions(
    rng: random.Random, hand: tuple[Card, ...], declarer: tuple[Meld, ...], at_least: int = 0
) -> tuple[Card, ...]:
    """Swap one or two of the hand's cards for cards that extend the declarer's melds
    (``at_least`` more tries when a try finds no card that would)."""
    cards = list(hand)
    for _ in range(max(at_least, rng.choice((1, 1, 2)))):
        meld = rng.choice(declarer)
        naturals = [s for s in meld.stands_for if s is not None]
        if not naturals:
            continue
        if meld.kind == "set":
            rank = naturals[0].rank or 1
            extra = Card.regular(rank, rng.choice("SHDC"))
        else:
            suit = naturals[0].suit or "S"
            ranks = [s.rank or 1 for s in naturals]
            step = rng.choice((min(ranks) - 1, max(ranks) + 1))
            if not 1 <= step <= 13:
                continue
            extra = Card.regular(step, suit)
        cards[rng.randrange(len(cards))] = extra
    return tuple(sorted(cards))


def _lay_off_score(
    hand: tuple[Card, ...], declarer: tuple[Meld, ...], rules: Ruleset, dealt: int
) -> int:
    """Lay-off difficulty: 2 per card the best answer lays off, 4 more when the naive way
    (meld your own hand first, then lay off what is left) falls short of the best."""
    from payme.layoff import lay_off
    from payme.solver import evaluate

    best = lay_off(hand, list(declarer), rules, dealt)
    laid = sum(len(cards) for _, cards in best.lay_offs)
    own = evaluate(hand, rules, dealt)
    naive = lay_off(own.deadwood, list(declarer), rules, dealt).deadwood_points
    return 2 * laid + (4 if naive > best.deadwood_points else 0)


def kinds_for(rules: Ruleset | str) -> tuple[PuzzleKind, ...]:
    """The puzzle kinds that make sense under a rule set (lay-offs only where allowed)."""
    r = get_rules(rules)
    return tuple(k for k in KINDS if k != "lay_off" or r.lay_off)


def puzzle_from_id(puzzle_id: str) -> Puzzle:
    """Rebuild a puzzle from its id; a ``ValueError`` says what is wrong with a bad id."""
    if not isinstance(puzzle_id, str):
        raise ValueError(f"a puzzle id is text, not {type(puzzle_id).__name__}")
    parts = puzzle_id.strip().split("-")
    form = "RULES-DEALT-KIND-SEED, e.g. denexa-7-discard-42"
    if len(parts) != 4:
        raise ValueError(f"bad puzzle id {puzzle_id!r}: expected {form}")
    name, dealt_text, kind, seed_text = parts
    if name not in PRESETS:
        raise ValueError(
            f"bad puzzle id {puzzle_id!r}: unknown rule set {name!r} (one of {', '.join(PRESETS)})"
        )
    rules = PRESETS[name]
    if kind not in kinds_for(rules):
        raise ValueError(
            f"bad puzzle id {puzzle_id!r}: the kind must be one of "
            f"{', '.join(kinds_for(rules))} for {name}"
        )
    if not dealt_text.isdigit() or not seed_text.isdigit():
        raise ValueError(
            f"bad puzzle id {puzzle_id!r}: cards dealt and seed must be whole numbers ({form})"
        )
    dealt = int(dealt_text)
    rules.check_dealt(dealt)
    return _build(rules, dealt, kind, int(seed_text))


def new_puzzle(
    kind: PuzzleKind | None = None,
    rules: Ruleset | str = "denexa",
    dealt: int | None = None,
    difficulty: Difficulty | None = None,
    seed: int | None = None,
) -> Puzzle:
    """A new puzzle; each choice left as ``None`` is drawn at random from ``seed``.

    With ``difficulty`` given, seeds are tried in turn from ``seed`` until a puzzle of that
    difficulty comes up; the id records the seed that did, so the puzzle can be rebuilt.  A
    discard puzzle where every discard is equally good is passed over the same way.

    >>> p = new_puzzle("deadwood", "family", dealt=6, difficulty="easy", seed=1)
    >>> p.difficulty, p.kind, len(p.hand)
    ('easy', 'deadwood', 6)
    """
    r = get_rules(rules)
    if r.name not in PRESETS or PRESETS[r.name] != r:
        raise ValueError("puzzles use the preset rule sets (their ids name the preset)")
    if kind is not None and kind not in kinds_for(r):
        raise ValueError(
            f"kind must be one of {', '.join(kinds_for(r))} for {r.name}, not {kind!r}"
        )
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    if dealt is not None:
        r.check_dealt(dealt)
    start = random.randrange(10**6) if seed is None else seed
    if start < 0:
        raise ValueError(f"seed must be 0 or more, not {start}")
    for s in range(start, start + _MAX_TRIES):
        pick = random.Random(s)
        k = pick.choice(kinds_for(r)) if kind is None else kind
        d = dealt if dealt is not None else pick.randint(r.min_dealt, min(r.max_dealt, 10))
        puzzle = _build(r, d, k, s)
        if k == "discard" and len(set(_discard_results(puzzle).values())) < 2:
            continue  # every discard equally good: a question with no wrong answer
        if difficulty is None or puzzle.difficulty == difficulty:
            return puzzle
    raise ValueError(
        f"no {difficulty} {kind or ''} puzzle found with {dealt} cards dealt in {_MAX_TRIES} "
        "tries; try another number of cards"
    )


# --------------------------------------------------------------------------------------
# Grading


def _points(cards: Iterable[Card], p: Puzzle) -> int:
    return sum(p.rules.card_points(c, p.dealt) for c in cards)


def _cards_text(cards: Iterable[Card]) -> str:
    """Cards as a player writes them: ``10♥ A♣`` (never the notation ``TH AC``)."""
    return short_labels(cards)


def _meld_text(meld: Meld) -> str:
    """A meld as a player reads it, each wild card with what it plays as: ``5♥ JK (as 6♥) 7♥``."""
    return " ".join(
        short_label(c) if s is c or s is None else f"{short_label(c)} (as {short_label(s)})"
        for c, s in zip(meld.cards, meld.stands_for, strict=True)
    )


def _layout_text(melds: Iterable[Meld], deadwood: Iterable[Card]) -> str:
    shown = "; ".join(_meld_text(m) for m in melds)
    rest = _cards_text(deadwood) or "nothing"
    return f"melds {shown}; deadwood {rest}" if shown else f"no melds; deadwood {rest}"


def _explain(p: Puzzle) -> str:
    from payme.advice import discard_advice, go_out_advice, lay_off_advice, plain
    from payme.solver import evaluate

    unit = deadwood_unit(p.rules)
    if p.kind == "deadwood":
        ev = evaluate(p.hand, p.rules, p.dealt)
        return (
            f"Best: {_layout_text(ev.melds, ev.deadwood)} — {ev.deadwood_points} {unit}. "
            + _why_layout(p, ev)
        )
    if p.kind == "discard":
        best = _discard_results(p)
        low = min(best.values())
        cards = [_cards_text([c]) for c, v in sorted(best.items()) if v == low]
        advice = discard_advice(p.hand, p.rules, p.dealt)
        return (
            f"Discard {' or '.join(cards)}: the rest leaves {low} {unit} of deadwood at best. "
            f"{plain(advice.reason)}"
        )
    if p.kind == "go_out":
        advice = go_out_advice(p.hand, p.rules, p.dealt)
        from payme.solver import can_go_out

        out = can_go_out(p.hand, p.rules, p.dealt)
        if not out.ok:
            ev = evaluate(p.hand, p.rules, p.dealt)
            return (
                f"No: the best layout still leaves {_cards_text(ev.deadwood)} unmelded "
                f"({_layout_text(ev.melds, ev.deadwood)}). {plain(advice.reason)}"
            )
        ways = [
            "without discarding" if d is None else f"discarding {_cards_text([d])}"
            for d in out.discards
        ]
        return f"Yes: the hand goes out {' or '.join(ways)}. {plain(advice.reason)}"
    from payme.layoff import lay_off

    lo = lay_off(p.hand, list(p.declarer_melds), p.rules, p.dealt)
    placed = (
        "; ".join(
            f"{_cards_text(cards)} onto {_meld_text(p.declarer_melds[i])}"
            for i, cards in lo.lay_offs
        )
        or "nothing"
    )
    advice = lay_off_advice(p.hand, list(p.declarer_melds), p.rules, p.dealt)
    own = "; ".join(map(_meld_text, lo.melds)) or "none"
    return (
        f"{lo.deadwood_points} {unit}: your melds {own}, "
        f"lay off {placed}, deadwood {_cards_text(lo.deadwood) or 'nothing'}. "
        f"{plain(advice.reason)[0].upper()}{plain(advice.reason)[1:]}"
    )


def _why_layout(p: Puzzle, ev: object) -> str:
    """Why no better layout exists, in one sentence: what each left-over card lacks."""
    deadwood = tuple(getattr(ev, "deadwood", ()))
    if not deadwood:
        return "Every card fits in a meld."
    return (
        f"{_cards_text(deadwood)} cannot join any meld of the rest without leaving more "
        "points unmelded, so no other split scores less."
    )


def _discard_results(p: Puzzle) -> dict[Card, int]:
    from payme.solver import evaluate

    keep = p.rules.holder_wins
    # A card whose holder wins (RUMMY) costs nothing, but throwing it away throws away a
    # win: it is never a right answer while another card may go.
    others = any(
        c.special not in p.rules.never_discarded and (c.special is None or c.special != keep)
        for c in p.hand
    )
    results: dict[Card, int] = {}
    for card in sorted(set(p.hand)):
        if card.special in p.rules.never_discarded:
            continue
        if others and keep is not None and card.special == keep:
            continue
        rest = list(p.hand)
        rest.remove(card)
        results[card] = evaluate(rest, p.rules, p.dealt).deadwood_points
    return results


def _as_int(answer: object) -> int | None:
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int):
        return answer
    if isinstance(answer, str) and answer.strip().isdigit():
        return int(answer.strip())
    return None


def _check(p: Puzzle, answer: object) -> AnswerCheck:
    from payme.layoff import lay_off
    from payme.solver import can_go_out, evaluate

    why = p.solution()
    if p.kind == "lay_off":
        n = _as_int(answer)
        if n is None:
            raise ValueError(f"answer with a whole number of points, not {answer!r}")
        best = lay_off(p.hand, list(p.declarer_melds), p.rules, p.dealt).deadwood_points
        return _points_answer(n, best, why)
    if p.kind == "deadwood":
        best = evaluate(p.hand, p.rules, p.dealt).deadwood_points
        n = _as_int(answer)
        if n is not None:
            return _points_answer(n, best, why)
        chosen = parse_hand(answer)  # type: ignore[arg-type]
        left = Counter(p.hand)
        for c in chosen:
            if left[c] == 0:
                raise CardError(
                    f"{_cards_text([c])} is not in the hand (or not that many times)", token=str(c)
                )
            left[c] -= 1
        rest = list(left.elements())
        fully_melded = evaluate(rest, p.rules, p.dealt).deadwood_points == 0 if rest else True
        ok = fully_melded and _points(chosen, p) == best
        if not ok and not fully_melded:
            return _wrong("Not quite: the other cards do not all fit in melds.", why)
        if not ok:
            return _wrong(
                f"Not quite: those cards are {_points(chosen, p)} {_unit(p)}; "
                "another split leaves fewer.",
                why,
            )
        return AnswerCheck(True, "Right. " + why)
    text = str(answer).strip() if answer is not None else "none"
    if p.kind == "go_out":
        out = can_go_out(p.hand, p.rules, p.dealt)
        low = text.lower()
        if low in ("no", "n", "can't", "cannot"):
            if not out.ok:
                return AnswerCheck(True, "Right. " + why)
            return _wrong("Not quite: this hand can go out.", why)
        if low in ("none", "yes", "") and None in out.discards:
            return AnswerCheck(True, "Right. " + why)
        if low in ("none", "yes", ""):
            return _wrong("Not quite: not every card fits in a meld with none discarded.", why)
        card = parse_hand(text)
        if len(card) != 1:
            raise ValueError("answer 'no', 'none' or one card to discard")
        if card[0] not in p.hand:
            raise CardError(f"{_cards_text(card)} is not in the hand", token=str(card[0]))
        ok = card[0] in out.discards
        if ok:
            return AnswerCheck(True, "Right. " + why)
        rest = list(p.hand)
        rest.remove(card[0])
        remains = evaluate(rest, p.rules, p.dealt)
        return _wrong(
            f"Not quite. Without {_cards_text(card)} the rest still leaves "
            f"{_cards_text(remains.deadwood)} unmelded.",
            why,
        )
    # discard
    card = parse_hand(text)
    if len(card) != 1:
        raise ValueError("answer with exactly one card to discard")
    if card[0] not in p.hand:
        raise CardError(f"{_cards_text(card)} is not in the hand", token=str(card[0]))
    results = _discard_results(p)
    if card[0].special is not None and card[0].special == p.rules.holder_wins:
        return _wrong(
            f"Not quite. Keep {_cards_text(card)}: it costs nothing now, but holding it when "
            "the game ends makes you a winner.",
            why,
        )
    if card[0] not in results:
        return _wrong(f"Not quite: {_cards_text(card)} may never be discarded.", why)
    ok = results[card[0]] == min(results.values())
    if ok:
        return AnswerCheck(True, "Right. " + why)
    return _wrong(
        f"Not quite. Discarding {_cards_text(card)} leaves {results[card[0]]} {_unit(p)}; "
        f"{min(results.values())} is possible.",
        why,
    )


def _wrong(feedback: str, why: str) -> AnswerCheck:
    """A wrong answer: what is wrong with it, then the best answer explained."""
    return AnswerCheck(False, f"{feedback} {why}", feedback)


def _points_answer(n: int, best: int, why: str) -> AnswerCheck:
    """An answer in points, graded against the best (a miss says which way it is out)."""
    if n == best:
        return AnswerCheck(True, "Right. " + why)
    if n > best:
        return _wrong(f"Not quite: you can end with fewer than {n}.", why)
    return _wrong(f"Not quite: {n} is out of reach; the best is more.", why)


def _unit(p: Puzzle) -> str:
    return deadwood_unit(p.rules)


__all__ = [
    "DIFFICULTIES",
    "HINTS",
    "KINDS",
    "AnswerCheck",
    "Puzzle",
    "PuzzleKind",
    "candidate_melds",
    "difficulty_score",
    "grade",
    "kinds_for",
    "new_puzzle",
    "position_problems",
    "puzzle_from_id",
]

# Names this module had before each name got one meaning (kept for one release).
__getattr__ = renamed(__name__, {"Verdict": "payme.puzzles:AnswerCheck"})
