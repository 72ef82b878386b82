"""The game clock at a physical table (issue 27; FED-SBNL-03, FED-FIGS-10, FED-PFS-13, the
WESPA and NASPA rules in docs/decisions.md): its length per rule set, whose time runs, the
mover's tap, the host's pause, time called at zero and what running out costs per rule set,
the overtime penalties with the end, and undo, which never winds the clock back."""

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import commands as c
from events import events as e
from rules.errors import GameError
from rules.table import gameclock
from rules.table.permissions import HOST, Actor
from rules.table.record import record
from rules.table.reducer import replay
from rules.table.state import GameClock, State
from rules.table.views import view

T0 = 1_700_000_000_000  # server time (ms) the host starts the clock in these games
S = 1000  # ms
M = 60 * S
HOST_ACTOR = Actor("host", device=HOST)
#: The end of a game of two with nothing left on either rack: no settlement to add.
END = c.EndGame((c.RackLeft(points=0), c.RackLeft(points=0)))


@dataclass
class Table:
    """A game on a table, its log, and the server time of the next command."""

    state: State
    log: list[e.Recorded]

    def do(self, command: c.TableCommand, at: int, actor: Actor | None = None) -> None:
        self.state, made = record(self.state, command, at=at, actor=actor)
        self.log.extend(made)

    def refused(self, command: c.TableCommand, at: int, actor: Actor | None = None) -> GameError:
        with pytest.raises(GameError) as refused:
            record(self.state, command, at=at, actor=actor)
        return refused.value

    @property
    def clock(self) -> GameClock:
        assert self.state.game is not None and self.state.game.game_clock is not None
        return self.state.game.game_clock

    def used(self, at: int) -> tuple[int, ...]:
        """Each player's time used at server time ``at``."""
        assert self.state.game is not None
        clock = gameclock.at_time(self.state.game, at).game_clock
        assert clock is not None
        return clock.used

    def turn(self, points: int, at: int) -> None:
        """The player to move scores ``points``, as their phone names the turn."""
        game = self.state.game
        assert game is not None
        turn = c.Turn(game.started, game.to_move, game.turns[game.to_move])
        self.do(c.EnterPoints(points, turn=turn), at)

    def tap(self, at: int, actor: Actor | None = None) -> None:
        game = self.state.game
        assert game is not None
        turn = c.Turn(game.started, game.to_move, game.turns[game.to_move])
        self.do(c.SwitchClock(turn), at, actor)


def table(rules: str = "house", minutes: int | None = None, players: int = 2) -> Table:
    """A game with a clock of ``minutes`` (the rule set's own when None), not started."""
    names = tuple(f"P{n}" for n in range(players))
    start = c.StartGame("en", rules=rules, players=names, clock_minutes=minutes)
    state, made = record(State(), start, at=T0 - 10 * S)
    return Table(state, list(made))


def running(rules: str = "house", minutes: int | None = 1) -> Table:
    """A two-player game whose clock the host started at ``T0``."""
    played = table(rules, minutes)
    played.do(c.StartGameClock(), T0)
    return played


# --- the clock's length ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "asked", "minutes"),
    [
        pytest.param("house", None, 0, id="house-none"),
        pytest.param("house", 45, 45, id="house-set"),
        pytest.param("pfs-house", None, 0, id="pfs-house-none"),
        pytest.param("sbnl", None, 25, id="FED-SBNL-03-chosen-25"),
        pytest.param("sbnl", 30, 30, id="FED-SBNL-03-tournament-sets-30"),
        pytest.param("sbnl", 0, 0, id="sbnl-off"),
        pytest.param("figs", None, 25, id="FED-FIGS-10"),
        pytest.param("pfs", None, 20, id="FED-PFS-13"),
        pytest.param("wespa", None, 25, id="wespa"),
        pytest.param("naspa", None, 25, id="naspa"),
        pytest.param("house", 1, 1, id="one-minute"),
        pytest.param("house", 180, 180, id="three-hours"),
    ],
)
def test_a_game_gets_its_rule_sets_clock_unless_the_host_sets_one(
    rules: str, asked: int | None, minutes: int
) -> None:
    played = table(rules, asked)
    started = played.log[0].event
    assert isinstance(started, e.GameStarted) and started.clock_minutes == minutes
    game = played.state.game
    assert game is not None
    assert (game.game_clock.minutes if game.game_clock else 0) == minutes
    clock = view(played.state).sheet.game_clock  # type: ignore[union-attr]
    assert (clock.left if clock else ()) == ((minutes * M,) * 2 if minutes else ())
    if minutes:  # a new game of the same players keeps its length
        played.do(c.NewGame(), T0)
        again = played.log[-1].event
        assert isinstance(again, e.GameStarted) and again.clock_minutes == minutes


@pytest.mark.parametrize(
    ("mode", "rules", "minutes", "code"),
    [
        ("classic", "house", 181, "clock_minutes_out_of_range"),
        ("classic", "house", -5, "clock_minutes_out_of_range"),
        ("duplicate", "duplicate", 25, "not_in_mode"),
    ],
)
def test_a_clock_length_out_of_range_or_for_another_mode_is_refused(
    mode: str, rules: str, minutes: int, code: str
) -> None:
    names = (None,) * 2
    command = c.StartGame("en", mode=mode, rules=rules, players=names, clock_minutes=minutes)  # type: ignore[arg-type]
    with pytest.raises(GameError) as refused:
        record(State(), command)
    assert refused.value.code == code


# --- whose time runs -------------------------------------------------------------------------


def test_the_clock_runs_for_the_player_to_move_and_a_recorded_turn_switches_it() -> None:
    played = table("wespa", 25)
    assert played.clock.running is None  # it waits for the host
    played.do(c.StartGameClock(), T0)
    assert played.clock.running == 0
    played.turn(20, T0 + 70 * S)
    assert played.clock.running == 1 and played.used(T0 + 70 * S) == (70 * S, 0)
    played.turn(12, T0 + 100 * S)
    assert played.clock.running == 0 and played.used(T0 + 130 * S) == (100 * S, 30 * S)
    clock = view(played.state).sheet.game_clock  # type: ignore[union-attr]
    assert clock is not None
    assert clock.left == (25 * M - 70 * S, 25 * M - 30 * S)
    assert (clock.running, clock.since) == (0, T0 + 100 * S)


def test_the_movers_tap_switches_the_clock_and_the_turns_line_switches_nothing_more() -> None:
    played = running("house", 10)
    played.tap(T0 + 5 * S)
    assert played.clock.running == 1
    played.turn(20, T0 + 9 * S)  # written four seconds later: Bas's time runs since the tap
    assert played.clock.running == 1 and played.used(T0 + 9 * S) == (5 * S, 4 * S)
    played.turn(7, T0 + 20 * S)  # Bas's own line, without a tap, switches it back
    assert played.clock.running == 0 and played.used(T0 + 20 * S) == (5 * S, 15 * S)


def test_a_tap_waits_for_the_turns_line_before_the_clock_is_tapped_again() -> None:
    played = running("house", 10)
    game = played.state.game
    assert game is not None
    named = c.Turn(game.started, 0, 0)
    played.do(c.SwitchClock(named), T0 + 5 * S)
    # Bas is done before Anna's move is on the sheet: his tap must wait for it.
    assert played.refused(c.SwitchClock(), T0 + 8 * S).code == "not_to_move"
    played.turn(20, T0 + 9 * S)
    # A second tap of the turn that is on the sheet now: that turn was recorded.
    assert played.refused(c.SwitchClock(named), T0 + 10 * S).code == "turn_taken"
    assert played.clock.running == 1


def test_the_host_pauses_and_starts_the_clock_again() -> None:
    played = running("house", 10)
    played.do(c.PauseGameClock(), T0 + 10 * S)
    assert played.clock.running is None and played.clock.paused
    assert played.refused(c.PauseGameClock(), T0 + 11 * S).code == "clock_not_running"
    assert played.refused(c.SwitchClock(), T0 + 11 * S).code == "clock_not_running"
    played.turn(3, T0 + 20 * S)  # a turn written in the pause: the clock stays still
    assert played.used(T0 + 40 * S) == (10 * S, 0)
    played.do(c.StartGameClock(), T0 + 40 * S)
    assert played.refused(c.StartGameClock(), T0 + 41 * S).code == "clock_running"
    assert played.clock.running == 1 and played.used(T0 + 45 * S) == (10 * S, 5 * S)


@pytest.mark.parametrize(
    ("command", "actor", "code"),
    [
        pytest.param(c.StartGameClock(), Actor("player", 0, "d0"), "host_only", id="resume"),
        pytest.param(c.PauseGameClock(), Actor("player", 0, "d0"), "host_only", id="pause"),
        pytest.param(c.SwitchClock(), Actor("player", 1, "d1"), "not_your_clock", id="tap"),
        pytest.param(c.SwitchClock(), Actor("viewer", None, "v"), "viewer_read_only", id="view"),
        pytest.param(c.CallTime(0), Actor("viewer", None, "v"), "viewer_read_only", id="call"),
    ],
)
def test_who_may_do_what_with_the_clock(command: c.TableCommand, actor: Actor, code: str) -> None:
    played = running("house", 10)
    if isinstance(command, c.StartGameClock):
        played.do(c.PauseGameClock(), T0 + S)
    assert played.refused(command, T0 + 2 * S, actor).code == code


@pytest.mark.parametrize(
    ("writers", "seat", "code"),
    [
        pytest.param("own_seat", 1, None, id="the-opponent-starts-the-movers-time"),
        pytest.param("own_seat", 0, "others_start_clock", id="not-the-mover-its-own"),
        pytest.param("scorekeeper", 0, None, id="one-scorekeeper-starts-anyones"),
    ],
)
def test_another_player_starts_the_movers_time(writers: str, seat: int, code: str | None) -> None:
    played = table("wespa")  # Anna (seat 0) is to move
    played.do(c.SetWriters(writers), T0)
    actor = Actor("player", seat, f"d{seat}")
    if code is not None:
        refused = played.refused(c.StartGameClock(), T0 + S, actor)
        assert (refused.code, refused.params) == (code, {"player": 0})
        return
    played.do(c.StartGameClock(), T0 + S, actor)
    assert played.clock.started and played.clock.running == 0
    assert played.used(T0 + 11 * S) == (10 * S, 0)


def test_a_start_that_comes_second_hears_the_clock_runs_whoever_sent_it() -> None:
    # Two phones tap Start at once (the host and Bas, or Bas and the mover's stale screen):
    # the second is told the clock runs, not that it may not start it.
    played = table("wespa")
    played.do(c.StartGameClock(), T0, Actor("player", 1, "d1"))
    for actor in (Actor("player", 1, "d1"), Actor("player", 0, "d0"), HOST_ACTOR):
        assert played.refused(c.StartGameClock(), T0 + S, actor).code == "clock_running"


def test_a_pause_and_the_start_after_it_stay_the_hosts() -> None:
    played = table("wespa")
    played.do(c.StartGameClock(), T0, Actor("player", 1, "d1"))
    played.do(c.PauseGameClock(), T0 + S)
    for seat in (0, 1):
        refused = played.refused(c.StartGameClock(), T0 + 2 * S, Actor("player", seat, "d"))
        assert refused.code == "host_only"
    played.do(c.StartGameClock(), T0 + 3 * S)
    assert played.clock.running == 0


def test_the_seat_whose_time_runs_or_the_host_taps_and_any_seat_calls_the_time() -> None:
    played = running("house", 1)
    played.tap(T0 + S, Actor("player", 0, "d0"))
    played.turn(5, T0 + 2 * S)
    played.tap(T0 + 3 * S, HOST_ACTOR)  # the arbiter may tap for Bas
    assert played.clock.running == 0
    played.do(c.CallTime(0), T0 + 3 * S + M, Actor("player", 1, "d1"))
    assert played.clock.called == (1, 0)


def test_a_game_without_a_clock_refuses_its_commands() -> None:
    played = table("house")
    for command in (c.StartGameClock(), c.PauseGameClock(), c.SwitchClock(), c.CallTime(0)):
        assert played.refused(command, T0).code == "no_clock"


# --- time called and what it costs -----------------------------------------------------------


def test_time_is_called_when_the_servers_clock_agrees_and_once() -> None:
    played = running("house", 1)
    assert played.refused(c.CallTime(0), T0 + M - 1).code == "not_due"
    assert played.refused(c.CallTime(1), T0 + 2 * M).code == "not_due"  # Bas's does not run
    played.do(c.CallTime(0), T0 + M)
    assert played.log[-1].event == e.TimeRanOut(0, T0 + M)
    assert played.refused(c.CallTime(0), T0 + M + S).code == "time_called"
    assert played.refused(c.CallTime(0, stage=2), T0 + 5 * M).code == "not_due"  # not FIGS
    # House rules: running out is only said, the clock runs on below zero.
    assert played.clock.running == 0 and played.used(T0 + 2 * M) == (2 * M, 0)


# rule set, whose time runs out, (running after the call, Anna may move, Bas may move)
CONSEQUENCES = [
    pytest.param("house", (0, True, False), id="house-said"),
    pytest.param("wespa", (0, True, False), id="wespa-runs-on"),
    pytest.param("sbnl", (None, False, False), id="FED-SBNL-03-loss"),
    pytest.param("pfs", (1, False, True), id="FED-PFS-13-stops"),
    pytest.param("figs", (0, True, False), id="FED-FIGS-10-extra-minute"),
]


@pytest.mark.parametrize(("rules", "after"), CONSEQUENCES)
def test_what_running_out_does_per_rule_set(
    rules: str, after: tuple[int | None, bool, bool]
) -> None:
    played = running(rules, 1)
    played.do(c.CallTime(0), T0 + M + 500)
    runs, anna_moves, bas_moves = after
    assert played.clock.running == runs
    game = played.state.game
    assert game is not None
    assert game.to_move == (1 if bas_moves else 0)
    moved = played.refused(c.EnterPoints(5, player=0), T0 + M + S) if not anna_moves else None
    assert moved is None or (moved.code, moved.params) == ("out_of_time", {"player": 0})
    if bas_moves:  # PFS: Bas plays on, turn after turn; his time alone runs
        played.turn(10, T0 + M + 10 * S)
        played.turn(10, T0 + M + 20 * S)
        assert [line.player for line in played.state.game.lines] == [1, 1]  # type: ignore[union-attr]
        assert played.clock.running == 1


def test_figs_extra_minute_then_the_game_is_lost() -> None:
    played = running("figs", 1)
    played.do(c.CallTime(0), T0 + M)
    assert played.refused(c.CallTime(0, stage=2), T0 + 2 * M - 1).code == "not_due"
    played.do(c.CallTime(0, stage=2), T0 + 2 * M)
    assert played.clock.running is None
    assert played.refused(c.Pass(player=0), T0 + 2 * M).code == "out_of_time"
    assert played.refused(c.StartGameClock(), T0 + 2 * M).code == "clock_running"


def test_pfs_both_players_out_of_time_stops_the_clock_and_every_turn() -> None:
    played = running("pfs", 1)
    played.do(c.CallTime(0), T0 + M)
    played.do(c.CallTime(1), T0 + 2 * M)
    assert played.clock.running is None
    for seat in (0, 1):
        assert played.refused(c.Pass(player=seat), T0 + 3 * M).code == "out_of_time"
    clock = view(played.state).sheet.game_clock  # type: ignore[union-attr]
    assert clock is not None and clock.stopped == (True, True) and clock.lost == (False, False)


def test_pfs_a_tap_with_nobody_else_in_time_is_refused_and_the_time_runs_on() -> None:
    # Anna ran out before her first move: Bas plays on, and his tap would hand the clock to
    # nobody but himself. It is refused naming who is out, and records nothing.
    played = running("pfs", 1)
    played.do(c.CallTime(0), T0 + M)
    assert played.state.game is not None and played.state.game.to_move == 1
    for actor in (Actor("player", 1, "d1"), HOST_ACTOR):
        game = played.state.game
        turn = c.Turn(game.started, 1, game.turns[1])
        refused = played.refused(c.SwitchClock(turn), T0 + M + 5 * S, actor)
        assert (refused.code, refused.params) == ("out_of_time", {"player": 0})
    played.turn(10, T0 + M + 10 * S)  # his own line: his time still runs, his turn again
    assert played.clock.running == 1 and played.state.game.to_move == 1
    assert played.used(T0 + M + 20 * S) == (M, 20 * S)
    clock = view(played.state).sheet.game_clock  # type: ignore[union-attr]
    assert clock is not None and clock.stopped == (True, False) and clock.running == 1


def test_stage_two_called_at_once_records_both_stages() -> None:
    played = running("figs", 1)
    played.do(c.CallTime(0, stage=2), T0 + 3 * M)
    assert [r.event for r in played.log[-2:]] == [
        e.TimeRanOut(0, T0 + 3 * M, 1),
        e.TimeRanOut(0, T0 + 3 * M, 2),
    ]


# --- the end ---------------------------------------------------------------------------------

# rule set, Anna's time over at the end (ms), the overtime penalties recorded with the end
OVERTIME = [
    pytest.param("wespa", 1, [(0, 10, 1)], id="wespa-a-moment-is-a-started-minute"),
    pytest.param("wespa", M, [(0, 10, 1)], id="wespa-one-minute"),
    pytest.param("naspa", M + 1, [(0, 20, 2)], id="naspa-into-the-second-minute"),
    pytest.param("wespa", 0, [], id="wespa-in-time"),
    pytest.param("figs", 1, [(0, 30, 1)], id="FED-FIGS-10-extra-minute"),
    pytest.param("figs", M, [(0, 30, 1), (0, 50, 2)], id="FED-FIGS-10-extra-minute-out"),
    pytest.param("sbnl", 5 * M, [], id="FED-SBNL-03-no-time-points"),
    pytest.param("pfs", 5 * M, [], id="FED-PFS-13-no-time-points"),
    pytest.param("house", 5 * M, [], id="house"),
]


@pytest.mark.parametrize(("rules", "over", "penalties"), OVERTIME)
def test_the_overtime_penalties_are_recorded_with_the_end(
    rules: str, over: int, penalties: list[tuple[int, int, int]]
) -> None:
    played = running(rules, 1)
    played.do(END, T0 + M + over)
    given = [r.event for r in played.log if isinstance(r.event, e.PenaltyGiven)]
    assert [(p.player, p.points, p.overtime) for p in given] == penalties
    assert isinstance(played.log[-1].event, e.GameEnded)  # the penalties come first
    assert played.clock.running is None
    final = view(played.state).sheet.final  # type: ignore[union-attr]
    assert final is not None
    assert final[0].overtime == -sum(points for _, points, _ in penalties)
    assert final[0].final == -sum(points for _, points, _ in penalties)


@pytest.mark.parametrize(
    ("rules", "over", "lost"),
    [
        pytest.param("sbnl", 1, True, id="FED-SBNL-03"),
        pytest.param("figs", M - 1, False, id="FED-FIGS-10-in-the-extra-minute"),
        pytest.param("figs", M, True, id="FED-FIGS-10-extra-minute-out"),
        pytest.param("wespa", 10 * M, False, id="wespa-pays-in-points"),
    ],
)
def test_the_final_table_places_a_player_lost_on_time_last(
    rules: str, over: int, lost: bool
) -> None:
    played = running(rules, 1)
    played.turn(300, T0 + 10 * S)
    played.turn(5, T0 + 20 * S)
    played.do(END, T0 + M + 10 * S + over)  # Anna's time over by ``over`` at the end
    final = view(played.state).sheet.final  # type: ignore[union-attr]
    assert final is not None
    assert [row.lost_on_time for row in final] == [lost, False]
    assert [row.place for row in final] == ([2, 1] if lost else [1, 2])


def test_an_undone_end_takes_its_penalties_and_the_next_end_charges_once() -> None:
    played = running("wespa", 1)
    played.do(END, T0 + M + 30 * S)
    undo = played.state.seq
    played.do(c.Undo(), T0 + M + 40 * S)
    assert [r.event for r in played.log[undo:]] == [e.LineUndone(undo), e.LineUndone(undo - 1)]
    assert played.state.game is not None and played.state.game.totals == (0, 0)
    assert played.clock.running == 0  # the game goes on, and Anna's time with it
    played.do(END, T0 + 2 * M + 30 * S)
    assert played.state.game.totals == (-20, 0)  # two started minutes, once


# --- undo never winds the clock back ---------------------------------------------------------


def test_an_undone_turn_gives_the_clock_back_to_its_player_with_the_time_used_kept() -> None:
    played = running("house", 10)
    played.turn(20, T0 + 10 * S)
    played.do(c.Undo(), T0 + 30 * S)  # Bas's twenty seconds stay his
    assert played.clock.running == 0 and played.used(T0 + 30 * S) == (10 * S, 20 * S)
    assert played.state == replay(played.log)


def test_an_undone_turn_the_mover_tapped_for_leaves_the_clock_with_the_next_player() -> None:
    played = running("house", 10)
    played.tap(T0 + 10 * S)
    played.turn(20, T0 + 12 * S)
    played.do(c.Undo(), T0 + 30 * S)  # the score is written again; Bas is thinking
    assert played.clock.running == 1 and played.used(T0 + 30 * S) == (10 * S, 20 * S)
    played.turn(21, T0 + 35 * S)
    assert played.clock.running == 1 and played.used(T0 + 40 * S) == (10 * S, 30 * S)


def test_an_undo_replays_later_clock_events_without_winding_back() -> None:
    played = running("house", 10)
    played.turn(20, T0 + 10 * S)
    played.do(c.PauseGameClock(), T0 + 15 * S)  # a clock event after the line undone
    played.do(c.Undo(), T0 + 50 * S)
    assert played.clock.paused and played.clock.running is None
    assert played.used(T0 + 60 * S) == (10 * S, 5 * S)
    assert played.state.game is not None and played.state.game.warnings == ()
    played.do(c.StartGameClock(), T0 + 60 * S)
    assert played.clock.running == 0


# --- invariants ------------------------------------------------------------------------------

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ACTS = st.sampled_from(["line", "tap", "pause", "start", "undo", "call", "end", "penalty"])


@PROPERTY
@given(
    rules=st.sampled_from(["house", "wespa", "sbnl", "figs", "pfs"]),
    steps=st.lists(st.tuples(ACTS, st.integers(0, 90 * S)), max_size=40),
)
def test_time_used_is_never_negative_and_adds_up_to_the_time_the_clock_ran(
    rules: str, steps: list[tuple[str, int]]
) -> None:
    played = running(rules, 1)
    at, ran = T0, 0
    for act, gap in steps:
        was = played.state
        going = played.clock.running is not None
        at += gap
        commands: dict[str, c.TableCommand] = {
            "line": c.EnterPoints(7),
            "tap": c.SwitchClock(),
            "pause": c.PauseGameClock(),
            "start": c.StartGameClock(),
            "undo": c.Undo(),
            "call": c.CallTime(played.clock.running or 0),
            "end": END,
            "penalty": c.GivePenalty(0, 5),
        }
        command = commands[act]
        ran += gap if going else 0  # the time runs whether the command is taken or not
        try:
            played.do(command, at)
        except GameError:
            continue
        clock = played.clock
        assert all(used >= 0 for used in clock.used)
        assert sum(clock.used) == ran, (act, clock)
        assert clock.since == at or clock.running is None
        if act == "undo":  # an undo changes whose turn it is, never the time used
            before = gameclock.at_time(was.game, at).game_clock  # type: ignore[arg-type]
            assert before is not None and before.used == clock.used
    assert replay(played.log) == played.state


def test_replaying_a_log_with_undos_gives_the_clock_the_fold_gave() -> None:
    played = running("wespa", 1)
    played.turn(10, T0 + 20 * S)
    played.tap(T0 + 50 * S)
    played.do(c.Undo(), T0 + 55 * S)
    played.turn(12, T0 + 60 * S)
    played.do(c.PauseGameClock(), T0 + 61 * S)
    played.do(c.Undo(), T0 + 70 * S)
    again = replay(played.log)
    assert again == played.state
    assert again.game is not None and again.game.game_clock == played.clock
    assert played.used(T0 + 70 * S) == (31 * S, 30 * S)
