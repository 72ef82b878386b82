""" "Last seen" in the host's list of devices follows what a phone sends, not only its
reconnects (issue 27): every frame of a joined phone counts, written at most every
``SEEN_EVERY_MS``. Over real websockets to a server in the test's process, on a clock the
test moves (``tests.server.in_process``): half a minute is too long to wait for."""

import asyncio
import time
from pathlib import Path

from server.stores.sqlite import SqliteStore
from server.tables.joins import SEEN_EVERY_MS
from tests.server.in_process import Clock, Served, serving
from tests.server.serving import Phone, device_key, phones

START = {"type": "start_game", "edition": "nl", "mode": "classic", "players": ["Anna", "Bas"]}


async def last_seen(server: Served, table: str, host: str, device: str, at: int) -> None:
    """Wait until the host's list says ``device`` was last seen at ``at`` (the store is
    written beside the answer, not before it)."""
    deadline = time.monotonic() + 10
    while True:
        listed = (await server.call("GET", f"/api/tables/{table}/devices", token=host)).json()
        seen = next(d["last_seen"] for d in listed if d["id"] == device)
        if seen == at:
            return
        assert time.monotonic() < deadline, (seen, at)
        await asyncio.sleep(0.02)


async def test_every_frame_of_a_joined_phone_moves_its_last_seen(tmp_path: Path) -> None:
    clock = Clock()
    async with serving(SqliteStore(tmp_path / "t.db"), clock) as server:
        made = (await server.call("POST", "/api/tables")).json()
        table, host = made["table"], made["token"]
        started = await server.call(
            "POST", f"/api/tables/{table}/commands", {"id": "start", "command": START}, host
        )
        assert started.status == 200, started
        joining = {"code": made["code"], "role": "player", "seat": 1, "device": device_key()}
        joined = (await server.call("POST", "/api/join", joining)).json()
        bas = Phone(server.ws_url, table, joined["token"])
        async with phones(bas):
            await bas.open()
            joined_at = clock.now
            await last_seen(server, table, host, joined["device"], joined_at)

            # A minute on, Bas's phone asks for the sheet: seen now, without a reconnect.
            clock.advance(60)
            await bas.resync()
            await bas.receive()
            await last_seen(server, table, host, joined["device"], joined_at + 60_000)

            # A command counts too, once the last write is old enough.
            clock.advance(SEEN_EVERY_MS / 1000)
            await bas.command("late", {"type": "pass"})  # it names no turn: refused, still seen
            assert (await bas.answer("late")).code == "reference_missing"
            await last_seen(
                server, table, host, joined["device"], joined_at + 60_000 + SEEN_EVERY_MS
            )
