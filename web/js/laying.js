// Laying tiles from a rack on the board, the same way for an online game's move (play.js,
// dock.js) and a player's slip in the duplicate room (slip.js). The rack is a toolbar of
// tiles: tap one, then a square (a tap on a laid tile takes it back), or drag it onto a
// square; the arrow keys move along it. On the whole board a tap zooms there first (a key
// lays at once); a letter typed on a square lays that rack tile there and moves on,
// Backspace takes it back; a blank asks its letter. What lies on the board is worth what
// the server says as it is laid (a preview, never a word check). The view owns the draft
// (rack.js) and draws; it makes one layer of these over it.

import { renderBoard, step, tilesOf } from "./board.js";
import { t, withBingo } from "./i18n.js";
import { preview } from "./live.js";
import * as rack from "./rack.js";
import { refusalText } from "./refusals.js";
import { h, replace } from "./ui.js";

const PREVIEW_DELAY = 120; // ms after the last tile laid before the server is asked

// view:
//   d        the draft (rack.js)
//   ui       {zoom, centre, scroll, cursor, asking, score}, kept over the view's redraws
//   ids      {board, rack, score, whole, blank}: the ids of its elements (blank: a prefix)
//   edition  () → the catalog's edition;  rows  () → the board in row notation
//   render   () → draws the view again;  changed  () → after a tile moved
export function layer(view) {
  const { d, ui, ids } = view;
  let pointed = false; // the tap on the board came from a finger or a mouse, not a key
  let dragged = null; // {id, x, y, moved}: a tile being dragged from the rack
  // A finger's tap is taken on its way up, not from the click: a frame that redraws the
  // board or the rack between down and up (another phone's slip, a clock) replaces the
  // element, and the browser then sends no click at all. The click that may still follow
  // is the same tap, not a second one; the next finger down is a new tap, even before the
  // timer has run (a busy phone handles input before timers: a tile and a square tapped in
  // quick succession, the square's tap was taken for the tile's click and lost).
  let pressed = null; // the square a finger went down on
  let tapped = false; // a finger's tap was taken: its click, if any, is not another
  const tapDone = () => { tapped = true; setTimeout(() => { tapped = false; }); };
  let asked = "";
  let timer = null;
  const taken = () => tilesOf(view.rows());

  const focusSquare = (square) => document
    .querySelector(`#${ids.board} [data-square="${square}"]`)?.focus();

  // --- the board ---------------------------------------------------------------------------

  // The board into `container`, the laid tiles on it and `marked` (the last move) marked;
  // the focus and the zoomed board's scroll kept over the redraw.
  function board(container, { marked = new Set(), label = "" } = {}) {
    const active = document.activeElement;
    const before = document.getElementById(ids.board);
    const hadFocus = before?.contains(active) ? active.dataset.square : null;
    // Where the zoomed board it replaces stands now: its scroll event comes a frame late, so
    // a redraw right after a pan (a change from the table between a finger's down and up)
    // would put back where it stood before, and the finger come up on another square.
    if (ui.zoom && before?.classList.contains("zoomed")) {
      ui.scroll = [before.scrollLeft, before.scrollTop];
    }
    const frame = h("div", {
      id: ids.board, class: ui.zoom ? "board-frame zoomed" : "board-frame",
      onpointerdown: (event) => {
        if (event.button > 0) return;
        tapped = false; // a new tap
        pressed = event.target.closest?.("[data-square]")?.dataset.square ?? null;
        if (pressed) addEventListener("pointerup", released, { once: true });
      },
      onkeydown: typed,
      onscroll: (event) => { // a frame redrawn away meanwhile says 0, 0: not where it was
        if (event.target.isConnected) ui.scroll = [event.target.scrollLeft, event.target.scrollTop];
      },
    }, renderBoard({
      edition: view.edition(), rows: view.rows(), pending: rack.pending(d), marked,
      onTap: tap, cursor: ui.cursor, onCursor: (square) => { ui.cursor = square; }, label,
    }));
    replace(container, frame);
    const settle = () => { // unless the focus went on meanwhile (a key moved it on)
      if (hadFocus && !frame.contains(document.activeElement)) {
        frame.querySelector(`[data-square="${hadFocus}"]`)?.focus();
      }
      if (ui.zoom) scroll(frame);
    };
    if (frame.isConnected) settle();
    else queueMicrotask(settle); // the view puts its part in the page right after
  }

  function scroll(frame) {
    if (ui.centre) { // zoomed in around the square tapped on the whole board
      const cell = frame.querySelector(`[data-square="${ui.centre}"]`);
      ui.centre = null;
      const box = frame.getBoundingClientRect();
      const at = cell.getBoundingClientRect();
      // From where it is: a focus may have scrolled it already.
      frame.scrollLeft += at.left - box.left - (box.width - at.width) / 2;
      frame.scrollTop += at.top - box.top - (box.height - at.height) / 2;
      ui.scroll = [frame.scrollLeft, frame.scrollTop];
    } else if (ui.scroll) [frame.scrollLeft, frame.scrollTop] = ui.scroll;
  }

  // Back to the whole board, while zoomed in.
  const whole = () => (ui.zoom ? h("button", { type: "button", id: ids.whole, class: "whole",
    onclick: () => {
      ui.zoom = false;
      view.render();
      document.querySelector(`#${ids.board} [tabindex='0']`)?.focus();
    } }, t("calc.whole_board")) : null);

  // A finger lifted on the square it went down on taps it (a pan or a slide taps nothing).
  function released(event) {
    const square = pressed;
    pressed = null;
    if (!square || squareAt(event)?.dataset.square !== square) return;
    pointed = true;
    tap(square);
    tapDone();
  }

  // A tap on a square: on the whole board it zooms there first; a laid tile comes back; an
  // empty square takes the chosen tile.
  function tap(square) {
    if (tapped) return; // the click of a tap taken on the way up
    const byPointer = pointed;
    pointed = false;
    ui.cursor = square;
    if (!ui.zoom && byPointer) {
      ui.zoom = true;
      ui.centre = square;
      view.render();
      focusSquare(square);
      return;
    }
    const back = rack.takeBack(d, square);
    if (back) {
      d.selected = back;
      view.changed();
    } else if (!taken().has(square)) {
      if (d.selected === null) ui.score = { text: t("play.choose_tile") };
      else place(d.selected, square);
    }
    view.render();
    focusSquare(square);
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
    d.selected = null;
    view.changed();
  }

  // Keys on the board: a letter lays that tile from the rack (or the blank as that letter)
  // on the square with the focus and moves on; Backspace takes the tile back.
  function typed(event) {
    const from = event.target.closest?.("[data-square]");
    if (!from || event.ctrlKey || event.metaKey || event.altKey) return;
    const square = from.dataset.square;
    if (event.key === "Backspace" || event.key === "Delete") {
      if (rack.takeBack(d, square)) {
        event.preventDefault();
        view.changed();
        view.render();
        focusSquare(square);
      }
      return;
    }
    if (event.key.length !== 1 || !/\p{L}/u.test(event.key)) return;
    const letter = event.key.toUpperCase();
    const board = taken();
    if (board.has(square) || d.placed.has(square)) return;
    const free = rack.onRack(d);
    const same = free.find((s) => rack.face(s.tile) === letter);
    const blank = free.find((s) => rack.isBlank(s.tile));
    if (!same && !(blank && view.edition().blank_letters.includes(letter))) return;
    event.preventDefault();
    if (same) rack.lay(d, same.id, square);
    else rack.lay(d, blank.id, square, letter);
    view.changed();
    const direction = d.placed.size > 1 && new Set([...d.placed.keys()].map((s) => s[0])).size > 1
      ? "down" : "across";
    let next = step(square, direction);
    while (next && (board.has(next) || d.placed.has(next))) next = step(next, direction);
    ui.cursor = next || square;
    view.render();
    focusSquare(ui.cursor);
  }

  // --- the blank's letter ------------------------------------------------------------------

  // The dialog that asks it, made once by the view and kept in the page.
  const newDialog = () => h("dialog", { class: "blank-dialog",
    "aria-labelledby": `${ids.blank}-title`,
    oncancel: () => { ui.asking = null; view.render(); } });

  // Open `dialog` while a blank waits on a square for its letter, else close it.
  function dialog(element) {
    if (!ui.asking) {
      if (element.open) element.close();
      return;
    }
    const { id, square } = ui.asking;
    const done = (face) => () => {
      ui.asking = null;
      element.close();
      if (face) place(id, square, face);
      view.render();
      focusSquare(square);
    };
    replace(element,
      h("h3", { id: `${ids.blank}-title` }, t("play.blank_title")),
      h("p", { class: "hint" }, t(view.blankHint ?? "play.blank_hint", { square })),
      h("div", { class: "blank-letters", role: "group", "aria-labelledby": `${ids.blank}-title` },
        view.edition().blank_letters.map((face) => h("button", {
          type: "button", class: "blank-letter", id: `${ids.blank}-${face}`, onclick: done(face),
        }, face))),
      h("div", { class: "actions" }, h("button", {
        type: "button", id: `${ids.blank}-cancel`, onclick: done(null),
      }, t("common.cancel"))));
    if (!element.open) {
      element.showModal();
      element.querySelector(".blank-letter")?.focus();
    }
  }

  // --- the score of what lies on the board -------------------------------------------------

  // Ask the server what the laid tiles are worth on the board of `seq`, once they changed
  // (or the language did: the line is said again in the new one).
  function askScore(seq) {
    const written = rack.move(d, taken());
    const key = JSON.stringify([seq, written, document.documentElement.lang]);
    if (key === asked) return;
    asked = key;
    clearTimeout(timer);
    if (!written || written.refusal) {
      ui.score = written ? { text: refusalText(...written.refusal), refused: true } : null;
      drawScore();
      return;
    }
    timer = setTimeout(() => {
      preview({ board: written }, false).then((answer) => {
        if (asked !== key) return;
        const words = withBingo(answer.score.words.map((w) => w.word), answer.score.bingo)
          .join(", ");
        ui.score = { text: t("play.score", { points: answer.score.total, words }) };
        drawScore();
      }, (error) => {
        if (asked !== key) return;
        // Where tiles lie is no secret: a placement the rules refuse is said as it is laid.
        // Not there yet (a reload draws the tiles kept before the table answers): asked
        // again at the next redraw.
        if (error.code === "offline") asked = "";
        ui.score = error.code === "offline" ? null
          : { text: refusalText(error.code, error.params), refused: true };
        drawScore();
      });
    }, PREVIEW_DELAY);
  }

  // The score line (its element by id unless given) says the latest score or a hint.
  function drawScore(line = document.getElementById(ids.score)) {
    if (!line) return;
    const score = ui.score;
    line.classList.toggle("refused", Boolean(score?.refused));
    line.textContent = score ? score.text : d.placed.size ? "…"
      : t(ui.zoom ? "play.lay_hint" : "play.board_hint");
  }

  // --- the rack ----------------------------------------------------------------------------

  function rackBar(exchanging = false) {
    const label = exchanging ? t("play.rack_exchange") : t("play.rack");
    const focusable = d.slots.find((s) => s.id === d.selected)?.id ?? d.slots[0]?.id;
    return h("div", {
      class: `rack${exchanging ? " exchanging" : ""}`, role: "toolbar", "aria-label": label,
      id: ids.rack, onkeydown: roamRack,
    }, d.slots.map((s) => {
      const square = rack.squareOf(d, s.id);
      const chosen = exchanging ? d.exchange.has(s.id) : d.selected === s.id;
      const name = square ? t("play.tile_laid", { tile: tileName(s.tile), square })
        : tileName(s.tile);
      return h("button", {
        type: "button", id: `rack-${s.id}`, dataset: { tile: s.tile },
        class: `rack-tile${square ? " laid" : ""}${rack.isBlank(s.tile) ? " blank" : ""}`,
        tabindex: s.id === focusable ? "0" : "-1",
        "aria-pressed": String(chosen), "aria-label": name,
        onclick: () => tapTile(s.id),
        onpointerdown: (event) => startDrag(event, s.id),
      }, square ? null : [h("span", { class: "face" }, rack.face(s.tile)),
        h("span", { class: "value" }, rack.isBlank(s.tile) ? "" : valueOf(s.tile))]);
    }));
  }

  const tileName = (tile) => (rack.isBlank(tile) ? t("play.blank") : rack.face(tile));

  function valueOf(tile) {
    const face = rack.face(tile);
    const found = view.edition().letters.find(([f]) => f === face);
    return found ? found[1] : "";
  }

  // The toolbar's arrow keys: the one tab stop moves along the rack (WAI-ARIA toolbar).
  function roamRack(event) {
    const keys = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(event.key in keys)) return;
    const tiles = [...event.currentTarget.querySelectorAll(".rack-tile")];
    const at = tiles.indexOf(event.target);
    if (at < 0) return;
    event.preventDefault();
    const to = Math.max(0, Math.min(tiles.length - 1, at + keys[event.key]));
    tiles[at].tabIndex = -1;
    tiles[to].tabIndex = 0;
    tiles[to].focus();
  }

  function tapTile(id) {
    if (dragged || tapped) return; // a finger's tap, taken on the way up (or a drag)
    choose(id);
  }

  // A tile tapped on the rack: chosen to lay (or not), chosen to exchange, or taken back.
  function choose(id) {
    if (d.exchange) {
      if (d.exchange.has(id)) d.exchange.delete(id);
      else d.exchange.add(id);
    } else {
      const square = rack.squareOf(d, id);
      if (square) { // a laid tile tapped on the rack comes back
        d.placed.delete(square);
        view.changed();
      } else d.selected = d.selected === id ? null : id;
    }
    view.render();
  }

  // A tile dragged from the rack onto a square is laid there.
  function startDrag(event, id) {
    if (event.button > 0) return;
    tapped = false; // a new tap
    if (d.exchange || rack.squareOf(d, id)) return;
    dragged = { id, x: event.clientX, y: event.clientY, moved: false };
    const move = (e) => {
      if (Math.hypot(e.clientX - dragged.x, e.clientY - dragged.y) > 10) dragged.moved = true;
      if (!dragged.moved) return;
      for (const over of document.querySelectorAll(".square.drop")) over.classList.remove("drop");
      squareAt(e)?.closest("td")?.classList.add("drop");
    };
    const end = (e) => {
      removeEventListener("pointermove", move);
      removeEventListener("pointerup", end);
      removeEventListener("pointercancel", end);
      const was = dragged;
      dragged = null;
      tapDone(); // the click after the tap or the drag does nothing more
      if (e.type === "pointercancel") return;
      if (!was.moved) {
        choose(was.id);
        return;
      }
      const square = squareAt(e)?.dataset.square;
      if (square && !taken().has(square) && !d.placed.has(square)) place(was.id, square);
      view.render();
    };
    addEventListener("pointermove", move);
    addEventListener("pointerup", end);
    addEventListener("pointercancel", end);
  }

  const squareAt = (e) => document.elementFromPoint(e.clientX, e.clientY)
    ?.closest(`#${ids.board} [data-square]`);

  return { board, whole, place, newDialog, dialog, askScore, drawScore, rack: rackBar,
    focusSquare };
}
