"""The simultaneous's routes: created by an organiser, watched by the organiser, its window
closed early, and its results (and its games as training) once a window has closed.

The results carry every sealed rack and top, so no one gets them before the game's window
has closed: not the organiser, not a centre that finished early.
"""

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response

from editions import codebook
from editions.errors import GameError
from events.events import TableEvent, WindowClosed
from rules.room import record
from rules.simultaneous import results
from rules.simultaneous.seal import replayed
from rules.simultaneous.state import SealedGame, Simultaneous
from rules.table.state import State
from server.http.handling import api, bearer, body, client, ok, tables_of
from server.live.messages import encoder
from server.simultaneous.create import create
from server.simultaneous.live import Centres
from server.simultaneous.messages import CreateSimultaneous


def centres_of(request: Request) -> Centres:
    centres: Centres = request.state.centres
    return centres


@api
async def create_simultaneous(request: Request) -> Response:
    if not await request.state.create_limit.allow(client(request)):
        raise GameError("too many new tables from here; wait a minute", code=codebook.RATE_LIMITED)
    wanted = await body(request, CreateSimultaneous)
    return ok(await create(tables_of(request), wanted), 201)


@api
async def organiser_view(request: Request) -> Response:
    of = request.path_params["simultaneous"]
    return ok(await centres_of(request).organiser(of, bearer(request)))


@api
async def delete_simultaneous(request: Request) -> Response:
    """The organiser deletes the simultaneous: its log, code and token. Its centres keep
    their rooms and results; a draw there is refused (``no_simultaneous``)."""
    of = request.path_params["simultaneous"]
    await centres_of(request).authorise(of, bearer(request))
    await tables_of(request).delete(of)
    request.state.hub.gone(of)  # at once here; the store tells the other processes
    return Response(status_code=204)


@api
async def close_window(request: Request) -> Response:
    """The organiser closes a game's window now: no centre draws a rack of it any more,
    and its results are published."""
    of = request.path_params["simultaneous"]
    centres = centres_of(request)
    await centres.authorise(of, bearer(request))
    simultaneous = await centres.simultaneous(of)
    sealed = _game(simultaneous, request)

    def closing(state: State) -> tuple[tuple[TableEvent, ...], str]:
        return (WindowClosed(sealed.game),), "host"

    await tables_of(request).record(of, closing, f"close:{of}:{sealed.game}")
    return ok(await centres.organiser(of, bearer(request)))


@api
async def results_json(request: Request) -> Response:
    data, _ = await _results(request, encoder.encode, encoder.encode)
    return Response(data, media_type="application/json")


@api
async def results_csv(request: Request) -> Response:
    text, name = await _results(request, results.game_csv, results.series_csv)
    headers = {"content-disposition": f'attachment; filename="{name}.csv"'}
    return Response(text, media_type="text/csv; charset=utf-8", headers=headers)


@api
async def training_record(request: Request) -> Response:
    """The sealed game as a room's record (``rules.room.record``), for ``/api/training``:
    one player against the tops, once the window has closed."""
    of = request.path_params["simultaneous"]
    centres = centres_of(request)
    simultaneous = await centres.simultaneous(of)
    sealed = _game(simultaneous, request)
    _published(sealed, centres.tables.clock())
    game = replayed(simultaneous.edition, simultaneous.rules, sealed.rounds)
    return Response(record.encode(record.record(game)), media_type="application/json")


async def _results(
    request: Request, per_game: Callable[[results.GameResults], object],
    per_series: Callable[[results.SeriesResults], object],
) -> tuple[object, str]:  # fmt: skip
    """A game's results (``?game=1``…) or the series' (``?game=series``), once every game
    asked for has closed its window."""
    of = request.path_params["simultaneous"]
    centres = centres_of(request)
    simultaneous = await centres.simultaneous(of)
    now = centres.tables.clock()
    if request.query_params.get("game") == "series":
        for sealed in simultaneous.games:
            _published(sealed, now)
        _, standings = await centres.current(of)
        return per_series(results.series_results(simultaneous, standings)), "series"
    sealed = _game(simultaneous, request)
    _published(sealed, now)
    _, standings = await centres.current(of)
    played = standings.games[sealed.game]
    return per_game(results.game_results(simultaneous, played)), f"game-{sealed.game + 1}"


def _game(simultaneous: Simultaneous, request: Request) -> SealedGame:
    """The game of ``?game=`` (from 1; the first by default). Only a few ASCII digits are
    read as a number: "²" is a digit to ``str.isdigit`` but not to ``int``."""
    text = request.query_params.get("game", "1")
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else 0
    sealed = simultaneous.game(number - 1)
    if sealed is None:
        count = len(simultaneous.games)
        raise GameError(
            f"no game {text!r}; it has {count}", code=codebook.NO_SUCH_GAME, count=count
        )
    return sealed


def _published(sealed: SealedGame, now: int) -> None:
    if not sealed.closed(now):
        raise GameError("the results come once the window has closed",
                        code=codebook.RESULTS_SEALED, closes=sealed.closes)  # fmt: skip
