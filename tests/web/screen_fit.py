"""Whether a page fits its screen: everything inside the viewport, nothing scrolled, and no
name of the room's standings broken inside a word or clipped (a page of a large room's
standings may end one in "…"), and nothing outside its parent's box. The room display and the
director's room view (``test_display``, ``test_room``) are measured with it; a player's
phone in a room of many (``test_room_players``) only for its width, since it scrolls down.
"""

from playwright.sync_api import Page

# Everything on the page inside the viewport, and no word of a name split over two lines.
MEASURE = """() => {
  const doc = document.documentElement;
  const width = innerWidth, height = innerHeight;
  const outside = [];
  for (const element of document.body.querySelectorAll('*')) {
    if (element.closest('.sr-only')) continue;
    const box = element.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    if (box.left < -0.5 || box.top < -0.5 || box.right > width + 0.5 || box.bottom > height + 0.5) {
      outside.push(`${element.tagName}.${element.className} ${JSON.stringify(
        [box.left, box.top, box.right, box.bottom].map(Math.round))}`);
    }
  }
  const broken = [];
  const clipped = [];
  const ellipsised = [];
  for (const cell of document.querySelectorAll('.room-standings tbody th')) {
    if (cell.scrollWidth > cell.clientWidth + 1) {
      const marked = getComputedStyle(cell).textOverflow === 'ellipsis';
      (marked ? ellipsised : clipped).push(cell.textContent);
    }
    const text = cell.firstChild;
    let at = 0;
    for (const word of cell.textContent.split(' ')) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(word);
      at += word.length + 1;
    }
  }
  return { scroll: [doc.scrollWidth, doc.scrollHeight], viewport: [width, height],
    outside, broken, clipped, ellipsised };
}"""


def fits(page: Page, width: int, height: int, ellipsis: bool = False) -> dict:
    """``page`` at ``width``×``height`` fits it; with ``ellipsis`` a name may end in "…"
    (a page of a large room's standings), else every name shows whole."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(100)  # the layout settles (fonts follow the viewport)
    found = page.evaluate(MEASURE)
    assert found["scroll"][0] <= width and found["scroll"][1] <= height, found
    assert found["outside"] == [], found
    assert found["broken"] == [] and found["clipped"] == [], found
    assert ellipsis or found["ellipsised"] == [], found
    return found


# Every element within the width of the screen: the page may be long, never wide. The skip
# link waits off the screen until it has the focus.
WIDE = """(width) => {
  const wide = [];
  for (const element of document.body.querySelectorAll('*')) {
    if (element.closest('.sr-only, .skip')) continue;
    const box = element.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    if (box.left < -0.5 || box.right > width + 0.5) {
      wide.push(`${element.tagName}.${element.className} ${Math.round(box.left)}..${
        Math.round(box.right)}`);
    }
  }
  return { scroll: document.documentElement.scrollWidth, wide };
}"""


def fits_width(page: Page, width: int, height: int) -> dict:
    """Nothing on the page, scrolled boxes included, reaches past ``width``: a phone that
    scrolls only down."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(100)  # the layout settles (fonts follow the viewport)
    found = page.evaluate(WIDE, width)
    assert found["scroll"] <= width and found["wide"] == [], found
    return found


# Every element of `root` inside its parent's box, and no text cut by a box that hides its
# overflow but a name ending in an ellipsis (a long one on a page of a large room's standings).
SPILLED = """(root) => {
  const spilled = [];
  const named = (e) => `${e.tagName}.${e.className} ${JSON.stringify(e.textContent.slice(0, 40))}`;
  for (const element of document.querySelector(root).querySelectorAll('*')) {
    if (element.closest('.sr-only')) continue;
    const box = element.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    let parent = element.parentElement;
    while (getComputedStyle(parent).display === 'contents') parent = parent.parentElement;
    const outer = parent.getBoundingClientRect();
    if (box.left < outer.left - 0.5 || box.top < outer.top - 0.5
        || box.right > outer.right + 0.5 || box.bottom > outer.bottom + 0.5) {
      spilled.push(`${named(element)} outside ${named(parent)}`);
    }
    const style = getComputedStyle(element);
    const cut = element.scrollWidth > element.clientWidth + 1
      || element.scrollHeight > element.clientHeight + 1;
    const name = element.matches('.room-standings th.name') && style.textOverflow === 'ellipsis';
    if (style.overflow !== 'visible' && cut && !name) {
      spilled.push(`${named(element)} cut`);
    }
  }
  return spilled;
}"""


def spilled(page: Page, root: str = ".room-grid") -> list[str]:
    """What in ``root`` lies outside its parent's box, or is cut off without an ellipsis."""
    return page.evaluate(SPILLED, root)
