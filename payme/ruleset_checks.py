"""Every field of a :class:`~payme.rulesets.Ruleset` checked for type and range, in one place.

A rule set built by hand (``dataclasses.replace(rules("denexa"), run_min=1)``) is refused at
once with a message naming each bad field, instead of failing later deep in the engine
(``set_min=100`` gave an IndexError, negative points an AssertionError, and
``packs=((8, 10**6),)`` tried to allocate 2 GB).

>>> import dataclasses
>>> from payme.rulesets import rules
>>> dataclasses.replace(rules("denexa"), run_min=1, joker_points=-5)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: invalid rule set 'denexa': run_min must be a whole number from 3 to 13, not 1; ...
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from payme.cards import SPECIAL_NAMES
from payme.deprecation import renamed

if TYPE_CHECKING:
    from payme.rulesets import Ruleset

# Ranges the engine supports.  Melds: a run spans at most the 13 ranks; a set of more than 13
# cards cannot be held (the largest hand is 13 dealt plus the card drawn).
MELD_MIN_RANGE = (3, 13)
PLAYERS_RANGE = (2, 20)
PACKS_RANGE = (1, 8)
JOKERS_PER_PACK_RANGE = (0, 4)
SPECIAL_COPIES_RANGE = (0, 20)
HANDS_RANGE = (1, 30)
DEALT_RANGE = (1, 13)
RANK_RANGE = (1, 13)
POINTS_RANGE = (0, 1000)
MONEY_CENTS_RANGE = (0, 10**6)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(name: str, value: object, bounds: tuple[int, int], optional: bool = False) -> str:
    """A problem with a whole number field (``""`` if none)."""
    if optional and value is None:
        return ""
    low, high = bounds
    if _whole(value) and low <= value <= high:  # type: ignore[operator]
        return ""
    what = f"a whole number from {low} to {high}" + (" or None" if optional else "")
    return f"{name} must be {what}, not {_short(value)}"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _choice(name: str, value: object, allowed: tuple[Any, ...], optional: bool = False) -> str:
    if (optional and value is None) or (isinstance(value, str) and value in allowed):
        return ""
    options = ", ".join(repr(a) for a in allowed) + (" or None" if optional else "")
    return f"{name} must be one of {options}, not {_short(value)}"


def _tuple_of(name: str, value: object, item: Callable[[object], str]) -> list[str]:
    """Problems of a tuple field whose items ``item`` checks (it returns what is wrong)."""
    if not isinstance(value, tuple):
        return [f"{name} must be a tuple, not {_short(value)}"]
    return [f"{name}[{i}] {wrong}" for i, x in enumerate(value) if (wrong := item(x))]


def _text(value: object) -> str:
    return (
        "" if isinstance(value, str) and value.strip() else f"must be a word, not {_short(value)}"
    )


def _special(value: object) -> str:
    ok = isinstance(value, str) and value in SPECIAL_NAMES
    return "" if ok else f"must be a special card ({', '.join(SPECIAL_NAMES)}), not {_short(value)}"


FieldCheck = Callable[[object], str]


def _card(value: object) -> str:
    """Any card, by its token (``"JK"``, ``"NOGO"``, ``"7H"``)."""
    from payme.cards import CardError, parse_card

    try:
        ok = isinstance(value, str) and parse_card(value).token == value
    except (CardError, ValueError):
        ok = False
    return "" if ok else f"must be a card token such as 'JK' or 'NOGO', not {_short(value)}"


def _pair(first: tuple[str, FieldCheck], second: tuple[str, FieldCheck]) -> FieldCheck:
    """A check of a ``(first, second)`` pair whose message names the wrong part."""

    def check(value: object) -> str:
        if not isinstance(value, tuple) or len(value) != 2:
            return f"must be a pair ({first[0]}, {second[0]}), not {_short(value)}"
        for (label, part), item in zip((first, second), value, strict=True):
            if wrong := part(item):
                return f"{label} {wrong}"
        return ""

    return check


def _in_range(bounds: tuple[int, int]) -> Callable[[object], str]:
    def check(value: object) -> str:
        wrong = _number("", value, bounds)
        return wrong.removeprefix(" ")

    return check


def _one_of(allowed: tuple[str, ...]) -> Callable[[object], str]:
    def check(value: object) -> str:
        return _choice("", value, allowed).removeprefix(" ")

    return check


def _literals(alias: Any) -> tuple[str, ...]:
    return tuple(typing.get_args(alias))


def problems(r: Ruleset) -> list[str]:
    """What is wrong with ``r``'s fields, each naming its field (empty: nothing).

    >>> from payme.rulesets import rules
    >>> problems(rules("three_pack"))
    []
    """
    from payme import rulesets as rs

    found: list[str] = []
    add = found.append
    for name in ("name", "title", "source", "go_out_call"):
        if not isinstance(getattr(r, name), str):
            add(f"{name} must be text, not {_short(getattr(r, name))}")
    add(_choice("game", r.game, _literals(rs.GameKind)))

    # players, packs and the deal
    add(_number("min_players", r.min_players, PLAYERS_RANGE))
    add(_number("max_players", r.max_players, PLAYERS_RANGE))
    if _whole(r.min_players) and _whole(r.max_players) and r.min_players > r.max_players:
        add(f"min_players ({r.min_players}) must not exceed max_players ({r.max_players})")
    pack_step = _pair(("most players", _in_range(PLAYERS_RANGE)), ("packs", _in_range(PACKS_RANGE)))
    pack_problems = _tuple_of("packs", r.packs, pack_step)
    found += pack_problems
    if not pack_problems:
        most = [m for m, _ in r.packs]
        if not r.packs:
            add("packs must list at least one (most players, packs) step")
        elif most != sorted(set(most)):
            add(f"packs must be in increasing order of players, not {_short(r.packs)}")
        elif _whole(r.max_players) and most[-1] < r.max_players:
            add(f"packs must cover every player count up to max_players ({r.max_players})")
    add(_number("jokers_per_pack", r.jokers_per_pack, JOKERS_PER_PACK_RANGE))
    copies = _pair(("card", _special), ("copies", _in_range(SPECIAL_COPIES_RANGE)))
    found += _tuple_of("special_cards", r.special_cards, copies)
    found += _tuple_of("optional_cards", r.optional_cards, copies)
    add(_number("hands", r.hands, HANDS_RANGE))
    for name in ("first_dealt", "min_dealt", "max_dealt"):
        add(_number(name, getattr(r, name), DEALT_RANGE))
    if all(_whole(x) for x in (r.hands, r.first_dealt, r.min_dealt, r.max_dealt)):
        if r.min_dealt > r.max_dealt:
            add(f"min_dealt ({r.min_dealt}) must not exceed max_dealt ({r.max_dealt})")
        last = r.first_dealt + r.hands - 1
        if not r.min_dealt <= r.first_dealt <= last <= r.max_dealt:
            add(
                f"first_dealt ({r.first_dealt}) and hands ({r.hands}) deal {r.first_dealt} "
                f"to {last} cards: outside min_dealt..max_dealt ({r.min_dealt}-{r.max_dealt})"
            )

    # yes/no rules
    for f in dataclasses.fields(r):
        if f.type in ("bool", bool) and not isinstance(getattr(r, f.name), bool):
            add(f"{f.name} must be True or False, not {_short(getattr(r, f.name))}")

    # wild cards and melds
    found += _tuple_of("wild_ranks", r.wild_ranks, _in_range(RANK_RANGE))
    ranks = r.wild_ranks
    if isinstance(ranks, tuple) and all(map(_whole, ranks)) and list(ranks) != sorted(set(ranks)):
        add(f"wild_ranks must list each rank once, low to high, not {_short(ranks)}")
    scopes = _literals(rs.WildScope)
    wilds = _pair(("card", _special), ("melds", _one_of(scopes)))
    found += _tuple_of("special_wilds", r.special_wilds, wilds)
    add(_number("set_min", r.set_min, MELD_MIN_RANGE))
    add(_number("run_min", r.run_min, MELD_MIN_RANGE))
    add(_number("set_max", r.set_max, MELD_MIN_RANGE, optional=True))
    if _whole(r.set_min) and r.set_max is not None and _whole(r.set_max) and r.set_max < r.set_min:
        add(f"set_max ({r.set_max}) must not be below set_min ({r.set_min})")
    add(_choice("ace", r.ace, _literals(rs.AceRule)))
    if wrong := _pair(("set", _text), ("run", _text))(r.meld_words):
        add(f"meld_words {wrong}")
    for name in ("single_card_melds", "never_melded", "never_discarded", "never_left_over"):
        found += _tuple_of(name, getattr(r, name), _card)

    # going out and the end of a hand
    add(_choice("going_out", r.going_out, _literals(rs.GoingOut)))
    found += _tuple_of("final_turn_draw", r.final_turn_draw, _one_of(_literals(rs.DrawSource)))
    add(_choice("stock_out", r.stock_out, _literals(rs.StockOut)))
    for name in ("instant_win_pair", "holder_wins"):
        value = getattr(r, name)
        if value is not None and _card(value):
            add(f"{name} {_card(value)}")
    add(_number("max_winners", r.max_winners, (1, PLAYERS_RANGE[1]), optional=True))

    # points and money
    if not isinstance(r.rank_points, tuple) or len(r.rank_points) != 13:
        add(f"rank_points must be 13 whole numbers, ace to king, not {_short(r.rank_points)}")
    else:
        found += _tuple_of("rank_points", r.rank_points, _in_range(POINTS_RANGE))
    add(_number("joker_points", r.joker_points, POINTS_RANGE))
    add(_number("wild_points", r.wild_points, POINTS_RANGE, optional=True))
    add(_number("special_points", r.special_points, POINTS_RANGE))
    if r.money is not None:
        if not isinstance(r.money, rs.Money):
            add(f"money must be a Money or None, not {_short(r.money)}")
        else:
            add(_number("money.ante", r.money.ante, MONEY_CENTS_RANGE))
            add(_number("money.per_hand", r.money.per_hand, MONEY_CENTS_RANGE))
    add(_number("game_points_to_win", r.game_points_to_win, (1, 100), optional=True))
    found += _tuple_of("notes", r.notes, lambda x: "" if isinstance(x, str) else "must be text")
    return [p for p in found if p]


__getattr__ = renamed(
    "payme.ruleset_checks",
    {
        "Check": "payme.ruleset_checks:FieldCheck",
        **{
            name: f"payme.ruleset_checks:{name}_RANGE"
            for name in [
                "MELD_MIN",
                "PLAYERS",
                "PACKS",
                "JOKERS_PER_PACK",
                "SPECIAL_COPIES",
                "HANDS",
                "DEALT",
                "POINTS",
                "MONEY_CENTS",
            ]
        },
    },
)
