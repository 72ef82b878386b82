"""Whether a page fits its screen: everything inside the viewport, nothing scrolled, and no
name of the room's standings broken inside a word or clipped. The room display and the
director's room view (``test_display``, ``test_room``) are measured with it.
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
  for (const cell of document.querySelectorAll('.room-standings tbody th')) {
    if (cell.scrollWidth > cell.clientWidth + 1) clipped.push(cell.textContent);
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
    outside, broken, clipped };
}"""


def fits(page: Page, width: int, height: int) -> dict:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(100)  # the layout settles (fonts follow the viewport)
    found = page.evaluate(MEASURE)
    assert found["scroll"][0] <= width and found["scroll"][1] <= height, found
    assert found["outside"] == [], found
    assert found["broken"] == [] and found["clipped"] == [], found
    return found
