// The director's roster of a duplicate room (up to 200 players, issue 25): how many play,
// whose slip for the open round is still missing, and the players themselves — add one by
// name (a player without a phone, or the names typed before the room fills), rename,
// remove — and until which round late comers may still register on their phones.
//
// A removed player keeps its place (every other player keeps its index, the server says so
// in `sheet.left`) and is left out here as from the standings. The card stands below the
// round's controls in the page's flow, its list folded away: however long the room's list,
// it never covers the draw, the clock or the close.

import { number, playerName, t } from "./i18n.js";
import { send, unanswered } from "./live.js";
import { changed, isHost } from "./state.js";
import { folding, h, say, sayRefusal } from "./ui.js";

const NAME_MAX = 40; // as the start form's names; the server refuses longer (name_too_long)

// The view's state, in one place: what is typed survives the redraws every slip causes.
const ui = {
  open: false, // the list of players unfolded
  filter: "", // the search over the names
  adding: "", // the new player's name
  renaming: null, // the player whose name is being changed
  renamed: "", // that player's new name, as typed
  entries: null, // the round typed for late entries; null: the sheet's
  scrolled: 0, // how far the director scrolled the box of missing names
};

// Folds names as a director types them: no case, no accents ("zoe" finds "Zoë"); the
// room's list of slips searches so too (room.js).
export const searchable = (text) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

// The players still in the room, by index.
function present(game) {
  const left = new Set(game.left ?? []);
  return game.players.map((_, p) => p).filter((p) => !left.has(p));
}

// The director's card for a duplicate game that runs; null on any other phone.
export function card(game) {
  if (game.mode !== "duplicate" || game.ended || !isHost()) return null;
  const players = present(game);
  return h("section", { class: "card roster", id: "roster", "aria-labelledby": "roster-title" },
    h("h3", { id: "roster-title" }, t("roster.title", { n: players.length })),
    missing(game, players),
    h("p", { class: "hint", id: "roster-entries-now" }, game.entries_until
      ? t("roster.entries_open", { n: number(game.entries_until) }) : t("roster.entries_closed")),
    folding({
      class: "roster-manage", id: "roster-manage", open: ui.open,
      fold: (open) => { // unfolded, the list is drawn: 200 rows only when asked for
        ui.open = open;
        changed();
      },
    },
    t("roster.manage"),
    ui.open ? [addForm(), entriesForm(game), list(game, players)] : null));
}

// Whose slip for the open round is not in yet, once its rack is drawn: the names in a box
// of a few lines that scrolls, so that 190 names at a round's start take no more room than 3.
function missing(game, players) {
  const open = game.rounds[game.rounds.length - 1];
  const handed = new Set(game.room?.slips ?? []);
  const waiting = players.filter((p) => !handed.has(p));
  if (!waiting.length || !open.rack.length) ui.scrolled = 0; // the next round's from its top
  if (!game.room || !open.rack.length) return null;
  return h("div", { class: "roster-slips" },
    h("p", { id: "roster-slips", role: "status" },
      t("roster.slips", { n: number(players.length - waiting.length),
        total: number(players.length) })),
    waiting.length ? [
      h("p", { class: "roster-missing-title", id: "roster-missing-title" },
        t("roster.missing", { n: waiting.length })),
      scrolledBack(h("ul", { class: "roster-missing", id: "roster-missing", tabindex: "0",
        "aria-labelledby": "roster-missing-title",
        onscroll: (event) => { ui.scrolled = event.target.scrollTop; } },
      waiting.map((p) => h("li", { dataset: { player: p } }, playerName(game.players, p))))),
    ] : h("p", { class: "hint" }, t("roster.all_in")));
}

// The box of missing names drawn anew at every slip stays where the director scrolled it,
// rather than back at its first names, once it is in the page (the card is put there right
// after); at its top, as it mostly is, nothing is laid out for it.
function scrolledBack(box) {
  if (ui.scrolled > 0) queueMicrotask(() => { box.scrollTop = ui.scrolled; });
  return box;
}

function act(command) {
  return send(command).then(() => true, (error) => {
    sayRefusal(error);
    return false;
  });
}

// A player added by name, at the end of the list; closed rounds count 0 for them.
function addForm() {
  return h("form", {
    class: "roster-add", id: "roster-add",
    onsubmit: async (event) => {
      event.preventDefault();
      const name = ui.adding.trim();
      if (!name) return;
      if (await act({ type: "add_player", name })) {
        ui.adding = "";
        say(t("roster.added", { name }), "info");
        changed();
      }
    },
  },
  h("div", { class: "field" },
    h("label", { for: "roster-add-name" }, t("roster.add_name")),
    h("input", { id: "roster-add-name", autocomplete: "off", maxlength: NAME_MAX,
      value: ui.adding, oninput: (event) => { ui.adding = event.target.value; } })),
  h("button", { type: "submit", class: "primary", disabled: unanswered("add_player") },
    t("roster.add")));
}

// Until which round late comers may register on their phones; 0 closes the entries.
function entriesForm(game) {
  const shown = ui.entries ?? String(game.entries_until ?? 0);
  return h("form", {
    class: "roster-entries", id: "roster-entries",
    onsubmit: async (event) => {
      event.preventDefault();
      const until = Number((ui.entries ?? shown).trim());
      if (!Number.isInteger(until) || until < 0) {
        say(t("roster.entries_bad"));
        return;
      }
      if (await act({ type: "set_entries", until })) {
        ui.entries = null;
        changed();
      }
    },
  },
  h("div", { class: "field" },
    h("label", { for: "roster-entries-until" }, t("roster.entries_until")),
    h("input", { id: "roster-entries-until", type: "text", inputmode: "numeric",
      autocomplete: "off", size: 4, value: shown, "aria-describedby": "roster-entries-hint",
      oninput: (event) => { ui.entries = event.target.value; } }),
    h("p", { class: "hint", id: "roster-entries-hint" }, t("roster.entries_hint"))),
  h("button", { type: "submit", disabled: unanswered("set_entries") }, t("roster.entries_set")));
}

// Every player in the room, or those whose name holds the search, each to rename or remove.
function list(game, players) {
  const wanted = searchable(ui.filter.trim());
  const shown = wanted ? players.filter((p) => searchable(playerName(game.players, p))
    .includes(wanted)) : players;
  const handed = new Set(game.room?.slips ?? []);
  const late = new Set(game.room?.late ?? []);
  const drawn = game.rounds[game.rounds.length - 1].rack.length > 0;
  return [
    h("div", { class: "field roster-search" },
      h("label", { for: "roster-filter" }, t("roster.search")),
      h("input", { id: "roster-filter", type: "search", autocomplete: "off",
        value: ui.filter, "aria-controls": "roster-list", "aria-describedby": "roster-found",
        oninput: (event) => { ui.filter = event.target.value; changed(); } })),
    h("p", { class: "hint", id: "roster-found", role: "status" },
      t("roster.found", { n: number(shown.length), total: number(players.length) })),
    h("ul", { class: "roster-list", id: "roster-list" }, shown.map((p) =>
      ui.renaming === p ? renameRow(game, p)
        : row(game, p, drawn ? slipOf(p, handed, late) : null))),
  ];
}

// Where a player's slip stands: "in", "late" (after the round clock) or "waiting".
const slipOf = (p, handed, late) => (late.has(p) ? "late" : handed.has(p) ? "in" : "waiting");

// A player: the name, where the slip stands (once a rack is drawn), rename and remove.
function row(game, p, slip) {
  const name = playerName(game.players, p);
  return h("li", { class: "roster-player", dataset: { player: p } },
    h("span", { class: "roster-name" }, name),
    slip === null ? null : h("span", { class: `roster-${slip}` }, t(`roster.${slip}`)),
    h("span", { class: "roster-actions" },
      h("button", { type: "button", "aria-label": t("roster.rename_named", { name }),
        onclick: () => {
          Object.assign(ui, { renaming: p, renamed: game.players[p] ?? "" });
          changed();
          document.getElementById("roster-rename-name")?.focus();
        } }, t("roster.rename")),
      h("button", { type: "button", class: "danger", disabled: unanswered("remove_player"),
        "aria-label": t("roster.remove_named", { name }),
        onclick: () => {
          if (confirm(t("roster.remove_confirm", { name }))) act({ type: "remove_player", player: p });
        } }, t("roster.remove"))));
}

function renameRow(game, p) {
  const stop = () => {
    ui.renaming = null;
    changed();
  };
  return h("li", { class: "roster-player renaming", dataset: { player: p } },
    h("form", {
      class: "roster-rename",
      onsubmit: async (event) => {
        event.preventDefault();
        const name = ui.renamed.trim();
        if (!name || name === game.players[p] || await act({ type: "rename_player", player: p,
          name })) stop();
      },
    },
    h("label", { for: "roster-rename-name", class: "sr-only" },
      t("roster.rename_named", { name: playerName(game.players, p) })),
    h("input", { id: "roster-rename-name", autocomplete: "off", maxlength: NAME_MAX,
      value: ui.renamed, oninput: (event) => { ui.renamed = event.target.value; },
      onkeydown: (event) => { if (event.key === "Escape") stop(); } }),
    h("button", { type: "submit", class: "primary", disabled: unanswered("rename_player") },
      t("roster.save")),
    h("button", { type: "button", onclick: stop }, t("common.cancel"))));
}
