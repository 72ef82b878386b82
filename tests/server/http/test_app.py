import logging

import pytest

from server.http.app import RateLimit
from server.http.logbook import Logbook
from server.stores.protocols import Windows
from server.stores.sqlite import SqliteStore


def limit_of(store: SqliteStore, limit: int) -> RateLimit:
    return RateLimit(store, "join", limit, Logbook(logging.getLogger("tests.app")))


async def test_rate_limit_allows_a_number_per_address_per_minute(
    sqlite_store: SqliteStore,
) -> None:
    clock = [1000.0]
    sqlite_store._windows.clock = lambda: clock[0]
    limit = limit_of(sqlite_store, 2)
    assert [await limit.allow("10.0.0.1") for _ in range(3)] == [True, True, False]
    assert await limit.allow("10.0.0.2")  # another address has its own count
    clock[0] += 61
    assert await limit.allow("10.0.0.1")  # a minute later


async def test_rate_limit_counts_an_ipv6_client_by_its_64(sqlite_store: SqliteStore) -> None:
    limit = limit_of(sqlite_store, 1)
    assert await limit.allow("2001:db8:0:1::1")
    assert not await limit.allow("2001:db8:0:1::ffff")  # the same network, another address
    assert await limit.allow("2001:db8:0:2::1")


async def test_rate_limit_counts_its_refusals(sqlite_store: SqliteStore) -> None:
    limit = limit_of(sqlite_store, 1)
    for _ in range(3):
        await limit.allow("10.0.0.1")
    assert limit.logbook.total == {"rate_limited": 2}


def test_windows_forget_keys_whose_window_ended() -> None:
    clock = [0.0]
    windows = Windows(lambda: clock[0])
    for n in range(Windows.SWEEP + 1):
        windows.hit(f"a{n}", 60_000)
    clock[0] += 120
    windows.hit("b", 60_000)
    assert len(windows._windows) == 1


def test_windows_sweep_rarely_while_many_keys_are_live() -> None:
    windows = Windows(lambda: 0.0)
    for n in range(3 * Windows.SWEEP):
        assert windows.hit(f"a{n}", 60_000) == 1
    assert windows._sweep_at >= 2 * Windows.SWEEP  # not a sweep on every hit


@pytest.mark.parametrize("window_ms", [1, 60_000])
def test_windows_count_within_a_window(window_ms: int) -> None:
    clock = [0.0]
    windows = Windows(lambda: clock[0])
    assert [windows.hit("k", window_ms) for _ in range(3)] == [1, 2, 3]
    clock[0] += window_ms / 1000
    assert windows.hit("k", window_ms) == 1
