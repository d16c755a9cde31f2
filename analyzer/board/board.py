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
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from analyzer.board.topology import Graph, Topology, check_topology, neighbour_table, topology_name
from analyzer.errors import BoardParseError
from analyzer.limits import is_whole, quote

__all__ = ["Board", "HIDDEN", "FLAG", "Cell", "MAX_FILE_BYTES"]

MAX_FILE_BYTES = 256 * 1024 * 1024
"""The largest board file :meth:`Board.from_file` reads."""

HIDDEN = -1
"""Value of a hidden cell in :meth:`Board.__getitem__`."""
FLAG = -2
"""Value of a flagged cell in :meth:`Board.__getitem__`."""

Cell = tuple[int, int]
"""A cell as ``(row, column)``, 0-based, row 0 at the top."""

_CHAR_TO_VALUE = {str(n): n for n in range(9)} | {"H": HIDDEN, "F": FLAG}
_VALUE_TO_CHAR = {v: k for k, v in _CHAR_TO_VALUE.items()}
_HEADER = re.compile(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*[xX]\s*([0-9]+)(?:\s+([A-Za-z]+))?\s*")
_MAX_DIGITS = 9  # a billion cells is beyond any board; longer numbers are typos
_ASCII_TO_VALUE = {str(n): n for n in range(1, 9)} | {".": 0, "0": 0, "x": HIDDEN, "*": FLAG}


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
        if not isinstance(text, str):
            raise BoardParseError(f"expected text, got {type(text).__name__}")
        text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
        lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise BoardParseError("empty text: expected a header 'WIDTHxHEIGHTxMINES'", line=1)
        if lines[0].lstrip().startswith("{"):
            return cls.from_json(text)
        header = lines[0].strip()
        match = _HEADER.fullmatch(header)
        if match is None:
            raise BoardParseError(
                f"bad header {quote(header)}: expected 'WIDTHxHEIGHTxMINES', e.g. '9x9x10' "
                "(or '30x16x99 hex')",
                line=1,
                column=1,
            )
        if any(len(part) > _MAX_DIGITS for part in match.groups()[:3]):
            raise BoardParseError(f"bad header {header!r}: numbers too large", line=1, column=1)
        width, height, mines = (int(part) for part in match.groups()[:3])
        if width < 1 or height < 1:
            raise BoardParseError(f"bad header {header!r}: board must be at least 1x1", line=1, column=1)
        try:
            topology = check_topology(match.group(4) or "square", width, height)
        except BoardParseError as error:
            raise BoardParseError(
                f"bad header {header!r}: {error}", line=1, column=match.start(4) + 1
            ) from None
        rows = lines[1:]
        cells: list[int] = []
        # Rows are checked in order, so a bad or blank row is named at its own line;
        # then the count of rows.
        for r, row in enumerate(rows[:height]):
            lineno = r + 2
            if not row:
                raise BoardParseError(f"blank line where row {r + 1} of {height} was expected", line=lineno)
            for c, ch in enumerate(row):
                if ch not in _CHAR_TO_VALUE:
                    raise BoardParseError(
                        f"unknown character {ch!r} in {quote(row)}", line=lineno, column=c + 1
                    )
            if len(row) != width:
                raise BoardParseError(
                    f"row {quote(row)} has {len(row)} cells, expected {width}",
                    line=lineno,
                    column=min(len(row), width) + 1,
                )
            cells.extend(_CHAR_TO_VALUE[ch] for ch in row)
        if len(rows) != height:
            # Point at the first missing row, or at the first row too many.
            plural = "row" if height == 1 else "rows"
            raise BoardParseError(
                f"header {header!r} promises {height} {plural}, found {len(rows)}",
                line=min(len(rows), height) + 2,
            )
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
        flags = cells.count(FLAG)
        if mines < flags:
            raise BoardParseError(f"fewer mines ({mines}) than flags ({flags})", line=line)
        if mines > width * height:
            raise BoardParseError(f"more mines ({mines}) than cells ({width * height})", line=line)
        unrevealed = flags + cells.count(HIDDEN)
        if mines > unrevealed:
            raise BoardParseError(
                f"more mines ({mines}) than hidden and flagged cells ({unrevealed})", line=line
            )
        return cls(width, height, mines, tuple(cells), topology)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Board:
        """Read a ``.mine`` file (at most :data:`MAX_FILE_BYTES`).

        Raises
        ------
        BoardParseError
            The file cannot be read, is too large, or does not hold a board.
        """
        name = os.fspath(path)
        try:
            with open(name, "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except OSError as error:
            raise BoardParseError(f"cannot read {name!r}: {error.strerror or error}") from None
        if len(data) > MAX_FILE_BYTES:
            raise BoardParseError(f"cannot read {name!r}: larger than {MAX_FILE_BYTES:,} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BoardParseError(f"cannot read {name!r}: not a text file") from None
        return cls.from_text(text)

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
        import json

        if not isinstance(text, str):
            raise BoardParseError(f"expected text, got {type(text).__name__}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise BoardParseError(f"not JSON: {error.msg}", line=error.lineno, column=error.colno) from None
        if not isinstance(data, dict):
            raise BoardParseError(f"expected a JSON object with 'mines' and 'cells', got {quote(text)}")
        unknown = sorted(set(data) - {"topology", "mines", "cells"})
        if unknown:
            raise BoardParseError(
                f"unknown key {unknown[0]!r} in a graph board (expected topology, mines, cells)"
            )
        if data.get("topology", "graph") != "graph":
            raise BoardParseError(f"a JSON board's topology is 'graph', got {data['topology']!r}")
        mines = data.get("mines")
        if isinstance(mines, bool) or not isinstance(mines, int) or mines < 0:
            raise BoardParseError(f"'mines' must be a non-negative integer, got {mines!r}")
        cells = data.get("cells")
        if not isinstance(cells, list) or not cells:
            raise BoardParseError(f"'cells' must be a non-empty list of cells, got {quote(repr(cells))}")
        for i, cell in enumerate(cells):
            if not isinstance(cell, dict):
                raise BoardParseError(
                    f"cell {i} must be an object with 'state' and 'neighbours', got {cell!r}"
                )
            extra = sorted(set(cell) - {"state", "neighbours", "name", "position"})
            if extra:
                raise BoardParseError(f"cell {i}: unknown key {extra[0]!r}")
            if not isinstance(cell.get("neighbours"), list):
                raise BoardParseError(
                    f"cell {i}: 'neighbours' must be a list, got {cell.get('neighbours')!r}"
                )
        named = [cell.get("name") for cell in cells]
        names = None
        if any(name is not None for name in named):
            if any(name is None for name in named):
                raise BoardParseError(f"cell {named.index(None)} has no name (name every cell or none)")
            names = named
        index_of: dict[str, int] = {}
        for i, name in enumerate(names or ()):
            if not isinstance(name, str) or not name:
                raise BoardParseError(f"cell {i}: a name must be a non-empty string, got {name!r}")
            if name in index_of:
                raise BoardParseError(f"cell {name!r} is listed twice (cells {index_of[name]} and {i})")
            index_of[name] = i
        neighbours = []
        for i, cell in enumerate(cells):
            row = []
            for j in cell["neighbours"]:
                if isinstance(j, str):
                    if j not in index_of:
                        raise BoardParseError(f"cell {i}: unknown neighbour {j!r}")
                    j = index_of[j]
                row.append(j)
            neighbours.append(tuple(row))
        values = []
        for i, cell in enumerate(cells):
            state = cell.get("state")
            if isinstance(state, int) and not isinstance(state, bool) and 0 <= state <= 8:
                values.append(state)
            elif isinstance(state, str) and state in _CHAR_TO_VALUE:
                values.append(_CHAR_TO_VALUE[state])
            else:
                raise BoardParseError(f"cell {i}: bad state {state!r} (expected 'H', 'F' or a number 0-8)")
        positions = [cell.get("position") for cell in cells]
        placed = None
        if any(p is not None for p in positions):
            if any(p is None for p in positions):
                raise BoardParseError(
                    f"cell {positions.index(None)} has no position (place every cell or none)"
                )
            for i, p in enumerate(positions):
                if not (
                    isinstance(p, list)
                    and len(p) == 2
                    and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in p)
                ):
                    raise BoardParseError(f"cell {i}: position must be [x, y], got {p!r}")
            placed = positions
        return cls.from_graph(neighbours, values, mines, names=names, positions=placed)

    def to_json(self) -> str:
        """The JSON graph format of any board (one line per cell; a named topology becomes its graph).

        >>> print(Board.from_text("2x1x1\\nH1").to_json())
        {"topology": "graph", "mines": 1, "cells": [
          {"state": "H", "neighbours": [1]},
          {"state": "1", "neighbours": [0]}
        ]}
        """
        import json

        graph = self.topology if isinstance(self.topology, Graph) else None
        lines = []
        for i, (value, around) in enumerate(zip(self.cells, self.neighbour_table, strict=True)):
            cell: dict[str, object] = {"state": _VALUE_TO_CHAR[value], "neighbours": list(around)}
            if graph is not None and graph.names is not None:
                cell["name"] = graph.names[i]
            if graph is not None and graph.positions is not None:
                cell["position"] = list(graph.positions[i])
            lines.append("  " + json.dumps(cell))
        head = f'{{"topology": "graph", "mines": {self.mines}, "cells": [\n'
        return head + ",\n".join(lines) + "\n]}"

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
        if not isinstance(text, str):
            raise BoardParseError(f"expected text, got {type(text).__name__}")
        numbered = [
            (i + 1, line.strip())
            for i, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
        ]
        numbered = [(n, line) for n, line in numbered if line]
        if not numbered:
            raise BoardParseError("empty board", line=1)
        width = len(numbered[0][1])
        cells: list[int] = []
        for lineno, row in numbered:
            for c, ch in enumerate(row):
                if ch not in _ASCII_TO_VALUE:
                    raise BoardParseError(
                        f"unknown character {ch!r} in {quote(row)}", line=lineno, column=c + 1
                    )
            if len(row) != width:
                raise BoardParseError(f"row {quote(row)} has {len(row)} cells, expected {width}", line=lineno)
            cells.extend(_ASCII_TO_VALUE[ch] for ch in row)
        if not isinstance(mines, int) or mines < 0:
            raise BoardParseError(f"mine count must be a non-negative integer, got {mines!r}")
        return cls._checked(width, len(numbered), mines, cells, line=None)

    def to_minesweepr(self) -> str:
        """The minesweepr ASCII rows (the mine total is not part of this format)."""
        table = {0: ".", HIDDEN: "x", FLAG: "*"}
        return "".join("".join(table.get(v, str(v)) for v in row) + "\n" for row in self.rows())

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
