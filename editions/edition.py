"""An edition: its tiles (face, value, count), blanks, rack, bingo bonus and board."""

from collections.abc import Sequence
from functools import cache, cached_property
from importlib import resources
from importlib.resources.abc import Traversable

import msgspec

from editions import alphabet, codebook
from editions.errors import GameError, UnknownEdition
from editions.layout import Layout, Premium, layout


class TileKind(msgspec.Struct, frozen=True):
    """One face of a tile set: the letter(s) printed on it, its value, how many the bag holds."""

    face: str
    value: int
    count: int


class _EditionFile(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    language: str
    source: str
    tiles: str
    blanks: int = 2
    rack_size: int = 7
    bingo_bonus: int = 50
    board: str = "standard"  # a layout in data/boards, or "none" (Literaki: no board mode)
    blank_also: str = ""  # letters no tile shows that a blank may still stand for
    premiums: list[Premium] = msgspec.field(default_factory=lambda: list(Premium))
    colours: dict[Premium, str] = msgspec.field(default_factory=dict)


class Edition(msgspec.Struct, frozen=True, dict=True, cache_hash=True):
    """A tile set with its game constants, read from ``editions/data/{code}.toml``."""

    # cache_hash: an edition keys the caches of hot paths (``rules.board.tiles.parse_tile``), and
    # its hash walks every tile kind and premium square.

    code: str
    name: str
    language: str
    source: str
    kinds: tuple[TileKind, ...]
    blanks: int
    rack_size: int
    bingo_bonus: int
    layout: Layout | None
    premiums: tuple[Premium, ...]  # the premiums the typed-mode panel offers
    colours: tuple[tuple[Premium, str], ...]  # premium → CSS colour
    blank_also: frozenset[str] = frozenset()  # letters a blank stands for beyond the faces

    @cached_property
    def values(self) -> dict[str, int]:
        """Face → value."""
        return {k.face: k.value for k in self.kinds}

    @cached_property
    def faces(self) -> frozenset[str]:
        """Every letter (or digraph) printed on a tile."""
        return frozenset(self.values)

    @cached_property
    def alphabet(self) -> frozenset[str]:
        """Every letter a blank may stand for: the faces, and those the rules add (FIGS art. 8
        lets an Italian blank be J, K, W, X or Y; the Polish alphabet has no Q, V or X)."""
        return self.faces | self.blank_also

    @property
    def board_layout(self) -> Layout:
        """The board's layout; raises GameError (``no_board``) for an edition without a board
        (Literaki), which a board is never made for."""
        if self.layout is None:
            raise GameError(f"{self.name} has no board", code=codebook.NO_BOARD, edition=self.code)
        return self.layout

    @cached_property
    def total_tiles(self) -> int:
        """Tiles in the bag at the start, blanks included."""
        return sum(k.count for k in self.kinds) + self.blanks

    @cached_property
    def total_points(self) -> int:
        """The value of all lettered tiles together."""
        return sum(k.value * k.count for k in self.kinds)

    @cached_property
    def _multi_letter(self) -> bool:
        return any(len(face) > 1 for face in self.faces)

    def spelled(self, tiles: Sequence[str]) -> str:
        """Tiles' letters (a blank's in lower case) as one word that reads back as the same
        tiles: the separator between two letters the edition would read as one tile.

        >>> get("es").spelled(["C", "H", "I", "N", "O"]), get("es").spelled(["CH", "I"])
        ('C·HINO', 'CHI')
        >>> get("es").spelled(["L", "LL", "l"]), get("nl").spelled(["I", "J", "s"])
        ('L·LLl', 'IJs')
        """
        if not self._multi_letter:
            return "".join(tiles)
        text = ""
        for count, face in enumerate(tiles, 1):
            joined = text + face
            again = self.letters(joined)
            whole = len(again) == count and again[-1] == face.upper()
            text = joined if whole else f"{text}{alphabet.SEPARATOR}{face}"
        return text

    def letters(self, text: str) -> tuple[str, ...]:
        """Typed text as letters of this edition (see ``editions.alphabet``).

        Raises NotationError for digits, symbols and spaces.

        >>> get("es").letters("Chorro"), get("nl").letters("Ĳs")
        (('CH', 'O', 'RR', 'O'), ('I', 'J', 'S'))
        """
        return alphabet.split(self.faces, text)


def _parse_kinds(code: str, text: str) -> tuple[TileKind, ...]:
    kinds = []
    for line in filter(str.strip, text.splitlines()):
        try:
            face, value, count = line.split()
            kind = TileKind(face=face, value=int(value), count=int(count))
        except ValueError:
            raise ValueError(f"edition {code!r}: {line!r} is not FACE VALUE COUNT") from None
        if kind.value < 0 or kind.count < 1:
            raise ValueError(f"edition {code!r}: {line!r} needs a value ≥ 0 and a count ≥ 1")
        kinds.append(kind)
    if len({k.face for k in kinds}) != len(kinds):
        raise ValueError(f"edition {code!r}: a face is listed twice")
    return tuple(kinds)


def _data() -> Traversable:
    return resources.files("editions").joinpath("data")


@cache
def codes() -> tuple[str, ...]:
    """Every edition code, sorted."""
    return tuple(sorted(p.name[:-5] for p in _data().iterdir() if p.name.endswith(".toml")))


@cache
def get(code: str) -> Edition:
    """The edition ``code``; raises UnknownEdition naming the known codes."""
    if code not in codes():
        known = ", ".join(codes())
        raise UnknownEdition(
            f"unknown edition {code!r}; known: {known}", edition=code, known=codes()
        )
    raw = msgspec.toml.decode(_data().joinpath(f"{code}.toml").read_bytes(), type=_EditionFile)
    return Edition(
        code=code,
        name=raw.name,
        language=raw.language,
        source=raw.source,
        kinds=_parse_kinds(code, raw.tiles),
        blanks=raw.blanks,
        rack_size=raw.rack_size,
        bingo_bonus=raw.bingo_bonus,
        layout=None if raw.board == "none" else layout(raw.board),
        premiums=tuple(raw.premiums),
        colours=tuple(raw.colours.items()),
        blank_also=frozenset(raw.blank_also.split()),
    )
