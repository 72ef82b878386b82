// A player's slip in the duplicate director's room (issue 14), on the player's own phone.
//
// The round's rack shows as tiles, laid on the board as a move in an online game is
// (laying.js): tap a tile, then a square, or drag it there, or type a rack letter on a
// square; a blank asks its letter; Recall and Shuffle. What lies is scored as it is laid (a
// preview, never a word check: the room tells a word's fate only at the close). Send hands
// in the slip the tiles make: the whole word from its first square, the board's tiles in
// line with them too, and its direction; tiles that are not one line are refused here, in
// the phone's language. A phone may type the slip instead: the word, its first square (a
// tap on the board) and the direction. A slip is its player's own until the round closes.

import { renderBoard, step, tilesOf } from "./board.js";
import * as clock from "./clock.js";
import { keepDraft, restoreDraft } from "./drafts.js";
import { number, t } from "./i18n.js";
import { layer } from "./laying.js";
import { send, unanswered } from "./live.js";
import * as rack from "./rack.js";
import { refusalText } from "./refusals.js";
import { conventionOf, parseReference, reference, where } from "./references.js";
import { mySeat } from "./rights.js";
import { rackTiles } from "./room.js";
import { changed, edition, isHost, isRoom, rulesOf, sheet } from "./state.js";
import { openRound, turnOf } from "./turn.js";
import { notation } from "./typed.js";
import { h, say } from "./ui.js";

const d = rack.draft();
// The view's state. refusal: () → what Send was told, said in the language shown, until a
// tile moves.
const ui = { zoom: false, centre: null, scroll: null, cursor: "H8", asking: null, score: null,
  refusal: null,
  mode: "tiles", // "tiles" laid on the board, or the word "typed"
  dialog: null, // the blank's letter, kept out of the card that every update redraws
  accepted: null, // "your slip is in" as said: its line and the round it was said for
};
// The typed slip, kept over redraws: the word, the first square, the direction.
const typed = { round: null, word: "", start: "", direction: "across" };
const lay = layer({
  d, ui, ids: { board: "slip-board", rack: "slip-rack", score: "slip-score",
    whole: "slip-whole-board", blank: "slip-blank" },
  edition: () => edition(sheet().edition), rows: () => sheet()?.board, render: changed,
  changed: () => { ui.refusal = null; },
  blankHint: "slip.blank_hint", // a slip's blank is its own: nothing kept for the game
});

// The open round of `game`, told apart from the same round of another game.
const roundOf = (game) => `${game.started}:${openRound(game)}`;

// How the game's rule set writes a reference: "board" (H4 and a direction) or "fisf".
const convention = (game) => conventionOf(rulesOf(game.rules));

// The slip card of this phone's player for the open round of `game`, or null.
export function card(game) {
  const seat = mySeat();
  const shown = game.room && !game.ended && !isHost() && seat !== null && isRoom(game);
  const round = shown ? roundOf(game) : null;
  if (ui.accepted && ui.accepted.round !== round) { // that round closed: the slip is no longer in
    ui.accepted.line.remove();
    ui.accepted = null;
  }
  if (!shown) return null;
  const open = openRound(game);
  const played = game.rounds[open];
  if (typed.round !== round) {
    Object.assign(typed, { round, word: "", start: "", direction: "across" });
  }
  const heading = h("h3", { id: "slip-title" }, t("slip.title", { n: number(open + 1) }));
  const section = (...children) => h("section", { class: "card room room-slip", id: "room-slip",
    "aria-labelledby": "slip-title" }, heading, children);
  if (!played.rack.length) return section(h("p", {}, t("slip.waiting")));
  if (rack.follow(d, round, played.rack)) { // a new rack: the whole board, nothing said yet
    Object.assign(ui, { zoom: false, centre: null, scroll: null, score: null, refusal: null });
    // The tiles laid before a reload, of this round's rack, and the slip typed then.
    const kept = restoreDraft(d)?.typed;
    if (kept) {
      ui.mode = kept.mode;
      Object.assign(typed, { word: kept.word, start: kept.start, direction: kept.direction });
    }
  }
  const taken = tilesOf(game.board);
  for (const square of [...d.placed.keys()]) if (taken.has(square)) d.placed.delete(square);
  keep();
  const board = Boolean(edition(game.edition)?.board && game.board);
  const mine = game.room.mine;
  if (board && ui.mode === "tiles") return section(modeSwitch(game), tiles(game, seat, mine));
  return section(board ? modeSwitch(game) : null, typedSlip(game, seat, mine, board),
    handedIn(mine));
}

// Keep the slip over a reload as it is now: the tiles laid, what is typed and which of the
// two is shown. Typing redraws nothing, so each keystroke keeps it too.
const keep = () => keepDraft(d, { mode: ui.mode, word: typed.word, start: typed.start,
  direction: typed.direction });

// What this player handed in, said where the Send button is: in the dock with tiles.
function handedIn(mine) {
  if (!mine) return null;
  return h("p", { class: mine.late ? "slip-mine late" : "slip-mine", id: "slip-mine",
    role: "status" },
  t("slip.mine", { word: mine.word, points: mine.points,
    where: where(mine.start, mine.direction, convention(sheet())) }),
  mine.late ? [" ", t("slip.late")] : null);
}

// Tiles first; typing is the other way (a keyboard, a word laid quickly). Switching to it
// writes out what the tiles make, to be mended.
function modeSwitch(game) {
  return h("fieldset", { class: "slip-mode" },
    h("legend", { class: "sr-only" }, t("calc.mode")),
    [["tiles", t("slip.tiles")], ["typed", t("slip.typed")]].map(([value, label]) =>
      h("label", {}, h("input", {
        type: "radio", name: "slip-mode", id: `slip-mode-${value}`, value,
        checked: ui.mode === value,
        onchange: () => {
          ui.mode = value;
          const laid = slipOf(d, tilesOf(game.board));
          if (value === "typed" && laid && !laid.refusal) {
            Object.assign(typed, laid, {
              start: reference(laid.start, laid.direction, convention(game)) });
          }
          ui.refusal = null;
          changed();
          document.getElementById(`slip-mode-${value}`)?.focus();
        },
      }), ` ${label}`)));
}

// --- the slip in tiles ---------------------------------------------------------------------

function tiles(game, seat, mine) {
  const boardBox = h("div", { class: "slip-board" });
  lay.board(boardBox, { label: t("play.board_label") });
  lay.askScore(game.seq);
  const score = h("p", { id: "slip-score", class: "play-score", "aria-live": "polite" });
  lay.drawScore(score);
  if (!ui.dialog) ui.dialog = lay.newDialog();
  const page = document.getElementById("sheet");
  if (page && !page.contains(ui.dialog)) page.append(ui.dialog);
  lay.dialog(ui.dialog);
  const zoom = lay.whole();
  return [
    zoom ? h("div", { class: "slip-zoom" }, zoom) : null,
    boardBox,
    h("div", { class: "slip-dock" },
      handedIn(mine),
      refused(),
      ui.refusal && ui.refusal() === ui.score?.text ? null : score, // said once is enough
      lay.rack(),
      h("div", { class: "play-actions slip-actions" },
        h("button", { type: "button", id: "slip-recall", onclick: () => {
          rack.recall(d);
          ui.refusal = null;
          changed();
        } }, t("play.recall")),
        h("button", { type: "button", id: "slip-shuffle", onclick: () => {
          rack.shuffle(d);
          changed();
        } }, t("play.shuffle")),
        lateNote(game),
        h("button", { type: "button", class: "primary", id: "slip-send",
          disabled: unanswered("submit_slip"), onclick: () => {
            const laid = slipOf(d, tilesOf(game.board));
            if (laid && !laid.refusal) {
              hand(game, seat, laid);
              return;
            }
            ui.refusal = () => (laid ? refusalText(...laid.refusal) : t("play.nothing_laid"));
            changed();
          } }, t(mine ? "slip.again" : "slip.send")))),
  ];
}

// The slip the laid tiles make: the whole word from its first square (the board's tiles in
// line before, between and after them too, in row notation, a blank in lower case) and its
// direction; {refusal: [code, params]} when they are not one line or leave a square empty
// between them; null with nothing laid.
function slipOf(draft, taken) {
  const written = rack.move(draft, taken);
  if (!written || written.refusal) return written;
  const { direction } = written;
  let start = written.start;
  for (let back = step(start, direction, -1); back && taken.has(back);
    back = step(back, direction, -1)) start = back;
  let word = "";
  for (let square = start; square && (taken.has(square) || draft.placed.has(square));
    square = step(square, direction)) {
    const laid = draft.placed.get(square);
    if (laid) {
      const tile = rack.slot(draft, laid.id).tile;
      word += rack.isBlank(tile) ? notation(laid.letter, true) : tile;
    } else {
      const there = taken.get(square);
      word += notation(there.toUpperCase(), there !== there.toUpperCase());
    }
  }
  return { word, start, direction };
}

// --- the slip typed ------------------------------------------------------------------------

function typedSlip(game, seat, mine, board) {
  const played = game.rounds[openRound(game)];
  const info = edition(game.edition);
  const way = convention(game);
  // The square and direction the typed reference names, or null while it names none.
  const at = () => {
    const found = parseReference(typed.start, way, typed.direction);
    return found.refusal ? null : found;
  };
  // Under FISF rules the reference says the direction: the radios follow it as it is typed.
  const follow = () => {
    const found = way === "fisf" ? at() : null;
    if (!found || found.direction === typed.direction) return;
    typed.direction = found.direction;
    const radio = document.getElementById(`slip-${found.direction}`);
    if (radio) radio.checked = true;
  };
  const chosen = at();
  return [
    rackTiles(game, played.rack, "slip-tiles"),
    board ? h("div", { class: "slip-board" }, renderBoard({
      edition: info, rows: game.board,
      selected: chosen,
      cursor: chosen?.square || "H8",
      onTap: (square) => {
        if (at()?.square === square) {
          typed.direction = typed.direction === "across" ? "down" : "across";
        }
        typed.start = reference(square, typed.direction, way);
        changed();
        document.querySelector(`#room-slip [data-square="${square}"]`)?.focus();
      },
      label: t("slip.board"),
    })) : null,
    h("form", {
      class: "slip-form", id: "slip-form",
      onsubmit: (event) => {
        event.preventDefault();
        const word = typed.word.trim();
        if (!word || !typed.start) {
          ui.refusal = () => t("slip.incomplete");
          changed();
          return;
        }
        const found = parseReference(typed.start, way, typed.direction);
        if (found.refusal) {
          ui.refusal = () => refusalText(...found.refusal);
          changed();
          return;
        }
        hand(game, seat, { word, start: found.square, direction: found.direction });
      },
    },
    h("div", { class: "field" },
      h("label", { for: "slip-word" }, t("slip.word")),
      h("input", { id: "slip-word", autocomplete: "off", autocapitalize: "characters",
        spellcheck: "false", value: typed.word, "aria-describedby": "slip-hint",
        oninput: (event) => {
          typed.word = event.target.value;
          keep();
        } })),
    h("div", { class: "slip-where" },
      h("div", { class: "field" },
        h("label", { for: "slip-start" }, t(way === "fisf" ? "slip.reference" : "slip.start")),
        h("input", { id: "slip-start", autocomplete: "off", autocapitalize: "characters",
          spellcheck: "false", size: 4, value: typed.start,
          "aria-describedby": way === "fisf" ? "slip-reference-hint" : null,
          oninput: (event) => {
            typed.start = event.target.value.trim().toUpperCase();
            follow();
            keep();
          } })),
      h("fieldset", { class: "slip-direction" },
        h("legend", {}, t("calc.direction")),
        ["across", "down"].map((direction) => h("label", {},
          h("input", { type: "radio", name: "slip-direction", id: `slip-${direction}`,
            value: direction, checked: typed.direction === direction,
            onchange: () => {
              const found = at();
              typed.direction = direction;
              if (found) typed.start = reference(found.square, direction, way); // 4H ↔ H4
              changed();
            } }),
          ` ${t(`calc.${direction}`)}`)))),
    way === "fisf" ? h("p", { class: "hint", id: "slip-reference-hint" },
      t("slip.reference_hint")) : null,
    h("p", { class: "hint", id: "slip-hint" }, t("slip.hint")),
    refused(),
    lateNote(game),
    h("button", { type: "submit", class: "primary", id: "slip-send",
      disabled: unanswered("submit_slip") }, t(mine ? "slip.again" : "slip.send"))),
  ];
}

// --- handing it in -------------------------------------------------------------------------

// The round's time is up: what a slip handed in now becomes under the rules, said above
// Send (a slip the rules refuse, the server refuses: `time_up`).
function lateNote(game) {
  if (!clock.timeUp()) return null;
  const rules = rulesOf(game.rules);
  return h("p", { class: "hint slip-late", id: "slip-late" }, rules.late === "refused"
    ? refusalText("time_up") : t("slip.late_warning", { points: number(rules.late_points) }));
}

const refused = () => (ui.refusal ? h("p", { class: "play-refusal", role: "alert",
  id: "slip-refusal" }, ui.refusal()) : null);

// The server checks at once that the slip lies on the board from the rack (never the list);
// what it refuses is said on the card, the tiles left where they lie to be mended.
async function hand(game, seat, { word, start, direction }) {
  ui.refusal = null;
  const round = roundOf(game);
  const late = clock.timeUp(); // the server's clock decides; this phone's agrees to a moment
  try {
    await send({ type: "submit_slip", word, start, direction, turn: turnOf(game, seat) });
    const points = number(rulesOf(game.rules).late_points);
    ui.accepted = { round, line: say(late ? t("slip.accepted_late", { points })
      : t("slip.accepted"), "info") };
  } catch (error) {
    if (!error || !error.code) throw error;
    ui.refusal = () => refusalText(error.code, error.params);
  }
  changed();
}
