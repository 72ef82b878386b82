"""An immutable sequence that grows by one item without copying what it holds.

A game's sheet grows a line a turn, and every state the reducer makes is kept (undo goes
back to it). A tuple would be copied whole on every turn, so replaying a game would cost
the square of its length in time, and every kept state would hold its own copy.

A ``History`` is full chunks of ``CHUNK`` items, frozen as tuples and shared by every
history made from it, and a tail: the first few items of a list it shares with the longer
histories grown from it. Items under a history's length are never written again, so each
history is immutable. Growing past a full tail freezes it as one more chunk; growing a
history whose tail slot is taken already (an undo went back to it, then a new line came)
copies only the tail, so a branch costs at most ``CHUNK`` items, never the whole sheet.

>>> sheet = History[str]().plus("pass").plus("move")
>>> list(sheet), sheet[-1], sheet[:1], len(sheet.plus("points")), len(sheet)
(['pass', 'move'], 'move', ('pass',), 3, 2)
>>> sheet == ("pass", "move"), sheet.plus("points") == sheet.plus("pass")
(True, False)
"""

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import Generic, TypeVar, overload

T = TypeVar("T")

CHUNK = 32  # items a frozen chunk holds: a branch copies at most this many
_new = object.__new__


class History(Sequence[T], Generic[T]):
    """An immutable sequence with an O(1) ``plus``; equal to the tuple of its items."""

    __slots__ = ("_chunks", "_size", "_tail")

    _chunks: tuple[tuple[T, ...], ...]
    _tail: list[T]  # shared: only the first ``_size - CHUNK * len(_chunks)`` are this one's
    _size: int

    def __init__(self, items: Iterable[T] = ()) -> None:
        every = tuple(items)
        full = len(every) - len(every) % CHUNK
        self._chunks = tuple(every[i : i + CHUNK] for i in range(0, full, CHUNK))
        self._tail = list(every[full:])
        self._size = len(every)

    def _of(self, chunks: tuple[tuple[T, ...], ...], tail: list[T], size: int) -> "History[T]":
        made = _new(History)  # not through __init__, which copies what it is given
        made._chunks = chunks
        made._tail = tail
        made._size = size
        return made

    def plus(self, item: T) -> "History[T]":
        """This history with ``item`` after its last."""
        chunks, tail, size = self._chunks, self._tail, self._size
        used = size - CHUNK * len(chunks)
        if used == CHUNK:
            return self._of((*chunks, tuple(tail[:CHUNK])), [item], size + 1)
        if len(tail) == used:
            tail.append(item)
            # The list is shared: the slot is this history's only when no other append (a
            # thread's) came first; list.append is atomic, so the length says whose it is.
            if len(tail) == used + 1:
                return self._of(chunks, tail, size + 1)
        if tail[used] == item:  # the same line folded again (``rules.table.reducer.before``)
            return self._of(chunks, tail, size + 1)  # shares the slot's item, copies nothing
        copied = tail[:used]  # another history grew from this one already
        copied.append(item)
        return self._of(chunks, copied, size + 1)

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        """An item, or a slice as a tuple."""
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._size)))
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("history index out of range")
        chunk, at = divmod(index, CHUNK)
        if chunk < len(self._chunks):
            return self._chunks[chunk][at]
        return self._tail[at]

    def __iter__(self) -> Iterator[T]:
        used = self._size - CHUNK * len(self._chunks)
        return chain(chain.from_iterable(self._chunks), islice(self._tail, used))

    def __reversed__(self) -> Iterator[T]:
        return reversed(tuple(self))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            if self._tail is other._tail and self._chunks is other._chunks:
                return self._size == other._size
            return self._size == other._size and tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return self._size == len(other) and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"History({list(self)!r})"
