"""minesweepr's ASCII format: ``.`` a revealed zero, ``1``-``8``, ``*`` a flagged mine, ``x`` hidden.

The mine total is not part of the format. :meth:`Board.from_minesweepr
<analyzer.board.board.Board.from_minesweepr>` and :meth:`Board.to_minesweepr
<analyzer.board.board.Board.to_minesweepr>` are the front doors.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyzer.board.states import FLAG, HIDDEN
from analyzer.errors import BoardParseError
from analyzer.limits import quote

__all__ = ["read_minesweepr", "minesweepr_text"]

_ASCII_TO_VALUE = {str(n): n for n in range(1, 9)} | {".": 0, "0": 0, "x": HIDDEN, "*": FLAG}
_VALUE_TO_ASCII = {0: ".", HIDDEN: "x", FLAG: "*"}


def read_minesweepr(text: str, mines: int) -> tuple[int, int, list[int]]:
    """The width, height and row-major cell values of minesweepr's rows (``mines`` checked too).

    Blank lines and surrounding blanks are ignored; lines may end in LF, CRLF or a lone CR.

    >>> read_minesweepr("x1.\\r\\n*1.", mines=1)
    (3, 2, [-1, 1, 0, -2, 1, 0])
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
                raise BoardParseError(f"unknown character {ch!r} in {quote(row)}", line=lineno, column=c + 1)
        if len(row) != width:
            raise BoardParseError(f"row {quote(row)} has {len(row)} cells, expected {width}", line=lineno)
        cells.extend(_ASCII_TO_VALUE[ch] for ch in row)
    if not isinstance(mines, int) or mines < 0:
        raise BoardParseError(f"mine count must be a non-negative integer, got {mines!r}")
    return width, len(numbered), cells


def minesweepr_text(rows: Iterable[Iterable[int]]) -> str:
    """minesweepr's rows of cell values, each ending in a newline.

    >>> print(minesweepr_text([(-1, 1, 0)]), end="")
    x1.
    """
    return "".join("".join(_VALUE_TO_ASCII.get(v, str(v)) for v in row) + "\n" for row in rows)
