"""Who may do what at a table, and whether a command still means the turn it was tapped for.

Roles: the host (the director, the arbiter) may do everything; a viewer nothing. A player
seat, with the table's default setting (*each phone its own seat*), records its own turns
and its own duplicate cell and undoes only its own last line; with *one scorekeeper*, any
seat writes every line. Starting games, the round clock, the setting and the devices stay
with the host either way; a game clock's first start is also another player's (``check_start``).

A phone names what it saw: the turn (game, player, turn count or round) for a turn, the
newest line for an undo or a penalty, the open round for a top, the game for a new game.
When the table has moved on, the command is refused with what happened instead, never
applied to the next player.

These are the pieces every mode's own rules are made of (``ModeRules.check``): a sheet kept
at the table (``check_sheet``), a duplicate room's cells (``rules.room.rights``), online play,
stricter (``rules.online.rights``).
"""

from collections.abc import Callable
from typing import Literal, NoReturn

import msgspec

from editions import codebook
from events import commands as c
from events.events import (
    CellCorrected,
    ChallengeJudged,
    Exchanged,
    GameEnded,
    MoveRecorded,
    Passed,
    PenaltyGiven,
    PointsEntered,
    RackDrawn,
    Recorded,
    TopRecorded,
    WordLine,
    WordWithdrawn,
)
from rules.errors import GameError
from rules.table.challenge import struck_with
from rules.table.state import Game, LineKind, State
from rules.table.steps import find, newest

#: The events that write a line on the sheet: what undo strikes (P-30).
LINE_EVENTS = (
    MoveRecorded,
    PointsEntered,
    Passed,
    Exchanged,
    WordWithdrawn,
    PenaltyGiven,
    TopRecorded,
    RackDrawn,  # the director's line: an undo takes back the draw, then the close before it
    CellCorrected,
    GameEnded,
    ChallengeJudged,  # the verdict: a line of its own, struck with its consequence
)
#: Commands that take a player's turn (classic) or fill a player's cell (duplicate).
TURNS = (c.RecordMove, c.EnterPoints, c.Pass, c.Exchange, c.WithdrawWord, c.Play, c.SubmitSlip)
#: The host's acts whatever the setting.
HOST_ACTS = (
    c.StartGame,
    c.NewGame,
    c.StartClock,
    c.PauseClock,
    c.ResetClock,
    c.StartGameClock,  # the game clock stands still and runs on at the arbiter's word
    c.PauseGameClock,
    c.DrawRack,  # the duplicate room's draws and close are the director's
    c.SetRack,
    c.CloseRound,
    c.SetWriters,
    c.AdmitDevice,
    c.RemoveDevice,
    c.AppointDirector,
    c.AddPlayer,  # a room's players and entries are the director's
    c.RenamePlayer,
    c.RemovePlayer,
    c.SetEntries,
    c.JoinSimultaneous,  # a room becomes a simultaneous's centre by its director
)
#: The arbiter's acts that one scorekeeper may also do (the default leaves them to the host).
ARBITER_ACTS = (c.GivePenalty, c.RecordTop)
#: The shared board's tiles without a score: laid and cleared on the turn they belong to.
BOARD_ACTS = (c.PlaceTiles, c.ClearBoard)
#: What a phone must name for each command, and under which field.
REFERENCES: dict[type, str] = {
    **{kind: "turn" for kind in TURNS},
    c.Undo: "last_line",
    c.GivePenalty: "last_line",
    c.RecordTop: "round",
    c.CloseRound: "round",
    c.NewGame: "game",
}
#: The sheet's line kinds that are turns (penalties and bonuses take none).
_TURN_LINES: frozenset[LineKind] = frozenset({"move", "points", "pass", "exchange", "withdrawn"})
#: How the log names the host's device: a table has one host, who is not in its seating.
HOST = "host"
#: The role, and the device as the log names it, of the server's computer player.
COMPUTER: Literal["computer"] = "computer"


#: Who asks: the host, a player seat, a viewer, a device the host has not let in yet, or the
#: server's computer player.
ActorRole = Literal["host", "player", "viewer", "waiting", "computer"]


class Actor(msgspec.Struct, frozen=True):
    """Who asks: the host, a player seat, or a viewer; ``device`` as the log names it."""

    role: ActorRole
    seat: int | None = None
    device: str = ""


def _refuse(message: str, code: str, **params: object) -> GameError:
    return GameError(message, code=code, **params)


def latest_line(state: State) -> Recorded | None:
    """The newest line still standing in the current game."""
    return newest(state.steps, LINE_EVENTS)


def missing_reference(command: c.TableCommand) -> str | None:
    """The field a phone left out that names what it saw, if any."""
    field = REFERENCES.get(type(command))
    return field if field is not None and getattr(command, field) is None else None


def check_viewer(actor: Actor) -> None:
    """Raise GameError for a viewer: it changes nothing."""
    if actor.role == "viewer":
        raise _refuse("a viewer cannot change the sheet", codebook.VIEWER_READ_ONLY)


def check_no_game(actor: Actor, command: c.TableCommand) -> None:
    """Raise GameError unless ``actor`` may ask ``command`` of a table with no game yet."""
    if actor.role == COMPUTER:
        raise _refuse("the computer takes turns of an online game only", codebook.HOST_ONLY)
    if actor.role != "host" and isinstance(command, HOST_ACTS):
        raise _refuse("only the host (the director) may do that", codebook.HOST_ONLY)


def check_sheet(
    state: State,
    game: Game,
    actor: Actor,
    command: c.TableCommand,
    *,
    arbiter_acts: tuple[type[c.TableCommand], ...] = ARBITER_ACTS,
    hosts_end: bool = False,
) -> None:
    """Raise GameError unless ``actor`` may ask ``command`` of a sheet everyone at the table
    keeps: ``arbiter_acts`` are the host's unless one scorekeeper writes every line, and with
    ``hosts_end`` the end of the game is the host's line to strike."""
    if actor.role == COMPUTER:
        raise _refuse("the computer takes turns of an online game only", codebook.HOST_ONLY)
    if actor.role == "host":
        return
    if isinstance(command, HOST_ACTS):
        raise _refuse("only the host (the director) may do that", codebook.HOST_ONLY)
    check_seat(actor, game)
    if isinstance(command, c.Challenge) and game.rules.challenge == "jury":
        raise _refuse(  # FED-SBNL-06: no challenge at the table; the arbiter checks
            f"no player challenges under {game.rules.name}",
            codebook.NO_CHALLENGE,
            rules=game.rules.code,
        )
    if state.seating.writers == "scorekeeper":
        return
    if isinstance(command, arbiter_acts):
        raise _refuse("only the host (the director) may do that", codebook.HOST_ONLY)
    if isinstance(command, c.CorrectCell) and command.player is None:
        raise _refuse("only the host (the director) may set a top", codebook.HOST_ONLY)
    if isinstance(command, c.Undo) and _hosts_line(latest_line(state), hosts_end, game):
        raise _refuse("only the host may strike that line", codebook.HOST_ONLY)
    owner = owner_of(state, game, command)
    if owner is not None and owner != actor.seat:
        raise _refuse(
            f"seat {actor.seat} writes its own lines, not seat {owner}'s",
            codebook.NOT_YOUR_SEAT,
            seat=owner,
        )


def check_turn_sheet(state: State, game: Game, actor: Actor, command: c.TableCommand) -> None:
    """``check_sheet`` for a game played in turns, whose shared board belongs to the turn:
    with each phone its own seat, only the player to move lays tiles on it without a score
    or clears them (the host always, and one scorekeeper, who writes every line)."""
    if isinstance(command, c.StartGameClock) and actor.role == "player":
        check_start(state, game, actor)
        return
    check_sheet(state, game, actor, command)
    if actor.role == "host" or state.seating.writers == "scorekeeper":
        return
    if isinstance(command, BOARD_ACTS) and actor.seat != game.to_move:
        raise _refuse(
            f"the board is player {game.to_move}'s now, not seat {actor.seat}'s",
            codebook.NOT_YOUR_BOARD,
            to_move=game.to_move,
        )
    clock = game.game_clock  # the game clock is tapped by the player whose time runs
    if isinstance(command, c.SwitchClock) and clock is not None:
        if clock.running is not None and clock.running != actor.seat:
            raise _refuse(
                f"the clock runs for player {clock.running}, not seat {actor.seat}",
                codebook.NOT_YOUR_CLOCK,
                player=clock.running,
            )


def check_start(state: State, game: Game, actor: Actor) -> None:
    """A seat may start the game clock the first time, for the player to move, unless it is
    that player's own (WESPA: "start your opponent's timer when they draw the first tile");
    one scorekeeper starts it for anyone. A pause, and the start after it, stay the host's:
    the clock stands still at the arbiter's word."""
    check_seat(actor, game)
    clock = game.game_clock
    if clock is None or (clock.started and not clock.paused):
        return  # the clock says so (``no_clock``; ``clock_running`` to a start that came second)
    if clock.started:
        raise _refuse("only the host (the director) may do that", codebook.HOST_ONLY)
    if state.seating.writers != "scorekeeper" and actor.seat == game.to_move:
        raise _refuse(
            f"another player or the host starts player {game.to_move}'s time",
            codebook.OTHERS_START_CLOCK,
            player=game.to_move,
        )


def check_seat(actor: Actor, game: Game) -> None:
    """Raise ``no_such_seat`` unless ``actor`` sits at a seat of ``game``."""
    if actor.seat is None or not 0 <= actor.seat < len(game.players):
        raise _refuse(
            f"this game has no seat {actor.seat}",
            codebook.NO_SUCH_SEAT,
            seat=actor.seat,
            seats=len(game.players),
        )


def owner_of(state: State, game: Game, command: c.TableCommand) -> int | None:
    """Whose line ``command`` writes or strikes; None when it is nobody's in particular."""
    if isinstance(command, TURNS):
        if command.turn is not None:
            return command.turn.player
        return command.player if command.player is not None else game.to_move
    if isinstance(command, c.CorrectCell):
        return command.player
    if isinstance(command, c.Challenge):  # the challenger: a phone challenges for its seat
        return game.to_move if command.player is None else command.player
    if isinstance(command, c.Undo):
        return line_seat(latest_line(state), game)
    return None


def _hosts_line(line: Recorded | None, hosts_end: bool, game: Game) -> bool:
    """Is ``line`` the host's to strike: a penalty, a top, a challenge, the end where ending
    is the host's? Elsewhere the end of the game is any seat's, as ending it is."""
    if line is not None and isinstance(line.event, GameEnded):
        return hosts_end
    return line_seat(line, game) is None


def line_seat(line: Recorded | None, game: Game | None = None) -> int | None:
    """The seat whose own line ``line`` is — a turn or a duplicate cell it may undo with the
    default setting; None for a penalty, a top, the end of the game, and (given its ``game``)
    a challenge's verdict and the lines of its consequence: the host's to strike."""
    if line is None or (game is not None and struck_with(game, line.seq)):
        return None
    event = line.event
    if isinstance(event, MoveRecorded | PointsEntered | Passed | Exchanged | WordWithdrawn):
        return event.player
    return event.player if isinstance(event, CellCorrected) else None


def check_reference(
    state: State,
    game: Game,
    command: c.TableCommand,
    check_turn: Callable[[State, Game, c.Turn], None],
) -> int | None:
    """Raise GameError when the table has moved past what the phone saw (``check_turn``: the
    mode's check of a turn meant); the player meant (from the command's turn), or None when
    it names none."""
    if isinstance(command, c.NewGame | c.Undo | c.GivePenalty | c.RecordTop):
        _check_seen(state, game, command)
        return None
    turn: c.Turn | None = getattr(command, "turn", None)  # the commands of a turn have one
    if turn is None:
        return None
    if turn.game != game.started:
        raise _refuse("that turn was in an earlier game", codebook.GAME_CHANGED)
    if not 0 <= turn.player < len(game.players):
        raise _refuse(f"no player {turn.player}", codebook.NO_SUCH_PLAYER, player=turn.player)
    check_turn(state, game, turn)
    return turn.player


def check_round(game: Game, meant: int | None) -> None:
    """Refuse a duplicate command that names another round than the open one: one before it
    (``round_closed``) or after it (``round_not_open``: only a hand-made request names one)."""
    current = len(game.rounds) - 1
    if meant is not None and meant < current:
        raise _refuse(f"round {meant + 1} is closed", codebook.ROUND_CLOSED, round=meant)
    if meant is not None and meant > current:
        raise _refuse(
            f"round {meant + 1} has not begun; round {current + 1} is open",
            codebook.ROUND_NOT_OPEN,
            round=meant,
        )


def _check_seen(
    state: State, game: Game, command: c.NewGame | c.Undo | c.GivePenalty | c.RecordTop
) -> None:
    if isinstance(command, c.NewGame):
        if command.game is not None and command.game != game.started:
            raise _refuse("a new game was started meanwhile", codebook.GAME_CHANGED)
    elif isinstance(command, c.RecordTop):
        if game.rounds:  # a game without rounds: the decider refuses a top
            check_round(game, command.round)
    elif command.last_line is not None:
        line = latest_line(state)
        newest = line.seq if line is not None else 0
        if newest != command.last_line:
            raise _refuse(
                f"the sheet changed: its newest line is {newest}, not {command.last_line}",
                codebook.SHEET_CHANGED,
                last_line=newest,
            )


def check_turn_taken(state: State, game: Game, turn: c.Turn) -> None:
    """Raise GameError unless ``turn`` is the one to play: say who recorded it, or whose
    turn it is."""
    if game.turns[turn.player] == turn.number and game.to_move == turn.player:
        return
    for line in game.lines:
        if line.player == turn.player and line.round == turn.number and line.kind in _TURN_LINES:
            recorded = _recorded(state, line.seq)
            refuse_taken(state, turn.player, line.kind, line.points, line.words, recorded)
    raise _refuse(
        f"it is player {game.to_move}'s turn, not player {turn.player}'s",
        codebook.NOT_TO_MOVE,
        player=turn.player,
        to_move=game.to_move,
    )


def _recorded(state: State, seq: int) -> Recorded | None:
    step = find(state.steps, seq)
    return step.recorded if step is not None else None


def refuse_taken(
    state: State,
    player: int,
    kind: LineKind,
    points: int,
    words: tuple[WordLine, ...],
    recorded: Recorded | None,
) -> NoReturn:
    """Refuse with who recorded the turn meant, and what: the phone says it in its language."""
    device = recorded.device if recorded is not None else ""
    member = state.seating.member(device)
    raise _refuse(
        f"player {player}'s turn was recorded already: {points}",
        codebook.TURN_TAKEN,
        player=player,
        kind=kind,
        points=points,
        word=words[0].word if words else "",
        by=member.seat if member is not None else None,
        by_host=device == state.seating.director or (member is not None and member.role == "host"),
    )


def no_host_seat(game: Game) -> None:
    """At a physical table the host keeps the sheet: no seat of the game is the host's."""


def no_computer(game: Game, seat: int) -> None:
    """Every seat is a person's."""


def no_registration(state: State, game: Game, device: str, name: str, key: str) -> NoReturn:
    """A game whose seats are named at its start takes no player registering by name."""
    raise _refuse("players register by name only in a duplicate room", codebook.NO_REGISTRATION)
