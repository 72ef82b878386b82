"""A table for the rules tests: a game started, commands recorded through the decider as a
phone's would be, and the sheet every phone is shown."""

from events import commands as c
from rules.table.record import record
from rules.table.state import State
from rules.table.views import SheetView, view


def start(
    edition: str = "nl",
    rules: str = "house",
    players: int | tuple[str | None, ...] = 2,
    *,
    mode: str = "classic",
    starter: int = 0,
) -> State:
    """A table whose first game has started: ``players`` is a count of nameless players or
    their names."""
    names = (None,) * players if isinstance(players, int) else players
    command = c.StartGame(edition, mode=mode, rules=rules, players=names, starter=starter)  # type: ignore[arg-type]
    state, _ = record(State(), command)
    return state


def play(state: State, *commands: c.TableCommand) -> State:
    """The state after recording ``commands`` one after another (each must be accepted)."""
    for command in commands:
        state, _ = record(state, command)
    return state


def sheet(state: State) -> SheetView:
    """The sheet of the table's view (a game has started)."""
    found = view(state).sheet
    assert found is not None
    return found
