"""Look-ahead for the ``expert`` player: the outcomes of a reveal, and an exact end-game expectimax."""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.solver.analysis import Analysis
from analyzer.solver.solve import count_layouts, solve

__all__ = [
    "reveal_outcomes",
    "endgame_layouts",
    "endgame_search",
    "endgame_line",
    "isolated_parts",
    "isolated_move",
]


def reveal_outcomes(board: Board, analysis: Analysis, row: int, col: int) -> dict[int, Analysis]:
    """The analysis of the board after ``(row, col)`` is revealed as each number it can show.

    ``outcomes[k].total / analysis.total`` is the exact probability that the
    cell is safe and shows ``k``: the values of
    :meth:`~analyzer.Analysis.number_distribution`. Numbers no layout allows are
    left out (only ``k`` between the certain mines and the unrevealed cells
    around are tried).

    >>> from fractions import Fraction
    >>> from analyzer.solver.solve import solve
    >>> board = Board.from_text("3x1x1\\nH1H\\n")
    >>> {k: Fraction(a.total, 2) for k, a in reveal_outcomes(board, solve(board), 0, 0).items()}
    {0: Fraction(1, 2)}
    """
    index = board.index(row, col)
    cells = board.cells
    probabilities = analysis.cell_probabilities
    around = board.neighbour_table[index]
    low = sum(1 for j in around if probabilities[j] == 1)
    high = sum(1 for j in around if cells[j] < 0 and probabilities[j] != 0)
    outcomes = {}
    for k in range(low, high + 1):
        shown = board.replace({(row, col): k})
        if count_layouts(shown, trust_flags=analysis.trust_flags):  # else no layout shows k here
            outcomes[k] = solve(shown, trust_flags=analysis.trust_flags)
    return outcomes


def endgame_layouts(board: Board, *, limit: int) -> list[frozenset[int]] | None:
    """Every mine layout over the hidden, unflagged cells consistent with the board.

    Flags are taken as mines. Layouts are frozensets of flat indices; ``None``
    when there are more than ``limit`` (the search stops as soon as it knows).

    >>> endgame_layouts(Board.from_text("3x1x1\\nH1H\\n"), limit=10)
    [frozenset({2}), frozenset({0})]
    >>> endgame_layouts(Board.from_text("3x1x1\\nH1H\\n"), limit=1) is None
    True
    """
    mines_left = board.mines - board.cells.count(FLAG)
    need, members, order, background = _frontier(board)
    clues_of: dict[int, list[int]] = {}
    for clue, hidden in members.items():
        for j in hidden:
            clues_of.setdefault(j, []).append(clue)
    open_count = {clue: len(hidden) for clue, hidden in members.items()}
    if any(n < 0 or n > open_count[c] for c, n in need.items()):
        return []
    found: list[frozenset[int]] = []
    chosen: list[int] = []

    def search(pos: int, used: int) -> bool:
        if pos == len(order):
            rest = mines_left - used
            if 0 <= rest <= len(background):
                if len(found) + math.comb(len(background), rest) > limit:
                    return False
                base = frozenset(chosen)
                for extra in combinations(background, rest):
                    found.append(base | frozenset(extra))
            return True
        cell = order[pos]
        remaining = len(order) - pos - 1 + len(background)
        for mine in (0, 1):
            if used + mine > mines_left or used + mine + remaining < mines_left:
                continue
            ok = True
            touched = clues_of[cell]
            for clue in touched:
                need[clue] -= mine
                open_count[clue] -= 1
                if need[clue] < 0 or need[clue] > open_count[clue]:
                    ok = False
            if ok:
                if mine:
                    chosen.append(cell)
                carry_on = search(pos + 1, used + mine)
                if mine:
                    chosen.pop()
            else:
                carry_on = True
            for clue in touched:
                need[clue] += mine
                open_count[clue] += 1
            if not carry_on:
                return False
        return True

    if not search(0, 0):
        return None
    return found


def _frontier(board: Board) -> tuple[dict[int, int], dict[int, list[int]], list[int], list[int]]:
    """The clues around hidden cells: the mines each still needs, its hidden cells; the
    frontier cells in an order that closes clues early (breadth first along clues), and
    the hidden cells no clue touches."""
    cells = board.cells
    table = board.neighbour_table
    needs: dict[int, int] = {}
    members: dict[int, list[int]] = {}
    for i, v in enumerate(cells):
        if v > 0 or v == 0:
            hidden = [j for j in table[i] if cells[j] == HIDDEN]
            if hidden:
                needs[i] = v - sum(1 for j in table[i] if cells[j] == FLAG)
                members[i] = hidden
    order: list[int] = []
    placed: set[int] = set()
    for clue in sorted(members):
        for j in members[clue]:
            if j not in placed:
                placed.add(j)
                order.append(j)
    background = [i for i, v in enumerate(cells) if v == HIDDEN and i not in placed]
    return needs, members, order, background


class _Budget(Exception):
    pass


def endgame_search(board: Board, layouts: list[frozenset[int]], *, max_nodes: int) -> tuple[int, int] | None:
    """The reveal that maximises the chance of winning, by exact expectimax.

    Every layout in ``layouts`` is equally likely. A move reveals a hidden cell
    (and, on a zero, the flood fill around it, as the game does); the value of
    a position is the number of its layouts on which the best play wins.
    Revealing a cell that no remaining layout mines is never worse than
    anything else (it only adds information), so the search takes such cells
    without branching.

    Parameters
    ----------
    board : Board
    layouts : list of frozenset of int
        From :func:`endgame_layouts`.
    max_nodes : int
        Positions to evaluate before giving up.

    Returns
    -------
    (int, int) or None
        The best first cell (flat index; among equals the one fewest layouts
        mine, then the first in row-major order) and the number of layouts on
        which best play wins; ``None`` when the search ran past ``max_nodes``.

    Examples
    --------
    One mine in three cells: revealing the middle leaves a 50/50 (wins on 1 of
    the 2 layouts where it is safe), revealing an end wins on both.

    >>> board = Board.from_text("3x1x1\\nHHH\\n")
    >>> layouts = endgame_layouts(board, limit=10)
    >>> endgame_search(board, layouts, max_nodes=100)
    (0, 2)
    """
    if not layouts:
        return None
    search = _Expectimax(board, layouts, max_nodes)
    unknown = search.unknown
    try:
        mined = {i: sum(1 for layout in layouts if i in layout) for i in unknown}
        best_cell, best = -1, -1
        for i in sorted(unknown, key=lambda i: (mined[i], i)):
            if len(layouts) - mined[i] <= best:
                break
            v = search.after(i, search.everything, frozenset())
            if v > best:
                best_cell, best = i, v
    except _Budget:
        return None
    return best_cell, best


class _Expectimax:
    """:func:`endgame_search`'s walk: the numbers each layout shows, the memo, the node count."""

    def __init__(self, board: Board, layouts: list[frozenset[int]], max_nodes: int) -> None:
        cells = board.cells
        table = board.neighbour_table
        self.cells = cells
        self.table = table
        self.layouts = layouts
        self.max_nodes = max_nodes
        self.unknown = unknown = tuple(i for i, v in enumerate(cells) if v == HIDDEN)
        flags = frozenset(i for i, v in enumerate(cells) if v == FLAG)
        self.numbers: list[dict[int, int]] = []
        for layout in layouts:
            mine_set = layout | flags
            self.numbers.append(
                {i: sum(1 for j in table[i] if j in mine_set) for i in unknown if i not in layout}
            )
        self.memo: dict[tuple[frozenset[int], frozenset[int]], int] = {}
        self.nodes = 0
        self.everything = frozenset(range(len(layouts)))

    def outcome(self, li: int, start: int, revealed: frozenset[int]) -> tuple[tuple[int, int], ...]:
        """The cells and numbers layout ``li`` shows when ``start`` is revealed (with its flood fill)."""
        cells, table = self.cells, self.table
        shown = self.numbers[li]
        seen = {start}
        stack = [start]
        out = []
        while stack:
            i = stack.pop()
            out.append((i, shown[i]))
            if shown[i] == 0:
                for j in table[i]:
                    if cells[j] == HIDDEN and j not in revealed and j not in seen:
                        seen.add(j)
                        stack.append(j)
        out.sort()
        return tuple(out)

    def after(self, cell: int, live: frozenset[int], revealed: frozenset[int]) -> int:
        """The layouts of ``live`` best play wins after revealing ``cell``."""
        layouts = self.layouts
        branches: dict[tuple[tuple[int, int], ...], list[int]] = {}
        for li in live:
            if cell not in layouts[li]:
                branches.setdefault(self.outcome(li, cell, revealed), []).append(li)
        total = 0
        for key, group in branches.items():
            total += self.value(revealed | {i for i, _ in key}, frozenset(group))
        return total

    def value(self, revealed: frozenset[int], live: frozenset[int]) -> int:
        """The layouts of ``live`` best play wins from the position ``revealed`` (memoised)."""
        if len(live) == 1:
            return 1
        key = (revealed, live)
        memo = self.memo
        if key in memo:
            return memo[key]
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Budget
        layouts = self.layouts
        hidden = [i for i in self.unknown if i not in revealed]
        mined = {i: sum(1 for li in live if i in layouts[li]) for i in hidden}
        safe = [i for i in hidden if mined[i] == 0]
        if safe:
            best = self.after(safe[0], live, revealed)
        else:
            best = 0
            for i in sorted(hidden, key=lambda i: (mined[i], i)):
                bound = len(live) - mined[i]
                if bound <= best:
                    break
                best = max(best, self.after(i, live, revealed))
        memo[key] = best
        return best


def endgame_line(
    board: Board, layouts: list[frozenset[int]], *, max_nodes: int, depth: int = 2
) -> dict[str, Any] | None:
    """The line of best play: :func:`endgame_search`'s move, then its best reply to each thing it can show.

    Returns ``{"cell", "wins", "layouts", "replies"}``: the best first cell (flat
    index), the layouts on which best play wins and how many there are (the
    chance to win is ``wins / layouts``), and, ``depth`` above 1, one reply per
    thing the move can show (the numbers it opens, a zero's flood fill included),
    in order of likelihood: ``{"shown": ((index, number), ...), "layouts": n,
    "line": ...}``, where ``n`` counts the layouts that show it and ``line`` is
    the line from there (``depth - 1`` deep; ``None`` when one layout is left:
    every cell is known, the rest of the game is certain). The layouts where the
    move is a mine are lost and not listed. Each line is searched by
    :func:`endgame_search` (``max_nodes`` each); ``None`` when one runs past it.
    The wins of the replies add up to the wins of the move.

    >>> board = Board.from_text("3x1x1\\nHHH\\n")
    >>> line = endgame_line(board, endgame_layouts(board, limit=10), max_nodes=100)
    >>> line["cell"], line["wins"], line["layouts"], [r["shown"] for r in line["replies"]]
    (0, 2, 3, [((0, 0), (1, 1)), ((0, 1),)])
    """
    found = endgame_search(board, layouts, max_nodes=max_nodes)
    if found is None:
        return None
    cell, wins = found
    line: dict[str, Any] = {"cell": cell, "wins": wins, "layouts": len(layouts), "replies": []}
    if depth <= 1:
        return line
    cells = board.cells
    table = board.neighbour_table
    flags = frozenset(i for i, v in enumerate(cells) if v == FLAG)
    groups: dict[tuple[tuple[int, int], ...], list[frozenset[int]]] = {}
    for layout in layouts:
        if cell in layout:
            continue
        mines = layout | flags
        shown: dict[int, int] = {}
        stack = [cell]
        while stack:  # the game's reveal: a zero opens its hidden neighbours
            i = stack.pop()
            if i in shown:
                continue
            shown[i] = sum(1 for j in table[i] if j in mines)
            if shown[i] == 0:
                stack.extend(j for j in table[i] if cells[j] == HIDDEN and j not in shown)
        groups.setdefault(tuple(sorted(shown.items())), []).append(layout)
    for shown_cells, group in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        after = None
        if len(group) > 1:
            after = endgame_line(
                board.replace({divmod(i, board.width): n for i, n in shown_cells}),
                group,
                max_nodes=max_nodes,
                depth=depth - 1,
            )
            if after is None:
                return None
        line["replies"].append({"shown": shown_cells, "layouts": len(group), "line": after})
    return line


def isolated_parts(board: Board, analysis: Analysis) -> list[list[int]]:
    """The closed-off parts of a position, each a sorted list of flat indices, by their lowest cell.

    The cells in play are the hidden ones of probability strictly between 0
    and 1 next to a revealed number; two are in one part when they share a
    number. A part is *closed off* when every cell around each of its cells is
    revealed, a certain mine or in the part: no reveal outside it can ever show
    anything about it.

    Five cells around the 1, walled off from the right by flags:

    >>> board = Board.from_text("6x2x4\\nHHHFHH\\nH1HFHH\\n")
    >>> isolated_parts(board, solve(board))
    [[0, 1, 2, 6, 8]]
    >>> board = Board.from_text("6x2x4\\nHHHFHH\\nH1HHHH\\n")  # (1, 3) may be safe: open
    >>> isolated_parts(board, solve(board))
    []
    """
    cells = board.cells
    table = board.neighbour_table
    probabilities = analysis.cell_probabilities
    in_play = {
        j
        for i, v in enumerate(cells)
        if v >= 0
        for j in table[i]
        if cells[j] < 0 and probabilities[j] not in (0, 1)
    }
    parts: list[list[int]] = []
    seen: set[int] = set()
    for start in sorted(in_play):
        if start in seen:
            continue
        part = {start}
        stack = [start]
        while stack:  # cells sharing a revealed number are in one part
            i = stack.pop()
            for clue in table[i]:
                if cells[clue] >= 0:
                    for j in table[clue]:
                        if j in in_play and j not in part:
                            part.add(j)
                            stack.append(j)
        seen |= part
        if all(cells[j] >= 0 or probabilities[j] == 1 or j in part for i in part for j in table[i]):
            parts.append(sorted(part))
    return parts


def isolated_move(board: Board, analysis: Analysis, *, limit: int, max_nodes: int) -> int | None:
    """The exact best reveal inside a closed-off part of fixed mine count, or ``None``.

    A closed-off part (:func:`isolated_parts`) whose layouts all hold the same
    number of mines is a game of its own: nothing outside it tells about it
    and its layouts do not weigh the rest's, so its best play is the end
    game's over its own layouts (:func:`endgame_search`), whatever is played
    elsewhere. Parts are tried in order; the first with at most ``limit``
    layouts whose search ends within ``max_nodes`` positions gives the move.
    The part is searched alone: outside it, certainly safe cells are shown as
    opened and every other hidden cell is flagged (the numbers around the part
    see only its cells, certain mines and certainly safe cells).

    One mine among the five cells around the 1: the corner (0, 0) first.

    >>> board = Board.from_text("6x2x4\\nHHHFHH\\nH1HFHH\\n")
    >>> isolated_move(board, solve(board), limit=255, max_nodes=1000)
    0
    """
    cells = board.cells
    w = board.width
    probabilities = analysis.cell_probabilities
    for part in isolated_parts(board, analysis):
        inside = set(part)
        # out of play: a certainly safe cell as opened (a 0 that touches no hidden cell), the rest flagged
        outside = {
            divmod(i, w): 0 if probabilities[i] == 0 else FLAG
            for i, v in enumerate(cells)
            if v == HIDDEN and i not in inside
        }
        flags = cells.count(FLAG) + sum(1 for v in outside.values() if v == FLAG)
        counts = []
        for k in range(len(part) + 1):
            found = endgame_layouts(board.replace(outside, mines=flags + k), limit=limit)
            if found is None:
                break
            if found:
                counts.append((k, found))
        else:
            if len(counts) == 1:
                k, found = counts[0]
                searched = endgame_search(board.replace(outside, mines=flags + k), found, max_nodes=max_nodes)
                if searched is not None:
                    return searched[0]
    return None
