"""Counting the runs of steps a search opens (``rules.table.steps``): what tells a search
that passes packed runs by their kind from one that unpacks them all."""

from collections.abc import Iterator
from contextlib import contextmanager
from unittest.mock import patch

from rules.table import steps
from rules.table.state import Packed, Step


@contextmanager
def counted_opens() -> Iterator[list[int]]:
    """The oldest seq of every run opened inside the block, in the order opened."""
    opens: list[int] = []
    real = steps._opened

    def counting(packed: Packed) -> Step:
        opens.append(packed.oldest)
        return real(packed)

    with patch.object(steps, "_opened", counting):
        yield opens
