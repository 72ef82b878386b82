"""docs/requirements.md defines every requirement ID the repository cites, each once.

A citation is an ID of a family the page defines, written as the page's introduction says:
`SCR-04`; ranges `WS-06..18`, `P-31..P-34` or `OQ-01 to OQ-83`, which cite every number from
the first to the last; lists `BRD-09/10`, which cite each number; and `FED-*`, which cites a
whole family. A new ID in code or docs therefore fails here until the page gives it an entry.
"""

import re
import subprocess
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGE = ROOT / "docs" / "requirements.md"

# Third-party data: word lists and licence texts hold tokens such as "B-52" and "GPL-2" that
# nobody here wrote as a citation.
NOT_SCANNED = ("wordlists/data/", "wordlists/licenses/", "wordlists/opentaal/")

# One entry: a list item that starts with its ID in bold.
ENTRY = re.compile(r"^\s*- \*\*(?P<id>[A-Z]+(?:-[A-Z]+)*-\d+[a-z]?)\*\*(?P<text>.*)$", re.M)

# Anything shaped like a citation; only those of a family the page defines count, so UTF-8 or
# SHA-256 never do. No letter or hyphen may come before it, so `TV-NL-04` is never NL-04.
# `FED-*` (star) names a family, or a group of families, rather than one entry.
CITATION = re.compile(
    r"(?<![\w-])(?P<family>[A-Z]+(?:-[A-Z]+)*)-(?:(?P<star>\*)|(?P<first>\d+[a-z]?)(?!\w)"
    r"(?:(?:\.\.|[–—])(?:(?P=family)-)?(?P<last>\d+[a-z]?|[a-z])(?!\w)"
    r"|\s+to\s+(?P=family)-(?P<to>\d+[a-z]?)(?!\w)"
    r"|(?P<more>(?:/(?:\d+[a-z]?|[a-z])(?!\w))+))?)"
)


@cache
def entries() -> tuple[tuple[str, str], ...]:
    """Each entry of the page as (ID, its text on the first line), in page order."""
    text = PAGE.read_text(encoding="utf-8")
    return tuple((m["id"], m["text"].strip()) for m in ENTRY.finditer(text))


@cache
def defined() -> frozenset[str]:
    """The IDs the page defines."""
    return frozenset(rid for rid, _ in entries())


@cache
def families() -> frozenset[str]:
    """The ID families the page defines: `SCR`, `FED-FIGS`, `TV-NL`, …"""
    return frozenset(re.sub(r"-\d+[a-z]?$", "", rid) for rid in defined())


def _knows(prefix: str, known: Iterable[str]) -> bool:
    """Whether `prefix-*` names a known family or group of families (`FED-*`)."""
    return any(family == prefix or family.startswith(f"{prefix}-") for family in known)


def _split(number: str) -> tuple[str, str]:
    """`24e` → (`24`, `e`); `18` → (`18`, ``)."""
    digits = number.rstrip("abcdefghijklmnopqrstuvwxyz")
    return digits, number[len(digits) :]


def _expand(family: str, first: str, last: str) -> Iterator[str]:
    """Every ID a range from `first` to `last` cites."""
    digits, letter = _split(first)
    if last.isalpha():  # `SHC-24a..c`: parts of one entry
        for code in range(ord(letter or "a"), ord(last) + 1):
            yield f"{family}-{digits}{chr(code)}"
        return
    end, end_letter = _split(last)
    if letter or end_letter or int(end) < int(digits):
        # No order is defined across lettered parts, nor backwards: cite the ends as written.
        yield from (f"{family}-{first}", f"{family}-{last}")
        return
    for number in range(int(digits), int(end) + 1):
        yield f"{family}-{number:0{len(digits)}d}"


def _ids(m: re.Match[str]) -> Iterator[str]:
    """The IDs one citation match cites, its range or list expanded."""
    family, first = m["family"], m["first"]
    if m["last"] or m["to"]:
        yield from _expand(family, first, m["last"] or m["to"])
        return
    yield f"{family}-{first}"
    digits = _split(first)[0]
    for item in (m["more"] or "").split("/")[1:]:
        # A lone letter is another part of the same entry: `SCR-18b/c`.
        yield f"{family}-{digits}{item}" if item.isalpha() else f"{family}-{item}"
        digits = _split(item)[0] or digits


def citations(text: str, known: Iterable[str]) -> list[str]:
    """The IDs of the `known` families that `text` cites, ranges and lists expanded.

    >>> citations("WS-06..08, BRD-09/10 and P-31..P-32", {"WS", "BRD", "P"})
    ['WS-06', 'WS-07', 'WS-08', 'BRD-09', 'BRD-10', 'P-31', 'P-32']
    >>> citations("UTF-8, SHA-256, CC-BY-3.0, TV-D-14-NL-3", {"TV-D", "P"})
    ['TV-D-14']
    """
    known = frozenset(known)
    return [
        rid
        for m in CITATION.finditer(text)
        if not m["star"] and m["family"] in known
        for rid in _ids(m)
    ]


def scanned_files() -> list[str]:
    """Paths of the repository's files, tracked or new, relative to its root."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
        paths = [path for path in listed.split("\0") if path]
    except (OSError, subprocess.CalledProcessError):
        # An unpacked archive has no git: read the tree, less what git would ignore anyway.
        skipped = {"__pycache__", "build", "node_modules"}
        paths = [
            path.relative_to(ROOT).as_posix()
            for path in ROOT.rglob("*")
            if path.is_file()
            and not any(
                part.startswith(".") or part in skipped or part.endswith(".egg-info")
                for part in path.relative_to(ROOT).parts
            )
        ]
    return sorted(path for path in paths if not path.startswith(NOT_SCANNED))


def _texts() -> Iterator[tuple[str, str]]:
    """(path, text) of every scanned file that is text."""
    for path in scanned_files():
        try:
            data = (ROOT / path).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            continue  # listed by git but moved or deleted in the work tree meanwhile
        if b"\0" in data:
            continue
        try:
            yield path, data.decode("utf-8")
        except UnicodeDecodeError:
            continue


@cache
def _scan() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """One pass over the files: (cited IDs, cited `FED-*` prefixes), each with its places."""
    ids: defaultdict[str, list[str]] = defaultdict(list)
    stars: defaultdict[str, list[str]] = defaultdict(list)
    known = families()
    for path, text in _texts():
        for m in CITATION.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            place = f"{path}:{line}"
            if m["star"]:
                # Kept whatever the prefix, so that the check can name one the page lacks.
                stars[m["family"]].append(place)
            elif m["family"] in known:
                for rid in _ids(m):
                    ids[rid].append(place)
    return (
        {rid: tuple(places) for rid, places in ids.items()},
        {prefix: tuple(places) for prefix, places in stars.items()},
    )


def cited() -> dict[str, tuple[str, ...]]:
    """Each ID the repository cites, with the `path:line` of every place that cites it."""
    return _scan()[0]


def cited_wildcards() -> dict[str, tuple[str, ...]]:
    """Each family the repository cites with a star (`FED-*`), with where."""
    return _scan()[1]


def _report(found: dict[str, tuple[str, ...]]) -> str:
    lines = []
    for rid, places in sorted(found.items()):
        more = f" and {len(places) - 3} more" if len(places) > 3 else ""
        lines.append(f"  {rid}: {', '.join(places[:3])}{more}")
    return "\n".join(lines)


def test_the_page_defines_every_family() -> None:
    # The scan knows a family only from the page's entries: were a family's markup broken, its
    # citations would go unseen and every other check here would still pass.
    expected = {"P", "GEN", "SCR", "TYP", "BRD", "BNG", "ALP", "EDN", "LIT", "WL", "SHC", "END"}
    expected |= {"DUP", "TRK", "PRT", "LNK", "PRV", "FMT", "WS", "DIFF", "OQ"}
    expected |= {"FED-MAT", "FED-SBNL", "FED-FIGS", "FED-PFS", "FED-FISF", "FED-KUR", "FED-OT"}
    expected |= {"FED-EG", "TV-NL", "TV-IT", "TV-PL", "TV-D"}
    assert expected <= families(), f"no entries for {sorted(expected - families())}"


def test_no_requirement_is_defined_twice() -> None:
    twice = sorted(rid for rid, count in Counter(rid for rid, _ in entries()).items() if count > 1)
    assert not twice, f"defined more than once in docs/requirements.md: {twice}"


def test_every_entry_says_something() -> None:
    empty = [rid for rid, text in entries() if not text]
    assert not empty, f"entries with no text: {empty}"


def test_the_scan_finds_the_citations() -> None:
    # A scan that reads no file would pass every check below. Code, tests, the web app and the
    # docs all cite requirements, hundreds of them.
    places = [place.split(":")[0] for found in cited().values() for place in found]
    elsewhere = [path for path in places if path != "docs/requirements.md"]
    assert len(elsewhere) > 500
    assert {".py", ".js", ".md"} <= {Path(path).suffix for path in elsewhere}


def test_every_cited_requirement_is_defined() -> None:
    missing = {rid: places for rid, places in cited().items() if rid not in defined()}
    assert not missing, (
        "cited but not defined in docs/requirements.md (add an entry, or split a range that "
        "spans a gap):\n" + _report(missing)
    )


def test_every_cited_family_is_defined() -> None:
    unknown = {
        f"{prefix}-*": places
        for prefix, places in cited_wildcards().items()
        if not _knows(prefix, families())
    }
    assert not unknown, "families cited with * but not defined:\n" + _report(unknown)


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        pytest.param("P-52", ["P-52"], id="single"),
        pytest.param("(WS-06..09)", ["WS-06", "WS-07", "WS-08", "WS-09"], id="range"),
        pytest.param("P-31..P-33", ["P-31", "P-32", "P-33"], id="range-family-repeated"),
        pytest.param("OQ-01 to OQ-03", ["OQ-01", "OQ-02", "OQ-03"], id="range-in-words"),
        pytest.param("EDN-20–22", ["EDN-20", "EDN-21", "EDN-22"], id="range-en-dash"),
        pytest.param("FED-FIGS-07/08/11", ["FED-FIGS-07", "FED-FIGS-08", "FED-FIGS-11"], id="list"),
        pytest.param("SHC-24a..c", ["SHC-24a", "SHC-24b", "SHC-24c"], id="parts-range"),
        pytest.param("SCR-18b/c", ["SCR-18b", "SCR-18c"], id="parts-list"),
        pytest.param('id="SCR-09-2W-3W"', ["SCR-09"], id="test-id-suffix"),
        pytest.param("TV-D-14-NL-3, TV-PL-13", ["TV-D-14", "TV-PL-13"], id="two-part-families"),
        pytest.param(
            "SHC-13..18 and END-01",
            [f"SHC-{n}" for n in range(13, 19)] + ["END-01"],
            id="range-then-another-family",
        ),
        pytest.param("UTF-8 ISO-8859-2 SHA-256 CC-BY-3.0 GPL-2 TEST-NET-1 B-52", [], id="not-ids"),
        pytest.param("the EDN facts, TV-*", [], id="bare-family-and-wildcard"),
    ],
)
def test_citation_notation_reads_as_documented(text: str, ids: list[str]) -> None:
    assert citations(text, families()) == ids
