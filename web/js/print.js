// The print pages (PRT): A4 sheets chosen by the query string.
//   ?page=classic&players=2      blank classic sheet for 2–4 players (PRT-01)
//   ?page=tiles&edition=pl       one box per tile of the edition, blanks included (PRT-02)
//   ?page=duplicate&players=4    blank duplicate sheet for 1–4 players (PRT-04)
//   ?page=game                   the current game of this phone's table (PRT-03, PRT-05)
//   ?page=duplicate-game         the same; the sheet's mode picks the layout either way
// The current game comes from the server with the device token kept in local storage; the
// page writes what the server counted and never counts itself.

import { call, tableView } from "./api.js";
import {
  language, number, percent, playerName, preferredLanguage, refusal, setLanguage, t,
} from "./i18n.js";
import { loadSession } from "./session.js";
import { modeOf, playerCounts } from "./state.js";
import { h, replace } from "./ui.js";

const ROUNDS = 24; // rows of a blank sheet, and of a running game's sheet to go on with
const BLANK = "?";

const query = new URLSearchParams(location.search);
// The page's data, loaded once.
const loaded = {
  catalog: null,
};

const PAGES = {
  // The player counts are the mode's (the catalog's); a blank page is for the fewest
  // players of a classic game, the most of a duplicate one.
  classic: { mode: "classic", fewest: true, draw: (page) => blankClassic(players(page)) },
  duplicate: { mode: "duplicate", draw: (page) => blankDuplicate(players(page)) },
  tiles: { editions: true, draw: () => tileSheet(editionCode()) },
  game: { game: true },
  "duplicate-game": { game: true },
};

async function boot() {
  [loaded.catalog] = await Promise.all([call("/api/catalog"), setLanguage(preferredLanguage())]);
  const page = PAGES[query.get("page")] || PAGES.classic;
  let view = null;
  let trouble = null;
  const session = page.game ? loadSession() : null;
  if (session) {
    try {
      view = await tableView(session);
    } catch (error) {
      trouble = error;
    }
  }
  const draw = () => {
    if (!page.game) return page.draw(page);
    if (trouble) return problem(refusal(trouble.code, trouble.params));
    if (!view || !view.sheet) return problem(t("print.no_game"));
    return view.sheet.mode === "duplicate" ? duplicateGame(view.sheet) : classicGame(view.sheet);
  };
  const render = () => {
    const { title, content } = draw();
    document.title = `${title} · Tilestream`;
    document.getElementById("page").replaceChildren(...content);
    replace(document.getElementById("toolbar"), toolbar(page, render));
  };
  render();
  document.body.dataset.ready = "true"; // the browser tests wait for this
}

// On screen only: the print button, and the choices a blank page has.
function toolbar(page, render) {
  const choose = (name, value) => {
    query.set(name, value);
    history.replaceState(null, "", `?${query}`);
    render();
  };
  return [
    h("button", { type: "button", class: "primary", onclick: () => print() }, t("print.print")),
    page.mode ? h("label", {}, t("print.players"), " ", h("select", {
      id: "print-players", onchange: (e) => choose("players", e.target.value),
    }, counts(page).map((n) => h("option", {
      value: n, selected: n === players(page),
    }, number(n))))) : null,
    page.editions ? h("label", {}, t("print.edition"), " ", h("select", {
      id: "print-edition", onchange: (e) => choose("edition", e.target.value),
    }, loaded.catalog.editions.map((e) => h("option", {
      value: e.code, selected: e.code === editionCode(),
    }, t(`edition.${e.code}`))))) : null,
  ];
}

const counts = (page) => playerCounts(modeOf(page.mode, loaded.catalog));

function players(page) {
  const wanted = Number(query.get("players"));
  const offered = counts(page);
  if (offered.includes(wanted)) return wanted;
  return page.fewest ? offered[0] : offered[offered.length - 1];
}

function editionCode() {
  const codes = loaded.catalog.editions.map((e) => e.code);
  for (const code of [query.get("edition"), language]) if (codes.includes(code)) return code;
  return "en";
}

function problem(text) {
  return { title: t("print.title"),
    content: [h("h1", {}, t("print.title")), h("p", { class: "problem" }, text)] };
}

// A sheet wider than a phone scrolls sideways in its own region, which a keyboard can reach
// and scroll too (tabindex) and a screen reader names.
function scroller(title, table) {
  return h("div", { class: "sheet-scroll", tabindex: "0", role: "region", "aria-label": title },
    table);
}

function heading(title, ...details) {
  return h("header", { class: "sheet-head" }, h("h1", {}, title),
    h("p", { class: "details" }, details.filter(Boolean).join(" · ")));
}

// A line to write on: "Datum ______".
function blankField(label) {
  return h("p", { class: "write-on" }, h("span", {}, label), h("span", { class: "line" }));
}

function today() {
  return new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(new Date());
}

// --- classic (PRT-01, PRT-03) ---------------------------------------------------------

function blankClassic(count) {
  const title = t("print.classic_title");
  const empty = Array.from({ length: ROUNDS }, () => Array(count).fill(null));
  return {
    title,
    content: [heading(title, t("print.players_count", { n: number(count) })),
      blankField(t("print.date")),
      scroller(title, classicTable(Array(count).fill(null), empty, null))],
  };
}

function classicGame(game) {
  const title = t("print.classic_title");
  const count = game.players.length;
  const rounds = Math.max(...game.lines.map((line) => line.round + 1), 0);
  const table = Array.from({ length: game.ended ? rounds : Math.max(rounds, ROUNDS) },
    () => Array.from({ length: count }, () => []));
  for (const line of game.lines) table[line.round][line.player].push(line);
  const names = game.players.map((_, i) => playerName(game.players, i));
  return {
    title,
    content: [
      heading(title, t(`edition.${game.edition}`), t(`rules.${game.rules}`), today()),
      scroller(title, classicTable(names,
        table.map((row) => row.map((lines) => lines.length ? lines : null)), game.final)),
      game.final ? ranking(game, names,
        [t("print.before"), t("print.settlement"), t("print.final")],
        (row) => [number(row.before), signed(row.settlement), number(row.final)]) : null,
    ].filter(Boolean),
  };
}

// Per player: the words (two players only, as on the paper sheet), the turn's points and
// the running total; then a row for the remaining tiles and one for the final total.
function classicTable(names, rows, final) {
  const words = names.length === 2;
  const span = words ? 3 : 2;
  const byPlayer = final && Object.fromEntries(final.map((row) => [row.player, row]));
  const closing = (label, cell) => h("tr", { class: "closing" }, h("th", { scope: "row" }, label),
    names.map((_, p) => h("td", { colspan: span, class: "num" }, byPlayer ? cell(byPlayer[p]) : "")));
  return h("table", { class: `sheet classic players-${names.length}` },
    h("thead", {},
      h("tr", {}, h("th", { rowspan: 2, scope: "col", class: "round" }, t("print.round")),
        names.map((name) => nameCell(name, span))),
      h("tr", {}, names.flatMap(() => [
        words ? h("th", { scope: "col", class: "words" }, t("print.words")) : null,
        h("th", { scope: "col" }, t("print.points")),
        h("th", { scope: "col" }, t("print.total")),
      ]))),
    h("tbody", {},
      rows.map((row, r) => h("tr", { class: "round" },
        h("th", { scope: "row", class: "round" }, number(r + 1)),
        row.flatMap((lines) => classicCells(lines, words)))),
      closing(t("print.remaining"), (row) => signed(row.settlement)),
      closing(t("print.final_total"), (row) => number(row.final))));
}

function nameCell(name, span) {
  return h("th", { colspan: span, scope: "colgroup", class: "name" },
    name ?? h("span", { class: "label" }, t("print.name")));
}

function classicCells(lines, words) {
  if (!lines) return [words ? h("td", { class: "words" }) : null, h("td"), h("td")];
  // A turn and the penalties beside it, one line each, the words level with their points.
  const what = lines.map((line) => h("span", { class: "entry" }, describe(line) || "\u00a0"));
  const points = lines.map((line) => h("span", { class: "entry" },
    line.kind === "penalty" || line.kind === "bonus" ? signed(line.points) : number(line.points)));
  const said = lines.map(describe).filter(Boolean).join(", ");
  return [
    words ? h("td", { class: "words" }, what) : null,
    h("td", { class: "num" }, words || !said ? null : h("span", { class: "what" }, said), points),
    h("td", { class: "num" }, number(lines[lines.length - 1].total)),
  ];
}

function describe(line) {
  if (line.kind === "move") return line.words.map((word) => word[0]).join(", ");
  if (line.kind === "points") return "";
  return t(`print.kind_${line.kind}`);
}

function signed(value) {
  return value > 0 ? `+${number(value)}` : number(value);
}

// The final table (END-07): place and name, then the columns `cells` gives for each row.
function ranking(game, names, headers, cells) {
  const rows = [...game.final].sort((a, b) => a.place - b.place || a.player - b.player);
  return h("section", { class: "ranking" },
    h("h2", {}, t("print.ranking")),
    h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, [t("print.place"), t("print.name"), ...headers]
        .map((label) => h("th", { scope: "col" }, label)))),
      h("tbody", {}, rows.map((row) => h("tr", {},
        h("td", { class: "num" }, number(row.place)),
        h("th", { scope: "row" }, names[row.player]),
        cells(row).map((text) => h("td", { class: "num" }, text)))))));
}

// --- duplicate (PRT-04, PRT-05) -------------------------------------------------------

function blankDuplicate(count) {
  const title = t("print.duplicate_title");
  const rows = Array.from({ length: ROUNDS }, () => null);
  return {
    title,
    content: [heading(title, t("print.players_count", { n: number(count) })),
      blankField(t("print.date")),
      scroller(title, duplicateTable(Array(count).fill(null), rows, null))],
  };
}

function duplicateGame(game) {
  const title = t("print.duplicate_title");
  // The last round stays open until its top is in; an open round with nothing in it is
  // the next one to play, a blank row like the ones added below.
  const rounds = game.rounds.filter((round, i) => i < game.rounds.length - 1
    || round.top !== null || round.scores.some((score) => score !== null));
  const rows = [...rounds];
  while (!game.ended && rows.length < ROUNDS) rows.push(null);
  const names = game.players.map((_, i) => playerName(game.players, i));
  return {
    title,
    content: [
      heading(title, t(`edition.${game.edition}`), today()),
      scroller(title, duplicateTable(names, rows, game)),
      game.final ? ranking(game, names,
        [t("print.total"), t("print.difference"), t("print.percentage")], (row) => {
          const standing = game.standings[row.player];
          return [number(standing.total), number(standing.difference),
            percent(standing.percent_tenths)];
        }) : null,
    ].filter(Boolean),
  };
}

// Round, top move, top, each player's score; below, the totals against the sum of the
// tops (DUP-05..07).
function duplicateTable(names, rows, game) {
  const footer = (label, top, cell) => h("tr", {}, h("th", { scope: "row", colspan: 2 }, label),
    h("td", { class: "num" }, game ? top : ""),
    names.map((_, p) => h("td", { class: "num" }, game ? cell(game.standings[p]) : "")));
  return h("table", { class: `sheet duplicate players-${names.length}` },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "round" }, t("print.round")),
      h("th", { scope: "col", class: "words" }, t("print.top_move")),
      h("th", { scope: "col", class: "top" }, t("print.top")),
      names.map((name) => nameCell(name, 1)))),
    h("tbody", {}, rows.map((round, r) => h("tr", { class: "round" },
      h("th", { scope: "row", class: "round" }, number(r + 1)),
      h("td", { class: "words" }, round ? topMove(round) : ""),
      h("td", { class: "num top" }, round && round.top !== null ? number(round.top) : ""),
      names.map((_, p) => h("td", { class: "num" },
        round && round.scores[p] !== null ? number(round.scores[p]) : ""))))),
    h("tfoot", {},
      footer(t("print.total"), game && number(game.tops), (s) => number(s.total)),
      footer(t("print.difference"), "", (s) => number(s.difference)),
      footer(t("print.percentage"), "", (s) => percent(s.percent_tenths))));
}

// The top's words, and where the main word starts ("H4 →", "H4 ↓") for a board move.
function topMove(round) {
  const words = round.top_words.map((word) => word[0]).join(", ");
  const first = round.top_words[0];
  if (!first || !first[3]) return words;
  return [words, " ", h("span", { class: "where" },
    `${first[3]} ${first[4] === "down" ? "↓" : "→"}`)];
}

// --- tile sheet (PRT-02) --------------------------------------------------------------

// One box per tile to strike once it lies on the board; the blanks too (PL:101).
function tileSheet(code) {
  const info = loaded.catalog.editions.find((e) => e.code === code);
  const letters = [...info.letters, [BLANK, 0, info.blanks]];
  const tiles = letters.reduce((sum, [, , count]) => sum + count, 0);
  const points = letters.reduce((sum, [, value, count]) => sum + value * count, 0);
  const title = t("print.tiles_title");
  return {
    title,
    content: [
      heading(title, t(`edition.${code}`), t("tiles.set_summary", {
        tiles: number(tiles), blanks: number(info.blanks), points: number(points),
      })),
      h("ul", { class: "tile-sheet" }, letters.map(([letter, value, count]) =>
        h("li", { class: "letter", dataset: { letter } },
          h("span", { class: "face" }, letter, h("sub", {}, number(value))),
          h("span", { class: "times" }, letter === BLANK ? t("tiles.blank") : `×${number(count)}`),
          h("span", { class: "sr-only" }, t("print.boxes", { count: number(count) })),
          h("span", { class: "boxes", "aria-hidden": "true" },
            Array.from({ length: count }, () => h("span", { class: "box" })))))),
    ],
  };
}

boot();
