// The app's state in one place; every screen renders from it when told it changed.
//   catalog  editions, rule sets and modes (with their limits) from /api/catalog
//   session  {table, token, role, seat, code} of the table this phone sits at, or null
//   view     the TableView the server sent last (view.sheet is null before the first game)
//   online   whether the websocket is open and joined
//   kept     whether the view is the one kept from before a reload, not yet live (live.js)

export const app = {
  catalog: null,
  session: null,
  view: null,
  online: false,
  kept: false,
  clockOffset: 0, // server time − this phone's time, in ms
  edition: null, // the edition picked while no game runs (the calculator's menu)
  simultaneous: null, // a centre's standings across every centre, as last sent (centre.js)
};

const listeners = new Set();

export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function changed() {
  for (const listener of listeners) listener(app);
}

export function edition(code) {
  return app.catalog.editions.find((e) => e.code === code);
}

// Has any round of `game` had a rack: is it a room's game?
export const isRoom = (game) => game.rounds.some((played) => played.rack.length > 0);

export function rulesOf(code) {
  return app.catalog.rules.find((r) => r.code === code);
}

// A way to play as the server's catalog gives it ("classic", "duplicate", "online"): its
// player counts, the rule sets made for it (its default first) and, online, the times per
// move besides none.
export function modeOf(code, catalog = app.catalog) {
  return catalog.modes.find((m) => m.code === code);
}

// The player counts a game of `mode` (from modeOf) may have, fewest first.
export function playerCounts(mode) {
  return Array.from({ length: mode.max_players - mode.min_players + 1 },
    (_, i) => mode.min_players + i);
}

// The edition picked on this phone while no game runs; at first the phone's language's.
export function chosenEdition() {
  if (!app.edition) {
    const language = document.documentElement.lang;
    app.edition = app.catalog.editions.some((e) => e.code === language) ? language : "en";
  }
  return app.edition;
}

export function sheet() {
  return app.view ? app.view.sheet : null;
}

// May this phone change the sheet, and direct (start, clock, tops)?
export function canWrite() {
  return app.session !== null && app.session.role !== "viewer";
}

// The director, or a co-director (issue 25): the server sends the devices to them alone, so
// a phone made co-director directs from its next view on, whatever it joined as.
export function isHost() {
  return app.session !== null && (app.session.role === "host" || Boolean(app.view?.devices));
}

// Server time now, for the round clock (P-41).
export function serverNow() {
  return Date.now() + app.clockOffset;
}
