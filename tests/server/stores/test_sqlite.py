"""What only the SQLite store adds: files from before deletion existed still open."""

import sqlite3
from pathlib import Path

import msgspec

from events.events import PointsEntered, Recorded, encode
from server.stores.protocols import Device
from server.stores.sqlite import SqliteStore
from tests.server.stores.contract import DAY

OLD_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, code TEXT UNIQUE, created INTEGER);
CREATE TABLE devices (token_hash TEXT PRIMARY KEY, device BLOB);
CREATE TABLE events (
    table_id TEXT, seq INTEGER, data BLOB, PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
"""


async def test_sqlite_opens_a_file_from_before_deletion(tmp_path: Path) -> None:
    """A file written before tables kept their newest event's time and devices their table:
    both are filled in from the rows, so retention and deletion reach its old tables."""
    path = tmp_path / "tilestream.db"
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.executemany("INSERT INTO tables VALUES (?, ?, ?)", [("old", "KQ7X", 1_000),
                                                           ("used", "ABCD", 2_000)])  # fmt: skip
    for table_id in ("old", "used"):
        device = msgspec.json.encode(Device(table_id, "host", id="host"))
        db.execute("INSERT INTO devices VALUES (?, ?)", (f"{table_id}-host", device))
    record = Recorded(1, PointsEntered(0, 5), "host", 9 * DAY, "c1")
    db.execute("INSERT INTO events VALUES (?, ?, ?)", ("used", 1, encode(record)))
    db.commit()
    db.close()
    store = SqliteStore(path)
    await store.start()
    try:
        assert await store.idle_tables(DAY, 10) == ("old",)
        assert await store.idle_tables(10 * DAY, 10) == ("old", "used")
        assert await store.read("used") == (record,)
        assert await store.delete_table("used")
        assert await store.device("used-host") is None
        assert await store.table_by_code("ABCD") is None
        assert await store.device("old-host") == Device("old", "host", id="host")
    finally:
        await store.close()
    again = SqliteStore(path)  # opened a second time: nothing left to migrate
    await again.start()
    try:
        assert await again.idle_tables(10 * DAY, 10) == ("old",)
    finally:
        await again.close()
