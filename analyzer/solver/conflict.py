"""Why a board admits no mine layout: the clues in conflict, named in one error.

:func:`conflict_error` is called by :func:`~analyzer.solver.solve.solve` and
:func:`~analyzer.solver.solve.count_layouts` once they know no layout exists: a component's
clues in conflict with each other (a minimal set, found by CP-SAT), or the mine total no
combination of the components can meet, with the clues in conflict with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.errors import InconsistentBoardError, SolverTimeoutError
from analyzer.solver.constraints import ConstraintSystem
from analyzer.solver.counting import ComponentCounts, count_component
from analyzer.solver.decomposition import Component, ComponentProblem, components

if TYPE_CHECKING:
    from analyzer.models.cpsat import Effort

__all__ = ["conflict_error", "whole_problem"]

#: Clues a conflict message names before saying how many more there are.
_NAMED_CLUES = 5


def conflict_error(
    system: ConstraintSystem, engine: str, deadline: float, effort: Effort | None = None
) -> InconsistentBoardError:
    """The error for a board with no layout: the clues of a component, or the mine total.

    ``deadline`` (``time.monotonic()``) and ``effort`` (CP-SAT work, the same under any load)
    bound the search for a minimal set of clues in conflict; past either the error names every
    clue, or the smallest set found so far.
    """
    from analyzer.models.cpsat import shrink_conflict

    try:
        comps = components(system, deadline=deadline)
        # Feasibility first (CP-SAT, no counting): a component in conflict with itself.
        for comp in comps:
            problem = comp.problem(system)
            local, minimal = shrink_conflict(problem, deadline=deadline, effort=effort)
            if local:
                return _component_conflict(system, comp, local, minimal)
        # Every component holds alone: the mine total is what fails; name the mine counts the clues allow.
        counts = [count_component(comp.problem(system), engine=engine, deadline=deadline) for comp in comps]
    except SolverTimeoutError:
        every = tuple(clue.cell for clue in system.clues)
        return InconsistentBoardError(
            f"no mine layout satisfies the board's {len(every)} clues and mine total together"
            " (no time was left to find which of them conflict)",
            clues=every,
            minimal=False,
        )
    return _total_conflict(system, comps, counts, deadline, effort)


def _ranges(values: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``'1-3 or 5'``."""
    parts = []
    start = prev = values[0]
    for v in values[1:] + [None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if v is not None:
            start = prev = v
    return " or ".join(parts)


def _describe(system: ConstraintSystem, clue_indices: tuple[int, ...]) -> str:
    """The first few clues as ``"2 at (0, 1), ..."``, then how many more there are."""
    board = system.board
    named = ", ".join(
        f"{board[system.clues[c].cell]} at {system.clues[c].cell!r}" for c in clue_indices[:_NAMED_CLUES]
    )
    more = len(clue_indices) - _NAMED_CLUES
    return named if more <= 0 else f"{named} and {more} more"


def _component_conflict(
    system: ConstraintSystem, comp: Component, local: tuple[int, ...], minimal: bool
) -> InconsistentBoardError:
    clue_indices = tuple(comp.clues[e] for e in local)
    cells = tuple(system.clues[c].cell for c in clue_indices)
    if len(clue_indices) == 1:
        clue = system.clues[clue_indices[0]]
        value = system.board[clue.cell]
        flags = value - clue.needed
        if clue.needed < 0:
            message = f"clue {value} at {clue.cell!r} has {flags} flagged neighbours, more than it shows"
        else:
            n = len(clue.cells)
            mines = "mines" if clue.needed != 1 else "mine"
            more = " more" if flags else ""
            neighbour = "neighbour" if n == 1 else "neighbours"
            message = (
                f"clue {value} at {clue.cell!r} needs {clue.needed}{more} {mines}"
                f" but has only {n} hidden {neighbour}"
            )
        return InconsistentBoardError(message, clues=cells)
    caveat = "" if minimal else f" (the search was cut short: these {len(cells)} may not be a minimal set)"
    return InconsistentBoardError(
        f"no mine layout satisfies the clues {_describe(system, clue_indices)} together{caveat}",
        clues=cells,
        minimal=minimal,
    )


def _total_conflict(
    system: ConstraintSystem,
    comps: tuple[Component, ...],
    counts: list[ComponentCounts],
    deadline: float,
    effort: Effort | None,
) -> InconsistentBoardError:
    from analyzer.models.cpsat import shrink_conflict

    reachable = {0}
    for counted in counts:
        support = [m for m, n in enumerate(counted.layouts) if n]
        reachable = {a + m for a in reachable for m in support}
    reachable = {a + b for a in reachable for b in range(len(system.background) + 1)}
    # The whole board as one problem, the mine total always enforced: the
    # minimal set of clues that cannot live with it.
    whole = whole_problem(system)
    conflict, minimal = shrink_conflict(
        ComponentProblem(whole.sizes, whole.equations[:-1]),
        extra=whole.equations[-1:],
        deadline=deadline,
        effort=effort,
    )
    flagged = system.board.mines - system.mines_left
    left = f" ({system.mines_left} besides the flags)" if flagged else ""
    message = (
        f"mine total {system.board.mines}{left} cannot be met: "
        f"the clues allow {_ranges(sorted(reachable))} mines among the {len(system.unknown)} unknown cells"
    )
    if conflict:
        message += f"; clues in conflict with the total: {_describe(system, conflict)}"
        if not minimal:  # cut short: a set that conflicts, shrunk as far as the budget allowed
            message += f" (the search was cut short: these {len(conflict)} may not be a minimal set)"
    return InconsistentBoardError(
        message, clues=tuple(system.clues[c].cell for c in conflict), minimal=minimal or not conflict
    )


def whole_problem(system: ConstraintSystem, fixed_mines: int = 0) -> ComponentProblem:
    """The whole board as one problem: a variable a group (and the background), the clues, then the total."""
    sizes = tuple(g.size for g in system.groups) + ((len(system.background),) if system.background else ())
    members: list[list[int]] = [[] for _ in system.clues]
    for g, group in enumerate(system.groups):
        for c in group.clues:
            members[c].append(g)
    equations = tuple((tuple(m), clue.needed) for m, clue in zip(members, system.clues, strict=True))
    return ComponentProblem(sizes, (*equations, (tuple(range(len(sizes))), system.mines_left - fixed_mines)))
