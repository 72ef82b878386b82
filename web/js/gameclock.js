// The game clock at a physical table (issue 27): every player's time on every phone, the
// running one counting down in step. The server keeps the clock (rules/table/gameclock.py):
// each player's ms left at its last change (`since`, server time) and whose time runs from
// then; every phone counts down from those numbers in server time (state.serverNow), so all
// of them show the same tenth of a second. The mover taps the big button when done (or a
// recorded turn switches the clock); another player or the host starts it, the host pauses
// it and starts it again; a phone that sees zero calls the time and the server records it
// if its own clock agrees. Over time shows as negative; what running out costs is the rule
// set's (loss, points, FIGS's extra minute, PFS).

import { number, playerName, t } from "./i18n.js";
import { inFlight, justChanged, send } from "./live.js";
import { mySeat, writers } from "./rights.js";
import { canWrite, isHost, serverNow, sheet } from "./state.js";
import { turnOf } from "./turn.js";
import { h, held, sayRefusal } from "./ui.js";

// ms between redraws, on the server's tenths of a second: every phone redraws at the same
// moments, so they differ by no more than their offsets to the server's clock do.
const TICK = 100;
const RETRY = 500; // ms before time is called again when the server still saw some left
const MINUTE = 60_000;
const QUIET = new Set(["not_due", "time_called"]); // a race of phones at zero: nothing to say

// The view's state, in one place.
const ui = {
  clock: null, // the clock last drawn, or null when none runs
  timer: null,
  spoken: null, // `${player}:${mark}` last announced (or passed silently) for the running time
  calls: new Map(), // `${player}:${stage}` → when this phone last called it (ms)
};

// The ms `player` has left at server time `now`; below 0 over time. A phone whose offset is a
// few ms off may see the change a moment ahead: the time then shows what it was at the change.
export function leftAt(clock, player, now) {
  const run = clock.running === player ? Math.max(0, now - clock.since) : 0;
  return clock.left[player] - run;
}

// "24:13", "1:02:05", and over time "−00:05": whole seconds towards zero's side, so 00:00
// shows only at the very moment and "−" means over.
export function shown(ms) {
  const over = ms < 0;
  const seconds = Math.ceil(Math.abs(ms) / 1000);
  const pad = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  const text = hours ? `${hours}:${pad(minutes)}:${pad(seconds % 60)}`
    : `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;
  return over && seconds ? `\u2212${text}` : text;
}

// The clock's own word: not started, running, paused, or stopped (lost on time, everyone out).
function status(clock) {
  if (!clock.started) return "ready";
  if (clock.paused) return "paused";
  return clock.running === null ? "stopped" : "running";
}

// What a player's time says beside it, if anything.
function playerState(clock, player) {
  if (clock.lost[player]) return t("gameclock.lost");
  if (clock.stopped[player]) return t("gameclock.no_moves");
  if (clock.out[player] && clock.overtime === "figs") return t("gameclock.extra_minute");
  if (clock.out[player]) return t("gameclock.over");
  return clock.running === player ? t("gameclock.running") : "";
}

// The game clock's card on the sheet; null for a game without one.
export function clockPanel(game) {
  follow(game);
  const clock = game.game_clock;
  if (!clock) return null;
  const now = serverNow();
  return h("section", { class: "card gameclock", "aria-labelledby": "gameclock-title",
    dataset: { status: status(clock) } },
  h("h3", { id: "gameclock-title" }, t("gameclock.title"),
    h("span", { class: "gameclock-status" }, t(`gameclock.${status(clock)}`))),
  h("ul", { class: "gameclock-players" }, game.players.map((_, p) => {
    const ms = leftAt(clock, p, now);
    const name = playerName(game.players, p);
    return h("li", { class: clock.running === p ? "running" : null, dataset: { player: p } },
      h("span", { class: "name" }, name),
      h("span", {
        class: `gameclock-time num${ms < 0 ? " over" : ""}`, role: "timer",
        "aria-label": t("gameclock.time_of", { name }), dataset: { player: p, ms },
      }, shown(ms)),
      h("span", { class: "gameclock-state" }, playerState(clock, p)));
  })),
  game.ended ? null : tap(game, clock),
  game.ended ? null : isHost() || startsIt(game, clock) ? controls(clock) : whoStarts(game, clock),
  h("p", { class: "hint gameclock-rule" }, rule(clock)));
}

// What running out costs under the game's rules, in a line.
function rule(clock) {
  const minutes = t("gameclock.minutes_each", { n: clock.minutes });
  return `${minutes} ${t(`gameclock.rule_${clock.overtime}`, { points: number(clock.points) })}`;
}

// The mover's big button: "done, the next player's time". Shown to the phone whose time
// runs, the host, and whoever keeps the sheet; a seat whose time does not run is told whose
// does; a tap waits for the turn's line once the clock ran ahead of the sheet. Once everyone
// else is out of time (PFS) the mover plays on with their own time running: a tap would hand
// the clock to nobody (the server refuses it), so every phone says that instead.
function tap(game, clock) {
  const runs = clock.running;
  if (runs === null || !canWrite()) return null;
  const seat = mySeat();
  if (seat === null && !isHost()) return null;
  const next = nextPlayer(game, clock, runs);
  if (next === runs) {
    return h("p", { class: "withheld", id: "gameclock-plays-on" },
      t("gameclock.plays_on", { name: playerName(game.players, runs) }));
  }
  const mayTap = isHost() || seat === runs || writers() === "scorekeeper";
  if (!mayTap) {
    return h("p", { class: "withheld", id: "gameclock-not-yours" },
      t("gameclock.not_yours", { name: playerName(game.players, runs) }));
  }
  if (runs !== game.to_move) { // tapped already: the mover's line comes first
    return h("p", { class: "withheld", id: "gameclock-record-first" },
      t("gameclock.record_first", { name: playerName(game.players, game.to_move) }));
  }
  return h("button", {
    type: "button", class: "primary gameclock-tap", id: "gameclock-tap",
    "aria-disabled": held(inFlight("switch_clock")),
    onclick: () => inFlight("switch_clock")
      || act({ type: "switch_clock", turn: turnOf(game, runs) }),
  }, t("gameclock.tap", { name: playerName(game.players, next) }));
}

// The next player whose time may run (one out of time under PFS rules is passed over).
function nextPlayer(game, clock, player) {
  const count = game.players.length;
  for (let step = 1; step <= count; step += 1) {
    const candidate = (player + step) % count;
    if (!clock.stopped[candidate]) return candidate;
  }
  return player;
}

// The host's start, pause and start again (a seat's first start); nothing once the game is
// decided on time.
function controls(clock) {
  if (clock.lost.some(Boolean) || clock.stopped.every(Boolean)) return null;
  const going = clock.started && !clock.paused;
  const label = going ? "gameclock.pause" : clock.started ? "gameclock.resume" : "gameclock.start";
  const type = going ? "pause_game_clock" : "start_game_clock";
  const busy = () => inFlight("pause_game_clock", "start_game_clock")
    || justChanged("gameclock-go", label);
  return h("div", { class: "actions gameclock-controls" },
    h("button", {
      type: "button", id: "gameclock-go", class: going ? null : "primary",
      "aria-disabled": held(busy()), onclick: () => busy() || act({ type }),
    }, t(label)));
}

// A seat starts the clock the first time for the player to move, as WESPA has a player
// start the opponent's timer, unless it is its own; one scorekeeper starts it for anyone.
// A pause and the start after it are the host's (rules.table.permissions.check_start).
function startsIt(game, clock) {
  const seat = mySeat();
  return !clock.started && seat !== null && canWrite()
    && (seat !== game.to_move || writers() === "scorekeeper");
}

// Where the start button would be, on every other phone: why the clock stands still.
function whoStarts(game, clock) {
  if (clock.started && !clock.paused) return null;
  return h("p", { class: "withheld", id: "gameclock-hosts" }, clock.started
    ? t("gameclock.host_paused")
    : t("error.others_start_clock", { player: playerName(game.players, game.to_move) }));
}

function act(command) {
  return send(command).catch(sayRefusal);
}

// The clock of the sheet as it stands, while a time runs on it; null otherwise.
function runningClock(game) {
  const clock = game && game.mode === "classic" && !game.ended ? game.game_clock : null;
  return clock && clock.running !== null ? clock : null;
}

// Follow the sheet's clock: tick while a time runs, so the running one counts down.
function follow(game) {
  const clock = runningClock(game);
  if (!clock || ui.clock?.running !== clock.running) {
    ui.spoken = null; // another player's run: its first mark passes silently
  }
  ui.clock = clock;
  if (game?.game_clock) liveRegion(); // in place before it speaks, or it goes unheard
  if (clock && !ui.timer) ui.timer = setTimeout(tick);
}

// Redraw the times from the sheet as it stands now (another view may show, or another game);
// the timer stops once no time runs.
function tick() {
  const game = sheet();
  const clock = runningClock(game);
  ui.timer = clock ? setTimeout(tick, TICK - (serverNow() % TICK)) : null;
  if (!clock) return;
  const now = serverNow();
  for (const time of document.querySelectorAll(".gameclock-time")) {
    const ms = leftAt(clock, Number(time.dataset.player), now);
    time.textContent = shown(ms);
    time.dataset.ms = String(ms);
    time.classList.toggle("over", ms < 0);
  }
  const ms = leftAt(clock, clock.running, now);
  speak(game, clock.running, ms);
  callTime(game, clock, clock.running, ms);
}

// Tell a screen reader the running time at whole minutes only (and at zero), never at every
// second; a phone that comes in halfway through a minute starts at the next mark.
function speak(game, player, ms) {
  const mark = ms > 0 ? Math.ceil(ms / MINUTE) : -Math.floor(-ms / MINUTE);
  const key = `${player}:${mark}`;
  if (key === ui.spoken) return;
  const first = ui.spoken === null;
  ui.spoken = key;
  if (first) return;
  const name = playerName(game.players, player);
  let line = t("gameclock.said_left", { name, n: mark });
  if (mark === 0) line = t("gameclock.said_up", { name });
  else if (mark < 0) line = t("gameclock.said_over", { name, n: -mark });
  liveRegion().textContent = line;
}

// A phone at the table that sees the running time reach zero (or FIGS's extra minute run
// out) calls it; the server records it once, if its clock agrees, and says nothing to the
// phones that came second.
function callTime(game, clock, player, ms) {
  if (!canWrite()) return;
  const stage = clock.called[player] + 1;
  const stages = clock.overtime === "figs" ? 2 : 1;
  if (stage > stages || ms > (stage === 1 ? 0 : -clock.extra)) return;
  const key = `${game.started}:${player}:${stage}`;
  const last = ui.calls.get(key);
  if (last !== undefined && Date.now() - last < RETRY) return;
  ui.calls.set(key, Date.now());
  send({ type: "call_time", player, stage }).catch((error) => {
    if (!error || !QUIET.has(error.code)) sayRefusal(error);
  });
}

function liveRegion() {
  let region = document.getElementById("gameclock-live");
  if (!region) {
    region = h("p", { id: "gameclock-live", class: "sr-only", "aria-live": "polite" });
    document.body.append(region);
  }
  return region;
}

// Under the final table: what the clock cost, each player's overtime penalty and who lost on
// time (the penalties are lines of the sheet, in the score before the settlement).
export function finalClock(game) {
  const rows = (game.final || []).filter((row) => row.overtime || row.lost_on_time);
  if (!rows.length) return null;
  return h("ul", { class: "gameclock-final", "aria-label": t("gameclock.title") },
    rows.map((row) => h("li", { dataset: { player: row.player } },
      [row.overtime ? t("gameclock.final_overtime", {
        name: playerName(game.players, row.player), points: number(row.overtime),
      }) : null, row.lost_on_time ? t("gameclock.final_lost", {
        name: playerName(game.players, row.player),
      }) : null].filter(Boolean).join(" "))));
}
