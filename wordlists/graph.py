"""A word list as a graph of tiles (a DAWG as arrays), for the move generator to walk.

The committed lists are dawgdic DAWGs over UTF-8 bytes (``wordlists.lexicon``); dawg2
answers ``key in dawg`` but offers no walk from a node by a letter. This module reads the
same file, a double array of 32-bit units and a guide of (first child, next sibling)
byte pairs, and turns it into one node per place between two tiles:

* ``letters[code]``: the tile a letter code stands for ("A", "CH", "Ł"); a letter the
  edition lacks (Italian K) stays in, playable with a blank;
* ``masks[node]``: a bitmask of the codes leaving ``node`` (bit ``code``);
* ``offsets[node]``: where in ``targets`` its children start, in code order, so the child
  by ``code`` is ``targets[offsets[node] + popcount(masks[node] & ((1 << code) - 1))]``;
* ``words[node]``: 1 when the path from the root (node 0) to ``node`` spells a word.

Converting takes a second or two for the largest list, so the arrays are cached: for a
committed list in the cache folder (``$TILESTREAM_CACHE``, else ``$XDG_CACHE_HOME/tilestream``,
else ``~/.cache/tilestream``), named by the list's sha256; for a club's own list beside it.
A club's plain text list is read by ``wordlists.lexicon.load_text``, which depends on this
module (never the other way round).
"""

import array
import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import dawg

import editions
from wordlists.keys import Keyer, digraph_codes

MAGIC = b"TSGRAPH1"
MAX_LETTERS = 63  # a node's letters fit one 64-bit mask

# dawgdic's unit layout (dawgdic/dictionary-unit.h)
_IS_LEAF = 1 << 31
_HAS_LEAF = 1 << 8
_EXTENSION = 1 << 9
_LABEL = _IS_LEAF | 0xFF


class Graph:
    """A DAWG over an edition's tiles as flat arrays; node 0 is the root."""

    __slots__ = ("_codes", "letters", "masks", "offsets", "targets", "words")

    def __init__(
        self,
        letters: tuple[str, ...],
        masks: "array.array[int]",
        offsets: "array.array[int]",
        targets: "array.array[int]",
        words: bytearray,
    ) -> None:
        self.letters = letters
        self.masks = masks
        self.offsets = offsets
        self.targets = targets
        self.words = words
        self._codes = {letter: code for code, letter in enumerate(letters)}

    @property
    def root(self) -> int:
        return 0

    def code(self, letter: str) -> int | None:
        """The code of a tile letter, or None when no word has it."""
        return self._codes.get(letter)

    def child(self, node: int, letter: str) -> int | None:
        """The node after ``letter`` from ``node``, or None when no word goes on that way."""
        code = self._codes.get(letter)
        if code is None:
            return None
        mask = self.masks[node]
        if not mask >> code & 1:
            return None
        return int(self.targets[self.offsets[node] + (mask & ((1 << code) - 1)).bit_count()])

    def children(self, node: int) -> dict[str, int]:
        """Every letter leaving ``node`` with the node it leads to."""
        mask, first = self.masks[node], self.offsets[node]
        out: dict[str, int] = {}
        rank = 0
        for code, letter in enumerate(self.letters):
            if mask >> code & 1:
                out[letter] = self.targets[first + rank]
                rank += 1
        return out

    def is_word(self, node: int) -> bool:
        """Whether the path from the root to ``node`` spells a word."""
        return bool(self.words[node])

    def walk(self, tiles: Iterable[str]) -> int | None:
        """The node after these tile letters from the root, or None."""
        node = 0
        for letter in tiles:
            after = self.child(node, letter)
            if after is None:
                return None
            node = after
        return node

    def contains(self, tiles: Iterable[str]) -> bool:
        """Whether these tile letters spell a word.

        >>> graph = Graph.from_keys(editions.get("es"), ["\\ue000O", "OSO"])
        >>> graph.contains(["CH", "O"]), graph.contains("CO"), graph.contains("OSO")
        (True, False, True)
        """
        node = self.walk(tiles)
        return node is not None and self.is_word(node)

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        """Every word as its tile letters, in code order (for tests)."""
        stack: list[tuple[int, tuple[str, ...]]] = [(0, ())]
        while stack:
            node, prefix = stack.pop()
            if self.words[node]:
                yield prefix
            stack.extend((n, (*prefix, x)) for x, n in reversed(self.children(node).items()))

    def __len__(self) -> int:
        """The number of nodes."""
        return len(self.masks)

    @property
    def nbytes(self) -> int:
        """The arrays' size in bytes."""
        return sum(a.itemsize * len(a) for a in (self.masks, self.offsets, self.targets)) + len(
            self.words
        )

    def __repr__(self) -> str:
        return f"<Graph {len(self.letters)} letters, {len(self)} nodes, {len(self.targets)} arcs>"

    # Building and caching

    @classmethod
    def from_dawg(cls, edition: editions.Edition, data: bytes) -> "Graph":
        """Convert a saved dawgdic CompletionDAWG whose keys are ``wordlists.keys`` keys."""
        faces = {code: face for face, code in digraph_codes(edition).items()}
        return _convert(data, faces)

    @classmethod
    def from_keys(cls, edition: editions.Edition, keys: Iterable[str]) -> "Graph":
        """A graph of lexicon keys, built the way the committed lists are (for tests)."""
        return cls.from_dawg(edition, dawg.CompletionDAWG(sorted(set(keys))).tobytes())

    @classmethod
    def from_words(cls, edition: editions.Edition, words: Iterable[str]) -> "Graph":
        """A graph of words read as the calculator reads them (for tests and small lists)."""
        keyer = Keyer(edition)
        return cls.from_keys(edition, (keyer.key(w) for w in words))

    def save(self, path: Path, source_sha256: str) -> None:
        """Write the arrays to ``path`` (atomically), stamped with the source's sha256."""
        header = json.dumps(
            {
                "letters": self.letters,
                "source_sha256": source_sha256,
                "nodes": len(self.masks),
                "arcs": len(self.targets),
                "byteorder": sys.byteorder,
            }
        ).encode()
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with temporary.open("wb") as file:
            file.write(MAGIC + len(header).to_bytes(4, "little") + header)
            for part in (self.masks, self.offsets, self.targets):
                part.tofile(file)
            file.write(self.words)
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path, source_sha256: str) -> "Graph | None":
        """The graph saved at ``path`` if it was made from that source; None otherwise."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if not data.startswith(MAGIC):
            return None
        size = int.from_bytes(data[8:12], "little")
        try:
            header = json.loads(data[12 : 12 + size])
        except ValueError:
            return None
        if header.get("source_sha256") != source_sha256 or header["byteorder"] != sys.byteorder:
            return None
        nodes, arcs = header["nodes"], header["arcs"]
        at = 12 + size
        parts: list[array.array[int]] = []
        for typecode, count in (("Q", nodes), ("I", nodes), ("I", arcs)):
            part = array.array(typecode)
            end = at + part.itemsize * count
            part.frombytes(data[at:end])
            parts.append(part)
            at = end
        words = bytearray(data[at : at + nodes])
        if len(words) != nodes:
            return None
        masks, offsets, targets = parts
        return cls(tuple(header["letters"]), masks, offsets, targets, words)


def _convert(data: bytes, faces: dict[str, str]) -> Graph:
    """Walk a dawgdic dictionary + guide and number the places between two characters."""
    size = int.from_bytes(data[:4], "little")
    units = array.array("I")
    units.frombytes(data[4 : 4 + 4 * size])
    if sys.byteorder != "little":
        units.byteswap()
    guide = data[8 + 4 * size :]  # (child label, sibling label) per unit

    def follow(index: int, label: int) -> int:
        unit = units[index]
        return index ^ ((unit >> 10) << ((unit & _EXTENSION) >> 6)) ^ label

    def characters(index: int) -> list[tuple[str, int]]:
        # The characters leaving a place, with the place each leads to; a character of
        # several UTF-8 bytes is followed byte by byte through the guide.
        out: list[tuple[str, int]] = []
        stack = [(index, b"")]
        while stack:
            at, prefix = stack.pop()
            label = guide[2 * at]
            while label:
                nxt = follow(at, label)
                text = prefix + bytes((label,))
                if label < 0x80 or (len(text) > 1 and _complete(text)):
                    out.append((text.decode(), nxt))
                else:
                    stack.append((nxt, text))
                label = guide[2 * nxt + 1]
        return out

    ids = {0: 0}
    edges: list[list[tuple[str, int]]] = [[]]
    final = [bool(units[0] & _HAS_LEAF)]
    pending = [0]
    while pending:
        index = pending.pop()
        node = ids[index]
        for char, nxt in characters(index):
            target = ids.get(nxt)
            if target is None:
                target = ids[nxt] = len(edges)
                edges.append([])
                final.append(bool(units[nxt] & _HAS_LEAF))
                pending.append(nxt)
            edges[node].append((faces.get(char, char), target))
    letters = tuple(sorted({letter for arcs in edges for letter, _ in arcs}))
    if len(letters) > MAX_LETTERS:
        raise ValueError(f"{len(letters)} letters; a graph holds at most {MAX_LETTERS}")
    code = {letter: i for i, letter in enumerate(letters)}
    masks, offsets, targets = array.array("Q"), array.array("I"), array.array("I")
    for arcs in edges:
        offsets.append(len(targets))
        mask = 0
        for letter, target in sorted(arcs, key=lambda arc: code[arc[0]]):
            mask |= 1 << code[letter]
            targets.append(target)
        masks.append(mask)
    return Graph(letters, masks, offsets, targets, bytearray(final))


def _complete(text: bytes) -> bool:
    lead = text[0]
    need = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    return len(text) == need


def cache_folder() -> Path:
    """Where graphs of the committed lists are cached."""
    if folder := os.environ.get("TILESTREAM_CACHE"):
        return Path(folder)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tilestream"


def sha256(path: Path) -> str:
    """The sha256 of a file, hex."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def graph_of(edition: editions.Edition, dawg_path: Path, cache: Path | None) -> Graph:
    """The graph of a saved DAWG, from ``cache`` when it was made from this very file.

    A cache that cannot be written is skipped: the graph is then converted on every load.
    """
    data = dawg_path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if cache is not None and (graph := Graph.load(cache, digest)) is not None:
        return graph
    graph = Graph.from_dawg(edition, data)
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            graph.save(cache, digest)
        except OSError:
            pass
    return graph
