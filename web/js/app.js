// The phone app: loads strings and the catalog, rejoins the table kept in local storage
// (P-10), and lets each screen render from the shared state.

import { call, onLost } from "./api.js";
import { LANGUAGES, onLanguage, preferredLanguage, setLanguage, t } from "./i18n.js";
import { connect, nudge, onRefusal, onStatus } from "./live.js";
import "./offline.js"; // the service worker, the sheet kept for a reload offline
import * as printLinks from "./print-links.js";
import { refusalText } from "./refusals.js";
import { keptView, loadSession } from "./session.js";
import * as shell from "./shell.js";
import * as start from "./start.js";
import { app, changed, sheet, subscribe } from "./state.js";
import * as tiles from "./tiles.js";
import { h, say, stylesheet } from "./ui.js";

// The sheets load when a game of their kind first shows: the start page does without them.
// Their styles are named here, every one, and load with the modules: a module that asked for
// its own would ask a round trip later, once it had loaded (the game clock's, the
// simultaneous's cards in a room; the room display's page links the latter itself).
const SHEETS = {
  classic: () => Promise.all([import("./sheet.js"), stylesheet("/css/gameclock.css")])
    .then(([module]) => module),
  duplicate: () => Promise.all([import("./duplicate.js"), stylesheet("/css/duplicate.css"),
    stylesheet("/css/dup-names.css"), stylesheet("/css/rack.css"), stylesheet("/css/crowd.css"),
    stylesheet("/css/simultaneous.css")]).then(([module]) => module),
  online: () => Promise.all([import("./play.js"), stylesheet("/css/play.css"),
    stylesheet("/css/rack.css"), stylesheet("/css/gameclock.css")]).then(([module]) => module),
};

// What each kind of sheet imports beyond the start page's modules, fetched at once for a
// phone that reopens on its sheet rather than import by import (as index.html does for the
// start page's). One left out here only loads later.
const IMPORTS = {
  classic: ["sheet", "gameclock", "speech", "shared-board", "penalty", "points", "endgame",
    "challenge"],
  duplicate: ["duplicate", "room", "slip", "laying", "rack", "typed", "board", "clock",
    "roster", "place", "arbiter", "references", "centre", "points"],
  online: ["play", "dock", "playinfo", "rack", "laying", "typed", "board", "endgame",
    "gameclock", "games"],
};

function preload(mode) {
  for (const name of IMPORTS[mode]) {
    const href = new URL(`./${name}.js`, import.meta.url).pathname;
    document.head.append(h("link", { rel: "modulepreload", href }));
  }
}

async function boot() {
  app.session = loadSession();
  // A phone back at its table opens on the sheet it kept: the sheet's modules (and the
  // host's devices card) load with the strings and the catalog, and are drawn with the rest
  // at once rather than each after it (the first sheet is what a phone waits for).
  const kept = app.session && keptView(app.session);
  const mode = kept?.sheet?.mode;
  if (SHEETS[mode]) preload(mode);
  const [catalog, , early, devices] = await Promise.all([
    call("/api/catalog"), setLanguage(preferredLanguage()),
    SHEETS[mode] ? modules(mode).catch(() => null) : null,
    kept?.devices ? import("./devices.js").catch(() => null) : null]);
  app.catalog = catalog;
  languageSwitch();
  start.mount(document.getElementById("start"), document.getElementById("table"));
  subscribe(loadSheet);
  subscribe(loadDevices);
  // The tile panel and the print links are views a phone rarely opens on: drawn in a task of
  // their own once the first one is on screen, which then comes sooner.
  setTimeout(() => {
    tiles.mount(document.getElementById("tiles"));
    printLinks.mount(document.getElementById("print-links"));
  });
  if (early) mountSheet(mode, early);
  if (devices) mountDevices(devices);
  shell.onView(loadView);
  shell.mount();
  onStatus(banner);
  // A command nobody waits for any more (sent from the outbox after a reload) is said too.
  onRefusal((code, params) => say(refusalText(code, params)));
  onLost((code) => start.leave(`error.${code}`)); // removed by the host, or a dead token
  if (app.session) connect();
  addEventListener("online", nudge);
  document.addEventListener("visibilitychange", () => document.hidden || nudge());
  changed();
  document.body.dataset.ready = "true"; // the browser tests and bench wait for this
}

// The views loaded when first shown (their promises): the start view does without the
// calculator, and only the host's phone loads the devices.
const loaded = { calculator: null, devices: null };

// The calculator loads when its view first shows.
function loadView(name) {
  if (name !== "score" || loaded.calculator) return;
  loaded.calculator = Promise.all([import("./calculator.js"), stylesheet("/css/calculator.css")])
    .then(([module]) => {
      module.mount(document.getElementById("calculator"));
      changed();
    });
}

// A kind of sheet's modules, loaded once; and the sheets mounted, once each.
const loading = {};
const modules = (mode) => (loading[mode] ??= SHEETS[mode]());
const mounted = {};
function loadSheet() {
  const mode = sheet()?.mode;
  if (!mode || mounted[mode] || !SHEETS[mode]) return;
  mounted[mode] = modules(mode).then((module) => {
    mountSheet(mode, module);
    changed();
  });
}

function mountSheet(mode, module) {
  mounted[mode] ??= Promise.resolve();
  module.mount(document.getElementById(mode === "online" ? "play" : "sheet"));
}

// Only the host sees the devices at the table: the other phones never load that card.
function loadDevices() {
  if (loaded.devices || !app.view?.devices) return;
  loaded.devices = import("./devices.js").then((module) => {
    mountDevices(module);
    changed();
  });
}

function mountDevices(module) {
  loaded.devices ??= Promise.resolve();
  module.mount(document.getElementById("devices"));
}

function languageSwitch() {
  const select = document.getElementById("language");
  const fill = () => select.replaceChildren(...LANGUAGES.map((code) =>
    h("option", { value: code, selected: code === document.documentElement.lang },
      t(`language.${code}`))));
  fill();
  onLanguage(fill);
  select.addEventListener("change", () => setLanguage(select.value, true).then(changed));
}

// A quiet line while the connection is lost; it goes when the phone is back.
const lost = { timer: null };
function banner(online) {
  const line = document.getElementById("banner");
  clearTimeout(lost.timer);
  if (online) {
    line.hidden = true;
    return;
  }
  // A blink of a reconnect is not worth a banner.
  lost.timer = setTimeout(() => {
    line.textContent = t("common.offline");
    line.hidden = false;
  }, 1500);
}

boot();
