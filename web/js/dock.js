// The dock of the online game, at the bottom of its view: the score of what lies on the
// board (asked of the server as it is laid: a preview, never a word check) beside Confirm,
// the seat's rack as a toolbar (tap a tile, drag it onto a square, arrow keys along it), and
// the other turns: recall, shuffle, exchange (choose tiles, then confirm) and pass (after a
// second tap). A turn names the turn it was meant for; a refusal is said with what is wrong
// (the words the list lacks) and the tiles come back to the rack. The view (play.js) owns
// the draft and draws the board; it binds them here once.

import { tilesOf } from "./board.js";
import { number, playerName, t } from "./i18n.js";
import { inFlight, preview, send } from "./live.js";
import * as rack from "./rack.js";
import { refusalText } from "./refusals.js";
import { edition, isHost, sheet } from "./state.js";
import { turnOf } from "./turn.js";
import { h, replace } from "./ui.js";

const TURN_TYPES = ["play", "exchange", "pass"];
const PREVIEW_DELAY = 120; // ms after the last tile laid before the server is asked
const MIN_BAG = 7; // P-51: an exchange needs this many tiles in the bag

// The online game shown, or null.
export const game = () => {
  const shown = sheet();
  return shown && shown.mode === "online" ? shown : null;
};

export const seatOf = (g) => g.online?.seat ?? null;

export const myTurn = (g) => !g.ended && seatOf(g) !== null && g.to_move === seatOf(g);

// What the view shares: the draft `d`, its `ui` state, `render()`, `place(id, square)`, the
// dock's element `box`, and `laidChanged()` for after a tile moved.
let d;
let ui;
let render;
let place;
let laidChanged;
let box;

export function bind(view) {
  ({ d, ui, render, place, laidChanged, box } = view);
}

// --- the score of what lies on the board ---------------------------------------------------

let asked = "";
let scoreTimer = null;

export function askScore(g) {
  const written = rack.move(d, tilesOf(g.board));
  const key = JSON.stringify([g.seq, written]);
  if (key === asked) return;
  asked = key;
  clearTimeout(scoreTimer);
  if (!written || written.refusal) {
    ui.score = written ? { text: refusalText(...written.refusal), refused: true } : null;
    drawScore();
    return;
  }
  scoreTimer = setTimeout(() => {
    preview({ board: written }, false).then((answer) => {
      if (asked !== key) return;
      const words = answer.score.words.map((w) => w.word).join(", ");
      ui.score = { text: t("play.score", { points: number(answer.score.total), words }) };
      drawScore();
    }, (error) => {
      if (asked !== key) return;
      // Where tiles lie is no secret: a placement the rules refuse is said as it is laid.
      ui.score = error.code === "offline" ? null
        : { text: refusalText(error.code, error.params), refused: true };
      drawScore();
    });
  }, PREVIEW_DELAY);
}

function drawScore() {
  const line = document.getElementById("play-score");
  if (!line) return;
  const score = ui.score;
  line.className = `play-score${score?.refused ? " refused" : ""}`;
  line.textContent = score ? score.text : d.placed.size ? "…"
    : t(ui.zoom ? "play.lay_hint" : "play.board_hint");
}

// --- the rack and the turn's buttons -------------------------------------------------------

let dragged = null; // {id, x, y, moved}: a tile being dragged from the rack

// Three rows: what lies on the board is worth (with Confirm beside it), the rack, the
// other turns. Choosing tiles to exchange or passing asks in the first row instead.
export function drawDock(g, online) {
  if (g.ended) {
    replace(box);
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (online.rack === null) {
    replace(box, h("p", { class: "hint no-rack" },
      t(isHost() ? "play.host_no_seat" : "play.viewer")));
    return;
  }
  const exchanging = d.exchange !== null;
  const [first, actions] = exchanging ? exchangeActions(g)
    : ui.passing ? passActions(g) : turnActions(g, online);
  replace(box,
    ui.refusal ? h("p", { class: "play-refusal", role: "alert", id: "play-refusal" },
      ui.refusal) : null,
    first,
    rackBar(exchanging),
    actions);
  drawScore();
}

function rackBar(exchanging) {
  const label = exchanging ? t("play.rack_exchange") : t("play.rack");
  const free = d.slots;
  const focusable = free.find((s) => s.id === d.selected)?.id ?? free[0]?.id;
  return h("div", {
    class: `rack${exchanging ? " exchanging" : ""}`, role: "toolbar", "aria-label": label,
    id: "play-rack", onkeydown: roamRack,
  }, d.slots.map((s) => {
    const square = rack.squareOf(d, s.id);
    const chosen = exchanging ? d.exchange.has(s.id) : d.selected === s.id;
    const value = rack.isBlank(s.tile) ? "" : valueOf(s.tile);
    const name = square
      ? t("play.tile_laid", { tile: tileName(s.tile), square })
      : tileName(s.tile);
    return h("button", {
      type: "button", id: `rack-${s.id}`, dataset: { tile: s.tile },
      class: `rack-tile${square ? " laid" : ""}${rack.isBlank(s.tile) ? " blank" : ""}`,
      tabindex: s.id === focusable ? "0" : "-1",
      "aria-pressed": String(chosen), "aria-label": name,
      onclick: () => tapTile(s.id),
      onpointerdown: (event) => startDrag(event, s.id),
    }, square ? null : [h("span", { class: "face" }, rack.face(s.tile)),
      h("span", { class: "value" }, value)]);
  }));
}

const tileName = (tile) => (rack.isBlank(tile) ? t("play.blank") : rack.face(tile));

function valueOf(tile) {
  const g = game();
  const face = rack.face(tile);
  const found = edition(g.edition).letters.find(([f]) => f === face);
  return found ? found[1] : "";
}

// The toolbar's arrow keys: the one tab stop moves along the rack (WAI-ARIA toolbar).
function roamRack(event) {
  const keys = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
  if (!(event.key in keys)) return;
  const tiles = [...box.querySelectorAll(".rack-tile")];
  const at = tiles.indexOf(event.target);
  if (at < 0) return;
  event.preventDefault();
  const to = Math.max(0, Math.min(tiles.length - 1, at + keys[event.key]));
  tiles[at].tabIndex = -1;
  tiles[to].tabIndex = 0;
  tiles[to].focus();
}

function tapTile(id) {
  if (dragged?.moved) return; // the drag laid it
  if (d.exchange) {
    if (d.exchange.has(id)) d.exchange.delete(id);
    else d.exchange.add(id);
  } else {
    const square = rack.squareOf(d, id);
    if (square) { // a laid tile tapped on the rack comes back
      d.placed.delete(square);
      laidChanged();
    } else d.selected = d.selected === id ? null : id;
  }
  render();
}

// A tile dragged from the rack onto a square is laid there.
function startDrag(event, id) {
  if (d.exchange || rack.squareOf(d, id) || event.button > 0) return;
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
    setTimeout(() => { dragged = null; }); // the click after the drag lays nothing more
    if (!was.moved || e.type === "pointercancel") return;
    const target = squareAt(e);
    const square = target?.dataset.square;
    const g = game();
    if (square && g && !tilesOf(g.board).has(square) && !d.placed.has(square)) {
      place(was.id, square);
    }
    render();
  };
  addEventListener("pointermove", move);
  addEventListener("pointerup", end);
  addEventListener("pointercancel", end);
}

const squareAt = (e) => document.elementFromPoint(e.clientX, e.clientY)
  ?.closest("#play-board [data-square]");

function button(id, label, onclick, { primary = false, why = null } = {}) {
  // Not disabled while a reason says why: a tap says it, and the focus stays where it was.
  return h("button", {
    type: "button", id, class: primary ? "primary" : null, "aria-disabled": why ? "true" : null,
    onclick: () => (why ? say(why) : onclick()),
  }, label);
}

function say(text) {
  ui.refusal = text;
  render();
}

// The score of the move laid and Confirm; below the rack: recall, shuffle, exchange, pass.
function turnActions(g, online) {
  const busy = inFlight(...TURN_TYPES);
  const notYours = myTurn(g) ? null : t("play.not_your_turn",
    { name: playerName(g.players, g.to_move) });
  const why = busy ? t("play.busy") : notYours;
  const laid = d.placed.size > 0;
  return [h("div", { class: "play-move" },
    h("p", { id: "play-score", class: "play-score", "aria-live": "polite" }),
    button("play-confirm", t("play.confirm"), () => confirmMove(g),
      { primary: true, why: why || (laid ? null : t("play.nothing_laid")) })),
  h("div", { class: "play-actions" },
    button("play-recall", t("play.recall"), () => {
      rack.recall(d);
      laidChanged();
      render();
    }, { why: laid ? null : t("play.nothing_laid") }),
    button("play-shuffle", t("play.shuffle"), () => {
      rack.shuffle(d);
      render();
    }),
    button("play-exchange", t("play.exchange"), () => {
      rack.recall(d);
      d.exchange = new Set();
      laidChanged();
      render();
      document.querySelector("#play-rack .rack-tile")?.focus();
    }, { why: why || (online.bag < MIN_BAG
      ? refusalText("bag_too_small", { bag: online.bag, min: MIN_BAG }) : null) }),
    button("play-pass", t("play.pass"), () => {
      ui.passing = true;
      render();
      document.getElementById("play-pass-yes")?.focus();
    }, { why }))];
}

function exchangeActions(g) {
  const count = d.exchange.size;
  return [h("p", { class: "play-ask", id: "play-ex-hint" }, t("play.exchange_hint")),
    h("div", { class: "play-actions two", role: "group", "aria-labelledby": "play-ex-hint" },
      button("play-exchange-go", t("play.exchange_go", { count: number(count) }), () => {
        const tiles = rack.exchangeTiles(d);
        d.exchange = null;
        render();
        document.getElementById("play-exchange")?.focus();
        turnCommand(g, { type: "exchange", tiles });
      }, { primary: true, why: count ? null : t("play.exchange_none") }),
      button("play-exchange-cancel", t("common.cancel"), () => {
        d.exchange = null;
        render();
        document.getElementById("play-exchange")?.focus();
      }))];
}

function passActions(g) {
  return [h("p", { class: "play-ask", id: "play-pass-q" }, t("play.pass_question")),
    h("div", { class: "play-actions two", role: "group", "aria-labelledby": "play-pass-q" },
      button("play-pass-yes", t("play.pass_yes"), () => {
        ui.passing = false;
        render();
        document.getElementById("play-pass")?.focus();
        turnCommand(g, { type: "pass" });
      }, { primary: true }),
      button("play-pass-no", t("play.pass_no"), () => {
        ui.passing = false;
        render();
        document.getElementById("play-pass")?.focus();
      }))];
}

function confirmMove(g) {
  const written = rack.move(d, tilesOf(g.board));
  if (!written) return;
  if (written.refusal) {
    say(refusalText(...written.refusal));
    return;
  }
  turnCommand(g, { type: "play", board: written });
}

// A turn for the seat as this phone showed it; a refusal is said and the tiles come back.
function turnCommand(g, command) {
  ui.refusal = null;
  send({ ...command, turn: turnOf(g, seatOf(g)) }).catch((error) => {
    if (!error.code) throw error;
    rack.recall(d);
    ui.refusal = refusalText(error.code, error.params);
    render();
    if (!box.contains(document.activeElement)) {
      document.getElementById("play-confirm")?.focus();
    }
  });
}
