"""payme.memo.RecentMemo: a bounded memo that never gives a wrong answer and keeps what
is in use."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from payme.memo import RecentMemo

keys = st.binary(max_size=3)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 8),
    st.lists(st.tuples(st.booleans(), keys, st.binary(max_size=4)), max_size=200),
)
# Stored again, b"\x00" starts a new generation, and b"" is dropped: reading it then finds
# nothing, and that read must not count as a use that keeps it.
@example(1, [(True, b"", b""), (True, b"\x00", b""), (True, b"\x00", b""), (False, b"", b"")] * 2)
def test_it_answers_what_was_last_stored_and_holds_at_most_twice_its_size(
    size: int, steps: list[tuple[bool, bytes, bytes]]
) -> None:
    memo: RecentMemo[bytes] = RecentMemo(size)
    latest: dict[bytes, bytes] = {}
    recent: list[bytes] = []  # keys by last use, most recent last
    for store, key, answer in steps:
        if store:
            memo.put(key, answer)
            latest[key] = answer
        found = memo.get(key)
        if key in latest:
            # Used (stored or read back) within the last ``size`` distinct uses: still there.
            if key in recent[-size:] or store:
                assert found == latest[key]
            assert found is None or found == latest[key]
            if found is not None:  # a read that finds nothing brings nothing back
                recent = [k for k in recent if k != key] + [key]
        else:
            assert found is None
        assert len(memo.new) <= size and len(memo.old) <= size
    assert not memo.tracked()


def test_an_answer_in_use_outlives_its_generation() -> None:
    memo: RecentMemo[int] = RecentMemo(4)
    memo.put(b"keep", 7)
    for n in range(40):
        memo.put(bytes([n]), n)
        assert memo.get(b"keep") == 7  # read every turn: never dropped
    assert memo.get(bytes([0])) is None  # stored once, long ago: dropped
    assert len(memo) <= 8
    memo.clear()
    assert len(memo) == 0 and memo.get(b"keep") is None


def test_a_memo_of_no_room_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1 answer a generation, not 0"):
        RecentMemo(0)
