"""Count a component by dynamic programming over a sweep of its groups.

Groups are taken one at a time in a fixed order. After ``k`` of them, only the
*open* equations matter (those with groups on both sides of the sweep), and
only through the mines each still needs: that tuple is the DP state. Two
partial assignments with the same state have the same completions, so they are
merged and their layout counts added (as polynomials in the number of mines).
The work grows with the number of distinct states (at most the product of the
open equations' needs), not with the number of solutions, which may be
astronomically larger: a lattice of overlapping clues with a million solutions
is counted in milliseconds.

Per-group numerators come from a backward pass that folds in the weight of
each total mine count (from the other components and the background), so each
step costs ``O(L)`` instead of a polynomial product: see :func:`count_frontier`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from math import comb

from analyzer.errors import SolverTimeoutError
from analyzer.limits import check_memory
from analyzer.solver.counting.enumerate import counts_from_arrays, problem_arrays
from analyzer.solver.counting.order import search_order
from analyzer.solver.counting.types import ComponentCounts
from analyzer.solver.decomposition import ComponentProblem
from analyzer.solver.kernels.enumerate import MAX_ENUMERATION_CELLS
from analyzer.solver.kernels.frontier import frontier_component

__all__ = ["count_frontier", "count_frontier_compiled", "compiled_frontier_states"]

#: The compiled frontier programme's budget in ``auto``: states, and counts kept
#: (8 bytes each: 32 MB), past which the Python programme (with its deadline and
#: memory checks, and integers of any size) takes the component.
COMPILED_FRONTIER_STATES = 400_000
COMPILED_FRONTIER_COEFFICIENTS = 40_000_000
#: States it makes a second (about a million here, on clue-lattice components of 45 to 105
#: groups), halved: it cannot be interrupted, so under a time limit its budget is what the
#: time left allows at this rate.
COMPILED_FRONTIER_STATES_PER_SECOND = 500_000


def compiled_frontier_states(seconds_left: float | None, default: int = COMPILED_FRONTIER_STATES) -> int:
    """The compiled programme's state budget: ``default``, or less when only ``seconds_left`` remain."""
    if seconds_left is None:
        return default
    return max(0, min(default, int(seconds_left * COMPILED_FRONTIER_STATES_PER_SECOND)))


def count_frontier_compiled(
    problem: ComponentProblem,
    *,
    max_states: int = COMPILED_FRONTIER_STATES,
    max_coefficients: int = COMPILED_FRONTIER_COEFFICIENTS,
) -> ComponentCounts | None:
    """:func:`count_frontier` compiled, exact in 64 bits; ``None`` for a component it does not take.

    The same counts (and the same sweep), with each group's mines kept by mine
    count as the enumerators keep them, for a component in groups of at most 8
    cells, of at most :data:`~analyzer.solver.kernels.enumerate.MAX_ENUMERATION_CELLS`
    cells, whose counts fit 64 bits and whose sweep stays within ``max_states``
    states and ``max_coefficients`` counts (``None`` otherwise: the Python
    programme takes it). It has no deadline of its own: the budget bounds it.

    >>> problem = ComponentProblem((1, 2, 1), (((0, 1), 1), ((1, 2), 2)))
    >>> count_frontier_compiled(problem).layouts == count_frontier(problem).layouts
    True
    """
    sizes = problem.sizes
    if max(sizes, default=0) > 8 or sum(sizes) > MAX_ENUMERATION_CELLS:
        return None
    states, solutions, layouts, group_mines = frontier_component(
        *problem_arrays(problem), max_states, max_coefficients
    )
    if states < 0:
        return None
    return counts_from_arrays(layouts, group_mines, int(solutions), "frontier")


class _Sweep:
    """The order of groups and, per step, how the open equations change."""

    def __init__(self, problem: ComponentProblem, deadline: float | None = None):
        sizes = problem.sizes
        order = search_order(problem, deadline)
        position = {g: k for k, g in enumerate(order)}
        n = len(order)
        first = [min(position[g] for g in groups) for groups, _ in problem.equations]
        last = [max(position[g] for g in groups) for groups, _ in problem.equations]
        # room[k][e]: cells of equation e in groups at positions > k.
        self.order = order
        self.sizes = [sizes[g] for g in order]
        self.rhs = [rhs for _, rhs in problem.equations]
        self.steps = []
        eqs_of: list[list[int]] = [[] for _ in sizes]
        for e, (groups, _) in enumerate(problem.equations):
            for g in groups:
                eqs_of[g].append(e)
        # Per step, the next state's sources (a value of the state, or a new equation's
        # right-hand side) and the positions the group's own value is taken from.
        self.sources: list[tuple[tuple[int, int], ...]] = []
        self.taken: list[tuple[int, ...]] = []
        open_eqs: list[int] = []
        for k, g in enumerate(order):
            if k & 1023 == 1023 and deadline is not None and time.monotonic() > deadline:
                raise SolverTimeoutError("time limit reached while ordering a component")
            eqs = eqs_of[g]
            after = sorted(
                [e for e in open_eqs if last[e] > k] + [e for e in eqs if first[e] == k and last[e] > k]
            )
            index_before = {e: i for i, e in enumerate(open_eqs)}
            touched = set(eqs)
            # How to build the next state: (source index or -1 for a new equation, subtract x?)
            build = tuple((index_before.get(e, -1), e in touched, e) for e in after)
            # Checks on the equations of g: (source index or -1, rhs, room after step k).
            checks = []
            for e in eqs:
                room_after = sum(sizes[h] for h in problem.equations[e][0] if position[h] > k)
                checks.append((index_before.get(e, -1), self.rhs[e], room_after))
            self.steps.append((tuple(checks), build))
            self.sources.append(tuple((src, self.rhs[e]) for src, _, e in build))
            self.taken.append(tuple(i for i, (_, sub, _) in enumerate(build) if sub))
            open_eqs = after
        assert not open_eqs or n == 0

    def moves(self, k: int, state: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """The values ``x`` group ``k`` can take from ``state``, with the state each leads to.

        Each equation of the group must keep ``0 <= need - x <= room`` (its cells
        in later groups); an equation the group closes must reach exactly 0.
        """
        checks = self.steps[k][0]
        lo, hi = 0, self.sizes[k]
        for src, rhs, room in checks:
            need = state[src] if src >= 0 else rhs
            if need < hi:
                hi = need
            if need - room > lo:
                lo = need - room
        if lo > hi:
            return []
        base = [state[src] if src >= 0 else rhs for src, rhs in self.sources[k]]
        taken = self.taken[k]
        out = []
        for x in range(lo, hi + 1):
            if x:
                after = base.copy()
                for i in taken:
                    after[i] -= x
                out.append((x, tuple(after)))
            else:
                out.append((0, tuple(base)))
        return out


def count_frontier(problem: ComponentProblem, *, deadline: float | None = None) -> ComponentCounts:
    """Count a component with the frontier dynamic programme.

    Returns the same counts as :func:`analyzer.solver.counting.count_enumerate`; the
    per-group numerators are computed on demand by
    :meth:`ComponentCounts.group_numerators` from the stored forward layers.

    Examples
    --------
    >>> counts = count_frontier(ComponentProblem((1, 2), (((0, 1), 1),)))
    >>> counts.layouts, counts.solutions
    ((0, 3, 0, 0), 2)
    >>> counts.group_numerators([0, 1, 0, 0])
    (1, 2)
    """
    if deadline is not None and time.monotonic() > deadline:
        raise SolverTimeoutError("time limit reached before counting a component")
    sweep = _Sweep(problem, deadline)
    top = sum(problem.sizes)
    binoms = [[comb(s, x) for x in range(s + 1)] for s in sweep.sizes]
    # layer: state -> (poly by mines so far, number of group-count solutions)
    layer: dict[tuple[int, ...], tuple[list[int], int]] = {(): ([1], 1)}
    layers = [layer]
    # Each state's moves, kept for the backward pass (which would otherwise make them again).
    moved: list[dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]] = []
    held = 0
    new: tuple[int, ...] = ()
    for k in range(len(sweep.steps)):
        if deadline is not None and time.monotonic() > deadline:
            raise SolverTimeoutError("time limit reached while counting a component")
        weights = binoms[k]
        nxt: dict[tuple[int, ...], tuple[list[int], int]] = {}
        step_moves: dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]] = {}
        moved.append(step_moves)
        for visited, (state, (poly, sols)) in enumerate(layer.items()):
            if visited & 1023 == 1023 and deadline is not None and time.monotonic() > deadline:
                raise SolverTimeoutError("time limit reached while counting a component")
            step_moves[state] = moves = sweep.moves(k, state)
            for x, new in moves:
                w = weights[x]
                entry = nxt.get(new)
                if entry is None:
                    target = [0] * (len(poly) + x)
                    nxt[new] = (target, sols)
                else:
                    target, old = entry
                    if len(target) < len(poly) + x:
                        target.extend([0] * (len(poly) + x - len(target)))
                    nxt[new] = (target, old + sols)
                for m, c in enumerate(poly):
                    if c:
                        target[m + x] += c * w
        layer = nxt
        layers.append(layer)
        # The layers are kept for the numerators: refuse before they take the machine's memory.
        held += _layer_bytes(layer) + _moves_bytes(step_moves)
        check_memory(held, f"counting a component of {len(problem.sizes)} groups (frontier layers)")
    final = layer.get((), ([0], 0))
    layouts = list(final[0]) + [0] * (top + 1 - len(final[0]))

    def numerators(weights: Sequence[int]) -> tuple[int, ...]:
        return _backward(
            sweep, layers, moved, binoms, list(weights) + [0] * (top + 1 - len(weights)), len(problem.sizes)
        )

    return ComponentCounts(
        layouts=tuple(layouts[: top + 1]),
        solutions=final[1],
        engine="frontier",
        numerator_function=numerators,
        retained_bytes=_layers_bytes(layers) + sum(_moves_bytes(step) for step in moved),
    )


def _layer_bytes(layer: dict[tuple[int, ...], tuple[list[int], int]]) -> int:
    """The bytes one layer holds, estimated from its coefficient count and the size of a
    sample of its largest coefficients (counted twice: they grow along the sweep)."""
    if not layer:
        return 0
    coefficients = sum(len(poly) for poly, _ in layer.values())
    width = len(next(iter(layer)))
    sample = [max(poly, default=0) for poly, _ in itertools.islice(layer.values(), 16)]
    ints = 8 + 28 + 2 * ((max(sample).bit_length() + 7) // 8)
    return len(layer) * (200 + 8 * width) + coefficients * ints


def _moves_bytes(moves: dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]) -> int:
    """The bytes one step's kept moves hold (a list a state, a pair and a state tuple a move)."""
    count = sum(len(m) for m in moves.values())
    width = len(next(iter(moves))) if moves else 0
    return len(moves) * 120 + count * (8 + 64 + 48 + 8 * width)


def _layers_bytes(layers: list[dict[tuple[int, ...], tuple[list[int], int]]]) -> int:
    """An estimate of the memory the forward layers hold (kept for the numerators).

    Per state: its dict slot and key tuple, the (poly, count) pair and the
    polynomial's list with one int object per coefficient (:func:`_layer_bytes`).
    """
    return sum(_layer_bytes(layer) for layer in layers)


def _backward(
    sweep: _Sweep,
    layers: list[dict[tuple[int, ...], tuple[list[int], int]]],
    moved: list[dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]],
    binoms: list[list[int]],
    weights: list[int],
    n: int,
) -> tuple[int, ...]:
    """Numerators of every group, given the weight of each total mine count.

    ``after[state][j]`` = sum over completions from ``state`` of their layouts
    times ``weights[j + mines of the completion]``, where ``j`` is the number of
    mines placed before; the numerator of the group at step ``k`` is then a sum
    over forward states and values ``x`` of ``forward * C(size, x) * x *
    after[next][j + x]``.
    """
    top = len(weights) - 1
    numer = [0] * n
    after: dict[tuple[int, ...], list[int]] = {(): weights}
    for k in range(len(sweep.steps) - 1, -1, -1):
        bk = binoms[k]
        before: dict[tuple[int, ...], list[int]] = {}
        total_k = 0
        step_moves = moved[k]
        for state, (poly, _) in layers[k].items():
            width = len(poly)
            acc = [0] * width
            for x, new in step_moves[state]:
                tail = after.get(new)
                if tail is None:
                    continue
                w = bk[x]
                for j in range(min(width, top + 1 - x)):
                    acc[j] += w * tail[j + x]
                if x:
                    wx = w * x
                    total_k += wx * sum(
                        poly[j] * tail[j + x] for j in range(min(width, top + 1 - x)) if poly[j]
                    )
            before[state] = acc + [0] * (top + 1 - width) if width <= top + 1 else acc
        numer[sweep.order[k]] = total_k
        after = before
    return tuple(numer)
