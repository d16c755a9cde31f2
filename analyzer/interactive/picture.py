"""A picture of the whole interactive board as SVG: what the page draws, for a report or a paper.

The page can save a PNG of the part of the board on screen; :func:`board_svg`
draws every cell from the session's per-cell arrays (the state codes and the
mine probabilities of :meth:`Session.arrays
<analyzer.interactive.session.Session.arrays>`), in the page's palette, with the
row and column numbers and the marks the page shows (best move, dead cells,
forced 50/50s, ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from analyzer.errors import OptionError
from analyzer.render import probability_colour, text_colour

if TYPE_CHECKING:
    import numpy as np

__all__ = ["board_svg", "MAX_SVG_CELLS"]

MAX_SVG_CELLS = 250_000
"""The most cells an SVG is made for (500x500: about 40 MB of SVG; larger, save the PNG of the view)."""

_CELL = 24
_LABEL = 28
_MARKS = {  # name: outline colour, fill, dashed (the page's)
    "conflict": ("#d50000", "#ff8a80", False),
    "why_clues": ("#e65100", "#ffd54f", False),
    "why_cell": ("#1565c0", None, False),
    "clicked": ("#ff6f00", None, True),
    "best": ("#e6007e", None, False),
    "fifty": ("#6a1b9a", "#ce93d8", False),
    "dead": ("#212121", None, True),
}


def board_svg(
    codes: np.ndarray,
    probabilities: np.ndarray,
    width: int,
    height: int,
    palette: Mapping[str, object],
    *,
    marks: Mapping[str, Sequence[int]] | None = None,
    title: str = "",
) -> str:
    """The board as an SVG document: one square a cell, its state, number or percent, and the marks.

    ``codes`` and ``probabilities`` are the session's arrays (row-major), ``palette``
    its :data:`~analyzer.interactive.session.PALETTE`.

    >>> from analyzer.interactive.session import PALETTE, Session
    >>> codes, p = Session("3x1x1\\nH1H\\n").arrays()
    >>> svg = board_svg(codes, p, 3, 1, PALETTE)
    >>> svg.startswith("<svg") and svg.count("data-cell=") == 3, ">50<" in svg
    (True, True)
    """
    cells = width * height
    if cells > MAX_SVG_CELLS:
        raise OptionError(
            f"an SVG of {cells:,} cells is too large (at most {MAX_SVG_CELLS:,}):"
            " save a .png of the view instead"
        )
    kinds = list(palette["kinds"])  # type: ignore[call-overload]  # the kind of each state code
    size_w, size_h = _LABEL + width * _CELL, _LABEL + height * _CELL
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_w}" height="{size_h}"'
        f' viewBox="0 0 {size_w} {size_h}" font-family="monospace" text-anchor="middle"'
        ' dominant-baseline="central">',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect width="{size_w}" height="{size_h}" fill="{palette["grid"]}"/>')
    out.append(f'<g font-size="10" fill="#555"><rect width="{size_w}" height="{_LABEL}" fill="#fff"/>')
    out.append(f'<rect width="{_LABEL}" height="{size_h}" fill="#fff"/>')
    out.extend(
        f'<text x="{_LABEL + c * _CELL + _CELL / 2}" y="{_LABEL / 2}">{c}</text>' for c in range(width)
    )
    out.extend(
        f'<text x="{_LABEL / 2}" y="{_LABEL + r * _CELL + _CELL / 2}">{r}</text>' for r in range(height)
    )
    out.append('</g><g font-weight="bold">')
    for index in range(cells):
        row, col = divmod(index, width)
        x, y = _LABEL + col * _CELL, _LABEL + row * _CELL
        code = int(codes[index])
        kind = kinds[code]
        fill, text, ink, size = _look(kind, code, float(probabilities[index]), palette)
        out.append(
            f'<rect x="{x}" y="{y}" width="{_CELL - 1}" height="{_CELL - 1}" fill="{fill}"'
            f' data-cell="{row},{col}"/>'
        )
        if text:
            out.append(
                f'<text x="{x + _CELL / 2}" y="{y + _CELL / 2}" fill="{ink}" font-size="{size}">{text}</text>'
            )
        if kind == "wrong-flag":
            out.append(
                f'<path d="M{x + 4} {y + 4}L{x + _CELL - 5} {y + _CELL - 5}M{x + _CELL - 5} {y + 4}'
                f'L{x + 4} {y + _CELL - 5}" stroke="#d00000" stroke-width="2.5"/>'
            )
    out.append("</g>")
    out.extend(_mark_rects(marks or {}, width))
    out.append("</svg>\n")
    return "\n".join(out)


def _look(kind: str, code: int, p: float, palette: Mapping[str, object]) -> tuple[str, str, str, int]:
    """A cell's fill, text, ink and font size, by its kind (``p`` its probability, for a guess)."""
    numbers = list(palette["numbers"])  # type: ignore[call-overload]
    viridis = list(palette["viridis"])  # type: ignore[call-overload]
    text, ink, size = "", "#000", 15
    if kind == "number":
        fill, text, ink = str(palette["revealed"]), ("" if code == 0 else str(code)), numbers[code]
    elif kind == "guess":
        fill = probability_colour(p)
        text, ink, size = _percent(p), text_colour(fill), 11
    elif kind == "safe":
        fill, text = viridis[8], "✓"
    elif kind == "mine":
        fill, text, ink = viridis[0], "✱", "#fff"
    elif kind in ("flag", "wrong-flag"):
        fill, text, ink = str(palette["hidden"]), "⚑", str(palette["flag"])
    elif kind == "layout-mine":
        fill, text = str(palette["hidden"]), "✹"
    elif kind == "fatal":
        fill, text, ink = str(palette["fatal"]), "✹", "#fff"
    else:
        fill = str(palette["hidden"])
    return fill, text, ink, size


def _mark_rects(marks: Mapping[str, Sequence[int]], width: int) -> list[str]:
    """The outlines of the marks, in the page's order (a later mark is drawn over an earlier)."""
    out = []
    for name, (colour, shading, dashed) in _MARKS.items():
        for index in marks.get(name, ()):
            row, col = divmod(int(index), width)
            x, y = _LABEL + col * _CELL, _LABEL + row * _CELL
            shade = f'fill="{shading}" fill-opacity="0.45"' if shading else 'fill="none"'
            dash = ' stroke-dasharray="4 3"' if dashed else ""
            out.append(
                f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{_CELL - 4}" height="{_CELL - 4}" {shade}'
                f' stroke="{colour}" stroke-width="3"{dash} class="mz-mark-{name}"/>'
            )
    return out


def _percent(p: float) -> str:
    text = f"{100 * p:.0f}"
    return "&lt;1" if text == "0" else ">99" if text == "100" else text
