// Start: a new sheet (which makes this phone the host of a new table) or joining a table
// by its code (typed, or from the QR code's link "/#join=CODE"); once at a table, the bar
// with the join code, the QR code, the room display and leaving.

import { createTable, joinTable } from "./api.js";
import { onLanguage, playerName, t } from "./i18n.js";
import { connect, disconnect, send } from "./live.js";
import { forgetSession, saveSession } from "./session.js";
import { app, changed, chosenEdition, edition, isHost, rulesOf, sheet, subscribe } from "./state.js";
import { h, replace, say, sayRefusal, uid } from "./ui.js";

// The tournament rules each language's federation gives (SHC-07); everything else plays
// house rules. Polish house rules are the PFS rules of play.
const TOURNAMENT = { nl: "sbnl", it: "figs", pl: "pfs" };
const HOUSE = { pl: "pfs-house" };
export const MAX_PLAYERS = 4;

let section;
let heading;
let bar; // the table bar, redrawn with every change
let formsBox; // the start or setup forms
let joinCode = "";
let showInvite = false;
let qrUrl = null;
let drafting = false; // the host is setting up a new game over a running one

export function mount(element) {
  section = element;
  heading = h("h2", { id: "start-title" });
  bar = h("div");
  formsBox = h("div");
  section.replaceChildren(heading, bar, formsBox);
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("join")) {
    joinCode = hash.get("join").toUpperCase();
    history.replaceState(null, "", location.pathname);
  }
  subscribe(render);
  onLanguage(render);
}

export function leave(reason) {
  disconnect();
  forgetSession();
  app.session = null;
  app.view = null;
  showInvite = false;
  if (reason) say(t(reason));
  changed();
}

// The host opens the setup form again ("a different game"), over the current sheet.
function newSetup() {
  drafting = true;
  changed();
}

// The forms are kept while what they are for stays the same, so that a sheet arriving from
// another phone, or a change of edition in the calculator, never wipes what is being typed.
let formsKey = "";

function render() {
  if (!app.catalog) return;
  heading.textContent = t(app.session ? "start.table" : "start.title");
  heading.className = app.session ? "sr-only" : ""; // the table bar speaks for itself
  replace(bar, app.session ? tableBar() : null);
  const game = sheet();
  const setting = app.session && (!game || drafting);
  const key = JSON.stringify([document.documentElement.lang, app.session && app.session.table,
    app.session && app.session.role, Boolean(setting)]);
  if (key === formsKey) return;
  let nodes;
  if (!app.session) {
    nodes = [h("p", { class: "lead" }, t("start.lead")), setupForm(), joinForm()];
  } else if (setting) {
    nodes = [isHost() ? setupForm() : h("p", { class: "waiting" }, t("start.waiting"))];
  } else {
    nodes = [];
  }
  formsKey = key;
  replace(formsBox, nodes);
}

function languageRules(editionCode) {
  const language = edition(editionCode).language;
  return [HOUSE[language] || "house", TOURNAMENT[language]].filter(Boolean);
}

function setupForm() {
  const previous = sheet();
  const id = uid("setup");
  const form = h("form", { class: "card setup", "aria-labelledby": `${id}-title` });
  const state = {
    mode: previous ? previous.mode : "classic",
    edition: previous ? previous.edition : chosenEdition(), // the calculator's set so far
    rules: previous && previous.mode === "classic" ? previous.rules : null,
    count: previous ? previous.players.length : 2,
    names: previous ? previous.players.map((n) => n || "") : ["", "", "", ""],
    starter: 0,
  };
  while (state.names.length < MAX_PLAYERS) state.names.push("");

  const draw = () => {
    const rules = languageRules(state.edition);
    if (state.mode === "duplicate") state.rules = "duplicate";
    else if (!rules.includes(state.rules)) state.rules = rules[0];
    const least = state.mode === "duplicate" ? 1 : 2;
    state.count = Math.max(least, Math.min(MAX_PLAYERS, state.count));
    if (state.mode === "classic" && state.count > rulesOf(state.rules).max_players) {
      state.rules = rules[0]; // P-34: tournament rules are for two players
    }
    state.starter = Math.min(state.starter, state.count - 1);
    const names = Array.from({ length: state.count }, (_, i) => {
      const input = `${id}-name-${i}`;
      return h("div", { class: "field" },
        h("label", { for: input }, t("start.player_name", { n: i + 1 })),
        h("input", {
          id: input, name: `name${i}`, value: state.names[i], maxlength: 40, autocomplete: "off",
          placeholder: t("common.default_player", { n: i + 1 }),
          oninput: (e) => { state.names[i] = e.target.value; },
        }));
    });
    replace(form,
      h("h2", { id: `${id}-title` }, previous ? t("start.new_game_title") : t("start.new_sheet")),
      radios(`${id}-mode`, t("start.game_type"), [
        ["classic", t("start.classic")], ["duplicate", t("start.duplicate")],
      ], state.mode, (v) => { state.mode = v; draw(); }),
      h("div", { class: "field" },
        h("label", { for: `${id}-edition` }, t("start.edition")),
        h("select", {
          id: `${id}-edition`, name: "edition",
          onchange: (e) => { state.edition = e.target.value; draw(); },
        }, app.catalog.editions.map((e) =>
          h("option", { value: e.code, selected: e.code === state.edition }, t(`edition.${e.code}`))))),
      state.mode === "classic" ? radios(`${id}-rules`, t("start.rules"),
        rules.map((code) => [code, t(`rules.${code}`)]), state.rules,
        (v) => { state.rules = v; draw(); },
        (code) => state.count > rulesOf(code).max_players) : null,
      state.mode === "classic" && state.count > 2 && rules.length > 1
        ? h("p", { class: "hint" }, t("start.tournament_two")) : null,
      h("div", { class: "field" },
        h("label", { for: `${id}-count` }, t("start.players")),
        h("select", {
          id: `${id}-count`, name: "count",
          onchange: (e) => { state.count = Number(e.target.value); draw(); },
        }, [1, 2, 3, 4].filter((n) => n >= least).map((n) =>
          h("option", { value: n, selected: n === state.count }, n)))),
      h("fieldset", { class: "names" }, h("legend", {}, t("start.names")), names),
      state.mode === "classic" ? h("div", { class: "field" },
        h("label", { for: `${id}-starter` }, t("start.starter")),
        h("select", {
          id: `${id}-starter`, name: "starter",
          onchange: (e) => { state.starter = Number(e.target.value); },
        }, Array.from({ length: state.count }, (_, i) =>
          h("option", { value: i, selected: i === state.starter },
            state.names[i].trim() || t("common.default_player", { n: i + 1 }))))) : null,
      h("div", { class: "actions" },
        h("button", { class: "primary", type: "submit", id: `${id}-go` }, t("start.begin")),
        drafting ? h("button", {
          type: "button", onclick: () => { drafting = false; changed(); },
        }, t("common.cancel")) : null));
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    begin({
      type: "start_game",
      edition: state.edition,
      mode: state.mode,
      rules: state.rules,
      players: state.names.slice(0, state.count).map((n) => n.trim() || null),
      starter: state.mode === "classic" ? state.starter : 0,
    });
  });
  draw();
  return form;
}

function radios(id, legend, options, current, onChange, disabled = () => false) {
  return h("fieldset", { class: "choice", id },
    h("legend", {}, legend),
    options.map(([value, label]) => h("label", { class: "option" },
      h("input", {
        type: "radio", name: id, value, checked: value === current, disabled: disabled(value),
        onchange: () => onChange(value),
      }), " ", label)));
}

async function begin(command) {
  try {
    if (!app.session) {
      const joined = await createTable();
      app.session = { table: joined.table, token: joined.token, role: "host", seat: null,
        code: joined.code };
      saveSession(app.session);
      connect();
    }
    drafting = false;
    changed();
    await send(command);
  } catch (error) {
    sayRefusal(error);
  }
}

function joinForm() {
  const id = uid("join");
  const seatChoices = [
    ...Array.from({ length: MAX_PLAYERS }, (_, i) => [`player:${i}`, t("start.seat", { n: i + 1 })]),
    ["viewer", t("start.viewer")],
  ];
  return h("form", {
    class: "card join", "aria-labelledby": `${id}-title`,
    onsubmit: async (event) => {
      event.preventDefault();
      const form = event.target;
      const code = form.code.value.trim().toUpperCase();
      const [role, seat] = form.seat.value.split(":");
      try {
        const joined = await joinTable(code, role, seat === undefined ? null : Number(seat));
        app.session = { table: joined.table, token: joined.token, role: joined.role,
          seat: joined.seat, code };
        saveSession(app.session);
        joinCode = "";
        connect();
        changed();
      } catch (error) {
        sayRefusal(error);
      }
    },
  },
  h("h2", { id: `${id}-title` }, t("start.join_title")),
  h("p", { class: "hint" }, t("start.join_hint")),
  h("div", { class: "field" },
    h("label", { for: `${id}-code` }, t("start.code")),
    h("input", {
      id: `${id}-code`, name: "code", required: true, value: joinCode, maxlength: 6,
      minlength: 6, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
      class: "code-input", pattern: "[A-Za-z0-9]{6}",
    })),
  h("div", { class: "field" },
    h("label", { for: `${id}-seat` }, t("start.seat_or_viewer")),
    h("select", { id: `${id}-seat`, name: "seat" },
      seatChoices.map(([value, label]) => h("option", { value }, label)))),
  h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, t("start.join"))));
}

function tableBar() {
  const game = sheet();
  const session = app.session;
  const who = session.role === "player" && game && session.seat < game.players.length
    ? t("start.you_are", { name: playerName(game.players, session.seat) })
    : t(`start.role_${session.role}`);
  const bar = h("div", { class: "table-bar" },
    h("p", { class: "table-code" }, t("start.table_code"), " ",
      h("strong", { class: "code", "data-code": session.code }, session.code)),
    h("p", { class: "who" }, who),
    h("div", { class: "actions" },
      h("button", {
        type: "button", "aria-expanded": String(showInvite), "aria-controls": "invite",
        onclick: () => { showInvite = !showInvite; render(); },
      }, t("start.invite")),
      h("a", { class: "button", href: `/display.html#join=${session.code}`, target: "_blank",
        rel: "noopener" }, t("start.room_display")),
      isHost() && game && !drafting
        ? h("button", { type: "button", onclick: newSetup }, t("start.other_game")) : null,
      h("button", {
        type: "button",
        onclick: () => { if (confirm(t("start.leave_confirm"))) leave(); },
      }, t("start.leave"))));
  if (!showInvite) return bar;
  const link = `${location.origin}/#join=${session.code}`;
  const image = h("img", { class: "qr", alt: t("start.qr_alt", { code: session.code }),
    width: 200, height: 200 });
  loadQr(session).then((url) => { if (url) image.src = url; });
  return h("div", {}, bar, h("div", { id: "invite", class: "card invite" },
    image,
    h("p", {}, t("start.invite_hint")),
    h("p", { class: "link" }, h("a", { href: link }, link))));
}

// The QR code is fetched with the device's token (an <img> cannot send one).
async function loadQr(session) {
  if (qrUrl && qrUrl.table === session.table) return qrUrl.url;
  const answer = await fetch(`/api/tables/${session.table}/qr.svg`,
    { headers: { authorization: `Bearer ${session.token}` } }).catch(() => null);
  if (!answer || !answer.ok) return null;
  qrUrl = { table: session.table, url: URL.createObjectURL(await answer.blob()) };
  return qrUrl.url;
}

