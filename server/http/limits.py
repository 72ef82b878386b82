"""How often a client may try: new tables per address, and joins — guesses of a join code per
address, joins of a table it knows per table (docs/decisions.md, "Joins behind one router")
— and whether it may ask the calculator's word check at all (``WordChecks``).

Counted by the store: with Redis a limit holds across every process.
"""

import contextlib
import ipaddress
from collections.abc import Awaitable, Callable
from typing import TypeVar

from editions import Edition, codebook
from editions.errors import GameError
from server.http.logbook import Logbook
from server.stores.protocols import Store, TableInfo

WINDOW_MS = 60_000

Found = TypeVar("Found", bound=tuple[TableInfo, object])


def address(client: str) -> str:
    """The address a client counts by: an IPv6 client by its /64, one household or phone."""
    if ":" in client:
        with contextlib.suppress(ValueError):
            return str(ipaddress.ip_network(f"{client}/64", strict=False))
    return client


class RateLimit:
    """At most ``limit`` attempts per client address and minute, counted by the store."""

    WINDOW_MS = WINDOW_MS

    def __init__(self, store: Store, name: str, limit: int, logbook: Logbook) -> None:
        self.store = store
        self.name = name
        self.limit = limit
        self.logbook = logbook

    def key(self, client: str) -> str:
        return f"{self.name}:{address(client)}"

    async def allow(self, client: str) -> bool:
        """Count an attempt from ``client``; whether it is allowed (raises StoreUnavailable)."""
        allowed = await self.store.hit(self.key(client), self.WINDOW_MS) <= self.limit
        if not allowed:
            self.logbook.count(codebook.RATE_LIMITED)
        return allowed


class JoinLimit:
    """Joins by code: a guess costs its address, a join of a known table costs that table.

    Every join request counts first against its address (``per_address`` a minute, the rate
    at which codes can be guessed) before the code is looked up, so a burst of guesses in
    flight at once is held to the limit too. A code that names a table gives its attempt
    back to the address and counts against the table instead (``per_table`` a minute): the
    phones of a whole room behind one router join, while a leaked code floods no log.
    """

    def __init__(self, store: Store, per_address: int, per_table: int, logbook: Logbook) -> None:
        self.guesses = RateLimit(store, "join", per_address, logbook)
        self.store = store
        self.per_table = per_table
        self.logbook = logbook

    async def find(
        self, client: str, code: str, lookup: Callable[[str], Awaitable[Found]]
    ) -> Found:
        """The table of join ``code`` by ``lookup``, if ``client`` may ask now.

        Raises GameError: ``rate_limited`` when the address has guessed its fill,
        ``table_joins_busy`` when the table had its joins of the minute, and what ``lookup``
        raises (``unknown_code``: the attempt stays counted as a guess); StoreUnavailable.
        """
        if not await self.guesses.allow(client):
            raise GameError("too many join attempts; wait a minute", code=codebook.RATE_LIMITED)
        found = await lookup(code)
        await self.store.refund(self.guesses.key(client))  # no guess: it named a table
        table = found[0]
        if await self.store.hit(f"join-table:{table.id}", WINDOW_MS) > self.per_table:
            self.logbook.count(codebook.TABLE_JOINS_BUSY)
            raise GameError(
                f"the table had its {self.per_table} joins of the minute",
                code=codebook.TABLE_JOINS_BUSY,
            )
        return found

    async def simultaneous(self, client: str, code: str) -> None:
        """A room's director gives a simultaneous's code (``join_simultaneous``): a guess of
        its address, as a join is, given back when the code names a table — a centre can
        draw the whole sealed game, so its code is guessed no faster than a table's.

        Raises GameError (``rate_limited``), StoreUnavailable.
        """
        if not await self.guesses.allow(client):
            raise GameError("too many join attempts; wait a minute", code=codebook.RATE_LIMITED)
        if await self.store.table_by_code(code.strip().upper()) is not None:
            await self.store.refund(self.guesses.key(client))


#: Editions whose list stays on the server whatever the table: online play's (WS-30).
SECRET_LISTS = frozenset({"woordstrijd"})


class WordChecks:
    """The word check — the calculator's (``POST /api/score``) and a table's preview, where
    ``Tables.preview`` also keeps it from a running game — ``per_minute`` a client address,
    and never of online play's list, which must not leave the server.
    docs/decisions.md, "The word check is no oracle".
    """

    def __init__(self, store: Store, per_minute: int, logbook: Logbook) -> None:
        self.limit = RateLimit(store, "check", per_minute, logbook)

    async def allow(self, client: str, edition: Edition) -> None:
        """Raise GameError unless ``client`` may have words of ``edition`` checked now:
        ``word_check_secret``, ``rate_limited``; StoreUnavailable."""
        if edition.code in SECRET_LISTS:
            raise GameError(
                "the word check of this list stays on the server", code=codebook.WORD_CHECK_SECRET
            )
        await self.count(client)

    async def count(self, client: str) -> None:
        """Count a check from ``client``; raise GameError ``rate_limited`` past its fill."""
        if not await self.limit.allow(client):
            raise GameError("too many word checks; wait a minute", code=codebook.RATE_LIMITED)
