// The penalty panel (SHC-16/17, P-32): points off any player without using a turn. It
// proposes the rule set's figure: SBNL adds the score of the wrong turn to its 20
// (FED-SBNL-06); FIGS takes 20 % of an invalid move or 10 % of a move challenged without
// ground (FED-FIGS-07); the others propose 10. The figure stays editable.

import { number, playerName, t } from "./i18n.js";
import { inFlight, send } from "./live.js";
import { MAX_POINTS, wholePoints } from "./points.js";
import { rulesOf } from "./state.js";
import { refer } from "./turn.js";
import { folding, h, say, sayRefusal } from "./ui.js";

const PERCENT = { invalid: 20, unfounded: 10 };
const SCORED = new Set(["move", "points"]); // the turns a penalty can be about

// What the user chose, kept across redraws (another phone's turn redraws the panel).
// move: a line's seq, null for none; points: null = proposed.
// The view's state, in one place.
const ui = {
  draft: fresh(),
};

function fresh() {
  return { open: false, player: null, move: null, reason: "invalid", points: null };
}

// Points from a field in [low, high], or null after saying what is wanted.
export function pointsOf(text, low) {
  const value = wholePoints(text, low);
  if (value === null) {
    say(t("sheet.points_invalid", { min: number(low), max: number(MAX_POINTS) }));
  }
  return value;
}

// FIGS art. 30 as rules.table.rulesets.figs_penalty: the nearest whole number with 0.5 rounded
// down, at least 1. In hundredths, so no float rounding gets in: 35 × 10 % = 350 → 3.
export function figsPenalty(points, percent) {
  const hundredths = points * percent;
  const whole = Math.floor(hundredths / 100);
  return Math.max(1, hundredths % 100 > 50 ? whole + 1 : whole);
}

function proposal(rules, move, reason) {
  if (!move) return rules.penalty;
  if (rules.penalty_adds_move) return rules.penalty + move.points;
  if (rules.penalty_percent) return figsPenalty(move.points, PERCENT[reason]);
  return rules.penalty;
}

// Who pays: an invalid move costs its player, a groundless challenge the challenger, who is
// the other player (FIGS tournaments are for two).
function payer(game, move) {
  if (ui.draft.reason === "invalid") return move.player;
  return (move.player + 1) % game.players.length;
}

export function penaltyPanel(game, redraw) {
  const rules = rulesOf(game.rules);
  const scored = game.lines.filter((line) => SCORED.has(line.kind));
  const latest = scored[scored.length - 1];
  if (ui.draft.player !== null && ui.draft.player >= game.players.length) ui.draft.player = null;
  // Every rule set proposes its figure at first, FIGS 10 too (TV-IT-16: "propone 10 punti,
  // che si correggono con il risultato del calcolo"): its share comes with the move chosen.
  const move = scored.find((line) => line.seq === ui.draft.move) || null;
  const player = ui.draft.player ?? (rules.penalty_percent && move ? payer(game, move)
    : latest ? latest.player : game.to_move);
  const proposed = proposal(rules, move, ui.draft.reason);
  const choices = rules.penalty_adds_move ? scored.filter((line) => line.player === player)
    : scored;
  // A new choice brings back the proposed figure.
  const change = (update) => (event) => {
    update(event.target.value);
    ui.draft.points = null;
    redraw();
  };

  const form = h("form", {
    class: "penalty-form", novalidate: true,
    onsubmit: (event) => {
      event.preventDefault();
      const points = pointsOf(ui.draft.points ?? proposed, 1);
      if (points === null) return;
      const given = ui.draft;
      ui.draft = fresh();
      redraw();
      document.getElementById("penalty-summary").focus();
      // Named by the newest line it saw: a second tap gives no second penalty.
      send(refer(game, { type: "give_penalty", player, points })).catch((error) => {
        ui.draft = given; // what was chosen comes back
        redraw();
        sayRefusal(error);
      });
    },
  },
  h("div", { class: "field" },
    h("label", { for: "penalty-player" }, t("sheet.penalty_player")),
    h("select", {
      id: "penalty-player",
      onchange: change((value) => {
        ui.draft.player = Number(value);
        if (rules.penalty_adds_move) ui.draft.move = null; // the wrong turn is one of theirs
      }),
    }, game.players.map((_, p) => h("option", { value: p, selected: p === player },
      playerName(game.players, p))))),
  rules.penalty_percent ? reasons(change((value) => {
    ui.draft.reason = value;
    if (move) ui.draft.player = payer(game, move);
  })) : null,
  rules.penalty_adds_move || rules.penalty_percent ? h("div", { class: "field" },
    h("label", { for: "penalty-move" },
      t(rules.penalty_percent ? "sheet.penalty_challenged" : "sheet.penalty_wrong_turn")),
    h("select", {
      id: "penalty-move",
      onchange: change((value) => {
        ui.draft.move = value === "" ? null : Number(value);
        const chosen = scored.find((line) => line.seq === ui.draft.move);
        if (rules.penalty_percent && chosen) ui.draft.player = payer(game, chosen);
      }),
    },
    h("option", { value: "", selected: move === null }, t("sheet.penalty_no_move")),
    choices.map((line) => h("option", { value: line.seq, selected: line === move },
      moveLabel(game, line))))) : null,
  h("div", { class: "field" },
    h("label", { for: "penalty-points" }, t("sheet.penalty_points")),
    h("input", {
      id: "penalty-points", type: "number", inputmode: "numeric", min: 1, max: MAX_POINTS,
      step: 1, value: ui.draft.points ?? proposed, autocomplete: "off",
      "aria-describedby": "penalty-hint",
      oninput: (event) => { ui.draft.points = event.target.value; },
    })),
  h("p", { class: "hint", id: "penalty-hint" }, t(rules.penalty_adds_move
    ? "sheet.penalty_hint_adds" : rules.penalty_percent ? "sheet.penalty_hint_percent"
      : "sheet.penalty_hint")),
  h("div", { class: "actions" },
    h("button", { type: "submit", class: "primary", disabled: inFlight("give_penalty") },
      t("sheet.penalty_give"))));

  return folding({
    class: "card penalty", open: ui.draft.open, summaryId: "penalty-summary",
    fold: (open) => { ui.draft.open = open; },
  }, t("sheet.penalty"), form);
}

function reasons(onchange) {
  return h("fieldset", { class: "choice" },
    h("legend", {}, t("sheet.penalty_reason")),
    Object.keys(PERCENT).map((reason) => h("label", { class: "option" },
      h("input", {
        type: "radio", name: "penalty-reason", id: `penalty-${reason}`, value: reason,
        checked: ui.draft.reason === reason,
        onchange,
      }), " ", t(`sheet.penalty_${reason}`))));
}

function moveLabel(game, line) {
  const what = line.words.length ? line.words.map(([word]) => word).join(", ")
    : t("sheet.typed_points");
  return t("sheet.move_option", {
    name: playerName(game.players, line.player), round: number(line.round + 1), what,
    points: number(line.points),
  });
}
