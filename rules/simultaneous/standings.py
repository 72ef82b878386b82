"""The standings of a simultaneous: a projection folded from its centres' own logs.

Each centre's room holds its players' cells, as any room does (``rules.room``); nothing of
a result is written twice. For every game the rows of every centre are put together and
placed by total (equal totals share a place, P-35); the percentage is of the tops of the
rounds that centre has closed, so a centre playing later in a window stands by what it
has played. A centre's own phones see everyone as they stood after the rounds that centre
has closed (``upto``): a centre playing later in a window learns nothing of a round it has
not played, not even the scores others made in it. Across a series a player is their
centre's name and their own (a federation's licence number would be sturdier:
``docs/decisions.md``); the series places them by the total of the games they played.
Rebuilt from the logs, the projection is the same.
"""

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TypeVar

import msgspec

from rules.simultaneous.state import Simultaneous
from rules.table.settlement import places
from rules.table.state import Game, Round


class Row(msgspec.Struct, frozen=True, gc=False):
    """One player of one centre in one game: their cell in each closed round (None: empty),
    their total (solos and penalties in), and the tops of those rounds."""

    place: int
    tied: bool
    centre: str  # the centre's name
    table: str
    player: int  # the player's seat in the centre's room
    name: str
    scores: tuple[int | None, ...]
    total: int
    tops: int
    points: tuple[int, ...] = ()  # what each closed round added: the cell and its solo
    round_tops: tuple[int, ...] = ()  # each closed round's top

    @property
    def percent_tenths(self) -> int | None:
        """The total as tenths of a percent of the tops, rounded half up (DUP-07)."""
        return (self.total * 1000 + self.tops // 2) // self.tops if self.tops else None

    def upto(self, rounds: int) -> "Row":
        """The row as it stood after its first ``rounds`` rounds (penalties and bonuses
        beside the rounds count once every round it played is in)."""
        if len(self.points) <= rounds:
            return self
        return msgspec.structs.replace(
            self,
            scores=self.scores[:rounds],
            total=sum(self.points[:rounds]),
            tops=sum(self.round_tops[:rounds]),
            points=self.points[:rounds],
            round_tops=self.round_tops[:rounds],
        )


class Progress(msgspec.Struct, frozen=True, gc=False):
    """Where a centre is: rounds closed, players in, slips handed in for the open round
    (once its rack is drawn), whether its game is over."""

    table: str
    name: str
    game: int
    closed: int
    players: int
    slips: int
    racked: bool
    ended: bool


class GameStandings(msgspec.Struct, frozen=True, gc=False):
    """One game: its rounds sealed, every centre's progress and every player placed."""

    game: int
    rounds: int
    centres: tuple[Progress, ...]
    rows: tuple[Row, ...]


class SeriesRow(msgspec.Struct, frozen=True, gc=False):
    """A player across the series: games played, the sum of their totals and tops."""

    place: int
    tied: bool
    centre: str
    name: str
    games: int
    total: int
    tops: int

    @property
    def percent_tenths(self) -> int | None:
        return (self.total * 1000 + self.tops // 2) // self.tops if self.tops else None


class Standings(msgspec.Struct, frozen=True, gc=False):
    games: tuple[GameStandings, ...]
    series: tuple[SeriesRow, ...]


def project(
    simultaneous_id: str, simultaneous: Simultaneous, rooms: Mapping[str, Game | None]
) -> Standings:
    """The standings from each centre's current game (``rooms``, by table id; a centre
    missing or whose game is not this simultaneous's counts as not begun)."""
    games = tuple(
        _game(simultaneous_id, simultaneous, index, rooms)
        for index in range(len(simultaneous.games))
    )
    return Standings(games, series(g.rows for g in games) if len(games) > 1 else ())


def _game(
    simultaneous_id: str, simultaneous: Simultaneous, index: int, rooms: Mapping[str, Game | None]
) -> GameStandings:
    progress: list[Progress] = []
    unplaced: list[Row] = []
    for centre in simultaneous.centres:
        if centre.game != index:
            continue
        game = rooms.get(centre.table)
        played = game.centre if game is not None else None
        if (
            game is None
            or played is None
            or (played.simultaneous, played.game)
            != (
                simultaneous_id,
                index,
            )
        ):
            # not read yet, or a room whose own log never took the join: nothing played
            progress.append(Progress(centre.table, centre.name, index, 0, 0, 0, False, False))
            continue
        closed = [r for r in game.rounds if r.top is not None]
        tops = sum(r.top or 0 for r in closed)
        players = [p for p in range(len(game.players)) if p not in game.left]
        open_round = game.rounds[-1] if game.rounds else None
        racked = open_round is not None and open_round.top is None and bool(open_round.rack)
        progress.append(
            Progress(
                centre.table,
                played.name,
                index,
                len(closed),
                len(players),
                len(game.slips),
                racked,
                game.ended is not None,
            )
        )
        round_tops = tuple(r.top or 0 for r in closed)
        for p in players:
            name = game.players[p] or f"#{p + 1}"
            scores = tuple(r.scores[p] for r in closed)
            points = tuple((r.scores[p] or 0) + _solo(r, p) for r in closed)
            unplaced.append(
                Row(
                    0,
                    False,
                    played.name,
                    centre.table,
                    p,
                    name,
                    scores,
                    game.totals[p],
                    tops,
                    points,
                    round_tops,
                )
            )
    return GameStandings(
        index, len(simultaneous.games[index].rounds), tuple(progress), _placed(unplaced)
    )


def _solo(played: Round, player: int) -> int:
    return next((r.solo for r in played.results if r.player == player), 0)


def upto(rows: tuple[Row, ...], rounds: int) -> tuple[Row, ...]:
    """The standings as a centre that has closed ``rounds`` rounds may see them: every
    player as they stood after at most that many rounds, placed again."""
    return _placed([row.upto(rounds) for row in rows])


Placed = TypeVar("Placed", Row, SeriesRow)


def _placed(rows: Iterable[Placed]) -> tuple[Placed, ...]:
    """``rows`` by total, the best first (then by centre and name), each with its place:
    equal totals share it (P-35)."""
    ordered = sorted(rows, key=lambda r: (-r.total, r.centre.casefold(), r.name.casefold()))
    totals = [r.total for r in ordered]
    shared = Counter(totals)
    return tuple(
        msgspec.structs.replace(r, place=place, tied=shared[r.total] > 1)
        for r, place in zip(ordered, places(totals), strict=True)
    )


def spoken(name: str) -> str:
    """A name as a person tells it from another: as typed but for case and spaces."""
    return " ".join(name.split()).casefold()


def key(centre: str, name: str) -> tuple[str, str]:
    """Who a player is across a series: their centre's name and their own, as spoken."""
    return spoken(centre), spoken(name)


def series(games: Iterable[tuple[Row, ...]]) -> tuple[SeriesRow, ...]:
    """The series from each game's rows: a player's games, totals and tops added."""
    players: dict[tuple[str, str], SeriesRow] = {}
    for rows in games:
        for row in rows:
            k = key(row.centre, row.name)
            was = players.get(k) or SeriesRow(0, False, row.centre, row.name, 0, 0, 0)
            players[k] = msgspec.structs.replace(
                was, games=was.games + 1, total=was.total + row.total, tops=was.tops + row.tops
            )
    return _placed(players.values())
