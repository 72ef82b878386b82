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
    "classic-60": "f393881975ab46b91e1f657e4a700420f1e2ed721e4c01803d3dd3c5b67e5b82",
    "classic-400": "fb5142ac4f6cf32fce718dcf8e9d519bdf5deff7a4ba220e498aa8827ffbd7ae",
    "classic-2000": "ce93615d6cf1451d71bd3766de7e39762c8bfb163c55fc10b3990dc24b26d8ad",
    "online": "c85cc43b80244675da794f46ee708c92b3f242dc4aca2b4ba64f6a1b218aad32",
    "room": "5e0d4ed2c70e3c175948b1600024e14abc8109eabfdee9fa0f005f8bdedfa7c3",
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
                if frame is None:  # nothing but the seq changed for the key: nothing sent
                    digest.update(b"-")
                else:
                    digest.update(frame.encode() if isinstance(frame, str) else frame)
    return digest.hexdigest()


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_every_frame_of_a_recorded_log_is_byte_identical(name: str) -> None:
    assert frames_digest(read_log(name)) == DIGESTS[name]
