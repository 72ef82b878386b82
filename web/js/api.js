// HTTP calls to the table server. A refusal comes back as an Error with the server's code;
// a token the server no longer takes (a removed device) is handed to `onLost`'s handler.

import { deviceKey } from "./session.js";

export class Refused extends Error {
  constructor(code, params = {}, message = "") {
    super(message || code);
    this.code = code;
    this.params = params;
  }
}

// The codes that mean this device is no longer at its table (or the table is gone, P-11).
export const LOST = new Set(["bad_token", "device_removed", "director_replaced", "table_deleted"]);
let lostHandler = () => {};

export function onLost(handler) {
  lostHandler = handler;
}

export function lost(code) {
  lostHandler(code);
}

export async function call(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  let answer;
  try {
    answer = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Refused("offline");
  }
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const refused = new Refused(data.code || "unknown", data.params || {}, data.message);
    if (token && [401, 410].includes(answer.status) && LOST.has(refused.code)) lost(refused.code);
    throw refused;
  }
  return data;
}

export const createTable = () => call("/api/tables", { method: "POST" });

// The seats of the table with `code`: {mode, seats: [{seat, name, taken}]}.
export const tableSeats = (code) => call("/api/seats", { method: "POST", body: { code } });

export const joinTable = (code, role, seat) => call("/api/join", {
  method: "POST",
  body: { code, role, seat: role === "player" ? seat : null, device: deviceKey() },
});

// A player registering in a duplicate room by name (no seat): the director's typed name is
// that player's seat, a new name a new player, and this phone's own seat comes back to it.
export const joinByName = (code, name) => call("/api/join", {
  method: "POST", body: { code, role: "player", name, device: deviceKey() },
});

export const tableView = (session) =>
  call(`/api/tables/${session.table}/view`, { token: session.token });

// The host's list of the devices at the table, with when each was last seen.
export const tableDevices = (session) =>
  call(`/api/tables/${session.table}/devices`, { token: session.token });

// The host deletes the table (P-11): its log, code and devices; every phone is told.
export const deleteTable = (session) =>
  call(`/api/tables/${session.table}`, { method: "DELETE", token: session.token });

// Score a move with no table (P-13): the server answers, the phone never scores itself.
export const score = (edition, move, rows, check) =>
  call("/api/score", { method: "POST", body: { edition, move, rows: rows || [], check } });

// How far this phone's clock is from the server's, from the middle of the quickest of a few
// round trips: a slow one (a phone busy loading, a crowded network) is off by half its
// length, and the phones at a table must show the game clock alike (issue 27).
// The trips wait until the phone is idle: timed while it still draws the page they would be
// slow, and they would hold up its first sheet (the page's slowest part, Lighthouse says).
const TIME_SAMPLES = 4;
const IDLE_WAIT = 2000; // ms at most before the trips start anyway

export async function clockOffset() {
  await new Promise((resolve) => {
    if ("requestIdleCallback" in window) requestIdleCallback(resolve, { timeout: IDLE_WAIT });
    else setTimeout(resolve, 0);
  });
  let best = null;
  for (let i = 0; i < TIME_SAMPLES; i += 1) {
    const sent = Date.now();
    const { now } = await call("/api/time");
    const back = Date.now();
    const trip = back - sent;
    if (!best || trip < best.trip) best = { trip, offset: now - (sent + back) / 2 };
  }
  return best.offset;
}
