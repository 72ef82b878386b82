"""The phone reads and writes a move's reference as the server does (issue 25, item 6).

``web/js/references.js`` is the phone's copy of ``rules/board/squares.py``'s
``parse_reference`` and ``reference``; the rule set says which convention
(``/api/catalog``'s ``references``). Each table of cases runs in Chromium and in Python;
every answer must be the same.
"""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from rules.board.squares import CONVENTIONS, Direction, Square, parse_reference, reference
from rules.errors import NotationError
from rules.table import rulesets
from tests.server.serving import ServerProcess
from tests.web.browser import missing_strings, open_app


@pytest.fixture(scope="module")
def page(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    phone = open_app(browser, server.url, "fr")
    yield phone
    assert missing_strings(phone) == []
    phone.context.close()


TEXTS = [
    "H4", "4H", "h4", "4h", "8G", "G8", " 8g ", "B8", "8B", "A1", "1A", "O15", "15O", "o15",
    "H15", "15H", "H16", "16H", "H0", "0H", "H04", "04H", "P4", "4P", "H", "4", "", "44", "HH",
    "4HH", "H4H", "4H4", "4 H", "H 4", "H-4", "H²", "²H", "H٤", "ß", "ǆ1", "H4.", "+4H", "-1A",
]  # fmt: skip


def read_in_python(text: str, convention: str, direction: str) -> dict:
    try:
        square, way = parse_reference(text, convention, direction)  # type: ignore[arg-type]
    except NotationError as error:
        return {"refused": error.code, "text": error.params["text"]}
    return {"square": square.name, "direction": str(way)}


def test_a_typed_reference_reads_as_the_server_reads_it(page: Page) -> None:
    cases = [
        {"text": text, "convention": convention, "direction": str(direction)}
        for text in TEXTS
        for convention in CONVENTIONS
        for direction in Direction
    ]
    phone = page.evaluate(
        """async (cases) => {
            const { parseReference } = await import('/js/references.js');
            return cases.map(({ text, convention, direction }) => {
                const read = parseReference(text, convention, direction);
                return read.refusal ? { refused: read.refusal[0], text: read.refusal[1].text }
                    : read;
            });
        }""",
        cases,
    )
    differ = [
        (case, answer, server)
        for case, answer in zip(cases, phone, strict=True)
        if answer != (server := read_in_python(**case))
    ]
    assert differ == []


def test_every_move_is_written_as_the_server_writes_it(page: Page) -> None:
    cases = [
        {"square": Square(row, col).name, "direction": str(direction), "convention": convention}
        for row in range(15)
        for col in range(15)
        for direction in Direction
        for convention in CONVENTIONS
    ]
    phone = page.evaluate(
        """async (cases) => {
            const { reference } = await import('/js/references.js');
            return cases.map((c) => reference(c.square, c.direction, c.convention));
        }""",
        cases,
    )
    server = [
        reference(Square.parse(c["square"]), c["direction"], c["convention"])  # type: ignore[arg-type]
        for c in cases
    ]
    assert phone == server


def test_the_catalog_tells_the_phone_each_rule_sets_convention(page: Page) -> None:
    sent = page.evaluate(
        """async () => {
            const { app } = await import('/js/state.js');
            const { conventionOf } = await import('/js/references.js');
            return Object.fromEntries(app.catalog.rules.map((r) => [r.code, conventionOf(r)]));
        }"""
    )
    assert sent == {code: r.references for code, r in rulesets.RULE_SETS.items()}
    assert sent["duplicate"] == "fisf"  # the FISF duplicate rule set
    assert {sent[code] for code in sent if code != "duplicate"} == {"board"}
