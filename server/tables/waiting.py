"""The online games that wait on this process: for the time per move to run out, or for the
computer to move.

An index kept as each table this process holds moves on (``Held.watch``), and kept when the
table itself is let go: a game waiting a minute for its player's time is not held in memory
for that minute, and the move timer finds what is due by its deadline, not by looking at
every table. The pass or the move is then decided on the table read again.
"""

import heapq

from events import commands as c
from rules.online import opponent as computer
from rules.online import play as online
from rules.table.state import Game

#: A turn the server may take: the table, the turn, and since when (ms) it is to move.
Due = tuple[str, c.Turn, int]


class Waiting:
    """The timed turns and the computer's turns of the online games this process has seen."""

    def __init__(self) -> None:
        self._timed: dict[str, tuple[int, c.Turn, int]] = {}  # table → deadline, turn, since
        self._deadlines: list[tuple[int, str]] = []  # a heap; entries since replaced are skipped
        self._computer: dict[str, tuple[c.Turn, int]] = {}  # table → the computer's turn, since

    def update(self, table_id: str, game: Game | None) -> None:
        """Note what ``table_id``'s game, as it stands now, waits for."""
        if game is None or game.online is None:
            self.forget(table_id)
            return
        deadline = online.deadline(game)
        if deadline is None:
            self._timed.pop(table_id, None)
        else:
            player = game.to_move
            turn = c.Turn(game.started, player, game.turns[player])
            entry = (deadline, turn, game.online.turn_since)
            if self._timed.get(table_id) != entry:
                self._timed[table_id] = entry
                heapq.heappush(self._deadlines, (deadline, table_id))
        meant = computer.turn(game)
        if meant is None:
            self._computer.pop(table_id, None)
        else:
            self._computer[table_id] = (meant, game.online.turn_since)

    def forget(self, table_id: str) -> None:
        """The table is gone (deleted), or its game no longer online."""
        self._timed.pop(table_id, None)
        self._computer.pop(table_id, None)

    def due(self, now: int) -> list[Due]:
        """The turns whose time ran out by ``now``, by the state each table was last seen in.
        They stay due until their table moves on: a pass refused for a moment (``busy``) is
        tried again at the next look."""
        found: dict[str, Due] = {}
        while self._deadlines and self._deadlines[0][0] <= now:
            deadline, table_id = heapq.heappop(self._deadlines)
            entry = self._timed.get(table_id)
            if entry is not None and entry[0] == deadline:  # else replaced since
                found[table_id] = (table_id, entry[1], entry[2])
        for table_id in found:
            heapq.heappush(self._deadlines, (self._timed[table_id][0], table_id))
        return list(found.values())

    def computer_turns(self, tables: set[str] | None = None) -> list[Due]:
        """The computer's turns to take (of ``tables``; None: all)."""
        chosen = self._computer.keys() if tables is None else tables & self._computer.keys()
        return [(table_id, *self._computer[table_id]) for table_id in chosen]
