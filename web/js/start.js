// Start: a new sheet (which makes this phone the host of a new table) or joining a table
// by its code (typed, or from the QR code's link "/#join=CODE") at one of its seats, listed
// by the server, or by name in a duplicate room (entry.js), or as a viewer; a phone asking
// for a taken seat waits for the host. Once at a table, the bar with the join code, the QR
// code, the room display and leaving.

import {
  LOST, createTable, deleteTable, joinByName, joinTable, lost, tableSeats,
} from "./api.js";
import { byName, nameChoices } from "./entry.js";
import {
  computerNote, listName, moveTime as moveTimeText, onLanguage, playerName, t,
} from "./i18n.js";
import { connect, disconnect, send } from "./live.js";
import { importTraining, keepTraining } from "./record.js";
import { labelForm } from "./phone-name.js";
import { takeOverForm } from "./recovery.js"; // a director's dead phone replaced (issue 25)
import { refusalText } from "./refusals.js";
import { mySeat, waiting, writers } from "./rights.js";
import { forgetSession, saveSession, savedGames } from "./session.js";
import { go, helpHint } from "./shell.js";
import {
  app, changed, chosenEdition, edition, isHost, modeOf, playerCounts, rulesOf, sheet, subscribe,
} from "./state.js";
import { h, replace, say, sayRefusal, uid } from "./ui.js";

// The player counts, rule sets and times per move the form offers are the server's: the
// catalog's modes (modeOf), and per edition the classic rule sets its language is offered.
const CODE = /^[A-Za-z0-9]{6}$/;
const SEATS_DELAY = 250; // ms after the last keystroke of a code before asking for its seats

// The view's state, in one place.
const ui = {
  section: null,
  heading: null,
  bar: null, // the table bar (the Table view), redrawn with every change
  linked: false, // the join code came from the QR code's link: one tap on a seat sits down
  setupAsked: false, // with a linked code, the new-sheet form shows only when asked for
  formsBox: null, // the start or setup forms
  joinCode: "",
  showInvite: false,
  qrUrl: null,
  drafting: false, // the host is setting up a new game over a running one
  formsKey: "", // what the forms were drawn for (see render)
  deleteArmed: null, // the timer while "delete" waits for its second tap
  deleting: false,
};
// The join form's seats: the list the server gave for `code` ({mode, seats}), the one chosen
// ("player:1", "viewer"), or the refusal the code got; in a duplicate room the name typed
// or "viewer" instead (entry).
const seating = { code: "", list: null, error: null, choice: null, timer: null, joining: false,
  entry: { name: "", viewer: false } };

export function mount(element, tableElement) {
  ui.section = element;
  ui.heading = h("h2", { id: "start-title" });
  ui.bar = tableElement;
  ui.formsBox = h("div");
  ui.section.replaceChildren(ui.heading, ui.formsBox);
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("join")) {
    ui.joinCode = hash.get("join").toUpperCase();
    ui.linked = true;
    history.replaceState(null, "", `${location.pathname}#view=start`);
  }
  subscribe(render);
  onLanguage(render);
}

export function leave(reason) {
  disconnect();
  forgetSession();
  app.session = null;
  app.view = null;
  ui.showInvite = false;
  ui.qrUrl = null;
  if (reason) say(t(reason));
  changed();
}

// A phone that waited for the host goes on by itself once the host lets it in.
function followAdmission() {
  const session = app.session;
  if (!session || !session.waiting || !app.view || app.view.waiting) return;
  session.waiting = false;
  saveSession(session);
  say(t("start.admitted"), "info");
}

// The host opens the setup form again ("a different game"), over the current sheet.
function newSetup() {
  ui.drafting = true;
  changed();
  go("sheet");
}

// The forms are kept while what they are for stays the same, so that a sheet arriving from
// another phone, or a change of edition in the calculator, never wipes what is being typed.
function render() {
  if (!app.catalog) return;
  followAdmission();
  const outside = waiting(); // asked for a taken seat: nothing of the table shows yet
  ui.heading.textContent = t(app.session ? "start.table" : "start.title");
  ui.heading.hidden = Boolean(app.session); // the Table view's card speaks for the table
  replace(ui.bar, app.session && !outside ? tableBar() : null);
  const game = sheet();
  const setting = app.session && (!game || ui.drafting);
  // At a table the section shows only to set up a game or to wait for the host.
  ui.section.hidden = Boolean(app.session && !setting && !outside);
  const key = JSON.stringify([document.documentElement.lang, app.session && app.session.table,
    app.session && app.session.role, Boolean(setting), outside, ui.setupAsked]);
  if (key === ui.formsKey) return;
  let nodes;
  if (!app.session && ui.linked && ui.joinCode && !ui.setupAsked) {
    // From the QR code: the join form with its seats first, a new sheet only when asked.
    nodes = [joinForm(), h("div", { class: "actions" }, h("button", {
      type: "button", id: "start-new-instead",
      onclick: () => { ui.setupAsked = true; render(); },
    }, t("start.new_sheet_instead")))];
  } else if (!app.session && ui.linked && ui.joinCode) {
    nodes = [joinForm(), setupForm()];
  } else if (!app.session) {
    nodes = [h("p", { class: "lead" }, t("start.lead")), myGames(), setupForm(), joinForm(),
      trainingForm(), takeOverForm(), organiseLink()];
  } else if (outside) {
    nodes = [waitingCard()];
  } else if (setting) {
    nodes = [isHost() ? setupForm() : h("p", { class: "waiting" }, t("start.waiting"))];
  } else {
    nodes = [];
  }
  ui.formsKey = key;
  replace(ui.formsBox, nodes);
}

// The games this phone holds ("Mijn potjes"), with whose turn it is: loaded with its module
// only on a phone that has any.
function myGames() {
  if (!savedGames().length) return null;
  const box = h("div", { class: "my-games-box" });
  import("./games.js").then((games) => games.fill(box));
  return box;
}

// A classic sheet's rule sets in the edition's language: house rules, then the tournament
// rules of its federation, if any (SHC-07).
const languageRules = (editionCode) => edition(editionCode).classic_rules;

// The most players any game seats: the names and seats the form keeps while it changes.
// Names typed on the form: a table's 1–4. A room's players (up to 200) register on their own
// phones, or the director adds them to the room's list; a room opens with none (0).
const TYPED_MOST = 4;
const mostPlayers = () => Math.min(TYPED_MOST,
  Math.max(...app.catalog.modes.map((m) => m.max_players)));
const formCounts = (mode) => playerCounts(mode).filter((n) => n <= TYPED_MOST);

function setupForm() {
  const previous = sheet();
  const id = uid("setup");
  const form = h("form", { class: "card setup", "aria-labelledby": `${id}-title` });
  const state = {
    mode: previous ? previous.mode : "classic",
    edition: previous ? previous.edition : chosenEdition(), // the calculator's set so far
    rules: previous && previous.mode !== "online" ? previous.rules : null,
    count: previous ? previous.players.length : 2,
    names: previous ? previous.players.map((n) => n || "") : ["", "", "", ""],
    starter: 0,
    writers: app.view ? writers() : "own_seat",
    moveSeconds: previous?.online?.move_seconds ?? null,
    // A classic table: the seat this phone (the host's) holds, or null to keep score only;
    // at first the first player's, then as the last game had it.
    hostSeat: previous?.mode === "classic" ? app.view.host_seat ?? null : 0,
    // A classic table's game clock, minutes per player: null for the rule set's own (none
    // under house rules), 0 for none; at first as the last game had it.
    clock: previous?.mode === "classic" ? previous.game_clock?.minutes ?? 0 : null,
    // Online: per seat, null for a person or the computer's strength (the first seat is
    // this phone's own).
    computers: [...(previous?.online?.computers || [])],
  };
  while (state.names.length < mostPlayers()) state.names.push("");
  while (state.computers.length < mostPlayers()) state.computers.push(null);
  state.computers[0] = null;
  // A player's name as typed, or the default (online: the computer's at its seat).
  const shownName = (i) => state.names[i].trim()
    || (state.mode === "online" && state.computers[i] ? computerName(state, i)
      : t("common.default_player", { n: i + 1 }));
  const relabel = () => {
    for (const option of form.querySelectorAll("option[data-player]")) {
      option.textContent = shownName(Number(option.dataset.player));
    }
    for (const label of form.querySelectorAll("[data-plays]")) {
      label.textContent = t("start.host_plays", { name: shownName(Number(label.dataset.plays)) });
    }
  };

  const draw = () => {
    const online = state.mode === "online";
    if (online && !edition(state.edition).board) state.edition = onlineEdition(state.edition);
    const mode = modeOf(state.mode);
    const rules = languageRules(state.edition);
    const duplicates = modeOf("duplicate").rules;
    if (state.mode === "duplicate") {
      if (!duplicates.includes(state.rules)) state.rules = duplicates[0];
    } else if (online) state.rules = mode.rules[0]; // P-51, whatever the edition
    else if (!rules.includes(state.rules)) state.rules = rules[0];
    state.count = Math.max(mode.min_players, Math.min(mode.max_players, TYPED_MOST, state.count));
    if (state.mode === "classic" && state.count > rulesOf(state.rules).max_players) {
      state.rules = rules[0]; // P-34: tournament rules are for two players
    }
    state.starter = Math.min(state.starter, state.count - 1);
    if (state.hostSeat !== null && state.hostSeat >= state.count) state.hostSeat = 0;
    const names = Array.from({ length: state.count }, (_, i) => {
      const input = `${id}-name-${i}`;
      return h("div", { class: "field" },
        h("label", { for: input }, t("start.player_name", { n: i + 1 })),
        h("input", {
          id: input, name: `name${i}`, value: state.names[i], maxlength: 40, autocomplete: "off",
          placeholder: online && state.computers[i] ? computerName(state, i)
            : t("common.default_player", { n: i + 1 }),
          oninput: (e) => {
            state.names[i] = e.target.value;
            relabel(); // "Wie begint" and "Ik speel als" name the players as typed
          },
        }),
        online && i > 0 ? playedBy(`${id}-who-${i}`, state, i, draw) : null);
    });
    replace(form,
      h("h2", { id: `${id}-title` }, previous ? t("start.new_game_title")
        : t(online ? "start.new_online" : "start.new_sheet")),
      radios(`${id}-mode`, t("start.game_type"), [
        ["classic", t("start.classic")], ["duplicate", t("start.duplicate")],
        ["online", t("start.online")],
      ], state.mode, (v) => { chooseMode(state, v); draw(); }),
      h("div", { class: "field" },
        h("label", { for: `${id}-edition` }, t("start.edition")),
        h("select", {
          id: `${id}-edition`, name: "edition",
          onchange: (e) => { state.edition = e.target.value; draw(); },
        }, app.catalog.editions.filter((e) => !online || e.board).map((e) =>
          h("option", { value: e.code, selected: e.code === state.edition }, t(`edition.${e.code}`))))),
      state.mode === "classic" ? radios(`${id}-rules`, t("start.rules"),
        rules.map((code) => [code, t(`rules.${code}`)]), state.rules,
        (v) => { state.rules = v; state.clock = null; draw(); }, // the new rules' clock
        (code) => state.count > rulesOf(code).max_players) : null,
      state.mode === "duplicate" && duplicates.length > 1 ? radios(`${id}-rules`,
        t("start.rules"), duplicates.map((code) => [code,
          t(code === "duplicate" ? "start.rules_duplicate" : `rules.${code}`)]), state.rules,
        (v) => { state.rules = v; draw(); }) : null,
      state.mode === "classic" && state.count > 2 && rules.length > 1
        ? h("p", { class: "hint" }, t("start.tournament_two")) : null,
      h("div", { class: "field" },
        h("label", { for: `${id}-count` }, t("start.players")),
        h("select", {
          id: `${id}-count`, name: "count",
          onchange: (e) => { state.count = Number(e.target.value); draw(); },
        }, formCounts(mode).map((n) =>
          h("option", { value: n, selected: n === state.count }, n)))),
      state.count === 0 ? h("p", { class: "hint", id: `${id}-register` },
        t("start.players_register")) : null,
      state.count === 0 ? null : h("fieldset", { class: "names" },
        h("legend", {}, t("start.names")),
        online ? h("p", { class: "hint" }, t("start.online_you")) : null, names,
        online && state.computers.slice(1, state.count).some(Boolean)
          ? h("p", { class: "hint", id: `${id}-computer-hint` }, t("start.computer_hint")) : null),
      state.mode !== "duplicate" ? h("div", { class: "field" },
        h("label", { for: `${id}-starter` }, t("start.starter")),
        h("select", {
          id: `${id}-starter`, name: "starter",
          onchange: (e) => { state.starter = Number(e.target.value); },
        }, Array.from({ length: state.count }, (_, i) =>
          h("option", { value: i, selected: i === state.starter, dataset: { player: i } },
            shownName(i))))) : null,
      state.mode === "classic" ? hostSeatChoice(`${id}-host`, state, shownName) : null,
      state.mode === "classic" ? clockField(`${id}-clock`, state) : null,
      online ? moveTime(`${id}-time`, state) : null,
      online ? null : writersChoice(`${id}-writers`, state.writers, (v) => { state.writers = v; }),
      h("div", { class: "actions" },
        h("button", { class: "primary", type: "submit", id: `${id}-go` }, t("start.begin")),
        ui.drafting ? h("button", {
          type: "button", onclick: () => { ui.drafting = false; changed(); },
        }, t("common.cancel")) : null));
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const online = state.mode === "online";
    begin({
      type: "start_game",
      edition: state.edition,
      mode: state.mode,
      rules: state.rules,
      players: state.names.slice(0, state.count).map((n, i) => n.trim()
        || (online && state.computers[i] ? computerName(state, i) : null)),
      starter: state.mode !== "duplicate" ? state.starter : 0,
      writers: online ? "own_seat" : state.writers,
      ...(online ? { move_seconds: state.moveSeconds } : {}),
      ...(state.mode === "classic" ? { host_seat: state.hostSeat } : {}),
      ...(state.mode === "classic" && state.clock !== null ? { clock_minutes: state.clock } : {}),
      ...(online && state.computers.slice(0, state.count).some(Boolean)
        ? { computers: state.computers.slice(0, state.count) } : {}),
    });
  });
  draw();
  return form;
}

// At a physical table the host's phone plays one of the seats ("Ik speel als Anna", the
// first by default), which no other phone then joins without the host's approval, or only
// keeps the score and holds none.
function hostSeatChoice(id, state, shownName) {
  const option = (value, label) => h("label", { class: "option" },
    h("input", {
      type: "radio", name: id, value: value ?? "none", checked: value === state.hostSeat,
      onchange: () => { state.hostSeat = value; },
    }), " ", label);
  return h("fieldset", { class: "choice", id, "aria-describedby": `${id}-hint` },
    h("legend", {}, t("start.host_seat")),
    Array.from({ length: state.count }, (_, i) => option(i,
      h("span", { dataset: { plays: i } }, t("start.host_plays", { name: shownName(i) })))),
    option(null, t("start.host_keeps_score")),
    h("p", { class: "hint", id: `${id}-hint` }, t("start.host_seat_hint")));
}

// The game clock's minutes per player, the rule set's own to begin with (0: no clock).
function clockField(id, state) {
  const own = rulesOf(state.rules).clock_minutes ?? 0;
  return h("div", { class: "field" },
    h("label", { for: id }, t("start.clock_minutes")),
    h("input", {
      id, name: "clock_minutes", type: "number", inputmode: "numeric", min: 0, max: 180, step: 1,
      value: state.clock ?? own, "aria-describedby": `${id}-hint`,
      oninput: (e) => { state.clock = e.target.value === "" ? null : Number(e.target.value); },
    }),
    h("p", { class: "hint", id: `${id}-hint` },
      own ? t("start.clock_hint_rules", { n: own }) : t("start.clock_hint")));
}

// Who plays an online seat after the first: a person, who joins with the code, or the
// computer at one of its strengths (the server's list, strongest first).
function playedBy(id, state, i, draw) {
  const choices = [["", t("start.person")],
    ...(app.catalog.strengths || []).map((s) => [s, t(`start.computer_${s}`)])];
  return h("div", { class: "played-by" },
    h("label", { for: id }, t("start.played_by", { n: i + 1 })),
    h("select", {
      id, name: `computer${i}`,
      onchange: (e) => { state.computers[i] = e.target.value || null; draw(); },
    }, choices.map(([value, label]) => h("option", {
      value, selected: (state.computers[i] || "") === value,
    }, label))));
}

// The computer's name at seat `i`, numbered when it plays more than one seat.
function computerName(state, i) {
  const many = state.computers.slice(0, state.count).filter(Boolean).length > 1;
  return many ? `${t("start.computer_name")} ${i + 1}` : t("start.computer_name");
}

// Online play is Woordstrijd's first: chosen on a Dutch edition, the edition becomes
// Woordstrijd; another language's edition with a board stays (a Spanish phone plays in
// Spanish). The player may change it to any edition with a board (the server judges with its
// word list).
function chooseMode(state, mode) {
  if (mode === "online" && state.mode !== "online") state.edition = onlineEdition(state.edition);
  state.mode = mode;
}

function onlineEdition(current) {
  if (current !== "nl" && edition(current)?.board) return current;
  return edition("woordstrijd") ? "woordstrijd" : app.catalog.editions.find((e) => e.board).code;
}

// The time per move of an online game: none by default (a game may wait for days); the
// player to move is passed when it runs out.
function moveTime(id, state) {
  return h("div", { class: "field" },
    h("label", { for: id }, t("start.move_time")),
    h("select", {
      id, name: "move_seconds",
      onchange: (e) => { state.moveSeconds = e.target.value ? Number(e.target.value) : null; },
    }, [null, ...modeOf("online").move_seconds].map((seconds) => h("option", {
      value: seconds ?? "", selected: seconds === state.moveSeconds,
    }, seconds === null ? t("start.move_time_off") : moveTimeText(seconds)))),
    h("p", { class: "hint" }, t("start.move_time_hint")));
}

// Who writes the sheet: each phone its own seat (the default), or one phone for everybody.
export function writersChoice(id, current, onChange) {
  return h("div", {},
    radios(id, t("start.writers"), [
      ["own_seat", t("start.writers_own_seat")], ["scorekeeper", t("start.writers_scorekeeper")],
    ], current, onChange),
    helpHint(`${id}-hint`, t("start.writers_hint")));
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
        device: joined.device ?? null, code: joined.code };
      saveSession(app.session);
      connect();
    }
    ui.drafting = false;
    changed();
    await send(command);
  } catch (error) {
    sayRefusal(error);
  }
}

// Training from a file (issue 25, item 7): a duplicate game's record, downloaded at its
// end, played again alone against the same tops; this phone is the director of the new
// table and sets each recorded rack in turn.
function trainingForm() {
  const id = uid("training");
  return h("section", { class: "card training", "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title` }, t("training.import")),
    h("p", { class: "hint", id: `${id}-hint` }, t("training.hint")),
    h("label", { class: "button", for: `${id}-file` }, t("training.import")),
    h("input", { type: "file", id: `${id}-file`, class: "sr-only", accept: "application/json,.json",
      "aria-describedby": `${id}-hint`,
      onchange: async (event) => {
        const file = event.target.files && event.target.files[0];
        if (!file) return;
        try {
          const made = await importTraining(file);
          const joined = made.joined;
          app.session = { table: joined.table, token: joined.token, role: "host", seat: null,
            device: joined.device ?? null, code: joined.code };
          keepTraining(joined.table, made.racks);
          saveSession(app.session);
          connect();
          changed();
        } catch (error) {
          sayRefusal(error);
        } finally {
          event.target.value = "";
        }
      } }));
}

// A simultaneous (one sealed game in many club rooms at once) is organised on its own page;
// a club director joins one from the room (centre.js).
function organiseLink() {
  return h("section",
    { class: "card organise", id: "organise", "aria-labelledby": "organise-title" },
    h("h3", { id: "organise-title" }, t("sim.link_title")),
    h("p", { class: "hint", id: "organise-hint" }, t("sim.link_hint")),
    h("a", { class: "button", href: "/simultaneous.html", id: "organise-link",
      "aria-describedby": "organise-hint" }, t("sim.link")));
}

function joinForm() {
  const id = uid("join");
  const seatsBox = h("div", { class: "seats", "aria-live": "polite" });
  // From the QR code: "tap your seat", or in a duplicate room "type your name".
  const lead = ui.linked ? h("p", { class: "lead" }) : null;
  const draw = () => {
    if (lead) lead.textContent = t(byName(seating.list) ? "start.type_name" : "start.tap_seat");
    replace(seatsBox, seatChoices(id));
  };
  const button = h("button", { class: "primary", type: "submit" }, t("start.join"));
  const ask = (code) => {
    clearTimeout(seating.timer);
    if (code === seating.code) return;
    Object.assign(seating, { code, list: null, error: null, choice: null });
    draw();
    if (CODE.test(code)) seating.timer = setTimeout(() => loadSeats(code, draw), SEATS_DELAY);
  };
  const form = h("form", {
    class: "card join", "aria-labelledby": `${id}-title`,
    onsubmit: async (event) => {
      event.preventDefault();
      const code = event.target.code.value.trim().toUpperCase();
      if (CODE.test(code) && seating.code === code && !seating.list && !seating.error) {
        clearTimeout(seating.timer); // tapped before the seats came: ask for them now
        await loadSeats(code, draw);
      }
      if (seating.code === code && seating.error) { // a code no table has says so
        sayRefusal(seating.error);
        return;
      }
      if (seating.code !== code || !(byName(seating.list) || seating.choice)) {
        say(t(seating.list ? "start.choose_seat" : "start.seats_first"));
        return;
      }
      seating.joining = true;
      button.disabled = true;
      try {
        const joined = await joinAsked(code);
        app.session = { table: joined.table, token: joined.token, role: joined.role,
          seat: joined.seat, device: joined.device ?? null, waiting: joined.admitted === false };
        if (joined.role !== "viewer") app.session.code = code; // a viewer keeps no code
        saveSession(app.session);
        ui.joinCode = "";
        ui.linked = false;
        ui.setupAsked = false;
        Object.assign(seating, { code: "", list: null, error: null, choice: null,
          entry: { name: "", viewer: false } });
        connect();
        changed();
      } catch (error) {
        sayRefusal(error);
      } finally {
        seating.joining = false;
        button.disabled = false;
      }
    },
  },
  h("h2", { id: `${id}-title` }, t("start.join_title")),
  lead || helpHint(`${id}-hint`, t("start.join_hint")),
  h("div", { class: "field" },
    h("label", { for: `${id}-code` }, t("start.code")),
    h("input", {
      id: `${id}-code`, name: "code", required: true, value: ui.joinCode, maxlength: 6,
      minlength: 6, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
      class: "code-input", pattern: "[A-Za-z0-9]{6}",
      oninput: (event) => {
        ui.joinCode = event.target.value;
        ask(ui.joinCode.trim().toUpperCase());
      },
    })),
  seatsBox,
  h("div", { class: "actions" }, button));
  const kept = seating.choice;
  seating.code = ""; // a new form (another language) asks again for the code it shows
  ask(ui.joinCode.trim().toUpperCase());
  seating.choice = kept;
  draw();
  return form;
}

// The join the form asks for: by name in a duplicate room, else at the seat chosen.
function joinAsked(code) {
  if (byName(seating.list)) {
    return seating.entry.viewer ? joinTable(code, "viewer", null)
      : joinByName(code, seating.entry.name.trim());
  }
  const [role, seat] = seating.choice.split(":");
  return joinTable(code, role, seat === undefined ? null : Number(seat));
}

async function loadSeats(code, draw) {
  try {
    const list = await tableSeats(code);
    if (code !== seating.code) return;
    seating.list = list;
  } catch (error) {
    if (code !== seating.code) return;
    seating.error = error;
  }
  draw();
}

// The table's seats by name, the taken ones marked, and the viewer; beyond the player
// count there are none.
function seatChoices(id) {
  const legend = h("legend", {}, t("start.seat_or_viewer"));
  if (seating.error) {
    return h("fieldset", { class: "choice" }, legend, h("p", { class: "refusal", role: "alert",
      dataset: { code: seating.error.code } },
    refusalText(seating.error.code, seating.error.params)));
  }
  if (!seating.list) {
    return h("fieldset", { class: "choice" }, legend, h("p", { class: "hint" },
      t(CODE.test(seating.code) ? "start.seats_loading" : "start.seats_first")));
  }
  if (byName(seating.list)) return nameChoices(id, seating.entry);
  const names = seating.list.seats.map((s) => s.name);
  // A seat the computer plays is shown as its, and no phone can choose it.
  const option = (value, label, taken = false, computer = null, host = false) => h("label",
    { class: "option" },
    h("input", {
      type: "radio", name: "seat", value, id: `${id}-${value.replace(":", "-")}`,
      checked: seating.choice === value, disabled: Boolean(computer),
      onchange: (event) => {
        seating.choice = value;
        replace(hint, takenHint());
        // One tap on a seat sits down when the code came from the QR code.
        if (ui.linked && !seating.joining) event.target.form.requestSubmit();
      },
    }), " ", label, computer
      ? h("span", { class: "taken computer" }, ` · ${computerNote(label, computer)}`)
      : taken ? h("span", { class: "taken" },
        ` · ${t(host ? "start.taken_host" : "start.taken")}`) : null);
  const takenHint = () => {
    const chosen = seating.list.seats.find((s) => `player:${s.seat}` === seating.choice);
    return chosen && chosen.taken ? t("start.taken_hint") : "";
  };
  const hint = h("p", { class: "hint taken-hint" }, takenHint());
  return h("fieldset", { class: "choice" }, legend,
    seating.list.seats.map((s) => option(`player:${s.seat}`, playerName(names, s.seat), s.taken,
      s.computer, s.host)),
    seating.list.seats.length ? null : h("p", { class: "hint" }, t("start.no_seats")),
    option("viewer", t("start.viewer")),
    hint);
}

// Asked for a taken seat: the host lets this phone in (or not); it goes on by itself.
function waitingCard() {
  return h("section", { class: "card waiting-room", "aria-labelledby": "waiting-title" },
    h("h2", { id: "waiting-title" }, t("start.waiting_admit")),
    h("p", { class: "hint" }, t("start.waiting_admit_hint")),
    h("div", { class: "actions" }, h("button", {
      type: "button", onclick: () => leave(),
    }, t("common.cancel"))));
}

function tableBar() {
  const game = sheet();
  const session = app.session;
  const hostSeat = app.view && app.view.host_seat; // the seat this host's phone holds
  const who = session.role === "player" && game && session.seat < game.players.length
    ? t("start.you_are", { name: playerName(game.players, session.seat) })
    : session.role === "host" && game?.mode === "classic" && Number.isInteger(hostSeat)
      && hostSeat < game.players.length
      ? t("start.you_are_host", { name: playerName(game.players, hostSeat) })
      : session.role === "host" && game?.mode === "duplicate" ? t("start.role_director")
        : t(`start.role_${session.role}`);
  // A viewer is given no join code: no code, invite or room-display link to show it.
  const code = session.role !== "viewer" && session.code ? session.code : null;
  const bar = h("div", { class: "table-bar" },
    h("h2", { id: "table-title", class: "table-title" }, t("start.table")),
    code ? h("p", { class: "table-code" }, t("start.table_code"), " ",
      h("strong", { class: "code", "data-code": code }, code)) : null,
    h("p", { class: "who" }, who),
    wordList(game),
    h("div", { class: "actions" },
      code ? h("button", {
        type: "button", "aria-expanded": String(ui.showInvite), "aria-controls": "invite",
        onclick: () => { ui.showInvite = !ui.showInvite; render(); },
      }, t("start.invite")) : null,
      code ? h("a", { class: "button", href: `/display.html#join=${code}`, target: "_blank",
        rel: "noopener" }, t("start.room_display")) : null,
      isHost() && game && !ui.drafting
        ? h("button", { type: "button", onclick: newSetup }, t("start.other_game")) : null,
      h("button", {
        type: "button",
        // A seat stays this device's: sitting there again takes the host letting it in.
        onclick: () => {
          const asked = session.role !== "host" && mySeat() !== null ? "start.leave_confirm_seat"
            : "start.leave_confirm";
          if (confirm(t(asked))) leave();
        },
      }, t("start.leave"))),
    isHost() ? deletion() : null,
    session.role === "host" ? null : labelForm()); // the host's own phone is listed as the host's
  if (!ui.showInvite || !code) return bar;
  return h("div", {}, bar, h("div", { id: "invite", class: "card invite" }, invite(session)));
}

// Which list judges the game's words (the server's, or a club's own given to it), named as
// players name it: "OpenTaal (2.20, 298.310 woorden)".
function wordList(game) {
  const list = game && app.catalog.editions.find((e) => e.code === game.edition)?.word_list;
  return list ? h("p", { class: "word-list" }, t("start.word_list", { list: listName(list) }))
    : null;
}

// The invite: the QR code and the link with the join code (the table view's, and the online
// game's).
export function invite(session) {
  const code = session.code;
  const link = `${location.origin}/#join=${code}`;
  const image = h("img", { class: "qr", alt: t("start.qr_alt", { code }),
    width: 200, height: 200 });
  loadQr(session).then((url) => { if (url) image.src = url; });
  return [image,
    h("p", {}, t("start.invite_hint")),
    h("p", { class: "link" }, h("a", { href: link }, link))];
}

// The QR code is fetched with the device's token (an <img> cannot send one).
async function loadQr(session) {
  if (ui.qrUrl && ui.qrUrl.table === session.table) return ui.qrUrl.url;
  const answer = await fetch(`/api/tables/${session.table}/qr.svg`,
    { headers: { authorization: `Bearer ${session.token}` } }).catch(() => null);
  if (answer && answer.status === 401) {
    const { code } = await answer.json().catch(() => ({}));
    if (LOST.has(code)) lost(code); // removed by the host meanwhile
  }
  if (!answer || !answer.ok) return null;
  ui.qrUrl = { table: session.table, url: URL.createObjectURL(await answer.blob()) };
  return ui.qrUrl.url;
}

// P-11: the host deletes the table, its log, code and devices. The first tap arms the
// button, a second within a few seconds deletes (as clearing the sheet does); every phone,
// this one too, then goes to Start saying so, and forgets the table's sheet and outbox.
const DELETE_ARMED_MS = 4000;

function deletion() {
  return h("div", { class: "actions table-delete" },
    h("button", {
      type: "button", id: "table-delete", class: ui.deleteArmed ? "danger armed" : "danger",
      "aria-describedby": "table-delete-hint", disabled: ui.deleting, onclick: deleteTapped,
    }, t(ui.deleteArmed ? "start.delete_confirm" : "start.delete_table")),
    helpHint("table-delete-hint", t("start.delete_hint")));
}

async function deleteTapped() {
  if (!ui.deleteArmed) {
    ui.deleteArmed = setTimeout(() => { ui.deleteArmed = null; changed(); }, DELETE_ARMED_MS);
    changed();
    document.getElementById("table-delete")?.focus();
    return;
  }
  clearTimeout(ui.deleteArmed);
  ui.deleteArmed = null;
  ui.deleting = true;
  changed();
  const session = app.session;
  try {
    await deleteTable(session);
    // Its own socket may have said so first, and this phone left already.
    if (app.session === session) leave("error.table_deleted");
  } catch (error) {
    if (!LOST.has(error.code)) sayRefusal(error); // a lost table went to Start already
  } finally {
    ui.deleting = false;
    changed();
  }
}
