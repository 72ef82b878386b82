"""Python's cycle collector kept off the server's path.

Measured under ``bench.fanout``'s load (400 phones, 1,000 commands a second and as many as a
process records, Redis), with Python's defaults: 1,100 young collections, a hundred middle
ones and nine full ones of 33 ms each (37 ms at worst) in 17 s, 0.6 s in all: a pause every
phone at every table waits through, while nearly everything they walk lives as long as the
server (the modules, the editions, numba's and numpy's machinery) or is not tracked at all
(a table's state is made of ``gc=False`` Structs).

So, once start-up is done, what it made is collected and frozen (``gc.freeze``: no
collection walks it again) — full collections then took 15 ms — and a collection starts
only after 20,000 new objects (700 by default), a full one after 100 of those: most of
what a command makes (frames, views, coroutines) is gone before anything looks. The same
load then saw some 110 young collections, ten middle ones and one full one (13–21 ms),
about 60 ms in all.
"""

import gc

YOUNG = 20_000  # tracked objects made (less those freed) before a young collection
MIDDLE = 10  # young collections before a middle one
FULL = 100  # middle collections before a full one (which also waits for a quarter more)


def settle() -> None:
    """Collect what start-up left behind, freeze the rest for the server's life, and make
    collections rare."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL)
