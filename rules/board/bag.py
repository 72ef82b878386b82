"""The bag: the edition's set in a fixed order, shuffled by a key (an online game's, a room's draw).

Pure and the same on every Python: a Fisher–Yates shuffle driven by SHA-256 of the seed,
a label and a counter — never ``random``, whose streams may change between versions — so
the seed in the log replays every draw. Racks are filled from the front of the bag.

Tiles here are *bag letters*: a face (``A``, ``CH``) or ``?`` for a blank, which has no
letter until it is laid.
"""

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from editions import Edition, codebook
from editions.alphabet import SEPARATOR
from rules.errors import NotationError

BLANK = "?"
_WORD = 8  # bytes of a digest per number drawn
_SPAN = 1 << (8 * _WORD)
_TOKEN = re.compile(r"\[[^\[\]]*\]|.", re.DOTALL)  # as rules.board.tiles reads row notation


def full_set(edition: Edition) -> tuple[str, ...]:
    """Every tile of the set once, in the edition's order, the blanks last.

    >>> import editions
    >>> tiles = full_set(editions.get("woordstrijd"))
    >>> len(tiles), tiles[:3], tiles[-2:]
    (105, ('A', 'A', 'A'), ('?', '?'))
    """
    return (*(k.face for k in edition.kinds for _ in range(k.count)), *(BLANK,) * edition.blanks)


def _numbers(seed: str, label: str) -> Iterator[int]:
    """An endless stream of 64-bit numbers keyed by ``seed`` and ``label``."""
    counter = 0
    while True:
        digest = hashlib.sha256(f"{seed}\n{label}\n{counter}".encode()).digest()
        for i in range(0, len(digest), _WORD):
            yield int.from_bytes(digest[i : i + _WORD], "big")
        counter += 1


def _below(numbers: Iterator[int], n: int) -> int:
    """A number from 0 to n − 1, each equally likely (rejection, so no modulo bias)."""
    limit = _SPAN - _SPAN % n
    while (x := next(numbers)) >= limit:
        pass
    return x % n


def pick(seed: str, label: str, n: int) -> int:
    """A number from 0 to n − 1 that depends only on ``seed`` and ``label``: a choice the
    log replays (the computer's pick among good moves, ``rules.online.opponent``).

    >>> pick("s", "turn 3", 10) == pick("s", "turn 3", 10), 0 <= pick("s", "x", 5) < 5
    (True, True)
    """
    return _below(_numbers(seed, label), n)


def shuffled(tiles: Iterable[str], seed: str, label: str) -> tuple[str, ...]:
    """``tiles`` in an order that depends only on ``seed`` and ``label``.

    >>> shuffled("ABCDE", "s", "start") == shuffled("ABCDE", "s", "start")
    True
    >>> sorted(shuffled("ABCDE", "s", "start")) == list("ABCDE")
    True
    """
    items = list(tiles)
    numbers = _numbers(seed, label)
    for i in range(len(items) - 1, 0, -1):
        j = _below(numbers, i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def deal(
    edition: Edition, seed: str, players: int
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The bag after the deal and every player's rack, seat by seat from the front."""
    bag = shuffled(full_set(edition), seed, "start")
    size = edition.rack_size
    racks = tuple(bag[p * size : (p + 1) * size] for p in range(players))
    return bag[players * size :], racks


def draw(
    bag: tuple[str, ...], rack: tuple[str, ...], size: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Fill ``rack`` up to ``size`` from the front of ``bag``: the bag and rack after."""
    n = max(0, min(size - len(rack), len(bag)))
    return bag[n:], (*rack, *bag[:n])


def missing(rack: Sequence[str], tiles: Iterable[str]) -> tuple[str, ...]:
    """The tiles of ``tiles`` that ``rack`` does not hold (each as often as it is short).

    >>> missing(("A", "B", "?"), ("A", "A", "?", "Q"))
    ('A', 'Q')
    """
    left = Counter(rack)
    short = []
    for tile in tiles:
        if left[tile]:
            left[tile] -= 1
        else:
            short.append(tile)
    return tuple(short)


def without(rack: Sequence[str], tiles: Iterable[str]) -> tuple[str, ...]:
    """``rack`` less ``tiles``, the rest in their order; the caller checked ``missing``."""
    out = list(rack)
    for tile in tiles:
        out.remove(tile)
    return tuple(out)


def exchange(
    bag: tuple[str, ...], rack: tuple[str, ...], tiles: Sequence[str], seed: str, seq: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Put ``tiles`` back after drawing as many: the bag (reshuffled, keyed by the seed and
    the exchange's seq) and the rack after. A player never draws their own tiles back."""
    kept = without(rack, tiles)
    rest, rack = draw(bag, kept, len(kept) + len(tiles))
    return shuffled((*rest, *tiles), seed, f"exchange {seq}"), rack


def notation(tile: str) -> str:
    """A bag letter in row notation: brackets round a multi-letter face.

    >>> notation("CH"), notation("A"), notation("?")
    ('[CH]', 'A', '?')
    """
    return f"[{tile}]" if len(tile) > 1 else tile


def rack_notation(tiles: Iterable[str]) -> str:
    """Tiles as one row-notation string, ``?`` a blank.

    >>> rack_notation(("A", "CH", "?"))
    'A[CH]?'
    """
    return "".join(notation(t) for t in tiles)


def parse(edition: Edition, text: str) -> tuple[str, ...]:
    """Rack tiles in row notation (``AB?``, ``[CH]``) as bag letters.

    Raises NotationError (``bad_tile``) for anything that is not a face of the set or ``?``.

    >>> import editions
    >>> parse(editions.get("es"), "A[ch]?")
    ('A', 'CH', '?')
    """
    tiles = []
    for token in _TOKEN.findall(text):
        inner = token[1:-1] if token.startswith("[") else token
        tile = inner.upper()
        if tile != BLANK and tile not in edition.faces:
            raise NotationError(
                f"{token!r} in {text!r} is not a tile of the set",
                code=codebook.BAD_TILE,
                text=token,
            )
        tiles.append(tile)
    return tuple(tiles)


def typed(edition: Edition, tiles: Sequence[str]) -> str:
    """Tiles as rack letters that read back as exactly these tiles (``RackLeft.letters``):
    split by the separator where the set has multi-letter faces, so C + H is not CH.

    >>> import editions
    >>> typed(editions.get("es"), ("C", "H", "?")), typed(editions.get("nl"), ("I", "J"))
    ('C·H·?', 'IJ')
    """
    multi = any(len(face) > 1 for face in edition.faces)
    return (SEPARATOR if multi else "").join(tiles)
