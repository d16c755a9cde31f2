"""Forced 50/50s before they form: the cells whose risk will have to be taken anyway.

Two disjoint sets of hidden cells of one size, ``D1`` and ``D2``, make a
*pattern*: two neighbouring cells (``k = 1``), or four mutually neighbouring
cells split into two pairs (``k = 2``; on the square grid a 2x2 block, whose
diagonals are the split that matters). Its *end cells* are the cells outside
it that neighbour more cells of one side than of the other. When every end
cell is a mine and one side holds ``k`` mines and the other none, no number
on the board can ever tell which side it is: swapping the two sides changes
no revealed number and no mine count. Such a 50/50 costs half its
probability whatever is done, and nothing can avoid it.

A hidden cell is a *pseudo-50/50* cell (David Hill's term) when it is a mine
only where it is in such a 50/50: ``P(cell is a mine) = P(the end cells and
its side are mines, the other side safe)``. Guessing it now takes no risk that
would not have to be taken later, and what it shows when safe is progress:
the strongest players guess such a cell as soon as they see it.

The patterns come from the topology's neighbour table alone (nothing here
assumes a square grid); a pattern is looked at only when at most ``k`` of its
end cells are not yet known to be mines, as Hill's solver does.

A 50/50 may also be longer than a pair or a block: a *chain* of linked pairs.
A revealed number that still needs one mine among exactly two cells in doubt
*links* them (one of the two is a mine). Linked cells that hang together
alternate: in every layout one colour of the chain holds its mines and the
other none. When the two colours have the same size, the chain is a pattern
of the position (:func:`chain_patterns`), its sides the two colours and its
end cells found as above: for instance two pairs along a wall with a revealed
cell between them, which no pair or block of the neighbour table holds. The compiled
player's scan (:func:`analyzer.play.fast.patterns.pseudo_fifty_fifties`) makes
the same choices; this is the form written for clarity, exact with Python
integers.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.errors import InconsistentBoardError
from analyzer.solver.solve import Analysis, solve

__all__ = [
    "CHAIN_SIDE",
    "LONGTERM_MISSING",
    "Pattern",
    "chain_patterns",
    "fifty_fifty_patterns",
    "fifty_influence",
    "pseudo_fifty_fifties",
]

LONGTERM_MISSING = 3
""":func:`fifty_influence` looks at a pattern with at most this many end cells not known to be mines."""

Pattern = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""One side's cells, the other side's, and the end cells (flat indices, ascending)."""

CHAIN_SIDE = 4
""":func:`chain_patterns` takes chains of at most this many cells a side."""


def fifty_fifty_patterns(table: tuple[tuple[int, ...], ...]) -> list[Pattern]:
    """Every pattern of a neighbour table: neighbouring pairs, then the three splits of each 4-clique.

    >>> from analyzer.board.topology import neighbour_table
    >>> fifty_fifty_patterns(neighbour_table("square", 3, 2))[0]  # cells 2 and 5 see cell 1 only
    ((0,), (1,), (2, 5))
    >>> patterns = fifty_fifty_patterns(neighbour_table("square", 2, 2))
    >>> [p for p in patterns if len(p[0]) == 2]
    [((0, 1), (2, 3), ()), ((0, 2), (1, 3), ()), ((0, 3), (1, 2), ())]
    """
    neighbours = [set(row) for row in table]
    patterns: list[Pattern] = []
    for a, around in enumerate(neighbours):
        for b in sorted(around):
            if b > a:
                patterns.append(_pattern((a,), (b,), neighbours))
    for a, around in enumerate(neighbours):
        later = sorted(x for x in around if x > a)
        for b, c, d in itertools.combinations(later, 3):
            if c in neighbours[b] and d in neighbours[b] and d in neighbours[c]:
                for first, second in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
                    patterns.append(_pattern(first, second, neighbours))
    return patterns


def _pattern(first: tuple[int, ...], second: tuple[int, ...], neighbours: list[set[int]]) -> Pattern:
    inside = set(first) | set(second)
    around = set().union(*(neighbours[i] for i in inside)) - inside
    ends = tuple(
        sorted(
            x
            for x in around
            if len(neighbours[x].intersection(first)) != len(neighbours[x].intersection(second))
        )
    )
    return first, second, ends


def chain_patterns(board: Board, analysis: Analysis) -> list[Pattern]:
    """The chains of linked pairs of the position that may be 50/50s, as patterns.

    Two cells in doubt are linked where a revealed number sees exactly these
    two cells in doubt (the others it sees are revealed, safe or certain
    mines): it then still needs exactly one mine, as with none or two both
    cells would be decided. A connected set of at least four linked cells,
    its two colours of the same size (at most :data:`CHAIN_SIDE` cells), is
    a pattern: the colour holding the lowest cell first, then the other, then
    the cells outside that neighbour more cells of one colour than of the
    other. (Links never close an odd cycle: each says one of its cells is a
    mine and the other safe, in every layout of a consistent position.)

    >>> board = Board.from_text("6x3x4\\nHH1HHF\\n11113F\\n000011\\n")  # two pairs along the wall
    >>> chain_patterns(board, solve(board))
    [((0, 3), (1, 4), (5, 11))]
    """
    probabilities = analysis.cell_probabilities
    cells = board.cells
    table = board.neighbour_table

    def doubt(i: int) -> bool:
        return cells[i] == HIDDEN and probabilities[i] not in (None, 0, 1)

    links: dict[int, set[int]] = {}
    for y, shown in enumerate(cells):
        if shown < 0:
            continue
        unknown = [i for i in table[y] if doubt(i)]
        if len(unknown) == 2:
            a, b = unknown
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    neighbours = [set(row) for row in table]
    colour: dict[int, int] = {}
    patterns = []
    for start in sorted(links):
        if start in colour:
            continue
        colour[start] = 0
        chain, queue = [start], [start]
        while queue:
            cell = queue.pop()
            for other in sorted(links[cell]):
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    chain.append(other)
                    queue.append(other)
        first = tuple(sorted(i for i in chain if colour[i] == 0))
        second = tuple(sorted(i for i in chain if colour[i] == 1))
        if len(first) == len(second) and 2 <= len(first) <= CHAIN_SIDE:
            patterns.append(_pattern(first, second, neighbours))
    return patterns


def pseudo_fifty_fifties(board: Board, analysis: Analysis, *, chains: bool = False) -> list[int]:
    """The pseudo-50/50 cells of ``board`` (flat indices, ascending), ``analysis`` its solve.

    With ``chains`` the position's :func:`chain_patterns` are looked at too.

    >>> board = Board.from_text("2x3x1\\nHH\\n11\\n00\\n")  # a 50/50 already: each cell explained
    >>> pseudo_fifty_fifties(board, solve(board))
    [0, 1]
    >>> board = Board.from_text("3x3x1\\nHHH\\nHHH\\nHHH\\n")  # each pattern has too many unknown end cells
    >>> pseudo_fifty_fifties(board, solve(board))
    []
    >>> board = Board.from_text("6x3x4\\nHH1HHF\\n11113F\\n000011\\n")  # a chain: no pair or block holds it
    >>> pseudo_fifty_fifties(board, solve(board)), pseudo_fifty_fifties(board, solve(board), chains=True)
    ([], [0, 1, 3, 4])
    """
    probabilities = analysis.cell_probabilities
    cells = board.cells
    found: set[int] = set()
    patterns = fifty_fifty_patterns(board.neighbour_table)
    if chains:
        patterns += chain_patterns(board, analysis)
    for first, second, ends in patterns:
        inside = first + second
        if any(cells[i] != HIDDEN or probabilities[i] in (None, 0, 1) for i in inside):
            continue
        if any(cells[j] >= 0 for j in ends):
            continue  # a revealed end cell is no mine: this pattern cannot form
        missing = [j for j in ends if cells[j] != FLAG and probabilities[j] != 1]
        if len(missing) > len(first):
            continue
        lowest = min(probabilities[i] for i in inside)  # type: ignore[type-var]
        if any(probabilities[j] < lowest for j in missing):  # type: ignore[operator]
            continue  # a cell a 50/50 explains is no likelier than each end cell
        share = Fraction(_layouts(board, set(missing) | set(first), set(second)), analysis.total)
        found.update(i for i in inside if probabilities[i] == share)
    return sorted(found)


def fifty_influence(board: Board, analysis: Analysis, cells: list[int]) -> dict[int, Fraction]:
    """The chance that a 50/50 forms around each of ``cells`` (hidden, in doubt), by cell.

    A guess now at a cell where a 50/50 may form later takes a risk that
    would otherwise have to be taken then: David Hill's solver counts this as
    the cell's *long-term safety*. A pattern may form when its cells are in
    doubt (probability strictly between 0 and 1), none of its end cells is
    revealed or safe, and at most :data:`LONGTERM_MISSING` of them are not
    known to be mines. Its share is the fraction of the layouts with those
    end cells and its first side mines and its second side safe. A cell's
    influence sums the shares of the patterns it is a side cell of, and of
    those whose one unknown end cell it is (a guess there stops the 50/50
    forming), at most its probability and at most its safety.

    >>> board = Board.from_text("4x4x3\\nHHHH\\nHHHH\\nHHHH\\nHHHH\\n")  # a corner, an edge, an inner cell
    >>> influence = fifty_influence(board, solve(board), [0, 1, 5])
    >>> influence[0], influence[1], influence[5]
    (Fraction(3, 560), Fraction(1, 280), Fraction(1, 280))
    """
    probabilities = analysis.cell_probabilities
    shown = board.cells
    wanted = set(cells)
    influence = dict.fromkeys(cells, Fraction(0))
    for first, second, ends in fifty_fifty_patterns(board.neighbour_table):
        inside = first + second
        if any(shown[i] != HIDDEN or probabilities[i] in (None, 0, 1) for i in inside):
            continue
        if any(shown[j] >= 0 or probabilities[j] == 0 for j in ends):
            continue  # an end cell that is no mine: this pattern cannot form
        missing = [j for j in ends if shown[j] != FLAG and probabilities[j] != 1]
        stops = len(missing) == 1 and missing[0] in wanted
        touched = [i for i in inside if i in wanted]
        if len(missing) > LONGTERM_MISSING or not (touched or stops):
            continue
        share = Fraction(_layouts(board, set(missing) | set(first), set(second)), analysis.total)
        for i in touched + missing if stops else touched:
            influence[i] += share
    result = {}
    for i, value in influence.items():
        p = probabilities[i]
        assert p is not None
        result[i] = min(value, p, 1 - p)
    return result


def _layouts(board: Board, mines: set[int], safe: set[int]) -> int:
    """The layouts of ``board`` with every cell of ``mines`` a mine and every cell of ``safe`` safe.

    Inclusion and exclusion over ``safe``: the layouts with ``mines`` flagged,
    less those with a cell of ``safe`` flagged too, and so on.
    """
    total = 0
    for size in range(len(safe) + 1):
        for also in itertools.combinations(sorted(safe), size):
            total += (-1) ** size * _flagged_layouts(board, mines | set(also))
    return total


def _flagged_layouts(board: Board, cells: set[int]) -> int:
    if len(cells) + len(board.flagged_cells()) > board.mines:
        return 0
    w = board.width
    try:
        return solve(board.replace({divmod(i, w): FLAG for i in cells})).total
    except InconsistentBoardError:
        return 0
