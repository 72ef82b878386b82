"""The classic score sheet: totals and turns live on every phone, zero turns, penalties,
undo, the two-tap clear, the pass-limit notice and the end of the game (SHC, END)."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from rules.table.rulesets import figs_penalty
from tests.server.serving import ServerProcess
from tests.web.browser import (
    create_table,
    join_table,
    missing_strings,
    open_app,
    post,
    shot,
)

LANGUAGES = ["nl", "en", "fr", "de", "es", "it", "pl"]
SBNL = "Wedstrijdregels (SBNL)"
FIGS = "Wedstrijdregels (FIGS)"
HOUSE = "Huisregels"
PLANK = {"type": "record_move", "board": {"start": "H4", "direction": "across", "letters": "PLANK"}}


def new_sheet(page: Page, players: list[str], **options: str) -> str:
    """Start a sheet and wait until the table has it; the join code."""
    code = create_table(page, players, **options)
    expect(page.locator(".scoreboard .name")).to_have_text(players)
    return code


def to_move(page: Page, name: str) -> None:
    expect(page.locator(".scoreboard .turn-line")).to_have_text(f"{name} is aan de beurt")
    expect(page.locator(".scoreboard li.to-move .name")).to_have_text(name)


def cell(page: Page, round_number: int, player: int):
    """The table cell of a round (from 1) and a player (from 0)."""
    row = page.locator(".rounds tbody tr").nth(round_number - 1)
    return row.locator("td").nth(player)


def enter_points(page: Page, points: int) -> None:
    page.get_by_label("Punten, tot 2.000").fill(str(points))
    page.get_by_role("button", name="Punten noteren").click()


@pytest.fixture
def guest(browser: Browser, server: ServerProcess):
    pages = []

    def join(code: str, seat: str = "Bas") -> Page:
        page = open_app(browser, server.url, "nl")
        join_table(page, code, seat)
        pages.append(page)
        return page

    yield join
    for page in pages:
        assert missing_strings(page) == []
        page.context.close()


def test_totals_and_who_is_to_move_follow_on_a_second_phone(phone: Page, guest) -> None:
    code = new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    other = guest(code)
    to_move(other, "Anna")
    enter_points(phone, 28)
    expect(other.locator(".scoreboard .total")).to_have_text(["28", "0"])
    to_move(other, "Bas")
    enter_points(other, 16)
    expect(phone.locator(".scoreboard .total")).to_have_text(["28", "16"])
    to_move(phone, "Anna")
    expect(phone.locator(".scoreboard")).to_have_attribute("aria-live", "polite")
    phone.get_by_role("button", name="Passen").click()
    expect(cell(other, 2, 0)).to_contain_text("pas")
    shot(phone, "sheet-mid-game")


def test_a_computed_move_shows_its_words_and_formula(phone: Page, server: ServerProcess) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    post(phone, server, PLANK)
    first = cell(phone, 1, 0)
    expect(first.locator(".points")).to_have_text("28")
    first.get_by_text("PLANK", exact=True).click()
    expect(first).to_contain_text("PLANK: (3 × 2 + 3 + 1 + 1 + 3) × 2 = 28")


def test_a_formula_opened_stays_open_when_another_phone_writes(
    phone: Page, guest, server: ServerProcess
) -> None:
    """A player checking a word's formula keeps it in view while the table plays on."""
    code = new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    other = guest(code)
    post(phone, server, PLANK)
    first = cell(phone, 1, 0)
    first.get_by_text("PLANK", exact=True).click()
    formula = "PLANK: (3 × 2 + 3 + 1 + 1 + 3) × 2 = 28"
    expect(first.get_by_text(formula)).to_be_visible()
    to_move(other, "Bas")
    enter_points(other, 16)
    expect(phone.locator(".scoreboard .total")).to_have_text(["28", "16"])
    expect(first.get_by_text(formula)).to_be_visible()
    first.get_by_text("PLANK", exact=True).click()  # and folds at a tap, as before
    expect(first.get_by_text(formula)).to_be_hidden()


def test_pass_exchange_and_withdrawn_word_score_nothing_and_pass_the_turn(phone: Page) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    phone.get_by_role("button", name="Passen").click()
    to_move(phone, "Bas")
    phone.get_by_role("button", name="Ruilen").click()
    to_move(phone, "Anna")
    phone.get_by_role("button", name="Woord teruggenomen").click()
    to_move(phone, "Bas")
    expect(cell(phone, 1, 0).locator(".line-pass")).to_have_text("pas")
    expect(cell(phone, 1, 1).locator(".line-exchange")).to_have_text("ruil")
    expect(cell(phone, 2, 0).locator(".line-withdrawn")).to_have_text("woord terug")
    expect(phone.locator(".scoreboard .total")).to_have_text(["0", "0"])


def test_manual_points_go_up_to_2000_written_the_dutch_way(phone: Page) -> None:
    new_sheet(phone, ["Anna", "Bas"])
    enter_points(phone, 2000)  # TV-NL-20
    expect(phone.locator(".scoreboard .total")).to_have_text(["2.000", "0"])
    enter_points(phone, 2001)  # TV-D-18
    expect(phone.get_by_role("alert")).to_have_text("Typ een heel getal van 0 tot 2.000.")
    expect(phone.locator(".rounds .line")).to_have_count(1)
    to_move(phone, "Bas")


@pytest.mark.parametrize(
    ("rules", "edition", "proposed"),
    [(SBNL, "nl", "20"), (HOUSE, "nl", "10"), (FIGS, "it", "10")],
)  # TV-NL-18, TV-IT-16: FIGS's share comes once a move is chosen
def test_the_penalty_panel_proposes_the_figure_of_the_rules(
    phone: Page, server: ServerProcess, rules: str, edition: str, proposed: str
) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=rules, edition=edition)
    post(phone, server, {"type": "enter_points", "points": 105})  # FIGS's 20 % would be 21
    phone.get_by_text("Strafpunten", exact=True).click()
    expect(phone.get_by_label("Punten eraf")).to_have_value(proposed)


def test_sbnl_penalty_is_20_plus_the_wrong_turn_and_uses_no_turn(
    phone: Page, server: ServerProcess
) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    post(phone, server, PLANK)
    post(phone, server, {"type": "enter_points", "points": 16})
    phone.get_by_text("Strafpunten", exact=True).click()
    phone.get_by_label("Strafpunten voor").select_option(label="Anna")
    phone.get_by_label("Beurt met het foute woord").select_option(label="Anna, ronde 1: PLANK (28)")
    expect(phone.get_by_label("Punten eraf")).to_have_value("48")  # TV-D-11
    phone.get_by_role("button", name="Strafpunten geven").click()
    expect(phone.locator(".scoreboard .total")).to_have_text(["-20", "16"])
    expect(cell(phone, 2, 0).locator(".line-penalty")).to_have_text("strafpunten -48")
    expect(cell(phone, 2, 0).locator(".running")).to_have_text("totaal -20")
    to_move(phone, "Anna")


@pytest.mark.parametrize(
    ("move", "reason", "payer", "expected"),
    [  # FED-FIGS-07, TV-IT-11, TV-D-10
        (35, "Ongeldige zet: 20%", "Anna", "7"),
        (35, "Onterecht aangevochten: 10%", "Bas", "3"),
        (5, "Onterecht aangevochten: 10%", "Bas", "1"),
        (25, "Onterecht aangevochten: 10%", "Bas", "2"),
        (25, "Ongeldige zet: 20%", "Anna", "5"),
        (4, "Ongeldige zet: 20%", "Anna", "1"),
    ],
)
def test_figs_penalty_is_a_share_of_the_challenged_move(
    phone: Page, server: ServerProcess, move: int, reason: str, payer: str, expected: str
) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=FIGS, edition="it")
    post(phone, server, {"type": "enter_points", "points": move})
    phone.get_by_text("Strafpunten", exact=True).click()
    phone.get_by_label("Aangevochten zet").select_option(
        label=f"Anna, ronde 1: ingetypte punten ({move})"
    )
    phone.get_by_label(reason).check()
    expect(phone.get_by_label("Punten eraf")).to_have_value(expected)
    expect(phone.get_by_label("Strafpunten voor").locator("option:checked")).to_have_text(payer)


def test_the_phone_rounds_figs_penalties_as_the_rules_do(phone: Page) -> None:
    cases = [(points, percent) for points in range(0, 301) for percent in (10, 20)]
    found = phone.evaluate(
        """async (cases) => {
            const { figsPenalty } = await import('/js/penalty.js');
            return cases.map(([points, percent]) => figsPenalty(points, percent));
        }""",
        cases,
    )
    assert found == [figs_penalty(points, percent) for points, percent in cases]


def test_undo_removes_the_last_line_on_every_phone(phone: Page, guest) -> None:
    code = new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    undo = phone.get_by_role("button", name="Laatste regel ongedaan maken")
    expect(undo).to_be_disabled()
    other = guest(code)
    enter_points(phone, 10)
    other_undo = other.get_by_role("button", name="Laatste regel ongedaan maken")
    expect(other_undo).to_have_count(0)  # Anna's line is not Bas's to undo
    enter_points(other, 20)
    expect(other.get_by_text("Strafpunten", exact=True)).to_have_count(0)  # the host's
    phone.get_by_text("Strafpunten", exact=True).click()
    phone.get_by_role("button", name="Strafpunten geven").click()
    expect(other.locator(".scoreboard .total")).to_have_text(["10", "0"])
    undo.click()  # the host takes the penalty back
    expect(other.locator(".scoreboard .total")).to_have_text(["10", "20"])
    other_undo.click()  # P-30: Bas undoes his own 20
    expect(phone.locator(".scoreboard .total")).to_have_text(["10", "0"])
    to_move(other, "Bas")
    expect(other.locator(".rounds .line")).to_have_count(1)
    expect(other_undo).to_have_count(0)


def test_clearing_the_sheet_takes_two_taps(phone: Page) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    enter_points(phone, 12)
    clear = phone.locator("#sheet-clear")
    clear.click()
    expect(clear).to_have_text("Tik nog eens om te wissen")
    expect(clear).to_be_focused()
    expect(phone.locator(".scoreboard .total")).to_have_text(["12", "0"])
    expect(clear).to_have_text("Formulier wissen", timeout=6000)  # unarmed again
    expect(phone.locator(".scoreboard .total")).to_have_text(["12", "0"])
    clear.click()
    clear.click()
    expect(phone.locator(".scoreboard .total")).to_have_text(["0", "0"])
    expect(phone.get_by_text("Nog geen beurten.")).to_be_visible()
    expect(phone.locator(".scoreboard .name")).to_have_text(["Anna", "Bas"])
    expect(phone.locator(".sheet-rules")).to_contain_text(SBNL)
    to_move(phone, "Anna")


@pytest.mark.parametrize(
    ("edition", "rules", "turns"),
    [
        ("nl", SBNL, ["pass"] * 3),  # TV-NL-17
        ("nl", HOUSE, ["pass"] * 4),  # TV-NL-16
        ("it", FIGS, ["pass", "exchange"] * 3),  # TV-IT-15
    ],
)
def test_the_pass_limit_brings_a_notice_and_never_ends_the_game(
    phone: Page, server: ServerProcess, edition: str, rules: str, turns: list[str]
) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=rules, edition=edition)
    # FIGS counts exchanges and withdrawn words too: its run is of scoreless turns.
    code = "scoreless_limit" if rules == FIGS else "pass_limit"
    notice = phone.locator(f".notices [data-code={code}]")
    for kind in turns[:-1]:
        post(phone, server, {"type": kind})
    expect(phone.locator(".rounds .line")).to_have_count(len(turns) - 1)
    expect(notice).to_have_count(0)
    post(phone, server, {"type": turns[-1]})
    expect(notice).to_be_visible()
    if rules == FIGS:
        expect(notice).to_contain_text("6 beurten op rij zonder punten")
    expect(phone.get_by_role("button", name="Punten noteren")).to_be_visible()  # SHC-23
    expect(phone.locator(".final")).to_have_count(0)


def end_form(page: Page, racks: list[str]) -> None:
    page.get_by_role("button", name="Spel beëindigen").click()
    expect(page.locator("#end-rack-0")).to_be_focused()
    for index, rack in enumerate(racks):
        page.locator(f"#end-rack-{index}").fill(rack)


def final_rows(page: Page) -> list[list[str]]:
    rows = page.locator(".final-table tbody tr")
    expect(rows.first).to_be_visible()
    return [row.locator("th, td").all_inner_texts() for row in rows.all()]


@pytest.mark.parametrize(
    ("totals_before", "passes", "racks", "expected"),
    [
        # FED-SBNL-10 / TV-NL-11: after passes, 450 v 460 with 4 and 15 left → 446 v 445
        (
            [450, 460],
            3,
            ["4", "QAZ"],
            [["Anna", "450", "-4", "446", "1"], ["Bas", "460", "-15", "445", "2"]],
        ),
        # FED-SBNL-10 / TV-NL-12: Anna on 510 goes out, Bas holds 6 → 516 v 514
        (
            [510, 520],
            0,
            ["", "dak"],
            [["Anna", "510", "+6", "516", "1"], ["Bas", "520", "-6", "514", "2"]],
        ),
    ],
)
def test_the_end_of_game_settles_as_the_sbnl_rules_work_it_out(
    phone: Page,
    server: ServerProcess,
    totals_before: list[int],
    passes: int,
    racks: list[str],
    expected: list[list[str]],
) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    for points in totals_before:
        post(phone, server, {"type": "enter_points", "points": points})
    for _ in range(passes):
        post(phone, server, {"type": "pass"})
    expect(phone.locator(".rounds .line")).to_have_count(len(totals_before) + passes)
    end_form(phone, racks)
    expect(phone.locator(".end-form .going-out")).to_contain_text("meteen afgelopen")  # P-36
    if not passes:
        shot(phone, "sheet-end-form")
    phone.get_by_role("button", name="Eindstand opmaken").click()
    headers = phone.locator(".final-table thead th")
    expect(headers).to_have_text(["speler", "score vooraf", "verrekening", "eindstand", "plaats"])
    assert final_rows(phone) == expected
    expect(phone.locator(".scoreboard .turn-line")).to_have_text("Het spel is afgelopen.")
    expect(phone.locator(".scoreboard .total")).to_have_text([row[3] for row in expected])
    expect(phone.get_by_role("button", name="Punten noteren")).to_have_count(0)
    if not passes:
        shot(phone, "sheet-final-table")


def test_a_refused_end_is_not_said_over_the_final_table(phone: Page, server: ServerProcess) -> None:
    """Eight letters are refused; the rack mended, the game ends and the refusal goes with
    it, not when its message would time out (8 s) over the final table."""
    new_sheet(phone, ["Anna", "Bas"], rules=HOUSE)
    post(phone, server, {"type": "enter_points", "points": 20})
    end_form(phone, ["", "ABCDEFGH"])
    phone.get_by_role("button", name="Eindstand opmaken").click()
    alert = phone.locator("#messages .message.error")
    expect(alert).to_contain_text("Te veel letters")
    phone.locator("#end-rack-1").fill("AB")
    phone.get_by_role("button", name="Eindstand opmaken").click()
    expect(phone.locator(".final-table")).to_be_visible()
    expect(alert).to_have_count(0, timeout=4_000)  # under the message's own 8 s


def test_after_the_end_the_rounds_table_ends_in_the_settled_totals(
    phone: Page, server: ServerProcess
) -> None:
    """Issue 27: the rounds table said 46/27/38 under a final table of 64/16/31. Its foot
    now shows the totals before the settlement, the settlement, and the final scores."""
    new_sheet(phone, ["Anna", "Bas", "Cas"], rules=HOUSE)
    for points in (46, 27, 38):
        post(phone, server, {"type": "enter_points", "points": points})
    post(phone, server, {"type": "end_game", "racks": [[None, None], [None, 11], [None, 7]]})
    expect(phone.locator(".final-table tbody tr")).to_have_count(3)
    finals = [row[3] for row in sorted(final_rows(phone))]  # Anna, Bas, Cas
    assert finals == ["64", "16", "31"]
    foot = phone.locator(".rounds tfoot tr")
    expect(foot).to_have_count(3)
    expect(foot.nth(0).locator("th, td")).to_have_text(["Vóór de verrekening", "46", "27", "38"])
    expect(foot.nth(1).locator("th, td")).to_have_text(["Verrekening", "+18", "-11", "-7"])
    expect(foot.nth(2).locator("th, td")).to_have_text(["Eindstand", *finals])
    shot(phone, "sheet-rounds-settled")
    # Undoing the end brings back the one total row.
    phone.get_by_role("button", name="Laatste regel ongedaan maken").click()
    expect(foot).to_have_count(1)
    expect(foot.locator("th, td")).to_have_text(["Totaal", "46", "27", "38"])


# The final table's headings and names, each cut into the pieces a line may end after: a
# heading at its spaces and at the syllables its string marks (soft hyphens), a name at its
# spaces. A piece drawn on two lines was broken inside it ("verrekeni/ng", "Christia/an").
BROKEN_INSIDE = """() => {
  const broken = [];
  // A letter's line: the lowest of its boxes (a range that starts a line after a soft hyphen
  // also has the hyphen drawn at the end of the line before).
  const line = (text, at) => {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + 1);
    return Math.max(...[...range.getClientRects()].map((box) => Math.round(box.top)));
  };
  for (const cell of document.querySelectorAll('.final-table th')) {
    const text = cell.firstChild;
    let at = 0;
    for (const piece of cell.textContent.split(/(?<=[ \u00ad])/)) {
      const letters = piece.replace(/[ \u00ad]$/, "").length;
      const lines = new Set(Array.from({ length: letters }, (_, i) => line(text, at + i)));
      if (lines.size > 1) broken.push(piece);
      at += piece.length;
    }
  }
  const wrap = document.querySelector('.final-table').parentElement;
  return { broken, overflow: wrap.scrollWidth - wrap.clientWidth };
}"""


def test_the_final_table_of_four_breaks_no_word_at_360_or_320_px_in_any_language(
    phone: Page, server: ServerProcess
) -> None:
    """At 360 px and at 320 px every heading breaks only between its syllables, every name
    stays whole, and the table needs no sideways scroll."""
    new_sheet(phone, ["Anna", "Bas", "Christiaan", "Dorothea"], rules=HOUSE)
    for points in (450, 460, 300, 20):
        post(phone, server, {"type": "enter_points", "points": points})
    post(
        phone,
        server,
        {"type": "end_game", "racks": [[None, None], [None, 6], [None, 15], [None, 1]]},
    )
    expect(phone.locator(".final-table tbody tr")).to_have_count(4)
    for language in LANGUAGES:
        phone.evaluate("(code) => import('/js/i18n.js').then((m) => m.setLanguage(code))", language)
        expect(phone.locator("html")).to_have_attribute("lang", language)
        for width in (360, 320):
            phone.set_viewport_size({"width": width, "height": 800})
            found = phone.evaluate(BROKEN_INSIDE)
            assert found == {"broken": [], "overflow": 0}, (language, width)
    # Scrolled by the page itself, in one step: Playwright's scroll holds the element it
    # found, and failed in a full run when the table was drawn anew meanwhile.
    scroll_to = "() => document.querySelector('.final-table').scrollIntoView({block: 'center'})"
    phone.evaluate(scroll_to)
    shot(phone, "sheet-final-table-320-pl", full_page=False)
    phone.set_viewport_size({"width": 360, "height": 800})
    phone.evaluate(scroll_to)
    shot(phone, "sheet-final-table-360-pl", full_page=False)


def test_ties_share_a_place(phone: Page, server: ServerProcess) -> None:
    new_sheet(phone, ["Anna", "Bas", "Cor"], rules=HOUSE)
    for points in (300, 300, 250):  # TV-D-25
        post(phone, server, {"type": "enter_points", "points": points})
    post(phone, server, {"type": "end_game", "racks": [[None, 0]] * 3})
    assert [row[0] + ":" + row[4] for row in final_rows(phone)] == ["Anna:1", "Bas:1", "Cor:3"]


def test_the_end_form_keeps_only_one_field_empty(phone: Page) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    end_form(phone, ["", ""])
    phone.get_by_role("button", name="Eindstand opmaken").click()
    expect(phone.get_by_role("alert")).to_have_text(
        "Alleen het veld van wie uitging blijft leeg. Vul de andere plankjes in."
    )
    phone.locator("#end-rack-1").fill("K7")  # no digits among letters: the server refuses
    phone.get_by_role("button", name="Eindstand opmaken").click()
    expect(phone.get_by_role("alert")).to_have_text(re.compile("‘7’ is geen letter"))
    expect(phone.locator(".final")).to_have_count(0)
    expect(phone.locator("#end-rack-1")).to_have_value("K7")


def test_the_result_is_copied_as_text_without_a_link(phone: Page, server: ServerProcess) -> None:
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    post(phone, server, {"type": "enter_points", "points": 510})
    post(phone, server, {"type": "enter_points", "points": 520})
    post(phone, server, {"type": "end_game", "racks": [[None, None], ["DAK", None]]})
    phone.get_by_role("button", name="Uitslag kopiëren").click()
    expect(phone.get_by_role("status")).to_have_text("De uitslag is gekopieerd.")
    copied = phone.evaluate("() => navigator.clipboard.readText()")
    assert copied == (
        "Uitslag – Wedstrijdregels (SBNL)\n"
        "1. Anna: 516 (vooraf 510, verrekening +6)\n"
        "2. Bas: 514 (vooraf 520, verrekening -6)"
    )
    expect(phone.get_by_label("Uitslag als tekst")).to_have_value(copied)


def test_undo_after_the_end_and_a_new_game_with_the_same_players(
    phone: Page, server: ServerProcess
) -> None:
    new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    post(phone, server, {"type": "enter_points", "points": 30})
    post(phone, server, {"type": "end_game", "racks": [[None, None], [None, 5]]})
    expect(phone.locator(".final")).to_be_visible()
    phone.get_by_role("button", name="Laatste regel ongedaan maken").click()
    expect(phone.locator(".final")).to_have_count(0)
    to_move(phone, "Bas")
    post(phone, server, {"type": "end_game", "racks": [[None, None], [None, 5]]})
    expect(phone.get_by_text("In het nieuwe spel begint Bas.")).to_be_visible()
    phone.get_by_role("button", name="Nieuw spel, zelfde spelers").click()  # END-10
    expect(phone.get_by_text("Nog geen beurten.")).to_be_visible()
    expect(phone.locator(".scoreboard .name")).to_have_text(["Anna", "Bas"])
    to_move(phone, "Bas")


@pytest.mark.parametrize(
    ("language", "buttons", "columns"),
    [  # SHC-13..18 and END-01/07 as the sources write them
        (
            "it",
            ["Passo", "Cambio", "Parola ritirata", "Penalità", "Termina la partita"],
            ["punteggio prima", "correzione", "totale", "posto"],
        ),
        (
            "pl",
            ["Kara", "Zakończ partię", "Cofnij ostatni wpis"],
            ["wynik przed rozliczeniem", "korekta za płytki", "wynik końcowy", "miejsce"],
        ),
    ],
)
def test_the_sheet_speaks_the_federation_labels(
    phone: Page, server: ServerProcess, language: str, buttons: list[str], columns: list[str]
) -> None:
    new_sheet(phone, ["Anna", "Bas"])
    phone.get_by_label("Taal", exact=True).select_option(language)
    for label in buttons:
        expect(phone.get_by_text(label, exact=True)).to_be_visible()
    post(phone, server, {"type": "enter_points", "points": 2000})
    expect(phone.locator(".scoreboard .total").first).to_have_text("2000")  # FMT-01
    post(phone, server, {"type": "end_game", "racks": [[None, None], [None, 0]]})
    expect(phone.locator(".final-table thead th")).to_have_text([re.compile(".+"), *columns])
    shot(phone, f"sheet-final-table-{language}")


def test_a_viewer_follows_the_sheet_without_buttons(phone: Page, guest) -> None:
    code = new_sheet(phone, ["Anna", "Bas"], rules=SBNL)
    enter_points(phone, 9)
    viewer = guest(code, "Kijker (alleen lezen)")
    expect(viewer.locator(".scoreboard .total")).to_have_text(["9", "0"])
    # A viewer is given no join code: none shows, none is kept, no invite to make.
    expect(viewer.locator(".table-bar .who")).to_have_text("Je kijkt mee")
    expect(viewer.get_by_role("button", name="Anderen uitnodigen")).to_have_count(0)
    expect(viewer.get_by_role("link", name="Zaalscherm")).to_have_count(0)
    assert code not in viewer.locator("body").inner_text()
    assert code not in viewer.evaluate("() => JSON.stringify({...localStorage})")
    expect(viewer.locator(".rounds")).to_be_visible()
    for name in ("Punten noteren", "Passen", "Laatste regel ongedaan maken", "Spel beëindigen"):
        expect(viewer.get_by_role("button", name=name)).to_have_count(0)
    expect(viewer.get_by_text("Strafpunten", exact=True)).to_have_count(0)
