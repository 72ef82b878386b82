"""The computer opponent of online play: the turn it takes for its seat, at its strength.

A seat of an online game may be the computer's (``GameStarted.computers``); the server asks
this module for the computer's turn whenever that seat is to move, and sends it like any
seat's: a ``play`` naming the turn, decided and judged by ``rules.online.play``. Pure: the word
graph enters as an argument, and the pick among good moves is drawn from the game's seed and
the turn (``rules.board.bag.pick``), so a replay — or a second server process deciding the same
turn — chooses the same move.

A strength is a band of the top move's score: the computer plays one of the moves whose
score lies in its band, each as likely (equal totals in the generator's order). ``best``
plays a top move; ``good`` a move worth 60–90 % of the top's score, as a fair club player
might; ``easy`` one worth 30–60 %, a casual player's game. When the band holds no move (a
few moves with far apart scores), the weakest move above the band is played. Without any
move the computer exchanges its whole rack while the bag allows an exchange, else passes.
"""

from collections.abc import Sequence
from typing import Literal

import msgspec

from editions import codebook
from events import commands as c
from rules.board import bag
from rules.board.squares import Direction
from rules.errors import GameError
from rules.movegen.moves import Move, WordGraph, generate, scores
from rules.online import play as online
from rules.table.state import Game


class Strength(msgspec.Struct, frozen=True):
    """How well the computer plays: the band of the top's score (in %) it picks a move from."""

    code: str
    low: int  # the least a move may score, in % of the top move's score
    high: int  # the most


#: The computer's strengths, strongest first: the one place they are named.
STRENGTHS: dict[str, Strength] = {
    s.code: s
    for s in (Strength("best", 100, 100), Strength("good", 60, 90), Strength("easy", 30, 60))
}


def _refuse(message: str, code: str, **params: object) -> GameError:
    return GameError(message, code=code, **params)


def check(computers: Sequence[str | None], players: int) -> None:
    """Raise GameError unless ``computers`` (per seat: None or a strength) can start a game
    of ``players``: ``computer_count``, ``unknown_strength``, ``no_person``."""
    if not computers:
        return
    if len(computers) != players:
        raise _refuse(
            f"{len(computers)} seats named for the computer in a game of {players}",
            codebook.COMPUTER_COUNT,
            count=len(computers),
            players=players,
        )
    for strength in computers:
        if strength is not None and strength not in STRENGTHS:
            raise _refuse(
                f"no strength {strength!r}; known: {', '.join(STRENGTHS)}",
                codebook.UNKNOWN_STRENGTH,
                strength=strength,
                known=", ".join(STRENGTHS),
            )
    if all(strength is not None for strength in computers):
        raise _refuse(
            "every seat is the computer's: a person plays at least one",
            codebook.NO_PERSON,
            players=players,
        )


def strength(game: Game, seat: int) -> str | None:
    """The strength the computer plays ``seat`` at; None for a person's seat."""
    return game.online.computer(seat) if game.online is not None else None


def turn(game: Game | None) -> c.Turn | None:
    """The turn the computer is to take now, or None (a person's turn, the game over)."""
    if game is None or game.ended is not None or strength(game, game.to_move) is None:
        return None
    return c.Turn(game.started, game.to_move, game.turns[game.to_move])


def pick(moves: Sequence[Move], level: Strength, seed: str, label: str) -> Move | None:
    """The move of ``moves`` (best first) that ``level`` plays, drawn by ``seed`` and
    ``label``; None without a move.

    >>> from rules.board.squares import Direction, Square
    >>> from rules.board.placement import Play
    >>> moves = [Move(s, Square(7, 7), Direction.ACROSS, "", Play(())) for s in (40, 30, 20, 9)]
    >>> pick(moves, STRENGTHS["best"], "s", "t").score
    40
    >>> pick(moves, STRENGTHS["good"], "s", "t").score  # the one move worth 24–36
    30
    >>> pick(moves, STRENGTHS["easy"], "s", "t").score  # 12–24
    20
    """
    if not moves:
        return None
    totals = scores(moves)  # the moves themselves are made only for the one picked
    top = totals[0]
    band = [
        i for i, total in enumerate(totals) if level.low * top <= 100 * total <= level.high * top
    ]
    if not band:  # nothing in the band: the weakest move above it
        band = [max(i for i, total in enumerate(totals) if 100 * total > level.high * top)]
    return moves[band[bag.pick(seed, label, len(band))] if len(band) > 1 else band[0]]


def choose(game: Game, graph: WordGraph, meant: c.Turn) -> c.Play | c.Exchange | c.Pass:
    """The command the computer sends for its turn ``meant`` (``turn(game)``) on ``game``.

    Raises ValueError when ``meant`` is not the computer's turn now.
    """
    held = game.online
    player = meant.player
    if held is None or game.board is None or turn(game) != meant:
        raise ValueError(f"{meant} is not the computer's turn")
    level = STRENGTHS[held.computers[player] or "best"]
    rack = held.racks[player]
    moves = generate(game.board, bag.rack_notation(rack), graph)
    move = pick(moves, level, held.seed, f"computer {player} {meant.number}")
    if move is not None:
        way: Literal["across", "down"] = "across" if move.direction is Direction.ACROSS else "down"
        laid = c.BoardMove(move.start.name, way, move.letters)
        return c.Play(laid, turn=meant)
    if len(held.bag) >= online.exchange_least(game, game.edition):
        return c.Exchange(turn=meant, tiles=bag.rack_notation(rack))
    return c.Pass(turn=meant)
