"""A simultaneous over real server processes, for ``test_simultaneous``: the organiser's
HTTP calls, centres (a room, its director's and players' phones) that play the sealed
rounds over websockets with slips the test works out from the move generator, and a
journal of every frame and HTTP answer the test's clients received, to hold against the
sealed racks read from the store.
"""

import asyncio
import dataclasses
import functools
import itertools
import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import editions
import wordlists
from events.events import GameSealed, RackDrawn, Recorded, SealedRound, TopRecorded
from rules.board.board import Board
from rules.errors import GameError
from rules.movegen.moves import Move, generate
from rules.room import slips
from server.stores.redis_streams import RedisStore
from tests.server.serving import (
    WAIT,
    Message,
    Recording,
    Reply,
    ServerProcess,
    Table,
    new_address,
    read_log,
    request,
)

EDITION = editions.get("fr")
LEXICON = wordlists.get("fr")
HOUR = 3_600_000
_ids = (f"s{n}" for n in itertools.count())


def now_ms() -> int:
    return int(time.time() * 1000)


def next_id() -> str:
    return next(_ids)


# --- what the test's clients received ---------------------------------------------------


class Journal:
    """Every HTTP answer body the test received, with the room it is of (None: the
    organiser's or the public's) and which rounds that room had drawn by then; the phones
    keep their own frames (``Recording``)."""

    def __init__(self) -> None:
        self.answers: list[tuple[str | None, frozenset[int], str]] = []
        self.phones: list[tuple[Recording, Centre]] = []

    def call(
        self, server: ServerProcess, method: str, path: str, body: object = None,
        token: str | None = None, room: "Centre | None" = None,
    ) -> Reply:  # fmt: skip
        """One HTTP request from an address of its own, its answer journalled."""
        reply = request(server.url, method, path, body, token=token, source=new_address())
        drawn = frozenset(room.drawn) if room is not None else frozenset()
        self.answers.append((room.table.id if room else None, drawn, reply.body.decode()))
        return reply


def rack_forms(rack: str) -> tuple[str, ...]:
    """How a rack may stand in a frame or an answer: as the log writes it (a string) and as
    a view lists its tiles (French: a tile a letter, ``?`` a blank)."""
    return f'"{rack}"', json.dumps(list(rack), separators=(",", ":"))


def leaks(journal: Journal, sealed: dict[int, tuple[SealedRound, ...]]) -> list[str]:
    """Every sealed rack some client received before its room drew that round: a room's
    state or change of seq s may show the racks that room drew at seqs up to s; any other
    frame (the simultaneous's, answers) and every organiser or public answer none; a rack
    the same as one it may show is no leak. Racks under four tiles could be anything's text
    and are not looked for."""
    racks = [
        (game, number, form)
        for game, rounds in sealed.items()
        for number, round_ in enumerate(rounds)
        if len(round_.rack) >= 4
        for form in rack_forms(round_.rack)
    ]
    found = []
    for phone, centre in journal.phones:
        for text in phone.frames:
            message = json.loads(text)
            seq = message.get("seq", 0) if message["type"] in ("state", "change") else 0
            allowed = {n for n, at in centre.drawn.items() if at <= seq} if seq else set()
            # Two rounds may have the same rack (the top's tiles drawn again, in order):
            # the later one's is then the text of the one drawn, and no leak.
            shown = {f for g, n, f in racks if g == centre.game and n in allowed}
            for game, number, form in racks:
                if form in shown or form not in text:
                    continue
                found.append(f"{phone.name}@{centre.name}: round {number + 1} of game "
                             f"{game + 1} in {message['type']} {seq}: {text[:200]}")  # fmt: skip
    by_table = {centre.table.id: centre for _, centre in journal.phones}
    for table, drawn, text in journal.answers:
        game = by_table[table].game if table is not None else -1
        shown = {f for g, n, f in racks if g == game and n in drawn}
        for g, number, form in racks:
            if form in text and form not in shown:
                found.append(f"HTTP {table}: round {number + 1} of game {g + 1}: {text[:200]}")
    return found


def seen(journal: Journal, rack: str) -> bool:
    """Whether some phone was shown ``rack`` (once drawn): the form ``leaks`` looks for."""
    return any(form in text for phone, _ in journal.phones for text in phone.frames
               for form in rack_forms(rack))  # fmt: skip


async def sealed_racks(url: str, simultaneous: str) -> dict[int, tuple[SealedRound, ...]]:
    """The sealed rounds of every game, read from the simultaneous's log in the store."""
    log = await read_log(RedisStore(url), simultaneous)
    return {r.event.game: r.event.rounds for r in log if isinstance(r.event, GameSealed)}


# --- the organiser --------------------------------------------------------------------------


@dataclasses.dataclass
class Organiser:
    """A simultaneous made over HTTP, and the organiser's calls."""

    journal: Journal
    server: ServerProcess
    id: str
    code: str
    token: str

    @classmethod
    def create(
        cls, journal: Journal, server: ServerProcess, windows: list[tuple[int, int]]
    ) -> "Organiser":
        body = {"name": "Simultané de test", "edition": "fr",
                "games": [{"opens": o, "closes": c} for o, c in windows]}  # fmt: skip
        reply = journal.call(server, "POST", "/api/simultaneous", body)
        assert reply.status == 201, reply
        made = reply.json()
        assert made["games"] == len(windows)
        return cls(journal, server, made["id"], made["code"], made["token"])

    def get(
        self, path: str = "", token: str | None = None, on: ServerProcess | None = None
    ) -> Reply:
        return self.journal.call(on or self.server, "GET", f"/api/simultaneous/{self.id}{path}",
                                 token=token)  # fmt: skip

    def view(self, on: ServerProcess | None = None) -> dict[str, Any]:
        reply = self.get(token=self.token, on=on)
        assert reply.status == 200, reply
        view: dict[str, Any] = reply.json()
        return view

    def close(self, game: int) -> dict[str, Any]:
        reply = self.journal.call(self.server, "POST",
                                  f"/api/simultaneous/{self.id}/close?game={game}", {},
                                  token=self.token)  # fmt: skip
        assert reply.status == 200, reply
        view: dict[str, Any] = reply.json()
        return view

    async def until_closed(self, game: int, on: ServerProcess) -> None:
        """Wait until the process ``on`` holds game ``game``'s window as closed: another
        process than the one that closed it follows the simultaneous's log as it comes."""
        deadline = time.monotonic() + WAIT
        while not self.view(on=on)["games"][game - 1]["closed"]:
            assert time.monotonic() < deadline, f"{on.url} never saw game {game} closed"
            await asyncio.sleep(0.02)


# --- centres --------------------------------------------------------------------------------


@functools.cache
def moves(board: tuple[str, ...], rack: str) -> tuple[Move, ...]:
    """Every move of ``rack`` on the board (its 15 rows), best first."""
    return tuple(generate(Board.from_rows(EDITION, list(board)), rack, LEXICON.graph))


@functools.cache
def nonsense(board: tuple[str, ...], rack: str) -> dict[str, str] | None:
    """A slip that lies on the board from the rack but is no word: a move's word with two
    letters swapped; None when there is none."""
    laid = Board.from_rows(EDITION, list(board))
    for move in moves(board, rack)[:40]:
        word, start, direction = move.word, move.start.name, str(move.direction)
        for i in range(len(word) - 1):
            swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
            if swapped == word or not swapped.isalpha() or LEXICON.contains(swapped):
                continue
            try:
                slips.lay(laid, tuple(rack), swapped, start, direction)
            except GameError:
                continue
            return {"word": swapped, "start": start, "direction": direction}
    return None


def slip_of(move: Move) -> dict[str, str]:
    return {"word": move.word, "start": move.start.name, "direction": str(move.direction)}


async def send(phone: Recording, body: dict[str, Any], command_id: str = "") -> Message:
    """A command from ``phone``'s socket; the server's answer to it."""
    name = command_id or next_id()
    await phone.command(name, body)
    return await phone.answer(name)


def simultaneous_frames(phone: Recording) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, phone.frames) if m["type"] == "simultaneous"]


async def until_frame(
    phone: Recording, ready: Callable[[dict[str, Any]], bool], timeout: float = WAIT
) -> dict[str, Any]:
    """Receive until the phone's last ``simultaneous`` frame passes ``ready``; that frame.
    Fails with the last one seen when none comes in ``timeout`` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        frames = simultaneous_frames(phone)
        if frames and ready(frames[-1]):
            return frames[-1]
        left = deadline - asyncio.get_running_loop().time()
        try:
            await phone.receive(max(left, 0.01))
        except TimeoutError:
            raise AssertionError(f"{phone.name}: no such frame; last {frames[-1:]}") from None


@dataclasses.dataclass
class Centre:
    """A room at ``table`` joined as the centre ``name`` of game ``game`` (from 0): the
    director's phone and one phone a player, each on the server the test puts it."""

    journal: Journal
    name: str
    game: int
    table: Table
    director: Recording
    players: list[Recording]
    names: tuple[str, ...]
    totals: list[int]  # what the test expects of each player, from the slips it sent
    drawn: dict[int, int] = dataclasses.field(default_factory=dict)  # round → seq of its draw
    index: int = 0  # varies the slips from centre to centre

    @classmethod
    def open(
        cls, journal: Journal, name: str, names: tuple[str, ...], director: ServerProcess,
        players: list[ServerProcess], index: int = 0,
    ) -> "Centre":  # fmt: skip
        """A duplicate room opened as a club does (in Dutch, its players named), each player
        joined at their seat through the server of their phone."""
        start = {"type": "start_game", "edition": "nl", "mode": "duplicate", "players": names}
        table = Table.create(director, start=start)
        phones = []
        for seat, server in enumerate(players):
            token = table.on(server).join("player", seat)
            phone = Recording(names[seat], server.ws_url, table.id, token)
            phones.append(phone)
        host = Recording("director", director.ws_url, table.id, table.host)
        centre = cls(journal, name, -1, table, host, phones, names, [0] * len(names),
                     index=index)  # fmt: skip
        journal.phones += [(p, centre) for p in (host, *phones)]
        return centre

    @property
    def phones(self) -> list[Recording]:
        return [self.director, *self.players]

    async def connect(self) -> None:
        for phone in self.phones:
            assert (await phone.open()).type == "state"

    async def close(self) -> None:
        for phone in self.phones:
            await phone.close()

    async def join(self, organiser: Organiser, game: int) -> Message:
        """The director's join; the answer (accepted or refused)."""
        body = {"type": "join_simultaneous", "code": organiser.code, "game": game,
                "centre": self.name}  # fmt: skip
        answer = await send(self.director, body)
        if answer.type == "accepted":
            self.game = game
            await self.until(answer.seq)
        return answer

    async def until(self, seq: int) -> None:
        """Every phone of the room holds its view at ``seq``: what every phone is sent."""
        await asyncio.gather(*(p.until_seq(seq) for p in self.phones))

    @property
    def sheet(self) -> dict[str, Any]:
        sheet: dict[str, Any] = json.loads(self.director.view)["sheet"]
        return sheet

    async def draw(self, number: int, command_id: str = "") -> Message:
        answer = await send(self.director, {"type": "draw_rack", "round": number}, command_id)
        if answer.type == "accepted":
            await self.until(answer.seq)
            if self.sheet["rounds"][number]["rack"]:
                self.drawn[number] = answer.seq
        return answer

    async def slip(self, seat: int, number: int) -> int:
        """Player ``seat``'s slip for the open round, as the test plans it: a word of the
        list from the move generator, a word the list lacks, or nothing; the points it
        should score."""
        sheet = self.sheet
        board, rack = tuple(sheet["board"]), "".join(sheet["rounds"][number]["rack"])
        found = moves(board, rack)
        plan = (number + seat + self.index) % 3
        if plan == 0 and found:
            move = found[(number + seat) % min(len(found), 6)]
            slip, points = slip_of(move), move.score
        elif plan == 1 and (bad := nonsense(board, rack)) is not None:
            slip, points = bad, 0
        else:
            return 0
        turn = {"game": sheet["started"], "player": seat, "number": number}
        answer = await send(self.players[seat], {"type": "submit_slip", **slip, "turn": turn})
        assert answer.type == "accepted", (self.name, seat, slip, answer)
        return points

    async def close_round(self, number: int, command_id: str = "") -> Message:
        answer = await send(self.director, {"type": "close_round", "round": number}, command_id)
        assert answer.type == "accepted", (self.name, number, answer)
        await self.until(answer.seq)
        return answer

    async def play_round(self, number: int) -> bool:
        """Draw, slips, close; whether the game goes on. The room's cells are the points
        the test worked out for each slip."""
        drawn = await self.draw(number)
        assert drawn.type == "accepted", (self.name, number, drawn)
        if self.sheet["ended"]:
            return False
        points = [await self.slip(seat, number) for seat in range(len(self.players))]
        await self.close_round(number)
        sheet = self.sheet
        assert [s or 0 for s in sheet["rounds"][number]["scores"]] == points, (self.name, number)
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        return not sheet["ended"]

    async def play(self, start: int = 0) -> None:
        """Every round from ``start`` to the game's end."""
        for number in itertools.count(start):
            if not await self.play_round(number):
                break
        assert self.sheet["ended"]

    def record(self, server: ServerProcess | None = None) -> dict[str, Any]:
        """The room's own record (the director's), journalled."""
        reply = self.journal.call(server or self.table.server, "GET",
                                  f"/api/tables/{self.table.id}/record.json",
                                  token=self.table.host, room=self)  # fmt: skip
        assert reply.status == 200, reply
        record: dict[str, Any] = reply.json()
        return record


def expected_standings(centres: list[Centre]) -> dict[tuple[str, str], tuple[int, int, bool]]:
    """(centre, name) → (place, total, tied) across ``centres``, from each room's own
    record (which the test checks against the totals it worked out)."""
    totals: dict[tuple[str, str], int] = {}
    for centre in centres:
        record = centre.record()
        own = {r["name"]: r["total"] for r in record["results"]}
        assert own == dict(zip(centre.names, centre.totals, strict=True)), centre.name
        totals.update({(centre.name, name): total for name, total in own.items()})
    counts = Counter(totals.values())
    return {
        k: (1 + sum(t > total for t in totals.values()), total, counts[total] > 1)
        for k, total in totals.items()
    }


def shown(rows: list[dict[str, Any]]) -> dict[tuple[str, str], tuple[int, int, bool]]:
    """Standings rows as (centre, name) → (place, total, tied)."""
    return {(r["centre"], r["name"]): (r["place"], r["total"], r.get("tied", False)) for r in rows}


def percent_tenths(total: int, tops: int) -> int | None:
    return (total * 1000 + tops // 2) // tops if tops else None


def room_log_counts(log: tuple[Recorded, ...]) -> tuple[Counter[int], Counter[int]]:
    """How many racks and how many tops the room's log holds for each round."""
    racks: Counter[int] = Counter()
    tops: Counter[int] = Counter()
    number = -1
    for r in log:
        if isinstance(r.event, RackDrawn):
            number = r.event.round
            racks[number] += 1
        elif isinstance(r.event, TopRecorded):
            tops[number] += 1  # the top closes the round of the last rack
    return racks, tops
