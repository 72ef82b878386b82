"""GCG records: real games replay to their own scores; our games write GCG that reads back.

The golden files in ``tests/fixtures/gcg`` are real games from macondo's test data (see the
README there). Every line of each is checked against our scoring, move by move.
"""

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events import commands as c
from events.events import (
    Event,
    GameEnded,
    LineUndone,
    MoveRecorded,
    PenaltyGiven,
    RackLeft,
    Recorded,
    TypedLetter,
    WordWithdrawn,
)
from rules.board.squares import Direction, Square
from rules.errors import GameError, NotationError
from rules.gcg import read as gcg
from rules.gcg.write import to_gcg
from rules.table.decide import MAX_NAME
from rules.table.record import record
from rules.table.reducer import evolve
from rules.table.state import State
from rules.table.views import final

FIXTURES = Path(__file__).parents[2] / "fixtures" / "gcg"


def load(name: str, edition: str | None = None) -> gcg.Imported:
    return gcg.to_events(gcg.read((FIXTURES / name).read_bytes()), edition)


def play(
    *steps: c.TableCommand | Event, skip_refused: bool = False
) -> tuple[State, list[Recorded]]:
    """A table driven by commands, and by events appended as they are (a bonus)."""
    state, log = State(), []
    for step in steps:
        if isinstance(step, Event):
            recorded: tuple[Recorded, ...] = (Recorded(state.seq + 1, step),)
            state = evolve(state, recorded[0])
        else:
            try:
                state, recorded = record(state, step)
            except GameError:
                if not skip_refused:
                    raise
                continue
        log.extend(recorded)
    return state, log


def final_totals(state: State) -> tuple[int, ...]:
    assert state.game is not None
    table = final(state.game)
    return state.game.totals if table is None else tuple(row.final for row in table)


# --- decoding and parsing ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"#player1 ab Al\r\n", "#player1 ab Al\r\n"),
        (b"\xef\xbb\xbf#player1 ab \xc3\x89l", "#player1 ab Él"),  # a BOM
        (b"#player1 c\xe9sar c\xe9sar", "#player1 césar césar"),  # ISO-8859-1, undeclared
        (b"#character-encoding ISO-8859-1\n#t \xe9", "#character-encoding ISO-8859-1\n#t é"),
        (b"#character-encoding UTF-8\n#title \xc3\xa9", "#character-encoding UTF-8\n#title é"),
    ],
)
def test_decode_reads_the_encodings_real_files_use(data: bytes, text: str) -> None:
    assert gcg.decode(data) == text


@pytest.mark.parametrize(
    "data",
    [b"#character-encoding UTF-8\n#title \xe9", b"#character-encoding KLINGON\n#title x"],
)
def test_decode_refuses_bytes_the_declared_encoding_cannot_read(data: bytes) -> None:
    with pytest.raises(gcg.GcgError) as refused:
        gcg.decode(data)
    assert refused.value.code == "gcg_encoding"


@pytest.mark.parametrize(
    ("line", "fields"),
    [
        (
            ">doug: AEJNOSV E3 JAVE..N +34 66",
            {"kind": "move", "rack": "AEJNOSV", "position": "E3", "word": "JAVE..N", "score": 34},
        ),
        (
            ">q: BEDGMNP  7e   BEDIM  +26   66  BE, ET, DO",
            {"kind": "move", "position": "7E", "word": "BEDIM", "total": 66},
        ),
        (">Player_1: AIIIILX - +0 306", {"kind": "pass", "tiles": "", "total": 306}),
        (">x: ABC -0 +0 3", {"kind": "pass", "tiles": "0"}),
        (">1: AJMSUWY -J +0 24", {"kind": "exchange", "tiles": "J"}),
        (">x: ABCDEFG -7 +0 3", {"kind": "exchange", "tiles": "7"}),
        (">emely: DEIILTZ --  -24 55", {"kind": "withdrawn", "score": -24, "total": 55}),
        (">jvc: DIMSTTW (challenge) +5 37", {"kind": "challenge", "score": 5}),
        (">frentz:  (challenge) +5 534", {"kind": "challenge", "rack": ""}),
        (">whatnoloan: NU (time) -10 422", {"kind": "time", "rack": "NU", "score": -10}),
        (">emely:  (OPEG) +14 345", {"kind": "end_bonus", "tiles": "OPEG", "rack": ""}),
        (">úrsula: (DIIT) +10 409", {"kind": "end_bonus", "tiles": "DIIT", "nick": "úrsula"}),
        (">Pakorn: FWLI (FWLI) -10 426", {"kind": "end_penalty", "tiles": "FWLI"}),
    ],
)
def test_entry_reads_every_kind_of_line(line: str, fields: dict[str, Any]) -> None:
    read = gcg.entry(1, line)
    assert {key: getattr(read, key) for key in fields} == fields


@pytest.mark.parametrize(
    "line",
    [
        ">no colon here",
        ">doug: AEJNOSV",
        ">doug: AEJNOSV 8D",
        ">doug: AEJNOSV 8D WINDY",
        ">doug: AEJNOSV 8D WINDY +x 3",
        ">doug: AEJNOSV Z?9 WINDY +3 3",
    ],
)
def test_entry_refuses_a_malformed_line(line: str) -> None:
    with pytest.raises(NotationError) as refused:
        gcg.entry(1, line)
    assert refused.value.code == "gcg_line"


def test_parse_collects_every_problem_and_keeps_the_good_lines() -> None:
    text = "\n".join(
        [
            "#player1 a Ann",
            "#player2 b Bob",
            ">a: WINDY 8D WINDY +32 32",
            "stray words",
            ">b: GALE 7C GALE",
            ">b: GALE 7C GALE +16 16",
            ">a: oops",
        ]
    )
    read = gcg.parse(text)
    assert [problem.line for problem in read.problems] == [4, 5, 7]
    assert [e.number for e in read.entries] == [3, 6]


def test_parse_reads_players_pragmas_and_notes_running_over_lines() -> None:
    text = (
        "#character-encoding UTF-8\r\n#player1 Peter_Armstrong Peter Armstrong\r\n"
        "#player2 Noah Noah\r\n#lexicon CSW19\r\n#note Edition: en\r\n"
        ">Noah: EGHOTTW H3 GHETTO +28 28\r\n#note first line\r\nsecond line\r\n\r\n"
        "third line\r\n>Peter_Armstrong: IP 3H .IP +7 7\r\n"
    )
    read = gcg.parse(text)
    assert read.players == (
        gcg.Player("Peter_Armstrong", "Peter Armstrong"),
        gcg.Player("Noah", "Noah"),
    )
    assert read.pragma("lexicon") == "CSW19"
    assert read.notes == ("Edition: en",)
    assert read.entries[0].note == "first line\nsecond line\nthird line"
    assert read.problems == ()


@pytest.mark.parametrize(
    ("pragmas", "edition"),
    [
        ("#lexicon NWL23", "en"),
        ("#lexicon CSW21", "en"),
        ("#lexicon OSPS44", "pl"),
        ("#lexicon FRA20", "fr"),
        ("#lexicon RD28", "de"),
        ("#lexicon NSF21", None),
        ("#lexicon CSW21\n#note Edition: nl", "nl"),
        ("", None),
    ],
)
def test_edition_of_reads_the_edition_note_then_the_lexicon(
    pragmas: str, edition: str | None
) -> None:
    assert gcg.edition_of(gcg.parse(pragmas)) == edition


# --- golden games -----------------------------------------------------------------------------

GOLDEN = [
    # file, edition, (final totals as the file ends), ended
    ("doug_v_emely.gcg", None, (451, 345), True),  # withdrawn phony, North American end
    ("josh2.gcg", None, (397, 291), True),  # challenge bonuses, a phony, exchange 1
    ("noah_vs_peter.gcg", None, (471, 407), True),  # passes, two phonies
    ("issue_476.gcg", None, (422, 443), True),  # exchanges, a time penalty after the end
    ("polish_endgame.gcg", "pl", (316, 323), True),  # Polish letters, CRLF
    ("utf8_dos.gcg", None, (375, 488), True),  # CRLF, notes over several lines
    ("vs_frentz.gcg", None, (439, 550), True),  # CSW, challenge bonus without a rack
    ("vs_andy.gcg", None, (423, 363), True),  # racks as the tiles played
    ("some_isc_game.gcg", None, (364, 409), True),  # UTF-8 names
    ("incomplete.gcg", None, (336, 298), False),  # unfinished
    ("name_iso8859-1.gcg", None, (32, 16), False),  # an ISO-8859-1 name
]


@pytest.mark.parametrize(("name", "edition", "totals", "ended"), GOLDEN)
def test_golden_game_replays_every_line_to_the_files_scores(
    name: str, edition: str | None, totals: tuple[int, int], ended: bool
) -> None:
    imported = load(name, edition)
    assert imported.problems == ()
    assert [c.entry.number for c in imported.checks if c.differs] == []
    assert len(imported.checks) == len(imported.gcg.entries)
    assert imported.file_totals == imported.totals == totals
    assert (imported.state.game.ended is not None) is ended
    assert not imported.differs


def test_golden_game_in_the_wrong_edition_differs_from_the_first_move() -> None:
    imported = load("polish_endgame.gcg")  # no #lexicon: English values
    first = imported.checks[0]
    assert (first.entry.play, first.entry.score, first.points) == ("8F HUJA", 20, 28)
    assert imported.differs


def test_golden_latin1_names_come_through() -> None:
    assert [p.name for p in load("name_iso8859-1.gcg").players] == ["césar", "hércules"]


def test_a_name_longer_than_a_phone_may_type_comes_through_whole() -> None:
    """A real record named a player in 42 characters; a phone may type 40 (MAX_NAME)."""
    long = "Maximiliaan van der Zwaluwenburg-Oosterhuis"
    assert len(long) > MAX_NAME
    text = f"#player1 max {long}\n#player2 bo Bo\n>max: PLANK H4 PLANK +28 28\n"
    imported = gcg.to_events(gcg.read(text.encode()), "nl")
    assert imported.state.game is not None and imported.state.game.players == (long, "Bo")
    assert imported.state.game.totals == (28, 0) and not imported.problems


def test_golden_withdrawn_word_is_struck_and_costs_the_turn() -> None:
    imported = load("doug_v_emely.gcg")
    kinds = [type(r.event) for r in imported.log[6:9]]
    assert kinds == [MoveRecorded, LineUndone, WordWithdrawn]
    game = imported.state.game
    emely = [line.kind for line in game.lines if line.player == 1]
    assert emely[2:4] == ["withdrawn", "move"]  # TIL.. came off; Z.. is her next turn


def test_golden_end_lines_go_on_the_sheet_and_the_racks_settle_nothing() -> None:
    game = load("doug_v_emely.gcg").state.game
    assert (game.lines[-1].kind, game.lines[-1].player, game.lines[-1].points) == ("bonus", 1, 14)
    assert game.ended == (RackLeft(points=0), RackLeft())
    assert [row.settlement for row in final(game)] == [0, 0]


def test_golden_time_penalty_after_the_end_is_a_penalty_line() -> None:
    game = load("issue_476.gcg").state.game
    assert [(line.kind, line.player, line.points) for line in game.lines[-2:]] == [
        ("bonus", 1, 4),
        ("penalty", 0, -10),
    ]


def test_golden_challenge_bonus_uses_no_turn() -> None:
    game = load("josh2.gcg").state.game
    jvc = [line for line in game.lines if line.player == 0]
    assert [(line.kind, line.points, line.round) for line in jvc[:3]] == [
        ("move", 32, 0),
        ("bonus", 5, 0),  # beside the move it rewards, in the round in play
        ("move", 25, 1),
    ]


# --- replaying files that do not match --------------------------------------------------------

HEADER = "#player1 a Ann\n#player2 b Bob\n"


def test_to_events_checks_every_line_after_a_score_that_differs() -> None:
    imported = gcg.to_events(
        gcg.parse(HEADER + ">a: WINDY 8D WINDY +30 30\n>b: GALE 7C GALE +16 16\n")
    )
    assert [(c.entry.score, c.points, c.entry.total, c.total) for c in imported.checks] == [
        (30, 32, 30, 32),
        (16, 16, 16, 16),
    ]
    assert imported.differs


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (">c: WINDY 8D WINDY +32 32", "no #player line for 'c'"),
        (">a: WINDY 9D WINDY +32 32", "the first move must cover H8 [first_move_off_centre]"),
        (">a: WINDY 8D WIN.Y +32 32", "plays through H7, which is empty"),
        (">a: WINDY 8M WINDY +32 32", "runs off the board"),
        (">a: WINDY -- -32 0", "-- but a has no move to withdraw"),
    ],
)
def test_to_events_reports_a_line_it_cannot_replay_and_goes_on(lines: str, message: str) -> None:
    imported = gcg.to_events(gcg.parse(HEADER + lines + "\n>b: GALE 8G GALE +10 10\n"))
    ((line, problem),) = imported.problems
    assert line == 3 and message in problem
    assert imported.checks[-1].entry.play == "8G GALE"


def test_to_events_lays_a_move_our_rules_refuse_at_the_files_score() -> None:
    imported = gcg.to_events(
        gcg.parse(HEADER + ">a: AB 8A AB +4 4\n>b: GALE 8G GALE +10 10\n")
    )  # 8A misses the centre: recorded anyway, so the board stays the file's
    assert imported.state.game.board["H1"] is not None
    assert imported.checks[0].points is None and imported.differs


def test_to_events_without_player_lines_takes_the_nicks() -> None:
    imported = gcg.to_events(gcg.parse(">x: WINDY 8D WINDY +32 32\n>y: GALE 7C GALE +16 16"))
    assert [p.nick for p in imported.players] == ["x", "y"]
    assert imported.totals == (32, 16) and len(imported.problems) == 1


def test_to_events_reports_a_lexicon_without_an_edition() -> None:
    imported = gcg.to_events(gcg.parse("#lexicon NSF21\n" + HEADER + ">a: AB 8G AB +4 4"))
    message = "no edition known for lexicon NSF21; scored as en"
    assert imported.problems == (gcg.Problem(1, message),)


def test_to_events_refuses_a_file_without_move_lines() -> None:
    with pytest.raises(gcg.GcgError) as refused:
        gcg.to_events(gcg.parse(HEADER))
    assert refused.value.code == "gcg_no_moves"


def test_to_events_starts_with_the_first_player_on_a_move_line() -> None:
    imported = gcg.to_events(gcg.parse(HEADER + ">b: WINDY 8D WINDY +32 32"))
    assert imported.state.game.starter == 1


# --- played-through tiles ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "letters"),
    [("JAVE..N", "JAVEN"), ("JAVE(LI)N", "JAVEN"), ("JAVELIN", "JAVEN"), ("jAVE..n", "jAVEn")],
)
def test_new_tiles_leaves_out_the_tiles_played_through(word: str, letters: str) -> None:
    state, _ = play(
        c.StartGame("en"),
        c.RecordMove(c.BoardMove("H4", "across", "WINDY")),
        c.RecordMove(c.BoardMove("G3", "across", "GALE")),
    )
    assert gcg.new_tiles(state.game.board, Square.parse("C5"), Direction.DOWN, word) == letters


def test_new_tiles_refuses_a_letter_that_is_not_on_the_square() -> None:
    state, _ = play(c.StartGame("en"), c.RecordMove(c.BoardMove("H4", "across", "WINDY")))
    with pytest.raises(NotationError) as refused:
        gcg.new_tiles(state.game.board, Square.parse("G5"), Direction.DOWN, "AX")
    assert refused.value.code == "gcg_through_differs"


# --- writing ----------------------------------------------------------------------------------

SMALL_GAME = """\
#character-encoding UTF-8
#player1 Ann_Lee Ann Lee
#player2 Player_2 Player 2
#note Edition: en
>Ann_Lee: WINDY 8D WINDY +32 32
>Player_2: GALE 7C GALE +16 16
>Ann_Lee: UNKNOWN - +0 32
>Player_2: UNKNOWN -UNKNOWN +0 16
>Ann_Lee: JAVEN E3 JAVE..N +34 66
>Ann_Lee: JAVEN -- -34 32
>Player_2: UNKNOWN - +0 16
>Player_2: UNKNOWN (challenge) +12 28
#note points entered by hand
>Ann_Lee: UNKNOWN (time) -10 22
>Player_2: UNKNOWN (challenge) +5 33
>Ann_Lee: UNKNOWN - +0 22
>Ann_Lee: UNKNOWN (challenge) +11 33
#note typed move: QI
>Player_2: ?I 9H aI +6 39
>Player_2:  (OPEG) +7 46
>Ann_Lee: OPEG (OPEG) -7 26
"""


def small_game() -> tuple[State, list[Recorded]]:
    return play(
        c.StartGame("en", players=("Ann Lee", None)),
        c.RecordMove(c.BoardMove("H4", "across", "WINDY")),
        c.RecordMove(c.BoardMove("G3", "across", "GALE")),
        c.Pass(),
        c.Exchange(),
        c.RecordMove(c.BoardMove("C5", "down", "JAVEN")),
        c.Undo(),
        c.WithdrawWord(),
        c.EnterPoints(12),
        c.GivePenalty(0, 10),
        PenaltyGiven(1, -5),
        c.RecordMove(typed=((TypedLetter("Q"), TypedLetter("I")),)),
        c.RecordMove(c.BoardMove("I8", "across", "aI")),
        c.EndGame((RackLeft("OPEG"), RackLeft())),
    )


def test_to_gcg_writes_every_kind_of_line() -> None:
    state, log = small_game()
    assert to_gcg(log) == SMALL_GAME
    assert final_totals(state) == (26, 46)


def test_to_gcg_re_imports_to_the_same_lines_and_totals() -> None:
    state, log = small_game()
    imported = gcg.to_events(gcg.parse(to_gcg(log)))
    assert not imported.differs
    assert imported.totals == final_totals(state)
    kinds = [line.kind for line in imported.state.game.lines]
    assert kinds[:9] == [
        "move",
        "move",
        "pass",
        "exchange",
        "withdrawn",
        "points",
        "penalty",
        "bonus",
        "points",
    ]


def test_to_gcg_from_the_state_alone_writes_a_withdrawn_word_as_a_pass() -> None:
    state, _ = small_game()
    lines = to_gcg(state).splitlines()
    assert lines[8:10] == [">Ann_Lee: UNKNOWN - +0 32", "#note word withdrawn"]


def test_to_gcg_writes_racks_known_only_as_points() -> None:
    _, log = play(
        c.StartGame("en", players=("a", "b", "c")),
        c.RecordMove(c.BoardMove("H4", "across", "WINDY")),
        c.EndGame((RackLeft(points=4), RackLeft("?K"), RackLeft())),
    )
    assert to_gcg(log).splitlines()[-3:] == [
        ">c:  (K?) +9 9",
        ">a: UNKNOWN (UNKNOWN) -4 28",
        ">b: K? (K?) -5 -5",
    ]


@pytest.mark.parametrize(
    "racks",
    [(RackLeft("K1"), RackLeft()), (RackLeft("A"),), (RackLeft(), RackLeft("B"), RackLeft("A"))],
    ids=["digit-in-rack", "too-few-racks", "too-many-racks"],
)
def test_to_gcg_writes_no_end_lines_for_an_odd_end(racks: tuple[RackLeft, ...]) -> None:
    _, log = play(
        c.StartGame("en", players=("a", "b")),
        c.RecordMove(c.BoardMove("H4", "across", "WINDY")),
        GameEnded(racks),
    )
    assert to_gcg(log).splitlines()[-1] == ">a: WINDY 8D WINDY +32 32"


def test_to_gcg_writes_four_players() -> None:
    _, log = play(c.StartGame("en", players=("a", "b", "a", None)))
    assert to_gcg(log).splitlines()[1:5] == [
        "#player1 a a",
        "#player2 b b",
        "#player3 a_3 a",
        "#player4 Player_4 Player 4",
    ]


@pytest.mark.parametrize(
    ("steps", "code"),
    [((), "gcg_no_game"), ((c.StartGame("en", mode="duplicate"),), "gcg_classic_only")],
)
def test_to_gcg_refuses_what_is_not_a_classic_game(steps: tuple, code: str) -> None:
    _, log = play(*steps)
    with pytest.raises(gcg.GcgError) as refused:
        to_gcg(log)
    assert refused.value.code == code


@pytest.mark.parametrize(("name", "edition", "totals", "ended"), GOLDEN)
def test_to_gcg_of_a_golden_game_re_imports_to_its_totals(
    name: str, edition: str | None, totals: tuple[int, int], ended: bool
) -> None:
    text = to_gcg(load(name, edition).log)
    again = gcg.to_events(gcg.parse(text))  # the edition comes back from the note
    assert not again.differs
    assert again.totals == totals


# Legal moves in order (doug_v_emely without its phony), whoever plays them.
SCRIPT = [
    ("H4", "across", "WINDY"),
    ("G3", "across", "GALE"),
    ("C5", "down", "JAVEN"),
    ("B6", "down", "VOX"),
    ("J2", "across", "DONATES"),
    ("I7", "across", "EAU"),
]


@st.composite
def tables(draw: Any) -> list[c.TableCommand | Event]:
    """A classic game of random turns, penalties, bonuses, withdrawn words and an end."""
    count = draw(st.integers(2, 4))
    steps: list[c.TableCommand | Event] = [
        c.StartGame("en", players=(None,) * count, starter=draw(st.integers(0, count - 1)))
    ]
    moves = iter(SCRIPT)
    player = st.integers(0, count - 1)
    for kind in draw(
        st.lists(
            st.sampled_from(["move", "pass", "exchange", "points", "penalty", "bonus", "phony"]),
            max_size=12,
        )
    ):
        if kind in ("move", "phony"):
            start, way, letters = next(moves, (None, None, None))
            if start is None:
                continue
            steps.append(c.RecordMove(c.BoardMove(start, way, letters)))
            if kind == "phony":
                steps += [c.Undo(), c.WithdrawWord()]
                moves = iter([(start, way, letters), *moves])
        elif kind == "pass":
            steps.append(c.Pass())
        elif kind == "exchange":
            steps.append(c.Exchange())
        elif kind == "points":
            steps.append(c.EnterPoints(draw(st.integers(0, 99))))
        elif kind == "penalty":
            steps.append(c.GivePenalty(draw(player), draw(st.integers(1, 30))))
        else:
            steps.append(PenaltyGiven(draw(player), -draw(st.integers(1, 30))))
    if draw(st.booleans()):
        out = draw(st.none() | player)
        racks = tuple(
            RackLeft() if p == out else RackLeft(draw(st.sampled_from(["Q", "AB?", "ZZ", "?"])))
            for p in range(count)
        )
        steps.append(c.EndGame(racks))
    return steps


@given(tables())
@settings(max_examples=60, deadline=None)
def test_to_gcg_re_imports_any_game_to_its_totals(steps: list[c.TableCommand | Event]) -> None:
    state, log = play(*steps, skip_refused=True)  # an end that needs every rack filled
    text = to_gcg(log)
    if ">" not in text:  # no line on the sheet: nothing to read back
        return
    imported = gcg.to_events(gcg.parse(text))
    assert imported.problems == ()
    assert not [check for check in imported.checks if check.differs]
    assert imported.totals == final_totals(state)
