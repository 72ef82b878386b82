"""The simultaneous: one sealed duplicate game (or a series of them) played in many rooms.

The server draws every rack of a game once and finds every top once (``seal``); the game's
log holds them and no phone's view ever does. A room joins as a centre (``centre``) and
each round's rack is revealed to it only when its director opens the round there, the top
only when the round closes there. The standings across centres and games (``standings``)
are a projection folded from the centres' own logs, and the published results
(``results``) come from the same projection once a game's window has closed.
"""
