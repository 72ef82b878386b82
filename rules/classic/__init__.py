"""The classic score sheet of 2–4 players: its settlement at the end."""
