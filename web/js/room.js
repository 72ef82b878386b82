// The duplicate director's room on the phones (issue 14), above the sheet of rounds.
//
// The director (the host) draws each round's rack on the server, or types the rack of a
// real draw in the room; sees whose slips are in — names only, never a word, until the
// round closes; and closes the round: the server finds the top, plays it and judges every
// slip. A player's phone shows the rack and the board, and hands in the slip: the whole
// word, its first square (a tap on the board) and its direction, before the clock runs out;
// the phone sees its own slip accepted, as it lies, and after the close the top and every
// score. The server does all of it; this screen only shows and sends.

import { renderBoard } from "./board.js";
import { number, playerName, t } from "./i18n.js";
import { send, unanswered } from "./live.js";
import { mySeat } from "./rights.js";
import { changed, edition, isHost } from "./state.js";
import { openRound, turnOf } from "./turn.js";
import { h, say, sayRefusal } from "./ui.js";

// The slip being written, kept over redraws: the word, the first square, the direction.
const slip = { round: null, word: "", start: "", direction: "across" };
let typedRack = ""; // the director's typed rack, kept over redraws

// Has any round of `game` had a rack: is it a room's game?
export const isRoom = (game) => game.rounds.some((played) => played.rack.length > 0);

// The room's cards for this phone: the round that closed last (its top, every slip), then
// the director's card, or the player's slip for the open round.
export function cards(game) {
  if (!game.room || game.ended) return lastRound(game);
  const open = openRound(game);
  const mine = mySeat();
  return [
    lastRound(game),
    isHost() ? folded(game, director(game, open)) : null,
    !isHost() && mine !== null && isRoom(game) ? slipCard(game, open, mine) : null,
  ];
}

// A sheet kept by hand (no rack drawn yet) folds the room away until the director opens it.
let unfolded = false;

function folded(game, card) {
  if (isRoom(game)) return card;
  return h("details", {
    class: "room-start", id: "room-start", open: unfolded,
    ontoggle: (event) => { unfolded = event.target.open; },
  }, h("summary", {}, t("room.start")), card);
}

// --- the rack ------------------------------------------------------------------------------

export function rackTiles(game, rack, id) {
  const values = Object.fromEntries(edition(game.edition).letters.map(([face, v]) => [face, v]));
  const faces = rack.map((tile) => (tile === "?" ? "" : tile.replace(/[[\]]/g, "")));
  return h("ul", { class: "room-rack", id, "aria-label": t("room.rack_label", {
    tiles: faces.map((f) => f || t("room.blank")).join(" ") }) },
  faces.map((face) => h("li", { class: face ? "rack-tile" : "rack-tile blank" },
    h("span", { class: "face", "aria-hidden": "true" }, face),
    h("span", { class: "value", "aria-hidden": "true" }, face ? values[face] ?? "" : ""))));
}

// --- the director ------------------------------------------------------------------------

function director(game, open) {
  const played = game.rounds[open];
  const drawn = played.rack.length > 0;
  const room = game.room;
  const names = game.players.map((_, p) => playerName(game.players, p));
  const inCount = room.slips.length;
  return h("section", { class: "card room room-director", id: "room-director",
    "aria-labelledby": "room-title" },
  h("h3", { id: "room-title" }, t("room.title", { n: number(open + 1) })),
  drawn ? [
    rackTiles(game, played.rack, "room-rack"),
    played.rejected ? h("p", { class: "hint" },
      t("room.rejected", { n: number(played.rejected) })) : null,
    played.typed_rack ? h("p", { class: "hint" }, t("room.typed")) : null,
  ] : h("p", { id: "room-no-rack" }, room.minimum === null ? t("room.no_rack_left")
    : t("room.no_rack")),
  h("p", { class: "hint", id: "room-bag" }, t("room.bag", { n: number(room.bag) })),
  h("div", { class: "actions" },
    !drawn && room.minimum !== null ? h("button", {
      type: "button", class: "primary", id: "room-draw", disabled: unanswered("draw_rack"),
      onclick: () => send({ type: "draw_rack", round: open }).catch(sayRefusal),
    }, t("room.draw")) : null,
    drawn ? h("button", {
      type: "button", class: "primary", id: "room-close", disabled: unanswered("close_round"),
      onclick: () => send({ type: "close_round", round: open }).catch(sayRefusal),
    }, t("room.close")) : null),
  drawn ? h("div", { class: "room-slips" },
    h("p", { id: "room-slips", "aria-live": "polite" },
      t("room.slips", { n: number(inCount), total: number(game.players.length) })),
    h("ul", { class: "room-slip-list" }, names.map((name, p) => {
      const handed = room.slips.includes(p);
      return h("li", { class: handed ? "in" : "waiting", dataset: { player: p } },
        h("span", { "aria-hidden": "true" }, handed ? "✓ " : "… "),
        t(handed ? "room.slip_in" : "room.slip_waiting", { name }));
    }))) : null,
  rackForm(open));
}

// The rack of a real draw in the room, typed; one the rule would send back is used only
// once the director says so.
function rackForm(open) {
  const submit = async (force) => {
    const rack = typedRack.trim();
    if (!rack) return;
    try {
      await send({ type: "set_rack", rack, round: open, force });
      typedRack = "";
      changed();
    } catch (error) {
      if (error && error.code === "rack_rule" && !force) {
        if (confirm(t("room.force_confirm", error.params || {}))) await submit(true);
        return;
      }
      sayRefusal(error);
    }
  };
  return h("form", {
    class: "room-type-rack", id: "room-type-rack",
    onsubmit: (event) => { event.preventDefault(); submit(false); },
  },
  h("div", { class: "field" },
    h("label", { for: "room-rack-input" }, t("room.type_rack")),
    h("input", { id: "room-rack-input", autocomplete: "off", autocapitalize: "characters",
      spellcheck: "false", value: typedRack, "aria-describedby": "room-rack-hint",
      oninput: (event) => { typedRack = event.target.value; } }),
    h("p", { class: "hint", id: "room-rack-hint" }, t("room.rack_hint"))),
  h("button", { type: "submit", id: "room-rack-use" }, t("room.use_rack")));
}

// --- the player's slip -------------------------------------------------------------------

function slipCard(game, open, seat) {
  const played = game.rounds[open];
  if (slip.round !== `${game.started}:${open}`) { // a new round: a fresh slip
    Object.assign(slip, { round: `${game.started}:${open}`, word: "", start: "",
      direction: "across" });
  }
  const heading = h("h3", { id: "slip-title" }, t("slip.title", { n: number(open + 1) }));
  if (!played.rack.length) {
    return h("section", { class: "card room room-slip", id: "room-slip",
      "aria-labelledby": "slip-title" }, heading, h("p", {}, t("slip.waiting")));
  }
  const mine = game.room.mine;
  const info = edition(game.edition);
  return h("section", { class: "card room room-slip", id: "room-slip",
    "aria-labelledby": "slip-title" },
  heading,
  rackTiles(game, played.rack, "slip-rack"),
  info && info.board && game.board ? h("div", { class: "slip-board" }, renderBoard({
    edition: info, rows: game.board,
    selected: slip.start ? { square: slip.start, direction: slip.direction } : null,
    cursor: slip.start || "H8",
    onTap: (square) => {
      if (slip.start === square) slip.direction = slip.direction === "across" ? "down" : "across";
      slip.start = square;
      changed();
      document.querySelector(`#room-slip [data-square="${square}"]`)?.focus();
    },
    label: t("slip.board"),
  })) : null,
  h("form", {
    class: "slip-form", id: "slip-form",
    onsubmit: (event) => { event.preventDefault(); hand(game, open, seat); },
  },
  h("div", { class: "field" },
    h("label", { for: "slip-word" }, t("slip.word")),
    h("input", { id: "slip-word", autocomplete: "off", autocapitalize: "characters",
      spellcheck: "false", value: slip.word, "aria-describedby": "slip-hint",
      oninput: (event) => { slip.word = event.target.value; } })),
  h("div", { class: "slip-where" },
    h("div", { class: "field" },
      h("label", { for: "slip-start" }, t("slip.start")),
      h("input", { id: "slip-start", autocomplete: "off", autocapitalize: "characters",
        spellcheck: "false", size: 4, value: slip.start,
        oninput: (event) => { slip.start = event.target.value.trim().toUpperCase(); } })),
    h("fieldset", { class: "slip-direction" },
      h("legend", {}, t("calc.direction")),
      ["across", "down"].map((way) => h("label", {},
        h("input", { type: "radio", name: "slip-direction", id: `slip-${way}`, value: way,
          checked: slip.direction === way,
          onchange: () => { slip.direction = way; changed(); } }),
        ` ${t(`calc.${way}`)}`)))),
  h("p", { class: "hint", id: "slip-hint" }, t("slip.hint")),
  h("button", { type: "submit", class: "primary", id: "slip-send",
    disabled: unanswered("submit_slip") }, t(mine ? "slip.again" : "slip.send"))),
  mine ? h("p", { class: mine.late ? "slip-mine late" : "slip-mine", id: "slip-mine",
    role: "status" },
  t("slip.mine", { word: mine.word, square: mine.start, direction: t(`calc.${mine.direction}`),
    points: number(mine.points) }),
  mine.late ? [" ", t("slip.late")] : null) : null);
}

async function hand(game, open, seat) {
  const word = slip.word.trim();
  if (!word || !slip.start) {
    say(t("slip.incomplete"));
    return;
  }
  try {
    await send({ type: "submit_slip", word, start: slip.start, direction: slip.direction,
      turn: turnOf(game, seat) });
    say(t("slip.accepted"), "info");
  } catch (error) {
    sayRefusal(error);
  }
}

// --- the round that closed last -----------------------------------------------------------

function lastRound(game) {
  const index = game.rounds.findLastIndex((played) => played.results.length > 0);
  if (index < 0 || index < game.rounds.length - 2) return null; // only the one just closed
  const played = game.rounds[index];
  const [word, , , square, direction] = played.top_words[0] || [];
  const mine = mySeat();
  return h("section", { class: "card room room-result", id: "room-result",
    "aria-labelledby": "room-result-title" },
  h("h3", { id: "room-result-title" }, t("room.last", { n: number(index + 1) })),
  h("p", { class: "room-top-line", id: "room-top-line" }, word
    ? t("room.top_line", { word, square, direction: t(`calc.${direction}`),
      points: number(played.top) })
    : t("room.no_move")),
  h("table", { class: "room-results" },
    h("caption", { class: "sr-only" }, t("room.results_caption", { n: number(index + 1) })),
    h("thead", {}, h("tr", {},
      [t("dup.player"), t("room.slip_word"), t("room.points"), t("room.difference")]
        .map((label, i) => h("th", { scope: "col", class: i ? "num" : null }, label)))),
    h("tbody", {}, played.results.map((result) => h("tr", {
      class: result.player === mine ? "mine" : null, dataset: { player: result.player },
    },
    h("th", { scope: "row" }, playerName(game.players, result.player)),
    h("td", { class: "num" }, outcome(result)),
    h("td", { class: "num" }, number(result.points),
      result.solo ? h("span", { class: "solo" }, ` ${t("room.solo", {
        points: number(result.solo) })}`) : null),
    h("td", { class: "num" }, number(result.points - (played.top ?? 0))))))));
}

// What became of a slip: its word, or why it scored what it did.
function outcome(result) {
  if (result.kind === "valid") return `${result.word} ${result.start}`;
  if (result.kind === "invalid") return t("room.invalid", { word: result.word, bad: result.bad });
  return t(`room.${result.kind}`, { word: result.word }); // late, missing, entered, unplayable
}
