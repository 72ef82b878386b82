// Every visible string comes from web/strings/{language}.json; numbers are written as each
// language writes them (FMT-01/02). A missing key shows its name and is remembered in
// `missing`, which the browser tests read.
//
// A string with a count has a form per plural category of its language, as Intl.PluralRules
// names them, and names the parameter whose number chooses the form:
//   "room.bag": {"plural": "n", "one": "{n} tile in the bag", "other": "{n} tiles in the bag"}
// (Polish: one, few, many, other). tests/web/test_strings.py holds every language to every
// category its rules have.

export const LANGUAGES = ["nl", "en", "fr", "de", "es", "it", "pl"];
const STORED = "tilestream.language";

export let language = "en";
// The language's strings and its plural rules.
const loaded = { strings: {}, plurals: new Intl.PluralRules("en") };
export const missing = new Set();
const listeners = [];
// The language's Intl formats, by kind and options: made once per language, since making
// one costs more than many uses of it (a room of 200's device list is drawn at every change).
const formats = new Map();

export function preferredLanguage() {
  const stored = localStorage.getItem(STORED);
  if (LANGUAGES.includes(stored)) return stored;
  for (const wanted of navigator.languages || [navigator.language || ""]) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

export async function setLanguage(code, remember = false) {
  // From this module's release, as the page's scripts (server/http/static.py)
  const answer = await fetch(new URL(`../strings/${code}.json`, import.meta.url));
  loaded.strings = await answer.json();
  loaded.plurals = new Intl.PluralRules(code);
  formats.clear();
  language = code;
  if (remember) localStorage.setItem(STORED, code);
  document.documentElement.lang = code;
  document.title = `Tilestream · ${t("common.title")}`;
  translate(document);
  for (const listener of listeners) listener(code);
}

// formatOf(Intl.DateTimeFormat, {dateStyle: "long"}): that format of the phone's language,
// as the phone's region writes it where the phone speaks that language (dates and times:
// en-GB "6 Dec 2026, 18:46", en-US "Dec 6, 2026, 6:46 PM"). Numbers are not made here:
// `number` writes them as the language does (FMT-01/02), whatever the region.
export function formatOf(Kind, options) {
  const key = `${Kind.name} ${JSON.stringify(options)}`;
  let made = formats.get(key);
  if (!made) formats.set(key, made = new Kind(regional(), options));
  return made;
}

// The phone's own tag for the app's language ("en-GB" for "en"), else the language.
function regional() {
  const tags = navigator.languages || [];
  return tags.find((tag) => tag.split("-")[0].toLowerCase() === language) || language;
}

export function onLanguage(listener) {
  listeners.push(listener);
}

// t("sheet.to_move", {name: "Anna"}): "{name}" in the string takes the parameter. The count
// of a plural string is given as a number: it chooses the form and is written as the
// language writes numbers.
export function t(key, params = {}) {
  const value = loaded.strings[key];
  const count = value?.plural;
  if (!count || typeof params[count] !== "number") return fill(key, params, params);
  return fill(key, params, { ...params, [count]: number(params[count]) });
}

// The string `key` with `shown` filled in; a plural string's form is chosen by the number in
// `counts` (the same parameters, before they were written as the language writes numbers).
function fill(key, counts, shown) {
  const value = loaded.strings[key];
  if (value === undefined) {
    missing.add(key);
    return key;
  }
  const text = typeof value === "string" ? value : plural(value, counts[value.plural]);
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    name in shown ? String(shown[name]) : whole);
}

// The form of a plural string ({one, few, many, other, …}) for `count` in this language.
export function plural(forms, count) {
  return forms[loaded.plurals.select(Number(count))] ?? forms.other;
}

export function has(key) {
  return key in loaded.strings;
}

// A time per move as the language says it: "2 minutes", "1 hour", "3 days".
export function moveTime(seconds) {
  if (seconds % 86400 === 0) return t("start.move_time_days", { n: seconds / 86400 });
  if (seconds % 3600 === 0) return t("start.move_time_hours", { n: seconds / 3600 });
  return t("start.move_time_minutes", { n: seconds / 60 });
}

// Fill every element marked data-i18n (text) or data-i18n-{attribute} under `root` (the
// page's meta description is a `content`).
function translate(root) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const attribute of ["aria-label", "placeholder", "title", "content"]) {
    const data = `i18n${attribute.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase())}`;
    for (const element of root.querySelectorAll(`[data-i18n-${attribute}]`)) {
      element.setAttribute(attribute, t(element.dataset[data]));
    }
  }
}

// "2.000" in Dutch, "2000" in Italian and Polish (FMT-01), "-6" with a plain minus (FMT-03).
export function number(value) {
  const digits = String(Math.abs(value));
  const short = ["it", "es", "pl"].includes(language) && Math.abs(value) < 10000;
  const separator = { en: ",", fr: "\u202f", pl: "\u00a0" }[language] ?? ".";
  const grouped = short ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return (value < 0 ? "-" : "") + grouped;
}

// A move's words and its bingo as a list ("ITALICS", "+50 bingo"): the bonus is said, or the
// move's points would not add up beside its words.
export const withBingo = (words, bingo) =>
  (bingo > 0 ? [...words, t("sheet.bingo", { points: number(bingo) })] : words);

// The colon after a label or a name put together in code ("Zoé : 7 sur le chevalet"): French
// sets a space before it, which no line break may part from the word.
export const colon = () => (language === "fr" ? "\u00a0: " : ": ");

// A word list as players name it: "OpenTaal (2.20, 298.310 woorden)", a club's file by name.
export function listName(list) {
  const params = { ...list, words: number(list.words) };
  if (list.release === null) return t("start.word_list_file", params);
  return t(list.size === null ? "start.word_list_release" : "start.word_list_size", params);
}

// Points added or taken: "+10", "-5", "0".
export const signed = (value) => (value > 0 ? `+${number(value)}` : number(value));

// A percentage from tenths with one decimal: "92,3%" (FMT-02); "–" with no tops (P-42).
export function percent(tenths) {
  if (tenths === null || tenths === undefined) return "–";
  const comma = language === "en" ? "." : ",";
  return `${number(Math.trunc(tenths / 10))}${comma}${Math.abs(tenths % 10)}%`;
}

// A refusal from the server as a sentence: error.{code}, or the general one. In an online
// game (`online`) a language whose online play has words of its own says online.error.{code}
// where it has one: Dutch Woordstrijd's "stenen" and "rekje" for the sheet's "blokjes" and
// "plankje" (WS-05, EDN-17).
export function refusal(code, params = {}, online = false) {
  const key = online && has(`online.error.${code}`) ? `online.error.${code}` : `error.${code}`;
  return has(key) ? fill(key, params || {}, numbers(params)) : t("error.unknown", { code });
}

// A notice of the sheet (pass limit, over-top, over-use …) as a sentence. A warning about a
// recorded line the reducer could not apply carries the refusal's own code instead.
export function notice(code, params = {}) {
  return has(`notice.${code}`) || !has(`error.${code}`)
    ? fill(`notice.${code}`, params || {}, numbers(params)) : refusal(code, params);
}

// The server's params are raw: a number in a sentence is written as the language writes it
// ("tot en met 2.000", FMT-01).
function numbers(params) {
  return Object.fromEntries(Object.entries(params || {}).map(([name, value]) =>
    [name, typeof value === "number" ? number(value) : value]));
}

// A player's name, or the default name in this language (P-03).
export function playerName(players, index) {
  return players[index] || t("common.default_player", { n: index + 1 });
}

// What is said beside the name of a seat the computer plays at `strength`: its strength, and
// that it is the computer unless its name says so already (the name the start form gives it,
// "Computer" or "Computer 2"), so no phone reads "Computer (computer, good moves)".
export function computerNote(name, strength) {
  const given = t("start.computer_name");
  const named = name === given
    || (name?.startsWith(`${given} `) && /^\d+$/.test(name.slice(given.length + 1)));
  return t(named ? `play.strength_${strength}` : `play.computer_${strength}`);
}
