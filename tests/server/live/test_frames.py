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
    "classic-60": "c3d8dae8dee299edf57060e47505d010ecd6b85867901f9d29690c3829ee5d12",
    "classic-400": "3f140fff1a2129cfa04f7ce0eb49ef7bae53229ac3201cbf1993228a30c1ec2a",
    "classic-2000": "cad41a834ec41d676bb2aa00ddd7110561ac2d8c3117b34add935d02bb35c7f9",
    "online": "e5a7b974087cf6794c62d180be96fc837f2df6dbf2f03131d701e6269b449d79",
    "room": "ed383491e4ba2716faa755af0f9d03c03bc88abe10c85ce5c32341600239614b",
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
