"""GCG game records, read into events and written from a classic game."""
