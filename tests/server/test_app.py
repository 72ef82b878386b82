import pytest

from server import app
from server.app import RateLimit


def test_rate_limit_allows_a_number_per_address_per_minute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(app.time, "monotonic", lambda: clock[0])
    limit = RateLimit(2)
    assert [limit.allow("10.0.0.1") for _ in range(3)] == [True, True, False]
    assert limit.allow("10.0.0.2")  # another address has its own count
    clock[0] += 61
    assert limit.allow("10.0.0.1")  # a minute later


def test_rate_limit_forgets_quiet_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    monkeypatch.setattr(app.time, "monotonic", lambda: clock[0])
    limit = RateLimit(1)
    for n in range(10_001):
        limit.allow(f"a{n}")
    clock[0] += 120
    limit.allow("b")
    assert len(limit._seen) == 1
