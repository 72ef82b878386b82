"""GCG game records: write a classic game as one (reading is ``rules.gcg.read``).

``to_gcg`` writes any classic or online game, from its state or, better, its log (a
withdrawn word needs the struck move, which only the log keeps): ``#character-encoding UTF-8``, one
``#playerN`` line per player (Quackle reads three or four too, macondo two), a ``#note Edition:``
line (macondo ignores notes of unknown keys), then every standing line in order:

* a board move with its GCG position and main word, tiles played through as ``.``;
* a withdrawn word as its move line followed by ``--`` (a pass and ``#note word withdrawn``
  when only the state is given: macondo writes a lost turn the same way);
* passes ``-``; exchanges ``-UNKNOWN`` (the sheet does not know which tiles went back);
* points entered by hand, and typed moves, as a pass plus a ``(challenge)`` line with the
  points and a ``#note``: both readers then count the turn and the points;
* a penalty as a ``(time)`` line, a bonus as a ``(challenge)`` line;
* the end as the settlement made it: ``>out:  (LETTERS) +N`` for who went out and
  ``>p: LETTERS (LETTERS) -N`` for every rack taken off. A game whose end settles nothing
  (one read from GCG, whose end lines are already on the sheet) writes no end lines.

Tiles placed without a score are no part of a record: a move written through them reads back
as a problem.

The sheet knows no racks, yet macondo and Quackle both take the first word after ``>nick:``
as the rack and refuse, or misread, a line without one. So a move line lists the tiles it
laid (blanks ``?``), as real records do when the rack was not noted, and every other line
says ``UNKNOWN``, the word Quackle's own writer puts where it cannot tell a rack.
"""

import re
from collections.abc import Iterable

from editions import codebook
from events.events import (
    ChallengeJudged,
    Exchanged,
    GameEnded,
    LineUndone,
    Mode,
    MoveRecorded,
    Passed,
    PenaltyGiven,
    PointsEntered,
    RackLeft,
    Recorded,
    TableEvent,
    WordWithdrawn,
)
from rules.board.board import Board
from rules.board.squares import SIZE, Direction, Square, gcg_position
from rules.board.tiles import bag_letter
from rules.errors import GameError
from rules.gcg.read import UNKNOWN, GcgError
from rules.table.reducer import befores, replay
from rules.table.settlement import rack_tiles, rack_value
from rules.table.state import Game, State, Step
from rules.table.views import player_name


def to_gcg(source: State | Iterable[Recorded], *, language: str | None = None) -> str:
    """The current classic or online game of a table (its state, or better its log) as GCG
    text; an online game's turn lines show the whole rack, its exchanges the tiles.

    Players without a name get the default name in ``language`` (else the edition's).
    Raises GcgError (``gcg_no_game``, ``gcg_classic_only``).
    """
    log: tuple[Recorded, ...] = ()
    if isinstance(source, State):
        state = source
    else:
        log = tuple(source)
        state = replay(log)
    game = state.game
    if game is None:
        raise GcgError("there is no game to write", code=codebook.GCG_NO_GAME)
    if game.mode is Mode.DUPLICATE:
        raise GcgError("only a classic game has a GCG record", code=codebook.GCG_CLASSIC_ONLY)
    writer = _Writer(game, log, language or game.edition.language)
    return writer.write(befores(state.steps))


def _nick(name: str, number: int, taken: set[str]) -> str:
    nick = re.sub(r"[\s:]+", "_", name).strip("_#>") or f"p{number}"
    if nick in taken:
        nick = f"{nick}_{number}"
    taken.add(nick)
    return nick


class _Writer:
    def __init__(self, game: Game, log: tuple[Recorded, ...], language: str) -> None:
        self.game = game
        self.edition = game.edition
        self.names = [
            " ".join(player_name(game, p, language).split()) for p in range(len(game.players))
        ]
        taken: set[str] = set()
        self.nicks = [_nick(name, p, taken) for p, name in enumerate(self.names, 1)]
        self.struck = _struck_moves(log)
        self.standing: dict[int, TableEvent] = {}  # the standing events by seq

    def write(self, steps: list[tuple[Step, Game | None]]) -> str:
        lines = ["#character-encoding UTF-8"]
        lines += [
            f"#player{p} {nick} {name}"
            for p, (nick, name) in enumerate(zip(self.nicks, self.names, strict=True), 1)
        ]
        lines.append(f"#note Edition: {self.game.edition.code}")
        self.standing = {step.recorded.seq: step.recorded.event for step, _ in steps}
        for i, (step, before) in enumerate(steps[1:], 1):
            after = steps[i + 1][1] if i + 1 < len(steps) else self.game
            previous = steps[i - 1][0].recorded.seq
            assert before is not None and after is not None
            lines += self.lines(step.recorded, before, after, previous)
        return "\n".join(lines) + "\n"

    def line(self, player: int, rack: str, play: str, score: int, total: int) -> str:
        return f">{self.nicks[player]}: {rack} {play} {score:+d} {total}"

    def lines(self, recorded: Recorded, before: Game, after: Game, previous: int) -> list[str]:
        event = recorded.event
        if isinstance(event, MoveRecorded) and event.placed:
            return [self.move(event, before, before.totals[event.player] + event.points)]
        if isinstance(event, MoveRecorded | PointsEntered):
            return self.points(event, after, _typed_note(event))
        if isinstance(event, Passed | Exchanged):
            play = "-" if isinstance(event, Passed) else f"-{event.tiles or UNKNOWN}"
            rack = held(before, event.player, UNKNOWN)
            return [self.line(event.player, rack, play, 0, after.totals[event.player])]
        if isinstance(event, WordWithdrawn):
            return self.withdrawn(event, recorded.seq, previous, before, after)
        if isinstance(event, PenaltyGiven):
            play = "(time)" if event.points >= 0 else "(challenge)"
            return [
                self.line(event.player, UNKNOWN, play, -event.points, after.totals[event.player])
            ]
        if isinstance(event, GameEnded):
            return self.end(event, after)
        return []  # tiles placed without a score, the board cleared: not part of a record

    def move(self, event: MoveRecorded, before: Game, total: int) -> str:
        position, word = gcg_play(before.board, event)
        rack = held(before, event.player, _laid(event))
        return self.line(event.player, rack, f"{position} {word}", event.points, total)

    def points(self, event: MoveRecorded | PointsEntered, after: Game, note: str) -> list[str]:
        total = after.totals[event.player]
        return [
            self.line(event.player, UNKNOWN, "-", 0, total - event.points),
            self.line(event.player, UNKNOWN, "(challenge)", event.points, total),
            f"#note {note}",
        ]

    def withdrawn(
        self, event: WordWithdrawn, seq: int, previous: int, before: Game, after: Game
    ) -> list[str]:
        total = after.totals[event.player]
        judged = self.standing.get(previous)
        if isinstance(judged, ChallengeJudged) and not judged.valid:
            return self.challenged(event, judged, total)
        phony = next(
            (
                move
                for at, move in sorted(self.struck.items(), reverse=True)
                if previous < at < seq and move.player == event.player
            ),
            None,
        )
        if phony is None or not phony.placed:
            return [self.line(event.player, UNKNOWN, "-", 0, total), "#note word withdrawn"]
        return [
            self.move(phony, before, total + phony.points),
            self.line(event.player, _laid(phony), "--", -phony.points, total),
        ]

    def challenged(self, event: WordWithdrawn, judged: ChallengeJudged, total: int) -> list[str]:
        """A word withdrawn by a challenge (``rules.table.challenge``): its move still stands in
        the log and was written, so it comes off as a phony, ``--``; typed words, written as
        points, come off as a penalty."""
        move = self.standing.get(judged.line)
        points = move.points if isinstance(move, MoveRecorded) else 0
        if isinstance(move, MoveRecorded) and move.placed:
            return [self.line(event.player, _laid(move), "--", -points, total)]
        return [
            self.line(event.player, UNKNOWN, "(time)", -points, total),
            "#note word withdrawn after a challenge",
        ]

    def end(self, event: GameEnded, after: Game) -> list[str]:
        try:
            values = [rack_value(self.edition, rack) for rack in event.racks]
        except GameError:  # odd history (a digit in a rack): the sheet settles nothing either
            return []
        if len(values) != len(self.nicks) or not any(values):
            return []  # nothing to settle, or a game read from GCG: its end is on the sheet
        totals = list(after.totals)
        lines = []
        if None in values:
            out, gain = values.index(None), sum(v for v in values if v)
            totals[out] += gain
            left = "".join(self.letters(r) for p, r in enumerate(event.racks) if p != out)
            lines.append(f">{self.nicks[out]}:  ({left or UNKNOWN}) +{gain} {totals[out]}")
        for p, (rack, value) in enumerate(zip(event.racks, values, strict=True)):
            letters = self.letters(rack)
            if value is None or not (value or letters):
                continue
            totals[p] -= value
            shown = letters or UNKNOWN
            lines.append(self.line(p, shown, f"({shown})", -value, totals[p]))
        return lines

    def letters(self, rack: RackLeft) -> str:
        if not rack.letters:
            return ""
        return "".join(_rack_tile(t) for t in rack_tiles(self.edition, rack.letters))


def held(game: Game, player: int, otherwise: str) -> str:
    """The rack a turn line shows: in an online game the player's whole rack before the turn
    (the log keeps every rack; the record is served once the game is over), else
    ``otherwise``."""
    if game.online is None or not game.online.racks[player]:
        return otherwise
    return "".join(_rack_tile(t) for t in game.online.racks[player])


def _laid(event: MoveRecorded) -> str:
    """The rack a move line shows: the tiles it laid, ``?`` for a blank."""
    return "".join(_rack_tile(bag_letter(p.tile)) for p in event.placed)


def _rack_tile(letter: str) -> str:
    return f"[{letter}]" if len(letter) > 1 else letter


def _typed_note(event: MoveRecorded | PointsEntered) -> str:
    if isinstance(event, MoveRecorded) and event.words:
        return "typed move: " + ", ".join(w.word for w in event.words)
    return "points entered by hand"


def _struck_moves(log: tuple[Recorded, ...]) -> dict[int, MoveRecorded]:
    """The moves of the log that a LineUndone struck, by their sequence number."""
    struck = {r.event.line for r in log if isinstance(r.event, LineUndone)}
    return {r.seq: r.event for r in log if r.seq in struck and isinstance(r.event, MoveRecorded)}


def gcg_play(board: Board | None, event: MoveRecorded) -> tuple[str, str]:
    """A board move's GCG position and main word on the board it was laid on: the new tiles
    in row notation (blanks in lower case), the tiles played through as ``.``."""
    placed = {Square.parse(p.square): p.tile for p in event.placed}
    main = event.words[0] if event.words else None
    if main is not None and main.start and main.direction:
        start, way = Square.parse(main.start), Direction.parse(main.direction)
    else:
        start, way = min(placed), Direction.parse(event.direction)
    dr, dc = (0, 1) if way == Direction.ACROSS else (1, 0)
    word, square = [], start
    while square.row < SIZE and square.col < SIZE:
        if square in placed:
            word.append(placed[square])
        elif board is not None and board[square] is not None:
            word.append(".")
        else:
            break
        square = Square(square.row + dr, square.col + dc)
    return gcg_position(start, way), "".join(word)
