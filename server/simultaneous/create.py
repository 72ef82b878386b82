"""A simultaneous created: its games sealed in a thread, then recorded in its own log.

The simultaneous is a log in the store like a table's (its own id and hash tag, so on a
Redis Cluster it lives on its own shard, apart from its centres) with a join code for the
club directors and the organiser's token; no route serves it as a table.
"""

import asyncio
import secrets

import editions
from editions import codebook
from editions.errors import GameError
from events.events import GameSealed, SimultaneousCreated, TableEvent
from rules.simultaneous.seal import seal
from rules.table import rulesets
from rules.table.state import State
from server.simultaneous.messages import MAX_GAMES, Created, CreateSimultaneous
from server.tables.commands import Tables, word_graph


async def create(tables: Tables, wanted: CreateSimultaneous) -> Created:
    """A new simultaneous with every game sealed; raises GameError (``unknown_edition``,
    ``unknown_rules``, ``rules_not_for_mode``, ``no_word_list``, ``bad_schedule``)."""
    edition = editions.get(wanted.edition)
    rules = rulesets.get(wanted.rules)
    if not rules.duplicate or rules.rack_rule is None:
        raise GameError(
            f"{rules.code} is no duplicate room's rule set",
            code=codebook.RULES_NOT_FOR_MODE,
            mode="duplicate",
            rules=rules.code,
        )
    if any(w.closes <= w.opens for w in wanted.games) or len(wanted.games) > MAX_GAMES:
        raise GameError(
            "every game needs a window that closes after it opens",
            code=codebook.BAD_SCHEDULE,
            max=MAX_GAMES,
        )
    graph = await asyncio.to_thread(word_graph, edition.code)
    if graph is None or edition.layout is None:
        raise GameError(
            f"{edition.code} has no word list to find the tops",
            code=codebook.NO_WORD_LIST,
            edition=edition.code,
        )
    sealed = [
        await asyncio.to_thread(seal, edition.code, rules.code, _seed, graph) for _ in wanted.games
    ]
    events: tuple[TableEvent, ...] = (
        SimultaneousCreated(wanted.name.strip(), edition.code, rules.code, wanted.schedule),
        *(
            GameSealed(index, window.opens, window.closes, rounds)
            for index, (window, rounds) in enumerate(zip(wanted.games, sealed, strict=True))
        ),
    )
    table, token = await tables.create()

    def recording(state: State) -> tuple[tuple[TableEvent, ...], str]:
        return events, "host"

    await tables.record(table.id, recording, f"simultaneous:{table.id}")
    return Created(table.id, table.code, token, len(wanted.games))


def _seed() -> str:
    return secrets.token_hex(16)
