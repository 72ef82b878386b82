// The end of a classic game (END): each player's rack typed as letters or points, the
// final table with the settlement the server worked out (END-05..08), the result copied as
// plain text (END-09), and a new game with the same players (END-10).

import { finalClock } from "./gameclock.js";
import { number, playerName, signed, t } from "./i18n.js";
import { inFlight, send } from "./live.js";
import { offer } from "./rights.js";
import { isHost } from "./state.js";
import { refer } from "./turn.js";
import { copyText, h, held, mark, say, sayRefusal, settle } from "./ui.js";

const RUNS = new Set(["pass_limit", "scoreless_limit"]); // the notices that end a game

// The form stays open, with what was typed, across redraws and until the server accepts.
const draft = { open: false, racks: [] };

export function endPanel(game, redraw) {
  if (!draft.open) {
    return h("div", { class: "actions end-open" }, h("button", {
      type: "button", id: "end-open",
      onclick: () => {
        draft.open = true;
        draft.racks = game.players.map(() => "");
        redraw();
        document.getElementById("end-rack-0").focus();
      },
    }, t("end.open")));
  }
  // After the run of passes (or scoreless turns) nobody went out: every rack is needed (P-36).
  const afterPasses = game.notices.some((item) => RUNS.has(item.code));
  return h("form", {
    class: "card end-form", "aria-labelledby": "end-title", novalidate: true,
    onsubmit: (event) => {
      event.preventDefault();
      const before = mark(); // a refusal of an earlier try goes once the game is settled
      send({ type: "end_game", racks: draft.racks.map(rackLeft) }).then(() => {
        settle(before);
        draft.open = false;
        redraw();
      }, sayRefusal);
    },
  },
  h("h3", { id: "end-title" }, t("end.title")),
  h("p", { class: "hint", id: "end-hint" }, t("end.hint")),
  game.going_out_ends_game ? h("p", { class: "notice going-out" }, t("end.going_out_ends"))
    : null,
  afterPasses ? h("p", { class: "notice" }, t("end.fill_all")) : null,
  game.players.map((_, p) => h("div", { class: "field" },
    h("label", { for: `end-rack-${p}` }, t("end.field", { name: playerName(game.players, p) })),
    h("input", {
      id: `end-rack-${p}`, value: draft.racks[p] ?? "", autocomplete: "off",
      autocapitalize: "characters", spellcheck: "false", "aria-describedby": "end-hint",
      class: "rack-input", maxlength: 20,
      oninput: (event) => { draft.racks[p] = event.target.value; },
    }))),
  h("div", { class: "actions" },
    h("button", { type: "submit", class: "primary", disabled: inFlight("end_game") },
      t("end.submit")),
    h("button", {
      type: "button",
      onclick: () => {
        draft.open = false;
        redraw();
        document.getElementById("end-open").focus();
      },
    }, t("common.cancel"))));
}

// A field as the server's RackLeft [letters, points]: digits only are points, anything else
// letters ("?" a blank; the server checks them against the set), empty for who went out.
function rackLeft(text) {
  const typed = text.replace(/\s+/g, "");
  if (!typed) return [null, null];
  return /^\d+$/.test(typed) ? [null, Number(typed)] : [typed, null];
}

export function finalPanel(game) {
  const rows = [...game.final].sort((a, b) => a.place - b.place || a.player - b.player);
  const text = resultText(game, rows);
  const next = (game.starter + 1) % game.players.length; // P-35
  return h("section", { class: "card final", "aria-labelledby": "end-final-title" },
    h("h3", { id: "end-final-title" }, t("end.final_title")),
    h("div", { class: "table-wrap" }, h("table", { class: "final-table" },
      h("thead", {}, h("tr", {},
        ["end.player", "end.before", "end.settlement", "end.final", "end.place"].map((key) =>
          h("th", { scope: "col" }, t(key))))),
      h("tbody", {}, rows.map((row) => h("tr", { dataset: { player: row.player } },
        h("th", { scope: "row" }, playerName(game.players, row.player)),
        h("td", { class: "num before" }, number(row.before)),
        h("td", { class: "num settlement" }, signed(row.settlement)),
        h("td", { class: "num final-score" }, number(row.final)),
        h("td", { class: "num place" }, number(row.place))))))),
    finalClock(game), // what the game clock cost: overtime, a game lost on time
    h("label", { for: "end-result" }, t("end.result_text")),
    h("textarea", { id: "end-result", readonly: true, rows: rows.length + 1 }, text),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", id: "end-copy", onclick: () => copy(text) },
        t("end.copy")),
      offer("new_game", game, "end-new-game-withheld", () => h("button", {
        type: "button", id: "end-new-game",
        "aria-disabled": held(inFlight("new_game")),
        onclick: () => inFlight("new_game")
          || send(refer(game, { type: "new_game" })).catch(sayRefusal),
      }, t("end.new_game")))),
    isHost() ? h("p", { class: "hint" },
      t("end.next_starter", { name: playerName(game.players, next) })) : null);
}

// END-09: the result as text, without a link; places in order, ties sharing one.
function resultText(game, rows) {
  return [
    `${t("end.final_title")} – ${t(`rules.${game.rules}`)}`,
    // The game clock's penalty is in the score before the settlement: said, or the text
    // would not show where those points went.
    ...rows.map((row) => t(row.overtime ? "end.result_line_overtime" : "end.result_line", {
      place: number(row.place), name: playerName(game.players, row.player),
      final: number(row.final), before: number(row.before), settlement: signed(row.settlement),
      overtime: number(row.overtime),
    })),
  ].join("\n");
}

async function copy(text) {
  if (await copyText(text)) {
    say(t("end.copied"), "info");
  } else { // no clipboard: the text is there to copy by hand
    document.getElementById("end-result").select();
    say(t("end.copy_failed"));
  }
}
