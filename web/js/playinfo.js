// What the online game's view shows below the dock: the final table and the racks left
// (public once the game is over), the last move with its words and score, the tiles this
// player has not seen (the set − the board − the own rack), every move so far, and the
// invite with the same code and QR code as a sheet's.

import { finalPanel } from "./endgame.js";
import { lastText } from "./games.js";
import { colon, number, playerName, t, withBingo } from "./i18n.js";
import * as rack from "./rack.js";
import { invite } from "./start.js";
import { app } from "./state.js";
import { folding, h, replace } from "./ui.js";

// What the play view shares, bound at each draw: its state and its redraw.
const shared = {
  ui: null, // the view's state: which parts are open
  render: null,
};

// A part that folds open, and stays as the player left it when the view is redrawn.
function folded(name, className, summary, ...content) {
  return folding({
    class: className, open: shared.ui.opened.has(name),
    fold: (open) => {
      if (open) shared.ui.opened.add(name);
      else shared.ui.opened.delete(name);
    },
  }, summary, content);
}

export function drawInfo(box, g, online, view) {
  Object.assign(shared, { ui: view.ui, render: view.render });
  replace(box,
    g.ended ? finalPanel(g) : null,
    g.ended ? finalRacks(g, online) : null,
    lastMove(g, online),
    g.ended ? null : unseen(online), // at the end every rack is shown
    history(g),
    g.ended ? null : inviteCard(g));
}

// The last move, and before it every other turn since this player's own last one: in a game
// of three or four, all that happened while they were away.
function lastMove(g, online) {
  const last = online.last;
  if (!last) return null;
  const before = sinceMine(g, online.seat);
  return h("section", { class: "card play-last", "aria-labelledby": "play-last-title" },
    h("h3", { id: "play-last-title" }, t(before.length ? "play.since_title" : "play.last_title")),
    before.length ? h("ol", { class: "play-since" },
      before.map((line) => h("li", { class: `last-${line.kind}` }, lastText(g.players, line))))
      : null,
    h("p", { class: `last-${last.kind}` }, lastText(g.players, last)));
}

// The turns after `seat`'s last one, but the latest (the last move says it): none for a
// viewer (no seat), or before the seat's first turn.
function sinceMine(g, seat) {
  const turns = g.lines.filter((line) => line.kind !== "penalty" && line.kind !== "bonus");
  const mine = turns.findLastIndex((line) => line.player === seat);
  return mine < 0 ? [] : turns.slice(mine + 1, -1);
}

function unseen(online) {
  const tiles = online.unseen || [];
  const total = tiles.reduce((sum, [, count]) => sum + count, 0);
  return folded("unseen", "card play-unseen", t("play.unseen", { count: number(total) }),
    h("p", { class: "hint" }, t(online.rack ? "play.unseen_hint" : "play.unseen_hint_viewer")),
    h("ul", { class: "unseen-tiles" }, tiles.map(([tile, count]) => h("li", {},
      h("span", { class: "face" }, rack.isBlank(tile) ? t("play.blank") : rack.face(tile)),
      h("span", { class: "count num" }, `×${number(count)}`)))));
}

function history(g) {
  const lines = g.lines.filter((line) => line.kind !== "penalty" && line.kind !== "bonus");
  if (!lines.length) return null;
  return folded("history", "card play-history", t("play.history", { count: number(lines.length) }),
    h("ol", { reversed: true }, [...lines].reverse().map((line) => h("li", {},
      h("span", { class: "name" }, playerName(g.players, line.player)), colon(),
      line.kind === "move"
        ? `${withBingo(line.words.map(([word]) => word), line.bingo).join(", ")} · ${
          number(line.points)}`
        : t(`play.kind_${line.kind === "exchange" ? "exchange"
          : line.timed_out ? "timeout" : "pass"}`)))));
}

// The racks at the end are everybody's to see.
function finalRacks(g, online) {
  const racks = online.ended_racks;
  if (!racks) return null;
  return h("section", { class: "card play-final-racks", "aria-labelledby": "play-racks-title" },
    h("h3", { id: "play-racks-title" }, t("play.final_racks")),
    h("ul", {}, racks.map((tiles, p) => h("li", {},
      `${playerName(g.players, p)}${colon()}`,
      tiles.length ? tiles.map((tile) => (rack.isBlank(tile) ? t("play.blank") : rack.face(tile)))
        .join(" ") : t("play.rack_empty")))));
}

function inviteCard(g) {
  const session = app.session;
  if (!session || session.role === "viewer" || !session.code) return null;
  const open = shared.ui.invite ?? !g.lines.length;
  return h("section", { class: "card play-invite", "aria-labelledby": "play-invite-title" },
    h("h3", { id: "play-invite-title" }, t("play.invite_title")),
    h("button", {
      type: "button", id: "play-invite-toggle", "aria-expanded": String(open),
      "aria-controls": "play-invite",
      onclick: () => { shared.ui.invite = !open; shared.render(); },
    }, t("start.invite")),
    open ? h("div", { id: "play-invite" }, invite(session)) : null);
}
