"""Every legal move for a board, a rack and a word graph, best first (Appel & Jacobson).

The lexicon enters as a ``WordGraph``: a DAWG over the edition's tiles as flat arrays,
which ``wordlists.graph`` builds from the committed lists or from a club's own list.
The search is Appel and Jacobson's "The World's Fastest Scrabble Program" (1988), as
macondo and wolges run it, one line (row or column) at a time:

* an *anchor* is an empty square next to a tile (the centre on an empty board); a move's
  new tiles cover at least one, and each move is found from the leftmost it covers;
* a *cross-check* is, per empty square, the bitmask of the letters that make a word
  with the tiles above and below it (across; left and right, down), computed once;
* a *left part* is what goes before an anchor: the tiles already there, or rack tiles on
  the free squares before it that touch nothing, which therefore need no check;
* from the anchor the word *extends right* through the graph, taking board tiles as
  they come and rack tiles (a blank as any letter) where the cross-check allows them.

A move's total is added up as it is found, from the same values and premium squares
``rules.scoring`` reads (letter premiums, then word premiums, under new tiles only; the
bingo bonus for exactly a full rack): ranking thousands of moves through ``Board.score``
would cost 25 µs each. ``Move.play`` is what ``Board.score`` takes for the formulas, and
the tests check that it gives every move the same total.
"""

import heapq
from collections.abc import Hashable, Iterable, Sequence
from typing import Protocol

import msgspec

from editions import codebook
from rules.board import Board
from rules.errors import NotationError
from rules.placement import Play
from rules.squares import SIZE, Direction, Square
from rules.tiles import Tile, parse_tiles

BLANK = "?"
_UNKNOWN = 63  # the code of a board letter no word has: no mask has bit 63


class WordGraph(Hashable, Protocol):
    """A lexicon as a graph of tiles; node 0 is the root (``wordlists.graph.Graph``).

    The child of ``node`` by letter ``code`` is
    ``targets[offsets[node] + popcount(masks[node] & ((1 << code) - 1))]`` when bit
    ``code`` of ``masks[node]`` is set; ``words[node]`` is nonzero where a word ends.
    """

    # Read-only (properties), so a graph may hold them as tuples or arrays.
    @property
    def letters(self) -> Sequence[str]:
        """Code → the tile letter ("A", "CH", "Ł"); at most 63."""

    @property
    def masks(self) -> Sequence[int]:
        """Node → the codes leaving it, one bit each."""

    @property
    def offsets(self) -> Sequence[int]:
        """Node → where its children start in ``targets``."""

    @property
    def targets(self) -> Sequence[int]:
        """Every node's children, in code order."""

    @property
    def words(self) -> Sequence[int]:
        """Node → 1 if the path from the root spells a word."""


class Move(msgspec.Struct, frozen=True, gc=False):
    """One legal move: its total, where its main word starts, which way, the word."""

    score: int
    start: Square  # the main word's first square (a tile already there, or a new one)
    direction: Direction
    word: str  # the main word in row notation, tiles already on the board included
    play: Play  # the new tiles, for ``Board.score`` (formulas) and ``Board.apply``

    @property
    def letters(self) -> str:
        """The new tiles in row notation: what ``Board.place(start, direction, …)`` takes."""
        return "".join(tile.notation for _, tile in self.play.tiles)


def parse_rack(board: Board, rack: str) -> tuple[Tile | None, ...]:
    """A rack in row notation, ``?`` a blank (None): ``"AB?[CH]"``.

    Letters are read as tiles whatever their case. Raises NotationError: ``bad_tile`` or
    ``invalid_character`` for what is not a tile, ``locked_blank`` for a letter the set
    lacks, ``too_many_tiles`` for more tiles than a rack holds.

    >>> import editions
    >>> rack = parse_rack(Board.empty(editions.get("es")), "a?[ch]")
    >>> [t and t.notation for t in rack]
    ['A', None, '[CH]']
    """
    edition = board.edition
    tiles: list[Tile | None] = []
    for part in rack.strip().upper().split(BLANK):
        for tile in parse_tiles(edition, part):
            if tile is None or tile.blank:
                text = "." if tile is None else tile.letter
                if tile is not None and tile.letter not in edition.faces:
                    raise NotationError(
                        f"{tile.letter!r} is not in the {edition.code} set; a blank is '?'",
                        code=codebook.LOCKED_BLANK,
                        letter=tile.letter,
                    )
                raise NotationError(
                    f"{text!r} in the rack {rack!r} is not a tile",
                    code=codebook.BAD_TILE,
                    text=text,
                )
            tiles.append(tile)
        tiles.append(None)
    tiles.pop()
    if len(tiles) > edition.rack_size:
        raise NotationError(
            f"the rack {rack!r} has {len(tiles)} tiles; a rack holds {edition.rack_size}",
            code=codebook.TOO_MANY_TILES,
            count=len(tiles),
            rack_size=edition.rack_size,
        )
    return tuple(tiles)


def generate(board: Board, rack: str, graph: WordGraph, limit: int | None = None) -> list[Move]:
    """Every legal move with ``rack`` whose words are all in ``graph``, best first.

    Equal totals are ordered by the main word's first square (row, then column), across
    before down, then the new tiles (by square, then the graph's letter order, a tile
    before a blank). ``limit`` keeps only the best so many. Raises what ``parse_rack``
    raises.
    """
    tiles = parse_rack(board, rack)
    found = _search(board, tiles, graph)
    if limit is not None and limit < len(found) // 8:
        found = heapq.nsmallest(limit, found)
    else:
        found.sort()
        if limit is not None:
            del found[limit:]
    return _moves(board, graph, found, len(tiles))


# A found move is one int, so that sorting compares ints and the garbage collector has
# nothing to track: from the top, (_BEST - total), the main word's first square (9 bits:
# square index, then 1 for down), then one 12-bit slot per rack tile, the first new tile
# highest: ``(place << 7 | code << 1 | blank) + 1``, an empty slot 0.
_BEST = 1 << 20  # above any total
_SLOT = 12


def _moves(board: Board, graph: WordGraph, found: list[int], size: int) -> list[Move]:
    """The found moves as Moves."""
    squares = [Square(*divmod(i, SIZE)) for i in range(SIZE * SIZE)]
    on_board = [""] * (SIZE * SIZE)
    for (row, col), tile in board:
        on_board[row * SIZE + col] = tile.notation
    tiles = [Tile(letter, blank) for letter in graph.letters for blank in (False, True)]
    notation = [tile.notation for tile in tiles]
    directions = (Direction.ACROSS, Direction.DOWN)
    shifts = [_SLOT * (size - 1 - k) for k in range(size)]
    slot = (1 << _SLOT) - 1
    pairs: dict[int, tuple[Square, Tile]] = {}  # shared: fewer objects for the collector
    moves = []
    for record in found:
        head = record >> (_SLOT * size)
        total, first, way = _BEST - (head >> 9), head >> 1 & 255, head & 1
        step = 1 if way == 0 else SIZE
        origin = first - (first % SIZE if way == 0 else first // SIZE * SIZE)
        i = first
        new = []
        text = []
        for shift in shifts:
            packed = (record >> shift & slot) - 1
            if packed < 0:
                break
            at, kind = origin + (packed >> 7) * step, packed & 127
            while i < at:
                text.append(on_board[i])
                i += step
            pair = pairs.get(at << 7 | kind)
            if pair is None:
                pair = pairs[at << 7 | kind] = (squares[at], tiles[kind])
            new.append(pair)
            text.append(notation[kind])
            i += step
        while i < SIZE * SIZE and (way == 1 or i // SIZE == first // SIZE) and on_board[i]:
            text.append(on_board[i])
            i += step
        direction = directions[way]
        moves.append(
            Move(total, squares[first], direction, "".join(text), Play(tuple(new), direction))
        )
    return moves


def _search(board: Board, rack: Sequence[Tile | None], graph: WordGraph) -> list[int]:
    """Every move as an int (see ``_SLOT``), unsorted: each row across, then each column
    down."""
    edition = board.edition
    masks, offsets, targets, words = graph.masks, graph.offsets, graph.targets, graph.words
    codes = {letter: code for code, letter in enumerate(graph.letters)}
    everything = (1 << len(graph.letters)) - 1
    # A blank stands only for a letter of the edition's alphabet: a list may spell words
    # with others (Polish Q, V, X), which a blank must not make playable.
    alphabet = edition.alphabet
    blankable = sum(1 << code for code, letter in enumerate(graph.letters) if letter in alphabet)
    cells = [-1] * (SIZE * SIZE)  # a code, or -1 for an empty square
    points_at = [0] * (SIZE * SIZE)  # a tile's points (a blank's are 0)
    for (row, col), tile in board:
        cells[row * SIZE + col] = codes.get(tile.letter, _UNKNOWN)
        points_at[row * SIZE + col] = 0 if tile.blank else edition.values[tile.letter]
    letter_values = [edition.values.get(letter, 0) for letter in graph.letters]
    have = [0] * len(graph.letters)
    blanks = 0
    for held in rack:
        if held is None:
            blanks += 1
        elif held.letter in codes:
            have[codes[held.letter]] += 1
    size = len(rack)
    rack_mask = sum(1 << code for code, n in enumerate(have) if n)
    bingo, full = edition.bingo_bonus, edition.rack_size
    layout = edition.board_layout
    letter_mult = [p.letter_multiplier if p else 1 for p in layout.premiums]
    word_mult = [p.word_multiplier if p else 1 for p in layout.premiums]
    centre = layout.centre[0] * SIZE + layout.centre[1]
    empty = board.is_empty
    shifts = [_SLOT * (size - 1 - k) for k in range(size)] + [0]
    head_shift = _SLOT * size
    score_shift = head_shift + 9  # a record is its key minus the total shifted here
    found: list[int] = []
    if not size:
        return found

    def walk(node: int, path: Iterable[int]) -> int:
        for code in path:
            mask = masks[node]
            if not mask >> code & 1:
                return -1
            node = targets[offsets[node] + (mask & ((1 << code) - 1)).bit_count()]
        return node

    def cross_check(index: int, step: int) -> tuple[int, int]:
        # The letters that make a word with the tiles beside ``index`` along ``step`` (at
        # least one), and those tiles' points.
        row = index // SIZE
        before = []
        at = index - step
        while at >= 0 and (step != 1 or at // SIZE == row) and cells[at] >= 0:
            before.append(at)
            at -= step
        after = []
        at = index + step
        while at < SIZE * SIZE and (step != 1 or at // SIZE == row) and cells[at] >= 0:
            after.append(at)
            at += step
        points = sum(points_at[i] for i in before) + sum(points_at[i] for i in after)
        node = walk(0, [cells[i] for i in reversed(before)])
        if node < 0:
            return 0, points
        suffix = [cells[i] for i in after]
        mask, first = masks[node], offsets[node]
        allowed = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            end = walk(targets[first + (mask & (low - 1)).bit_count()], suffix)
            if end >= 0 and words[end]:
                allowed |= low
        return allowed, points

    # Left parts: what rack tiles can start a word, by length, found once for the rack,
    # kept when the rack has a letter to go on with. Each is (node, its slots from place
    # 0, its real tiles' points, each tile's points, the codes of its real tiles, the
    # letters the anchor may take after it, the rack's letters and blanks left).
    # ``moved[length]`` shifts the slots of a part to start one place on.
    parts: list[list[tuple[int, int, int, tuple[int, ...], tuple[int, ...], int, int, int]]]
    parts = [[] for _ in range(size)]
    moved = [sum((1 << 7) << shifts[k] for k in range(length)) for length in range(size + 1)]

    def lefts(
        node: int,
        length: int,
        slots: int,
        points: int,
        worth: tuple[int, ...],
        reals: tuple[int, ...],
        free: int,
        mask_left: int,
    ) -> None:
        mask = masks[node]
        usable = mask & ((mask_left | blankable) if free else mask_left)
        if not usable:
            return
        parts[length].append((node, slots, points, worth, reals, usable, mask_left, free))
        if length + 1 >= size:
            return
        first, shift, here = offsets[node], shifts[length], (length << 7) + 1
        while usable:
            low = usable & -usable
            usable ^= low
            code = low.bit_length() - 1
            child = targets[first + (mask & (low - 1)).bit_count()]
            if have[code]:
                have[code] -= 1
                value = letter_values[code]
                lefts(
                    child,
                    length + 1,
                    slots | (here + (code << 1)) << shift,
                    points + value,
                    (*worth, value),
                    (*reals, code),
                    free,
                    mask_left if have[code] else mask_left ^ low,
                )
                have[code] += 1
            if free and low & blankable:
                lefts(
                    child,
                    length + 1,
                    slots | (here + (code << 1 | 1)) << shift,
                    points,
                    (*worth, 0),
                    reals,
                    free - 1,
                    mask_left,
                )

    lefts(0, 0, 0, 0, (), (), blanks, rack_mask)

    # The line being searched and the move's first square (rebound as the search goes;
    # the closure below reads them).
    way = start = 0
    square_of: list[int] = []  # place in the line → square index
    fixed: list[int] = []
    values: list[int] = []
    cross: list[int] = []
    crossed: list[bool] = []
    beside: list[int] = []
    lm: list[int] = []
    wm: list[int] = []

    def place(
        i: int,
        node: int,
        total: int,
        mult: int,
        crosses: int,
        placed: int,
        count: int,
        free: int,
        mask_left: int,
    ) -> None:
        # Lay a rack tile on the empty place ``i``, then run on through the board tiles
        # after it: ``node`` is the word from ``start``, ``placed`` the move's key with the
        # ``count`` new tiles in their slots, ``free`` the blanks and ``mask_left`` the
        # letters left on the rack. A word that ends is recorded here and only a word
        # that can go on is followed, so no call is made for a dead end.
        mask = masks[node]
        options = mask & cross[i] & ((mask_left | blankable) if free else mask_left)
        if not options:
            return
        factor, double, has_cross, around = lm[i], wm[i], crossed[i], beside[i]
        after = i + 1
        ahead = fixed[after] if after < SIZE else -1
        # A lone tile that also makes a word across was found across; one tile with
        # nothing before or after it is no word.
        lone = count or way == 0 or not has_cross
        short = after - start < 2
        first = offsets[node]
        here, shift = (i << 7) + 1, shifts[count]
        count += 1
        more = count < size
        bonus = bingo if count == full else 0
        while options:
            low = options & -options
            options ^= low
            code = low.bit_length() - 1
            end = targets[first + (mask & (low - 1)).bit_count()]
            j, add = after, 0
            if ahead >= 0:
                while j < SIZE:
                    letter = fixed[j]
                    if letter < 0:
                        break
                    arcs = masks[end]
                    if not arcs >> letter & 1:
                        end = -1
                        break
                    end = targets[offsets[end] + (arcs & ((1 << letter) - 1)).bit_count()]
                    add += values[j]
                    j += 1
                if end < 0:
                    continue
                word = lone and words[end]
            else:
                word = lone and not short and words[end]
            onward = masks[end] & cross[j] if more and j < SIZE else 0
            if not word and not onward:
                continue
            if have[code]:
                value = letter_values[code] * factor
                record = placed | (here + (code << 1)) << shift
                if word:
                    score = (total + value + add) * mult * double + bonus
                    score += crosses + (around + value) * double if has_cross else crosses
                    found.append(record - (score << score_shift))
                if onward:
                    have[code] -= 1
                    left = mask_left if have[code] else mask_left ^ low
                    if onward & ((left | blankable) if free else left):
                        place(
                            j,
                            end,
                            total + value + add,
                            mult * double,
                            crosses + (around + value) * double if has_cross else crosses,
                            record,
                            count,
                            free,
                            left,
                        )
                    have[code] += 1
            if free and low & blankable:
                record = placed | (here + (code << 1 | 1)) << shift
                if word:
                    score = (total + add) * mult * double + bonus
                    score += crosses + around * double if has_cross else crosses
                    found.append(record - (score << score_shift))
                if onward and onward & ((mask_left | blankable) if free > 1 else mask_left):
                    place(
                        j,
                        end,
                        total + add,
                        mult * double,
                        crosses + around * double if has_cross else crosses,
                        record,
                        count,
                        free - 1,
                        mask_left,
                    )

    # The cross-checks of every empty square that has a tile beside it, per direction of
    # the line it is in: across lines are checked down, down lines across.
    checks: list[dict[int, tuple[int, int]]] = [{}, {}]
    for index in range(SIZE * SIZE):
        if cells[index] >= 0:
            continue
        col = index % SIZE
        if (index >= SIZE and cells[index - SIZE] >= 0) or (
            index < SIZE * SIZE - SIZE and cells[index + SIZE] >= 0
        ):
            checks[0][index] = cross_check(index, SIZE)
        if (col > 0 and cells[index - 1] >= 0) or (col < SIZE - 1 and cells[index + 1] >= 0):
            checks[1][index] = cross_check(index, 1)

    for way in (0, 1):
        step = 1 if way == 0 else SIZE
        checked = checks[way]
        for line in range(SIZE):
            origin = line * SIZE if way == 0 else line
            square_of = [origin + i * step for i in range(SIZE)]
            fixed = [cells[i] for i in square_of]
            anchors = []
            for i in range(SIZE):
                if fixed[i] < 0 and (
                    square_of[i] in checked
                    or (i > 0 and fixed[i - 1] >= 0)
                    or (i + 1 < SIZE and fixed[i + 1] >= 0)
                    or (empty and square_of[i] == centre)
                ):
                    anchors.append(i)
            if not anchors:
                continue
            cross = [everything] * SIZE
            crossed = [False] * SIZE
            beside = [0] * SIZE
            for i in range(SIZE):
                if (check := checked.get(square_of[i])) is not None:
                    cross[i], beside[i] = check
                    crossed[i] = True
            values = [points_at[i] for i in square_of]
            lm = [letter_mult[i] for i in square_of]
            wm = [word_mult[i] for i in square_of]
            premium = [lm[i] > 1 or wm[i] > 1 for i in range(SIZE)]
            is_anchor = [False] * SIZE
            for i in anchors:
                is_anchor[i] = True
            for anchor in anchors:
                if anchor > 0 and fixed[anchor - 1] >= 0:
                    # The left part is the tiles already before the anchor.
                    start = anchor - 1
                    while start > 0 and fixed[start - 1] >= 0:
                        start -= 1
                    node = walk(0, fixed[start:anchor])
                    if node >= 0:
                        key = (_BEST << 9 | square_of[start] << 1 | way) << head_shift
                        total = sum(values[start:anchor])
                        place(anchor, node, total, 1, 0, key, 0, blanks, rack_mask)
                    continue
                # The left part is rack tiles on free squares that touch nothing.
                limit = 0
                while (
                    limit < size - 1
                    and anchor - limit - 1 >= 0
                    and fixed[anchor - limit - 1] < 0
                    and not is_anchor[anchor - limit - 1]
                ):
                    limit += 1
                at_anchor = cross[anchor]
                # A tile already after the anchor: a part must have a letter for the anchor
                # that the tile can follow.
                then = 1 << fixed[anchor + 1] if anchor + 1 < SIZE and fixed[anchor + 1] >= 0 else 0
                for length in range(limit + 1):
                    start = anchor - length
                    plain = not any(premium[start:anchor])
                    key = (_BEST << 9 | square_of[start] << 1 | way) << head_shift
                    key += start * moved[length]
                    for node, slots, points, worth, reals, usable, mask_left, free in parts[length]:
                        usable &= at_anchor
                        if not usable:
                            continue
                        if then:
                            mask, first, two = masks[node], offsets[node], 0
                            while usable:
                                low = usable & -usable
                                usable ^= low
                                two |= masks[targets[first + (mask & (low - 1)).bit_count()]]
                            if not two & then:
                                continue
                        if plain:
                            total, mult = points, 1
                        else:
                            total, mult = 0, 1
                            for k in range(length):
                                total += worth[k] * lm[start + k]
                                mult *= wm[start + k]
                        for code in reals:
                            have[code] -= 1
                        place(anchor, node, total, mult, 0, key + slots, length, free, mask_left)
                        for code in reals:
                            have[code] += 1
    return found
