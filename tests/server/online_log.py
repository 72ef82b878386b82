"""An online game's log read back from the server's store, and the frames held against it:
what each rack and the bag held at every seq, how the server writes a list of tiles, and
the frames a device got before the racks became public at the game's end.

The online tests (``test_online``, ``jobs/test_computer_turns``) share these.
"""

import json
from collections.abc import Iterator, Sequence
from typing import Any

from events.events import Recorded
from rules.board import bag
from rules.table.reducer import evolve
from rules.table.state import State
from server.stores.protocols import Store
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from tests.server.serving import Recording, ServerProcess


def store_of(server: ServerProcess) -> Store:
    if server.redis:
        return RedisStore(server.redis)
    return SqliteStore(server.data / "tilestream.db")


class Secrets:
    """What the log says each rack and the bag held after every seq of the game."""

    def __init__(self, log: Sequence[Recorded]) -> None:
        self.racks: dict[int, tuple[tuple[str, ...], ...]] = {}
        self.bags: dict[int, tuple[str, ...]] = {}
        self.exchanged: list[str] = []
        self.ended: int | None = None
        state = State()
        for record in log:
            state = evolve(state, record)
            game = state.game
            if game is None or game.online is None:
                continue
            self.seed = game.online.seed
            self.racks[record.seq] = game.online.racks
            self.bags[record.seq] = game.online.bag
            if getattr(record.event, "tiles", ""):
                self.exchanged.append(record.event.tiles)  # type: ignore[attr-defined]
            if game.ended is not None and self.ended is None:
                self.ended = record.seq

    def rack(self, seq: int, seat: int) -> list[str]:
        return [bag.notation(t) for t in self.racks[seq][seat]]


def encoded(tiles: Sequence[str]) -> str:
    """Tiles as the server's encoder writes a list of them."""
    return json.dumps(list(tiles), separators=(",", ":"))


def states(device: Recording) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every view the device had: sent whole, or made by a change from the one before."""
    for seq, view in device.states:
        yield seq, json.loads(view)


def ended(secrets: Secrets) -> int:
    assert secrets.ended is not None
    return secrets.ended


def before_end(device: Recording, secrets: Secrets) -> list[str]:
    """The frames ``device`` got before the state at the game's end: then the racks are
    public."""
    frames = []
    for frame in device.frames:
        message = json.loads(frame)
        if message["type"] in ("state", "change") and message["seq"] >= ended(secrets):
            break
        frames.append(frame)
    return frames
