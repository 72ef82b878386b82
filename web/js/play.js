// The online game (Woordstrijd and every edition with a word list, issue 13): the board, the
// seat's rack at the bottom, and the turn. Tap a tile, then a square (a tap on a laid tile
// takes it back; a tile may also be dragged); a blank asks its letter. The score of what
// lies on the board comes from the server as it is laid (a preview, never a word check);
// the move is judged on Confirm, and a refused one comes back as a sentence with the words
// the list lacks, the tiles back on the rack. Exchange (choose tiles) and Pass (after a
// second tap) are the other turns. Around it: whose turn it is and until when, the bag, the
// others' tile counts, the tiles this player has not seen, the last move marked on the board,
// every move so far, the final table, the invite and the rules.

import { renderBoard, tilesOf } from "./board.js";
import { askScore, bind, drawDock, game, myTurn, seatOf } from "./dock.js";
import { parkGame, timeLeft } from "./games.js";
import { language, number, onLanguage, playerName, t } from "./i18n.js";
import { drawInfo } from "./playinfo.js";
import * as rack from "./rack.js";
import { app, edition, serverNow, subscribe } from "./state.js";
import { h, replace } from "./ui.js";

let section;
const parts = {};
const d = rack.draft();
const ui = {
  zoom: false, centre: null, scroll: null, cursor: "H8",
  asking: null, // the square a blank waits on for its letter
  passing: false, // Pass asked once: the second tap passes
  refusal: null, // the sentence of the last refused turn, until the next tile is laid
  score: null, // the preview of what lies on the board: {key, text, refused}
  invite: null, // the invite card open (null: open until the first move)
  opened: new Set(), // the folded parts (unseen tiles, every move) open across redraws
};

export function mount(element) {
  section = element;
  parts.title = h("h2", { id: "play-title" });
  parts.top = h("div", { class: "play-top" });
  parts.turn = h("span", { class: "play-turn", "aria-live": "polite" });
  parts.deadline = h("span", { class: "deadline", id: "play-deadline", hidden: true });
  parts.status = h("div", { class: "play-status" });
  parts.zoom = h("div", { class: "play-zoom" });
  parts.board = h("div", { class: "play-board" });
  parts.dock = h("div", { class: "play-dock" });
  parts.info = h("div", { class: "play-info" });
  parts.dialog = h("dialog", { class: "blank-dialog", "aria-labelledby": "blank-title",
    oncancel: () => { ui.asking = null; render(); } });
  section.replaceChildren(h("div", { class: "play-head" }, parts.title, parts.top),
    h("div", { class: "play-turn-line" }, h("p", {}, parts.turn, " ", parts.deadline),
      parts.zoom),
    parts.status, parts.board, parts.dock, parts.info, parts.dialog);
  bind({ d, ui, render, place, laidChanged, box: parts.dock });
  subscribe(render);
  onLanguage(() => { shownStatus = ""; render(); });
  setInterval(tick, 1000);
}

function render() {
  const g = game();
  if (!section || !g) return;
  section.hidden = false;
  const online = g.online || { rack: null, seat: null, bag: 0, racks: [], unseen: [], last: null,
    deadline: null, move_seconds: null, passes: 0 };
  if (rack.follow(d, g.started, online.rack)) {
    ui.passing = false;
    ui.score = null;
  }
  dropCovered(g);
  parts.title.textContent = t("play.title", { edition: t(`edition.${g.edition}`) });
  replace(parts.top, h("div", { class: "actions play-links" },
    h("button", { type: "button", id: "play-games", onclick: parkGame }, t("games.back")),
    h("a", { class: "button", href: "/rules.html", id: "play-rules" }, t("play.rules"))));
  drawStatus(g, online);
  drawBoard(g, online);
  drawDock(g, online);
  drawInfo(parts.info, g, online, { ui, render });
  drawDialog(g);
  askScore(g);
}

// Tiles laid where another player's move has since put tiles go back to the rack.
function dropCovered(g) {
  const taken = tilesOf(g.board);
  for (const square of [...d.placed.keys()]) if (taken.has(square)) d.placed.delete(square);
}

// --- whose turn, until when, the bag and the others' racks ------------------------------

let shownStatus = "";

// The turn line speaks when it changes (a live region of its own); the time left beside it
// ticks silently; the players, their racks and the bag are redrawn only when they change.
function drawStatus(g, online) {
  const seat = seatOf(g);
  const name = (p) => playerName(g.players, p);
  let turn;
  const computer = (p) => online.computers?.[p] || null; // its strength, at its seats
  if (g.ended) turn = t("play.ended");
  else if (myTurn(g)) turn = t("play.your_turn");
  else if (computer(g.to_move)) turn = t("play.computer_thinking", { name: name(g.to_move) });
  else turn = t("play.their_turn", { name: name(g.to_move) });
  if (parts.turn.textContent !== turn) parts.turn.textContent = turn;
  parts.turn.classList.toggle("mine", myTurn(g));
  const timed = Boolean(online.deadline) && !g.ended;
  parts.deadline.hidden = !timed;
  if (timed) parts.deadline.textContent = deadlineText(online.deadline);
  const key = JSON.stringify([language, g.players, g.to_move, g.ended, online.bag, online.racks,
    seat, online.passes, online.computers]);
  if (key === shownStatus) return;
  shownStatus = key;
  // The scores are in the bar above; here the others' tile counts and the bag.
  const others = g.players.map((_, p) => p).filter((p) => p !== seat);
  replace(parts.status, h("p", { class: "play-counts" },
    h("span", { class: "play-players", role: "list", "aria-label": t("play.players") },
      others.map((p) => h("span", {
        role: "listitem", class: p === g.to_move && !g.ended ? "to-move" : null,
        dataset: { player: p },
      }, h("span", { class: "name" }, name(p)),
      computer(p) ? h("span", { class: "computer" }, ` (${t(`play.computer_${computer(p)}`)})`)
        : null, ": ",
      t("play.tiles_count", { count: number(online.racks[p] ?? 0) })))),
    h("span", { class: "bag" }, t("play.bag", { count: number(online.bag) })),
    online.passes && !g.ended
      ? h("span", { class: "passes" }, t("play.passes", { count: number(online.passes) }))
      : null));
}

const deadlineText = (deadline) => timeLeft(deadline, serverNow());

function tick() {
  const g = game();
  if (g && g.online?.deadline && !parts.deadline.hidden) {
    parts.deadline.textContent = deadlineText(g.online.deadline);
  }
}

// --- the board -----------------------------------------------------------------------------

let pointed = false; // the tap on the board came from a finger or a mouse, not a key

function drawBoard(g, online) {
  const last = online.last && online.last.kind === "move" ? online.last : null;
  const frame = h("div", {
    id: "play-board", class: ui.zoom ? "board-frame zoomed" : "board-frame",
    onpointerdown: () => { pointed = true; },
    onkeydown: (event) => typed(event, g),
    onscroll: (event) => { ui.scroll = [event.target.scrollLeft, event.target.scrollTop]; },
  }, renderBoard({
    edition: edition(g.edition), rows: g.board, pending: rack.pending(d),
    marked: new Set(last ? last.squares : []), onTap: (square) => tap(square, g),
    cursor: ui.cursor, onCursor: (square) => { ui.cursor = square; },
    label: t("play.board_label"),
  }));
  const hadFocus = parts.board.contains(document.activeElement)
    ? document.activeElement.dataset.square : null;
  replace(parts.zoom, ui.zoom ? h("button", { type: "button", id: "play-whole-board",
    class: "whole", onclick: () => {
      ui.zoom = false;
      render();
      document.querySelector("#play-board [tabindex='0']")?.focus();
    } }, t("calc.whole_board")) : null);
  replace(parts.board, frame);
  if (hadFocus) frame.querySelector(`[data-square="${hadFocus}"]`)?.focus();
  if (!ui.zoom) return;
  if (ui.centre) { // zoomed in around the square tapped on the whole board
    const cell = frame.querySelector(`[data-square="${ui.centre}"]`);
    ui.centre = null;
    const box = frame.getBoundingClientRect();
    const at = cell.getBoundingClientRect();
    frame.scrollLeft = at.left - box.left - (box.width - at.width) / 2;
    frame.scrollTop = at.top - box.top - (box.height - at.height) / 2;
    ui.scroll = [frame.scrollLeft, frame.scrollTop];
  } else if (ui.scroll) [frame.scrollLeft, frame.scrollTop] = ui.scroll;
}

// A tap on a square: on the whole board it zooms there first (a key lays at once); a laid
// tile comes back; an empty square takes the chosen tile.
function tap(square, g) {
  const byPointer = pointed;
  pointed = false;
  ui.cursor = square;
  if (!ui.zoom && byPointer) {
    ui.zoom = true;
    ui.centre = square;
    render();
    focusSquare(square);
    return;
  }
  const back = rack.takeBack(d, square);
  if (back) {
    d.selected = back;
    laidChanged();
  } else if (!tilesOf(g.board).has(square)) {
    if (d.selected === null) ui.score = { text: t("play.choose_tile") };
    else place(d.selected, square);
  }
  render();
  focusSquare(square);
}

function focusSquare(square) {
  document.querySelector(`#play-board [data-square="${square}"]`)?.focus();
}

// Tile `id` onto `square`; a blank first asks its letter.
function place(id, square, letter = null) {
  const tile = rack.slot(d, id)?.tile;
  if (!tile) return;
  if (rack.isBlank(tile) && !letter) {
    ui.asking = { id, square };
    return;
  }
  rack.lay(d, id, square, letter);
  // The next tile to lay: the one after it on the rack.
  d.selected = null;
  laidChanged();
}

function laidChanged() {
  ui.refusal = null;
  ui.passing = false;
}

// Keys on the board: a letter lays that tile from the rack (or the blank as that letter)
// on the square with the focus and moves on; Backspace takes the tile back.
function typed(event, g) {
  const from = event.target.closest?.("[data-square]");
  if (!from || event.ctrlKey || event.metaKey || event.altKey) return;
  const square = from.dataset.square;
  if (event.key === "Backspace" || event.key === "Delete") {
    if (rack.takeBack(d, square)) {
      event.preventDefault();
      laidChanged();
      render();
      focusSquare(square);
    }
    return;
  }
  if (event.key.length !== 1 || !/\p{L}/u.test(event.key)) return;
  const letter = event.key.toUpperCase();
  if (tilesOf(g.board).has(square) || d.placed.has(square)) return;
  const free = rack.onRack(d);
  const same = free.find((s) => rack.face(s.tile) === letter);
  const blank = free.find((s) => rack.isBlank(s.tile));
  const faces = edition(g.edition).letters.map(([face]) => face);
  if (!same && !(blank && faces.includes(letter))) return;
  event.preventDefault();
  if (same) rack.lay(d, same.id, square);
  else rack.lay(d, blank.id, square, letter);
  laidChanged();
  const direction = d.placed.size > 1 && new Set([...d.placed.keys()].map((s) => s[0])).size > 1
    ? "down" : "across";
  const next = nextFree(square, direction, g);
  ui.cursor = next || square;
  render();
  focusSquare(ui.cursor);
}

function nextFree(square, direction, g) {
  const taken = tilesOf(g.board);
  const ROWS = "ABCDEFGHIJKLMNO";
  let r = ROWS.indexOf(square[0]);
  let c = Number(square.slice(1)) - 1;
  for (;;) {
    if (direction === "across") c += 1;
    else r += 1;
    if (r > 14 || c > 14) return null;
    const at = `${ROWS[r]}${c + 1}`;
    if (!taken.has(at) && !d.placed.has(at)) return at;
  }
}

// --- the blank's letter ------------------------------------------------------------------

function drawDialog(g) {
  const dialog = parts.dialog;
  if (!ui.asking) {
    if (dialog.open) dialog.close();
    return;
  }
  const { id, square } = ui.asking;
  const choose = (face) => () => {
    ui.asking = null;
    dialog.close();
    place(id, square, face);
    render();
    focusSquare(square);
  };
  replace(dialog,
    h("h3", { id: "blank-title" }, t("play.blank_title")),
    h("p", { class: "hint" }, t("play.blank_hint", { square })),
    h("div", { class: "blank-letters", role: "group", "aria-labelledby": "blank-title" },
      edition(g.edition).letters.map(([face]) => h("button", {
        type: "button", class: "blank-letter", id: `blank-${face}`, onclick: choose(face),
      }, face))),
    h("div", { class: "actions" }, h("button", {
      type: "button", id: "blank-cancel",
      onclick: () => {
        ui.asking = null;
        dialog.close();
        render();
        focusSquare(square);
      },
    }, t("common.cancel"))));
  if (!dialog.open) {
    dialog.showModal();
    dialog.querySelector(".blank-letter")?.focus();
  }
}
