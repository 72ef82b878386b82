"""The ids of a table's last commands, each with the last seq it recorded: a phone that lost
the answer sends its command again within minutes, and gets it as the first time without
the store (whose own map answers later retries).

An id is kept as its ``hash``, in an array: 16 bytes a command where a dict of the ids took
about 125, which on a long game was a seventh of a held table (``bench.held``). Two ids
share a hash once in 2⁶⁴; str hashes are keyed afresh in each process, so no phone can make
its id collide with another's.
"""

from array import array

HELD = 1_024  # commands whose ids are held: the newest replace the oldest


class Retries:
    """The last ``HELD`` command ids, as their hashes, and the last seq each recorded."""

    __slots__ = ("_hashes", "_seqs", "_next")

    def __init__(self) -> None:
        self._hashes = array("q")  # grows to HELD, then each new id takes the oldest's place
        self._seqs = array("q")
        self._next = 0  # where the next new id goes once the arrays are full

    def add(self, command: str, seq: int) -> None:
        """``command`` recorded up to ``seq``: a command of several events comes once each."""
        key = hash(command)
        newest = (self._next or len(self._hashes)) - 1
        if newest >= 0 and self._hashes[newest] == key:
            self._seqs[newest] = seq
        elif len(self._hashes) < HELD:
            self._hashes.append(key)
            self._seqs.append(seq)
        else:
            self._hashes[self._next] = key
            self._seqs[self._next] = seq
            self._next = (self._next + 1) % HELD

    def seq(self, command: str) -> int | None:
        """The last seq ``command`` recorded, when it is one of the last ``HELD``; else None."""
        try:
            return self._seqs[self._hashes.index(hash(command))]
        except ValueError:
            return None
