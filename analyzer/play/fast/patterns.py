"""The ``expert`` player's 50/50 patterns, compiled (numba): the cells they explain, the ones they threaten.

The compiled form of :mod:`analyzer.play.forced` (which says what a pattern, its
end cells and a pseudo-50/50 cell are): the same cells, in floats.
:func:`fifty_fifty_patterns` lists a board's patterns from its neighbour table
(:func:`no_patterns`: none); :func:`pseudo_fifty_fifties` finds a position's
cells that such a pattern explains, among them those of the position's chains
of linked pairs (:func:`chain_patterns`); :func:`fifty_influence` is the
chance that a 50/50 forms around a candidate. Positions and codes are those of
:mod:`analyzer.play.fast.probabilities`.
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.probabilities import FLAG, HIDDEN, SAFE, probabilities

__all__ = ["fifty_fifty_patterns", "no_patterns", "pseudo_fifty_fifties", "chain_patterns", "fifty_influence"]

Solved = tuple[np.ndarray, np.ndarray, int, np.ndarray, float, int]
"""A position and its solution, as the kernels here take it: ``(known, nbr, mines, prob, log_total,
max_nodes)``, ``known`` the position after the single-number rules, ``prob`` its probabilities,
``log_total`` the natural log of its number of layouts, ``max_nodes`` the solves' budget."""


@njit(cache=True)
def _neighbours(nbr: np.ndarray, a: int, b: int) -> bool:  # pragma: no cover - compiled
    for k in range(nbr.shape[1]):  # noqa: SIM110 - a loop numba compiles without a generator
        if nbr[a, k] == b:
            return True
    return False


@njit(cache=True)
def _pattern_ends(
    nbr: np.ndarray, side: np.ndarray, k: int, ends: np.ndarray
) -> int:  # pragma: no cover - compiled
    """The end cells of the pattern ``side[:k]`` against ``side[k:2k]``, into ``ends`` ascending; how many."""
    n = nbr.shape[0]
    count = 0
    for t in range(2 * k):
        for u in range(nbr.shape[1]):
            x = nbr[side[t], u]
            if x >= n:
                continue
            seen = False
            for v in range(2 * k):
                seen = seen or side[v] == x
            for v in range(count):
                seen = seen or ends[v] == x
            if seen:
                continue
            first = 0
            second = 0
            for v in range(k):
                first += _neighbours(nbr, x, side[v])
                second += _neighbours(nbr, x, side[k + v])
            if first != second:
                ends[count] = x
                count += 1
    ends[:count].sort()
    return count


@njit(cache=True)
def fifty_fifty_patterns(nbr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every pattern of a neighbour table, as :func:`analyzer.play.forced.fifty_fifty_patterns` lists them.

    Returns ``(sides, sizes, ends, end_counts)``: row ``q`` of ``sides`` holds
    the pattern's first side (``sizes[q]`` cells) then its second; row ``q`` of
    ``ends`` its ``end_counts[q]`` end cells.
    """
    n = nbr.shape[0]
    deg = nbr.shape[1]
    sides = np.empty((0, 4), np.int64)
    sizes = np.empty(0, np.int64)
    ends = np.empty((0, 4 * deg), np.int64)
    counts = np.empty(0, np.int64)
    side = np.empty(4, np.int64)
    buffer = np.empty(4 * deg, np.int64)
    later = np.empty(deg, np.int64)
    for rounds in range(2):  # count, then fill
        q = np.int64(0)
        for pairs in (True, False):  # every pair first, then every 4-clique
            for a in range(n):
                m = np.int64(0)
                for u in range(deg):
                    if a < nbr[a, u] < n:
                        later[m] = nbr[a, u]
                        m += 1
                later[:m].sort()
                if pairs:
                    for i in range(m):
                        if rounds == 1:
                            side[0], side[1] = a, later[i]
                            sides[q, :2] = side[:2]
                            sizes[q] = 1
                            counts[q] = _pattern_ends(nbr, side, np.int64(1), buffer)
                            ends[q, : counts[q]] = buffer[: counts[q]]
                        q += 1
                    continue
                q = _cliques(nbr, a, later, m, rounds == 1, q, side, sides, sizes, ends, counts, buffer)
        if rounds == 0:
            sides = np.zeros((q, 4), np.int64)
            sizes = np.zeros(q, np.int64)
            ends = np.zeros((q, 4 * deg), np.int64)
            counts = np.zeros(q, np.int64)
    return sides, sizes, ends, counts


@njit(cache=True)
def _cliques(
    nbr: np.ndarray,
    a: int,
    later: np.ndarray,
    m: int,
    fill: bool,
    q: int,
    side: np.ndarray,
    sides: np.ndarray,
    sizes: np.ndarray,
    ends: np.ndarray,
    counts: np.ndarray,
    buffer: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """The three splits of each 4-clique of first cell ``a`` (the rest from ``later[:m]``), from row ``q``."""
    for i in range(m):
        for j in range(i + 1, m):
            for h in range(j + 1, m):
                b, c, d = later[i], later[j], later[h]
                if not (_neighbours(nbr, b, c) and _neighbours(nbr, b, d) and _neighbours(nbr, c, d)):
                    continue
                for split in range(3):
                    if fill:
                        if split == 0:
                            side[0], side[1], side[2], side[3] = a, b, c, d
                        elif split == 1:
                            side[0], side[1], side[2], side[3] = a, c, b, d
                        else:
                            side[0], side[1], side[2], side[3] = a, d, b, c
                        sides[q] = side
                        sizes[q] = 2
                        counts[q] = _pattern_ends(nbr, side, np.int64(2), buffer)
                        ends[q, : counts[q]] = buffer[: counts[q]]
                    q += 1
    return q


_PSEUDO_TOL = 1e-9
"""Relative tolerance of a pseudo-50/50 cell's probability against its 50/50's share (floats)."""


@njit(cache=True)
def _pattern_share(
    solved: Solved, side: np.ndarray, k: int, missing: np.ndarray, m: int, trial: np.ndarray
) -> float:  # pragma: no cover - compiled
    """The share of the layouts of ``known`` (``Solved``) with ``missing[:m]`` and ``side[:k]``
    mines and ``side[k:2k]`` safe: 0.0 when none fits, -1.0 when the position was too hard to
    enumerate. ``trial`` is scratch space of ``known``'s size."""
    known, nbr, mines, _, log_total, max_nodes = solved
    trial[:] = known
    for t in range(m):
        trial[missing[t]] = FLAG
    for t in range(k):
        trial[side[t]] = FLAG
        trial[side[k + t]] = SAFE
    info = np.zeros(1)
    status = probabilities(trial, nbr, mines, np.empty(known.shape[0]), max_nodes, info)
    if status < 0:
        return -1.0
    if status == 0:
        return 0.0
    return math.exp(info[0] - log_total)


@njit(cache=True)
def _union(cells: np.ndarray, count: int, more: np.ndarray, extra: int) -> int:  # pragma: no cover - compiled
    """``cells[:count]`` and ``more[:extra]`` (each ascending) merged into ``cells``: ascending, once each.

    Returns how many cells ``cells`` then holds."""
    merged = np.empty(count + extra, np.int64)
    i = 0
    j = 0
    m = 0
    while i < count or j < extra:
        if j == extra or (i < count and cells[i] <= more[j]):
            cell = cells[i]
            i += 1
        else:
            cell = more[j]
            j += 1
        if m == 0 or merged[m - 1] != cell:
            merged[m] = cell
            m += 1
    cells[:m] = merged[:m]
    return m


@njit(cache=True)
def pseudo_fifty_fifties(
    solved: Solved, patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], out: np.ndarray
) -> int:  # pragma: no cover - compiled
    """The pseudo-50/50 cells of the position (:func:`analyzer.play.forced.pseudo_fifty_fifties`), ascending.

    ``solved`` is the position and its solution (``Solved``), ``patterns``
    :func:`fifty_fifty_patterns` of its ``nbr``. Each pattern looked at is
    counted by solving the position with its end cells and first side flagged
    and its second side marked safe. Writes the cells to ``out`` and returns
    their number, or -1 when a position was too hard to enumerate.
    """
    known, _, _, prob, _, _ = solved
    sides, sizes, ends, end_counts = patterns
    n = known.shape[0]
    found = np.zeros(n, np.bool_)
    trial = np.empty_like(known)
    missing = np.empty(ends.shape[1], np.int64)
    for q in range(sides.shape[0]):
        k = sizes[q]
        usable = True
        lowest = 1.0
        for t in range(2 * k):
            c = sides[q, t]
            if known[c] != HIDDEN or not 0.0 < prob[c] < 1.0:
                usable = False
                break
            lowest = min(lowest, prob[c])
        m = np.int64(0)
        for e in range(end_counts[q]):
            if not usable:
                break
            j = ends[q, e]
            if known[j] >= 0 or known[j] == SAFE:
                usable = False  # a revealed end cell is no mine: this pattern cannot form
            elif known[j] != FLAG and prob[j] < 1.0:
                if m == k or prob[j] < lowest * (1.0 - _PSEUDO_TOL):
                    usable = False  # too many unknown end cells, or one less likely than every cell here
                else:
                    missing[m] = j
                    m += 1
        if not usable:
            continue
        share = _pattern_share(solved, sides[q], k, missing, m, trial)
        if share < 0.0:
            return -1
        if share == 0.0:
            continue
        for t in range(2 * k):
            c = sides[q, t]
            if abs(share - prob[c]) <= _PSEUDO_TOL * prob[c]:
                found[c] = True
    count = 0
    for i in range(n):
        if found[i]:
            out[count] = i
            count += 1
    return count


_CHAIN_SIDE = 4
"""A chain of linked pairs is a pattern with at most this many cells a side (as
``analyzer.play.forced.CHAIN_SIDE``)."""


@njit(cache=True)
def chain_patterns(
    known: np.ndarray, nbr: np.ndarray, prob: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """The position's chains of linked pairs that may be 50/50s (:func:`analyzer.play.forced.chain_patterns`).

    ``known`` is the position after the single-number rules and ``prob`` its
    probabilities. The patterns come as :func:`fifty_fifty_patterns` gives
    them (rows of ``sides`` of width ``2 * _CHAIN_SIDE``), in the order of
    their lowest cell; an empty set when there is none.
    """
    n = known.shape[0]
    deg = nbr.shape[1]
    first = np.full(n, -1, np.int64)  # links as lists: each cell's first link, each link's next
    after = np.empty(2 * n, np.int64)
    target = np.empty(2 * n, np.int64)
    links = 0
    for y in range(n):
        if known[y] < 0:
            continue
        a = -1
        b = -1
        unknown = 0
        for t in range(deg):
            x = nbr[y, t]
            if x >= n:
                continue
            if known[x] == HIDDEN and 0.0 < prob[x] < 1.0:
                unknown += 1
                if unknown == 1:
                    a = x
                else:
                    b = x
        if unknown == 2:  # a number that sees two cells in doubt needs one mine among them
            for u, v in ((a, b), (b, a)):
                target[links] = v
                after[links] = first[u]
                first[u] = links
                links += 1
    limit = n // 4 + 1
    sides = np.zeros((limit, 2 * _CHAIN_SIDE), np.int64)
    sizes = np.zeros(limit, np.int64)
    ends = np.zeros((limit, 2 * _CHAIN_SIDE * deg), np.int64)
    counts = np.zeros(limit, np.int64)
    colour = np.full(n, -1, np.int64)
    chain = np.empty(n, np.int64)
    side = np.empty(2 * _CHAIN_SIDE, np.int64)
    q = 0
    for start in range(n):
        if first[start] < 0 or colour[start] >= 0:
            continue
        colour[start] = 0
        chain[0] = start
        size = 1
        done = 0
        while done < size:  # breadth first: the queue is the chain itself
            cell = chain[done]
            done += 1
            link = first[cell]
            while link >= 0:
                other = target[link]
                if colour[other] < 0:
                    colour[other] = 1 - colour[cell]
                    chain[size] = other
                    size += 1
                link = after[link]
        k = np.int64(0)
        for t in range(size):
            k += colour[chain[t]] == 0
        if 2 * k != size or not 2 <= k <= _CHAIN_SIDE:
            continue
        ones = 0
        twos = k
        chain[:size].sort()
        for t in range(size):
            if colour[chain[t]] == colour[start]:
                side[ones] = chain[t]
                ones += 1
            else:
                side[twos] = chain[t]
                twos += 1
        sides[q, : 2 * k] = side[: 2 * k]
        sizes[q] = k
        counts[q] = _pattern_ends(nbr, side, k, ends[q])
        q += 1
    return sides[:q], sizes[:q], ends[:q], counts[:q]


_LONGTERM_MISSING = 3
"""At most this many end cells of a 50/50 that may form can still be unknown (neither flagged nor certain)."""


@njit(cache=True)
def fifty_influence(
    solved: Solved,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    cands: np.ndarray,
    count: int,
    influence: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """The chance that a 50/50 forms around each of ``cands[:count]`` in ``solved`` (``Solved``),
    into ``influence``.

    A pattern (:func:`fifty_fifty_patterns`) may form where its side cells are
    in doubt (hidden, probability strictly between 0 and 1), none of its end
    cells is revealed or safe, and at most ``_LONGTERM_MISSING`` end cells are
    unknown (neither flagged nor certain mines). Its share is the fraction of
    the layouts with its unknown end cells and first side mines and its
    second side safe (solved as :func:`pseudo_fifty_fifties` does). A
    candidate's influence sums the shares of the patterns it is a side cell
    of, and of those whose only unknown end cell it is (a guess there stops
    the 50/50 forming), at most its probability and its safety. Returns 1, or
    -1 when a position was too hard to enumerate.
    """
    known, _, _, prob, _, _ = solved
    sides, sizes, ends, end_counts = patterns
    n = known.shape[0]
    wanted = np.zeros(n, np.bool_)
    for t in range(count):
        wanted[cands[t]] = True
        influence[cands[t]] = 0.0
    trial = np.empty_like(known)
    missing = np.empty(ends.shape[1], np.int64)
    for q in range(sides.shape[0]):
        k = sizes[q]
        usable = True
        touches = False
        for t in range(2 * k):
            c = sides[q, t]
            if known[c] != HIDDEN or not 0.0 < prob[c] < 1.0:
                usable = False
                break
            touches = touches or wanted[c]
        m = np.int64(0)
        for e in range(end_counts[q]):
            if not usable:
                break
            j = ends[q, e]
            if known[j] >= 0 or known[j] == SAFE or (known[j] == HIDDEN and prob[j] == 0.0):
                usable = False  # an end cell that is no mine: this pattern cannot form
            elif known[j] != FLAG and prob[j] < 1.0:
                if m == _LONGTERM_MISSING:
                    usable = False
                else:
                    missing[m] = j
                    m += 1
        if not usable:
            continue
        stops = m == 1 and wanted[missing[0]]
        if not (touches or stops):
            continue
        share = _pattern_share(solved, sides[q], k, missing, m, trial)
        if share < 0.0:
            return -1
        if share == 0.0:
            continue
        for t in range(2 * k):
            if wanted[sides[q, t]]:
                influence[sides[q, t]] += share
        if stops:
            influence[missing[0]] += share
    for t in range(count):
        c = cands[t]
        influence[c] = min(influence[c], prob[c], 1.0 - prob[c])
    return 1


@njit(cache=True)
def no_patterns() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """No 50/50 patterns: what :func:`expert_guess` takes when pseudo-50/50s are not looked for."""
    return (
        np.empty((0, 4), np.int64),
        np.empty(0, np.int64),
        np.empty((0, 1), np.int64),
        np.empty(0, np.int64),
    )
