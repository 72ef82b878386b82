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
    "classic-60": "765ff69bef0f325fc992ef6e9e081a67434a37ae7c96d551f1345c0881153432",
    "classic-400": "011c6d04b89c180b5423346f024e3cac1ff1ba4e336f28cdb0653ef2a82d2e8c",
    "classic-2000": "6d38e27beaabb5f9b25a7be6942891534967140e2d1f279f2a5074f163085189",
    "online": "2321681a1bec3f7b8991a66835c4f4d46e2311e5c28b02498d6eee4b76ba4f16",
    "room": "0717fc82a23448ddc868603bf15d08a32f78f34708469210a629ee9369441ae8",
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
