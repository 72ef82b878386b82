"""Online play on phones (issue 13): two phones start a Woordstrijd game and join it by the
code, lay their first moves by tapping tiles and squares, a word the list lacks is refused
with the sentence in Dutch and in Polish and the tiles come back to the rack, an exchange,
three passes in a row end the game with the final table; the phone's list of its games says
whose turn it is and opens a game where it stands; axe finds nothing serious on the view.
Tiles laid and not confirmed yet (and tiles chosen to exchange) lie there again after a
reload, unless they no longer fit: the turn was taken, a square covered.

Racks come from a seed the server draws, so a test reads its seat's rack from the view and
looks words up in the list the server judges with (the tests are on the server's side; the
phone never sees the list).
"""

import json
import re
from collections.abc import Callable
from itertools import permutations

import pytest
from playwright.sync_api import Browser, Locator, Page, WebSocketRoute, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    ROOT,
    Phones,
    axe,
    join_table,
    missing_strings,
    open_app,
    ready,
    shot,
    show,
    wait_for_state,
)
from tests.web.moved_clock import Moved
from tests.web.online_play import LEXICON, first_word, lay, online, sheet, tap_square

ROWS = "ABCDEFGHIJKLMNO"
ONLINE = "Online spelen"
SEQ = "async () => (await import('/js/state.js')).app.view.seq"  # the version a phone shows


def sentence(language: str, code: str, **params: object) -> str:
    """The refusal ``code`` as the phone says it in ``language`` (small numbers as they are)."""
    text = json.loads((ROOT / "web" / "strings" / f"{language}.json").read_text("utf-8"))
    said = text[f"error.{code}"]
    if isinstance(said, dict):  # plural: the form for the count (Dutch: one for 1 only)
        said = said["one" if params[said["plural"]] == 1 else "other"]
    for name, value in params.items():
        said = said.replace(f"{{{name}}}", str(value))
    return said


# --- the phone's side ------------------------------------------------------------------------


def start_online(page: Page, players: list[str], move_time: str | None = None) -> str:
    """Start an online game from the start view (with a time per move: its label); the
    phone sits down as player 1. The join code."""
    show(page, "start")
    start = page.locator("#start")
    start.get_by_label(ONLINE).check()
    expect(start.get_by_label("Taal en letterset")).to_have_value("woordstrijd")
    expect(start.get_by_label("Tijd per zet")).to_have_value("")  # off by default
    if move_time:
        start.get_by_label("Tijd per zet").select_option(label=move_time)
    start.get_by_label("Aantal spelers").select_option(str(len(players)))
    for index, name in enumerate(players, 1):
        start.get_by_label(f"Naam van speler {index}").fill(name)
    start.get_by_role("button", name="Spel beginnen").click()
    page.wait_for_selector("body[data-view=play]")
    wait_for_state(page, "app => app.view?.sheet?.online?.seat === 0")
    return page.evaluate("() => JSON.parse(localStorage.getItem('tilestream.session')).code")


def join_online(page: Page, code: str, name: str, seat: int) -> None:
    join_table(page, code, name)
    page.wait_for_selector("body[data-view=play]")
    wait_for_state(page, f"app => app.view?.sheet?.online?.seat === {seat}")


def tap_refused(button: Locator) -> None:
    """Tap a turn button that says why it does nothing (``aria-disabled``, which Playwright's
    click waits out): in the page, on the button there at that moment — a frame may redraw
    the dock between finding it and a forced click, which then lands on none."""
    button.evaluate("button => button.click()")


def lines(page: Page) -> int:
    return len(sheet(page)["lines"])


def confirm_and_wait(page: Page, others: list[Page]) -> None:
    before = lines(page)
    page.locator("#play-confirm").click()
    for phone in [page, *others]:
        wait_for_state(phone, f"app => app.view.sheet.lines.length > {before}")


# --- words from the list, for racks the seed dealt -----------------------------------------


def board_tiles(rows: list[str]) -> dict[str, str]:
    return {
        f"{ROWS[r]}{c + 1}": ch
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch != "."
    }


def through(rows: list[str], rack: list[str], valid: bool) -> list[tuple[str, str]]:
    """Tiles from ``rack`` laid down a column through one tile of the board, touching no
    other tile: a word of the list (``valid``) or a string it lacks. (tile, square) pairs."""
    board = board_tiles(rows)
    letters = [tile for tile in rack if len(tile) == 1 and tile != "?"]

    def free(r: int, c: int) -> bool:
        return not (0 <= r < 15 and 0 <= c < 15) or f"{ROWS[r]}{c + 1}" not in board

    for square, letter in board.items():
        r, c = ROWS.index(square[0]), int(square[1:]) - 1
        for before, after in ((1, 1), (0, 2), (2, 0), (1, 0), (0, 1), (2, 1), (1, 2)):
            rows_new = [*range(r - before, r), *range(r + 1, r + 1 + after)]
            if not all(0 <= x < 15 and free(x, c) and free(x, c - 1) and free(x, c + 1)
                       for x in rows_new):  # fmt: skip
                continue
            if not (free(r - before - 1, c) and free(r + after + 1, c)):
                continue
            for tiles in dict.fromkeys(permutations(letters, before + after)):
                word = "".join(tiles[:before]) + letter + "".join(tiles[before:])
                if LEXICON.contains(word) == valid:
                    return [(t, f"{ROWS[x]}{c + 1}") for t, x in zip(tiles, rows_new, strict=True)]
    raise AssertionError(f"no {'word' if valid else 'non-word'} through the board with {rack}")


def word_of(tiles: list[tuple[str, str]], rows: list[str]) -> str:
    """The column word ``tiles`` make with the board's tile between them."""
    board = board_tiles(rows)
    squares = sorted([sq for _, sq in tiles], key=lambda s: ROWS.index(s[0]))
    column = squares[0][1:]
    top, bottom = ROWS.index(squares[0][0]), ROWS.index(squares[-1][0])
    while top > 0 and f"{ROWS[top - 1]}{column}" in board:
        top -= 1
    while bottom < 14 and f"{ROWS[bottom + 1]}{column}" in board:
        bottom += 1
    placed = {sq: t for t, sq in tiles}
    out = ""
    for r in range(top, bottom + 1):
        square = f"{ROWS[r]}{column}"
        out += placed.get(square) or board[square]
    return out


# --- the tests -----------------------------------------------------------------------------


def test_two_phones_play_an_online_game_to_the_end(phones: Phones) -> None:
    anna, bas = phones(), phones()
    code = start_online(anna, ["Anna", "Bas"])
    join_online(bas, code, "Bas", 1)
    for phone in (anna, bas):
        expect(phone.locator("#play-rack .rack-tile")).to_have_count(7)
        expect(phone.locator("#play-rules")).to_have_attribute("href", "/rules.html")
    seen = online(anna)
    assert seen["bag"] == 105 - 14 and seen["racks"] == [7, 7]
    expect(anna.locator(".play-turn")).to_have_text("Jij bent aan de beurt.")
    expect(bas.locator(".play-turn")).to_have_text("Anna is aan de beurt.")

    # Anna's first move across the centre, tile by tile; the score shows as it is laid.
    word = first_word(anna)
    squares = [f"H{8 + i}" for i in range(len(word))]
    lay(anna, list(zip(word, squares, strict=True)))
    expect(anna.locator("#play-score")).to_contain_text("punten")
    expect(anna.locator("#play-score")).to_contain_text("".join(word))
    shot(anna, "play-rack", full_page=False)
    confirm_and_wait(anna, [bas])
    assert anna.evaluate("() => document.activeElement.id") == "play-confirm"
    expect(bas.locator(".play-last")).to_contain_text(f"Anna: {''.join(word)}")
    expect(bas.locator("#play-board .marked")).to_have_count(len(word))
    expect(bas.locator(".play-turn")).to_have_text("Jij bent aan de beurt.")
    assert sheet(anna)["totals"][0] > 0

    # Bas's move down through one of Anna's letters.
    rows = sheet(bas)["board"]
    move = through(rows, online(bas)["rack"], valid=True)
    lay(bas, move)
    expect(bas.locator("#play-score")).to_contain_text(word_of(move, rows))
    confirm_and_wait(bas, [anna])

    # Anna lays a string the list lacks: refused with the word, the tiles back on the rack.
    rows = sheet(anna)["board"]
    rack_before = online(anna)["rack"]
    bad = through(rows, rack_before, valid=False)
    bad_word = word_of(bad, rows)
    lay(anna, bad)
    anna.locator("#play-confirm").click()
    refusal = anna.locator("#play-refusal")
    expect(refusal).to_have_text(sentence("nl", "words_not_in_list", words=bad_word, count=1))
    expect(anna.locator("#play-rack .rack-tile.laid")).to_have_count(0)
    expect(anna.locator("#play-board .new")).to_have_count(0)
    assert online(anna)["rack"] == rack_before and sheet(anna)["to_move"] == 0
    shot(anna, "play-refused-nl", full_page=False)
    found = {"nl": axe(anna)}

    anna.locator("#language").select_option("pl")
    anna.wait_for_function("() => document.documentElement.lang === 'pl'")
    expect(anna.locator(".play-turn")).to_have_text("Twój ruch.")
    # The refusal shown is said again in the new language.
    expect(refusal).to_have_text(sentence("pl", "words_not_in_list", words=bad_word, count=1))
    lay(anna, bad)
    anna.locator("#play-confirm").click()
    expect(refusal).to_have_text(sentence("pl", "words_not_in_list", words=bad_word, count=1))
    shot(anna, "play-refused-pl", full_page=False)
    found["pl"] = axe(anna)
    anna.locator("#language").select_option("nl")
    anna.wait_for_function("() => document.documentElement.lang === 'nl'")

    # An exchange of two tiles: chosen on the rack, then confirmed.
    count = lines(anna)
    anna.locator("#play-exchange").click()
    tiles = anna.locator("#play-rack .rack-tile")
    tiles.nth(0).click()
    tiles.nth(1).click()
    expect(anna.locator("#play-exchange-go")).to_have_text("Ruilen (2)")
    found["exchange"] = axe(anna)
    anna.locator("#play-exchange-go").click()
    for phone in (anna, bas):
        wait_for_state(phone, f"app => app.view.sheet.lines.length > {count}")
    expect(bas.locator(".play-last p")).to_have_text("Anna ruilde stenen (2)")
    assert online(anna)["bag"] == online(bas)["bag"]

    # Three passes in a row end the game, each after a second tap.
    for phone, other in ((bas, anna), (anna, bas), (bas, anna)):
        count = lines(phone)
        phone.locator("#play-pass").click()
        expect(phone.locator("#play-pass-q")).to_be_visible()
        phone.locator("#play-pass-yes").click()
        wait_for_state(other, f"app => app.view.sheet.lines.length > {count}")
    for phone in (anna, bas):
        wait_for_state(phone, "app => app.view.sheet.ended")
        expect(phone.locator(".play-turn")).to_have_text("Het potje is afgelopen.")
        expect(phone.locator(".final-table tbody tr")).to_have_count(2)
        expect(phone.locator(".play-final-racks li")).to_have_count(2)
        expect(phone.locator(".play-dock")).to_be_hidden()
    shot(bas, "play-end")
    found["end"] = axe(bas)
    assert found == {"nl": [], "pl": [], "exchange": [], "end": []}
    # The focus never fell to <body> when the dock went away with the end.
    assert bas.evaluate("() => document.activeElement !== document.body")


def test_a_refused_exchange_is_said_and_the_blank_asks_its_letter(phones: Phones) -> None:
    anna, bas = phones(), phones()
    code = start_online(anna, ["Anna", "Bas"])
    join_online(bas, code, "Bas", 1)
    # Anna's phone has had Bas's joining before her view is edited below: a frame after the
    # edit would put the server's rack and bag back.
    wait_for_state(anna, f"app => app.view.seq >= {bas.evaluate(SEQ)}")
    # Not Bas's turn: his buttons say why instead of doing nothing.
    tap_refused(bas.locator("#play-pass"))
    expect(bas.locator("#play-refusal")).to_contain_text("Anna is aan de beurt")
    # A blank laid asks which letter it is (the phone lays a blank in place of the rack's).
    anna.evaluate(
        """async () => {
            const { app, changed } = await import('/js/state.js');
            const online = app.view.sheet.online;
            app.view.sheet.online = { ...online, rack: ['?', ...online.rack.slice(1)] };
            changed();
        }"""
    )
    anna.locator('#play-rack .rack-tile[data-tile="?"]').first.click()  # the seed may deal two
    tap_square(anna, "H8")
    dialog = anna.locator("dialog.blank-dialog")
    expect(dialog).to_be_visible()
    assert axe(anna) == []
    dialog.locator("#blank-K").click()
    expect(dialog).to_be_hidden()
    expect(anna.locator('#play-board [data-square="H8"]')).to_have_attribute(
        "aria-label", re.compile("K \\(blanco\\)")
    )
    anna.locator("#play-recall").click()
    expect(anna.locator("#play-board .new")).to_have_count(0)
    # With fewer than 7 tiles in the bag an exchange is said to be impossible, as the
    # server would refuse it.
    anna.evaluate(
        """async () => {
            const { app, changed } = await import('/js/state.js');
            app.view.sheet.online = { ...app.view.sheet.online, bag: 5 };
            changed();
        }"""
    )
    tap_refused(anna.locator("#play-exchange"))
    expect(anna.locator("#play-refusal")).to_have_text(
        sentence("nl", "bag_too_small", bag=5, min=7)
    )
    expect(anna.locator("#play-exchange-go")).to_have_count(0)


def test_my_games_say_whose_turn_and_open_where_the_game_stands(phones: Phones) -> None:
    anna, bas = phones(), phones()
    code = start_online(anna, ["Anna", "Bas"], move_time="1 dag")
    join_online(bas, code, "Bas", 1)
    expect(anna.locator("#play-deadline")).to_have_text(re.compile(r"^nog 23 u 5\d min$"))
    word = first_word(anna)
    # The first tile dragged from the rack onto its square, the others tapped.
    first = anna.locator(f'#play-rack .rack-tile[data-tile="{word[0]}"]').first
    first.drag_to(anna.locator('#play-board [data-square="H8"]'))
    expect(anna.locator('#play-board td:has([data-square="H8"])')).to_have_class(
        re.compile(r"\bnew\b")
    )
    lay(anna, [(tile, f"H{9 + i}") for i, tile in enumerate(word[1:])])
    confirm_and_wait(anna, [bas])

    # Back to the list: the game is kept, with whose turn it is and the last move.
    anna.locator("#play-games").click()
    anna.wait_for_selector("body[data-view=start]")
    games = anna.locator(".my-games .game-row")
    expect(games).to_have_count(1)
    expect(games.first).to_contain_text("Anna – Bas")
    expect(games.first.locator(".game-turn")).to_have_text("Bas is aan de beurt")
    expect(games.first.locator(".game-last")).to_contain_text(f"Anna: {''.join(word)}")
    expect(games.first.locator(".game-deadline")).to_have_text(re.compile(r"^nog 23 u"))
    assert axe(anna) == []
    shot(anna, "play-games", full_page=False)
    # Bas moves meanwhile; opening the game shows it where it stands now.
    bas.locator("#play-pass").click()
    bas.locator("#play-pass-yes").click()
    wait_for_state(bas, "app => app.view.sheet.lines.length === 2")
    anna.reload()
    anna.wait_for_selector("body[data-ready=true]")
    expect(anna.locator(".my-games .game-turn")).to_have_text("Jij bent aan de beurt")
    expect(anna.locator(".my-games .game-last")).to_have_text("Bas paste")
    anna.locator(".my-games .game-row").click()
    anna.wait_for_selector("body[data-view=play]")
    wait_for_state(anna, "app => app.online && app.view.sheet.lines.length === 2")
    expect(anna.locator(".play-turn")).to_have_text("Jij bent aan de beurt.")
    expect(anna.locator("#play-rack .rack-tile")).to_have_count(7)
    # A reload keeps the game and its view (#view=play).
    anna.reload()
    anna.wait_for_selector("body[data-view=play]")
    assert anna.url.endswith("#view=play")
    expect(anna.locator("#play-rack .rack-tile")).to_have_count(7)

    # Leaving the game forgets it on this phone, with the sheet it kept.
    token = anna.evaluate("() => JSON.parse(localStorage.getItem('tilestream.session')).token")
    show(anna, "table")
    anna.once("dialog", lambda dialog: dialog.accept())
    anna.get_by_role("button", name="Tafel verlaten").click()
    anna.wait_for_selector("body[data-view=start]")
    kept = anna.evaluate(
        "() => [localStorage.getItem('tilestream.games'), Object.keys(localStorage)]"
    )
    assert token not in (kept[0] or "")
    assert not [key for key in kept[1] if key.endswith(token)]
    expect(anna.locator(".my-games")).to_have_count(0)


def test_a_pass_for_time_is_said_in_the_history_after_the_game_moved_on(
    browser: Browser, moved: Moved
) -> None:
    """Anna lets her day to move run out and the server passes her. Once Bas has moved since,
    the last move is his; the history still says that Anna's pass was the clock's, not hers."""
    anna, bas = (open_app(browser, moved.url, "nl", clock=True) for _ in range(2))
    code = start_online(anna, ["Anna", "Bas"], move_time="1 dag")
    join_online(bas, code, "Bas", 1)
    moved.move_on([anna, bas], 86_400 + 1)
    for page in (anna, bas):
        wait_for_state(page, "app => app.view.sheet.lines.length === 1")
        expect(page.locator(".play-last p")).to_have_text("Anna liet de tijd verlopen en past")
    bas.locator("#play-pass").click()
    bas.locator("#play-pass-yes").click()
    wait_for_state(anna, "app => app.view.sheet.lines.length === 2")
    expect(anna.locator(".play-last p")).to_have_text("Bas paste")
    anna.locator(".play-history summary").click()
    expect(anna.locator(".play-history li")).to_have_text(
        ["Bas: gepast", "Anna: gepast: tijd verlopen"]
    )
    anna.locator(".play-history").scroll_into_view_if_needed()
    shot(anna, "play-history-time-out", full_page=False)
    for page in (anna, bas):
        assert missing_strings(page) == []
        page.context.close()


def test_a_player_of_three_reads_every_turn_since_their_own(phones: Phones) -> None:
    """Anna moves; Bas exchanges and Cas passes while she is away. Her card of the last move
    says both, Bas's before Cas's; Bas's and Cas's say only the last, which follows theirs."""
    anna, bas, cas = phones(), phones(), phones()
    code = start_online(anna, ["Anna", "Bas", "Cas"])
    join_online(bas, code, "Bas", 1)
    join_online(cas, code, "Cas", 2)
    word = first_word(anna)
    lay(anna, [(tile, f"H{8 + i}") for i, tile in enumerate(word)])
    confirm_and_wait(anna, [bas, cas])
    expect(anna.locator("#play-last-title")).to_have_text("Laatste zet")
    bas.locator("#play-exchange").click()
    bas.locator("#play-rack .rack-tile").nth(0).click()
    bas.locator("#play-exchange-go").click()
    for phone in (anna, bas, cas):
        wait_for_state(phone, "app => app.view.sheet.lines.length === 2")
    cas.locator("#play-pass").click()
    cas.locator("#play-pass-yes").click()
    for phone in (anna, bas, cas):
        wait_for_state(phone, "app => app.view.sheet.lines.length === 3")
    expect(anna.locator("#play-last-title")).to_have_text("Sinds je laatste zet")
    # Another seat's exchange is said without its count, which the sheet does not give.
    expect(anna.locator(".play-since li")).to_have_text(["Bas ruilde stenen"])
    expect(anna.locator(".play-last p")).to_have_text("Cas paste")
    anna.locator(".play-last").evaluate("card => card.scrollIntoView({ block: 'center' })")
    shot(anna, "play-since-mine", full_page=False)
    assert axe(anna, ".play-last") == []
    for phone in (bas, cas):
        expect(phone.locator("#play-last-title")).to_have_text("Laatste zet")
        expect(phone.locator(".play-since")).to_have_count(0)
        expect(phone.locator(".play-last p")).to_have_text("Cas paste")
    # In French a name's colon has its space before it, held to the name.
    anna.locator("#language").select_option("fr")
    expect(anna.locator("#play-last-title")).to_have_text("Depuis votre dernier coup")
    counts = anna.locator(".play-players [data-player='1']")
    expect(counts).to_contain_text("sur le chevalet")
    assert counts.evaluate("span => span.textContent") == "Bas\u00a0: 7 sur le chevalet"


def test_the_rack_is_a_toolbar_for_the_keyboard(phones: Phones) -> None:
    anna = phones()
    start_online(anna, ["Anna", "Bas"])
    rack = anna.locator("#play-rack")
    expect(rack).to_have_attribute("role", "toolbar")
    expect(rack.locator("[tabindex='0']")).to_have_count(1)
    rack.locator(".rack-tile").first.focus()
    anna.keyboard.press("ArrowRight")
    second = rack.locator(".rack-tile").nth(1).get_attribute("id")
    assert anna.evaluate("() => document.activeElement.id") == second
    # On the board, a letter of the rack typed on a square lays that tile and moves on.
    tile = online(anna)["rack"][0]
    anna.locator('#play-board [data-square="H8"]').focus()
    anna.keyboard.press(tile.lower() if tile != "?" else "a")
    expect(anna.locator('#play-board [data-square="H8"]')).to_have_attribute(
        "aria-label", re.compile("nieuw")
    )
    assert anna.evaluate("() => document.activeElement.dataset.square") == "H9"
    anna.keyboard.press("ArrowLeft")
    anna.keyboard.press("Backspace")
    expect(anna.locator("#play-board .new")).to_have_count(0)
    assert anna.evaluate("() => document.activeElement !== document.body")


@pytest.mark.parametrize(
    ("language", "offered"), [("nl", "woordstrijd"), ("pl", "pl"), ("es", "es"), ("fr", "fr")]
)
def test_the_start_form_offers_online_play_in_the_phones_edition_and_no_time_limit(
    browser: Browser, server: ServerProcess, language: str, offered: str
) -> None:
    """Online play is Woordstrijd's on a Dutch phone; a phone in another language plays in
    its own edition, which a player who does not look at the choice would not expect to
    be Dutch."""
    phone = open_app(browser, server.url, language)
    own = json.loads((ROOT / "web" / "strings" / f"{language}.json").read_text("utf-8"))
    start = phone.locator("#start")
    start.get_by_label(own["start.online"]).check()
    expect(start.get_by_role("heading", name=own["start.new_online"])).to_be_visible()
    expect(start.get_by_label(own["start.edition"])).to_have_value(offered)
    time = start.get_by_label(own["start.move_time"])
    expect(time).to_have_value("")
    expect(time.locator("option")).to_have_count(7)
    # Online play has its own rules and every phone writes its own turns: neither is asked.
    expect(start.get_by_text(own["start.writers"], exact=True)).to_have_count(0)
    expect(start.locator("legend", has_text=own["start.rules"])).to_have_count(0)
    # Two to four players; an edition without a board is not offered.
    counts = start.get_by_label(own["start.players"]).locator("option").all_inner_texts()
    assert counts == ["2", "3", "4"]
    assert "pl-literaki" not in start.get_by_label(own["start.edition"]).locator(
        "option"
    ).evaluate_all("options => options.map(o => o.value)")
    assert axe(phone) == []
    shot(phone, f"play-start-{language}", full_page=False)
    assert missing_strings(phone) == []
    phone.context.close()


@pytest.mark.parametrize(
    ("last", "said"),
    [
        ({"kind": "move", "player": 1, "words": [["ZEGELDE", 18]], "points": 68},
         "Bas: ZEGELDE 18, +50 alle letters · 68 punten"),
        ({"kind": "move", "player": 0, "words": [["WOORD", 11], ["DOEN", 5]], "points": 16},
         "Anna: WOORD 11, DOEN 5 · 16 punten"),
    ],
)  # fmt: skip
def test_the_last_move_says_its_bingo_so_that_it_adds_up(
    phone: Page, last: dict, said: str
) -> None:
    text = phone.evaluate(
        "async ([last]) => (await import('/js/games.js')).lastText(['Anna', 'Bas'], last)", [last]
    )
    assert text == said


# --- the draft kept over a reload ----------------------------------------------------------

DRAFT = """async () => {
    const { app } = await import('/js/state.js');
    const { draftKey } = await import('/js/session.js');
    return JSON.parse(localStorage.getItem(draftKey(app.session)));
}"""  # the draft the phone keeps for its place at the table


def reload(page: Page, count: int) -> None:
    """Reload the phone and wait until it has drawn the live view, of ``count`` lines."""
    page.reload()
    ready(page)
    wait_for_state(
        page, f"app => app.online && !app.kept && app.view?.sheet?.lines.length === {count}"
    )


def rack_order(page: Page) -> list[str]:
    return page.locator("#play-rack .rack-tile").evaluate_all("ts => ts.map(t => t.dataset.tile)")


def new_tile(page: Page, square: str) -> Locator:
    return page.locator(f'#play-board td:has([data-square="{square}"])')


NEW = re.compile(r"\bnew\b")


def answered_late(page: Page) -> Callable[[], None]:
    """From now on what the phone sends on its socket reaches the table only once the
    function returned is called (a phone's slow network after a reload)."""
    gate: dict = {"open": False, "held": []}

    def route(socket: WebSocketRoute) -> None:
        table = socket.connect_to_server()

        def sent(message: str | bytes) -> None:
            if gate["open"]:
                table.send(message)
            else:
                gate["held"].append((table, message))

        socket.on_message(sent)

    def release() -> None:
        gate["open"] = True
        for table, message in gate["held"]:
            table.send(message)

    page.route_web_socket(re.compile(r"/ws$"), route)
    return release


def test_a_move_laid_and_not_confirmed_lies_there_again_after_a_reload(
    browser: Browser, server: ServerProcess, phones: Phones
) -> None:
    anna, bas = open_app(browser, server.url, "nl", clock=True), phones()
    code = start_online(anna, ["Anna", "Bas"])
    join_online(bas, code, "Bas", 1)
    word = first_word(anna)
    move = [(tile, f"H{8 + i}") for i, tile in enumerate(word)]
    anna.locator("#play-shuffle").click()  # the player's order is kept too
    lay(anna, move)
    score = anna.locator("#play-score")
    expect(score).to_contain_text("".join(word))
    said, order = score.inner_text(), rack_order(anna)

    # A reload, the table slow to answer: the tiles lie where they were at once, on the view
    # the phone kept; their score is asked again once the table answers.
    release = answered_late(anna)
    anna.reload()
    ready(anna)
    for _, square in move:
        expect(new_tile(anna, square)).to_have_class(NEW)
    anna.clock.run_for(1000)  # the score asked meanwhile, and not answered
    release()
    wait_for_state(anna, "app => app.online && !app.kept")
    expect(score).to_have_text(said)
    expect(anna.locator("#play-rack .rack-tile.laid")).to_have_count(len(word))
    assert rack_order(anna) == order
    shot(anna, "play-after-reload", full_page=False)
    # Confirm records the move as laid; it is not laid again after the next reload.
    confirm_and_wait(anna, [bas])
    expect(bas.locator(".play-last")).to_contain_text(f"Anna: {''.join(word)}")
    reload(anna, lines(bas))
    expect(anna.locator("#play-rack .rack-tile")).to_have_count(7)
    expect(anna.locator("#play-rack .rack-tile.laid")).to_have_count(0)
    expect(anna.locator("#play-board .new")).to_have_count(0)

    # The tiles chosen to exchange are chosen still after a reload, and exchanged.
    bas.locator("#play-exchange").click()
    tiles = bas.locator("#play-rack .rack-tile")
    tiles.nth(1).click()
    tiles.nth(4).click()
    expect(bas.locator("#play-exchange-go")).to_have_text("Ruilen (2)")
    count = lines(bas)
    reload(bas, count)
    expect(bas.locator("#play-exchange-go")).to_have_text("Ruilen (2)")
    pressed = tiles.evaluate_all("ts => ts.map(t => t.getAttribute('aria-pressed'))")
    assert pressed == ["false", "true", "false", "false", "true", "false", "false"]
    bas.locator("#play-exchange-go").click()
    wait_for_state(anna, f"app => app.view.sheet.lines.length > {count}")
    expect(anna.locator(".play-last p")).to_have_text("Bas ruilde stenen (2)")
    assert missing_strings(anna) == []
    anna.context.close()


def test_a_draft_that_no_longer_fits_is_not_laid_again(phones: Phones) -> None:
    anna, bas = phones(), phones()
    code = start_online(anna, ["Anna", "Bas"])
    join_online(bas, code, "Bas", 1)
    word = first_word(anna)  # the game may have started again for a rack that makes one
    wait_for_state(bas, f"app => app.view.sheet.started === {sheet(anna)['started']}")
    # Bas lays two tiles while Anna is to move: one where her word is going, one far off.
    free = [tile for tile in online(bas)["rack"] if tile != "?"]
    lay(bas, [(free[0], "H8"), (free[1], "A1")])
    lay(anna, [(tile, f"H{8 + i}") for i, tile in enumerate(word)])
    confirm_and_wait(anna, [bas])

    def a1_alone() -> None:
        expect(new_tile(bas, "H8")).not_to_have_class(NEW)
        expect(new_tile(bas, "A1")).to_have_class(NEW)
        expect(bas.locator("#play-board .new")).to_have_count(1)
        expect(bas.locator("#play-rack .rack-tile.laid")).to_have_count(1)

    # Her move covered H8: that tile is back on his rack, before a reload and after.
    a1_alone()
    reload(bas, lines(anna))
    a1_alone()
    assert [square for square, _, _ in bas.evaluate(DRAFT)["placed"]] == ["A1"]

    # Bas passes: his turn is over, the tile laid for it back on the rack for good.
    count = lines(bas)
    bas.locator("#play-pass").click()
    bas.locator("#play-pass-yes").click()
    wait_for_state(bas, f"app => app.view.sheet.lines.length === {count + 1}")
    expect(bas.locator("#play-board .new")).to_have_count(0)
    reload(bas, count + 1)
    expect(bas.locator("#play-rack .rack-tile")).to_have_count(7)
    expect(bas.locator("#play-rack .rack-tile.laid")).to_have_count(0)
    expect(bas.locator("#play-board .new")).to_have_count(0)
    assert bas.evaluate(DRAFT)["placed"] == []
