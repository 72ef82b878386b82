// The shared board of a table played in turns (issue 27): tiles laid on it without a score
// belong to the turn — the player to move lays and clears them, the host always, and so does
// one phone that keeps the sheet (the server decides: `not_your_board`). Every phone says who
// laid which ("Bas legde 3 blokjes op het bord: H8–H10"), shows what lies there without a
// score, and once the board is cleared says what was taken off and whose it was.

import { playerName, t } from "./i18n.js";
import { mySeat, writers } from "./rights.js";
import { app, isHost, sheet, subscribe } from "./state.js";
import { h, say } from "./ui.js";

// May this phone lay tiles on the board of `game`, or clear them, now?
export function mayLay(game) {
  if (isHost()) return true;
  const seat = mySeat();
  return seat !== null && (writers() === "scorekeeper" || game.to_move === seat);
}

// A laying's squares as the stretch of the board it covers: "H8–H10", or "K3".
const stretch = (squares) => (squares.length > 1
  ? `${squares[0]}–${squares[squares.length - 1]}` : squares[0]);

// "H8–H10 van Bas, K3 van de gastheer"
function layings(game, laid) {
  return laid.map((laying) => (laying.player === null
    ? t("board.laying_host", { squares: stretch(laying.squares) })
    : t("board.laying", { squares: stretch(laying.squares),
      name: playerName(game.players, laying.player) }))).join(", ");
}

// "Bas legde 3 blokjes op het bord: H8–H10"
function laidText(game, laying) {
  const params = { n: laying.squares.length, squares: stretch(laying.squares) };
  return laying.player === null ? t("board.laid_host", params)
    : t("board.laid", { ...params, name: playerName(game.players, laying.player) });
}

// What lies on the board without a score, and whose it is: what clearing would take off.
// Null when nothing does.
export function onBoard(game, id = "board-unscored") {
  const laid = game.laid || [];
  if (!laid.length) return null;
  return h("p", { class: "hint unscored-line", id },
    t("board.on_board", { layings: layings(game, laid) }));
}

// The layings this phone has shown, to tell a new one (or a clearing) from a view it had.
const shown = { table: null, started: null, laid: [] };

// Said on every phone as the view changes; the view a phone opens with is news to nobody.
function announce() {
  const game = sheet();
  const table = app.session && app.session.table;
  const laid = (game && game.laid) || [];
  const same = game && shown.table === table && shown.started === game.started;
  if (same && laid.length > shown.laid.length) {
    say(laidText(game, laid[laid.length - 1]), "info");
  } else if (same && !laid.length && shown.laid.length) {
    say(t("board.cleared", { layings: layings(game, shown.laid) }), "info");
  }
  Object.assign(shown, { table, started: game ? game.started : null, laid });
}

export function mount() {
  subscribe(announce);
}
