"""A game sealed: every round's rack drawn and its top found, once, before any centre plays.

The rounds are those a room would play: the rack rule draws each rack from what the tops
before it left (``rules.room.racks``) and the move generator finds each top under the rule
set's preference (``rules.room.tops``), so the sealed game is the room's game with no
players, folded by the same reducer. Centres then replay it round by round. The seeds are
the shell's (``secrets``), one per draw; the search is the shell's to run off its event
loop, as a room's close is.
"""

from collections.abc import Callable, Iterator

from events.events import (
    GameEnded,
    GameStarted,
    Mode,
    RackDrawn,
    Recorded,
    SealedRound,
    TableEvent,
    TopRecorded,
)
from rules.movegen.moves import WordGraph
from rules.room import rounds, tops
from rules.table.reducer import replay
from rules.table.state import Game, State


def seal(
    edition: str, rules: str, seeds: Callable[[], str], graph: WordGraph
) -> tuple[SealedRound, ...]:
    """Every round of a new game in ``edition`` under the rule set ``rules``, each rack
    drawn with a fresh ``seeds()`` and each top found in ``graph``; the last round is the
    one after which no rack can be drawn (or whose top could lay nothing, the bag empty)."""
    return tuple(_rounds(edition, rules, seeds, graph))


def _rounds(
    edition: str, rules: str, seeds: Callable[[], str], graph: WordGraph
) -> Iterator[SealedRound]:
    state = _fold(State(), (GameStarted(edition, Mode.DUPLICATE, rules, ()),))
    while True:
        game = _game(state)
        drawn = rounds.draw(game, seeds())
        if not isinstance(drawn, RackDrawn):  # no rack can be drawn: the game is over
            return
        state = _fold(state, (drawn,))
        query = rounds.query(_game(state))
        assert query is not None
        closing = rounds.close(_game(state), None, tops.find(query, graph))
        state = _fold(state, closing)
        yield SealedRound(drawn.rack, drawn.rejected, _closing(closing))
        if _game(state).ended is not None:
            return


def replayed(edition: str, rules: str, sealed: tuple[SealedRound, ...]) -> Game:
    """The sealed game as a room with no players plays it: every rack and top in turn."""
    state = _fold(State(), (GameStarted(edition, Mode.DUPLICATE, rules, ()),))
    for number, round_ in enumerate(sealed):
        state = _fold(state, (RackDrawn(number, round_.rack, round_.rejected, sealed=True),))
        state = _fold(state, round_.closing)
    game = _game(state)
    return game if game.ended is not None else _game(_fold(state, (GameEnded(),)))


def _closing(events: tuple[TableEvent, ...]) -> tuple[TopRecorded | GameEnded, ...]:
    return tuple(e for e in events if isinstance(e, TopRecorded | GameEnded))


def _fold(state: State, events: tuple[TableEvent, ...]) -> State:
    return replay((Recorded(state.seq + n, e) for n, e in enumerate(events, 1)), state)


def _game(state: State) -> Game:
    assert state.game is not None, state.warnings
    return state.game
