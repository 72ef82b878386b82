"""The root of Tilestream's errors: a stable code and parameters a phone can translate."""

from typing import Any

from editions import codebook


class GameError(Exception):
    """An error with a stable ``code`` and ``params``, plus an English message naming the input.

    Phones show ``code`` in their own language with ``params`` filled in; the English
    message is for logs and Python users.
    """

    code = codebook.GAME_ERROR

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params = params


class NotationError(GameError, ValueError):
    """Text that cannot be read as tiles, squares or directions."""

    code = codebook.NOTATION


class UnknownEdition(GameError, LookupError):
    """An edition code that is not one of ``editions.codes()``."""

    code = codebook.UNKNOWN_EDITION
