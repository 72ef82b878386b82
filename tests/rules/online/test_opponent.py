"""The computer opponent (rules.online.opponent): the seats it plays, the move it picks at each
strength, and that no phone plays or joins its seat.

Its games here are judged by the real Dutch list (Woordstrijd's), the same list its moves
come from: every move it picks must pass ``rules.online.play``'s judging like a person's, and
score what ``Board.score`` says.
"""

from collections import Counter

import msgspec
import pytest
from msgspec.structs import replace

import editions
import wordlists
from editions import codebook
from events import commands as c
from events import events as e
from rules.board import bag
from rules.errors import GameError
from rules.movegen.moves import Move, generate
from rules.online import opponent as computer
from rules.online.opponent import STRENGTHS
from rules.table import reducer, seating
from rules.table.permissions import COMPUTER, HOST, Actor
from rules.table.record import record
from rules.table.reducer import replay
from rules.table.state import Game, State
from rules.table.views import view
from tests.rules.online_games import tiles_now
from wordlists.graph import Graph

SEED = "5d41402abc4b2a76b9719d911017c592"
EDITION = "woordstrijd"
LIST = wordlists.get(EDITION)
HOSTING = Actor("host", 0, HOST)


def player(seat: int) -> Actor:
    return Actor(COMPUTER, seat, COMPUTER)


class Table:
    """An online game in memory with its whole log, the computer at some seats."""

    def __init__(
        self,
        computers: tuple[str | None, ...],
        seed: str = SEED,
        starter: int = 0,
        graph: Graph | None = None,
    ) -> None:
        self.seed = seed
        self.graph = graph if graph is not None else LIST.graph
        self.log: list[e.Recorded] = []
        self.state = State()
        players = tuple(f"P{n}" for n in range(len(computers)))
        self.do(c.StartGame(EDITION, "online", players=players, starter=starter,
                            computers=computers))  # fmt: skip

    @property
    def game(self) -> Game:
        assert self.state.game is not None
        return self.state.game

    def do(self, command: c.TableCommand, actor: Actor | None = None) -> tuple[e.Recorded, ...]:
        self.state, log = record(
            self.state, command, actor=actor, seed=self.seed, contains=LIST.contains
        )
        self.log.extend(log)
        return log

    def turn(self) -> c.Turn:
        game = self.game
        return c.Turn(game.started, game.to_move, game.turns[game.to_move])

    def computer_turn(self) -> tuple[c.TableCommand, tuple[e.Recorded, ...]]:
        """The computer takes the turn it is to take, as the server sends it."""
        meant = computer.turn(self.game)
        assert meant is not None, "not the computer's turn"
        command = computer.choose(self.game, self.graph, meant)
        return command, self.do(command, player(meant.player))

    @property
    def host(self) -> Actor:
        """The host's device, at the first seat the computer does not play."""
        return Actor("host", seating.host_seat(self.state), HOST)

    def person_turn(self) -> None:
        """A person (the host) plays their best move, or passes."""
        game = self.game
        assert game.board is not None and game.online is not None
        rack = bag.rack_notation(game.online.racks[game.to_move])
        moves = generate(game.board, rack, self.graph, limit=1)
        if moves:
            laid = c.BoardMove(moves[0].start.name, str(moves[0].direction), moves[0].letters)  # type: ignore[arg-type]
            self.do(c.Play(laid, turn=self.turn()), self.host)
        else:
            self.do(c.Pass(turn=self.turn()), self.host)


def in_band(move: Move, moves: list[Move], strength: str) -> bool:
    """Is ``move`` one the strength may pick: in its band of the top's score, or — with
    none in the band — the weakest move above it?"""
    level, top = STRENGTHS[strength], moves[0].score
    band = [m for m in moves if level.low * top <= 100 * m.score <= level.high * top]
    if band:
        return move in band
    above = [m for m in moves if 100 * m.score > level.high * top]
    return move == above[-1]


# --- the strengths and the start -----------------------------------------------------------


def test_the_strengths_are_bands_of_the_top_score_strongest_first() -> None:
    assert [(s.code, s.low, s.high) for s in STRENGTHS.values()] == [
        ("best", 100, 100),
        ("good", 60, 90),
        ("easy", 30, 60),
    ]


def test_a_game_names_the_seats_the_computer_plays() -> None:
    table = Table((None, "good"))
    started = table.log[0].event
    assert isinstance(started, e.GameStarted) and started.computers == (None, "good")
    assert table.game.online is not None and table.game.online.computers == (None, "good")
    for seat in (0, 1, None):
        sheet = view(table.state, "member", seat).sheet
        assert sheet is not None and sheet.online is not None
        assert sheet.online.computers == (None, "good")
    assert computer.strength(table.game, 1) == "good" and computer.strength(table.game, 0) is None


def test_a_game_of_people_only_records_no_computers_and_old_logs_read_the_same() -> None:
    plain = Table((None, None))
    assert b"computers" not in e.encode(plain.log[0])  # as logs were written before
    old = e.decode(
        b'{"seq":1,"event":{"kind":"game_started","edition":"woordstrijd","mode":"online",'
        b'"rules":"online","players":["A","B"],"seed":"s"}}'
    )
    state = replay([old])
    assert state.game is not None and state.game.online is not None
    assert state.game.online.computers == (None, None)
    assert computer.turn(state.game) is None


@pytest.mark.parametrize(
    ("computers", "code", "params"),
    [
        (("good",), codebook.COMPUTER_COUNT, {"count": 1, "players": 2}),
        ((None, "good", None), codebook.COMPUTER_COUNT, {"count": 3, "players": 2}),
        ((None, "genius"), codebook.UNKNOWN_STRENGTH,
         {"strength": "genius", "known": "best, good, easy"}),
        (("best", "easy"), codebook.NO_PERSON, {"players": 2}),
    ],
)  # fmt: skip
def test_a_start_with_the_computer_is_refused_with_its_code(
    computers: tuple[str | None, ...], code: str, params: dict[str, object]
) -> None:
    command = c.StartGame(EDITION, "online", players=("A", "B"), computers=computers)
    with pytest.raises(GameError) as refused:
        record(State(), command, seed=SEED, contains=LIST.contains)
    assert (refused.value.code, refused.value.params) == (code, params)


def test_the_computer_plays_online_games_only() -> None:
    command = c.StartGame(EDITION, players=("A", "B"), computers=(None, "best"))
    with pytest.raises(GameError) as refused:
        record(State(), command)
    assert refused.value.code == codebook.NOT_ONLINE


def test_a_new_game_keeps_the_computers_seats() -> None:
    table = Table((None, "easy"))
    table.do(c.EndGame(), HOSTING)
    table.do(c.NewGame(game=table.game.started), HOSTING)
    assert table.game.online is not None and table.game.online.computers == (None, "easy")
    assert table.game.to_move == 1 and computer.turn(table.game) is not None


# --- the move it picks ---------------------------------------------------------------------


@pytest.mark.parametrize("strength", list(STRENGTHS))
def test_the_computers_pick_is_a_legal_move_scored_as_the_board_scores_it(strength: str) -> None:
    # A person (their best move) against the computer, to the end of the game.
    table = Table((None, strength))
    picked = []
    while table.game.ended is None:
        if computer.turn(table.game) is None:
            table.person_turn()
            continue
        game = table.game
        assert game.board is not None and game.online is not None
        moves = generate(game.board, bag.rack_notation(game.online.racks[1]), table.graph)
        meant = computer.turn(game)
        assert meant is not None
        assert computer.choose(game, table.graph, meant) == computer.choose(
            game, table.graph, meant
        )  # no randomness but the seed's
        command, log = table.computer_turn()
        if not isinstance(command, c.Play):
            assert not moves, command
            continue
        moved = log[0].event
        assert isinstance(moved, e.MoveRecorded) and moved.player == 1
        laid = game.board.place(command.board.start, command.board.direction, command.board.letters)
        assert moved.points == game.board.score(laid).total
        move = next(m for m in moves if m.play.tiles == laid.tiles)
        assert move.score == moved.points
        if strength == "best":
            assert move.score == moves[0].score  # a top move
        assert in_band(move, moves, strength), (move.score, [m.score for m in moves[:20]])
        picked.append(moves.index(move))
        assert tiles_now(table.game) == Counter(bag.full_set(editions.get(EDITION)))
    assert len(picked) >= 8
    if strength != "best":
        assert len(set(picked)) > 2, picked  # a pick among good moves, not always one rank
    again = replay(table.log)
    assert again.game is not None and again.game.online == table.game.online


def test_the_weaker_pick_depends_on_the_seed_and_the_turn_only() -> None:
    # The same position with other seeds: the "good" pick changes with the seed, never by
    # itself; the top stays the top.
    table = Table((None, "good"))
    table.person_turn()
    game = table.game
    meant = computer.turn(game)
    assert meant is not None and game.online is not None
    picks = set()
    for n in range(12):
        other = replace(game, online=replace(game.online, seed=f"seed {n}"))
        first = computer.choose(other, table.graph, meant)
        assert first == computer.choose(other, table.graph, meant)
        picks.add(msgspec.json.encode(first))
    assert len(picks) > 1
    later = replace(meant, number=meant.number + 1)  # the same position a turn later: a new
    # draw (with this seed, another move)
    moved = replace(game, turns=(game.turns[0], later.number))
    assert computer.choose(moved, table.graph, later) != computer.choose(game, table.graph, meant)


def test_without_a_move_the_computer_exchanges_its_rack_and_passes_when_the_bag_is_low() -> None:
    nothing = Graph.from_words(editions.get(EDITION), ["QQQQQQQQ"])  # no rack makes a word
    table = Table(("best", None), graph=nothing)
    rack = table.game.online.racks[0]  # type: ignore[union-attr]
    command, log = table.computer_turn()
    assert command == c.Exchange(turn=c.Turn(1, 0, 0), tiles=bag.rack_notation(rack))
    assert isinstance(log[0].event, e.Exchanged) and log[0].event.tiles == command.tiles
    table.person_turn()
    game = table.game
    assert game.online is not None
    low = replace(game, online=replace(game.online, bag=game.online.bag[:6]))
    meant = computer.turn(low)
    assert meant is not None
    assert computer.choose(low, nothing, meant) == c.Pass(turn=meant)


def test_the_computer_decides_only_its_own_turn() -> None:
    table = Table((None, "best"))
    with pytest.raises(ValueError):
        computer.choose(table.game, table.graph, c.Turn(1, 0, 0))  # the person's
    table.person_turn()
    with pytest.raises(ValueError):
        computer.choose(table.game, table.graph, c.Turn(1, 1, 5))  # not this turn


# --- its seat is nobody else's ---------------------------------------------------------------


def test_a_phone_cannot_join_the_computers_seat_and_the_join_form_shows_it_taken() -> None:
    table = Table((None, "easy", None))
    with pytest.raises(GameError) as refused:
        seating.join(table.state, "phone-1", "player", 1, "key")
    assert (refused.value.code, refused.value.params) == (codebook.COMPUTER_SEAT, {"seat": 1})
    assert seating.taken(table.state) == (True, True, False)
    assert seating.computer(table.state, 1) == "easy" and seating.computer(table.state, 2) is None
    assert seating.join(table.state, "phone-2", "player", 2, "key")[0].seat == 2  # type: ignore[attr-defined]


def test_the_host_plays_the_first_seat_the_computer_does_not() -> None:
    table = Table(("good", None), starter=0)
    assert seating.host_seat(table.state) == 1
    assert computer.turn(table.game) == c.Turn(1, 0, 0)  # the computer begins
    table.computer_turn()
    table.person_turn()
    assert table.game.turns == (1, 1)


@pytest.mark.parametrize(
    ("actor", "command", "code"),
    [
        (HOSTING, "pass", codebook.COMPUTER_SEAT),  # the host's phone for the computer
        (Actor("player", 1, "phone-1"), "pass", codebook.COMPUTER_SEAT),  # left from before
        (Actor("player", 1, "phone-1"), "exchange", codebook.COMPUTER_SEAT),
        (player(0), "pass", codebook.NOT_YOUR_SEAT),  # the computer for a person
        (player(1), "undo", codebook.HOST_ONLY),  # it takes turns, nothing else
        (player(1), "end", codebook.HOST_ONLY),
    ],
)
def test_nobody_but_the_computer_plays_its_seat_and_it_plays_nothing_else(
    actor: Actor, command: str, code: str
) -> None:
    table = Table((None, "best"))
    table.person_turn()
    turn = c.Turn(1, 1, 0) if actor.seat == 1 or actor.role == "host" else c.Turn(1, 0, 1)
    commands: dict[str, c.TableCommand] = {
        "pass": c.Pass(turn=turn),
        "exchange": c.Exchange(turn=turn, tiles="A"),
        "undo": c.Undo(last_line=table.state.seq),
        "end": c.EndGame(),
    }
    before = table.state
    with pytest.raises(GameError) as refused:
        table.do(commands[command], actor)
    assert refused.value.code == code and table.state is before


def test_the_computer_takes_no_turn_at_a_table_without_an_online_game() -> None:
    state, _ = record(State(), c.StartGame("nl", players=("A", "B")))
    with pytest.raises(GameError) as refused:
        record(state, c.Pass(turn=c.Turn(1, 1, 0)), actor=player(1))
    assert refused.value.code == codebook.HOST_ONLY


def test_no_device_sees_the_computers_rack_not_even_one_left_at_its_seat() -> None:
    table = Table((None, "good"))
    for seat in (1, None):
        sheet = view(table.state, "member", seat).sheet
        assert sheet is not None and sheet.online is not None
        assert sheet.online.rack is None and sheet.online.seat is None
    own = view(table.state, "member", 0).sheet
    assert own is not None and own.online is not None and own.online.rack is not None


# --- undo ------------------------------------------------------------------------------------


def test_an_undo_takes_back_the_computers_reply_with_the_persons_turn() -> None:
    table = Table((None, "best"))
    table.person_turn()
    at_person = table.state
    table.computer_turn()
    assert table.game.to_move == 0
    undone = table.do(c.Undo(last_line=table.state.seq), HOSTING)
    assert [u.event.line for u in undone] == [3, 2]  # type: ignore[attr-defined]
    game = table.game
    assert game.to_move == 0 and game.turns == (0, 0)
    assert game.online is not None and at_person.steps is not None
    before = reducer.before(at_person.steps)
    assert before is not None and before.online is not None
    assert game.online.racks == before.online.racks and game.online.bag == before.online.bag


def test_an_undo_of_the_computers_first_move_strikes_that_move_alone() -> None:
    table = Table(("best", None))
    table.computer_turn()
    undone = table.do(c.Undo(last_line=table.state.seq), table.host)
    assert [u.event.line for u in undone] == [2]  # type: ignore[attr-defined]
    assert computer.turn(table.game) == c.Turn(1, 0, 0)


def test_an_undo_of_the_end_takes_back_the_persons_turn_with_the_computers_after_it() -> None:
    table = Table((None, "best"))
    while table.game.ended is None:
        if computer.turn(table.game) is None:
            table.person_turn()
        else:
            table.computer_turn()
    end = table.state.seq
    undone = table.do(c.Undo(last_line=end), HOSTING)
    struck = [u.event.line for u in undone]  # type: ignore[attr-defined]
    assert struck[0] == end and len(struck) in (2, 3)
    game = table.game
    assert game.ended is None and game.to_move == 0
    persons = [r for r in table.log if r.seq == struck[-1]]
    assert getattr(persons[0].event, "player", None) == 0  # back to the person's turn
