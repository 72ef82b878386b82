"""Online play (rules.online.play, rules.board.bag; P-50..52, WS-06..18, WS-31): whole games
from fixed seeds, every refusal with its code, the bag as a function of the seed and the log, undo,
the time per move, who may do what, and what each seat sees."""

from collections import Counter
from collections.abc import Callable

import msgspec
import pytest

import editions
from editions import codebook
from events import commands as c
from events import events as e
from rules.board import bag
from rules.board.board import Board
from rules.board.tiles import Tile
from rules.board.wordcheck import lookup_text
from rules.errors import GameError
from rules.online import play as online
from rules.table import permissions, reducer, rulesets
from rules.table.permissions import Actor
from rules.table.record import record
from rules.table.settlement import rack_value
from rules.table.state import LastTurn, State, Step
from rules.table.steps import chain
from rules.table.views import for_seat, view
from tests.rules.online_games import Table, check, letters_of, on_board, play_out, play_turn

SEED = "0f3c9a27d1b84e65a0c2f71d9e4b3a58"
HOST = Actor("host", None, "host")
AB = c.BoardMove("H8", "across", "AB")


def seat(n: int) -> Actor:
    return Actor("player", n, f"phone-{n}")


def word(tiles: tuple[str, ...]) -> str:
    """The word the list is asked for: a blank laid by these tests stands for E."""
    return "".join("E" if t == bag.BLANK else t for t in tiles)


def words(*texts: str) -> Callable[[str], bool]:
    return set(texts).__contains__


def seed_where(
    test: Callable[[tuple[tuple[str, ...], ...]], bool],
    players: int = 2,
    edition: str = "woordstrijd",
) -> str:
    """The first seed ``seed-N`` whose deal passes ``test``: a fixed seed with a known trait."""
    tiles = editions.get(edition)
    return next(
        s for s in (f"seed-{n}" for n in range(1000)) if test(bag.deal(tiles, s, players)[1])
    )


def refused(table: Table, command: c.TableCommand, actor: Actor | None = None) -> GameError:
    """The refusal ``command`` meets: nothing recorded, racks, bag and turn as they were."""
    before = (table.state, len(table.log))
    with pytest.raises(GameError) as refusal:
        table.do(command, actor=actor)
    assert (table.state, len(table.log)) == before
    return refusal.value


def first_move(table: Table, count: int = 2) -> e.MoveRecorded:
    """The player to move lays their first ``count`` tiles across from H8."""
    letters = letters_of(table.rack()[:count])
    (moved, *_) = table.do(c.Play(c.BoardMove("H8", "across", letters), turn=table.turn()))
    assert isinstance(moved.event, e.MoveRecorded)
    return moved.event


# --- the bag: a pure function of the seed and the log ---


def test_the_shuffle_is_the_same_on_every_python() -> None:
    # SHA-256 keyed Fisher–Yates, never ``random``: these values are part of the log format.
    assert bag.shuffled("ABCDEFGH", "tilestream", "start") == tuple("AEHBFDGC")
    _, racks = bag.deal(editions.get("woordstrijd"), "tilestream", 2)
    assert racks == (tuple("ERE?ARI"), tuple("NAAESEN"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_online_game_deals_seven_tiles_to_each_seat_from_the_seed(players: int) -> None:
    table = Table(players, SEED)
    assert [len(r) for r in table.online.racks] == [7] * players
    assert len(table.online.bag) == 105 - 7 * players
    assert table.online == Table(players, SEED).online
    assert table.online.racks != Table(players, "another seed").online.racks
    check(table)


@pytest.mark.parametrize("edition", ["nl", "en", "fr", "de", "es", "it", "pl", "woordstrijd"])
def test_every_edition_with_a_board_and_a_list_can_be_played_online(edition: str) -> None:
    table = Table(2, SEED, edition)
    assert table.game.rules is rulesets.ONLINE
    assert len(table.online.bag) == editions.get(edition).total_tiles - 14
    check(table)


def test_an_exchange_draws_before_the_tiles_go_back_and_reshuffles_the_bag() -> None:
    rack, old = ("A", "B", "C"), ("X", "Y", "Z", "Q")
    new_bag, new_rack = bag.exchange(old, rack, ("A", "B"), "seed", 9)
    assert new_rack == ("C", "X", "Y")
    assert sorted(new_bag) == ["A", "B", "Q", "Z"]
    assert new_bag == bag.exchange(old, rack, ("A", "B"), "seed", 9)[0]


@pytest.mark.parametrize(
    ("text", "tiles"),
    [("AB?", ("A", "B", "?")), ("a[ch]", ("A", "CH")), ("", ())],
)
def test_rack_notation_reads_faces_and_blanks(text: str, tiles: tuple[str, ...]) -> None:
    assert bag.parse(editions.get("es"), text) == tiles


@pytest.mark.parametrize("text", ["A1", "[XY]", "É"])
def test_rack_notation_refuses_what_is_not_a_tile(text: str) -> None:
    with pytest.raises(GameError) as bad:
        bag.parse(editions.get("es"), text)
    assert bad.value.code == "bad_tile"


def test_end_racks_read_back_as_the_tiles_even_with_digraph_faces() -> None:
    es = editions.get("es")
    assert rack_value(es, e.RackLeft(bag.typed(es, ("C", "H")))) == 3 + 4  # not the CH tile
    assert rack_value(es, e.RackLeft(bag.typed(es, ("CH", "?")))) == 5


# --- starting ---


@pytest.mark.parametrize(
    ("command", "contains", "code"),
    [
        pytest.param(c.StartGame("pl-literaki", "online"), True, "no_board", id="no-board"),
        pytest.param(c.StartGame("woordstrijd", "online"), False, "no_word_list", id="no-list"),
        pytest.param(
            c.StartGame("nl", "online", players=("Ann",)), True, "player_count", id="one-player"
        ),
        pytest.param(
            c.StartGame("nl", "online", players=(None,) * 5), True, "player_count", id="five"
        ),
        pytest.param(
            c.StartGame("nl", "online", move_seconds=59),
            True,
            "move_seconds_out_of_range",
            id="59-seconds",
        ),
        pytest.param(
            c.StartGame("nl", "online", move_seconds=7 * 86400 + 1),
            True,
            "move_seconds_out_of_range",
            id="over-a-week",
        ),
        pytest.param(
            c.StartGame("nl", "online", "sbnl"), True, "rules_not_for_mode", id="sbnl-online"
        ),
        pytest.param(
            c.StartGame("nl", "classic", "online"), True, "rules_not_for_mode", id="online-rules"
        ),
        pytest.param(
            c.StartGame("nl", "classic", move_seconds=60), True, "not_online", id="classic-clock"
        ),
    ],
)
def test_an_online_start_is_refused_with_its_code(
    command: c.StartGame, contains: bool, code: str
) -> None:
    listed = words("AB") if contains else None
    with pytest.raises(GameError) as refusal:
        record(State(), command, seed=SEED, contains=listed)
    assert refusal.value.code == code


def test_an_online_start_without_the_servers_seed_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="seed"):
        record(State(), c.StartGame("nl", "online"), contains=words())


@pytest.mark.parametrize("seconds", [None, 60, 86400, 7 * 86400])
def test_the_time_per_move_is_kept_with_the_seed_in_the_log(seconds: int | None) -> None:
    table = Table(2, SEED, move_seconds=seconds)
    started = table.log[0].event
    assert isinstance(started, e.GameStarted)
    assert (started.seed, started.move_seconds) == (SEED, seconds)


def test_a_new_game_deals_from_the_new_seed_and_keeps_the_time_per_move() -> None:
    table = Table(2, SEED, move_seconds=600)
    first_racks = table.online.racks
    table.seed = "a fresh seed"
    table.do(c.NewGame(), actor=HOST)
    assert table.online.racks != first_racks
    assert table.online.seed == "a fresh seed"
    assert (table.game.starter, table.online.move_seconds) == (1, 600)
    with pytest.raises(ValueError, match="seed"):
        record(table.state, c.NewGame())


# --- a move: placement, the rack, every word, then the score ---


@pytest.mark.parametrize(
    ("start", "count", "code"),
    [
        pytest.param("H9", 2, "first_move_off_centre", id="off-centre"),
        pytest.param("H8", 1, "first_move_single_tile", id="one-tile"),
        pytest.param("H14", 3, "off_board", id="off-board"),
    ],
)
def test_the_first_move_covers_the_centre_with_two_tiles(start: str, count: int, code: str) -> None:
    table = Table(2, SEED)
    letters = letters_of(table.rack()[:count])
    assert refused(table, c.Play(c.BoardMove(start, "across", letters))).code == code


def test_a_move_with_tiles_the_seat_does_not_hold_is_refused_naming_them() -> None:
    table = Table(2, seed_where(lambda racks: "Q" not in racks[0] and "X" not in racks[0]))
    refusal = refused(table, c.Play(c.BoardMove("H8", "across", "QX")))
    assert (refusal.code, refusal.params) == ("tiles_not_on_rack", {"tiles": "QX"})


def test_a_phone_names_the_turn_it_plays() -> None:
    assert permissions.missing_reference(c.Play(AB)) == "turn"
    assert permissions.missing_reference(c.Exchange(tiles="A")) == "turn"
    assert permissions.missing_reference(c.Play(AB, turn=c.Turn(1, 0, 0))) is None


def test_a_multi_letter_tile_is_held_shown_and_laid_as_one_tile() -> None:
    table = Table(2, seed_where(lambda racks: "CH" in racks[0], edition="es"), "es", words())
    rack = table.rack(0)
    seen = view(table.state, "member", 0).sheet.online  # type: ignore[union-attr]
    assert seen is not None and "[CH]" in seen.rack  # type: ignore[operator]
    other = next(t for t in rack if t not in ("CH", "?"))
    es = editions.get("es")
    table.words = words(lookup_text(es, (Tile("CH"), Tile(other))))
    (moved,) = table.do(c.Play(c.BoardMove("H8", "across", f"[CH]{bag.notation(other)}")))
    assert isinstance(moved.event, e.MoveRecorded)
    assert table.rack(0)[:5] == bag.without(rack, ("CH", other))  # and two drawn


def test_a_blank_is_taken_from_the_rack_for_any_letter() -> None:
    table = Table(2, seed_where(lambda racks: racks[0].count("?") == 1))
    rack = table.rack()
    letter = next(x for x in rack if x != "?")
    assert refused(table, c.Play(c.BoardMove("H8", "across", "qq"))).params == {"tiles": "?"}
    table.do(c.Play(c.BoardMove("H8", "across", f"q{letter}")))
    assert "?" not in table.rack(0)


@pytest.mark.parametrize(("edition", "letter"), [("pl", "v"), ("pl", "q"), ("en", "ø")])
def test_a_blank_stands_only_for_a_letter_of_the_set(edition: str, letter: str) -> None:
    table = Table(2, seed_where(lambda r: "?" in r[0], edition=edition), edition=edition)
    other = next(x for x in table.rack() if x != "?")
    refusal = refused(table, c.Play(c.BoardMove("H8", "across", f"{letter}{other}")))
    assert refusal.code == codebook.BLANK_NOT_IN_ALPHABET
    assert refusal.params == {"letter": letter.upper()}


def test_a_move_with_an_invalid_cross_word_is_refused_and_the_player_keeps_tiles_and_turn() -> None:
    table = Table(2, SEED, words=words())
    r0, r1 = table.rack(0), table.rack(1)
    main, good, bad = word(r1[:2]), word((r0[0], r1[0])), word((r0[1], r1[1]))
    # The seed keeps the four words apart, and no blank among their tiles.
    assert len({main, good, bad, word(r0[:2])}) == 4 and "?" not in r0[:2] + r1[:2]
    table.words = words(word(r0[:2]), main, good)
    first_move(table)
    across_below = c.Play(c.BoardMove("I8", "across", letters_of(r1[:2])), turn=table.turn())
    refusal = refused(table, across_below)
    assert (refusal.code, refusal.params) == ("words_not_in_list", {"words": bad, "count": 1})
    assert (table.game.to_move, table.rack(1), table.game.pass_run) == (1, r1, 0)
    table.words = words(word(r0[:2]), main, good, bad)
    (moved,) = table.do(across_below)
    assert isinstance(moved.event, e.MoveRecorded)
    assert [w.word for w in moved.event.words] == [main, good, bad]  # main word first


def test_every_word_not_in_the_list_is_named_at_once() -> None:
    table = Table(2, SEED, words=words())
    r0, r1 = table.rack(0), table.rack(1)
    table.words = words(word(r0[:2]))
    first_move(table)
    refusal = refused(table, c.Play(c.BoardMove("I8", "across", letters_of(r1[:2]))))
    named = [word(r1[:2]), word((r0[0], r1[0])), word((r0[1], r1[1]))]
    assert refusal.code == "words_not_in_list"
    assert refusal.params == {"words": ", ".join(dict.fromkeys(named)), "count": len(set(named))}


def test_a_refused_move_is_not_a_pass() -> None:
    table = Table(2, SEED, words=words())
    for _ in range(2):
        table.do(c.Pass(turn=table.turn()))
    refused(table, c.Play(c.BoardMove("H8", "across", letters_of(table.rack()[:2]))))
    assert table.game.pass_run == 2 and table.game.ended is None


def test_after_a_move_the_player_draws_back_to_seven_from_the_front_of_the_bag() -> None:
    table = Table(2, SEED)
    rack, front = table.rack(0), table.online.bag[:3]
    first_move(table, 3)
    assert table.rack(0) == (*rack[3:], *front)
    assert len(table.online.bag) == 105 - 14 - 3
    assert table.game.to_move == 1


def test_a_blank_keeps_its_letter_for_the_rest_of_the_game() -> None:
    table = Table(2, seed_where(lambda racks: racks[0][0] == "?" or racks[0][1] == "?"))
    moved = first_move(table)
    blank = next(p for p in moved.placed if p.tile.islower())
    assert blank.tile == "e"
    play_out(table)
    assert table.game.board is not None and table.game.board[blank.square] is not None
    assert table.game.board[blank.square].notation == "e"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("edition", "count", "bingo"),
    [("woordstrijd", 7, 40), ("woordstrijd", 6, 0), ("nl", 7, 50), ("en", 7, 50)],
)
def test_a_bingo_only_for_all_seven_tiles_at_the_editions_bonus(
    edition: str, count: int, bingo: int
) -> None:
    table = Table(2, SEED, edition, words=words())
    tiles = table.rack()[:count]
    table.words = words(word(tiles))
    move = c.BoardMove(f"H{9 - count}", "across", letters_of(tiles))  # ending on H8
    expected = Board.empty(editions.get(edition)).score(
        Board.empty(editions.get(edition)).place(move.start, move.direction, move.letters)
    )
    (moved,) = table.do(c.Play(move))
    assert isinstance(moved.event, e.MoveRecorded)
    assert (moved.event.bingo, moved.event.points) == (bingo, expected.total)
    assert moved.event.points == moved.event.words[0].points + bingo


# --- exchanges and passes ---


def test_an_exchange_puts_the_tiles_back_draws_as_many_and_ends_the_turn() -> None:
    table = Table(2, SEED)
    table.do(c.Pass(turn=table.turn()))
    rack, front = table.rack(1), table.online.bag[:3]
    (exchanged,) = table.do(c.Exchange(turn=table.turn(), tiles=bag.rack_notation(rack[:3])))
    assert exchanged.event == e.Exchanged(1, tiles=bag.rack_notation(rack[:3]))
    assert table.rack(1) == (*rack[3:], *front)
    assert len(table.online.bag) == 105 - 14
    assert (table.game.to_move, table.game.pass_run) == (0, 0)  # not a pass
    assert table.online.last is not None
    assert (table.online.last.kind, table.online.last.count) == ("exchange", 3)
    check(table)


@pytest.mark.parametrize(
    ("tiles", "code", "params"),
    [
        pytest.param(None, "exchange_count", {"count": 0, "max": 7}, id="none"),
        pytest.param("", "exchange_count", {"count": 0, "max": 7}, id="empty"),
        pytest.param("????????", "exchange_count", {"count": 8, "max": 7}, id="eight"),
        pytest.param("??", "tiles_not_on_rack", {"tiles": "??"}, id="not-held"),
        pytest.param("1", "bad_tile", {"text": "1"}, id="not-a-tile"),
    ],
)
def test_an_exchange_is_refused_with_its_code(
    tiles: str | None, code: str, params: dict[str, object]
) -> None:
    table = Table(2, seed_where(lambda racks: "?" not in racks[0]))
    refusal = refused(table, c.Exchange(tiles=tiles))
    assert (refusal.code, refusal.params) == (code, params)


def test_an_exchange_needs_seven_tiles_in_the_bag() -> None:
    table = Table(2, SEED)
    while len(table.online.bag) >= 7:
        play_turn(table)
    tile = bag.notation(table.rack()[0])
    refusal = refused(table, c.Exchange(tiles=tile, turn=table.turn()))
    assert (refusal.code, refusal.params) == (
        "bag_too_small",
        {"bag": len(table.online.bag), "min": 7},
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_three_passes_in_a_row_end_the_game_whatever_the_player_count(players: int) -> None:
    table = Table(players, SEED)
    for _ in range(2):
        table.do(c.Pass(turn=table.turn()))
    assert table.game.ended is None
    *_, ended = table.do(c.Pass(turn=table.turn()))
    assert isinstance(ended.event, e.GameEnded)
    racks = table.online.racks
    assert ended.event.racks == tuple(e.RackLeft("".join(r)) for r in racks)
    final = view(table.state).sheet.final  # type: ignore[union-attr]
    edition = editions.get("woordstrijd")
    assert final is not None
    assert [row.settlement for row in final] == [
        -sum(edition.values.get(t, 0) for t in r) for r in racks
    ]


def test_an_exchange_breaks_the_run_of_passes() -> None:
    table = Table(2, SEED)
    table.do(c.Pass(turn=table.turn()))
    table.do(c.Pass(turn=table.turn()))
    table.do(c.Exchange(turn=table.turn(), tiles=bag.notation(table.rack()[0])))
    table.do(c.Pass(turn=table.turn()))
    table.do(c.Pass(turn=table.turn()))
    assert (table.game.pass_run, table.game.ended) == (2, None)


# --- whole games ---


@pytest.mark.parametrize(
    ("players", "seed"),
    [(2, SEED), (2, "seed-7"), (3, SEED), (4, SEED), (4, "tilestream")],
)
def test_a_whole_game_ends_when_a_player_goes_out_with_the_bag_empty(
    players: int, seed: str
) -> None:
    table = Table(players, seed)
    done = play_out(table)  # conservation and replay are checked after every turn
    *_, last_move, end = table.log
    assert isinstance(last_move.event, e.MoveRecorded) and isinstance(end.event, e.GameEnded)
    out = last_move.event.player
    assert table.online.bag == () and table.rack(out) == ()
    assert done.count("move") == len(done)
    # WS-14: the others lose their own racks; the one who went out gains all of them.
    edition = editions.get("woordstrijd")
    values = [sum(edition.values.get(t, 0) for t in rack) for rack in table.online.racks]
    final = view(table.state).sheet.final  # type: ignore[union-attr]
    assert final is not None
    assert [row.settlement for row in final] == [
        sum(values) if p == out else -values[p] for p in range(players)
    ]
    assert [row.final for row in final] == [
        t + r.settlement for t, r in zip(table.game.totals, final, strict=True)
    ]
    # At once: nobody plays after the one who went out.
    assert refused(table, c.Pass(turn=table.turn())).code == "game_over"


# --- undo: replay without the line, so rack and bag are exact (a game against the computer
# alone; where two people play, nobody undoes: see the rights below) ---


@pytest.mark.parametrize("kind", ["move", "exchange", "pass"])
def test_undo_restores_the_exact_rack_and_bag(kind: str) -> None:
    table = Table(2, SEED)
    first_move(table)
    before = table.state.game
    if kind == "move":
        play_turn(table)
    elif kind == "exchange":
        table.do(c.Exchange(turn=table.turn(), tiles=bag.rack_notation(table.rack()[:4])))
    else:
        table.do(c.Pass(turn=table.turn()))
    table.do(c.Undo())
    assert table.state.game == before
    check(table)


def test_undo_of_the_end_by_going_out_takes_back_the_last_move_too() -> None:
    table = Table(2, SEED)
    play_out(table)
    *_, last_move, _ = table.log
    game_before = next(
        reducer.before(step) for step in _steps(table.state) if step.recorded.seq == last_move.seq
    )
    table.do(c.Undo())
    assert table.game.ended is None
    assert table.game == game_before


def test_undo_of_the_end_by_three_passes_takes_back_the_third_pass() -> None:
    table = Table(2, SEED)
    for _ in range(3):
        table.do(c.Pass(turn=table.turn()))
    table.do(c.Undo())
    assert (table.game.ended, table.game.pass_run, table.game.to_move) == (None, 2, 0)


def test_undo_of_an_end_the_host_asked_for_strikes_only_the_end() -> None:
    table = Table(2, SEED)
    first_move(table)
    table.do(c.EndGame())
    assert table.game.ended is not None
    table.do(c.Undo())
    assert table.game.ended is None and len(table.game.lines) == 1


def _steps(state: State) -> list[Step]:
    return list(chain(state.steps))


# --- who may do what ---


@pytest.mark.parametrize(
    ("actor", "command", "code"),
    [
        pytest.param(seat(1), c.Pass(turn=c.Turn(1, 0, 0)), "not_your_seat", id="other-seat"),
        pytest.param(HOST, c.Pass(turn=c.Turn(1, 0, 0)), "not_your_seat", id="host-no-seat"),
        pytest.param(
            Actor("viewer", None, "tv"), c.Pass(turn=c.Turn(1, 0, 0)), "viewer_read_only", id="tv"
        ),
        pytest.param(seat(0), c.Undo(), "online_final", id="undo"),
        pytest.param(seat(0), c.EndGame(), "online_final", id="end"),
        pytest.param(HOST, c.Undo(), "online_final", id="host-undo"),
        pytest.param(HOST, c.EndGame(), "online_final", id="host-end"),
        pytest.param(seat(0), c.NewGame(), "host_only", id="new-game"),
        pytest.param(seat(1), c.Pass(turn=c.Turn(1, 1, 0)), "not_to_move", id="out-of-turn"),
        pytest.param(seat(0), c.Pass(turn=c.Turn(9, 0, 0)), "game_changed", id="old-game"),
        pytest.param(seat(0), c.RecordMove(AB), "not_in_mode", id="sheet-move"),
        pytest.param(seat(0), c.EnterPoints(12), "not_in_mode", id="points"),
        pytest.param(seat(0), c.PlaceTiles(AB), "not_in_mode", id="place"),
    ],
)  # fmt: skip
def test_a_seat_plays_only_for_itself_and_nobody_undoes_or_ends_early(
    actor: Actor, command: c.TableCommand, code: str
) -> None:
    table = Table(2, SEED)
    table.do(c.SetWriters("scorekeeper"))  # one scorekeeper or not: the same online
    assert refused(table, command, actor).code == code


def test_each_seat_plays_its_own_turn() -> None:
    table = Table(2, SEED)
    table.do(c.Pass(turn=table.turn()), actor=seat(0))
    table.do(c.Exchange(turn=table.turn(), tiles=bag.notation(table.rack()[0])), actor=seat(1))
    letters = letters_of(table.rack()[:2])
    table.do(c.Play(c.BoardMove("H8", "down", letters), turn=table.turn()), actor=seat(0))
    assert [line.kind for line in table.game.lines] == ["pass", "exchange", "move"]


@pytest.mark.parametrize(
    "command",
    [c.Play(c.BoardMove("H8", "across", "AB")), c.Exchange(tiles="A")],
    ids=["play", "exchange"],
)
def test_tiles_from_a_rack_belong_to_an_online_game_only(command: c.TableCommand) -> None:
    state, _ = record(State(), c.StartGame("nl"))
    with pytest.raises(GameError) as refusal:
        record(state, command)
    assert refusal.value.params == {"mode": "classic"}
    assert refusal.value.code == "not_online"
    record(state, c.Exchange())  # the sheet's exchange line stays as it was


# --- the time per move ---


def test_a_player_whose_time_runs_out_is_passed_once() -> None:
    table = Table(2, SEED, move_seconds=3600)
    assert online.deadline(table.game) == 3_600_000
    first_move(table)  # at 0
    turn = table.turn()
    with pytest.raises(GameError) as early:
        online.time_out(table.state, turn, at=3_599_999)
    assert early.value.code == "not_due"
    events = online.time_out(table.state, turn, at=3_600_000)
    assert events == (e.Passed(1, timed_out=True),)
    table.append(events, at=3_600_000)
    assert online.deadline(table.game) == 7_200_000
    with pytest.raises(GameError) as again:  # a second process, late: dropped
        online.time_out(table.state, turn, at=3_600_001)
    assert again.value.code == "turn_taken"
    assert table.online.last == LastTurn(1, "pass", timed_out=True)
    # The sheet keeps it too, after the last turn has moved on: the player did not pass.
    assert (table.game.lines[-1].kind, table.game.lines[-1].timed_out) == ("pass", True)


def test_three_timed_out_passes_end_the_game() -> None:
    table = Table(2, SEED, move_seconds=60)
    at = 0
    for _ in range(3):
        at += 60_000
        table.append(online.time_out(table.state, table.turn(), at=at), at=at)
    assert table.game.ended is not None
    assert online.deadline(table.game) is None


def test_an_undo_gives_the_player_a_whole_time_again() -> None:
    table = Table(2, SEED, move_seconds=60)
    table.do(c.Pass(turn=table.turn()), at=50_000)
    table.do(c.Undo(), at=100_000)
    assert online.deadline(table.game) == 160_000


@pytest.mark.parametrize(("mode", "code"), [("classic", "not_online"), ("online", "game_over")])
def test_only_a_running_online_game_passes_a_player_for_time(mode: str, code: str) -> None:
    if mode == "classic":
        state, _ = record(State(), c.StartGame("nl"))
    else:
        table = Table(2, SEED, move_seconds=60)
        table.do(c.EndGame())
        state = table.state
    with pytest.raises(GameError) as refusal:
        online.time_out(state, c.Turn(1, 0, 0), at=10**13)
    assert refusal.value.code == code


def test_without_a_time_per_move_nobody_is_passed() -> None:
    table = Table(2, SEED)
    assert online.deadline(table.game) is None
    with pytest.raises(GameError) as never:
        online.time_out(table.state, table.turn(), at=10**13)
    assert never.value.code == "not_due"


# --- what each device sees (P-52) ---


def test_a_sheet_made_for_one_seat_is_every_seats_own_sheet_with_for_seat() -> None:
    """What a server shares between seats (``views.for_seat``): only the rack part differs."""
    table = Table(3, SEED)
    first_move(table, 3)
    shared = view(table.state, "member", 0).sheet
    assert shared is not None
    for seat in (None, 1, 2):
        assert for_seat(shared, table.game, seat) == view(table.state, "member", seat).sheet


def test_a_seat_sees_its_own_rack_and_the_others_counts() -> None:
    table = Table(3, SEED)
    first_move(table, 3)
    for player in range(3):
        seen = view(table.state, "member", player).sheet.online  # type: ignore[union-attr]
        assert seen is not None
        assert (seen.rack, seen.seat) == (table.rack(player), player)
        assert seen.racks == (7, 7, 7) and seen.bag == 105 - 21 - 3
        unseen = Counter(bag.full_set(editions.get("woordstrijd")))
        unseen.subtract(Counter(table.rack(player)) + on_board(table.game))
        assert dict(seen.unseen) == {t: n for t, n in unseen.items() if n}
        assert sum(n for _, n in seen.unseen) == 105 - 3 - 7  # the bag and the others' racks


@pytest.mark.parametrize(
    ("audience", "seat_of"),
    [("member", None), ("host", None), ("member", 7), ("member", -1)],
    ids=["viewer", "host", "no-such-seat", "negative"],
)
def test_a_device_without_a_seat_sees_no_rack(audience: str, seat_of: int | None) -> None:
    table = Table(2, SEED)
    seen = view(table.state, audience, seat_of).sheet.online  # type: ignore[arg-type, union-attr]
    assert seen is not None
    assert (seen.rack, seen.seat) == (None, None)
    assert sum(n for _, n in seen.unseen) == 105  # the set less the (empty) board


def test_no_view_carries_the_seed_the_bag_or_the_tiles_of_a_line() -> None:
    table = Table(2, SEED)
    first_move(table)
    table.do(c.Exchange(turn=table.turn(), tiles=bag.rack_notation(table.rack()[:2])))
    for audience, who in [("member", 0), ("member", 1), ("member", None), ("host", None)]:
        encoded = msgspec.json.encode(view(table.state, audience, who))  # type: ignore[arg-type]
        assert SEED.encode() not in encoded
        sheet = msgspec.json.decode(encoded)["sheet"]
        assert all(line.get("tiles", []) == [] for line in sheet["lines"])
        assert sheet["online"]["rack"] == (list(table.rack(who)) if who is not None else None)


def test_the_last_turn_shows_its_words_squares_and_points_to_everyone() -> None:
    table = Table(2, SEED)
    moved = first_move(table, 3)
    last = view(table.state).sheet.online.last  # type: ignore[union-attr]
    assert last is not None
    assert (last.player, last.kind, last.points) == (0, "move", moved.points)
    assert last.words == moved.words and last.squares == ("H8", "H9", "H10")


def test_the_racks_are_public_once_the_game_is_over() -> None:
    table = Table(2, SEED)
    assert view(table.state).sheet.online.ended_racks is None  # type: ignore[union-attr]
    for _ in range(3):
        table.do(c.Pass(turn=table.turn()))
    sheet = view(table.state).sheet
    assert sheet is not None and sheet.online is not None
    assert sheet.online.ended_racks == table.online.racks
    assert sheet.online.passes == 3
    assert [n.code for n in sheet.notices] == []  # the end says it; no pass-limit notice
    assert sheet.last_line_seat is None  # online: undo is the host's
