// Installable and resilient: registers the service worker (sw.js), which keeps the app's
// files for a reload with the server away, and names it the files this page loaded before
// it was in control. A phone that reloads while the table cannot be reached shows the sheet
// it kept (live.js, app.kept) under a banner saying it is not live; the banner goes when
// the table answers (app.js's own banner takes over from then on).

import { t } from "./i18n.js";
import { forgetStrayViews } from "./session.js";
import { app, subscribe } from "./state.js";

const DELAY = 1000; // ms: a reload that reaches the table at once shows no banner

function register() {
  navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      const keep = (entries) => registration.active?.postMessage({
        type: "keep", urls: entries.map((entry) => entry.name),
      });
      keep([{ name: location.pathname + location.search },
        ...performance.getEntriesByType("resource")]);
      // Modules loaded later (a sheet, a panel) before the worker took over this page.
      new PerformanceObserver((list) => keep(list.getEntries()))
        .observe({ type: "resource" });
    }, () => {}); // no worker (a private window, an old browser): the app works online
}

// Once the first screen is drawn (the app's first change) and the phone idle: registering
// costs the page a moment, which the first sheet a phone shows should not wait for. The
// page's load comes sooner than that sheet, whose modules, strings and catalog load after it.
function soon() {
  if ("requestIdleCallback" in window) requestIdleCallback(register, { timeout: 2000 });
  else setTimeout(register, 500);
}

if ("serviceWorker" in navigator) {
  const drawn = subscribe(() => {
    drawn();
    soon();
  });
}

// Until the table has answered once since this page loaded, the banner is this module's:
// whether it has answered, the delay before the banner shows, and whether it shows.
const status = {
  live: false,
  timer: null,
  shown: false,
};

function mark() {
  if (app.online) status.live = true;
  const away = !status.live && app.session !== null && !app.online;
  document.body.classList.toggle("not-live", away && app.kept);
  if (!away) {
    clearTimeout(status.timer);
    status.timer = null;
    if (status.shown) document.getElementById("banner").hidden = true;
    status.shown = false;
    return;
  }
  if (status.shown) show();
  else status.timer ??= setTimeout(show, DELAY);
}

function show() {
  const banner = document.getElementById("banner");
  banner.textContent = t(app.kept ? "common.not_live" : "common.offline");
  banner.hidden = false;
  status.shown = true;
}

forgetStrayViews(); // a table left in another tab, or before this version kept views
subscribe(mark);
