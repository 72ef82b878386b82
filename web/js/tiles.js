// The tile panel 'Letterverdeling' (TRK): the edition's set letter by letter with points and
// count, and during a game what is left of each letter. The server counts (TRK-02/03: the
// computed moves, in duplicate the tops only); the phone only draws its numbers.

import { language, notice, number, onLanguage, t } from "./i18n.js";
import { app, chosenEdition, edition, sheet, subscribe } from "./state.js";
import { h, replace } from "./ui.js";

const BLANK = "?";

// The view's state, in one place.
const ui = {
  parts: null,
  shown: "", // what the panel was drawn for
};

export function mount(section) {
  const summary = h("summary", {}, h("h2", { id: "tiles-title" }));
  ui.parts = {
    summary,
    body: h("div", { class: "tiles-body" }),
    status: h("div", { class: "tiles-status", "aria-live": "polite" }),
    grid: h("ul", { class: "tiles-grid", role: "list" }),
  };
  section.setAttribute("aria-labelledby", "tiles-title");
  // Open: the panel has a view of its own (the Tiles tab).
  section.replaceChildren(h("details", { class: "tiles-panel", open: true },
    summary, ui.parts.body, ui.parts.status, ui.parts.grid));
  subscribe(render);
  onLanguage(render);
  render(); // mounted after the app's first drawing (app.js)
}

// The edition the panel shows: the game's, else the one the calculator's menu picked (the
// print panel prints the same one).
export function shownEdition() {
  const game = sheet();
  return game ? game.edition : chosenEdition();
}

function render() {
  if (!app.catalog) return;
  const game = sheet();
  const code = shownEdition();
  // Drawn again only when what it shows changed: most changes of the sheet (a name, the
  // clock, the connection) leave the tiles as they were, and 27 tiles cost a phone time.
  const key = JSON.stringify([language, code, game && [game.mode, game.tracking]]);
  if (key === ui.shown) return;
  ui.shown = key;
  ui.parts.summary.firstChild.textContent = t("tiles.title");
  replace(ui.parts.body, h("p", { class: "tiles-edition" }, t(`edition.${code}`)),
    setTotals(code));
  if (game) {
    const tracking = game.tracking;
    status([numbers(game, tracking), pointsOnly(tracking), warnings(tracking)]);
    replace(ui.parts.grid, tracking.letters.map((x) => tile(x, true)));
  } else {
    status([]);
    replace(ui.parts.grid, setLetters(code).map((x) => tile(x, false)));
  }
}

// The numbers and warnings sit in a live region: redraw it only when its words change, so a
// screen reader hears a change once and not on every update of the sheet.
function status(children) {
  const shown = children.filter(Boolean);
  const text = shown.map((c) => c.textContent).join("\n");
  if (text === ui.parts.status.dataset.text) return;
  ui.parts.status.dataset.text = text;
  ui.parts.status.replaceChildren(...shown);
}

// The set as the tracking lists it: letters in the edition's order, then the blanks.
function setLetters(code) {
  const info = edition(code);
  return [
    ...info.letters.map(([letter, value, count]) => ({ letter, value, count, left: count })),
    { letter: BLANK, value: 0, count: info.blanks, left: info.blanks },
  ];
}

function setTotals(code) {
  const letters = setLetters(code);
  const tiles = letters.reduce((sum, x) => sum + x.count, 0);
  const points = letters.reduce((sum, x) => sum + x.count * x.value, 0);
  return h("p", { class: "hint" }, t("tiles.set_summary", {
    tiles: number(tiles), blanks: number(edition(code).blanks), points: number(points),
  }));
}

// TRK-05: (a) not yet on the board, (b) in the bag while every rack is full. Near the end
// the racks cannot all be full and the bag is simply empty, so (b) stops at 0 (OQ-58).
function numbers(game, tracking) {
  const bag = game.mode === "duplicate" ? "tiles.in_bag_duplicate" : "tiles.in_bag";
  return h("dl", { class: "tiles-numbers" },
    h("div", {}, h("dt", {}, t("tiles.not_on_board")),
      h("dd", { class: "num", "data-number": "a" }, number(tracking.not_on_board))),
    h("div", {}, h("dt", {}, t(bag)),
      h("dd", { class: "num", "data-number": "b" }, number(Math.max(0, tracking.in_bag)))));
}

function pointsOnly(tracking) {
  if (!tracking.points_only) return null;
  return h("p", { class: "tiles-points-only" },
    t("tiles.points_only", { count: number(tracking.points_only) }));
}

function warnings(tracking) {
  if (!tracking.warnings.length) return null;
  return h("ul", { class: "tiles-warnings" },
    tracking.warnings.map((w) => h("li", {}, notice(w.code, {
      ...w.params, letter: w.params.letter === BLANK ? t("tiles.blank") : w.params.letter,
    }))));
}

// One tile: face and value as on the real tile, and below it the count (no game) or what
// is left of the count; a used-up letter is greyed, an over-used one red with its text.
function tile(x, counting) {
  const name = x.letter === BLANK ? t("tiles.blank") : x.letter;
  const state = !counting ? "" : x.left < 0 ? "over" : x.left === 0 ? "gone" : "";
  let count = `×${number(x.count)}`;
  let spoken = t("tiles.tile_set", { letter: name, value: number(x.value), count: number(x.count) });
  if (counting) {
    count = `${number(x.left)}/${number(x.count)}`;
    spoken = t(x.left < 0 ? "tiles.tile_over" : "tiles.tile_left", {
      letter: name, value: number(x.value), count: number(x.count),
      left: number(x.left), over: number(-x.left),
    });
  }
  return h("li", { class: `tile ${state}`.trim(), dataset: { letter: x.letter } },
    h("span", { class: "face", "aria-hidden": "true" }, x.letter,
      h("span", { class: "value" }, number(x.value))),
    h("span", { class: "count", "aria-hidden": "true" }, count),
    h("span", { class: "sr-only" }, spoken));
}
