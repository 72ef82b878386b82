// The host's side of who sits at the table: phones asking for a taken seat, counted on a
// badge that opens their list ("De tweede telefoon van Bas vraagt om aan te schuiven": let
// it in or refuse it) — in the page's flow, so that however many ask, nothing of the
// director's screen is covered (issue 25: 200 phones behind one router) — and the table card
// with the setting of who writes the sheet and every device at the table, its seat, what
// tells it apart (the name it gave itself, or its model and when it joined: issue 27), when
// last seen, each with Remove; first the host's own phone, with the seat it holds. Nobody
// but the host gets `view.devices`. In a
// duplicate room each device may be made a co-director (every act of the director's, its
// phone gets the devices too), and the director makes a recovery code for a dead phone.

import { tableDevices } from "./api.js";
import { formatOf, number, onLanguage, playerName, t } from "./i18n.js";
import { inFlight, send } from "./live.js";
import { recoveryCode } from "./recovery.js";
import { writers } from "./rights.js";
import { writersChoice } from "./start.js";
import { app, isHost, isRoom, serverNow, sheet, subscribe } from "./state.js";
import { folding, h, replace, say, sayRefusal } from "./ui.js";

const REFRESH = 5000; // ms between two looks at "last seen" while the card is open
const SEATING = ["admit_device", "remove_device", "appoint_director"];

// The view's state, in one place.
const ui = {
  section: null,
  open: false,
  asking: false, // the list of phones asking for a seat is open
  listed: null, // GET /api/tables/{table}/devices, while the card is open
  loadedFor: "", // the devices (as the view had them) the list was loaded for
  loading: false, // a request for the list is out
  stale: false, // and the devices changed since it went
  timer: null,
  shown: "",
  heard: new Set(), // the asking phones a message said already
};

export function mount(element) {
  ui.section = element;
  subscribe(render);
  onLanguage(() => { ui.shown = ""; render(); });
}

function render() {
  const devices = isHost() && app.view ? app.view.devices : null;
  if (!devices) {
    stop();
    if (ui.shown) ui.section.replaceChildren();
    ui.shown = "";
    return;
  }
  const now = JSON.stringify(devices);
  if (ui.open && now !== ui.loadedFor) load(now);
  const game = sheet();
  const key = JSON.stringify([now, writers(), game?.players, game?.mode, game && isRoom(game),
    app.view.host_seat, ui.open, ui.asking, ui.listed, inFlight(...SEATING),
    inFlight("set_writers")]);
  if (key === ui.shown) return;
  ui.shown = key;
  replace(ui.section, requests(devices), card(devices));
}

// One request at a time: while a crowd joins, the devices change faster than the list comes
// back, and overlapping answers could land out of order, an older one last. Changes while a
// request is out are loaded once it is back, all in one more request.
async function load(key = JSON.stringify(app.view?.devices ?? null)) {
  ui.loadedFor = key;
  if (ui.loading) {
    ui.stale = true;
    return;
  }
  ui.loading = true;
  try {
    do {
      ui.stale = false;
      const listed = await tableDevices(app.session);
      if (ui.open) ui.listed = listed; // not when the card was folded shut meanwhile
    } while (ui.stale && ui.open);
  } catch (error) {
    if (error.code !== "offline") sayRefusal(error);
  } finally {
    ui.loading = false;
  }
  ui.shown = ""; // the ages ("5 seconds ago") move on
  render();
}

function stop() {
  clearInterval(ui.timer);
  ui.timer = null;
  ui.open = false;
  ui.listed = null;
  ui.loadedFor = "";
  ui.stale = false;
}

// The card folded open or shut: open, the list is loaded now and again every REFRESH.
function fold(open) {
  ui.open = open;
  clearInterval(ui.timer);
  ui.timer = null;
  if (open) {
    load();
    ui.timer = setInterval(load, REFRESH);
  } else {
    ui.listed = null;
    ui.loadedFor = "";
  }
}

// The seat the host's own phone holds at a classic table, or null: it keeps the score.
function hostSeat() {
  const game = sheet();
  const seat = app.view.host_seat;
  return game && game.mode === "classic" && Number.isInteger(seat) && seat < game.players.length
    ? seat : null;
}

// What tells a device apart from another of its seat: the name it gave itself, else the
// model its browser told when it joined.
const what = (device) => device.label || device.model || t("devices.unknown_model");

// A seat's name ("Bas"), or "Kijker" for a viewer.
function seatName(device) {
  if (device.role === "host" && device.seat === null) return t("devices.co_director");
  if (device.role === "viewer" || device.seat === null) return t("devices.viewer");
  return playerName(sheet()?.players || [], device.seat);
}

function act(command) {
  send(command).catch(sayRefusal);
}

// What a phone asks for: a seat (its player's, or the host's own), or to watch.
const asks = (device) => (device.seat === null ? t("devices.asks_viewer")
  : t(device.seat === hostSeat() ? "devices.asks_host_seat" : "devices.asks",
    { name: seatName(device) }));

// The phones that ask for a taken seat: a badge with their count, on every view above the
// view's own content, that opens their list, each with the host's two answers.
function requests(devices) {
  const busy = inFlight(...SEATING);
  const asking = devices.filter((d) => !d.admitted);
  if (!asking.length) {
    ui.asking = false;
    return null;
  }
  // A new request is said at the top of the screen too, which stays in sight however far
  // down the host has scrolled; the badge is at the top of the view.
  const fresh = asking.filter((d) => !ui.heard.has(d.id));
  for (const device of fresh) ui.heard.add(device.id);
  if (fresh.length) say(asks(fresh[fresh.length - 1]), "info");
  return h("div", { class: "requests", id: "seat-requests" },
    h("div", { role: "status" }, h("button", { // a new request is heard, not only seen
      type: "button", class: "requests-badge", id: "requests-badge",
      "aria-label": t("devices.requests", { n: asking.length }),
      "aria-expanded": String(ui.asking), "aria-controls": "requests-list",
      onclick: () => { ui.asking = !ui.asking; render(); },
    }, t("devices.requests_title"), " ", h("span", { class: "count" }, number(asking.length)))),
    ui.asking ? h("ul", { class: "request-list", id: "requests-list" }, asking.map((device) =>
      h("li", { class: "request", dataset: { device: device.id } },
        h("p", {}, asks(device)),
        h("p", { class: "hint device-what" }, `${what(device)} · ${clock(device.since)}`),
        h("div", { class: "actions" },
          h("button", {
            type: "button", class: "primary", disabled: busy,
            onclick: () => act({ type: "admit_device", device: device.id }),
          }, t("devices.admit")),
          h("button", {
            type: "button", disabled: busy,
            onclick: () => act({ type: "remove_device", device: device.id }),
          }, t("devices.refuse")))))) : null);
}

// The table card: who writes the sheet, and the devices at the table.
function card(devices) {
  const rows = ui.listed || devices.map((d) => ({ ...d, last_seen: undefined }));
  const busy = inFlight(...SEATING);
  const room = sheet()?.mode === "duplicate"; // co-directors and recovery are a room's
  return folding({ class: "card devices", open: ui.open, summaryId: "devices-summary", fold },
    t("devices.title"),
    // Once a room's racks are drawn every phone hands in its own slips (DUP-04 is a table's):
    // who writes the sheet is no longer a choice.
    room && isRoom(sheet()) ? null : writersChoice("devices-writers", writers(),
      (value) => act({ type: "set_writers", writers: value })),
    h("h3", {}, t("devices.list")),
    hostRow(room),
    rows.length ? h("ul", { class: "device-list" }, rows.map((device) => h("li", {
      class: device.admitted ? "device" : "device asking", dataset: { device: device.id },
    },
    h("p", { class: "device-name" }, seatName(device),
      device.admitted ? null : h("span", { class: "badge" }, t("devices.asking")),
      device.role === "host" && device.seat !== null
        ? h("span", { class: "badge" }, t("devices.co_director")) : null),
    h("p", { class: "device-what" }, what(device)),
    h("p", { class: "hint" }, seen(device)),
    room && device.admitted && device.role !== "host" ? h("button", {
      type: "button", class: "appoint", disabled: busy,
      "aria-label": t("devices.appoint_named", { name: seatName(device) }),
      onclick: () => act({ type: "appoint_director", device: device.id }),
    }, t("devices.appoint")) : null,
    h("button", {
      type: "button", class: "danger", disabled: busy,
      "aria-label": t("devices.remove_named", { name: seatName(device) }),
      onclick: () => {
        if (confirm(t("devices.remove_confirm", { name: seatName(device) }))) {
          act({ type: "remove_device", device: device.id });
        }
      },
    }, t("devices.remove"))))) : h("p", { class: "hint" }, t("devices.none")),
    room ? recoveryCode() : null);
}

// The host's own phone, first: the seat it holds, or that it keeps the score — in a
// duplicate game, that it directs. It is no device of the list (the log knows the host
// apart): nothing to remove or let in.
function hostRow(room) {
  const seat = hostSeat();
  const role = room ? "devices.directs" : "devices.keeps_score";
  return h("p", { class: "device host-device", id: "host-device" },
    h("span", { class: "device-name" }, seat === null ? t(role)
      : playerName(sheet().players, seat)),
    " ", h("span", { class: "badge" }, t(room ? "devices.director_phone" : "devices.host_phone")));
}

// When a device joined, to the second: two phones of a seat that joined the same minute
// still read apart.
const clock = (time) => formatOf(Intl.DateTimeFormat,
  { hour: "2-digit", minute: "2-digit", second: "2-digit" }).format(new Date(time));

// "Sinds 14:05:12 · laatst gezien 5 seconden geleden"
function seen(device) {
  const since = t("devices.since", { time: clock(device.since) });
  if (device.last_seen === undefined) return since;
  if (device.last_seen === null) return `${since} · ${t("devices.not_seen")}`;
  const seconds = Math.max(0, Math.round((serverNow() - device.last_seen) / 1000));
  const ago = formatOf(Intl.RelativeTimeFormat, { numeric: "auto" });
  const when = seconds < 60 ? ago.format(-seconds, "second")
    : seconds < 3600 ? ago.format(-Math.round(seconds / 60), "minute")
      : ago.format(-Math.round(seconds / 3600), "hour");
  return `${since} · ${t("devices.last_seen", { when })}`;
}
