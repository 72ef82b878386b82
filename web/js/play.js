// The online game (Woordstrijd and every edition with a word list, issue 13): the board, the
// seat's rack at the bottom, and the turn. Tap a tile, then a square (a tap on a laid tile
// takes it back; a tile may also be dragged); a blank asks its letter. The score of what
// lies on the board comes from the server as it is laid (a preview, never a word check);
// the move is judged on Confirm, and a refused one comes back as a sentence with the words
// the list lacks, the tiles back on the rack. Exchange (choose tiles) and Pass (after a
// second tap) are the other turns. What is laid and not confirmed yet (or chosen to
// exchange) lies there again after a reload while it is still this turn's and this rack's
// (drafts.js). Around it: whose turn it is and until when, the bag, the others' tile counts,
// the tiles this player has not seen, the last move marked on the board, every move so far,
// the final table, the invite and the rules.

import { tilesOf } from "./board.js";
import { bind, drawDock, game, myTurn, seatOf } from "./dock.js";
import { keepDraft, restoreDraft } from "./drafts.js";
import { parkGame, timeLeft } from "./games.js";
import { colon, computerNote, language, number, onLanguage, playerName, t } from "./i18n.js";
import { layer } from "./laying.js";
import { drawInfo } from "./playinfo.js";
import * as rack from "./rack.js";
import { app, edition, serverNow, subscribe } from "./state.js";
import { h, replace } from "./ui.js";

const parts = {};
const d = rack.draft();
const ui = {
  zoom: false, centre: null, scroll: null, cursor: "H8",
  asking: null, // the square a blank waits on for its letter
  passing: false, // Pass asked once: the second tap passes
  refusal: null, // () => the sentence of the last refused turn, until the next tile is laid
  score: null, // the preview of what lies on the board: {key, text, refused}
  invite: null, // the invite card open (null: open until the first move)
  opened: new Set(), // the folded parts (unseen tiles, every move) open across redraws
  shownStatus: "", // what the status line was last drawn for (drawStatus)
};
const lay = layer({
  d, ui, ids: { board: "play-board", rack: "play-rack", score: "play-score",
    whole: "play-whole-board", blank: "blank" },
  edition: () => edition(game().edition), rows: () => game()?.board, render,
  changed: laidChanged,
});

export function mount(element) {
  parts.section = element;
  parts.title = h("h2", { id: "play-title" });
  parts.top = h("div", { class: "play-top" });
  parts.turn = h("span", { class: "play-turn", "aria-live": "polite" });
  parts.deadline = h("span", { class: "deadline", id: "play-deadline", hidden: true });
  parts.status = h("div", { class: "play-status" });
  parts.zoom = h("div", { class: "play-zoom" });
  parts.board = h("div", { class: "play-board" });
  parts.dock = h("div", { class: "play-dock" });
  parts.info = h("div", { class: "play-info" });
  parts.dialog = lay.newDialog();
  parts.section.replaceChildren(h("div", { class: "play-head" }, parts.title, parts.top),
    h("div", { class: "play-turn-line" }, h("p", {}, parts.turn, " ", parts.deadline),
      parts.zoom),
    parts.status, parts.board, parts.dock, parts.info, parts.dialog);
  bind({ d, ui, render, lay, laidChanged, box: parts.dock });
  subscribe(render);
  onLanguage(() => { ui.shownStatus = ""; render(); });
  setInterval(tick, 1000);
}

function render() {
  const g = game();
  if (!parts.section || !g) return;
  parts.section.hidden = false;
  const online = g.online || { rack: null, seat: null, bag: 0, racks: [], unseen: [], last: null,
    deadline: null, move_seconds: null, passes: 0 };
  if (rack.follow(d, laidFor(g), online.rack)) {
    ui.passing = false;
    ui.score = null;
    restoreDraft(d); // the tiles laid for this turn before a reload, from this rack
  }
  dropCovered(g);
  if (online.rack) keepDraft(d);
  parts.title.textContent = t("play.title", { edition: t(`edition.${g.edition}`) });
  replace(parts.top, h("div", { class: "actions play-links" },
    h("button", { type: "button", id: "play-games", onclick: parkGame }, t("games.back")),
    h("a", { class: "button", href: "/rules.html", id: "play-rules" }, t("play.rules"))));
  drawStatus(g, online);
  drawBoard(g, online);
  drawDock(g, online);
  drawInfo(parts.info, g, online, { ui, render });
  lay.dialog(parts.dialog);
  lay.askScore(g.seq);
}

// What the tiles are laid for: this seat's turn of this game at this table. Once the turn
// is taken (a pass too) or the game is over, they are back on the rack, before a reload and
// after.
function laidFor(g) {
  const seat = seatOf(g);
  return [app.session?.table, g.started, seat, g.ended ? "ended" : g.turns[seat]].join(":");
}

// Tiles laid where another player's move has since put tiles go back to the rack.
function dropCovered(g) {
  const taken = tilesOf(g.board);
  for (const square of [...d.placed.keys()]) if (taken.has(square)) d.placed.delete(square);
}

// --- whose turn, until when, the bag and the others' racks ------------------------------


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
  if (key === ui.shownStatus) return;
  ui.shownStatus = key;
  // The scores are in the bar above; here the others' tile counts and the bag.
  const others = g.players.map((_, p) => p).filter((p) => p !== seat);
  replace(parts.status, h("p", { class: "play-counts" },
    h("span", { class: "play-players", role: "list", "aria-label": t("play.players") },
      others.map((p) => h("span", {
        role: "listitem", class: p === g.to_move && !g.ended ? "to-move" : null,
        dataset: { player: p },
      }, h("span", { class: "name" }, name(p)),
      computer(p)
        ? h("span", { class: "computer" }, ` (${computerNote(g.players[p], computer(p))})`)
        : null, colon(),
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

function drawBoard(g, online) {
  const last = online.last && online.last.kind === "move" ? online.last : null;
  replace(parts.zoom, lay.whole());
  lay.board(parts.board, { marked: new Set(last ? last.squares : []),
    label: t("play.board_label") });
}

function laidChanged() {
  ui.refusal = null;
  ui.passing = false;
}
