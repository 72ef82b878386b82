"""Loading a committed word list and asking it ``contains(word)``.

Each list is a dawgdic DAWG (``data/{lang}.dawg``, written by ``python -m wordlists
build``): the Polish list of 3.3 million forms fits in under 3 MiB, loads in milliseconds
and answers in well under a microsecond. Lists load lazily, once per process.
"""

import json
from collections.abc import Iterator
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import dawg

import editions
from editions import codebook
from editions.errors import GameError, NotationError
from wordlists.graph import Graph, cache_folder, graph_of, load_text
from wordlists.keys import Keyer, digraph_codes

DATA = Path(__file__).parent / "data"

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
    def source(self) -> str:
        """Which list judges, for a view to name: the packages a committed list was built
        from, or a club list's file name.

        >>> get("nl").source
        'wdutch 1:2.20.19-2'
        """
        return ", ".join(
            f"{s['package']} {s['version']}" if "package" in s else Path(s["path"]).name
            for s in self.record.get("sources", ())
        )

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

    The list is loaded at once (``wordlists.graph.load_text``), so a bad file fails here;
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
