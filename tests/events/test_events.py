"""Stored events and their codec (DESIGN "Events"; STYLE "Data, not code").

Every kind round-trips inside a ``Recorded``; a log written by a newer server (unknown
fields, also inside nested array-like structs) stays readable; an old log without the
fields added since decodes with their defaults; wrong types are refused.
"""

import json
import typing

import msgspec
import pytest

from events import events as e

PLANK = (
    e.PlacedTile("H4", "P"),
    e.PlacedTile("H5", "L"),
    e.PlacedTile("H6", "A"),
    e.PlacedTile("H7", "N"),
    e.PlacedTile("H8", "k"),
)
PLANK_WORDS = (e.WordLine("PLANk", 25, "(3 × 2 + 3 + 1 + 1 + 0) × 2 = 25", "H4", "across"),)
BOEK_TYPED = (
    (e.TypedLetter("B"), e.TypedLetter("O"), e.TypedLetter("E"), e.TypedLetter("K", "3L")),
    (
        e.TypedLetter("K", "3L"),
        e.TypedLetter("A", old=True),
        e.TypedLetter("A", old=True),
        e.TypedLetter("S", old=True),
    ),
)

# One example of every kind, with its nested structs filled in where it has any.
EXAMPLES = [
    pytest.param(e.GameStarted("nl", "classic", "sbnl", ("Anna", None), 1), id="game_started"),
    pytest.param(e.GameStarted("pl", "duplicate", "duplicate", (None,)), id="game_started-dup"),
    pytest.param(e.MoveRecorded(0, 25, PLANK_WORDS, 0, PLANK, "across"), id="move-board"),
    pytest.param(
        e.MoveRecorded(
            1,
            27,
            (
                e.WordLine("BOEK", 14, "3 + 1 + 1 + 3 × 3 = 14"),
                e.WordLine("KAAS", 13, "3 × 3 + 1 + 1 + 2 = 13"),
            ),
            typed=BOEK_TYPED,
        ),
        id="move-typed",
    ),
    pytest.param(
        e.GameStarted("woordstrijd", "online", "online", (None, None), 0, "9f" * 16, 86400),
        id="game_started-online",
    ),
    pytest.param(e.PointsEntered(0, 2000), id="points"),
    pytest.param(e.Passed(1), id="pass"),
    pytest.param(e.Passed(0, timed_out=True), id="pass-timed_out"),
    pytest.param(e.Exchanged(0), id="exchange"),
    pytest.param(e.Exchanged(1, tiles="QX?"), id="exchange-tiles"),
    pytest.param(e.WordWithdrawn(1), id="withdrawn"),
    pytest.param(e.PenaltyGiven(0, 20), id="penalty"),
    pytest.param(e.PenaltyGiven(1, -5), id="penalty-bonus"),
    pytest.param(e.PenaltyGiven(1, 7, challenge=12), id="penalty-challenge"),
    pytest.param(e.ChallengeJudged(12, 0, 1, False, "KXK, QI"), id="challenge"),
    pytest.param(e.TilesPlaced(PLANK), id="tiles_placed"),
    pytest.param(e.BoardCleared(), id="board_cleared"),
    pytest.param(e.LineUndone(7), id="undone"),
    pytest.param(e.TopRecorded(28, PLANK_WORDS, PLANK, "down"), id="top-board"),
    pytest.param(e.TopRecorded(36), id="top-points"),
    pytest.param(
        e.TopRecorded(
            28,
            PLANK_WORDS,
            PLANK,
            results=(
                e.SlipScore(0, 28, "valid", "PLANk", "H4", "across", solo=10),
                e.SlipScore(1, 0, "invalid", "PLANQ", "H4", "across", bad="PLANQ"),
                e.SlipScore(2, 0, "missing"),
            ),
            computed=True,
        ),
        id="top-room",
    ),
    pytest.param(e.RackDrawn(0, "PLANK?E", ("QXZWKJY",)), id="rack-drawn"),
    pytest.param(e.RackDrawn(3, "[CH]AO", typed=True), id="rack-typed"),
    pytest.param(e.SlipSubmitted(1, 0, "PLANk", "H4", "across", late=True), id="slip"),
    pytest.param(e.CellCorrected(2, None, 18), id="cell-top"),
    pytest.param(e.CellCorrected(0, 1, None), id="cell-empty"),
    pytest.param(e.ClockStarted(1_700_000_000_000, 180_000), id="clock_started"),
    pytest.param(e.ClockPaused(1_700_000_030_000), id="clock_paused"),
    pytest.param(e.ClockReset(120), id="clock_reset"),
    pytest.param(
        e.GameStarted("en", "classic", "wespa", ("Anna", "Bas"), clock_minutes=25),
        id="game_started-clock",
    ),
    pytest.param(e.GameClockStarted(1_700_000_000_000), id="game_clock_started"),
    pytest.param(e.GameClockPaused(1_700_000_060_000), id="game_clock_paused"),
    pytest.param(e.ClockSwitched(1, 1_700_000_090_000), id="clock_switched"),
    pytest.param(e.TimeRanOut(0, 1_700_001_500_000), id="time_ran_out"),
    pytest.param(e.TimeRanOut(0, 1_700_001_560_000, stage=2), id="time_ran_out-figs"),
    pytest.param(e.PenaltyGiven(1, 20, overtime=2), id="penalty-overtime"),
    pytest.param(
        e.GameEnded((e.RackLeft(), e.RackLeft("ZA?"), e.RackLeft(points=6))), id="game_ended"
    ),
    pytest.param(e.GameEnded(), id="game_ended-duplicate"),
    pytest.param(e.WritersSet("scorekeeper"), id="writers"),
    pytest.param(e.DeviceJoined("d1", "player", 2, "ab12"), id="device_joined"),
    pytest.param(e.DeviceJoined("d2", "player", 2, "cd34", admitted=False), id="device_waits"),
    pytest.param(e.DeviceJoined("d3", "viewer"), id="device_joined-viewer"),
    pytest.param(e.DeviceJoined("d4", "player", 1, label="iPhone · Safari"), id="device_model"),
    pytest.param(e.DeviceLabelled("d4", "Bas thuis"), id="device_labelled"),
    pytest.param(e.HostSeated(0), id="host_seated"),
    pytest.param(e.HostSeated(None), id="host_keeps_score"),
    pytest.param(e.DeviceAdmitted("d2"), id="device_admitted"),
    pytest.param(e.DeviceRemoved("d1"), id="device_removed"),
    pytest.param(e.PlayerAdded("Anna"), id="player_added"),
    pytest.param(e.PlayerRenamed(3, "Anna B"), id="player_renamed"),
    pytest.param(e.PlayerRemoved(3), id="player_removed"),
    pytest.param(e.EntriesSet(5), id="entries"),
    pytest.param(e.DirectorAppointed("d1"), id="director_appointed"),
    pytest.param(e.RecoverySet("ab" * 32), id="recovery_set"),
    pytest.param(e.DirectorReplaced("d2"), id="director_replaced"),
    pytest.param(e.RackDrawn(0, "ABCDEFG", sealed=True), id="rack_sealed"),
    pytest.param(e.CentreJoined("S1", 0, "Club A", "fr", "duplicate"), id="centre_joined"),
    pytest.param(e.SimultaneousCreated("Simultané", "fr", "duplicate"), id="simultaneous"),
    pytest.param(
        e.GameSealed(
            0,
            1_000,
            2_000,
            (e.SealedRound("ABCDEFG", ("AEIOUYY",), (e.TopRecorded(30), e.GameEnded())),),
        ),
        id="game_sealed",
    ),
    pytest.param(e.CentreAdded("T1", "Club A", 0), id="centre_added"),
    pytest.param(e.WindowClosed(0), id="window_closed"),
]


def test_examples_cover_every_event_kind() -> None:
    kinds = {type(p.values[0]) for p in EXAMPLES}
    assert kinds == set(typing.get_args(e.TableEvent))


@pytest.mark.parametrize("event", EXAMPLES)
def test_recorded_round_trips_every_kind(event: e.Event) -> None:
    recorded = e.Recorded(12, event, device="phone-1", at=1_700_000_000_000, command="c-12")
    data = e.encode(recorded)
    assert isinstance(data, bytes)
    assert e.decode(data) == recorded
    assert e.decode(data.decode()) == recorded  # str as well as bytes


@pytest.mark.parametrize("event", EXAMPLES)
def test_recorded_names_the_kind_in_the_json(event: e.Event) -> None:
    doc = json.loads(e.encode(e.Recorded(1, event)))
    assert doc["event"]["kind"] == type(event).__struct_config__.tag


def test_event_kind_tags_are_unique() -> None:
    tags = [t.__struct_config__.tag for t in typing.get_args(e.TableEvent)]
    assert len(tags) == len(set(tags))


def test_recorded_defaults_device_time_and_command() -> None:
    decoded = e.decode(b'{"seq": 3, "event": {"kind": "pass", "player": 1}}')
    assert decoded == e.Recorded(3, e.Passed(1), device="", at=0, command="")


def test_decoded_events_hold_tuples_not_lists() -> None:
    recorded = e.Recorded(1, e.MoveRecorded(0, 27, typed=BOEK_TYPED))
    event = e.decode(e.encode(recorded)).event
    assert isinstance(event, e.MoveRecorded)
    assert isinstance(event.typed, tuple)
    assert all(isinstance(word, tuple) for word in event.typed)
    begun = e.Recorded(1, e.GameStarted("nl", "classic", "house", ("A", None)))
    started = e.decode(e.encode(begun))
    assert isinstance(started.event, e.GameStarted)
    assert started.event.players == ("A", None)


def test_events_are_frozen() -> None:
    event = e.Passed(0)
    with pytest.raises(AttributeError):
        event.player = 1  # type: ignore[misc]
    recorded = e.Recorded(1, event)
    with pytest.raises(AttributeError):
        recorded.seq = 2  # type: ignore[misc]


# A newer server may add fields anywhere; this one must still read its log.
NEWER = [
    pytest.param(
        {"seq": 1, "event": {"kind": "pass", "player": 0, "reason": "timeout"}},
        e.Recorded(1, e.Passed(0)),
        id="event-field",
    ),
    pytest.param(
        {"seq": 1, "event": {"kind": "pass", "player": 0}, "server": "eu-1", "signature": "x"},
        e.Recorded(1, e.Passed(0)),
        id="recorded-field",
    ),
    pytest.param(
        {
            "seq": 2,
            "event": {
                "kind": "move",
                "player": 0,
                "points": 4,
                "placed": [["H8", "A", "extra"], ["H9", "B", 1, 2]],
                "words": [["AB", 4, "1 + 3 = 4", "H8", "across", "note"]],
                "clock_ms": 12_000,
            },
        },
        e.Recorded(
            2,
            e.MoveRecorded(
                0,
                4,
                (e.WordLine("AB", 4, "1 + 3 = 4", "H8", "across"),),
                placed=(e.PlacedTile("H8", "A"), e.PlacedTile("H9", "B")),
            ),
        ),
        id="nested-array-like",
    ),
    pytest.param(
        {
            "seq": 9,
            "event": {"kind": "game_ended", "racks": [[None, None, "x"], ["ZA", None, 0]]},
        },
        e.Recorded(9, e.GameEnded((e.RackLeft(), e.RackLeft("ZA")))),
        id="rack-extra",
    ),
    pytest.param(
        {
            "seq": 4,
            "event": {
                "kind": "move",
                "player": 1,
                "points": 7,
                "typed": [[["I", None, False, "future"], ["J"], ["S", "2L"]]],
            },
        },
        e.Recorded(
            4,
            e.MoveRecorded(
                1, 7, typed=((e.TypedLetter("I"), e.TypedLetter("J"), e.TypedLetter("S", "2L")),)
            ),
        ),
        id="typed-letter-extra",
    ),
]


@pytest.mark.parametrize(("doc", "expected"), NEWER)
def test_decode_ignores_fields_a_newer_server_added(doc: dict, expected: e.Recorded) -> None:
    assert e.decode(json.dumps(doc)) == expected


def test_decode_reads_an_old_log_with_defaults() -> None:
    # An event from before the optional fields existed: only what every version wrote.
    old = {"seq": 5, "event": {"kind": "move", "player": 1, "points": 12}}
    decoded = e.decode(json.dumps(old))
    assert decoded.event == e.MoveRecorded(1, 12)
    assert decoded.event.placed == ()
    assert decoded.event.typed == ()
    assert decoded.event.direction == "across"
    start = {
        "seq": 1,
        "event": {
            "kind": "game_started",
            "edition": "nl",
            "mode": "classic",
            "rules": "house",
            "players": [None, None],
        },
    }
    assert e.decode(json.dumps(start)).event.starter == 0


def test_an_old_log_reads_without_the_online_fields_and_a_classic_one_writes_none() -> None:
    started = e.GameStarted("nl", "classic", "house", (None, None))
    assert (started.seed, started.move_seconds) == ("", None)
    assert (e.Passed(0).timed_out, e.Exchanged(0).tiles) == (False, "")
    encoded = e.encode(e.Recorded(1, started)).decode()
    assert "seed" not in encoded and "move_seconds" not in encoded
    assert msgspec.json.encode(e.Exchanged(0)) == b'{"kind":"exchange","player":0}'
    assert msgspec.json.encode(e.Passed(1)) == b'{"kind":"pass","player":1}'


WRONG = [
    pytest.param({"seq": "1", "event": {"kind": "pass", "player": 0}}, id="seq-as-text"),
    pytest.param({"event": {"kind": "pass", "player": 0}}, id="seq-missing"),
    pytest.param({"seq": 1}, id="event-missing"),
    pytest.param({"seq": 1, "event": {"kind": "pass"}}, id="player-missing"),
    pytest.param({"seq": 1, "event": {"kind": "pass", "player": "0"}}, id="player-as-text"),
    pytest.param({"seq": 1, "event": {"kind": "points", "player": 0, "points": 2.5}}, id="float"),
    pytest.param({"seq": 1, "event": {"kind": "teleport", "player": 0}}, id="unknown-kind"),
    pytest.param({"seq": 1, "event": {"player": 0}}, id="kind-missing"),
    pytest.param(
        {
            "seq": 1,
            "event": {
                "kind": "game_started",
                "edition": "nl",
                "mode": "blitz",
                "rules": "house",
                "players": [None],
            },
        },
        id="mode-not-a-mode",
    ),
    pytest.param(
        {"seq": 1, "event": {"kind": "move", "player": 0, "points": 4, "placed": [["H8"]]}},
        id="placed-tile-short",
    ),
    pytest.param(
        {"seq": 1, "event": {"kind": "tiles_placed", "placed": "H8A"}}, id="placed-not-array"
    ),
    pytest.param(
        {"seq": 1, "event": {"kind": "cell", "round": 0, "player": None, "points": "18"}},
        id="cell-points-text",
    ),
    pytest.param([1, {"kind": "pass", "player": 0}], id="not-an-object"),
]


@pytest.mark.parametrize("doc", WRONG)
def test_decode_refuses_wrong_types(doc: object) -> None:
    with pytest.raises(msgspec.ValidationError):
        e.decode(json.dumps(doc))


def test_decode_refuses_malformed_json() -> None:
    with pytest.raises(msgspec.DecodeError):
        e.decode(b'{"seq": 1, "event": ')
