// The websocket to the table: hello with the last seq seen, the sheet pushed live, commands
// kept in an outbox (local storage) until the server answers, so a command tapped offline
// is sent once on reconnect with the same id and lands once. While a command is unanswered
// (and a moment after) its buttons show as busy: a bounced double tap sends nothing twice.
// The last view the server sent is kept (session.js): a reload with the server away shows it
// (app.kept, marked as not live by offline.js) until the table answers again.
// The server sends the whole view once (a big one gzip-compressed, as a binary frame), then
// per change only what changed since the seq it follows; a change that does not follow this
// phone's view makes it ask for the whole view again (resync).
// A simultaneous's centre is also sent the standings across every centre (a "simultaneous"
// frame, whole each time): the latest is `app.simultaneous`, marked with its table (centre.js).
// A socket the server has sent nothing for a while also gets a "beat" (every 2 s): a socket
// that hears nothing at all for QUIET is given up and connected again, as a dropped one is.

import { LOST, Refused, clockOffset, lost } from "./api.js";
import { keepView, keptView, outboxKey } from "./session.js";
import { app, changed } from "./state.js";

const BACKOFF = [250, 500, 1000, 2000, 4000]; // ms, then 4 s apart, with jitter
const SETTLE = 700; // ms a command's buttons stay busy after its answer: a bounce lands nowhere
// Seconds with no frame at all: three of the server's beats missed. Its server (or the
// replica behind the proxy) hangs, and TCP would take minutes to say so; a new socket
// through the proxy reaches a replica that answers. Counted in ticks of a second, not as one
// timeout: a page frozen for a while (a phone asleep, a background tab) wakes to one tick,
// and the frames its socket holds arrive before any verdict.
const QUIET = 6;

// The socket and its reconnection, in one place.
const link = {
  socket: null,
  joined: false,
  attempt: 0,
  timer: null,
  previews: 0,
  resyncing: false, // the whole view was asked for and has not come yet
  told: true, // what the status listeners were told last: nothing amiss (see onStatus)
  report: () => {}, // where refusals nobody waits for go (onRefusal)
};
const waiting = new Map(); // message id → {resolve, reject}
const statusListeners = new Set();
const answered = new Map(); // command type → when this phone last had an answer for one

function outbox() {
  if (!app.session) return [];
  try {
    return JSON.parse(localStorage.getItem(outboxKey(app.session))) || [];
  } catch {
    return [];
  }
}

function saveOutbox(items) {
  localStorage.setItem(outboxKey(app.session), JSON.stringify(items));
}

function newId() {
  return crypto.randomUUID ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

// `listener(true)` once the phone is joined, or has let its table go on purpose (back to the
// list of its games, left, removed): no connection is wanted, none is missing; `listener(false)`
// when a connection it wants is lost. Only that raises the "no connection" banner.
export function onStatus(listener) {
  statusListeners.add(listener);
}

function tell(fine) {
  if (link.told === fine) return;
  link.told = fine;
  for (const listener of statusListeners) listener(fine);
}

function setOnline(online) {
  if (app.online === online && link.told === online) return;
  app.online = online;
  // The round clock counts in server time (P-41); a phone's own clock may have jumped.
  if (online) clockOffset().then((offset) => { app.clockOffset = offset; changed(); }, () => {});
  tell(online);
  changed();
}

export function connect() {
  if (!app.session || link.socket) return;
  clearTimeout(link.timer);
  if (!app.view) {
    app.view = keptView(app.session);
    app.kept = app.view !== null;
  }
  if (app.simultaneous && app.simultaneous.table !== app.session.table) app.simultaneous = null;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  link.socket = ws;
  link.resyncing = false;
  ws.onopen = () => {
    const { table, token } = app.session;
    ws.send(JSON.stringify({ type: "hello", table, token, after: app.view ? app.view.seq : 0 }));
  };
  ws.binaryType = "arraybuffer";
  // The watchdog, from the start: a handshake or a hello never answered counts too. The
  // socket is given up at once, not through its close: the closing handshake would wait for
  // the hung server.
  let quiet = 0; // ticks since the last frame
  const watchdog = setInterval(() => {
    if (link.socket !== ws) {
      clearInterval(watchdog);
    } else if (++quiet >= QUIET) {
      clearInterval(watchdog);
      dropped();
      ws.close();
    }
  }, 1000);
  // One after another, as they came: a compressed state is inflated before the next frame
  // (a change that follows it) is read.
  let inbox = Promise.resolve();
  ws.onmessage = (event) => {
    quiet = 0;
    const frame = event.data;
    inbox = inbox
      .then(() => (typeof frame === "string" ? frame : inflate(frame)))
      .then((text) => { if (link.socket === ws) receive(JSON.parse(text)); })
      .catch(() => { if (link.socket === ws) ws.close(); }); // unreadable: connect again, anew
  };
  ws.onclose = () => {
    if (link.socket === ws) dropped();
  };
}

// The socket is gone: say so, fail the previews, connect again after a pause (the outbox
// is sent again once joined).
function dropped() {
  link.socket = null;
  link.joined = false;
  link.resyncing = false;
  setOnline(false);
  for (const [id, pending] of waiting) {
    if (id.startsWith("p:")) {
      waiting.delete(id);
      pending.reject(new Refused("offline"));
    }
  }
  if (app.session) {
    const pause = BACKOFF[Math.min(link.attempt, BACKOFF.length - 1)];
    link.attempt += 1;
    link.timer = setTimeout(connect, pause * (0.75 + Math.random() / 2));
  }
}

export function disconnect() {
  clearTimeout(link.timer);
  const ws = link.socket;
  link.socket = null;
  link.joined = false;
  if (ws) ws.close();
  app.online = false;
  tell(true); // let go on purpose: nothing is lost
  changed();
}

// Reconnect at once when the phone wakes up or its network comes back.
export function nudge() {
  if (app.session && !link.socket) {
    link.attempt = 0;
    connect();
  }
}

// A state over a few KiB comes gzip-compressed (server/live/sheets.py).
async function inflate(data) {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

// The view a change makes: each value set at its path, then each stretch of a list spliced.
// What it touches is copied on the way down, the rest shared with the view before it.
export function patched(view, change) {
  const fresh = new WeakSet();
  const own = (value) => {
    const copy = Array.isArray(value) ? [...value] : { ...value };
    fresh.add(copy);
    return copy;
  };
  const root = own(view);
  const parentOf = (path) => {
    let node = root;
    for (const step of path.slice(0, -1)) {
      if (!fresh.has(node[step])) node[step] = own(node[step]);
      node = node[step];
    }
    return node;
  };
  for (const [path, value] of change.set) parentOf(path)[path[path.length - 1]] = value;
  for (const [path, start, remove, items] of change.splice) {
    const parent = parentOf(path);
    const key = path[path.length - 1];
    if (!fresh.has(parent[key])) parent[key] = own(parent[key]);
    parent[key].splice(start, remove, ...items);
  }
  return root;
}

// The screens drawn again for a frame from the server. A phone slower to draw than frames
// come (a director's in a room of 200 as the slips come in: slowed 4×, 20 slips a second, it
// drew each and showed the last 13 s late; bench.director_phone) draws the frames that came
// meanwhile once, at the next animation frame: when its last drawing took more than a frame
// and ended less long ago than it took (a hidden page, which has no animation frames: after
// the frames waiting). A drawing takes its script and the browser's layout and paint of what
// it changed. A phone that draws within a frame draws each.
const FRAME = 16; // ms
const drawing = { at: -Infinity, took: 0, due: false };

function draw() {
  if (drawing.due) return; // the drawing due shows this frame too
  const run = () => {
    drawing.due = false;
    const started = performance.now();
    changed();
    drawing.at = performance.now();
    drawing.took = drawing.at - started;
    // The browser lays out and paints what was drawn at its next frame, after the frame's
    // callbacks: that is part of the drawing's cost, most of it in a room of 200 (counted
    // to the drawing after it, when another came first: the phone is as busy).
    requestAnimationFrame(() => {
      const frame = performance.now();
      setTimeout(() => {
        drawing.at = performance.now();
        drawing.took += drawing.at - frame;
      });
    });
  };
  if (drawing.took <= FRAME || performance.now() - drawing.at >= drawing.took) run();
  else {
    drawing.due = true;
    if (document.hidden) setTimeout(run);
    else requestAnimationFrame(run);
  }
}

function receive(message) {
  if (message.type === "beat") return; // the server is there: the watchdog heard it
  if (message.type === "simultaneous") {
    if (app.session) app.simultaneous = { ...message, table: app.session.table };
    draw();
    return;
  }
  if (message.type === "change") {
    if (!app.view || app.kept || app.view.seq !== message.after) {
      if (!link.resyncing) { // one ask: the changes meanwhile follow a view it does not have
        link.resyncing = true;
        link.socket.send(JSON.stringify({ type: "resync" }));
      }
      return;
    }
    app.view = patched(app.view, message);
    if (app.session) keepView(app.session, app.view);
    draw();
    return;
  }
  if (message.type === "state") {
    // A view older than this phone's is taken only when it asked for the whole view.
    if (!app.view || app.kept || link.resyncing || message.seq >= app.view.seq) {
      app.view = message.view;
    }
    app.kept = false;
    link.resyncing = false;
    if (app.session) keepView(app.session, app.view); // none once the phone has left
    if (!link.joined) {
      link.joined = true;
      link.attempt = 0;
      flush();
      setOnline(true);
    }
    draw();
    return;
  }
  const pending = waiting.get(message.id);
  if (message.type === "accepted" || message.type === "rejected") settle(message.id);
  if (message.type === "rejected" && LOST.has(message.code)) {
    lost(message.code);
    return;
  }
  if (!pending) {
    if (message.type === "rejected") link.report(message.code, message.params);
    return;
  }
  waiting.delete(message.id);
  if (message.type === "rejected") pending.reject(new Refused(message.code, message.params));
  else pending.resolve(message);
}

// A command answered: out of the outbox; its buttons come back after a moment.
function settle(id) {
  const items = outbox();
  const done = items.find((item) => item.id === id);
  if (!done) return;
  saveOutbox(items.filter((item) => item !== done));
  answered.set(done.command.type, Date.now());
  changed();
  setTimeout(changed, SETTLE);
}

// Is a command of one of these types on its way (or just answered)? Its buttons are busy:
// a bounced second tap lands neither twice nor on the button redrawn for the next turn.
export function inFlight(...types) {
  const now = Date.now();
  return types.some((type) => now - (answered.get(type) ?? -Infinity) < SETTLE)
    || unanswered(...types);
}

// Is a command of one of these types still waiting for the server's answer?
export function unanswered(...types) {
  return outbox().some((item) => types.includes(item.command.type));
}

// Did the button `id` change what it does a moment ago? Then it is busy too: when another
// phone's command turns the host's Start into Pause, a tap that was meant for Start and
// lands just after lands nowhere, as a bounce does. A button's first meaning is no change.
const meanings = new Map(); // button id → {meaning, since}
export function justChanged(id, meaning) {
  const shown = meanings.get(id);
  if (shown?.meaning === meaning) return Date.now() - shown.since < SETTLE;
  meanings.set(id, { meaning, since: shown ? Date.now() : -Infinity });
  if (!shown) return false;
  setTimeout(changed, SETTLE);
  return true;
}

function flush() {
  for (const item of outbox()) link.socket.send(JSON.stringify({ type: "command", ...item }));
}

// Record a command; resolves with {seq} once stored, rejects with the server's refusal.
export function send(command) {
  const id = newId();
  saveOutbox([...outbox(), { id, command }]);
  const answer = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
  if (link.joined) link.socket.send(JSON.stringify({ type: "command", id, command }));
  changed(); // its buttons show as busy at once
  return answer;
}

// Score a move on the table's board without recording it.
export function preview(move, check) {
  if (!link.joined) return Promise.reject(new Refused("offline"));
  const id = `p:${++link.previews}`;
  const answer = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
  link.socket.send(JSON.stringify({ type: "preview", id, move, check }));
  return answer;
}

// Where refusals nobody waits for go (set by the app: a message on screen).
export function onRefusal(handler) {
  link.report = handler;
}
