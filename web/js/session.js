// Which table this phone sits at, kept in local storage so a reload rejoins at once (P-10).
// Kept: the table id, the device token and id, the role, the seat, whether the host has let
// it in yet, and the join code for a player or the host (never for a viewer, who is not
// given one). The room display keeps its own place under its own key, beside the phone's in
// the same browser. The device key is the phone's own, kept for ever, also after leaving.
// The last sheet the device saw is kept beside its place (a reload with the server away shows
// it, marked as not live) and goes with it: nothing of a sheet stays for a table left.
// A phone may hold several games (online play over days): every place it holds is kept in a
// list, the one open now under its own key; closing a game keeps it in the list with its
// sheet, leaving it forgets both.

const PHONE = "tilestream.session";
export const DISPLAY = "tilestream.display";
const DEVICE = "tilestream.device";

export function loadSession(key = PHONE) {
  try {
    const session = JSON.parse(localStorage.getItem(key));
    return session && session.table && session.token ? session : null;
  } catch {
    return null;
  }
}

export function saveSession(session, key = PHONE) {
  const before = loadSession(key);
  if (key === PHONE) keepGame(session);
  if (before && before.token !== session.token && !held(before)) {
    dropView(viewKey(before));
  }
  localStorage.setItem(key, JSON.stringify(session));
}

export function forgetSession(key = PHONE) {
  const session = loadSession(key);
  localStorage.removeItem(key);
  if (session) forgetGame(session.token);
  forgetStrayViews();
}

// The phone's games: every place it holds, the open one included, newest first.
const GAMES = "tilestream.games";

export function savedGames() {
  try {
    const games = JSON.parse(localStorage.getItem(GAMES));
    return Array.isArray(games) ? games.filter((g) => g && g.table && g.token) : [];
  } catch {
    return [];
  }
}

const MAX_GAMES = 50; // as many as the server answers for at once; the oldest go first

function keepGame(session) {
  const games = [session, ...savedGames().filter((g) => g.token !== session.token)];
  localStorage.setItem(GAMES, JSON.stringify(games.slice(0, MAX_GAMES)));
  for (const old of games.slice(MAX_GAMES)) forgetGame(old.token);
}

const held = (session) => savedGames().some((g) => g.token === session.token);

// Close the open game and keep it, with its sheet and outbox, in the list of games.
export function closeSession(key = PHONE) {
  localStorage.removeItem(key);
}

// The device left a game (or the server no longer knows its token): its place, outbox and
// sheet go.
export function forgetGame(token) {
  localStorage.setItem(GAMES, JSON.stringify(savedGames().filter((g) => g.token !== token)));
  localStorage.removeItem(outboxKey({ token }));
  localStorage.removeItem(draftKey({ token }));
  dropView(viewKey({ token }));
}

// The commands a device has sent and the server has not answered yet. Keyed by the device,
// not the table: a room display in the same browser sits at the same table.
export const outboxKey = (session) => `tilestream.outbox.${session.token}`;

// The tiles a player laid and has not sent yet, a room's slip or an online move (drafts.js),
// kept over a reload: one draft per place at a table, its round or turn named in it.
export const draftKey = (session) => `tilestream.draft.${session.token}`;

// The last view of the table the device had from the server, kept for a reload offline.
const VIEWS = "tilestream.view.";
const viewKey = (session) => VIEWS + session.token;

// Written a second after the last change, not on every change (a long game's view is a
// few hundred KB of JSON), and at once when the page goes away or out of sight.
const KEEP_MS = 1000;
// The view to keep, not written yet, and the timer that writes it.
const pending = {
  waiting: null, // {key, view}
  timer: 0,
};

export function keepView(session, view) {
  const key = viewKey(session);
  if (pending.waiting && pending.waiting.key !== key) writeView(); // another game's: its own, first
  pending.waiting = { key, view };
  if (!pending.timer) pending.timer = setTimeout(writeView, KEEP_MS);
}

function writeView() {
  clearTimeout(pending.timer);
  pending.timer = 0;
  if (!pending.waiting) return;
  const { key, view } = pending.waiting;
  pending.waiting = null;
  try {
    localStorage.setItem(key, JSON.stringify(view));
  } catch {
    // storage full: the phone keeps working live, only a reload offline shows less
  }
}

addEventListener("pagehide", writeView);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") writeView();
});

// A view forgotten is not written after all.
function dropView(key) {
  if (pending.waiting?.key === key) pending.waiting = null;
  localStorage.removeItem(key);
}

export function keptView(session) {
  if (pending.waiting?.key === viewKey(session)) return pending.waiting.view;
  try {
    const view = JSON.parse(localStorage.getItem(viewKey(session)));
    return view && typeof view.seq === "number" ? view : null;
  } catch {
    return null;
  }
}

// Views kept for a device place no longer held (a table left by the phone or the display).
export function forgetStrayViews() {
  const held = new Set([PHONE, DISPLAY].map((key) => loadSession(key))
    .filter(Boolean).concat(savedGames()).map(viewKey));
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith(VIEWS) && !held.has(key)) dropView(key);
  }
}

// This phone's lasting key, sent with every join: the same phone coming back to its seat
// (after leaving, or a lost session) is let in again without the host.
export function deviceKey() {
  let key = localStorage.getItem(DEVICE);
  if (!key || key.length < 16 || key.length > 128) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(DEVICE, key);
  }
  return key;
}
