"""A simultaneous in memory for the rules tests: games sealed once from counted seeds (so
every run seals the same ones), the simultaneous's log, and rooms that join it as centres
and draw and close its rounds by ``decide`` and ``evolve``, as the server does."""

import functools
import itertools
from collections.abc import Callable, Iterable

import wordlists
from events import commands as c
from events.events import (
    CentreAdded,
    GameSealed,
    GameStarted,
    Mode,
    Recorded,
    SealedRound,
    SimultaneousCreated,
    TableEvent,
    TopRecorded,
    WindowClosed,
)
from rules.simultaneous.seal import seal
from rules.simultaneous.state import Sealed, Simultaneous
from rules.table.decide import decide
from rules.table.permissions import Actor
from rules.table.reducer import evolve, replay
from rules.table.state import Game, State

EDITION = "fr"
LIST = wordlists.get("fr")
HOST = Actor("host", None, "host")
OPENS, CLOSES = 10_000, 1_000_000  # every game's window in these tests, ms
DURING = 20_000  # a moment inside the window


def counted(prefix: str) -> Callable[[], str]:
    """Seeds ``prefix0``, ``prefix1`` …: a seal from them is the same every run."""
    numbers = itertools.count()
    return lambda: f"{prefix}{next(numbers)}"


@functools.cache
def sealed_game(prefix: str = "s", rules: str = "duplicate") -> tuple[SealedRound, ...]:
    """A French game sealed from the seeds ``prefix…`` (once a run: a seal takes ~0.5 s)."""
    return seal(EDITION, rules, counted(prefix), LIST.graph)


def top_of(round_: SealedRound) -> TopRecorded:
    return next(e for e in round_.closing if isinstance(e, TopRecorded))


class Log:
    """A log and its state, folded as the server folds it."""

    def __init__(self, events: Iterable[TableEvent] = (), at: int = 1_000) -> None:
        self.log: list[Recorded] = []
        self.state = State()
        self.record(events, at)

    def record(self, events: Iterable[TableEvent], at: int) -> None:
        for event in events:
            self.log.append(Recorded(len(self.log) + 1, event, at=at))
            self.state = evolve(self.state, self.log[-1])

    def replayed(self) -> State:
        return replay(self.log)


class Organised(Log):
    """A simultaneous's own log: created, its games sealed, centres added."""

    def __init__(self, *games: tuple[SealedRound, ...], id: str = "SIM") -> None:
        sealed = (GameSealed(n, OPENS, CLOSES, rounds) for n, rounds in enumerate(games))
        super().__init__((SimultaneousCreated("Le simultané", EDITION, "duplicate"), *sealed))
        self.id = id

    @property
    def simultaneous(self) -> Simultaneous:
        assert self.state.simultaneous is not None
        return self.state.simultaneous

    def sealed(self, game: int = 0, room: str = "") -> Sealed:
        """What the room ``room``'s decision is given, as ``server.simultaneous.sealed`` reads
        it."""
        return Sealed(self.id, self.simultaneous, game, room)

    def add(self, table: str, name: str, game: int = 0) -> None:
        self.record((CentreAdded(table, name, game),), 2_000)

    def close(self, game: int, at: int) -> None:
        self.record((WindowClosed(game),), at)


class Centre(Log):
    """A duplicate room of ``players`` (in Dutch, as a club opens it) that joins ``organised``."""

    def __init__(self, players: tuple[str, ...] = ("Ann", "Bob", "Cas")) -> None:
        super().__init__((GameStarted("nl", Mode.DUPLICATE, "duplicate", players),))

    @property
    def game(self) -> Game:
        assert self.state.game is not None
        return self.state.game

    def decide(
        self,
        command: c.TableCommand,
        sealed: Sealed | None,
        at: int = DURING,
        actor: Actor | None = HOST,
    ) -> tuple[TableEvent, ...]:
        return decide(
            self.state, command, actor=actor, sealed=sealed, at=at, contains=LIST.contains
        )

    def __call__(
        self, command: c.TableCommand, sealed: Sealed | None = None, at: int = DURING
    ) -> tuple[TableEvent, ...]:
        events = self.decide(command, sealed, at)
        self.record(events, at)
        return events

    def join(self, organised: Organised, name: str, game: int = 0, table: str = "") -> None:
        """Join as the server does: the centre in the simultaneous's log, then the room's."""
        command = c.JoinSimultaneous("CODE", game, name)
        table = table or name
        self.decide(command, organised.sealed(game, table))
        organised.add(table, name.strip(), game)
        self(command, organised.sealed(game, table))

    def slip(self, player: int, word: str, start: str, direction: str) -> None:
        seat = Actor("player", player, f"d{player}")
        turn = c.Turn(self.game.started, player, len(self.game.rounds) - 1)
        command = c.SubmitSlip(word, start, direction, turn=turn)  # type: ignore[arg-type]
        self.record(self.decide(command, None, actor=seat), DURING)
