"""Who may do what in an online game: stricter than at a table (P-52).

A seat plays, exchanges and passes only for itself — the host too, and whatever the setting.
Where two people play, nobody undoes a line or ends the game early, the host included: an
end shows every rack and an undo hands back the rack before a draw, so either would show a
player tiles the other alone was to see. A move stands; the game ends by the rules (out,
three passes), or the host starts a new one. Against the computer alone the host undoes and
ends as at a table: the tiles shown are the host's own game's. A seat the computer plays
takes turns from the server's computer only (``rules.table.permissions.COMPUTER``), which
does nothing else.
"""

from editions import codebook
from events import commands as c
from rules.errors import GameError
from rules.table.permissions import COMPUTER, HOST_ACTS, TURNS, Actor, check_seat, owner_of
from rules.table.state import Game, State


def _refuse(message: str, code: str, **params: object) -> GameError:
    return GameError(message, code=code, **params)


def check(state: State, game: Game, actor: Actor, command: c.TableCommand) -> None:
    """Raise GameError unless ``actor`` may ask ``command`` of the online ``game``."""
    if actor.role == COMPUTER and not isinstance(command, TURNS):
        raise _refuse("the computer takes turns of an online game only", codebook.HOST_ONLY)
    if isinstance(command, TURNS):
        owner = owner_of(state, game, command)
        held = game.online
        computer = held is not None and owner is not None and held.computer(owner) is not None
        if computer and actor.role != COMPUTER:
            raise _refuse(f"seat {owner} is the computer's", codebook.COMPUTER_SEAT, seat=owner)
        if actor.seat != owner or (actor.role == COMPUTER and not computer):
            raise _refuse(
                f"seat {actor.seat} plays only for itself, not for seat {owner}",
                codebook.NOT_YOUR_SEAT,
                seat=owner,
            )
        return
    if isinstance(command, c.Undo | c.EndGame) and people(game) > 1:
        raise _refuse(
            "an online game is neither undone nor ended early: it would show a rack",
            codebook.ONLINE_FINAL,
        )
    if actor.role == "host":
        return
    if isinstance(command, (*HOST_ACTS, c.Undo, c.EndGame)):
        raise _refuse("only the host may do that in an online game", codebook.HOST_ONLY)
    check_seat(actor, game)


def people(game: Game) -> int:
    """How many seats of ``game`` a person plays."""
    return sum(computer(game, seat) is None for seat in range(len(game.players)))


def computer(game: Game, seat: int) -> str | None:
    """The strength the computer plays ``seat`` at; None for a person's seat."""
    return game.online.computer(seat) if game.online is not None else None


def host_seat(game: Game) -> int | None:
    """The seat the host's device plays: the first the computer does not play, since who
    starts a game among friends plays in it."""
    return next((s for s in range(len(game.players)) if not computer(game, s)), None)
