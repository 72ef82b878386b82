"""What a viewer may see of a table, as plain Structs ready to encode.

Everyone at a physical table sees the whole sheet; the host also sees the devices at the
table; a device still waiting for the host sees nothing but that it waits.

Online play keeps racks private (P-52): a seat sees its own rack and the others' tile
counts, never another rack, the bag's order or the seed; the host without a seat, viewers
and the room display see no rack at all, and no device the rack of a seat the computer
plays (a phone left at that seat from an earlier game included). Every line's ``tiles``
is left empty there (it would tell what an exchange or a rack held); once the game is over
the racks are public.

A duplicate room keeps slips private until the round closes (``rules.room.view``): every
device sees whose slips are in, a seat its own slip only.
"""

from collections import Counter
from typing import Literal

import msgspec
from msgspec.structs import replace

from editions import codebook
from events.events import Mode
from rules.board import bag
from rules.classic.settlement import FinalRow, final_table, rack_value, settle
from rules.online import play as online
from rules.room.view import RoomView, room_view
from rules.table.permissions import latest_line, line_seat
from rules.table.state import Clock, Game, LastTurn, Line, Notice, Round, State
from rules.table.tracking import Tracking, track

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


#: Who looks, as far as what they may see goes; one encoding per audience and seq.
Audience = Literal["host", "member", "waiting"]


class DeviceView(msgspec.Struct, frozen=True):
    """A device at the table, for the host: its seat, since when, and whether it waits."""

    id: str
    role: str
    seat: int | None
    since: int
    admitted: bool


class Standing(msgspec.Struct, frozen=True):
    """Duplicate: a player's total against the sum of the tops (DUP-05..07)."""

    player: int
    total: int
    difference: int
    percent_tenths: int | None  # 923 for 92,3 %; None while there are no tops


class OnlineView(msgspec.Struct, frozen=True):
    """Online: what one seat (or a device without one) may know of the bag and the racks.

    Tiles are in row notation, ``?`` a blank, ``[CH]`` a multi-letter tile.
    """

    rack: tuple[str, ...] | None  # the seat's own tiles; None for a device without a seat
    seat: int | None  # whose rack it is
    bag: int  # tiles left in the bag
    racks: tuple[int, ...]  # each player's tile count
    unseen: tuple[tuple[str, int], ...]  # the set − the board − the seat's own rack
    last: LastTurn | None
    deadline: int | None  # server time (ms) the player to move is passed
    move_seconds: int | None
    passes: int  # passes in a row so far; the third ends the game
    ended_racks: tuple[tuple[str, ...], ...] | None = None  # every rack, once it is over
    computers: tuple[str | None, ...] = ()  # per seat: None, or the computer's strength


class SheetView(msgspec.Struct, frozen=True):
    """The whole sheet of the current game."""

    seq: int
    started: int  # the seq of the game's start: a phone's turn names the game by it
    edition: str
    mode: str
    rules: str
    players: tuple[str | None, ...]
    starter: int
    to_move: int
    turns: tuple[int, ...]  # turns each player has taken: the number of the next one
    last_line: int  # the seq of the newest line still standing, 0 for none
    last_line_seat: int | None  # whose own line it is (a seat may undo it); None: the host's
    totals: tuple[int, ...]
    lines: tuple[Line, ...]  # each names its player and sheet row: the per-round table
    rounds: tuple[Round, ...]  # duplicate
    standings: tuple[Standing, ...]  # duplicate
    tops: int  # duplicate: the sum of the tops
    board: tuple[str, ...] | None
    unscored: tuple[str, ...]
    tracking: Tracking
    notices: tuple[Notice, ...]
    warnings: tuple[Notice, ...]
    clock: Clock | None
    ended: bool
    final: tuple[FinalRow, ...] | None
    going_out_ends_game: bool
    online: OnlineView | None = None  # online play only
    room: RoomView | None = None  # duplicate: the rack's bag, the slips in, the seat's own slip


class TableView(msgspec.Struct, frozen=True):
    """A table as one audience sees it; ``sheet`` is None before the first game and for a
    device that waits for the host."""

    seq: int
    sheet: SheetView | None
    warnings: tuple[Notice, ...] = ()
    writers: str = "own_seat"
    devices: tuple[DeviceView, ...] | None = None  # the host's only
    waiting: bool = False


def view(state: State, audience: Audience = "member", seat: int | None = None) -> TableView:
    """What ``audience`` sees of the table; in an online game, with the rack of ``seat``
    (the device's own seat; None for a device without one)."""
    if audience == "waiting":
        return TableView(state.seq, None, waiting=True)
    game = state.game
    sheet = None if game is None else _sheet(state, game, seat)
    devices = None
    if audience == "host":
        devices = tuple(
            DeviceView(m.id, m.role, m.seat, m.since, m.admitted) for m in state.seating.members
        )
    return TableView(state.seq, sheet, state.warnings, state.seating.writers, devices)


def _sheet(state: State, game: Game, seat: int | None) -> SheetView:
    tracking = track(game)
    tops = sum(r.top or 0 for r in game.rounds)
    newest = latest_line(state)
    private = game.online is not None
    lines = game.lines
    return SheetView(
        seq=state.seq,
        started=game.started,
        edition=game.edition.code,  # the wire carries codes
        mode=game.mode.value,
        rules=game.rules.code,
        players=game.players,
        starter=game.starter,
        to_move=game.to_move,
        turns=game.turns,
        last_line=newest.seq if newest is not None else 0,
        last_line_seat=None if private else line_seat(newest),  # online: the host undoes
        totals=game.totals,
        lines=tuple(replace(line, tiles=()) for line in lines) if private else tuple(lines),
        rounds=game.rounds,
        standings=standings(game.totals, tops) if game.mode is Mode.DUPLICATE else (),
        tops=tops,
        board=game.board.rows() if game.board else None,
        unscored=tuple(sorted(game.unscored)),
        tracking=tracking,
        notices=notices(game),
        warnings=game.warnings,
        clock=game.clock,
        ended=game.ended is not None,
        final=final(game),
        going_out_ends_game=game.rules.going_out_ends_game,
        online=online_view(game, seat) if private else None,
        room=room_view(game, seat) if game.mode is Mode.DUPLICATE and game.board else None,
    )


def for_seat(sheet: SheetView, game: Game, seat: int | None) -> SheetView:
    """``sheet`` (of ``game``, as any seat sees it) with what is a seat's own made for
    ``seat``: an online game's rack, a duplicate room's slip. The rest of a sheet is the same
    for every seat, so it is built once and this once per seat."""
    return replace(
        sheet,
        online=online_view(game, seat) if sheet.online is not None else None,
        room=room_view(game, seat) if sheet.room is not None else None,
    )


def online_view(game: Game, seat: int | None) -> OnlineView:
    """What ``seat`` (None: a device without one) may know of an online game's tiles."""
    held = game.online
    assert held is not None
    if seat is not None and (not 0 <= seat < len(game.players) or held.computer(seat)):
        seat = None
    rack = held.racks[seat] if seat is not None else ()
    seen = Counter(rack)
    if game.board is not None:
        seen.update("?" if tile.blank else tile.letter for _, tile in game.board)
    left = Counter(bag.full_set(game.edition))
    left.subtract(seen)
    over = game.ended is not None
    return OnlineView(
        rack=tuple(bag.notation(t) for t in rack) if seat is not None else None,
        seat=seat,
        bag=len(held.bag),
        racks=tuple(len(r) for r in held.racks),
        unseen=tuple((bag.notation(t), n) for t, n in left.items() if n > 0),
        last=held.last,
        deadline=online.deadline(game),
        move_seconds=held.move_seconds,
        passes=game.pass_run,
        ended_racks=tuple(tuple(bag.notation(t) for t in r) for r in held.racks) if over else None,
        computers=held.computers,
    )


def rows(game: Game) -> tuple[tuple[tuple[Line, ...], ...], ...]:
    """Classic lines by round and player (SHC-20): a turn and any penalties beside it.

    Not part of the view: a phone builds the table from the lines' ``round`` and
    ``player``, so a long game is not sent twice.
    """
    if game.mode is Mode.DUPLICATE:
        return ()
    count = max((line.round for line in game.lines), default=-1) + 1
    table: list[list[list[Line]]] = [[[] for _ in game.players] for _ in range(count)]
    for line in game.lines:
        table[line.round][line.player].append(line)
    return tuple(tuple(tuple(cell) for cell in row) for row in table)


def standings(totals: tuple[int, ...], tops: int) -> tuple[Standing, ...]:
    """Duplicate totals, difference to the sum of the tops and percentage (DUP-05..07)."""
    return tuple(
        Standing(p, total, total - tops, (total * 1000 + tops // 2) // tops if tops else None)
        for p, total in enumerate(totals)
    )


def notices(game: Game) -> tuple[Notice, ...]:
    """Everything the sheet points out now but over-use, which the tile panel carries (its
    ``warnings``: sent once, the sheet shows them from there); none of it blocks anything."""
    found = list(game.notices)
    limit = game.rules.pass_limit_reached(game.pass_run, len(game.players))
    if limit is not None and game.online is None:  # online: the passes end the game
        found.append(Notice(codebook.PASS_LIMIT, {"count": game.pass_run, "limit": limit}))
    for index, played in enumerate(game.rounds):
        for player, score in enumerate(played.scores):
            if played.top is not None and score is not None and score > played.top:
                found.append(
                    Notice(
                        codebook.OVER_TOP,
                        {"round": index, "player": player, "points": score, "top": played.top},
                    )
                )
    return tuple(found)


def final(game: Game) -> tuple[FinalRow, ...] | None:
    """The final table once the game has ended (END-05..08; duplicate: no settlement)."""
    if game.ended is None:
        return None
    if game.mode is Mode.DUPLICATE or not game.ended:
        return final_table(game.totals, (0,) * len(game.totals))
    return final_table(game.totals, settle([rack_value(game.edition, r) for r in game.ended]))


def player_name(game: Game, player: int, language: str) -> str:
    """A player's name, or the default name in ``language`` (P-03)."""
    name = game.players[player]
    return name if name else f"{DEFAULT_NAMES.get(language, DEFAULT_NAMES['en'])} {player + 1}"
