"""The table of modes: each way to play and the record of its rules (``ModeRules``).

Adding a mode is a package of its own under ``rules`` and one line here (and its value in
``events.events.Mode``); the fold, the decider, the views and the seating find it here.
"""

from collections.abc import Mapping

from events.events import Mode
from rules.classic.mode import RULES as CLASSIC
from rules.online.mode import RULES as ONLINE
from rules.room.mode import RULES as DUPLICATE
from rules.table.mode import ModeRules
from rules.table.state import Game

MODES: Mapping[Mode, ModeRules] = {rules.mode: rules for rules in (CLASSIC, DUPLICATE, ONLINE)}


def of(game: Game) -> ModeRules:
    """The rules of ``game``'s mode."""
    return MODES[game.mode]
