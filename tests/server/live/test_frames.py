"""The frames phones are sent, held byte for byte: recorded logs of every mode (classic games
of 60, 400 and 2,000 events, an online game, a duplicate room) folded event by event, every
audience's change and, now and then, its whole state hashed. A refactoring that changes one
byte a phone receives fails here; a deliberate change of the frames updates the digests."""

import gzip
import hashlib
from pathlib import Path

import pytest

from events.events import Recorded, decode
from server.tables.live import Live, ViewKey

LOGS = Path(__file__).parents[2] / "fixtures" / "logs"
WHOLE_EVERY = 25  # seqs between two whole states hashed besides the changes

DIGESTS = {
    "classic-60": "f034f135178533f67b9672713cfc87b573eabbca5cf6c266db1963ca2b5c1d41",
    "classic-400": "e528f453afe7daa1c843f1679a1a843fbcdd51f81c74f4463692f6c94c071b8b",
    "classic-2000": "86b41bd9c1055438929f8a5980de8b460eabc9873c1df6a800d36172647a273a",
    "online": "a9301842f35bd9353462c9eb4e3bf08665af21fc75a8c5be6b2e5f6f94d06fdb",
    "room": "304dda98da43e0eb6bc546dc83986067482aae2954adbdd357c111cebab2a941",
}


def read_log(name: str) -> list[Recorded]:
    """A committed log (``tests/fixtures/logs``), one recorded event per line."""
    with gzip.open(LOGS / f"{name}.jsonl.gz") as lines:
        return [decode(line) for line in lines]


def keys(live: Live) -> list[ViewKey]:
    """Every view a phone may have of the table: the host's, a member's, each seat's."""
    game = live.state.game
    seats = range(len(game.players)) if game is not None else range(0)
    return list(
        dict.fromkeys(
            [("host", None), ("member", None), ("waiting", None)]
            + [live.key("member", s) for s in seats]
            + [live.key("host", s) for s in seats]
        )
    )


def frames_digest(log: list[Recorded]) -> str:
    digest = hashlib.sha256()
    live = Live()
    for record in log:
        live.fold((record,))
        for key in keys(live):
            for after in (
                (record.seq - 1, -1) if record.seq % WHOLE_EVERY == 0 else (record.seq - 1,)
            ):
                frame = live.frame(key, after)
                digest.update(repr(key).encode())
                digest.update(frame.encode() if isinstance(frame, str) else frame)
    return digest.hexdigest()


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_every_frame_of_a_recorded_log_is_byte_identical(name: str) -> None:
    assert frames_digest(read_log(name)) == DIGESTS[name]
