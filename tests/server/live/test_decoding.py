import msgspec
import pytest

from server.live.decoding import MAX_DEPTH, TooDeep, decode, describe, within_depth
from server.live.messages import client_decoder


@pytest.mark.parametrize(
    ("data", "limit", "within"),
    [
        (b"[]", 1, True),
        (b"[[]]", 1, False),
        (b'{"a": {"b": [1, 2]}}', 3, True),
        (b'{"a": {"b": [1, [2]]}}', 3, False),
        (b'["[[[[", "\\"[[[["]', 1, True),  # brackets in strings, escaped quotes included
        (b"[]" * 1_000, 1, True),  # wide is not deep
        (b"]]]][[", 2, True),  # broken: msgspec refuses it
        (b"[" * 100_000, MAX_DEPTH, False),
    ],
)
def test_within_depth_counts_nesting_outside_strings(data: bytes, limit: int, within: bool) -> None:
    assert within_depth(data, limit) is within


@pytest.mark.parametrize(
    "frame",
    [
        "[" * 30_000 + "]" * 30_000,
        '{"type": "command", "id": "x", "command": ' + '{"a": ' * 10_000,  # a tag looked for
        '{"type": "hello", "table": "t", "token": "x", "x": ' + "[" * 20_000,  # a skipped field
    ],
)
def test_decode_refuses_deep_frames_as_decode_errors(frame: str) -> None:
    with pytest.raises(TooDeep):
        decode(frame, client_decoder)
    assert issubclass(TooDeep, msgspec.DecodeError)  # refused as any bad message


def test_decode_takes_text_and_bytes() -> None:
    hello = '{"type": "hello", "table": "t", "token": "x"}'
    assert decode(hello, client_decoder) == decode(hello.encode(), client_decoder)


def test_describe_cuts_a_long_error_short() -> None:
    error = msgspec.ValidationError(f"Object contains unknown field `{'x' * 70_000}`")
    assert len(describe(error)) == 200 and describe(error).endswith("…")
    assert describe(msgspec.ValidationError("short")) == "short"
