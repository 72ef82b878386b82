// A player's place in a duplicate room, on their own phone after every close: "Place 12 of
// 187" and the first five of the standings with their totals and percentages, so that a
// player in a room of 200 sees where they stand without reading the whole list. Equal
// totals share a place; the players the director took out (`sheet.left`) are ranked nowhere.

import { number, percent, playerName, t } from "./i18n.js";
import { h } from "./ui.js";

const SHOWN = 5; // the first places shown

// The standings of the players still in, best total first, each with its place: equal
// totals share it ("1, 2, 2, 4").
function ranked(game) {
  const left = new Set(game.left || []);
  const rows = game.standings.filter((s) => !left.has(s.player))
    .sort((a, b) => b.total - a.total || a.player - b.player);
  let place = 0;
  return rows.map((row, i) => {
    if (i === 0 || row.total < rows[i - 1].total) place = i + 1;
    return { ...row, place };
  });
}

// The card of `seat`'s place and the first places; null before any round closed.
export function card(game, seat) {
  const closed = game.rounds.findLastIndex((played) => played.results.length > 0);
  if (closed < 0) return null;
  const rows = ranked(game);
  const mine = rows.find((row) => row.player === seat);
  if (!mine) return null; // taken out of the room: ranked nowhere
  const shared = rows.some((row) => row.player !== seat && row.place === mine.place);
  const first = rows.slice(0, SHOWN);
  return h("section", { class: "card room place-card", id: "place-card",
    "aria-labelledby": "place-title" },
  h("h3", { id: "place-title" }, t("room.standing_title", { n: number(closed + 1) })),
  h("p", { class: "room-place", id: "room-place" },
    t(shared ? "room.place_shared" : "room.place",
      { place: number(mine.place), count: number(rows.length) })),
  h("table", { class: "room-first" },
    h("caption", { class: "sr-only" }, t("room.first_caption")),
    h("thead", {}, h("tr", {},
      [t("dup.place"), t("dup.player"), t("dup.total"), t("dup.percent")]
        .map((label, i) => h("th", { scope: "col", class: i === 1 ? null : "num" }, label)))),
    h("tbody", {},
      first.map((row) => line(game, row, seat)),
      // Below the first five, a gap and this player's own line.
      first.includes(mine) ? null : [
        h("tr", { class: "gap", "aria-hidden": "true" }, h("td", { colspan: 4 }, "…")),
        line(game, mine, seat)])));
}

function line(game, row, seat) {
  return h("tr", { class: row.player === seat ? "mine" : null, dataset: { player: row.player } },
    h("td", { class: "num" }, number(row.place)),
    h("th", { scope: "row" }, playerName(game.players, row.player)),
    h("td", { class: "num" }, number(row.total)),
    h("td", { class: "num" }, percent(row.percent_tenths)));
}
