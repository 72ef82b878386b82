// What this phone may do at its table, so that it shows only that (the server still
// decides). The host may do everything, a viewer nothing. A player seat, with the table's
// default "each phone its own seat", writes its own turns and its own duplicate cell and
// undoes its own last line; with "one phone keeps the sheet" it writes every line. Starting
// games, the round clock, the setting and the devices stay with the host either way. In a
// duplicate room (once a round has had its rack) a player's phone only hands in its slip.
// Where a phone may not do something, it says why where the button would be (`offer`).

import { playerName, t } from "./i18n.js";
import { app, canWrite, isHost } from "./state.js";
import { h } from "./ui.js";

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

// Why this phone may not do `act` in `game` now, as the sentence it says instead; null when
// it may. A viewer's one reason stands for every act. The acts: "turn" (the player to
// move's), "undo", "penalty", "clear" (the sheet), "end", "new_game".
export function withheld(act, game) {
  if (!canWrite()) return t("withheld.viewer");
  const name = (player) => playerName(game.players, player);
  switch (act) {
    case "turn":
      return mayTurn(game.to_move) ? null
        : t("withheld.turn", { name: name(game.to_move) });
    case "undo": {
      if (mayUndo(game)) return null;
      const seat = game.last_line_seat; // null: a penalty, a challenge … the host's line
      return Number.isInteger(seat) ? t("withheld.undo_seat", { name: name(seat) })
        : t("withheld.undo_host");
    }
    case "penalty":
      return keepsSheet() ? null : t("withheld.penalty");
    case "end":
      return mayEnd(game) ? null : t("withheld.end");
    case "clear":
    case "new_game":
      return isHost() ? null : t(`withheld.${act}`);
    default:
      throw new Error(`no such act: ${act}`);
  }
}

// What `make()` draws (a button, a panel) where this phone may `act`; else, in its place, the
// sentence saying why not, under `id`.
export function offer(act, game, id, make) {
  const why = withheld(act, game);
  return why === null ? make()
    : h("p", { class: "hint withheld", id, dataset: { withheld: act } }, why);
}
