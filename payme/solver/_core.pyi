# The compiled core's interface (payme/solver/_core.c); see payme.solver.backend.

from collections.abc import Callable
from typing import Any

from payme.memo import RecentMemo

STATE_BITS: int
SOURCE: str

class Fields:
    def __init__(
        self, width: int, cost: list[int], conv: list[bool], conv_masks: list[int], /
    ) -> None: ...

class GSearch:
    def __init__(
        self,
        fields: Fields,
        cands: list[tuple[tuple[int, int], ...]],
        guard: int,
        n_any: int,
        ends_owed: list[int],
        ends_plain: list[int],
        scoped: tuple[int, int, int, int, int, int, list[int]] | None,
        /,
    ) -> None: ...
    def value(self, state: int, b: int, d: int, budget: int = ..., /) -> int: ...
    def solve(self, state: int, b: int, budget: int = ..., /) -> int: ...
    def entry(self, state: int, b: int, d: int, /) -> int | None: ...
    def picks(self, state: int, b: int, d: int, /) -> tuple[int, ...]: ...
    def release(self) -> None: ...

class NSearch:
    def __init__(self, width: int, cost: list[int], guard: int, /) -> None: ...
    def solve(self, state: int, budget: int, cands: dict[int, tuple[int, ...]], /) -> int: ...
    def solve_d(self, state: int, budget: int, cands: dict[int, tuple[int, ...]], /) -> int: ...
    def pick(self, state: int, /) -> int | None: ...
    def pick_d(self, state: int, /) -> int | None: ...
    def forget(self, state: int, /) -> None: ...
    def forget_d(self, state: int, /) -> None: ...
    def size(self) -> int: ...
    def clear(self) -> None: ...

class Hands:
    def __init__(
        self,
        fields: Fields,
        guard: int,
        card_type: type,
        pos_of: list[int],
        limit: list[int],
        kind: list[int],
        card_cost: list[int],
        max_hand: int,
        plans: list[tuple[int | None, int, int]],
        ends_for: Callable[[tuple[int, ...]], tuple[list[int], list[int], list[int], list[int]]],
        cards: tuple[object, ...],
        spellings: dict[str, object],
        meld_rules: tuple[int, int, int, int, int, int, int, int, int, int],
        /,
    ) -> None: ...
    def evaluate(self, cards: tuple[object, ...], /) -> tuple[int, int, tuple[int, ...]] | None: ...
    def evaluate_text(self, text: str, /) -> tuple[int, int, tuple[int, ...]] | None: ...
    def evaluation(self, hand: object, /) -> Any: ...
    def discard(self, hand: object, /) -> tuple[int, Any] | None: ...
    def best(self, hand: object, /) -> Any: ...
    def points(self, cards: object, price: tuple[int, ...], /) -> int | None: ...
    def search(
        self, cards: object, /
    ) -> tuple[GSearch, int, tuple[int, ...], int, int, int] | None: ...
    def go_out(self, hand: object, size: int, /) -> tuple[int, ...] | None: ...
    def going_out(self, barred: list[int], allow_none: bool, /) -> None: ...
    def bind(
        self,
        cls: type,
        rules: object,
        dealt: int | None,
        laid_out: Callable[..., Any],
        tables: object,
        discard_laid_out: Callable[..., Any],
        indexes: Callable[..., tuple[bytes, bytes]],
        discard_cls: type = ...,
        /,
    ) -> None: ...
    def card_indexes(
        self, hand: object, tables: object, total: int, picks: tuple[int, ...], /
    ) -> tuple[bytes, bytes]: ...
    def layouts(
        self, key: bytes, adds: bytes, memo: RecentMemo[bytes] | None = ..., /
    ) -> list[bytes | None]: ...
    def forget(self) -> None: ...

class Kept:
    def __init__(
        self,
        points: list[int],
        natural: list[bool],
        counts: list[int],
        wild: list[bool],
        related: bytes,
        total: int,
        wild_share: float,
        hazard: float,
        pair_weight: float,
        needs: Callable[[int, int], tuple[int, ...]],
        /,
    ) -> None: ...
    def kept(self, code: bytes, /) -> float: ...
    def weigh(
        self,
        codes: list[bytes],
        counts: list[int],
        scale: float,
        expect: float,
        outs: float,
        kepts: dict[bytes, float],
        /,
    ) -> tuple[float, float]: ...
