// The duplicate sheet of a room too big for a column per player (issue 25: up to 200 on a
// 390 px phone): the rounds with their top — and this phone's own score, for a player —
// then the standings as a list, one line per player: rank, name, total, percentage.
// The server does every sum; the rank is only the order of the totals it sends.

import { language, number, percent, playerName, t } from "./i18n.js";
import { keepsSheet, mySeat } from "./rights.js";
import { h } from "./ui.js";

// Up to this many players the sheet keeps a column per player, as on a paper sheet.
const COLUMNS = 6;

// Is `game` a room with more players than a phone has columns for?
export const crowded = (game) => game.players.length - (game.left ?? []).length > COLUMNS;

// The rounds and the standings; `cell(game, round, player, points, label)` is the sheet's
// own editable cell (duplicate.js), so the director corrects a top here as there.
export function sheet(game, cell) {
  // Once the game is over the ranking says it (duplicate.js): no "provisional" list under it.
  return [rounds(game, cell), game.ended ? null : standings(game)];
}

function rounds(game, cell) {
  const open = game.rounds.length - 1;
  const last = game.rounds[open];
  const idle = game.ended && last.top === null && last.scores.every((s) => s === null);
  const played = idle ? game.rounds.slice(0, -1) : game.rounds;
  const mine = mySeat();
  const own = mine === null ? null : game.standings.find((s) => s.player === mine);
  const name = mine === null ? null : playerName(game.players, mine);
  return h("div", { class: "dup-scroll" },
    h("table", { class: "dup-rounds dup-crowd" },
      h("caption", { class: "sr-only" }, t("dup.crowd_caption")),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("dup.round")),
        h("th", { scope: "col", class: "num" }, t("dup.top")),
        mine === null ? null : h("th", { scope: "col", class: "num mine" }, name))),
      h("tbody", {}, played.map((row, r) => {
        const current = r === open && !game.ended;
        const round = number(r + 1);
        return h("tr", { class: current ? "open" : null },
          h("th", { scope: "row" }, round,
            current ? h("span", { class: "sr-only" }, `, ${t("dup.open_round")}`) : null),
          h("td", { class: "num dup-topcell" }, current && keepsSheet() ? "…"
            : cell(game, r, null, row.top, t("dup.cell_top", { round }))),
          mine === null ? null : h("td", { class: "num mine" },
            cell(game, r, mine, row.scores[mine], t("dup.cell_player", { round, name }))));
      })),
      h("tfoot", {}, h("tr", {},
        h("th", { scope: "row" }, t("dup.total")),
        h("td", { class: "num" }, number(game.tops)),
        own ? h("td", { class: "num mine" }, number(own.total)) : null))));
}

// The standings drawn last, and what they were drawn from: while a round's slips come in
// nothing of them changes, and the same element handed back to `replace` stays on the
// screen untouched (a room of 200: a thousand elements, two thirds of the duplicate screen).
let drawn = { from: "", element: null };

// One line per player still in the room, best first; equal totals share their rank.
function standings(game) {
  const from = JSON.stringify([language, mySeat(), game.players, game.standings]);
  if (from !== drawn.from) drawn = { from, element: listed(game) };
  return drawn.element;
}

function listed(game) {
  const sorted = [...game.standings].sort((a, b) => b.total - a.total || a.player - b.player);
  const ranks = [];
  sorted.forEach((s, i) => ranks.push(i && s.total === sorted[i - 1].total ? ranks[i - 1] : i + 1));
  const mine = mySeat();
  return h("section", { class: "dup-standings", "aria-labelledby": "dup-standings-title" },
    h("h3", { id: "dup-standings-title" }, t("dup.standings")),
    h("table", { class: "dup-standings-list" },
      h("thead", {}, h("tr", {},
        [t("dup.place"), t("dup.player"), t("dup.total"), t("dup.percent")].map((label, i) =>
          h("th", { scope: "col", class: i === 1 ? null : "num" }, label)))),
      h("tbody", {}, sorted.map((standing, i) => {
        const rank = ranks[i];
        return h("tr", { class: standing.player === mine ? "mine" : null,
          dataset: { player: standing.player } },
        h("td", { class: "num" }, number(rank)),
        h("th", { scope: "row" }, playerName(game.players, standing.player)),
        h("td", { class: "num" }, number(standing.total)),
        h("td", { class: "num" }, percent(standing.percent_tenths)));
      }))));
}
