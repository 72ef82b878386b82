"""One table in memory: decide, number the events, fold them in — what a server does
around its store, and what a Python shell needs to keep a sheet.

>>> from events import commands as c
>>> state, log = record(State(), c.StartGame("nl", rules="sbnl"))
>>> state, _ = record(state, c.RecordMove(c.BoardMove("H4", "across", "PLANK")))
>>> state.seq, state.game.totals
(2, (28, 0))
"""

from events.commands import TableCommand
from events.events import Recorded
from rules.board.wordcheck import Contains
from rules.table.decide import decide
from rules.table.inputs import Top
from rules.table.permissions import Actor
from rules.table.reducer import replay
from rules.table.state import State


def record(
    state: State,
    command: TableCommand,
    *,
    at: int = 0,
    device: str = "",
    command_id: str = "",
    actor: Actor | None = None,
    seed: str = "",
    contains: Contains | None = None,
    top: Top | None = None,
) -> tuple[State, tuple[Recorded, ...]]:
    """Apply ``command`` to ``state``: the new state and the events recorded, numbered on.

    Raises GameError (with its code) when the command is refused (also when ``actor`` may
    not ask it); ``state`` is unchanged. ``seed``, ``contains`` and ``top`` are what the
    decider takes from outside (see ``rules.table.decide.decide``).
    """
    events = decide(state, command, at=at, actor=actor, seed=seed, contains=contains, top=top)
    log = tuple(
        Recorded(state.seq + i, event, device, at, command_id) for i, event in enumerate(events, 1)
    )
    return replay(log, state), log
