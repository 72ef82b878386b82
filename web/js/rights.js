// What this phone may do at its table, so that it shows only that (the server still
// decides). The host may do everything, a viewer nothing. A player seat, with the table's
// default "each phone its own seat", writes its own turns and its own duplicate cell and
// undoes its own last line; with "one phone keeps the sheet" it writes every line. Starting
// games, the round clock, the setting and the devices stay with the host either way. In a
// duplicate room (once a round has had its rack) a player's phone only hands in its slip.

import { app, isHost } from "./state.js";

export const writers = () => (app.view && app.view.writers) || "own_seat";

// Has this phone asked for a taken seat, and not been let in yet?
export function waiting() {
  return Boolean(app.session && (app.view ? app.view.waiting : app.session.waiting));
}

// The seat this phone holds in the current game; null for the host and viewers.
export function mySeat() {
  const session = app.session;
  const game = app.view && app.view.sheet;
  if (!session || session.role !== "player" || !game || waiting()) return null;
  return session.seat < game.players.length ? session.seat : null;
}

const seated = () => mySeat() !== null;

// Is the current game a director's room: has any round had its rack?
const inRoom = () => {
  const game = app.view && app.view.sheet;
  return Boolean(game && game.mode === "duplicate" && game.rounds.some((r) => r.rack.length));
};

// The host, or a seat when one phone keeps the sheet: every line, penalties, tops, the end
// of a duplicate game.
export const keepsSheet = () =>
  isHost() || (seated() && writers() === "scorekeeper" && !inRoom());

// May this phone write `player`'s turn (classic) or cell (duplicate)?
export const mayTurn = (player) =>
  keepsSheet() || (seated() && player === mySeat() && !inRoom());

// The end of a classic game (the racks) is any seat's; a duplicate game's the director's.
export const mayEnd = (game) => (game.mode === "classic" ? isHost() || seated() : keepsSheet());

// Undo strikes the newest line: a seat's own (the view says whose), or any for whoever
// keeps the sheet. The end of a classic game is any seat's to undo, as it is to make.
export function mayUndo(game) {
  if (keepsSheet()) return true;
  if (!seated() || inRoom()) return false;
  if (game.ended && game.mode === "classic") return true;
  return game.last_line_seat === mySeat();
}
