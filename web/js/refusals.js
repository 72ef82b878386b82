// A refusal from the server as a sentence in the phone's language, with players named from
// the sheet and rounds counted from 1; a turn recorded meanwhile says by whom and what ("De
// beurt van Anna is net genoteerd door de telefoon van Bas: PLANK, 28"). In an online game it
// is said in online play's words ("Niet op je rekje", not the sheet's "Niet op je plankje").

import { number, playerName, refusal, t } from "./i18n.js";
import { sheet } from "./state.js";
import { when } from "./when.js";

const NAMED = ["player", "to_move", "seat"]; // params that name a player by index
const TURN_KINDS = new Set(["move", "pass", "exchange", "withdrawn"]); // "points": the general

export function refusalText(code, params = {}) {
  const game = sheet();
  const said = { ...params };
  const name = (index) => playerName(game.players, index);
  const online = game?.mode === "online";
  for (const key of NAMED) {
    if (game && Number.isInteger(said[key]) && said[key] < game.players.length) {
      said[key] = name(said[key]);
    }
  }
  if (Number.isInteger(said.round)) said.round += 1;
  // A simultaneous's window: its moments as dates and times, its game counted from 1.
  for (const key of ["opens", "closes"]) {
    if (Number.isFinite(said[key])) said[key] = when(said[key]);
  }
  if (code === "window_closed" && Number.isInteger(said.game)) said.game += 1;
  // Words the list lacks, as words: a blank's letter in capitals too ("LE", not "lE", whose
  // lower case only the row notation reads as a blank).
  if (typeof said.words === "string") said.words = said.words.toUpperCase();
  if (code !== "turn_taken" || !game) return refusal(code, said, online);
  const { by, by_host: byHost, kind, word, points } = params;
  said.by = byHost ? t("taken.by_host")
    : Number.isInteger(by) && by < game.players.length ? t("taken.by_seat", { name: name(by) })
      : t("taken.by_other");
  said.points = number(points ?? 0);
  said.word = word || "";
  const move = kind === "move" && said.word;
  if (game.mode === "duplicate") return t(move ? "taken.cell_move" : "taken.cell", said);
  return TURN_KINDS.has(kind) && (kind !== "move" || move) ? t(`taken.${kind}`, said)
    : refusal(code, said, online);
}
