"""The duplicate director's room in the log: draws, slips private until the close, the
computed top (the generator's best move, the rule set's tie-break), the cells, the solo and
the standings it leaves, and the director's overrides: a typed rack, a typed top, a cell."""

import json

import pytest
from msgspec.structs import replace

import editions
import wordlists
from editions import codebook
from events import commands as c
from events.events import GameEnded, GameStarted, RackDrawn, Recorded, TopRecorded
from rules.board.board import Board
from rules.board.tiles import bag_letter
from rules.errors import GameError
from rules.movegen.moves import generate
from rules.room import racks, slips, tops
from rules.table.decide import decide
from rules.table.permissions import Actor
from rules.table.reducer import evolve, replay
from rules.table.rulesets import RackRule, RoomRules
from rules.table.views import for_seat, view
from tests.rules.room.rooms import GRAPH, HOST, NL, WORDS, Room, plank_room
from wordlists.graph import Graph


def test_the_close_plays_the_generators_best_move_and_judges_every_slip() -> None:
    room = plank_room()
    room.slip(0, "KRAAN", "H8")
    room.slip(1, "KRAAS", "H8")
    (top,) = room(c.CloseRound(1), HOST)
    assert isinstance(top, TopRecorded) and top.computed
    before = plank_room().game.board
    best = generate(before, "RAANKSE", GRAPH)[0]
    assert top.points == best.score
    assert {p.square for p in top.placed} == {sq.name for sq, _ in best.play.tiles}
    assert top.words[0].word == best.word and top.direction == str(best.direction)
    played = room.game.rounds[1]
    assert played.top == best.score and played.computed and played.rack == tuple("RAANKSE")
    assert [(r.player, r.kind) for r in played.results] == [
        (0, "valid"),
        (1, "invalid"),
        (2, "missing"),
    ]
    kraan = before.score(before.place("H8", "down", "RAAN")).total
    assert played.scores == (kraan, 0, 0)
    assert room.game.totals == (28 * 0 + kraan, 0, 0)  # round 1's cells were left empty
    sheet = view(room.state).sheet
    assert sheet is not None
    assert [s.difference for s in sheet.standings] == [kraan - 28 - best.score, -28 - best.score,
                                                       -28 - best.score]  # fmt: skip
    assert room.game.board == before.apply(best.play)  # the top is on the board
    assert room.game.slips == ()  # the next round starts without slips


def test_among_equal_tops_the_rule_set_keeps_the_blank() -> None:
    board = Board.empty(NL)
    graph = Graph.from_words(NL, {"EN", "EEN"})
    moves = generate(board, "EN?", graph)
    tied = [m for m in moves if m.score == moves[0].score]
    assert any(any(t.blank for _, t in m.play.tiles) for m in tied)  # EEN with a blank …
    assert any(t.blank for _, t in moves[0].play.tiles)  # … comes first in the generator
    chosen = tops.top(board, "EN?", graph, RoomRules().top_preference)
    assert chosen is not None and chosen.score == moves[0].score
    assert not any(t.blank for _, t in chosen.play.tiles) and chosen.word == "EN"
    assert chosen == next(m for m in moves if not any(t.blank for _, t in m.play.tiles))
    longest = tops.top(board, "EN?", graph, ("most_tiles",))
    assert longest is not None and len(longest.play.tiles) == 3
    assert tops.top(board, "EN?", graph, ()) == moves[0]  # no preference: the generator's order


def test_a_slip_is_private_until_the_round_closes() -> None:
    room = plank_room()
    room.slip(0, "KRAAN", "H8")
    room.slip(1, "KANS", "H8")
    for seat in (None, 0, 1, 2):
        seen = room.view_json(seat)
        text = json.dumps(seen)
        # Whose slips are in: the director and the room display; a player's phone is sent
        # nothing when another player hands one in.
        assert seen["sheet"]["room"]["slips"] == ([0, 1] if seat is None else [])
        assert ("KRAAN" in text) is (seat == 0)
        assert ("KANS" in text) is (seat == 1)
    mine = room.view_json(0)["sheet"]["room"]["mine"]
    assert mine == {"word": "KRAAN", "start": "H8", "direction": "down", "late": False,
                    "points": mine["points"]}  # fmt: skip
    assert mine["points"] > 0
    room(c.CloseRound(1), HOST)
    for seat in (None, 1, 2):
        text = json.dumps(room.view_json(seat))
        assert "KRAAN" in text and "KANS" in text  # judged, on the sheet for everyone
        assert room.view_json(seat)["sheet"]["room"]["mine"] is None


def test_a_sheet_made_for_one_seat_is_every_seats_own_sheet_with_for_seat() -> None:
    """What a server shares between seats (``views.for_seat``): only the slip differs."""
    room = plank_room()
    room.slip(0, "KRAAN", "H8")
    room.slip(1, "KANS", "H8")
    shared = view(room.state, "member", 0).sheet
    assert shared is not None
    for seat in (None, 1, 2):
        assert for_seat(shared, room.game, seat) == view(room.state, "member", seat).sheet


def test_a_late_slip_is_recorded_and_scores_zero_and_an_on_time_one_stands() -> None:
    room = plank_room()
    room(c.StartClock(), HOST)
    room.slip(0, "KAN", "H8")
    room.at += 180_000  # the clock runs out
    room.slip(1, "KRAAN", "H8")  # late: recorded, scores 0 (FISF: null)
    with pytest.raises(GameError) as refused:
        room.slip(0, "KRAAN", "H8")  # no better slip after the time
    assert refused.value.code == codebook.TIME_UP
    (top,) = room(c.CloseRound(1), HOST)
    assert [(r.kind, r.points > 0) for r in top.results] == [
        ("valid", True),
        ("late", False),
        ("missing", False),
    ]


def test_a_paper_slip_typed_after_the_bell_is_on_time_and_only_the_director_types_one() -> None:
    room = plank_room()
    room(c.StartClock(), HOST)
    room.at += 180_000  # the bell; the director is still typing the slips handed in on paper
    room(c.SubmitSlip("KRAAN", "H8", "down", player=2, paper=True), HOST)
    with pytest.raises(GameError) as refused:
        room(
            c.SubmitSlip("KAN", "H8", "down", turn=room.turn(0), paper=True),
            Actor("player", 0, "d0"),
        )
    assert refused.value.code == codebook.HOST_ONLY
    (top,) = room(c.CloseRound(1), HOST)
    assert (top.results[2].kind, top.results[2].points > 0) == ("valid", True)


def test_a_valid_slip_that_uses_the_whole_rack_carries_its_bingo() -> None:
    room = plank_room()  # PLANK on H4..H8; round 2's rack RAANKSE
    room.slip(0, "PRAANKSE", "H4", "down")  # every tile of the rack under the P
    room.slip(1, "KRAAN", "H8")
    judged = slips.judge(room.game, lambda word: True, RoomRules())  # any word will do here
    assert judged[0].kind == "valid" and 0 < judged[0].bingo < judged[0].points
    assert judged[1].bingo == 0


def test_slips_need_a_rack_a_seat_of_its_own_and_the_open_round() -> None:
    room = Room()
    with pytest.raises(GameError) as refused:
        room.slip(0, "EN", "H8", "across")
    assert refused.value.code == codebook.NO_RACK
    room = plank_room()
    with pytest.raises(GameError) as refused:
        room(c.SubmitSlip("KAN", "H8", "down", turn=room.turn(1)), Actor("player", 0, "d0"))
    assert refused.value.code == codebook.NOT_YOUR_SEAT
    with pytest.raises(GameError) as refused:
        room(c.SubmitSlip("KAN", "H8", "down", turn=c.Turn(1, 0, 0)), Actor("player", 0, "d0"))
    assert refused.value.code == codebook.ROUND_CLOSED
    room(c.SubmitSlip("KAN", "H8", "down", player=2), HOST)  # a paper slip the director types
    assert [s.player for s in room.game.slips] == [2]


@pytest.mark.parametrize(
    "command", [c.DrawRack(), c.SetRack("EEN"), c.CloseRound(0)], ids=lambda x: type(x).__name__
)
def test_draws_and_the_close_are_the_directors(command: c.TableCommand) -> None:
    room = Room()
    with pytest.raises(GameError) as refused:
        room(command, Actor("player", 0, "d0"), seed="s")
    assert refused.value.code == codebook.HOST_ONLY


def test_a_typed_rack_comes_from_the_bag_and_follows_the_rule_unless_forced() -> None:
    room = Room()
    for rack, code in (("QQ", codebook.TILES_NOT_IN_BAG), ("BCDFGHJ", codebook.RACK_RULE),
                       ("AEIOUEA", codebook.RACK_RULE), ("", codebook.TOO_MANY_TILES)):  # fmt: skip
        with pytest.raises(GameError) as refused:
            room(c.SetRack(rack), HOST)
        assert refused.value.code == code
    (drawn,) = room(c.SetRack("BCDFGHJ", force=True), HOST)
    assert isinstance(drawn, RackDrawn) and drawn.typed
    room(c.SetRack("PLANKES"), HOST)  # a typed rack replaces the last
    assert room.game.rounds[0].rack == tuple("PLANKES") and room.game.rounds[0].typed_rack


def test_a_typed_top_of_a_room_round_judges_the_slips_and_must_come_from_the_rack() -> None:
    room = plank_room()
    room.slip(0, "KRAAN", "H8")
    with pytest.raises(GameError) as refused:
        room(c.RecordTop(c.BoardMove("I7", "down", "SQ"), round=1), HOST)
    assert refused.value.code == codebook.TILES_NOT_ON_RACK
    (top,) = room(c.RecordTop(c.BoardMove("H8", "down", "ANS"), round=1), HOST)  # KANS
    assert not top.computed and [r.kind for r in top.results] == ["valid", "missing", "missing"]
    assert room.game.rounds[1].scores[0] == top.results[0].points


def test_the_director_corrects_a_judged_slip_and_undoes_a_close() -> None:
    room = plank_room()
    room.slip(1, "KRAAS", "H8")
    room(c.CloseRound(1), HOST)
    assert room.game.rounds[1].scores[1] == 0
    room(c.CorrectCell(1, 1, 15), HOST)  # the arbiter accepts the word after all
    assert room.game.rounds[1].scores[1] == 15 and room.game.totals[1] == 15
    room(c.Undo(), HOST)  # the correction
    room(c.Undo(), HOST)  # the close: the round is open again with its slips
    assert len(room.game.rounds) == 2 and [s.player for s in room.game.slips] == [1]
    assert room.game.rounds[1].rack == tuple("RAANKSE") and room.game.rounds[1].top is None
    with pytest.raises(GameError) as refused:
        room(c.DrawRack(), HOST, seed="x")  # the round still has its rack
    assert refused.value.code == codebook.RACK_DRAWN


def test_the_solo_is_the_rounds_figure_in_the_total_not_a_line() -> None:
    room = plank_room(rules="duplicate-club")
    room.slip(0, "KRAAN", "H8")
    room.slip(1, "KAN", "H8")
    (top,) = room(c.CloseRound(1), HOST)
    assert [r.solo for r in top.results] == [10, 0, 0]
    kraan = top.results[0].points
    assert room.game.totals[0] == kraan + 10 and room.game.rounds[1].scores[0] == kraan
    assert [r.solo for r in room.game.rounds[1].results] == [10, 0, 0] and room.game.lines == ()
    room(c.Undo(), HOST)
    assert room.game.totals[0] == 0 and room.game.lines == ()


@pytest.mark.parametrize("edition", ["nl", "fr", "pl"])
def test_a_whole_game_of_draws_and_computed_tops_ends_when_no_rack_can_be_drawn(
    edition: str,
) -> None:
    lexicon = wordlists.get(edition)
    state = replay([Recorded(1, GameStarted(edition, "duplicate", "duplicate", ("Ann",)))])
    rule = RackRule()
    kind = racks.kinds(editions.get(edition), rule)
    for number in range(40):
        (drawn,) = decide(state, c.DrawRack(number), seed=f"seed {number}")
        state = evolve(state, Recorded(state.seq + 1, drawn))
        if isinstance(drawn, GameEnded):
            break
        rack = state.game.rounds[-1].rack
        assert racks.passes(kind, [bag_letter(t) for t in rack], 2 if number < 15 else 1) or (
            racks.minimum(rule, kind, number + 1, (*racks.kept(state.game),
                          *racks.in_bag(state.game, racks.kept(state.game)))) == 1)  # fmt: skip
        searched = tops.needed(state, c.CloseRound(number))
        assert searched is not None
        top = tops.find(searched, lexicon.graph)
        events = decide(state, c.CloseRound(number), contains=lexicon.contains, top=top)
        best = generate(state.game.board, "".join(rack), lexicon.graph)
        assert events[0].points == (best[0].score if best else 0)
        for event in events:
            state = evolve(state, Recorded(state.seq + 1, event))
    game = state.game
    assert game.ended is not None and game.warnings == ()
    held = racks.kept(game)
    left = (*held, *racks.in_bag(game, held))
    assert racks.minimum(rule, kind, len(game.rounds), left) is None
    assert view(state).sheet.room.minimum is None


def test_replaying_the_log_gives_the_same_racks_tops_and_standings() -> None:
    room = Room(2)
    for number in range(4):
        room(c.DrawRack(number), HOST, seed=f"seed {number}")
        room(c.CloseRound(number), HOST)
    again = replay(room.log)
    assert again == room.state
    assert [r.rack for r in again.game.rounds] == [r.rack for r in room.game.rounds]
    assert view(again) == view(room.state)


def test_the_close_takes_the_top_the_shell_found_for_the_round_and_searches_nothing() -> None:
    room = plank_room()
    close = c.CloseRound(1)
    searched = tops.needed(room.state, close)
    assert searched is not None and searched.rack == "RAANKSE"
    assert searched.board == room.game.board
    assert tops.needed(room.state, c.DrawRack(1)) is None  # only a close searches
    with pytest.raises(GameError) as refused:  # no list to find the top with
        decide(room.state, close, contains=WORDS.__contains__)
    assert refused.value.code == codebook.NO_WORD_LIST
    stale = tops.find(replace(searched, rack="PLANKES"), GRAPH)
    with pytest.raises(ValueError, match="not for the round"):
        decide(room.state, close, contains=WORDS.__contains__, top=stale)
    (top,) = decide(room.state, close, contains=WORDS.__contains__, top=tops.find(searched, GRAPH))
    assert isinstance(top, TopRecorded) and top.computed


def test_a_round_without_its_rack_needs_no_top() -> None:
    room = Room()
    assert tops.needed(room.state, c.CloseRound(0)) is None
    with pytest.raises(GameError) as refused:
        room(c.CloseRound(0), HOST)
    assert refused.value.code == codebook.NO_RACK


KAN = (c.TypedLetter("K", old=True), c.TypedLetter("A"), c.TypedLetter("N"))


@pytest.mark.parametrize(
    "command",
    [
        c.RecordTop(points=26, round=1),
        c.RecordTop(typed=(KAN,), round=1),
    ],
    ids=["points", "typed words"],
)
def test_a_rooms_top_is_a_move_on_the_board_not_points_or_loose_words(
    command: c.RecordTop,
) -> None:
    room = plank_room()
    with pytest.raises(GameError) as refused:
        room(command, HOST)
    assert refused.value.code == codebook.TOP_ON_BOARD
    assert len(room.game.rounds) == 2  # the round stays open, the board as it was


def test_a_typed_top_must_make_words_of_the_list_and_names_every_one_it_lacks() -> None:
    room = plank_room()
    with pytest.raises(GameError) as refused:
        room(c.RecordTop(c.BoardMove("H8", "down", "ARS"), round=1), HOST)  # KARS
    assert refused.value.code == codebook.TOP_NOT_IN_LIST
    assert refused.value.params == {"words": "KARS", "count": 1}


def test_a_typed_top_is_played_on_the_board_for_every_phone() -> None:
    room = plank_room()
    before = room.game.board
    room(c.RecordTop(c.BoardMove("H8", "down", "ANS"), round=1), HOST)  # KANS
    after = room.game.board
    assert after != before
    assert "".join(tile.letter for tile in after.word_at("H8", "down")) == "KANS"
    assert room.game.rounds[1].top == room.game.rounds[1].top_words[0].points


@pytest.mark.parametrize(
    "top",
    [
        c.RecordTop(points=50, round=1),
        c.RecordTop(c.BoardMove("H8", "down", "KANS"), round=1),
    ],
)
def test_a_rooms_next_round_takes_no_top_before_its_rack(top: c.RecordTop) -> None:
    """Between two rounds a top typed or laid would close the next round with no rack and
    every player at 0: refused until the rack is drawn or typed."""
    room = Room()
    room(c.SetRack("PLANKES"))
    room(c.RecordTop(c.BoardMove("H4", "across", "PLANK"), round=0))
    with pytest.raises(GameError) as refused:
        room(top, HOST)
    assert refused.value.code == codebook.NO_RACK
    assert [played.top for played in room.game.rounds] == [28, None]


def test_a_rooms_round_clock_waits_for_the_rounds_rack() -> None:
    """Between two rounds (and for good once a simultaneous's window has closed) the clock
    would run for a round nobody can play: refused until the round has its rack."""
    room = Room()
    room(c.SetRack("PLANKES"))
    room(c.StartClock())
    room(c.RecordTop(c.BoardMove("H4", "across", "PLANK"), round=0))
    with pytest.raises(GameError) as refused:
        room(c.StartClock(), HOST)
    assert refused.value.code == codebook.NO_RACK
    assert room.game.clock is not None and room.game.clock.running_since is None
    room(c.SetRack("KANSEN"))
    room(c.StartClock())
    assert room.game.clock.running_since is not None


def test_a_sheet_kept_at_a_table_takes_a_top_as_points_without_racks() -> None:
    room = Room()
    room(c.RecordTop(points=50, round=0), HOST)
    assert room.game.rounds[0].top == 50
