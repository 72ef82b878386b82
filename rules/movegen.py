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
from collections.abc import Iterable, Sequence
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


class WordGraph(Protocol):
    """A lexicon as a graph of tiles; node 0 is the root (``wordlists.graph.Graph``).

    The child of ``node`` by letter ``code`` is
    ``targets[offsets[node] + popcount(masks[node] & ((1 << code) - 1))]`` when bit
    ``code`` of ``masks[node]`` is set; ``words[node]`` is nonzero where a word ends.
    """

    letters: Sequence[str]  # code → the tile letter ("A", "CH", "Ł"); at most 63
    masks: Sequence[int]  # node → the codes leaving it, one bit each
    offsets: Sequence[int]  # node → where its children start in ``targets``
    targets: Sequence[int]  # every node's children, in code order
    words: Sequence[int]  # node → 1 if the path from the root spells a word


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
            tile = (record >> shift & slot) - 1
            if tile < 0:
                break
            at, kind = origin + (tile >> 7) * step, tile & 127
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
    cells = [-1] * (SIZE * SIZE)  # a code, or -1 for an empty square
    points_at = [0] * (SIZE * SIZE)  # a tile's points (a blank's are 0)
    for (row, col), tile in board:
        cells[row * SIZE + col] = codes.get(tile.letter, _UNKNOWN)
        points_at[row * SIZE + col] = 0 if tile.blank else edition.values[tile.letter]
    letter_values = [edition.values.get(letter, 0) for letter in graph.letters]
    have = [0] * len(graph.letters)
    blanks = 0
    for tile in rack:
        if tile is None:
            blanks += 1
        elif tile.letter in codes:
            have[codes[tile.letter]] += 1
    size = len(rack)
    rack_mask = sum(1 << code for code, n in enumerate(have) if n)
    bingo, full = edition.bingo_bonus, edition.rack_size
    premiums = edition.layout.premiums
    letter_mult = [p.letter_multiplier if p else 1 for p in premiums]
    word_mult = [p.word_multiplier if p else 1 for p in premiums]
    centre = edition.layout.centre[0] * SIZE + edition.layout.centre[1]
    empty = board.is_empty
    shifts = [_SLOT * (size - 1 - k) for k in range(size)] + [0]
    head_shift = _SLOT * size
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

    def cross_check(index: int, step: int) -> tuple[int, int] | None:
        # The letters that make a word with the tiles beside ``index`` along ``step``, and
        # those tiles' points; None when there are none.
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
        if not before and not after:
            return None
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
    # kept when the rack has a letter to go on with. Each is (node, codes, blank flags, the
    # codes of its real tiles, its slots from place 0, its real tiles' points, the letters
    # the anchor may take after it, the letters two steps on, the rack's letters and
    # blanks left). ``moved[length]`` shifts the slots of a part to start one place on.
    parts: list[list[tuple]] = [[] for _ in range(size)]
    moved = [sum((1 << 7) << shifts[k] for k in range(length)) for length in range(size + 1)]

    def lefts(node: int, part: list[int], flags: list[int], free: int, mask_left: int) -> None:
        mask = masks[node]
        usable = mask if free else mask & mask_left
        if usable:
            first, two, rest = offsets[node], 0, usable
            while rest:
                low = rest & -rest
                rest ^= low
                two |= masks[targets[first + (mask & (low - 1)).bit_count()]]
            reals = tuple(c for c, f in zip(part, flags, strict=True) if not f)
            slots = sum(
                ((k << 7 | part[k] << 1 | flags[k]) + 1) << shifts[k] for k in range(len(part))
            )
            points = sum(letter_values[c] for c in reals)
            parts[len(part)].append(
                (
                    node,
                    tuple(part),
                    tuple(flags),
                    reals,
                    slots,
                    points,
                    usable,
                    two,
                    mask_left,
                    free,
                )
            )
        if len(part) + 1 >= size:
            return
        first = offsets[node]
        while usable:
            low = usable & -usable
            usable ^= low
            code = low.bit_length() - 1
            child = targets[first + (mask & (low - 1)).bit_count()]
            part.append(code)
            if have[code]:
                have[code] -= 1
                flags.append(0)
                lefts(child, part, flags, free, mask_left if have[code] else mask_left ^ low)
                flags.pop()
                have[code] += 1
            if free:
                flags.append(1)
                lefts(child, part, flags, free - 1, mask_left)
                flags.pop()
            part.pop()

    lefts(0, [], [], blanks, rack_mask)

    # The line being searched (rebound per line; the closures below read them).
    way = anchor = 0
    square_of: list[int] = []  # place in the line → square index
    fixed: list[int] = []
    values: list[int] = []
    cross: list[int] = []
    crossed: list[bool] = []
    beside: list[int] = []
    lm: list[int] = []
    wm: list[int] = []

    def extend(
        i: int,
        node: int,
        start: int,
        total: int,
        mult: int,
        crosses: int,
        placed: int,
        count: int,
        free: int,
        mask_left: int,
    ) -> None:
        # Go on from place ``i``; ``node`` is the word from ``start``, ``placed`` the
        # ``count`` new tiles in their slots, ``free`` the blanks and ``mask_left`` the
        # letters left on the rack.
        while i < SIZE:
            code = fixed[i]
            if code < 0:
                break
            mask = masks[node]
            if not mask >> code & 1:
                return
            node = targets[offsets[node] + (mask & ((1 << code) - 1)).bit_count()]
            total += values[i]
            i += 1
        if i > anchor and words[node] and i - start >= 2:
            # A lone tile that also makes a word across was found across.
            if count > 1 or way == 0 or not crossed[((placed >> shifts[0]) - 1) >> 7]:
                score = total * mult + crosses + (bingo if count == full else 0)
                found.append(
                    ((_BEST - score) << 9 | square_of[start] << 1 | way) << head_shift | placed
                )
        if i == SIZE or count == size:
            return
        mask = masks[node]
        options = mask & cross[i] & (everything if free else mask_left)
        if not options:
            return
        first = offsets[node]
        factor, double, has_cross, around = lm[i], wm[i], crossed[i], beside[i]
        after = i + 1
        # What the next place asks: its board tile, else (empty, or the edge) a letter it
        # allows or the end of the word; a child that can do neither is not visited.
        if after < SIZE:
            ahead = fixed[after]
            need = 1 << ahead if ahead >= 0 else cross[after]
            must = ahead >= 0
        else:
            need, must = 0, False
        here = (i << 7) + 1
        shift = shifts[count]
        while options:
            low = options & -options
            options ^= low
            code = low.bit_length() - 1
            child = targets[first + (mask & (low - 1)).bit_count()]
            if not masks[child] & need and (must or not words[child]):
                continue
            if have[code]:
                value = letter_values[code] * factor
                have[code] -= 1
                extend(
                    after,
                    child,
                    start,
                    total + value,
                    mult * double,
                    crosses + (around + value) * double if has_cross else crosses,
                    placed | (here + (code << 1)) << shift,
                    count + 1,
                    free,
                    mask_left if have[code] else mask_left ^ low,
                )
                have[code] += 1
            if free:
                extend(
                    after,
                    child,
                    start,
                    total,
                    mult * double,
                    crosses + around * double if has_cross else crosses,
                    placed | (here + (code << 1 | 1)) << shift,
                    count + 1,
                    free - 1,
                    mask_left,
                )

    for way in (0, 1):
        step, cross_step = (1, SIZE) if way == 0 else (SIZE, 1)
        for line in range(SIZE):
            origin = line * SIZE if way == 0 else line
            square_of = [origin + i * step for i in range(SIZE)]
            fixed = [cells[i] for i in square_of]
            cross = [everything] * SIZE
            crossed = [False] * SIZE
            beside = [0] * SIZE
            anchors = []
            for i in range(SIZE):
                if fixed[i] >= 0:
                    continue
                checked = cross_check(square_of[i], cross_step)
                if checked is not None:
                    cross[i], beside[i] = checked
                    crossed[i] = True
                if (
                    crossed[i]
                    or (i > 0 and fixed[i - 1] >= 0)
                    or (i + 1 < SIZE and fixed[i + 1] >= 0)
                    or (empty and square_of[i] == centre)
                ):
                    anchors.append(i)
            if not anchors:
                continue
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
                        total = sum(values[start:anchor])
                        extend(anchor, node, start, total, 1, 0, 0, 0, blanks, rack_mask)
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
                # A tile already after the anchor: the part's letters two steps on must
                # hold it.
                then = 1 << fixed[anchor + 1] if anchor + 1 < SIZE and fixed[anchor + 1] >= 0 else 0
                for length in range(limit + 1):
                    start = anchor - length
                    plain = not any(premium[start:anchor])
                    shift = start * moved[length]
                    for (
                        node,
                        codes_,
                        flags,
                        reals,
                        slots,
                        points,
                        usable,
                        two,
                        mask_left,
                        free,
                    ) in parts[length]:
                        if not usable & at_anchor or (then and not two & then):
                            continue
                        if plain:
                            total, mult = points, 1
                        else:
                            total, mult = 0, 1
                            for k in range(length):
                                if not flags[k]:
                                    total += letter_values[codes_[k]] * lm[start + k]
                                mult *= wm[start + k]
                        for code in reals:
                            have[code] -= 1
                        extend(
                            anchor,
                            node,
                            start,
                            total,
                            mult,
                            0,
                            slots + shift,
                            length,
                            free,
                            mask_left,
                        )
                        for code in reals:
                            have[code] += 1
    return found
