// The 15×15 board as a grid: premium squares in colour-blind-safe colours *and* text
// (2L 3L 2W 3W, in the language), a star on the centre, coordinates A–O down and 1–15
// across (BRD-02..05).
// Every square is announced with its name, its premium and its tile.

import { t } from "./i18n.js";
import { h } from "./ui.js";

const SIZE = 15;
const ROWS = "ABCDEFGHIJKLMNO";
const CENTRE = "H8";

// A row of the board in row notation → its 15 cells: "" empty, "P", "a" (a blank), "CH".
export function cells(row) {
  const out = [];
  for (let i = 0; i < row.length; i++) {
    if (row[i] === ".") out.push("");
    else if (row[i] === "[") {
      const end = row.indexOf("]", i);
      out.push(row.slice(i + 1, end));
      i = end;
    } else out.push(row[i]);
  }
  return out;
}

// Rows → Map square → tile ("a" lower case for a blank).
export function tilesOf(rows) {
  const tiles = new Map();
  (rows || []).forEach((row, r) => cells(row).forEach((tile, c) => {
    if (tile) tiles.set(`${ROWS[r]}${c + 1}`, tile);
  }));
  return tiles;
}

const isBlank = (tile) => tile !== tile.toUpperCase();

// The square `steps` squares on from `square` in `direction` ("across"/"down"; back with a
// negative `steps`), or null off the board.
export function step(square, direction, steps = 1) {
  const row = ROWS.indexOf(square[0]);
  const col = Number(square.slice(1)) - 1;
  const [r, c] = direction === "across" ? [row, col + steps] : [row + steps, col];
  return r >= 0 && c >= 0 && r < SIZE && c < SIZE ? `${ROWS[r]}${c + 1}` : null;
}

function premiums(layout) {
  return layout.map((row) => row.split(" ").map((token) => (token === ".." ? "" : token)));
}

// The edition's premium colours (data, like the layout: Woordstrijd's letter premiums are
// green) as CSS variables, each with the text colour that keeps AA contrast on it, on a
// class per edition ("premium-nl") written once into a stylesheet of the page's own: no
// inline style attribute, which the server's CSP forbids.
let colours = null;
const styled = new Set();

export function premiumClass(edition) {
  const name = `premium-${edition.code.replace(/[^A-Za-z0-9-]/g, "_")}`;
  if (styled.has(name)) return name;
  styled.add(name);
  if (!colours) {
    colours = new CSSStyleSheet();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, colours];
  }
  const variables = Object.entries(edition.colours).map(([premium, colour]) =>
    `--p${premium}: ${colour}; --p${premium}-ink: ${ink(colour)};`).join(" ");
  colours.insertRule(`.${name} { ${variables} }`, colours.cssRules.length);
  return name;
}

// White text where it contrasts 4.5:1 with `colour` (WCAG AA), else black.
function ink(colour) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(colour.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05) >= 4.5 ? "#fff" : "#000";
}

// options:
//   edition   the edition from the catalog: its layout, colours and letter values
//   rows      the board in row notation (the sheet's board), or null for an empty board
//   pending   Map square → tile: new tiles of the move being laid (drawn as new)
//   marked    Set of squares to draw as the last move (or the tiles placed without score)
//   selected  {square, direction} of the move's start, or null
//   onTap     called with a square name; absent: the board is read-only
//   cursor    with onTap: the square that takes the board's one tab stop (default H8)
//   onCursor  with onTap: called with the square the arrow keys moved to
//   label     the grid's accessible name
//
// With onTap the board is a WAI-ARIA grid: one tab stop (roving tabindex), the arrow keys,
// Home/End and PageUp/PageDown move between squares, Enter and Space tap.
export function renderBoard({ edition, rows = null, pending = new Map(),
  marked = new Set(), selected = null, onTap = null, cursor = CENTRE, onCursor = null,
  label = "" }) {
  const kinds = premiums(edition.board);
  const values = Object.fromEntries(edition.letters.map(([face, value]) => [face, value]));
  const laid = tilesOf(rows);
  const head = h("tr", {}, h("td", { class: "corner", "aria-hidden": "true" }),
    Array.from({ length: SIZE }, (_, c) => h("th", { scope: "col", class: "coord" }, c + 1)));
  const body = Array.from({ length: SIZE }, (_, r) => h("tr", {},
    h("th", { scope: "row", class: "coord" }, ROWS[r]),
    Array.from({ length: SIZE }, (_, c) => {
      const square = `${ROWS[r]}${c + 1}`;
      const premium = kinds[r][c];
      const tile = pending.get(square) || laid.get(square) || "";
      const classes = ["square"];
      if (premium) classes.push(`p${premium}`);
      if (square === CENTRE) classes.push("centre");
      if (tile) classes.push("tile");
      if (pending.has(square)) classes.push("new");
      if (marked.has(square)) classes.push("marked");
      if (tile && isBlank(tile)) classes.push("blank");
      if (selected && selected.square === square) classes.push("start", selected.direction);
      const face = tile ? tile.toUpperCase() : "";
      const content = tile
        ? [h("span", { class: "face" }, face),
          h("span", { class: "value" }, isBlank(tile) ? "" : values[face] ?? "")]
        : [h("span", { class: "mark", "aria-hidden": "true" },
          square === CENTRE ? "★" : premium && premiumMark(premium))];
      const name = describe(square, premium, tile, pending.has(square));
      const cell = onTap
        ? h("button", { type: "button", class: "cell", "aria-label": name,
          tabindex: square === cursor ? "0" : "-1",
          "aria-pressed": selected && selected.square === square ? "true" : null,
          dataset: { square }, onclick: () => onTap(square) }, content)
        : h("span", { class: "cell", role: "img", "aria-label": name, dataset: { square } },
          content);
      return h("td", { class: classes.join(" ") }, cell);
    })));
  const table = h("table", { class: `board ${premiumClass(edition)}`, "aria-label": label,
    role: onTap ? "grid" : null }, h("thead", {}, head), h("tbody", {}, body));
  if (onTap) table.addEventListener("keydown", (event) => roam(event, table, onCursor));
  return table;
}

// The arrow keys on the grid: the focus (and the one tab stop) moves to the next square.
const KEYS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
  PageUp: [-SIZE, 0], PageDown: [SIZE, 0], Home: [0, -SIZE], End: [0, SIZE] };

function roam(event, table, onCursor) {
  const move = KEYS[event.key];
  const from = event.target.closest && event.target.closest("[data-square]");
  if (!move || !from || event.altKey || event.metaKey) return;
  event.preventDefault();
  const square = from.dataset.square;
  const clamp = (x) => Math.max(0, Math.min(SIZE - 1, x));
  const [dr, dc] = event.ctrlKey && (event.key === "Home" || event.key === "End")
    ? [move[1], move[1]] : move; // Ctrl+Home / Ctrl+End: A1, O15
  const r = clamp(ROWS.indexOf(square[0]) + dr);
  const c = clamp(Number(square.slice(1)) - 1 + dc);
  const next = table.querySelector(`[data-square="${ROWS[r]}${c + 1}"]`);
  if (!next || next === from) return;
  from.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
  if (onCursor) onCursor(next.dataset.square);
}

// A premium square's short mark in the language: "2W" in Dutch, "2P" (parola) in Italian.
export const premiumMark = (premium) => t(`board.mark.${premium}`);

// "H8, dubbele woordwaarde, ster, P (blanco)": what a screen reader says of a square.
export function describe(square, premium, tile, isNew = false) {
  const parts = [square];
  if (premium) parts.push(t(`board.premium.${premium}`));
  if (square === CENTRE) parts.push(t("board.star"));
  if (tile) {
    parts.push(isBlank(tile) ? t("board.blank_tile", { letter: tile.toUpperCase() }) : tile);
    if (isNew) parts.push(t("board.new_tile"));
  } else parts.push(t("board.empty"));
  return parts.join(", ");
}
