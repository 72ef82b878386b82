"""The ids of a table's last commands, each with the last seq it recorded: a phone that lost
the answer sends its command again within minutes, and gets it as the first time without
the store (whose own map answers later retries).

An id is kept as its ``hash``, 8 bytes in a bytearray that ``find`` searches in C: 16 bytes a
command with its seq, where a dict of the ids took about 125, which on a long game was a
seventh of a held table (``bench.held``). Two ids share a hash once in 2⁶⁴; str hashes are
keyed afresh in each process, so no phone can make its id collide with another's.
"""

from array import array

HELD = 1_024  # commands whose ids are held: the newest replace the oldest
_SIZE = 8  # bytes of a hash


def _key(command: str) -> bytes:
    return hash(command).to_bytes(_SIZE, "little", signed=True)


class Retries:
    """The last ``HELD`` command ids, as their hashes, and the last seq each recorded."""

    __slots__ = ("_hashes", "_next", "_seqs")

    def __init__(self) -> None:
        self._hashes = bytearray()  # grows to HELD hashes, then a new one takes the oldest's place
        self._seqs = array("q")
        self._next = 0  # where the next new id goes once they are HELD

    def add(self, command: str, seq: int) -> None:
        """``command`` recorded up to ``seq``: a command of several events comes once each."""
        key = _key(command)
        newest = (self._next or len(self._seqs)) - 1
        if newest >= 0 and self._hashes[newest * _SIZE : (newest + 1) * _SIZE] == key:
            self._seqs[newest] = seq
        elif len(self._seqs) < HELD:
            self._hashes += key
            self._seqs.append(seq)
        else:
            self._hashes[self._next * _SIZE : (self._next + 1) * _SIZE] = key
            self._seqs[self._next] = seq
            self._next = (self._next + 1) % HELD

    def seq(self, command: str) -> int | None:
        """The last seq ``command`` recorded, when it is one of the last ``HELD``; else None."""
        key = _key(command)
        at = self._hashes.find(key)
        while at > 0 and at % _SIZE:  # found across two hashes: look on
            at = self._hashes.find(key, at + 1)
        return None if at < 0 else self._seqs[at // _SIZE]
