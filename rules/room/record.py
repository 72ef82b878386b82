"""The game sheet of a duplicate game to publish, derived from the log's state alone.

``record`` builds a ``GameRecord``: per closed round the rack, the top (word, FISF
reference, score, bingo), every player's slip as the close judged it with its score and
solo, and the penalties and bonuses written beside it; per player the round scores, the
total, the difference to the sum of the tops and the percentage. The open round is never in
it: its slips are private until it closes, and its rack belongs to the room's screens.

The JSON form of the record imports again as training (``training``): one player against
the tops, a new room whose rounds take the recorded racks in order. ``to_csv`` is the
club's result list (docs/decisions.md, "The game sheet to publish").
"""

import csv
import io

import msgspec

import editions
from editions import codebook
from editions.errors import GameError
from events import commands as c
from events.events import Mode
from rules.board import squares
from rules.room.view import standings
from rules.table.sheet import tops
from rules.table.state import Game, Round
from rules.table.views import player_name

#: The format of a record; an import refuses any other.
FORMAT = "tilestream-duplicate-1"


class TopRecord(msgspec.Struct, frozen=True):
    """A round's top: the main word, where it starts, the FISF reference, its score."""

    word: str
    start: str
    direction: str
    reference: str  # across: row then column ("H4"); down: column then row ("4H")
    points: int
    bingo: bool  # the whole rack laid
    computed: bool  # the move generator found it (a typed top: the director's)


class SlipRecord(msgspec.Struct, frozen=True):
    """A player's slip as the round's close judged it (``SlipScore``), and the cell."""

    player: int
    kind: str  # valid, invalid, unplayable, late, missing, entered
    word: str
    reference: str
    points: int
    solo: int
    bad: str = ""  # the words the list lacks, comma-separated


class LineRecord(msgspec.Struct, frozen=True):
    """A penalty or bonus written beside a round's cell (a warning has its points)."""

    player: int
    kind: str  # penalty or bonus
    points: int


class RoundRecord(msgspec.Struct, frozen=True):
    """One closed round: its rack, its top, every slip and the cells as they stand."""

    number: int  # from 1
    rack: str  # row notation, ``?`` a blank
    top: TopRecord | None
    scores: tuple[int | None, ...]  # per player, the cell (corrections included)
    slips: tuple[SlipRecord, ...] = ()
    lines: tuple[LineRecord, ...] = ()


class PlayerRecord(msgspec.Struct, frozen=True):
    """A player's line of the result list."""

    player: int
    name: str
    rank: int  # equal totals share a rank
    total: int
    difference: int  # to the sum of the tops
    percent_tenths: int | None  # of the sum of the tops, in tenths of a percent
    solos: int
    lines: int  # the sum of penalties and bonuses


class GameRecord(msgspec.Struct, frozen=True):
    """A duplicate game as published: the rounds and the result list."""

    edition: str
    rules: str
    players: tuple[str, ...]
    rounds: tuple[RoundRecord, ...]
    results: tuple[PlayerRecord, ...]
    tops: int  # the sum of the closed rounds' tops
    ended: bool
    format: str = FORMAT


def reference(start: str, direction: str) -> str:
    """The FISF reference of a word from ``start`` (``H4``: row H, column 4): across the row
    comes first, down the column (``rules.board.squares.reference``); the published sheet
    writes every reference so, whatever the rule set's players typed.

    >>> reference("H4", "across"), reference("H4", "down")
    ('H4', '4H')
    """
    if not start:
        return ""
    return squares.reference(squares.Square.parse(start), direction, "fisf")


def record(game: Game, language: str | None = None) -> GameRecord:
    """The record of duplicate ``game`` with its closed rounds; players without a name get
    the default name in ``language`` (else the edition's)."""
    speech = language or game.edition.language
    names = tuple(player_name(game, p, speech) for p in range(len(game.players)))
    closed = game.rounds if game.ended is not None else game.rounds[:-1]
    closed = tuple(r for r in closed if r.top is not None or r.rack or any(
        s is not None for s in r.scores))  # fmt: skip
    rounds = tuple(_round(game, i, played) for i, played in enumerate(closed))
    table = {s.player: s for s in standings(game)}  # the players still in the room
    ranks = dict(zip(table, _ranks(tuple(s.total for s in table.values())), strict=True))
    results = tuple(
        PlayerRecord(
            player=p,
            name=names[p],
            rank=ranks[p],
            total=game.totals[p],
            difference=table[p].difference,
            percent_tenths=table[p].percent_tenths,
            solos=sum(s.solo for r in rounds for s in r.slips if s.player == p),
            lines=sum(ln.points for r in rounds for ln in r.lines if ln.player == p),
        )
        for p in table
    )
    ordered = tuple(sorted(results, key=lambda r: (r.rank, r.player)))
    return GameRecord(
        edition=game.edition.code,
        rules=game.rules.code,
        players=names,
        rounds=rounds,
        results=ordered,
        tops=tops(game),
        ended=game.ended is not None,
    )


def _round(game: Game, index: int, played: Round) -> RoundRecord:
    top = None
    if played.top is not None:
        main = played.top_words[0] if played.top_words else None
        start = main.start if main else ""
        direction = main.direction if main else ""
        top = TopRecord(
            word=main.word if main else "",
            start=start,
            direction=direction,
            reference=reference(start, direction),
            points=played.top,
            bingo=len(played.top_tiles) >= game.edition.rack_size,
            computed=played.computed,
        )
    slips = tuple(
        SlipRecord(
            r.player, r.kind, r.word, reference(r.start, r.direction), r.points, r.solo, r.bad
        )
        for r in sorted(played.results, key=lambda r: r.player)
    )
    lines = tuple(
        LineRecord(line.player, line.kind, line.points)
        for line in game.lines
        if line.kind in ("penalty", "bonus") and line.round == index
    )
    return RoundRecord(index + 1, "".join(played.rack), top, played.scores, slips, lines)


def _ranks(totals: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def encode(game_record: GameRecord) -> bytes:
    """The record as JSON."""
    return msgspec.json.encode(game_record)


def decode(data: bytes) -> GameRecord:
    """A record from JSON; raises GameError ``bad_record`` for anything else, another
    format, an edition or a rack this server does not know."""
    try:
        found = msgspec.json.decode(data, type=GameRecord)
    except msgspec.DecodeError as error:
        raise GameError(f"not a game record: {error}", code=codebook.BAD_RECORD) from error
    if found.format != FORMAT or found.edition not in editions.codes():
        raise GameError("not a game record of this server", code=codebook.BAD_RECORD)
    if not any(r.rack for r in found.rounds):
        raise GameError("the record has no rack to play", code=codebook.BAD_RECORD)
    return found


def training(
    game_record: GameRecord, name: str | None = None
) -> tuple[c.StartGame, tuple[str, ...]]:
    """One player against the tops: the game to start and the racks its rounds take in
    order (each round's ``SetRack``, forced: the rack rule already passed it once)."""
    start = c.StartGame(
        game_record.edition,
        Mode.DUPLICATE,
        rules=game_record.rules,
        players=(name,),
    )
    return start, tuple(r.rack for r in game_record.rounds if r.rack)


#: The result list's columns before and after the rounds (docs/decisions.md).
HEAD = ("rank", "name")
TAIL = ("solos", "penalties", "total", "difference", "percentage")


def to_csv(game_record: GameRecord) -> str:
    """The result list as CSV: a row per player in rank order — rank, name, each round's
    score, solos, penalties and bonuses, total, difference, percentage — and a first row of
    the tops."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    rounds = [f"R{r.number}" for r in game_record.rounds]
    writer.writerow((*HEAD, *rounds, *TAIL))
    top_cells = [r.top.points if r.top else "" for r in game_record.rounds]
    writer.writerow(("", "top", *top_cells, "", "", game_record.tops, 0, "100.0"))
    for row in game_record.results:
        cells = [_cell(r.scores[row.player]) for r in game_record.rounds]
        percent = "" if row.percent_tenths is None else f"{row.percent_tenths / 10:.1f}"
        writer.writerow((row.rank, row.name, *cells, row.solos, row.lines, row.total,
                         row.difference, percent))  # fmt: skip
    return out.getvalue()


def _cell(points: int | None) -> int | str:
    return "" if points is None else points
