"""A variant position: what the player of "14 Minesweeper Variants" sees.

It differs from :class:`~analyzer.board.board.Board` in two ways the variants need:
a clue may be larger than 8 (a Multiple clue counts a mine twice, a Liar clue is one
more than the count), and a revealed cell may show no number (``?``: known safe,
no clue, as the game shows some cells and as the puzzles of its solvers use).

Text format: the ``.mine`` format (header ``WIDTHxHEIGHTxMINES``, then one row a
line: ``H`` hidden, ``F`` flagged mine, a digit a clue), with ``?`` for a revealed
cell without a clue; a row whose cells are separated by spaces may hold clues of
several digits (``10 H 3``). A Wall clue (rule W) of several runs of mines is its run
lengths joined by commas (``1,3``: a run of one mine and a run of three; any order is
read, the lengths are written in increasing order); a Wall clue of one run is its length.
The header may name a board's topology as ``.mine`` does (``9x9x10 hex``), and a board's JSON
is read too: the position keeps it, and the rules, defined on the square grid, refuse it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.board.topology import check_topology
from analyzer.errors import BoardParseError

__all__ = ["Position", "NO_CLUE", "MAX_CLUE"]

NO_CLUE = -3
"""A revealed safe cell that shows no number (``?``)."""
MAX_CLUE = 99
"""The largest clue a position holds (a Multiple clue is at most 17)."""

_HEADER = re.compile(r"\s*([0-9]{1,4})\s*[xX]\s*([0-9]{1,4})\s*[xX]\s*([0-9]{1,5})(?:\s+([A-Za-z]+))?\s*")
_TOKENS = {"H": HIDDEN, "F": FLAG, "?": NO_CLUE}
_CHARS = {v: k for k, v in _TOKENS.items()}


@dataclass(frozen=True, slots=True)
class Position:
    """A variant position: an immutable, hashable value.

    Parameters
    ----------
    width, height, mines : int
        Size and mine total (flags included).
    cells : tuple of int
        Row-major: a clue ``0``-:data:`MAX_CLUE`, :data:`~analyzer.board.board.HIDDEN`,
        :data:`~analyzer.board.board.FLAG` or :data:`NO_CLUE`.
    topology : str
        The topology of the board it came from (the variant rules need ``"square"``).
    runs : tuple of (int, tuple of int)
        The Wall clues of several runs: ``(index, lengths)``, row-major index, lengths in
        increasing order; the cell's value is then their total (the mines around it).

    Examples
    --------
    >>> p = Position.from_text("3x2x2\\nH 10 H\\n? F H\\n")
    >>> p[0, 1], p.hidden_cells()
    (10, ((0, 0), (0, 2), (1, 2)))
    >>> print(p.to_text(), end="")
    3x2x2
    H 10 H
    ? F H
    """

    width: int
    height: int
    mines: int
    cells: tuple[int, ...]
    topology: str = "square"
    runs: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise BoardParseError(f"board must be at least 1x1, got {self.width}x{self.height}")
        if len(self.cells) != self.width * self.height:
            raise BoardParseError(
                f"expected {self.width * self.height} cells for {self.width}x{self.height}, "
                f"got {len(self.cells)}"
            )
        for value in self.cells:
            if not (isinstance(value, int) and (NO_CLUE <= value <= MAX_CLUE)):
                raise BoardParseError(f"bad cell value {value!r}")
        flags = self.cells.count(FLAG)
        if self.mines < flags:
            raise BoardParseError(f"fewer mines ({self.mines}) than flags ({flags})")
        if self.mines > flags + self.cells.count(HIDDEN):
            raise BoardParseError(f"more mines ({self.mines}) than unrevealed cells")
        seen = set()
        for index, lengths in self.runs:
            if not (isinstance(index, int) and 0 <= index < len(self.cells)) or index in seen:
                raise BoardParseError(f"bad Wall clue index {index!r}")
            seen.add(index)
            check_runs(lengths)
            if self.cells[index] != sum(lengths) or tuple(sorted(lengths)) != tuple(lengths):
                raise BoardParseError(
                    f"Wall clue {lengths!r} at index {index}: lengths must be in increasing order and "
                    f"the cell's value their total {sum(lengths)}, got {self.cells[index]}"
                )

    def __getitem__(self, cell: Cell) -> int:
        row, col = cell
        if not (0 <= row < self.height and 0 <= col < self.width):
            raise IndexError(f"cell {cell!r} is outside the {self.width}x{self.height} board")
        return self.cells[row * self.width + col]

    def _with(self, wanted: set[int]) -> tuple[Cell, ...]:
        return tuple(divmod(i, self.width) for i, v in enumerate(self.cells) if v in wanted)

    def hidden_cells(self) -> tuple[Cell, ...]:
        return self._with({HIDDEN})

    def flagged_cells(self) -> tuple[Cell, ...]:
        return self._with({FLAG})

    def clue_cells(self) -> tuple[Cell, ...]:
        """Revealed cells showing a number."""
        return tuple(divmod(i, self.width) for i, v in enumerate(self.cells) if v >= 0)

    def runs_at(self, cell: Cell) -> tuple[int, ...] | None:
        """The run lengths of a clue read as a Wall clue (``None`` if the cell shows no clue).

        >>> p = Position.from_text("3x1x0\\n1,3 0 2\\n")
        >>> p.runs_at((0, 0)), p.runs_at((0, 1)), p.runs_at((0, 2))
        ((1, 3), (), (2,))
        """
        value = self[cell]
        if value < 0:
            return None
        index = cell[0] * self.width + cell[1]
        listed = dict(self.runs).get(index)
        if listed is not None:
            return listed
        return (value,) if value else ()

    def replace(self, changes: dict[Cell, int], runs: dict[Cell, tuple[int, ...]] | None = None) -> Position:
        """A new position with some cells changed (``runs``: Wall clues of several runs among them)."""
        cells = list(self.cells)
        changed = set()
        for (row, col), value in changes.items():
            self[row, col]  # bounds check
            cells[row * self.width + col] = value
            changed.add(row * self.width + col)
        kept = {i: r for i, r in self.runs if i not in changed}
        for (row, col), lengths in (runs or {}).items():
            if len(lengths) > 1:
                kept[row * self.width + col] = tuple(sorted(lengths))
        return Position(
            self.width, self.height, self.mines, tuple(cells), self.topology, tuple(sorted(kept.items()))
        )

    @classmethod
    def of(cls, board: Board | Position | str) -> Position:
        """A position from a :class:`Board`, a position or its text.

        >>> Position.of(Board.from_text("2x1x1\\n1H")).cells
        (1, -1)
        """
        if isinstance(board, Position):
            return board
        if isinstance(board, Board):
            topology = board.topology if isinstance(board.topology, str) else "graph"  # rules refuse it
            return cls(board.width, board.height, board.mines, board.cells, topology)
        if isinstance(board, str):
            return cls.from_text(board)
        raise BoardParseError(f"expected a Board, a Position or its text, got {type(board).__name__}")

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read the text format (see the module's docstring)."""
        lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise BoardParseError("empty text: expected a header WIDTHxHEIGHTxMINES", line=1)
        if lines[0].lstrip().startswith("{"):  # a board's JSON: its topology kept for the rules to check
            return cls.of(Board.from_text(text))
        header = _HEADER.fullmatch(lines[0])
        if header is None:
            raise BoardParseError(f"bad header {lines[0]!r}: expected WIDTHxHEIGHTxMINES", line=1)
        width, height, mines = (int(g) for g in header.groups()[:3])
        topology = "square"
        if header.group(4):  # a board's topology ('9x9x10 hex'): read, so that the rules refuse it
            try:
                name = check_topology(header.group(4), width, height)
            except BoardParseError as error:
                raise BoardParseError(f"bad header {lines[0]!r}: {error}", line=1) from None
            topology = name if isinstance(name, str) else "graph"
        rows = lines[1:]
        if len(rows) != height:
            raise BoardParseError(f"expected {height} rows, got {len(rows)}", line=len(lines))
        cells: list[int] = []
        runs: list[tuple[int, tuple[int, ...]]] = []
        for r, row in enumerate(rows):
            tokens = row.split() if " " in row.strip() else list(row.strip())
            if len(tokens) != width:
                raise BoardParseError(f"expected {width} cells, got {len(tokens)}: {row!r}", line=r + 2)
            for c, token in enumerate(tokens):
                if token.upper() in _TOKENS:
                    cells.append(_TOKENS[token.upper()])
                elif token.isdigit() and int(token) <= MAX_CLUE:
                    cells.append(int(token))
                elif "," in token:
                    lengths = _read_runs(token, line=r + 2, column=c + 1)
                    runs.append((len(cells), lengths))
                    cells.append(sum(lengths))
                else:
                    raise BoardParseError(
                        f"{token!r} is not a clue, 'H', 'F' or '?'", line=r + 2, column=c + 1
                    )
        return cls(width, height, mines, tuple(cells), topology, tuple(runs))

    def to_text(self) -> str:
        """The text format; rows are spaced only when a clue has two digits or several runs."""
        words = [_CHARS.get(v, str(v)) for v in self.cells]
        for index, lengths in self.runs:
            words[index] = ",".join(map(str, lengths))
        sep = " " if any(len(w) > 1 for w in words) else ""
        w = self.width
        rows = [sep.join(words[r * w : (r + 1) * w]) for r in range(self.height)]
        topology = "" if self.topology == "square" else f" {self.topology}"
        return f"{self.width}x{self.height}x{self.mines}{topology}\n" + "\n".join(rows) + "\n"

    def __str__(self) -> str:
        return self.to_text().split("\n", 1)[1].rstrip("\n")

    def _repr_html_(self) -> str:
        from analyzer.render import position_html

        return position_html(self)


def check_runs(lengths: tuple[int, ...]) -> None:
    """Raise :class:`BoardParseError` unless ``lengths`` can be the runs of mines around a cell.

    Several runs of 1-8 mines each, their total plus their number at most 8 (a safe cell
    between each run and the next, around the ring of 8 cells).
    """
    if (
        not isinstance(lengths, tuple)
        or len(lengths) < 2
        or not all(isinstance(n, int) and 1 <= n <= 8 for n in lengths)
        or sum(lengths) + len(lengths) > 8
    ):
        raise BoardParseError(
            f"Wall clue {lengths!r} is not the runs of mines around a cell: "
            "two or more runs of 1-8 mines, their total plus their number at most 8"
        )


def _read_runs(token: str, *, line: int, column: int) -> tuple[int, ...]:
    parts = token.split(",")
    if not all(len(p) == 1 and p in "12345678" for p in parts):
        raise BoardParseError(
            f"{token!r} is not a Wall clue: run lengths 1-8 joined by commas, such as '1,3'",
            line=line,
            column=column,
        )
    lengths = tuple(sorted(int(p) for p in parts))
    try:
        check_runs(lengths)
    except BoardParseError:
        raise BoardParseError(
            f"{token!r} is not a Wall clue: two or more runs of 1-8 mines around a cell need a safe "
            "cell between each run and the next (total plus number of runs at most 8)",
            line=line,
            column=column,
        ) from None
    return lengths
