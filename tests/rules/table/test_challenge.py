"""The challenge (rules/table/challenge.py): the latest move judged against the table's list,
the rule set's consequence recorded as lines in the same append, told as the rule set tells
it, and an undo that strikes the challenge with its consequence and gives the move back.

The lists here are small sets; tests/server/test_challenge.py judges against the real list.
"""

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from editions.errors import GameError
from events import commands as c
from events import events as e
from events.events import Mode, MoveRecorded, Recorded, WordLine
from rules.gcg import read as gcg_read
from rules.gcg import write as gcg_write
from rules.table import challenge, rulesets
from rules.table.permissions import Actor
from rules.table.record import record
from rules.table.reducer import replay
from rules.table.state import State
from rules.table.tracking import track
from rules.table.views import view
from tests.rules.table.games import EDITIONS, Setup, actions, play, without_seq

HOST = Actor("host", None, "host")
ANN, BOB, CAS = (Actor("player", seat, f"d-{seat}") for seat in range(3))
VIEWER = Actor("viewer", None, "d-room")
#: The table's list: KOK is a word, KXK is not.
LISTED = frozenset({"PLANK", "KOK"})
contains: Callable[[str], bool] = LISTED.__contains__


def table(rules: str, points: int = 35, word: str = "KOK", *, players: int = 2) -> State:
    """Ann opened with PLANK for 20 and Bob played ``word`` for ``points`` (typed words, as a
    record holds them: the reducer trusts the points); the next player is to move. Every
    seat has a phone (seq 2 …), so the lines start after them."""
    names = ("Ann", "Bob", "Cas", "Dee")[:players]
    log = [e.GameStarted("nl", Mode.CLASSIC, rules, names)]
    log += [e.DeviceJoined(f"d-{seat}", "player", seat) for seat in range(players)]
    log.append(MoveRecorded(0, 20, (WordLine("PLANK", 20, "… = 20"),)))
    log.append(MoveRecorded(1, points, (WordLine(word, points, f"… = {points}"),)))
    return replay(Recorded(seq, event, at=seq) for seq, event in enumerate(log, 1))


def challenged(state: State, actor: Actor | None = None, line: int | None = None) -> State:
    """The state after Ann (or ``actor``) challenged Bob's move (or line ``line``)."""
    meant = line if line is not None else bobs_move(state)
    challenger = actor.seat if actor is not None else 0
    command = c.Challenge(meant, challenger)
    device = actor.device if actor is not None else ""
    state, _ = record(state, command, actor=actor, device=device, contains=contains, command_id="x")
    return state


def bobs_move(state: State) -> int:
    assert state.game is not None
    return next(line.seq for line in state.game.lines if line.player == 1)


def refusal(state: State, command: c.TableCommand, actor: Actor | None = None) -> str | None:
    """The code ``command`` is refused with, or None when it is recorded."""
    try:
        record(state, command, actor=actor, contains=contains)
    except GameError as error:
        return error.code
    return None


#: rule set, Bob's word, then the events recorded, each line as (kind, player, points), the
#: totals and who is to move. Bob's move is worth 35 (TV-IT-11); Ann challenges.
JUDGED = [
    # Mattel (FED-MAT-06): a bad word is withdrawn, the turn lost; a wrong challenge is free.
    ("house", "KOK", ["challenge"], [], (20, 35), 0),
    ("house", "KXK", ["challenge", "withdrawn"], [("withdrawn", 1, 0)], (20, 0), 0),
    ("pfs", "KOK", ["challenge"], [], (20, 35), 0),  # FED-PFS-09: a 'strata', no points
    ("pfs", "KXK", ["challenge", "withdrawn"], [("withdrawn", 1, 0)], (20, 0), 0),
    # NASPA double challenge: the challenger who was wrong loses the turn.
    ("naspa", "KOK", ["challenge", "pass"], [("pass", 0, 0)], (20, 35), 1),
    ("naspa", "KXK", ["challenge", "withdrawn"], [("withdrawn", 1, 0)], (20, 0), 0),
    # WESPA: the challenged player gets 5 points for a valid play.
    ("wespa", "KOK", ["challenge", "penalty"], [("bonus", 1, 5)], (20, 40), 0),
    ("wespa", "KXK", ["challenge", "withdrawn"], [("withdrawn", 1, 0)], (20, 0), 0),
    # FIGS art. 30, TV-IT-11: 10 % of 35 is 3,5 → 3 for the challenger; 20 % is 7, and the
    # invalid move is withdrawn.
    ("figs", "KOK", ["challenge", "penalty"], [("penalty", 0, -3)], (17, 35), 0),
    (
        "figs",
        "KXK",
        ["challenge", "withdrawn", "penalty"],
        [("withdrawn", 1, 0), ("penalty", 1, -7)],
        (20, -7),
        0,
    ),
    # SBNL III.10: the arbiter checks; a bad word costs its score plus 20 and stays.
    ("sbnl", "KOK", ["challenge"], [], (20, 35), 0),
    ("sbnl", "KXK", ["challenge", "penalty"], [("penalty", 1, -55)], (20, -20), 0),
]


@pytest.mark.parametrize(("rules", "word", "events", "lines", "totals", "to_move"), JUDGED)
def test_each_rule_set_records_its_consequence(
    rules: str,
    word: str,
    events: list[str],
    lines: list[tuple[str, int, int]],
    totals: tuple[int, int],
    to_move: int,
) -> None:
    before = table(rules, word=word)
    actor = HOST if rules == "sbnl" else ANN  # SBNL: only the arbiter checks
    state, log = record(
        before,
        c.Challenge(bobs_move(before), 0),
        actor=actor,
        device=actor.device,
        contains=contains,
    )
    assert [r.event.__struct_config__.tag for r in log] == events
    verdict = log[0].event
    assert isinstance(verdict, e.ChallengeJudged)
    assert (verdict.valid, verdict.bad) == (word in LISTED, "" if word in LISTED else word)
    game = state.game
    assert game is not None
    played = [(line.kind, line.player, line.points) for line in game.lines]
    stays = word in LISTED or rules == "sbnl"
    assert played == [("move", 0, 20), *([("move", 1, 35)] if stays else []), *lines]
    # A penalty or bonus stands in the challenged move's row, not the next round's, whoever
    # pays or earns it (Bob's move is the second of round 1; Ann is to move in round 2).
    assert [line.round for line in game.lines if line.kind in ("penalty", "bonus")] == [
        0 for kind, _, _ in lines if kind in ("penalty", "bonus")
    ]
    assert (game.totals, game.to_move) == (totals, to_move)
    (judged,) = game.challenges
    assert judged.consequences == tuple(r.seq for r in log[1:])
    assert game.warnings == ()


#: TV-D-10 (FED-FIGS-07): moves worth 5, 25 and 4, challenged without ground or invalid.
FIGS_VECTORS = [(5, "KOK", 0, 1), (25, "KOK", 0, 2), (25, "KXK", 1, 5), (4, "KXK", 1, 1)]


@pytest.mark.parametrize(("points", "word", "payer", "penalty"), FIGS_VECTORS)
def test_figs_challenge_penalties_round_half_down_at_least_one(
    points: int, word: str, payer: int, penalty: int
) -> None:
    state = challenged(table("figs", points, word))
    game = state.game
    assert game is not None
    assert (game.lines[-1].kind, game.lines[-1].player) == ("penalty", payer)
    assert game.lines[-1].points == -penalty


def test_a_withdrawn_board_move_leaves_the_board_and_gives_its_tiles_back() -> None:
    state, _ = record(State(), c.StartGame("nl", players=("Ann", "Bob")))
    state, _ = record(state, c.RecordMove(c.BoardMove("H8", "across", "PLANK")))
    opened = view(state)
    state, _ = record(state, c.RecordMove(c.BoardMove("H12", "down", "XK")))  # KXK, through K
    assert state.game is not None and state.game.board is not None
    assert state.game.board["J12"] is not None
    state, log = record(state, c.Challenge(3, 0), contains=contains)
    game = state.game
    assert game is not None and game.board is not None
    assert [r.event.__struct_config__.tag for r in log] == ["challenge", "withdrawn"]
    # The board, the tile panel and the totals as before Bob's move; his turn went by.
    assert game.board.rows() == opened.sheet.board  # type: ignore[union-attr]
    assert track(game) == opened.sheet.tracking  # type: ignore[union-attr]
    assert (game.totals, game.turns, game.to_move) == ((opened.sheet.totals[0], 0), (1, 1), 0)  # type: ignore[union-attr]
    # A board move's words are judged as their tiles lie: PLANK is listed, KXK not.
    (judged,) = game.challenges
    assert (judged.words, judged.bad) == (("KXK",), ("KXK",))


def test_the_view_names_the_bad_words_only_where_the_rule_set_does() -> None:
    for rules, named in (("house", ("KXK",)), ("figs", ("KXK",)), ("wespa", ()), ("naspa", ())):
        state = challenged(table(rules, word="KXK"))
        sheet = view(state, "member").sheet
        assert sheet is not None
        (told,) = sheet.challenges
        assert (told.valid, told.bad, told.words, told.points) == (False, named, ("KXK",), 35)
        # the log keeps them whatever the rule set tells
        assert state.game is not None and state.game.challenges[0].bad == ("KXK",)


# --- refusals ------------------------------------------------------------------------------


def test_only_the_latest_move_with_words_is_challenged() -> None:
    state = table("house")
    move = bobs_move(state)
    assert refusal(state, c.Challenge(move - 1, 1)) == "nothing_to_challenge"  # Ann's: past
    assert refusal(state, c.Challenge(99, 0)) == "nothing_to_challenge"
    after_points, _ = record(state, c.EnterPoints(12))  # Ann's points: no words to judge
    assert refusal(after_points, c.Challenge(after_points.seq, 1)) == "nothing_to_challenge"
    passed, _ = record(state, c.Pass())
    assert refusal(passed, c.Challenge(move, 0)) == "nothing_to_challenge"  # play went on


def test_a_move_is_challenged_once() -> None:
    state = challenged(table("house", players=3), CAS)  # valid: KOK stays, Cas paid nothing
    assert refusal(state, c.Challenge(bobs_move(state), 0)) == "already_challenged"
    before = table("house", word="KXK")
    withdrawn = challenged(before)  # Bob's line is now the withdrawn word's
    assert refusal(withdrawn, c.Challenge(bobs_move(before), 0)) == "already_challenged"


def test_a_player_does_not_challenge_their_own_move() -> None:
    state = table("house")
    assert refusal(state, c.Challenge(bobs_move(state), 1)) == "own_move"


def test_who_may_challenge() -> None:
    state = table("house", players=3)
    move = bobs_move(state)
    assert refusal(state, c.Challenge(move, 0), ANN) is None
    assert refusal(state, c.Challenge(move, 2), CAS) is None  # not to move, but at the table
    assert refusal(state, c.Challenge(move, 1), BOB) == "own_move"
    assert refusal(state, c.Challenge(move, 2), ANN) == "not_your_seat"  # for another seat
    assert refusal(state, c.Challenge(move, 0), VIEWER) == "viewer_read_only"
    assert refusal(state, c.Challenge(move, 2), HOST) is None  # the host names the challenger
    assert refusal(state, c.Challenge(move), HOST) is None  # … or it is the player to move


def test_under_sbnl_no_player_challenges_and_the_arbiter_checks() -> None:
    state = table("sbnl")
    assert refusal(state, c.Challenge(bobs_move(state), 0), ANN) == "no_challenge"
    assert refusal(state, c.Challenge(bobs_move(state)), HOST) is None


@pytest.mark.parametrize(("mode", "rules"), [("online", "online"), ("duplicate", "duplicate")])
def test_online_play_and_duplicate_have_no_challenge(mode: str, rules: str) -> None:
    # Every word is judged as it is played (online) or when the round closes (duplicate).
    start = c.StartGame("nl", mode=mode, players=("Ann", "Bob"))  # type: ignore[arg-type]
    state, _ = record(State(), start, seed="5e" * 16, contains=contains)
    with pytest.raises(GameError) as refused:
        record(state, c.Challenge(1, 0), contains=contains)
    assert (refused.value.code, refused.value.params) == ("no_challenge", {"rules": rules})


# --- undo ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["house", "naspa", "wespa", "figs", "sbnl"])
@pytest.mark.parametrize("word", ["KOK", "KXK"])
def test_an_undo_strikes_the_challenge_with_its_consequence(rules: str, word: str) -> None:
    before = table(rules, word=word)
    after = challenged(before, HOST)
    assert after.game is not None
    together = challenge.struck_with(after.game, after.game.challenges[0].seq)
    assert sorted(together) == list(range(before.seq + 1, after.seq + 1))
    sheet = view(after).sheet
    assert sheet is not None and sheet.last_line_seat is None  # the host's to strike
    undone, log = record(after, c.Undo(last_line=sheet.last_line), command_id="u")
    assert [r.event for r in log] == [e.LineUndone(seq) for seq in together]
    assert without_seq(view(undone)) == without_seq(view(before))


def test_a_seat_does_not_undo_a_challenge_the_host_does() -> None:
    after = challenged(table("house", word="KXK"))  # Bob's word withdrawn: his own line last
    undo = c.Undo(last_line=after.seq)
    assert refusal(after, undo, BOB) == "host_only"
    assert refusal(after, undo, ANN) == "host_only"
    assert refusal(after, undo, HOST) is None


CLASSIC_RULES = ("house", "pfs-house", "pfs", "sbnl", "figs", "wespa", "naspa")

#: Mostly board moves, so that the latest line is often one to challenge.
play_actions = actions(*["board"] * 6, "single", "points", "pass", "penalty", "place")
PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def challenged_games(draw: st.DrawFn) -> tuple[Setup, list, int, bool]:
    """A random game (``tests.rules.table.games``) under any classic rule set, then who
    challenges its latest move (if it is one) and whether the list has every word."""
    rules = draw(st.sampled_from(CLASSIC_RULES))
    players = draw(st.integers(2, rulesets.get(rules).max_players))
    setup = Setup(
        draw(st.sampled_from(EDITIONS)), rules, players, draw(st.integers(0, players - 1))
    )
    drawn = draw(st.lists(play_actions, min_size=4, max_size=20))
    return setup, drawn, draw(st.integers(0, players - 1)), draw(st.booleans())


@PROPERTY
@given(challenged_games())
def test_a_challenge_then_an_undo_leaves_the_sheet_as_before(
    drawn: tuple[Setup, list, int, bool],
) -> None:
    setup, played, challenger, valid = drawn
    before = play(setup, played)
    game = before.game
    assert game is not None
    latest = game.lines[-1] if game.lines else None
    assume(latest is not None and latest.kind == "move" and latest.player != challenger)
    assert latest is not None
    event(f"{setup.rules}, {'valid' if valid else 'invalid'}")
    after, log = record(
        before,
        c.Challenge(latest.seq, challenger),
        contains=lambda _: valid,
        command_id="challenge",
    )
    assert view(replay(log, before)) == view(after)
    assert after.game is not None and after.game.warnings == ()
    tiles = track(after.game)
    board = after.game.board
    assert board is not None
    laid = sum(1 for square, _ in board if square.name not in after.game.unscored)
    assert tiles.not_on_board + laid == after.game.edition.total_tiles  # nothing lost
    sheet = view(after).sheet
    assert sheet is not None
    undone, _ = record(after, c.Undo(last_line=sheet.last_line), command_id="undo")
    assert without_seq(view(undone)) == without_seq(view(before))


# --- the game record -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "letters", "lines"),
    [
        # the phony comes off as real records write it: its move, then "--"
        ("house", "XK", [">Bob: XK L8 .XK +14 14", ">Bob: XK -- -14 0"]),
        # WESPA's 5 points for a valid play: a "(challenge)" line, as in WESPA's own records
        ("wespa", "OK", [">Bob: OK L8 .OK +7 7", ">Bob: UNKNOWN (challenge) +5 12"]),
        # NASPA: the challenger's lost turn is a pass
        ("naspa", "OK", [">Bob: OK L8 .OK +7 7", ">Ann: UNKNOWN - +0 28"]),
    ],
)
def test_a_game_record_writes_the_challenge_and_reads_back_to_the_same_totals(
    rules: str, letters: str, lines: list[str]
) -> None:
    state, log = record(State(), c.StartGame("nl", rules=rules, players=("Ann", "Bob")))
    for command in (
        c.RecordMove(c.BoardMove("H8", "across", "PLANK")),
        c.RecordMove(c.BoardMove("H12", "down", letters)),  # KXK or KOK, through PLANK's K
        c.Challenge(3, 0),
    ):
        state, recorded = record(state, command, contains=contains)
        log += recorded
    text = gcg_write.to_gcg(log)
    assert text.splitlines()[-2:] == lines
    imported = gcg_read.to_events(gcg_read.parse(text))
    assert imported.problems == ()
    assert state.game is not None and imported.totals == state.game.totals
