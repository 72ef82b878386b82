// A duplicate room as a centre of a simultaneous (one sealed game played in many club rooms
// at once): the director's card that makes the room a centre, before its first rack, and
// the standings across every centre that the server sends each of the room's phones (the
// "simultaneous" frame, `app.simultaneous`, kept by live.js): on a player's phone its own
// place overall and in the room, the series and the first five; on the director's phone
// (a co-director's, a viewer's) the centres, the players and the first twenty. The room
// display shows the same leaders (display.js, `leaders`).

import { number, percent, playerName, t } from "./i18n.js";
import { send, unanswered } from "./live.js";
import { mySeat } from "./rights.js";
import { app, changed, isHost } from "./state.js";
import { folding, h, say, sayRefusal } from "./ui.js";
import { when } from "./when.js";

const NAME_MAX = 40; // a centre's name, as a player's (the server refuses longer)

// The director's join form, in one place: what is typed survives the redraws.
const ui = {
  open: false,
  code: "",
  game: "1", // as the director counts: from 1
  centre: "",
};

// The frame of this phone's table, or null (none yet, or one of a table left).
export function frame() {
  const sent = app.simultaneous;
  return sent && app.session && sent.table === app.session.table ? sent : null;
}

// --- the director: joining ------------------------------------------------------------------

// Shown while the room has no rack drawn and is no centre yet (the server sends a centre's
// phones a frame within moments of joining); folded, as the take-over on the start screen.
export function joinCard(game, begun) {
  if (begun || game.ended || !game.room || !isHost() || game.room.centre || frame()) return null;
  return folding({
    class: "card sim-join", id: "sim-join", open: ui.open,
    fold: (open) => { ui.open = open; },
  }, t("sim.join_title"), joinForm());
}

function joinForm() {
  const busy = unanswered("join_simultaneous");
  const field = (id, label, attributes, hint) => h("div", { class: "field" },
    h("label", { for: id }, label),
    h("input", { id, ...attributes }),
    hint ? h("p", { class: "hint", id: `${id}-hint` }, hint) : null);
  return h("form", {
    class: "sim-join-form",
    onsubmit: async (event) => {
      event.preventDefault();
      const game = Number(ui.game) - 1;
      try {
        await send({ type: "join_simultaneous", code: ui.code.trim().toUpperCase(),
          game: Number.isInteger(game) && game >= 0 ? game : 0, centre: ui.centre.trim() });
        ui.open = false;
        say(t("sim.joined"), "info");
        changed();
      } catch (error) {
        sayRefusal(error);
      }
    },
  },
  h("p", { class: "hint" }, t("sim.join_hint")),
  field("sim-join-code", t("sim.code"), { name: "code", required: true, maxlength: 6,
    minlength: 6, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
    class: "code-input", value: ui.code, oninput: (e) => { ui.code = e.target.value; } }),
  field("sim-join-game", t("sim.game_number"), { name: "game", type: "number", min: 1, max: 12,
    required: true, inputmode: "numeric", value: ui.game,
    oninput: (e) => { ui.game = e.target.value; } }),
  field("sim-join-centre", t("sim.centre_name"), { name: "centre", required: true,
    maxlength: NAME_MAX, autocomplete: "organization", value: ui.centre,
    "aria-describedby": "sim-join-centre-hint", oninput: (e) => { ui.centre = e.target.value; } },
  t("sim.centre_hint")),
  h("div", { class: "actions" },
    h("button", { type: "submit", class: "primary", id: "sim-join-go", disabled: busy },
      t("sim.join"))));
}

// --- every phone of a centre ----------------------------------------------------------------

// The simultaneous's card for this phone: a player's place, or the room's leaders.
export function card(game) {
  const sent = frame();
  if (!sent) return null;
  const seat = mySeat();
  if (seat === null || isHost()) return roomCard(sent);
  // The leaders name no seat: this player's row is the one of their name in this centre.
  const mine = { name: playerName(game.players, seat), centre: sent.centre };
  return playerCard(sent, mine);
}

const title = (sent) => (says(sent.name) ? `${sent.name} \u2014 ${sent.centre}`
  : t("sim.card_title", { name: sent.name, centre: sent.centre }));

// Does the simultaneous's own name say what it is ("Simultané du Benelux", "Symultana
// jesienna")? Then "Simultaan" is not put before it again.
const says = (name) => /(^|\s)s[iy]mult/iu.test(name);

// "Simultaan Voorjaarstoernooi", or the name alone when it says so itself.
export const simultaneousName = (name) => (says(name) ? name
  : t("sim.display_title", { name }));

function playerCard(sent, mine) {
  const you = sent.you;
  const series = sent.series;
  return h("section", { class: "card room sim-card", id: "sim-card",
    "aria-labelledby": "sim-card-title" },
  h("h3", { id: "sim-card-title" }, title(sent)),
  you ? [ // none before a round closed
    h("p", { class: "room-place", id: "sim-place" }, t(you.tied ? "sim.place_shared" : "sim.place", {
      place: number(you.place), count: number(you.of),
      centre_place: number(you.centre_place), centre_count: number(you.centre_of) })),
    h("p", { id: "sim-total" }, t("sim.total_line", { total: number(you.total),
      percent: percent(you.percent_tenths) })),
  ] : h("p", { class: "hint", id: "sim-place" }, t("sim.no_place")),
  level(sent),
  series ? h("p", { id: "sim-series" }, t("sim.series_line", { place: number(series.place),
    count: number(series.of), total: number(series.total) })) : null,
  sent.game.closed ? gameWindow(sent) : null,
  leaders(sent.leaders, "sim-leaders", false, mine));
}

function roomCard(sent) {
  return h("section", { class: "card room sim-card", id: "sim-card",
    "aria-labelledby": "sim-card-title" },
  h("h3", { id: "sim-card-title" }, title(sent)),
  h("p", { id: "sim-counts" }, t("sim.centres_count", { n: sent.centres }), " · ",
    t("sim.players_count", { n: sent.players })),
  level(sent),
  gameWindow(sent),
  leaders(sent.leaders, "sim-leaders"));
}

// The game's window, or once it closed that it did, with the results to print: the room's
// game is over whatever round it reached.
function gameWindow(sent) {
  const n = number(sent.game.game + 1);
  if (!sent.game.closed) {
    return h("p", { class: "hint", id: "sim-window" }, t("sim.game_window", {
      n, opens: when(sent.game.opens), closes: when(sent.game.closes) }));
  }
  const results = `/print.html?${new URLSearchParams({
    page: "simultaneous", id: sent.id, game: sent.game.game + 1 })}`;
  return h("p", { class: "sim-closed", id: "sim-window" }, t("sim.window_closed", { n }), " ",
    h("a", { href: results, target: "_blank", rel: "noopener" }, t("sim.print")));
}

// How many centres stand where this one does: the standings are final for its last round
// once every centre has closed it.
export function level(sent) {
  if (!sent.round) return null;
  return h("p", { class: "hint", id: "sim-level" }, t("sim.level", {
    n: number(sent.level), count: number(sent.centres), round: number(sent.round) }));
}

// The leaders across every centre: place, name with the centre under it, total; the room
// display heads the place column short, as its standings do.
export function leaders(rows, id, short = false, mine = null) {
  if (!rows.length) return h("p", { class: "hint", id }, t("sim.no_standings"));
  return h("table", { class: "room-first sim-leaders", id },
    h("caption", { class: "sr-only" }, t("sim.leaders")),
    h("thead", {}, h("tr", {},
      [t(short ? "display.rank" : "dup.place"), t("dup.player"), t("dup.total")]
        .map((label, i) => h("th", { scope: "col", class: i === 1 ? null : "num" }, label)))),
    h("tbody", {}, rows.map((row) => h("tr", {
      class: mine && row.name === mine.name && row.centre === mine.centre ? "mine" : null },
      h("td", { class: "num" }, number(row.place)),
      h("th", { scope: "row" }, row.name, h("span", { class: "sim-centre" }, row.centre)),
      h("td", { class: "num" }, number(row.total))))));
}
