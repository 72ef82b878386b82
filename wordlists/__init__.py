"""Compact word lists per language with ``contains(word)``; built by ``python -m wordlists build``.

>>> import wordlists
>>> wordlists.get("pl").contains("źdźbło"), wordlists.get("woordstrijd").contains("loopt")
(True, True)
"""

from wordlists.lexicon import Lexicon, UnknownLanguage, available, get

__all__ = ["Lexicon", "UnknownLanguage", "available", "get"]
