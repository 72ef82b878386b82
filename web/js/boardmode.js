// Board mode (§4 BRD): tap the square where the word starts (a second tap turns it), type the
// rack letters, and they fill the free squares along the line, skipping tiles already on the
// board (BRD-06..10). Tapping a new tile makes it a blank (BRD-11). The server finds the
// premiums and the words, and refuses a placement with its reason (BRD-12..17).
//
// Without a table the board lives in local storage, one per edition (BRD-20).

import { renderBoard, step, tilesOf } from "./board.js";
import { number, refusal, t } from "./i18n.js";
import { kind, notation, overSet, parseTile, split, textOf } from "./typed.js";
import { h, replace, say } from "./ui.js";

export const empty = () => ({ start: null, direction: "across", text: "", blanks: [] });

export const isEmpty = (state) => !state.text.trim();

const storeKey = (edition) => `tilestream.board.${edition}`;

export function loadLocal(edition) {
  try {
    const rows = JSON.parse(localStorage.getItem(storeKey(edition)));
    return Array.isArray(rows) && rows.length === 15 ? rows : null;
  } catch {
    return null;
  }
}

export function saveLocal(edition, rows) {
  if (rows && rows.some((row) => /[^.]/.test(row))) {
    localStorage.setItem(storeKey(edition), JSON.stringify(rows));
  } else localStorage.removeItem(storeKey(edition));
}

// The typed letters as tiles, each on its square: {tiles, squares, overflow, question}.
// `tiles` are the new tiles only, each with `index`, its place among the typed letters.
//
// Two readings of the letters (issue 12): the rack letters fill the free squares and skip
// the occupied ones (BRD-09/10: K R A N over the A of PLANK is KRAAN), or the whole word is
// typed and a letter typed on an occupied square is that square's tile (K R A A N over the
// same A is KRAAN too, not KRAAAN). The rack reading stays the rule; the whole word is
// understood when it alone avoids three equal letters in a row that the board's tile would
// make. When both readings hold otherwise, the phone asks (`question`), and the answer
// (`state.reading`) stands for the move.
function lay(state, faces, rows) {
  const typed = split(faces, state.text).map((face, index) => {
    const what = kind(faces, face);
    return { face, kind: what, index, blank: what === "locked" || state.blanks.includes(index) };
  });
  if (!state.start) return { tiles: typed, squares: [], overflow: false, question: null };
  const taken = tilesOf(rows);
  const rack = readRack(state, typed, taken);
  const whole = readWhole(state, typed, taken);
  let chosen = rack;
  let question = null;
  if (whole) {
    if (state.reading === "whole") chosen = whole;
    else if (state.reading !== "rack") {
      if (triple(rack.line) && !triple(whole.line)) chosen = whole;
      else question = { whole, rack };
    }
  }
  return { ...chosen, question };
}

// BRD-09/10: every typed letter on the next free square.
function readRack(state, typed, taken) {
  const tiles = [];
  const squares = [];
  let square = state.start;
  for (let i = 0; i < typed.length && square; i++) {
    while (square && taken.has(square)) square = step(square, state.direction);
    if (square) {
      tiles.push(typed[i]);
      squares.push(square);
      square = step(square, state.direction);
    }
  }
  const overflow = squares.length < typed.length;
  return { tiles, squares, overflow, line: line(state, taken, tiles, squares) };
}

// The whole word from the start: a letter on an occupied square must be its tile (a blank
// on the board matches its letter) and is dropped; null when that is not so, or when no
// typed letter fell on a tile. The word may begin on the tiles just before the start (KR
// on the board, J8 tapped, KRAAN typed): letters that spell those tiles are theirs.
function readWhole(state, typed, taken) {
  const tiles = [];
  const squares = [];
  const matched = [];
  const back = state.direction === "across" ? "left" : "up";
  const before = [];
  for (let at = behind(state.start, back); at && taken.has(at); at = behind(at, back)) {
    before.unshift(at);
  }
  let rest = typed;
  if (before.length < typed.length && before.length
      && before.every((at, i) => same(taken.get(at), typed[i].face))) {
    matched.push(...before);
    rest = typed.slice(before.length);
  }
  let square = state.start;
  for (const tile of rest) {
    if (!square) return null;
    const there = taken.get(square);
    if (there) {
      if (!same(there, tile.face)) return null;
      matched.push(square);
    } else {
      tiles.push(tile);
      squares.push(square);
    }
    square = step(square, state.direction);
  }
  if (!matched.length || !tiles.length) return null;
  return { tiles, squares, overflow: false, matched, line: line(state, taken, tiles, squares) };
}

// The faces along the line through the new tiles, the board's tiles on it included.
function line(state, taken, tiles, squares) {
  const news = new Map(squares.map((square, i) => [square, tiles[i].face.toUpperCase()]));
  const back = state.direction === "across" ? "left" : "up";
  let square = state.start;
  for (let at = behind(square, back); at && taken.has(at); at = behind(at, back)) square = at;
  const out = [];
  while (square && (news.has(square) || taken.has(square))) {
    out.push(news.get(square) ?? taken.get(square).toUpperCase());
    square = step(square, state.direction);
  }
  return out;
}

const same = (there, face) => there.toUpperCase() === face.toUpperCase();

const behind = (square, way) => {
  const row = ROWS.indexOf(square[0]);
  const col = Number(square.slice(1)) - 1;
  const [r, c] = way === "left" ? [row, col - 1] : [row - 1, col];
  return r >= 0 && c >= 0 ? `${ROWS[r]}${c + 1}` : null;
};
const ROWS = "ABCDEFGHIJKLMNO";

const triple = (faces) => faces.some((face, i) =>
  i >= 2 && face === faces[i - 1] && face === faces[i - 2]);

// The move as the server takes it: {board: {start, direction, letters}}, blanks in lower case;
// only the new tiles (the server skips occupied squares, BRD-10).
export function move(state, faces, rows = shownRows.get(state) ?? null) {
  if (!state.start) return null;
  const { tiles } = lay(state, faces, rows);
  if (!tiles.length) return null;
  const letters = tiles.map((x) => notation(x.face, x.blank && x.kind === "face")).join("");
  return { board: { start: state.start, direction: state.direction, letters } };
}

// The board each move was last drawn on (the calculator asks for the move without it).
const shownRows = new WeakMap();

// A board move from the server's notation (a share link, an example) → this mode's state.
export function fromMove(board, faces) {
  const tiles = (String(board.letters).match(/\[[^\]]*\]|./gu) || []).map(parseTile);
  return {
    start: /^[A-O](1[0-5]|[1-9])$/.test(board.start) ? board.start : null,
    direction: board.direction === "down" ? "down" : "across",
    text: textOf(faces, tiles.map((x) => x.face)),
    blanks: tiles.flatMap((x, i) => (x.blank ? [i] : [])),
  };
}

// ctx: {edition (catalog entry), faces, values, rows, marked, changed()}
//
// The panel, in the order of the tab stops: the direction, the board (one tab stop), the
// letters, then the calculator's result with the record button. On a phone the whole board
// fills the width; a tap on it chooses the start and zooms to 3rem squares around it (the
// zoomed board scrolls), where every later tap lands on a square of thumb size.
export function render(state, ctx) {
  shownRows.set(state, ctx.rows);
  const directions = h("div", { class: "direction", role: "group",
    "aria-label": t("calc.direction") });
  const region = h("div", { class: "board-area" });
  const asking = h("div", { class: "reading", "aria-live": "polite" });
  const over = h("div", { class: "over-set-board", "aria-live": "polite" });
  const draw = () => {
    drawDirections(state, ctx, directions, draw);
    drawBoard(state, ctx, region, draw);
    drawQuestion(state, ctx, asking, draw);
    drawOverSet(state, ctx, over);
  };
  const input = h("input", {
    id: "calc-letters", value: state.text, autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", maxlength: 40, class: "letters", "aria-describedby": "calc-start",
    oninput: (event) => {
      const before = state.text;
      state.text = event.target.value;
      if (!state.text.trim()) state.reading = null;
      if (lay(state, ctx.faces, ctx.rows).overflow) { // P-22: letters past the edge are refused
        state.text = before;
        event.target.value = before;
        say(refusal("off_board", { square: state.start }));
        return;
      }
      const count = split(ctx.faces, state.text).length;
      state.blanks = state.blanks.filter((i) => i < count);
      draw();
      ctx.changed();
    },
  });
  draw();
  return h("div", { class: "board-mode" },
    h("p", { class: "hint" }, t("calc.board_hint")),
    directions,
    region,
    h("div", { class: "field" }, h("label", { for: "calc-letters" }, t("calc.letters")), input),
    over,
    asking);
}

// A new tile of a letter the board and the move hold more of than the set has (a second Z
// in English): one of them is a blank, and the score counts it at face value until the new
// one is tapped. Only a letter of the move is pointed out: a board that holds too many
// already is no mistake of this move, and tapping its tiles changes nothing here.
function drawOverSet(state, ctx, box) {
  const { tiles } = lay(state, ctx.faces, ctx.rows);
  const news = new Set(tiles.filter((x) => x.kind === "face" && !x.blank).map((x) => x.face));
  const laid = [...tilesOf(ctx.rows).values()].map((tile) => ({ ...parseTile(tile),
    kind: "face" }));
  replace(box, overSet([...laid, ...tiles], ctx.edition)
    .filter(([face]) => news.has(face))
    .map(([face, have]) => h("p", { class: "hint over-set" },
      t("calc.over_set_board", { letter: face, have: number(have) }))));
}

// BRD-08: the direction buttons, pressed as the line runs.
function drawDirections(state, ctx, group, redraw) {
  replace(group, ["across", "down"].map((way) => h("button", {
    type: "button", id: `calc-${way}`, "aria-pressed": String(state.direction === way),
    onclick: () => {
      state.direction = way;
      state.reading = null;
      redraw();
      ctx.changed();
    },
  }, t(`calc.${way}`))));
}

// Both readings of the letters hold: which letters lie on the board already?
function drawQuestion(state, ctx, box, redraw) {
  const { question } = lay(state, ctx.faces, ctx.rows);
  if (!question) {
    replace(box);
    return;
  }
  const answer = (reading) => () => {
    state.reading = reading;
    redraw();
    ctx.changed();
    document.getElementById("calc-letters")?.focus();
  };
  replace(box, h("div", { class: "question", role: "group", "aria-labelledby": "calc-reading" },
    h("p", { id: "calc-reading" }, t("calc.reading_question",
      { squares: question.whole.matched.join(", ") })),
    h("div", { class: "actions" },
      h("button", { type: "button", id: "calc-reading-whole", onclick: answer("whole") },
        t("calc.reading_whole", { word: question.whole.line.join("") })),
      h("button", { type: "button", id: "calc-reading-rack", class: "primary",
        onclick: answer("rack") },
        t("calc.reading_rack", { word: question.rack.line.join("") })))));
}

function drawBoard(state, ctx, region, redraw) {
  const { tiles, squares } = lay(state, ctx.faces, ctx.rows);
  const pending = new Map(squares.map((square, i) =>
    [square, tiles[i].blank ? tiles[i].face.toLowerCase() : tiles[i].face]));
  const onTap = (square) => {
    const index = squares.indexOf(square);
    state.cursor = square;
    if (!state.zoom) { // the whole board: choose the start roughly, then zoom to it
      state.zoom = true;
      state.centre = square;
      if (index < 0 && state.start !== square) {
        state.start = square;
        state.direction = "across";
        state.reading = null;
      }
    } else if (index >= 0) { // BRD-11: a new tile becomes a blank, or stops being one
      const typedIndex = tiles[index].index;
      if (tiles[index].kind === "locked") {
        say(t("calc.locked_blank", { letter: tiles[index].face }));
        return;
      }
      const blanks = new Set(state.blanks);
      if (blanks.has(typedIndex)) blanks.delete(typedIndex);
      else blanks.add(typedIndex);
      state.blanks = [...blanks].sort((a, b) => a - b);
    } else if (state.start === square) { // BRD-07
      state.direction = state.direction === "across" ? "down" : "across";
      state.reading = null;
    } else { // BRD-06, P-22: a new start runs across
      state.start = square;
      state.direction = "across";
      state.reading = null;
    }
    redraw();
    ctx.changed();
    document.querySelector(`#calc-board [data-square="${square}"]`)?.focus();
  };
  const where = state.start
    ? t("calc.start_at", { square: state.start, direction: t(`calc.${state.direction}`) })
    : t("calc.no_start");
  const frame = h("div", {
    id: "calc-board", class: state.zoom ? "board-frame zoomed" : "board-frame",
    onscroll: (event) => {
      state.scroll = [event.target.scrollLeft, event.target.scrollTop];
    },
    // A letter typed on the board, its start chosen, goes on in the rack letters (the hint
    // says to type them next): the field takes the focus before the key reaches it.
    onkeydown: (event) => {
      const letter = event.key.length === 1 && /\p{L}/u.test(event.key)
        && !event.ctrlKey && !event.metaKey && !event.altKey;
      if (letter && state.start) document.getElementById("calc-letters")?.focus();
    } }, renderBoard({
    edition: ctx.edition, rows: ctx.rows, pending,
    marked: ctx.marked, onTap, label: t("calc.board_label"),
    selected: state.start ? { square: state.start, direction: state.direction } : null,
    cursor: state.cursor || state.start || "H8",
    onCursor: (square) => { state.cursor = square; },
  }));
  replace(region,
    h("div", { class: "start-row" },
      h("p", { id: "calc-start", class: "start-line" }, where),
      state.zoom ? h("button", { type: "button", id: "calc-whole-board", class: "whole",
        onclick: () => {
          state.zoom = false;
          redraw();
          document.querySelector("#calc-board [tabindex='0']")?.focus();
        } }, t("calc.whole_board")) : null),
    frame);
  if (!state.zoom) return;
  const scroll = () => {
    if (state.centre) { // the zoomed board around the square tapped on the whole board
      const cell = frame.querySelector(`[data-square="${state.centre}"]`);
      state.centre = null;
      const box = frame.getBoundingClientRect();
      const at = cell.getBoundingClientRect();
      frame.scrollLeft = at.left - box.left - (box.width - at.width) / 2;
      frame.scrollTop = at.top - box.top - (box.height - at.height) / 2;
      state.scroll = [frame.scrollLeft, frame.scrollTop];
      frame.scrollIntoView({ block: "nearest" }); // the whole zoom above the tab bar
    } else if (state.scroll) [frame.scrollLeft, frame.scrollTop] = state.scroll;
  };
  if (frame.isConnected) scroll();
  else queueMicrotask(scroll); // the calculator puts the panel in the page right after
}
