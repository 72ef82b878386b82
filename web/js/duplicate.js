// The duplicate sheet (DUP-04..15): a row per round with the top and every player's score,
// each cell editable at any time (P-40); under it the totals, the difference from the sum
// of the tops and the percentage of it (DUP-05..07); the round clock; the ranking once the
// game has ended. The server does every sum: this screen only shows and sends.

import * as clock from "./clock.js";
import { extras } from "./extras.js";
import { notice, number, onLanguage, percent, playerName, signed, t } from "./i18n.js";
import { inFlight, send, unanswered } from "./live.js";
import { MAX_POINTS, wholePoints } from "./points.js";
import { keepsSheet, mayEnd, mayTurn, mayUndo, mySeat } from "./rights.js";
import { changed, isHost, isRoom, sheet, subscribe } from "./state.js";
import { recordActions } from "./record.js";
import * as room from "./room.js";
import * as roster from "./roster.js";
import * as slip from "./slip.js";
import * as standings from "./standings.js";
import { refusalText } from "./refusals.js";
import { refer } from "./turn.js";
import { helpHint } from "./shell.js";
import { copyText, h, mark, replace, say, sayRefusal, settle } from "./ui.js";

// The view's state, in one place.
const ui = {
  section: null,
  box: null,
  // The heading, kept from draw to draw: the shell puts the focus on it when the view shows,
  // and one drawn anew would be focused again at every slip, a layout of the whole room's
  // screen each time (a third of a director's phone's work as 200 slips come in).
  title: null,
  topFocus: null, // the round whose top cell takes the focus once it shows (after a top)
};

export function mount(element) {
  ui.section = element;
  ui.box = h("div", { class: "duplicate", hidden: true });
  ui.title = h("h2", { id: "sheet-title" });
  ui.section.append(ui.box);
  clock.listenForGesture();
  subscribe(render);
  onLanguage(render);
}

function render() {
  const game = sheet();
  const shown = game !== null && game.mode === "duplicate";
  // the classic sheet redraws the section
  if (!ui.section.contains(ui.box)) ui.section.append(ui.box);
  ui.box.hidden = !shown;
  if (!shown) {
    clock.follow(null);
    ui.box.replaceChildren();
    return;
  }
  ui.section.hidden = false;
  const typing = typed();
  const open = game.rounds.length - 1;
  const slipCard = slip.card(game);
  const slipFirst = slipCard !== null && game.rounds[open].rack.length > 0;
  // The director's screen: the clock, the open round and "record top" together, above
  // the rounds.
  if (ui.title.textContent !== t("dup.title")) ui.title.textContent = t("dup.title");
  replace(ui.box,
    ui.title,
    game.ended ? ranking(game) : clock.panel(game.clock, clockWithheld(game, open)),
    slipFirst ? slipCard : null, // a player with a rack to lay sees the tiles first
    // The room: draw the rack, the slips, close with the computed top; a crowded room's
    // director corrects a closed round's cells in its list of slips, with the sheet's `cell`.
    room.cards(game, cell),
    slipFirst ? null : slipCard,
    // A room's round closes with a top on the board (the close, or a move laid in the
    // calculator), never with points typed here, nor before its rack (the server refuses
    // it: no_rack); a centre's tops are the sealed ones. The form is a sheet's, kept at a
    // table without racks.
    !game.ended && keepsSheet() && !game.room?.centre && !isRoom(game)
      ? topForm(game) : null,
    // The director's players (count, missing slips, add, rename, remove), under the controls.
    roster.card(game),
    overTop(game),
    // A room of more players than a phone has columns: the tops, then the standings as a list.
    standings.crowded(game) ? standings.sheet(game, cell) : rounds(game),
    actions(game));
  if (game.ended) clock.follow(null);
  keep(typing);
  if (ui.topFocus !== null && ui.topFocus <= open) {
    // The next natural control after recording a top: the new round's top.
    document.getElementById(`dup-r${ui.topFocus}-top`)?.focus();
    ui.topFocus = null;
  }
}

// What is being typed in a score cell survives a redraw caused by another phone: the cell
// is drawn with its points as they stand (`data-saved`), and the text typed over them is put
// back, with its caret. Only the cells: the screen's other fields (the roster's, the slip's,
// the room's) keep what is typed in them themselves, and clear it when it is sent — a name
// just added came back into the field it had been cleared from. The focus and, when nothing
// was typed, the caret are `replace`'s.
function typed() {
  const input = document.activeElement;
  if (!input?.classList.contains("dup-cell") || !ui.box.contains(input)) return null;
  return { id: input.id, value: input.value, saved: input.dataset.saved,
    start: input.selectionStart, end: input.selectionEnd };
}

function keep(typing) {
  if (!typing || typing.value === typing.saved) return;
  const input = document.getElementById(typing.id);
  if (!input) return;
  input.value = typing.value;
  input.setSelectionRange(typing.start, typing.end);
}

// Over-top is a notice, never a block (DUP-11, P-42).
function overTop(game) {
  const found = game.notices.filter((n) => n.code === "over_top");
  if (!found.length) return null;
  return h("ul", { class: "notices", role: "status" }, found.map(({ params }) => {
    const name = playerName(game.players, params.player);
    const round = number(params.round + 1);
    return h("li", { class: "notice" }, `${t("dup.cell_player", { round, name })}: `,
      notice("over_top", { round, player: name, name, points: number(params.points),
        top: number(params.top) }));
  }));
}

function rounds(game) {
  const open = game.rounds.length - 1;
  const last = game.rounds[open];
  const idle = game.ended && last.top === null && last.scores.every((s) => s === null);
  const played = idle ? game.rounds.slice(0, -1) : game.rounds;
  const over = new Set(game.notices.filter((n) => n.code === "over_top")
    .map(({ params }) => `${params.round}:${params.player}`));
  const names = game.players.map((_, p) => playerName(game.players, p));
  const left = new Set(game.left || []); // taken out of the room: no column, no standing
  const shown = names.map((_, p) => p).filter((p) => !left.has(p));
  const standing = new Map(game.standings.map((s) => [s.player, s]));
  const extra = extras(game); // a solo, bonus or penalty beside a cell: the column adds up
  const mine = mySeat();
  const head = h("tr", {},
    h("th", { scope: "col" }, t("dup.round")),
    h("th", { scope: "col", class: "num" }, t("dup.top")),
    shown.map((p) => h("th", { scope: "col", class: p === mine ? "num mine" : "num" },
      names[p])));
  const body = played.map((row, r) => {
    const current = r === open && !game.ended;
    const round = number(r + 1);
    return h("tr", { class: current ? "open" : null },
      h("th", { scope: "row" }, round,
        current ? h("span", { class: "sr-only" }, `, ${t("dup.open_round")}`) : null),
      h("td", { class: "num dup-topcell" }, current && keepsSheet() ? "…"
        : cell(game, r, null, row.top, t("dup.cell_top", { round }))),
      shown.map((p) => h("td", { class: p === mine ? "num mine" : "num" },
        cell(game, r, p, row.scores[p], t("dup.cell_player", { round, name: names[p] }),
          over.has(`${r}:${p}`)),
        extra?.[r][p] ? h("span", { class: "dup-extra" }, signed(extra[r][p])) : null)));
  });
  // The tops' sum stands under the tops; the longer labels take the top column too, so the
  // round column stays narrow and four players fit on a small phone.
  const columns = shown.map((p) => standing.get(p));
  const foot = [
    h("tr", {}, h("th", { scope: "row" }, t("dup.total")),
      h("td", { class: "num" }, number(game.tops)),
      columns.map((s) => h("td", { class: "num" }, number(s.total)))),
    ...[
      [t("dup.difference"), columns.map((s) => number(s.difference))],
      [t("dup.percent"), columns.map((s) => percent(s.percent_tenths))],
    ].map(([label, values]) => h("tr", {},
      h("th", { scope: "row", colspan: 2 }, label),
      values.map((value) => h("td", { class: "num" }, value)))),
  ];
  return h("div", { class: "dup-scroll" },
    h("table", { class: "dup-rounds" },
      h("caption", { class: "sr-only" }, t("dup.rounds_caption")),
      h("thead", {}, head), h("tbody", {}, body), h("tfoot", {}, foot)));
}

// One editable cell. The open round's top belongs to the top form: entering it records
// the top, which closes the round (P-40). Top cells are the director's (or the phone
// keeping the sheet's); a player's phone edits its own cells.
function cell(game, round, player, points, label, overTopFlag = false) {
  const isOpenTop = player === null && round === game.rounds.length - 1;
  const editable = !game.ended && (player === null ? keepsSheet() : mayTurn(player));
  const saved = points === null ? "" : String(points);
  return h("input", {
    id: player === null ? `dup-r${round}-top` : `dup-r${round}-p${player}`,
    class: "dup-cell", type: "text", inputmode: "numeric", autocomplete: "off",
    "aria-label": label, value: saved, readonly: !editable,
    "aria-invalid": overTopFlag ? "true" : null,
    form: isOpenTop ? "dup-top-form" : null,
    dataset: { saved },
    onchange: isOpenTop ? null : (event) => leave(event.target, round, player),
    onblur: isOpenTop ? null : (event) => leave(event.target, round, player),
    onkeydown: isOpenTop ? null : (event) => {
      if (event.key === "Enter") correct(event.target, round, player);
    },
  });
}

// A cell left (Tab, a tap elsewhere) sends what was typed in it, once the focus has moved
// on: sent at once, the redraw it causes would drop the focus on its way. A cell being typed
// in that a redraw takes out of the page is left too (Chromium): what was typed is carried
// into the cell drawn anew, focused (`keep`), and sent from there — by Enter or on leaving,
// "blur" as well as "change", since a text put back by the page is no change of the user's.
// A phone put aside keeps the focus on the cell: nothing is sent.
function leave(input, round, player) {
  setTimeout(() => {
    if (document.activeElement === input) return;
    if (!input.isConnected && document.activeElement?.id === input.id) return;
    correct(input, round, player);
  });
}

// The cell's text as points: null for empty, undefined when it is not a number we accept.
function points(text) {
  return text === "" ? null : wholePoints(text) ?? undefined;
}

function correct(input, round, player) {
  const text = input.value.trim();
  if (text === input.dataset.saved) return;
  const value = points(text);
  if (value === undefined) {
    say(t("dup.bad_points", { max: number(MAX_POINTS) }));
    input.value = input.dataset.saved;
    return;
  }
  input.dataset.saved = text;
  const before = mark();
  send({ type: "correct_cell", round, player, points: value }).then(
    () => settle(before), // saved: a typo's alert is past
    (error) => {
      sayRefusal(error);
      changed(); // show the sheet as it stands again
    });
}

// The director types the open round's top into its cell, then records it; the command
// names the round, so a second tap closes no other.
function topForm(game) {
  const open = game.rounds.length - 1;
  const round = number(open + 1);
  return h("form", {
    id: "dup-top-form", class: "dup-top card",
    onsubmit: (event) => {
      event.preventDefault();
      const input = document.getElementById(`dup-r${open}-top`);
      const value = points(input.value.trim());
      if (value === undefined || value === null) {
        say(t("dup.bad_points", { max: number(MAX_POINTS) }));
        input.focus();
        return;
      }
      input.dataset.saved = String(value); // sent, so no draft to keep over the redraw
      ui.topFocus = open + 1;
      send(refer(game, { type: "record_top", points: value })).catch((error) => {
        ui.topFocus = null;
        sayRefusal(error);
      });
    },
  },
  h("h3", { id: "dup-now-title" }, t("shell.round", { n: round })),
  h("div", { class: "dup-now" },
    h("div", { class: "field" }, cell(game, open, null, game.rounds[open].top,
      t("dup.cell_top", { round }))),
    h("button", { type: "submit", class: "primary", "aria-describedby": "dup-top-hint",
      disabled: unanswered("record_top") }, t("dup.record_top")),
    helpHint("dup-top-hint", t("dup.top_hint", { round }))));
}

function actions(game) {
  const undo = mayUndo(game);
  const end = !game.ended && mayEnd(game);
  if (!undo && !end) return null;
  return h("div", { class: "actions no-print" },
    undo ? h("button", {
      type: "button", disabled: inFlight("undo"),
      onclick: () => {
        // In a room every phone has seen the rack or the round's results: an undo there is
        // asked twice (a rack undone and drawn again is another rack).
        if (isRoom(game) && !confirm(t("room.undo_confirm"))) return;
        send(refer(game, { type: "undo" })).catch(sayRefusal);
      },
    }, t("dup.undo")) : null,
    end ? h("button", { type: "button", class: "danger", onclick: room.endGame }, t("dup.end"))
      : null);
}

// Why a room's round clock may not start: its round has no rack (the server would refuse
// it, `no_rack`), nor will have one once a simultaneous's window has closed.
function clockWithheld(game, open) {
  if (!isRoom(game) || game.rounds[open].rack.length) return null;
  return room.windowClosed() ? t("room.window_closed") : refusalText("no_rack");
}

// The ranking after the end (DUP-15): no settlement in duplicate (DUP-14).
function ranking(game) {
  const rows = ranked(game);
  return h("section", { class: "card dup-ranking", "aria-labelledby": "dup-ranking-title" },
    h("h3", { id: "dup-ranking-title" }, t("dup.ranking")),
    h("p", {}, t("dup.ended")),
    h("div", { class: "dup-scroll" }, h("table", {},
      h("thead", {}, h("tr", {},
        [t("dup.place"), t("dup.player"), t("dup.total"), t("dup.difference"), t("dup.percent")]
          .map((label, i) => h("th", { scope: "col", class: i === 1 ? null : "num" }, label)))),
      h("tbody", {}, rows.map((row) => h("tr", {},
        h("td", { class: "num" }, row.place),
        h("th", { scope: "row" }, row.name),
        h("td", { class: "num" }, row.total),
        h("td", { class: "num" }, row.difference),
        h("td", { class: "num" }, row.percent)))))),
    h("div", { class: "actions no-print" },
      h("button", { type: "button", onclick: () => copy(rows) }, t("dup.copy")),
      recordActions(),
      // A centre plays the simultaneous's one game; another game is another room.
      isHost() && !game.room?.centre ? h("button", {
        type: "button", class: "primary",
        disabled: inFlight("new_game"),
        onclick: () => send(refer(game, { type: "new_game" })).catch(sayRefusal),
      }, t("dup.new_game")) : null));
}

// The final rows in order of place, written as this language writes numbers; the players
// taken out of a room have none.
function ranked(game) {
  const byPlayer = new Map(game.standings.map((s) => [s.player, s]));
  return [...game.final].sort((a, b) => a.place - b.place || a.player - b.player).map((row) => {
    const standing = byPlayer.get(row.player);
    return {
      place: number(row.place),
      name: playerName(game.players, row.player),
      total: number(row.final),
      difference: number(standing.difference),
      percent: percent(standing.percent_tenths),
    };
  });
}

// The ranking as text, without any link (DUP-15).
async function copy(rows) {
  const text = [t("dup.ranking"), ...rows.map((row) => t("dup.result_line", row))].join("\n");
  if (await copyText(text)) say(t("dup.copied"), "info");
  else say(t("dup.copy_failed"));
}
