// The classic score sheet (SHC-10..24): every total and who is to move at the top, the turn
// buttons, undo and the two-tap clear, and the turns per round like a tournament score
// sheet. Penalties are in penalty.js, the end of the game in endgame.js. The server keeps
// the score; this screen only shows it and asks for changes.

import { challengeNote, challengePanel } from "./challenge.js";
import { endPanel, finalPanel } from "./endgame.js";
import { clockPanel } from "./gameclock.js";
import { language, notice, number, onLanguage, playerName, signed, t } from "./i18n.js";
import { inFlight, send } from "./live.js";
import { penaltyPanel, pointsOf } from "./penalty.js";
import { MAX_POINTS } from "./points.js";
import { mayUndo, offer, outOfTime, turnLine, withheld, writers } from "./rights.js";
import * as sharedBoard from "./shared-board.js";
import * as speech from "./speech.js";
import { helpHint } from "./shell.js";
import { app, canWrite, sheet, subscribe } from "./state.js";
import { TURNS, refer, turnOf } from "./turn.js";
import { folding, h, held, replace, sayRefusal } from "./ui.js";

const ARMED_MS = 4000; // SHC-19: how long the first tap on "clear" waits for the second

// The view's state, in one place.
const ui = {
  section: null,
  box: null, // this sheet's own part of the section it shares with the duplicate sheet
  title: null,
  live: null,
  body: null,
  shownScores: "",
  pointsDraft: "",
  pointsTurn: null, // the turn the points were typed for: theirs, whoever is to move at the tap
  armed: null, // the timer while "clear" waits for its second tap
  // The lines whose formulas are unfolded, by seq, in the game `formulasOf` (its start):
  // another phone's line redraws the table, and one being checked stays open.
  formulas: new Set(),
  formulasOf: null,
};

export function mount(element) {
  ui.section = element;
  ui.title = h("h2");
  ui.live = h("div", { class: "scoreboard", "aria-live": "polite" });
  ui.body = h("div", { class: "sheet-body" });
  ui.box = h("div", { class: "classic-sheet", hidden: true }, ui.title, ui.live, ui.body);
  ui.section.append(ui.box);
  subscribe(render);
  sharedBoard.mount(); // every phone says who laid tiles on the board, and what was cleared
  speech.mount(); // a phone that asked for it reads each new line aloud
  onLanguage(render);
}

// A command from this screen; a refusal is said on screen.
function act(command) {
  return send(command).catch(sayRefusal);
}

function render() {
  const game = sheet();
  ui.box.hidden = !(game && game.mode === "classic");
  // The duplicate sheet shares the section and names it with the same id when it shows.
  if (ui.box.hidden) {
    ui.title.removeAttribute("id");
    return;
  }
  ui.title.id = "sheet-title";
  ui.section.hidden = false;
  ui.title.textContent = t("sheet.title");
  scoreboard(game);
  const open = canWrite() && !game.ended;
  const decided = outOfTime(game) !== null; // on time: the end takes the turn's place
  replace(ui.body,
    h("p", { class: "sheet-rules" },
      `${t(`rules.${game.rules}`)} · ${t(`edition.${game.edition}`)}`),
    clockPanel(game),
    notices(game),
    sharedBoard.onBoard(game),
    challengePanel(game),
    game.ended ? finalPanel(game) : null,
    game.ended ? null : turnActions(game), // a viewer's too: it says why it writes nothing
    canWrite() ? tools(game) : null,
    open ? offer("penalty", game, "sheet-penalty-withheld", () => penaltyPanel(game, render))
      : null,
    roundsTable(game),
    open && !decided ? endOffer(game) : null,
    speech.toggle()); // this phone's own setting, last: it records nothing
}

// SHC-10: redrawn only when it changes, so a screen reader hears each new score once.
function scoreboard(game) {
  // After the end the top shows the settled scores of the final table.
  const scores = game.final ? game.final.map((row) => row.final) : game.totals;
  // A player out of time is not to move: the line says so instead.
  const moving = game.ended || outOfTime(game) ? null : game.to_move;
  const line = game.ended ? t("sheet.ended") : turnLine(game);
  const key = JSON.stringify([language, game.players, scores, moving, line]);
  if (key === ui.shownScores) return;
  ui.shownScores = key;
  replace(ui.live,
    h("ul", { class: "totals" }, game.players.map((_, p) => h("li", {
      class: p === moving ? "to-move" : null, dataset: { player: p },
    },
    h("span", { class: "name" }, playerName(game.players, p)),
    h("span", { class: "total num" }, number(scores[p])),
    p === moving ? h("span", { class: "badge" }, t("sheet.to_move_mark")) : null))),
    h("p", { class: "turn-line" }, line));
}

// SHC-24 and the tracking warnings: shown, never acted on (SHC-23).
function notices(game) {
  const said = (item, kind) => {
    const params = { ...item.params };
    if (typeof params.player === "number") params.name = playerName(game.players, params.player);
    return h("li", { class: kind, dataset: { code: item.code } }, notice(item.code, params));
  };
  const items = [
    ...game.notices.map((item) => said(item, "notice")),
    ...game.tracking.warnings.map((item) => said(item, "notice")),
    ...[...game.warnings, ...app.view.warnings].map((item) => said(item, "warning")),
  ];
  return items.length
    ? h("ul", { class: "notices", "aria-label": t("sheet.notices") }, items) : null;
}


// The end of the game, or where this phone may not end it, why.
const endOffer = (game) => offer("end", game, "sheet-end-withheld", () => endPanel(game, render));

// The turn of the player to move: on their own phone, or on the phone keeping the sheet;
// every other phone waits, and says why. Each button names the turn it showed. A player out
// of time makes no move (the server refuses it): every phone says so instead, and offers the
// end, which is all that is left.
function turnActions(game) {
  const name = playerName(game.players, game.to_move);
  const why = withheld("turn", game);
  if (outOfTime(game)) {
    return h("div", { class: "card waiting out-of-time", id: "sheet-out-of-time" },
      h("p", { class: "waiting-turn" }, turnLine(game)),
      h("p", { class: "hint withheld", id: "sheet-turn-withheld" }, why),
      canWrite() ? endOffer(game) : null);
  }
  if (why) {
    return h("div", { class: "card waiting" },
      h("p", { class: "waiting-turn" }, t("sheet.waiting_for", { name })),
      h("p", { class: "hint withheld", id: "sheet-turn-withheld" }, why));
  }
  const busy = held(inFlight(...TURNS));
  const turn = (type) => () => inFlight(...TURNS) || act(refer(game, { type }));
  return h("form", {
    class: "card turn", "aria-labelledby": "sheet-turn-title", novalidate: true,
    onsubmit: enterPoints,
  },
  h("h3", { id: "sheet-turn-title" }, t("sheet.turn_title", { name })),
  // The move itself is scored on the board or as typed words in its own view.
  h("a", { href: "#view=score", id: "sheet-score", class: "button" },
    t("shell.view_score")),
  h("div", { class: "points-row" },
    h("div", { class: "field" },
      h("label", { for: "sheet-points" }, t("sheet.points_label", { max: number(MAX_POINTS) })),
      h("input", {
        id: "sheet-points", name: "points", type: "number", inputmode: "numeric", min: 0,
        max: MAX_POINTS, step: 1, value: ui.pointsDraft, autocomplete: "off",
        oninput: (event) => {
          ui.pointsDraft = event.target.value;
          ui.pointsTurn = ui.pointsDraft ? turnOf(game, game.to_move) : null;
        },
      })),
    h("button", { type: "submit", class: "primary", id: "sheet-points-add", "aria-disabled": busy },
      t("sheet.points_add"))),
  h("div", { class: "actions zero", role: "group", "aria-describedby": "sheet-zero-hint" },
    h("button", { type: "button", id: "sheet-pass", "aria-disabled": busy, onclick: turn("pass") },
      t("sheet.pass")),
    h("button", { type: "button", id: "sheet-exchange", "aria-disabled": busy,
      onclick: turn("exchange") }, t("sheet.exchange")),
    h("button", { type: "button", id: "sheet-withdraw", "aria-disabled": busy,
      onclick: turn("withdraw_word") }, t("sheet.withdrawn"))),
  helpHint("sheet-zero-hint", t("sheet.zero_hint")));
}

// The points go for the turn they were typed for. The field empties at once; if the
// server refuses (that turn was recorded meanwhile), what was typed comes back.
function enterPoints(event) {
  event.preventDefault();
  if (inFlight(...TURNS)) return; // a bounce, or Enter again: the field keeps what was typed
  const game = sheet();
  const points = pointsOf(ui.pointsDraft, 0);
  if (points === null) return;
  const typed = ui.pointsDraft;
  const turn = ui.pointsTurn || turnOf(game, game.to_move);
  ui.pointsDraft = "";
  ui.pointsTurn = null;
  event.target.points.value = "";
  send({ type: "enter_points", points, turn }).catch((error) => {
    if (!ui.pointsDraft) ui.pointsDraft = typed; // kept, for the turn to move now
    render();
    sayRefusal(error);
  });
}

// Undo and clear, or where this phone may not, why; nothing to undo needs no reason.
function tools(game) {
  const undoable = game.lines.length || game.ended;
  return h("div", { class: "actions tools" },
    undoable || mayUndo(game) ? offer("undo", game, "sheet-undo-withheld", () => h("button", {
      type: "button", id: "sheet-undo",
      disabled: !game.lines.length && !game.ended, "aria-disabled": held(inFlight("undo")),
      onclick: () => inFlight("undo") || act(refer(game, { type: "undo" })),
    }, t("sheet.undo"))) : null,
    offer("clear", game, "sheet-clear-withheld", () => [h("button", {
      type: "button", id: "sheet-clear", class: ui.armed ? "danger armed" : "danger",
      "aria-describedby": "sheet-clear-hint", onclick: clear,
    }, ui.armed ? t("sheet.clear_confirm") : t("sheet.clear")),
    helpHint("sheet-clear-hint", t("sheet.clear_hint"))]));
}

// SHC-19: the first tap arms the button, a second within a few seconds clears: a new game
// with the same edition, rules, players and starter.
function clear() {
  const game = sheet();
  if (!ui.armed) {
    ui.armed = setTimeout(() => { ui.armed = null; render(); }, ARMED_MS);
    render();
    return;
  }
  clearTimeout(ui.armed);
  ui.armed = null;
  render();
  act({
    type: "start_game", edition: game.edition, mode: "classic", rules: game.rules,
    players: game.players, starter: game.starter, writers: writers(),
    host_seat: app.view.host_seat ?? null, // the host's phone keeps its seat
    clock_minutes: game.game_clock ? game.game_clock.minutes : 0, // and the clock its length
  });
}

// SHC-20/21: a row per round, a column per player; a cell holds the turn, any penalty
// written beside it, and the running total.
function roundsTable(game) {
  if (ui.formulasOf !== game.started) {
    Object.assign(ui, { formulas: new Set(), formulasOf: game.started });
  }
  if (!game.lines.length) return h("p", { class: "hint no-lines" }, t("sheet.no_lines"));
  const count = Math.max(...game.lines.map((line) => line.round)) + 1;
  const cells = Array.from({ length: count }, () => game.players.map(() => []));
  for (const line of game.lines) cells[line.round][line.player].push(line);
  return h("div", { class: "rounds-wrap" }, h("table", { class: "rounds" },
    h("caption", {}, t("sheet.table_caption")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("sheet.round")),
      game.players.map((_, p) => h("th", { scope: "col" }, playerName(game.players, p))))),
    h("tbody", {}, cells.map((row, r) => h("tr", {},
      h("th", { scope: "row", class: "num" }, number(r + 1)),
      row.map(cell)))),
    h("tfoot", {}, game.final ? settled(game) : h("tr", {},
      h("th", { scope: "row" }, t("sheet.total")),
      game.totals.map((total) => h("td", { class: "num" }, number(total)))))));
}

// After the end the foot comes to the final table's scores: the totals the rounds add up
// to, the settlement of the racks, the final score (END-07), each in its player's column.
function settled(game) {
  const rows = game.players.map((_, p) => game.final.find((row) => row.player === p));
  const line = (kind, key, value) => h("tr", { class: kind },
    h("th", { scope: "row" }, t(key)),
    rows.map((row) => h("td", { class: "num" }, value(row))));
  return [
    line("foot-before", "sheet.total_before", (row) => number(row.before)),
    line("foot-settlement", "sheet.settlement", (row) => signed(row.settlement)),
    line("foot-final", "sheet.total_final", (row) => number(row.final)),
  ];
}

function cell(lines) {
  if (!lines.length) return h("td", { class: "empty" });
  return h("td", {},
    lines.map((line) => [entry(line), challengeNote(line)]),
    h("span", { class: "running num" },
      h("span", { class: "sr-only" }, `${t("sheet.total_after")} `),
      number(lines[lines.length - 1].total)));
}

const MARKS = { pass: "sheet.mark_pass", exchange: "sheet.mark_exchange",
  withdrawn: "sheet.mark_withdrawn" };

function entry(line) {
  const attributes = { class: `line line-${line.kind}`, dataset: { seq: line.seq } };
  if (line.kind in MARKS) {
    return h("span", attributes, h("span", { class: "mark" }, t(MARKS[line.kind])));
  }
  if (line.kind === "penalty" || line.kind === "bonus") { // "-10", "+5": signed as they count
    return h("span", attributes,
      h("span", { class: "sr-only" }, `${t(`sheet.mark_${line.kind}`)} `), signed(line.points));
  }
  return h("span", attributes, h("span", { class: "points num" }, number(line.points)),
    line.bingo ? h("span", { class: "bingo" }, t("sheet.bingo", { points: number(line.bingo) }))
      : null,
    line.words.length ? words(line) : null);
}

// The words of a computed move; their formulas (SCR-17) fold open for who wants to check.
function words(line) {
  return folding({
    class: "words", open: ui.formulas.has(line.seq),
    fold: (open) => { if (open) ui.formulas.add(line.seq); else ui.formulas.delete(line.seq); },
  }, line.words.map(([word]) => word).join(", "),
  h("ul", {}, line.words.map(([word, , formula]) => h("li", {}, `${word}: ${formula}`))));
}
