// The app shell: a sticky bar with the table code, every player's total and who is to move;
// one view at a time (score a move, sheet, tiles, table; an online game: play, tiles, table;
// without a table: start and the calculator), switched by the bottom tab bar, the view kept
// in the URL hash (#view=sheet) so back/forward and reload keep it. After a view switch, starting or joining a table, or
// an action whose button went away, the focus goes to the view's heading, never to <body>.

import { number, onLanguage, playerName, t } from "./i18n.js";
import { mySeat, outOfTime, turnLine } from "./rights.js";
import { crowded } from "./standings.js";
import { app, sheet, subscribe } from "./state.js";
import { h, replace, uid } from "./ui.js";

// The sections each view shows, at a table and without one.
const AT_TABLE = {
  score: ["calculator"], sheet: ["start", "sheet"], tiles: ["tiles"],
  table: ["table", "devices", "print-links"],
};
// An online game has its own board and rack instead of the calculator and the sheet: its
// words are judged on Confirm only (WS-30), with no word check beside it.
const ONLINE = {
  play: ["start", "play"], tiles: ["tiles"], table: ["table", "devices", "print-links"],
};
const NO_TABLE = { start: ["start", "tiles", "print-links"], score: ["calculator"] };
const DEFAULT = { at: "sheet", online: "play", out: "start" };
const ICONS = { start: "⌂", score: "✚", sheet: "▤", tiles: "▦", table: "⚙", play: "◩" };
const SECTIONS = ["start", "calculator", "sheet", "play", "tiles", "table", "devices",
  "print-links"];

// A link that opened the page (#calc=, #join=) is read by its screen and replaced; the
// view it asks for is taken before that.
const firstHash = location.hash;
addEventListener("hashchange", () => route(true));

// The view's state, in one place.
const ui = {
  bar: null,
  tabs: null,
  current: null,
  atTable: null,
  focusDue: false, // a view was entered: its heading takes the focus once it shows
  acted: false, // the user tapped or typed since the focus was last placed
  placed: null, // the heading the shell focused last
  asked: null, // a view the hash asked for that the table's game does not show (yet)
  shownLayout: null, // the views the tabs were drawn for
  shownBar: "",
};

const online = () => ui.atTable && sheet()?.mode === "online";

function layout() {
  if (!ui.atTable) return NO_TABLE;
  return online() ? ONLINE : AT_TABLE;
}

const fallback = () => DEFAULT[!ui.atTable ? "out" : online() ? "online" : "at"];

function wanted(hash) {
  const params = new URLSearchParams(hash.slice(1));
  if (params.has("calc")) return "score";
  if (params.has("join")) return "start";
  return params.get("view");
}

export function mount() {
  ui.bar = document.getElementById("shell-bar");
  ui.tabs = document.getElementById("tabs");
  ui.atTable = Boolean(app.session);
  ui.shownLayout = layout();
  show(wanted(firstHash), false);
  subscribe(update);
  onLanguage(() => { drawTabs(); drawBar(); });
  for (const type of ["pointerdown", "keydown"]) {
    addEventListener(type, () => { ui.acted = true; }, { capture: true, passive: true });
  }
}

// The view to show now: the hash's if this context has it, else the default.
function route(fromHash) {
  const name = wanted(location.hash);
  if (fromHash && !name) return; // #calc= read and replaced by the calculator: stays
  show(name, fromHash);
}

export function view() {
  return ui.current;
}

// Told the name of each view as it shows (app.js loads a view's modules the first time).
const viewers = [];
export function onView(listener) {
  viewers.push(listener);
}

// Show view `name` (or the default); `focus` moves the focus to its heading.
export function show(name, focus = true) {
  const views = layout();
  const next = name in views ? name : fallback();
  // #view=play on a reload, before the kept or live sheet says the game is online
  ui.asked = name && !(name in views) ? name : null;
  const hash = `#view=${next}`;
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("calc") && !params.has("join") && location.hash !== hash) {
    history.replaceState(null, "", location.pathname + location.search + hash);
  }
  ui.current = next;
  document.body.dataset.view = next;
  for (const id of SECTIONS) {
    const section = document.getElementById(id);
    if (section) section.classList.toggle("off-view", !views[next].includes(id));
  }
  drawTabs();
  drawBar();
  for (const listener of viewers) listener(next);
  if (focus) {
    ui.focusDue = true;
    placeFocus();
  }
}

// Go to view `name` as a tab does: a history entry of its own.
export function go(name) {
  if (`#view=${name}` === location.hash) show(name);
  else location.hash = `view=${name}`; // hashchange shows it
}

// The first visible heading of the view, made focusable.
function heading() {
  for (const id of layout()[ui.current] || []) {
    const section = document.getElementById(id);
    if (!section || section.hidden) continue;
    const found = [...section.querySelectorAll("h2, h3")]
      .find((el) => el.getClientRects().length && !el.closest("[hidden]") && el.textContent.trim());
    if (found) return found;
  }
  return null;
}

function placeFocus() {
  const target = heading();
  if (!target) return; // the view is still loading: the next update places it
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: false });
  ui.placed = target;
  ui.focusDue = false;
  ui.acted = false;
}

function update() {
  const now = Boolean(app.session);
  if (now !== ui.atTable) {
    ui.atTable = now;
    ui.shownLayout = layout();
    // Starting or joining a table opens its sheet (an online game: its board); leaving it,
    // the start view.
    show(now ? fallback() : "start");
    if (now) history.replaceState(null, "", `${location.pathname}#view=${ui.current}`);
    return;
  }
  if (layout() !== ui.shownLayout) { // the game became (or stopped being) an online one
    ui.shownLayout = layout();
    const name = ui.asked && ui.asked in ui.shownLayout ? ui.asked
      : ui.current in ui.shownLayout ? ui.current : null;
    show(name ?? fallback(), !name);
    return;
  }
  drawBar();
  // After the screens redrew: a focus lost with the element that had it goes to the view's
  // heading (the next natural control), never to <body>.
  setTimeout(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    const gone = ui.placed && !ui.placed.isConnected; // the shell's own focus went with its element
    if (ui.focusDue || (lost && (ui.acted || gone))) placeFocus();
  });
}

function drawTabs() {
  if (!ui.tabs) return;
  const views = Object.keys(layout());
  replace(ui.tabs, h("ul", {}, views.map((name) => h("li", {}, h("a", {
    href: `#view=${name}`, id: `tab-${name}`, class: "tab",
    "aria-current": name === ui.current ? "page" : null,
  }, h("span", { class: "tab-icon", "aria-hidden": "true" }, ICONS[name]),
  h("span", { class: "tab-label" }, t(`shell.view_${name}`)))))));
  ui.tabs.setAttribute("aria-label", t("shell.nav"));
}

// The bar: the table code, each player's total (the one to move marked) and who is to move
// (or that they are out of time), or the open round in duplicate. Not a live region: the
// sheet's scoreboard speaks.
function drawBar() {
  if (!ui.bar || !app.catalog) return;
  const game = sheet();
  const session = app.session;
  const code = session && session.role !== "viewer" ? session.code : null;
  const key = JSON.stringify([document.documentElement.lang, code, game && [game.players,
    game.totals, game.to_move, game.ended, game.final, game.rounds && game.rounds.length,
    game.standings, game.game_clock?.stopped, game.game_clock?.lost]]);
  if (key === ui.shownBar) return;
  ui.shownBar = key;
  ui.bar.hidden = !session;
  if (!session) {
    ui.bar.replaceChildren();
    return;
  }
  const items = [];
  if (code) {
    items.push(h("p", { class: "bar-code" }, h("span", { class: "sr-only" },
      `${t("start.table_code")} `), h("strong", { class: "code" }, code)));
  }
  if (game) {
    const duplicate = game.mode === "duplicate";
    const scores = game.final ? game.final.map((row) => row.final)
      : duplicate ? Object.fromEntries(game.standings.map((s) => [s.player, s.total]))
        : game.totals;
    const moving = game.ended || duplicate || outOfTime(game) ? null : game.to_move;
    // A room too big for columns has its standings on the sheet (standings.js): the bar keeps
    // a phone's own total only, never 200 lines pinned over the director's controls. A player
    // taken out of the room is in no total.
    const left = new Set(game.left ?? []);
    const shown = game.players.map((_, p) => p)
      .filter((p) => !left.has(p) && (!crowded(game) || p === mySeat()));
    const id = uid("bar");
    items.push(
      h("ul", { class: "bar-totals", "aria-labelledby": id },
        shown.map((p) => h("li", {
          class: p === moving ? "to-move" : null, dataset: { player: p },
        }, h("span", { class: "name" }, playerName(game.players, p)), " ",
        h("span", { class: "total num" }, number(scores[p] ?? 0))))),
      h("p", { class: "bar-turn", id },
        game.ended ? t("sheet.ended")
          : duplicate ? t("shell.round", { n: number(game.rounds.length) })
            : turnLine(game)));
  } else if (!app.view) {
    // The totals' line kept until the table's view comes: the bar does not grow over the
    // views below it then.
    items.push(h("p", { class: "bar-totals", "aria-hidden": "true" }, "\u00a0"));
  }
  replace(ui.bar, items);
  ui.bar.setAttribute("aria-label", t("shell.bar"));
}

// A long hint behind a "?" button: the text shows when asked for, and stays open over
// redraws. `id` stays on the text so that aria-describedby keeps pointing at it.
const openHints = new Set();

export function helpHint(id, text) {
  const open = openHints.has(id);
  const box = h("p", { class: "hint help-text", id, hidden: !open }, text);
  const button = h("button", {
    type: "button", class: "help", id: `${id}-toggle`, "aria-expanded": String(open),
    "aria-controls": id, "aria-label": t("common.help"),
    onclick: () => {
      box.hidden = !box.hidden;
      if (box.hidden) openHints.delete(id);
      else openHints.add(id);
      button.setAttribute("aria-expanded", String(!box.hidden));
    },
  }, "?");
  return h("div", { class: "help-hint" }, button, box);
}
