"""A table's last command ids (``server.tables.retries``): a retry is answered with the seq
its command recorded, for the newest ``HELD`` commands and no older one."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.tables import retries
from server.tables.retries import Retries


def test_a_command_of_several_events_answers_with_its_last() -> None:
    held = Retries()
    for seq, command in enumerate(("start", "move", "move", "move", "pass"), start=1):
        held.add(command, seq)
    assert (held.seq("start"), held.seq("move"), held.seq("pass"), held.seq("other")) == (
        1,
        4,
        5,
        None,
    )


@given(st.lists(st.integers(1, 3), max_size=12))
def test_the_newest_commands_are_held_and_no_older_one(sizes: list[int]) -> None:
    """Commands of 1 to 3 events each, as a log has them: each id once, its events in a row."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(retries, "HELD", 4)
        held = Retries()
        last: dict[str, int] = {}  # each command's last seq
        seq = 0
        for number, size in enumerate(sizes):
            for _ in range(size):
                seq += 1
                last[f"c{number}"] = seq
                held.add(f"c{number}", seq)
        newest = list(last)[-4:]
        expected = {c: seq if c in newest else None for c, seq in last.items()}
        assert {c: held.seq(c) for c in last} == expected


def test_a_hash_found_across_two_others_is_no_command_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    keys = {"a": bytes(range(1, 9)), "b": bytes([9] * 8), "across": bytes([5, 6, 7, 8, 9, 9, 9, 9])}
    monkeypatch.setattr(retries, "_key", keys.__getitem__)
    held = Retries()
    held.add("a", 1)
    held.add("b", 2)
    assert (held.seq("a"), held.seq("b"), held.seq("across")) == (1, 2, None)
    held.add("across", 3)  # now held in its own place too
    assert held.seq("across") == 3
