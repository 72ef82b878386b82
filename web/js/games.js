// "My games": the games this phone holds (session.js keeps every place it was given), as the
// server tells them now (POST /api/games with the phone's tokens): who plays, whose turn it
// is and the last move. A tap opens one where it stands; going back to the list keeps the
// game. A game the server no longer knows this phone at is forgotten with its sheet.

import { call } from "./api.js";
import { number, playerName, t, withBingo } from "./i18n.js";
import { connect, disconnect } from "./live.js";
import { closeSession, forgetGame, saveSession, savedGames } from "./session.js";
import { app, changed, serverNow } from "./state.js";
import { h, replace, stylesheet } from "./ui.js";

const MAX_ASKED = 50; // tokens the server answers for at once

// Fill `box` with the list: the phone's games at once, what the server says of them after.
export async function fill(box) {
  stylesheet("/css/play.css"); // the list's look is the online game's
  const saved = savedGames();
  draw(box, saved, null);
  let answer;
  try {
    answer = await call("/api/games", {
      method: "POST",
      body: { tokens: saved.slice(0, MAX_ASKED).map(({ table, token }) => ({ table, token })) },
    });
  } catch {
    draw(box, saved, false); // the server is away: the list as kept, without news
    return;
  }
  const games = answer.games || [];
  for (const game of saved) {
    if (!games.some((g) => g.table === game.table)) forgetGame(game.token); // left, or removed
  }
  draw(box, savedGames(), games);
}

function draw(box, saved, games) {
  if (!saved.length) {
    replace(box);
    return;
  }
  const info = (place) => (games || []).find((g) => g.table === place.table) || null;
  replace(box, h("section", { class: "card my-games", "aria-labelledby": "my-games-title" },
    h("h2", { id: "my-games-title" }, t("games.title")),
    games === null ? h("p", { class: "hint" }, t("games.loading")) : null,
    games === false ? h("p", { class: "hint" }, t("games.offline")) : null,
    h("ul", { class: "game-list" }, saved.map((place) => row(place, info(place))))));
}

function row(place, game) {
  const id = `game-${place.table}`;
  const lines = [];
  if (game) {
    const players = game.players || [];
    lines.push(h("span", { class: "game-players" },
      players.map((_, p) => playerName(players, p)).join(" – ")));
    lines.push(h("span", { class: "game-edition" }, t(`edition.${game.edition}`)));
    lines.push(h("span", { class: `game-turn${game.your_turn ? " mine" : ""}` },
      game.ended ? t("games.ended") : turn(game, players)));
    if (game.deadline && !game.ended) {
      lines.push(h("span", { class: "game-deadline" }, timeLeft(game.deadline, serverNow())));
    }
    if (game.last) lines.push(h("span", { class: "game-last" }, lastText(players, game.last)));
  } else {
    lines.push(h("span", { class: "game-players" },
      t("games.table", { code: place.code || "" })));
  }
  return h("li", {}, h("button", {
    type: "button", class: `game-row${game?.your_turn ? " mine" : ""}`, id,
    onclick: () => resume(place),
  }, lines));
}

// Whose turn it is, or why nobody moves: the game clock has stopped the player to move.
function turn(game, players) {
  const name = playerName(players, game.to_move);
  if (game.out_of_time === "lost") return t("sheet.lost_on_time", { name });
  if (game.out_of_time === "all") return t("sheet.out_of_time_all");
  return game.your_turn ? t("games.your_turn") : t("games.their_turn", { name });
}

// "Bas: WOORD 11, DOEN 5 · 16 punten", "Bas: ZEGELDE 18, +50 alle letters · 68 punten",
// "Bas ruilde 3 stenen", "Bas paste".
export function lastText(players, last) {
  const name = playerName(players, last.player);
  if (last.kind === "move") {
    const words = (last.words || []).map(([word, points]) => `${word} ${number(points)}`);
    // The bingo is what the total holds beyond the words (a turn carries no field of it).
    const bingo = words.length
      ? last.points - last.words.reduce((sum, [, points]) => sum + points, 0) : 0;
    return t("play.last_move", { name, points: last.points,
      words: withBingo(words, bingo).join(", ") });
  }
  if (last.kind === "exchange") { // a sheet's line keeps no count: another seat's tiles
    return last.count ? t("play.last_exchange", { name, count: number(last.count) })
      : t("play.last_exchange_some", { name });
  }
  if (last.kind === "pass") return t(last.timed_out ? "play.last_timeout" : "play.last_pass", { name });
  return t("play.last_points", { name, points: last.points ?? 0 }); // a sheet's line
}

// "nog 2 d 4 u", "nog 3 u 12 min", "nog 4:09": the time left to move (`deadline` and `now`
// in server time, ms).
export function timeLeft(deadline, now) {
  const left = Math.max(0, Math.floor((deadline - now) / 1000));
  const days = Math.floor(left / 86400);
  const hours = Math.floor((left % 86400) / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, "0");
  if (days) return t("play.left_days", { days, hours });
  if (hours) return t("play.left_hours", { hours, minutes });
  return t("play.left_minutes", { minutes, seconds });
}

// Open a game of the list where it stands (its kept sheet at once, then the live one).
export function resume(place) {
  disconnect();
  app.session = { ...place };
  app.view = null;
  saveSession(app.session);
  connect();
  changed();
}

// Back to the list: the game stays this phone's, with its sheet and what it has not sent.
export function parkGame() {
  disconnect();
  closeSession();
  app.session = null;
  app.view = null;
  app.kept = false;
  changed();
}
