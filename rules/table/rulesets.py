"""The rule sets a sheet follows, as data, each with its source (P-31..P-34, FED-*).

Every rule set settles the end of a game the same way (END-05/06): each player loses the
value of their own rack, and the player who went out, if any, gains all the others' values
once (Mattel NL:70; SBNL FED-SBNL-09/10; FIGS art. 40 FED-FIGS-12; PFS FED-PFS-08/13).
"""

from collections.abc import Mapping
from decimal import ROUND_HALF_DOWN, Decimal
from typing import Literal

import msgspec

from editions import codebook
from rules.board.squares import Convention
from rules.errors import GameError


class RackRule(msgspec.Struct, frozen=True):
    """Duplicate room: what a rack the server draws must hold (``rules.room.racks``).

    Up to round ``early_rounds`` at least ``early`` vowels and ``early`` consonants, then at
    least ``late`` of each; a tile in ``both`` (the blank) counts as either. While the tiles
    left cannot give ``early`` of each, ``late`` will do (Eliot's fallback); when they
    cannot give ``late`` of each, no rack can be drawn and the game ends. A rack that fails
    goes back to the bag whole, the kept tiles with it, and a new one is drawn.
    """

    early: int = 2
    early_rounds: int = 15
    late: int = 1
    both: tuple[str, ...] = ("?",)


class RoomRules(msgspec.Struct, frozen=True):
    """Duplicate room: how slips are judged when a round closes (``rules.room.slips``).

    ``invalid``: the points of a slip with a word the table's list lacks, or a move that
    no longer fits the board; ``late``: a slip after the round clock ran out is recorded
    and scores ``late_points`` (``"zero"``) or is refused (``"refused"``); ``missing``: the
    points of a player without a slip. ``solo_points``: the bonus of the one player with
    the best valid score of the round, alone at it, in a game of at least
    ``solo_players`` players (Eliot's solo). ``top_preference``: among moves of the top's
    score, which the close plays — ``fewest_blanks`` (keep the blank), ``most_tiles``,
    ``fewest_tiles`` in turn, then the move generator's order (square, direction, tiles).
    ``entries_until``: the round up to which players may still register when a room opens;
    the director sets it again at will.
    """

    invalid: int = 0
    late: Literal["zero", "refused"] = "zero"
    late_points: int = 0
    missing: int = 0
    solo_points: int = 0
    solo_players: int = 0
    top_preference: tuple[str, ...] = ("fewest_blanks",)
    entries_until: int = 3  # players may register up to this round (docs/decisions.md)


class RuleSet(msgspec.Struct, frozen=True):
    """What a sheet checks and proposes under one set of rules."""

    code: str
    name: str
    source: str
    max_players: int = 4
    pass_limit: int | None = None  # None: twice round the table, 2 × players
    pass_kinds: frozenset[str] = frozenset({"pass"})  # turn kinds that make the run
    penalty: int = 10  # the figure the penalty panel proposes (P-32)
    penalty_adds_move: bool = False  # SBNL: 20 plus the wrong turn's score
    penalty_percent: bool = False  # FIGS: 20 % / 10 % of the move, 0.5 down, at least 1
    exchange_min_bag: int | None = None  # warn below this many tiles in the bag (P-33)
    exchange_max: int | None = None  # warn past this many exchanges by one player
    going_out_ends_game: bool = False  # SBNL: no last turn for the others (FED-SBNL-08)
    duplicate: bool = False
    online: bool = False  # the server holds the bag and the racks and judges every word
    clock_seconds: int | None = None  # duplicate round clock default (FISF: 3 minutes)
    rack_rule: RackRule | None = None  # duplicate room: the racks the server draws
    room: RoomRules | None = None  # duplicate room: slips, the top, the solo bonus
    # How its players write a move's reference (``rules.board.squares``): the first square
    # with the direction beside it, or the FISF's, whose order says the direction (H4, 4H).
    references: Convention = "board"
    # The game clock (``rules.table.gameclock``): the minutes per player a game gets unless
    # its host sets another length (None: no clock unless the host sets one), and what
    # running out costs — ``none`` (it is only said), ``loss`` (the game: SBNL), ``points``
    # (``overtime_points`` per started minute over, at the end), ``figs`` (an extra minute
    # for 30, then 50 more and the game), ``stops`` (no more moves; both out ends it: PFS).
    clock_minutes: int | None = None
    overtime: Literal["none", "loss", "points", "figs", "stops"] = "none"
    overtime_points: int = 10
    # The challenge of the latest move (``rules.table.challenge``): ``free`` (a bad word is
    # withdrawn, a wrong challenge costs nothing), ``double`` (… the challenger loses a
    # turn), ``single`` (… the challenged player ``challenge_penalty`` points as a bonus),
    # ``percent`` (FIGS: a bad move costs 20 % of it, a wrong challenge 10 %), ``jury``
    # (SBNL: checked by the arbiter, a bad word costs its score plus the penalty), ``none``
    # (not at this table).
    challenge: Literal["free", "double", "single", "percent", "jury", "none"] = "free"
    challenge_penalty: int = 0
    challenge_names_words: bool = True  # the answer names the words the list lacks

    def pass_limit_for(self, players: int) -> int | None:
        """How many counted turns in a row bring the pass notice; None when there is none."""
        if self.duplicate:
            return None
        return self.pass_limit if self.pass_limit is not None else 2 * players

    def pass_limit_reached(self, run: int, players: int) -> int | None:
        """The limit, once ``run`` counted turns in a row have reached it; else None."""
        limit = self.pass_limit_for(players)
        return limit if limit is not None and run >= limit else None


RULE_SETS: Mapping[str, RuleSet] = {
    r.code: r
    for r in (
        RuleSet(
            code="house",
            name="House rules (publisher's English rules)",
            source="Mattel's English instruction sheet (NL:28,68; IT:59; FED-MAT-01..06): the"
            " game ends when every player has passed twice in a row; no point penalties.",
        ),
        RuleSet(
            code="sbnl",
            name="SBNL tournament",
            source="SBNL wedstrijdreglement (NL:72,80,86; FED-SBNL-03..10): three passes in a"
            " row (no word, no exchange); a wrong word costs its score plus 20; going out"
            " ends the game at once; two players only. Art. I.6 (FED-SBNL-03): 20 to 30"
            " minutes each on the game clock, no time points, running out loses the game."
            " Art. III.10 (FED-SBNL-06): no challenge at the table, the jury checks the"
            " words after the game.",
            max_players=2,
            pass_limit=3,
            penalty=20,
            penalty_adds_move=True,
            going_out_ends_game=True,
            clock_minutes=25,
            overtime="loss",
            challenge="jury",
            challenge_penalty=20,
        ),
        RuleSet(
            code="figs",
            name="FIGS tournament",
            source="FIGS regolamento art. 30, 34, 39, 40 (IT:53-65; FED-FIGS-07/08/11/12):"
            " six scoreless turns in a row (passes, exchanges, withdrawn words); challenge"
            " penalties 20 % / 10 % rounded half down, at least 1; exchange needs 3 in the"
            " bag; two players only. Art. 36-37 (FED-FIGS-10): 25 minutes each, then one"
            " extra minute for 30 points, then 50 points more and the game.",
            max_players=2,
            pass_limit=6,
            pass_kinds=frozenset({"pass", "exchange", "withdrawn"}),
            penalty_percent=True,
            exchange_min_bag=3,
            clock_minutes=25,
            overtime="figs",
            challenge="percent",
        ),
        RuleSet(
            code="pfs-house",
            name="PFS rules of play",
            source="PFS zasady gry (PL:7,71,73; FED-PFS-01/07/08): the game ends when every"
            " player has skipped twice in a row; no point penalties.",
        ),
        RuleSet(
            code="pfs",
            name="PFS tournament",
            source="PFS regulamin turniejowy (PL:65,67,75,103; FED-PFS-10..13): four pauses in a"
            " row (exchanges and lost turns are not pauses); exchange needs 7 in the bag,"
            " at most 3 per player; no point penalties; two players only. FED-PFS-09: a"
            " word challenged ('Sprawdzam') and not allowed goes back, a lost turn"
            " ('strata'). FED-PFS-13: a player over time makes no more moves, the other"
            " plays on; both over time ends the game.",
            max_players=2,
            pass_limit=4,
            exchange_min_bag=7,
            exchange_max=3,
            clock_minutes=20,
            overtime="stops",
        ),
        RuleSet(
            code="wespa",
            name="WESPA tournament",
            source="WESPA Game Rules (docs/decisions.md): 25 minutes each on the game clock,"
            " 10 points per minute or part of one over time; a challenged play is judged as"
            " a whole (acceptable or not, no word named), an unacceptable one comes off the"
            " board, an unsuccessful challenge gives the challenged player 5 points; six"
            " scoreless turns in a row end the game; two players only.",
            max_players=2,
            pass_limit=6,
            pass_kinds=frozenset({"pass", "exchange", "withdrawn"}),
            clock_minutes=25,
            overtime="points",
            challenge="single",
            challenge_penalty=5,
            challenge_names_words=False,
        ),
        RuleSet(
            code="naspa",
            name="NASPA tournament (double challenge)",
            source="NASPA Rules (docs/decisions.md): 25 minutes each, 10 points per minute or"
            " part of one over time; double challenge: an unacceptable play comes off the"
            " board, an unsuccessful challenger loses their next turn; the play is judged"
            " as a whole; six scoreless turns in a row end the game; two players only.",
            max_players=2,
            pass_limit=6,
            pass_kinds=frozenset({"pass", "exchange", "withdrawn"}),
            clock_minutes=25,
            overtime="points",
            challenge="double",
            challenge_names_words=False,
        ),
        RuleSet(
            code="online",
            name="Online play (Woordstrijd)",
            source="Woordstrijd rules (WS-06..18) with P-51: three passes in a row end the"
            " game whatever the player count (exchanges and refused moves are not passes);"
            " exchange 1 to 7 tiles only with 7 in the bag; going out with an empty bag"
            " ends the game at once; every word formed must be in the list.",
            pass_limit=3,
            exchange_min_bag=7,
            going_out_ends_game=True,
            online=True,
            challenge="none",
        ),
        RuleSet(
            code="duplicate",
            name="Duplicate (FISF round time)",
            source="FISF duplicate rules point 1.3 (NL:98; IT:73; PL:85; FED-FISF-01): at most"
            " 3 minutes a move; no rack settlement (DUP-14); 1 to 4 players (DUP-03). The"
            " room: FISF draws — at least 2 vowels and 2 consonants up to round 15, then 1"
            " of each, the blank either, a failed rack back to the bag whole; the game ends"
            " when no rack can be drawn. FISF slips: one not handed in, one written after"
            " the time and one with a word not in the list are null (0 points). Eliot's"
            " defaults for the rest: a solo earns 10 points from 16 players (the ODS"
            " figures, never at a table of 4); among equal tops the one keeping the blank."
            " References as the FISF writes them: across the row letter then the column"
            " (H4), down the column then the row (4H), as Eliot's coordinates (game/coord.cpp).",
            duplicate=True,
            clock_seconds=180,
            max_players=200,
            rack_rule=RackRule(),
            room=RoomRules(solo_points=10, solo_players=16),
            references="fisf",
            challenge="none",
        ),
        RuleSet(
            code="duplicate-club",
            name="Duplicate, club room (solos from 2 players)",
            source="The FISF duplicate rules as in 'duplicate', with Eliot's solo set for a"
            " small room: 10 points for the one player alone at the round's best score, from"
            " 2 players on.",
            duplicate=True,
            clock_seconds=180,
            max_players=200,
            rack_rule=RackRule(),
            room=RoomRules(solo_points=10, solo_players=2),
            challenge="none",
        ),
    )
}

#: The rule sets a game gets when its mode asks for them (``rules.table.decide``).
HOUSE = RULE_SETS["house"]
ONLINE = RULE_SETS["online"]  # the house rules of online play (P-51)
DUPLICATE = RULE_SETS["duplicate"]


def get(code: str) -> RuleSet:
    """The rule set ``code``; raises GameError (``unknown_rules``) naming the known ones."""
    try:
        return RULE_SETS[code]
    except KeyError:
        known = tuple(RULE_SETS)
        raise GameError(
            f"unknown rule set {code!r}; known: {', '.join(known)}",
            code=codebook.UNKNOWN_RULES,
            rules=code,
            known=known,
        ) from None


def figs_penalty(move_points: int, percent: int) -> int:
    """FIGS art. 30: ``percent`` of a move, 0.5 rounded down, at least 1 (FED-FIGS-07).

    >>> figs_penalty(35, 10), figs_penalty(35, 20), figs_penalty(5, 10), figs_penalty(25, 10)
    (3, 7, 1, 2)
    """
    exact = Decimal(move_points) * percent / 100
    return max(1, int(exact.quantize(Decimal(1), rounding=ROUND_HALF_DOWN)))


def proposed_penalty(rules: RuleSet, move_points: int | None = None, percent: int = 20) -> int:
    """The figure the penalty panel proposes, given the move it is about if any (P-32).

    >>> proposed_penalty(get("sbnl"), 28), proposed_penalty(get("figs"), 35, 10)
    (48, 3)
    """
    if move_points is None:
        return rules.penalty
    if rules.penalty_adds_move:
        return rules.penalty + move_points
    if rules.penalty_percent:
        return figs_penalty(move_points, percent)
    return rules.penalty
