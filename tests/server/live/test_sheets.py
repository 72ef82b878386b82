"""Changes instead of whole sheets: a change applied to the view before gives the view after,
and a table's sheet is compared once for all of its audiences."""

from typing import Any

import msgspec
import pytest

from events import commands as c
from events.events import DeviceJoined, Recorded
from rules.table.record import record
from rules.table.state import State
from rules.table.views import SheetView
from server.live import sheets
from server.live.sheets import apply
from server.tables.live import Live

AUDIENCES = ("member", "host")


def a_table(*commands: c.TableCommand) -> Live:
    """A table of two that has recorded ``commands`` after its start."""
    live, state = Live(), State()
    for command in (c.StartGame("en", players=("Ann", "Bob")), *commands):
        state, records = record(state, command)
        live.fold(records)
    return live


def decoded(data: str | bytes) -> Any:
    return msgspec.json.decode(sheets.read_frame(data))


def test_every_audience_s_change_gives_its_view_after() -> None:
    live = a_table()
    before = {seen_by: decoded(live.frame((seen_by, None), -1))["view"] for seen_by in AUDIENCES}
    _, records = record(live.state, c.EnterPoints(28, turn=c.Turn(1, 0, 0)))
    live.fold(records)
    for seen_by in AUDIENCES:
        change = decoded(live.frame((seen_by, None), 1))
        assert change["type"] == "change" and (change["after"], change["seq"]) == (1, 2)
        assert apply(before[seen_by], change) == msgspec.json.decode(live.view_json(seen_by))


def test_a_tables_sheet_is_compared_once_for_all_its_audiences(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    live = a_table()
    for seen_by in AUDIENCES:
        live.frame((seen_by, None), -1)
    compared: list[SheetView] = []
    fields = sheets._fields

    def counted(old: Any, new: Any, *rest: Any) -> None:
        if isinstance(new, SheetView):
            compared.append(new)
        fields(old, new, *rest)

    monkeypatch.setattr(sheets, "_fields", counted)
    _, records = record(live.state, c.EnterPoints(28, turn=c.Turn(1, 0, 0)))
    live.fold(records)
    changes = [decoded(live.frame((seen_by, None), 1)) for seen_by in AUDIENCES]
    assert len(compared) == 1
    sheet_parts = [[s for s in change["set"] if s[0][0] == "sheet"] for change in changes]
    assert sheet_parts[0] and sheet_parts[1] == sheet_parts[0]


def test_audiences_whose_part_outside_the_sheet_stayed_the_same_share_one_change() -> None:
    live = a_table()
    for seen_by in AUDIENCES:
        live.frame((seen_by, None), -1)
    _, records = record(live.state, c.EnterPoints(28, turn=c.Turn(1, 0, 0)))
    live.fold(records)
    host, member = (live.frame((seen_by, None), 1) for seen_by in ("host", "member"))
    assert host is member  # found and encoded once for the table's phones
    # A device joining changes the host's part (its devices): the host's change is its own.
    live.fold((Recorded(3, DeviceJoined("d2", "viewer")),))
    change = decoded(live.frame(("host", None), 2))
    assert change["seq"] == 3 and [path for path, *_ in change["splice"]] == [["devices"]]
    assert live.frame(("member", None), 2) is None  # nothing but the seq changed for it
