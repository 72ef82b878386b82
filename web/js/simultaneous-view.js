// The organiser's view of a simultaneous (GET /api/simultaneous/{id} with the organiser's
// token, every 2 s): the code club directors type, shown large; each game's window and
// whether it is open, with "close the window now"; every centre's progress; the standings
// of each game across every centre, and of the series; once a window has closed, its results
// (JSON, CSV, the A4 print) and the game to play again as training.

import { call } from "./api.js";
import { number, percent, t } from "./i18n.js";
import { importTraining, keepTraining } from "./record.js";
import { saveSession } from "./session.js";
import { h, replace, sayRefusal } from "./ui.js";
import { when } from "./when.js";

const POLL_MS = 2000;
const GONE = new Set(["bad_token", "no_simultaneous"]); // the kept token opens nothing any more

// The view's state, in one place.
const view = {
  main: null,
  held: null, // {id, token, code}
  data: null, // the organiser's view as last answered
  trouble: null, // why the last poll failed (offline …)
  timer: null,
  asking: false,
  forget: () => {},
};

export function onForget(handler) {
  view.forget = handler;
}

export function show(main, held) {
  if (view.held?.id !== held.id) view.data = null;
  view.main = main;
  view.held = held;
  draw();
  if (!view.timer) {
    poll();
    view.timer = setInterval(poll, POLL_MS);
  }
}

export function stop() {
  clearInterval(view.timer);
  view.timer = null;
  view.held = null;
  view.data = null;
}

const base = () => `/api/simultaneous/${encodeURIComponent(view.held.id)}`;

async function poll() {
  if (view.asking || !view.held || document.hidden) return;
  view.asking = true;
  try {
    view.data = await call(base(), { token: view.held.token });
    view.trouble = null;
  } catch (error) {
    if (GONE.has(error.code)) {
      stop();
      view.forget();
      sayRefusal(error);
      return;
    }
    view.trouble = error;
  } finally {
    view.asking = false;
  }
  draw();
}

function draw() {
  if (!view.held) return;
  const data = view.data;
  replace(view.main,
    h("h2", { id: "sim-title" }, data ? data.name : t("sim.title")),
    h("section", { class: "card sim-code-card", "aria-labelledby": "sim-code-title" },
      h("h3", { id: "sim-code-title" }, t("sim.code_title")),
      h("p", { class: "sim-code", id: "sim-code" }, view.held.code),
      h("p", { class: "hint" }, t("sim.code_hint", { title: t("sim.join_title") }))),
    data ? h("p", { class: "sim-about" }, [t(`edition.${data.edition}`),
      t(data.rules === "duplicate" ? "start.rules_duplicate" : `rules.${data.rules}`),
      t(`sim.schedule_${data.schedule}`)].join(" · ")) : null,
    view.trouble ? h("p", { class: "hint", role: "status" },
      t("sim.not_live", { time: when(Date.now()) })) : null,
    data ? [games(data), centres(data), data.standings.map((rows, g) => standings(data, rows, g)),
      data.games.length > 1 ? series(data) : null] : h("p", { class: "hint" }, t("sim.loading")),
    h("div", { class: "actions sim-other" },
      h("button", { type: "button", id: "sim-forget", onclick: () => {
        if (confirm(t("sim.forget_confirm"))) { stop(); view.forget(); }
      } }, t("sim.other")),
      h("button", { type: "button", class: "danger", id: "sim-delete",
        onclick: (event) => remove(event.target) }, t("sim.delete"))));
}

// The organiser deletes the simultaneous: its code and results go; the centres keep their
// rooms and what they played.
async function remove(button) {
  if (!confirm(t("sim.delete_confirm"))) return;
  button.disabled = true;
  try {
    await call(base(), { method: "DELETE", token: view.held.token });
    stop();
    view.forget();
  } catch (error) {
    sayRefusal(error);
    button.disabled = false;
  }
}

// --- the games ------------------------------------------------------------------------------

const stateOf = (game) => (game.closed ? "closed" : Date.now() < game.opens ? "waiting" : "open");

function games(data) {
  return data.games.map((game) => {
    const n = game.game + 1;
    const state = stateOf(game);
    return h("section", { class: "card sim-game", id: `sim-game-${n}`,
      "aria-labelledby": `sim-game-${n}-title` },
    h("h3", { id: `sim-game-${n}-title` }, t("sim.game_n", { n: number(n) })),
    h("p", { class: "sim-window-line" }, t("sim.window", { opens: when(game.opens),
      closes: when(game.closes) })),
    h("p", { class: `sim-state ${state}` }, t(`sim.state_${state}`), " · ",
      t("sim.rounds", { n: game.rounds })),
    game.closed ? results(String(n), t("sim.results", { n: number(n) }))
      : h("div", { class: "actions" }, h("button", { type: "button", class: "danger",
        id: `sim-close-${n}`, onclick: (event) => close(n, event.target) }, t("sim.close_now"))));
  });
}

async function close(n, button) {
  if (!confirm(t("sim.close_confirm", { n: number(n) }))) return;
  button.disabled = true;
  try {
    view.data = await call(`${base()}/close?game=${n}`, { method: "POST", token: view.held.token });
    draw();
  } catch (error) {
    sayRefusal(error);
    button.disabled = false;
  }
}

// A closed game's results (or the series', `which` = "series"): public files the server
// makes, the print page, and the game again as training.
function results(which, title) {
  const query = `?game=${which}`;
  const file = `simultaneous-${which}`;
  return h("div", { class: "sim-results" },
    h("h4", {}, title),
    h("div", { class: "actions" },
      h("a", { class: "button", href: `${base()}/results.json${query}`, download: `${file}.json` },
        t("sim.json")),
      h("a", { class: "button", href: `${base()}/results.csv${query}`, download: `${file}.csv` },
        t("sim.csv")),
      h("a", { class: "button sim-print", target: "_blank", rel: "noopener",
        href: `/print.html?page=simultaneous&id=${encodeURIComponent(view.held.id)}&game=${which}` },
      t("sim.print")),
      which === "series" ? null : h("button", { type: "button", class: "sim-training",
        onclick: (event) => train(which, event.target) }, t("sim.training"))));
}

// The sealed game as a room's record, played again alone against its tops: this device
// becomes the director of a new training table, on the app's page.
async function train(which, button) {
  button.disabled = true;
  try {
    const record = await call(`${base()}/record.json?game=${which}`);
    const made = await importTraining(new Blob([JSON.stringify(record)]));
    const joined = made.joined;
    saveSession({ table: joined.table, token: joined.token, role: "host", seat: null,
      device: joined.device ?? null, code: joined.code });
    keepTraining(joined.table, made.racks);
    location.assign("/");
  } catch (error) {
    sayRefusal(error);
    button.disabled = false;
  }
}

// --- the centres and the standings ------------------------------------------------------

function centres(data) {
  const many = data.games.length > 1;
  const col = (label, num = true) => h("th", { scope: "col", class: num ? "num" : null }, label);
  return h("section", { class: "card sim-centres", "aria-labelledby": "sim-centres-title" },
    h("h3", { id: "sim-centres-title" }, t("sim.centres_title", { n: number(data.centres.length) })),
    data.centres.length ? h("table", { class: "sim-table", id: "sim-centres" },
      h("thead", {}, h("tr", {}, col(t("sim.centre"), false), col(t("sim.rounds_col")),
        col(t("sim.players_col")), col(t("sim.slips_col")), col(t("sim.ended_col")))),
      h("tbody", {}, data.centres.map((centre) => h("tr", { dataset: { table: centre.table } },
        h("th", { scope: "row" }, centre.name, many ? h("span", { class: "sim-centre" },
          t("sim.game_n", { n: number(centre.game + 1) })) : null),
        h("td", { class: "num" }, `${number(centre.closed)}/${number(data.games[centre.game].rounds)}`),
        h("td", { class: "num" }, number(centre.players)),
        h("td", { class: "num" }, centre.racked && !centre.ended ? number(centre.slips) : "–"),
        h("td", { class: "num" }, centre.ended ? t("sim.done") : "")))))
      : h("p", { class: "hint" }, t("sim.no_centres")));
}

function standings(data, rows, g) {
  const n = g + 1;
  return h("section", { class: "card sim-standings", id: `sim-standings-${n}`,
    "aria-labelledby": `sim-standings-${n}-title` },
  h("h3", { id: `sim-standings-${n}-title` }, t("sim.standings_title", { n: number(n) })),
  rows.length ? table(rows, t("sim.rounds_col")) : h("p", { class: "hint" }, t("sim.no_standings")));
}

function series(data) {
  const closed = data.games.every((game) => game.closed);
  return h("section", { class: "card sim-standings", id: "sim-series",
    "aria-labelledby": "sim-series-title" },
  h("h3", { id: "sim-series-title" }, t("sim.series_title")),
  data.series.length ? table(data.series, t("sim.games_col"))
    : h("p", { class: "hint" }, t("sim.no_standings")),
  closed ? results("series", t("sim.results_series")) : null);
}

// Place, name (the centre under it), total, percentage, and rounds (games) played.
function table(rows, counted) {
  const col = (label, num = true) => h("th", { scope: "col", class: num ? "num" : null }, label);
  return h("table", { class: "sim-table" },
    h("thead", {}, h("tr", {}, col(t("dup.place")), col(t("dup.player"), false),
      col(t("dup.total")), col(t("sim.percent")), col(counted))),
    h("tbody", {}, rows.map((row) => h("tr", {},
      h("td", { class: "num" }, row.tied ? `${number(row.place)}=` : number(row.place)),
      h("th", { scope: "row" }, row.name, h("span", { class: "sim-centre" }, row.centre)),
      h("td", { class: "num" }, number(row.total)),
      h("td", { class: "num" }, percent(row.percent_tenths)),
      h("td", { class: "num" }, number(row.rounds))))));
}
