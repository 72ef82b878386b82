"""rules.table.history: a History is the tuple of its items, however it was grown or branched."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.table.history import CHUNK, History

# Each step grows one of the histories made so far (an index into them) by one item: a
# history grown twice is a branch, as after an undo and a new line. The items are few, so a
# branch often grows by the item another has already: the same line folded again.
growth = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3)), max_size=3 * CHUNK + 10)


@settings(max_examples=200, deadline=None)
@given(growth, st.integers(0, 2 * CHUNK + 3))
def test_history_equals_the_tuple_it_stands_for(steps: list[tuple[int, int]], start: int) -> None:
    histories = [History(range(start))]
    tuples = [tuple(range(start))]
    for which, item in steps:
        at = which % len(histories)
        histories.append(histories[at].plus(item))
        tuples.append((*tuples[at], item))
    for history, expected in zip(histories, tuples, strict=True):
        assert history == expected and tuple(history) == expected and len(history) == len(expected)
        assert list(reversed(history)) == list(reversed(expected))
        assert history[len(expected) // 2 :] == expected[len(expected) // 2 :]
        assert history[::-3] == expected[::-3]
        if expected:
            assert (history[0], history[-1]) == (expected[0], expected[-1])
            assert history[len(expected) // 2] == expected[len(expected) // 2]
        assert hash(history) == hash(expected)
    assert histories[-1] == History(tuples[-1])


@pytest.mark.parametrize("index", [2, -3, 10**3])
def test_history_index_out_of_range_raises_index_error(index: int) -> None:
    with pytest.raises(IndexError):
        History(["a", "b"])[index]


def test_history_grown_twice_from_one_keeps_both_branches() -> None:
    base = History(range(CHUNK - 1)).plus(-1)  # the tail is full: the next item freezes it
    left, right = base.plus("left"), base.plus("right")
    assert (left[-1], right[-1], len(left), len(right)) == ("left", "right", CHUNK + 1, CHUNK + 1)
    short = History(["a"])
    first, second = short.plus("b"), short.plus("c")
    assert (tuple(first), tuple(second), tuple(short)) == (("a", "b"), ("a", "c"), ("a",))


def test_history_grown_again_by_an_equal_item_shares_what_it_holds() -> None:
    # An undo folds lines again from an older game: the sheet keeps one copy of each.
    base = History(["a"])
    first, again = base.plus(tuple(["b"])), base.plus(tuple(["b"]))  # equal, not the same
    assert again == first and again[-1] is first[-1]
    other = base.plus(tuple(["c"]))
    assert other[-1] == ("c",) and first[-1] == ("b",)
