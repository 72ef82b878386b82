"""Spoken moves (issue 27): a phone that asked for it reads each new line of the classic sheet
aloud in its own language, once, however many frames bring it; a phone that did not stays
silent; an undo is said; a reload reads none of the history, and waits for a tap as a phone's
browser does.

Headless Chromium has no voices, so every phone's ``speechSynthesis.speak`` is replaced before
the app loads with a recorder of each utterance's text and language. Like Chromium on a phone
(since version 71) it refuses, with a ``not-allowed`` error, while the page has not been
tapped or typed in since it loaded.
"""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    create_table,
    join_table,
    missing_strings,
    open_app,
    post,
    shot,
    show,
    wait_for_state,
)

RECORDER = """
window.spoken = [];
let touched = false;  // this page's own: Playwright's pages count as touched from the start
for (const type of ["click", "keydown"]) {
  addEventListener(type, () => { touched = true; }, { capture: true });
}
speechSynthesis.speak = (utterance) => {
  if (touched) {
    window.spoken.push({ text: utterance.text, lang: utterance.lang });
    return;
  }
  const refusal = new Event("error");
  refusal.error = "not-allowed";
  setTimeout(() => utterance.dispatchEvent(refusal));
};
"""
PLANK = {"type": "record_move", "board": {"start": "H4", "direction": "across", "letters": "PLANK"}}
KRAAN = {"type": "record_move", "board": {"start": "F6", "direction": "down", "letters": "KRAN"}}
# A move the list lacks, challenged: PLANK across H8 gives KXK down its K (as test_challenge).
PLANK_H8 = {
    "type": "record_move",
    "board": {"start": "H8", "direction": "across", "letters": "PLANK"},
}
KXK = {"type": "record_move", "board": {"start": "H12", "direction": "down", "letters": "XK"}}


def phone(browser: Browser, server: ServerProcess) -> Page:
    """A Dutch phone whose speech is recorded."""
    page = open_app(browser, server.url, "nl")
    page.context.add_init_script(RECORDER)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    return page


@pytest.fixture
def table(browser: Browser, server: ServerProcess) -> Iterator[tuple[Page, Page, Page]]:
    """The host's phone (it keeps the score), Anna's and Bas's, at a table for Anna and Bas,
    each on the sheet."""
    host = phone(browser, server)
    code = create_table(host, ["Anna", "Bas"])
    anna, bas = phone(browser, server), phone(browser, server)
    join_table(anna, code, "Anna")
    join_table(bas, code, "Bas")
    for page in (host, anna, bas):
        show(page, "sheet")
    yield host, anna, bas
    for page in (host, anna, bas):
        assert missing_strings(page) == []
        page.context.close()


def spoken(page: Page) -> list[tuple[str, str]]:
    return [(said["text"], said["lang"]) for said in page.evaluate("() => window.spoken")]


def said(page: Page, *texts: str) -> None:
    """Wait until ``page`` has said exactly ``texts`` (text, language) since it loaded."""
    page.wait_for_function(f"() => window.spoken.length >= {len(texts)}")
    assert spoken(page) == list(texts)


def speak_up(page: Page) -> None:
    page.locator("#speech-toggle").check()


def lines_shown(page: Page, count: int) -> None:
    """The sheet shows ``count`` lines: every frame before them has been taken in."""
    expect(page.locator(".rounds .line")).to_have_count(count)


def test_a_move_is_spoken_once_in_each_phones_language_and_only_where_asked(
    server: ServerProcess, table: tuple[Page, Page, Page]
) -> None:
    host, anna, bas = table
    bas.locator("#language").select_option("en")
    expect(bas.get_by_label("Read new lines aloud")).not_to_be_checked()
    speak_up(host)
    speak_up(bas)
    said(host, ("Voorlezen staat aan.", "nl"))
    said(bas, ("Reading aloud is on.", "en"))
    shot(host, "speech-toggle")

    post(anna, server, PLANK)
    said(host, ("Voorlezen staat aan.", "nl"), ("Anna: PLANK, 28 — totaal 28", "nl"))
    said(bas, ("Reading aloud is on.", "en"), ("Anna: PLANK, 28 — total 28", "en"))
    # Bas types his points on his phone; Anna passes and Bas lays KRAAN from theirs.
    bas.get_by_label("Points, up to 2,000").fill("16")
    bas.get_by_role("button", name="Record points").click()
    lines_shown(anna, 2)
    post(anna, server, {"type": "pass"})
    lines_shown(bas, 3)  # a phone names the turn it shows: Bas's, once the pass is there
    post(bas, server, KRAAN)
    lines_shown(host, 4)
    # The host's phone drops its connection and is sent the whole sheet again on its return:
    # nothing of it is said twice.
    host.evaluate(
        """async () => {
            const live = await import('/js/live.js');
            live.disconnect();
            live.connect();
        }"""
    )
    wait_for_state(host, "app => app.online")
    post(host, server, {"type": "undo"})
    said(
        host,
        ("Voorlezen staat aan.", "nl"),
        ("Anna: PLANK, 28 — totaal 28", "nl"),
        ("Bas: 16 punten ingetypt — totaal 16", "nl"),
        ("Anna past — totaal 28", "nl"),
        ("Bas: KRAAN, 16 — totaal 32", "nl"),
        ("Regel van Bas geschrapt", "nl"),
    )
    said(
        bas,
        ("Reading aloud is on.", "en"),
        ("Anna: PLANK, 28 — total 28", "en"),
        ("Bas: 16 points typed in — total 16", "en"),
        ("Anna passes — total 28", "en"),
        ("Bas: KRAAN, 16 — total 32", "en"),
        ("Bas's line struck out", "en"),
    )
    lines_shown(anna, 3)  # the undo reached Anna's phone too: it said nothing of any of it
    assert spoken(anna) == []


def test_every_kind_of_line_a_verdict_and_the_end_have_their_sentence(
    server: ServerProcess, table: tuple[Page, Page, Page]
) -> None:
    host, anna, _ = table
    speak_up(anna)
    post(host, server, PLANK_H8)
    post(host, server, KXK)
    line = host.evaluate("async () => (await import('/js/state.js')).app.view.sheet.last_line")
    post(host, server, {"type": "challenge", "line": line, "player": 0})
    post(host, server, {"type": "exchange"})
    post(host, server, {"type": "withdraw_word"})
    post(host, server, {"type": "give_penalty", "player": 1, "points": 10})
    post(host, server, {"type": "give_penalty", "player": 0, "points": 1})
    post(host, server, {"type": "undo"})  # Anna's penalty
    post(host, server, {"type": "end_game", "racks": [[None, None], [None, 3]]})
    post(host, server, {"type": "undo"})  # the end
    said(
        anna,
        ("Voorlezen staat aan.", "nl"),
        ("Anna: PLANK, 28 — totaal 28", "nl"),
        ("Bas: KXK, 14 — totaal 14", "nl"),
        ("Anna vocht KXK van Bas aan. De zet is niet geldig. Niet in de lijst: KXK.", "nl"),
        ("Bas neemt het woord terug — totaal 0", "nl"),  # what the verdict costs him
        ("Anna ruilt — totaal 28", "nl"),
        ("Bas neemt het woord terug — totaal 0", "nl"),
        ("Bas: 10 strafpunten — totaal -10", "nl"),
        ("Anna: 1 strafpunt — totaal 27", "nl"),
        ("Regel van Anna geschrapt", "nl"),
        ("Het spel is afgelopen. Eindstand: Anna 31, Bas -13.", "nl"),
        ("Het einde van het spel is teruggedraaid.", "nl"),
    )


def test_a_reload_reads_none_of_the_history_and_waits_for_a_tap(
    server: ServerProcess, table: tuple[Page, Page, Page]
) -> None:
    host, anna, bas = table
    speak_up(host)
    post(anna, server, PLANK)
    said(host, ("Voorlezen staat aan.", "nl"), ("Anna: PLANK, 28 — totaal 28", "nl"))
    host.reload()
    host.wait_for_selector("body[data-ready=true]")
    show(host, "sheet")
    lines_shown(host, 1)
    wait_for_state(host, "app => app.online && !app.kept")
    expect(host.locator("#speech-toggle")).to_be_checked()  # the phone's choice is kept

    # Untouched since the reload, the browser refuses to speak: the phone asks for a tap.
    lines_shown(bas, 1)
    post(bas, server, {"type": "pass"})
    lines_shown(host, 2)
    expect(host.locator("#messages .message")).to_have_text(
        "Tik één keer op het scherm: de browser leest pas voor na een tik."
    )
    assert spoken(host) == []
    host.locator("#sheet-title").click()
    said(host, ("Bas past — totaal 0", "nl"))
    # Switched off, it stays silent.
    host.locator("#speech-toggle").uncheck()
    lines_shown(anna, 2)
    post(anna, server, {"type": "enter_points", "points": 12})
    lines_shown(host, 3)
    assert spoken(host) == [("Bas past — totaal 0", "nl")]
