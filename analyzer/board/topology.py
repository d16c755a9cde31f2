"""Neighbourhoods of cells: the one place that knows how cells touch.

Everything else in the package asks :func:`neighbour_table` (or
:meth:`analyzer.Board.neighbours`, which calls it) and never adds offsets to
coordinates itself, so that a new topology is one more branch here.

Cells are numbered row-major, ``row * width + col``, on every topology.

Topologies
----------
``"square"``
    The usual board: the eight cells around, clipped at the edges.
``"torus"``
    Wrap-around: the left edge touches the right one and the top the bottom.
``"hex"``
    Hexagonal cells in offset rows, six neighbours, as minesweepr's ``HexGridTopo``:
    odd rows sit half a cell to the left of even rows, so a cell ``(r, c)`` of an
    even row touches ``(r, c - 1)``, ``(r, c + 1)``, ``(r +- 1, c)`` and ``(r +- 1, c + 1)``,
    one of an odd row ``(r, c +- 1)``, ``(r +- 1, c - 1)`` and ``(r +- 1, c)``. Every row
    holds ``width`` cells (minesweepr's odd rows hold one more).
``"cube"``
    The surface of a cube of ``n x n`` faces: ``width = n``, ``height = 6 * n``, the six
    faces stacked (face ``f`` is rows ``f * n`` to ``f * n + n - 1``), the order of
    minesweepr's ``CubeSurfaceTopo``. Two cells touch when their squares share a point
    on the surface: eight neighbours everywhere except the 24 cells at the cube's corners,
    which have seven (minesweepr's rule: across an edge, never across a corner). The faces
    unfold into the net :data:`CUBE_NET`, each face upright.
``"knight"``
    The square grid where a cell's neighbours are the (up to eight) cells a chess
    knight's move away.
``"cross"``
    The square grid where a cell's neighbours are the (up to eight) cells one and two
    steps along its row and its column.
:class:`Graph`
    Any graph: a board of ``width = len(graph)`` cells in one row, whose
    neighbourhoods the graph lists (symmetric, each cell at most
    :data:`MAX_DEGREE` neighbours).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeAlias

import numpy as np

from analyzer.errors import BoardParseError

__all__ = [
    "TOPOLOGIES",
    "ALIASES",
    "MAX_DEGREE",
    "CUBE_NET",
    "Graph",
    "Topology",
    "topology_name",
    "check_topology",
    "neighbour_table",
    "neighbour_array",
    "chebyshev_ball",
]

TOPOLOGIES = ("square", "torus", "hex", "cube", "knight", "cross")
"""The named topologies (a :class:`Graph` is the unnamed one)."""

ALIASES = {"hexagonal": "hex", "toroidal": "torus"}
"""Other names :func:`topology_name` reads."""

MAX_DEGREE = 8
"""The most neighbours a cell has on any topology (a number is one digit, 0-8)."""

CUBE_NET = ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2))
"""Where each face of the ``"cube"`` sits in its unfolded net, in face units ``(row, column)``."""

_OFFSETS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_CROSS = ((-2, 0), (-1, 0), (0, -2), (0, -1), (0, 1), (0, 2), (1, 0), (2, 0))


@dataclass(frozen=True, eq=True)
class Graph:
    """A topology given as a graph: each cell's neighbours, by index.

    Parameters
    ----------
    neighbours : sequence of sequence of int
        Entry ``i`` lists the neighbours of cell ``i`` (stored sorted). The
        relation must be symmetric, without loops or repeats, each cell with at
        most :data:`MAX_DEGREE` neighbours.
    names : sequence of str, optional
        A name for each cell (distinct), used by the JSON format and the drawings.
    positions : sequence of (float, float), optional
        Where to draw each cell (x to the right, y down); a layout is computed when absent.

    Raises
    ------
    BoardParseError
        A neighbour out of range, listed twice or missing its way back, a cell
        touching itself, a name listed twice.

    Examples
    --------
    >>> path = Graph([[1], [0, 2], [1]])
    >>> len(path), path.neighbours[1]
    (3, (0, 2))
    >>> Graph([[1], []])
    Traceback (most recent call last):
    ...
    analyzer.errors.BoardParseError: graph is not symmetric: cell 0 lists 1 but cell 1 does not list 0
    """

    neighbours: tuple[tuple[int, ...], ...]
    names: tuple[str, ...] | None = None
    positions: tuple[tuple[float, float], ...] | None = None
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        try:
            table = [list(row) for row in self.neighbours]
        except TypeError:
            raise BoardParseError(
                f"graph neighbours must be lists of cell indices, got {self.neighbours!r}"
            ) from None
        n = len(table)
        if n == 0:
            raise BoardParseError("a graph needs at least one cell")
        for i, row in enumerate(table):
            seen: set[int] = set()
            for j in row:
                if isinstance(j, bool) or not isinstance(j, (int, np.integer)):
                    raise BoardParseError(f"cell {i}: neighbour {j!r} is not a cell index")
                if not 0 <= j < n:
                    raise BoardParseError(f"cell {i}: neighbour index {j!r} is out of range 0..{n - 1}")
                if j == i:
                    raise BoardParseError(f"cell {i} lists itself as a neighbour")
                if j in seen:
                    raise BoardParseError(f"cell {i} lists neighbour {j!r} twice")
                seen.add(int(j))
            if len(row) > MAX_DEGREE:
                raise BoardParseError(f"cell {i} has {len(row)} neighbours; at most {MAX_DEGREE} are allowed")
        sets = [set(int(j) for j in row) for row in table]
        for i, around in enumerate(sets):
            for j in sorted(around):
                if i not in sets[j]:
                    raise BoardParseError(
                        f"graph is not symmetric: cell {i} lists {j} but cell {j} does not list {i}"
                    )
        object.__setattr__(self, "neighbours", tuple(tuple(sorted(around)) for around in sets))
        if self.names is not None:
            names = tuple(self.names)
            if len(names) != n:
                raise BoardParseError(f"graph has {n} cells but {len(names)} names")
            seen_names: set[str] = set()
            for name in names:
                if not isinstance(name, str) or not name:
                    raise BoardParseError(f"a cell's name must be a non-empty string, got {name!r}")
                if name in seen_names:
                    raise BoardParseError(f"cell {name!r} is listed twice")
                seen_names.add(name)
            object.__setattr__(self, "names", names)
        if self.positions is not None:
            try:
                positions = tuple((float(x), float(y)) for x, y in self.positions)
            except (TypeError, ValueError):
                raise BoardParseError(f"positions must be pairs of numbers, got {self.positions!r}") from None
            if len(positions) != n:
                raise BoardParseError(f"graph has {n} cells but {len(positions)} positions")
            if not all(np.isfinite(v) for xy in positions for v in xy):
                raise BoardParseError("positions must be finite numbers")
            object.__setattr__(self, "positions", positions)
        object.__setattr__(self, "_hash", hash((self.neighbours, self.names, self.positions)))

    def __hash__(self) -> int:
        return self._hash

    def __len__(self) -> int:
        return len(self.neighbours)

    def __reduce__(self):  # type: ignore[no-untyped-def]  # pickling without the cached hash
        return (Graph, (self.neighbours, self.names, self.positions))

    def name_of(self, index: int) -> str:
        """The cell's name, or its index as text."""
        return self.names[index] if self.names is not None else str(index)


Topology: TypeAlias = str | Graph
"""A topology: one of :data:`TOPOLOGIES` by name, or a :class:`Graph`."""


def topology_name(topology: object) -> Topology:
    """The canonical form of a topology: a name of :data:`TOPOLOGIES` (aliases read), or the graph.

    Raises
    ------
    BoardParseError
        An unknown name.

    >>> topology_name("Hexagonal")
    'hex'
    >>> topology_name("sphere")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    analyzer.errors.BoardParseError: unknown topology 'sphere'; expected square, torus, hex, ... or a Graph
    """
    if isinstance(topology, Graph):
        return topology
    if isinstance(topology, str):
        name = topology.strip().lower()
        name = ALIASES.get(name, name)
        if name in TOPOLOGIES:
            return name
        if name == "graph":
            raise BoardParseError(
                "a graph is not named but given: its cells and neighbours, as a Graph or JSON"
            )
    raise BoardParseError(f"unknown topology {topology!r}; expected {', '.join(TOPOLOGIES)} or a Graph")


def check_topology(topology: object, width: int, height: int) -> Topology:
    """The canonical topology, checked against the board's size.

    A ``"cube"`` board is ``n`` wide and ``6 * n`` high; a graph's board is one row of its cells.

    Raises
    ------
    BoardParseError
        An unknown topology, or a size it cannot have.

    >>> check_topology("cube", 2, 12)
    'cube'
    >>> check_topology("cube", 2, 6)
    Traceback (most recent call last):
    ...
    analyzer.errors.BoardParseError: a cube of 2x2 faces is 2 wide and 12 high (its faces stacked), got 2x6
    """
    name = topology_name(topology)
    if name == "cube" and height != 6 * width:
        raise BoardParseError(
            f"a cube of {width}x{width} faces is {width} wide and {6 * width} high "
            f"(its faces stacked), got {width}x{height}"
        )
    if isinstance(name, Graph) and (height != 1 or width != len(name)):
        raise BoardParseError(
            f"a board on a graph of {len(name)} cells is {len(name)}x1 (one row), got {width}x{height}"
        )
    return name


@lru_cache(maxsize=64)
def neighbour_table(topology: Topology, width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Neighbours of every cell as flat indices (``row * width + col``).

    Parameters
    ----------
    topology : str or Graph
        One of :data:`TOPOLOGIES`, or a :class:`Graph`.
    width, height : int
        Size of the board.

    Returns
    -------
    tuple of tuple of int
        Entry ``i`` lists the distinct neighbours of cell ``i``, ascending.

    Examples
    --------
    >>> neighbour_table("square", 3, 2)[0]
    (1, 3, 4)
    >>> len(neighbour_table("torus", 4, 4)[0])
    8
    >>> neighbour_table("hex", 3, 3)[4]  # the middle of an odd row
    (0, 1, 3, 5, 6, 7)
    >>> sorted({len(around) for around in neighbour_table("cube", 3, 18)})
    [7, 8]
    """
    name = check_topology(topology, width, height)
    if isinstance(name, Graph):
        return name.neighbours
    if name == "square":
        # Rows of the padded array are already in row-major order: drop the padding.
        array = _square_array(width, height)
        counts = (array != width * height).sum(axis=1).tolist()
        return tuple([tuple(row[:k]) for row, k in zip(array.tolist(), counts, strict=True)])
    if name == "cube":
        return _cube_table(width)
    table = []
    for r in range(height):
        for c in range(width):
            table.append(tuple(sorted(_grid_neighbours(name, width, height, r, c))))
    return tuple(table)


def _grid_neighbours(name: str, width: int, height: int, r: int, c: int) -> set[int]:
    """The neighbours of ``(r, c)`` on a grid topology (torus, hex, knight, cross)."""
    found: set[int] = set()
    if name == "torus":
        for dr, dc in _OFFSETS:
            rr, cc = (r + dr) % height, (c + dc) % width
            if (rr, cc) != (r, c):
                found.add(rr * width + cc)
        return found
    if name == "hex":
        shift = 0 if r % 2 == 0 else -1  # the columns an even row's cell touches above and below: c, c + 1
        offsets = [(0, -1), (0, 1), (-1, shift), (-1, shift + 1), (1, shift), (1, shift + 1)]
    else:
        offsets = list(_KNIGHT if name == "knight" else _CROSS)
    for dr, dc in offsets:
        rr, cc = r + dr, c + dc
        if 0 <= rr < height and 0 <= cc < width:
            found.add(rr * width + cc)
    return found


def _cube_point(face: int, n: int, r: int, c: int) -> tuple[int, int, int]:
    """Where the point ``(r, c)`` (0..n each) of a face lies on the cube ``[0, n]^3``.

    Each face's frame is chosen so that :data:`CUBE_NET` unfolds with every face
    upright: a face and the one below (or to the right of) it in the net share that edge.
    """
    return (
        (c, r, n),  # top
        (c, n, n - r),  # front, below the top in the net
        (n, n - c, n - r),  # right, beside the front
        (n - r, n - c, 0),  # bottom, below the right
        (n - r, 0, c),  # back, beside the bottom
        (0, r, c),  # left, below the back
    )[face]


@lru_cache(maxsize=16)
def _cube_table(n: int) -> tuple[tuple[int, ...], ...]:
    """The cube's neighbourhoods: cells whose squares share a corner point on the surface."""
    at_point: dict[tuple[int, int, int], list[int]] = {}
    corners = []
    for face in range(6):
        for r in range(n):
            for c in range(n):
                index = (face * n + r) * n + c
                points = [_cube_point(face, n, r + a, c + b) for a in (0, 1) for b in (0, 1)]
                corners.append(points)
                for point in points:
                    at_point.setdefault(point, []).append(index)
    return tuple(
        tuple(sorted({j for point in points for j in at_point[point]} - {i}))
        for i, points in enumerate(corners)
    )


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
def neighbour_array(topology: Topology, width: int, height: int) -> np.ndarray:
    """:func:`neighbour_table` as an ``(N, MAX_DEGREE)`` int array, padded with ``N``.

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
    array = np.full((n, MAX_DEGREE), n, dtype=np.intp)
    for i, around in enumerate(table):
        array[i, : len(around)] = around
    array.setflags(write=False)
    return array


def chebyshev_ball(
    topology: Topology, width: int, height: int, row: int, col: int, radius: int
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
