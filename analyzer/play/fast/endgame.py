"""Compiled end game of the ``expert`` player: every layout listed, then an exact expectimax.

The same search as :func:`analyzer.play.players.endgame.endgame_search`, move for
move: layouts are equally likely; revealing a cell (with the flood fill of the
game) splits the layouts still possible by what it shows; the value of a
position is the number of its layouts on which the best play wins; a cell no
remaining layout mines is taken without branching; cells are tried by how many
layouts mine them, then by index, and a cell that cannot beat the best found so
far ends the loop. Sets of layouts are bit masks of up to :data:`WORDS` machine words
(at most 1,023 layouts; a search takes as many words as its layouts need) and the cells the
search has revealed are two more words over the cells some layout leaves safe, so a
position's memo key is a set of layouts padded to :data:`WORDS` words and those two.

A closed-off part of the board whose layouts all hold as many mines is a game of
its own: :func:`isolated_parts` finds the closed-off parts and :func:`isolated_move`
plays the first such part by this search over its own layouts.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.np.unsafe.ndarray import to_fixed_tuple
from numba.typed import Dict

from analyzer.board.board import FLAG, HIDDEN
from analyzer.jit import njit
from analyzer.play.fast.bits import popcount as _popcount
from analyzer.play.fast.probabilities import SAFE
from analyzer.solver.kernels.components import find_root

__all__ = ["MAX_LAYOUTS", "layouts", "endgame_move", "isolated_parts", "isolated_move"]

WORDS = 16
"""Machine words of a set of layouts, at most (a search takes as many as its layouts need)."""
MAX_LAYOUTS = 64 * WORDS - 1
"""The most layouts the compiled search holds (one bit each in :data:`WORDS` 64-bit words)."""

_KEY_SIZE = WORDS + 2  # a memo key: the set of layouts padded to WORDS words, then the revealed cells' two
_KEY = types.UniTuple(types.uint64, _KEY_SIZE)
_ONE = np.uint64(1)
_Search = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict, np.ndarray, int]
_ZERO = np.uint64(0)


@njit(cache=True)
def _lowest_bit(x: np.uint64) -> int:  # pragma: no cover - compiled
    b = 0
    while not (x >> np.uint64(b)) & _ONE:
        b += 1
    return b


@njit(cache=True)
def _lowest(s: np.ndarray) -> int:  # pragma: no cover - compiled
    """The lowest member of a set of layouts (-1 when empty)."""
    for w in range(s.shape[0]):
        if s[w]:
            return 64 * w + _lowest_bit(s[w])
    return -1


@njit(cache=True)
def _has(s: np.ndarray, b: int) -> bool:  # pragma: no cover - compiled
    return bool((s[b >> 6] >> np.uint64(b & 63)) & _ONE)


@njit(cache=True)
def _size(s: np.ndarray) -> int:  # pragma: no cover - compiled
    c = 0
    for w in range(s.shape[0]):
        c += _popcount(s[w])
    return c


@njit(cache=True)
def _size_of_both(a: np.ndarray, b: np.ndarray) -> int:  # pragma: no cover - compiled
    """Members of both sets."""
    c = 0
    for w in range(a.shape[0]):
        c += _popcount(a[w] & b[w])
    return c


@njit(cache=True)
def layouts(state: np.ndarray, nbr: np.ndarray, mines: int, limit: int) -> np.ndarray:
    """Every mine layout over the hidden cells consistent with ``state`` (flags are mines).

    Returns a boolean array of shape ``(L, n)`` (flags included as mines), or
    shape ``(limit + 1, 0)`` when there are more than ``limit``.
    """  # pragma: no cover - compiled
    n = state.shape[0]
    deg = nbr.shape[1]
    need = np.zeros(n, np.int64)
    room = np.zeros(n, np.int64)
    flags = 0
    is_front = np.zeros(n, np.bool_)
    for i in range(n):
        if state[i] == FLAG:
            flags += 1
        elif state[i] >= 0:
            need[i] = state[i]
            for k in range(deg):
                j = nbr[i, k]
                if j < n:
                    if state[j] == HIDDEN:
                        room[i] += 1
                        is_front[j] = True
                    elif state[j] == FLAG:
                        need[i] -= 1
            if need[i] < 0 or need[i] > room[i]:
                return np.zeros((0, n), np.bool_)
    order = np.empty(n, np.int64)
    background = np.empty(n, np.int64)
    m = 0
    b = 0
    for j in range(n):
        if state[j] == HIDDEN:
            if is_front[j]:
                order[m] = j
                m += 1
            else:
                background[b] = j
                b += 1
    left = mines - flags
    found = np.zeros((limit + 1, n), np.bool_)
    count = 0
    choice = np.full(m + 1, -1, np.int64)
    used = 0
    pos = 0
    combo = np.empty(max(b, 1), np.int64)
    while pos >= 0:
        if pos == m:
            rest = left - used
            if 0 <= rest <= b:
                for t in range(rest):
                    combo[t] = t
                while True:
                    if count == limit:
                        return np.zeros((limit + 1, 0), np.bool_)
                    for i in range(n):
                        found[count, i] = state[i] == FLAG
                    for t in range(m):
                        if choice[t] == 1:
                            found[count, order[t]] = True
                    for t in range(rest):
                        found[count, background[combo[t]]] = True
                    count += 1
                    # next combination of `rest` among `b`, in lexicographic order
                    t = rest - 1
                    while t >= 0 and combo[t] == b - rest + t:
                        t -= 1
                    if t < 0:
                        break
                    combo[t] += 1
                    for u in range(t + 1, rest):
                        combo[u] = combo[u - 1] + 1
            pos -= 1
            continue
        cell = order[pos]
        if choice[pos] >= 0:  # undo the value tried last
            used -= choice[pos]
            for k in range(deg):
                i = nbr[cell, k]
                if i < n and state[i] >= 0:
                    need[i] += choice[pos]
                    room[i] += 1
        placed = False
        value = choice[pos] + 1
        remaining = m - pos - 1 + b
        while value <= 1 and not placed:
            if used + value <= left and used + value + remaining >= left:
                ok = True
                for k in range(deg):
                    i = nbr[cell, k]
                    if i < n and state[i] >= 0:
                        need[i] -= value
                        room[i] -= 1
                        if need[i] < 0 or need[i] > room[i]:
                            ok = False
                if ok:
                    choice[pos] = value
                    used += value
                    placed = True
                else:
                    for k in range(deg):
                        i = nbr[cell, k]
                        if i < n and state[i] >= 0:
                            need[i] += value
                            room[i] += 1
            value += 1
        if placed:
            pos += 1
            choice[pos] = -1
        else:
            choice[pos] = -1
            pos -= 1
    return found[:count].copy()


@njit(cache=True)
def _shown(
    cell: int, a: int, low: np.uint64, high: np.uint64, search: _Search, seen: np.ndarray, flood: np.ndarray
) -> int:  # pragma: no cover - compiled
    """The cells layout ``a`` shows on revealing ``cell`` (through its zeros), into ``flood``; how many.

    The cells revealed by the search already (``low``/``high``, bit ``bit[i]``)
    are left out; ``seen`` comes clear and is left marked at the cells shown.
    """
    board, nbr, _, numbers, bit, _, _, _, _ = search
    n = board.shape[0]
    deg = nbr.shape[1]
    size = 1
    flood[0] = cell
    seen[cell] = True
    head = 0
    while head < size:
        i = flood[head]
        head += 1
        if numbers[a, i] == 0:
            for k in range(deg):
                j = nbr[i, k]
                if j < n and board[j] == HIDDEN and not seen[j]:
                    bj = bit[j]
                    if bj >= 0 and (((low if bj < 64 else high) >> np.uint64(bj % 64)) & _ONE):
                        continue  # revealed already by the search
                    seen[j] = True
                    flood[size] = j
                    size += 1
    return size


@njit(cache=True)
def _alike(
    rest: np.ndarray, a: int, flood: np.ndarray, size: int, mined_by: np.ndarray, numbers: np.ndarray
) -> np.ndarray:  # pragma: no cover - compiled
    """The layouts of ``rest`` that show the cells ``flood[:size]`` as layout ``a`` does (none a mine)."""
    words = rest.shape[0]
    group = np.zeros(words, np.uint64)
    for w in range(words):
        others = rest[w]
        while others:
            b = _lowest_bit(others)
            others &= ~(_ONE << np.uint64(b))
            other = 64 * w + b
            same = True
            for t in range(size):
                i = flood[t]
                if _has(mined_by[i], other) or numbers[other, i] != numbers[a, i]:
                    same = False
                    break
            if same:
                group[w] |= _ONE << np.uint64(b)
    return group


@njit(cache=True)
def _reveals(
    live: np.ndarray, low: np.uint64, high: np.uint64, search: _Search, shortcut: bool
) -> tuple[np.ndarray, np.ndarray, int]:  # pragma: no cover - compiled
    """The reveals to try in a position: the cells, how many layouts of ``live`` mine each, how many.

    The cells not revealed yet, by (mined, cell); with ``shortcut``, the first
    cell no layout mines alone when there is one.
    """
    _, _, mined_by, _, bit, open_cells, _, _, _ = search
    m = open_cells.shape[0]
    mined = np.empty(m, np.int64)
    candidates = np.empty(m, np.int64)
    c = np.int64(0)
    safe = np.int64(-1)
    for t in range(m):
        i = open_cells[t]
        bi = bit[i]
        if ((low if bi < 64 else high) >> np.uint64(bi % 64)) & _ONE:
            continue
        k = _size_of_both(mined_by[i], live)
        if k == 0 and safe < 0:
            safe = i
        mined[c] = k
        candidates[c] = i
        c += 1
    if shortcut and safe >= 0:  # the only reveal tried: no layout mines it
        candidates[0] = safe
        mined[0] = 0
        c = np.int64(1)
    else:
        _sort_by_mined(candidates, mined, c)
    return candidates, mined, int(c)


@njit(cache=True)
def _best(
    live: np.ndarray, low: np.uint64, high: np.uint64, search: _Search
) -> tuple[int, int]:  # pragma: no cover - compiled
    """The layouts of ``live`` won by best play, and its first reveal; (-1, -1) past the search's nodes.

    ``low``/``high`` mark the cells revealed by the search so far (bit ``bit[i]``);
    ``search`` is what every position shares: (board, nbr, mined_by, numbers,
    bit, open_cells, memo, nodes, max_nodes). Below the root (where the search
    has revealed nothing: every position below has its reveal's bit) a cell no
    layout mines is taken without branching; at the root every cell is tried
    and the first tried stands even when it wins no layout.
    """
    board, _, mined_by, numbers, bit, _, memo, nodes, max_nodes = search
    root = low == 0 and high == 0
    n = board.shape[0]
    words = live.shape[0]
    candidates, mined, c = _reveals(live, low, high, search, not root)
    count = _size(live)
    seen = np.zeros(n, np.bool_)
    flood = np.empty(n, np.int64)
    rest = np.empty(words, np.uint64)
    best = -1 if root else 0
    best_cell = -1
    for t in range(c):
        if count - mined[t] <= best:
            break
        cell = candidates[t]
        for w in range(words):
            rest[w] = live[w] & ~mined_by[cell, w]
        value = 0
        a = _lowest(rest)
        while a >= 0:  # the layouts left split by what revealing `cell` shows
            size = _shown(cell, a, low, high, search, seen, flood)
            group = _alike(rest, a, flood, size, mined_by, numbers)
            for w in range(words):
                rest[w] &= ~group[w]
            a = _lowest(rest)
            new_low = low
            new_high = high
            for u in range(size):
                i = flood[u]
                seen[i] = False
                if bit[i] < 64:
                    new_low |= _ONE << np.uint64(bit[i])
                else:
                    new_high |= _ONE << np.uint64(bit[i] - 64)
            if _size(group) == 1:
                value += 1
                continue
            padded = np.zeros(_KEY_SIZE, np.uint64)
            padded[:words] = group
            padded[WORDS] = new_low
            padded[WORDS + 1] = new_high
            key = to_fixed_tuple(padded, _KEY_SIZE)  # type: ignore[call-arg,var-annotated]
            if key in memo:
                value += memo[key]
                continue
            nodes[0] += 1
            if nodes[0] > max_nodes:
                return -1, -1
            won = _best(group, new_low, new_high, search)[0]
            if won < 0:
                return -1, -1
            memo[key] = won
            value += won
        if value > best:
            best = value
            best_cell = cell
    return best, best_cell


@njit(cache=True)
def _sort_by_mined(cells: np.ndarray, mined: np.ndarray, count: int) -> None:  # pragma: no cover - compiled
    """Sort the first ``count`` entries by (mined, cell), in place (insertion sort: short lists)."""
    for t in range(1, count):
        c = cells[t]
        k = mined[t]
        u = t - 1
        while u >= 0 and (mined[u] > k or (mined[u] == k and cells[u] > c)):
            cells[u + 1] = cells[u]
            mined[u + 1] = mined[u]
            u -= 1
        cells[u + 1] = c
        mined[u + 1] = k


@njit(cache=True)
def endgame_move(state: np.ndarray, nbr: np.ndarray, mines: int, limit: int, max_nodes: int) -> int:
    """The reveal of best winning chance when at most ``limit`` layouts remain.

    Returns the cell (among equals the one fewest layouts mine, then the lowest
    index), or -1 when there are more than ``limit`` layouts or the search
    passed ``max_nodes`` positions (the heuristic guesses then), or -2 when the
    position is beyond the compiled search's words (more than :data:`MAX_LAYOUTS`
    layouts or 128 cells that some layout leaves safe: the exact engine plays
    such a game).
    """  # pragma: no cover - compiled
    n = state.shape[0]
    deg = nbr.shape[1]
    if limit > MAX_LAYOUTS:
        return -2
    found = layouts(state, nbr, mines, limit)
    total = found.shape[0]
    if found.shape[1] != n or total == 0:
        return -1
    words = total // 64 + 1
    everything = np.zeros(words, np.uint64)
    mined_by = np.zeros((n, words), np.uint64)
    for li in range(total):
        everything[li >> 6] |= _ONE << np.uint64(li & 63)
        for i in range(n):
            if found[li, i]:
                mined_by[i, li >> 6] |= _ONE << np.uint64(li & 63)
    numbers = np.zeros((total, n), np.int8)
    for li in range(total):
        for i in range(n):
            if found[li, i]:
                for k in range(deg):
                    j = nbr[i, k]
                    if j < n:
                        numbers[li, j] += 1
    bit = np.full(n, -1, np.int64)
    open_cells = np.empty(n, np.int64)
    m = np.int64(0)
    for i in range(n):
        if state[i] == HIDDEN and _size(mined_by[i]) != total:
            if m == 128:
                return -2
            bit[i] = m
            open_cells[m] = i
            m += 1
    open_cells = open_cells[:m].copy()
    memo = Dict.empty(key_type=_KEY, value_type=types.int64)
    search = (state, nbr, mined_by, numbers, bit, open_cells, memo, np.zeros(1, np.int64), max_nodes)
    return _best(everything, _ZERO, _ZERO, search)[1]


@njit(cache=True)
def isolated_parts(state: np.ndarray, nbr: np.ndarray, prob: np.ndarray, part_of: np.ndarray) -> int:
    """The closed-off parts of a position, numbered in ``part_of`` (``-1``: in none); returns how many.

    The cells in play are the hidden ones of probability strictly between 0
    and 1 next to a revealed number; two are in one part when they share a
    number. A part is *closed off* when every cell around each of its cells
    is revealed, a certain mine (probability 1) or in the part: no reveal
    outside it can ever show anything about it. Parts are numbered by their
    lowest cell.
    """  # pragma: no cover - compiled
    n = state.shape[0]
    deg = nbr.shape[1]
    parent = np.arange(n)
    front = np.zeros(n, np.bool_)
    for i in range(n):
        if state[i] >= 0:
            first = np.int64(-1)
            for k in range(deg):
                j = nbr[i, k]
                if j < n and state[j] == HIDDEN and 0.0 < prob[j] < 1.0:
                    front[j] = True
                    if first < 0:
                        first = j
                    else:
                        a = find_root(parent, first)
                        b = find_root(parent, j)
                        if a != b:
                            parent[max(a, b)] = min(a, b)
    open_part = np.zeros(n, np.bool_)  # by root: some cell around the part is neither in it nor known
    for i in range(n):
        if front[i]:
            r = find_root(parent, i)
            for k in range(deg):
                j = nbr[i, k]
                if j < n and state[j] < 0 and prob[j] < 1.0 and not (front[j] and find_root(parent, j) == r):
                    open_part[r] = True
    number = np.full(n, -1, np.int64)
    parts = 0
    for i in range(n):
        part_of[i] = -1
        if front[i]:
            r = find_root(parent, i)
            if not open_part[r]:
                if number[r] < 0:
                    number[r] = parts
                    parts += 1
                part_of[i] = number[r]
    return parts


@njit(cache=True)
def isolated_move(
    state: np.ndarray, nbr: np.ndarray, mines: int, prob: np.ndarray, limit: int, max_nodes: int
) -> int:
    """The exact best reveal inside a closed-off part of fixed mine count (``-1``: no such part searched).

    A closed-off part (:func:`isolated_parts`) all of whose layouts hold the
    same number of mines is a game of its own: nothing outside it tells about
    it and its layouts do not weigh the rest's, so its best play is the end
    game's over its own layouts, whatever is played elsewhere. The parts are
    tried in order (by their lowest cell); the first with at most ``limit``
    layouts whose search ends within ``max_nodes`` positions gives the move
    (:func:`~analyzer.play.fast.endgame.endgame_move` on the part alone: the
    revealed numbers around it kept, certain mines flagged, every other cell
    out of play).
    """  # pragma: no cover - compiled
    n = state.shape[0]
    deg = nbr.shape[1]
    part_of = np.empty(n, np.int64)
    parts = isolated_parts(state, nbr, prob, part_of)
    sub = np.empty(n, np.int8)
    for p in range(parts):
        size = 0
        flags = 0
        for i in range(n):
            if part_of[i] == p:
                sub[i] = HIDDEN
                size += 1
            elif state[i] < 0 and prob[i] == 1.0:
                sub[i] = FLAG
                flags += 1
            else:
                sub[i] = SAFE  # out of play: neither a number nor a cell of the part
        for i in range(n):
            if part_of[i] == p:
                for k in range(deg):
                    j = nbr[i, k]
                    if j < n and state[j] >= 0:
                        sub[j] = state[j]
        count = -1  # the part's mine count, -2 when it can hold more than one or too many layouts
        for k in range(size + 1):
            found = layouts(sub, nbr, flags + k, limit)
            if found.shape[1] != n:
                count = -2
                break
            if found.shape[0] > 0:
                if count >= 0:
                    count = -2
                    break
                count = k
        if count < 0:
            continue
        cell = endgame_move(sub, nbr, flags + count, limit, max_nodes)
        if cell >= 0:
            return cell
    return -1
