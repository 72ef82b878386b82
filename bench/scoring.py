"""Board-mode scoring speed: a move forming three cross words on a mid-game board.

Run: ``python -m bench.scoring``. The baseline is the bare floor of the same work in the
same process: summing the letter values of the same four words in a plain loop, with no
placement check, no word finding and no formula.
"""

import editions
from bench.timing import measure, report
from rules import Board, score_words, typed_word

MID_GAME = """
...............
...............
...............
...............
..........Z....
.....K....O....
.....R....E....
...PLANKJE.....
.....A.........
.....N.........
...............
...............
...............
...............
...............
"""


def main() -> None:
    nl = editions.get("nl")
    board = Board.from_rows(nl, MID_GAME)
    play = board.place("I7", "across", "DOE")
    result = board.score(play)
    print(f"move: DOE from I7 across on a mid-game board → {result.total} points")
    for word in result.words:
        print(f"  {word.word:<6} {word.formula}")
    assert len(result.words) == 4, "the benchmark move must form a main word and 3 cross words"

    values = nl.values
    letters = [word.word for word in result.words]

    def bare_sum() -> int:
        return sum(values[c] for word in letters for c in word)

    typed = [
        typed_word(nl, "ADOE", premiums={1: "2L", 3: "2L"}, old={0}),
        typed_word(nl, "ND", premiums={1: "2L"}, old={0}),
        typed_word(nl, "KO", old={0}),
        typed_word(nl, "JE", premiums={1: "2L"}, old={0}),
    ]
    assert score_words(nl, typed).total == result.total

    baseline = measure("baseline: bare sum of the words' letter values", bare_sum)
    rows = [
        baseline,
        measure("Board.score (check + find words + score)", lambda: board.score(play)),
        measure(
            "Board.place + Board.score (typed letters)",
            lambda: board.score(board.place("I7", "across", "DOE")),
        ),
        measure("score_words (the same four words typed)", lambda: score_words(nl, typed)),
        measure("Board.apply (check + new board)", lambda: board.apply(play)),
    ]
    report(rows, baseline)
    print(f"scored board moves per second (median): {rows[1].per_second:,.0f} (goal ≥ 20,000)")


if __name__ == "__main__":
    main()
