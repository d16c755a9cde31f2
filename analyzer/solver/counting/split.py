"""Split squares: cut a big component at a few groups and count the pieces apart.

Groups are joined when they share a clue. If removing a small set ``S`` of
groups (an articulation point, or else a small vertex separator, found with
networkx) leaves pieces that share no clue, then once the mines of ``S`` are
fixed, each piece is an independent problem. For every assignment ``a`` of
``S`` the pieces are counted (recursively, so they may split again; equal
pieces hit the count cache) and joined:

    layouts(x) = sum_a  w(a) x^mines(a) prod_j P_j^a(x),   w(a) = prod_s C(size_s, a_s)

Clues whose groups all lie in ``S`` become checks on ``a``. Per-group
numerators follow the same sums, with prefix and suffix products over the
pieces so that each piece's weight vector is built once per assignment.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from math import comb, prod
from typing import TYPE_CHECKING, Any

from analyzer.solver.counting.types import ComponentCounts
from analyzer.solver.decomposition import ComponentProblem
from analyzer.solver.polynomials import products_of_others

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["find_separator", "count_split", "MAX_SEPARATOR", "MAX_ASSIGNMENTS"]

MAX_SEPARATOR = 6
"""At most this many groups are cut at once."""
MAX_ASSIGNMENTS = 4096
"""At most this many assignments of the cut groups are tried."""


def _group_graph(problem: ComponentProblem) -> nx.Graph:
    import networkx as nx  # loaded on first use

    graph = nx.Graph()
    graph.add_nodes_from(range(len(problem.sizes)))
    for groups, _ in problem.equations:
        graph.add_edges_from(itertools.combinations(groups, 2))
    return graph


def _pieces(graph: nx.Graph, cut: Sequence[int]) -> list[list[int]]:
    import networkx as nx

    rest = graph.subgraph(set(graph) - set(cut))
    return sorted((sorted(piece) for piece in nx.connected_components(rest)), key=lambda p: p[0])


def find_separator(problem: ComponentProblem, *, min_piece: int = 4) -> tuple[int, ...] | None:
    """A small set of groups whose removal splits the component usefully, or ``None``.

    Articulation points come first: the one leaving the smallest largest piece.
    Otherwise a minimum vertex cut between two far-apart groups, if it has at
    most :data:`MAX_SEPARATOR` groups. A cut is useful when at least two pieces
    have ``min_piece`` groups or more, and the assignments of the cut groups
    number at most :data:`MAX_ASSIGNMENTS`.

    >>> chain = ComponentProblem((1,) * 9, tuple(((g, g + 1), 1) for g in range(8)))
    >>> find_separator(chain)
    (4,)
    """
    graph = _group_graph(problem)
    sizes = problem.sizes

    import networkx as nx

    def score(cut: Sequence[int]) -> int | None:
        if prod(sizes[g] + 1 for g in cut) > MAX_ASSIGNMENTS:
            return None
        pieces = _pieces(graph, cut)
        if sum(len(p) >= min_piece for p in pieces) < 2:
            return None
        return max(len(p) for p in pieces)

    best: tuple[int, tuple[int, ...]] | None = None
    for point in nx.articulation_points(graph):
        s = score((point,))
        if s is not None and (best is None or (s, point) < (best[0], best[1][0])):
            best = (s, (point,))
    if best is not None:
        return best[1]
    # Two far-apart groups (a double sweep of breadth-first search), then the
    # fewest groups that separate them.
    start = min(graph)
    far = max(nx.single_source_shortest_path_length(graph, start).items(), key=lambda kv: (kv[1], -kv[0]))[0]
    other = max(nx.single_source_shortest_path_length(graph, far).items(), key=lambda kv: (kv[1], -kv[0]))[0]
    if far == other or graph.has_edge(far, other):
        return None
    cut = tuple(sorted(nx.minimum_node_cut(graph, far, other)))
    if len(cut) > MAX_SEPARATOR or score(cut) is None:
        return None
    return cut


_PieceEquation = tuple[tuple[int, ...], int, tuple[int, ...]]
"""A clue of a piece: its groups (the piece's numbering), its value, the cut positions it also has."""


def _piece_equations(
    problem: ComponentProblem, cut: tuple[int, ...], pieces: list[list[int]]
) -> tuple[list[list[_PieceEquation]], list[tuple[int, tuple[int, ...]]]]:
    """Each piece's clues, and the clues inside the cut (value, cut positions)."""
    in_cut = {g: k for k, g in enumerate(cut)}
    piece_of = {g: j for j, piece in enumerate(pieces) for g in piece}
    local = [{g: i for i, g in enumerate(piece)} for piece in pieces]
    # Each clue lies in at most one piece (its groups are a clique of the graph).
    piece_eqs: list[list[_PieceEquation]] = [[] for _ in pieces]
    checks: list[tuple[int, tuple[int, ...]]] = []  # clues inside the cut: (rhs, cut positions)
    for groups, rhs in problem.equations:
        outside = [g for g in groups if g not in in_cut]
        inside = tuple(in_cut[g] for g in groups if g in in_cut)
        if not outside:
            checks.append((rhs, inside))
            continue
        j = piece_of[outside[0]]
        piece_eqs[j].append((tuple(local[j][g] for g in outside), rhs, inside))
    return piece_eqs, checks


def count_split(
    problem: ComponentProblem,
    cut: Sequence[int],
    *,
    count: object,
    deadline: float | None = None,
) -> ComponentCounts:
    """Count ``problem`` by fixing the groups of ``cut`` and counting the pieces.

    ``count(problem, deadline=...)`` counts a piece (usually
    :func:`analyzer.solver.counting.count_component`, so pieces recurse and share its cache).

    >>> from analyzer.solver.counting import count_component, count_enumerate
    >>> chain = ComponentProblem((1, 2, 1, 2, 1), tuple(((g, g + 1), 1) for g in range(4)))
    >>> count_split(chain, (2,), count=count_component).layouts == count_enumerate(chain).layouts
    True
    """
    sizes = problem.sizes
    cut = tuple(cut)
    pieces = _pieces(_group_graph(problem), cut)
    piece_eqs, checks = _piece_equations(problem, cut, pieces)
    piece_sizes = [tuple(sizes[g] for g in piece) for piece in pieces]

    top = sum(sizes)
    layouts = [0] * (top + 1)
    solutions = 0
    kept = []  # per valid assignment: (values, weight, mines, piece counts)
    for values in itertools.product(*(range(sizes[g] + 1) for g in cut)):
        if any(sum(values[k] for k in inside) != rhs for rhs, inside in checks):
            continue
        counts = []
        for j in range(len(pieces)):
            eqs = tuple(
                (groups, rhs - sum(values[k] for k in inside)) for groups, rhs, inside in piece_eqs[j]
            )
            if any(rhs < 0 for _, rhs in eqs):
                break
            counted = count(ComponentProblem(piece_sizes[j], eqs), deadline=deadline)  # type: ignore[operator]
            if counted.is_empty:
                break
            counts.append(counted)
        else:
            weight = prod(comb(sizes[g], v) for g, v in zip(cut, values, strict=True))
            mines = sum(values)
            joined, others = products_of_others([list(c.layouts) for c in counts], top)
            for m, n in enumerate(joined):
                if n and m + mines <= top:
                    layouts[m + mines] += weight * n
            solutions += prod(counted.solutions for counted in counts)
            kept.append((values, weight, mines, counts, joined, others))

    return ComponentCounts(
        layouts=tuple(layouts),
        solutions=solutions,
        engine="split",
        numerator_function=_numerators(kept, cut, pieces, top, len(sizes)),
        retained_bytes=sum(
            sum(c.estimated_bytes() for c in counts) + 64 * (len(joined) + sum(len(o) for o in others))
            for _, _, _, counts, joined, others in kept
        ),
    )


def _numerators(
    kept: list[tuple[Any, ...]], cut: tuple[int, ...], pieces: list[list[int]], top: int, groups: int
) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """The numerator function of :func:`count_split`'s counts, from its valid cut assignments ``kept``."""

    def numerators(weights: Sequence[int]) -> tuple[int, ...]:
        w = list(weights) + [0] * (top + 1 - len(weights))
        out = [0] * groups
        for values, weight, mines, counts, joined, all_others in kept:
            through = weight * sum(n * w[m + mines] for m, n in enumerate(joined) if n and m + mines <= top)
            for g, v in zip(cut, values, strict=True):
                out[g] += v * through
            for j, counted in enumerate(counts):
                others = [(r, o) for r, o in enumerate(all_others[j]) if o]
                piece_weights = [
                    weight * sum(o * w[m + r + mines] for r, o in others if m + r + mines <= top)
                    if counted.layouts[m]
                    else 0
                    for m in range(len(counted.layouts))
                ]
                for i, value in enumerate(counted.group_numerators(piece_weights)):
                    out[pieces[j][i]] += value
        return tuple(out)

    return numerators
