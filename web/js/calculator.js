// The calculator (§3, §4): a move typed as words or laid on the board, scored by the server on
// every change (the phone never scores), shown word by word with its formula (SCR-17), and
// the buttons that put it on the sheet or on the board. The record button is bound to the
// turn it showed when the move was typed ("28 voor Anna"), not to whoever is to move at the
// tap: if that turn was recorded meanwhile, the server says by whom and the move stays (off
// the board, which now holds the move that won). Where the phone may not record, it says why.
//
// Inputs are drawn once per structural change; typing only redraws the tiles, the board and
// the result, so the caret and a phone keyboard's composition are never disturbed.

import * as api from "./api.js";
import * as boardmode from "./boardmode.js";
import { EXAMPLES } from "./examples.js";
import { language, listName, number, onLanguage, playerName, refusal, t } from "./i18n.js";
import * as live from "./live.js";
import { refusalText } from "./refusals.js";
import { keepsSheet, mayTurn, mySeat, withheld, writers } from "./rights.js";
import { mayLay, onBoard } from "./shared-board.js";
import {
  app, canWrite, changed, chosenEdition, edition as editionInfo, sheet, subscribe,
} from "./state.js";
import { TURNS, firstEmpty, refer, turnOf } from "./turn.js";
import * as typed from "./typed.js";
import { copyText, folding, h, mark, replace, say, sayRefusal, settle } from "./ui.js";

const DEBOUNCE = 150; // ms between the last keystroke and asking the server
const MODE = "tilestream.calc.mode"; // "board" or "typed", as this phone last chose it

// The view's state, in one place: what it shows and what it waits for.
const ui = {
  section: null,
  mode: keptMode(),
  check: false, // WL-01: off by default
  draft: { typed: typed.empty(), board: boardmode.empty() },
  result: null, // {score, words, rows} or {error}; .stale while a newer answer is due
  resultRegion: null,
  totalLine: null,
  toolsRegion: null,
  shown: "", // what of the table the calculator last drew (see onState)
  shownBusy: "",
  examplesOpen: false,
  bound: null, // the turn the record button is for, taken when the move was typed
  boundMove: "",
  spent: null, // a duplicate cell this phone has just filled with the move it keeps
  // asking the server: the debounce timer, the newest question and what it was about
  timer: null,
  asked: 0,
  lastKey: "",
};

export function mount(element) {
  ui.section = element;
  fromLink();
  subscribe(onState);
  onLanguage(render);
  addEventListener("hashchange", () => {
    if (fromLink()) render();
  });
}

// Another phone's line, the clock or a reconnect change the app's state often; the calculator
// redraws only for what it shows, so that typing is not interrupted for nothing.
function tableKey() {
  const running = game();
  const round = running && running.rounds[running.rounds.length - 1];
  return JSON.stringify([running && [running.edition, running.mode, running.players,
    running.to_move, running.rounds.length, round && round.scores, running.board,
    running.unscored, running.started], app.session && app.session.role, app.online,
  writers(), mySeat()]);
}

const busyKey = () => JSON.stringify([live.inFlight(...TURNS), live.unanswered("record_top")]);

function onState() {
  if (tableKey() !== ui.shown) render();
  else if (busyKey() !== ui.shownBusy && ui.resultRegion) drawResult();
}

// --- what the calculator works on --------------------------------------------------------

// The running game at this table, if any: its edition and board are the calculator's.
function game() {
  const current = sheet();
  return current && !current.ended ? current : null;
}

const editionCode = () => (game() ? game().edition : chosenEdition());

function context() {
  const edition = editionInfo(editionCode());
  const running = game();
  return {
    edition,
    faces: new Set(edition.letters.map(([face]) => face)),
    values: Object.fromEntries(edition.letters.map(([face, value]) => [face, value])),
    rows: running ? running.board : boardmode.loadLocal(edition.code),
    marked: new Set(running ? running.unscored : []),
    changed: schedule,
    redraw: render,
  };
}

const boardless = (edition) => !edition.board; // BRD-23: Literaki has its own layout

// The mode this phone chose last, kept over a reload; typed words at first.
function keptMode() {
  try {
    return localStorage.getItem(MODE) === "board" ? "board" : "typed";
  } catch {
    return "typed"; // no storage (a private window): the first mode each time
  }
}

function keepMode(mode) {
  try {
    localStorage.setItem(MODE, mode);
  } catch {
    // not kept: the phone asks again after a reload
  }
}

function currentMove(ctx = context()) {
  return ui.mode === "board" ? boardmode.move(ui.draft.board, ctx.faces)
    : typed.move(ui.draft.typed, ctx.faces);
}

const hasMove = () => (ui.mode === "board" ? !boardmode.isEmpty(ui.draft.board)
  : !typed.isEmpty(ui.draft.typed));

function clearMove() {
  ui.draft = { typed: typed.empty(), board: boardmode.empty() };
  ui.result = null;
}

// --- drawing -----------------------------------------------------------------------------

function render() {
  if (!app.catalog) return;
  const ctx = context();
  if (ui.mode === "board" && boardless(ctx.edition)) ui.mode = "typed";
  ui.shown = tableKey();
  ui.resultRegion = h("div", { class: "result" });
  ui.totalLine = h("p", { class: "total", id: "calc-total", "aria-live": "polite",
    "aria-atomic": "true" });
  ui.toolsRegion = h("div", { class: "tools" });
  replace(ui.section,
    h("h2", { id: "calculator-title" }, t("calc.title")),
    editionField(ctx),
    modeSwitch(ctx),
    ui.mode === "board" ? boardmode.render(ui.draft.board, ctx) : typed.render(ui.draft.typed, ctx),
    wordCheck(ctx.edition),
    ui.totalLine,
    ui.resultRegion,
    ui.toolsRegion,
    game() ? null : examples());
  drawResult();
  drawTools();
  schedule();
}

function editionField(ctx) {
  if (game()) {
    return h("p", { class: "edition" }, t("calc.game_edition",
      { edition: t(`edition.${ctx.edition.code}`) }));
  }
  return h("div", { class: "field" },
    h("label", { for: "calc-edition" }, t("calc.edition")),
    h("select", { id: "calc-edition", onchange: (event) => {
      app.edition = event.target.value;
      render();
      changed(); // the tile panel and the print links show the same set
    } }, app.catalog.editions.map((e) => h("option",
      { value: e.code, selected: e.code === ctx.edition.code }, t(`edition.${e.code}`)))));
}

// BRD-01: the switch sits above the move; switching mid-move asks first (P-22).
function modeSwitch(ctx) {
  const noBoard = boardless(ctx.edition);
  const option = (value, label, disabled) => h("label", { class: "option" },
    h("input", {
      type: "radio", name: "calc-mode", id: `calc-mode-${value}`, value,
      checked: ui.mode === value, disabled,
      "aria-describedby": disabled ? "calc-no-board" : null,
      onchange: (event) => {
        if (hasMove() && !confirm(t("calc.switch_confirm"))) {
          event.target.checked = false;
          document.getElementById(`calc-mode-${ui.mode}`).checked = true;
          return;
        }
        clearMove();
        ui.mode = value;
        keepMode(value);
        render();
      },
    }), " ", label);
  return h("fieldset", { class: "choice mode" },
    h("legend", {}, t("calc.mode")),
    option("typed", t("calc.mode_typed"), false),
    option("board", t("calc.mode_board"), noBoard),
    noBoard ? h("p", { class: "hint", id: "calc-no-board" }, t("calc.no_board")) : null);
}

// Offered where the server checks the edition's words for anyone (not online play's list):
// what it says of the list is its own language's notice, or the list named in another's.
function wordCheck(shown) {
  if (!shown.word_check) return null;
  return h("div", { class: "wordcheck" },
    h("label", { class: "option" },
      h("input", { type: "checkbox", id: "calc-check", checked: ui.check, onchange: (event) => {
        ui.check = event.target.checked;
        render();
      } }), " ", t("wordcheck.toggle")),
    ui.check ? h("p", { class: "hint" }, shown.language === language ? t("wordcheck.notice")
      : t("wordcheck.notice_list", { list: listName(shown.word_list) })) : null);
}

// Whether the words of `shown` (an edition) are checked: asked, and offered for it.
const checking = (shown) => ui.check && shown.word_check;

// Every word with its points and formula (SCR-17), the bingo, the total, and why a move is
// refused; then what may be done with it.
function drawResult() {
  ui.shownBusy = busyKey();
  const score = ui.result && ui.result.score;
  const said = score ? t("calc.total", { points: number(score.total) }) : "";
  if (ui.totalLine.textContent !== said) ui.totalLine.textContent = said; // read out once
  ui.totalLine.hidden = !score;
  ui.resultRegion.classList.toggle("stale", Boolean(ui.result && ui.result.stale));
  if (!ui.result) {
    replace(ui.resultRegion, h("p", { class: "hint" },
      t(ui.mode === "board" ? "calc.empty_board" : "calc.empty_typed")));
    return;
  }
  if (ui.result.error) {
    replace(ui.resultRegion, h("p", { class: "refusal", role: "alert",
      dataset: { code: ui.result.error.code } },
    refusal(ui.result.error.code, ui.result.error.params)));
    return;
  }
  const statuses = ui.result.words || [];
  replace(ui.resultRegion,
    h("ol", { class: "words" }, score.words.map((word, i) => h("li", { class: "word-score" },
      h("p", { class: "word-line" },
        h("span", { class: "word" }, word.word),
        word.start ? h("span", { class: "where" },
          ` ${word.start} ${word.direction === "down" ? "↓" : "→"}`) : null,
        h("span", { class: "points" }, number(word.points))),
      h("p", { class: "formula" }, word.formula),
      word.note === "no_new_tiles" ? h("p", { class: "note" }, t("calc.no_new_tiles")) : null,
      statuses[i] ? h("p", { class: `check ${statuses[i]}` }, t(`wordcheck.${statuses[i]}`))
        : null))),
    score.bingo ? h("p", { class: "bingo" }, t("calc.bingo", { points: number(score.bingo) }))
      : null,
    score.refusal ? h("p", { class: "refusal", role: "alert", dataset: { code: score.refusal } },
      refusal(score.refusal, { count: score.new_tiles,
        rack_size: editionInfo(editionCode()).rack_size })) : null,
    actions(score));
}

// SHC-11, DUP-08/09, BRD-20..22: only a valid, fresh, recordable score gets buttons (BRD-18).
// A player's own phone records only its own turn or cell; the phone keeping the sheet any.
function actions(score) {
  const running = game();
  const ready = !ui.result.stale && !score.refusal;
  const buttons = [];
  const move = currentMove();
  const busy = live.inFlight(...TURNS);
  const turn = running && ui.bound && ui.bound.game === running.started ? ui.bound : null;
  if (ready && turn && recordable(running, turn)) {
    const name = playerName(running.players, turn.player);
    const points = number(score.total);
    // Duplicate: the move stays, for the next player's cell and the top (DUP-08/09).
    const duplicate = running.mode === "duplicate";
    buttons.push(button(t(duplicate ? "calc.record_player" : "calc.record", { points, name }),
      "primary", () => record({ type: "record_move", ...move, turn }, !duplicate), busy));
  }
  if (ready && running && running.mode === "duplicate" && keepsSheet() && !running.room?.centre) {
    buttons.push(button(t("calc.record_top", { points: number(score.total) }), "",
      () => record(refer(running, { type: "record_top", ...move }), true),
      live.unanswered("record_top")));
  }
  if (ui.mode === "board" && ready && (!running || (canWrite() && mayLay(running)))) {
    buttons.push(button(t(running ? "calc.place_unscored" : "calc.place"), "",
      () => place(move)));
  }
  // Where the record button would be, a phone that may not record says why: the turn is the
  // player to move's and the host's (classic), a viewer records nothing.
  const why = ready && running && !(turn && recordable(running, turn))
    && (running.mode === "classic" || !canWrite()) ? withheld("turn", running) : null;
  const notRecorded = why ? h("p", { class: "hint withheld", id: "calc-record-withheld" }, why)
    : null;
  // The shared board is the turn's: where its button would be, the phone says whose it is.
  const notLaid = ui.mode === "board" && ready && running && canWrite() && !mayLay(running)
    ? h("p", { class: "hint withheld", id: "calc-place-withheld" },
      refusalText("not_your_board", { to_move: running.to_move })) : null;
  return buttons.length || notRecorded || notLaid
    ? h("div", { class: "actions" }, buttons, notRecorded, notLaid) : null;
}

const button = (label, kind, onclick, disabled = false) => h("button",
  { type: "button", class: kind, onclick, disabled }, label);

// The turn the record button is for: on the phone keeping the sheet, the player to move
// (duplicate: the first empty cell); on a player's own phone, its own seat.
function target(running) {
  const keeper = keepsSheet();
  if (running.mode === "duplicate") {
    const seat = keeper ? firstEmpty(running) : mySeat();
    return seat === null || seat < 0 ? null : turnOf(running, seat);
  }
  const seat = keeper ? running.to_move : mySeat();
  return seat === null ? null : turnOf(running, seat);
}

// The phone keeping the sheet records any turn; a player's own phone its own, when it is to
// move (classic) or while its cell is empty (duplicate).
function recordable(running, turn) {
  if (!mayTurn(turn.player)) return false;
  if (keepsSheet()) return true;
  if (running.mode === "classic") return running.to_move === turn.player;
  return running.rounds[turn.number]?.scores[turn.player] === null;
}

// Bound when the move is typed (or a new game begins), and kept while it stays the same.
function bind(move) {
  const running = game();
  const key = JSON.stringify(move);
  if (!running || !move) {
    ui.bound = null;
    ui.boundMove = "";
    return;
  }
  const filled = ui.bound && ui.bound === ui.spent && running.mode === "duplicate"
    && running.rounds[ui.bound.number]?.scores[ui.bound.player] !== null;
  if (ui.bound && key === ui.boundMove && ui.bound.game === running.started && !filled) return;
  ui.bound = target(running);
  ui.boundMove = key;
}

// Recording empties the move (SHC-11); a refusal puts it back. When another phone recorded
// that turn meanwhile, a move laid on the board comes back off it, its letters kept: laid
// again from its square it would lie beside the move that won (KOK beside KOK read KOKKOK).
async function record(command, clear) {
  const saved = { draft: ui.draft, result: ui.result };
  if (clear) {
    clearMove();
    render();
  }
  const before = mark();
  try {
    await live.send(command);
    settle(before);
    if (!clear && command.turn) { // on to the next empty cell, once the sheet shows this one
      ui.spent = command.turn;
      bind(currentMove());
      drawResult();
    }
  } catch (error) {
    if (clear) ({ draft: ui.draft, result: ui.result } = saved);
    if (clear && error?.code === "turn_taken" && ui.mode === "board") {
      ui.draft = { ...ui.draft, board: { ...ui.draft.board, start: null, reading: null } };
      ui.result = null;
    }
    ui.bound = null; // bound again to the turn to play now, under the sentence saying why
    render();
    sayRefusal(error);
  }
}

function place(move) {
  if (game()) {
    record({ type: "place_tiles", ...move }, true);
    return;
  }
  boardmode.saveLocal(editionCode(), ui.result.rows);
  clearMove();
  render();
}

// BRD-22: at a table only tiles placed without a score go; alone, the whole local board.
function clearBoard() {
  if (game()) record({ type: "clear_board" }, false);
  else {
    boardmode.saveLocal(editionCode(), null);
    render();
  }
}

// --- asking the server -------------------------------------------------------------------

// Score again when the move, the edition, the board or the check changed.
function schedule() {
  const ctx = context();
  const move = currentMove(ctx);
  const useLive = Boolean(game() && app.online);
  const rows = ui.mode === "board" ? ctx.rows : null;
  const check = checking(ctx.edition);
  const key = JSON.stringify([ctx.edition.code, move, rows, check, useLive]);
  bind(move);
  drawTools();
  if (key === ui.lastKey) return;
  ui.lastKey = key;
  clearTimeout(ui.timer);
  ui.asked += 1;
  if (!move) {
    ui.result = null;
    drawResult();
    return;
  }
  if (ui.result) {
    ui.result.stale = true;
    drawResult();
  }
  const mine = ui.asked;
  const before = mark(); // what was said before this move was typed
  ui.timer = setTimeout(async () => {
    let answer;
    try {
      answer = useLive ? await live.preview(move, check)
        : await api.score(ctx.edition.code, move, rows, check);
      answer = { score: answer.score, words: answer.words || [], rows: answer.rows || null };
    } catch (error) {
      answer = { error };
    }
    if (mine !== ui.asked) return;
    ui.result = answer;
    if (!answer.error) settle(before); // the move scores now: an older error is past
    drawResult();
  }, DEBOUNCE);
}

// --- share link (§16) --------------------------------------------------------------------

// Only the edition and the move: never names, the sheet or the board's tiles (LNK-02..05).
function shareLink() {
  const data = { edition: editionCode(), move: currentMove() };
  return `${location.origin}${location.pathname}#calc=${encodeURIComponent(JSON.stringify(data))}`;
}

function drawTools() {
  if (!ui.toolsRegion) return;
  const ctx = context();
  const running = game();
  const boardTools = ui.mode === "board"
    && (running ? canWrite() && ctx.marked.size && mayLay(running) : ctx.rows);
  const clear = boardTools ? button(t("calc.clear_board"), "", clearBoard) : null;
  const unscored = ui.mode === "board" && running ? onBoard(running, "calc-unscored") : null;
  if (clear && unscored) clear.setAttribute("aria-describedby", "calc-unscored"); // what it clears
  replace(ui.toolsRegion,
    unscored,
    clear,
    currentMove(ctx) ? button(t("calc.copy_link"), "", copyLink) : null);
}

async function copyLink() {
  const link = shareLink();
  const field = h("input", { id: "calc-link", readonly: true, value: link,
    onfocus: (event) => event.target.select() });
  ui.toolsRegion.querySelector(".field")?.remove();
  ui.toolsRegion.append(h("div", { class: "field" },
    h("label", { for: "calc-link" }, t("calc.link")), field));
  if (await copyText(link)) say(t("calc.link_copied"), "info");
  else field.focus(); // no clipboard: the link is selected for a long press
}

// Opening a link fills the calculator; other hashes (#join=) are not ours.
function fromLink() {
  const found = location.hash.match(/^#calc=(.*)$/);
  if (!found) return false;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    load(JSON.parse(decodeURIComponent(found[1])));
  } catch {
    say(t("calc.bad_link"));
  }
  return true;
}

// A move from a link or an example: {edition, move: {typed} | {board}}.
function load({ edition, move }) {
  if (!game() && app.catalog.editions.some((e) => e.code === edition)) app.edition = edition;
  const faces = context().faces;
  clearMove();
  if (move && move.board && !boardless(editionInfo(editionCode()))) {
    ui.mode = "board";
    ui.draft.board = boardmode.fromMove(move.board, faces);
  } else if (move && Array.isArray(move.typed)) {
    ui.mode = "typed";
    ui.draft.typed = typed.fromMove(move.typed, faces);
  }
}

// --- verification examples (GEN-09, §20) ---------------------------------------------------

function examples() {
  const language = document.documentElement.lang;
  const own = EXAMPLES.filter((x) => editionInfo(x.edition).language === language);
  const shown = own.length ? own : EXAMPLES;
  const editions = [...new Set(shown.map((x) => x.edition))];
  return folding({ class: "examples", open: ui.examplesOpen,
    fold: (open) => { ui.examplesOpen = open; } },
    t("calc.examples"),
    h("p", { class: "hint" }, t("calc.examples_hint")),
    editions.map((code) => [
      h("h3", {}, t(`edition.${code}`)),
      h("ul", {}, shown.filter((x) => x.edition === code).map((example) => h("li", {},
        h("button", { type: "button", class: "example", onclick: () => loadExample(example) },
          `${example.name} = ${number(example.points)}`))))]));
}

// A board example that follows earlier moves lays them first on an empty local board.
async function loadExample(example) {
  let rows = null;
  try {
    for (const before of example.before || []) {
      rows = (await api.score(example.edition, before, rows, false)).rows;
    }
  } catch (error) {
    sayRefusal(error);
    return;
  }
  if (example.move.board) boardmode.saveLocal(example.edition, rows);
  load(example);
  render();
  document.getElementById("calc-total")?.scrollIntoView({ block: "center" });
}
