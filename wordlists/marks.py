"""Which entries of a list are abbreviations, units, acronyms or symbols, and so no word.

Where a source's own project marks them, that marking decides (``Marking.kind``):

* ``keepcase_letterwords`` — OpenTaal's Hunspell dictionary gives its letter words the
  KEEPCASE flag ``Kc`` ("avoid wrong spelling of letterwords in full uppercase (DVD should
  be dvd)", nl.aff). The flag also keeps months and holidays in lower case, so only
  entries of at most four letters count, and ``abbreviations.toml`` keeps the words among
  them (mei, juli, aids, ufo);
* ``scowl_abbreviations`` — SCOWL sorts its entries into words, proper names, upper-case
  words, contractions and abbreviations; every lower-case entry of an
  ``*-abbreviations.NN`` file is one;
* ``dotted_entries`` — igerman98's Hunspell dictionary writes an abbreviation with its dot
  ("usw.", "bzw."), the plain list without it; a dotted entry whose letters are not also
  an entry of their own (Abt. beside Abt, the abbot) is an abbreviation;
* ``lemma_forms`` — SJP.PL's Hunspell dictionary declines abbreviations (dr, dra, drem):
  the forms of an entry that is an abbreviation by the rules below, unless another entry
  also makes them ("drze" is dr's and drzeć's).

Where no source marks them, two documented rules do (``Screen.reason``): an entry with no
vowel (kg, cm, tv, mgr) is not a word, and ``abbreviations.toml`` lists each language's
common abbreviations that have one (etc, itd, ecc, sra). The same file keeps, with a
reason, the words a rule would wrongly remove (nl hm, en cwm, pl bzz).
"""

import subprocess
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from editions.errors import NotationError
from wordlists.keys import Keyer

TABLE = Path(__file__).parent / "abbreviations.toml"
KEEPCASE_FLAG = "Kc"  # nl.aff: KEEPCASE Kc
LETTERWORD_MAX = 4  # longer Kc entries are months, holidays, religions (december, islam)

#: Why an entry with a key of 2 to 15 tiles is no word, in the order ``Screen.reason`` tests.
RULES = (
    "marked_abbreviation",  # the source's own project marks it (see the module docstring)
    "listed_abbreviation",  # in the language's list of abbreviations (abbreviations.toml)
    "no_vowel",  # no vowel at all: kg, cm, tv, mgr, XXV
)


@dataclass(frozen=True)
class Screen:
    """One language's abbreviation rules over lexicon keys; ``reason(key)`` names a rule."""

    vowels: frozenset[str]
    keep: frozenset[str] = frozenset()
    marked: frozenset[str] = frozenset()
    listed: frozenset[str] = frozenset()

    def reason(self, key: str) -> str | None:
        """The rule that takes ``key`` out, or None for a word (or an exception).

        >>> screen = Screen(frozenset("AEIOUY"), keep=frozenset({"HM"}), listed=frozenset({"ETC"}))
        >>> [screen.reason(k) for k in ("KG", "HM", "ETC", "UI")]
        ['no_vowel', None, 'listed_abbreviation', None]
        """
        if key in self.keep:
            return None
        if key in self.marked:
            return "marked_abbreviation"
        if key in self.listed:
            return "listed_abbreviation"
        if self.vowels.isdisjoint(key):
            return "no_vowel"
        return None

    def kept_by_exception(self, key: str) -> bool:
        """Whether ``key`` stays only because ``abbreviations.toml`` keeps it."""
        return key in self.keep and (
            key in self.marked or key in self.listed or self.vowels.isdisjoint(key)
        )


def table(language: str) -> dict[str, Any]:
    """The language's part of ``abbreviations.toml``: vowels, listed, keep (word → reason)."""
    with TABLE.open("rb") as file:
        entry: dict[str, Any] = tomllib.load(file)[language]
    return entry


def screen(language: str, keyer: Keyer, marked: Iterable[str] = ()) -> Screen:
    """The screen for ``language``: its table's rules, and the words its source marks."""
    entry = table(language)
    return Screen(
        vowels=frozenset(entry["vowels"]),
        keep=_keys(keyer, entry.get("keep", {})),
        marked=_keys(keyer, marked),
        listed=_keys(keyer, entry.get("listed", [])),
    )


def _keys(keyer: Keyer, words: Iterable[str]) -> frozenset[str]:
    keys = set()
    for word in words:
        try:
            keys.add(keyer.key(word))
        except NotationError:  # a marked entry no tile can show
            continue
    return frozenset(keys)


def keepcase_letterwords(dic: Path) -> set[str]:
    """OpenTaal's letter words: lower-case entries of at most four letters flagged ``Kc``.

    Flags are two characters each (``FLAG long``).
    """
    words = set()
    for line in dic.read_text(encoding="utf-8").splitlines()[1:]:
        word, _, flags = line.partition("/")
        pairs = {flags[i : i + 2] for i in range(0, len(flags), 2)}
        if KEEPCASE_FLAG in pairs and word.isalpha() and word.islower():
            if len(word) <= LETTERWORD_MAX:
                words.add(word)
    return words


def scowl_abbreviations(folder: Path) -> set[str]:
    """The lower-case entries of every SCOWL ``*-abbreviations.NN`` file (ISO-8859-1)."""
    words = set()
    for path in sorted(folder.glob("*-abbreviations.*")):
        for word in path.read_text(encoding="iso-8859-1").splitlines():
            if word.isalpha() and word.islower():
                words.add(word)
    return words


def dotted_entries(dic: Path, encoding: str) -> set[str]:
    """Entries written with a final dot ("usw.") whose letters are no entry of their own.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     dic = Path(folder) / "de.dic"
    ...     _ = dic.write_text("4\\nusw.\\nAbt.\\nAbt/EPT\\nHaus/S\\n", encoding="utf-8")
    ...     sorted(dotted_entries(dic, "utf-8"))
    ['usw']
    """
    entries = [line.partition("/")[0] for line in dic.read_text(encoding=encoding).splitlines()]
    plain = {e for e in entries if not e.endswith(".")}
    return {e[:-1] for e in entries if e.endswith(".") and e[:-1].isalpha()} - plain


def lemma_forms(
    dic: Path, aff: Path, unmunch: Path, encoding: str, is_abbreviation: Callable[[str], bool]
) -> set[str]:
    """The forms of the entries ``is_abbreviation`` picks, less any form another entry makes.

    Each half of the .dic is expanded with ``unmunch`` on its own.
    """
    lines = dic.read_text(encoding=encoding).splitlines()[1:]
    picked = [line for line in lines if is_abbreviation(line.partition("/")[0])]
    others = [line for line in lines if not is_abbreviation(line.partition("/")[0])]
    return _expand(picked, aff, unmunch, encoding) - _expand(others, aff, unmunch, encoding)


def _expand(lines: list[str], aff: Path, unmunch: Path, encoding: str) -> set[str]:
    part = aff.with_name(f"{aff.stem}.part.dic")
    part.write_text(f"{len(lines)}\n" + "".join(f"{line}\n" for line in lines), encoding=encoding)
    result = subprocess.run(
        [str(unmunch), str(part), str(aff)],
        capture_output=True,
        encoding=encoding,
        check=True,
    )
    return set(result.stdout.splitlines())
