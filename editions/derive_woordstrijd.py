"""Derive the Woordstrijd tile counts from a Dutch word list and write ``woordstrijd.toml``.

The source publishes only E = 18, Y = X = Q = 1 and 103 letters in all (WS-21, WS-22);
the rest "follow Dutch letter frequency" (WS-23). P-02 has us measure that frequency on
the Dutch word list the project ships: OpenTaal's, which Debian's ``wdutch`` package
installs as ``/usr/share/dict/dutch`` (the default WORDLIST). The method:

1. Entries counted. One entry per line. An entry is dropped if any character is not a
   letter (digits, hyphens, spaces, apostrophes, dots, ``&``, ``+``, ``/``, ``@``, ``²``,
   ``€``...) or if it has an upper-case letter anywhere: proper names (``Dongelmans``)
   and abbreviations (``kWh``, ``3D``). Lower-case abbreviations cannot be told apart from
   words and stay.
2. Letters. Each kept entry is read with ``editions.get("nl").letters``: case and accents
   fold away (``ë`` → E, ``ç`` → C), and IJ (and the ligature ``ĳ``) is I plus J, as on
   the board (WS-26).
3. Frequency. A letter's frequency is its number of occurrences summed over the kept
   entries: every entry (type) counts once, however common the word is in use.
4. Apportionment. E, Y, X and Q keep their published counts (21 tiles); the other
   103 − 21 = 82 tiles go to the remaining 22 letters by the largest-remainder (Hamilton)
   method on their frequency shares: each letter's quota is 82 × its share, it gets the
   whole part, and the tiles left over go to the largest fractional parts. Every letter
   gets at least 1: a letter whose quota is below 1 is given 1 tile and the rest are
   apportioned again without it, until no quota is below 1. Quotas are exact fractions;
   equal fractional parts go to the more frequent letter, then the earlier letter in the
   alphabet.

Values come from the WS-20 bands. Run ``python -m editions.derive_woordstrijd [WORDLIST]``.
"""

import argparse
import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path

import editions

DEFAULT_WORDLIST = Path("/usr/share/dict/dutch")
OUTPUT = Path(__file__).parent / "data" / "woordstrijd.toml"

TOTAL_LETTERS = 103  # WS-21: 105 tiles, 2 of them blanks
BLANKS = 2
BINGO_BONUS = 40  # WS-18
FIXED = {"E": 18, "Q": 1, "X": 1, "Y": 1}  # WS-22
SOURCE = (
    "Puzzel Samen, Woordstrijd rules: values WS-20 (Y = X = 8, Q = 10 per OQ-82), 105 tiles"
    " WS-21, E 18 and Y X Q 1 WS-22, bingo 40 WS-18; other counts derived per P-02 by"
    " editions/derive_woordstrijd.py"
)

#: WS-20, the point bands; Y = X = 8 and Q = 10 per OQ-82 and P-02.
VALUE_BANDS = {
    1: "E N A O I",
    2: "T R D S",
    3: "L G K M U J B P",
    4: "H V F Z",
    5: "W C",
    8: "Y X",
    10: "Q",
}
VALUES = {letter: value for value, band in VALUE_BANDS.items() for letter in band.split()}


def counted(entry: str) -> bool:
    """Whether a word-list entry counts: letters only, none of them upper case.

    >>> [counted(w) for w in ("ijsje", "Dongelmans", "06-nummer", "zo'n", "kWh", "café")]
    [True, False, False, False, False, True]
    """
    return entry.isalpha() and not any(c.isupper() for c in entry)


def letter_frequencies(entries: Iterable[str]) -> Counter[str]:
    """Occurrences of each letter over the counted entries, folded to the Dutch set.

    >>> sorted(letter_frequencies(["ĳs", "Ĳsland", "ideeën"]).items())
    [('D', 1), ('E', 3), ('I', 2), ('J', 1), ('N', 1), ('S', 1)]
    """
    nl = editions.get("nl")
    frequencies: Counter[str] = Counter()
    for entry in entries:
        if counted(entry):
            frequencies.update(nl.letters(entry))
    return frequencies


def apportion(
    frequencies: Mapping[str, int], fixed: Mapping[str, int], total: int
) -> dict[str, int]:
    """Tile counts: ``fixed`` as given, the rest of ``total`` by largest remainder, ≥ 1 each.

    ``frequencies`` names every letter to count (absent letters are not apportioned).
    Raises ValueError if ``total`` cannot give every other letter at least one tile, or if
    the other letters' frequencies are all zero.

    >>> apportion({"A": 60, "B": 30, "C": 10, "E": 99}, {"E": 5}, 12)
    {'A': 4, 'B': 2, 'C': 1, 'E': 5}
    """
    others = sorted(set(frequencies) - set(fixed))
    house = total - sum(fixed.values())
    if house < len(others):
        raise ValueError(f"{house} tiles cannot give each of {len(others)} letters one")
    if others and not any(frequencies[c] for c in others):
        raise ValueError(f"no frequencies to apportion {house} tiles by")
    counts = dict(fixed)
    while True:
        weight = sum(frequencies[c] for c in others)
        quotas = {c: Fraction(house * frequencies[c], weight) for c in others}
        small = [c for c in others if quotas[c] < 1]
        if not small:
            break
        counts.update(dict.fromkeys(small, 1))
        others = [c for c in others if c not in small]
        house -= len(small)
    seats = {c: int(quotas[c]) for c in others}
    left = house - sum(seats.values())
    by_remainder = sorted(others, key=lambda c: (-(quotas[c] - seats[c]), -frequencies[c], c))
    for c in by_remainder[:left]:
        seats[c] += 1
    counts.update(seats)
    return dict(sorted(counts.items()))


def render(counts: Mapping[str, int], frequencies: Mapping[str, int], provenance: str) -> str:
    """The text of ``woordstrijd.toml`` for these counts."""
    measured = [f"{c}={frequencies[c]}" for c in sorted(frequencies)]
    occurrences = "".join(
        f"# occurrences: {' '.join(measured[i : i + 7])}\n" for i in range(0, len(measured), 7)
    )
    tiles = "\n".join(f"{c} {VALUES[c]} {n}" for c, n in counts.items())
    return f'''\
# Generated by `python -m editions.derive_woordstrijd`: re-run it rather than edit by hand.
# Counts: E 18, Y X Q 1 and 103 letters (WS-21, WS-22); the other letters by
# largest remainder on Dutch letter frequency (P-02; method in the script's docstring).
# {provenance}
{occurrences}\
name = "Woordstrijd"
language = "nl"
source = "{SOURCE}"
# face value count; values are the WS-20 bands
tiles = """
{tiles}
"""
blanks = {BLANKS}
bingo_bonus = {BINGO_BONUS}

# WS-19 and P-50: letter premiums green, word premiums blue, each also labelled in text.
[colours]
2L = "#7FD1AE"
3L = "#009E73"
2W = "#56B4E9"
3W = "#0072B2"
'''


def main(argv: list[str] | None = None) -> None:
    """Measure WORDLIST, apportion the tiles and write ``editions/data/woordstrijd.toml``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wordlist", nargs="?", type=Path, default=DEFAULT_WORDLIST)
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    raw = args.wordlist.read_bytes()
    entries = raw.decode("utf-8").splitlines()
    kept = sum(counted(e) for e in entries)
    measured = letter_frequencies(entries)
    frequencies = {c: measured[c] for c in sorted(VALUES)}  # every letter, even if unseen
    counts = apportion(frequencies, FIXED, TOTAL_LETTERS)
    provenance = (
        f"Word list: {args.wordlist} (sha256 {hashlib.sha256(raw).hexdigest()[:16]}), "
        f"{kept} of {len(entries)} entries counted."
    )
    args.output.write_text(render(counts, frequencies, provenance), encoding="utf-8")
    print(f"wrote {args.output}: {provenance}")


if __name__ == "__main__":
    main()
