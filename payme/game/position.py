"""A game position as one line of text, in the spirit of FEN in chess.

``game.to_position()`` writes the whole position; ``from_position(text)`` sets a game up at
it (the class method of either game, or :func:`payme.game.from_position`, which picks the
game from the rule set named).  A position is a list of ``key=value`` fields separated by
``;``.  Cards are written as in a hand (``5H 6H JK``), ``-`` is nothing (an empty hand, no
seat, no value), ``/`` separates the seats' entries (seat 0 first) and ``|`` the melds on
the table, each written ``kind:cards`` with every wild card's stand-in (``run:JK(4H) 5H
6H``).  The stock and the discard pile run from the bottom to the top: the last card is
drawn first.

Only the position is written, not how the game came to it: a game set up from a position
starts a new log and a random source seeded by its ``seed`` field.  Fields left out take
their value at the start of a hand (no declarer, zero totals, …), and when setting up a
position the stock may begin with ``*``: the rest of the pack, in canonical order, under
the cards listed.  Every card of the pack must be somewhere, exactly once per copy.

>>> from payme.game import from_position
>>> g = from_position("rules=family; players=2; hand=1; phase=draw; to_move=0; "
...                   "hands=5H 6H JK / 7H 8C 9D; pile=2C; stock=* KS KC")
>>> g.hand_of(0), g.stock[-1], len(g.stock)
((Card('5H'), Card('6H'), Card('JK')), Card('KC'), 47)
>>> from_position(g.to_position()).to_position() == g.to_position()
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from payme.cards import Card, format_hand, parse_card, parse_hand
from payme.deprecation import renamed
from payme.melds import Meld, MeldKind
from payme.rulesets import Ruleset
from payme.rulesets import rules as get_rules


class PositionError(ValueError):
    """A position's text that does not describe a game this engine can set up."""


NONE = "-"


# --------------------------------------------------------------------------------------
# Codecs: one kind of value to text and back


@dataclass(frozen=True)
class Codec:
    """How one kind of field value is written and read."""

    dump: Callable[[object], str]
    load: Callable[[str], object]


def _items(value: object) -> list[Any]:
    """A field's value as a list (each codec knows what its items are)."""
    return list(cast(Iterable[Any], value))


def _cards_dump(value: object) -> str:
    cards = tuple(_items(value))
    return format_hand(cards) if cards else NONE


def _cards_load(text: str) -> list[Card]:
    return [] if text == NONE else list(parse_hand(text))


def _card_dump(value: object) -> str:
    return NONE if value is None else str(value)


def _card_load(text: str) -> Card | None:
    return None if text == NONE else parse_card(text)


def _int_load(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PositionError(f"{text!r} is not a whole number") from None


def _opt_int_load(text: str) -> int | None:
    return None if text == NONE else _int_load(text)


def _ints_dump(value: object) -> str:
    items = _items(value)
    return " ".join(str(v) for v in items) if items else NONE


def _ints_load(text: str) -> list[int]:
    return [] if text == NONE else [_int_load(t) for t in text.split()]


def _per_seat(inner: Codec) -> Codec:
    def dump(value: object) -> str:
        return " / ".join(inner.dump(v) for v in _items(value))

    def load(text: str) -> list[object]:
        return [inner.load(part.strip()) for part in text.split("/")]

    return Codec(dump, load)


def _meld_dump(meld: Meld) -> str:
    return f"{meld.kind}:{meld}"


def _meld_load(text: str) -> Meld:
    kind, sep, cards = text.partition(":")
    if not sep or kind not in ("set", "run", "single"):
        raise PositionError(f"a meld is written kind:cards (set:, run: or single:), not {text!r}")
    kind_: MeldKind = kind  # type: ignore[assignment]
    return Meld(kind_, cards.strip())


def _melds_dump(value: object) -> str:
    melds = _items(value)
    return " | ".join(_meld_dump(m) for m in melds) if melds else NONE


def _melds_load(text: str) -> list[Meld]:
    return [] if text == NONE else [_meld_load(part.strip()) for part in text.split("|")]


def _placements_dump(value: object) -> str:
    items = _items(value)
    return " + ".join(f"{i}:{format_hand(cs)}" for i, cs in items) if items else NONE


def _placements_load(text: str) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    if text == NONE:
        return ()
    out = []
    for part in text.split("+"):
        index, sep, cards = part.partition(":")
        if not sep:
            raise PositionError(f"a lay-off is written meld:cards, not {part.strip()!r}")
        out.append((_int_load(index.strip()), parse_hand(cards)))
    return tuple(out)


def _str_dump(value: object) -> str:
    return str(value) if value else NONE


def _str_load(text: str) -> str:
    return "" if text == NONE else text


def _bool_load(text: str) -> bool:
    if text not in ("0", "1"):
        raise PositionError(f"a yes/no field is 1 or 0, not {text!r}")
    return text == "1"


def _counts_dump(value: object) -> str:
    items = dict(cast(Mapping[str, int], value))
    return " ".join(f"{k}:{v}" for k, v in sorted(items.items())) if items else NONE


def _counts_load(text: str) -> dict[str, int]:
    if text == NONE:
        return {}
    out = {}
    for part in text.split():
        name, sep, count = part.partition(":")
        if not sep:
            raise PositionError(f"an optional card is written NAME:count, not {part!r}")
        out[name] = _int_load(count)
    return out


def _log_dump(value: object) -> str:
    items = _items(value)
    return ", ".join(f"{s}:{k}:{_cards_dump(cs)}" for s, k, cs in items) if items else NONE


def _log_load(text: str) -> list[tuple[int, str, tuple[Card, ...]]]:
    if text == NONE:
        return []
    out = []
    for part in text.split(","):
        bits = part.strip().split(":")
        if len(bits) != 3:
            raise PositionError(f"a public event is written seat:kind:cards, not {part!r}")
        out.append((_int_load(bits[0]), bits[1], tuple(_cards_load(bits[2]))))
    return out


CARD_LIST = Codec(_cards_dump, _cards_load)
CARD = Codec(_card_dump, _card_load)
INT = Codec(str, _int_load)
OPT_INT = Codec(_card_dump, _opt_int_load)
INTS = Codec(_ints_dump, _ints_load)
BOOLS = Codec(lambda v: _ints_dump(int(bool(x)) for x in _items(v)), _ints_load)
BOOL = Codec(lambda v: "1" if v else "0", _bool_load)
STR = Codec(_str_dump, _str_load)
MELDS = Codec(_melds_dump, _melds_load)
SEAT_CARDS = _per_seat(CARD_LIST)
SEAT_MELDS = _per_seat(MELDS)
SEAT_PLACEMENTS = _per_seat(Codec(_placements_dump, _placements_load))
SEAT_STRS = _per_seat(STR)
COUNTS = Codec(_counts_dump, _counts_load)
PUBLIC_LOG = Codec(_log_dump, _log_load)


# --------------------------------------------------------------------------------------
# Whole positions


Field = tuple[str, str, Codec]
"""``(key, attribute, codec)``: a field of the notation and where the game keeps it."""


def write_position(rules: Ruleset, state: Mapping[str, object], fields: Sequence[Field]) -> str:
    """The position text: the rule set, then each field's value from ``state``."""
    parts = [f"rules={rules.name}"]
    parts += [f"{key}={codec.dump(state[attr])}" for key, attr, codec in fields]
    return "; ".join(parts)


def read_position(
    text: str, fields: Sequence[Field], rules: Ruleset | None = None
) -> tuple[Ruleset, dict[str, object]]:
    """The rule set and the values a position gives, by attribute (fields left out are
    missing from the dict).  ``rules`` is the rule set when the text names a custom one."""
    if not isinstance(text, str):
        raise PositionError(f"a position is text, not {type(text).__name__}")
    raw: dict[str, str] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep:
            raise PositionError(f"a position's fields are key=value, not {part!r}")
        if key in raw:
            raise PositionError(f"the field {key!r} is given twice")
        raw[key] = value.strip()
    name = raw.pop("rules", None)
    if name is None:
        raise PositionError("a position names its rule set first: rules=NAME")
    if rules is None:
        ruleset = get_rules(name)
    elif rules.name != name:
        raise PositionError(f"the position is for rule set {name!r}, not {rules.name!r}")
    else:
        ruleset = rules
    by_key = {key: (attr, codec) for key, attr, codec in fields}
    unknown = sorted(set(raw) - set(by_key))
    if unknown:
        raise PositionError(
            f"unknown field {unknown[0]!r}: the fields are rules, " + ", ".join(by_key)
        )
    values: dict[str, object] = {}
    for key, text_value in raw.items():
        attr, codec = by_key[key]
        try:
            values[attr] = codec.load(text_value)
        except PositionError as err:
            raise PositionError(f"field {key}: {err}") from None
        except ValueError as err:
            raise PositionError(f"field {key}: {err}") from None
    return ruleset, values


def check_cards(where: Mapping[str, Counter[Card]], pack: Counter[Card]) -> None:
    """Raise :class:`PositionError` unless the cards in all the places are the pack."""
    total: Counter[Card] = Counter()
    for cards in where.values():
        total.update(cards)
    extra = total - pack
    if extra:
        card = min(extra)
        place = next(p for p, cs in where.items() if cs[card])
        raise PositionError(
            f"the pack holds {pack[card]} {card}, but the position has {total[card]} "
            f"(one in {place})"
        )
    missing = pack - total
    if missing:
        shown = format_hand(sorted(missing.elements())[:5])
        raise PositionError(
            f"{sum(missing.values())} cards of the pack are nowhere ({shown}…): put them "
            "in the stock, or begin the stock with * for the rest of the pack"
        )


def _stock_load(text: str) -> object:
    if text.startswith("*"):
        return ("*", _cards_load(text[1:].strip() or NONE))
    return _cards_load(text)


def _opt_ints_load(text: str) -> list[int] | None:
    return None if text == NONE else _ints_load(text)


def _opt_seat_cards_dump(value: object) -> str:
    return NONE if value is None else SEAT_CARDS.dump(value)


def _opt_seat_cards_load(text: str) -> object:
    return None if text == NONE else SEAT_CARDS.load(text)


STOCK = Codec(_cards_dump, _stock_load)
"""The stock: cards bottom to top; when read, a leading ``*`` stands for the rest of the
pack (the value is then ``("*", cards)``, see :func:`stock_cards`)."""
OPT_INTS = Codec(lambda v: NONE if v is None else _ints_dump(v), _opt_ints_load)
OPT_SEAT_CARDS = Codec(_opt_seat_cards_dump, _opt_seat_cards_load)

TABLE: tuple[Field, ...] = (
    ("phase", "phase", STR),
    ("to_move", "to_move", OPT_INT),
    ("hands", "_hands", SEAT_CARDS),
    ("stock", "_stock", STOCK),
    ("pile", "_pile", CARD_LIST),
    ("drawn", "_drawn", CARD),
)
"""The fields of the table that every game keeps alike (:class:`~payme.game.base.Game`), in
the order both games write them: whose move in which phase, the hands, stock and pile."""


def stock_cards(value: object, pack: Counter[Card], placed: Counter[Card]) -> list[Card]:
    """The stock read from a position: ``*`` becomes the cards of ``pack`` not ``placed``
    elsewhere (in canonical order), under the cards listed."""
    if isinstance(value, tuple) and value and value[0] == "*":
        listed = list(value[1])
        rest = pack - placed - Counter(listed)
        return sorted(rest.elements()) + listed
    return cast(list[Card], _items(value))


def seat_lists(values: dict[str, object], attr: str, players: int, default: object) -> list[object]:
    """A per-seat field, one entry per seat (``default`` for each when left out)."""
    value = values.get(attr)
    if value is None:
        return [default() if callable(default) else default for _ in range(players)]
    assert isinstance(value, list)
    if len(value) != players:
        raise PositionError(
            f"{attr.strip('_')} needs one entry per seat ({players}), not {len(value)}"
        )
    return value


def read_turn(
    values: dict[str, object],
    phases: Sequence[str],
    players: int,
    to_move: Callable[[str], int | None],
) -> tuple[str, int | None]:
    """A position's phase (one of ``phases``; ``draw`` when left out) and the seat to move
    (``to_move(phase)`` when left out), a :class:`PositionError` naming a wrong one."""
    phase = values.get("phase", "draw")
    if phase not in phases:
        raise PositionError(f"phase must be one of {', '.join(phases)}, not {phase!r}")
    seat = values.get("to_move", to_move(str(phase)))
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < players):
        raise PositionError(f"to_move must be a seat from 0 to {players - 1} or -, not {seat!r}")
    return str(phase), seat


def read_hands(values: dict[str, object], players: int) -> list[list[Card]]:
    """A position's hands, one per seat (a position must give them)."""
    if "_hands" not in values:
        raise PositionError("a position needs hands=... (one entry per seat, separated by /)")
    return cast(list[list[Card]], seat_lists(values, "_hands", players, list))


def with_fields(text: str, **fields: str) -> str:
    """``text`` with some fields' values replaced (or added), each given as its text.

    >>> with_fields("rules=denexa; players=2; pile=2C", pile="-", hand="3")
    'rules=denexa; players=2; pile=-; hand=3'
    """
    parts: dict[str, str] = {}
    for part in text.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep:
            parts[key.strip()] = value.strip()
    parts.update(fields)
    return "; ".join(f"{key}={value}" for key, value in parts.items())


__all__ = [
    "TABLE",
    "Codec",
    "Field",
    "PositionError",
    "check_cards",
    "read_position",
    "seat_lists",
    "stock_cards",
    "with_fields",
    "write_position",
]

__getattr__ = renamed(
    "payme.game.position",
    {"read": "payme.game.position:read_position", "write": "payme.game.position:write_position"},
)
