// What this phone may do at its table, so that it shows only that (the server still
// decides). The host may do everything, a viewer nothing. A player seat, with the table's
// default "each phone its own seat", writes its own turns and its own duplicate cell and
// undoes its own last line; with "one phone keeps the sheet" it writes every line. Starting
// games, the round clock, the setting and the devices stay with the host either way. In a
// duplicate room (once a round has had its rack) a player's phone only hands in its slip.
// Nobody writes a turn of a player the game clock stops (out of time). Where a phone may
// not do something, it says why where the button would be (`offer`).

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

// Does the game clock stop `player` (classic, issue 27): out of time under PFS rules, or lost
// on time? The server refuses their turns then (`out_of_time`). The sheet's clock says it as
// the server had it at its last change; a phone never works it out from its own count.
const stopped = (player) => {
  const game = app.view && app.view.sheet;
  return Boolean(game && !game.ended && game.game_clock?.stopped[player]);
};

// May this phone write `player`'s turn (classic) or cell (duplicate)?
export const mayTurn = (player) => !stopped(player)
  && (keepsSheet() || (seated() && player === mySeat() && !inRoom()));

// Why the player to move makes no move: "lost" the game on time (SBNL, FIGS), or "all"
// players are out of time (PFS: the turn passes over one out of time, so the player to move
// is out only once everyone is); null while they may move. Either way the game is decided
// and only its end is left.
export function outOfTime(game) {
  const clock = game.game_clock;
  if (!clock || game.ended || !clock.stopped[game.to_move]) return null;
  return clock.lost[game.to_move] ? "lost" : "all";
}

// Who is to move, as the bar and the sheet say it; the player to move out of time instead.
export function turnLine(game) {
  const name = playerName(game.players, game.to_move);
  const out = outOfTime(game);
  if (out === "lost") return t("sheet.lost_on_time", { name });
  return out === "all" ? t("sheet.out_of_time_all") : t("sheet.to_move", { name });
}

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
// it may. A viewer's one reason stands for every act but a turn the game clock stops, whose
// reason is every phone's. The acts: "turn" (the player to move's), "undo", "penalty",
// "clear" (the sheet), "end", "new_game".
export function withheld(act, game) {
  const name = (player) => playerName(game.players, player);
  const out = act === "turn" ? outOfTime(game) : null; // nobody's phone records that turn
  if (out) return t(`withheld.${out === "lost" ? "lost_on_time" : "out_of_time_all"}`,
    { name: name(game.to_move) });
  if (!canWrite()) return t("withheld.viewer");
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
