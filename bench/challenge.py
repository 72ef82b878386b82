"""How long a challenge takes to answer: from a phone sending it to the verdict on another
phone at the table, against a real ``tilestream serve`` over SQLite.

Run: ``python -m bench.challenge`` (about 5 s) or ``python -m bench.challenge --rounds 50``.

A classic table under house rules with two seats and a room display (a viewer), each a
websocket of its own (``bench.room_phones``). Turn by turn a seat records a typed move — KOK,
which the Dutch list has, and KXK, which it lacks, in turn — and the other seat challenges it:
the server looks the move's words up in the edition's real list (OpenTaal), records the
verdict with its consequence (nothing for a valid word, the word withdrawn for KXK) and
every phone gets the change. A sample is the time from the command leaving the
challenger's socket to the frame with the verdict's seq arriving on the display; the
baseline, in the same run and on the same table, is the move just before it, timed the same
way (``× base`` is a median over the baseline's). A few rounds are played first, unmeasured:
the server loads the list on the first challenge.

The machine's load average (``/proc/loadavg``) is printed before and after: the server, the
client and whatever else runs share its cores.
"""

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.room_phones import Phone, everyone
from bench.serving import Api, ServerProcess, new_address
from bench.timing import Figures, load_average

PLAYERS = ("Ann", "Bob")
WORDS = ("KOK", "KXK")  # in the list, not in it: a valid verdict, then a withdrawn word
WARM = 4  # rounds before the measured ones


def typed(word: str) -> list[list[list[str]]]:
    """A typed move of one word, as the calculator sends it: tiles, no premiums."""
    return [[[letter] for letter in word]]


class Table:
    """The two seats' phones and the display, and the turns each seat has taken."""

    def __init__(self, server: ServerProcess) -> None:
        api = server.api()
        made = api.create_table()
        start = {"type": "start_game", "edition": "nl", "players": list(PLAYERS)}
        assert api.command(made["table"], made["token"], "start", start).status == 200
        self.started = api.seq(made["table"], made["token"])
        tokens = [Api(server.url, new_address()).join(made["code"], "player", seat)["token"]
                  for seat in range(len(PLAYERS))]  # fmt: skip
        viewer = Api(server.url, new_address()).join(made["code"], "viewer")["token"]
        self.seats = [Phone(server.ws_url, made["table"], t, s, keep=False)
                      for s, t in enumerate(tokens)]  # fmt: skip
        self.display = Phone(server.ws_url, made["table"], viewer, None, keep=False)
        self.taken = [0] * len(PLAYERS)
        self.ids = iter(range(1_000_000))

    @property
    def phones(self) -> list[Phone]:
        return [*self.seats, self.display]

    async def timed(self, phone: Phone, command: dict[str, Any]) -> tuple[int, float]:
        """Send ``command`` from ``phone``; its seq and the ms until the display had it."""
        command_id = f"c{next(self.ids)}"
        sent = await phone.command(command_id, command)
        _, answer = await phone.answer(command_id)
        if answer.type != "accepted":
            raise RuntimeError(f"{command['type']} refused: {answer.code}")
        await everyone(self.phones, answer.seq)
        return answer.seq, 1000 * (self.display.reached(answer.seq) - sent)

    async def round(self, number: int) -> tuple[float, float, bool]:
        """A move and its challenge: ms for each, and whether the word was valid."""
        mover = number % len(PLAYERS)
        word = WORDS[number // len(PLAYERS) % len(WORDS)]  # each seat plays both, in turn
        turn = {"game": self.started, "player": mover, "number": self.taken[mover]}
        self.taken[mover] += 1
        move = {"type": "record_move", "typed": typed(word), "turn": turn}
        line, moved = await self.timed(self.seats[mover], move)
        challenger = (mover + 1) % len(PLAYERS)
        verdict = {"type": "challenge", "line": line, "player": challenger}
        _, judged = await self.timed(self.seats[challenger], verdict)
        return moved, judged, word == WORDS[0]


async def measure(
    server: ServerProcess, rounds: int
) -> tuple[list[float], list[float], list[bool]]:
    table = Table(server)
    for phone in table.phones:
        await phone.open()
    await everyone(table.phones, table.started)
    for number in range(WARM):
        await table.round(number)
    moves, challenges, valid = [], [], []
    for number in range(WARM, WARM + rounds):
        moved, judged, ok = await table.round(number)
        moves.append(moved)
        challenges.append(judged)
        valid.append(ok)
    for phone in table.phones:
        assert phone.ws is not None
        await phone.ws.close()
    return moves, challenges, valid


def row(figures: Figures, baseline: Figures) -> str:
    ratio = figures.median / baseline.median
    return f"{figures.name:<58} {figures.median:>9.2f} {figures.p99:>9.2f} {ratio:>7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.challenge", description=__doc__)
    parser.add_argument("--rounds", type=int, default=200, help="challenges measured")
    args = parser.parse_args()
    before, began = load_average(), time.monotonic()
    with tempfile.TemporaryDirectory() as data, ServerProcess(Path(data)) as server:
        moves, challenges, valid = asyncio.run(measure(server, args.rounds))
    after = load_average()
    baseline = Figures("baseline: a recorded move, send → the display's frame (ms)", moves)
    rows = [
        baseline,
        Figures("challenge, send → the display's frame with the verdict (ms)", challenges),
        Figures("  of which valid: the move stands (ms)",
                [t for t, ok in zip(challenges, valid, strict=True) if ok]),
        Figures("  of which not valid: the word withdrawn (ms)",
                [t for t, ok in zip(challenges, valid, strict=True) if not ok]),
    ]  # fmt: skip
    print(
        f"challenge answer time: {args.rounds} challenges after {WARM} unmeasured rounds, one"
        f" table of two seats and a display, SQLite, {os.cpu_count()} cores shared by the"
        f" server and the client; load average (1/5/15 min) {before} before, {after} after"
    )
    print(f"{'measurement':<58} {'median':>9} {'p99':>9} {'× base':>7}")
    for figures in rows:
        print(row(figures, baseline))
    spread = statistics.median(challenges) - statistics.median(moves)
    took = time.monotonic() - began
    print(f"a challenge costs {spread:+.2f} ms over a move (medians); the run took {took:.0f} s")


if __name__ == "__main__":
    main()
