"""The shell around ``rules``: the command line now; the table server comes next."""
