// The challenge (issue 27): the sheet's latest move offers "Challenge" to every phone that
// may, the server judges the move's words against the table's list, and the verdict with
// its consequence shows on every phone: said once as it comes, kept on the sheet while it
// is the newest thing there, and marked on the lines of the rounds table.
//
// Who may: any seat but the move's own player (for itself), the host or one scorekeeper
// (naming the challenger); under SBNL rules ("jury") the host alone, as the arbiter. The
// server decides (rules/table/challenge.py); this screen only offers what it would accept
// and says why where it offers nothing.

import { number, playerName, t } from "./i18n.js";
import { inFlight, send } from "./live.js";
import { keepsSheet, mySeat } from "./rights.js";
import { app, isHost, rulesOf, sheet, subscribe } from "./state.js";
import { h, held, say, sayRefusal } from "./ui.js";

// The view's state, in one place.
const ui = {
  challenger: null, // the challenger the host chose, for the move it was chosen for
  chosenFor: null,
  heard: null, // the newest verdict this phone has said (null: none seen yet)
};

// The verdict whose lines end the sheet: the challenge is the newest thing on it.
function newest(game) {
  return game.challenges.find((v) => [v.seq, ...v.consequences].includes(game.last_line));
}

// The move a challenge may be about: the sheet's newest line, a move with words, not
// judged yet; null otherwise.
function challengeable(game) {
  if (game.ended) return null;
  const line = game.lines.find((l) => l.seq === game.last_line);
  if (!line || line.kind !== "move" || !line.words.length) return null;
  return game.challenges.some((v) => v.line === line.seq) ? null : line;
}

const words = (list) => list.join(", ");

// The verdict as sentences: who challenged what, valid or not (naming the words where the
// rule set does: the server leaves them out elsewhere), then what each line it brought does.
function verdictText(game, verdict) {
  const name = (p) => playerName(game.players, p);
  const jury = rulesOf(game.rules).challenge === "jury";
  const said = { words: words(verdict.words), player: name(verdict.player),
    challenger: name(verdict.challenger) };
  const parts = [t(jury ? "challenge.jury" : "challenge.verdict", said),
    t(verdict.valid ? "challenge.valid" : "challenge.invalid")];
  if (verdict.bad.length) parts.push(t("challenge.not_in_list", { bad: words(verdict.bad) }));
  const lines = game.lines.filter((l) => verdict.consequences.includes(l.seq));
  for (const line of lines) parts.push(consequence(game, line));
  if (!lines.length && verdict.valid && !jury) parts.push(t("challenge.costs_nothing"));
  if (!verdict.valid && jury) parts.push(t("challenge.word_stays"));
  return parts.join(" ");
}

function consequence(game, line) {
  // The points as a number: the sentence's form follows it ("1 punto", "2 punti").
  const said = { name: playerName(game.players, line.player), points: Math.abs(line.points) };
  switch (line.kind) {
    case "withdrawn": return t("challenge.withdrawn", said);
    case "pass": return t("challenge.lost_turn", said);
    case "bonus": return t("challenge.bonus", said);
    default: return t("challenge.penalty", said);
  }
}

// The part of the sheet above the turn: the newest verdict, or the challenge of the latest
// move (or why this phone has none); nothing when neither applies.
export function challengePanel(game) {
  const verdict = newest(game);
  if (verdict && !game.ended) {
    return h("section", { class: "card challenge verdict", dataset: {
      valid: String(verdict.valid), seq: verdict.seq } },
    h("h3", {}, t("challenge.heading")),
    h("p", { class: "verdict-text" }, verdictText(game, verdict)));
  }
  const move = challengeable(game);
  if (!move || !app.session || app.session.role === "viewer") return null;
  return h("section", { class: "card challenge", "aria-labelledby": "challenge-title" },
    h("h3", { id: "challenge-title" }, t("challenge.latest", {
      words: words(move.words.map(([word]) => word)),
      name: playerName(game.players, move.player), points: number(move.points) })),
    offer(game, move));
}

// What this phone may do about `move`: a button, a choice of challenger and a button, or
// the sentence that says why there is none.
function offer(game, move) {
  const jury = rulesOf(game.rules).challenge === "jury";
  const arbiter = isHost() || (keepsSheet() && !jury);
  if (jury && !isHost()) return h("p", { class: "hint why-not" }, t("challenge.jury_only"));
  if (!arbiter && mySeat() === move.player) {
    return h("p", { class: "hint why-not" }, t("challenge.own_move"));
  }
  if (!arbiter && mySeat() === null) return null;
  const busy = inFlight("challenge");
  const hint = h("p", { class: "hint", id: "challenge-hint" }, t("challenge.hint"));
  if (jury) {
    return [h("button", { type: "button", id: "challenge-send", "aria-disabled": held(busy),
      "aria-describedby": "challenge-hint", onclick: () => challenge(move, null) },
    t("challenge.button_jury")), hint];
  }
  if (!arbiter) {
    return [h("button", { type: "button", id: "challenge-send", "aria-disabled": held(busy),
      "aria-describedby": "challenge-hint", onclick: () => challenge(move, mySeat()) },
    t("challenge.button")), hint];
  }
  const others = game.players.map((_, p) => p).filter((p) => p !== move.player);
  if (ui.chosenFor !== move.seq || !others.includes(ui.challenger)) {
    ui.chosenFor = move.seq;
    ui.challenger = others.includes(game.to_move) ? game.to_move : others[0];
  }
  return [h("div", { class: "field" },
    h("label", { for: "challenge-who" }, t("challenge.challenger")),
    h("select", { id: "challenge-who",
      onchange: (event) => { ui.challenger = Number(event.target.value); } },
    others.map((p) => h("option", { value: p, selected: p === ui.challenger },
      playerName(game.players, p))))),
  h("div", { class: "actions" }, h("button", { type: "button", id: "challenge-send",
    class: "primary", "aria-disabled": held(busy), "aria-describedby": "challenge-hint",
    onclick: () => challenge(move, ui.challenger) }, t("challenge.button"))), hint];
}

// The challenge names the line it is about: the table moved on meanwhile, it is refused.
function challenge(move, player) {
  if (inFlight("challenge")) return; // a second tap while the first is on its way
  send({ type: "challenge", line: move.seq, player }).catch(sayRefusal);
}

// A line's mark in the rounds table: the move a challenge left standing, and the lines a
// challenge brought (the withdrawn word, the lost turn, a penalty or bonus).
export function challengeNote(line) {
  const game = sheet();
  const jury = rulesOf(game.rules).challenge === "jury";
  const judged = game.challenges.find((v) => v.line === line.seq);
  let key = null;
  if (judged) {
    key = `challenge.mark_${jury ? "jury_" : ""}${judged.valid ? "valid" : "invalid"}`;
  } else {
    const by = game.challenges.find((v) => v.consequences.includes(line.seq));
    if (by && line.kind === "withdrawn") key = "challenge.mark_invalid";
    else if (by) key = line.kind === "pass" ? "challenge.mark_lost_turn" : "challenge.mark_after";
  }
  return key && h("span", { class: "challenge-note", dataset: { seq: line.seq } }, t(key));
}

// Every phone says a new verdict once, whatever view it shows (the sheet keeps it); a phone
// that loads or reloads says none of the verdicts it finds.
function announce() {
  const game = sheet();
  if (!game || game.mode !== "classic") return;
  const verdict = newest(game);
  const latest = Math.max(0, ...game.challenges.map((v) => v.seq));
  if (ui.heard !== null && verdict && verdict.seq > ui.heard) {
    say(verdictText(game, verdict), "info");
  }
  ui.heard = latest;
}

subscribe(announce); // this module loads with the classic sheet
