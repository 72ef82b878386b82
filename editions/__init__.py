"""Tile sets, board layouts and alphabet rules of every edition, as data.

>>> import editions
>>> editions.get("nl").total_tiles
102
"""

from editions.edition import Edition, codes, get

__all__ = ["Edition", "codes", "get"]
