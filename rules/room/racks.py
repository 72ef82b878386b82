"""The racks of a duplicate room: what is left to draw, the rack rule, and the draw itself.

In duplicate one rack is shared by every player. After a round the tiles of its rack that
the top did not lay stay on it (the kept tiles) and new ones fill it from the bag. The rule
set's ``RackRule`` says what a rack must hold (FISF: at least 2 vowels and 2 consonants up
to round 15, then at least 1 of each). A drawn rack that fails goes back to the bag whole,
kept tiles too, and seven are drawn again; when the tiles left cannot make a rack that
passes, the game is over.

Pure, like the rest of ``rules``: the server draws a seed (``secrets``) for every draw and
the order comes from ``rules.board.bag.shuffled`` keyed by it, so the same seed on the same
state draws the same rack; the rack goes into the log (``RackDrawn``), which replays it.

Tiles here are *bag letters* (``A``, ``CH``, ``?`` for a blank), as in ``rules.board.bag``.
"""

from collections import Counter
from collections.abc import Iterable, Sequence

import msgspec

from editions import Edition
from rules.board import bag
from rules.board.tiles import bag_letter
from rules.table.rulesets import RackRule
from rules.table.state import Game

#: Per language: the vowels, and the letters that count as a vowel and as a consonant.
#: French: Y is both, as in Eliot's letter tables for FISF duplicate; English, Dutch,
#: German and Spanish Y follow that (no federation rule found for them); Polish Y is a
#: vowel. Every other letter of a set is a consonant.
VOWELS: dict[str, tuple[str, str]] = {
    "fr": ("AEIOU", "Y"),
    "en": ("AEIOU", "Y"),
    "nl": ("AEIOU", "Y"),
    "de": ("AEIOUÄÖÜ", "Y"),
    "es": ("AEIOU", "Y"),
    "it": ("AEIOU", ""),
    "pl": ("AĄEĘIOÓUY", ""),
}
#: Drawn racks the rule may send back before one is built that passes (never reached at
#: a real table: a rack passes one time in a few at the worst).
TRIES = 64


class Kinds(msgspec.Struct, frozen=True):
    """Which tiles count as vowels and which as consonants, for one edition and rule."""

    vowels: frozenset[str]
    both: frozenset[str]

    def vowel(self, tile: str) -> bool:
        return tile in self.vowels or tile in self.both

    def consonant(self, tile: str) -> bool:
        return tile not in self.vowels or tile in self.both

    def count(self, tiles: Iterable[str]) -> tuple[int, int]:
        """How many vowels and consonants ``tiles`` hold (a tile of both counts twice)."""
        listed = list(tiles)
        return sum(map(self.vowel, listed)), sum(map(self.consonant, listed))


def kinds(edition: Edition, rule: RackRule) -> Kinds:
    """The vowels and the tiles of both kinds of ``edition`` under ``rule``.

    >>> import editions
    >>> k = kinds(editions.get("fr"), RackRule())
    >>> k.count("AEY?BC")
    (4, 4)
    """
    vowels, both = VOWELS.get(edition.language, ("AEIOU", ""))
    return Kinds(frozenset(vowels), frozenset((*both, *rule.both)))


def minimum(rule: RackRule, kind: Kinds, round_number: int, tiles: Sequence[str]) -> int | None:
    """The vowels (and consonants) a rack of round ``round_number`` (from 1) must hold,
    given every tile it may be drawn from; None when no rack can be drawn: the game ends.

    >>> import editions
    >>> k = kinds(editions.get("fr"), RackRule())
    >>> minimum(RackRule(), k, 3, "AEBC"), minimum(RackRule(), k, 16, "AEBC")
    (2, 1)
    >>> minimum(RackRule(), k, 3, "ABCD"), minimum(RackRule(), k, 3, "BCD")
    (1, None)
    """
    if not tiles:
        return None
    vowels, consonants = kind.count(tiles)
    wanted = rule.early if round_number <= rule.early_rounds else rule.late
    for least in dict.fromkeys((wanted, min(wanted, rule.late))):
        if vowels >= least and consonants >= least:
            return least
    return None


def passes(kind: Kinds, rack: Sequence[str], least: int) -> bool:
    """Does ``rack`` hold ``least`` vowels and ``least`` consonants?"""
    vowels, consonants = kind.count(rack)
    return vowels >= least and consonants >= least


class Drawn(msgspec.Struct, frozen=True):
    """A rack drawn, and the racks the rule sent back before it, in order."""

    rack: tuple[str, ...]
    rejected: tuple[tuple[str, ...], ...] = ()


def draw(
    kind: Kinds,
    least: int,
    kept: Sequence[str],
    in_bag: Sequence[str],
    seed: str,
    label: str,
    size: int,
) -> Drawn:
    """Fill ``kept`` from ``in_bag`` to ``size`` tiles in the order keyed by ``seed`` and
    ``label``; a rack short of ``least`` vowels or consonants goes back whole and ``size``
    tiles are drawn again from everything, until one passes. ``least`` must be what
    ``minimum`` said of these tiles: then a rack that passes exists, and after ``TRIES``
    failures one is built from the next order, the tiles the rule needs first.
    """
    order = bag.shuffled(in_bag, seed, label)
    rack = (*kept, *order[: max(0, size - len(kept))])
    everything = (*kept, *in_bag)
    rejected: list[tuple[str, ...]] = []
    attempt = 0
    while not passes(kind, rack, least):
        rejected.append(rack)
        attempt += 1
        order = bag.shuffled(everything, seed, f"{label} again {attempt}")
        rack = order[:size] if attempt < TRIES else _built(kind, least, order, size)
    return Drawn(rack, tuple(rejected))


def _built(kind: Kinds, least: int, order: Sequence[str], size: int) -> tuple[str, ...]:
    """``size`` tiles in ``order`` that pass: a tile joins when the rule still needs its
    kind, or when the free places outnumber what the rule still needs."""
    rack: list[str] = []
    vowels = consonants = least
    for tile in order:
        if len(rack) == size:
            break
        vowel, consonant = kind.vowel(tile), kind.consonant(tile)
        needed = (vowel and vowels > 0) or (consonant and consonants > 0)
        if needed or size - len(rack) > max(vowels, 0) + max(consonants, 0):
            rack.append(tile)
            vowels -= vowel
            consonants -= consonant
    return tuple(rack)


# --- the room's tiles, from the game ----------------------------------------------------


def on_board(game: Game) -> Counter[str]:
    """The bag letters of the tiles on the board."""
    if game.board is None:
        return Counter()
    return Counter("?" if tile.blank else tile.letter for _, tile in game.board)


def kept(game: Game) -> tuple[str, ...]:
    """The tiles the open round's rack starts with: the last round's rack less the tiles
    its top laid. A top that laid nothing (no move, or points typed) sends the whole rack
    back to the bag, so a rack with no move is never drawn again as it was."""
    if len(game.rounds) < 2:
        return ()
    last = game.rounds[-2]
    if not last.rack or not last.top_tiles:
        return ()
    left = list(bag_letter(t) for t in last.rack)
    for tile in last.top_tiles:
        if tile in left:
            left.remove(tile)
    return tuple(left)


def in_bag(game: Game, keeping: Sequence[str] = ()) -> tuple[str, ...]:
    """The tiles in the bag, in the set's order: the set less the board and ``keeping``
    (the tiles on the rack)."""
    taken = on_board(game) + Counter(keeping)
    out = []
    for tile in bag.full_set(game.edition):
        if taken[tile]:
            taken[tile] -= 1
        else:
            out.append(tile)
    return tuple(out)


def rack_of(game: Game) -> tuple[str, ...]:
    """The open round's rack as bag letters; empty before it is drawn."""
    return tuple(bag_letter(t) for t in game.rounds[-1].rack) if game.rounds else ()


def bag_count(game: Game) -> int:
    """How many tiles are in the bag now: the set less the board and the rack (or the kept
    tiles while the open round has no rack yet)."""
    return len(in_bag(game, rack_of(game) or kept(game)))


def can_draw(game: Game, rule: RackRule) -> bool:
    """Could a rack be drawn for the open round (or the next, once this one closes)?"""
    held = kept(game)
    tiles = (*held, *in_bag(game, held))
    least = minimum(rule, kinds(game.edition, rule), len(game.rounds), tiles)
    return least is not None
