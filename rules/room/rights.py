"""Who may do what at a duplicate table, and whether a cell a phone meant is still empty.

At a table (no racks) each seat writes its own cell by default and one scorekeeper may
write every one (DUP-04); the end of a duplicate game, like its tops, is the director's (the
host's) to record and to strike. In a room — once a player registered by name or a round
has had its rack drawn or typed — a player's phone only hands in its own slips: the cells,
the tops, the corrections and the clock are the director's, so no phone writes a score it
was not judged for.
"""

from editions import codebook
from events import commands as c
from events.events import CellCorrected, MoveRecorded, PointsEntered, Recorded, TopRecorded
from rules.errors import GameError
from rules.table.permissions import (
    ARBITER_ACTS,
    COMPUTER,
    HOST_ACTS,
    Actor,
    check_round,
    check_seat,
    check_sheet,
    refuse_taken,
)
from rules.table.state import Game, State
from rules.table.steps import chain


def check(state: State, game: Game, actor: Actor, command: c.TableCommand) -> None:
    """Raise GameError unless ``actor`` may ask ``command`` of the duplicate ``game``."""
    if actor.role != "host" and is_room(game):
        _check_player(actor, game, command)
        return
    check_sheet(
        state, game, actor, command, arbiter_acts=(*ARBITER_ACTS, c.EndGame), hosts_end=True
    )


def is_room(game: Game) -> bool:
    """Is ``game`` a director's room: has a player registered (or been added) by name, or
    any of its rounds had a rack?"""
    return game.registered or any(round_.rack for round_ in game.rounds)


def _check_player(actor: Actor, game: Game, command: c.TableCommand) -> None:
    """In a room a player's only write is its own slip."""
    if actor.role == COMPUTER or isinstance(command, (*HOST_ACTS, *ARBITER_ACTS, c.EndGame)):
        raise GameError("only the director may do that", code=codebook.HOST_ONLY)
    if not isinstance(command, c.SubmitSlip):
        raise GameError(
            "in a room a player's phone hands in slips; the sheet is the director's",
            code=codebook.SLIP_ONLY,
        )
    if command.paper:  # a paper slip handed in in time is the director's to type
        raise GameError("only the director types paper slips", code=codebook.HOST_ONLY)
    check_seat(actor, game)
    owner = command.turn.player if command.turn is not None else command.player
    if owner != actor.seat:
        raise GameError(
            f"seat {actor.seat} hands in its own slip, not seat {owner}'s",
            code=codebook.NOT_YOUR_SEAT,
            seat=owner,
        )


def check_cell(state: State, game: Game, turn: c.Turn) -> None:
    """Raise GameError unless ``turn`` names the open round and the player's cell is empty."""
    check_round(game, turn.number)
    points = game.rounds[turn.number].scores[turn.player]
    if points is not None:
        filled = _cell_filler(state, turn.player)
        move = filled.event if filled is not None else None
        words = move.words if isinstance(move, MoveRecorded) else ()
        refuse_taken(state, turn.player, "move" if words else "points", points, words, filled)


def _cell_filler(state: State, player: int) -> Recorded | None:
    """The event that filled ``player``'s cell of the open round."""
    for step in chain(state.steps, (TopRecorded, MoveRecorded, PointsEntered, CellCorrected)):
        event = step.recorded.event
        if isinstance(event, TopRecorded):
            break
        if isinstance(event, MoveRecorded | PointsEntered | CellCorrected) and (
            event.player == player
        ):
            return step.recorded
    return None
