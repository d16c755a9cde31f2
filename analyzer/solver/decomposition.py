"""Split the equations of a board into independent components (networkx).

Groups and clues form a bipartite graph (a group is joined to each clue it
appears in). Its connected components share no cell and no clue, so each can be
counted on its own and the results joined by :mod:`analyzer.solver.combination`.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.limits import Deadline
from analyzer.solver.constraints import ConstraintSystem

__all__ = ["ComponentProblem", "Component", "components"]


@dataclass(frozen=True, slots=True)
class ComponentProblem:
    """The counting problem of one component, in local indices.

    ``sizes[g]`` is the number of cells of group ``g``; each equation is
    ``(groups, rhs)``: the mines of those groups add up to ``rhs``. A hashable
    value, so equal problems can share one count.
    """

    sizes: tuple[int, ...]
    equations: tuple[tuple[tuple[int, ...], int], ...]


@dataclass(frozen=True, slots=True)
class Component:
    """A connected piece of the system: indices into ``system.groups`` and ``system.clues``."""

    groups: tuple[int, ...]
    clues: tuple[int, ...]

    def problem(self, system: ConstraintSystem) -> ComponentProblem:
        local = {g: k for k, g in enumerate(self.groups)}
        members: dict[int, list[int]] = {c: [] for c in self.clues}
        for g in self.groups:
            for c in system.groups[g].clues:
                members[c].append(local[g])
        return ComponentProblem(
            sizes=tuple(system.groups[g].size for g in self.groups),
            equations=tuple((tuple(members[c]), system.clues[c].needed) for c in self.clues),
        )


def components(
    system: ConstraintSystem, *, deadline: Deadline | float | None = None
) -> tuple[Component, ...]:
    """The independent components of a constraint system.

    ``deadline`` is checked every few thousand groups and components.

    Examples
    --------
    >>> from analyzer.board.board import Board
    >>> from analyzer.solver.constraints import build_constraints
    >>> system = build_constraints(Board.from_text("7x1x2\\nH1HHH1H\\n"))
    >>> [(c.groups, c.clues) for c in components(system)]
    [((0,), (0,)), ((1,), (1,))]
    >>> system.background
    (3,)
    """
    until = Deadline.of(deadline)
    until.check("the decomposition into components")
    import networkx as nx  # loaded on first use: a tiny board's solve need not pay for it

    graph = nx.Graph()
    for g, group in enumerate(system.groups):
        if g & 4095 == 4095:
            until.check("the decomposition into components")
        graph.add_node(("g", g))
        for c in group.clues:
            graph.add_edge(("g", g), ("c", c))
    found: list[Component] = []
    for nodes in nx.connected_components(graph):
        if len(found) & 1023 == 1023:
            until.check("the decomposition into components")
        groups = tuple(sorted(i for kind, i in nodes if kind == "g"))
        clues = tuple(sorted(i for kind, i in nodes if kind == "c"))
        found.append(Component(groups, clues))
    found.sort(key=lambda comp: comp.groups[0])
    return tuple(found)
