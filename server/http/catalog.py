"""What a phone needs to draw its forms, tiles and board: every edition and rule set.

Built once per process, after ``serve --wordlist`` chose the lists; the phone never scores
with it (values label the tiles only).
"""

from functools import cache

import msgspec

import editions
import wordlists
from events.events import Mode
from rules.board import scoring
from rules.online import opponent as computer
from rules.online import play as online
from rules.table import decide, modes, rulesets
from server.http.limits import SECRET_LISTS


class Letter(msgspec.Struct, frozen=True, array_like=True):
    face: str
    value: int
    count: int


class WordListInfo(msgspec.Struct, frozen=True):
    """A word list as players name it; the phone words it in its language: "OpenTaal (2.20,
    298.310 woorden)", "SCOWL 2020.12, size 70 (248,257 words)", "club.txt (3 words)"."""

    name: str  # "OpenTaal", "SCOWL", or a club list's file name
    release: str | None  # "2.20"; None for a club's list
    size: int | None  # SCOWL's size, where the list has one
    words: int


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
    word_list: WordListInfo | None  # which list judges the edition's words, None without one
    word_check: bool = False  # the calculator may ask for its words checked (not a secret list)
    classic_rules: tuple[str, ...] = ("house",)  # a classic sheet's choice, the default first


class RulesInfo(msgspec.Struct, frozen=True):
    code: str
    name: str
    max_players: int
    duplicate: bool
    penalty: int
    penalty_adds_move: bool
    penalty_percent: bool
    clock_seconds: int | None
    exchange_min_bag: int | None = None  # an exchange needs this many tiles in the bag
    references: str = "board"  # how a move's reference is written: "board" or "fisf"
    # who may challenge the latest move, and what it costs (``rules.table.challenge``):
    # "jury" is the host's check alone, "none" no challenge at all
    challenge: str = "free"
    # The game clock: the minutes a game gets unless its host sets another length (None: off
    # unless set), what running out costs, and the points per started minute over.
    clock_minutes: int | None = None
    overtime: str = "none"
    overtime_points: int = 0
    # A room's slip after the round clock ran out: "zero" (it scores ``late_points``) or
    # "refused"; None outside a room's rule set.
    late: str | None = None
    late_points: int = 0


class ModeInfo(msgspec.Struct, frozen=True):
    """A way to play as the start form offers it, with the limits the decider holds it to."""

    code: str  # "classic", "duplicate", "online"
    min_players: int
    max_players: int
    rules: tuple[str, ...]  # the rule sets a game of the mode may follow, its default first
    move_seconds: tuple[int, ...] = ()  # online: the times per move offered besides none


class Catalog(msgspec.Struct, frozen=True):
    editions: tuple[EditionInfo, ...]
    rules: tuple[RulesInfo, ...]
    strengths: tuple[str, ...] = ()  # the computer's, strongest first (rules.online.opponent)
    modes: tuple[ModeInfo, ...] = ()
    max_cross_words: int = scoring.MAX_CROSS_WORDS  # a typed move's words besides the main one


#: The classic rule sets a language's players are offered (SHC-07): house rules, then the
#: tournament rules of the language's federation; Polish house rules are the PFS rules of
#: play; English has two federations, WESPA's single and NASPA's double challenge. Every
#: other language plays house rules.
LANGUAGE_RULES: dict[str, tuple[str, ...]] = {
    "nl": ("house", "sbnl"),
    "it": ("house", "figs"),
    "pl": ("pfs-house", "pfs"),
    "en": ("house", "wespa", "naspa"),
}
#: The rule sets the decider gives a game of a mode that names none of its own.
_DEFAULT_RULES = {
    Mode.CLASSIC: rulesets.HOUSE,
    Mode.DUPLICATE: rulesets.DUPLICATE,
    Mode.ONLINE: rulesets.ONLINE,
}


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
    listed = _word_list(code) if edition.language in wordlists.available() else None
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
        word_list=listed,
        word_check=listed is not None and code not in SECRET_LISTS,
        classic_rules=LANGUAGE_RULES.get(edition.language, ("house",)),
    )


def _mode(mode: Mode) -> ModeInfo:
    """What a game of ``mode`` may be: its player counts, the rule sets made for it (a
    duplicate set for a duplicate game, the online set for an online one, any other for a
    classic sheet) and, online, the times per move."""
    default = _DEFAULT_RULES[mode]
    fits = [
        r.code
        for r in rulesets.RULE_SETS.values()
        if (r.duplicate, r.online) == (mode is Mode.DUPLICATE, mode is Mode.ONLINE)
    ]
    return ModeInfo(
        code=mode.value,
        min_players=decide.MIN_PLAYERS[mode],
        max_players=modes.MODES[mode].most_players,
        rules=(default.code, *(code for code in fits if code != default.code)),
        move_seconds=online.MOVE_SECONDS_CHOICES if mode is Mode.ONLINE else (),
    )


def _word_list(code: str) -> WordListInfo:
    lexicon = wordlists.get(code)
    return WordListInfo(lexicon.name, lexicon.release, lexicon.size, len(lexicon))


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
            r.exchange_min_bag,
            r.references,
            challenge=r.challenge,
            clock_minutes=r.clock_minutes,
            overtime=r.overtime,
            overtime_points=r.overtime_points if r.overtime == "points" else 0,
            late=r.room.late if r.room is not None else None,
            late_points=r.room.late_points if r.room is not None else 0,
        )
        for r in rulesets.RULE_SETS.values()
    )
    played = tuple(computer.STRENGTHS)
    modes = tuple(_mode(mode) for mode in Mode)
    every = tuple(_edition(c) for c in editions.codes())
    return msgspec.json.encode(Catalog(every, rules, played, modes))
