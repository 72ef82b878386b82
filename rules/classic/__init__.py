"""The classic score sheet of 2–4 players at a physical table: its rules as a mode."""
