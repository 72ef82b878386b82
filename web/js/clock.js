// The duplicate round clock (DUP-12/13, P-41). The server keeps one clock per table: the ms
// left when it last stopped and the server time it started running. Every phone and the
// room display count down from those same two numbers, corrected by their own measured
// offset to the server's time, so they all show the same second. The director (host) sets
// 1, 2 or 3 minutes, starts and pauses; at zero each screen beeps and vibrates once.

import { t } from "./i18n.js";
import { send } from "./live.js";
import { changed, isHost, serverNow } from "./state.js";
import { h, say, sayRefusal } from "./ui.js";

const MINUTES = [1, 2, 3];
const TICK = 250; // ms: a second never shows late by more than a quarter
const SPOKEN = [60, 30, 10, 0]; // seconds a screen reader hears, and no others

// The ms left on `clock` at server time `now`. A phone whose offset is a few ms off may
// see the start a moment ahead: the clock then shows what it started with, never more.
export function left(clock, now) {
  if (!clock) return 0;
  if (clock.running_since === null) return clock.remaining;
  const run = Math.max(0, now - clock.running_since);
  return Math.max(0, clock.remaining - run);
}

// "02:59": seconds rounded up, so 00:00 shows only when the time is really up.
export function mmss(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  const pad = (n) => String(n).padStart(2, "0");
  return `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;
}

// What the clock is doing, as a word under the time.
function status(clock, ms) {
  if (clock.running_since !== null) return ms > 0 ? "running" : "time_up";
  if (clock.remaining === 0) return "time_up";
  return clock.remaining < clock.seconds * 1000 ? "paused" : "ready";
}

// Has the round's time run out, as this phone counts it (a room's slip now comes late)?
export const timeUp = () => Boolean(ui.clock)
  && status(ui.clock, left(ui.clock, serverNow())) === "time_up";

// The view's state, in one place.
const ui = {
  clock: null, // the table's clock as last sent, or null when no clock shows
  timer: null,
  armed: null, // running_since of a run seen with time left: it may still ring once
  bracket: null, // the last of SPOKEN announced (or passed silently) in this run
  audio: null, // the AudioContext, made on the first tap (see unlock)
};

// Follow the table's clock (null: none shows); called on every render.
export function follow(next) {
  const run = next && next.running_since;
  if (!ui.clock || !next || ui.clock.running_since !== run) {
    ui.armed = null;
    ui.bracket = null;
  }
  ui.clock = next;
  if (ui.clock) liveRegion(); // in place before it speaks, or screen readers miss the first line
  if (run !== null && run !== undefined && !ui.timer) ui.timer = setInterval(tick, TICK);
  if ((run === null || run === undefined) && ui.timer) {
    clearInterval(ui.timer);
    ui.timer = null;
  }
  tick();
}

function tick() {
  if (!ui.clock) return;
  const ms = left(ui.clock, serverNow());
  const text = mmss(ms);
  const word = t(`clock.${status(ui.clock, ms)}`);
  for (const face of document.querySelectorAll(".clock-face")) {
    face.querySelector(".clock-time").textContent = text;
    face.querySelector(".clock-status").textContent = word;
    face.classList.toggle("low", ms <= 10000);
    face.classList.toggle("up", ms === 0);
  }
  if (ui.clock.running_since === null) return;
  speak(Math.ceil(ms / 1000));
  if (ms > 0) ui.armed = ui.clock.running_since;
  else if (ui.armed === ui.clock.running_since) {
    ui.armed = null; // once per run, however often the screen redraws
    signal();
    setTimeout(changed); // the director's button turns from pause to start again
  }
}

// Tell a screen reader the time at 60, 30, 10 and 0 seconds only; a phone that comes in
// halfway through a run starts from where the run is, without saying it.
function speak(seconds) {
  const due = SPOKEN.filter((mark) => seconds <= mark).pop() ?? Infinity;
  if (due === ui.bracket) return;
  const first = ui.bracket === null;
  ui.bracket = due;
  if ((first && seconds > 0) || due === Infinity) return;
  let line = t("clock.time_up");
  if (due === 60) line = t("clock.one_minute");
  else if (due > 0) line = t("clock.seconds_left", { n: due });
  liveRegion().textContent = line;
}

function liveRegion() {
  let region = document.getElementById("clock-live");
  if (!region) {
    region = h("p", { id: "clock-live", class: "sr-only", "aria-live": "polite" });
    document.body.append(region);
  }
  return region;
}

// The time, big; `role="timer"` keeps it quiet for screen readers (speak() talks instead).
export function face() {
  const ms = left(ui.clock, serverNow());
  return h("div", { class: "clock-face" },
    h("p", { class: "clock-time", role: "timer", "aria-label": t("clock.title") },
      ui.clock ? mmss(ms) : ""),
    h("p", { class: "clock-status" }, ui.clock ? t(`clock.${status(ui.clock, ms)}`) : ""));
}

// The clock on a phone: its face for everyone, the controls for the director only; `why`
// the clock may not start now (a room's round without its rack), said where its start is.
export function panel(current, why = null) {
  follow(current);
  return h("section", { class: "card clock", "aria-labelledby": "clock-title" },
    h("h3", { id: "clock-title" }, t("clock.title")),
    face(),
    isHost() ? controls(current, why) : null);
}

function controls(current, why) {
  const ms = left(current, serverNow());
  const running = current.running_since !== null;
  const seconds = current.seconds;
  let action;
  if (running && ms > 0) {
    action = h("button", {
      type: "button", id: "clock-go", onclick: () => act({ type: "pause_clock" }),
    }, t("clock.pause"));
  } else {
    const again = running || current.remaining === 0;
    const paused = !again && current.remaining < seconds * 1000;
    const label = again ? "clock.restart" : paused ? "clock.resume" : "clock.start";
    action = h("button", {
      type: "button", class: "primary", id: "clock-go", "aria-disabled": why ? "true" : null,
      onclick: async () => {
        if (why) return say(why);
        if (again) await act({ type: "reset_clock", minutes: seconds / 60 }); // a fresh run
        return act({ type: "start_clock" });
      },
    }, t(label));
  }
  return h("div", { class: "clock-controls" },
    h("fieldset", { class: "clock-minutes" },
      h("legend", {}, t("clock.minutes")),
      MINUTES.map((m) => h("button", {
        type: "button", id: `clock-${m}`, "aria-pressed": String(seconds === m * 60),
        onclick: () => act({ type: "reset_clock", minutes: m }),
      }, t("clock.minute_choice", { n: m })))),
    action);
}

function act(command) {
  return send(command).catch(sayRefusal);
}

// Sound needs a tap first (browsers' autoplay rules): make the AudioContext on the first
// tap or key anywhere, and wake it again after the phone suspended it.
function unlock() {
  try {
    ui.audio = ui.audio || new AudioContext();
    if (ui.audio.state !== "running") ui.audio.resume().catch(() => {}); // the next tap tries again
  } catch {
    ui.audio = null; // no Web Audio here: the vibration still comes
  }
}

export function listenForGesture() {
  for (const type of ["pointerdown", "keydown"]) {
    addEventListener(type, unlock, { capture: true, passive: true });
  }
}

// Two short beeps and a double buzz where the device can (DUP-13).
function signal() {
  if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
  unlock();
  if (!ui.audio) return;
  const now = ui.audio.currentTime;
  for (const start of [0, 0.35]) {
    const tone = ui.audio.createOscillator();
    const volume = ui.audio.createGain();
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.0001, now + start);
    volume.gain.exponentialRampToValueAtTime(0.5, now + start + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + start + 0.25);
    tone.connect(volume).connect(ui.audio.destination);
    tone.start(now + start);
    tone.stop(now + start + 0.3);
  }
}
