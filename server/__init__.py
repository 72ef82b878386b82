"""The shell around ``rules``: the HTTP and websocket server, the live sheets, the tables held
in memory, the stores, the jobs that run on their own, and the command line."""
