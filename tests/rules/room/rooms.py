"""A duplicate room in memory for the rules tests: a small word list, the director, and
commands decided as the server decides them (the top searched first, then handed over)."""

import json

import msgspec

import editions
from events import commands as c
from events.events import GameStarted, Recorded
from rules.room import tops
from rules.table.decide import decide
from rules.table.permissions import Actor
from rules.table.reducer import evolve, replay
from rules.table.views import view
from wordlists.graph import Graph

NL = editions.get("nl")
WORDS = {"PLANK", "KRAAN", "KAN", "KANS", "RAS", "RAN", "EN", "EEN", "NEE", "AS", "KAAS"}
GRAPH = Graph.from_words(NL, WORDS)
HOST = Actor("host", None, "host")


class Room:
    """A duplicate table: its state, its log, and commands decided as the server does."""

    def __init__(self, players: int = 3, rules: str = "duplicate") -> None:
        names = ("Ann", "Bob", "Cas")[:players]
        self.log = [Recorded(1, GameStarted("nl", "duplicate", rules, names))]
        self.state = replay(self.log)
        self.at = 1_000

    def __call__(self, command: c.TableCommand, actor: Actor | None = None, **kw: object):
        searched = tops.needed(self.state, command)  # found first, as the server does
        events = decide(
            self.state,
            command,
            at=self.at,
            actor=actor,
            seed=str(kw.get("seed", "")),
            contains=WORDS.__contains__,
            top=tops.find(searched, GRAPH) if searched is not None else None,
        )
        for event in events:
            self.log.append(Recorded(len(self.log) + 1, event, at=self.at))
            self.state = evolve(self.state, self.log[-1])
        return events

    @property
    def game(self):
        assert self.state.game is not None
        return self.state.game

    def turn(self, player: int) -> c.Turn:
        return c.Turn(self.game.started, player, len(self.game.rounds) - 1)

    def slip(self, player: int, word: str, start: str, direction: str = "down", **kw: object):
        seat = Actor("player", player, f"d{player}")
        command = c.SubmitSlip(word, start, direction, turn=self.turn(player))
        return self(command, seat, **kw)

    def view_json(self, seat: int | None) -> dict:
        audience = "host" if seat is None else "member"
        return json.loads(msgspec.json.encode(view(self.state, audience, seat)))


def plank_room(players: int = 3, rules: str = "duplicate") -> Room:
    """A room after a first round whose typed rack PLANKES laid PLANK at H4 (K on H8), with
    the rack RAANKSE typed for round 2."""
    room = Room(players, rules)
    room(c.SetRack("PLANKES"))
    room(c.RecordTop(c.BoardMove("H4", "across", "PLANK"), round=0))
    room(c.SetRack("RAANKSE", round=1))
    return room
