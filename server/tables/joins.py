"""Joining a table: join codes, device tokens, and who a device is at the table now."""

import asyncio
import hashlib
import secrets
from collections.abc import Callable

from editions import codebook
from editions.errors import GameError
from events.events import DirectorReplaced, RecoverySet, TableEvent
from rules.table import seating
from rules.table.permissions import HOST, Actor
from rules.table.state import State
from rules.table.views import Audience
from server.live.messages import JoiningRole
from server.stores.protocols import Conflict, Device, Store, TableInfo
from server.tables.held import HELD_MAX, IDLE_MS, Held, now_ms
from server.tables.live import Live

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud at a table
CODE_LENGTH = 6
RETRIES = 8  # tries for a free join code

# A recovery code: three groups of four from the join codes' alphabet, about 60 bits, read
# from paper; guesses of it are limited like guesses of a join code.
RECOVERY_GROUP = 4
RECOVERY_GROUPS = 3

SEEN_EVERY_MS = 30_000  # how often a device's "last seen" is written: not on every command


def token_hash(token: str) -> str:
    """What the store keeps of a token: a leaked store reveals no usable token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _recovery_text(code: str) -> str:
    """A recovery code as compared: read off paper, so case, spaces and dashes do not count."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def actor(state: State, device: Device) -> Actor | None:
    """Who ``device`` is at the table as it stands; None once it was taken away.

    A device still waiting for the host is a ``waiting`` actor: it sees that it waits and
    may ask nothing.
    """
    if device.role == "host":  # the table's maker, or the phone that took its place
        if device.id != state.seating.director:
            return None  # another phone took the director's place with the recovery code
        return Actor("host", seating.host_seat(state), device.id)
    member = state.seating.member(device.id)
    if member is None:
        return None
    if member.role == "host":  # a co-director: every act of the director's
        return Actor("host", seating.host_seat(state), member.id)
    return Actor(member.role if member.admitted else "waiting", member.seat, member.id)


def gone(state: State, device: Device) -> GameError:
    """Why ``device`` opens nothing at the table now (``actor`` found none): another phone
    took the director's place with the recovery code, or the host took it away."""
    if device.role == "host" and device.id != state.seating.director:
        return GameError("another phone took the director's place", code=codebook.DIRECTOR_REPLACED)
    return GameError("this device was removed from the table", code=codebook.DEVICE_REMOVED)


def audience(who: Actor) -> Audience:
    """Which of the table's views a device gets."""
    if who.role in ("host", "waiting"):
        return who.role
    return "member"


def seat_of(who: Actor) -> int | None:
    """The seat whose rack a device may see in an online game: its own, if it plays."""
    return who.seat if who.role in ("player", "host") else None


class Joins(Held):
    """The held tables, joined by code and opened by token."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], int] = now_ms,
        *,
        idle_ms: int = IDLE_MS,
        held_max: int = HELD_MAX,
    ) -> None:
        super().__init__(store, clock, idle_ms=idle_ms, held_max=held_max)
        self._touched: dict[tuple[str, str], int] = {}  # (table, device) → last written

    async def create(self) -> tuple[TableInfo, str]:
        """A new table and its host's token."""
        for _ in range(RETRIES):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            table = TableInfo(secrets.token_urlsafe(16), code, self.clock())
            try:
                await self.store.create_table(table)
            except Conflict:
                continue  # the code is taken; draw another
            return table, await self._token(Device(table.id, "host", None, HOST))
        raise GameError("no free join code", code=codebook.BUSY)

    async def by_code(self, code: str) -> tuple[TableInfo, Live]:
        """The table with join ``code``, caught up; raises GameError (``unknown_code``)."""
        table = await self.store.table_by_code(code.strip().upper())
        if table is None:
            raise GameError(f"no table has the code {code!r}", code=codebook.UNKNOWN_CODE)
        live = await self.live(table.id)
        _refuse_simultaneous(live)
        return table, live

    async def join(
        self,
        code: str,
        role: JoiningRole,
        seat: int | None,
        key: str,
        name: str | None = None,
        *,
        model: str = "",
    ) -> tuple[TableInfo, str, Actor]:
        """A new device at the table with join ``code``: its token and where it sits (a
        device asking for a taken seat, the host's included, waits for the host; a player
        of a duplicate room registers by ``name``). ``model``: the phone as its user agent
        says it (``server.http.useragent``), for the host's list of devices.

        Raises GameError (``unknown_code``, ``no_such_seat``, the refusals of a
        registration), StoreUnavailable.
        """
        table, _ = await self.by_code(code)
        device = Device(table.id, role, seat if role == "player" else None, secrets.token_hex(6))
        key_hash = token_hash(key)[:32] if key else ""

        def joining(state: State) -> tuple[tuple[TableEvent, ...], str]:
            events = seating.join(state, device.id, role, device.seat, key_hash, name, model=model)
            return events, device.id

        state, _ = await self.record(table.id, joining, "")
        token = await self._token(device)
        who = actor(state, device)
        assert who is not None
        return table, token, who

    async def recovery(self, table_id: str, who: Actor) -> str:
        """A new recovery code for the table, replacing the one before: any phone that shows
        it takes the director's place (``recover``). The log keeps only its hash."""
        code = "-".join(
            "".join(secrets.choice(CODE_ALPHABET) for _ in range(RECOVERY_GROUP))
            for _ in range(RECOVERY_GROUPS)
        )

        def setting(state: State) -> tuple[tuple[TableEvent, ...], str]:
            return (RecoverySet(token_hash(_recovery_text(code))),), who.device

        await self.record(table_id, setting, "")
        return code

    async def recover(self, code: str, recovery: str) -> tuple[TableInfo, str, Actor]:
        """A new director's device at the table with join ``code``, for a phone that shows
        the table's recovery code: the device that directed before is let go on every
        process (its ``actor`` is None from the event on), and the code is used up.

        Raises GameError (``unknown_code``, ``bad_recovery``), StoreUnavailable.
        """
        table, _ = await self.by_code(code)
        device = Device(table.id, "host", None, secrets.token_hex(6))
        digest = token_hash(_recovery_text(recovery))

        def replacing(state: State) -> tuple[tuple[TableEvent, ...], str]:
            kept = state.seating.recovery
            if not kept or not secrets.compare_digest(kept, digest):
                raise GameError("that recovery code opens nothing", code=codebook.BAD_RECOVERY)
            return (DirectorReplaced(device.id),), device.id

        state, _ = await self.record(table.id, replacing, "")
        token = await self._token(device)
        who = actor(state, device)
        assert who is not None
        return table, token, who

    async def _token(self, device: Device) -> str:
        token = secrets.token_urlsafe(24)
        await self.store.add_device(token_hash(token), device)
        return token

    async def delete(self, table_id: str) -> bool:
        """Delete the table — its log, join code and devices — from the store and from this
        process (P-11); whether it was there. Raises StoreUnavailable."""
        deleted = await self.store.delete_table(table_id)
        self.forget(table_id)
        return deleted

    async def device(self, table_id: str, token: str) -> Device:
        """The device holding ``token`` at ``table_id``; raises GameError (``bad_token``)."""
        device = await self.store.device(token_hash(token)) if token else None
        if device is None or device.table != table_id or not device.id:
            raise GameError("this token does not open that table", code=codebook.BAD_TOKEN)
        return device

    async def authorise(self, table_id: str, token: str) -> tuple[Device, Actor, Live]:
        """The device holding ``token``, who it is at the table now, and the table.

        Raises GameError: ``bad_token``, or ``device_removed`` once the host took it away
        (``director_replaced``: the director's place, with the recovery code).
        """
        device = await self.device(table_id, token)
        live = await self.live(table_id)
        _refuse_simultaneous(live)
        return device, self.actor(live, device), live

    def actor(self, live: Live, device: Device) -> Actor:
        """Who ``device`` is at the table now; raises GameError (``device_removed``,
        ``director_replaced``)."""
        who = actor(live.state, device)
        if who is None:
            raise gone(live.state, device)
        self.seen(device.table, who.device)
        return who

    def seen(self, table_id: str, device: str) -> None:
        """Note that ``device`` was seen now: the host's list of devices says so. Written at
        most every ``SEEN_EVERY_MS`` per device, beside whatever it asked, never before it."""
        at, place = self.clock(), (table_id, device)
        if at - self._touched.get(place, 0) >= SEEN_EVERY_MS:
            if len(self._touched) > 10_000:  # phones supply these: keep the memo bounded
                self._touched.clear()
            self._touched[place] = at
            touching = asyncio.ensure_future(self.store.touch(table_id, device, at))
            touching.add_done_callback(_quiet)  # "last seen" may lag; a command must not


def _refuse_simultaneous(live: Live) -> None:
    """A simultaneous's log is no table: nobody joins, plays at or reads it as one (its
    sealed racks are in it); its organiser has routes of its own."""
    if live.state.simultaneous is not None:
        raise GameError("that is a simultaneous, not a table", code=codebook.NOT_A_TABLE)


def _quiet(task: "asyncio.Future[None]") -> None:
    if not task.cancelled():
        task.exception()  # read, so a store that was down is not logged as never retrieved
