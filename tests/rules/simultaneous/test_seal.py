"""A game sealed: the rounds a room with no players would play, drawn and searched once.

Every rack passes the rack rule on the tiles the tops before it left, every top is the one
the move generator finds on that board, the seal is a function of its seeds, and the sealed
game replays to the same racks and tops.
"""

import pytest

import editions
import wordlists
from events.events import GameEnded, GameStarted, Mode, RackDrawn, TopRecorded
from rules.board import bag
from rules.room import racks, rounds, tops
from rules.simultaneous.seal import replayed, seal
from rules.table import rulesets
from tests.rules.simultaneous.centres import Log, counted, sealed_game, top_of


@pytest.mark.parametrize(("edition", "rules"), [("fr", "duplicate"), ("nl", "duplicate-club")])
def test_seal_is_the_rooms_game_drawn_and_searched_with_the_same_seeds(
    edition: str, rules: str
) -> None:
    graph = wordlists.get(editions.get(edition).language).graph
    sealed = seal(edition, rules, counted("room"), graph)
    room = Log((GameStarted(edition, Mode.DUPLICATE, rules, ()),))
    seeds = counted("room")
    for number, round_ in enumerate(sealed):
        assert room.state.game is not None
        drawn = rounds.draw(room.state.game, seeds())
        assert drawn == RackDrawn(number, round_.rack, round_.rejected)
        room.record((drawn,), 0)
        query = rounds.query(room.state.game)
        assert query is not None
        closing = rounds.close(room.state.game, None, tops.find(query, graph))
        assert tuple(e for e in closing if isinstance(e, TopRecorded | GameEnded)) == (
            round_.closing
        )
        room.record(closing, 0)
    assert room.state.game is not None
    if room.state.game.ended is None:  # the bag could fill no rack after the last round
        assert isinstance(rounds.draw(room.state.game, seeds()), GameEnded)


def test_seal_is_deterministic_given_its_seeds() -> None:
    graph = wordlists.get("fr").graph
    assert seal("fr", "duplicate", counted("s"), graph) == sealed_game("s")
    assert sealed_game("t") != sealed_game("s")


def test_seal_every_rack_passes_the_rack_rule() -> None:
    edition = editions.get("fr")
    rule = rulesets.get("duplicate").rack_rule
    assert rule is not None
    kind = racks.kinds(edition, rule)
    sealed = sealed_game("s")
    room = Log((GameStarted("fr", Mode.DUPLICATE, "duplicate", ()),))
    for number, round_ in enumerate(sealed, 1):
        game = room.state.game
        assert game is not None
        kept = racks.kept(game)
        left = (*kept, *racks.in_bag(game, kept))
        least = racks.minimum(rule, kind, number, left)
        assert least is not None, number
        rack = bag.parse(edition, round_.rack)
        assert racks.passes(kind, rack, least), (number, round_.rack)
        assert not bag.missing(left, rack), (number, round_.rack)
        assert len(rack) == min(edition.rack_size, len(left))
        for sent_back in round_.rejected:
            assert not racks.passes(kind, bag.parse(edition, sent_back), least)
        room.record((RackDrawn(number - 1, round_.rack, round_.rejected, sealed=True),), 0)
        room.record(round_.closing, 0)


def test_seal_replays_to_the_same_racks_and_tops() -> None:
    sealed = sealed_game("s")
    game = replayed("fr", "duplicate", sealed)
    assert game.ended is not None
    played = [r for r in game.rounds if r.rack]  # the round opened after the last has none
    assert ["".join(r.rack) for r in played] == [r.rack for r in sealed]
    assert [r.top for r in played] == [top_of(r).points for r in sealed]
    assert [r.top_words[0].word for r in played] == [top_of(r).words[0].word for r in sealed]
    assert replayed("fr", "duplicate", sealed) == game
    assert len(sealed) > 15 and all(top_of(r).points > 0 for r in sealed[:-1])
    assert all(isinstance(e, TopRecorded) for r in sealed[:-1] for e in r.closing), (
        "only the last round's close may end the game"
    )
