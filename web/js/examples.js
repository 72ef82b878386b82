// Verification examples with known outcomes (GEN-09): the worked examples of the Dutch,
// Italian and Polish documents (§20.2–20.4), as moves the calculator loads when tapped.
// A board move that follows another lists it in `before`: it is laid first on an empty board.

const PLANK = { board: { start: "H4", direction: "across", letters: "PLANK" } };
const LEGGIO = { board: { start: "H3", direction: "across", letters: "LEGGIO" } };
const ZUBRY = { board: { start: "H4", direction: "across", letters: "ŻUBRY" } };

// A typed word: "K:3L" a premium, "A:old" already on the board, "a" a blank.
function word(...tiles) {
  return tiles.map((tile) => {
    const [letter, mark] = tile.split(":");
    return mark === "old" ? [letter, null, true] : [letter, mark || null, false];
  });
}

const plain = (text) => word(...text);

export const EXAMPLES = [
  // §20.2 Dutch
  { edition: "nl", name: "INDEX", points: 58,
    move: { typed: [word("I:2W", "N", "D", "E", "X:3L")] } }, // TV-NL-01
  { edition: "nl", name: "BOEK + KAAS", points: 27, move: { typed: [
    word("B", "O", "E", "K:3L"), word("K:3L", "A:old", "A:old", "S:old")] } }, // TV-NL-04
  { edition: "nl", name: "IJS", points: 7, move: { typed: [plain("IJS")] } }, // TV-NL-05
  { edition: "nl", name: "LETTERS", points: 52, move: { typed: [
    word("L:2W", "E", "T", "T:old", "E", "R", "S:2W")] } }, // TV-NL-06
  { edition: "nl", name: "PLANK H4 →", points: 28, move: PLANK }, // TV-NL-07
  { edition: "nl", name: "PLANK, KRAAN F6 ↓", points: 16, before: [PLANK],
    move: { board: { start: "F6", direction: "down", letters: "KRAN" } } }, // TV-NL-08
  { edition: "nl", name: "AQUAGYM H3 →", points: 130,
    move: { board: { start: "H3", direction: "across", letters: "AQUAGYM" } } }, // TV-NL-09
  { edition: "nl", name: "QALYTJE H4 →", points: 128,
    move: { board: { start: "H4", direction: "across", letters: "QALYTJE" } } }, // TV-NL-10
  // §20.3 Italian
  { edition: "it", name: "MICIO H6 →", points: 16,
    move: { board: { start: "H6", direction: "across", letters: "MICIO" } } }, // TV-IT-01
  { edition: "it", name: "FRAGOLA + POSTER", points: 105, move: { typed: [
    word("F", "R", "A", "G", "O:2W", "L", "A"),
    word("P:old", "O:old", "S:old", "T:old", "E:old", "R")] } }, // TV-IT-04
  { edition: "it", name: "FICO + FA", points: 30, move: { typed: [
    word("F:2W", "I", "C", "O"), word("F:2W", "A:old")] } }, // TV-IT-07
  { edition: "it", name: "LEGGIO H3 →", points: 46, move: LEGGIO }, // TV-IT-08
  { edition: "it", name: "LEGGIO, SOLE F3 ↓", points: 9, before: [LEGGIO],
    move: { board: { start: "F3", direction: "down", letters: "SOE" } } }, // TV-IT-09
  // §20.4 Polish
  { edition: "pl", name: "ŻÓŁW", points: 38,
    move: { typed: [word("Ż:2L", "Ó", "Ł", "W:2W")] } }, // TV-PL-01
  { edition: "pl", name: "MYSZ + KOTY", points: 21, move: { typed: [
    word("M", "Y:3L", "S", "Z"), word("K:old", "O:old", "T:old", "Y:3L")] } }, // TV-PL-04
  { edition: "pl", name: "ŻUBRY H4 →", points: 38, move: ZUBRY }, // TV-PL-05
  { edition: "pl", name: "ŻUBRY, KLAUN E5 ↓", points: 18, before: [ZUBRY],
    move: { board: { start: "E5", direction: "down", letters: "KLAN" } } }, // TV-PL-06
  { edition: "pl", name: "SPÓŹNIŁY", points: 347, move: { typed: [
    word("S:3W", "P", "Ó", "Ź:2L", "N:old", "I", "Ł", "Y:3W")] } }, // TV-PL-07
  { edition: "pl", name: "ŻABA", points: 18,
    move: { typed: [word("Ż", "a:2W", "B", "A")] } }, // TV-PL-08
  { edition: "pl", name: "ŁOPATKA H5 →", points: 74,
    move: { board: { start: "H5", direction: "across", letters: "ŁOPATKA" } } }, // TV-PL-09
  { edition: "pl", name: "DŹWIG", points: 16, move: { typed: [plain("DŹWIG")] } }, // TV-PL-10
  { edition: "pl-literaki", name: "DŹWIG", points: 12,
    move: { typed: [plain("DŹWIG")] } }, // TV-PL-11
];
