"""The host deletes the table (P-11): two taps in the Table view, and every phone of the table
goes to Start saying so, forgetting the table's kept sheet and outbox."""

from playwright.sync_api import Page, expect

from tests.web.browser import Phones, create_table, join_table, session_of, shot, show

DELETE = "Deze tafel verwijderen"
CONFIRM = "Tik nog eens om de tafel te verwijderen"
DELETED = (
    "Deze tafel is verwijderd, door de gastheer of omdat er lang niet aan gespeeld is. Het"
    " formulier is ook van deze telefoon gewist."
)


def kept(page: Page, token: str) -> list[str]:
    """The local storage keys that still name the device ``token``."""
    return page.evaluate(
        "(token) => Object.keys(localStorage).filter((k) => k.includes(token))", token
    )


def test_the_host_deletes_the_table_and_every_phone_goes_to_start(phones: Phones) -> None:
    host, bas = phones(), phones()
    code = create_table(host, ["Anna", "Bas"])
    join_table(bas, code, "Bas")
    tokens = {page: session_of(page)["token"] for page in (host, bas)}
    # Bas has a command waiting in his outbox, and both phones keep the sheet.
    bas.evaluate(
        """(token) => localStorage.setItem(`tilestream.outbox.${token}`,
            JSON.stringify([{ id: "waiting", command: { type: "pass" } }]))""",
        tokens[bas],
    )
    for page in (host, bas):
        assert kept(page, tokens[page]), "the sheet is kept before"
    show(bas, "table")
    expect(bas.get_by_role("button", name=DELETE)).to_have_count(0)  # the host's alone

    show(host, "table")
    host.get_by_role("button", name=DELETE).click()
    confirm = host.get_by_role("button", name=CONFIRM)
    expect(confirm).to_be_visible()
    expect(bas.locator(".table-bar")).to_be_visible()  # one tap deletes nothing
    shot(host, "table-delete-confirm-nl")
    confirm.click()

    for page in (host, bas):
        expect(page.get_by_role("alert")).to_have_text(DELETED)
        expect(page.get_by_role("heading", name="Aan een tafel aanschuiven")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-view", "start")
        assert session_of(page) is None
        assert kept(page, tokens[page]) == []  # no sheet, no outbox, no game in the list
    shot(bas, "table-deleted-nl")

    # Its code joins nothing any more.
    bas.get_by_label("Tafelcode").fill(code)
    expect(bas.locator("#start .join .refusal")).to_have_attribute("data-code", "unknown_code")


def test_the_first_tap_on_delete_lapses_by_itself(phones: Phones) -> None:
    host = phones()
    create_table(host, ["Anna", "Bas"])
    show(host, "table")
    host.get_by_role("button", name=DELETE).click()
    expect(host.get_by_role("button", name=CONFIRM)).to_be_visible()
    expect(host.get_by_role("button", name=DELETE)).to_be_visible(timeout=6_000)
    host.get_by_role("button", name=DELETE).click()  # armed again: still one tap from it
    expect(host.get_by_role("button", name=CONFIRM)).to_be_visible()
    assert session_of(host) is not None
