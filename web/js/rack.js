// The seat's rack in an online game and the tiles laid from it this turn, as the phone holds
// them until Confirm: the order the player arranged (shuffle), the tile chosen to lay next,
// the squares tiles lie on (a blank with the letter it was given), or the tiles chosen to
// exchange. The server's rack stays the truth: when it changes (a move went through, an
// exchange, an undo) the tiles still there keep their places and the new ones fill the
// gaps. The move is only written down here; placement and words are the server's to judge.

import { step } from "./board.js";
import { notation, parseTile } from "./typed.js";

const BLANK = "?";

// A fresh draft: nothing on the rack until the first view.
export const draft = () => ({
  slots: [], // [{id, tile}] in the player's order; tile in row notation ("A", "?", "[CH]")
  placed: new Map(), // square → {id, letter}: letter is a blank's chosen face, else null
  selected: null, // the id of the tile to lay next
  exchange: null, // Set of ids while choosing tiles to exchange
  game: null, // the game the slots are for
});

let ids = 0;

// Follow the rack `rack` (row notation per tile) of `game`. Tiles still on it keep their slot
// and what lies on the board; a changed rack takes back what was laid (the move went, or the
// board it was laid on changed).
export function follow(d, game, rack) {
  const tiles = rack || [];
  const same = d.game === game && sameTiles(d.slots.map((s) => s.tile), tiles);
  if (same) return false;
  const left = [...tiles];
  const kept = [];
  if (d.game === game) {
    for (const slot of d.slots) {
      const at = left.indexOf(slot.tile);
      if (at >= 0) {
        left.splice(at, 1);
        kept.push(slot);
      } else kept.push(null); // a tile gone: a new one takes its place
    }
  }
  const slots = kept.map((slot) => slot ?? (left.length ? newSlot(left.shift()) : null))
    .filter(Boolean);
  slots.push(...left.map(newSlot));
  Object.assign(d, { slots, placed: new Map(), selected: null, exchange: null, game });
  return true;
}

const newSlot = (tile) => ({ id: `t${++ids}`, tile });

function sameTiles(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((tile, i) => tile === y[i]);
}

export const slot = (d, id) => d.slots.find((s) => s.id === id);

// The draft as a reload needs it (JSON): its game, the tiles in the player's order, where
// each laid one lies ([square, slot index, a blank's letter]) and the slot indexes chosen
// to exchange (null while not choosing).
export function saved(d) {
  const at = new Map(d.slots.map((s, i) => [s.id, i]));
  return { game: d.game, tiles: d.slots.map((s) => s.tile),
    placed: [...d.placed].map(([square, laid]) => [square, at.get(laid.id), laid.letter]),
    exchange: d.exchange ? [...d.exchange].map((id) => at.get(id)) : null };
}

// The draft `saved` wrote, laid again over `d` when it is of the same game and the same
// tiles; whether it was.
export function restore(d, kept) {
  const tiles = d.slots.map((s) => s.tile);
  if (!kept || kept.game !== d.game || !Array.isArray(kept.tiles)
    || !sameTiles(kept.tiles, tiles) || !Array.isArray(kept.placed)) return false;
  const slots = kept.tiles.map(newSlot);
  const placed = new Map();
  for (const [square, index, letter] of kept.placed) {
    const laid = slots[index];
    if (!laid || typeof square !== "string" || placed.has(square)) continue;
    if ([...placed.values()].some((p) => p.id === laid.id)) continue;
    const blank = isBlank(laid.tile);
    if (blank && typeof letter !== "string") continue; // a blank lies only with its letter
    placed.set(square, { id: laid.id, letter: blank ? letter : null });
  }
  // Choosing tiles to exchange takes every laid tile back first.
  const exchange = Array.isArray(kept.exchange) && !placed.size
    ? new Set(kept.exchange.map((index) => slots[index]?.id).filter(Boolean)) : null;
  Object.assign(d, { slots, placed, selected: null, exchange });
  return true;
}

export const isBlank = (tile) => tile === BLANK;

// The face a rack tile shows: "A", "CH", "" for a blank.
export const face = (tile) => (isBlank(tile) ? "" : parseTile(tile).face);

// Where a slot's tile lies, or null while it is on the rack.
export function squareOf(d, id) {
  for (const [square, laid] of d.placed) if (laid.id === id) return square;
  return null;
}

export const onRack = (d) => d.slots.filter((s) => squareOf(d, s.id) === null);

// Lay tile `id` on `square` (a blank with the face `letter`).
export function lay(d, id, square, letter = null) {
  const from = squareOf(d, id);
  if (from) d.placed.delete(from);
  d.placed.set(square, { id, letter });
  if (d.selected === id) d.selected = null;
}

// Take the tile on `square` back to the rack; its id, or null.
export function takeBack(d, square) {
  const laid = d.placed.get(square);
  if (!laid) return null;
  d.placed.delete(square);
  return laid.id;
}

// Every laid tile back on the rack.
export function recall(d) {
  d.placed.clear();
  d.selected = null;
}

// A new order of the tiles on the rack; laid tiles keep their slots.
export function shuffle(d) {
  const free = d.slots.map((s, i) => (squareOf(d, s.id) === null ? i : -1)).filter((i) => i >= 0);
  const order = free.map((i) => d.slots[i]);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  free.forEach((at, k) => { d.slots[at] = order[k]; });
}

// What the board draws as the new tiles: square → tile ("a" a blank given the face A).
export function pending(d) {
  const out = new Map();
  for (const [square, laid] of d.placed) {
    const tile = slot(d, laid.id).tile;
    out.set(square, isBlank(tile) ? laid.letter.toLowerCase() : parseTile(tile).face);
  }
  return out;
}

// The move as the server takes it ({start, direction, letters}: the letters fill the free
// squares from the start), or {refusal: [code, params]} when the laid tiles cannot be written
// as one (not on one line, an empty square between them), or null with nothing laid.
// `taken` is the board's Map square → tile.
export function move(d, taken) {
  const squares = [...d.placed.keys()].sort(bySquare);
  if (!squares.length) return null;
  const rows = new Set(squares.map((s) => s[0]));
  const cols = new Set(squares.map((s) => s.slice(1)));
  let direction;
  if (squares.length === 1) direction = lone(squares[0], taken);
  else if (rows.size === 1) direction = "across";
  else if (cols.size === 1) direction = "down";
  else return { refusal: ["not_in_line", {}] };
  if (direction === "down") squares.sort(byColumn);
  const last = squares[squares.length - 1];
  let letters = "";
  for (let square = squares[0]; square; square = step(square, direction)) {
    const laid = d.placed.get(square);
    if (laid) {
      const tile = slot(d, laid.id).tile;
      letters += isBlank(tile) ? notation(laid.letter, true) : tile;
    } else if (!taken.has(square)) return { refusal: ["gap", { square }] };
    if (square === last) break;
  }
  return { start: squares[0], direction, letters };
}

// One tile reads along the board's tiles beside it: across unless only its column has some.
function lone(square, taken) {
  const beside = (way) => [-1, 1].some((n) => {
    const there = neighbour(square, way, n);
    return there && taken.has(there);
  });
  return !beside("across") && beside("down") ? "down" : "across";
}

const ROWS = "ABCDEFGHIJKLMNO";

function neighbour(square, way, n) {
  const r = ROWS.indexOf(square[0]) + (way === "down" ? n : 0);
  const c = Number(square.slice(1)) - 1 + (way === "across" ? n : 0);
  return r >= 0 && r < 15 && c >= 0 && c < 15 ? `${ROWS[r]}${c + 1}` : null;
}

function bySquare(a, b) {
  return ROWS.indexOf(a[0]) - ROWS.indexOf(b[0]) || Number(a.slice(1)) - Number(b.slice(1));
}

function byColumn(a, b) {
  return Number(a.slice(1)) - Number(b.slice(1)) || ROWS.indexOf(a[0]) - ROWS.indexOf(b[0]);
}

// The tiles chosen to exchange, in row notation ("?" a blank), as the server takes them.
export function exchangeTiles(d) {
  return d.slots.filter((s) => d.exchange?.has(s.id)).map((s) => s.tile).join("");
}
