"""The state of a table as the reducer rebuilds it from the log; frozen, built by folding.

Every Struct here is ``gc=False``: a state only points at older values, never back, so it
holds no reference cycle, and a replay that makes thousands of them would otherwise pay
the cycle collector to walk them all again and again.
"""

from typing import Literal

import msgspec

from editions import Edition
from events.events import Mode, RackLeft, Recorded, Role, SlipScore, WordLine, Writers
from rules.board.board import Board
from rules.simultaneous.state import Simultaneous
from rules.table.history import History
from rules.table.rulesets import RuleSet

#: A line of the sheet: a turn of one of the first five kinds, or a penalty or bonus beside it.
LineKind = Literal["move", "points", "pass", "exchange", "withdrawn", "penalty", "bonus"]
#: An online turn as every device may see it.
TurnKind = Literal["move", "exchange", "pass"]


class Notice(msgspec.Struct, frozen=True, gc=False):
    """Something the sheet shows but never acts on: a stable code and its parameters."""

    code: str
    params: dict[str, int | str] = {}


class Line(msgspec.Struct, frozen=True, gc=False):
    """A line of the sheet: a turn, or a penalty (or bonus) that uses no turn."""

    seq: int  # the event that made it; undo names it
    kind: LineKind
    player: int
    points: int  # what the line adds to the total (a penalty is negative)
    total: int  # the player's total after this line
    round: int  # the player's turn count when it was written: the sheet's row, from 0
    words: tuple[WordLine, ...] = ()
    bingo: int = 0
    tiles: tuple[str, ...] = ()  # the letters it took from the bag, "?" for a blank
    from_board: bool = False
    squares: tuple[str, ...] = ()  # a board move's new tiles: a move withdrawn lifts them
    overtime: int = 0  # a penalty for the game clock's time over: the minutes it pays for
    timed_out: bool = False  # an online pass the server made: the time per move ran out


class Verdict(msgspec.Struct, frozen=True, gc=False):
    """A challenge judged (``rules.table.challenge``): the move it was about, as the sheet showed
    it, and the lines that followed from it; an undo strikes them with it."""

    seq: int  # the ChallengeJudged event
    line: int  # the challenged move's seq
    challenger: int
    player: int  # whose move it was
    valid: bool
    words: tuple[str, ...]  # the move's words
    points: int  # what the move scored
    bad: tuple[str, ...] = ()  # the words the list lacks; the view drops them where the rule
    # set names none (``RuleSet.challenge_names_words``)
    consequences: tuple[int, ...] = ()  # the seqs of its consequence's lines, in order


class Round(msgspec.Struct, frozen=True, gc=False):
    """Duplicate: one round's top and each player's score; every cell may be empty."""

    scores: tuple[int | None, ...]
    top: int | None = None
    top_seq: int = 0
    top_words: tuple[WordLine, ...] = ()
    top_tiles: tuple[str, ...] = ()
    # The director's room: the round's rack (row notation, "?" a blank), how many drawn
    # racks the rule sent back first, and once it closed, every slip as it was judged.
    rack: tuple[str, ...] = ()
    rejected: int = 0
    typed_rack: bool = False
    results: tuple[SlipScore, ...] = ()
    computed: bool = False  # the move generator found the top


class Slip(msgspec.Struct, frozen=True, gc=False):
    """Duplicate room: a player's slip for the open round; private until the round closes."""

    player: int
    word: str  # the whole word, row notation, blanks in lower case
    start: str
    direction: str
    late: bool = False
    points: int = 0  # its score as it lies on the board now; 0 once it no longer fits


class Clock(msgspec.Struct, frozen=True, gc=False):
    """Duplicate round clock: ms left when it last stopped, and since when it runs."""

    seconds: int
    remaining: int  # ms
    running_since: int | None = None  # server time, ms


class GameClock(msgspec.Struct, frozen=True, gc=False):
    """A physical table's game clock (``rules.table.gameclock``): each player's time used,
    brought up to date at ``since`` (server time, ms) whenever anything changed, and whose
    time runs from then. Folded from the server timestamps in the log alone."""

    minutes: int  # each player's time
    used: tuple[int, ...]  # ms of each player's time used up to ``since``
    running: int | None = None  # whose time runs since ``since``; None: nobody's
    since: int = 0
    started: bool = False  # it was started; a pause keeps it started
    paused: bool = False
    tapped: tuple[tuple[int, int], ...] = ()  # (player, turn count): turns a tap ended
    called: tuple[int, ...] = ()  # per player: the last stage of time run out recorded
    events: int = 0  # the clock's own events folded in: an undo's replay never has more


class LastTurn(msgspec.Struct, frozen=True, gc=False):
    """The latest turn as every device may see it: an online game's own, or (in a phone's list
    of its games) a classic sheet's newest line."""

    player: int
    kind: LineKind
    words: tuple[WordLine, ...] = ()
    points: int = 0
    squares: tuple[str, ...] = ()  # the new tiles' squares
    count: int = 0  # tiles exchanged
    timed_out: bool = False  # a pass the server made when the time per move ran out


class Online(msgspec.Struct, frozen=True, gc=False):
    """Online play: the server's secrets — the seed, the bag in draw order, every rack.

    Never part of a view as it stands; ``rules.online.view`` cuts out what one seat may see.
    Tiles are bag letters: ``A``, ``CH``, ``?`` for a blank.
    """

    seed: str
    bag: tuple[str, ...]  # the next draw is the front
    racks: tuple[tuple[str, ...], ...]
    move_seconds: int | None = None
    turn_since: int = 0  # server time (ms) the player to move began the turn
    last: LastTurn | None = None
    computers: tuple[str | None, ...] = ()  # per seat: None, or the computer's strength

    def computer(self, seat: int) -> str | None:
        """The strength the computer plays ``seat`` at; None for a person's seat."""
        return self.computers[seat] if 0 <= seat < len(self.computers) else None


class Tally(msgspec.Struct, frozen=True, gc=False):
    """Tile tracking's running counts, kept up as each line (in duplicate, each top) is
    written, so that the tile panel is read from them (``rules.table.tracking``), not counted
    again from every line for every view. An undo needs nothing of its own: the game it
    goes back to holds the counts of its own lines."""

    left: tuple[int, ...] = ()  # per letter of the panel (the set's order, then "?"): unused
    taken: int = 0  # tiles taken from the bag, letters the set lacks included
    points_only: int = 0  # moves (duplicate: tops) whose tiles are unknown


class Laying(msgspec.Struct, frozen=True, gc=False):
    """Tiles laid on the shared board without a score: by whom (the seat, None for the host)
    and on which squares, in the order laid."""

    player: int | None
    squares: tuple[str, ...]


class CentreGame(msgspec.Struct, frozen=True, gc=False):
    """Duplicate room: the simultaneous game the room plays as a centre, and its name there."""

    simultaneous: str
    game: int
    name: str


class Game(msgspec.Struct, frozen=True, gc=False):
    """One game on the table; its edition, mode and rule set resolved from their codes once,
    when it started."""

    edition: Edition
    mode: Mode
    rules: RuleSet
    players: tuple[str | None, ...]
    starter: int
    to_move: int
    totals: tuple[int, ...]
    board: Board | None  # None for an edition without a board (Literaki)
    turns: tuple[int, ...]  # turns each player has taken: the sheet row of the next one
    racks: int  # racks in play: one a player, or the one a duplicate round shares (P-42)
    lines: History[Line] = msgspec.field(default_factory=History)
    rounds: tuple[Round, ...] = ()  # duplicate; the last one is the open round
    unscored: frozenset[str] = frozenset()  # squares of tiles placed without a score
    laid: tuple[Laying, ...] = ()  # the same tiles by laying: who laid which, until cleared
    pass_run: int = 0  # counted scoreless turns in a row
    exchanges: tuple[int, ...] = ()  # per player
    notices: tuple[Notice, ...] = ()  # raised when a line was written (exchange warnings)
    warnings: tuple[Notice, ...] = ()  # odd history the reducer passed over
    clock: Clock | None = None
    game_clock: GameClock | None = None  # a physical table's chess clock, when it has one
    ended: tuple[RackLeft, ...] | None = None  # the racks at the end
    started: int = 0  # the seq of its start: what a phone's turn names the game by
    online: Online | None = None  # online play only
    slips: tuple[Slip, ...] = ()  # duplicate room: the open round's, one per player at most
    tally: Tally = Tally()  # the tile panel's counts (``rules.table.tracking``)
    left: tuple[int, ...] = ()  # duplicate room: the players taken out; their places stay
    registered: bool = False  # duplicate: a player registered or was added: a director's room
    entries_until: int = 0  # duplicate room: the last round (1-based) a player may register in
    centre: CentreGame | None = None  # duplicate room: a simultaneous's sealed game, as a centre
    challenges: tuple[Verdict, ...] = ()  # classic: every challenge judged, in order


class Member(msgspec.Struct, frozen=True, gc=False):
    """A device at the table as the log knows it (the host's is not in the log)."""

    id: str
    role: Role  # "player", "viewer", or "host" for a co-director: the director is not a member
    seat: int | None
    since: int  # server time it joined, ms
    key: str = ""  # the hash of the phone's lasting key
    admitted: bool = True
    # What tells two phones of a seat apart in the host's list: the model the server read
    # from its user agent when it joined ("iPhone · Safari"), and a name it gave itself.
    model: str = ""
    label: str = ""


class Seating(msgspec.Struct, frozen=True, gc=False):
    """Who sits at the table, and who may write the sheet; it outlasts every game."""

    members: tuple[Member, ...] = ()
    writers: Writers = "own_seat"
    # The device that directs the table: the one that made it (``permissions.HOST``) until a
    # phone takes its place with the recovery code, whose hash is kept until it is used.
    director: str = "host"
    recovery: str = ""
    # The seat the host's own device holds at a physical table (``HostSeated``), kept across
    # new games; None: the host keeps the sheet and holds none.
    host_seat: int | None = None

    def member(self, device: str) -> Member | None:
        """The device's place, or None when it is not (or no longer) at the table."""
        return next((m for m in self.members if m.id == device), None)


#: How a step's game before it is had (``rules.table.reducer.before``): there is none (the
#: event started the game); it is kept; or it is the previous step's folded again with the
#: previous event, as a turn (``evolve``) or as an undo applies it again (no new turn).
Follows = Literal["start", "kept", "turn", "again"]


class Step(msgspec.Struct, frozen=True, gc=False):
    """A standing event of the current game, newest first, and how to have the game before it.

    An undo needs the game before any standing line, but a game kept for every event (a
    board for every move) made a long game's table cost megabytes. So one step in
    ``CHECKPOINT`` keeps it, and the others fold it again from the nearest kept one
    (``rules.table.reducer.before``). A run of steps, from one that keeps its game to the
    next, is packed once a newer run starts (``rules.table.steps``): ``previous`` is then a
    ``Packed``, opened by ``rules.table.steps.older``.
    """

    recorded: Recorded
    kept: Game | None  # the game before it, when ``follows`` is "kept"
    previous: "Step | Packed | None"
    follows: Follows = "kept"
    depth: int = 0  # steps back to the nearest that keeps its game or starts the game


class Packed(msgspec.Struct, frozen=True, gc=False):
    """A run of older steps as bytes: its first step's game (the one it keeps), and each
    step's event, device, time and how it follows, compressed (``rules.table.steps``). As
    objects they took ten times the bytes: on a long game, most of a held table."""

    kept: Game | None
    data: bytes
    oldest: int  # the seq of its first step: a search by seq passes a run it cannot hold
    kinds: int  # a bit for each kind of event it holds: so does a search for a kind
    previous: "Step | Packed | None"


#: A step keeps its game before it at least once in this many, and after an undo whose turn
#: changed the game: an undo folds at most this many events again (0.13 ms for 31 in
#: ``bench.replay``'s game), and that game's 1,388 standing steps at 2,000 events keep 44.
CHECKPOINT = 32
#: The games before this many of the newest steps are at hand too (``State.recent``):
#: undoing the latest line, or the two latest, folds nothing again.
RECENT = 2


class State(msgspec.Struct, frozen=True, gc=False):
    """A table: the current game, the last sequence number, and the steps that made it."""

    seq: int = 0
    game: Game | None = None
    steps: Step | None = None
    warnings: tuple[Notice, ...] = ()  # odd events outside any game
    seating: Seating = Seating()
    # A simultaneous's own log (never a table's): its sealed games and centres. No view of
    # a table is made of it; ``server.simultaneous`` serves what may be seen.
    simultaneous: Simultaneous | None = None
    # The seq of the newest step whose event, folded as a turn into the game before it, made
    # ``game`` as it stands; 0 when something else changed it since (an undo's own turn).
    folded: int = 0
    # The games before the newest steps, newest first, ``RECENT`` at most: what the common
    # undos go back to, at hand (a step that folds its game again would fold up to
    # ``CHECKPOINT`` events for it).
    recent: tuple[Game, ...] = ()
