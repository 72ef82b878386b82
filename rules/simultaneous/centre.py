"""A room as a centre of a simultaneous: it joins, then draws and closes the sealed rounds.

A centre's director opens each round as in any room (``draw_rack``), but the rack is the
sealed one of that round — revealed to this room now and to no other by this draw — and
the close plays the top found once for every centre, judging this room's slips against
the table's list (``rules.room.slips``). What could make the room's game another game than
the sealed one is refused: a typed rack or top, a new game. The window (``SealedGame``)
says when the first rack may be drawn and after when no rack is drawn any more; a round
already open when it closes is finished.
"""

from msgspec.structs import replace

from editions import codebook
from events import commands as c
from events.events import CentreJoined, GameEnded, RackDrawn, TableEvent, TopRecorded
from rules.board.wordcheck import Contains
from rules.errors import GameError
from rules.room import rounds, slips
from rules.room.rounds import rules_of
from rules.simultaneous.standings import spoken
from rules.simultaneous.state import Sealed, SealedGame, Simultaneous
from rules.table import decisions
from rules.table.inputs import Inputs
from rules.table.permissions import check_round
from rules.table.state import Game

MAX_CENTRE_NAME = 40


def _refuse(message: str, code: str, **params: object) -> GameError:
    return GameError(message, code=code, **params)


def join(game: Game, command: c.JoinSimultaneous, sealed: Sealed | None, at: int) -> CentreJoined:
    """The room joins ``sealed`` (the simultaneous the code opened; None: no such code)
    as a centre of its game ``command.game``, before its first rack."""
    if sealed is None:
        raise _refuse("no simultaneous has that code", codebook.NO_SIMULTANEOUS)
    if game.centre is not None:
        raise _refuse("this room is a centre already", codebook.SEALED_GAME)
    if any(r.rack or r.top is not None for r in game.rounds):
        raise _refuse("this room has begun its game", codebook.ROUNDS_BEGUN)
    name = decisions.name(command.centre)
    if len(name) > MAX_CENTRE_NAME:
        raise _refuse(
            f"a centre's name of {len(name)} characters; at most {MAX_CENTRE_NAME}",
            codebook.NAME_TOO_LONG,
            length=len(name),
            max=MAX_CENTRE_NAME,
        )
    played = _game(sealed, command.game)
    if played.closed(at):
        raise _refuse("that game's window has closed", codebook.WINDOW_CLOSED, game=command.game)
    simultaneous = sealed.simultaneous
    check_name(simultaneous, sealed.room, name, command.game)
    return CentreJoined(sealed.id, command.game, name, simultaneous.edition, simultaneous.rules)


def check_name(simultaneous: Simultaneous, table: str, name: str, game: int) -> None:
    """Refuse ``name`` to the room ``table`` when another room plays the same game under it
    (as spoken: case and spaces aside): the standings, the results and a series tell players
    apart by their centre's name. The same club's room of another game takes its name again,
    which is how a series follows its players."""
    taken = spoken(name)
    for centre in simultaneous.centres:
        if centre.game == game and centre.table != table and spoken(centre.name) == taken:
            raise _refuse(
                f"another room plays game {game + 1} as {centre.name!r}",
                codebook.CENTRE_NAME_TAKEN,
                name=centre.name,
            )


def _game(sealed: Sealed, index: int) -> SealedGame:
    played = sealed.simultaneous.game(index)
    if played is None:
        count = len(sealed.simultaneous.games)
        raise _refuse(f"no game {index + 1}; it has {count}", codebook.NO_SUCH_GAME, count=count)
    return played


def _sealed_game(game: Game, sealed: Sealed | None) -> SealedGame:
    """The sealed game the centre plays; refused when the simultaneous is gone (deleted by
    its organiser or by retention), ValueError when the shell passed another."""
    centre = game.centre
    assert centre is not None
    if sealed is None:
        raise _refuse("the simultaneous is gone", codebook.NO_SIMULTANEOUS)
    if sealed.id != centre.simultaneous or sealed.game != centre.game:
        raise ValueError("a centre's draw and close need its own simultaneous's sealed game")
    return _game(sealed, centre.game)


def refused_change() -> GameError:
    """A centre plays the sealed game: no typed rack or top, no other game in its place."""
    return _refuse("this room plays a simultaneous's sealed game", codebook.SEALED_GAME)


def decide(
    game: Game, command: c.DrawRack | c.CloseRound, inputs: Inputs
) -> tuple[TableEvent, ...]:
    """A centre's draw or close, on the round the director saw."""
    check_round(game, command.round)
    if isinstance(command, c.DrawRack):
        return (draw(game, inputs.sealed, inputs.at),)
    return close(game, inputs.contains, inputs.sealed)


def draw(game: Game, sealed: Sealed | None, at: int) -> TableEvent:
    """The open round's sealed rack, revealed to this room; the game's end after its last
    sealed round. Refused before the window opens and once it has closed."""
    if game.rounds[-1].rack:
        raise _refuse("this round has its rack", codebook.RACK_DRAWN, round=len(game.rounds) - 1)
    played = _sealed_game(game, sealed)
    if played.closed(at):
        raise _refuse("the game's window has closed", codebook.WINDOW_CLOSED, game=played.game)
    if not played.started(at):
        raise _refuse("the game has not begun", codebook.NOT_OPEN_YET, opens=played.opens)
    number = len(game.rounds) - 1
    if number >= len(played.rounds):
        return GameEnded()
    round_ = played.rounds[number]
    return RackDrawn(number, round_.rack, round_.rejected, sealed=True)


def close(game: Game, contains: Contains | None, sealed: Sealed | None) -> tuple[TableEvent, ...]:
    """The open round closed with its sealed top, this room's slips judged."""
    if not rounds.in_room(game):
        raise _refuse("the round has no rack yet", codebook.NO_RACK)
    played = _sealed_game(game, sealed)
    closing = played.rounds[len(game.rounds) - 1].closing
    _, rules = rules_of(game)
    results = slips.judge(game, contains, rules)
    return tuple(
        replace(event, results=results) if isinstance(event, TopRecorded) else event
        for event in closing
    )
