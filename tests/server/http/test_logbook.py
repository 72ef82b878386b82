import asyncio
import logging

import pytest

from server.http.logbook import ClientNoise, Logbook


@pytest.fixture
def clock() -> list[float]:
    return [1_000.0]


def book(clock: list[float]) -> Logbook:
    return Logbook(logging.getLogger("tests.logbook"), interval=60, clock=lambda: clock[0])


def test_the_first_refusal_is_written_at_once_then_one_line_a_minute(
    clock: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    logbook = book(clock)
    with caplog.at_level(logging.WARNING, "tests.logbook"):
        logbook.count("bad_message")
        for _ in range(10_000):
            logbook.count("bad_message")
            logbook.count("too_large")
        clock[0] += 30
        logbook.count("rate_limited")
        assert len(caplog.records) == 1  # thousands counted, one line so far
        clock[0] += 30
        logbook.count("bad_message")
    assert [r.getMessage() for r in caplog.records] == [
        "refused client input: bad_message 1",
        "refused client input: bad_message 10001, rate_limited 1, too_large 10000",
    ]
    assert logbook.total["bad_message"] == 10_002


def test_flush_writes_what_is_left_and_nothing_when_quiet(
    clock: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    logbook = book(clock)
    with caplog.at_level(logging.WARNING, "tests.logbook"):
        logbook.count("a")
        logbook.count("b")
        logbook.flush()
        logbook.flush()
    assert [r.getMessage() for r in caplog.records] == [
        "refused client input: a 1",
        "refused client input: b 1",
    ]


async def test_a_timer_writes_the_summary_when_the_minute_is_up(
    caplog: pytest.LogCaptureFixture,
) -> None:
    logbook = Logbook(logging.getLogger("tests.logbook"), interval=0.05)
    with caplog.at_level(logging.WARNING, "tests.logbook"):
        logbook.count("a")
        logbook.count("a")
        # The first count is written at once, the second by the timer, however slow the machine.
        async with asyncio.timeout(5):
            while len(caplog.records) < 2:
                await asyncio.sleep(0.01)
    assert [r.getMessage() for r in caplog.records] == ["refused client input: a 1"] * 2


def test_client_noise_turns_uvicorn_lines_into_counts(clock: list[float]) -> None:
    logbook = book(clock)
    noise = ClientNoise(logbook)
    invalid = logging.LogRecord("uvicorn.error", logging.WARNING, "", 0,
                                "Invalid HTTP request received.", None, None)  # fmt: skip
    other = logging.LogRecord("uvicorn.error", logging.ERROR, "", 0, "Exception in ASGI", None,
                              None)  # fmt: skip
    assert noise.filter(invalid) is False and noise.filter(other) is True
    assert logbook.total == {"bad_http": 1}
