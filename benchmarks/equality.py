"""The compiled solver core against the pure-Python one, hand by hand.

``python -m benchmarks.equality --hands 1000000`` deals hands under the four presets and
under random custom rule sets (random hands, meld-rich hands and wild-heavy hands, from 1 to
16 cards, wild cards of every scope: jokers, the round's wild rank, ranks wild in every
hand, WILD, GROUP, SEQ), asks both cores the same questions -- ``evaluate`` of every hand,
and of every fourth hand ``best_discard`` and (when it may go out) ``can_go_out`` -- and
counts the answers that differ (melds with their stand-ins, deadwood, points, the card
discarded, the discards that go out, and the error raised, if any). The pure-Python answers
come from worker processes started with ``PAYME_SOLVER=python``; the compiled ones from this
process, which needs the compiled core (it stops with a message when it is not built).

``--gin N`` adds N gin-rummy hands of 11 cards (the rule set of :mod:`benchmarks.bench_gin`,
random and meld-rich hands as that benchmark deals them), each asked ``evaluate`` and
``best_discard``: the 11-card best discard that benchmark times against OpenSpiel.

``--write`` puts the result into its section of ``docs/benchmarks.md``.  ``make test`` runs
20,000 hands (``tests/test_backend.py``).  The exit status is 1 when any answer differs.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import random
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from multiprocessing import get_context
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from payme.cards import Card
    from payme.rulesets import Ruleset

PRESET_NAMES = ("denexa", "classic", "family", "three_pack")
CHUNK = 500
"""Hands per chunk: a chunk is dealt from its own seed, so each process deals it alike."""
KINDS = ("random", "meld-rich", "wild-heavy")
EVERY = 4
"""Every hand is evaluated; every fourth is also asked its best discard and whether it can
go out (those ask the same searches again with a discard owed, at three times the cost)."""


def custom_rules(rng: random.Random) -> Ruleset:
    """A random valid rule set: a preset with its packs, wild cards and meld rules changed."""
    from payme.rulesets import PRESETS

    while True:
        base = PRESETS[rng.choice(PRESET_NAMES)]
        packs = rng.choice((1, 1, 2, 2, 3, 4, 6))
        specials: list[tuple[str, int]] = []
        wilds: list[tuple[str, str]] = []
        for token, scope in (("WILD", "any"), ("GROUP", "set"), ("SEQ", "run")):
            if rng.random() < 0.4:
                specials.append((token, rng.randint(1, 3)))
                wilds.append((token, scope))
        if base.single_card_melds and rng.random() < 0.5:
            specials.append(("RUMMY", 2))
        set_max = rng.choice((None, None, 4, 5))
        changes: dict[str, object] = {
            "name": f"custom{rng.randrange(10**6)}",
            "packs": ((20, packs),),
            "max_players": 20,
            "jokers_per_pack": rng.choice((0, 1, 2)),
            "jokers_wild": rng.random() < 0.7,
            "wild_ranks": tuple(sorted(rng.sample(range(1, 14), rng.choice((0, 0, 1, 1, 2))))),
            "special_cards": tuple(specials) if specials else base.special_cards,
            "special_wilds": tuple(wilds) if specials else base.special_wilds,
            "optional_cards": () if specials else base.optional_cards,
            "set_min": rng.choice((3, 3, 3, 4)),
            "set_max": set_max,
            "set_distinct_suits": rng.random() < 0.3,
            "run_min": rng.choice((3, 3, 3, 4)),
            "ace": rng.choice(("low", "low_or_high")),
            "wild_at_most_half": rng.random() < 0.3,
            "no_adjacent_wilds_in_run": rng.random() < 0.3,
        }
        try:
            return dataclasses.replace(base, **changes)  # type: ignore[arg-type]
        except (ValueError, TypeError):
            continue  # an invalid combination: draw again


_PACKS: dict[int, tuple[Ruleset, list[Card], Counter[Card], dict[int, list[Card]]]] = {}


def _pack(r: Ruleset) -> tuple[list[Card], Counter[Card], dict[int, list[Card]]]:
    """The largest pack of a rule set (every copy), its counts, and its wild cards by the
    cards dealt (filled as asked): made once per rule set."""
    from payme.cards import CARDS

    hit = _PACKS.get(id(r))
    if hit is None or hit[0] is not r:
        if len(_PACKS) > 64:
            _PACKS.clear()
        pack = [CARDS[i] for i, n in enumerate(r.pack_counts(None)) for _ in range(n)]
        hit = _PACKS[id(r)] = (r, pack, Counter(pack), {})
    return hit[1], hit[2], hit[3]


def _hand(rng: random.Random, r: Ruleset, dealt: int, kind: str) -> tuple[Card, ...]:
    from payme.cards import CARDS

    pack, counts, wild_by_dealt = _pack(r)
    size = min(rng.choice((*range(1, 15), 14, 14, 13, 11, 8, 15, 16)), len(pack))
    if kind == "random":
        return tuple(rng.sample(pack, size))
    wilds = wild_by_dealt.get(dealt)
    if wilds is None:
        wilds = [c for c in counts if r.wild_scope(c, dealt) is not None]
        wilds.sort(key=lambda c: c.index)
        wild_by_dealt[dealt] = wilds
    left = counts.copy()
    hand: list[Card] = []

    def take(card: Card) -> None:
        if left[card] > 0 and len(hand) < size:
            left[card] -= 1
            hand.append(card)

    if kind == "wild-heavy":
        while len(hand) < size:
            take(rng.choice(wilds) if wilds and rng.random() < 0.4 else rng.choice(pack))
        return tuple(hand)
    # meld-rich: sets and runs (some with a wild card), then a card or two swapped
    for _ in range(40):
        if len(hand) >= size:
            break
        if rng.random() < 0.5:
            rank = rng.randint(1, 13)
            meld = [CARDS[s * 13 + rank - 1] for s in rng.sample(range(4), rng.choice((3, 3, 4)))]
        else:
            suit, length = rng.randrange(4), rng.choice((3, 3, 4, 5, 6))
            low = rng.randint(1, 14 - length)
            meld = [CARDS[suit * 13 + low - 1 + k] for k in range(length)]
        if wilds and rng.random() < 0.4:
            meld[rng.randrange(len(meld))] = rng.choice(wilds)
        for card in meld:
            take(card)
    while len(hand) < size:
        take(rng.choice(pack))
    for _ in range(rng.choice((0, 1, 2))):
        if hand:
            hand[rng.randrange(len(hand))] = rng.choice([c for c in left if left[c] > 0])
    checked = Counter(hand)
    if any(n > counts[c] for c, n in checked.items()):
        return tuple(rng.sample(pack, size))  # a swap took one copy too many
    return tuple(hand)


def deal(
    seed: int, chunk: int, n: int
) -> Iterator[tuple[str, Ruleset, int, str, tuple[Card, ...]]]:
    """The hands of one chunk: (rule set label, rule set, dealt, kind, cards)."""
    from payme.rulesets import PRESETS

    rng = random.Random(f"{seed}/{chunk}")
    # Half the chunks use the presets, half a custom rule set each.
    if chunk % 2 == 0:
        label = PRESET_NAMES[(chunk // 2) % 4]
        r = PRESETS[label]
    else:
        r = custom_rules(rng)
        label = "custom"
    for _ in range(n):
        dealt = rng.randint(r.min_dealt, r.max_dealt)
        kind = KINDS[rng.randrange(3)]
        yield label, r, dealt, kind, _hand(rng, r, dealt, kind)


def _shown(ev: object) -> str:
    from payme.solver import Evaluation

    assert isinstance(ev, Evaluation)
    # The cards and deadwood are read before the melds, then again after: the compiled core
    # sets the first two at once and lays out the melds later, and both must agree.
    first = (ev.cards, ev.deadwood)
    melds = [(m.kind, m.cards, m.stands_for) for m in ev.melds]
    again = "" if (ev.cards, ev.deadwood) == first else f" laid out as {ev.cards, ev.deadwood}"
    return repr((*first[:1], melds, *first[1:], ev.deadwood_points)) + again


def answers(seed: int, chunk: int, n: int, gin: bool = False) -> list[str]:
    """Every answer of one chunk's hands, as text (an error as its type and message)."""
    return [a for _, a in (gin_answers if gin else labelled_answers)(seed, chunk, n)]


def gin_answers(seed: int, chunk: int, n: int) -> list[tuple[str, str]]:
    """One chunk of 11-card gin hands (random and meld-rich, in turn), each described with
    its evaluation and its best discard."""
    from benchmarks.bench_gin import DEALT, GIN, meld_rich_hands, random_hands
    from payme.solver import best_discard, evaluate

    rng = random.Random(f"{seed}/gin/{chunk}")
    out: list[tuple[str, str]] = []
    for number in range(n):
        kind, make = ("random", random_hands) if number % 2 else ("meld-rich", meld_rich_hands)
        (cards,) = make(rng, 1, 11)
        card, ev = best_discard(cards, GIN, DEALT)
        about = f"gin ({kind}): {' '.join(x.token for x in cards)}"
        out.append((about, f"{_shown(evaluate(cards, GIN, DEALT))} | {card!r} {_shown(ev)}"))
    return out


def labelled_answers(seed: int, chunk: int, n: int) -> list[tuple[str, str]]:
    """Each hand of one chunk described (rule set, kind, dealt, cards), with its answers."""
    from payme.solver import best_discard, can_go_out, evaluate

    out: list[tuple[str, str]] = []
    for number, (label, r, dealt, kind, cards) in enumerate(deal(seed, chunk, n)):
        parts: list[str] = []
        try:
            parts.append(_shown(evaluate(cards, r, dealt)))
        except ValueError as error:
            parts.append(f"{type(error).__name__}: {error}")
        if number % EVERY:
            pass  # evaluate only (see EVERY)
        elif len(cards) >= 2:
            try:
                card, ev = best_discard(cards, r, dealt - 1 if dealt > r.min_dealt else dealt)
                parts.append(f"{card!r} {_shown(ev)}")
            except ValueError as error:
                parts.append(f"{type(error).__name__}: {error}")
        if not number % EVERY and (r.game == "rummy_3_pack" or len(cards) == dealt + 1):
            try:
                parts.append(repr(can_go_out(cards, r, dealt)))
            except ValueError as error:
                parts.append(f"{type(error).__name__}: {error}")
        about = f"{label} ({kind}, dealt {dealt}): {' '.join(x.token for x in cards)}"
        out.append((about, " | ".join(parts)))
    return out


def _pure_worker() -> None:
    # Set before payme's solver is first imported in this process: it reads it once.
    os.environ["PAYME_SOLVER"] = "python"
    # As nice as the run (`nice -n 10 python -m ...`) and no nicer: at 19 on a busy
    # machine a worker waits for every other job.
    if os.nice(0) < 10:
        with contextlib.suppress(OSError):
            os.nice(10 - os.nice(0))


def run(
    hands: int, seed: int = 2026, workers: int = 2, quiet: bool = False, gin: int = 0
) -> dict[str, object]:
    """Compare both cores on ``hands`` hands (and ``gin`` gin hands of 11 cards); the counts,
    disagreements and CPU time."""
    from benchmarks.report import machine
    from payme.solver.backend import solver_backend

    if solver_backend() != "compiled":
        raise SystemExit(
            "the compiled solver core is not running here (not built, or PAYME_SOLVER=python): "
            "nothing to compare"
        )
    # The gin hands first (few and quick), then the rest.
    chunks = [(c, min(CHUNK, gin - c * CHUNK), True) for c in range((gin + CHUNK - 1) // CHUNK)]
    chunks += [
        (c, min(CHUNK, hands - c * CHUNK), False) for c in range((hands + CHUNK - 1) // CHUNK)
    ]
    total = hands + gin
    by_set: Counter[str] = Counter()
    disagree: list[str] = []
    compiled_cpu = 0.0
    began = (datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), machine())
    start = time.perf_counter()
    ctx = get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_pure_worker) as pool:
        # A few chunks ahead at most, so that finished answers do not pile up in memory.
        ahead = 4 * workers
        futures = [pool.submit(answers, seed, *chunk) for chunk in chunks[:ahead]]
        for i, (c, n, is_gin) in enumerate(chunks):
            if i + ahead < len(chunks):
                futures.append(pool.submit(answers, seed, *chunks[i + ahead]))
            future = futures[i]
            t0 = time.process_time()
            mine = (gin_answers if is_gin else labelled_answers)(seed, c, n)
            compiled_cpu += time.process_time() - t0
            theirs = future.result()
            futures[i] = None  # type: ignore[call-overload]
            for (about, a), b in zip(mine, theirs, strict=True):
                by_set[about.split(" ", 1)[0]] += 1
                if a != b:
                    disagree.append(f"chunk {c}, {about}\n  compiled: {a}\n  python:   {b}")
            done = sum(by_set.values())
            if not quiet and (c % 20 == 19 or done == total):
                print(f"{done:,} hands, {len(disagree)} differ, "
                      f"{time.perf_counter() - start:.0f} s", file=sys.stderr)  # fmt: skip
    return {
        "hands": sum(by_set.values()),
        "gin": gin,
        "by_set": dict(by_set),
        "disagreements": disagree,
        "wall": time.perf_counter() - start,
        "compiled_cpu": compiled_cpu,
        "began": began,
        "nice": os.nice(0),
    }


def report(result: dict[str, object], seed: int, workers: int) -> str:
    from benchmarks.report import commit

    by_set = result["by_set"]
    assert isinstance(by_set, dict)
    disagree = result["disagreements"]
    assert isinstance(disagree, list)
    began = result["began"]
    assert isinstance(began, tuple)
    when, where = began
    sets = ", ".join(f"{k} {v:,}" for k, v in sorted(by_set.items()))
    nice = result.get("nice", 10)
    gin = result.get("gin", 0)
    assert isinstance(gin, int)
    gin_option = f" --gin {gin}" if gin else ""
    gin_text = (
        f" The {gin:,} gin hands are 11-card hands under the gin-rummy rule set of "
        "`benchmarks/bench_gin.py`, random and meld-rich in turn, each asked `evaluate` and "
        "`best_discard`: the best discard that benchmark times against OpenSpiel."
        if gin
        else ""
    )
    paragraphs = [
        f"Started {when} at commit {commit()} on {where}. Command: `nice -n {nice} python -m "
        f"benchmarks.equality --hands {result['hands'] - gin} --seed {seed} --workers {workers}"
        f"{gin_option} --write`.",
        f"**{result['hands']:,} hands, {len(disagree)} disagreements** ({sets}). Half the "
        "chunks of 500 hands are under one preset each, half under a random custom rule set "
        "each (1 to 6 packs, 0 to 2 jokers a pack, jokers wild or not, 0 to 2 ranks wild in "
        "every hand, WILD / GROUP / SEQ cards of any / set / run scope, set and run minimums "
        "and maximums, distinct suits, ace high, the half-wild and no-adjacent-wild limits); "
        "random, meld-rich and "
        "wild-heavy hands of 1 to 16 cards. For every hand `evaluate`; for every "
        f"{EVERY}th hand `best_discard` (2 or more cards) and, for a hand that may go out, "
        "`can_go_out`: melds with their stand-ins, deadwood, points, the card discarded, the "
        "discards that go out, and any error, compared as text. (The check itself was "
        "checked at an earlier stop: with the search's moves tried in reverse order, 2,000 "
        "hands gave 21 disagreements.)" + gin_text,
        f"Time: {result['wall']:.0f} s of wall clock (pure-Python answers in {workers} worker "
        f"processes, all at nice {nice} or more); the compiled core's answers took "
        f"{result['compiled_cpu']:.1f} s of CPU time in the main process (the whole public "
        "call: parsing, set-up, layouts).",
    ]
    lines = ["## The compiled solver core against the pure-Python one"]
    for paragraph in paragraphs:
        lines += ["", textwrap.fill(paragraph, width=96, break_on_hyphens=False)]
    if disagree:
        lines += ["", "First disagreements:", "", "```", *disagree[:5], "```"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.equality",
        description="Compare the compiled solver core with the pure-Python one.",
    )
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2, help="pure-Python worker processes")
    parser.add_argument("--gin", type=int, default=0, help="11-card gin hands to add")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args(argv)
    result = run(args.hands, args.seed, args.workers, gin=args.gin)
    text = report(result, args.seed, args.workers)
    print(text)
    if args.write:
        from benchmarks.__main__ import DOC, write_section

        write_section(DOC, "equality", text)
    return 1 if result["disagreements"] else 0


if __name__ == "__main__":
    sys.exit(main())
