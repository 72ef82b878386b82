// What a command that writes the sheet names of the sheet this phone showed: the turn it is
// for, the newest line, the open round or the game. When the table has moved on meanwhile
// (another phone, a double tap, a command queued offline), the server refuses it with what
// happened (`turn_taken` …) instead of applying it to the next player.

export const TURNS = ["record_move", "enter_points", "pass", "exchange", "withdraw_word"];

export const openRound = (game) => game.rounds.length - 1;

// Duplicate: the first player without a score in the open round, or -1 (DUP-08).
export const firstEmpty = (game) => game.rounds[openRound(game)].scores.indexOf(null);

// The turn of `player` as `game` shows it: the game by the seq of its start, and the turns
// the player has taken (classic) or the open round (duplicate).
export function turnOf(game, player) {
  const number = game.mode === "duplicate" ? openRound(game) : game.turns[player];
  return { game: game.started, player, number };
}

// `command` with the reference its type needs, from `game` as shown. A turn is for `player`:
// by default the player to move (classic) or the first empty cell (duplicate).
export function refer(game, command, player = null) {
  switch (command.type) {
    case "undo":
    case "give_penalty":
      return { ...command, last_line: game.last_line };
    case "record_top":
      return { ...command, round: openRound(game) };
    case "new_game":
      return { ...command, game: game.started };
    default:
      if (!TURNS.includes(command.type)) return command;
      if (player === null) player = game.mode === "duplicate" ? firstEmpty(game) : game.to_move;
      return { ...command, turn: turnOf(game, player) };
  }
}
