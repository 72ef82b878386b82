"""The event store behind every table: SQLite embedded, Redis Streams shared."""
