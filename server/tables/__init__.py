"""Tables in a server process: held in memory, joined, commanded."""
