"""Layout formats: a game's mines as text or MBF bytes, read and written.

Layout text
    Rows of ``*`` (a mine) and ``.`` (a safe cell).
MBF (Minesweeper Board Format)
    A byte width, a byte height, the mine count as 2 bytes big-endian, then an
    ``(x, y)`` byte pair (column, row) per mine.

:class:`~analyzer.play.game.Game` reads and writes them (``Game.from_layout_text``,
``Game.from_mbf``, ``to_layout_text``, ``to_mbf``); the readers here return the board's
size and its mines, every byte and character checked.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyzer.board.board import Cell
from analyzer.errors import GameError
from analyzer.play.allowed import Layout, board_cell

__all__ = ["checked_layout", "layout_from_text", "layout_to_text", "layout_from_mbf", "layout_to_mbf"]

_MBF_HEADER = 4


def checked_layout(cells: Iterable[object], width: int, height: int) -> Layout:
    """The mines ``cells`` as a layout, each a ``(row, col)`` on the board and given once.

    >>> checked_layout([(0, 0), (0, 0)], 2, 2)
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: mine (0, 0) is given twice
    """
    seen: set[Cell] = set()
    for cell in cells:
        row, col = board_cell(cell, width, height, "mine")
        if (row, col) in seen:
            raise GameError(f"mine {cell!r} is given twice")
        seen.add((row, col))
    return frozenset(seen)


def layout_from_text(text: str) -> tuple[int, int, list[Cell]]:
    """``(width, height, mines)`` of rows of ``*`` and ``.`` (blank lines and blanks around rows ignored).

    >>> layout_from_text("*.\\n..\\n")
    (2, 2, [(0, 0)])
    """
    if not isinstance(text, str):
        raise GameError(f"expected text, got {type(text).__name__}")
    rows = [(n + 1, line.strip()) for n, line in enumerate(text.replace("\r\n", "\n").split("\n"))]
    rows = [(n, line) for n, line in rows if line]
    if not rows:
        raise GameError("empty layout text")
    width = len(rows[0][1])
    mines = []
    for r, (lineno, line) in enumerate(rows):
        for c, ch in enumerate(line):
            if ch == "*":
                mines.append((r, c))
            elif ch != ".":
                where = f"line {lineno}, column {c + 1}"
                raise GameError(f"{where}: unknown character {ch!r} in {line!r}; expected '*' or '.'")
        if len(line) != width:
            raise GameError(f"line {lineno}: row {line!r} has {len(line)} cells, expected {width}")
    return width, len(rows), mines


def layout_to_text(is_mine: bytearray, width: int, height: int) -> str:
    """Rows of ``*`` and ``.``, each ending in a newline, of a flat mine mask.

    >>> layout_to_text(bytearray([1, 0, 0, 1]), 2, 2)
    '*.\\n.*\\n'
    """
    w = width
    return "".join(
        "".join("*" if is_mine[r * w + c] else "." for c in range(w)) + "\n" for r in range(height)
    )


def layout_from_mbf(data: bytes) -> tuple[int, int, list[Cell]]:
    """``(width, height, mines)`` of MBF bytes, every byte checked.

    >>> layout_from_mbf(bytes([3, 2, 0, 2, 0, 0, 2, 1]))
    (3, 2, [(0, 0), (1, 2)])
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise GameError(f"bad MBF: expected bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) < _MBF_HEADER:
        raise GameError(f"bad MBF: expected a 4-byte header, got {len(data)} bytes {data!r}")
    width, height = data[0], data[1]
    count = int.from_bytes(data[2:4], "big")
    if width < 1 or height < 1:
        raise GameError(f"bad MBF: board must be at least 1x1, got {width}x{height}")
    expected = _MBF_HEADER + 2 * count
    if len(data) != expected:
        raise GameError(f"bad MBF: header promises {count} mines ({expected} bytes), got {len(data)} bytes")
    if count > width * height:
        raise GameError(f"bad MBF: {count} mines do not fit on a {width}x{height} board")
    mines: list[Cell] = []
    seen: set[Cell] = set()
    for number in range(count):
        x, y = data[_MBF_HEADER + 2 * number], data[_MBF_HEADER + 2 * number + 1]
        if x >= width or y >= height:
            raise GameError(f"bad MBF: mine {number} at (x={x}, y={y}) is outside the {width}x{height} board")
        if (y, x) in seen:
            raise GameError(f"bad MBF: mine {number} at (x={x}, y={y}) repeats an earlier one")
        seen.add((y, x))
        mines.append((y, x))
    return width, height, mines


def layout_to_mbf(width: int, height: int, layout: Iterable[Cell]) -> bytes:
    """MBF bytes of a layout, mines in row-major order.

    Raises
    ------
    GameError
        A board too big for MBF (more than 255 columns or rows, or 65535 mines).

    >>> list(layout_to_mbf(3, 2, {(1, 2), (0, 0)}))
    [3, 2, 0, 2, 0, 0, 2, 1]
    """
    cells = sorted(layout)
    if width > 255 or height > 255 or len(cells) > 0xFFFF:
        raise GameError(
            f"a {width}x{height} board with {len(cells)} mines does not fit MBF "
            "(at most 255x255 and 65535 mines)"
        )
    body = bytes(v for row, col in cells for v in (col, row))
    return bytes([width, height]) + len(cells).to_bytes(2, "big") + body
