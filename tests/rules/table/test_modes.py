"""The table of modes (rules/table/modes.py): every mode registered, and every event and
command of the unions in ``events`` given to a handler — the table's own or each mode's.

The handlers ``match`` with ``typing.assert_never``, so mypy refuses a union member without
one; these tests hold the partitions the dispatch is built on to the unions themselves.
"""

from typing import get_args

from events import commands as c
from events import events as e
from rules.table import modes
from rules.table.mode import GameCommand, GameEvent

TABLE_EVENTS = {e.GameStarted, e.LineUndone, e.WritersSet, e.DeviceJoined, e.DeviceAdmitted,
                e.DeviceRemoved, e.DirectorAppointed, e.RecoverySet,
                e.DirectorReplaced, e.CentreJoined, e.SimultaneousCreated, e.GameSealed,
                e.CentreAdded, e.WindowClosed, e.HostSeated, e.DeviceLabelled}  # fmt: skip
TABLE_COMMANDS = {c.StartGame, c.NewGame, c.Undo, c.SetWriters, c.AdmitDevice, c.RemoveDevice,
                  c.AppointDirector, c.LabelDevice}  # fmt: skip


def test_every_mode_has_its_rules_in_the_table() -> None:
    assert set(modes.MODES) == set(e.Mode)
    assert all(rules.mode is mode for mode, rules in modes.MODES.items())


def test_every_event_is_the_tables_or_a_games() -> None:
    games = set(get_args(GameEvent))
    assert games.isdisjoint(TABLE_EVENTS)
    assert games | TABLE_EVENTS == set(get_args(e.TableEvent))


def test_every_command_is_the_tables_or_a_games() -> None:
    games = set(get_args(GameCommand))
    assert games.isdisjoint(TABLE_COMMANDS)
    assert games | TABLE_COMMANDS == set(get_args(c.TableCommand))
