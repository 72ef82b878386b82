"""Rule sets (P-31..P-34, SHC-17/24, FED-*): pass limits driven through real games, penalty
figures, the tournament player limit and the exchange warnings."""

from itertools import islice

import pytest

import editions
from events import commands as c
from events.commands import TypedLetter
from rules.errors import GameError
from rules.table import rulesets
from rules.table.record import record
from rules.table.state import State
from rules.table.views import view
from tests.rules.table.recording import play, start


def notices(state: State) -> list[str]:
    sheet = view(state).sheet
    assert sheet is not None
    return [n.code for n in sheet.notices]


RUNS = {"pass_limit", "scoreless_limit"}  # a run of passes; of scoreless turns (FIGS's)


def first_pass_limit(state: State, commands: list[c.TableCommand]) -> int | None:
    """After how many of ``commands`` the pass-limit notice first shows (1-based)."""
    assert not RUNS & set(notices(state))
    for count, command in enumerate(commands, 1):
        state = play(state, command)
        if RUNS & set(notices(state)):
            return count
    return None


PASSES = [c.Pass()] * 12
SCORELESS = [c.Pass(), c.Exchange(), c.WithdrawWord()] * 4  # FIGS: all three count

# id, edition, rules, players, turns, the turn that brings the notice
PASS_LIMITS = [
    pytest.param("nl", "house", 2, PASSES, 4, id="TV-NL-16-2p"),
    pytest.param("nl", "house", 3, PASSES, 6, id="TV-NL-16-3p"),
    pytest.param("nl", "house", 4, PASSES, 8, id="TV-NL-16-4p"),
    pytest.param("nl", "sbnl", 2, PASSES, 3, id="TV-NL-17"),
    pytest.param("it", "house", 2, PASSES, 4, id="TV-IT-14-2p"),
    pytest.param("it", "house", 3, PASSES, 6, id="SHC-24c-3p"),
    pytest.param("it", "house", 4, PASSES, 8, id="TV-IT-14-4p"),
    pytest.param("it", "figs", 2, PASSES, 6, id="TV-IT-15-passes"),
    pytest.param("it", "figs", 2, SCORELESS, 6, id="TV-IT-15-mixed"),
    pytest.param("it", "figs", 2, [c.Exchange()] * 8, 6, id="TV-IT-15-exchanges"),
    pytest.param("pl", "pfs", 2, PASSES, 4, id="TV-PL-17"),
    pytest.param("pl", "pfs-house", 2, PASSES, 4, id="SHC-24e-2p"),
    pytest.param("pl", "pfs-house", 3, PASSES, 6, id="SHC-24e-3p"),
    pytest.param("pl", "pfs-house", 4, PASSES, 8, id="SHC-24e-4p"),
]


@pytest.mark.parametrize(("edition", "rules", "players", "turns", "limit"), PASS_LIMITS)
def test_pass_limit_notice_at_the_limit_not_before(
    edition: str, rules: str, players: int, turns: list[c.TableCommand], limit: int
) -> None:
    assert first_pass_limit(start(edition, rules, players), turns) == limit


@pytest.mark.parametrize(
    ("edition", "rules", "players", "limit"),
    [
        pytest.param("nl", "house", 2, 4, id="house-2"),
        pytest.param("nl", "house", 3, 6, id="house-3"),
        pytest.param("nl", "house", 4, 8, id="house-4"),
        pytest.param("nl", "sbnl", 2, 3, id="sbnl"),
        pytest.param("it", "figs", 2, 6, id="figs"),
        pytest.param("pl", "pfs", 2, 4, id="pfs"),
        pytest.param("pl", "pfs-house", 3, 6, id="pfs-house-3"),
    ],
)
def test_pass_limit_notice_carries_count_and_limit(
    edition: str, rules: str, players: int, limit: int
) -> None:
    state = play(start(edition, rules, players), *[c.Pass()] * limit)
    sheet = view(state).sheet
    assert sheet is not None
    (notice,) = [n for n in sheet.notices if n.code in RUNS]
    # FIGS's run counts exchanges and withdrawn words too: it is not named "passes"
    assert notice.code == ("scoreless_limit" if rules == "figs" else "pass_limit")
    assert notice.params["count"] == limit
    assert notice.params["limit"] == limit


def test_pass_limit_never_ends_the_game() -> None:
    # SHC-23: the sheet only shows a notice; play goes on.
    state = play(start("nl", "sbnl"), *[c.Pass()] * 3)
    state = play(state, c.EnterPoints(12))
    sheet = view(state).sheet
    assert sheet is not None and not sheet.ended
    assert sheet.totals == (0, 12)


@pytest.mark.parametrize(
    ("code", "players", "expected"),
    [
        pytest.param("house", 2, 4, id="house-2"),
        pytest.param("house", 3, 6, id="house-3"),
        pytest.param("house", 4, 8, id="house-4"),
        pytest.param("sbnl", 2, 3, id="sbnl"),
        pytest.param("figs", 2, 6, id="figs"),
        pytest.param("pfs-house", 2, 4, id="pfs-house-2"),
        pytest.param("pfs-house", 4, 8, id="pfs-house-4"),
        pytest.param("pfs", 2, 4, id="pfs"),
        pytest.param("duplicate", 1, None, id="duplicate-1"),
        pytest.param("duplicate", 4, None, id="duplicate-4"),
    ],
)
def test_ruleset_pass_limit_for(code: str, players: int, expected: int | None) -> None:
    assert rulesets.get(code).pass_limit_for(players) == expected


@pytest.mark.parametrize(
    ("rules", "kinds"),
    [
        pytest.param("house", {"pass"}, id="house"),
        pytest.param("sbnl", {"pass"}, id="sbnl"),
        pytest.param("figs", {"pass", "exchange", "withdrawn"}, id="figs"),
        pytest.param("pfs-house", {"pass"}, id="pfs-house"),
        pytest.param("pfs", {"pass"}, id="pfs"),
    ],
)
def test_ruleset_counts_these_turns_toward_the_limit(rules: str, kinds: set[str]) -> None:
    assert set(rulesets.get(rules).pass_kinds) == kinds


# id, edition, rules, players, turns: none of these reaches the notice
BROKEN_RUNS = [
    pytest.param(
        "pl",
        "pfs",
        [c.Pass(), c.Pass(), c.Pass(), c.Exchange(), c.Pass()],
        id="TV-PL-17-exchange-breaks",
    ),
    pytest.param(
        "pl",
        "pfs",
        [c.Pass(), c.Pass(), c.Pass(), c.WithdrawWord(), c.Pass()],
        id="TV-PL-17-lost-turn-breaks",
    ),
    pytest.param(
        "pl",
        "pfs",
        [c.Exchange(), c.Exchange(), c.Exchange(), c.WithdrawWord()],
        id="TV-PL-17-not-pauses",
    ),
    pytest.param(
        "nl",
        "sbnl",
        [c.Pass(), c.Pass(), c.Exchange(), c.Pass(), c.Pass()],
        id="FED-SBNL-07-exchange-breaks",
    ),
    pytest.param(
        "nl",
        "house",
        [c.Pass(), c.Pass(), c.Pass(), c.Exchange(), c.Pass(), c.Pass(), c.Pass()],
        id="house-exchange-breaks",
    ),
    pytest.param(
        "nl",
        "house",
        [c.Pass(), c.Pass(), c.Pass(), c.EnterPoints(0), c.Pass()],
        id="P-31-manual-zero-breaks",
    ),
    pytest.param(
        "nl",
        "sbnl",
        [c.Pass(), c.Pass(), c.EnterPoints(0), c.Pass(), c.Pass()],
        id="P-31-manual-zero-breaks-sbnl",
    ),
    pytest.param(
        "it",
        "figs",
        [c.Pass(), c.Exchange(), c.Pass(), c.Exchange(), c.Pass(), c.EnterPoints(0), c.Pass()],
        id="P-31-manual-zero-breaks-figs",
    ),
    pytest.param(
        "nl",
        "house",
        [
            c.Pass(),
            c.Pass(),
            c.Pass(),
            c.RecordMove(c.BoardMove("H4", "across", "PLANK")),
            c.Pass(),
            c.Pass(),
            c.Pass(),
        ],
        id="a-move-breaks",
    ),
]


@pytest.mark.parametrize(("edition", "rules", "turns"), BROKEN_RUNS)
def test_pass_run_is_broken(edition: str, rules: str, turns: list[c.TableCommand]) -> None:
    assert first_pass_limit(start(edition, rules), turns) is None


def test_pass_run_restarts_after_a_break() -> None:
    # PFS: an exchange is not a pause, so four more pauses are needed after it.
    turns = [c.Pass(), c.Pass(), c.Pass(), c.Exchange(), c.Pass(), c.Pass(), c.Pass(), c.Pass()]
    assert first_pass_limit(start("pl", "pfs"), turns) == 8


@pytest.mark.parametrize(
    ("edition", "rules", "limit"),
    [
        pytest.param("nl", "house", 4, id="house"),
        pytest.param("nl", "sbnl", 3, id="sbnl"),
        pytest.param("it", "figs", 6, id="figs"),
        pytest.param("pl", "pfs", 4, id="pfs"),
    ],
)
def test_penalty_neither_counts_nor_breaks_a_run(edition: str, rules: str, limit: int) -> None:
    # P-31: a penalty uses no turn; it sits in the middle of the run and changes nothing.
    turns: list[c.TableCommand] = [c.Pass()] * (limit - 1)
    turns += [c.GivePenalty(0, 10), c.GivePenalty(1, 10), c.Pass()]
    assert first_pass_limit(start(edition, rules), turns) == limit + 2


def test_penalty_does_not_bring_the_notice_at_the_limit() -> None:
    state = play(start("nl", "sbnl"), c.Pass(), c.Pass())
    state = play(state, c.GivePenalty(0, 20), c.GivePenalty(1, 20), c.GivePenalty(0, 20))
    assert "pass_limit" not in notices(state)


def test_undo_of_a_pass_takes_the_notice_away() -> None:
    state = play(start("nl", "sbnl"), c.Pass(), c.Pass(), c.Pass())
    assert "pass_limit" in notices(state)
    assert "pass_limit" not in notices(play(state, c.Undo()))


# --- penalty figures (P-32, SHC-17) ---


@pytest.mark.parametrize(
    ("code", "figure"),
    [
        pytest.param("sbnl", 20, id="TV-NL-18-wedstrijdregels"),
        pytest.param("house", 10, id="TV-NL-18-huisregels"),
        pytest.param("figs", 10, id="TV-IT-16-figs"),
        pytest.param("house", 10, id="TV-IT-16-base"),
        pytest.param("pfs", 10, id="TV-PL-18-pfs"),
        pytest.param("pfs-house", 10, id="TV-PL-18-house"),
    ],
)
def test_proposed_penalty_default(code: str, figure: int) -> None:
    assert rulesets.get(code).penalty == figure
    assert rulesets.proposed_penalty(rulesets.get(code)) == figure


@pytest.mark.parametrize(
    ("move", "percent", "penalty"),
    [
        pytest.param(35, 10, 3, id="TV-IT-11-unfounded-challenge"),
        pytest.param(35, 20, 7, id="TV-IT-11-invalid-move"),
        pytest.param(5, 10, 1, id="TV-D-10-5-minimum"),
        pytest.param(25, 10, 2, id="TV-D-10-25-half-down"),
        pytest.param(25, 20, 5, id="TV-D-10-25-invalid"),
        pytest.param(4, 20, 1, id="TV-D-10-4-rounds-to-1"),
        pytest.param(0, 20, 1, id="minimum-1"),
        pytest.param(36, 10, 4, id="3.6-up"),
        pytest.param(45, 10, 4, id="4.5-down"),
        pytest.param(13, 20, 3, id="2.6-up"),
    ],
)
def test_figs_penalty(move: int, percent: int, penalty: int) -> None:
    assert rulesets.figs_penalty(move, percent) == penalty


def test_proposed_penalty_figs_percent_of_the_move() -> None:
    figs = rulesets.get("figs")
    assert rulesets.proposed_penalty(figs, 35, 10) == 3  # TV-IT-11
    assert rulesets.proposed_penalty(figs, 35, 20) == 7
    assert rulesets.proposed_penalty(figs, 35) == 7  # an invalid move, by default


def test_proposed_penalty_sbnl_adds_the_wrong_turn() -> None:
    assert rulesets.proposed_penalty(rulesets.get("sbnl"), 28) == 48  # TV-D-11


@pytest.mark.parametrize("code", ["house", "pfs", "pfs-house"])
def test_proposed_penalty_ignores_the_move_without_point_penalties(code: str) -> None:
    assert rulesets.proposed_penalty(rulesets.get(code), 35) == 10


def test_sbnl_penalty_of_48_goes_on_the_sheet() -> None:
    # TV-D-11: the jury's wrong word (28) plus 20, entered with 'Strafpunten'.
    state = play(start("nl", "sbnl"), c.EnterPoints(28), c.EnterPoints(10))
    penalty = rulesets.proposed_penalty(rulesets.get("sbnl"), 28)
    state = play(state, c.GivePenalty(0, penalty))
    sheet = view(state).sheet
    assert sheet is not None
    assert sheet.totals == (-20, 10)


# --- who may play what (P-34) ---


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize(
    ("edition", "rules"),
    [
        pytest.param("nl", "sbnl", id="sbnl"),
        pytest.param("it", "figs", id="figs"),
        pytest.param("pl", "pfs", id="pfs"),
    ],
)
def test_tournament_rules_refuse_three_or_four_players(
    edition: str, rules: str, players: int
) -> None:
    with pytest.raises(GameError) as refused:
        record(State(), c.StartGame(edition, rules=rules, players=(None,) * players))
    assert refused.value.code == "rules_player_count"
    assert refused.value.params["rules"] == rules


@pytest.mark.parametrize(
    ("edition", "rules", "players"),
    [
        pytest.param("nl", "sbnl", 2, id="sbnl-2"),
        pytest.param("it", "figs", 2, id="figs-2"),
        pytest.param("pl", "pfs", 2, id="pfs-2"),
        pytest.param("nl", "house", 4, id="house-4"),
        pytest.param("pl", "pfs-house", 4, id="pfs-house-4"),
        pytest.param("it", "house", 3, id="house-3"),
    ],
)
def test_rules_accept_their_player_counts(edition: str, rules: str, players: int) -> None:
    state = start(edition, rules, players)
    assert state.game is not None
    assert state.game.rules is rulesets.get(rules)
    assert len(state.game.players) == players


def test_unknown_rule_set() -> None:
    with pytest.raises(GameError) as unknown:
        rulesets.get("scrabble-club")
    assert unknown.value.code == "unknown_rules"
    assert unknown.value.params["rules"] == "scrabble-club"
    assert "house" in unknown.value.params["known"]
    with pytest.raises(GameError) as refused:
        record(State(), c.StartGame("nl", rules="scrabble-club"))
    assert refused.value.code == "unknown_rules"


def test_every_ruleset_names_its_source() -> None:
    for code, rules in rulesets.RULE_SETS.items():
        assert rules.code == code
        assert rules.source


# --- exchange warnings (P-33): notices from the tracked bag, never refusals ---


def bag_letters(code: str) -> list[str]:
    """Every lettered tile of the set once, in set order."""
    return [k.face for k in editions.get(code).kinds for _ in range(k.count)]


def typed_moves(code: str, sizes: list[int]) -> list[c.TableCommand]:
    """Typed moves taking ``sizes`` tiles from the bag, letters in set order, none over-used."""
    letters = iter(bag_letters(code))
    return [
        c.RecordMove(typed=(tuple(TypedLetter(t) for t in islice(letters, size)),))
        for size in sizes
    ]


def in_bag(state: State) -> int:
    sheet = view(state).sheet
    assert sheet is not None
    return sheet.tracking.in_bag


def exchange_notices(state: State) -> list[dict]:
    sheet = view(state).sheet
    assert sheet is not None
    return [{"code": n.code, **n.params} for n in sheet.notices if n.code.startswith("exchange")]


def test_pfs_exchange_with_fewer_than_seven_in_the_bag_warns() -> None:
    state = play(start("pl", "pfs"), *typed_moves("pl", [7] * 11 + [2]))
    assert in_bag(state) == 7
    state = play(state, c.Exchange())
    assert exchange_notices(state) == []
    state = play(state, *typed_moves("pl", [7] * 11 + [2, 1])[-1:])
    assert in_bag(state) == 6
    before = state.game
    assert before is not None
    player = before.to_move
    state, log = record(state, c.Exchange())  # never refused
    (warning,) = exchange_notices(state)
    assert warning["code"] == "exchange_bag_low"
    assert warning["bag"] == 6
    assert warning["min"] == 7
    assert warning["player"] == player
    assert state.game is not None and state.game.lines[-1].kind == "exchange"
    assert state.game.lines[-1].seq == log[0].seq


def test_pfs_fourth_exchange_by_a_player_warns() -> None:
    state = start("pl", "pfs")
    for _ in range(3):
        state = play(state, c.Exchange(), c.Exchange())  # both players, three times each
    assert exchange_notices(state) == []
    state = play(state, c.Exchange())  # player 0's fourth
    (warning,) = exchange_notices(state)
    assert warning["code"] == "exchange_limit"
    assert warning["player"] == 0
    assert warning["count"] == 4
    assert warning["max"] == 3
    assert state.game is not None and state.game.lines[-1].kind == "exchange"


def test_figs_exchange_with_fewer_than_three_in_the_bag_warns() -> None:
    state = play(start("it", "figs"), *typed_moves("it", [7] * 14 + [5]))
    assert in_bag(state) == 3
    state = play(state, c.Exchange())
    assert exchange_notices(state) == []
    state = play(state, *typed_moves("it", [7] * 14 + [5, 1])[-1:])
    assert in_bag(state) == 2
    state = play(state, c.Exchange())
    (warning,) = exchange_notices(state)
    assert warning["code"] == "exchange_bag_low"
    assert warning["bag"] == 2
    assert warning["min"] == 3


def test_figs_has_no_exchange_count_limit() -> None:
    state = play(start("it", "figs"), *[c.Exchange()] * 10)
    assert exchange_notices(state) == []


@pytest.mark.parametrize(
    ("edition", "rules"),
    [
        pytest.param("nl", "house", id="house"),
        pytest.param("nl", "sbnl", id="sbnl"),
        pytest.param("pl", "pfs-house", id="pfs-house"),
    ],
)
def test_no_exchange_warnings_without_tournament_checks(edition: str, rules: str) -> None:
    state = play(start(edition, rules), *typed_moves(edition, [7] * 13))
    assert in_bag(state) < 0
    state = play(state, *[c.Exchange()] * 10)
    assert exchange_notices(state) == []


def test_exchange_warning_goes_with_an_undone_exchange() -> None:
    state = play(start("pl", "pfs"), *[c.Exchange()] * 7)
    assert [w["code"] for w in exchange_notices(state)] == ["exchange_limit"]
    assert exchange_notices(play(state, c.Undo())) == []
