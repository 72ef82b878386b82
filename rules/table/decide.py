"""The decider: state + command → the events to record, or a refusal with a stable code.

The table decides what every mode shares — the seating, a start, a new game, an undo, whether
the phone's turn still stands — and hands every other command to the decider of the game's
mode (``ModeRules.decide``, found in ``rules.table.modes``).

Pure: the server passes in its clock (``at``, ms) for the round clock, a seed it drew for a
new online game or a room's draw (``seed``), the edition's word list (``contains``, text →
bool), a room round's top (``top``, ``rules.room.tops``) and, for a simultaneous's centre,
its sealed games (``sealed``, ``rules.simultaneous``); nothing else from outside enters.
"""

from collections.abc import Mapping
from typing import assert_never

from msgspec.structs import replace

import editions
from editions import codebook
from events import commands as c
from events.events import GameStarted, LineUndone, Mode, TableEvent, WritersSet
from rules.board.wordcheck import Contains
from rules.simultaneous.state import Sealed
from rules.table import modes, permissions, rulesets, seating
from rules.table.decisions import MAX_NAME, refuse
from rules.table.inputs import Inputs, Top
from rules.table.permissions import Actor
from rules.table.state import Game, State

#: The fewest players a game of each mode starts with (SHC-03; DUP-03: one against the tops).
MIN_PLAYERS: Mapping[Mode, int] = {mode: rules.least_players for mode, rules in modes.MODES.items()}


def decide(
    state: State,
    command: c.TableCommand,
    *,
    at: int = 0,
    actor: Actor | None = None,
    seed: str = "",
    contains: Contains | None = None,
    top: Top | None = None,
    sealed: Sealed | None = None,
) -> tuple[TableEvent, ...]:
    """The events ``command`` records on ``state``; raises GameError with a code if refused.

    With an ``actor`` (a device at the table) it is first checked that the actor may ask it;
    without one (a game record, a Python shell) everything is allowed. An online game needs
    ``seed`` (fresh from ``secrets``) to start or start again — ValueError without one — and
    ``contains``, the edition's word list, to start and to judge a move. A duplicate room
    (``rules.room.rounds``) needs ``seed`` for every draw, and to close a round the ``top``
    the shell found for it (``rules.room.tops.needed`` and ``find``): refused without one,
    ValueError for a top of another position; its slips are judged by ``contains``.
    """
    if actor is not None:
        check(state, actor, command)
    inputs = Inputs(at, seed, contains, top, sealed, actor.seat if actor is not None else None)
    match command:
        case (
            c.SetWriters()
            | c.AdmitDevice()
            | c.RemoveDevice()
            | c.AppointDirector()
            | c.LabelDevice()
        ):
            return (seating.decide(state, command, actor),)
        case c.StartGame():
            _refuse_in_centre(state)
            started = _start(command, inputs)
            seated = seating.seated(state, command)  # the host's own seat, if it changes
            if command.writers == state.seating.writers:
                return (started, *seated)
            return (started, WritersSet(command.writers), *seated)
        case c.NewGame() | c.Undo():
            game = _game(state)
            if isinstance(command, c.NewGame):
                _refuse_in_centre(state)
            permissions.check_reference(state, game, command, modes.of(game).check_turn)
            return _again(state, game, command, seed)
        case _:
            game = _game(state)
            rules = modes.of(game)
            meant = permissions.check_reference(state, game, command, rules.check_turn)
            if game.ended is not None:
                raise refuse(
                    "the game is over: undo the end or start a new game", codebook.GAME_OVER
                )
            if meant is not None and isinstance(command, permissions.TURNS):  # its player
                command = replace(command, player=meant)  # (a clock's tap names only the turn)
            if isinstance(command, c.Challenge) and command.player is None and actor is not None:
                command = replace(command, player=actor.seat)  # the phone's own seat challenges
            events = rules.decide(game, command, inputs)
            if isinstance(command, c.RemovePlayer):  # a player taken out takes their phones
                return (*events, *seating.let_go(state, command.player))
            return events


def _refuse_in_centre(state: State) -> None:
    """A simultaneous's centre plays its sealed game to the end: another game goes to
    another room, so the centre's results stay in its log (``rules.simultaneous``)."""
    if state.game is not None and state.game.centre is not None:
        raise refuse("this room plays a simultaneous's sealed game", codebook.SEALED_GAME)


def _game(state: State) -> Game:
    if state.game is None:
        raise refuse("start a game first", codebook.NO_GAME)
    return state.game


def check(state: State, actor: Actor, command: c.TableCommand) -> None:
    """Raise GameError unless ``actor`` may ask ``command`` of the table as it stands."""
    if isinstance(command, c.LabelDevice):  # any device names itself, whatever its role
        return
    permissions.check_viewer(actor)
    game = state.game
    if game is None:
        permissions.check_no_game(actor, command)
    else:
        modes.of(game).check(state, game, actor, command)


def _again(
    state: State, game: Game, command: c.NewGame | c.Undo, seed: str
) -> tuple[TableEvent, ...]:
    """A new game of the same players, or an undo of the latest line (and what goes with it
    in the game's mode)."""
    rules = modes.of(game)
    match command:
        case c.NewGame():
            starter = (game.starter + 1) % len(game.players) if game.players else 0
            return (rules.new_game(game, starter, seed),)
        case c.Undo():
            line = permissions.latest_line(state)
            if line is None:
                raise refuse("there is no line to undo", codebook.NOTHING_TO_UNDO)
            return tuple(LineUndone(seq) for seq in rules.undo(state, line))
        case _:
            assert_never(command)


def judges_words(state: State, command: c.TableCommand) -> bool:
    """Whether ``decide`` may need the word list (``contains``) for ``command``: to start a
    game (an online one needs a list), and in a mode that judges words (online play, a
    duplicate room), and a challenge. A classic sheet judges no other word, so a server
    need not look the list up for its other commands."""
    game = state.game
    if isinstance(command, c.StartGame | c.Challenge):  # a challenge is judged by the list
        return True
    return game is not None and modes.of(game).judges_words


def _start(command: c.StartGame, inputs: Inputs) -> GameStarted:
    edition = editions.get(command.edition)
    rules = modes.MODES[Mode(command.mode)]  # the codes are read once, here and at the start
    mode = rules.mode
    asked = rulesets.get(command.rules)
    chosen = rules.rule_set(asked)
    if chosen is None:
        raise refuse(
            f"{asked.name} are not for {mode} games",
            codebook.RULES_NOT_FOR_MODE,
            rules=asked.code,
            mode=mode.value,
        )
    count = len(command.players)
    least, most = rules.least_players, rules.most_players
    if not least <= count <= most:
        raise refuse(
            f"{count} players; a {mode} game has {least} to {most}",
            codebook.PLAYER_COUNT,
            count=count,
            min=least,
            max=most,
        )
    if count > chosen.max_players:
        raise refuse(
            f"{chosen.name} are for {chosen.max_players} players",
            codebook.RULES_PLAYER_COUNT,
            rules=chosen.code,
            max=chosen.max_players,
        )
    if not 0 <= command.starter < max(count, 1):  # a room may open before anyone registers
        raise refuse(
            f"no player {command.starter} to start", codebook.NO_SUCH_PLAYER, player=command.starter
        )
    players = tuple((name or "").strip() or None for name in command.players)
    for name in players:
        if name is not None and len(name) > MAX_NAME:
            raise refuse(
                f"a name of {len(name)} characters; at most {MAX_NAME}",
                codebook.NAME_TOO_LONG,
                length=len(name),
                max=MAX_NAME,
            )
    return rules.started(command, edition, chosen, players, inputs)
