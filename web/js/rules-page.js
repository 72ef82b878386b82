// The Woordstrijd rules page (/rules.html, issue 13): the rules in short, the tiles and their
// values, the premium squares and the bingo, what counts as a word, and the sources and
// licences (WS-02, WS-32..35). The long text is in strings/rules/{language}.json, the
// page's frame (language names, skip link, trademark) in the app's strings/{language}.json.
// The tile table and the board are drawn from the edition in /api/catalog, never from
// figures written here. The language: ?lang= if given, else the app's choice (i18n.js);
// the switch changes the app's choice too, as the app's own switch does.

import { call } from "./api.js";
import { premiumClass, premiumMark, renderBoard } from "./board.js";
import {
  LANGUAGES, language, missing, number, preferredLanguage, refusal, setLanguage, t,
} from "./i18n.js";
import { h, replace } from "./ui.js";

const EDITION = "woordstrijd";
const SECTIONS = ["rules", "tiles", "premiums", "words", "sources"];
const CENTRE = 7; // row and column of the centre square, from 0

// The attributions' addresses (WS-32, WS-33); the names are the same in every language.
const LINKS = {
  opentaal: ["https://github.com/OpenTaal/opentaal-wordlist", "Stichting OpenTaal"],
  bsd: ["https://opensource.org/license/bsd-3-clause", "Revised BSD License"],
  frequencywords: ["https://github.com/hermitdave/FrequencyWords", "FrequencyWords"],
  hermitdave: ["https://github.com/hermitdave", "hermitdave"],
  opensubtitles: ["https://www.opensubtitles.org/", "OpenSubtitles"],
  ccbysa: [() => `https://creativecommons.org/licenses/by-sa/3.0/deed.${language}`,
    "CC BY-SA 3.0"],
};

const query = new URLSearchParams(location.search);
// The page's state.
const page = {
  text: null, // the page's strings in the shown language
  edition: null,
  trouble: null, // why the edition could not be had
};

async function boot() {
  const asked = query.get("lang");
  const [catalog] = await Promise.all([
    call("/api/catalog").catch((error) => {
      page.trouble = error;
      return null;
    }),
    load(LANGUAGES.includes(asked) ? asked : preferredLanguage()),
  ]);
  page.edition = catalog?.editions.find((e) => e.code === EDITION) ?? null;
  if (catalog && !page.edition) {
    page.trouble = { code: "unknown_edition", params: { edition: EDITION } };
  }
  const select = document.getElementById("language");
  select.addEventListener("change", async () => {
    await load(select.value, true);
    if (query.has("lang")) {
      query.set("lang", select.value);
      history.replaceState(null, "", `?${query}${location.hash}`);
    }
    render();
  });
  render();
  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target) target.scrollIntoView();
  document.body.dataset.ready = "true"; // the browser tests wait for this
}

// The app's strings (the frame) and the page's own, both in `code`; without the page's own
// (the server away) the page says so in the frame's words.
async function load(code, remember = false) {
  const [, own] = await Promise.all([
    setLanguage(code, remember),
    fetch(new URL(`../strings/rules/${code}.json`, import.meta.url)) // this release's
      .then((answer) => (answer.ok ? answer.json() : null)).catch(() => null),
  ]);
  page.text = own;
}

// A string of the page; a missing one shows its key and is counted with the app's missing
// keys (the browser tests read them).
function r(key) {
  if (!(key in page.text)) {
    missing.add(`rules/${key}`);
    return key;
  }
  return page.text[key];
}

// A string whose {name}s are filled with `parts`: text, or elements such as links.
function rich(key, parts = {}) {
  return r(key).split(/\{(\w+)\}/).map((piece, i) => (i % 2 ? parts[piece] ?? piece : piece));
}

function link(name) {
  const [href, label] = LINKS[name];
  return h("a", { href: typeof href === "function" ? href() : href }, label);
}

function render() {
  replace(document.getElementById("language"), LANGUAGES.map((code) =>
    h("option", { value: code, selected: code === language }, t(`language.${code}`))));
  document.body.dataset.rendered = language; // the tests wait for a switch with this
  const main = document.getElementById("main");
  if (!page.text) {
    replace(main, h("h1", {}, t("edition.woordstrijd")),
      h("p", { class: "problem" }, refusal("offline")));
    return;
  }
  document.title = `${r("title")} · Tilestream`;
  replace(main,
    h("h1", {}, r("title")),
    h("p", { class: "lead" }, r("lead")),
    contents(),
    rules(),
    tiles(),
    premiums(),
    words(),
    sources());
}

function section(id, ...content) {
  return h("section", { id, class: "rules-section", "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, r(`${id}.heading`)), content);
}

const items = (...keys) => h("ul", {}, keys.map((key) => h("li", {}, r(key))));
const para = (key, parts) => h("p", {}, rich(key, parts));

function contents() {
  return h("nav", { class: "rules-contents", "aria-label": r("contents") },
    h("ul", {}, SECTIONS.map((id) => h("li", {}, h("a", { href: `#${id}` }, r(`${id}.heading`))))));
}

// WS-06..14, with the product's readings: exchange needs 7 in the bag, three passes in a
// row whatever the number of players, going out ends the game at once (P-50, P-51).
function rules() {
  return section("rules",
    para("rules.players"),
    h("h3", {}, r("rules.move_heading")),
    items("rules.first", "rules.connect", "rules.line", "rules.draw", "rules.invalid"),
    h("h3", {}, r("rules.instead_heading")),
    items("rules.exchange", "rules.pass"),
    h("h3", {}, r("rules.end_heading")),
    items("rules.end_out", "rules.end_passes"),
    para("rules.settle"));
}

// WS-20..26: the table is the edition's data as the server has it.
function tiles() {
  if (!page.edition) return section("tiles", problem());
  const letters = page.edition.letters.map(([face, value, count]) => ({ face, value, count }));
  const inLetters = letters.reduce((sum, letter) => sum + letter.count, 0);
  const total = inLetters + page.edition.blanks;
  const row = (name, value, count, blank = false) =>
    h("tr", { class: blank ? "blank" : null }, h("th", { scope: "row" }, name),
      h("td", { class: "num" }, number(value)), h("td", { class: "num" }, number(count)));
  const table = h("table", { class: "tile-table" },
    h("caption", {}, r("tiles.caption")),
    h("thead", {}, h("tr", {},
      ["tiles.letter", "tiles.value", "tiles.count"].map((key) =>
        h("th", { scope: "col" }, r(key))))),
    h("tbody", {}, letters.map((l) => row(l.face, l.value, l.count)),
      page.edition.blanks ? row(r("tiles.blank"), 0, page.edition.blanks, true) : null),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: "2" }, r("tiles.total")),
      h("td", { class: "num" }, number(total)))));
  return section("tiles",
    para("tiles.summary", {
      tiles: number(total), letters: number(inLetters), blanks: number(page.edition.blanks),
    }),
    table,
    para("tiles.blank_rule"),
    para("tiles.origin"),
    h("p", { class: "other-sets" }, rich("tiles.other_sets", {
      link: h("a", { href: "/#view=tiles" },
        rich("tiles.other_sets_link", { panel: t("tiles.title") })),
    })));
}

function problem() {
  return h("p", { class: "problem" },
    refusal(page.trouble?.code ?? "unknown", page.trouble?.params));
}

// WS-15..19: letter premiums green, word premiums blue, each with its text label; the
// colours are the edition's, as on the game's board.
function premiums() {
  const legend = page.edition
    ? h("ul", { class: `premium-legend ${premiumClass(page.edition)}` },
      Object.keys(page.edition.colours).map((code) => h("li", {},
        h("span", { class: `swatch p${code}` }, premiumMark(code)), " ",
        h("span", {}, h("strong", {}, r(`premiums.name.${code}`)), " ",
          r(`premiums.effect.${code}`)))))
    : null;
  const centre = page.edition?.board?.[CENTRE].split(" ")[CENTRE];
  const board = page.edition?.board
    ? h("figure", { class: "rules-board" },
      renderBoard({ edition: page.edition, label: r("premiums.board") }),
      h("figcaption", {}, r("premiums.board")))
    : null;
  return section("premiums",
    para("premiums.colours"),
    legend,
    items("premiums.order", "premiums.once"),
    centre && centre !== ".."
      ? para("premiums.centre", { premium: r(`premiums.name.${centre}`) }) : null,
    board,
    h("h3", {}, r("premiums.bingo_heading")),
    page.edition
      ? para("premiums.bingo", {
        bingo: number(page.edition.bingo_bonus), rack: number(page.edition.rack_size),
      })
      : null,
    para("premiums.bingo_end"));
}

// WS-26..31: judged on confirm only; the list never leaves the server (WS-30, P-52).
function words() {
  return section("words",
    para("words.judged"),
    para("words.list"),
    items("words.not", "words.case", "words.ij", "words.dutch"),
    para("words.server"),
    para("words.confirm"));
}

// WS-32..35: the attributions, with their links.
function sources() {
  const links = () => Object.fromEntries(Object.keys(LINKS).map((name) => [name, link(name)]));
  return section("sources", h("ul", { class: "attributions" },
    ["sources.wordlist", "sources.values", "sources.counts", "sources.game"].map((key) =>
      h("li", {}, rich(key, links())))));
}

boot();
