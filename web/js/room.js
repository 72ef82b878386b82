// The duplicate director's room on the phones (issue 14), above the sheet of rounds.
//
// The director (the host) draws each round's rack on the server, or types the rack of a
// real draw in the room; sees whose slips are in — names only, never a word, until the
// round closes; and closes the round: the server finds the top, plays it and judges every
// slip. A player's phone hands in its slip (slip.js) and sees, after the close, the top and
// every score. The server does all of it; this screen only shows and sends. In a room too
// big for a column per player, a player's phone shows its own slip of the round, not every
// slip, and its place in the standings (place.js). A room that is a simultaneous's centre
// shows the standings across every centre too (centre.js).

import * as arbiter from "./arbiter.js";
import * as centre from "./centre.js";
import { number, playerName, t } from "./i18n.js";
import { send, unanswered } from "./live.js";
import * as place from "./place.js";
import { trainingRack } from "./record.js";
import { conventionOf, isBingo, placed, where } from "./references.js";
import { keepsSheet, mySeat } from "./rights.js";
import { searchable } from "./roster.js";
import { crowded } from "./standings.js";
import { changed, edition, isHost, isRoom, rulesOf } from "./state.js";
import { openRound } from "./turn.js";
import { folding, h, sayRefusal } from "./ui.js";

// The view's state, in one place.
const ui = {
  typedRack: "", // the director's typed rack, kept over redraws
  unfolded: false, // a sheet kept by hand folds the room away until the director opens it
  // Every slip of a crowded room's closed round: unfolded, the round chosen (`round`, kept
  // while `after` is still the round that closed last) and the search over the names.
  slips: { open: false, round: null, after: null, filter: "" },
};

// The director's cards: joining a simultaneous (before the first rack), the round that
// closed last (its top, every slip), then the open round's; a player's phone shows the round
// that closed last and its place until the end (then the ranking says it). In a centre, the
// standings across every centre under them. `cell` is the sheet's editable cell (duplicate.js).
export function cards(game, cell) {
  if (game.room && !game.ended && isHost()) {
    return [centre.joinCard(game, isRoom(game)), lastRound(game, cell),
      folded(game, director(game, openRound(game))), centre.card(game)];
  }
  const seat = mySeat();
  return [lastRound(game, cell), seat === null || game.ended ? null : place.card(game, seat),
    centre.card(game)];
}

// A sheet kept by hand (no rack drawn yet) folds the room away until the director opens it.
function folded(game, card) {
  if (isRoom(game)) return card;
  return folding({
    class: "room-start", id: "room-start", open: ui.unfolded,
    fold: (open) => { ui.unfolded = open; },
  }, t("room.start"), card);
}

// --- the rack ------------------------------------------------------------------------------

export function rackTiles(game, rack, id) {
  const values = Object.fromEntries(edition(game.edition).letters.map(([face, v]) => [face, v]));
  const faces = rack.map((tile) => (tile === "?" ? "" : tile.replace(/[[\]]/g, "")));
  return h("ul", { class: "room-rack", id, "aria-label": t("room.rack_label", {
    tiles: faces.map((f) => f || t("room.blank")).join(" ") }) },
  faces.map((face) => h("li", { class: face ? "rack-tile" : "rack-tile blank" },
    h("span", { class: "face", "aria-hidden": "true" }, face),
    h("span", { class: "value", "aria-hidden": "true" }, face ? values[face] ?? "" : ""))));
}

// --- the director ------------------------------------------------------------------------

// Has the window of a simultaneous this room plays closed? Its racks are drawn no more.
export const windowClosed = () => Boolean(centre.frame()?.game.closed);

// The end of a duplicate game (DUP-14: nothing to settle), asked first.
export function endGame() {
  if (confirm(t("dup.end_confirm"))) send({ type: "end_game", racks: [] }).catch(sayRefusal);
}

function director(game, open) {
  const played = game.rounds[open];
  const drawn = played.rack.length > 0;
  const over = !drawn && windowClosed(); // a centre's game, with no round left to play
  const room = game.room;
  const names = game.players.map((_, p) => playerName(game.players, p));
  const left = new Set(game.left || []);
  const present = names.map((_, p) => p).filter((p) => !left.has(p)); // the players still in
  const inCount = room.slips.length;
  return h("section", { class: "card room room-director", id: "room-director",
    "aria-labelledby": "room-title" },
  h("h3", { id: "room-title" }, t("room.title", { n: number(open + 1) })),
  drawn ? [
    rackTiles(game, played.rack, "room-rack"),
    played.rejected ? h("p", { class: "hint" },
      t("room.rejected", { n: number(played.rejected) })) : null,
    played.typed_rack ? h("p", { class: "hint" }, t("room.typed")) : null,
  ] : h("p", { id: "room-no-rack" }, over ? t("room.window_closed")
    : room.minimum === null ? t("room.no_rack_left") : t("room.no_rack")),
  h("p", { class: "hint", id: "room-bag" }, t("room.bag", { n: room.bag })),
  h("div", { class: "actions" },
    !drawn && trainingRack(open) ? h("button", { // training: the recorded game's next rack
      type: "button", class: "primary", id: "room-training-rack", disabled: unanswered("set_rack"),
      onclick: () => send({ type: "set_rack", rack: trainingRack(open), round: open, force: true })
        .catch(sayRefusal),
    }, t("training.next_rack", { n: number(open + 1), rack: trainingRack(open) })) : null,
    !drawn && room.minimum !== null && !over ? h("button", {
      type: "button", class: "primary", id: "room-draw", disabled: unanswered("draw_rack"),
      onclick: () => send({ type: "draw_rack", round: open }).catch(sayRefusal),
    }, t("room.draw")) : null,
    over ? h("button", { type: "button", class: "primary", id: "room-end", onclick: endGame },
      t("dup.end")) : null,
    drawn ? h("button", {
      type: "button", class: "primary", id: "room-close", disabled: unanswered("close_round"),
      onclick: () => send({ type: "close_round", round: open }).catch(sayRefusal),
    }, t("room.close")) : null),
  drawn ? h("div", { class: "room-slips" },
    h("p", { id: "room-slips", "aria-live": "polite" },
      t("room.slips", { n: number(inCount), total: number(present.length) })),
    // A room too large for a line a player: who is missing is the players card's (roster.js).
    crowded(game) ? null : h("ul", { class: "room-slip-list" }, present.map((p) => {
      const handed = room.slips.includes(p);
      const late = room.late.includes(p);
      return h("li", {
        class: late ? "in late" : handed ? "in" : "waiting", dataset: { player: p } },
        h("span", { "aria-hidden": "true" }, late ? "⏱ " : handed ? "✓ " : "… "),
        t(late ? "room.slip_late" : handed ? "room.slip_in" : "room.slip_waiting",
          { name: names[p] }));
    }))) : null,
  drawn ? arbiter.form(game) : null, // a paper slip, typed for a player without a phone
  room.centre ? null : rackForm(open)); // a centre's racks are the sealed ones
}

// The rack of a real draw in the room, typed; one the rule would send back is used only
// once the director says so.
function rackForm(open) {
  const submit = async (force) => {
    const rack = ui.typedRack.trim();
    if (!rack) return;
    try {
      await send({ type: "set_rack", rack, round: open, force });
      ui.typedRack = "";
      changed();
    } catch (error) {
      if (error && error.code === "rack_rule" && !force) {
        if (confirm(t("room.force_confirm", error.params || {}))) await submit(true);
        return;
      }
      sayRefusal(error);
    }
  };
  return h("form", {
    class: "room-type-rack", id: "room-type-rack",
    onsubmit: (event) => { event.preventDefault(); submit(false); },
  },
  h("div", { class: "field" },
    h("label", { for: "room-rack-input" }, t("room.type_rack")),
    h("input", { id: "room-rack-input", autocomplete: "off", autocapitalize: "characters",
      spellcheck: "false", value: ui.typedRack, "aria-describedby": "room-rack-hint",
      oninput: (event) => { ui.typedRack = event.target.value; } }),
    h("p", { class: "hint", id: "room-rack-hint" }, t("room.rack_hint"))),
  h("button", { type: "submit", id: "room-rack-use" }, t("room.use_rack")));
}

// --- the round that closed last -----------------------------------------------------------

function lastRound(game, cell) {
  const index = game.rounds.findLastIndex((played) => played.results.length > 0);
  if (index < 0 || index < game.rounds.length - 2) return null; // only the one just closed
  const played = game.rounds[index];
  const [word, , , square, direction] = played.top_words[0] || [];
  const mine = mySeat();
  const convention = conventionOf(rulesOf(game.rules)); // FISF rules: 4H for down from H4
  const left = new Set(game.left || []); // taken out of the room: not shown
  const results = played.results.filter((result) => !left.has(result.player));
  return h("section", { class: "card room room-result", id: "room-result",
    "aria-labelledby": "room-result-title" },
  h("h3", { id: "room-result-title" }, t("room.last", { n: number(index + 1) })),
  h("p", { class: "room-top-line", id: "room-top-line" }, word
    ? [t("room.top_line", { word, where: where(square, direction, convention),
      points: played.top }), bingoMark(played, game)]
    : t("room.no_move")),
  topFormulas(played, game),
  mine !== null && crowded(game)
    ? ownResult(played, results.find((result) => result.player === mine), convention)
    : crowded(game) ? allSlips(game, index, convention, cell)
      : slipTable(game, index, results, convention, null));
}

// Round `index`'s judged slips, `results`, each with its cell as it stands: a correction
// since the close shows, its solo with it. With `cell`, the points are the sheet's own cells
// to correct (a jury's verdict on a word, a recount), labelled as the sheet labels them.
function slipTable(game, index, results, convention, cell) {
  const played = game.rounds[index];
  const mine = mySeat();
  const round = number(index + 1);
  const over = new Set(game.notices.filter((n) => n.code === "over_top" && n.params.round === index)
    .map((n) => n.params.player));
  return h("table", { class: "room-results" },
    h("caption", { class: "sr-only" }, t("room.results_caption", { n: round })),
    h("thead", {}, h("tr", {},
      [t("dup.player"), t("room.slip_word"), t("room.points"), t("room.difference")]
        .map((label, i) => h("th", { scope: "col", class: i ? "num" : null }, label)))),
    h("tbody", {}, results.map((result) => {
      const name = playerName(game.players, result.player);
      const points = cellOf(played, result);
      return h("tr", {
        class: result.player === mine ? "mine" : null, dataset: { player: result.player },
      },
      h("th", { scope: "row" }, name),
      h("td", { class: "num" }, outcome(result, convention)),
      h("td", { class: "num" }, cell ? cell(game, index, result.player, points,
        t("dup.cell_player", { round, name }), over.has(result.player)) : number(points),
      solo(result)),
      h("td", { class: "num" }, number(points - (played.top ?? 0))));
    })));
}

// Every judged slip in a crowded room, folded away so that 200 rows do not stand between
// the round's controls and the players card, and drawn only unfolded. The rounds there have
// no column a player: the director corrects a cell here, of any closed round (the one that
// closed last unless another is chosen), the player found by name.
function allSlips(game, index, convention, cell) {
  const closed = game.rounds.flatMap((played, r) => (played.results.length ? [r] : []));
  const kept = ui.slips.after === index && closed.includes(ui.slips.round);
  const chosen = kept ? ui.slips.round : index;
  const left = new Set(game.left || []); // taken out of the room: not shown
  const results = game.rounds[chosen].results.filter((result) => !left.has(result.player));
  const wanted = searchable(ui.slips.filter.trim()); // as the roster's: "zoe" finds "Zoë"
  const shown = wanted ? results.filter((result) =>
    searchable(playerName(game.players, result.player)).includes(wanted)) : results;
  const editable = keepsSheet() && !game.ended;
  return folding({
    class: "room-all-slips", id: "room-all-slips", open: ui.slips.open,
    fold: (open) => {
      ui.slips.open = open;
      changed();
    },
  },
  t("room.all_slips", { n: number(chosen + 1), count: number(results.length) }),
  ui.slips.open ? [
    h("div", { class: "room-slips-find" },
      h("div", { class: "field room-slips-round" },
        h("label", { for: "room-slips-round" }, t("dup.round")),
        h("select", {
          id: "room-slips-round",
          onchange: (event) => {
            Object.assign(ui.slips, { round: Number(event.target.value), after: index });
            changed();
          },
        }, closed.map((r) => h("option", { value: r, selected: r === chosen }, number(r + 1))))),
      h("div", { class: "field room-slips-search" },
        h("label", { for: "room-slips-filter" }, t("roster.search")),
        h("input", { id: "room-slips-filter", type: "search", autocomplete: "off",
          value: ui.slips.filter, "aria-describedby": "room-slips-found",
          oninput: (event) => { ui.slips.filter = event.target.value; changed(); } }))),
    h("p", { class: "hint", id: "room-slips-found", role: "status" },
      t("roster.found", { n: number(shown.length), total: number(results.length) })),
    slipTable(game, chosen, shown, convention, editable ? cell : null),
  ] : null);
}

// A player's own slip of the round, judged, where every slip would be a list of 200; none
// for a player who registered after the close.
function ownResult(played, result, convention) {
  if (!result) return null;
  const points = cellOf(played, result);
  return h("dl", { class: "room-mine", id: "room-mine" },
    h("dt", {}, t("room.slip_word")), h("dd", {}, outcome(result, convention)),
    h("dt", {}, t("room.points")), h("dd", {}, number(points), solo(result)),
    h("dt", {}, t("room.difference")), h("dd", {}, number(points - (played.top ?? 0))));
}

// The solo a slip earned, beside its points, kept on one line.
function solo(result) {
  return result.solo ? h("span", { class: "solo" }, ` ${t("room.solo", {
    points: number(result.solo) }).replaceAll(" ", "\u00a0")}`) : null;
}

// A judged player's score of a closed round: the cell, which the director may have corrected.
function cellOf(played, result) {
  return played.scores[result.player] ?? result.points;
}

// The top's bingo (a whole rack laid, "scrabble" in French), marked beside it.
export function bingoMark(played, game) {
  if (!isBingo(played, edition(game.edition))) return null;
  return [" ", h("span", { class: "bingo" }, t("room.bingo"))];
}

// How the top's points are made (GEN-08, SCR-17): each word with the formula the server
// scored it by, the calculator's, and the bingo; the lines add up to the top's points.
export function topFormulas(played, game) {
  if (!played.top_words.length || !topAddsUp(played, game)) return null;
  const info = edition(game.edition);
  return h("ul", { class: "room-formulas" },
    played.top_words.map(([word, , formula]) => h("li", {},
      h("span", { class: "word" }, word), " ", h("span", { class: "formula" }, terms(formula)))),
    isBingo(played, info) ? h("li", { class: "bonus" },
      t("sheet.bingo", { points: number(info.bingo_bonus) })) : null);
}

// Do the top's words and its bingo make its points? Not once the director has corrected the
// top's cell (a jury, a recount): the words' scores and formulas are then not shown beside
// points they no longer make.
export function topAddsUp(played, game) {
  const info = edition(game.edition);
  const words = played.top_words.reduce((sum, [, points]) => sum + points, 0);
  return words + (isBingo(played, info) ? info.bingo_bonus : 0) === played.top;
}

// A formula that wraps only between its terms: "2 × 2" is never cut in two.
const terms = (formula) => formula.split(" + ").map((term, i) => [i ? " + " : null,
  h("span", { class: "term" }, term)]);

// "across" as it reads inside a sentence (the string is a button's label).
export const inLine = (direction) => t(`calc.${direction}`).toLowerCase();

// What became of a slip: its word, or why it scored what it did.
function outcome(result, convention) {
  if (result.kind === "valid") { // one line; a slip that laid the whole rack marked as the top is
    const slip = `${result.word}\u00a0${placed(result.start, result.direction, convention)}`;
    return result.bingo ? [slip, " ", h("span", { class: "bingo" }, t("room.bingo"))] : slip;
  }
  if (result.kind === "invalid") return t("room.invalid", { word: result.word, bad: result.bad });
  return t(`room.${result.kind}`, { word: result.word }); // late, missing, entered, unplayable
}
