"""The catalog tells the phone the limits the decider holds a game to: per mode the player
counts, the rule sets and the times per move; per edition the classic rule sets its
language is offered; per rule set the bag an exchange needs. The phone copies none of them,
so each is checked here against what ``decide`` accepts."""

import msgspec
import pytest

import editions
from editions.errors import GameError
from events import commands as c
from events.events import GameStarted, Mode
from rules.board import scoring
from rules.online import play as online
from rules.table import rulesets
from rules.table.decide import decide
from rules.table.state import State
from server.http.catalog import Catalog, ModeInfo, catalog_json

CATALOG = msgspec.json.decode(catalog_json(), type=Catalog)
MODES = {mode.code: mode for mode in CATALOG.modes}


def started(mode: str, rules: str, players: int, move_seconds: int | None = None) -> str:
    """The rule set a game asked for with ``rules`` starts with, or the refusal's code."""
    edition = "woordstrijd" if mode == "online" else "nl"
    command = c.StartGame(
        edition, Mode(mode), rules, players=(None,) * players, move_seconds=move_seconds
    )
    try:
        events = decide(State(), command, seed="seed", contains=lambda word: True)
    except GameError as error:
        return error.code
    assert isinstance(events[0], GameStarted)
    return events[0].rules


def start(mode: str, rules: str, players: int, move_seconds: int | None = None) -> str | None:
    """The code a start is refused with, or None when the game starts as asked."""
    answer = started(mode, rules, players, move_seconds)
    return None if answer == rules else answer


def test_the_catalog_has_every_mode() -> None:
    assert list(MODES) == [mode.value for mode in Mode]


@pytest.mark.parametrize("mode", list(MODES.values()), ids=list(MODES))
def test_a_modes_player_counts_are_those_the_decider_accepts(mode: ModeInfo) -> None:
    rules = mode.rules[0]
    if mode.min_players:
        assert start(mode.code, rules, mode.min_players - 1) == "player_count"
    for count in range(mode.min_players, mode.max_players + 1):
        assert start(mode.code, rules, count) is None, count
    assert start(mode.code, rules, mode.max_players + 1) == "player_count"


def test_the_player_counts_per_mode() -> None:
    counts = {m.code: (m.min_players, m.max_players) for m in CATALOG.modes}
    # SHC-03; a room opens empty, its players register, up to the duplicate rule sets' 200
    assert counts == {"classic": (2, 4), "duplicate": (0, 200), "online": (2, 4)}


@pytest.mark.parametrize("mode", list(MODES.values()), ids=list(MODES))
def test_a_mode_offers_the_rule_sets_made_for_it(mode: ModeInfo) -> None:
    for rules in mode.rules:
        assert start(mode.code, rules, 2) is None, rules
    for other in rulesets.RULE_SETS.keys() - set(mode.rules):
        assert started(mode.code, other, 2) != other, other  # refused, or the mode's own
    assert len(set(mode.rules)) == len(mode.rules)


def test_every_rule_set_belongs_to_one_mode_with_the_deciders_default_first() -> None:
    offered = [rules for mode in CATALOG.modes for rules in mode.rules]
    assert sorted(offered) == sorted(rulesets.RULE_SETS)
    assert [m.rules[0] for m in CATALOG.modes] == ["house", "duplicate", "online"]
    assert MODES["duplicate"].rules == ("duplicate", "duplicate-club")


def test_the_times_per_move_are_the_servers_and_each_is_accepted() -> None:
    assert MODES["online"].move_seconds == online.MOVE_SECONDS_CHOICES
    assert MODES["online"].move_seconds == (120, 600, 3600, 86400, 3 * 86400, 7 * 86400)
    for seconds in MODES["online"].move_seconds:
        assert start("online", "online", 2, move_seconds=seconds) is None, seconds
    assert MODES["classic"].move_seconds == MODES["duplicate"].move_seconds == ()


@pytest.mark.parametrize(
    ("edition", "rules"),
    [
        ("nl", ("house", "sbnl")),
        ("it", ("house", "figs")),
        ("pl", ("pfs-house", "pfs")),
        ("pl-literaki", ("pfs-house", "pfs")),
        ("en", ("house", "wespa", "naspa")),
        ("fr", ("house",)),
    ],
)
def test_an_edition_offers_its_languages_classic_rules(
    edition: str, rules: tuple[str, ...]
) -> None:
    info = next(e for e in CATALOG.editions if e.code == edition)
    assert info.classic_rules == rules


def test_every_editions_classic_rules_start_a_classic_sheet_of_four_with_the_first() -> None:
    for info in CATALOG.editions:
        assert info.code in editions.codes()
        assert set(info.classic_rules) <= set(MODES["classic"].rules), info.code
        assert rulesets.get(info.classic_rules[0]).max_players == 4, info.code  # house rules


def test_a_rule_sets_game_clock_is_the_servers() -> None:
    for info in CATALOG.rules:
        rules = rulesets.get(info.code)
        assert (info.clock_minutes, info.overtime) == (rules.clock_minutes, rules.overtime)
    wespa = next(info for info in CATALOG.rules if info.code == "wespa")
    assert (wespa.clock_minutes, wespa.overtime, wespa.overtime_points) == (25, "points", 10)


def test_a_rule_sets_exchange_bag_and_the_typed_move_limit_are_the_servers() -> None:
    for info in CATALOG.rules:
        assert info.exchange_min_bag == rulesets.get(info.code).exchange_min_bag
    assert next(r for r in CATALOG.rules if r.code == "online").exchange_min_bag == 7  # P-51
    assert CATALOG.max_cross_words == scoring.MAX_CROSS_WORDS == 7  # TYP-03
