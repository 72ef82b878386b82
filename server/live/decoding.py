"""Decoding what a client sends: nesting is bounded before msgspec sees the bytes.

msgspec decodes nested arrays and objects by recursion, and it recurses into a value it only
skips (an unknown field, a tagged union looking for its tag) just as deep: a frame of 30,000
``[`` raises RecursionError, which is no ``msgspec.DecodeError`` and escapes as a 500 or a
dropped socket. msgspec has no depth option, so a cheap scan counts the nesting first. Our own
messages nest a dozen levels at most; anything deeper is refused as ``bad_message``.

>>> within_depth(b'{"a": [[1], {"b": "[[[["}]}', 3)
True
>>> within_depth(b"[[[[]]]]", 3)
False
"""

import re
from typing import Any

import msgspec

MAX_DEPTH = 64  # levels of [ and { in one message

# A JSON string, escapes included: the brackets inside one do not nest anything.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
_OPENING = frozenset(b"[{")


class TooDeep(msgspec.DecodeError):
    """Nested deeper than ``MAX_DEPTH``: refused as any other undecodable message."""


def within_depth(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether ``data`` nests arrays and objects at most ``limit`` deep (outside strings).

    Broken JSON (an unterminated string, brackets that do not match) may count too deep;
    msgspec would refuse it anyway.
    """
    if data.count(b"[") + data.count(b"{") <= limit:  # the usual message: no scan at all
        return True
    depth = 0
    for byte in _STRING.sub(b"", data).translate(None, _NOT_BRACKETS):
        if byte in _OPENING:
            depth += 1
            if depth > limit:  # a hostile frame is found out within its first levels
                return False
        else:
            depth -= 1
    return True


def decode(data: bytes | str, decoder: msgspec.json.Decoder[Any]) -> Any:
    """``data`` decoded by ``decoder``.

    Raises msgspec.DecodeError (``TooDeep`` among them) or msgspec.ValidationError.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if not within_depth(raw):
        raise TooDeep(f"the message nests deeper than {MAX_DEPTH} levels")
    return decoder.decode(raw)


def describe(error: Exception, limit: int = 200) -> str:
    """msgspec's account of a refusal, cut short: it may quote a field name of any length."""
    text = str(error)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"
