"""The limits' contract (``server.stores.protocols.Limits``), run against every backend: hits
counted per key in fixed windows."""

import asyncio

from server.stores.protocols import Store
from tests.server.stores.contract import (
    new_table,
)


async def test_hits_are_counted_per_key_in_a_window(store: Store) -> None:
    key = new_table()
    assert [await store.hit(key, 60_000) for _ in range(3)] == [1, 2, 3]
    assert await store.hit(f"{key}-other", 60_000) == 1


async def test_a_window_ends_and_the_count_starts_again(store: Store) -> None:
    key = new_table()
    assert [await store.hit(key, 200) for _ in range(2)] == [1, 2]
    await asyncio.sleep(0.3)
    assert await store.hit(key, 200) == 1
