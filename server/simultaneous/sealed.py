"""What a centre's command is given of its simultaneous: the sealed games (read from the
simultaneous's log, which no view serves), and the centre recorded in that log when a room
joins, so the standings know where to look."""

from events import commands as c
from events.events import CentreAdded, TableEvent
from rules.simultaneous.centre import check_name
from rules.simultaneous.state import Sealed
from rules.table.decide import decide
from rules.table.state import State
from server.stores.protocols import Device, TableGone
from server.tables.held import Held
from server.tables.joins import actor


async def sealed_for(tables: Held, table_id: str, command: c.TableCommand) -> Sealed | None:
    """The simultaneous a room joins (by its code) or a centre draws and closes from; None
    for any other command, a code that opens no simultaneous, or a room that is no centre."""
    if isinstance(command, c.JoinSimultaneous):
        found = await tables.store.table_by_code(command.code.strip().upper())
        if found is None:
            return None
        simultaneous = (await tables.caught_up(found.id)).state.simultaneous
        return Sealed(found.id, simultaneous, command.game, table_id) if simultaneous else None
    if isinstance(command, c.DrawRack | c.CloseRound):
        game = (await tables.live(table_id)).state.game
        if game is None or game.centre is None:
            return None
        of = game.centre.simultaneous
        try:
            simultaneous = (await tables.caught_up(of)).state.simultaneous
        except TableGone:  # deleted: the centre's draw says so (``no_simultaneous``)
            return None
        return Sealed(of, simultaneous, game.centre.game, table_id) if simultaneous else None
    return None


async def add_centre(
    tables: Held, table_id: str, device: Device, command: c.JoinSimultaneous, sealed: Sealed
) -> None:
    """Record the room as a centre in the simultaneous's log, once the room's own decision
    would take the join: a refused join leaves the simultaneous as it was. The room's own
    ``centre_joined`` follows; should it never come, the centre shows nothing played."""
    room = (await tables.live(table_id)).state
    who = actor(room, device)
    if who is not None:
        decide(room, command, actor=who, sealed=sealed, at=tables.clock())  # raises a refusal

    def adding(state: State) -> tuple[tuple[TableEvent, ...], str]:
        name = command.centre.strip()
        if state.simultaneous is not None:  # a room that took the name meanwhile
            check_name(state.simultaneous, table_id, name, command.game)
        return (CentreAdded(table_id, name, command.game),), table_id

    await tables.record(sealed.id, adding, f"centre:{table_id}:{command.game}")
