"""The ``.mine`` text format (JSMinesweeper's): its reader, and a board file's text.

The format is described in :mod:`analyzer.board.board`; :meth:`Board.from_text
<analyzer.board.board.Board.from_text>` and :meth:`Board.from_file
<analyzer.board.board.Board.from_file>` are the front doors and build the board from the
parts read here.
"""

from __future__ import annotations

import os
import re

from analyzer.board.states import CHAR_TO_VALUE
from analyzer.board.topology import Topology, check_topology
from analyzer.errors import BoardParseError
from analyzer.limits import quote

__all__ = ["MAX_FILE_BYTES", "read_mine", "read_board_file"]

MAX_FILE_BYTES = 256 * 1024 * 1024
"""The largest board file :meth:`Board.from_file` reads."""

_HEADER = re.compile(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*[xX]\s*([0-9]+)(?:\s+([A-Za-z]+))?\s*")
_MAX_DIGITS = 9  # a billion cells is beyond any board; longer numbers are typos

MineParts = tuple[int, int, int, list[int], Topology]
"""A ``.mine`` text's width, height, mine total, row-major cell values and topology."""


def read_mine(text: str) -> MineParts | None:
    """The parts of a ``.mine`` text, or ``None`` when it is a JSON board (its first line a ``{``).

    What :meth:`Board.from_text <analyzer.board.board.Board.from_text>` reads (and its errors,
    :class:`~analyzer.errors.BoardParseError` naming the line and column), but the totals,
    left to the caller (:func:`~analyzer.board.states.check_totals`).

    >>> read_mine("2x1x1 hex\\nH1\\n")
    (2, 1, 1, [-1, 1], 'hex')
    >>> read_mine('{"mines": 0}') is None
    True
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
        return None
    width, height, mines, topology = _header(lines[0].strip())
    return width, height, mines, _rows(lines[0].strip(), lines[1:], width, height), topology


def _header(header: str) -> tuple[int, int, int, Topology]:
    match = _HEADER.fullmatch(header)
    if match is None:
        raise BoardParseError(
            f"bad header {quote(header)}: expected 'WIDTHxHEIGHTxMINES', e.g. '9x9x10' (or '30x16x99 hex')",
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
        raise BoardParseError(f"bad header {header!r}: {error}", line=1, column=match.start(4) + 1) from None
    return width, height, mines, topology


def _rows(header: str, rows: list[str], width: int, height: int) -> list[int]:
    cells: list[int] = []
    # Rows are checked in order, so a bad or blank row is named at its own line;
    # then the count of rows.
    for r, row in enumerate(rows[:height]):
        lineno = r + 2
        if not row:
            raise BoardParseError(f"blank line where row {r + 1} of {height} was expected", line=lineno)
        for c, ch in enumerate(row):
            if ch not in CHAR_TO_VALUE:
                raise BoardParseError(f"unknown character {ch!r} in {quote(row)}", line=lineno, column=c + 1)
        if len(row) != width:
            raise BoardParseError(
                f"row {quote(row)} has {len(row)} cells, expected {width}",
                line=lineno,
                column=min(len(row), width) + 1,
            )
        cells.extend(CHAR_TO_VALUE[ch] for ch in row)
    if len(rows) != height:
        # Point at the first missing row, or at the first row too many.
        plural = "row" if height == 1 else "rows"
        raise BoardParseError(
            f"header {header!r} promises {height} {plural}, found {len(rows)}",
            line=min(len(rows), height) + 2,
        )
    return cells


def read_board_file(path: str | os.PathLike[str]) -> str:
    """The text of a board file (at most :data:`MAX_FILE_BYTES`, UTF-8).

    Raises
    ------
    BoardParseError
        The file cannot be read, is too large, or is not text.
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
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardParseError(f"cannot read {name!r}: not a text file") from None
