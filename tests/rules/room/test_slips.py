"""A duplicate room's slips: a whole word laid on the board from the rack, and the close's
judgement — valid, a word not in the list, late, missing, typed by hand — with the solo."""

import pytest

import editions
from editions import codebook
from events import commands as c
from events.events import GameStarted, Recorded, SlipScore
from rules.board.board import Board
from rules.errors import GameError
from rules.room import slips
from rules.table.decide import decide
from rules.table.permissions import latest_line
from rules.table.reducer import evolve, replay
from rules.table.rulesets import RoomRules
from rules.table.state import CHECKPOINT, Clock, Game, State
from tests.rules.room.rooms import plank_room
from tests.rules.table.opens import counted_opens

NL = editions.get("nl")
PLANK = Board.empty(NL).apply(Board.empty(NL).place("H4", "across", "PLANK"))  # K on H8
WORDS = {"PLANK", "KRAAN", "KAN", "KANS", "RAS", "RAN"}


def lay(word: str, start: str, direction: str = "down", rack: str = "RAAN?ES") -> list[str]:
    play = slips.lay(PLANK, tuple(rack), word, start, direction)
    return [f"{square.name}{tile.notation}" for square, tile in play.tiles]


def test_a_whole_word_over_a_board_tile_lays_only_the_new_tiles() -> None:
    assert lay("KRAAN", "H8") == ["I8R", "J8A", "K8A", "L8N"]
    assert lay("kRAAN", "H8") == ["I8R", "J8A", "K8A", "L8N"]  # the board's K as typed


def test_a_letter_short_on_the_rack_is_a_blank_where_it_scores_most() -> None:
    laid = lay("KRAAN", "H8", rack="RAN?")
    assert laid in (["I8R", "J8a", "K8A", "L8N"], ["I8R", "J8A", "K8a", "L8N"])
    options = [
        PLANK.score(PLANK.place_tiles([("I8", "R"), ("J8", a), ("K8", b), ("L8", "N")], "down"))
        for a, b in (("a", "A"), ("A", "a"))
    ]
    chosen = slips.lay(PLANK, tuple("RAN?"), "KRAAN", "H8", "down")
    assert PLANK.score(chosen).total == max(o.total for o in options)


@pytest.mark.parametrize(
    ("word", "rack", "read_as"),
    [
        ("kraan", "RAAN?ES", "KRAAN"),  # a keyboard without capitals
        ("Kraan", "RAAN?ES", "KRAAN"),  # one that capitalised the first letter
        ("kraan", "RAN?ES", "KRAAN"),  # the A the rack is short of still its blank
    ],
)
def test_letters_in_lower_case_are_blanks_unless_the_rack_has_too_few(
    word: str, rack: str, read_as: str
) -> None:
    assert lay(word, "H8", rack=rack) == lay(read_as, "H8", rack=rack)


def test_a_letter_in_lower_case_is_a_blank_while_the_rack_has_one_for_it() -> None:
    assert lay("KRAAn", "H8") == ["I8R", "J8A", "K8A", "L8n"]


def test_a_word_in_lower_case_short_on_the_rack_names_the_letters_not_blanks() -> None:
    with pytest.raises(GameError) as refused:
        slips.lay(PLANK, tuple("R"), "kraan", "H8", "down")
    assert refused.value.params == {"tiles": "AAN"}


@pytest.mark.parametrize(
    ("word", "start", "direction", "rack", "code"),
    [
        ("XRAAN", "H8", "down", "RAAN", codebook.SLIP_MISMATCH),  # H8 holds K
        ("LANK", "H5", "across", "LANK", codebook.NOT_WHOLE_WORD),  # P before it
        ("PLAN", "H4", "across", "PLAN", codebook.NOT_WHOLE_WORD),  # K after it
        ("PLANK", "H4", "across", "", codebook.NO_TILES),  # only the board's tiles
        ("KRAAN", "H8", "down", "RAN", codebook.TILES_NOT_ON_RACK),  # one A short, no blank
        ("RAS", "A1", "across", "RAS", codebook.NOT_CONNECTED),
        ("RAS", "O14", "across", "RAS", codebook.OFF_BOARD),
    ],
)
def test_a_slip_that_cannot_be_laid_is_refused_with_its_reason(
    word: str, start: str, direction: str, rack: str, code: str
) -> None:
    with pytest.raises(GameError) as refused:
        slips.lay(PLANK, tuple(rack), word, start, direction)
    assert refused.value.code == code


def test_a_blank_in_a_slip_stands_only_for_a_letter_of_the_set() -> None:
    board = Board.empty(editions.get("pl"))
    with pytest.raises(GameError) as refused:
        slips.lay(board, tuple("?A"), "vA", "H8", "across")  # Polish has no V: never a blank's
    assert refused.value.code == codebook.BLANK_NOT_IN_ALPHABET
    assert refused.value.params == {"letter": "V"}


def test_a_short_rack_names_the_tiles_it_lacks() -> None:
    with pytest.raises(GameError) as refused:
        slips.lay(PLANK, tuple("R"), "KRAAN", "H8", "down")
    assert refused.value.params == {"tiles": "AAN"}


# --- the close's judgement ----------------------------------------------------------------


def room(players: int = 4, rules: str = "duplicate") -> State:
    """A room whose first top laid PLANK and whose open round has the rack RAANKSE."""
    log = [Recorded(1, GameStarted("nl", "duplicate", rules, (None,) * players))]
    state = replay(log)
    for command in (
        c.SetRack("PLANKES"),
        c.RecordTop(c.BoardMove("H4", "across", "PLANK")),
        c.SetRack("RAANKSE"),
    ):
        for event in decide(state, command):
            log.append(Recorded(len(log) + 1, event))
            state = evolve(state, log[-1])
    return state


def slip(state: State, player: int, word: str, start: str, direction: str, at: int = 0) -> State:
    for event in decide(state, c.SubmitSlip(word, start, direction, player), at=at):
        state = evolve(state, Recorded(state.seq + 1, event))
    return state


FISF = RoomRules()


def judge(state: State, rules: RoomRules = FISF) -> tuple[SlipScore, ...]:
    game = state.game
    assert isinstance(game, Game)
    return slips.judge(game, WORDS.__contains__, rules)


def test_every_slip_is_judged_valid_invalid_late_or_missing() -> None:
    state = room()
    assert [t.notation for _, t in state.game.board][:5] == list("PLANK")
    state = slip(state, 0, "KRAAN", "H8", "down")  # in the list
    state = slip(state, 1, "KRAAS", "H8", "down")  # not in the list
    state = replace_clock(state, Clock(180, 0))  # the clock has run out
    state = slip(state, 2, "KANS", "H8", "down")  # in the list, but late
    judged = judge(state)
    kraan = PLANK.score(PLANK.place("H8", "down", "RAAN")).total
    assert judged == (
        SlipScore(0, kraan, "valid", "KRAAN", "H8", "down"),
        SlipScore(1, 0, "invalid", "KRAAS", "H8", "down", bad="KRAAS"),
        SlipScore(2, 0, "late", "KANS", "H8", "down"),
        SlipScore(3, 0, "missing"),
    )


def test_the_rules_give_the_points_of_an_invalid_a_late_and_a_missing_slip() -> None:
    state = slip(room(3), 0, "KRAAS", "H8", "down")
    state = slip(replace_clock(state, Clock(180, 0)), 1, "KANS", "H8", "down")
    rules = RoomRules(invalid=-5, late_points=-2, missing=-1)
    assert [(s.kind, s.points) for s in judge(state, rules)] == [
        ("invalid", -5),
        ("late", -2),
        ("missing", -1),
    ]


def test_a_cell_typed_by_hand_without_a_slip_is_kept() -> None:
    state = room(2)
    for event in decide(state, c.EnterPoints(17, 1)):
        state = evolve(state, Recorded(state.seq + 1, event))
    assert judge(state)[1] == SlipScore(1, 17, "entered")


def test_invalid_words_are_all_named_main_and_cross_words() -> None:
    state = slip(room(1), 0, "KRAAS", "H8", "down")
    assert judge(state)[0].bad == "KRAAS"
    state = slip(room(1), 0, "AS", "I7", "across")  # AS across I7, NA down H7 ("N" over A)
    bad = judge(state)[0].bad.split(", ")
    assert judge(state)[0].kind == "invalid" and set(bad) >= {"AS"}


def test_the_solo_goes_to_the_one_player_alone_at_the_best_score() -> None:
    state = slip(room(3, "duplicate-club"), 0, "KRAAN", "H8", "down")
    state = slip(state, 1, "KAN", "H8", "down")
    club = RoomRules(solo_points=10, solo_players=2)
    judged = judge(state, club)
    assert [s.solo for s in judged] == [10, 0, 0]
    # Two at the best score: no solo.
    state = slip(state, 1, "KRAAN", "H8", "down")
    assert [s.solo for s in judge(state, club)] == [0, 0, 0]
    # Fewer players than the threshold: no solo (the FISF figure is 16).
    assert [s.solo for s in judge(slip(room(3), 0, "KRAAN", "H8", "down"))] == [0, 0, 0]
    assert [s.solo for s in judge(state, RoomRules(solo_points=10, solo_players=16))] == [0] * 3


def test_an_invalid_slip_never_earns_the_solo() -> None:
    state = slip(room(2), 0, "KRAAS", "H8", "down")  # scores more than KAN, but is no word
    state = slip(state, 1, "KAN", "H8", "down")
    judged = judge(state, RoomRules(solo_points=10, solo_players=2))
    assert [(s.kind, s.solo) for s in judged] == [("invalid", 0), ("valid", 10)]


@pytest.mark.parametrize(
    ("clock", "at", "late"),
    [
        (None, 10**9, False),  # no clock
        (Clock(180, 180_000), 10**9, False),  # not started this round
        (Clock(180, 60_000, running_since=1000), 60_999, False),
        (Clock(180, 60_000, running_since=1000), 61_000, True),
        (Clock(180, 0), 0, True),  # stopped at zero
        (Clock(180, 5_000), 10**9, False),  # paused with time left
    ],
)
def test_a_slip_is_late_once_the_clock_has_run_out(
    clock: Clock | None, at: int, late: bool
) -> None:
    game = room(1).game
    assert game is not None
    assert slips.ran_out(replace_game(game, clock), at) is late


def replace_game(game: Game, clock: Clock | None) -> Game:
    from msgspec.structs import replace

    return replace(game, clock=clock)


def replace_clock(state: State, clock: Clock) -> State:
    from msgspec.structs import replace

    assert state.game is not None
    return replace(state, game=replace_game(state.game, clock))


def test_a_round_of_slips_packed_away_is_passed_unopened_by_the_sheets_newest_line() -> None:
    # Slips handed in again and again (each replaces the player's last) write no line: many
    # runs of steps of slips alone, packed as newer ones come (``rules.table.steps``).
    room = plank_room(rules="duplicate-club")
    line = latest_line(room.state)
    for turn in range(4 * CHECKPOINT):
        room.slip(turn % 3, ("KRAAN", "KAN")[turn % 2], "H8")
    with counted_opens() as opened:
        assert latest_line(room.state) == line
        # Only the run that holds the line is opened: the runs of slips are passed by kind.
        assert line is not None and len(opened) == 1 and opened[0] <= line.seq
