"""The move generator's search, compiled by numba (``rules.movegen.moves`` explains the algorithm).

Imported on the first ``generate``, not with ``rules``: numba takes half a second to
import, and compiling takes seconds. ``cache=True`` keeps the machine code on disk (in
``__pycache__`` beside this file, or numba's user cache folder when that is read-only),
so a later process only loads it.

Everything here is integers in numpy arrays: a graph's masks as int64 (bit 63 is never
a letter, so no mask is negative), a board as 225 letter codes (-1 empty, 63 a letter
no word has). A found move is two int64 keys whose order is the moves' order (see
``_pack``): sorting them ranks the moves without a Python object per move.
"""

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from numba import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

Ints = npt.NDArray[np.int64]
Graph = tuple[Ints, npt.NDArray[np.uint32], npt.NDArray[np.uint32], npt.NDArray[np.uint8]]

SIZE = 15
CELLS = SIZE * SIZE
BEST = 1 << 20  # above any total: keys hold BEST - total, so the best sorts first
SLOT = 11  # bits of one new tile: (place << 7 | code << 1 | blank) + 1, 0 for none
FIRST_SLOTS = 3  # in the first key, under the head (BEST - total, square, direction)
SECOND_SLOTS = 5  # in the second
MAX_TILES = FIRST_SLOTS + SECOND_SLOTS
_TILES = 5  # the column of a left part's first tile (``_left_parts``)

_F = TypeVar("_F", bound=Callable[..., Any])


def _compiled(function: _F) -> _F:
    # numba's dispatcher is called like the function it compiles.
    return cast(_F, numba.njit(cache=True, nogil=True)(function))


@intrinsic
def _ctpop(typingctx: object, value: Any) -> Any:
    # LLVM's ctpop: one instruction where the CPU has it. numba offers no popcount.
    if not isinstance(value, types.Integer):
        return None

    def codegen(context: object, builder: Any, signature: object, args: Any) -> Any:
        return builder.ctpop(args[0])

    return value(value), codegen


# As functions of ints for the type checker; numba compiles them in.
_popcount = cast(Callable[[int], int], _ctpop)
_trailing_zeros = cast(Callable[[int], int], trailing_zeros)


@_compiled
def _child(masks: Ints, offsets: Any, targets: Any, node: int, code: int) -> int:
    """The node after ``code`` from ``node``, or -1."""
    mask = masks[node]
    if not (mask >> code) & 1:
        return -1
    return int(targets[offsets[node] + _popcount(mask & ((1 << code) - 1))])


@_compiled
def _cross_check(
    graph: Graph, cells: Ints, points_at: Ints, index: int, step: int
) -> tuple[int, int]:
    """The letters that make a word with the tiles beside ``index`` along ``step`` (at
    least one), and those tiles' points."""
    masks, offsets, targets, words = graph
    row = index // SIZE
    points = 0
    at = index - step
    while at >= 0 and (step != 1 or at // SIZE == row) and cells[at] >= 0:
        points += points_at[at]
        at -= step
    node = 0
    at += step
    while at < index and node >= 0:
        node = _child(masks, offsets, targets, node, cells[at])
        at += step
    end = index + step
    while end < CELLS and (step != 1 or end // SIZE == row) and cells[end] >= 0:
        points += points_at[end]
        end += step
    if node < 0:
        return 0, points
    allowed = 0
    mask = masks[node]
    first = offsets[node]
    rest = mask
    while rest:
        low = rest & -rest
        rest ^= low
        after = int(targets[first + _popcount(mask & (low - 1))])
        at = index + step
        while at < end and after >= 0:
            after = _child(masks, offsets, targets, after, cells[at])
            at += step
        if after >= 0 and words[after]:
            allowed |= low
    return allowed, points


@_compiled
def _grow(keys: Ints) -> Ints:
    """The rows and as many again (a numba array does not grow)."""
    bigger = np.zeros((2 * keys.shape[0], keys.shape[1]), np.int64)
    bigger[: keys.shape[0]] = keys
    return bigger


@_compiled
def _left_parts(graph: Graph, have: Ints, size: int, blanks: int, blankable: int) -> Ints:
    """What rack tiles can start a word, found once for the rack and kept when the rack
    has a letter to go on with: a row each of (node, length, the letters the anchor may
    take after it, the rack's letters and blanks left, then code << 1 | blank per tile
    from column ``_TILES``).

    Depth first with a frame per length (numba compiles no closure, and recursion
    would pass every array on each call): a frame tries its letters one by one, each
    as the rack's tile (phase 0) and then as a blank (phase 1).
    """
    masks, offsets, targets, _ = graph
    parts = np.zeros((64, _TILES + MAX_TILES), np.int64)
    count = 0
    node_at = np.zeros(MAX_TILES, np.int64)
    free_at = np.zeros(MAX_TILES, np.int64)
    left_at = np.zeros(MAX_TILES, np.int64)
    todo_at = np.zeros(MAX_TILES, np.int64)  # letters not tried yet
    low_at = np.zeros(MAX_TILES, np.int64)  # the letter being tried, as its bit
    child_at = np.zeros(MAX_TILES, np.int64)
    real_at = np.zeros(MAX_TILES, np.bool_)  # its tile is out of ``have``
    phase_at = np.zeros(MAX_TILES, np.int64)
    path = np.zeros(MAX_TILES, np.int64)
    rack_mask = 0
    for code in range(have.shape[0]):
        if have[code]:
            rack_mask |= 1 << code
    # A part to enter: (length, node, blanks, letters left).
    pending = True
    length, node, free, left = 0, 0, blanks, rack_mask
    top = -1
    while True:
        if pending:
            pending = False
            mask = masks[node]
            usable = mask & ((left | blankable) if free else left)
            if usable:
                if count == parts.shape[0]:
                    parts = _grow(parts)
                row = parts[count]
                row[0], row[1], row[2], row[3], row[4] = node, length, usable, left, free
                row[_TILES : _TILES + length] = path[:length]
                count += 1
                if length + 1 < size:
                    top = length
                    node_at[top], free_at[top] = node, free
                    left_at[top], todo_at[top], phase_at[top] = left, usable, 0
        if top < 0:
            break
        d = top
        if phase_at[d] == 0:
            todo = todo_at[d]
            if not todo:
                top -= 1
                continue
            low = todo & -todo
            todo_at[d] = todo ^ low
            low_at[d] = low
            code = _trailing_zeros(low)
            parent = node_at[d]
            child_at[d] = targets[offsets[parent] + _popcount(masks[parent] & (low - 1))]
            phase_at[d] = 1
            real_at[d] = False
            if have[code]:
                have[code] -= 1
                real_at[d] = True
                path[d] = code << 1
                pending = True
                length, node = d + 1, child_at[d]
                free = free_at[d]
                left = left_at[d] if have[code] else left_at[d] ^ low
            continue
        low = low_at[d]
        code = _trailing_zeros(low)
        if real_at[d]:
            have[code] += 1
            real_at[d] = False
        phase_at[d] = 0
        if free_at[d] and low & blankable:
            path[d] = code << 1 | 1
            pending = True
            length, node = d + 1, child_at[d]
            free, left = free_at[d] - 1, left_at[d]
    return parts[:count]


@_compiled
def _sort(keys: Ints) -> Ints:
    """The keys in order: by the first, then the second (a tie in the first is rare,
    so a quicksort and an insertion sort of each run of ties)."""
    order = np.argsort(keys[:, 0])
    ranked = keys[order]
    n = ranked.shape[0]
    i = 0
    while i < n:
        j = i + 1
        while j < n and ranked[j, 0] == ranked[i, 0]:
            j += 1
        for a in range(i + 1, j):
            second = ranked[a, 1]
            b = a - 1
            while b >= i and ranked[b, 1] > second:
                ranked[b + 1, 1] = ranked[b, 1]
                b -= 1
            ranked[b + 1, 1] = second
        i = j
    return ranked


@_compiled
def search(
    graph: Graph,
    cells: Ints,
    points_at: Ints,
    letter_values: Ints,
    have: Ints,
    blanks: int,
    blankable: int,
    bingo: int,
    full: int,
    letter_mult: Ints,
    word_mult: Ints,
    centre: int,
) -> Ints:
    """Every move, best first, as a row of two keys (see ``_pack``).

    ``cells`` is the board (a code, -1 empty, 63 a letter no word has), ``points_at``
    its tiles' points, ``have`` the rack's tiles per code and ``blanks`` its blanks;
    ``blankable`` the letters a blank may stand for; ``letter_mult`` and ``word_mult``
    the premiums per square, ``centre`` the square a first move covers. ``have`` is
    used as scratch and restored.
    """
    masks, offsets, targets, words = graph
    size = int(have.sum()) + blanks
    keys = np.zeros((1024, 2), np.int64)
    found = 0
    if not size:
        return keys[:0]
    everything = (1 << letter_values.shape[0]) - 1
    rack_mask = 0
    for code in range(have.shape[0]):
        if have[code]:
            rack_mask |= 1 << code
    empty = True
    for index in range(CELLS):
        if cells[index] >= 0:
            empty = False

    # The cross-checks of every empty square with a tile beside it, per direction of
    # the line it is in: across lines are checked down, down lines across.
    allowed = np.zeros((2, CELLS), np.int64)
    beside_points = np.zeros((2, CELLS), np.int64)
    checked = np.zeros((2, CELLS), np.bool_)
    for index in range(CELLS):
        if cells[index] >= 0:
            continue
        col = index % SIZE
        if (index >= SIZE and cells[index - SIZE] >= 0) or (
            index < CELLS - SIZE and cells[index + SIZE] >= 0
        ):
            allowed[0, index], beside_points[0, index] = _cross_check(
                graph, cells, points_at, index, SIZE
            )
            checked[0, index] = True
        if (col > 0 and cells[index - 1] >= 0) or (col < SIZE - 1 and cells[index + 1] >= 0):
            allowed[1, index], beside_points[1, index] = _cross_check(
                graph, cells, points_at, index, 1
            )
            checked[1, index] = True

    parts = _left_parts(graph, have, size, blanks, blankable)
    by_length = np.argsort(parts[:, 1], kind="mergesort")
    length_starts = np.searchsorted(parts[by_length, 1], np.arange(MAX_TILES + 2))

    # The line being searched, by place: square, tile code, cross-check, whether there
    # is one, the points of the tiles beside, the tile's points, premiums, anchors.
    square_of = np.zeros(SIZE, np.int64)
    fixed = np.zeros(SIZE, np.int64)
    cross = np.zeros(SIZE + 1, np.int64)
    crossed = np.zeros(SIZE, np.bool_)
    beside = np.zeros(SIZE, np.int64)
    values = np.zeros(SIZE, np.int64)
    lm = np.zeros(SIZE, np.int64)
    wm = np.zeros(SIZE, np.int64)
    is_anchor = np.zeros(SIZE, np.bool_)
    anchors = np.zeros(SIZE, np.int64)
    slots = np.zeros(MAX_TILES, np.int64)  # the move's new tiles so far, as key slots
    # Extending right: a frame per new tile, ``d`` the tiles before it. A frame lays
    # its letters on place ``i`` one by one, each as the rack's tile (phase 0) and
    # then as a blank (phase 1), and follows the board tiles after it.
    i_at = np.zeros(MAX_TILES, np.int64)
    node_at = np.zeros(MAX_TILES, np.int64)
    total_at = np.zeros(MAX_TILES, np.int64)  # the main word's letter points so far
    mult_at = np.zeros(MAX_TILES, np.int64)  # its word premium so far
    crosses_at = np.zeros(MAX_TILES, np.int64)  # the cross words' totals
    free_at = np.zeros(MAX_TILES, np.int64)
    left_at = np.zeros(MAX_TILES, np.int64)
    todo_at = np.zeros(MAX_TILES, np.int64)
    phase_at = np.zeros(MAX_TILES, np.int64)
    low_at = np.zeros(MAX_TILES, np.int64)
    end_at = np.zeros(MAX_TILES, np.int64)  # the node after it and the board tiles
    j_at = np.zeros(MAX_TILES, np.int64)  # the place after those
    add_at = np.zeros(MAX_TILES, np.int64)  # their points
    word_at = np.zeros(MAX_TILES, np.bool_)  # a word ends there
    onward_at = np.zeros(MAX_TILES, np.int64)  # letters that may go on at j
    real_at = np.zeros(MAX_TILES, np.bool_)

    for way in range(2):
        step = 1 if way == 0 else SIZE
        for line in range(SIZE):
            origin = line * SIZE if way == 0 else line
            count_anchors = 0
            for i in range(SIZE):
                square_of[i] = origin + i * step
                fixed[i] = cells[square_of[i]]
            for i in range(SIZE):
                is_anchor[i] = fixed[i] < 0 and (
                    checked[way, square_of[i]]
                    or (i > 0 and fixed[i - 1] >= 0)
                    or (i + 1 < SIZE and fixed[i + 1] >= 0)
                    or (empty and square_of[i] == centre)
                )
                if is_anchor[i]:
                    anchors[count_anchors] = i
                    count_anchors += 1
            if not count_anchors:
                continue
            for i in range(SIZE):
                square = square_of[i]
                crossed[i] = checked[way, square]
                cross[i] = allowed[way, square] if crossed[i] else everything
                beside[i] = beside_points[way, square]
                values[i] = points_at[square]
                lm[i] = letter_mult[square]
                wm[i] = word_mult[square]
            for a in range(count_anchors):
                anchor = anchors[a]
                if anchor > 0 and fixed[anchor - 1] >= 0:
                    # The left part is the tiles already before the anchor.
                    start = anchor - 1
                    while start > 0 and fixed[start - 1] >= 0:
                        start -= 1
                    node = 0
                    total = 0
                    for k in range(start, anchor):
                        if node >= 0:
                            node = _child(masks, offsets, targets, node, fixed[k])
                        total += values[k]
                    first_part, last_part = 0, 1  # one part: the tiles
                    if node < 0:
                        continue
                else:
                    # The left part is rack tiles on free squares that touch nothing.
                    limit = 0
                    while (
                        limit < size - 1
                        and anchor - limit - 1 >= 0
                        and fixed[anchor - limit - 1] < 0
                        and not is_anchor[anchor - limit - 1]
                    ):
                        limit += 1
                    first_part, last_part = length_starts[0], length_starts[limit + 1]
                    start = anchor
                # A tile already after the anchor: a part must have a letter for the
                # anchor that the tile can follow.
                then = 0
                if anchor + 1 < SIZE and fixed[anchor + 1] >= 0:
                    then = 1 << fixed[anchor + 1]
                on_board = anchor > 0 and fixed[anchor - 1] >= 0
                for p in range(first_part, last_part):
                    if on_board:
                        length = 0
                        free, left, mult = blanks, rack_mask, 1
                        head = (BEST << 9 | square_of[start] << 1 | way) << (SLOT * FIRST_SLOTS)
                    else:
                        part = parts[by_length[p]]
                        length = part[1]
                        usable = part[2] & cross[anchor]
                        if not usable:
                            continue
                        if then:
                            parent, two = part[0], 0
                            while usable:
                                low = usable & -usable
                                usable ^= low
                                child = targets[
                                    offsets[parent] + _popcount(masks[parent] & (low - 1))
                                ]
                                two |= masks[child]
                            if not two & then:
                                continue
                        node = part[0]
                        start = anchor - length
                        total, mult = 0, 1
                        for k in range(length):
                            tile = part[_TILES + k]
                            worth = 0 if tile & 1 else letter_values[tile >> 1]
                            total += worth * lm[start + k]
                            mult *= wm[start + k]
                            slots[k] = ((start + k) << 7 | tile) + 1
                            if not tile & 1:
                                have[tile >> 1] -= 1
                        free, left = part[4], part[3]
                        head = (BEST << 9 | square_of[start] << 1 | way) << (SLOT * FIRST_SLOTS)
                    # Extend right from the anchor.
                    options = masks[node] & cross[anchor] & ((left | blankable) if free else left)
                    top = -1
                    if options:
                        top = length
                        i_at[top], node_at[top], total_at[top], mult_at[top] = (
                            anchor,
                            node,
                            total,
                            mult,
                        )
                        crosses_at[top], free_at[top], left_at[top] = 0, free, left
                        todo_at[top], phase_at[top] = options, 0
                    while top >= length:
                        d = top
                        i = i_at[d]
                        if phase_at[d] == 0:
                            todo = todo_at[d]
                            if not todo:
                                top -= 1
                                continue
                            low = todo & -todo
                            todo_at[d] = todo ^ low
                            code = _trailing_zeros(low)
                            parent = node_at[d]
                            end = targets[offsets[parent] + _popcount(masks[parent] & (low - 1))]
                            # A lone tile that also makes a word across was found across;
                            # one tile with nothing before or after it is no word.
                            lone = d > 0 or way == 0 or not crossed[i]
                            j, add = i + 1, 0
                            if j < SIZE and fixed[j] >= 0:
                                while j < SIZE and fixed[j] >= 0 and end >= 0:
                                    end = _child(masks, offsets, targets, end, fixed[j])
                                    add += values[j]
                                    j += 1
                                if end < 0:
                                    continue
                                word = lone and words[end] != 0
                            else:
                                word = lone and i + 1 - start >= 2 and words[end] != 0
                            onward = masks[end] & cross[j] if d + 1 < size and j < SIZE else 0
                            if not word and not onward:
                                continue
                            low_at[d], end_at[d], j_at[d], add_at[d] = low, end, j, add
                            word_at[d], onward_at[d] = word, onward
                            phase_at[d] = 1
                            real_at[d] = False
                            if not have[code]:
                                continue
                            value = letter_values[code] * lm[i]
                            crosses = crosses_at[d]
                            if crossed[i]:
                                crosses += (beside[i] + value) * wm[i]
                            slots[d] = (i << 7 | code << 1) + 1
                            if word:
                                score = (total_at[d] + value + add) * mult_at[d] * wm[i] + crosses
                                if d + 1 == full:
                                    score += bingo
                                if found == keys.shape[0]:
                                    keys = _grow(keys)
                                _pack(keys[found], head, score, slots, d + 1)
                                found += 1
                            if onward:
                                have[code] -= 1
                                real_at[d] = True
                                free = free_at[d]
                                left = left_at[d] if have[code] else left_at[d] ^ low
                                options = onward & ((left | blankable) if free else left)
                                if options:
                                    top = d + 1
                                    i_at[top], node_at[top] = j, end
                                    total_at[top] = total_at[d] + value + add
                                    mult_at[top] = mult_at[d] * wm[i]
                                    crosses_at[top], free_at[top], left_at[top] = (
                                        crosses,
                                        free,
                                        left,
                                    )
                                    todo_at[top], phase_at[top] = options, 0
                            continue
                        # Back from the rack's tile: put it back, then lay a blank.
                        low = low_at[d]
                        code = _trailing_zeros(low)
                        if real_at[d]:
                            have[code] += 1
                            real_at[d] = False
                        phase_at[d] = 0
                        free = free_at[d]
                        if not (free and low & blankable):
                            continue
                        crosses = crosses_at[d]
                        if crossed[i]:
                            crosses += beside[i] * wm[i]
                        slots[d] = (i << 7 | code << 1 | 1) + 1
                        add = add_at[d]
                        if word_at[d]:
                            score = (total_at[d] + add) * mult_at[d] * wm[i] + crosses
                            if d + 1 == full:
                                score += bingo
                            if found == keys.shape[0]:
                                keys = _grow(keys)
                            _pack(keys[found], head, score, slots, d + 1)
                            found += 1
                        onward = onward_at[d]
                        left = left_at[d]
                        options = onward & ((left | blankable) if free > 1 else left)
                        if options:
                            top = d + 1
                            i_at[top], node_at[top] = j_at[d], end_at[d]
                            total_at[top] = total_at[d] + add
                            mult_at[top] = mult_at[d] * wm[i]
                            crosses_at[top], free_at[top], left_at[top] = crosses, free - 1, left
                            todo_at[top], phase_at[top] = options, 0
                    if not on_board:
                        for k in range(length):
                            tile = parts[by_length[p], _TILES + k]
                            if not tile & 1:
                                have[tile >> 1] += 1
    return _sort(keys[:found])


@_compiled
def _pack(row: Ints, head: int, score: int, slots: Ints, count: int) -> None:
    # A move's two keys, which sort as the moves do: the first holds, from the top,
    # BEST - total (21 bits), the main word's first square (8 bits) and 1 for down, then
    # the first three new tiles' slots, the first highest; the second the other five. A
    # slot is (place << 7 | code << 1 | blank) + 1 and 0 for none, so a move that is
    # another's first tiles sorts before it.
    first = head - (score << (9 + SLOT * FIRST_SLOTS))
    second = 0
    for k in range(MAX_TILES):
        slot = slots[k] if k < count else 0
        if k < FIRST_SLOTS:
            first |= slot << (SLOT * (FIRST_SLOTS - 1 - k))
        else:
            second |= slot << (SLOT * (MAX_TILES - 1 - k))
    row[0] = first
    row[1] = second
