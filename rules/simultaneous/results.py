"""A simultaneous's results to publish, once a game's window has closed: per game, every
player placed with their centre and each round's score under the round's top; per series,
the games added. As JSON (the structs) and as CSV."""

import csv
import io

import msgspec

from events.events import TopRecorded
from rules.room.record import reference
from rules.simultaneous.standings import GameStandings, SeriesRow, Standings
from rules.simultaneous.state import Simultaneous


class RoundTop(msgspec.Struct, frozen=True):
    """A round of the sealed game: its rack, and its top (word, reference, points)."""

    number: int
    rack: str
    word: str
    reference: str
    points: int


class ResultRow(msgspec.Struct, frozen=True):
    """A player's game: each round's score, and what the total holds beside them (``extra``:
    their room's solos, bonuses and penalties), so that a row adds up to its total."""

    place: int
    tied: bool
    name: str
    centre: str
    scores: tuple[int | None, ...]
    extra: int
    total: int
    difference: int
    percent_tenths: int | None


class GameResults(msgspec.Struct, frozen=True):
    simultaneous: str
    edition: str
    rules: str
    game: int  # from 1
    centres: tuple[str, ...]
    tops: tuple[RoundTop, ...]
    players: tuple[ResultRow, ...]


class SeriesResultRow(msgspec.Struct, frozen=True):
    place: int
    tied: bool
    name: str
    centre: str
    games: int
    total: int
    tops: int
    percent_tenths: int | None


class SeriesResults(msgspec.Struct, frozen=True):
    simultaneous: str
    games: int
    players: tuple[SeriesResultRow, ...]


def game_results(simultaneous: Simultaneous, standings: GameStandings) -> GameResults:
    """The results of one game: the sealed tops of the rounds played and every centre's
    players. A window closed early leaves rounds no centre reached: they are no part of any
    total, so not of the tops' either."""
    sealed = simultaneous.games[standings.game]
    played = max((centre.closed for centre in standings.centres), default=0)
    tops = []
    for number, round_ in enumerate(sealed.rounds[:played], 1):
        top = next((e for e in round_.closing if isinstance(e, TopRecorded)), None)
        word = top.words[0] if top is not None and top.words else None
        tops.append(
            RoundTop(
                number,
                round_.rack,
                word.word if word else "",
                reference(word.start, word.direction) if word else "",
                top.points if top is not None else 0,
            )
        )
    players = tuple(
        ResultRow(r.place, r.tied, r.name, r.centre, r.scores,
                  r.total - sum(s or 0 for s in r.scores), r.total, r.total - r.tops,
                  r.percent_tenths)
        for r in standings.rows
    )  # fmt: skip
    centres = tuple(dict.fromkeys(p.name for p in standings.centres))
    return GameResults(
        simultaneous.name,
        simultaneous.edition,
        simultaneous.rules,
        standings.game + 1,
        centres,
        tuple(tops),
        players,
    )


def series_results(simultaneous: Simultaneous, standings: Standings) -> SeriesResults:
    return SeriesResults(
        simultaneous.name, len(simultaneous.games), tuple(_series_row(r) for r in standings.series)
    )


def _series_row(row: SeriesRow) -> SeriesResultRow:
    return SeriesResultRow(
        row.place, row.tied, row.name, row.centre, row.games, row.total, row.tops,
        row.percent_tenths,
    )  # fmt: skip


def game_csv(results: GameResults) -> str:
    """Place, name, centre, each round's score, extra (solos, bonuses, penalties), total,
    difference, percentage; a first row of the tops."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(("place", "name", "centre", *(f"R{t.number}" for t in results.tops),
                     "extra", "total", "difference", "percentage"))  # fmt: skip
    total = sum(t.points for t in results.tops)
    writer.writerow(("", "top", "", *(t.points for t in results.tops), 0, total, 0, "100.0"))
    for row in results.players:
        cells = [("" if s is None else s) for s in row.scores]
        cells += [""] * (len(results.tops) - len(cells))
        writer.writerow((_place(row.place, row.tied), row.name, row.centre, *cells, row.extra,
                         row.total, row.difference, _percent(row.percent_tenths)))  # fmt: skip
    return out.getvalue()


def series_csv(results: SeriesResults) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(("place", "name", "centre", "games", "total", "tops", "percentage"))
    for row in results.players:
        writer.writerow((_place(row.place, row.tied), row.name, row.centre, row.games,
                         row.total, row.tops, _percent(row.percent_tenths)))  # fmt: skip
    return out.getvalue()


def _place(place: int, tied: bool) -> str:
    return f"{place}=" if tied else str(place)


def _percent(tenths: int | None) -> str:
    return "" if tenths is None else f"{tenths / 10:.1f}"
