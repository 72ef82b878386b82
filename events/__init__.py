"""Every event and command of a table as a msgspec Struct (arrives with the event log)."""
