"""The duplicate room's racks: the FISF rack rule, the draw, the tiles kept, the game's end.

The property: whatever the seed and whatever the tops take, every rack drawn passes the
rule (at least 2 vowels and 2 consonants up to round 15, then 1 of each; the blank either),
every rack sent back fails it, every rack is made of tiles still to be drawn, and the draw
stops only when no rack that passes can be made from the tiles left.
"""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import editions
import wordlists
from events import commands as c
from events.events import GameStarted, RackDrawn, Recorded, TopRecorded
from rules.board import bag
from rules.board.tiles import bag_letter
from rules.room import racks, tops
from rules.table.decide import decide
from rules.table.reducer import evolve, replay
from rules.table.rulesets import RackRule
from rules.table.state import State

FR = editions.get("fr")
LIST = wordlists.get("fr")
NL = editions.get("nl")
RULE = RackRule()
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(
    ("language", "tiles", "counted"),
    [
        ("fr", "AEBC", (2, 2)),
        ("fr", "Y", (1, 1)),  # FISF: Y is a vowel and a consonant
        ("fr", "??", (2, 2)),  # the blank either
        ("pl", "YĄŁ", (2, 1)),  # a Polish Y is a vowel
        ("de", "ÄÖBB", (2, 2)),
        ("it", "AEIOU", (5, 0)),
    ],
)
def test_kinds_count_vowels_and_consonants(language: str, tiles: str, counted: tuple) -> None:
    edition = editions.get(language)
    assert racks.kinds(edition, RULE).count(bag.parse(edition, tiles)) == counted


@pytest.mark.parametrize(
    ("round_number", "tiles", "least"),
    [
        (1, "AEBCDFG", 2),
        (15, "AEBCDFG", 2),
        (16, "AEBCDFG", 1),  # from round 16 one of each
        (3, "ABCDEFG", 2),
        (3, "ABCDFGH", 1),  # one vowel left: one of each will do (Eliot)
        (3, "BCDFGH", None),  # no vowel left: no rack, the game ends
        (20, "AEIOU", None),  # no consonant left
        (1, "?", 1),
        (1, "", None),
    ],
)
def test_minimum_follows_the_round_and_the_tiles_left(
    round_number: int, tiles: str, least: int | None
) -> None:
    kind = racks.kinds(FR, RULE)
    assert racks.minimum(RULE, kind, round_number, bag.parse(FR, tiles)) == least


def test_a_failed_rack_goes_back_whole_and_seven_are_drawn_again() -> None:
    kind = racks.kinds(FR, RULE)
    kept = tuple("BCDFG")  # five consonants kept: two new tiles rarely make two vowels
    in_bag = tuple("AE" + "BCDFGHJLMNPRST" * 3)
    seeds = (f"s{n}" for n in itertools.count())
    drawn = next(d for s in seeds if (d := racks.draw(kind, 2, kept, in_bag, s, "r", 7)).rejected)
    first = drawn.rejected[0]
    assert first[:5] == kept and not racks.passes(kind, first, 2)
    assert all(not racks.passes(kind, r, 2) for r in drawn.rejected)
    assert racks.passes(kind, drawn.rack, 2) and len(drawn.rack) == 7
    assert not bag.missing((*kept, *in_bag), drawn.rack)


def test_the_same_seed_draws_the_same_rack_and_another_seed_another() -> None:
    kind = racks.kinds(NL, RULE)
    tiles = bag.full_set(NL)
    one = racks.draw(kind, 2, (), tiles, "seed", "round 1", 7)
    assert one == racks.draw(kind, 2, (), tiles, "seed", "round 1", 7)
    others = {racks.draw(kind, 2, (), tiles, f"seed {n}", "round 1", 7).rack for n in range(8)}
    assert len(others) > 1


def test_after_many_failures_a_rack_that_passes_is_built() -> None:
    kind = racks.kinds(FR, RULE)
    in_bag = tuple("AE" + "BCDFGHJLMNPRST" * 7)  # two vowels in a hundred
    drawn = racks.draw(kind, 2, (), in_bag, "x", "r", 7)
    assert racks.passes(kind, drawn.rack, 2) and len(drawn.rack) == 7
    built = racks._built(kind, 2, bag.shuffled(in_bag, "y", "z"), 7)
    assert racks.passes(kind, built, 2) and len(built) == 7


def _pass_possible(kind: racks.Kinds, least: int, tiles: list[str], size: int) -> bool:
    """Brute force: does some rack of ``size`` (or all) of ``tiles`` hold ``least`` of each?"""
    pools = Counter(
        ("v" if kind.vowel(t) else "") + ("c" if kind.consonant(t) else "") for t in tiles
    )
    k = min(size, len(tiles))
    for vc in range(min(pools["vc"], k) + 1):
        for v in range(min(pools["v"], k - vc) + 1):
            c = k - vc - v
            if c <= pools["c"] and v + vc >= least and c + vc >= least:
                return True
    return False


@PROPERTY
@given(seed=st.text(min_size=1, max_size=8), plays=st.randoms(use_true_random=False),
       language=st.sampled_from(["fr", "nl", "pl", "es"]))  # fmt: skip
def test_every_rack_drawn_passes_the_rule_or_the_game_ends(
    seed: str, plays: random.Random, language: str
) -> None:
    edition = editions.get(language)
    kind = racks.kinds(edition, RULE)
    left = list(bag.full_set(edition))
    kept: tuple[str, ...] = ()
    for number in itertools.count(1):
        least = racks.minimum(RULE, kind, number, (*kept, *left))
        if least is None:
            for tries in (RULE.late, RULE.early):  # no rack of either kind can be made
                assert not _pass_possible(kind, tries, [*kept, *left], edition.rack_size)
            break
        if number <= RULE.early_rounds and _pass_possible(kind, 2, [*kept, *left], 7):
            assert least == 2
        drawn = racks.draw(kind, least, kept, left, seed, f"round {number}", edition.rack_size)
        assert racks.passes(kind, drawn.rack, least)
        assert all(not racks.passes(kind, r, least) for r in drawn.rejected)
        assert not bag.missing((*kept, *left), drawn.rack)
        assert len(drawn.rack) == min(edition.rack_size, len(kept) + len(left))
        pool = Counter((*kept, *left))
        pool.subtract(drawn.rack)
        left = list(pool.elements())
        played = plays.sample(drawn.rack, plays.randint(1, len(drawn.rack)))  # the top's tiles
        rest = list(drawn.rack)
        for tile in played:
            rest.remove(tile)
        kept = tuple(rest)


# --- in the log ----------------------------------------------------------------------------


def _room(edition: str = "fr", players: int = 2) -> tuple[State, list[Recorded]]:
    log = [Recorded(1, GameStarted(edition, "duplicate", "duplicate", (None,) * players))]
    return replay(log), log


def _record(state: State, log: list[Recorded], events: tuple) -> State:
    for event in events:
        recorded = Recorded(len(log) + 1, event)
        log.append(recorded)
        state = evolve(state, recorded)
    return state


def test_a_drawn_rack_is_in_the_log_and_replays_the_same() -> None:
    state, log = _room()
    for number in range(6):
        drawn = decide(state, c.DrawRack(number), seed=f"seed {number}")
        assert drawn == decide(state, c.DrawRack(number), seed=f"seed {number}")  # pure
        state = _record(state, log, drawn)
        rack = state.game.rounds[-1].rack
        assert [t for t in rack] == [bag.notation(t) for t in bag.parse(FR, drawn[0].rack)]
        # The round closed with its top: what the top did not lay is kept.
        top = tops.find(tops.needed(state, c.CloseRound(number)), LIST.graph)
        state = _record(state, log, decide(state, c.CloseRound(number), top=top))
        laid = [bag_letter(tile) for tile in state.game.rounds[-2].top_tiles]
        left = Counter(bag.parse(FR, "".join(rack)))
        left.subtract(laid)
        assert Counter(racks.kept(state.game)) == +left
    again = replay(log)
    assert [r.rack for r in again.game.rounds] == [r.rack for r in state.game.rounds]
    assert again == state
    assert sum(isinstance(r.event, RackDrawn) for r in log) == 6
    assert sum(isinstance(r.event, TopRecorded) for r in log) == 6


def test_a_round_draws_one_rack_and_a_draw_needs_the_seed() -> None:
    state, log = _room()
    with pytest.raises(ValueError, match="seed"):
        decide(state, c.DrawRack())
    state = _record(state, log, decide(state, c.DrawRack(), seed="s"))
    with pytest.raises(Exception) as refused:
        decide(state, c.DrawRack(), seed="t")
    assert refused.value.code == "rack_drawn"
