"""Compact word lists per language with ``contains(word)`` (arrives with the word lists)."""
