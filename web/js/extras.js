// What a duplicate player's total holds beside each round's cell, so that the cells and
// these add up to the total on the phone's sheet and on the printed one.

// Per round and player: the round's solo (the server's, worked out from the cells) and any
// bonus or penalty line written beside it; null when no round has any.
export function extras(game) {
  const table = game.rounds.map(() => game.players.map(() => 0));
  game.rounds.forEach((round, r) => {
    for (const result of round.results) table[r][result.player] += result.solo || 0;
  });
  for (const line of game.lines) {
    if ((line.kind === "penalty" || line.kind === "bonus") && table[line.round]) {
      table[line.round][line.player] += line.points;
    }
  }
  return table.some((row) => row.some(Boolean)) ? table : null;
}
