"""Who plays in a duplicate room: players registering on their own phones by name, late
entries up to a round the director sets, and the director adding, renaming and taking out
players.

A player's place (their index) never changes once given: taking one out keeps every other
player's cells, slips and standings where they were, and leaves them out of the standings
and of every later close. A late entry counts 0 for the rounds closed before it, as a
missing slip does (``docs/decisions.md``).
"""

from msgspec.structs import replace

from editions import codebook
from events import commands as c
from events.events import (
    DeviceJoined,
    DeviceRemoved,
    EntriesSet,
    PlayerAdded,
    PlayerRemoved,
    PlayerRenamed,
    TableEvent,
)
from rules.table import decisions, lines
from rules.table.decisions import refuse
from rules.table.lines import Odd
from rules.table.rulesets import RoomRules
from rules.table.state import Game, Member, State

#: The most rounds the director may leave the entries open for: more than any game has.
MOST_ROUNDS = 100


def opening(game: Game) -> int:
    """The round up to which a room takes entries when it opens, as its rule set has it."""
    return (game.rules.room or RoomRules()).entries_until


def active(game: Game) -> tuple[int, ...]:
    """The players still in the room."""
    return tuple(p for p in range(len(game.players)) if p not in game.left)


def register(state: State, game: Game, device: str, name: str, key: str) -> tuple[TableEvent, ...]:
    """The events of a phone registering by ``name``: its own seat again when its lasting key
    holds one, the seat of a player of that name nobody's phone holds (the director typed the
    names beforehand), or a new player while the entries are open.

    Raises GameError: ``name_missing``, ``name_too_long``, ``name_taken`` (another phone
    holds the name), ``entries_closed``, ``room_full``.
    """
    mine = [m for m in _players(state, game) if key and m.key == key]
    if mine:  # the same phone again: its old entry goes, its seat stays
        seat = mine[0].seat
        return (*(DeviceRemoved(m.id) for m in mine), DeviceJoined(device, "player", seat, key))
    named = decisions.name(name)
    same = _named(game, named)
    if same is not None:
        if any(m.seat == same for m in _players(state, game)):
            raise refuse(f"{named!r} is on another phone", codebook.NAME_TAKEN, name=named)
        return (DeviceJoined(device, "player", same, key),)
    if game.ended is not None or len(game.rounds) > game.entries_until:
        until = game.entries_until
        raise refuse(f"entries closed after round {until}", codebook.ENTRIES_CLOSED, round=until)
    _check_room(game)
    return (PlayerAdded(named), DeviceJoined(device, "player", len(game.players), key))


def decide(
    game: Game, command: c.AddPlayer | c.RenamePlayer | c.RemovePlayer | c.SetEntries
) -> TableEvent:
    """The event of the director's command on the room's players or entries (the phones of a
    player taken out are let go by the table, ``rules.table.seating.let_go``)."""
    match command:
        case c.AddPlayer():
            named = _unique(game, decisions.name(command.name), None)
            _check_room(game)
            return PlayerAdded(named)
        case c.RenamePlayer():
            player = _present(game, command.player)
            return PlayerRenamed(player, _unique(game, decisions.name(command.name), player))
        case c.RemovePlayer():
            return PlayerRemoved(_present(game, command.player))
        case c.SetEntries():
            if not 0 <= command.until <= MOST_ROUNDS:
                raise refuse(
                    f"entries up to round {command.until}?",
                    codebook.NO_SUCH_ROUND,
                    round=command.until,
                )
            return EntriesSet(command.until)


# --- the fold ------------------------------------------------------------------------------


def added(game: Game, event: PlayerAdded) -> Game:
    """A new player at the end: 0 in every closed round, the open round theirs to play."""
    lines.check_open(game)
    rounds = tuple(
        replace(r, scores=(*r.scores, None if i == len(game.rounds) - 1 else 0))
        for i, r in enumerate(game.rounds)
    )
    return replace(
        game,
        players=(*game.players, event.name),
        rounds=rounds,
        totals=(*game.totals, 0),
        turns=(*game.turns, 0),
        exchanges=(*game.exchanges, 0) if game.exchanges else (),
        registered=True,
    )


def renamed(game: Game, event: PlayerRenamed) -> Game:
    player = lines.seat(game, event.player)
    return replace(game, players=lines.put(game.players, player, event.name))


def removed(game: Game, event: PlayerRemoved) -> Game:
    """The player out of the room; a slip they handed in for the open round goes with them."""
    player = lines.seat(game, event.player)
    if player in game.left:
        raise Odd(codebook.PLAYER_REMOVED, player=player)
    slips = tuple(s for s in game.slips if s.player != player)
    return replace(game, left=(*game.left, player), slips=slips)


def entries(game: Game, event: EntriesSet) -> Game:
    return replace(game, entries_until=event.until)


def _players(state: State, game: Game) -> list[Member]:
    """The phones holding a seat of a player still in the room."""
    return [
        m
        for m in state.seating.members
        if m.role == "player" and m.admitted and m.seat is not None and m.seat not in game.left
    ]


def _named(game: Game, name: str) -> int | None:
    """The player still in the room called ``name``, whatever its case."""
    folded = name.casefold()
    return next((p for p in active(game) if (game.players[p] or "").casefold() == folded), None)


def _unique(game: Game, name: str, player: int | None) -> str:
    """``name`` unless another player in the room has it: the standings tell them apart."""
    same = _named(game, name)
    if same is not None and same != player:
        raise refuse(f"{name!r} plays already", codebook.NAME_TAKEN, name=name)
    return name


def _check_room(game: Game) -> None:
    most = game.rules.max_players
    if len(active(game)) >= most:
        raise refuse(f"the room holds {most} players", codebook.ROOM_FULL, max=most)


def _present(game: Game, player: int) -> int:
    if not 0 <= player < len(game.players):
        raise refuse(f"no player {player}", codebook.NO_SUCH_PLAYER, player=player)
    if player in game.left:
        raise refuse(f"player {player} left the room", codebook.PLAYER_REMOVED, player=player)
    return player
