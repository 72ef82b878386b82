// Spoken moves, on request (issue 27): a phone may read each line recorded on the classic
// sheet aloud in its language with the browser's speech synthesis — "Bas: KRAAN, 16 — totaal
// 49", a pass, an exchange, typed points, a withdrawn word, a penalty, a challenge's verdict,
// the end, and an undo. Off by default; the choice is this phone's, kept in local storage.
//
// Only what is recorded after the page loaded is said: the first live view is taken as it
// stands, silently (a reload never reads the history, nor does the view kept from before it),
// and from then on each line, verdict and end is said once by its seq, however many frames
// or whole views (a resync) bring it again. Lines come and go by seq alone, so the move a
// challenge took off, given back by an undo of the verdict, is not said twice.

import { language, number, playerName, t } from "./i18n.js";
import { app, rulesOf, sheet, subscribe } from "./state.js";
import { h, say } from "./ui.js";

const STORED = "tilestream.speech";
const supported = typeof speechSynthesis !== "undefined"
  && typeof SpeechSynthesisUtterance !== "undefined";

// What this phone has seen of the current game, in one place.
const seen = {
  started: null, // the game (its start's seq); null until the first live view
  known: new Set(), // seqs of every line and verdict met in this game: said or found at load
  lines: new Map(), // seq → line, as the last view had them: an undo names whose it was
  verdicts: new Map(), // seq → verdict, likewise
  ended: false,
};
// Sentences the browser would not say before the user touched the page (below).
const blocked = { texts: [], told: false };

const speaking = () => supported && localStorage.getItem(STORED) === "on";

export function mount() {
  subscribe(follow);
}

// The setting, for the sheet: a checkbox with what it does (or why this browser cannot).
export function toggle() {
  const id = "speech-toggle";
  return h("div", { class: "speech-setting" },
    h("label", { class: "option", for: id },
      h("input", {
        type: "checkbox", id, checked: speaking(), disabled: !supported,
        "aria-describedby": "speech-hint",
        onchange: (event) => turn(event.target.checked),
      }), " ", t("speech.toggle")),
    h("p", { class: "hint", id: "speech-hint" },
      t(supported ? "speech.toggle_hint" : "speech.unsupported")));
}

// Switched on, it says so at once: the tap lets the browser speak (phones allow speech only
// after a touch) and the player hears that it works.
function turn(on) {
  if (on) localStorage.setItem(STORED, "on");
  else localStorage.removeItem(STORED);
  if (on) utter(t("speech.on"));
  else speechSynthesis.cancel();
}

function follow() {
  const game = sheet();
  if (!game || game.mode !== "classic" || app.kept) return;
  if (game.started !== seen.started) {
    remember(game); // the first live view, or a new game: nothing of it is news
    return;
  }
  const news = [];
  const covered = new Set(); // lines gone with a verdict, not by an undo of their own
  for (const verdict of game.challenges) {
    if (seen.known.has(verdict.seq)) continue;
    news.push([verdict.seq, judged(game, verdict)]);
    covered.add(verdict.line); // the move it took off was not undone: its lines say what follows
  }
  for (const line of game.lines) {
    if (!seen.known.has(line.seq)) {
      news.push([line.seq, sentence(game, line)]);
    }
  }
  const undone = [];
  const standing = new Set(game.challenges.map((v) => v.seq));
  for (const [seq, verdict] of seen.verdicts) {
    if (standing.has(seq)) continue;
    undone.push([seq, t("speech.challenge_undone", { words: verdict.words.join(", ") })]);
    for (const line of verdict.consequences) covered.add(line);
  }
  const lines = new Set(game.lines.map((line) => line.seq));
  for (const [seq, line] of seen.lines) {
    if (!lines.has(seq) && !covered.has(seq)) {
      undone.push([seq, t("speech.undone", { name: playerName(game.players, line.player) })]);
    }
  }
  const texts = [
    ...(seen.ended && !game.ended ? [t("speech.end_undone")] : []),
    ...undone.sort((a, b) => b[0] - a[0]).map(([, text]) => text), // newest taken off first
    ...news.sort((a, b) => a[0] - b[0]).map(([, text]) => text),
    ...(!seen.ended && game.ended ? [ending(game)] : []),
  ];
  remember(game);
  if (speaking()) texts.forEach(utter);
}

function remember(game) {
  if (game.started !== seen.started) seen.known.clear();
  seen.started = game.started;
  for (const line of game.lines) seen.known.add(line.seq);
  for (const verdict of game.challenges) seen.known.add(verdict.seq);
  seen.lines = new Map(game.lines.map((line) => [line.seq, line]));
  seen.verdicts = new Map(game.challenges.map((verdict) => [verdict.seq, verdict]));
  seen.ended = game.ended;
}

// A verdict as the sheet says it, up to what it costs: that follows as the lines it brought.
function judged(game, verdict) {
  const name = (p) => playerName(game.players, p);
  const jury = rulesOf(game.rules).challenge === "jury";
  const said = { words: verdict.words.join(", "), player: name(verdict.player),
    challenger: name(verdict.challenger) };
  return [t(jury ? "challenge.jury" : "challenge.verdict", said),
    t(verdict.valid ? "challenge.valid" : "challenge.invalid"),
    verdict.bad.length ? t("challenge.not_in_list", { bad: verdict.bad.join(", ") }) : null,
  ].filter(Boolean).join(" ");
}

// A line as a sentence: who, what, and their total after it.
function sentence(game, line) {
  const said = {
    name: playerName(game.players, line.player), points: Math.abs(line.points),
    total: number(line.total),
  };
  switch (line.kind) {
    case "move":
      return t(line.bingo ? "speech.move_bingo" : "speech.move", {
        ...said, points: number(line.points), bingo: number(line.bingo),
        words: spoken(line.words.map(([word]) => word)),
      });
    case "points": return t("speech.points", said);
    case "pass": return t("speech.pass", said);
    case "exchange": return t("speech.exchange", said);
    case "withdrawn": return t("speech.withdrawn", said);
    case "bonus": return t("speech.bonus", said);
    default: return t(line.overtime ? "speech.overtime" : "speech.penalty", said);
  }
}

// The words as the sheet writes them, all in capitals: a blank's lower case means nothing
// aloud, and a voice may read a word of mixed case (KRaAN) in pieces.
function spoken(words) {
  return words.map((word) => word.toLocaleUpperCase(language)).join(", ");
}

// The end: the final table, best first.
function ending(game) {
  const rows = game.final ? [...game.final].sort((a, b) => a.place - b.place) : [];
  const standings = rows.map((row) => t("speech.standing", {
    name: playerName(game.players, row.player), points: number(row.final),
  })).join(", ");
  return rows.length ? t("speech.end", { standings }) : t("sheet.ended");
}

// One sentence in the phone's language, with a voice of that language where the browser has
// one (else its own voice reads it as best it can).
function utter(text) {
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = language;
  const voices = speechSynthesis.getVoices().filter((voice) =>
    voice.lang.toLowerCase().replace("_", "-").split("-")[0] === language);
  const voice = voices.find((v) => v.default) || voices.find((v) => v.localService) || voices[0];
  if (voice) utterance.voice = voice;
  utterance.addEventListener("error", (event) => {
    if (event.error === "not-allowed") hold(text);
  });
  speechSynthesis.speak(utterance);
}

// After a reload the browser speaks only once the page was touched: what it refused waits
// for the first tap or key, and the phone says so once.
function hold(text) {
  blocked.texts.push(text);
  if (blocked.texts.length > 1) return;
  if (!blocked.told) say(t("speech.blocked"), "info");
  blocked.told = true;
  const release = () => {
    removeEventListener("click", release, true);
    removeEventListener("keydown", release, true);
    const texts = blocked.texts.splice(0);
    if (speaking()) texts.forEach(utter);
  };
  addEventListener("click", release, true);
  addEventListener("keydown", release, true);
}
