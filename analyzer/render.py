"""Pictures of boards and analyses: HTML for Jupyter and plain text for terminals.

Only formatting lives here (no terminal handling, which is :mod:`analyzer.cli`'s).
Boards on a grid (square, torus, knight, cross) are HTML tables; the others are
inline SVG: hexagonal boards as hexagons in offset rows, the cube as its unfolded
net (:data:`~analyzer.board.topology.CUBE_NET`), a graph as its cells (circles) and
edges, placed where the graph says or by a seeded spring layout (networkx).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.board.topology import CUBE_NET, Graph
from analyzer.limits import describe_count, digit_count, fraction_text, plural

if TYPE_CHECKING:
    from analyzer.play.game import Game
    from analyzer.solver.analysis import Analysis
    from analyzer.solver.explain import Explanation
    from analyzer.variants.position import Position
    from analyzer.variants.rules import RuleSet

__all__ = [
    "board_html",
    "board_svg",
    "board_size_text",
    "cell_centres",
    "analysis_html",
    "analysis_text",
    "explanation_text",
    "explanation_html",
    "probability_colour",
    "percent_text",
    "game_html",
    "position_html",
    "certain_text",
    "text_colour",
    "SAFE_MARK",
    "MINE_MARK",
    "NUMBER_COLOURS",
    "exact_or_rounded",
]

NUMBER_COLOURS = (  # the colour of each revealed number, 0-8, as the classic game draws them
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
_CELL = (
    "width:2.2em;min-width:2.2em;max-width:2.2em;height:2.2em;text-align:center;"
    "font:bold 0.8em monospace;border:1px solid #888;padding:0;overflow:hidden;white-space:nowrap"
)
_HEAD = "font:0.7em monospace;color:#666;text-align:center;padding:0 0.2em"
SAFE_MARK = "✓"
"""What a certainly safe cell shows (its background is the scale's safe end)."""
MINE_MARK = "✱"
"""What a certain mine shows (its background is the scale's mine end)."""

# matplotlib's viridis, sampled at 0, 1/8, ..., 1 (a perceptually uniform, colour-blind safe
# scale); kept here so that drawing a board needs no matplotlib.
_VIRIDIS = (
    (0x44, 0x01, 0x54),
    (0x48, 0x28, 0x78),
    (0x3E, 0x49, 0x89),
    (0x31, 0x68, 0x8E),
    (0x26, 0x82, 0x8E),
    (0x1F, 0x9E, 0x89),
    (0x35, 0xB7, 0x79),
    (0x6E, 0xCE, 0x58),
    (0xFD, 0xE7, 0x25),
)


def probability_colour(p: float) -> str:
    """The background for mine probability ``p``: viridis at ``1 - sqrt(p)``.

    Safe is yellow and a certain mine dark purple; the square root spreads the low
    probabilities, where choices are made, so that 0 %, 5 %, 20 %, 50 % and 100 % are
    told apart at a glance (yellow, green, teal, blue, purple).

    >>> probability_colour(0.0), probability_colour(1.0)
    ('#fde725', '#440154')
    """
    p = min(max(p, 0.0), 1.0)
    x = (1 - p**0.5) * (len(_VIRIDIS) - 1)
    i = min(int(x), len(_VIRIDIS) - 2)
    t = x - i
    a, b = _VIRIDIS[i], _VIRIDIS[i + 1]
    return "#" + "".join(f"{round(u + (v - u) * t):02x}" for u, v in zip(a, b, strict=True))


def text_colour(background: str) -> str:
    """Black or white, whichever contrasts more with ``background`` (WCAG relative luminance)."""
    channels = [int(background[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "#000" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "#fff"


def _table(rows: list[list[tuple[str, str, str]]], caption: str) -> str:
    """The grid with column numbers on top and row numbers on the left (0-based, as cells are named)."""
    width = len(rows[0]) if rows else 0
    out = [
        '<table class="analyzer-board" style="border-collapse:collapse">',
        f'<caption style="caption-side:bottom">{html.escape(caption)}</caption>',
        "<tr><th></th>" + "".join(f'<th style="{_HEAD}">{c}</th>' for c in range(width)) + "</tr>",
    ]
    for r, row in enumerate(rows):
        out.append(f'<tr><th style="{_HEAD}">{r}</th>')
        for c, (text, style, title) in enumerate(row):
            label = f"({r}, {c})" + (f": {title}" if title else "")
            out.append(
                f'<td style="{_CELL};{style}" title="{html.escape(label)}" data-cell="{r},{c}">'
                f"{html.escape(text)}</td>"
            )
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def board_size_text(board: Board) -> str:
    """``'30x16'``, ``'30x16 hex'``, ``'cube of 3x3 faces'``, ``'graph of 12 cells'``.

    >>> board_size_text(Board.from_text("2x12x0 cube\\n" + "00\\n" * 12))
    'cube of 2x2 faces'
    """
    if isinstance(board.topology, Graph):
        return f"graph of {board.width} cells"
    if board.topology == "cube":
        return f"cube of {board.width}x{board.width} faces"
    name = "" if board.topology == "square" else f" {board.topology}"
    return f"{board.width}x{board.height}{name}"


_SVG_TOPOLOGIES = ("hex", "cube")
_UNIT = 30.0  # pixels: a square's side, a hexagon's width, a graph cell's diameter


def cell_centres(board: Board) -> tuple[list[tuple[float, float]], float]:
    """Where :func:`board_svg` draws each cell (x right, y down, in pixels) and the size of a cell.

    Hexagonal rows are offset as minesweepr draws them (odd rows half a cell to the
    left); the cube's faces sit in their net; a graph's cells where the graph places
    them, or by networkx's spring layout (seed 0) scaled so that neighbours stand
    about two cells apart.

    >>> centres, size = cell_centres(Board.from_text("2x2x0 hex\\n00\\n00"))
    >>> [(round(x), round(y)) for x, y in centres], size
    ([(30, 17), (60, 17), (15, 43), (45, 43)], 30.0)
    """
    n = board.width
    if board.topology == "hex":
        rise = _UNIT * math.sqrt(3) / 2  # rows of pointy-top hexagons of width _UNIT
        return [
            (_UNIT * (c + (1.0 if r % 2 == 0 else 0.5)), rise * (r + 2 / 3))
            for r in range(board.height)
            for c in range(n)
        ], _UNIT
    if board.topology == "cube":
        centres = []
        for i in range(len(board.cells)):
            face, rest = divmod(i, n * n)
            r, c = divmod(rest, n)
            gap = 0.25 * _UNIT  # between faces, so that the net's folds show
            top, left = CUBE_NET[face]
            centres.append(
                ((left * n + c + 0.5) * _UNIT + left * gap, (top * n + r + 0.5) * _UNIT + top * gap)
            )
        return centres, _UNIT
    if isinstance(board.topology, Graph):
        graph = board.topology
        if graph.positions is not None:
            points = list(graph.positions)
        else:
            import networkx as nx

            g = nx.Graph()
            g.add_nodes_from(range(len(graph)))
            g.add_edges_from((i, j) for i, around in enumerate(graph.neighbours) for j in around if i < j)
            layout = nx.spring_layout(g, seed=0)
            points = [(float(layout[i][0]), float(layout[i][1])) for i in range(len(graph))]
        # Scale so that the shortest edge (or the closest pair) is two cells long.
        pairs = [(i, j) for i, around in enumerate(graph.neighbours) for j in around if i < j]
        if not pairs:
            pairs = [(i, j) for i in range(len(points)) for j in range(i + 1, min(len(points), i + 50))]
        shortest = min((math.dist(points[i], points[j]) for i, j in pairs), default=1.0) or 1.0
        scale = 2 * _UNIT / shortest
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return [((x - min(xs)) * scale + _UNIT, (y - min(ys)) * scale + _UNIT) for x, y in points], _UNIT
    return [((c + 0.5) * _UNIT, (r + 0.5) * _UNIT) for r in range(board.height) for c in range(n)], _UNIT


def _style(style: str) -> dict[str, str]:
    found = {}
    for part in style.split(";"):
        key, _, value = part.partition(":")
        if key.strip():
            found[key.strip()] = value.strip()
    return found


def _shape(board: Board, x: float, y: float, size: float) -> str:
    """The SVG outline of a cell centred at ``(x, y)``."""
    if board.topology == "hex":
        r = size / math.sqrt(3)  # pointy-top: width size, corners at r from the centre
        points = " ".join(
            f"{x + 0.97 * r * math.cos(math.radians(30 + 60 * k)):.1f},"
            f"{y + 0.97 * r * math.sin(math.radians(30 + 60 * k)):.1f}"
            for k in range(6)
        )
        return f'<polygon points="{points}"'
    if isinstance(board.topology, Graph):
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{0.48 * size:.1f}"'
    half = 0.47 * size
    return f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" height="{2 * half:.1f}"'


def _svg(board: Board, cells: list[tuple[str, str, str]], caption: str) -> str:
    """An SVG picture of the cells (each ``(text, css style, title)``), in a figure with a caption."""
    centres, size = cell_centres(board)
    right = max(x for x, _ in centres) + size
    bottom = max(y for _, y in centres) + size
    out = [
        '<figure class="analyzer-board" style="margin:0">',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{right:.0f}" height="{bottom:.0f}" '
        f'viewBox="0 0 {right:.0f} {bottom:.0f}" font-family="monospace" font-weight="bold">',
    ]
    if isinstance(board.topology, Graph):
        for i, around in enumerate(board.topology.neighbours):
            for j in around:
                if i < j:
                    (x1, y1), (x2, y2) = centres[i], centres[j]
                    out.append(
                        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#999"/>'
                    )
    w = board.width
    for i, ((text, style, title), (x, y)) in enumerate(zip(cells, centres, strict=True)):
        r, c = divmod(i, w)
        css = _style(style)
        fill = css.get("background", "#bbb")
        colour = css.get("color", "#000")
        outline = css.get("outline", "")
        stroke = 'stroke="#888" stroke-width="1"'
        if outline:
            width, _, line_colour = outline.partition(" solid ")
            stroke = f'stroke="{line_colour}" stroke-width="{width.removesuffix("px")}"'
        name = board.topology.name_of(c) if isinstance(board.topology, Graph) else f"({r}, {c})"
        label = name + (f": {title}" if title else "")
        out.append(
            f'<g data-cell="{r},{c}"><title>{html.escape(label)}</title>'
            f'{_shape(board, x, y, size)} fill="{fill}" {stroke}/>'
        )
        if text:
            small = len(text) > 2
            out.append(
                f'<text x="{x:.1f}" y="{y:.1f}" fill="{colour}" font-size="{9 if small else 12}" '
                f'text-anchor="middle" dominant-baseline="central">{html.escape(text)}</text>'
            )
        out.append("</g>")
    out.append("</svg>")
    out.append(f'<figcaption style="font-size:0.8em">{html.escape(caption)}</figcaption></figure>')
    return "".join(out)


def _picture(board: Board, rows: list[list[tuple[str, str, str]]], caption: str) -> str:
    """The board's cells as an HTML table (grids) or an SVG picture (hexagons, the cube's net, a graph)."""
    if board.topology in _SVG_TOPOLOGIES or isinstance(board.topology, Graph):
        return _svg(board, [cell for row in rows for cell in row], caption)
    return _table(rows, caption)


def board_svg(board: Board) -> str:
    """The board as an SVG picture on any topology (what :func:`board_html` shows for hex, cube and graphs).

    >>> board_svg(Board.from_text("3x1x1\\nH1H")).startswith('<figure class="analyzer-board"')
    True
    """
    rows = [
        [_revealed(value) if value >= 0 else _hidden_or_flag(value) for value in row] for row in board.rows()
    ]
    return _svg(
        board,
        [cell for row in rows for cell in row],
        f"{board_size_text(board)}, {plural(board.mines, 'mine')}",
    )


def _revealed(value: int) -> tuple[str, str, str]:
    title = "revealed 0" if value == 0 else f"revealed {value}"
    return ("" if value == 0 else str(value), f"background:#ddd;color:{NUMBER_COLOURS[value]}", title)


def _hidden_or_flag(value: int) -> tuple[str, str, str]:
    if value == FLAG:
        return ("⚑", "background:#bbb;color:#c00", "flag")
    return ("", "background:#bbb", "hidden")


def board_html(board: Board) -> str:
    """The board as an HTML table (hidden cells grey, flags marked), rows and columns numbered."""
    rows = [
        [_revealed(value) if value >= 0 else _hidden_or_flag(value) for value in row] for row in board.rows()
    ]
    return _picture(board, rows, f"{board_size_text(board)}, {plural(board.mines, 'mine')}")


_COLOURED = "box-shadow:inset 0 0 0 3px #7e57c2"
"""How a coloured cell of rules M and N is marked: a violet frame inside the cell."""


def position_html(position: Position, rules: str | RuleSet | None = None) -> str:
    """A variant position as an HTML table, as :func:`board_html` draws a board.

    Clues as numbers (a Wall clue as its runs), ``?`` for a cell known safe without a clue;
    with a colouring rule (M, N) the cells it colours are framed.

    >>> from analyzer.variants import Position
    >>> picture = position_html(Position.from_text("2x1x1\\nH?\\n"), "M")
    >>> picture.count("<td"), picture.count("inset"), "rules M" in picture
    (2, 1, True)
    """
    from analyzer.variants.position import NO_CLUE
    from analyzer.variants.rules import is_coloured, parse_rules

    ruleset = None if rules is None else parse_rules(rules) if isinstance(rules, str) else rules
    coloured = ruleset is not None and ruleset.colour is not None
    runs = dict(position.runs)
    rows = []
    for r in range(position.height):
        row = []
        for c in range(position.width):
            value = position[r, c]
            if value == NO_CLUE:
                text, style, title = "?", "background:#ddd;color:#555", "safe, no clue"
            elif value >= 0:
                lengths = runs.get(r * position.width + c)
                text = str(value) if lengths is None else ",".join(map(str, lengths))
                colour = NUMBER_COLOURS[value] if value < len(NUMBER_COLOURS) else "#000"
                text, style, title = text, f"background:#ddd;color:{colour}", f"clue {text}"
            else:
                text, style, title = _hidden_or_flag(value)
            if coloured and is_coloured(r, c):
                style, title = f"{style};{_COLOURED}", f"{title}, coloured"
            row.append((text, style, title))
        rows.append(row)
    caption = f"{position.width}x{position.height}, {plural(position.mines, 'mine')}"
    if ruleset is not None:
        caption += f", rules {rules if isinstance(rules, str) else ruleset}"
        if coloured:
            caption += f" (framed: the cells {ruleset.colour} colours)"
    return _table(rows, caption)


def game_html(game: Game) -> str:
    """A game as it stands: the player's view; once lost, every mine shown and the fatal one marked."""
    board = game.board
    mines = game.mines if game.status == "lost" else None
    fatal = game.fatal_cell
    rows = []
    for r, row in enumerate(board.rows()):
        cells = []
        for c, value in enumerate(row):
            if mines is not None and (r, c) in mines:
                style = "background:#c00;color:#fff" if (r, c) == fatal else "background:#bbb;color:#000"
                cells.append(("✹", style, "the mine that was hit" if (r, c) == fatal else "mine"))
            elif value >= 0:
                cells.append(_revealed(value))
            else:
                cells.append(_hidden_or_flag(value))
        rows.append(cells)
    caption = f"{board_size_text(board)}, {plural(game.mine_count, 'mine')}: {game.status}"
    return _picture(board, rows, caption)


def analysis_html(analysis: Analysis, *, best: tuple[int, int] | None = None) -> str:
    """The board coloured by mine probability (:func:`probability_colour`); hover for the exact fraction.

    Certainly safe cells show :data:`SAFE_MARK`, certain mines :data:`MINE_MARK`, other
    hidden cells their probability in whole percent (``<1`` and ``>99`` rather than 0 or
    100), the text black or white for contrast. ``best`` (a cell, e.g. the first of
    :meth:`Analysis.best_moves <analyzer.solver.analysis.Analysis.best_moves>`) is outlined
    and titled "best move".
    """
    board = analysis.board
    rows = []
    for r, row in enumerate(board.rows()):
        cells = []
        for c, value in enumerate(row):
            p = analysis.cell_probabilities[r * board.width + c]
            if p is None:
                cells.append(_revealed(value))
                continue
            if value == FLAG and analysis.trust_flags:
                cells.append(("⚑", "background:#bbb;color:#c00", "flag"))
                continue
            background = probability_colour(float(p))
            style = f"background:{background};color:{text_colour(background)}"
            title = f"P(mine) = {exact_or_rounded(p)}"
            if p == 0:
                title = "certainly safe"
            elif p == 1:
                title = "certainly a mine"
            if (r, c) == best:
                style += ";outline:3px solid #e6007e;outline-offset:-3px"
                title = f"best move; {title}"
            cells.append((_short(p), style, title))
        rows.append(cells)
    mines = plural(board.mines, "mine")
    caption = f"{board_size_text(board)}, {mines}; {describe_count(analysis.total)} layouts"
    return _picture(board, rows, caption)


def exact_or_rounded(p: Fraction) -> str:
    """The fraction itself when short; past 40 digits its value and the sizes of its terms."""
    if digit_count(p.denominator) <= 40:
        return fraction_text(p)
    sizes = f"{digit_count(p.numerator)}- and {digit_count(p.denominator)}-digit numbers"
    return f"{float(p):.6g} (exact: a fraction of {sizes})"


def _short(p: Fraction) -> str:
    if p == 0:
        return SAFE_MARK
    if p == 1:
        return MINE_MARK
    return percent_text(p)


def percent_text(p: Fraction) -> str:
    """A probability strictly between 0 and 1 in whole percent, never shown as 0 or 100.

    >>> percent_text(Fraction(1, 200)), percent_text(Fraction(1, 3)), percent_text(Fraction(199, 200))
    ('<1', '33', '>99')
    """
    text = f"{100 * float(p):.0f}"
    if text == "0":
        return "<1"
    if text == "100":
        return ">99"
    return text


def analysis_text(analysis: Analysis) -> str:
    """The board with each unknown cell's mine probability in percent, rows and columns numbered.

    Column numbers head the grid and row numbers start each line (0-based, as
    cells are named ``R,C`` everywhere). Revealed numbers show in brackets
    (``[.]`` for 0), trusted flags as ``F``, certain mines as ``*``, certain
    safe cells as ``-``; other cells show their percentage without the ``%``
    sign, never rounded to 0 or 100 (``<1``, ``>99``). Every column is as wide
    as the widest entry, so a 30x16 board fits in 124 characters.

    >>> from analyzer.solver.solve import solve
    >>> print(analysis_text(solve("3x1x1\\nH1H\\n")))
        0   1   2
    0  50 [1]  50
    >>> print(analysis_text(solve("4x1x1\\nH10H\\n")))
        0   1   2   3
    0   * [1] [.]   -
    """
    board = analysis.board
    grid = []
    # Cells share few distinct probabilities (one for all background cells):
    # format each once, so a million-cell board prints in about a second.
    shown: dict[int, str] = {}

    def percent(p: Fraction) -> str:
        text = shown.get(id(p))
        if text is None:
            if p == 0:
                text = "-"
            elif p == 1:
                text = "*"
            else:
                text = percent_text(p)
            shown[id(p)] = text
        return text

    probabilities = analysis.cell_probabilities
    trust = analysis.trust_flags
    for r, row in enumerate(board.rows()):
        out = []
        base = r * board.width
        for c, value in enumerate(row):
            p = probabilities[base + c]
            if p is None:
                out.append("[.]" if value == 0 else f"[{value}]")
            elif value == FLAG and trust:
                out.append("F")
            else:
                out.append(percent(p))
        grid.append(out)
    width = max([3, len(str(board.width - 1))] + [len(s) for s in set().union(*grid)])
    if isinstance(board.topology, Graph):
        return _graph_list(board, grid[0], width)
    label = len(str(board.height - 1))
    lines = [" " * label + " " + " ".join(f"{c:>{width}}" for c in range(board.width))]
    for r, out in enumerate(grid):
        # Hexagonal: even rows sit half a cell to the right of odd ones, as drawn.
        shift = " " * ((width + 1) // 2) if board.topology == "hex" and r % 2 == 0 else ""
        lines.append(f"{r:>{label}} " + shift + " ".join([s.rjust(width) for s in out]))
    return "\n".join(lines)


def _graph_list(board: Board, shown: list[str], width: int) -> str:
    """A graph's cells one a line: name, what :func:`analysis_text` shows, and the neighbours' names."""
    graph = board.topology
    assert isinstance(graph, Graph)
    names = [graph.name_of(i) for i in range(len(graph))]
    size = max(4, *(len(n) for n in names))
    lines = [f"{'cell':<{size}} {'':>{width}}  neighbours"]
    for i, (name, text) in enumerate(zip(names, shown, strict=True)):
        lines.append(f"{name:<{size}} {text:>{width}}  " + " ".join(names[j] for j in graph.neighbours[i]))
    return "\n".join(lines)


def _labelled(rows: list[list[str]]) -> str:
    """Rows of short strings as a grid with column numbers above and row numbers on the left."""
    width = max(3, max((len(s) for row in rows for s in row), default=1) + 1)
    margin = len(str(len(rows) - 1)) + 1
    header = " " * margin + "".join(f"{c:>{width}}" for c in range(len(rows[0]) if rows else 0))
    body = [f"{r:>{margin - 1}} " + "".join(f"{s:>{width}}" for s in row) for r, row in enumerate(rows)]
    return "\n".join([header, *body])


def certain_text(
    board: Board,
    safe: Sequence[tuple[int, int]],
    mines: Sequence[tuple[int, int]],
    *,
    trust_flags: bool = True,
) -> str:
    """The board with its certain cells, in the notation of :func:`analysis_text`.

    Revealed numbers in brackets (``[.]`` for 0), trusted flags ``F``, certain mines ``*``,
    certainly safe cells ``-``; a hidden cell that is neither shows ``#``.

    >>> print(certain_text(Board.from_text("4x2x2\\nHHHH\\n1221\\n"), [(0, 0), (0, 3)], [(0, 1), (0, 2)]))
         0   1   2   3
    0    -   *   *   -
    1  [1] [2] [2] [1]
    """
    safe_set, mine_set = set(safe), set(mines)
    rows = []
    for r, row in enumerate(board.rows()):
        out = []
        for c, value in enumerate(row):
            if value >= 0:
                out.append("[.]" if value == 0 else f"[{value}]")
            elif value == FLAG and trust_flags:
                out.append("F")
            elif (r, c) in mine_set:
                out.append("*")
            elif (r, c) in safe_set:
                out.append("-")
            else:
                out.append("#")
        rows.append(out)
    return _labelled(rows)


def explanation_text(explanation: Explanation) -> str:
    """The board in the notation of :func:`analysis_text`, the explanation's clues marked ``<n>``.

    Revealed numbers show in brackets (``[.]`` for 0), flags as ``F``, other hidden
    cells as ``#``; the cell explained shows its claim as :func:`analysis_text` would
    (``-`` safe, ``*`` a mine), and the clues that force it in angle brackets.

    >>> from analyzer.solver.explain import explain
    >>> print(explanation_text(explain("4x2x2\\nHHHH\\n1221\\n", (0, 0))))
         0   1   2   3
    0    -   #   #   #
    1  <1> [2] <2> <1>
    (0, 0) is safe: forced by the clues 1 at (1, 0), 2 at (1, 2), 1 at (1, 3)
    """
    board = explanation.board
    marked = set(explanation.clues)
    rows = []
    for r, row in enumerate(board.rows()):
        out = []
        for c, value in enumerate(row):
            if (r, c) == explanation.cell:
                out.append("*" if explanation.is_mine else "-")
            elif value == HIDDEN:
                out.append("#")
            elif value == FLAG:
                out.append("F")
            else:
                shown = "." if value == 0 else str(value)
                out.append(f"<{shown}>" if (r, c) in marked else f"[{shown}]")
        rows.append(out)
    return _labelled(rows) + "\n" + explanation.describe()


def explanation_html(explanation: Explanation) -> str:
    """The board with the explanation's clues highlighted and the cell explained marked."""
    board = explanation.board
    marked = set(explanation.clues)
    rows = []
    for r, row in enumerate(board.rows()):
        cells = []
        for c, value in enumerate(row):
            if (r, c) == explanation.cell:
                colour = "#f66" if explanation.is_mine else "#6c6"
                claim = "certain mine" if explanation.is_mine else "certainly safe"
                cells.append(("M" if explanation.is_mine else "S", f"background:{colour}", claim))
            elif value == HIDDEN:
                cells.append(("", "background:#bbb", "hidden"))
            elif value == FLAG:
                cells.append(("⚑", "background:#bbb;color:#c00", "flag"))
            else:
                text, style, _ = _revealed(value)
                if (r, c) in marked:
                    cells.append(
                        (text, style + ";background:#ffd54f;outline:2px solid #e65100", "in the explanation")
                    )
                else:
                    cells.append((text, style, ""))
        rows.append(cells)
    return _picture(board, rows, explanation.describe())
