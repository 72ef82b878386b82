"""docs/decisions.md: an entry for every open question of spec §23, and every holder it names
exists — so a renamed test or a moved module breaks the page's check."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGE = ROOT / "docs" / "decisions.md"
QUESTIONS = [f"OQ-{n:02d}" for n in range(1, 84)]

TEST = re.compile(r"(tests/[\w/]+\.py)::(\w+)")
# A repository file named in backticks: `rules/online/play.py`, `web/strings/nl.json` (no globs).
FILE = re.compile(
    r"`((?:bench|docs|editions|events|rules|scripts|server|tests|web|wordlists)/[\w./-]+)`"
)


def text() -> str:
    return PAGE.read_text(encoding="utf-8")


def entries() -> dict[str, str]:
    """Each question's entry: from its heading to the next heading."""
    parts = re.split(r"^(?=#{2,3} )", text(), flags=re.MULTILINE)
    found: dict[str, str] = {}
    for part in parts:
        heading = re.match(r"### (OQ-\d\d) ", part)
        if heading:
            assert heading[1] not in found, f"{heading[1]} has two entries"
            found[heading[1]] = part
    return found


def test_every_open_question_has_one_entry_in_order() -> None:
    assert list(entries()) == QUESTIONS


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_entry_has_a_decision_and_a_holder(question: str) -> None:
    entry = entries()[question]
    assert "**Decision:**" in entry
    assert "**Held by:**" in entry


def cited_tests() -> list[tuple[str, str]]:
    return sorted(set(TEST.findall(text())))


def test_the_page_cites_tests() -> None:
    assert len(cited_tests()) > 50


@pytest.mark.parametrize(("path", "name"), cited_tests())
def test_every_cited_test_exists(path: str, name: str) -> None:
    source = ROOT / path
    assert source.is_file(), f"{path} does not exist"
    defined = re.search(
        rf"^\s*(?:async\s+)?def {name}\(", source.read_text(encoding="utf-8"), re.MULTILINE
    )
    assert defined, f"{path} has no test {name}"


@pytest.mark.parametrize("path", sorted(set(FILE.findall(text()))))
def test_every_cited_file_exists(path: str) -> None:
    assert (ROOT / path).is_file(), f"{path} does not exist"
