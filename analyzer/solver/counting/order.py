"""The order in which engines take a component's groups."""

from __future__ import annotations

import heapq
import time

from analyzer.errors import SolverTimeoutError
from analyzer.solver.decomposition import ComponentProblem

__all__ = ["search_order"]


def search_order(problem: ComponentProblem, deadline: float | None = None) -> list[int]:
    """Groups in an order that closes equations early (most-constrained first).

    Greedy: next comes the group whose equations have the fewest unassigned
    groups left, ties broken by more equations, then by index. A heap with
    lazy updates keeps this ``O((n + edges) log n)``. ``deadline`` (a
    ``time.monotonic()`` instant) is checked every thousand groups.
    """
    n = len(problem.sizes)
    eqs_of: list[list[int]] = [[] for _ in range(n)]
    for e, (groups, _rhs) in enumerate(problem.equations):
        for g in groups:
            eqs_of[g].append(e)
    remaining = [len(groups) for groups, _ in problem.equations]

    def key(g: int) -> tuple[int, int, int]:
        return (min((remaining[e] for e in eqs_of[g]), default=0), -len(eqs_of[g]), g)

    heap = [key(g) for g in range(n)]
    heapq.heapify(heap)
    done = [False] * n
    chosen: list[int] = []
    while heap:
        item = heapq.heappop(heap)
        g = item[2]
        if done[g] or item != key(g):
            continue
        done[g] = True
        chosen.append(g)
        if len(chosen) & 1023 == 0 and deadline is not None and time.monotonic() > deadline:
            raise SolverTimeoutError("time limit reached while ordering a component")
        for e in eqs_of[g]:
            remaining[e] -= 1
            for h in problem.equations[e][0]:
                if not done[h]:
                    heapq.heappush(heap, key(h))
    return chosen
