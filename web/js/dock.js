// The dock of the online game, at the bottom of its view: the score of what lies on the
// board (asked of the server as it is laid: a preview, never a word check) beside Confirm,
// the seat's rack as a toolbar (laying.js: tap a tile, drag it onto a square), and
// the other turns: recall, shuffle, exchange (choose tiles, then confirm) and pass (after a
// second tap). A turn names the turn it was meant for; a refusal is said with what is wrong
// (the words the list lacks) and the tiles come back to the rack. The view (play.js) owns
// the draft and draws the board; it binds them here once.

import { tilesOf } from "./board.js";
import { number, playerName, t } from "./i18n.js";
import { inFlight, send } from "./live.js";
import * as rack from "./rack.js";
import { refusalText } from "./refusals.js";
import { isHost, rulesOf, sheet } from "./state.js";
import { turnOf } from "./turn.js";
import { h, replace } from "./ui.js";

const TURN_TYPES = ["play", "exchange", "pass"];

// The online game shown, or null.
export const game = () => {
  const shown = sheet();
  return shown && shown.mode === "online" ? shown : null;
};

export const seatOf = (g) => g.online?.seat ?? null;

export const myTurn = (g) => !g.ended && seatOf(g) !== null && g.to_move === seatOf(g);

// P-51: an exchange needs this many tiles in the bag (the game's rules, from the catalog).
const minBag = (g) => rulesOf(g.rules)?.exchange_min_bag ?? 0;

// What the view shares: the draft `d`, its `ui` state, `render()`, its layer of the ways to
// lay tiles `lay` (laying.js), the dock's element `box`, and `laidChanged()` for after a
// tile moved.
const shared = {
  d: null,
  ui: null,
  render: null,
  lay: null,
  laidChanged: null,
  box: null,
};

export function bind(view) {
  const { d, ui, render, lay, laidChanged, box } = view;
  Object.assign(shared, { d, ui, render, lay, laidChanged, box });
}

// --- the rack and the turn's buttons -------------------------------------------------------

// Three rows: what lies on the board is worth (with Confirm beside it), the rack, the
// other turns. Choosing tiles to exchange or passing asks in the first row instead.
export function drawDock(g, online) {
  if (g.ended) {
    replace(shared.box);
    shared.box.hidden = true;
    return;
  }
  shared.box.hidden = false;
  if (online.rack === null) {
    replace(shared.box, h("p", { class: "hint no-rack" },
      t(isHost() ? "play.host_no_seat" : "play.viewer")));
    return;
  }
  const exchanging = shared.d.exchange !== null;
  const [first, actions] = exchanging ? exchangeActions(g)
    : shared.ui.passing ? passActions(g) : turnActions(g, online);
  replace(shared.box,
    shared.ui.refusal ? h("p", { class: "play-refusal", role: "alert", id: "play-refusal" },
      shared.ui.refusal()) : null,
    first,
    shared.lay.rack(exchanging),
    actions);
  shared.lay.drawScore();
}

function button(id, label, onclick, { primary = false, why = null } = {}) {
  // Not disabled while a reason says why: a tap says it, and the focus stays where it was.
  return h("button", {
    type: "button", id, class: primary ? "primary" : null, "aria-disabled": why ? "true" : null,
    onclick: () => (why ? say(() => why) : onclick()),
  }, label);
}

// `sentence()`: the refusal as the phone says it now (a language switched meanwhile says it
// again in the new one).
function say(sentence) {
  shared.ui.refusal = sentence;
  shared.render();
}

// The score of the move laid and Confirm; below the rack: recall, shuffle, exchange, pass.
function turnActions(g, online) {
  const busy = inFlight(...TURN_TYPES);
  const notYours = myTurn(g) ? null : t("play.not_your_turn",
    { name: playerName(g.players, g.to_move) });
  const why = busy ? t("play.busy") : notYours;
  const laid = shared.d.placed.size > 0;
  return [h("div", { class: "play-move" },
    h("p", { id: "play-score", class: "play-score", "aria-live": "polite" }),
    button("play-confirm", t("play.confirm"), () => confirmMove(g),
      { primary: true, why: why || (laid ? null : t("play.nothing_laid")) })),
  h("div", { class: "play-actions" },
    button("play-recall", t("play.recall"), () => {
      rack.recall(shared.d);
      shared.laidChanged();
      shared.render();
    }, { why: laid ? null : t("play.nothing_laid") }),
    button("play-shuffle", t("play.shuffle"), () => {
      rack.shuffle(shared.d);
      shared.render();
    }),
    button("play-exchange", t("play.exchange"), () => {
      rack.recall(shared.d);
      shared.d.exchange = new Set();
      shared.laidChanged();
      shared.render();
      document.querySelector("#play-rack .rack-tile")?.focus();
    }, { why: why || (online.bag < minBag(g)
      ? refusalText("bag_too_small", { bag: online.bag, min: minBag(g) }) : null) }),
    button("play-pass", t("play.pass"), () => {
      shared.ui.passing = true;
      shared.render();
      document.getElementById("play-pass-yes")?.focus();
    }, { why }))];
}

function exchangeActions(g) {
  const count = shared.d.exchange.size;
  return [h("p", { class: "play-ask", id: "play-ex-hint" }, t("play.exchange_hint")),
    h("div", { class: "play-actions two", role: "group", "aria-labelledby": "play-ex-hint" },
      button("play-exchange-go", t("play.exchange_go", { count: number(count) }), () => {
        const tiles = rack.exchangeTiles(shared.d);
        shared.d.exchange = null;
        shared.render();
        document.getElementById("play-exchange")?.focus();
        turnCommand(g, { type: "exchange", tiles });
      }, { primary: true, why: count ? null : t("play.exchange_none") }),
      button("play-exchange-cancel", t("common.cancel"), () => {
        shared.d.exchange = null;
        shared.render();
        document.getElementById("play-exchange")?.focus();
      }))];
}

function passActions(g) {
  return [h("p", { class: "play-ask", id: "play-pass-q" }, t("play.pass_question")),
    h("div", { class: "play-actions two", role: "group", "aria-labelledby": "play-pass-q" },
      button("play-pass-yes", t("play.pass_yes"), () => {
        shared.ui.passing = false;
        shared.render();
        document.getElementById("play-pass")?.focus();
        turnCommand(g, { type: "pass" });
      }, { primary: true }),
      button("play-pass-no", t("play.pass_no"), () => {
        shared.ui.passing = false;
        shared.render();
        document.getElementById("play-pass")?.focus();
      }))];
}

function confirmMove(g) {
  const written = rack.move(shared.d, tilesOf(g.board));
  if (!written) return;
  if (written.refusal) {
    say(() => refusalText(...written.refusal));
    return;
  }
  turnCommand(g, { type: "play", board: written });
}

// A turn for the seat as this phone showed it; a refusal is said and the tiles come back.
function turnCommand(g, command) {
  shared.ui.refusal = null;
  send({ ...command, turn: turnOf(g, seatOf(g)) }).catch((error) => {
    if (!error.code) throw error;
    rack.recall(shared.d);
    shared.ui.refusal = () => refusalText(error.code, error.params);
    shared.render();
    if (!shared.box.contains(document.activeElement)) {
      document.getElementById("play-confirm")?.focus();
    }
  });
}
