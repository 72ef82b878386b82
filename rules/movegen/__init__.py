"""Every legal move for a board, a rack and a word graph (``rules.movegen.moves``), its search
compiled.
"""
