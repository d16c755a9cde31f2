"""The :class:`Board`: what a player sees, as an immutable value, and its text formats.

Formats
-------
``.mine`` (JSMinesweeper's position format)
    A header ``WIDTHxHEIGHTxMINES`` (MINES counts every mine, flagged ones
    included), then HEIGHT rows of WIDTH characters: ``0``-``8`` a revealed
    number, ``H`` a hidden cell, ``F`` a flagged mine. The header may name a
    topology after a blank: ``30x16x99 hex``, ``3x18x10 cube`` (see
    :mod:`analyzer.board.topology`); without one the board is square.
JSON graph
    Any topology as a list of cells and their neighbours::

        {"topology": "graph", "mines": 1,
         "cells": [{"state": "H", "neighbours": [1]},
                   {"state": "1", "neighbours": [0, 2], "name": "b", "position": [1, 0]},
                   {"state": "H", "neighbours": [1]}]}

    ``state`` is a ``.mine`` character (or a number 0-8); ``neighbours`` lists cell
    indices, or names when every cell has a ``name``; ``position`` (x, y) is where
    to draw the cell. The relation must be symmetric. The board is one row of the
    cells, cell ``i`` at ``(0, i)``.
minesweepr ASCII
    Rows of ``.`` (a revealed zero), ``1``-``8``, ``*`` (a flagged mine) and ``x``
    (hidden); the mine total is given separately.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from analyzer.board.graph_json import graph_json, read_graph_json
from analyzer.board.mine_text import MAX_FILE_BYTES, read_board_file, read_mine
from analyzer.board.minesweepr import minesweepr_text, read_minesweepr
from analyzer.board.states import FLAG, HIDDEN, Cell, check_totals
from analyzer.board.states import VALUE_TO_CHAR as _VALUE_TO_CHAR
from analyzer.board.topology import Graph, Topology, check_topology, neighbour_table, topology_name
from analyzer.errors import BoardParseError
from analyzer.limits import is_whole

__all__ = ["Board", "HIDDEN", "FLAG", "Cell", "MAX_FILE_BYTES"]


@dataclass(frozen=True, slots=True)
class Board:
    """A Minesweeper position as a player sees it: an immutable, hashable value.

    Parameters
    ----------
    width, height : int
        Size of the board (at least 1 each).
    mines : int
        Total number of mines on the board, flagged ones included.
    cells : tuple of int
        Row-major cell values: ``0``-``8`` revealed numbers, :data:`HIDDEN` or
        :data:`FLAG`.
    topology : str or Graph
        How cells touch (see :mod:`analyzer.board.topology`): a name of
        :data:`~analyzer.board.topology.TOPOLOGIES` or a
        :class:`~analyzer.board.topology.Graph`; ``"square"`` by default.

    Examples
    --------
    >>> board = Board.from_text("3x2x1\\nH1H\\n011\\n")
    >>> board.width, board.height, board.mines
    (3, 2, 1)
    >>> board[0, 1], board[0, 0] == HIDDEN
    (1, True)
    >>> print(board)
    H1H
    011
    >>> board.hidden_cells()
    ((0, 0), (0, 2))
    """

    width: int
    height: int
    mines: int
    cells: tuple[int, ...]
    topology: Topology = "square"
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        if not is_whole(self.width) or not is_whole(self.height):
            raise BoardParseError(f"width and height must be integers, got {self.width!r}x{self.height!r}")
        if self.width < 1 or self.height < 1:
            raise BoardParseError(f"board must be at least 1x1, got {self.width}x{self.height}")
        object.__setattr__(self, "topology", check_topology(self.topology, self.width, self.height))
        cells = tuple(self.cells)
        object.__setattr__(self, "cells", cells)
        if len(cells) != self.width * self.height:
            raise BoardParseError(
                f"expected {self.width * self.height} cells for {self.width}x{self.height}, got {len(cells)}"
            )
        for value in cells:
            if value not in _VALUE_TO_CHAR:
                raise BoardParseError(f"bad cell value {value!r}")
        flags = cells.count(FLAG)
        if not is_whole(self.mines) or self.mines < 0:
            raise BoardParseError(f"mine count must be a non-negative integer, got {self.mines!r}")
        if self.mines < flags:
            raise BoardParseError(f"fewer mines ({self.mines}) than flags ({flags})")
        unrevealed = cells.count(HIDDEN) + flags
        if self.mines > unrevealed:
            raise BoardParseError(f"more mines ({self.mines}) than unrevealed cells ({unrevealed})")
        object.__setattr__(self, "_hash", hash((self.width, self.height, self.mines, cells, self.topology)))

    def __hash__(self) -> int:
        return self._hash

    # ------------------------------------------------------------------ access
    def __getitem__(self, cell: Cell) -> int:
        row, col = cell
        return self.cells[self.index(row, col)]

    def index(self, row: int, col: int) -> int:
        """Flat index of a cell; raises ``IndexError`` outside the board."""
        if not (0 <= row < self.height and 0 <= col < self.width):
            raise IndexError(f"cell {(row, col)!r} is outside the {self.width}x{self.height} board")
        return row * self.width + col

    def neighbours(self, row: int, col: int) -> tuple[Cell, ...]:
        """The cells touching ``(row, col)`` under the board's topology.

        >>> Board.from_text("2x2x0\\n00\\n00").neighbours(0, 0)
        ((0, 1), (1, 0), (1, 1))
        """
        w = self.width
        return tuple(divmod(i, w) for i in self.neighbour_table[self.index(row, col)])

    @property
    def neighbour_table(self) -> tuple[tuple[int, ...], ...]:
        """Neighbours of every cell as flat indices (shared, cached)."""
        return neighbour_table(self.topology, self.width, self.height)

    def _cells_with(self, wanted: Iterable[int]) -> tuple[Cell, ...]:
        want = set(wanted)
        w = self.width
        return tuple(divmod(i, w) for i, v in enumerate(self.cells) if v in want)

    def hidden_cells(self) -> tuple[Cell, ...]:
        """Hidden, unflagged cells in row-major order."""
        return self._cells_with((HIDDEN,))

    def flagged_cells(self) -> tuple[Cell, ...]:
        """Flagged cells in row-major order."""
        return self._cells_with((FLAG,))

    def revealed_cells(self) -> tuple[Cell, ...]:
        """Cells showing a number (0-8) in row-major order."""
        return self._cells_with(range(9))

    def is_hidden(self, row: int, col: int) -> bool:
        return self[row, col] == HIDDEN

    def is_flagged(self, row: int, col: int) -> bool:
        return self[row, col] == FLAG

    def is_revealed(self, row: int, col: int) -> bool:
        return self[row, col] >= 0

    @property
    def mines_left(self) -> int:
        """Mines not yet flagged."""
        return self.mines - self.cells.count(FLAG)

    def rows(self) -> Iterator[tuple[int, ...]]:
        """The cell values row by row."""
        w = self.width
        for r in range(self.height):
            yield self.cells[r * w : (r + 1) * w]

    # ------------------------------------------------------------- changing
    def replace(self, changes: dict[Cell, int] | None = None, *, mines: int | None = None) -> Board:
        """A new board with some cells (and optionally the mine total) changed.

        >>> Board.from_text("2x1x1\\nHH").replace({(0, 0): 1})
        Board.from_text('2x1x1\\n1H\\n')
        """
        cells = list(self.cells)
        for (row, col), value in (changes or {}).items():
            cells[self.index(row, col)] = value
        return Board(
            self.width, self.height, self.mines if mines is None else mines, tuple(cells), self.topology
        )

    # ----------------------------------------------------------------- text
    @classmethod
    def from_text(cls, text: str) -> Board:
        """Read the ``.mine`` format.

        Accepts ``\\r\\n`` line ends, trailing blanks and a final newline.

        Raises
        ------
        BoardParseError
            Naming the line and column of what is wrong.

        Examples
        --------
        >>> Board.from_text("2x2x1\\r\\nH1  \\r\\n11\\r\\n").to_text()
        '2x2x1\\nH1\\n11\\n'
        >>> Board.from_text("2x2x1\\nH1\\n1?")
        Traceback (most recent call last):
        ...
        analyzer.errors.BoardParseError: line 3, column 2: unknown character '?' in '1?'
        """
        parts = read_mine(text)
        if parts is None:
            return cls.from_json(text)
        width, height, mines, cells, topology = parts
        return cls._checked(width, height, mines, cells, line=1, topology=topology)

    @classmethod
    def _checked(
        cls,
        width: int,
        height: int,
        mines: int,
        cells: list[int],
        *,
        line: int | None,
        topology: Topology = "square",
    ) -> Board:
        check_totals(width, height, mines, cells, line=line)
        return cls(width, height, mines, tuple(cells), topology)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Board:
        """Read a ``.mine`` file (at most :data:`MAX_FILE_BYTES`).

        Raises
        ------
        BoardParseError
            The file cannot be read, is too large, or does not hold a board.
        """
        return cls.from_text(read_board_file(path))

    @classmethod
    def from_image(cls, source: Any, *, mines: int | None = None, skin: str | None = None) -> Board:
        """Read a screenshot of a Minesweeper game: the board it shows.

        ``source`` is a picture's path, its bytes, a Pillow image or an ``H x W x 3`` ``uint8``
        numpy array. ``mines`` is the total where the picture shows no counter (else the
        client's preset for the size); ``skin`` names the client (by default every known one is
        tried). Unsure cells hold the reader's best guess: for them, the skin, the grid and
        where the total came from, call :func:`analyzer.pictures.read_picture`, which this
        wraps (``read_picture(source).describe()`` prints the board read with the unsure
        cells marked). Needs Pillow (the ``images`` extra), imported here on first use.

        Raises
        ------
        PictureError
            One line: not a picture, no board found, cells no tile matches, clues with no layout.

        Examples
        --------
        >>> Board.from_image(b"9x9x10\\nHHH")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        analyzer.errors.PictureError: not ...
        """
        from analyzer.pictures import read_picture

        return read_picture(source, mines=mines, skin=skin).board

    @classmethod
    def coerce(cls, board: object, caller: str = "solve") -> Board:
        """A board from what a caller passed: a ``Board``, ``.mine`` text, or a file's path.

        A path is a :class:`os.PathLike` (``pathlib.Path``), or a one-line ``str``
        naming an existing file. A one-line ``str`` that looks like a file name but
        names none is refused with a message saying so, not read as a bad board.

        >>> Board.coerce("3x1x1\\nH1H\\n").width
        3
        >>> Board.coerce("missing.mine", "count")
        Traceback (most recent call last):
        ...
        analyzer.errors.BoardParseError: no file 'missing.mine' (count() reads a Board, .mine text or a path)
        """
        if isinstance(board, cls):
            return board
        if isinstance(board, os.PathLike):
            return cls.from_file(board)
        if isinstance(board, str):
            if "\n" not in board.strip():
                if os.path.isfile(board):
                    return cls.from_file(board)
                if board.endswith((".mine", ".txt")) or os.sep in board:
                    raise BoardParseError(
                        f"no file {board!r} ({caller}() reads a Board, .mine text or a path)"
                    )
            return cls.from_text(board)
        raise TypeError(
            f"{caller}() expects a Board or .mine text, got {type(board).__name__}; a file's path works too"
        )

    def to_text(self) -> str:
        """The canonical ``.mine`` text (``\\n`` line ends, a final newline); a graph's board as JSON.

        >>> print(Board.from_text("3x2x1 hexagonal\\nH1H\\n011").to_text(), end="")
        3x2x1 hex
        H1H
        011
        """
        if isinstance(self.topology, Graph):
            return self.to_json()
        name = "" if self.topology == "square" else f" {self.topology}"
        return f"{self.width}x{self.height}x{self.mines}{name}\n" + "".join(
            row + "\n" for row in self._text_rows()
        )

    @classmethod
    def from_graph(
        cls,
        neighbours: Iterable[Iterable[int]],
        cells: Iterable[int],
        mines: int,
        *,
        names: Iterable[str] | None = None,
        positions: Iterable[tuple[float, float]] | None = None,
    ) -> Board:
        """A board on a :class:`~analyzer.board.topology.Graph`: one row of its cells.

        >>> board = Board.from_graph([[1], [0, 2], [1]], [HIDDEN, 1, HIDDEN], mines=1)
        >>> board.neighbours(0, 1)
        ((0, 0), (0, 2))
        """
        graph = Graph(
            tuple(tuple(row) for row in neighbours),
            None if names is None else tuple(names),
            None if positions is None else tuple(tuple(xy) for xy in positions),  # type: ignore[misc]
        )
        values = tuple(cells)
        if len(values) != len(graph):
            raise BoardParseError(f"graph has {len(graph)} cells but {len(values)} cell values were given")
        return cls._checked(len(graph), 1, mines, list(values), line=None, topology=graph)

    @classmethod
    def from_json(cls, text: str) -> Board:
        """Read the JSON graph format (see the module's docstring).

        Raises
        ------
        BoardParseError
            Not JSON, a field missing or of the wrong kind, or a graph that is not
            one (a neighbour out of range, listed twice, not listed back, a cell
            name listed twice), quoting the offending item.

        Examples
        --------
        >>> hidden, one = '{"state": "H", "neighbours": [1]}', '{"state": 1, "neighbours": [0]}'
        >>> Board.from_json(f'{{"mines": 1, "cells": [{hidden}, {one}]}}').cells
        (-1, 1)
        >>> Board.from_json(f'{{"mines": 1, "cells": [{hidden}, {{"state": 0, "neighbours": []}}]}}')
        Traceback (most recent call last):
        ...
        analyzer.errors.BoardParseError: graph is not symmetric: cell 0 lists 1 but cell 1 does not list 0
        """
        parts = read_graph_json(text)
        return cls.from_graph(
            parts.neighbours, parts.cells, parts.mines, names=parts.names, positions=parts.positions
        )

    def to_json(self) -> str:
        """The JSON graph format of any board (one line per cell; a named topology becomes its graph).

        >>> print(Board.from_text("2x1x1\\nH1").to_json())
        {"topology": "graph", "mines": 1, "cells": [
          {"state": "H", "neighbours": [1]},
          {"state": "1", "neighbours": [0]}
        ]}
        """
        graph = self.topology if isinstance(self.topology, Graph) else None
        return graph_json(self.cells, self.neighbour_table, self.mines, graph)

    @classmethod
    def from_minesweepr(cls, text: str, mines: int) -> Board:
        """Read minesweepr's ASCII format: ``.`` zero, ``1``-``8``, ``*`` flag, ``x`` hidden.

        Blank lines and surrounding blanks are ignored, and lines may end in LF, CRLF or a lone CR
        (classic Mac OS); ``mines`` is the total, flagged mines included.

        >>> Board.from_minesweepr('''
        ...     x1.
        ...     x1.
        ... ''', mines=1).to_text()
        '3x2x1\\nH10\\nH10\\n'
        """
        width, height, cells = read_minesweepr(text, mines)
        return cls._checked(width, height, mines, cells, line=None)

    def to_minesweepr(self) -> str:
        """The minesweepr ASCII rows (the mine total is not part of this format)."""
        return minesweepr_text(self.rows())

    @classmethod
    def from_grid(cls, rows: Iterable[str], mines: int, *, topology: str = "square") -> Board:
        """Build from ``.mine`` rows without a header.

        >>> Board.from_grid(["H1", "11"], mines=1)
        Board.from_text('2x2x1\\nH1\\n11\\n')
        """
        rows = list(rows)
        width = len(rows[0]) if rows else 0
        name = topology_name(topology)
        if isinstance(name, Graph):
            raise BoardParseError("a graph's board is made by Board.from_graph or read by Board.from_json")
        return cls.from_text(f"{width}x{len(rows)}x{mines} {name}\n" + "\n".join(rows))

    def _text_rows(self) -> list[str]:
        return ["".join(_VALUE_TO_CHAR[v] for v in row) for row in self.rows()]

    def __str__(self) -> str:
        return "\n".join(self._text_rows())

    def __repr__(self) -> str:
        if isinstance(self.topology, Graph):
            return f"Board.from_json({self.to_text()!r})"
        return f"Board.from_text({self.to_text()!r})"

    def _repr_html_(self) -> str:
        from analyzer.render import board_html

        return board_html(self)

    def __reduce__(self):  # pickling without the cached hash
        return (Board, (self.width, self.height, self.mines, self.cells, self.topology))
