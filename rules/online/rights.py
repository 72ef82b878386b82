"""Who may do what in an online game: stricter than at a table (P-52).

A seat plays, exchanges and passes only for itself — the host too, and whatever the setting
— and only the host undoes or ends the game, since an undo hands back the exact rack and
bag. A seat the computer plays takes turns from the server's computer only
(``rules.table.permissions.COMPUTER``), which does nothing else.
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
    if actor.role == "host":
        return
    if isinstance(command, (*HOST_ACTS, c.Undo, c.EndGame)):
        raise _refuse("only the host may do that in an online game", codebook.HOST_ONLY)
    check_seat(actor, game)


def computer(game: Game, seat: int) -> str | None:
    """The strength the computer plays ``seat`` at; None for a person's seat."""
    return game.online.computer(seat) if game.online is not None else None


def host_seat(game: Game) -> int | None:
    """The seat the host's device plays: the first the computer does not play, since who
    starts a game among friends plays in it."""
    return next((s for s in range(len(game.players)) if not computer(game, s)), None)
