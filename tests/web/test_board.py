"""The board everyone sees: the edition's premium colours, each premium also in text, the
text on every square readable (WCAG AA), and every square announced by name."""

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import show

SQUARES = {"2L": "A4", "3L": "B6", "2W": "B2", "3W": "A1"}


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    def luminance(rgb: tuple[int, ...]) -> float:
        c = [x / 255 for x in rgb]
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def colours(page: Page, square: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A square's background and text colour as the browser draws them."""
    found = page.locator(f'#calc-board td:has([data-square="{square}"])').evaluate(
        """cell => [getComputedStyle(cell).backgroundColor,
                    getComputedStyle(cell.querySelector('.cell')).color]"""
    )
    return tuple(tuple(int(x) for x in c[c.index("(") + 1 : -1].split(",")[:3]) for c in found)


@pytest.mark.parametrize(
    ("edition", "premium", "background"),
    [
        ("nl", "2L", (86, 180, 233)),  # Okabe–Ito sky blue
        ("nl", "3L", (0, 114, 178)),
        ("nl", "2W", (204, 121, 167)),
        ("nl", "3W", (213, 94, 0)),
        ("woordstrijd", "2L", (127, 209, 174)),  # P-50: letter premiums green …
        ("woordstrijd", "3L", (0, 158, 115)),
        ("woordstrijd", "2W", (86, 180, 233)),  # … word premiums blue
        ("woordstrijd", "3W", (0, 114, 178)),
    ],
)
def test_premium_squares_take_the_editions_colours_with_readable_text(
    phone: Page, edition: str, premium: str, background: tuple[int, ...]
) -> None:
    show(phone, "score")
    phone.locator("#calc-edition").select_option(edition)
    phone.locator("#calc-mode-board").check()
    square = SQUARES[premium]
    expect(phone.locator(f'#calc-board [data-square="{square}"]')).to_have_text(premium)
    drawn, text = colours(phone, square)
    assert drawn == background
    assert contrast(drawn, text) >= 4.5


def test_every_square_is_announced_with_its_name_premium_and_tile(phone: Page) -> None:
    show(phone, "score")
    phone.locator("#calc-mode-board").check()
    board = phone.get_by_role("grid", name="Bord")
    expect(board.locator("[data-square]")).to_have_count(225)
    expect(phone.locator('[data-square="H8"]')).to_have_accessible_name(
        "H8, dubbele woordwaarde, ster, leeg"
    )
    expect(phone.locator('[data-square="A1"]')).to_have_accessible_name(
        "A1, drievoudige woordwaarde, leeg"
    )
    expect(phone.locator('[data-square="A2"]')).to_have_accessible_name("A2, leeg")


@pytest.mark.parametrize(
    ("language", "marks"),
    [
        ("nl", ("2L", "3L", "2W", "3W")),  # SCR-18a: letterwaarde, woordwaarde
        ("en", ("2L", "3L", "2W", "3W")),
        ("fr", ("2L", "3L", "2M", "3M")),  # lettre, mot
        ("de", ("2B", "3B", "2W", "3W")),  # Buchstabe, Wort
        ("es", ("2L", "3L", "2P", "3P")),  # letra, palabra
        ("it", ("2L", "3L", "2P", "3P")),  # SCR-18b: lettera, parola valore doppio
        ("pl", ("2L", "3L", "2S", "3S")),  # premia literowa, słowna
    ],
)
def test_a_premium_square_is_marked_in_the_phones_language(
    phone: Page, language: str, marks: tuple[str, ...]
) -> None:
    phone.evaluate(f"import('/js/i18n.js').then(m => m.setLanguage('{language}'))")
    phone.wait_for_function(f"document.documentElement.lang === '{language}'")
    show(phone, "score")
    phone.locator("#calc-mode-board").check()
    for premium, mark in zip(("2L", "3L", "2W", "3W"), marks, strict=True):
        expect(phone.locator(f'#calc-board [data-square="{SQUARES[premium]}"]')).to_have_text(mark)
    # A typed word's tile says its square the same way, beside the square's name.
    phone.locator("#calc-mode-typed").check()
    phone.locator("#calc-word-0").fill("ab")
    phone.locator("#calc-tile-0-0").click()
    phone.locator("#calc-tile-0-0-premium-2W").check()
    expect(phone.locator("label:has(#calc-tile-0-0-premium-2W)")).to_contain_text(f"{marks[2]} · ")
    phone.locator("#calc-tile-0-0-panel button").click()
    expect(phone.locator("#calc-tile-0-0 .premium")).to_have_text(marks[2])
