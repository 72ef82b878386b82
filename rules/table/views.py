"""What a viewer may see of a table, as plain Structs ready to encode.

Everyone at a physical table sees the whole sheet; the host also sees the devices at the
table; a device still waiting for the host sees nothing but that it waits. What a mode keeps
private, and from whom, is the mode's own (``ModeRules.sheet`` and ``for_seat``): online
play keeps racks private (``rules.online.view``), a duplicate room the slips until the round
closes (``rules.room.view``). The shapes are declared in ``rules.table.sheet``.
"""

from rules.table import modes
from rules.table.settlement import FinalRow
from rules.table.sheet import Audience, DeviceView, SheetView, TableView
from rules.table.state import Game, Line, State

#: Default player names (P-03): "Speler 1", "Player 1" …
DEFAULT_NAMES = {
    "nl": "Speler",
    "en": "Player",
    "fr": "Joueur",
    "de": "Spieler",
    "es": "Jugador",
    "it": "Giocatore",
    "pl": "Osoba",
}


def view(state: State, audience: Audience = "member", seat: int | None = None) -> TableView:
    """What ``audience`` sees of the table; in an online game, with the rack of ``seat``
    (the device's own seat; None for a device without one)."""
    if audience == "waiting":
        return TableView(state.seq, None, waiting=True)
    game = state.game
    sheet = None if game is None else modes.of(game).sheet(state, game, seat)
    devices = None
    if audience == "host":
        devices = tuple(
            DeviceView(m.id, m.role, m.seat, m.since, m.admitted, m.model, m.label)
            for m in state.seating.members
        )
    # The seating's, not the game's: the view outside the sheet is made without the game
    # (``server.tables.live``); a phone reads it against the sheet's players.
    host = state.seating.host_seat
    return TableView(
        state.seq, sheet, state.warnings, state.seating.writers, devices, host_seat=host
    )


def for_seat(sheet: SheetView, game: Game, seat: int | None) -> SheetView:
    """``sheet`` (of ``game``, as any seat sees it) with what is a seat's own made for
    ``seat``: an online game's rack, a duplicate room's slip. The rest of a sheet is the same
    for every seat, so it is built once and this once per seat."""
    return modes.of(game).for_seat(sheet, game, seat)


def rows(game: Game) -> tuple[tuple[tuple[Line, ...], ...], ...]:
    """The lines by round and player (SHC-20): a turn and any penalties beside it; none for
    a game played in rounds, whose sheet is its rounds.

    Not part of the view: a phone builds the table from the lines' ``round`` and
    ``player``, so a long game is not sent twice.
    """
    if game.rounds:
        return ()
    count = max((line.round for line in game.lines), default=-1) + 1
    table: list[list[list[Line]]] = [[[] for _ in game.players] for _ in range(count)]
    for line in game.lines:
        table[line.round][line.player].append(line)
    return tuple(tuple(tuple(cell) for cell in row) for row in table)


def final(game: Game) -> tuple[FinalRow, ...] | None:
    """The final table once the game has ended (END-05..08; duplicate: no settlement)."""
    return modes.of(game).final(game)


def player_name(game: Game, player: int, language: str) -> str:
    """A player's name, or the default name in ``language`` (P-03)."""
    name = game.players[player]
    return name if name else f"{DEFAULT_NAMES.get(language, DEFAULT_NAMES['en'])} {player + 1}"


__all__ = [
    "DEFAULT_NAMES",
    "Audience",
    "DeviceView",
    "SheetView",
    "TableView",
    "final",
    "for_seat",
    "player_name",
    "rows",
    "view",
]
