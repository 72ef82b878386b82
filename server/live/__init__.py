"""Live sheets: the websocket messages, the follower per table, the changes sent to phones."""
