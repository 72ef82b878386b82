"""GCG game records: read one into events that replay to its scores.

GCG is the record format of the crossword-game programs (Poslfit's specification, read here
as macondo's ``gcgio`` and Quackle's ``quackleio/gcgio.cpp`` read it). Pragma lines start
with ``#`` (``#player1 nick Full Name``, ``#lexicon``, ``#note`` …); every other line of a
game starts with ``>nick:``, the player's rack, what happened, the line's score and the
player's running total::

    >doug: AEJNOSV E3 JAVE..N +34 66        a move: position, main word, ``.`` played through
    >emely: DEILOVX -VX +0 55               an exchange (``-`` alone, or ``-0``, is a pass)
    >emely: DEIILTZ --  -24 55              the move before was withdrawn after a challenge
    >jvc: DIMSTTW (challenge) +5 37         a challenge bonus (North American 5-point rule)
    >whatnoloan: NU (time) -10 422          a time penalty
    >emely:  (OPEG) +14 345                 end: the opponent's tiles, to who went out
    >Pakorn: FWLI (FWLI) -10 426            end: a player's own tiles, taken off

**Reading** (``read`` → ``to_events``) collects every problem with its line number instead of
stopping at the first (python-chess's PGN reader does the same). ``to_events`` then drives
``rules.table.record.record`` with the commands a scorer would have given, so *our* rules
score every move; each line's score and running total are checked against the file's. The
first player on a move line starts. The edition comes from the caller, else from a
``#note Edition: xx`` line (what ``to_gcg`` writes), else from ``#lexicon``, else English.

Lines that use no turn become penalty lines (``PenaltyGiven``; a negative one is a bonus,
appended as a recorded event because a phone may not give bonuses). That includes the end of
the game: conventions differ (North American files give who went out twice the tiles left
and take nothing from the others; international ones take each rack off its holder and give
its value once), so the file decides. Its end lines are copied onto the sheet as bonus and
penalty lines, and ``GameEnded`` closes the game with racks worth nothing (the player who
went out left empty): the sheet then shows what the record says happened, and the final
totals are the file's. A withdrawn word strikes the move (``LineUndone``) and records
``WordWithdrawn``, which uses the turn. A pass followed at once by a challenge bonus of the
same player is what ``to_gcg`` writes for points entered by hand, and reads back as such.

Writing is ``rules.gcg.write``.
"""

import codecs
import re
from typing import Literal, NamedTuple

import msgspec
from msgspec.structs import replace

import editions
from editions import codebook
from events import commands as c
from events.events import (
    GameEnded,
    GameStarted,
    LineUndone,
    Mode,
    MoveRecorded,
    PenaltyGiven,
    PlacedTile,
    PointsEntered,
    RackLeft,
    Recorded,
    TableEvent,
)
from rules.board.board import Board
from rules.board.squares import SIZE, Direction, Square, parse_gcg_position
from rules.board.tiles import parse_tiles
from rules.errors import GameError, NotationError
from rules.table.record import record
from rules.table.reducer import evolve
from rules.table.rulesets import HOUSE
from rules.table.state import Game, State
from rules.table.views import final

UNKNOWN = "UNKNOWN"
DEFAULT_EDITION = "en"

#: ``#lexicon`` prefixes → edition (macondo's lexicon names; NSF, DISC … have no edition here).
LEXICON_EDITIONS = (
    (("TWL", "NWL", "CSW", "OWL", "OSPD", "SOWPODS", "ECWL", "CEL", "NSWL", "AMERICA"), "en"),
    (("OSPS",), "pl"),
    (("FRA", "ODS"), "fr"),
    (("RD", "DSW"), "de"),
    (("FISE", "FILE"), "es"),
)

Kind = Literal[
    "move", "pass", "exchange", "withdrawn", "challenge", "time", "end_bonus", "end_penalty"
]
#: The kinds that use a turn; the others are bonus or penalty lines.
TURN_KINDS = frozenset({"move", "pass", "exchange", "withdrawn"})


class GcgError(GameError):
    """A GCG file that cannot be read at all (bytes, or no game in it)."""

    code = codebook.GCG_UNREADABLE


class Problem(NamedTuple):
    """Something in the file that could not be used as written: its line and why."""

    line: int
    message: str


class Player(msgspec.Struct, frozen=True):
    """A ``#playerN`` line: the nick the move lines use, and the full name."""

    nick: str
    name: str


class Entry(msgspec.Struct, frozen=True):
    """One ``>`` line of a GCG file, as written."""

    number: int  # the line in the file, from 1
    nick: str
    kind: Kind
    score: int
    total: int
    rack: str = ""
    position: str = ""  # moves: "8D" (across) or "D8" (down)
    word: str = ""  # moves: the main word, "." (or "(LI)") for tiles played through
    tiles: str = ""  # exchanges: the tiles (or their count); end lines: the letters
    note: str = ""

    @property
    def play(self) -> str:
        """What happened, as the file writes it: ``8D WINDY``, ``-``, ``(challenge)`` …"""
        if self.kind == "move":
            return f"{self.position} {self.word}"
        if self.kind in ("challenge", "time"):
            return f"({self.kind})"
        if self.kind in ("end_bonus", "end_penalty"):
            return f"({self.tiles})"
        return {"pass": "-", "withdrawn": "--"}.get(self.kind, f"-{self.tiles}")


class GcgFile(msgspec.Struct, frozen=True):
    """A GCG file read line by line, before any rule looks at it."""

    players: tuple[Player, ...]
    entries: tuple[Entry, ...]
    pragmas: tuple[tuple[int, str, str], ...] = ()  # (line, keyword, value), notes apart
    notes: tuple[str, ...] = ()  # notes before the first move line
    problems: tuple[Problem, ...] = ()

    def pragma(self, keyword: str) -> str | None:
        """The value of the first ``#keyword`` line, if any."""
        return next((value for _, key, value in self.pragmas if key == keyword), None)


class Check(msgspec.Struct, frozen=True):
    """A line of the file beside what our sheet made of it (None: nothing was recorded)."""

    entry: Entry
    player: int
    points: int | None
    total: int | None

    @property
    def differs(self) -> bool:
        return self.points != self.entry.score or self.total != self.entry.total


class Imported(msgspec.Struct, frozen=True):
    """A GCG file replayed on our sheet: the log, the state, and every line checked."""

    gcg: GcgFile
    players: tuple[Player, ...]  # the file's, else the nicks of its move lines
    edition: str
    log: tuple[Recorded, ...]
    state: State
    checks: tuple[Check, ...]
    problems: tuple[Problem, ...]  # the file's, then the replay's
    file_totals: tuple[int, ...]  # each player's last running total in the file
    totals: tuple[int, ...]  # ours: the final table once ended, else the sheet's totals

    @property
    def differs(self) -> bool:
        """Whether any line, any total or any problem keeps the replay from matching the file."""
        return (
            bool(self.problems)
            or self.totals != self.file_totals
            or any(check.differs for check in self.checks)
        )


# --- reading ---------------------------------------------------------------------------------

_ENCODING = re.compile(rb"^#character-encoding[ \t]+(\S+)", re.MULTILINE)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_PRAGMA = re.compile(r"#(\S*)\s*(.*)")
_ENTRY = re.compile(r">\s*([^:\s][^:]*?)\s*:(.*)")
_SCORE = re.compile(r"[+-]?\d+")
_POSITION = re.compile(r"\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2}")
_THROUGH = re.compile(r"\(([^()]*)\)")


def decode(data: bytes) -> str:
    """The text of a GCG file: the ``#character-encoding`` it names, else UTF-8 (a BOM is
    skipped), else ISO-8859-1, the format's old default. Raises GcgError (``gcg_encoding``).

    >>> decode(b"#player1 c\\xe9sar c\\xe9sar\\r\\n"), decode(b"\\xef\\xbb\\xbf#title Mo\\xc3\\xa9")
    ('#player1 césar césar\\r\\n', '#title Moé')
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    declared = _ENCODING.search(data)
    if declared is None:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("iso-8859-1")
    name = declared.group(1).decode("ascii", "replace")
    try:
        return data.decode(name)
    except (LookupError, UnicodeDecodeError) as error:
        raise GcgError(
            f"the file says it is {name} but cannot be read as such: {error}",
            code=codebook.GCG_ENCODING,
            encoding=name,
        ) from None


def read(data: bytes) -> GcgFile:
    """Decode and parse the bytes of a GCG file; raises GcgError if they cannot be decoded."""
    return parse(decode(data))


def parse(text: str) -> GcgFile:
    """Parse GCG text, collecting a Problem for every line it cannot use."""
    return _Parser().parse(text)


class _Parser:
    def __init__(self) -> None:
        self.players: dict[int, Player] = {}
        self.entries: list[Entry] = []
        self.pragmas: list[tuple[int, str, str]] = []
        self.notes: list[str] = []
        self.problems: list[Problem] = []
        self.in_note = False

    def parse(self, text: str) -> GcgFile:
        for number, raw in enumerate(_LINE_BREAK.split(text.removeprefix("\ufeff")), 1):
            line = raw.strip()
            if line.startswith("#"):
                self.pragma(number, line)
            elif line.startswith(">"):
                self.in_note = False
                try:
                    self.entries.append(entry(number, line))
                except NotationError as error:
                    self.problems.append(Problem(number, str(error)))
            elif line and self.in_note:  # a note runs on until the next pragma or move
                self.note(line, "\n")
            elif line:
                self.problems.append(Problem(number, f"{line!r} is neither a pragma nor a move"))
        players = tuple(player for _, player in sorted(self.players.items()))
        return GcgFile(
            players,
            tuple(self.entries),
            tuple(self.pragmas),
            tuple(self.notes),
            tuple(self.problems),
        )

    def pragma(self, number: int, line: str) -> None:
        match = _PRAGMA.fullmatch(line)
        assert match is not None  # every line starting with "#" matches
        keyword, value = match.group(1).lower(), match.group(2).strip()
        self.in_note = keyword in ("note", "-")
        if self.in_note:
            self.note(value, "\n" if keyword == "-" else " ")
        elif keyword.startswith("player") and keyword[6:].isdigit():
            self.player(number, int(keyword[6:]), value)
        else:
            self.pragmas.append((number, keyword, value))

    def player(self, number: int, index: int, value: str) -> None:
        nick, name = [*value.split(None, 1), "", ""][:2]
        if not nick:
            self.problems.append(Problem(number, "#player without a nick"))
        elif index in self.players or nick in (p.nick for p in self.players.values()):
            self.problems.append(Problem(number, f"player {index} ({nick}) is named twice"))
        else:
            self.players[index] = Player(nick, name.strip() or nick)

    def note(self, text: str, joint: str) -> None:
        if not self.entries:
            if self.notes and joint == "\n":
                self.notes[-1] += joint + text
            else:
                self.notes.append(text)
            return
        last = self.entries[-1]
        self.entries[-1] = replace(last, note=f"{last.note}{joint}{text}" if last.note else text)


def entry(number: int, line: str) -> Entry:
    """One ``>`` line; raises NotationError (``gcg_line``) naming what is wrong.

    Anything after the running total is a comment (old records list the cross words there).

    >>> entry(7, ">emely: DEIILTZ --  -24 55").kind, entry(9, ">doug: (OPEG) +14 9").tiles
    ('withdrawn', 'OPEG')
    """
    match = _ENTRY.fullmatch(line)
    if match is None:
        raise _bad(line, "a move line starts with >nick:")
    nick, tokens = match.group(1), match.group(2).split()
    rack = tokens.pop(0) if tokens and not _is_play(tokens[0]) else ""
    if not tokens:
        raise _bad(line, "nothing happens on it")
    play = tokens.pop(0)
    fields: dict[str, str] = {"rack": rack}
    if _POSITION.fullmatch(play):
        if not tokens:
            raise _bad(line, "a move needs its word after the position")
        kind, fields["position"], fields["word"] = "move", play.upper(), tokens.pop(0)
    elif play == "--":
        kind = "withdrawn"
    elif play.startswith("-"):
        fields["tiles"] = play[1:]
        kind = "pass" if play[1:] in ("", "0") else "exchange"
    elif play.lower() in ("(challenge)", "(time)"):
        kind = play[1:-1].lower()
    elif play.startswith("(") and play.endswith(")"):
        fields["tiles"] = play[1:-1]
        kind = "end_penalty" if tokens[:1] and tokens[0].startswith("-") else "end_bonus"
    else:
        raise _bad(line, f"{play!r} is not a position, -, --, an exchange or (…)")
    if len(tokens) < 2 or not all(_SCORE.fullmatch(t) for t in tokens[:2]):
        raise _bad(line, "it should end with the score and the running total, like +24 79")
    score, total = int(tokens[0]), int(tokens[1])
    return Entry(number, nick, kind, score, total, **fields)  # type: ignore[arg-type]


def _is_play(token: str) -> bool:
    return bool(_POSITION.fullmatch(token)) or token[0] in "-("


def _bad(line: str, why: str) -> NotationError:
    return NotationError(f"{line!r}: {why}", code=codebook.GCG_LINE, text=line)


# --- replaying -------------------------------------------------------------------------------


def edition_of(gcg: GcgFile) -> str | None:
    """The edition the file names: a ``#note Edition: xx`` line, else its ``#lexicon``."""
    for note in gcg.notes:
        key, _, value = note.partition(":")
        if key.strip().lower() == "edition" and value.strip() in editions.codes():
            return value.strip()
    lexicon = (gcg.pragma("lexicon") or "").upper()
    for prefixes, code in LEXICON_EDITIONS:
        if lexicon.startswith(prefixes):
            return code
    return None


def to_events(gcg: GcgFile, edition: str | None = None) -> Imported:
    """Replay ``gcg`` on a new sheet in ``edition`` (else the file's, else English).

    Raises GcgError (``gcg_no_moves``, ``gcg_players``) when there is no game to replay.
    """
    if not gcg.entries:
        raise GcgError("the file has no move lines", code=codebook.GCG_NO_MOVES)
    problems = list(gcg.problems)
    players = gcg.players
    if not players:
        problems.append(Problem(gcg.entries[0].number, "no #player lines: nicks taken as names"))
        nicks = dict.fromkeys(e.nick for e in gcg.entries)
        players = tuple(Player(nick, nick) for nick in nicks)
    if not 1 <= len(players) <= 4:
        raise GcgError(f"{len(players)} players; a table seats 1 to 4", code=codebook.GCG_PLAYERS)
    code = edition or edition_of(gcg)
    if code is None:
        code = DEFAULT_EDITION
        if lexicon := gcg.pragma("lexicon"):
            line = next(n for n, key, _ in gcg.pragmas if key == "lexicon")
            problems.append(Problem(line, f"no edition known for lexicon {lexicon}; scored as en"))
    replayer = _Replay(players, code, gcg.entries)
    replayer.run()
    state = replayer.state
    game = state.game
    assert game is not None
    table = final(game)
    return Imported(
        gcg=gcg,
        players=players,
        edition=code,
        log=tuple(replayer.log),
        state=state,
        checks=tuple(replayer.checks),
        problems=(*problems, *replayer.problems),
        file_totals=_file_totals(players, gcg.entries),
        totals=game.totals if table is None else tuple(row.final for row in table),
    )


def _file_totals(players: tuple[Player, ...], entries: tuple[Entry, ...]) -> tuple[int, ...]:
    last = {e.nick: e.total for e in entries}
    return tuple(last.get(p.nick, 0) for p in players)


class _Replay:
    """Drives a sheet through a file's lines, one command (or recorded event) per line."""

    def __init__(self, players: tuple[Player, ...], edition: str, entries: tuple[Entry, ...]):
        self.index = {p.nick: i for i, p in enumerate(players)}
        self.folded = {p.nick.casefold(): i for i, p in enumerate(players)}
        self.entries = entries
        known = [e for e in entries if self.player_of(e) is not None]
        starter = self.player_of(known[0]) or 0 if known else 0
        self.state = State()
        self.log: list[Recorded] = []
        # Recorded as it is, not asked of the decider: a name in a real record may be longer
        # than a phone may type (a column shows it shortened).
        names = tuple(p.name for p in players)
        started = GameStarted(editions.get(edition).code, Mode.CLASSIC, HOUSE.code, names, starter)
        self.append(started)
        self.checks: list[Check] = []
        self.problems: list[Problem] = []
        self.moves: dict[int, int] = {}  # player → seq of the move a "--" would strike
        self.out: int | None = None  # who went out, from the end lines
        self.ended = False
        self.handlers = {
            "move": self.move,
            "pass": self.turn,
            "exchange": self.turn,
            "withdrawn": self.withdrawn,
            "challenge": self.adjust,
            "time": self.adjust,
            "end_bonus": self.end_bonus,
            "end_penalty": self.end_penalty,
        }

    @property
    def game(self) -> Game:
        assert self.state.game is not None
        return self.state.game

    def player_of(self, entry: Entry) -> int | None:
        found = self.index.get(entry.nick)
        return self.folded.get(entry.nick.casefold()) if found is None else found

    def run(self) -> None:
        entries = self.entries
        skip = False
        for i, entry in enumerate(entries):
            if skip:
                skip = False
                continue
            player = self.player_of(entry)
            if player is None:
                self.problem(entry, f"no #player line for {entry.nick!r}")
                continue
            if entry.kind in TURN_KINDS and entry.kind != "withdrawn":
                self.moves.pop(player, None)  # only the move just made can be withdrawn
            after = entries[i + 1] if i + 1 < len(entries) else None
            if _points_pair(entry, after):
                assert after is not None
                self.points(entry, after, player)
                skip = True
                continue
            points = self.handlers[entry.kind](entry, player)
            self.check(entry, player, points)
        self.end()

    def check(self, entry: Entry, player: int, points: int | None) -> None:
        total = None if points is None else self.game.totals[player]
        self.checks.append(Check(entry, player, points, total))

    def problem(self, entry: Entry, message: str) -> None:
        self.problems.append(Problem(entry.number, message))

    def command(self, command: c.TableCommand) -> None:
        self.state, log = record(self.state, command)
        self.log.extend(log)

    def append(self, event: TableEvent) -> None:
        recorded = Recorded(self.state.seq + 1, event)
        self.state = evolve(self.state, recorded)
        self.log.append(recorded)

    def move(self, entry: Entry, player: int) -> int | None:
        try:
            start, way = parse_gcg_position(entry.position)
            letters = new_tiles(self.game.board, start, way, entry.word)
        except GameError as error:
            self.problem(entry, f"{entry.play}: {error}")
            self.append(PointsEntered(player, entry.score))
            return None
        try:
            self.command(c.RecordMove(c.BoardMove(start.name, way.value, letters), player=player))
        except GameError as error:  # our rules refuse it: lay it anyway, at the file's score
            self.problem(entry, f"{entry.play}: {error} [{error.code}]")
            self.lay(player, entry.score, start, way, letters)
            return None
        self.moves[player] = self.state.seq
        recorded = self.log[-1].event
        assert isinstance(recorded, MoveRecorded)
        return recorded.points

    def lay(self, player: int, points: int, start: Square, way: Direction, letters: str) -> None:
        board = self.game.board
        assert board is not None
        try:
            play = board.place(start, way, letters)
        except GameError:
            self.append(PointsEntered(player, points))
            return
        placed = tuple(PlacedTile(square.name, tile.notation) for square, tile in play.tiles)
        self.append(MoveRecorded(player, points, placed=placed, direction=way.value))
        self.moves[player] = self.state.seq

    def withdrawn(self, entry: Entry, player: int) -> int | None:
        seq = self.moves.pop(player, None)
        if seq is None:
            self.problem(entry, f"-- but {entry.nick} has no move to withdraw")
            return None
        struck = next(r.event for r in self.log if r.seq == seq)
        assert isinstance(struck, MoveRecorded | PointsEntered)
        self.append(LineUndone(seq))
        self.command(c.WithdrawWord(player=player))
        return -struck.points

    def turn(self, entry: Entry, player: int) -> int:
        self.command(c.Pass(player=player) if entry.kind == "pass" else c.Exchange(player=player))
        return 0

    def points(self, turn: Entry, bonus: Entry, player: int) -> None:
        before = self.game.totals[player]
        self.command(c.EnterPoints(bonus.score, player=player))
        self.checks.append(Check(turn, player, 0, before))
        self.check(bonus, player, bonus.score)

    def end_bonus(self, entry: Entry, player: int) -> int:
        self.ended = True
        self.out = player if self.out is None else self.out
        return self.adjust(entry, player)

    def end_penalty(self, entry: Entry, player: int) -> int:
        self.ended = True
        return self.adjust(entry, player)

    def adjust(self, entry: Entry, player: int) -> int:
        """A bonus (appended: phones may not give one) or a penalty line; 0 writes none."""
        points = entry.score
        if points > 0:
            self.append(PenaltyGiven(player, -points))
        elif points < 0:
            try:
                self.command(c.GivePenalty(player, -points))
            except GameError:
                self.append(PenaltyGiven(player, -points))
        return points

    def end(self) -> None:
        if not self.ended:
            return
        racks = tuple(
            RackLeft() if p == self.out else RackLeft(points=0) for p in range(len(self.index))
        )
        try:
            self.command(c.EndGame(tuple(c.RackLeft(r.letters, r.points) for r in racks)))
        except GameError:
            self.append(GameEnded(racks))


def _points_pair(entry: Entry, after: Entry | None) -> bool:
    """A pass and, at once, a challenge bonus of the same player: points entered by hand."""
    return (
        after is not None
        and entry.kind == "pass"
        and entry.score == 0
        and after.kind == "challenge"
        and after.nick == entry.nick
        and after.score >= 0
    )


def new_tiles(board: Board | None, start: Square, way: Direction, word: str) -> str:
    """The tiles a GCG word lays on ``board``, in row notation: the squares already taken
    (``.``, a letter in parentheses, or the letter itself) are left out.

    Raises NotationError: ``no_board``, ``bad_tile``, ``off_board``, ``gcg_through_empty``
    (a played-through mark on an empty square), ``gcg_through_differs``.

    >>> import editions
    >>> board = Board.empty(editions.get("en")).lay([(Square.parse("H6"), parse_tiles(
    ...     editions.get("en"), "X")[0])])
    >>> new_tiles(board, Square.parse("H4"), Direction.ACROSS, "BO.eS")
    'BOeS'
    """
    if board is None:
        raise NotationError("this edition has no board", code=codebook.NO_BOARD)
    edition = board.edition
    text = _THROUGH.sub(lambda m: "." * len(edition.letters(m.group(1))), word)
    dr, dc = (0, 1) if way == Direction.ACROSS else (1, 0)
    laid: list[str] = []
    for i, tile in enumerate(parse_tiles(edition, text)):
        row, col = start.row + i * dr, start.col + i * dc
        if row >= SIZE or col >= SIZE:
            raise NotationError(f"{word} runs off the board", code=codebook.OFF_BOARD, text=word)
        square = Square(row, col)
        there = board[square]
        if there is None and tile is None:
            raise NotationError(
                f"{word} plays through {square.name}, which is empty",
                code=codebook.GCG_THROUGH_EMPTY,
                square=square.name,
            )
        if there is not None and tile is not None and there.letter != tile.letter:
            raise NotationError(
                f"{word} has {tile.text} on {square.name}, where {there.text} lies",
                code=codebook.GCG_THROUGH_DIFFERS,
                square=square.name,
            )
        if there is None and tile is not None:
            laid.append(tile.notation)
    return "".join(laid)
