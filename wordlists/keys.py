"""Word → lexicon key: the word as the edition's tiles, one character per tile.

The key is what ``editions.get(code).letters`` makes of the word (THE normalisation the
calculator uses: case, accents, ß → SS, ĳ → I + J, Spanish CH / LL / RR longest match),
joined into a string. A multi-letter face becomes one private-use character (U+E000 up, in
the order of ``sorted(faces)``), so the CH tile and the tiles C + H give different keys and
``len(key)`` is the number of tiles. Letters the set lacks stay as they are: a word with an
Italian K is playable with a blank, so it keeps its K.
"""

from collections.abc import Iterable

from editions import Edition

PRIVATE_USE = 0xE000  # the first code point of Unicode's private use area


def digraph_codes(edition: Edition) -> dict[str, str]:
    """Each multi-letter face → the private-use character standing for it in keys.

    >>> import editions
    >>> digraph_codes(editions.get("es")) == {"CH": "\\ue000", "LL": "\\ue001", "RR": "\\ue002"}
    True
    """
    multi = sorted(f for f in edition.faces if len(f) > 1)
    return {face: chr(PRIVATE_USE + i) for i, face in enumerate(multi)}


def _replace_is_greedy(faces: Iterable[str]) -> bool:
    """Whether replacing each face in turn tokenises like longest-match left to right.

    It does when no face lies inside another and no face's end starts another face;
    Spanish CH, LL and RR share no letters, so it holds there.
    """
    faces = list(faces)
    for a in faces:
        for b in faces:
            if a != b and (a in b or any(a.endswith(b[:n]) for n in range(1, len(b)))):
                return False
    return True


class Keyer:
    """Builds lexicon keys for one edition, with a fast path for plain letters."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.codes = digraph_codes(edition)
        singles = {f for f in edition.faces if len(f) == 1}
        # Characters whose .upper() is already the face: for words made only of these, the
        # full tokeniser would do nothing but upper-case them (and tile the digraphs).
        plain = singles | {f.lower() for f in singles if f.lower().upper() == f}
        self._plain = frozenset(plain) if _replace_is_greedy(self.codes) else frozenset()

    def of_letters(self, letters: Iterable[str]) -> str:
        """The key of letters as ``Edition.letters`` returns them.

        >>> import editions
        >>> Keyer(editions.get("es")).of_letters(("CH", "O")) == "\\ue000O"
        True
        """
        codes = self.codes
        return "".join(codes.get(x, x) for x in letters)

    def key(self, word: str) -> str:
        """The key of typed text; raises NotationError where ``Edition.letters`` does.

        >>> import editions
        >>> Keyer(editions.get("nl")).key("Ĳsje"), Keyer(editions.get("de")).key("Straße")
        ('IJSJE', 'STRASSE')
        """
        if word and self._plain.issuperset(word):
            key = word.upper()
            for face, code in self.codes.items():
                key = key.replace(face, code)
            return key
        return self.of_letters(self.edition.letters(word))
