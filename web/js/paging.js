// A table too long for a screen nobody scrolls (the room display of a 200-player room):
// its rows in pages of as many as fit its box, the next page every few seconds, "page 2
// of 9" in its caption. The box is measured, not guessed, so the same page fits a
// projector at 1280×720 and a television at 1920×1080 and follows a resized window.

import { number, t } from "./i18n.js";

const SECONDS = 8; // long enough to find one's name on a page, short enough to see them all

// The pager's state, in one place: the box last fitted (each render draws a new one), its
// rows per page, and the page showing, kept across renders so an update does not turn back.
const pager = {
  box: null,
  root: null,
  label: null,
  size: 0,
  page: 0,
  timer: null,
};

// Fit the rows of the table in `box` to it: all of them when they fit as they are; else
// `root` is marked "paged" (its CSS sets the table beside the room's news), when they still
// do not fit "lean" (without the columns a page can do without, every name still whole) and
// then "compact" (the rows one line each, a long name cut to "…"), and the rows show a page
// at a time, `label` saying which.
export function fit(box, root, label) {
  Object.assign(pager, { box, root, label, size: 0 });
  root.classList.remove("paged", "lean", "compact");
  const rows = [...box.querySelectorAll("tbody tr")];
  for (const row of rows) row.hidden = false;
  label.textContent = "";
  const fits = () => box.scrollHeight <= box.clientHeight + 1
    && box.scrollWidth <= box.clientWidth + 1;
  if (!rows.length || fits()) return;
  // Beside the news, in a box as tall as its rows or the screen, they may all fit at once:
  // with every column, else with the columns every page keeps and the names whole (a name
  // wider than its column on two lines), else one line each. A name is cut only where the
  // rows would not fit on one screen otherwise.
  root.classList.add("paged");
  if (fits()) return;
  root.classList.add("lean");
  if (fits()) return;
  root.classList.add("compact");
  if (fits()) return;
  label.textContent = said(rows.length, rows.length); // measured with its widest label
  // Every row is one line now, so one row's height is every row's; what is above the
  // first (the caption and the column heads) stays on every page.
  const top = box.getBoundingClientRect().top;
  const first = rows[0].getBoundingClientRect();
  const room = box.clientHeight - (first.top - top) - 1; // the table's last border
  pager.size = Math.max(1, Math.floor(room / first.height));
  show();
  if (!pager.timer) pager.timer = setInterval(turn, SECONDS * 1000);
}

function turn() {
  if (!pager.box || !pager.box.isConnected || !pager.size) {
    clearInterval(pager.timer); // nothing to turn until a long table shows again
    pager.timer = null;
    return;
  }
  pager.page += 1;
  show();
}

function show() {
  const rows = pager.box.querySelectorAll("tbody tr");
  const pages = Math.ceil(rows.length / pager.size);
  pager.page %= pages;
  const from = pager.page * pager.size;
  rows.forEach((row, index) => { row.hidden = index < from || index >= from + pager.size; });
  pager.label.textContent = pages > 1 ? said(pager.page + 1, pages) : "";
}

const said = (page, pages) => t("display.page", { n: number(page), count: number(pages) });
