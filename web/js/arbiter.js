// The arbiter's slip (issue 25, item 4): the director types the paper slip of a player
// without a phone — the player, the whole word, its first square and its direction — on the
// director's card of the open round. It is the same `submit_slip` a player's phone sends,
// naming that player and marked `paper`: handed in in time, it is not late however long the
// typing takes after the bell. The server checks it at once (on the board, from the rack) and judges
// it at the close exactly as a phone's. A slip typed again for the same player replaces it.

import { playerName, t } from "./i18n.js";
import { send, unanswered } from "./live.js";
import { conventionOf, parseReference, reference } from "./references.js";
import { refusalText } from "./refusals.js";
import { changed, rulesOf } from "./state.js";
import { openRound, turnOf } from "./turn.js";
import { folding, h, say } from "./ui.js";

// What is being typed, kept over the redraws every update causes; forgotten at a new round.
// player: the one the director chose; until then the first whose slip is not in.
const typed = { round: null, player: null, word: "", start: "", direction: "across",
  open: false }; // the form unfolded: kept from round to round
// What the server refused, said on the form in the language shown, until the next send.
const ui = { refusal: null };

// How the game's rule set writes a reference: the square and a direction, or the FISF's
// (references.js), whose order says the direction: H4 across, 4H down.
const convention = (game) => conventionOf(rulesOf(game.rules));
const fisf = (game) => convention(game) === "fisf";

// Under FISF rules the radios follow the reference as it is typed.
function follow(game) {
  if (!fisf(game)) return;
  const found = parseReference(typed.start, "fisf");
  if (found.refusal || found.direction === typed.direction) return;
  typed.direction = found.direction;
  const radio = document.getElementById(`arbiter-${found.direction}`);
  if (radio) radio.checked = true;
}

// The form for the open round of `game` (its rack drawn), for the director's card.
export function form(game) {
  const open = openRound(game);
  const round = `${game.started}:${open}`;
  if (typed.round !== round) {
    Object.assign(typed, { round, player: null, word: "", start: "", direction: "across" });
    ui.refusal = null;
  }
  if (typed.player !== null && typed.player >= game.players.length) typed.player = null;
  return folding({ class: "arbiter", id: "arbiter", open: typed.open,
    fold: (open) => { // unfolded, the form is drawn: 200 players' options only then
      typed.open = open;
      changed();
    } },
  t("arbiter.title"),
  typed.open ? fields(game) : null);
}

// The form itself: the player (the first whose slip is not in, until the director chooses),
// the word, its first square and its direction.
function fields(game) {
  const handed = new Set(game.room.slips);
  const waiting = game.players.findIndex((_, p) => !handed.has(p));
  const player = typed.player ?? Math.max(waiting, 0);
  return h("form", {
    class: "arbiter-form", id: "arbiter-form",
    onsubmit: (event) => {
      event.preventDefault();
      hand(game, typed.player ?? player); // chosen since the form was drawn, or its default
    },
  },
  h("p", { class: "hint", id: "arbiter-hint" }, t("arbiter.hint")),
  h("div", { class: "field" },
    h("label", { for: "arbiter-player" }, t("arbiter.player")),
    h("select", { id: "arbiter-player",
      onchange: (event) => { typed.player = Number(event.target.value); } },
    game.players.map((_, p) => h("option", { value: String(p), selected: p === player },
      handed.has(p) ? t("arbiter.player_in", { name: playerName(game.players, p) })
        : playerName(game.players, p))))),
  h("div", { class: "field" },
    h("label", { for: "arbiter-word" }, t("slip.word")),
    h("input", { id: "arbiter-word", autocomplete: "off", autocapitalize: "characters",
      spellcheck: "false", value: typed.word, "aria-describedby": "arbiter-hint",
      oninput: (event) => { typed.word = event.target.value; } })),
  h("div", { class: "slip-where" },
    h("div", { class: "field" },
      h("label", { for: "arbiter-start" }, t(fisf(game) ? "slip.reference" : "slip.start")),
      h("input", { id: "arbiter-start", autocomplete: "off", autocapitalize: "characters",
        spellcheck: "false", size: 4, value: typed.start,
        "aria-describedby": fisf(game) ? "arbiter-reference-hint" : null,
        oninput: (event) => {
          typed.start = event.target.value.trim().toUpperCase();
          follow(game); // under FISF rules the reference says the direction
        } })),
    h("fieldset", { class: "slip-direction" },
      h("legend", {}, t("calc.direction")),
      ["across", "down"].map((way) => h("label", {},
        h("input", { type: "radio", name: "arbiter-direction", id: `arbiter-${way}`,
          value: way, checked: typed.direction === way,
          onchange: () => {
            const found = parseReference(typed.start, convention(game), typed.direction);
            typed.direction = way;
            if (!found.refusal) { // 4H ↔ H4 under FISF rules
              typed.start = reference(found.square, way, convention(game));
              const field = document.getElementById("arbiter-start");
              if (field) field.value = typed.start;
            }
          } }),
        ` ${t(`calc.${way}`)}`)))),
  fisf(game) ? h("p", { class: "hint", id: "arbiter-reference-hint" },
    t("slip.reference_hint")) : null,
  ui.refusal ? h("p", { class: "play-refusal", role: "alert", id: "arbiter-refusal" },
    ui.refusal()) : null,
  h("button", { type: "submit", class: "primary", id: "arbiter-send",
    disabled: unanswered("submit_slip") }, t("arbiter.send")));
}

// The slip sent for the chosen player; the form is emptied for the next paper slip.
async function hand(game, player) {
  const word = typed.word.trim();
  const found = parseReference(typed.start, convention(game), typed.direction);
  if (word && typed.start && found.refusal) {
    ui.refusal = () => refusalText(...found.refusal);
    changed();
    return;
  }
  if (!word || !typed.start) {
    ui.refusal = () => t("slip.incomplete");
    changed();
    return;
  }
  ui.refusal = null;
  try {
    await send({ type: "submit_slip", word, start: found.square, direction: found.direction,
      player, turn: turnOf(game, player), paper: true });
    Object.assign(typed, { word: "", start: "", player: null });
    say(t("arbiter.accepted", { name: playerName(game.players, player) }), "info");
  } catch (error) {
    if (!error || !error.code) throw error;
    ui.refusal = () => refusalText(error.code, error.params);
  }
  changed();
}
