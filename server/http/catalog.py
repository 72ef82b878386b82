"""What a phone needs to draw its forms, tiles and board: every edition and rule set.

Built once per process, after ``serve --wordlist`` chose the lists; the phone never scores
with it (values label the tiles only).
"""

from functools import cache

import msgspec

import editions
import wordlists
from rules.online import opponent as computer
from rules.table import rulesets


class Letter(msgspec.Struct, frozen=True, array_like=True):
    face: str
    value: int
    count: int


class EditionInfo(msgspec.Struct, frozen=True):
    code: str
    name: str
    language: str
    letters: tuple[Letter, ...]
    blank_letters: tuple[str, ...]  # what a blank may stand for, as the phone offers them
    blanks: int
    rack_size: int
    bingo_bonus: int
    premiums: tuple[str, ...]  # what the typed-mode panel offers
    board: tuple[str, ...] | None  # rows of "2L" "3L" "2W" "3W" ".." tokens; None: no board
    colours: dict[str, str]
    word_list: str | None  # which list judges the edition's words, None without one


class RulesInfo(msgspec.Struct, frozen=True):
    code: str
    name: str
    max_players: int
    duplicate: bool
    penalty: int
    penalty_adds_move: bool
    penalty_percent: bool
    clock_seconds: int | None


class Catalog(msgspec.Struct, frozen=True):
    editions: tuple[EditionInfo, ...]
    rules: tuple[RulesInfo, ...]
    strengths: tuple[str, ...] = ()  # the computer's, strongest first (rules.online.opponent)


def _blank_letters(edition: editions.Edition) -> tuple[str, ...]:
    """The set's faces in its order, with the letters the rules add for a blank (Italian J
    K W X Y) each before the first face that sorts after it."""
    letters = [k.face for k in edition.kinds]
    for extra in sorted(edition.blank_also):
        at = next((i for i, face in enumerate(letters) if face > extra), len(letters))
        letters.insert(at, extra)
    return tuple(letters)


def _edition(code: str) -> EditionInfo:
    edition = editions.get(code)
    layout = edition.layout
    board = None
    if layout is not None:
        board = tuple(
            " ".join(str(layout.premium(r, c) or "..") for c in range(layout.size))
            for r in range(layout.size)
        )
    return EditionInfo(
        code=edition.code,
        name=edition.name,
        language=edition.language,
        letters=tuple(Letter(k.face, k.value, k.count) for k in edition.kinds),
        blank_letters=_blank_letters(edition),
        blanks=edition.blanks,
        rack_size=edition.rack_size,
        bingo_bonus=edition.bingo_bonus,
        premiums=tuple(str(p) for p in edition.premiums),
        board=board,
        colours={str(p): colour for p, colour in edition.colours},
        word_list=wordlists.get(code).source if edition.language in wordlists.available() else None,
    )


@cache
def catalog_json() -> bytes:
    """The catalog, encoded once."""
    rules = tuple(
        RulesInfo(
            r.code,
            r.name,
            r.max_players,
            r.duplicate,
            r.penalty,
            r.penalty_adds_move,
            r.penalty_percent,
            r.clock_seconds,
        )
        for r in rulesets.RULE_SETS.values()
    )
    played = tuple(computer.STRENGTHS)
    return msgspec.json.encode(Catalog(tuple(_edition(c) for c in editions.codes()), rules, played))
