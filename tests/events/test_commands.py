"""Commands from phones: one of each kind decodes from JSON; unknown fields and wrong types
are refused with msgspec.ValidationError (STYLE: commands use ``forbid_unknown_fields``)."""

import json
import typing

import msgspec
import pytest

from events import commands as c
from events.commands import RackLeft, TypedLetter

DECODES = [
    pytest.param(
        {"type": "start_game", "edition": "nl"},
        c.StartGame("nl", "classic", "house", (None, None), 0, "own_seat"),
        id="start_game-defaults",
    ),
    pytest.param(
        {
            "type": "start_game",
            "edition": "it",
            "mode": "duplicate",
            "rules": "duplicate",
            "players": ["Anna", None, "Carla"],
            "starter": 2,
        },
        c.StartGame("it", "duplicate", "duplicate", ("Anna", None, "Carla"), 2),
        id="start_game",
    ),
    pytest.param(
        {
            "type": "start_game",
            "edition": "woordstrijd",
            "mode": "online",
            "players": [None, "Bo", None, None],
            "move_seconds": 86400,
        },
        c.StartGame("woordstrijd", "online", players=(None, "Bo", None, None), move_seconds=86400),
        id="start_game-online",
    ),
    pytest.param({"type": "new_game"}, c.NewGame(), id="new_game"),
    pytest.param(
        {
            "type": "play",
            "board": {"start": "H7", "direction": "down", "letters": "kAAS"},
            "turn": {"game": 1, "player": 0, "number": 0},
        },
        c.Play(c.BoardMove("H7", "down", "kAAS"), turn=c.Turn(1, 0, 0)),
        id="play",
    ),
    pytest.param(
        {"type": "exchange", "tiles": "QX?", "turn": {"game": 1, "player": 1, "number": 3}},
        c.Exchange(turn=c.Turn(1, 1, 3), tiles="QX?"),
        id="exchange-tiles",
    ),
    pytest.param(
        {
            "type": "record_move",
            "board": {"start": "H4", "direction": "across", "letters": "PLANK"},
        },
        c.RecordMove(c.BoardMove("H4", "across", "PLANK")),
        id="record_move-board",
    ),
    pytest.param(
        {
            "type": "record_move",
            "player": 1,
            "typed": [[["B"], ["O"], ["E"], ["K", "3L"]], [["K", "3L"], ["A", None, True]]],
        },
        c.RecordMove(
            typed=(
                (TypedLetter("B"), TypedLetter("O"), TypedLetter("E"), TypedLetter("K", "3L")),
                (TypedLetter("K", "3L"), TypedLetter("A", None, True)),
            ),
            player=1,
        ),
        id="record_move-typed",
    ),
    pytest.param({"type": "enter_points", "points": 2000}, c.EnterPoints(2000), id="enter_points"),
    pytest.param({"type": "pass"}, c.Pass(), id="pass"),
    pytest.param({"type": "pass", "player": 1}, c.Pass(1), id="pass-player"),
    pytest.param(
        {"type": "pass", "turn": {"game": 1, "player": 1, "number": 4}},
        c.Pass(turn=c.Turn(1, 1, 4)),
        id="pass-turn",
    ),
    pytest.param({"type": "undo", "last_line": 7}, c.Undo(7), id="undo-last_line"),
    pytest.param({"type": "new_game", "game": 3}, c.NewGame(3), id="new_game-game"),
    pytest.param(
        {"type": "set_writers", "writers": "scorekeeper"},
        c.SetWriters("scorekeeper"),
        id="set_writers",
    ),
    pytest.param({"type": "admit_device", "device": "d1"}, c.AdmitDevice("d1"), id="admit"),
    pytest.param({"type": "remove_device", "device": "d1"}, c.RemoveDevice("d1"), id="remove"),
    pytest.param({"type": "add_player", "name": "Anna"}, c.AddPlayer("Anna"), id="add_player"),
    pytest.param(
        {"type": "rename_player", "player": 3, "name": "Anna B"},
        c.RenamePlayer(3, "Anna B"),
        id="rename_player",
    ),
    pytest.param({"type": "remove_player", "player": 3}, c.RemovePlayer(3), id="remove_player"),
    pytest.param({"type": "set_entries", "until": 5}, c.SetEntries(5), id="set_entries"),
    pytest.param(
        {"type": "appoint_director", "device": "d1"}, c.AppointDirector("d1"), id="appoint"
    ),
    pytest.param(
        {"type": "join_simultaneous", "code": "KTC87X", "game": 1, "centre": "Club A"},
        c.JoinSimultaneous("KTC87X", 1, "Club A"),
        id="join_simultaneous",
    ),
    pytest.param({"type": "exchange"}, c.Exchange(), id="exchange"),
    pytest.param({"type": "withdraw_word", "player": 0}, c.WithdrawWord(0), id="withdraw_word"),
    pytest.param(
        {"type": "challenge", "line": 12, "player": 0}, c.Challenge(12, 0), id="challenge"
    ),
    pytest.param(
        {"type": "give_penalty", "player": 1, "points": 20}, c.GivePenalty(1, 20), id="penalty"
    ),
    pytest.param(
        {"type": "place_tiles", "board": {"start": "F6", "direction": "down", "letters": "KRaN"}},
        c.PlaceTiles(c.BoardMove("F6", "down", "KRaN")),
        id="place_tiles",
    ),
    pytest.param({"type": "clear_board"}, c.ClearBoard(), id="clear_board"),
    pytest.param({"type": "start_game_clock"}, c.StartGameClock(), id="start_game_clock"),
    pytest.param({"type": "pause_game_clock"}, c.PauseGameClock(), id="pause_game_clock"),
    pytest.param(
        {"type": "switch_clock", "turn": {"game": 1, "player": 0, "number": 3}},
        c.SwitchClock(c.Turn(1, 0, 3)),
        id="switch_clock",
    ),
    pytest.param({"type": "call_time", "player": 1}, c.CallTime(1), id="call_time"),
    pytest.param(
        {"type": "call_time", "player": 1, "stage": 2}, c.CallTime(1, 2), id="call_time-figs"
    ),
    pytest.param(
        {"type": "start_game", "edition": "en", "rules": "wespa", "clock_minutes": 1},
        c.StartGame("en", rules="wespa", clock_minutes=1),
        id="start_game-clock",
    ),
    pytest.param(
        {"type": "label_device", "label": "Bas thuis"}, c.LabelDevice("Bas thuis"), id="label"
    ),
    pytest.param({"type": "undo"}, c.Undo(), id="undo"),
    pytest.param({"type": "record_top", "points": 36}, c.RecordTop(points=36), id="record_top"),
    pytest.param(
        {"type": "record_top", "board": {"start": "H4", "direction": "across", "letters": "PLANK"}},
        c.RecordTop(c.BoardMove("H4", "across", "PLANK")),
        id="record_top-board",
    ),
    pytest.param(
        {"type": "correct_cell", "round": 0, "player": None, "points": 24},
        c.CorrectCell(0, None, 24),
        id="correct_cell-top",
    ),
    pytest.param(
        {"type": "correct_cell", "round": 2, "player": 1, "points": None},
        c.CorrectCell(2, 1, None),
        id="correct_cell-empty",
    ),
    pytest.param({"type": "draw_rack", "round": 0}, c.DrawRack(0), id="draw_rack"),
    pytest.param(
        {"type": "set_rack", "rack": "PLANK?E", "force": True},
        c.SetRack("PLANK?E", force=True),
        id="set_rack",
    ),
    pytest.param(
        {
            "type": "submit_slip",
            "word": "PLANk",
            "start": "H4",
            "turn": {"game": 1, "player": 2, "number": 0},
        },
        c.SubmitSlip("PLANk", "H4", turn=c.Turn(1, 2, 0)),
        id="submit_slip",
    ),
    pytest.param({"type": "close_round", "round": 4}, c.CloseRound(4), id="close_round"),
    pytest.param({"type": "start_clock"}, c.StartClock(), id="start_clock"),
    pytest.param({"type": "pause_clock"}, c.PauseClock(), id="pause_clock"),
    pytest.param({"type": "reset_clock"}, c.ResetClock(3), id="reset_clock-default"),
    pytest.param({"type": "reset_clock", "minutes": 1}, c.ResetClock(1), id="reset_clock"),
    pytest.param(
        {"type": "end_game", "racks": [[], ["ZA"], [None, 6]]},
        c.EndGame((RackLeft(), RackLeft("ZA"), RackLeft(points=6))),
        id="end_game",
    ),
]


def test_examples_cover_every_command_kind() -> None:
    kinds = {type(p.values[1]) for p in DECODES}
    assert kinds == set(typing.get_args(c.TableCommand))


@pytest.mark.parametrize(("doc", "expected"), DECODES)
def test_decode_reads_every_command_kind(doc: dict, expected: c.Command) -> None:
    assert c.decode(json.dumps(doc)) == expected
    assert c.decode(json.dumps(doc).encode()) == expected


@pytest.mark.parametrize(("doc", "expected"), DECODES)
def test_decode_round_trips_the_encoded_command(doc: dict, expected: c.Command) -> None:
    assert c.decode(msgspec.json.encode(expected)) == expected


UNKNOWN = [
    pytest.param({"type": "pass", "player": 0, "force": True}, id="top-level"),
    pytest.param({"type": "undo", "line": 4}, id="undo-line"),
    pytest.param({"type": "enter_points", "points": 5, "id": "c-1"}, id="enter_points"),
    pytest.param(
        {
            "type": "record_move",
            "board": {"start": "H4", "direction": "across", "letters": "PLANK", "score": 999},
        },
        id="nested-board",
    ),
    pytest.param(
        {"type": "record_move", "typed": [[["A", None, False, "junk"]]]},
        id="nested-typed-letter",
    ),
    pytest.param({"type": "end_game", "racks": [["ZA", None, 5], []]}, id="nested-rack"),
    pytest.param({"type": "start_game", "edition": "nl", "seats": 2}, id="start_game"),
    pytest.param(
        {
            "type": "play",
            "board": {"start": "H8", "direction": "across", "letters": "AB"},
            "seed": "00",
        },
        id="play-seed",
    ),
    pytest.param({"type": "pass", "timed_out": True}, id="pass-timed_out"),
]


@pytest.mark.parametrize("doc", UNKNOWN)
def test_decode_refuses_unknown_fields(doc: dict) -> None:
    with pytest.raises(msgspec.ValidationError):
        c.decode(json.dumps(doc))


WRONG = [
    pytest.param({"type": "enter_points", "points": "12"}, id="points-text"),
    pytest.param({"type": "enter_points", "points": 12.5}, id="points-float"),
    pytest.param({"type": "enter_points"}, id="points-missing"),
    pytest.param({"type": "give_penalty", "points": 10}, id="penalty-player-missing"),
    pytest.param({"type": "pass", "player": "1"}, id="player-text"),
    pytest.param({"type": "start_game"}, id="edition-missing"),
    pytest.param({"type": "start_game", "edition": "nl", "mode": "blitz"}, id="mode"),
    pytest.param({"type": "start_game", "edition": "nl", "players": "Anna"}, id="players"),
    pytest.param(
        {
            "type": "record_move",
            "board": {"start": "H4", "direction": "diagonal", "letters": "PLANK"},
        },
        id="direction",
    ),
    pytest.param(
        {"type": "record_move", "board": {"start": "H4", "letters": "PLANK"}},
        id="direction-missing",
    ),
    pytest.param({"type": "record_move", "typed": "PLANK"}, id="typed-text"),
    pytest.param({"type": "record_move", "typed": [[["A", None, "yes"]]]}, id="old-not-bool"),
    pytest.param({"type": "reset_clock", "minutes": 4}, id="minutes-4"),
    pytest.param({"type": "reset_clock", "minutes": 0}, id="minutes-0"),
    pytest.param({"type": "correct_cell", "round": 0, "player": 0}, id="cell-points-missing"),
    pytest.param({"type": "end_game", "racks": "ZA"}, id="racks-text"),
    pytest.param({"type": "end_game", "racks": [[None, "6"]]}, id="rack-points-text"),
    pytest.param({"type": "play"}, id="play-board-missing"),
    pytest.param({"type": "exchange", "tiles": ["Q"]}, id="exchange-tiles-list"),
    pytest.param({"type": "start_game", "edition": "nl", "move_seconds": "60"}, id="seconds"),
    pytest.param({"type": "teleport"}, id="unknown-type"),
    pytest.param({"points": 5}, id="type-missing"),
    pytest.param(["pass"], id="not-an-object"),
]


@pytest.mark.parametrize("doc", WRONG)
def test_decode_refuses_wrong_types(doc: object) -> None:
    with pytest.raises(msgspec.ValidationError):
        c.decode(json.dumps(doc))


def test_decode_refuses_an_event_as_a_command() -> None:
    with pytest.raises(msgspec.ValidationError):
        c.decode(b'{"kind": "pass", "player": 0}')
