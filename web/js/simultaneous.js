// The organiser's page of a simultaneous (simultaneous.html): one sealed duplicate game, or a
// series of them, played in many club rooms at once. The form names it, picks the edition,
// the rule set and the schedule, and gives each game its window; the server seals every game
// (racks and tops) and answers the code club directors type and the organiser's token. Both
// are kept in local storage, so a reload shows the organiser's view again
// (simultaneous-view.js), polled every 2 s.

import { call } from "./api.js";
import { LANGUAGES, language, onLanguage, preferredLanguage, setLanguage, t } from "./i18n.js";
import * as organiser from "./simultaneous-view.js";
import { app, modeOf } from "./state.js";
import { h, mark, replace, sayRefusal, settle, uid } from "./ui.js";

const KEPT = "tilestream.simultaneous"; // {id, token, code} of the simultaneous organised here
const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR; // a series' next game, by default: the same hours a week later

// The page's state, in one place: the form as typed survives a change of language.
const ui = {
  main: null,
  form: null, // {name, edition, rules, schedule, games: [{opens, closes}]} (local times typed)
  creating: false,
};

async function boot() {
  ui.main = document.getElementById("main");
  const [catalog] = await Promise.all([call("/api/catalog"), setLanguage(preferredLanguage())]);
  app.catalog = catalog;
  languageSwitch();
  onLanguage(render);
  organiser.onForget(() => {
    localStorage.removeItem(KEPT);
    render();
  });
  render();
  document.body.dataset.ready = "true"; // the browser tests wait for this
}

export function kept() {
  try {
    const value = JSON.parse(localStorage.getItem(KEPT));
    return value && value.id && value.token ? value : null;
  } catch {
    return null;
  }
}

function render() {
  document.title = `Tilestream · ${t("sim.title")}`;
  const held = kept();
  if (held) {
    organiser.show(ui.main, held);
    return;
  }
  organiser.stop();
  replace(ui.main, h("h2", { id: "sim-title" }, t("sim.title")),
    h("p", { class: "lead" }, t("sim.lead")), form());
}

// --- the form -------------------------------------------------------------------------------

// A moment as a datetime-local field holds it: the phone's own time, to the minute.
function local(ms) {
  const date = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${
    two(date.getHours())}:${two(date.getMinutes())}`;
}

const moment = (text) => new Date(text).getTime(); // NaN for a field left empty

// The editions a game can be sealed in: a board and a word list to find the tops.
const sealable = () => app.catalog.editions.filter((e) => e.board && e.word_list);

function fresh() {
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const editions = sealable().map((e) => e.code);
  return {
    name: "",
    edition: editions.includes(language) ? language : editions[0],
    rules: modeOf("duplicate").rules[0],
    schedule: "window",
    games: [{ opens: local(now), closes: local(now + 3 * HOUR) }],
  };
}

function form() {
  if (!ui.form) ui.form = fresh();
  const state = ui.form;
  const id = uid("sim");
  const box = h("form", { class: "card sim-form", id: "sim-form",
    "aria-labelledby": `${id}-title`, onsubmit: (event) => { event.preventDefault(); create(); } });
  const draw = () => replace(box,
    h("h3", { id: `${id}-title` }, t("sim.new_title")),
    h("div", { class: "field" },
      h("label", { for: `${id}-name` }, t("sim.name")),
      h("input", { id: `${id}-name`, name: "name", required: true, maxlength: 80,
        autocomplete: "off", value: state.name, placeholder: t("sim.name_placeholder"),
        oninput: (e) => { state.name = e.target.value; } })),
    h("div", { class: "field" },
      h("label", { for: `${id}-edition` }, t("start.edition")),
      h("select", { id: `${id}-edition`, name: "edition",
        onchange: (e) => { state.edition = e.target.value; } },
      sealable().map((e) => h("option", { value: e.code, selected: e.code === state.edition },
        t(`edition.${e.code}`))))),
    radios(`${id}-rules`, t("start.rules"), modeOf("duplicate").rules.map((code) => [code,
      t(code === "duplicate" ? "start.rules_duplicate" : `rules.${code}`)]), state.rules,
    (value) => { state.rules = value; }),
    radios(`${id}-schedule`, t("sim.schedule"), [["window", t("sim.schedule_window")],
      ["set_time", t("sim.schedule_set_time")]], state.schedule,
    (value) => { state.schedule = value; }),
    state.games.map((game, i) => windowFields(`${id}-game-${i}`, state, i, draw)),
    h("div", { class: "actions" },
      h("button", { type: "button", id: "sim-add-game", onclick: () => { addGame(state); draw(); } },
        t("sim.add_game")),
      h("button", { type: "submit", class: "primary", id: "sim-create", disabled: ui.creating },
        t(ui.creating ? "sim.creating" : "sim.create"))),
    ui.creating ? h("p", { class: "hint", role: "status" }, t("sim.creating_hint")) : null);
  draw();
  return box;
}

// A game's window: when its first rack may be drawn, and after when no rack is.
function windowFields(id, state, i, draw) {
  const game = state.games[i];
  const input = (key, label) => h("div", { class: "field" },
    h("label", { for: `${id}-${key}` }, label),
    h("input", { id: `${id}-${key}`, name: `${key}${i}`, type: "datetime-local", required: true,
      value: game[key], oninput: (e) => { game[key] = e.target.value; } }));
  return h("fieldset", { class: "sim-window" },
    h("legend", {}, t("sim.game_n", { n: i + 1 })),
    h("div", { class: "sim-times" }, input("opens", t("sim.opens")), input("closes", t("sim.closes"))),
    state.games.length > 1 ? h("button", { type: "button", class: "sim-remove",
      onclick: () => { state.games.splice(i, 1); draw(); } }, t("sim.remove_game", { n: i + 1 }))
      : null);
}

function addGame(state) {
  const last = state.games[state.games.length - 1];
  const opens = moment(last.opens);
  const closes = moment(last.closes);
  state.games.push(Number.isNaN(opens) || Number.isNaN(closes) ? { opens: "", closes: "" }
    : { opens: local(opens + WEEK), closes: local(closes + WEEK) });
}

function radios(id, legend, options, current, onChange) {
  return h("fieldset", { class: "choice", id },
    h("legend", {}, legend),
    options.map(([value, label]) => h("label", { class: "option" },
      h("input", { type: "radio", name: id, value, checked: value === current,
        onchange: () => onChange(value) }), " ", label)));
}

async function create() {
  const state = ui.form;
  if (ui.creating) return;
  ui.creating = true;
  render();
  const before = mark();
  try {
    const made = await call("/api/simultaneous", { method: "POST", body: {
      name: state.name.trim(), edition: state.edition, rules: state.rules,
      schedule: state.schedule,
      games: state.games.map((game) => ({ opens: moment(game.opens), closes: moment(game.closes) })),
    } });
    localStorage.setItem(KEPT, JSON.stringify({ id: made.id, token: made.token, code: made.code }));
    ui.form = null;
    settle(before); // made: the refusal of the try before is past
  } catch (error) {
    sayRefusal(error); // a window closing before it opens: bad_schedule
  } finally {
    ui.creating = false;
    render();
  }
}

function languageSwitch() {
  const select = document.getElementById("language");
  const fill = () => select.replaceChildren(...LANGUAGES.map((code) =>
    h("option", { value: code, selected: code === document.documentElement.lang },
      t(`language.${code}`))));
  fill();
  onLanguage(fill);
  select.addEventListener("change", () => setLanguage(select.value, true));
}

boot();
