// A move's reference as the table's rule set writes it (issue 25, item 6), read and written
// the same way as the server's rules/board/squares.py (`reference`, `parse_reference`;
// tests/web/test_references.py holds the two to the same answers). The rule set says which
// convention (the catalog's `references`): "board" names the first square and says the
// direction beside it (H4 horizontaal); "fisf" lets the order say it, as the FISF writes
// it: the row letter first across (H4), the column first down (4H). Commands to the server
// always carry the square (H4) and the direction.

import { t } from "./i18n.js";

const ROWS = "ABCDEFGHIJKLMNO";
const SIZE = 15;
const DIGITS = /^[0-9]+$/;

// The convention of a rule set as the catalog gives it (none named: "board").
export const conventionOf = (rules) => rules?.references || "board";

// The reference of a move from `square` ("H4") in `direction` ("across"/"down").
export function reference(square, direction, convention) {
  if (convention === "fisf" && direction === "down") return square.slice(1) + square[0];
  return square;
}

// The first square and the direction of a typed reference: {square, direction}, or
// {refusal: [code, params]} said as the server would say it. Under "board" the text is the
// square and `direction` the one chosen beside it.
export function parseReference(text, convention, direction = "across") {
  const typed = text.trim().toUpperCase();
  if (convention !== "fisf") {
    const number = typed.slice(1);
    if (typed && ROWS.includes(typed[0]) && whole(number)) {
      return { square: `${typed[0]}${Number(number)}`, direction };
    }
    return { refusal: ["bad_square", { text }] };
  }
  const down = /^[0-9]/.test(typed);
  const number = down ? typed.replace(/[A-O]+$/, "") : typed.slice(1);
  const letter = down ? typed.slice(number.length) : typed.slice(0, 1);
  if (letter.length === 1 && ROWS.includes(letter) && whole(number)) {
    return { square: `${letter}${Number(number)}`, direction: down ? "down" : "across" };
  }
  return { refusal: ["bad_reference", { text }] };
}

const whole = (number) => DIGITS.test(number) && Number(number) >= 1 && Number(number) <= SIZE;

// A move's place where room is short (a slip's line, a printed top): the reference under
// FISF rules, which says the direction itself, else the square and an arrow: "H4 ↓".
export function placed(square, direction, convention) {
  if (convention === "fisf") return reference(square, direction, convention);
  return `${square}\u00a0${direction === "down" ? "↓" : "→"}`;
}

// Where a move lies, said in a sentence: "H4 horizontaal", or under FISF rules "4H".
export function where(square, direction, convention) {
  if (convention === "fisf") return reference(square, direction, convention);
  return `${square} ${t(`calc.${direction}`).toLowerCase()}`;
}

// Did the round's top lay a whole rack (the bingo; "scrabble" in French)?
export const isBingo = (round, edition) => Boolean(edition)
  && round.top_tiles.length >= edition.rack_size;
