"""What a cell shows (:data:`HIDDEN`, :data:`FLAG`, a number 0-8) and the totals every reader checks.

The one place the ``.mine`` characters are tied to cell values; the format readers of
:mod:`analyzer.board` (``mine_text``, ``graph_json``, ``minesweepr``) and
:class:`~analyzer.board.board.Board` share it.
"""

from __future__ import annotations

from analyzer.errors import BoardParseError

__all__ = ["HIDDEN", "FLAG", "Cell", "CHAR_TO_VALUE", "VALUE_TO_CHAR", "check_totals"]

HIDDEN = -1
"""Value of a hidden cell in :meth:`Board.__getitem__`."""
FLAG = -2
"""Value of a flagged cell in :meth:`Board.__getitem__`."""

Cell = tuple[int, int]
"""A cell as ``(row, column)``, 0-based, row 0 at the top."""

CHAR_TO_VALUE = {str(n): n for n in range(9)} | {"H": HIDDEN, "F": FLAG}
"""A ``.mine`` character's cell value."""
VALUE_TO_CHAR = {v: k for k, v in CHAR_TO_VALUE.items()}
"""A cell value's ``.mine`` character."""


def check_totals(width: int, height: int, mines: int, cells: list[int], *, line: int | None) -> None:
    """Refuse a mine total the parsed cells cannot hold (``line``: where the total was read).

    >>> check_totals(2, 1, 2, [HIDDEN, 1], line=1)
    Traceback (most recent call last):
    ...
    analyzer.errors.BoardParseError: line 1: more mines (2) than hidden and flagged cells (1)
    """
    flags = cells.count(FLAG)
    if mines < flags:
        raise BoardParseError(f"fewer mines ({mines}) than flags ({flags})", line=line)
    if mines > width * height:
        raise BoardParseError(f"more mines ({mines}) than cells ({width * height})", line=line)
    unrevealed = flags + cells.count(HIDDEN)
    if mines > unrevealed:
        raise BoardParseError(f"more mines ({mines}) than hidden and flagged cells ({unrevealed})", line=line)
