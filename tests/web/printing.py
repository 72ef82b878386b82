"""Print pages for the browser tests: A4 in CSS pixels, and a print page opened in a phone's
own browser."""

import re

from playwright.sync_api import Page

from tests.web.browser import ready

A4 = {"width": 794, "height": 1123}  # 210 × 297 mm at 96 CSS pixels per inch


def print_from(phone: Page, query: str) -> Page:
    """A print page in the phone's own browser (its local storage holds the table)."""
    page = phone.context.new_page()
    page.set_viewport_size(A4)
    origin = re.match(r"https?://[^/]+", phone.url).group(0)
    page.goto(f"{origin}/print.html?{query}")
    ready(page)
    return page
