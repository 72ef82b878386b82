"""What a device is shown of a table, as plain Structs ready to encode, and the sheet's parts
every mode shares.

Every mode's part of the view is declared here, as every event is declared in
``events.events``: the wire has one shape. What a mode shows, and to whom, is the mode's own
(``ModeRules.sheet``, ``ModeRules.for_seat``); it builds its sheet with ``build``.
"""

from typing import Literal

import msgspec
from msgspec.structs import replace

from editions import codebook
from events.events import Role, Writers
from rules.table import gameclock
from rules.table.permissions import latest_line, line_seat
from rules.table.settlement import FinalRow
from rules.table.state import (
    Clock,
    Game,
    LastTurn,
    Laying,
    Line,
    Notice,
    Round,
    State,
    Verdict,
)
from rules.table.tracking import Tracking, track

#: Who looks, as far as what they may see goes; one encoding per audience and seq.
Audience = Literal["host", "member", "waiting"]


class DeviceView(msgspec.Struct, frozen=True):
    """A device at the table, for the host: its seat, since when, whether it waits, and
    what tells it apart (the model it joined with, the name it gave itself)."""

    id: str
    role: Role
    seat: int | None
    since: int
    admitted: bool
    model: str = ""
    label: str = ""


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


class SlipView(msgspec.Struct, frozen=True):
    """A player's own slip for the open round, as it lies on the board (never judged yet)."""

    word: str  # the whole word, row notation, blanks in lower case
    start: str
    direction: str
    points: int  # its score on the board, 0 when it no longer fits
    late: bool


class RoomView(msgspec.Struct, frozen=True):
    """The duplicate room as one device sees it; the rack is the open round's ``rack``."""

    bag: int  # tiles in the bag, the rack (or the tiles kept for it) aside
    slips: tuple[int, ...]  # whose slip for the open round is in: for devices without a seat
    late: tuple[int, ...]  # of them, whose came after the round clock ran out
    mine: SlipView | None  # the device's own slip: only the seat's own player sees it
    minimum: int | None  # vowels and consonants the next rack holds; None: none can be drawn
    # the centre's name when the room plays a simultaneous's sealed game (its racks and tops
    # are the sealed ones: no typed rack or top)
    centre: str | None = None


class GameClockView(msgspec.Struct, frozen=True):
    """A physical table's game clock as every phone shows it (``rules.table.gameclock``):
    each player's ms left at server time ``since`` (below 0: over time) and whose time runs
    from then; a phone counts that one down in server time, and calls the time at zero."""

    minutes: int
    left: tuple[int, ...]
    running: int | None
    since: int
    started: bool
    paused: bool
    overtime: str  # what running out costs: none, loss, points, figs, stops (``RuleSet``)
    points: int  # ``points``: the penalty per started minute over
    extra: int  # ms after the clock's time before the game is lost (FIGS: a minute)
    out: tuple[int, ...]  # per player: 0 in time, 1 the clock's time up, 2 the extra time too
    called: tuple[int, ...]  # per player: the last of those stages recorded
    lost: tuple[bool, ...]  # per player: lost the game on time
    stopped: tuple[bool, ...]  # per player: makes no more moves


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
    laid: tuple[Laying, ...]  # the same tiles by laying: who laid which (every phone says it)
    tracking: Tracking
    notices: tuple[Notice, ...]
    warnings: tuple[Notice, ...]
    clock: Clock | None
    ended: bool
    final: tuple[FinalRow, ...] | None
    going_out_ends_game: bool
    online: OnlineView | None = None  # online play only
    room: RoomView | None = None  # duplicate: the rack's bag, the slips in, the seat's own slip
    left: tuple[int, ...] = ()  # duplicate room: the players taken out (their places stay)
    entries_until: int = 0  # duplicate room: the last round a player may register in
    challenges: tuple[Verdict, ...] = ()  # classic: the challenges judged, as they may be told
    game_clock: GameClockView | None = None  # a physical table's game clock, when it has one


class TableView(msgspec.Struct, frozen=True):
    """A table as one audience sees it; ``sheet`` is None before the first game and for a
    device that waits for the host."""

    seq: int
    sheet: SheetView | None
    warnings: tuple[Notice, ...] = ()
    writers: Writers = "own_seat"
    devices: tuple[DeviceView, ...] | None = None  # the host's only
    waiting: bool = False
    # The seat the host chose for its own device at a physical table (None: it keeps score);
    # online, the host plays the first seat the computer does not (``rules.online.rights``).
    host_seat: int | None = None


def build(
    state: State,
    game: Game,
    *,
    notices: tuple[Notice, ...],
    final: tuple[FinalRow, ...] | None,
    private: bool = False,
    standings: tuple[Standing, ...] = (),
    online: OnlineView | None = None,
    room: RoomView | None = None,
) -> SheetView:
    """The sheet of ``game`` with a mode's parts; ``private``: the lines keep the tiles they
    took to themselves (they would tell a rack) and the host strikes every line."""
    newest = latest_line(state)
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
        last_line_seat=None if private else line_seat(newest, game),
        totals=game.totals,
        lines=tuple(replace(line, tiles=()) for line in lines) if private else tuple(lines),
        rounds=game.rounds,
        standings=standings,
        tops=tops(game),
        board=game.board.rows() if game.board else None,
        unscored=tuple(sorted(game.unscored)),
        laid=game.laid,
        tracking=track(game),
        notices=notices,
        warnings=game.warnings,
        clock=game.clock,
        ended=game.ended is not None,
        final=final,
        going_out_ends_game=game.rules.going_out_ends_game,
        online=online,
        room=room,
        left=game.left,
        entries_until=game.entries_until,
        challenges=told(game),
        game_clock=game_clock(game),
    )


def game_clock(game: Game) -> GameClockView | None:
    """The game clock as it stood at its last change, for every phone alike."""
    clock = game.game_clock
    if clock is None:
        return None
    limit, players = gameclock.limit(clock), range(len(game.players))
    return GameClockView(
        minutes=clock.minutes,
        left=tuple(limit - used for used in clock.used),
        running=clock.running,
        since=clock.since,
        started=clock.started,
        paused=clock.paused,
        overtime=game.rules.overtime,
        points=game.rules.overtime_points,
        extra=gameclock.extra(game),
        out=tuple(gameclock.stage(game, clock, p) for p in players),
        called=clock.called,
        lost=tuple(gameclock.lost(game, clock, p) for p in players),
        stopped=tuple(gameclock.stopped(game, clock, p) for p in players),
    )


def told(game: Game) -> tuple[Verdict, ...]:
    """The challenges as the phones are told them: without the words the list lacks where
    the rule set judges a move as a whole and names none (WESPA, NASPA)."""
    if game.rules.challenge_names_words:
        return game.challenges
    return tuple(replace(verdict, bad=()) for verdict in game.challenges)


def tops(game: Game) -> int:
    """The sum of the tops of a game played in rounds; 0 for any other."""
    return sum(r.top or 0 for r in game.rounds)


def noticed(game: Game, passes: bool = True) -> tuple[Notice, ...]:
    """Everything the sheet points out now but over-use, which the tile panel carries (its
    ``warnings``: sent once, the sheet shows them from there); none of it blocks anything.
    ``passes``: the run of scoreless turns is pointed out (online, the passes end the game)."""
    found = list(game.notices)
    limit = game.rules.pass_limit_reached(game.pass_run, len(game.players))
    if limit is not None and passes:
        # FIGS counts exchanges and withdrawn words too: "6 passes" would misname the run.
        run = codebook.PASS_LIMIT if game.rules.pass_kinds == {"pass"} else codebook.SCORELESS_LIMIT
        found.append(Notice(run, {"count": game.pass_run, "limit": limit}))
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
