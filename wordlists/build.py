"""Build the committed word lists: fetch, expand, filter, key, write.

Each language's sources (``wordlists.sources``) are Debian packages, fetched with
``apt-get download`` and unpacked with ``dpkg-deb -x`` (no system install), or files
committed under ``wordlists/`` (OpenTaal's, xz-compressed); Hunspell dictionaries are
expanded to full forms with ``unmunch`` from ``hunspell-tools``, unpacked the same way.
Every entry is kept or dropped for one reason (``classify``), abbreviations by the
source's own marking or the rules of ``wordlists.marks``; kept entries become keys
(``wordlists.keys``) in ``data/{lang}.dawg``, and ``data/{lang}.json`` records the sources,
the counts and a few examples of each reason.
"""

import hashlib
import itertools
import json
import lzma
import subprocess
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import dawg

import editions
from editions.errors import NotationError
from wordlists import marks, records
from wordlists.keys import Keyer, digraph_codes
from wordlists.marks import Screen
from wordlists.sources import LANGUAGES, UNMUNCH, Language, Source

HERE = Path(__file__).parent
DATA = HERE / "data"
EXAMPLES = 8  # per reason, in data/{lang}.json and SOURCES.md
MIN_TILES = 2
MAX_TILES = 15  # the board's width (WL-07)
APOSTROPHES = frozenset("'’ʼ`´")

#: Why an entry was dropped, in the order ``classify`` tests them.
REASONS = (
    "space",  # "ad fundum": not one word
    "hyphen",  # "DNA-profielen", "vert-de-gris"
    "digit",  # "3D", "06-nummer" (a hyphen too: the first reason counts)
    "apostrophe",  # elisions and possessives: "zo'n", "l'homme", "Aaron's"
    "abbreviation",  # a dot ("a.u.b."), all capitals ("NAVO"), or capitals inside ("kWh")
    "symbol",  # any other non-letter: "&", "+", "/", "²"
    "proper_name",  # a capital first letter ("Nelis"); not in German, where nouns have one
    "not_latin",  # a letter outside the Latin script, which no tile shows
    "too_short",  # under 2 tiles
    "too_long",  # over 15 tiles
    *marks.RULES,  # marked_abbreviation, listed_abbreviation, no_vowel ("kg", "etc")
    "duplicate",  # the same tiles as an entry kept before ("café" after "cafe")
)


def classify(
    entry: str, keyer: Keyer, nouns_capitalised: bool = False, screen: Screen | None = None
) -> tuple[str, str]:
    """``("kept", key)`` or ``(reason, "")`` for one raw entry; reasons as in REASONS.

    >>> keyer = Keyer(editions.get("nl"))
    >>> [classify(w, keyer) for w in ("ĳsje", "kWh", "Nelis", "zo'n")]
    [('kept', 'IJSJE'), ('abbreviation', ''), ('proper_name', ''), ('apostrophe', '')]
    >>> screen = marks.screen("nl", keyer, marked=["btw"])
    >>> [classify(w, keyer, screen=screen) for w in ("kg", "btw", "max", "hm")]
    [('no_vowel', ''), ('marked_abbreviation', ''), ('listed_abbreviation', ''), ('kept', 'HM')]
    """
    word = unicodedata.normalize("NFC", entry.strip())
    if any(c.isspace() for c in word):
        return "space", ""
    if any(unicodedata.category(c) == "Pd" for c in word):
        return "hyphen", ""
    if any(c.isdigit() for c in word):
        return "digit", ""
    if APOSTROPHES.intersection(word):
        return "apostrophe", ""
    if "." in word or (len(word) > 1 and word.isupper()) or any(c.isupper() for c in word[1:]):
        return "abbreviation", ""
    if not word.isalpha():
        return "symbol", ""
    if word[:1].isupper() and not nouns_capitalised:
        return "proper_name", ""
    try:
        key = keyer.key(word)
    except NotationError:
        return "not_latin", ""
    if len(key) < MIN_TILES:
        return "too_short", ""
    if len(key) > MAX_TILES:
        return "too_long", ""
    if screen is not None and (rule := screen.reason(key)) is not None:
        return rule, ""
    return "kept", key


@dataclass
class Report:
    """What the build did with one language's entries."""

    language: str
    raw: int = 0
    kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    #: A few entries per reason: the shortest, then alphabetical.
    examples: dict[str, list[str]] = field(default_factory=dict)
    #: Every entry a rule of ``wordlists.marks`` would drop that abbreviations.toml keeps.
    exceptions: list[str] = field(default_factory=list)


def filter_entries(
    language: Language, entries: Iterable[str], screen: Screen | None = None
) -> tuple[set[str], Report]:
    """The keys of the kept entries, and the report counting every entry once."""
    keyer = Keyer(editions.get(language.edition))
    report = Report(language.code)
    keys: set[str] = set()
    examples: dict[str, list[str]] = {}
    for entry in entries:
        report.raw += 1
        reason, key = classify(entry, keyer, language.nouns_capitalised, screen)
        if reason == "kept" and key in keys:
            reason = "duplicate"
        if reason == "kept":
            keys.add(key)
            if screen is not None and screen.kept_by_exception(key):
                report.exceptions.append(entry.strip())
        else:
            report.dropped[reason] += 1
            _sample(examples.setdefault(reason, []), entry.strip())
    report.kept = len(keys)
    report.examples = examples
    report.exceptions.sort(key=_order)
    return keys, report


def _order(entry: str) -> tuple[int, str]:
    return len(entry), entry


def _sample(kept: list[str], entry: str) -> None:
    """Keep in ``kept`` the EXAMPLES first entries by (length, text), sorted, without
    sorting all of them (33 million Italian elisions pass through here)."""
    if len(kept) == EXAMPLES and (len(entry) > len(kept[-1]) or _order(entry) >= _order(kept[-1])):
        return
    if entry in kept:
        return
    kept.append(entry)
    kept.sort(key=_order)
    del kept[EXAMPLES:]


def fetch(source: Source, workdir: Path) -> Path:
    """Download ``source``'s package at its pinned version and unpack it; its root folder.

    A bundled source's root is ``wordlists/`` itself: nothing is fetched.
    """
    if source.bundled:
        return HERE
    root = workdir / source.package
    if root.exists():
        return root
    downloads = workdir / "debs"
    downloads.mkdir(parents=True, exist_ok=True)
    spec = f"{source.package}={source.version}"
    subprocess.run(["apt-get", "download", spec], cwd=downloads, check=True)
    (deb,) = downloads.glob(f"{source.package}_*.deb")
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def read_entries(source: Source, workdir: Path) -> Iterator[str]:
    """The raw entries of ``source``, one per line, Hunspell dictionaries expanded."""
    path = fetch(source, workdir) / source.path
    if path.suffix == ".xz":
        yield from lzma.decompress(path.read_bytes()).decode("utf-8").splitlines()
        return
    if not source.unmunch:
        yield from path.read_text(encoding="utf-8").splitlines()
        return
    unmunch = fetch(UNMUNCH, workdir) / UNMUNCH.path
    aff = path.with_suffix(".aff")
    if source.skip_flags:
        path = _without_flags(path, source.skip_flags, _hunspell_encoding(aff))
    # Streamed: the Italian expansion runs to 36 million lines. unmunch echoes every
    # line of the .aff it parses on stderr, so stderr is discarded.
    with subprocess.Popen(
        [str(unmunch), str(path), str(aff)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        encoding=_hunspell_encoding(aff),
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            yield line.rstrip("\n")
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, process.args)


def _without_flags(dic: Path, flags: str, encoding: str) -> Path:
    """A copy of a .dic (single-character flags) with ``flags`` taken off every entry."""
    drop = str.maketrans("", "", flags)
    lines = []
    for line in dic.read_text(encoding=encoding).splitlines():
        word, slash, rest = line.partition("/")
        lines.append(word + slash + rest.translate(drop) if slash else line)
    copy = dic.with_name(f"{dic.stem}.without-flags.dic")
    copy.write_text("\n".join(lines) + "\n", encoding=encoding)
    return copy


def _hunspell_encoding(aff: Path) -> str:
    for line in aff.read_bytes().splitlines():
        if line.startswith(b"SET "):
            return line.split()[1].decode("ascii")
    return "iso-8859-1"  # Hunspell's default


def source_digest(source: Source, workdir: Path) -> str:
    """The sha256 of the source file as fetched (a bundled file's as decompressed), or of a
    folder's files in name order, for the record."""
    path = fetch(source, workdir) / source.path
    digest = hashlib.sha256()
    for file in sorted(path.iterdir()) if path.is_dir() else [path]:
        data = file.read_bytes()
        digest.update(lzma.decompress(data) if file.suffix == ".xz" else data)
    return digest.hexdigest()


def marked(language: Language, keyer: Keyer, workdir: Path) -> set[str]:
    """The entries the language's marking source calls abbreviations (``wordlists.marks``)."""
    if language.marking is None:
        return set()
    kind, source = language.marking.kind, language.marking.source
    path = fetch(source, workdir) / source.path
    if kind == "keepcase_letterwords":
        return marks.keepcase_letterwords(path)
    if kind == "scowl_abbreviations":
        return marks.scowl_abbreviations(path)
    aff = path.with_suffix(".aff")
    encoding = _hunspell_encoding(aff)
    if kind == "dotted_entries":
        return marks.dotted_entries(path, encoding)
    if kind == "lemma_forms":
        unmunch = fetch(UNMUNCH, workdir) / UNMUNCH.path
        rules = marks.screen(language.code, keyer)

        def is_abbreviation(word: str) -> bool:
            try:
                key = keyer.key(word)
            except NotationError:
                return False
            return len(key) >= MIN_TILES and rules.reason(key) is not None

        return marks.lemma_forms(path, aff, unmunch, encoding, is_abbreviation)
    raise ValueError(f"unknown marking {kind!r} for {language.code}")


def write(
    language: Language, keys: set[str], report: Report, digests: list[str], marking_digest: str
) -> Path:
    """Write ``data/{lang}.dawg`` and its record ``data/{lang}.json``; the .dawg's path."""
    DATA.mkdir(exist_ok=True)
    path = DATA / f"{language.code}.dawg"
    dawg.CompletionDAWG(sorted(keys)).save(str(path))
    record = {
        "language": language.code,
        "edition": language.edition,
        "format": "dawgdic CompletionDAWG (dawg2), UTF-8 keys",
        "digraphs": digraph_codes(editions.get(language.edition)),
        "name": language.name,
        "release": language.release,
        **({"size": language.size} if language.size is not None else {}),
        "sources": [
            {
                "package": s.package,
                "version": s.version,
                "path": s.path,
                "licence": s.licence,
                "sha256": digest,
                **({"bundled": True} if s.bundled else {}),
                **({"expanded_with": f"{UNMUNCH.package} {UNMUNCH.version}"} if s.unmunch else {}),
            }
            for s, digest in zip(language.sources, digests, strict=True)
        ],
        **(
            {
                "marking": {
                    "kind": language.marking.kind,
                    "package": language.marking.source.package,
                    "version": language.marking.source.version,
                    "path": language.marking.source.path,
                    "sha256": marking_digest,
                }
            }
            if language.marking is not None
            else {}
        ),
        "raw": report.raw,
        "kept": report.kept,
        "dropped": {r: report.dropped[r] for r in REASONS if report.dropped[r]},
        "kept_by_exception": report.exceptions,
        "examples": {r: report.examples[r] for r in REASONS if r in report.examples},
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }
    path.with_suffix(".json").write_text(
        json.dumps(record, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    return path


def build(code: str, workdir: Path) -> Report:
    """Fetch, filter and write one language (its sources united); its report."""
    language = LANGUAGES[code]
    keyer = Keyer(editions.get(language.edition))
    screen = marks.screen(code, keyer, marked(language, keyer, workdir))
    entries = itertools.chain.from_iterable(read_entries(s, workdir) for s in language.sources)
    keys, report = filter_entries(language, entries, screen)
    digests = [source_digest(s, workdir) for s in language.sources]
    marking = language.marking
    marking_digest = source_digest(marking.source, workdir) if marking is not None else ""
    write(language, keys, report, digests, marking_digest)
    records.copy_licences(language, workdir)
    return report


def build_all(codes: Iterable[str], workdir: Path | None = None) -> list[Report]:
    """Build ``codes`` in a scratch folder (or ``workdir``), then refresh SOURCES.md."""
    with tempfile.TemporaryDirectory(prefix="wordlists-") as scratch:
        reports = [build(code, workdir or Path(scratch)) for code in codes]
    records.write_sources_report()
    return reports
