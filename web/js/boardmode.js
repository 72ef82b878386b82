// Board mode (§4 BRD): tap the square where the word starts (a second tap turns it), type the
// rack letters, and they fill the free squares along the line, skipping tiles already on the
// board (BRD-06..10). Tapping a new tile makes it a blank (BRD-11). The server finds the
// premiums and the words, and refuses a placement with its reason (BRD-12..17).
//
// Without a table the board lives in local storage, one per edition (BRD-20).

import { renderBoard, step, tilesOf } from "./board.js";
import { refusal, t } from "./i18n.js";
import { kind, notation, parseTile, split, textOf } from "./typed.js";
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

// The typed letters as tiles, each on its square: {tiles, squares, overflow}.
function lay(state, faces, rows) {
  const tiles = split(faces, state.text).map((face, i) => {
    const what = kind(faces, face);
    return { face, kind: what, blank: what === "locked" || state.blanks.includes(i) };
  });
  const squares = [];
  if (!state.start) return { tiles, squares, overflow: false };
  const taken = tilesOf(rows);
  let square = state.start;
  for (let i = 0; i < tiles.length && square; i++) {
    while (square && taken.has(square)) square = step(square, state.direction);
    if (square) {
      squares.push(square);
      square = step(square, state.direction);
    }
  }
  return { tiles, squares, overflow: squares.length < tiles.length };
}

// The move as the server takes it: {board: {start, direction, letters}}, blanks in lower case.
export function move(state, faces) {
  if (!state.start) return null;
  const { tiles } = lay(state, faces, null);
  if (!tiles.length) return null;
  const letters = tiles.map((x) => notation(x.face, x.blank && x.kind === "face")).join("");
  return { board: { start: state.start, direction: state.direction, letters } };
}

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
export function render(state, ctx) {
  const directions = h("div", { class: "direction", role: "group",
    "aria-label": t("calc.direction") });
  const region = h("div", { class: "board-area" });
  const draw = () => {
    drawDirections(state, ctx, directions, draw);
    drawBoard(state, ctx, region, draw);
  };
  const input = h("input", {
    id: "calc-letters", value: state.text, autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", maxlength: 40, class: "letters", "aria-describedby": "calc-start",
    oninput: (event) => {
      const before = state.text;
      state.text = event.target.value;
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
    h("div", { class: "field" }, h("label", { for: "calc-letters" }, t("calc.letters")), input),
    region);
}

// BRD-08: the direction buttons, pressed as the line runs.
function drawDirections(state, ctx, group, redraw) {
  replace(group, ["across", "down"].map((way) => h("button", {
    type: "button", id: `calc-${way}`, "aria-pressed": String(state.direction === way),
    onclick: () => {
      state.direction = way;
      redraw();
      ctx.changed();
    },
  }, t(`calc.${way}`))));
}

function drawBoard(state, ctx, region, redraw) {
  const { tiles, squares } = lay(state, ctx.faces, ctx.rows);
  const pending = new Map(squares.map((square, i) =>
    [square, tiles[i].blank ? tiles[i].face.toLowerCase() : tiles[i].face]));
  const onTap = (square) => {
    const index = squares.indexOf(square);
    if (index >= 0) { // BRD-11: a new tile becomes a blank, or stops being one
      if (tiles[index].kind === "locked") {
        say(t("calc.locked_blank", { letter: tiles[index].face }));
        return;
      }
      const blanks = new Set(state.blanks);
      if (blanks.has(index)) blanks.delete(index);
      else blanks.add(index);
      state.blanks = [...blanks].sort((a, b) => a - b);
    } else if (state.start === square) { // BRD-07
      state.direction = state.direction === "across" ? "down" : "across";
    } else { // BRD-06, P-22: a new start runs across
      state.start = square;
      state.direction = "across";
    }
    redraw();
    ctx.changed();
    document.querySelector(`#calc-board [data-square="${square}"]`)?.focus();
  };
  const where = state.start
    ? t("calc.start_at", { square: state.start, direction: t(`calc.${state.direction}`) })
    : t("calc.no_start");
  replace(region,
    h("p", { id: "calc-start", class: "start-line" }, where),
    h("div", { id: "calc-board" }, renderBoard({
      edition: ctx.edition, rows: ctx.rows, pending,
      marked: ctx.marked, onTap, label: t("calc.board_label"),
      selected: state.start ? { square: state.start, direction: state.direction } : null,
    })));
}
