// The room display: a projector or a tablet in the club room, large print, read-only.
// It sits at the table as a viewer ("/display.html#join=CODE", linked from the table bar),
// kept under its own key so a phone in the same browser keeps its own place, and shows the
// board, the round and its clock, the open round's rack (as large as the clock), the last top
// with its formulas, its solo and the standings (a large room's in pages, `paging.js`), and
// in a simultaneous's centre its name and the leaders across
// every centre; for a classic game the board, the totals and who is to move. A
// viewer is given no join code: it shows none and keeps none, so a link with a code always
// joins afresh.

import { call, joinTable, onLost } from "./api.js";
import { renderBoard, step, tilesOf } from "./board.js";
import * as centre from "./centre.js";
import * as clock from "./clock.js";
import {
  number, onLanguage, percent, playerName, preferredLanguage, refusal, setLanguage, t, withBingo,
} from "./i18n.js";
import { connect, disconnect, onStatus } from "./live.js";
import "./offline.js"; // the service worker: a reload with the server away shows the room
import { fit } from "./paging.js";
import { outOfTime, turnLine } from "./rights.js";
import { DISPLAY, forgetSession, loadSession, saveSession } from "./session.js";
import { app, changed, edition, rulesOf, sheet, subscribe } from "./state.js";
import { conventionOf, isBingo, where as said } from "./references.js";
import { bingoMark, rackTiles, topAddsUp, topFormulas, windowClosed } from "./room.js";
import { h, replace, say } from "./ui.js";

// The view's state, in one place.
const ui = {
  main: null,
  typedCode: "",
};

async function boot() {
  ui.main = document.getElementById("main");
  const [catalog] = await Promise.all([call("/api/catalog"), setLanguage(preferredLanguage())]);
  app.catalog = catalog;
  clock.listenForGesture();
  subscribe(soon);
  onLanguage(render);
  onStatus((online) => { document.getElementById("banner").hidden = online; });
  onLost((code) => leave(code));
  addEventListener("resize", layout);
  const code = new URLSearchParams(location.hash.slice(1)).get("join");
  history.replaceState(null, "", location.pathname); // a reload rejoins from storage
  await sit(code ? code.trim().toUpperCase() : "");
  changed();
  document.body.dataset.ready = "true"; // the browser tests wait for this
}

// Take the kept place when no code was given, else join as a viewer.
async function sit(code) {
  const kept = loadSession(DISPLAY);
  if (kept && !code) {
    app.session = kept;
    connect();
    return;
  }
  if (!code) return;
  try {
    const joined = await joinTable(code, "viewer", null);
    disconnect();
    app.session = { table: joined.table, token: joined.token, role: "viewer", seat: null,
      device: joined.device ?? null };
    app.view = null;
    saveSession(app.session, DISPLAY);
    connect();
  } catch (error) {
    ui.typedCode = code;
    say(refusal(error.code, error.params));
  }
}

function leave(reason) {
  disconnect();
  forgetSession(DISPLAY);
  app.session = null;
  app.view = null;
  say(refusal(reason));
  changed();
}

// The room's news drawn once a frame: 200 slips handed in within seconds are 200 updates, and
// each drawing lays out the board and a page of standings again.
let drawing = false;
function soon() {
  if (drawing) return;
  drawing = true;
  requestAnimationFrame(() => {
    drawing = false;
    render();
  });
}

function render() {
  if (!app.catalog) return;
  document.getElementById("banner").textContent = t("common.offline");
  const game = app.session ? sheet() : null;
  clock.follow(game && game.mode === "duplicate" && !game.ended ? game.clock : null);
  if (!app.session) {
    replace(ui.main, joinForm());
    return;
  }
  const head = h("header", { class: "room-head" }, h("h1", {}, t("display.title")),
    simultaneousHead());
  if (!game) {
    replace(ui.main, head, h("p", { class: "waiting" }, t("display.waiting")));
    return;
  }
  const duplicate = game.mode === "duplicate";
  replace(ui.main, head, h("div", { class: "room-grid" },
    board(game),
    duplicate ? draw(game) : null,
    h("div", { class: "room-side" }, duplicate ? duplicateSide(game) : classicSide(game))));
  layout();
}

// The standings fitted to the screen (in pages when they must be), the leaders and the top's
// formulas in the room left: the formulas all or none, as a formula cut off would not add
// up, and none where the news then runs off its box (a projector is never scrolled).
function layout() {
  const box = ui.main.querySelector(".room-pages");
  if (!box) return;
  const formulas = ui.main.querySelector(".room-top .room-formulas");
  const standings = () => {
    trim();
    fit(box, box.closest(".room-grid"), box.querySelector(".room-page"));
    trim(); // the paged layout leaves the leaders the room under the standings' page
  };
  if (formulas) formulas.hidden = false;
  standings();
  if (formulas && overflows(formulas)) {
    formulas.hidden = true;
    standings();
  }
}

// Does the box `element` lies in (the news beside a large room's standings, else the side
// column) hold more than it shows?
function overflows(element) {
  const box = [element.closest(".room-info"), element.closest(".room-side")]
    .find((block) => getComputedStyle(block).display !== "contents");
  return box.scrollHeight > box.clientHeight + 1;
}

function joinForm() {
  return h("form", {
    class: "card room-join", "aria-labelledby": "room-join-title",
    onsubmit: async (event) => {
      event.preventDefault();
      await sit(event.target.code.value.trim().toUpperCase());
      changed();
    },
  },
  h("h1", { id: "room-join-title" }, t("display.join_title")),
  h("p", { class: "hint" }, t("display.join_hint")),
  h("div", { class: "field" },
    h("label", { for: "room-code" }, t("display.code")),
    h("input", {
      id: "room-code", name: "code", required: true, value: ui.typedCode, maxlength: 6,
      minlength: 6, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
      class: "code-input", pattern: "[A-Za-z0-9]{6}",
    })),
  h("div", { class: "actions" },
    h("button", { class: "primary", type: "submit" }, t("display.join"))));
}

function board(game) {
  const info = edition(game.edition);
  if (!info || !info.board || !game.board) return null;
  const words = game.mode === "duplicate" ? lastTop(game)?.top_words : lastMove(game)?.words;
  return h("div", { class: "room-board" }, renderBoard({
    edition: info,
    rows: game.board,
    marked: squaresOf(words || [], game.board),
    label: t("display.board"),
  }));
}

// The squares of the words of the last top (or move): from each word's first square, on
// while there are tiles, so a digraph tile (Spanish CH) counts as one square.
function squaresOf(words, rows) {
  const tiles = tilesOf(rows);
  const marked = new Set();
  for (const [, , , start, direction] of words) {
    for (let square = start; square && tiles.has(square); square = step(square, direction)) {
      marked.add(square);
    }
  }
  return marked;
}

function lastTop(game) {
  return game.rounds.findLast((played) => played.top !== null) || null;
}

function lastMove(game) {
  return game.lines.findLast((line) => line.kind === "move" || line.kind === "points") || null;
}

function duplicateSide(game) {
  const top = lastTop(game);
  // A simultaneous's window closed: no round is played any more, the standings are final.
  const over = !game.ended && !game.rounds[game.rounds.length - 1].rack.length && windowClosed();
  // The director's room: the last judged round's score of every player beside the
  // standings, with its difference from that top.
  const judged = game.rounds.findLastIndex((played) => played.results.length > 0);
  const results = judged >= 0 ? game.rounds[judged].results : [];
  // A player the director took out (`left`) keeps their index but leaves the standings.
  const gone = new Set(game.left || []);
  const standing = new Map(game.standings.filter((s) => !gone.has(s.player))
    .map((s) => [s.player, s]));
  // The columns a page of a large room does without are "extra": the figures the room reads
  // from afar are the total and the percentage (`key`: their columns keep one width).
  const columns = [
    judged >= 0 ? { label: t("display.round_score", { n: number(judged + 1) }), extra: true,
      cell: (p) => roundScore(game.rounds[judged], results, p) } : null,
    { label: t("dup.total"), key: "total", cell: (p) => number(standing.get(p).total) },
    { label: t("dup.difference"), extra: true, cell: (p) => number(standing.get(p).difference) },
    { label: t("dup.percent"), short: t("display.percent"), key: "percent",
      cell: (p) => percent(standing.get(p).percent_tenths) },
  ].filter((column) => column !== null);
  // The room's news in one block: beside the standings when a large room pages them.
  return [h("div", { class: "room-info" },
    h("div", { class: "room-now" },
      h("h2", { class: "room-round" }, game.ended || over ? t("display.final")
        : t("display.round", { n: number(game.rounds.length) })),
      over ? h("p", { class: "room-window", id: "room-window" }, t("sim.window_closed",
        { n: number(centre.frame().game.game + 1) }))
        : game.ended || !game.clock ? null : clock.face()),
    h("section", { class: "room-top", "aria-labelledby": "room-top-title" },
      h("h3", { id: "room-top-title" }, t("display.last_top")),
      top ? [h("p", { class: "room-points" }, number(top.top)), bingo(top, game),
        words(top.top_words, bonus(top, game), topAddsUp(top, game)),
        where(top.top_words, game), topFormulas(top, game)]
        : h("p", {}, t("display.no_top"))),
    solos(game, results.filter((r) => r.solo && !gone.has(r.player)))),
  h("div", { class: "room-tables" },
    standings(game, [...standing.keys()], columns, (p) => standing.get(p).total, true),
    simultaneous())];
}

// The open round's rack, which the whole room copies from the screen, and the slips in: on a
// landscape screen a band of its own under the board and the news (display.css).
function draw(game) {
  const open = game.rounds[game.rounds.length - 1];
  if (game.ended || !open.rack.length) return null;
  const gone = new Set(game.left || []);
  return h("div", { class: "room-draw" },
    rackTiles(game, open.rack, "display-rack"),
    h("p", { class: "room-slips-in" }, t("display.slips", {
      n: number(game.room ? game.room.slips.length : 0),
      total: number(game.players.length - gone.size) })));
}

// A simultaneous's centre: the leaders across every centre, under the room's standings (in
// the column of their pages, below them, when the news stands beside them), as many as the
// screen leaves room for.
function simultaneous() {
  const sent = centre.frame();
  if (!sent) return null;
  return h("section", { class: "room-sim", id: "room-sim", "aria-labelledby": "room-sim-title" },
    h("h3", { id: "room-sim-title" }, t("sim.leaders")),
    centre.leaders(sent.leaders, "room-sim-leaders", true));
}

// The simultaneous and this centre's name in the head, with its centres and players.
function simultaneousHead() {
  const sent = centre.frame();
  if (!sent) return null;
  return h("p", { class: "room-head-sim", id: "room-head-sim" },
    h("strong", {}, centre.simultaneousName(sent.name)), " · ",
    t("sim.display_centre", { centre: sent.centre }), " · ",
    t("sim.centres_count", { n: sent.centres }), " · ", t("sim.players_count", { n: sent.players }));
}

// As many of the leaders as their panel holds, from the first; none where not even one
// fits: a projector is never scrolled, and no row is cut.
function trim() {
  const panel = ui.main.querySelector(".room-sim");
  if (!panel) return;
  panel.hidden = false;
  const rows = [...panel.querySelectorAll("tbody tr")];
  for (const row of rows) row.hidden = false;
  const over = () => panel.scrollHeight > panel.clientHeight + 1;
  for (let last = rows.length - 1; last >= 0 && over(); last -= 1) rows[last].hidden = true;
  if (over() || rows.every((row) => row.hidden)) panel.hidden = true;
}

// Who was alone at the best move of the last judged round, each with their bonus.
function solos(game, found) {
  return found.map((result) => h("p", { class: "room-solos" }, t("display.solo", {
    name: playerName(game.players, result.player), points: number(result.solo) })));
}

// The top's bingo ("scrabble" in French), under its points.
function bingo(top, game) {
  const mark = bingoMark(top, game);
  return mark ? h("p", { class: "room-bingo" }, mark) : null;
}

// Where the top lies: its first square and its direction ("H4 horizontaal"), or its
// reference as the FISF writes it ("4H") under FISF rules.
function where(list, game) {
  if (!list.length || !list[0][3]) return null;
  const [, , , square, direction] = list[0];
  return h("p", { class: "room-where" },
    said(square, direction, conventionOf(rulesOf(game.rules))));
}

// A player's score of a judged round, and its difference from that round's top.
function roundScore(played, results, player) {
  const result = results.find((r) => r.player === player);
  if (!result) return "";
  const points = played.scores[player] ?? result.points;
  return [number(points), h("span", { class: "room-diff" },
    ` ${number(points - (played.top ?? 0))}`),
  result.solo ? h("span", { class: "room-solo" }, ` +${number(result.solo)}`) : null];
}

function classicSide(game) {
  const move = lastMove(game);
  return [
    h("h2", { class: "room-round room-turn" }, game.ended ? t("display.final")
      : outOfTime(game) ? turnLine(game)
        : t("display.to_move", { name: playerName(game.players, game.to_move) })),
    standings(game, game.players.map((_, p) => p),
      [{ label: t("dup.total"), cell: (p) => number(totalOf(game, p)) }],
      (p) => totalOf(game, p), false),
    move ? h("section", { class: "room-top", "aria-labelledby": "room-top-title" },
      h("h3", { id: "room-top-title" }, t("display.last_move")),
      h("p", { class: "room-points" },
        h("span", { class: "room-mover" }, `${playerName(game.players, move.player)}:`), " ",
        number(move.points)),
      words(move.words, move.bingo)) : null,
  ];
}

function totalOf(game, player) {
  const row = game.final && game.final.find((r) => r.player === player);
  return row ? row.final : game.totals[player];
}

// A round's top's bingo bonus: the edition's, when the top laid a whole rack.
function bonus(top, game) {
  const played = edition(game.edition);
  return isBingo(top, played) ? played.bingo_bonus : 0;
}

// The words and their points, and the move's bingo, which its points hold beside them:
// "KETENDEN 26 · +50 alle letters" under 76. Not `scored`: the words alone (a top whose
// points the director corrected).
function words(list, bingo, scored = true) {
  if (!list.length) return null;
  return h("p", { class: "room-words" }, (scored
    ? withBingo(list.map(([word, points]) => `${word} ${number(points)}`), bingo)
    : list.map(([word]) => word)).join(" · "));
}

// `players` best first, ranked (a duplicate room's rank, whatever the round) or, once a
// classic game has ended, with the places of its final table; in a box the pager fills
// (`paging.js`), the page it shows named beside the caption.
function standings(game, players, columns, score, ranked) {
  const order = [...players].sort((a, b) => score(b) - score(a) || a - b);
  const places = ranked ? ranks(order, score)
    : game.final ? new Map(game.final.map((row) => [row.player, row.place])) : null;
  const toMove = game.mode === "classic" && !game.ended && !outOfTime(game) ? game.to_move : null;
  const classes = (column) => ["num", column.key, column.extra ? "extra" : null]
    .filter(Boolean).join(" ");
  return h("div", { class: "room-pages" },
    h("table", { class: `room-standings players-${game.players.length}` },
      h("caption", {}, t("display.standings"), " ", h("span", { class: "room-page" })),
      h("thead", {}, h("tr", {},
        places ? h("th", { scope: "col", class: "num rank" },
          head({ label: t("dup.place"), short: t("display.rank") })) : null,
        h("th", { scope: "col" }, t("dup.player")),
        columns.map((column) => h("th", { scope: "col", class: classes(column) }, head(column))))),
      h("tbody", {}, order.map((p) => h("tr", { class: p === toMove ? "to-move" : null },
        places ? h("td", { class: "num rank" }, number(places.get(p))) : null,
        h("th", { scope: "row", class: "name" }, playerName(game.players, p)),
        columns.map((column) => h("td", { class: classes(column) }, column.cell(p))))))));
}

// A column's head; one with a short form says it on a page of a large room, whose heads
// stand on one line.
function head(column) {
  if (!column.short) return column.label;
  return [h("span", { class: "wide" }, column.label), h("span", { class: "short" }, column.short)];
}

// Competition ranks of `order` (best first): equal scores share a rank and the next rank
// is skipped, "1, 2, 2, 4" (P-35), as the final table places them.
function ranks(order, score) {
  const rank = new Map();
  order.forEach((p, i) => {
    rank.set(p, i && score(p) === score(order[i - 1]) ? rank.get(order[i - 1]) : i + 1);
  });
  return rank;
}

boot();
