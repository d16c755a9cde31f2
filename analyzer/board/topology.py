"""Neighbourhoods of cells: the one place that knows how cells touch.

Everything else in the package asks :func:`neighbour_table` (or
:meth:`analyzer.Board.neighbours`, which calls it) and never adds offsets to
coordinates itself, so that a new topology is one more branch here.

Topologies
----------
``"square"``
    The usual board: the eight cells around, clipped at the edges.
``"torus"``
    Wrap-around: the left edge touches the right one and the top the bottom.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["TOPOLOGIES", "neighbour_table", "neighbour_array", "chebyshev_ball"]

TOPOLOGIES = ("square", "torus")

_OFFSETS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


@lru_cache(maxsize=64)
def neighbour_table(topology: str, width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Neighbours of every cell as flat indices (``row * width + col``).

    Parameters
    ----------
    topology : str
        One of :data:`TOPOLOGIES`.
    width, height : int
        Size of the board.

    Returns
    -------
    tuple of tuple of int
        Entry ``i`` lists the distinct neighbours of cell ``i``, in row-major order.

    Examples
    --------
    >>> neighbour_table("square", 3, 2)[0]
    (1, 3, 4)
    >>> len(neighbour_table("torus", 4, 4)[0])
    8
    """
    if topology not in TOPOLOGIES:
        raise ValueError(f"unknown topology {topology!r}; expected one of {TOPOLOGIES}")
    if topology == "square":
        # Rows of the padded array are already in row-major order: drop the padding.
        array = _square_array(width, height)
        counts = (array != width * height).sum(axis=1).tolist()
        return tuple([tuple(row[:k]) for row, k in zip(array.tolist(), counts, strict=True)])
    table = []
    for r in range(height):
        for c in range(width):
            found = set()
            for dr, dc in _OFFSETS:
                rr, cc = (r + dr) % height, (c + dc) % width
                if (rr, cc) != (r, c):
                    found.add(rr * width + cc)
            table.append(tuple(sorted(found)))
    return tuple(table)


def _square_array(width: int, height: int) -> np.ndarray:
    """Neighbours on the square board, ``(N, 8)``, padded with ``N``, each row ascending.

    The offsets go in row-major order, so the valid entries of a row ascend
    (two offsets of one row land on the same index only when the board is two
    wide, and then one of them is off the board).
    """
    n = width * height
    rows, cols = np.divmod(np.arange(n, dtype=np.intp), width)
    array = np.full((n, 8), n, dtype=np.intp)
    for k, (dr, dc) in enumerate(_OFFSETS):
        rr, cc = rows + dr, cols + dc
        inside = (rr >= 0) & (rr < height) & (cc >= 0) & (cc < width)
        array[:, k] = np.where(inside, rr * width + cc, n)
    # Move the padding to the end of each row, keeping the order of the rest.
    order = np.argsort(array == n, axis=1, kind="stable")
    return np.take_along_axis(array, order, axis=1)


@lru_cache(maxsize=64)
def neighbour_array(topology: str, width: int, height: int) -> np.ndarray:
    """:func:`neighbour_table` as an ``(N, 8)`` int array, padded with ``N``.

    Index ``N`` stands for "no neighbour": give arrays indexed by it one extra
    entry (``False`` or 0) so that sums over rows count real neighbours only.

    >>> neighbour_array("square", 2, 1).tolist()
    [[1, 2, 2, 2, 2, 2, 2, 2], [0, 2, 2, 2, 2, 2, 2, 2]]
    """
    if topology == "square":
        array = _square_array(width, height)
        array.setflags(write=False)
        return array
    table = neighbour_table(topology, width, height)
    n = width * height
    array = np.full((n, 8), n, dtype=np.intp)
    for i, around in enumerate(table):
        array[i, : len(around)] = around
    array.setflags(write=False)
    return array


def chebyshev_ball(
    topology: str, width: int, height: int, row: int, col: int, radius: int
) -> tuple[int, ...]:
    """Flat indices of the cells within Chebyshev distance ``radius`` of a cell.

    The cell itself is included; radius 1 is the cell and its neighbours.

    Examples
    --------
    >>> chebyshev_ball("square", 3, 3, 0, 0, 1)
    (0, 1, 3, 4)
    """
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius!r}")
    # Grow by neighbourhoods so the ball follows the topology.
    table = neighbour_table(topology, width, height)
    ball = {row * width + col}
    frontier = set(ball)
    for _ in range(radius):
        frontier = {n for i in frontier for n in table[i]} - ball
        if not frontier:  # the whole board (or its connected part) is covered
            break
        ball |= frontier
    return tuple(sorted(ball))
