"""Who may do what at a duplicate table, and whether a cell a phone meant is still empty.

As at a classic table each seat writes its own cell by default and one scorekeeper may
write every one; the end of a duplicate game, like its tops, is the director's (the host's)
to record and to strike.
"""

from editions import codebook
from events import commands as c
from events.events import CellCorrected, MoveRecorded, PointsEntered, Recorded, TopRecorded
from rules.errors import GameError
from rules.table.permissions import ARBITER_ACTS, Actor, check_sheet, refuse_taken
from rules.table.state import Game, State


def check(state: State, game: Game, actor: Actor, command: c.TableCommand) -> None:
    """Raise GameError unless ``actor`` may ask ``command`` of the duplicate ``game``."""
    check_sheet(
        state, game, actor, command, arbiter_acts=(*ARBITER_ACTS, c.EndGame), hosts_end=True
    )


def check_cell(state: State, game: Game, turn: c.Turn) -> None:
    """Raise GameError unless ``turn`` names the open round and the player's cell is empty."""
    current = len(game.rounds) - 1
    if turn.number != current:
        raise GameError(
            f"round {turn.number + 1} is closed", code=codebook.ROUND_CLOSED, round=turn.number
        )
    points = game.rounds[current].scores[turn.player]
    if points is not None:
        filled = _cell_filler(state, turn.player)
        move = filled.event if filled is not None else None
        words = move.words if isinstance(move, MoveRecorded) else ()
        refuse_taken(state, turn.player, "move" if words else "points", points, words, filled)


def _cell_filler(state: State, player: int) -> Recorded | None:
    """The event that filled ``player``'s cell of the open round."""
    step = state.steps
    while step is not None and not isinstance(step.recorded.event, TopRecorded):
        event = step.recorded.event
        if isinstance(event, MoveRecorded | PointsEntered | CellCorrected) and (
            event.player == player
        ):
            return step.recorded
        step = step.previous
    return None
