"""What the server does on its own: online time-outs, the computer's turns, retention."""
