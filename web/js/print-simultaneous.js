// The print page of a simultaneous's results (print.html?page=simultaneous&id=…&game=N or
// game=series), public once the game's window has closed: every player of every centre
// placed, with each round's score under the row of the sealed tops, the total, the
// difference from the tops and the percentage; for the series, the games added.

import { call } from "./api.js";
import { number, percent, signed, t } from "./i18n.js";
import { refusalText } from "./refusals.js";
import { h, stylesheet } from "./ui.js";

// The results as the server publishes them, or the refusal (results_sealed: not yet).
export async function load(query) {
  const id = encodeURIComponent(query.get("id") || "");
  const game = query.get("game") === "series" ? "series" : Number(query.get("game")) || 1;
  try {
    const [results] = await Promise.all([
      call(`/api/simultaneous/${id}/results.json?game=${game}`),
      stylesheet("/css/simultaneous.css")]);
    return { results };
  } catch (error) {
    return { trouble: error };
  }
}

// The page: {title, content}, as print.js draws every page.
export function sheet(loaded, heading, scroller) {
  if (loaded.trouble) {
    const text = refusalText(loaded.trouble.code, loaded.trouble.params);
    return { title: t("print.title"),
      content: [h("h1", {}, t("print.title")), h("p", { class: "problem" }, text)] };
  }
  const results = loaded.results;
  const series = results.tops === undefined;
  const title = series ? t("sim.print_series", { name: results.simultaneous })
    : t("sim.print_game", { name: results.simultaneous, n: number(results.game) });
  const details = series ? [t("sim.games_count", { n: results.games })]
    : [t(`edition.${results.edition}`), t(results.rules === "duplicate" ? "start.rules_duplicate"
      : `rules.${results.rules}`), t("sim.centres_count", { n: results.centres.length })];
  return {
    title,
    content: [h("div", { class: "sim-print-page" },
      heading(title, ...details, t("print.players_count", { n: number(results.players.length) })),
      scroller(title, series ? seriesTable(results) : gameTable(results)),
      !series && results.players.some((row) => row.extra)
        ? h("p", { class: "legend" }, t("print.extra_legend")) : null)],
  };
}

const col = (label, klass = "num") => h("th", { scope: "col", class: klass }, label);
const placeOf = (row) => (row.tied ? `${number(row.place)}=` : number(row.place));

// Place, name, centre, each round's score, ± (when a room gave a solo, a bonus or a penalty:
// a row then adds up to its total), total, difference, percentage; the tops first.
function gameTable(results) {
  const tops = results.tops;
  const sum = tops.reduce((total, top) => total + top.points, 0);
  const extra = results.players.some((row) => row.extra);
  return h("table", { class: "sheet record results sim-results" },
    h("thead", {}, h("tr", {}, col(t("dup.place")), col(t("print.name"), "name"),
      col(t("sim.centre"), "name"), tops.map((top) => col(number(top.number))),
      extra ? col(t("print.extra"), "num extra") : null,
      col(t("print.total")), col(t("sim.difference_col")), col(t("sim.percent")))),
    h("tbody", {},
      h("tr", { class: "tops" }, h("td", {}), h("th", { scope: "row", class: "name" },
        t("print.top")), h("td", {}),
      tops.map((top) => h("td", { class: "num", title: `${top.rack} · ${top.word} ${top.reference}` },
        number(top.points))),
      extra ? h("td", { class: "num extra" }) : null,
      h("td", { class: "num" }, number(sum)), h("td", { class: "num" }, number(0)),
      h("td", { class: "num" }, percent(1000))),
      results.players.map((row) => h("tr", { class: "player" },
        h("td", { class: "num" }, placeOf(row)),
        h("th", { scope: "row", class: "name" }, row.name),
        h("td", { class: "name" }, row.centre),
        tops.map((_, i) => h("td", { class: "num" },
          row.scores[i] === null || row.scores[i] === undefined ? "" : number(row.scores[i]))),
        extra ? h("td", { class: "num extra" }, row.extra ? signed(row.extra) : "") : null,
        h("td", { class: "num" }, number(row.total)),
        h("td", { class: "num" }, number(row.difference)),
        h("td", { class: "num" }, percent(row.percent_tenths))))));
}

// Place, name, centre, games played, total, the tops of those games, percentage.
function seriesTable(results) {
  return h("table", { class: "sheet record results sim-results" },
    h("thead", {}, h("tr", {}, col(t("dup.place")), col(t("print.name"), "name"),
      col(t("sim.centre"), "name"), col(t("sim.games_col")), col(t("print.total")),
      col(t("sim.tops_col")), col(t("sim.percent")))),
    h("tbody", {}, results.players.map((row) => h("tr", { class: "player" },
      h("td", { class: "num" }, placeOf(row)),
      h("th", { scope: "row", class: "name" }, row.name),
      h("td", { class: "name" }, row.centre),
      h("td", { class: "num" }, number(row.games)),
      h("td", { class: "num" }, number(row.total)),
      h("td", { class: "num" }, number(row.tops)),
      h("td", { class: "num" }, percent(row.percent_tenths))))));
}
