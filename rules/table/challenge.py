"""The challenge of the latest move at a physical table (issue 27, docs/decisions.md).

A player challenges the move on the sheet's newest line; the server judges its words, main
and cross words alike, against the table's list, and records the verdict
(``ChallengeJudged``) with the rule set's consequence as lines of their own, in one append:

- ``free`` (house, PFS): an invalid move is withdrawn — 0 points, the turn lost; a wrong
  challenge costs nothing (Mattel FED-MAT-06, PFS FED-PFS-09);
- ``double`` (NASPA): withdrawn; a wrong challenger loses a turn, written as a pass;
- ``single`` (WESPA): withdrawn; a valid play challenged earns its player
  ``challenge_penalty`` points, a bonus line;
- ``percent`` (FIGS art. 30, FED-FIGS-07): withdrawn, and 20 % of its points off; a wrong
  challenge costs the challenger 10 % of the move's points;
- ``jury`` (SBNL III.10): only the host, the arbiter, has a move checked; an invalid word costs
  its points plus ``challenge_penalty`` and stays;
- ``none`` (online play, duplicate): refused, ``no_challenge``.

A withdrawn move is taken off the sheet by the verdict itself (``lines.taken_back``), not by a
``LineUndone``: the reducer cannot stand a struck line up again, and an undo of the challenge
must give the move back. So the verdict and its consequence are struck together, and the
game is then the one before the challenge (``strike``).
"""

from msgspec.structs import replace

from editions import codebook
from events import commands as c
from events.events import (
    ChallengeJudged,
    Passed,
    PenaltyGiven,
    Recorded,
    TableEvent,
    WordWithdrawn,
)
from rules.board.wordcheck import Contains, Word, invalid_words
from rules.table import lines
from rules.table.decisions import player, refuse
from rules.table.lines import Odd
from rules.table.rulesets import RuleSet, figs_penalty
from rules.table.state import Game, Line, State, Verdict

#: FIGS art. 30 (FED-FIGS-07): an invalid move costs 20 % of its points, a challenge without
#: ground 10 % of the challenged move's.
INVALID_PERCENT = 20
UNFOUNDED_PERCENT = 10
#: The rule sets whose invalid move leaves the board (all but the jury's, where it stays).
_WITHDRAWN = frozenset({"free", "double", "single", "percent"})


def decide(game: Game, command: c.Challenge, contains: Contains | None) -> tuple[TableEvent, ...]:
    """The verdict on the move ``command`` challenges, and its consequence; raises GameError
    (``no_challenge``, ``already_challenged``, ``nothing_to_challenge``, ``no_such_player``,
    ``own_move``, ``no_word_list``). The challenger left out is the player to move: the
    mover's opponent in a game of two."""
    rules = game.rules
    if rules.challenge == "none":
        raise refuse(f"{rules.name} have no challenge", codebook.NO_CHALLENGE, rules=rules.code)
    move = _challenged(game, command.line)
    challenger = player(game, command.player)
    if challenger == move.player:
        raise refuse("a player does not challenge their own move", codebook.OWN_MOVE)
    if contains is None:
        raise refuse(
            f"{game.edition.code} has no word list to judge by",
            codebook.NO_WORD_LIST,
            edition=game.edition.code,
        )
    bad = invalid_words(game.edition, _words(game, move), contains)
    judged = ChallengeJudged(move.seq, challenger, move.player, not bad, ", ".join(bad))
    return (judged, *consequence(rules, move, judged))


def _challenged(game: Game, seq: int) -> Line:
    """The move at line ``seq``, the sheet's newest line, not challenged yet; refused else."""
    if any(verdict.line == seq for verdict in game.challenges):
        raise refuse(f"line {seq} was challenged already", codebook.ALREADY_CHALLENGED)
    newest = game.lines[-1] if game.lines else None
    if newest is None or newest.seq != seq or newest.kind != "move" or not newest.words:
        # A line of points typed by hand has no words to judge; an older move is past.
        raise refuse(f"line {seq} is not the latest move", codebook.NOTHING_TO_CHALLENGE)
    return newest


def _words(game: Game, move: Line) -> list[Word]:
    """Every word of the move: a board move's as its tiles lie on the board (exact for a
    multi-letter tile), a typed move's as it was typed."""
    board = game.board
    if board is None or not move.from_board:
        return [w.word for w in move.words]
    return [board.word_at(w.start, w.direction) for w in move.words]


def consequence(rules: RuleSet, move: Line, judged: ChallengeJudged) -> tuple[TableEvent, ...]:
    """The lines the verdict ``judged`` on ``move`` brings under ``rules``; their penalties
    name the challenged line (the verdict's own seq is the store's to give)."""
    kind, paid = rules.challenge, rules.challenge_penalty
    if not judged.valid:
        if kind == "jury":  # FED-SBNL-06: the turn's score plus 20, the word stays
            return (PenaltyGiven(judged.player, move.points + paid, challenge=move.seq),)
        withdrawn = WordWithdrawn(judged.player)
        if kind == "percent":
            share = figs_penalty(move.points, INVALID_PERCENT)
            return (withdrawn, PenaltyGiven(judged.player, share, challenge=move.seq))
        return (withdrawn,)
    if kind == "double":  # the challenger's turn goes by, written as a pass (GCG writes "-")
        return (Passed(judged.challenger),)
    if kind == "single":  # a bonus to the challenged player, as WESPA records write it
        return (PenaltyGiven(judged.player, -paid, challenge=move.seq),)
    if kind == "percent":
        share = figs_penalty(move.points, UNFOUNDED_PERCENT)
        return (PenaltyGiven(judged.challenger, share, challenge=move.seq),)
    return ()


def evolve(game: Game, event: ChallengeJudged, seq: int) -> Game:
    """The sheet after the verdict: the challenge on it and, when the rule set withdraws an
    invalid move, the move taken off (its consequence's lines follow as events of their
    own); odd when the line is not the newest move, or was challenged already."""
    lines.check_open(game)
    challenger, mover = lines.seat(game, event.challenger), lines.seat(game, event.player)
    if any(verdict.line == event.line for verdict in game.challenges):
        raise Odd(codebook.ALREADY_CHALLENGED)
    move = game.lines[-1] if game.lines else None
    if move is None or move.seq != event.line or move.kind != "move" or move.player != mover:
        raise Odd(codebook.NOTHING_TO_CHALLENGE)
    follows = len(consequence(game.rules, move, event))
    verdict = Verdict(
        seq,
        event.line,
        challenger,
        mover,
        event.valid,
        tuple(w.word for w in move.words),
        move.points,
        tuple(event.bad.split(", ")) if event.bad else (),
        tuple(range(seq + 1, seq + 1 + follows)),
    )
    if not event.valid and game.rules.challenge in _WITHDRAWN:
        game = lines.taken_back(game, move)
    return replace(game, challenges=(*game.challenges, verdict))


def struck_with(game: Game, seq: int) -> tuple[int, ...]:
    """The lines struck together with line ``seq`` when it is a challenge's verdict or one of
    its consequence's lines, newest first; () for a line that stands alone."""
    for verdict in game.challenges:
        together = (verdict.seq, *verdict.consequences)
        if seq in together:
            return tuple(reversed(together))
    return ()


def strike(state: State, line: Recorded) -> tuple[int, ...]:
    """The lines an undo of ``line`` strikes: a challenge with its consequence, which gives
    a withdrawn move back; any other line alone."""
    together = struck_with(state.game, line.seq) if state.game is not None else ()
    return together or (line.seq,)
