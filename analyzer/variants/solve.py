"""Solve a variant position: certain cells, exact probabilities, minimal explanations, hints.

Methods (each answer says which gave it):

* certain cells and explanations: CP-SAT (:mod:`analyzer.models.variants`) on every rule
  set: the cells not yet seen both ways asked together (some one of them the other way)
  until no layout does that, one at a time when such a solve is slow
  (:meth:`~analyzer.models.variants.VariantModel.certain`); a cell's own unsatisfiable ask
  gives an infeasible core, and an explanation is that core shrunk by deletion to a minimal
  set of clues, board rules and the mine total (removing any member lets the cell go the
  other way);
* probabilities, clue rules only (no board rule): the exact pipeline. Unknown cells in the
  same clues (and of one colour under M or N) merge into groups, groups into independent
  components; V, X, X' and K clues are plain counts and go to the package's counting
  engines (:func:`~analyzer.solver.counting.count_component`); M, N and L clues are
  weighted sums in a set of values and each component's group counts are enumerated by
  CP-SAT. The components and the cells in no clue are joined under the mine total by
  :func:`~analyzer.solver.combination.combine`: exact, whatever the number of layouts;
* probabilities under W, P or E clues (not counts) and no board rule: the hidden cells
  the clues read form independent components (cells in shared clues); each component's
  layouts are enumerated by CP-SAT (at most ``limit`` a component) and joined with the
  cells in no clue under the mine total by the same DP: exact;
* probabilities with board rules: the layouts of the whole board enumerated (CP-SAT,
  connectivity checked on each), exact when there are at most ``limit`` of them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.errors import InconsistentBoardError, InvalidCellError, SolverTimeoutError
from analyzer.limits import positive_seconds
from analyzer.variants.constraints import Members, build_spec, clue_value
from analyzer.variants.position import Position
from analyzer.variants.rules import RuleSet, parse_rules

if TYPE_CHECKING:
    from analyzer.models.variants import VariantModel, VariantSpec
    from analyzer.solver.counting.types import ComponentCounts
    from analyzer.variants.transfer import TransferCount

__all__ = [
    "VariantAnalysis",
    "VariantExplanation",
    "solve_variant",
    "explain_variant",
    "hint",
    "DEFAULT_LAYOUT_LIMIT",
]

#: The most layouts enumerated for exact probabilities under board rules.
DEFAULT_LAYOUT_LIMIT = 200_000

CERTAIN_METHOD = "CP-SAT (the cells asked together, then one at a time where slow; infeasible cores)"
PIPELINE_METHOD = "exact pipeline (groups, components, counting engines, DP over mine counts)"
GROUPS_METHOD = "exact pipeline (groups, components, CP-SAT group enumeration, DP over mine counts)"
ENUMERATION_METHOD = "CP-SAT enumeration of every layout"
TRANSFER_METHOD = "transfer programme over the cells (the values and connections the cells to come read)"
TRANSFER_CERTAIN_METHOD = (
    "transfer programme (every layout counted: a mine on the cell in all of them or none)"
)
CUBES_METHOD = "exact pipeline (components, CP-SAT enumeration of each, DP over mine counts)"


@dataclass(frozen=True, slots=True)
class VariantExplanation:
    """Why a cell is certain: a minimal set of clues, board rules and the mine total.

    Attributes
    ----------
    cell : (int, int)
    is_mine : bool
    clues : tuple of (int, int)
        The clue cells used.
    rules : tuple of str
        The board rules used (the clue rules are how the clues read: always in force).
    uses_total : bool
        Whether the mine total is needed.
    method : str
    """

    cell: Cell
    is_mine: bool
    clues: tuple[Cell, ...]
    rules: tuple[str, ...]
    uses_total: bool
    method: str = "CP-SAT infeasible core, shrunk by deletion (minimal)"

    @property
    def size(self) -> int:
        """Members used: clues, rules and the total."""
        return len(self.clues) + len(self.rules) + int(self.uses_total)

    def describe(self) -> str:
        """One line: ``(2, 3) is safe: clues (1, 2) (2, 2); rules Q; the mine total``."""
        parts = []
        if self.clues:
            parts.append("clues " + " ".join(map(str, self.clues)))
        if self.rules:
            parts.append("rules " + " ".join(self.rules))
        if self.uses_total:
            parts.append("the mine total")
        what = "a mine" if self.is_mine else "safe"
        return f"{self.cell} is {what}: " + "; ".join(parts)

    def __str__(self) -> str:
        return self.describe()

    def to_dict(self) -> dict[str, object]:
        return {
            "cell": list(self.cell),
            "is_mine": self.is_mine,
            "clues": [list(c) for c in self.clues],
            "rules": list(self.rules),
            "uses_total": self.uses_total,
            "method": self.method,
        }


@dataclass(frozen=True, slots=True)
class VariantAnalysis:
    """The answer for a variant position.

    Attributes
    ----------
    position : Position
    rules : RuleSet
    safe, mines : tuple of (int, int)
        The certain cells (row-major), from CP-SAT.
    probabilities : dict of (int, int) to Fraction, or None
        Exact mine probability of every hidden cell; ``None`` when not asked for or
        when the board rules leave more than the layout limit.
    layouts : int or None
        The number of layouts of the hidden cells the probabilities count.
    method : str
        How the certain cells were found.
    probability_method : str
        How the probabilities were found (or why there are none).
    """

    position: Position
    rules: RuleSet
    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    probabilities: dict[Cell, Fraction] | None
    layouts: int | None
    method: str
    probability_method: str
    _cores: dict[Cell, tuple[int, ...]]
    _members: Members

    def probability(self, row: int, col: int) -> Fraction:
        """Exact probability of a mine on a hidden cell."""
        if self.position[row, col] != HIDDEN:
            raise InvalidCellError(f"cell {(row, col)!r} is not hidden")
        if self.probabilities is None:
            raise InvalidCellError(f"no probabilities for this position: {self.probability_method}")
        return self.probabilities[row, col]

    def __str__(self) -> str:
        p = self.position
        rows: list[list[str]] = []
        for r in range(p.height):
            words = []
            for c in range(p.width):
                v = p[r, c]
                if v == HIDDEN:
                    if (r, c) in self.safe:
                        words.append("  s")
                    elif (r, c) in self.mines:
                        words.append("  *")
                    elif self.probabilities is not None:
                        words.append(f"{float(self.probabilities[r, c]) * 100:3.0f}")
                    else:
                        words.append("  ?")
                elif v == FLAG:
                    words.append("  F")
                else:
                    runs = dict(p.runs).get(r * p.width + c)
                    shown = ",".join(map(str, runs)) if runs else str(v)
                    words.append("  ." if v < 0 else f"{shown:>3}")
            rows.append(words)
        width = max(len(w) for row in rows for w in row) + (1 if p.runs else 0)
        return "\n".join("".join(w.rjust(width) for w in row) for row in rows)


def _deadline(time_limit: float | None) -> float | None:
    seconds = positive_seconds(time_limit, "time_limit")
    return None if seconds is None else time.monotonic() + seconds


def _layout_key(cell: int, width: int) -> Cell:
    return divmod(cell, width)


def solve_variant(
    board: Board | Position | str,
    rules: str | RuleSet = "V",
    *,
    probabilities: bool = True,
    limit: int = DEFAULT_LAYOUT_LIMIT,
    time_limit: float | None = None,
) -> VariantAnalysis:
    """Certain cells and exact probabilities of a position under variant rules.

    Parameters
    ----------
    board : Board, Position or str
        The position (its text: see :mod:`analyzer.variants.position`).
    rules : str or RuleSet
        Rule letters, e.g. ``"QX"`` (see :mod:`analyzer.variants.rules`).
    probabilities : bool
        If false, only the certain cells (CP-SAT).
    limit : int
        Under board rules, the most layouts enumerated for probabilities.
    time_limit : float, optional
        Seconds.

    Raises
    ------
    RuleError
        An unknown rule, rules that exclude each other, or a board that is not the square grid.
    InconsistentBoardError
        No layout meets the clues, the rules and the total; ``clues`` names a minimal set.

    Examples
    --------
    One mine among the three top cells: each holds it in a third of the layouts;
    under Quad (every 2x2 area has a mine) only the middle one meets both windows.

    >>> solve_variant("3x2x1\\nHHH\\n?1?\\n", "V").probability(0, 0)
    Fraction(1, 3)
    >>> a = solve_variant("3x2x1\\nHHH\\n?1?\\n", "Q")
    >>> a.mines, a.safe, a.probability(0, 0)
    (((0, 1),), ((0, 0), (0, 2)), Fraction(0, 1))
    >>> a.probability_method
    'transfer programme over the cells (the values and connections the cells to come read)'
    >>> solve_variant("3x3x2\\nHHH\\n?2?\\nHHH\\n", "X'").mines
    ((0, 1), (2, 1))
    """
    position = Position.of(board)
    ruleset = parse_rules(rules)
    deadline = _deadline(time_limit)
    spec, members = build_spec(position, ruleset, deadline=deadline)
    counted = _count_first(position, ruleset, spec, deadline) if probabilities else None
    probs: dict[Cell, Fraction] | None = None
    layouts: int | None = None
    how = "not asked for"
    if counted is not None and counted.total:
        # Every layout counted: a cell is certain when it holds a mine in all of them or in none.
        ends = (0, counted.total)
        certain = {i: int(counted.mines[i] > 0) for i in spec.unknown if counted.mines[i] in ends}
        cores: dict[int, list[int]] = {}
        method = TRANSFER_CERTAIN_METHOD
        probs, layouts, how = _counted_probabilities(position, spec, counted)
    else:
        certain, cores = _proved(spec, members, deadline)
        method = CERTAIN_METHOD
        if probabilities:
            probs, layouts, how = _probabilities(position, ruleset, spec, limit, deadline, certain)
    width = position.width
    safe = tuple(sorted(_layout_key(i, width) for i, v in certain.items() if v == 0))
    mines = tuple(sorted(_layout_key(i, width) for i, v in certain.items() if v == 1))
    return VariantAnalysis(
        position=position,
        rules=ruleset,
        safe=safe,
        mines=mines,
        probabilities=probs,
        layouts=layouts,
        method=method,
        probability_method=how,
        _cores={_layout_key(i, width): tuple(c) for i, c in cores.items()},
        _members=members,
    )


def _proved(
    spec: VariantSpec, members: Members, deadline: float | None
) -> tuple[dict[int, int], dict[int, list[int]]]:
    """The certain cells by CP-SAT's proofs, with the cores of those proved alone."""
    from analyzer.models.variants import VariantModel

    model = VariantModel(spec, deadline=deadline)
    certain, cores, layout = model.certain(deadline)
    if layout is None:
        raise _inconsistent(model, members, deadline)
    return certain, cores


def _inconsistent(model: object, members: Members, deadline: float | None) -> InconsistentBoardError:
    conflict = model.conflict(deadline) or ()  # type: ignore[attr-defined]
    clues = tuple(members.clues[k] for k in conflict if k < len(members.clues))
    rules = tuple(
        members.rules[k - len(members.clues)]
        for k in conflict
        if k >= len(members.clues) and k - len(members.clues) < len(members.rules)
    )
    parts = []
    if clues:
        parts.append("clues " + " ".join(map(str, clues)))
    if rules:
        parts.append("rules " + " ".join(rules))
    if conflict and max(conflict) == len(members.clues) + len(members.rules):
        parts.append("the mine total")
    return InconsistentBoardError(
        "no mine layout meets " + ("; ".join(parts) if parts else "the position") + " together", clues=clues
    )


def _probabilities(
    position: Position,
    rules: RuleSet,
    spec: object,
    limit: int,
    deadline: float | None,
    certain: dict[int, int],
) -> tuple[dict[Cell, Fraction] | None, int | None, str]:
    from analyzer.models.variants import enumerate_layouts

    width = position.width
    if rules.is_local and rules.pattern is not None:
        return _pattern_probabilities(position, spec, limit, deadline)
    if rules.is_local:
        return _local_probabilities(position, rules, deadline)
    try:
        found = enumerate_layouts(spec, limit=limit, deadline=deadline, certain=certain)  # type: ignore[arg-type]
    except SolverTimeoutError:  # the certain cells stand: they were found before the count began
        return None, None, "the time limit came while counting the layouts under the board rules: not counted"
    if found is None:
        return None, None, f"more than {limit:,} layouts under the board rules: not counted"
    unknown = spec.unknown  # type: ignore[attr-defined]
    total = len(found)
    sums = [sum(col) for col in zip(*found, strict=True)] if found else [0] * len(unknown)
    probs = {_layout_key(i, width): Fraction(s, total) for i, s in zip(unknown, sums, strict=True)}
    return probs, total, ENUMERATION_METHOD


def _count_first(
    position: Position, rules: RuleSet, spec: object, deadline: float | None
) -> TransferCount | None:
    """Under board rules on a board narrow enough, every layout counted by the transfer programme
    (:mod:`analyzer.variants.transfer`), whatever their number: the certain cells and the
    probabilities at once. ``None`` to ask CP-SAT instead: a rule the programme does not read,
    too many states, or half the time left gone (CP-SAT then has the rest for the certain cells).
    """
    from analyzer.variants.transfer import MAX_SIDE, count_layouts

    if rules.is_local or min(position.width, position.height) > MAX_SIDE:
        return None
    half = None if deadline is None else time.monotonic() + (deadline - time.monotonic()) / 2
    try:
        return count_layouts(spec, position.width, position.height, deadline=half)
    except SolverTimeoutError:
        return None


def _counted_probabilities(
    position: Position, spec: object, counted: TransferCount
) -> tuple[dict[Cell, Fraction], int, str]:
    width = position.width
    unknown = spec.unknown  # type: ignore[attr-defined]
    probs = {_layout_key(i, width): Fraction(counted.mines[i], counted.total) for i in unknown}
    return probs, counted.total, TRANSFER_METHOD


def _pattern_probabilities(
    position: Position, spec: object, limit: int, deadline: float | None
) -> tuple[dict[Cell, Fraction] | None, int | None, str]:
    """W, P or E clues and no board rule: components of the clues' cells, each enumerated, then the DP."""
    from analyzer.models.variants import count_cubes
    from analyzer.solver.combination import combine

    width = position.width
    clues = [c for c in spec.clues if c.scope()]  # type: ignore[attr-defined]
    scopes = [c.scope() for c in clues]
    parent: dict[int, int] = {}

    def find(a: int) -> int:
        while parent.setdefault(a, a) != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for scope in scopes:
        for i in scope[1:]:
            parent[find(i)] = find(scope[0])
        find(scope[0])
    comps: dict[int, list[int]] = {}
    for i in sorted(parent):
        comps.setdefault(find(i), []).append(i)
    by_comp: dict[int, list[int]] = {root: [] for root in comps}
    for k, scope in enumerate(scopes):
        by_comp[find(scope[0])].append(k)
    counted = []
    members = []
    for root, cells in comps.items():
        local = {i: n for n, i in enumerate(cells)}
        comp_clues = [clues[k].renumbered(local) for k in by_comp[root]]
        counts = count_cubes(len(cells), comp_clues, limit=limit, deadline=deadline)
        if counts is None:
            return None, None, f"a component with more than {limit:,} layouts: not counted"
        counted.append(counts)
        members.append(cells)
    background = [i for i in spec.unknown if i not in parent]  # type: ignore[attr-defined]
    mines_left = position.mines - position.cells.count(FLAG)
    combined = combine(counted, len(background), mines_left, deadline=deadline)
    total = combined.total
    probs: dict[Cell, Fraction] = {}
    for cells, numerators in zip(members, combined.group_numerators, strict=True):
        for i, numerator in zip(cells, numerators, strict=True):
            probs[divmod(i, width)] = Fraction(numerator, total)
    for i in background:
        probs[divmod(i, width)] = Fraction(combined.background_numerator, total)
    return dict(sorted(probs.items())), total, CUBES_METHOD


def _local_probabilities(
    position: Position, rules: RuleSet, deadline: float | None
) -> tuple[dict[Cell, Fraction], int, str]:
    """The exact pipeline for clue rules only (see the module's docstring)."""
    from analyzer.solver.combination import combine

    width = position.width
    unknown = [i for i, v in enumerate(position.cells) if v == HIDDEN]
    clues = _clue_sums(position, rules, set(unknown))
    groups, background, comps = _clue_components(unknown, clues)
    counted = [
        _count_clue_component(comp, tuple(len(groups[key]) for key in comp), clues, rules, deadline)
        for comp in comps
    ]
    mines_left = position.mines - position.cells.count(FLAG)
    combined = combine(counted, len(background), mines_left, deadline=deadline)
    total = combined.total
    probs: dict[Cell, Fraction] = {}
    for comp, numerators in zip(comps, combined.group_numerators, strict=True):
        for key, numerator in zip(comp, numerators, strict=True):
            cells = groups[key]
            p = Fraction(numerator, total * len(cells))
            for i in cells:
                probs[divmod(i, width)] = p
    if background:
        p = Fraction(combined.background_numerator, total)
        for i in background:
            probs[divmod(i, width)] = p
    how = PIPELINE_METHOD if rules.is_linear else GROUPS_METHOD
    return dict(sorted(probs.items())), total, how


#: A clue over the unknown cells: its terms ``{cell: weight}`` and the sums it allows after the flags.
_ClueSum = tuple[dict[int, int], tuple[int, ...]]

#: A group's key: the clues it is in, with its weight in each (``((clue, weight), ...)``).
_GroupKey = tuple[tuple[int, int], ...]


def _clue_sums(position: Position, rules: RuleSet, unknown: set[int]) -> list[_ClueSum]:
    """Each clue with an unknown cell in its region, as a weighted sum of those cells."""
    from analyzer.variants.constraints import allowed_values, region, weight

    width, height = position.width, position.height
    clues: list[_ClueSum] = []
    for i, value in enumerate(position.cells):
        if value < 0:
            continue
        terms: dict[int, int] = {}
        offset = 0
        for r, c in region(rules, divmod(i, width), width, height):
            j = r * width + c
            if j in unknown:
                terms[j] = weight(rules, (r, c))
            elif position.cells[j] == FLAG:
                offset += weight(rules, (r, c))
        if terms:  # a clue over no unknown cell was checked by CP-SAT already
            clues.append((terms, tuple(a - offset for a in allowed_values(rules, value))))
    return clues


def _clue_components(
    unknown: list[int], clues: list[_ClueSum]
) -> tuple[dict[_GroupKey, list[int]], list[int], list[list[_GroupKey]]]:
    """Groups (cells in the same clues with the same weights), the cells in no clue, and the
    groups' components (joined through shared clues)."""
    signature: dict[int, _GroupKey] = {i: () for i in unknown}
    for k, (terms, _) in enumerate(clues):
        for j, coef in terms.items():
            signature[j] = signature[j] + ((k, coef),)
    groups: dict[_GroupKey, list[int]] = {}
    for i in unknown:
        groups.setdefault(signature[i], []).append(i)
    background = groups.pop((), [])
    parent = list(range(len(clues)))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for key in groups:
        for k, _ in key[1:]:
            parent[find(k)] = find(key[0][0])
    by_root: dict[int, list[_GroupKey]] = {}
    for key in groups:
        by_root.setdefault(find(key[0][0]), []).append(key)
    return groups, background, list(by_root.values())


def _count_clue_component(
    comp: list[_GroupKey],
    sizes: tuple[int, ...],
    clues: list[_ClueSum],
    rules: RuleSet,
    deadline: float | None,
) -> ComponentCounts:
    """A component's counts (its groups of ``sizes`` cells): the package's engines for plain
    counts, CP-SAT's group enumeration for weighted sums in a set of values (M, N, L)."""
    from analyzer.models.variants import count_groups
    from analyzer.solver.counting import count_component
    from analyzer.solver.decomposition import ComponentProblem

    comp_clues: dict[int, list[tuple[int, int]]] = {}
    for n, key in enumerate(comp):
        for k, coef in key:
            comp_clues.setdefault(k, []).append((n, coef))
    if rules.is_linear:
        equations = tuple((tuple(n for n, _ in members), clues[k][1][0]) for k, members in comp_clues.items())
        return count_component(ComponentProblem(sizes, equations), deadline=deadline)
    return count_groups(sizes, [(tuple(m), clues[k][1]) for k, m in comp_clues.items()], deadline=deadline)


def _order(members: Members, cell: Cell) -> list[int]:
    """Members in the order deletion tries them: the total, the board rules, then clues far to near."""
    n = len(members.clues)
    total = n + len(members.rules)
    far = sorted(
        range(n),
        key=lambda k: (-max(abs(members.clues[k][0] - cell[0]), abs(members.clues[k][1] - cell[1])), k),
    )
    return [total, *range(n, total), *far]


def _explanation(
    model: object,
    members: Members,
    cell: Cell,
    is_mine: bool,
    core: Sequence[int],
    width: int,
    deadline: float | None,
) -> VariantExplanation:
    index = cell[0] * width + cell[1]
    kept = model.minimal(index, is_mine, list(core), _order(members, cell), deadline)  # type: ignore[attr-defined]
    n = len(members.clues)
    return VariantExplanation(
        cell=cell,
        is_mine=is_mine,
        clues=tuple(sorted(members.clues[k] for k in kept if k < n)),
        rules=tuple(members.rules[k - n] for k in kept if n <= k < n + len(members.rules)),
        uses_total=n + len(members.rules) in kept,
    )


def explain_variant(
    board: Board | Position | str,
    rules: str | RuleSet,
    cell: Cell,
    *,
    time_limit: float | None = None,
) -> VariantExplanation:
    """A minimal set of clues, board rules and the mine total that forces ``cell``.

    Raises
    ------
    InvalidCellError
        If the cell is not hidden, or not certain.

    Examples
    --------
    >>> e = explain_variant("3x3x2\\nHHH\\n?2?\\nHHH\\n", "X'", (0, 0))
    >>> e.is_mine, e.clues, e.rules, e.uses_total
    (False, ((1, 1),), (), True)
    """
    position = Position.of(board)
    ruleset = parse_rules(rules)
    row, col = cell
    if position[row, col] != HIDDEN:
        raise InvalidCellError(f"cell {(row, col)!r} is not hidden")
    deadline = _deadline(time_limit)
    spec, members = build_spec(position, ruleset, deadline=deadline)
    from analyzer.models.variants import VariantModel

    model = VariantModel(spec, deadline=deadline)
    index = row * position.width + col
    layout, _ = model.solve(model.lits, deadline)
    if layout is None:
        raise _inconsistent(model, members, deadline)
    value = layout[index]
    other, core = model.solve([*model.lits, model.target(index, mine=not value)], deadline)
    if other is not None:
        raise InvalidCellError(f"cell {(row, col)!r} is not certain: it may hold a mine or not")
    return _explanation(model, members, (row, col), bool(value), core, position.width, deadline)


def hint(
    board: Board | Position | str | VariantAnalysis,
    rules: str | RuleSet = "V",
    *,
    time_limit: float | None = None,
) -> VariantExplanation | None:
    """The game's hint: a certain cell with a minimal explanation (no member can be dropped).

    Minimal, not smallest: removing any clue, board rule or the total from the explanation
    lets the cell go the other way, but another certain cell (or this one) may have an
    explanation of fewer members (the search below ranks CP-SAT's cores, which are not
    smallest; a smallest one would need every set of members asked). Among the certain
    cells, the one whose CP-SAT core is smallest is explained minimally (deletion), stopping
    at the first core of a single member. The cores come from the
    analysis (cells it proved alone); then, under a connectivity rule (C, O, S), the cells
    that the other members force are found together and asked alone, and the cells forced
    by a connectivity rule alone are looked for (one member); the cells left need a
    connectivity rule and another member, so they are asked one at a time, with every
    member, only while no core of three members or fewer has come. ``None`` when no cell
    is certain.

    >>> hint("3x3x2\\nHHH\\n?2?\\nHHH\\n", "X'").describe()
    '(0, 1) is a mine: clues (1, 1)'
    """
    deadline = _deadline(time_limit)
    if isinstance(board, VariantAnalysis):
        analysis = board
    else:
        analysis = solve_variant(board, rules, probabilities=False, time_limit=time_limit)
    certain = sorted([(c, False) for c in analysis.safe] + [(c, True) for c in analysis.mines])
    if not certain:
        return None
    return _HintSearch(analysis, deadline).run(certain)


class _HintSearch:
    """:func:`hint`'s search: the certain cells' cores, the smallest kept, until one no core beats."""

    def __init__(self, analysis: VariantAnalysis, deadline: float | None) -> None:
        from analyzer.models.variants import VariantModel

        self.deadline = deadline
        self.spec, self.members = build_spec(analysis.position, analysis.rules, deadline=deadline)
        self.model = VariantModel(self.spec, deadline=deadline)
        self.width = analysis.position.width
        first = len(self.spec.clues)
        self.connected = {first + r for r, rule in enumerate(self.spec.rules) if rule.connected}
        self.cores = {cell: list(core) for cell, core in analysis._cores.items()}
        self.best: tuple[int, Cell, bool, list[int]] | None = None

    def run(self, certain: list[tuple[Cell, bool]]) -> VariantExplanation:
        for cell, is_mine in certain:
            if cell in self.cores and self.consider(cell, is_mine, self.cores[cell]):
                return self.explained(cell, is_mine, self.cores[cell])
        if self.connected:
            found = self._connected_pass(certain)
            if found is not None:
                return found
        # Under a connectivity rule a cell left needs the rule and another member or more: a
        # core of three members or fewer ends the search (on 243 positions of the benchmark's
        # S, C and O sets, the explanations' sizes summed 262 against 264 when the pass went
        # on while no core of two had come; an 8x8 QS position's hint 0.87 s to 0.12 s).
        least = 3 if self.connected else 1
        if self.best is not None and self.best[0] <= least:
            return self.explained(*self.best[1:])
        for cell, is_mine in certain:  # every member, one cell at a time
            if cell not in self.cores:
                core = self.own_core(self.model, cell, is_mine)
                if self.consider(cell, is_mine, core, least):
                    return self.explained(cell, is_mine, core)
        assert self.best is not None
        return self.explained(*self.best[1:])

    def _connected_pass(self, certain: list[tuple[Cell, bool]]) -> VariantExplanation | None:
        """Under C, O or S: the cells the members without those rules force, asked together (a
        layout rules out many cells at once) in the model without them (smaller, so each solve
        is quicker), then each for its core; then a cell a connectivity rule forces alone."""
        local = self.model.local(self.deadline)
        assert local is not None
        light, to_full = local
        todo = [(c, m) for c, m in certain if c not in self.cores]
        found, light_cores, _ = light.certain(self.deadline, cells=[self.index(c) for c, _ in todo])
        for cell, is_mine in todo:
            if self.index(cell) in found:
                core = light_cores.get(self.index(cell)) or self.own_core(light, cell, is_mine)
                if self.consider(cell, is_mine, [to_full[k] for k in core]):
                    return self.explained(cell, is_mine, self.cores[cell])
        # The other cells need a connectivity rule: a core of one member is that rule alone.
        rest = [(c, m) for c, m in certain if c not in self.cores]
        for k in sorted(self.connected) if rest else ():
            alone, _, _ = self.model.certain(
                self.deadline, members=[k], cells=[self.index(c) for c, _ in rest]
            )
            for cell, is_mine in rest:
                if self.index(cell) in alone:
                    return self.explained(cell, is_mine, [k])
        return None

    def index(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]

    def own_core(self, on: VariantModel, cell: Cell, is_mine: bool) -> list[int]:
        """The core of a cell that every member of ``on`` forces (all of them if not settled quickly)."""
        from analyzer.models.variants import _Deferred

        ask = [*on.lits, on.target(self.index(cell), mine=not is_mine)]
        try:
            other, core = on.solve(ask, self.deadline, patient=False)
        except _Deferred:
            return list(range(len(on.lits)))
        assert other is None  # the members force the cell
        return core or list(range(len(on.lits)))

    def consider(self, cell: Cell, is_mine: bool, core: list[int], least: int = 1) -> bool:
        """Keep the smallest core; true for a core of ``least`` members (no smaller one exists)."""
        self.cores[cell] = core
        if self.best is None or len(core) < self.best[0]:
            self.best = (len(core), cell, is_mine, core)
        return len(core) <= least

    def explained(self, cell: Cell, is_mine: bool, core: list[int]) -> VariantExplanation:
        return _explanation(self.model, self.members, cell, is_mine, core, self.width, self.deadline)


def reveal(
    position: Position,
    rules: RuleSet,
    mines: set[Cell],
    cells: Sequence[Cell],
    lies: dict[Cell, int] | None = None,
) -> Position:
    """The position after revealing ``cells``: safe ones show their clue, mines are flagged."""
    from analyzer.variants.constraints import ring_runs

    changes = {}
    runs = {}
    for cell in cells:
        if cell in mines:
            changes[cell] = FLAG
        else:
            lie = (lies or {}).get(cell, 1)
            changes[cell] = clue_value(rules, mines, cell, position.width, position.height, lie)
            if rules.pattern == "W":
                runs[cell] = ring_runs(mines, cell, position.width, position.height)
    return position.replace(changes, runs)
