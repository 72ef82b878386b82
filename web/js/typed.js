// Typed-words mode (§3 TYP): the main word and up to 7 cross words, each drawn as its tiles.
// Tapping a tile opens a panel for the square under it, a blank and ‘already on the board’
// (TYP-05). The players say which squares are covered; nothing here guesses (TYP-07).
//
// Text is split into tiles as the server splits it (editions/alphabet.py) only so that each
// tile can carry its marks; the server reads every tile again and does all the scoring.

import { premiumClass, premiumMark } from "./board.js";
import { number, t } from "./i18n.js";
import { app } from "./state.js";
import { h, replace } from "./ui.js";

// TYP-03: the cross words a move may have besides the main word (the server's limit).
const maxCross = () => app.catalog.max_cross_words;
const SEPARATOR = "·"; // "C·H" is C then H in an edition with a CH tile (P-20)
const SPELLED_OUT = { "Œ": "OE", "Æ": "AE", "ẞ": "SS" };

export const empty = () => ({ words: [{ text: "", marks: [] }], open: null });

// Typed text → faces: a face stays itself (Ł, Ñ), another letter loses its accents (é → E,
// ß → SS, ĳ → I J), multi-letter faces match longest first unless split by "·". A character
// that is no Latin letter comes back as it is, for the server to refuse by name (P-20).
export function split(faces, text) {
  const multi = [...faces].filter((f) => f.length > 1).sort((a, b) => b.length - a.length);
  const letters = [];
  const breaks = new Set();
  for (const char of text.trim().normalize("NFC")) {
    if (char === SEPARATOR && multi.length) breaks.add(letters.length);
    else letters.push(...fold(faces, char));
  }
  const tiles = [];
  for (let i = 0; i < letters.length;) {
    const face = multi.find((f) => letters.slice(i, i + f.length).join("") === f
      && ![...breaks].some((b) => b > i && b < i + f.length));
    tiles.push(face || letters[i]);
    i += face ? face.length : 1;
  }
  return tiles;
}

function fold(faces, char) {
  if (!/\p{Script=Latin}/u.test(char) || !/\p{L}/u.test(char)) return [char];
  const out = [];
  for (const upper of char.toUpperCase()) {
    if (faces.has(upper)) out.push(upper);
    else {
      const bare = SPELLED_OUT[upper] || upper.normalize("NFKD").replace(/\p{M}/gu, "");
      out.push(...(/^\p{Lu}+$/u.test(bare) ? bare : upper));
    }
  }
  return out;
}

// Faces → text that splits back into the same faces: "·" between C and H when they are two.
export function textOf(faces, tiles) {
  let text = "";
  tiles.forEach((face, i) => {
    const joined = text + face;
    const again = split(faces, joined);
    text = again.length === i + 1 && again[i] === face ? joined : text + SEPARATOR + face;
  });
  return text;
}

// A tile in row notation: "P", "p" a blank, "[CH]" a multi-letter tile.
export function notation(face, blank) {
  const text = face.length > 1 ? `[${face}]` : face;
  return blank ? text.toLowerCase() : text;
}

// Row notation → {face, blank}.
export function parseTile(text) {
  const inner = text.startsWith("[") ? text.slice(1, -1) : text;
  return { face: inner.toUpperCase(), blank: inner !== inner.toUpperCase() };
}

// What a tile is: a face of the set, a Latin letter the set lacks (a locked blank, ALP-09),
// or something the server will refuse (a letter of another script too: Ω).
export function kind(faces, face) {
  if (faces.has(face)) return "face";
  return /^\p{Lu}+$/u.test(face) && /^\p{Script=Latin}+$/u.test(face) ? "locked" : "invalid";
}

// A word's tiles with their marks: {face, kind, blank, premium, old}.
export function tilesOf(word, faces) {
  return split(faces, word.text).map((face, i) => {
    const mark = word.marks[i] || {};
    const what = kind(faces, face);
    return { face, kind: what, blank: what === "locked" || Boolean(mark.blank),
      premium: mark.premium || null, old: Boolean(mark.old) };
  });
}

export const isEmpty = (state) => state.words.every((w) => !w.text.trim());

// The move as the server takes it: typed: [[[tile, premium, old], …], …] (empty words left out).
export function move(state, faces) {
  const words = state.words.map((w) => tilesOf(w, faces)).filter((tiles) => tiles.length);
  if (!words.length) return null;
  return { typed: words.map((tiles) => tiles.map((x) =>
    [notation(x.face, x.blank && x.kind === "face"), x.premium, x.old])) };
}

// A move from the server's notation (a share link, an example) → the state of this mode.
export function fromMove(typed, faces) {
  return {
    open: null,
    words: typed.slice(0, 1 + maxCross()).map((word) => {
      const tiles = word.map(([tile, premium = null, old = false]) =>
        ({ ...parseTile(String(tile)), premium, old: Boolean(old) }));
      return { text: textOf(faces, tiles.map((x) => x.face)),
        marks: tiles.map((x) => ({ premium: x.premium, blank: x.blank, old: x.old })) };
    }),
  };
}

// A retyped word keeps the marks of the tiles it kept: those of the unchanged start and the
// unchanged end, each on its own letter; a changed or new letter has none (a premium, a blank
// or "already on the board" was said of the tile that was there, not of the square).
export function keptMarks(marks, before, after) {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head
    && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail += 1;
  return after.map((_, i) => {
    if (i < head) return marks[i] || null;
    if (i >= after.length - tail) return marks[i - after.length + before.length] || null;
    return null;
  });
}

// ctx: {edition (catalog entry), faces, values, changed(), redraw()}
export function render(state, ctx) {
  const boxes = state.words.map((word, i) => wordBox(state, i, ctx));
  const more = state.words.length <= maxCross()
    ? h("button", { type: "button", class: "add-word", onclick: () => {
      state.words.push({ text: "", marks: [] });
      ctx.redraw();
      document.getElementById(`calc-word-${state.words.length - 1}`)?.focus();
    } }, t("calc.add_word"))
    : h("p", { class: "hint" }, t("calc.max_words"));
  return h("div", { class: `typed ${premiumClass(ctx.edition)}` }, h("p", { class: "hint" }, t("calc.typed_hint")), boxes,
    more);
}

function wordBox(state, i, ctx) {
  const word = state.words[i];
  const id = `calc-word-${i}`;
  const tiles = h("div", { class: "tiles", id: `calc-tiles-${i}` });
  const draw = () => drawTiles(state, i, tiles, ctx);
  draw();
  return h("div", { class: "word" },
    h("label", { for: id }, i === 0 ? t("calc.main_word") : t("calc.cross_word", { n: i })),
    h("div", { class: "word-row" },
      h("input", {
        id, value: word.text, autocomplete: "off", autocapitalize: "characters",
        spellcheck: "false", maxlength: 40, class: "letters",
        oninput: (event) => {
          const before = split(ctx.faces, word.text);
          word.text = event.target.value;
          const after = split(ctx.faces, word.text);
          const count = after.length;
          word.marks = keptMarks(word.marks, before, after);
          if (state.open && state.open.word === i && state.open.tile >= count) state.open = null;
          draw();
          ctx.changed();
        },
      }),
      i > 0 ? h("button", {
        type: "button", class: "remove", "aria-label": t("calc.remove_word", { n: i }),
        onclick: () => {
          state.words.splice(i, 1);
          state.open = null;
          ctx.redraw();
          ctx.changed();
        },
      }, "×") : null),
    tiles);
}

function drawTiles(state, i, region, ctx) {
  const tiles = tilesOf(state.words[i], ctx.faces);
  const open = state.open && state.open.word === i ? state.open.tile : -1;
  const toggle = (k) => {
    state.open = open === k ? null : { word: i, tile: k };
    drawTiles(state, i, region, ctx);
    // Opened, the panel comes after all the word's tiles: the focus goes into it rather
    // than on through the tiles that follow (Escape and Done give it back to the tile).
    if (state.open) region.querySelector(".tile-panel input:checked")?.focus();
  };
  replace(region,
    tiles.map((tile, k) => tileButton(tile, k, `calc-tile-${i}-${k}`, open === k, ctx,
      () => toggle(k))),
    open >= 0 ? panel(state, i, open, tiles[open], region, ctx) : null,
    overSet(tiles, ctx.edition).map(([face, have]) => h("p", { class: "hint over-set" },
      t("calc.over_set", { letter: face, have: number(have) }))));
}

// The faces a word holds more of than the set has, with the set's count: one of them is a
// blank the player has not marked (ŹDŹBŁO in a set with one Ź), and the score counts it.
export function overSet(tiles, edition) {
  const have = Object.fromEntries(edition.letters.map(([face, , count]) => [face, count]));
  const used = new Map();
  for (const tile of tiles) {
    if (tile.kind === "face" && !tile.blank) used.set(tile.face, (used.get(tile.face) || 0) + 1);
  }
  return [...used].filter(([face, n]) => n > have[face]).map(([face]) => [face, have[face]]);
}

function tileButton(tile, k, id, open, ctx, onclick) {
  const classes = ["tile", tile.kind];
  if (tile.face.length > 1) classes.push("multi"); // CH, LL, RR: two letters on one tile
  if (tile.blank) classes.push("blank");
  if (tile.old) classes.push("old");
  if (tile.premium) classes.push(`p${tile.premium}`);
  const value = tile.kind === "invalid" ? "" : tile.blank ? 0 : ctx.values[tile.face];
  return h("button", {
    type: "button", id, class: classes.join(" "), onclick,
    "aria-expanded": String(open), "aria-controls": open ? `${id}-panel` : null,
    "aria-label": describe(tile, k),
  },
  h("span", { class: "face" }, tile.face),
  h("span", { class: "value" }, value),
  tile.premium ? h("span", { class: "premium" }, premiumMark(tile.premium)) : null);
}

// "Blokje 1: P, dubbele woordwaarde, ligt al op het bord".
function describe(tile, k) {
  const parts = [t("calc.tile", { n: k + 1, letter: tile.face })];
  if (tile.premium) parts.push(t(`board.premium.${tile.premium}`));
  if (tile.blank) parts.push(t("calc.blank"));
  if (tile.old) parts.push(t("calc.old"));
  return parts.join(", ");
}

function panel(state, i, k, tile, region, ctx) {
  const word = state.words[i];
  const id = `calc-tile-${i}-${k}`;
  const mark = () => (word.marks[k] ||= { premium: null, blank: false, old: false });
  const update = (change) => {
    change(mark());
    drawTiles(state, i, region, ctx);
    ctx.changed();
  };
  const option = (premium) => h("label", { class: "option" },
    h("input", {
      type: "radio", name: `${id}-premium`, id: `${id}-premium-${premium || "none"}`,
      checked: tile.premium === premium, onchange: () => update((m) => { m.premium = premium; }),
    }), " ", premium ? `${premiumMark(premium)} · ${t(`board.premium.${premium}`)}`
      : t("calc.no_premium"));
  const close = () => {
    state.open = null;
    drawTiles(state, i, region, ctx);
    document.getElementById(id)?.focus();
  };
  return h("div", { class: "tile-panel", id: `${id}-panel`, role: "group",
    "aria-label": t("calc.tile", { n: k + 1, letter: tile.face }),
    onkeydown: (event) => { if (event.key === "Escape") close(); } }, // as Done does
  h("fieldset", { class: "choice" }, h("legend", {}, t("calc.square")),
    [null, ...ctx.edition.premiums].map(option)),
  h("label", { class: "option" },
    h("input", {
      type: "checkbox", id: `${id}-blank`, checked: tile.blank, disabled: tile.kind === "locked",
      onchange: (event) => update((m) => { m.blank = event.target.checked; }),
    }), " ", t("calc.blank")),
  tile.kind === "locked" ? h("p", { class: "hint" }, t("calc.locked_blank", { letter: tile.face }))
    : null,
  h("label", { class: "option" },
    h("input", {
      type: "checkbox", id: `${id}-old`, checked: tile.old,
      onchange: (event) => update((m) => { m.old = event.target.checked; }),
    }), " ", t("calc.old")),
  h("div", { class: "actions" }, h("button", { type: "button", onclick: close }, t("calc.done"))));
}
