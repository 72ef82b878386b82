"""What the store contract suites share: events told apart by their points, appends as a
server makes them, subscriptions collected, a table in use."""

import contextlib
import uuid
from collections.abc import Sequence

from hypothesis import strategies as st

from events.events import PointsEntered, Recorded
from server.stores.protocols import Conflict, Device, Store, TableInfo


def new_table() -> str:
    return uuid.uuid4().hex[:12]


def points(*values: int) -> tuple[PointsEntered, ...]:
    """Events told apart by their points."""
    return tuple(PointsEntered(player=0, points=value) for value in values)


def seqs(records: Sequence[Recorded]) -> list[int]:
    return [r.seq for r in records]


async def append_retrying(
    store: Store, table_id: str, values: Sequence[int], command: str = ""
) -> tuple[Recorded, ...]:
    """Append as a server does: on Conflict, catch up and try again."""
    expected = 0
    while True:
        try:
            return await store.append(table_id, expected, points(*values), command=command)
        except Conflict:
            newer = await store.read(table_id, expected)
            expected = newer[-1].seq if newer else expected


async def collect(store: Store, table_id: str, after: int, until: int) -> list[list[int]]:
    """The seqs of each batch a subscriber gets, up to and including ``until``."""
    batches: list[list[int]] = []
    async with contextlib.aclosing(store.subscribe(table_id, after)) as batches_in:
        async for batch in batches_in:
            batches.append(seqs(batch))
            if batch[-1].seq >= until:
                return batches
    raise AssertionError("a subscription ended")


def assert_once_in_order(batches: list[list[int]], after: int, until: int) -> None:
    assert all(batches), "an empty batch"
    assert [seq for batch in batches for seq in batch] == list(range(after + 1, until + 1))


appends = st.tuples(
    st.integers(0, 3),  # how many events
    st.sampled_from(["", "", "a", "b", "c"]),  # the command id
    st.integers(-2, 1),  # how far the expected number is off the top
)


DAY = 86_400_000


async def a_table_in_use(store: Store, table_id: str, code: str, at: int = 5_000) -> None:
    """A table with a host and a player, two commands recorded at ``at`` and a last-seen
    time: something of it in every place a store keeps per table."""
    await store.create_table(TableInfo(table_id, code, 1_000))
    await store.add_device(f"{table_id}-host", Device(table_id, "host", id="host"))
    await store.add_device(f"{table_id}-seat", Device(table_id, "player", seat=1, id="d1"))
    await store.append(table_id, 0, points(1, 2), device="host", at=at, command="c1")
    await store.append(table_id, 2, points(3), device="d1", at=at, command="c2")
    await store.touch(table_id, "d1", at)
