"""The duplicate game sheet to publish (``rules.room.record``) over HTTP, and its import.

``GET /api/tables/{table}/record.json`` and ``record.csv``: the host (the director) at any
time — the closed rounds only, never the open one's slips — and every other device of the
table once the game has ended (``record_not_yet`` before). ``POST /api/training`` takes a
record and starts a new table of it: a duplicate room for one player whose first round has
the first recorded rack; the phone sets the following ones (docs/decisions.md, "The game
sheet to publish"). ``?game=previous`` asks for the game before the latest new game.
"""

import uuid

import msgspec
from msgspec.structs import replace

from editions import codebook
from editions.errors import GameError
from events import commands as c
from events.events import GameStarted, Mode
from rules.room import record
from rules.table.permissions import Actor
from rules.table.reducer import replay
from rules.table.state import Game
from server.live.messages import Joined
from server.stores.protocols import Store
from server.tables.commands import Tables


class Training(msgspec.Struct, frozen=True):
    """A training table made from a record: the host's place at it and the racks in order
    (the first already on the table)."""

    joined: Joined
    racks: tuple[str, ...]
    tops: tuple[int | None, ...]  # the recorded top of each round, to compare with


async def shown_game(store: Store, table_id: str, live: Game | None, which: str) -> Game | None:
    """The game a download is of: the table's current one, or with ``which`` "previous" the
    one before the latest start (a new game keeps the sheet of the one before), replayed from
    the log up to that start; None when there is none."""
    if which != "previous":
        return live
    log = await store.read(table_id)
    starts = [i for i, r in enumerate(log) if isinstance(r.event, GameStarted)]
    if len(starts) < 2:
        return None
    before = replay(log[: starts[-1]]).game
    # a new game ends the one before it for every device: its sheet is everybody's now
    return before if before is None or before.ended is not None else replace(before, ended=())


def readable(who: Actor, game: Game | None) -> Game:
    """The game whose sheet ``who`` may download; raises GameError: ``no_game``,
    ``gcg_classic_only`` (a phone has no use for a classic record here: it has the GCG),
    ``record_not_yet`` (a player, a viewer or a waiting phone before the game has ended)."""
    if game is None:
        raise GameError("there is no game to write", code=codebook.NO_GAME)
    if game.mode is not Mode.DUPLICATE:
        raise GameError("only a duplicate game has a game sheet", code=codebook.NOT_IN_MODE,
                        mode=game.mode.value)  # fmt: skip
    if who.role != "host" and (game.ended is None or who.role == "waiting"):
        raise GameError("the game sheet is published once the game is over",
                        code=codebook.RECORD_NOT_YET)  # fmt: skip
    return game


def filename(game: Game, extension: str) -> str:
    return f'attachment; filename="duplicate-{game.edition.code}-{game.started}.{extension}"'


async def start_training(tables: Tables, data: bytes, name: str | None) -> Training:
    """A new table playing ``data`` (a record's JSON) as training; raises GameError
    (``bad_record``, and what starting the game or typing its first rack refuses)."""
    wanted = record.decode(data)
    start, racks = record.training(wanted, name)
    table, token = await tables.create()
    device = await tables.device(table.id, token)
    await tables.command(table.id, device, start, f"training-{uuid.uuid4().hex}")
    first = c.SetRack(racks[0], round=0, force=True)
    await tables.command(table.id, device, first, f"training-{uuid.uuid4().hex}")
    joined = Joined(table.id, token, "host", None, table.code, device.id)
    tops = tuple(r.top.points if r.top else None for r in wanted.rounds if r.rack)
    return Training(joined, racks, tops)
