"""No abbreviation is ever offered as a move in Dutch: not by the duplicate top, not by the
computer opponent, and by no move the generator finds (issue 24: the computer played KG).

Both choose among ``rules.movegen.moves.generate``'s moves on the list's graph, so a seed
is played out as a duplicate game (the top laid each round, the rack refilled from the
bag) and as the computer's moves at every strength, and every word any generated move
forms is checked against the known abbreviations.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import editions
import wordlists
from rules.board import bag
from rules.board.board import Board
from rules.movegen.moves import generate
from rules.online.opponent import STRENGTHS, pick
from rules.room.tops import top
from tests.wordlists.samples import ABBREVIATIONS, TABLE
from wordlists.graph import Graph
from wordlists.keys import Keyer
from wordlists.lexicon import DATA

LIST = wordlists.get("nl")
KEYER = Keyer(LIST.edition)
ROUNDS = 6
CROSS_CHECKED = 40  # the best moves of each position have their cross words read too


def _known_abbreviations() -> frozenset[str]:
    """The sample, the listed ones, and the build's examples of every abbreviation rule."""
    record = json.loads((DATA / "nl.json").read_text(encoding="utf-8"))
    words = [
        *ABBREVIATIONS["nl"].split(),
        *TABLE["nl"]["listed"],
        *(w for rule in ("marked_abbreviation", "no_vowel") for w in record["examples"][rule]),
    ]
    return frozenset(KEYER.key(w) for w in words)


KNOWN = _known_abbreviations()


def _key(notation: str) -> str:
    """A word in row notation (a blank's letter in lower case) as a lexicon key."""
    return KEYER.key(notation.replace("[", "").replace("]", ""))


def test_graph_holds_no_known_abbreviation():
    graph = LIST.graph
    assert [k for k in sorted(KNOWN) if graph.contains(k)] == []
    assert graph.contains("LOOPT") and graph.contains("UI")


def _offered(board: Board, rack: str, seed: str, label: str, graph: Graph) -> list[str]:
    """Every main word the generator offers, the cross words of the best, the top's and
    each strength's choice; asserts the top and choices are among the moves."""
    moves = generate(board, rack, graph)
    words = [_key(m.word) for m in moves]
    for move in moves[:CROSS_CHECKED]:
        words.extend(_key(w.word) for w in board.score(move.play).words)
    best = top(board, rack, graph, ("fewest_blanks",))
    chosen = [pick(moves, level, seed, label) for level in STRENGTHS.values()]
    for move in (best, *chosen):
        if move is not None:
            assert move in moves
            words.extend(_key(w.word) for w in board.score(move.play).words)
    return words


def test_the_check_finds_an_abbreviation_in_a_list_that_has_one():
    # The control: with the uncleaned list's KG in the graph, the computer plays it.
    edition = editions.get("nl")
    graph = Graph.from_words(edition, ["KG", "GEK", "KEG"])
    offered = _offered(Board.empty(edition), "KGEAAAA", "s", "control", graph)
    assert "KG" in KNOWN.intersection(offered)


@pytest.mark.parametrize("code", ["nl", "woordstrijd"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=8, max_size=8).map(bytes.hex))
def test_duplicate_and_computer_never_offer_an_abbreviation(code, seed):
    edition = editions.get(code)
    tiles, rack = bag.draw(bag.shuffled(bag.full_set(edition), seed, "start"), (), 7)
    board = Board.empty(edition)
    for number in range(ROUNDS):
        notation = bag.rack_notation(rack)
        assert wordlists.get(code).path == LIST.path
        offered = _offered(board, notation, seed, f"round {number}", LIST.graph)
        assert KNOWN.isdisjoint(offered), sorted(KNOWN.intersection(offered))
        move = top(board, notation, LIST.graph, ("fewest_blanks",))
        if move is None:
            break
        board = board.apply(move.play)
        laid = [bag.BLANK if t.blank else t.letter for _, t in move.play.tiles]
        tiles, rack = bag.draw(tiles, bag.without(rack, laid), 7)


@pytest.mark.parametrize("word", sorted(ABBREVIATIONS["nl"].split()))
def test_woordstrijd_judges_by_the_same_cleaned_list(word):
    assert wordlists.get("woordstrijd").path == LIST.path
    assert not wordlists.get("woordstrijd").contains(word)
