"""Pictures of boards and analyses: HTML for Jupyter and plain text for terminals.

Only formatting lives here (no terminal handling, which is :mod:`analyzer.cli`'s).
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.limits import describe_count, digit_count, fraction_text

if TYPE_CHECKING:
    from analyzer.solver.analysis import Analysis

__all__ = ["board_html", "analysis_html", "analysis_text", "probability_colour"]

_NUMBER_COLOURS = (
    "#999",
    "#0000ff",
    "#007b00",
    "#ff0000",
    "#00007b",
    "#7b0000",
    "#007b7b",
    "#000",
    "#7b7b7b",
)
_CELL = "width:2.2em;height:2.2em;text-align:center;font:bold 0.8em monospace;border:1px solid #888;padding:0"


def probability_colour(p: float) -> str:
    """A background colour from green (safe) through yellow to red (mine)."""
    p = min(max(p, 0.0), 1.0)
    red = int(255 * min(1.0, 2 * p))
    green = int(255 * min(1.0, 2 * (1 - p)))
    return f"#{red:02x}{green:02x}60"


def _table(rows: list[list[tuple[str, str, str]]], caption: str) -> str:
    out = [
        '<table style="border-collapse:collapse">',
        f'<caption style="caption-side:bottom">{html.escape(caption)}</caption>',
    ]
    for row in rows:
        out.append("<tr>")
        for text, style, title in row:
            t = f' title="{html.escape(title)}"' if title else ""
            out.append(f'<td style="{_CELL};{style}"{t}>{html.escape(text)}</td>')
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _revealed(value: int) -> tuple[str, str, str]:
    return ("" if value == 0 else str(value), f"background:#ddd;color:{_NUMBER_COLOURS[value]}", "")


def board_html(board: Board) -> str:
    """The board as an HTML table (hidden cells grey, flags marked)."""
    rows = []
    for row in board.rows():
        cells = []
        for value in row:
            if value == HIDDEN:
                cells.append(("", "background:#bbb", "hidden"))
            elif value == FLAG:
                cells.append(("⚑", "background:#bbb;color:#c00", "flag"))
            else:
                cells.append(_revealed(value))
        rows.append(cells)
    return _table(rows, f"{board.width}x{board.height}, {board.mines} mines")


def analysis_html(analysis: Analysis) -> str:
    """The board coloured by mine probability; hover a cell for the exact fraction."""
    board = analysis.board
    rows = []
    for r, row in enumerate(board.rows()):
        cells = []
        for c, value in enumerate(row):
            p = analysis.cell_probabilities[r * board.width + c]
            if p is None:
                cells.append(_revealed(value))
            elif value == FLAG and analysis.trust_flags:
                cells.append(("⚑", "background:#bbb;color:#c00", "flag"))
            else:
                cells.append(
                    (
                        _short(p),
                        f"background:{probability_colour(float(p))}",
                        f"P(mine) = {_exact_or_rounded(p)}",
                    )
                )
        rows.append(cells)
    caption = f"{board.width}x{board.height}, {board.mines} mines; {describe_count(analysis.total)} layouts"
    return _table(rows, caption)


def _exact_or_rounded(p: Fraction) -> str:
    """The fraction itself when short; past 40 digits its value and the sizes of its terms."""
    if digit_count(p.denominator) <= 40:
        return fraction_text(p)
    sizes = f"{digit_count(p.numerator)}- and {digit_count(p.denominator)}-digit numbers"
    return f"{float(p):.6g} (exact: a fraction of {sizes})"


def _short(p: Fraction) -> str:
    if p == 0:
        return "safe"
    if p == 1:
        return "mine"
    return f"{100 * float(p):.0f}"


def analysis_text(analysis: Analysis) -> str:
    """The board with each unknown cell's probability in percent.

    Revealed numbers show in brackets (``[.]`` for 0), trusted flags as ``F``,
    certain mines as ``*``, certain safe cells as ``-``; other cells show their
    percentage, never rounded to 0 or 100.

    >>> from analyzer.solver.solve import solve
    >>> print(analysis_text(solve("3x1x1\\nH1H\\n")))
     50%  [1]  50%
    >>> print(analysis_text(solve("4x1x1\\nH10H\\n")))
       *  [1]  [.]    -
    """
    board = analysis.board
    lines = []
    for r, row in enumerate(board.rows()):
        out = []
        for c, value in enumerate(row):
            p = analysis.cell_probabilities[r * board.width + c]
            if p is None:
                out.append("[.]" if value == 0 else f"[{value}]")
            elif value == FLAG and analysis.trust_flags:
                out.append("F")
            elif p == 0:
                out.append("-")
            elif p == 1:
                out.append("*")
            else:
                pct = 100 * float(p)
                out.append("<1%" if pct < 0.5 else ">99%" if pct >= 99.5 else f"{pct:.0f}%")
        lines.append(" ".join(f"{s:>4}" for s in out))
    return "\n".join(lines)
