# The lay-off search's compiled heart (payme/solver/_layoff_core.c); see payme.layoff.

from collections.abc import Callable
from typing import Any

SOURCE: str

# The one search of the whole hand: its start, pure wild cards, points set aside, its value
# and a row per kind of card (payme.layoff._Scoring.starts).
_Starts = tuple[Any, int, int, Callable[..., int], tuple[tuple[int, int, int, Any], ...]]

def choose(
    top: int,
    hand: bytes | bytearray,
    dead: bytes | bytearray,
    points: tuple[int, ...],
    melds: list[tuple[object, ...]],
    rules: tuple[int, int, int, int, int, int, int, int],
    priced: Callable[[int], int],
    starts: Callable[[tuple[int, ...]], _Starts | None],
    value: Callable[[tuple[int, ...], tuple[int, ...]], int],
    /,
) -> tuple[int, list[tuple[int, tuple[int, ...]]] | None] | None: ...
