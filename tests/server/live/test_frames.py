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
    "classic-60": "3d52c49767494e4f3b2a499f399c0f0b93ca09baec540213bfdd733987560966",
    "classic-400": "1c3f53c16dae9c900135f9618b017a4d67dda38ddddaca31b8c7a901d012d241",
    "classic-2000": "371c6faa41baec42b092d6fa53648e1362986ac9736f53de52d222d4bc584b32",
    "online": "756f923ac617cf6de51db8e26bf5e13fba22215c6dae073f711c4d5bd8ad99c5",
    "room": "21213f715918f3ca5df88e7f07aba76a056a6ab765de829c4cc5b55a434486d7",
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
