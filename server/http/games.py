"""A phone's list of its games (``POST /api/games``): whose turn, its seat, the last turn.

A phone keeps a table id and a token for every table it joined; it sends them all (at most
``MAX_GAMES``) and gets each game as that device may see it. A token that opens nothing (a
wiped server, a device the host removed, one still waiting for the host) is left out: the
rest are answered all the same.
"""

from editions.errors import GameError
from events.events import Mode
from rules.online import play as online
from rules.table import gameclock
from rules.table.state import Game, LastTurn
from server.live.messages import GameEntry, Games, GamesRequest, OutOfTime
from server.stores.protocols import Store
from server.tables.commands import Tables
from server.tables.joins import actor, seat_of


async def my_games(tables: Tables, store: Store, wanted: GamesRequest) -> Games:
    """The games the tokens of ``wanted`` open, in their order, each once.

    Raises StoreUnavailable.
    """
    found: list[GameEntry] = []
    asked: set[tuple[str, str]] = set()
    for held in wanted.tokens:
        if (held.table, held.token) in asked:
            continue
        asked.add((held.table, held.token))
        entry = await _entry(tables, store, held.table, held.token)
        if entry is not None:
            found.append(entry)
    return Games(tuple(found))


async def _entry(tables: Tables, store: Store, table_id: str, token: str) -> GameEntry | None:
    try:
        device = await tables.device(table_id, token)
    except GameError:
        return None
    live = await tables.live(table_id)
    if live.state.simultaneous is not None:  # an organiser's token: no table, no game
        return None
    who = actor(live.state, device)
    if who is None or who.role == "waiting":
        return None
    info = await store.table(table_id)
    code = info.code if info is not None and who.role != "viewer" else ""  # as in the views
    game, seat = live.state.game, seat_of(who)
    if game is None:
        return GameEntry(table_id, code, None, None, (), None, seat, False, None, False,
                         live.state.seq)  # fmt: skip
    over = game.ended is not None
    out = None if over else out_of_time(game)
    mine = not over and out is None and game.mode is not Mode.DUPLICATE and seat == game.to_move
    return GameEntry(
        table=table_id,
        code=code,
        mode=game.mode.value,
        edition=game.edition.code,
        players=game.players,
        to_move=None if over else game.to_move,
        your_seat=seat,
        your_turn=mine,
        last=last_turn(game),
        ended=over,
        seq=live.state.seq,
        deadline=online.deadline(game),
        out_of_time=out,
    )


def out_of_time(game: Game) -> OutOfTime | None:
    """Why the player to move makes no move, as the sheet's clock has it: lost on time, or
    everyone out of time; None while they may move."""
    clock = game.game_clock
    if clock is None or not gameclock.stopped(game, clock, game.to_move):
        return None
    return "lost" if gameclock.lost(game, clock, game.to_move) else "all"


def last_turn(game: Game) -> LastTurn | None:
    """The latest turn as every device may see it: an online game's own, or the sheet's
    newest line (duplicate: none, its cells are not turns)."""
    if game.online is not None:
        return game.online.last
    if game.mode is Mode.DUPLICATE or not game.lines:
        return None
    line = game.lines[-1]
    return LastTurn(line.player, line.kind, line.words, line.points)
