"""What every mode shares: the state, the fold and undo, the decider, seating, permissions,
views, rule sets — and the table of modes (``modes``) they dispatch on.
"""
