"""The layouts of a hand plus each card, asked in one call (``layouts_with_each``), are what
evaluating each of those hands alone gives: seeded random hands under every preset rule
set, small to large, with wild and special cards (runs with either solver core: ``make
pytest-pure`` runs this file with ``PAYME_SOLVER=python`` too)."""

from __future__ import annotations

import random

import pytest

from payme.cards import CARDS
from payme.codes import scored_code
from payme.game import evaluation
from payme.memo import RecentMemo
from payme.rulesets import PRESETS
from payme.solver import evaluate, layouts_with_each


def _one_by_one(key: bytes, adds: bytes, name: str, dealt: int | None) -> list[bytes]:
    """Each hand evaluated alone, its answer kept as the memos keep it."""
    out = []
    for i in adds:
        hand = tuple(sorted([CARDS[j] for j in key] + [CARDS[i]], key=lambda c: c.index))
        ev = evaluate(hand, name, dealt)
        out.append(scored_code(ev.deadwood_points, bytes([c.index for c in ev.deadwood])))
    return out


def _deals(name: str, count: int, seed: int) -> list[tuple[int | None, bytes, bytes]]:
    """``count`` seeded (cards dealt, hand's card indices, cards to add) from the rule set's
    largest pack: hands of ``dealt`` cards, each with some cards left in the pack to add."""
    rules = PRESETS[name]
    pack = [i for i, n in enumerate(rules.pack_counts()) for _ in range(n)]
    rng = random.Random(seed)
    found: list[tuple[int | None, bytes, bytes]] = []
    for _ in range(count):
        dealt = rng.choice((3, 5, 7, 9, 11, 13)) if name != "three_pack" else None
        size = dealt if dealt is not None else rng.choice((6, 7, 10))
        rng.shuffle(pack)
        hand = sorted(pack[:size])
        adds = sorted(set(pack[size : size + rng.randint(1, 20)]))
        found.append((dealt, bytes(hand), bytes(adds)))
    return found


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_layouts_with_each_card_are_each_hand_evaluated_alone(name: str) -> None:
    for dealt, key, adds in _deals(name, 60, 29):
        assert layouts_with_each(key, adds, name, dealt) == _one_by_one(key, adds, name, dealt)


def test_the_remembered_layouts_with_each_card_are_each_hand_evaluated_alone() -> None:
    # The memo's batch: the hands already remembered and those searched together, in order.
    rules = PRESETS["family"]
    for dealt, key, adds in _deals("family", 40, 5):
        assert dealt is not None
        half = adds[: len(adds) // 2]
        evaluation.layout_codes_with(key, half, rules, dealt)  # some remembered first
        expected = _one_by_one(key, adds, "family", dealt)
        assert evaluation.layout_codes_with(key, adds, rules, dealt) == expected
        keys = [bytes(sorted(key + bytes([i]))) for i in adds]
        assert [evaluation.layout_code(k, rules, dealt) for k in keys] == expected


def test_a_memo_gives_its_answers_and_keeps_the_new_ones() -> None:
    # With a memo (its generations small, so answers move between them): what it holds is
    # read from it (a made-up answer stands, to show it), the rest are searched and put in.
    rules = PRESETS["family"]
    memo: RecentMemo[bytes] = RecentMemo(7)
    for dealt, key, adds in _deals("family", 40, 7):
        assert dealt is not None
        hands = [bytes(sorted(key + bytes([i]))) for i in adds]
        expected = _one_by_one(key, adds, "family", dealt)
        memo.put(hands[0], b"\x01\x02")
        expected[0] = b"\x01\x02"
        assert layouts_with_each(key, adds, rules, dealt, memo) == expected
        assert [memo.get(hand) for hand in hands[-7:]] == expected[-7:]


@pytest.mark.compiled
@pytest.mark.parametrize("name", ["classic", "denexa", "family"])
def test_the_compiled_kept_is_the_python_one(name: str) -> None:
    # Outlook._kept_of by the compiled core (payme.solver._core.Kept) gives the same float
    # as the Python reference, on seeded unseen cards and deadwoods of 2 to 14 cards.
    from payme.game.expert import Outlook
    from payme.solver.backend import CORE

    if CORE is None:
        pytest.skip("the compiled core does not run here")
    rules = PRESETS[name]
    pack = [i for i, n in enumerate(rules.pack_counts(4)) for _ in range(n)]
    rng = random.Random(29)
    for _ in range(40):
        dealt = rng.choice((3, 5, 7, 9, 11, 13))
        rng.shuffle(pack)
        unseen = [0] * len(CARDS)
        for i in pack[: rng.randint(0, 60)]:
            unseen[i] += 1
        hazard = rng.choice((0.0, 0.2, 0.3))
        outlook = Outlook(rules, dealt, unseen, hazard, pair_weight=rng.choice((0.5, 1.0)))
        codes = []
        for _ in range(30):
            dead = bytes(sorted(rng.sample(pack, rng.randint(0, 14))))
            code = scored_code(rng.randint(0, 400), dead)
            codes.append(code)
            if len(dead) >= 2:
                assert outlook._kept_of(code) == outlook._kept_of_python(code), (dealt, code)
        # Outlook._draw's sum over the cards tried, in C and in Python.
        counts = [rng.randint(1, 3) for _ in codes]
        scale, expect, outs = rng.uniform(1, 3), rng.uniform(0, 50), rng.uniform(0, 5)
        kepts: dict[bytes, float] = {}
        got = outlook._compiled().weigh(codes, counts, scale, expect, outs, kepts)
        for code, n in zip(codes, counts, strict=True):
            value = 0.0 if len(code) <= 3 else outlook._kept_of_python(code)
            if value == 0.0:
                outs += n * scale
            expect += n * scale * value
        assert got == (expect, outs)
        assert kepts == {c: outlook._kept_of_python(c) for c in codes if len(c) > 3}
