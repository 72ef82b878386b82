"""The board and its tiles: text → tiles, squares, placement, scoring, the word check and the
bag.
"""
