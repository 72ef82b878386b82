// The service worker: the app shell offline. Every GET of the app's own files and of
// /api/catalog goes to the network first (a phone online always has the newest pages) and
// its answer is kept; when the server is away (or slower than WAIT) the kept copy answers, so
// a reload shows the app, and the phone shows the last sheet it kept itself (live.js) with
// its unsent commands. A table's own answers (/api/tables/…: views, the game as text, the
// QR code, the phones) are never kept, nor any other /api/ call, /health, the websocket or
// anything but GET: nothing of a sheet outlives the phone leaving its table.
//
// The server serves this file with its release said and the shell's scripts, styles and
// icons under the release's prefix (/v/RELEASE/js/…, server/http/static.py): a release
// changes these bytes, so the phone installs the new worker, which keeps the new release's
// files and, once in control, drops the old release's. A file under the prefix never changes:
// a kept one answers at once.

const RELEASE = "unversioned";
const FILES = `/v/${RELEASE}/`;
const CACHE = "tilestream-shell-1";
// The views' modules that load only when their view first shows are kept from the start,
// so every view opens offline even if it was never opened online.
const SHELL = [
  "/", "/display.html", "/print.html", "/rules.html", "/manifest.webmanifest", "/api/catalog",
  "/favicon.ico", "/icons/icon.svg", "/icons/icon-192.png",
  "/js/calculator.js", "/js/typed.js", "/js/boardmode.js", "/js/board.js", "/js/examples.js",
  "/js/sheet.js", "/js/shared-board.js", "/js/duplicate.js", "/js/extras.js", "/js/room.js",
  "/js/slip.js", "/js/drafts.js", "/js/turn.js", "/js/points.js",
  "/js/clock.js",
  "/js/gameclock.js", "/css/gameclock.css",
  "/js/penalty.js", "/js/endgame.js", "/js/challenge.js", "/js/speech.js",
  "/js/play.js", "/js/dock.js", "/js/playinfo.js", "/js/rack.js", "/js/laying.js",
  "/js/games.js", "/js/record.js",
  "/css/calculator.css", "/css/duplicate.css", "/css/dup-names.css", "/css/play.css",
  "/css/rack.css",
  "/js/rules-page.js", "/css/rules-page.css",
  "/js/devices.js", "/js/arbiter.js", "/js/references.js",
  "/js/place.js",
  "/js/roster.js", "/js/standings.js", "/css/crowd.css", "/css/recovery.css",
  "/simultaneous.html", "/js/simultaneous.js", "/js/simultaneous-view.js", "/js/centre.js",
  "/js/when.js", "/js/print-simultaneous.js", "/css/simultaneous.css",
];
const WAIT = 4000; // ms the network has before a kept copy answers instead

function keeps(url) {
  if (url.origin !== self.location.origin) return false;
  const path = url.pathname;
  if (path.startsWith("/api/")) return path === "/api/catalog";
  return path !== "/health" && path !== "/ws" && path !== "/sw.js";
}

// Best effort: a file missing from the server (renamed meanwhile) costs nothing else. With
// `fresh` a page, the manifest and the catalog are fetched again even if kept: the kept page
// of the release before names files this worker drops.
async function keepAll(urls, fresh = false) {
  const cache = await caches.open(CACHE);
  await Promise.allSettled(urls.map(async (url) => {
    const again = fresh && !new URL(url, self.location.origin).pathname.startsWith(FILES);
    if (again || !(await cache.match(url, { ignoreVary: true }))) await cache.add(url);
  }));
}

// Another release's files, and any cache of an older worker. One cache across releases (not
// one each): a phone between two workers finds every page in the same place.
async function dropOld() {
  const keys = await caches.keys();
  await Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key)));
  const cache = await caches.open(CACHE);
  await Promise.all((await cache.keys()).map((request) => {
    const path = new URL(request.url).pathname;
    return path.startsWith("/v/") && !path.startsWith(FILES) ? cache.delete(request) : null;
  }));
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepAll(SHELL, true).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(dropOld().then(() => self.clients.claim()));
});

// The page names the files it loaded before this worker controlled it (offline.js).
self.addEventListener("message", (event) => {
  if (event.data?.type !== "keep" || !Array.isArray(event.data.urls)) return;
  const urls = event.data.urls.map((url) => new URL(url, self.location.origin))
    .filter(keeps).map((url) => url.pathname + url.search);
  event.waitUntil(keepAll([...new Set(urls)]));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !keeps(new URL(request.url))) return; // the browser's own way
  event.respondWith(answer(request, event));
});

async function answer(request, event) {
  if (new URL(request.url).pathname.startsWith(FILES)) {
    const kept = await (await caches.open(CACHE)).match(request, { ignoreVary: true });
    if (kept) return kept;
  }
  const network = fetch(request);
  event.waitUntil(network.then((response) => {
    if (!response.ok || response.type !== "basic") return undefined;
    const copy = response.clone(); // before the page reads the body
    return caches.open(CACHE).then((cache) => cache.put(request, copy));
  }).catch(() => {}));
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(reject, WAIT); });
  try {
    return await Promise.race([network, late]);
  } catch {
    // A page opened with a query (the print pages) is the same file.
    const cache = await caches.open(CACHE);
    const kept = await cache.match(request, { ignoreVary: true })
      ?? await cache.match(request, { ignoreVary: true, ignoreSearch: request.mode === "navigate" });
    return kept ?? network;
  } finally {
    clearTimeout(timer);
  }
}
