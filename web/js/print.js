// The print pages (PRT): A4 sheets chosen by the query string.
//   ?page=classic&players=2      blank classic sheet for 2–4 players (PRT-01)
//   ?page=tiles&edition=pl       one box per tile of the edition, blanks included (PRT-02)
//   ?page=duplicate&players=4    blank duplicate sheet for 1–4 players (PRT-04)
//   ?page=game                   the current game of this phone's table (PRT-03, PRT-05)
//   ?page=duplicate-game         the same; the sheet's mode picks the layout either way
//   ?page=record                 a duplicate game sheet to publish: per round the rack and
//                                the top, the result list, every slip (issue 25, item 7)
//   ?page=simultaneous&id=…&game=2|series  a simultaneous's published results
//                                (print-simultaneous.js)
// The current game comes from the server with the device token kept in local storage; the
// page writes what the server counted and never counts itself.

import { call, tableView } from "./api.js";
import {
  formatOf, language, number, percent, playerName, preferredLanguage, refusal, setLanguage, signed,
  t,
} from "./i18n.js";
import * as simultaneous from "./print-simultaneous.js";
import { extras } from "./extras.js";
import { conventionOf, isBingo, placed } from "./references.js";
import { loadSession } from "./session.js";
import { isRoom, modeOf, playerCounts } from "./state.js";
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
  record: { record: true },
  simultaneous: { simultaneous: true },
};

async function boot() {
  [loaded.catalog] = await Promise.all([call("/api/catalog"), setLanguage(preferredLanguage())]);
  const page = PAGES[query.get("page")] || PAGES.classic;
  let view = null;
  let trouble = null;
  const session = page.game || page.record ? loadSession() : null;
  // ?game=previous: the game before the table's latest new game (a phone's link to it).
  const previous = query.get("game") === "previous" ? "&game=previous" : "";
  if (session) {
    try {
      view = page.record ? await call(
        `/api/tables/${session.table}/record.json?lang=${language}${previous}`,
        { token: session.token })
        : await tableView(session);
    } catch (error) {
      trouble = error;
    }
  }
  const results = page.simultaneous ? await simultaneous.load(query) : null;
  const draw = () => {
    if (page.simultaneous) return simultaneous.sheet(results, heading, scroller);
    if (!page.game && !page.record) return page.draw(page);
    if (trouble) return problem(refusal(trouble.code, trouble.params));
    if (page.record) return view ? recordSheet(view) : problem(t("print.no_game"));
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

// A blank sheet is for a table, a column a player: 1–4 (PRT-01, PRT-04) even where a room
// holds 200, whose game prints four players a sheet (?page=duplicate-game, `columns`).
const PAPER_COLUMNS = 4;
const counts = (page) => playerCounts(modeOf(page.mode, loaded.catalog))
  .filter((n) => n >= 1 && n <= PAPER_COLUMNS);

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
  return formatOf(Intl.DateTimeFormat, { dateStyle: "long" }).format(new Date());
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
  // A pass the time per move made, a penalty the game clock's overtime cost: said as such.
  const kind = line.timed_out ? "timeout" : line.overtime ? "overtime" : line.kind;
  return t(`print.kind_${kind}`);
}

// The final table (END-07): place and name, then the columns `cells` gives for each row.
function ranking(game, names, headers, cells) {
  const rows = [...game.final].sort((a, b) => a.place - b.place || a.player - b.player);
  return h("section", { class: "ranking" },
    h("h2", {}, t("print.ranking")),
    h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, [t("dup.place"), t("print.name"), ...headers]
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
  // Rows to go on with by hand, for a sheet kept at a table; a room's rounds are the app's.
  while (!game.ended && !isRoom(game) && rows.length < ROUNDS) rows.push(null);
  const names = game.players.map((_, i) => playerName(game.players, i));
  return {
    title,
    content: [
      heading(title, t(`edition.${game.edition}`), today()),
      ...columns(names.length).map((players, _, sheets) => scroller(sheets.length > 1
        ? `${title}: ${players.map((p) => names[p]).join(", ")}` : title, // a region's own name
      duplicateTable(names, rows, game, players))),
      extras(game) ? h("p", { class: "legend" }, t("print.extra_legend")) : null,
      game.final ? ranking(game, names,
        [t("print.total"), t("print.difference"), t("print.percentage")], (row) => {
          const standing = game.standings[row.player];
          return [number(standing.total), number(standing.difference),
            percent(standing.percent_tenths)];
        }) : null,
    ].filter(Boolean),
  };
}

// A room's players, as many sheets of at most four columns (the paper form's, PRT-04) as
// it takes, as even as they go: eleven players' columns across one A4 page overprint each
// other. Each sheet prints on a page of its own; a table of 1–4 is one sheet.
function columns(count) {
  const sheets = Math.max(1, Math.ceil(count / PAPER_COLUMNS)); // a room with nobody yet: one
  const size = Math.ceil(count / sheets);
  return Array.from({ length: sheets }, (_, s) => Array.from(
    { length: Math.min(size, count - s * size) }, (__, i) => s * size + i));
}

// Round, top move, top, the score of each of `players` (indices into `names`, every player
// by default); below, the totals against the sum of the tops (DUP-05..07). When a round
// holds a solo, a bonus or a penalty, each player has a ± column beside the points, so that
// a player's two columns add up to the total.
function duplicateTable(names, rows, game, players = names.map((_, p) => p)) {
  const extra = game && extras(game);
  const span = extra ? 2 : 1;
  const footer = (label, top, cell) => h("tr", {}, h("th", { scope: "row", colspan: 2 }, label),
    h("td", { class: "num" }, game ? top : ""),
    players.map((p) => h("td", { class: "num", colspan: span },
      game ? cell(game.standings[p]) : "")));
  const head = (label, klass) => h("th", { scope: "col", class: klass, rowspan: span }, label);
  return h("table", { class: `sheet duplicate players-${players.length}` },
    h("thead", {}, h("tr", {},
      head(t("print.round"), "round"),
      head(t("print.top_move"), "words"),
      head(t("print.top"), "top"),
      players.map((p) => nameCell(names[p], span))),
    extra ? h("tr", {}, players.flatMap(() => [
      h("th", { scope: "col", class: "num" }, t("print.points")),
      h("th", { scope: "col", class: "num extra" }, t("print.extra")),
    ])) : null),
    h("tbody", {}, rows.map((round, r) => h("tr", { class: "round" },
      h("th", { scope: "row", class: "round" }, number(r + 1)),
      h("td", { class: "words" }, round ? topMove(round, game) : ""),
      h("td", { class: "num top" }, round && round.top !== null ? number(round.top) : ""),
      players.flatMap((p) => [
        h("td", { class: "num" }, round && round.scores[p] !== null ? number(round.scores[p]) : ""),
        extra ? h("td", { class: "num extra" }, extra[r]?.[p] ? signed(extra[r][p]) : "") : null,
      ])))),
    h("tfoot", {},
      footer(t("print.total"), game && number(game.tops), (s) => number(s.total)),
      footer(t("print.difference"), "", (s) => number(s.difference)),
      footer(t("print.percentage"), "", (s) => percent(s.percent_tenths))));
}

// The round's rack in a room (above the top), the top's words, its bingo, and where the
// main word starts for a board move: "H4 →", "H4 ↓", or under FISF rules "H4", "4H".
function topMove(round, game) {
  const rack = round.rack && round.rack.length
    ? h("span", { class: "rack" }, round.rack.join("")) : null;
  const words = round.top_words.map((word) => word[0]).join(", ");
  const info = game && loaded.catalog.editions.find((e) => e.code === game.edition);
  const bingo = info && isBingo(round, info)
    ? [" ", h("span", { class: "bingo" }, t("room.bingo"))] : null;
  const first = round.top_words[0];
  if (!first || !first[3]) return [rack, words, bingo];
  const convention = game ? conventionOf(loaded.catalog.rules.find((r) => r.code === game.rules))
    : "board";
  const [, , , square, direction] = first;
  return [rack, words, bingo, " ",
    h("span", { class: "where" }, placed(square, direction, convention))];
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

// --- the game sheet to publish (issue 25, item 7) -------------------------------------

// The record the server derived from the log (rules/room/record.py): the rounds with their
// rack and top, the result list, then every slip round by round. Each table's head row
// repeats on every printed page (thead: table-header-group), so a list of 200 players
// over several pages keeps its columns named.
function recordSheet(record) {
  const title = t("print.game_sheet");
  // The players ranked: one the director took out keeps their slips but not a place.
  const details = [t(`edition.${record.edition}`), t(`rules.${record.rules}`),
    t("print.players_count", { n: number(record.results.length) }), today()];
  return {
    title,
    content: [
      heading(title, ...details),
      scroller(title, recordRounds(record)),
      h("section", { class: "ranking record-results" }, h("h2", {}, t("print.ranking")),
        scroller(t("print.ranking"), recordResults(record))),
      record.rounds.some((round) => round.slips.length) ? h("section", { class: "record-slips" },
        h("h2", {}, t("print.slips_title")),
        record.rounds.map((round) => recordSlips(record, round))) : null,
    ].filter(Boolean),
  };
}

function topText(top) {
  if (!top) return "";
  return top.bingo ? [top.word, " ", h("span", { class: "bingo" }, t("print.bingo"))] : top.word;
}

function recordRounds(record) {
  const col = (label, klass) => h("th", { scope: "col", class: klass }, label);
  return h("table", { class: "sheet record rounds" },
    h("thead", {}, h("tr", {}, col(t("print.round"), "round"), col(t("print.rack"), "rack"),
      col(t("print.top_move"), "words"), col(t("print.reference"), "ref"),
      col(t("print.top"), "top"))),
    h("tbody", {}, record.rounds.map((round) => h("tr", { class: "round" },
      h("th", { scope: "row", class: "round" }, number(round.number)),
      h("td", { class: "rack" }, round.rack),
      h("td", { class: "words" }, topText(round.top)),
      h("td", { class: "ref" }, round.top ? round.top.reference : ""),
      h("td", { class: "num top" }, round.top ? number(round.top.points) : "")))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: 4 }, t("print.total")),
      h("td", { class: "num" }, number(record.tops)))));
}

// Place, name, each round's cell, solos, penalties, total, difference, percentage: the
// columns of the CSV (docs/decisions.md, "The game sheet to publish").
function recordResults(record) {
  const col = (label, klass = "num") => h("th", { scope: "col", class: klass }, label);
  return h("table", { class: "sheet record results" },
    h("thead", {}, h("tr", {}, col(t("dup.place")), col(t("print.name"), "name"),
      record.rounds.map((round) => col(number(round.number))),
      col(t("print.solos")), col(t("print.penalties")), col(t("print.total")),
      col(t("print.difference")), col(t("print.percentage")))),
    h("tbody", {}, record.results.map((row) => h("tr", { class: "player" },
      h("td", { class: "num" }, number(row.rank)),
      h("th", { scope: "row", class: "name" }, row.name),
      record.rounds.map((round) => h("td", { class: "num" },
        round.scores[row.player] === null ? "" : number(round.scores[row.player]))),
      h("td", { class: "num" }, row.solos ? signed(row.solos) : ""),
      h("td", { class: "num" }, row.lines ? signed(row.lines) : ""),
      h("td", { class: "num" }, number(row.total)),
      h("td", { class: "num" }, number(row.difference)),
      h("td", { class: "num" }, percent(row.percent_tenths))))));
}

// One round's slips: the rack and the top above, each player's word, reference, points and
// what the close said of it (not in the list, late, a solo).
function recordSlips(record, round) {
  const caption = [t("print.round"), " ", number(round.number), " · ", round.rack,
    round.top ? ` · ${round.top.word} ${round.top.reference} ${number(round.top.points)}` : ""];
  const col = (label, klass) => h("th", { scope: "col", class: klass }, label);
  return h("table", { class: "sheet record slips" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, col(t("print.name"), "name"), col(t("print.words"), "words"),
      col(t("print.reference"), "ref"), col(t("print.points"), "num"), col("", "note"))),
    h("tbody", {}, round.slips.map((slip) => h("tr", { class: "slip" },
      h("th", { scope: "row", class: "name" }, record.players[slip.player]),
      h("td", { class: "words" }, slip.word),
      h("td", { class: "ref" }, slip.reference),
      h("td", { class: "num" }, number(slip.points)),
      h("td", { class: "note" }, slipNote(slip))))));
}

function slipNote(slip) {
  const said = {
    invalid: () => t("room.invalid", { word: slip.word, bad: slip.bad }),
    late: () => t("room.late", { word: slip.word }),
    unplayable: () => t("room.unplayable", { word: slip.word }),
    missing: () => t("room.missing"),
    entered: () => t("room.entered"),
  }[slip.kind];
  return [said ? said() : "", slip.solo ? ` ${t("room.solo", { points: slip.solo })}` : ""];
}
