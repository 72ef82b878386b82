"""Duplicate: every player the same rack against the top, at a table or in the director's room."""
