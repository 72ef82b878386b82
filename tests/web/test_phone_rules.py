"""The two rules the phone keeps a copy of agree with the server's, case by case.

The phone shows only what it may do (``web/js/rights.js``; the server's rule is
``rules/table/permissions.py``) and splits typed text into tiles as the server reads it
(``web/js/typed.js``; the server's is ``editions/alphabet.py``). Each table of cases runs in
Chromium and in Python; every answer must be the same.
"""

from collections.abc import Iterator

import msgspec
import pytest
from playwright.sync_api import Browser, Page

import editions
from editions import alphabet
from editions.errors import GameError, NotationError
from events import commands as c
from events.events import DeviceJoined, Recorded
from rules.table.decide import check
from rules.table.permissions import Actor
from rules.table.record import record
from rules.table.reducer import evolve
from rules.table.state import State
from rules.table.views import view
from tests.server.serving import ServerProcess
from tests.web.browser import missing_strings, open_app


@pytest.fixture(scope="module")
def page(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    phone = open_app(browser, server.url, "nl")
    yield phone
    assert missing_strings(phone) == []
    phone.context.close()


# --- who may do what (rights.js ↔ permissions.py) -------------------------------------------

ACTORS = {
    "host": Actor("host", None, "host"),
    "ann": Actor("player", 0, "d-ann"),
    "bob": Actor("player", 1, "d-bob"),
    "viewer": Actor("viewer", None, "d-room"),
}


def turn(player: int, number: int = 0) -> c.Turn:
    return c.Turn(1, player, number)


#: The lines written before the question, per mode: none, a seat's own, the host's.
LINES: dict[str, dict[str, tuple[c.TableCommand, ...]]] = {
    "classic": {
        "no line": (),
        "ann's turn": (c.EnterPoints(24, turn=turn(0)),),
        "a penalty": (c.GivePenalty(1, 10, last_line=0),),
        "the end": (
            c.EnterPoints(24, turn=turn(0)),
            c.EnterPoints(12, turn=turn(1)),
            c.EndGame(racks=(c.RackLeft(), c.RackLeft("AB"))),
        ),
    },
    "duplicate": {
        "no line": (),
        "ann's cell": (c.EnterPoints(24, turn=turn(0)),),
        "a top": (c.RecordTop(points=30, round=0),),
        "a room's rack": (c.SetRack("PLANKES"),),
        "a room's slip": (c.SetRack("PLANKES"), c.SubmitSlip("PLANK", "H4", player=0)),
    },
}


def table(mode: str, writers: str, lines: tuple[c.TableCommand, ...]) -> State:
    """Ann and Bob seated at a table whose host started a game and wrote ``lines``."""
    state, _ = record(State(), c.StartGame("nl", mode, players=("Ann", "Bob")))
    for seq, (device, seat) in enumerate((("d-ann", 0), ("d-bob", 1)), state.seq + 1):
        state = evolve(state, Recorded(seq, DeviceJoined(device, "player", seat), at=seq))
    state, _ = record(state, c.SetWriters(writers))
    for line in lines:
        state, _ = record(state, line, device="host")
    return state


def allowed(state: State, actor: Actor, command: c.TableCommand) -> bool:
    try:
        check(state, actor, command)
    except GameError:
        return False
    return True


#: What rights.js answers, and the command the server would be asked for it.
QUESTIONS = {
    "mayTurn(0)": c.EnterPoints(10, player=0),
    "mayTurn(1)": c.EnterPoints(10, player=1),
    "mayUndo": c.Undo(),
    "mayEnd": c.EndGame(),
    "keepsSheet": c.GivePenalty(0, 10),
}


def rights_cases() -> list[dict]:
    cases = []
    for mode, lines in LINES.items():
        for writers in ("own_seat", "scorekeeper"):
            for before, commands in lines.items():
                state = table(mode, writers, commands)
                for name, actor in ACTORS.items():
                    audience = "host" if actor.role == "host" else "member"
                    shown = view(state, audience, actor.seat)
                    cases.append({
                        "case": f"{mode}, {writers}, {before}: {name}",
                        "session": {"table": "t", "token": "x", "role": actor.role,
                                    "seat": actor.seat},
                        "view": msgspec.to_builtins(shown),
                        "server": {q: allowed(state, actor, command)
                                   for q, command in QUESTIONS.items()},
                    })  # fmt: skip
    return cases


def test_the_phone_shows_what_the_server_allows(page: Page) -> None:
    cases = rights_cases()
    assert len(cases) == 2 * 4 * 4 + 2 * 5 * 4  # each setting, line and role of each mode
    phone = page.evaluate(
        """async (cases) => {
            const { app } = await import('/js/state.js');
            const rights = await import('/js/rights.js');
            const answers = cases.map(({ session, view }) => {
                app.session = session;
                app.view = view;
                const game = view.sheet;
                return {
                    'mayTurn(0)': rights.mayTurn(0), 'mayTurn(1)': rights.mayTurn(1),
                    mayUndo: rights.mayUndo(game), mayEnd: rights.mayEnd(game),
                    keepsSheet: rights.keepsSheet(),
                };
            });
            app.session = null;
            app.view = null;
            return answers;
        }""",
        cases,
    )
    differ = [
        (case["case"], question, answer, case["server"][question])
        for case, answers in zip(cases, phone, strict=True)
        for question, answer in answers.items()
        if answer != case["server"][question]
    ]
    assert differ == []


# --- typed text → tiles (typed.js ↔ alphabet.py) --------------------------------------------

TEXTS = [
    "plank", "PLANK", "ĳsCafé", "straße", "Œuvre", "Ærø", "naïve", "ça", "ﬁx", "ǆungla",
    "chico", "c·hico", "llave", "l·lave", "carro", "rr", "ch·", "ñandú", "Łódź", "źdźbło",
    "żółw", "Ärger", "Öl", "ÜBER", "città", "perché", "ÉCOLE", "k1", "a-b", "a b", "日本",
    "Ωmega", "x?", "",
]  # fmt: skip


def split_in_python(code: str, text: str) -> dict:
    faces = frozenset(k.face for k in editions.get(code).kinds)
    try:
        return {"tiles": list(alphabet.split(faces, text))}
    except NotationError as error:
        return {"refused": error.params["char"]}


def test_typed_text_splits_into_the_tiles_the_server_reads(page: Page) -> None:
    cases = [
        {"edition": code, "faces": sorted(k.face for k in editions.get(code).kinds), "text": text}
        for code in editions.codes()
        for text in TEXTS
    ]
    phone = page.evaluate(
        """async (cases) => {
            const typed = await import('/js/typed.js');
            return cases.map(({ faces, text }) => {
                const set = new Set(faces);
                const tiles = typed.split(set, text);
                // The phone keeps a character that is no letter as its own tile, for the
                // server to refuse by name; the server refuses the first one.
                const bad = tiles.find((tile) => typed.kind(set, tile) === 'invalid');
                return bad === undefined ? { tiles } : { refused: bad };
            });
        }""",
        cases,
    )
    differ = [
        (case["edition"], case["text"], answer, server)
        for case, answer in zip(cases, phone, strict=True)
        if answer != (server := split_in_python(case["edition"], case["text"]))
    ]
    assert differ == []
