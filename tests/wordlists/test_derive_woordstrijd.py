"""The Woordstrijd tile-count derivation (P-02) and the file it wrote."""

import itertools
import re
import string

import msgspec
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import editions
import wordlists
from wordlists import derive_woordstrijd as derive

# A made-up frequency table: C and W are rare enough to need the one-tile minimum, and
# G and H tie.
FREQUENCIES = dict(
    zip(
        string.ascii_uppercase,
        [
            700, 150, 3, 500, 1800, 80, 260, 260, 650, 180, 210, 380, 220,
            1000, 600, 130, 2, 640, 370, 650, 190, 230, 4, 5, 6, 120,
        ],
        strict=True,
    )
)  # fmt: skip


def assert_woordstrijd_counts(counts, frequencies):
    assert sum(counts.values()) == 103  # WS-21
    assert {f: counts[f] for f in "EYXQ"} == {"E": 18, "Y": 1, "X": 1, "Q": 1}  # WS-22
    assert set(counts) == set(string.ascii_uppercase)
    assert min(counts.values()) >= 1
    others = set(counts) - set("EYXQ")
    for rarer, commoner in itertools.permutations(others, 2):
        if frequencies[rarer] < frequencies[commoner]:
            assert counts[rarer] <= counts[commoner], (rarer, commoner)


def test_apportion_gives_woordstrijd_counts():
    counts = derive.apportion(FREQUENCIES, derive.FIXED, derive.TOTAL_LETTERS)
    assert_woordstrijd_counts(counts, FREQUENCIES)
    assert (counts["C"], counts["W"]) == (1, 1)  # quota below 1, raised to the minimum
    assert counts["G"] == counts["H"]


def test_apportion_is_largest_remainder():
    # quotas 5 × (0.5, 0.3, 0.2) = 2.5, 1.5, 1.0: whole parts 2, 1, 1, the spare tile to A
    # (equal remainders: the more frequent letter first).
    assert derive.apportion({"A": 5, "B": 3, "C": 2}, {}, 5) == {"A": 3, "B": 1, "C": 1}


def test_apportion_breaks_ties_alphabetically():
    assert derive.apportion({"B": 1, "A": 1, "C": 1}, {}, 4) == {"A": 2, "B": 1, "C": 1}


def test_apportion_refuses_too_few_tiles():
    with pytest.raises(ValueError, match="22 letters"):
        derive.apportion(FREQUENCIES, derive.FIXED, 42)


def test_apportion_refuses_all_zero_frequencies():
    with pytest.raises(ValueError, match="no frequencies"):
        derive.apportion(dict.fromkeys("ABC", 0), {}, 5)


@given(st.lists(st.integers(0, 10**6), min_size=26, max_size=26))
def test_apportion_invariants_hold_for_any_frequencies(weights):
    assume(any(w for c, w in zip(string.ascii_uppercase, weights, strict=True) if c not in "EYXQ"))
    frequencies = dict(zip(string.ascii_uppercase, weights, strict=True))
    counts = derive.apportion(frequencies, derive.FIXED, derive.TOTAL_LETTERS)
    assert_woordstrijd_counts(counts, frequencies)


def test_letter_frequencies_count_every_word_once_and_only_a_to_z():
    assert derive.letter_frequencies(["IJS", "IJS", "ÆX"]) == {"I": 2, "J": 2, "S": 2, "X": 1}


def test_woordstrijd_file_measures_the_shipped_dutch_list():
    lexicon = wordlists.get("nl")
    assert written_frequencies() == derive.letter_frequencies(lexicon.keys())
    assert f"wordlists/data/nl.dawg, {len(lexicon)} words" in derive.OUTPUT.read_text("utf-8")


def test_values_are_the_ws20_bands():
    assert sorted(derive.VALUES) == list(string.ascii_uppercase)


def written_frequencies() -> dict[str, int]:
    text = derive.OUTPUT.read_text("utf-8")
    header = [line for line in text.splitlines() if line.startswith("# occurrences:")]
    return {c: int(n) for line in header for c, n in re.findall(r"([A-Z])=(\d+)", line)}


def test_woordstrijd_file_holds_the_apportionment_of_its_measured_frequencies():
    frequencies = written_frequencies()
    assert set(frequencies) == set(string.ascii_uppercase)
    edition = editions.get("woordstrijd")
    counts = {k.face: k.count for k in edition.kinds}
    assert counts == derive.apportion(frequencies, derive.FIXED, derive.TOTAL_LETTERS)
    assert_woordstrijd_counts(counts, frequencies)
    assert edition.values == derive.VALUES


def test_render_writes_an_edition_file():
    counts = derive.apportion(FREQUENCIES, derive.FIXED, derive.TOTAL_LETTERS)
    text = derive.render(counts, FREQUENCIES, "Word list: a fixture.")
    assert "\n# Word list: a fixture.\n" in text
    raw = msgspec.toml.decode(text)
    assert (raw["name"], raw["blanks"], raw["bingo_bonus"]) == ("Woordstrijd", 2, 40)
    assert raw["tiles"].splitlines() == [
        f"{c} {derive.VALUES[c]} {n}" for c, n in sorted(counts.items())
    ]
