"""Loading a word list and asking it ``contains(word)``: a committed one, or a club's own.

Each list is a dawgdic DAWG (``data/{lang}.dawg``, written by ``python -m wordlists
build``): the Polish list of 3.3 million forms fits in under 3 MiB, loads in milliseconds
and answers in well under a microsecond. Lists load lazily, once per process. A club's
plain text list (one word a line) is keyed as the calculator reads words and written as the
same kind of DAWG beside the file (``load_text``). This module uses ``wordlists.graph``;
that module knows nothing of this one.
"""

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import dawg

import editions
from editions import codebook
from editions.errors import GameError, NotationError
from wordlists.graph import Graph, cache_folder, graph_of, sha256
from wordlists.keys import Keyer, digraph_codes

DATA = Path(__file__).parent / "data"
MIN_TILES, MAX_TILES = 2, 15

#: Language code → the edition whose tiles key its list.
LANGUAGES = {"nl": "nl", "en": "en", "fr": "fr", "de": "de", "es": "es", "it": "it", "pl": "pl"}

#: Editions that share a language's list (same letters, other values or counts).
ALIASES = {"woordstrijd": "nl", "pl-literaki": "pl"}


class UnknownLanguage(GameError, LookupError):
    """A code that names neither a word list's language nor an edition with one."""

    code = codebook.UNKNOWN_LANGUAGE


class Lexicon:
    """One language's word list: ``contains(word)`` after the calculator's normalisation."""

    def __init__(self, language: str, path: Path, graph_cache: Path | None = None) -> None:
        self.language = language
        self.path = path
        self.edition = editions.get(LANGUAGES[language])
        self._keyer = Keyer(self.edition)
        self._dawg = dawg.CompletionDAWG().load(str(path))
        self._graph_cache = graph_cache

    @cached_property
    def graph(self) -> Graph:
        """The list as a graph of tiles for the move generator (``wordlists.graph``).

        Converted on first use and cached (the committed lists in the cache folder, a
        club's list beside it).
        """
        cache = self._graph_cache
        if cache is None:
            digest = self.record.get("sha256", "")[:16]
            cache = cache_folder() / "graphs" / f"{self.language}-{digest}.graph"
        return graph_of(self.edition, self.path, cache)

    def contains(self, word: str) -> bool:
        """Whether ``word``, read as this edition's tiles, is in the list.

        Text the calculator refuses (digits, symbols, spaces) is in no list.

        >>> get("nl").contains("Gelopen"), get("nl").contains("gelopn")
        (True, False)
        """
        try:
            key = self._keyer.key(word)
        except NotationError:
            return False
        return key in self._dawg

    __contains__ = contains

    def keys(self) -> Iterator[str]:
        """Every key, for tests and benchmarks; no endpoint may serve them (WS-30, P-52)."""
        keys: Iterator[str] = self._dawg.iterkeys()
        return keys

    @cached_property
    def record(self) -> dict[str, Any]:
        """What the build recorded: sources with versions and licences, counts."""
        recorded: dict[str, Any] = json.loads(
            self.path.with_suffix(".json").read_text(encoding="utf-8")
        )
        return recorded

    @property
    def name(self) -> str:
        """The list as players name it ("OpenTaal", "SCOWL"), or a club list's file name.

        >>> get("nl").name, get("en").name
        ('OpenTaal', 'SCOWL')
        """
        if "name" in self.record:
            return str(self.record["name"])
        return ", ".join(Path(s["path"]).name for s in self.record.get("sources", ()))

    @property
    def release(self) -> str | None:
        """Its release as its makers number it ("2.20"); None for a club's list."""
        release = self.record.get("release")
        return None if release is None else str(release)

    @property
    def size(self) -> int | None:
        """SCOWL's size (70: how rare a word may be), for a list that has one."""
        size = self.record.get("size")
        return None if size is None else int(size)

    @property
    def source(self) -> str:
        """Which list judges, in English, for logs and the command line; the phone says it
        in its own language from ``name``, ``release``, ``size`` and ``len``. The Debian
        package versions are in ``record`` and SOURCES.md.

        >>> get("nl").source.startswith("OpenTaal (2.20, 298,")
        True
        >>> get("en").source.startswith("SCOWL 2020.12, size 70 (248,")
        True
        """
        words = f"{len(self):,} words"
        if self.release is None:
            return f"{self.name} ({words})"
        if self.size is not None:
            return f"{self.name} {self.release}, size {self.size} ({words})"
        return f"{self.name} ({self.release}, {words})"

    def __len__(self) -> int:
        return int(self.record["kept"])

    def __repr__(self) -> str:
        return f"<Lexicon {self.language}: {self.path.name}>"


def language_of(code: str) -> str:
    """The word-list language for a language or edition code.

    Raises UnknownLanguage (code ``unknown_language``) naming the known codes.

    >>> language_of("woordstrijd"), language_of("pl-literaki"), language_of("it")
    ('nl', 'pl', 'it')
    """
    if code in LANGUAGES:
        return code
    if code in ALIASES:
        return ALIASES[code]
    known = (*LANGUAGES, *ALIASES)
    raise UnknownLanguage(
        f"no word list for {code!r}; known: {', '.join(known)}", language=code, known=known
    )


#: Language → a club's own plain text list that replaces the committed one (``use``).
_OVERRIDES: dict[str, Path] = {}


def use(code: str, path: Path | str | None) -> None:
    """Judge a language (or an edition's language) by a plain text list from now on, in
    this process; ``None`` goes back to the committed list.

    The list is loaded at once (``load_text``), so a bad file fails here;
    raises what that raises.
    """
    language = language_of(code)
    if path is None:
        _OVERRIDES.pop(language, None)
    else:
        load_text(path, language)
        _OVERRIDES[language] = Path(path)
    get.cache_clear()


def available() -> tuple[str, ...]:
    """The languages whose list is present in this installation (or given by ``use``)."""
    return tuple(
        lang for lang in LANGUAGES if lang in _OVERRIDES or (DATA / f"{lang}.dawg").is_file()
    )


@cache
def get(code: str) -> Lexicon:
    """The word list for a language or edition code, loaded on first use: a club's list
    given by ``use``, else the committed one.

    Raises UnknownLanguage for an unknown code; FileNotFoundError if the list is missing.
    """
    language = language_of(code)
    if code != language:
        return get(language)
    if language in _OVERRIDES:
        return load_text(_OVERRIDES[language], language)
    lexicon = Lexicon(language, DATA / f"{language}.dawg")
    recorded = lexicon.record.get("digraphs", {})
    if recorded != digraph_codes(lexicon.edition):
        raise RuntimeError(f"{lexicon.path} was built for other tiles; rebuild it")
    return lexicon


class WordListError(GameError, ValueError):
    """A plain text word list that cannot be used: ``no_words`` in it."""

    code = codebook.NO_WORDS


def read_words(edition: editions.Edition, lines: Iterable[str]) -> tuple[set[str], dict[str, int]]:
    """The keys of a plain list's words and what was dropped, by reason.

    A line is one word, read as the calculator reads typed text (case, accents, ĳ, the
    Spanish digraphs longest first). Blank lines and ``#`` comments are skipped; a line
    that is not letters (digits, spaces, symbols) is dropped as ``not_letters``, a word
    under 2 or over 15 tiles as ``too_short`` or ``too_long``.
    """
    keyer = Keyer(edition)
    keys: set[str] = set()
    dropped = {"not_letters": 0, "too_short": 0, "too_long": 0}
    for line in lines:
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        try:
            key = keyer.key(word)
        except NotationError:
            dropped["not_letters"] += 1
            continue
        if len(key) < MIN_TILES:
            dropped["too_short"] += 1
        elif len(key) > MAX_TILES:
            dropped["too_long"] += 1
        else:
            keys.add(key)
    return keys, dropped


def load_text(path: Path | str, code: str) -> "Lexicon":
    """A club's own list (one word a line) for edition or language ``code``, as a Lexicon.

    The words are keyed as the calculator reads them (``read_words``) and written as the
    committed lists are, ``FILE.{lang}.dawg`` with its record ``FILE.{lang}.json`` and the
    graph ``FILE.{lang}.graph``, beside the file (or in the cache folder when that is not
    writable); they are rebuilt when the file's sha256 differs from the record's.
    Raises OSError for a file that cannot be read, UnicodeDecodeError for one that is not
    UTF-8, UnknownLanguage for ``code``, WordListError (``no_words``) for a list without
    a word.
    """
    source = Path(path)
    language = language_of(code)
    edition = editions.get(LANGUAGES[language])
    digest = sha256(source)
    folder = source.resolve().parent
    if not os.access(folder, os.W_OK):
        named = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:16]
        folder = cache_folder() / "lists" / named
        folder.mkdir(parents=True, exist_ok=True)
    stem = f"{source.name}.{language}"
    dawg_path, record_path = folder / f"{stem}.dawg", folder / f"{stem}.json"
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = {}
    if record.get("source_sha256") != digest or not dawg_path.is_file():
        keys, dropped = read_words(edition, source.read_text(encoding="utf-8").splitlines())
        if not keys:
            raise WordListError(f"{source} has no word of 2 to 15 tiles", path=str(source))
        temporary = dawg_path.with_name(f".{dawg_path.name}.{os.getpid()}.tmp")
        dawg.CompletionDAWG(sorted(keys)).save(str(temporary))
        temporary.replace(dawg_path)
        record = {
            "language": language,
            "edition": edition.code,
            "format": "dawgdic CompletionDAWG (dawg2), UTF-8 keys",
            "digraphs": digraph_codes(edition),
            "sources": [{"path": str(source.resolve()), "sha256": digest}],
            "source_sha256": digest,
            "kept": len(keys),
            "dropped": {reason: n for reason, n in dropped.items() if n},
            "sha256": sha256(dawg_path),
        }
        record_path.write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n", "utf-8")
    return Lexicon(language, dawg_path, graph_cache=folder / f"{stem}.graph")
