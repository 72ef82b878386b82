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


async def test_a_refund_takes_back_one_hit_of_the_window(store: Store) -> None:
    key = new_table()
    assert [await store.hit(key, 60_000) for _ in range(3)] == [1, 2, 3]
    await store.refund(key)
    await store.refund(key)
    assert await store.hit(key, 60_000) == 2


async def test_a_refund_never_counts_below_nothing(store: Store) -> None:
    key = new_table()
    await store.refund(key)  # no window: nothing to take back, none to owe
    assert await store.hit(key, 60_000) == 1
    await store.refund(key)
    await store.refund(key)
    assert await store.hit(key, 60_000) == 1


async def test_a_refund_after_the_window_ended_gives_nothing_to_the_next(store: Store) -> None:
    key = new_table()
    assert [await store.hit(key, 200) for _ in range(2)] == [1, 2]
    await asyncio.sleep(0.3)
    await store.refund(key)
    assert await store.hit(key, 200) == 1
