"""The result of :func:`analyzer.solve`: exact probabilities and what they rest on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.board.board import FLAG, Board, Cell
from analyzer.errors import BoardParseError, InvalidCellError
from analyzer.limits import big_repr, describe_count, exact_text, fraction_text, whole_or_none

if TYPE_CHECKING:
    import numpy as np

    from analyzer.solver.explain import Explanation
    from analyzer.solver.moves import Move

__all__ = ["Analysis", "ComponentSummary"]


_SUMMARY_FIELDS = ("cells", "clues", "groups", "solutions", "layouts_by_mines", "engine")
_LAZY_FIELDS = ("components", "mine_count_distribution")
_ANALYSIS_FIELDS = (
    "board",
    "total",
    "mines_left",
    "background_size",
    "components",
    "mine_count_distribution",
    "trust_flags",
)


@dataclass(frozen=True, slots=True, repr=False)
class ComponentSummary:
    """One independent component of the clue equations.

    Attributes
    ----------
    cells : tuple of Cell
        The unknown cells of the component.
    clues : tuple of Cell
        The revealed numbers whose equations it holds.
    groups : int
        Number of groups (cells with the same clues) it was counted over.
    solutions : int
        Solutions over group counts.
    layouts_by_mines : tuple of int
        ``layouts_by_mines[m]``: cell layouts of this component alone with ``m`` mines.
    engine : str
        The engine that counted it.
    """

    cells: tuple[Cell, ...]
    clues: tuple[Cell, ...]
    groups: int
    solutions: int
    layouts_by_mines: tuple[int, ...]
    engine: str

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={big_repr(getattr(self, name))}" for name in _SUMMARY_FIELDS)
        return f"ComponentSummary({fields})"

    @property
    def mine_range(self) -> tuple[int, int]:
        """The fewest and most mines any of its layouts has."""
        found = [m for m, n in enumerate(self.layouts_by_mines) if n]
        return (found[0], found[-1])


_Lazy = Callable[[], Any]


class _Fields:
    """:class:`Analysis`'s slots, filled in by plain assignment (:func:`made_analysis`). It has
    no ``__init__`` of its own, so ``Analysis(...)`` runs ``object.__init__``, which takes the
    arguments ``__new__`` took."""

    __slots__ = (
        "board",
        "total",
        "mines_left",
        "background_size",
        "trust_flags",
        "layout_counter",
        "solver",
        "_components",
        "_distribution",
        "_cells",
        "_probability_of",
        "_floats",
    )

    board: Board
    total: int
    mines_left: int
    background_size: int
    trust_flags: bool
    layout_counter: Callable[[Board], int] | None
    solver: Callable[..., Analysis] | None
    _components: tuple[ComponentSummary, ...] | _Lazy
    _distribution: dict[int, Fraction] | _Lazy
    _cells: tuple[Fraction | None, ...] | _Lazy
    _probability_of: Callable[[int], Fraction | None] | None
    _floats: Callable[[], Any] | None


class Analysis(_Fields):
    """Exact mine probabilities of a board.

    Attributes
    ----------
    board : Board
        The position analysed.
    total : int
        The number of mine layouts consistent with the board (every clue and the
        mine total), counted over the unknown cells.
    mines_left : int
        Mines among the unknown cells.
    background_size : int
        Unknown cells next to no revealed number.
    components : tuple of ComponentSummary
        The independent components, in the order of their first cell, then
        (``engine == "deduction"``) the cells exact deductions settled before
        counting, with the clues they used up.
    mine_count_distribution : dict of int to Fraction
        Exact probability of each number of mines among the constrained
        (non-background) unknown cells.
    trust_flags : bool
        Whether flags were taken as known mines.
    cell_probabilities : tuple of Fraction or None
        Row-major: each unknown cell's probability, ``None`` where revealed.
    layout_counter : callable, optional
        Counts the layouts of another board under the same options (what
        :func:`analyzer.count_layouts` does); :func:`analyzer.solve` passes it
        so that questions which re-solve (:meth:`number_distribution`) need no
        import of the solver here.
    solver : callable, optional
        Solves another board under the same options (:func:`analyzer.solve`), for
        :meth:`best_moves` to settle the certain cells after each number a guess
        could show; without it they are found by feasibility (CP-SAT).

    ``components``, ``mine_count_distribution`` and ``cell_probabilities`` may
    be given as functions of no argument: they are then made when first asked
    for, once (the solver's compiled path makes fractions only for the
    cells asked about). Two analyses are equal when every attribute but the
    layout counter is; an analysis is immutable, hashable and pickles with its
    values made.
    """

    __slots__ = ()

    def __new__(
        cls,
        *,
        board: Board,
        total: int,
        mines_left: int,
        background_size: int,
        components: tuple[ComponentSummary, ...] | _Lazy,
        mine_count_distribution: dict[int, Fraction] | _Lazy,
        trust_flags: bool,
        cell_probabilities: tuple[Fraction | None, ...] | _Lazy,
        layout_counter: Callable[[Board], int] | None = None,
        solver: Callable[..., Analysis] | None = None,
        probability_of: Callable[[int], Fraction | None] | None = None,
        floats: Callable[[], Any] | None = None,
    ) -> Analysis:
        return made_analysis(
            board,
            total,
            mines_left,
            background_size,
            components,
            mine_count_distribution,
            trust_flags,
            cell_probabilities,
            layout_counter,
            solver,
            probability_of,
            floats,
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Analysis is immutable: cannot set {name!r}")

    def _made(self, slot: str) -> Any:
        value = getattr(self, slot)
        if callable(value):
            value = value()
            object.__setattr__(self, slot, value)
        return value

    @property
    def components(self) -> tuple[ComponentSummary, ...]:
        return self._made("_components")  # type: ignore[no-any-return]

    @property
    def mine_count_distribution(self) -> dict[int, Fraction]:
        return self._made("_distribution")  # type: ignore[no-any-return]

    @property
    def cell_probabilities(self) -> tuple[Fraction | None, ...]:
        return self._made("_cells")  # type: ignore[no-any-return]

    def _key(self) -> tuple[Any, ...]:
        return (*(getattr(self, name) for name in _ANALYSIS_FIELDS), self.cell_probabilities)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Analysis):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.board, self.total, self.mines_left, self.trust_flags))

    def _values(self) -> dict[str, Any]:
        values = {name: getattr(self, name) for name in _ANALYSIS_FIELDS}
        values["cell_probabilities"] = self.cell_probabilities
        values["layout_counter"] = self.layout_counter
        values["solver"] = self.solver
        return values

    def replace(self, **changes: Any) -> Analysis:
        """A copy with some attributes changed (as :func:`dataclasses.replace` would).

        >>> from analyzer import solve
        >>> solve("3x1x1\\nH1H\\n").replace(total=3).total
        3
        """
        return Analysis(**(self._values() | changes))

    def __reduce__(self) -> tuple[Any, ...]:
        # What is not made yet pickles as the function that makes it.
        values = {name: getattr(self, name) for name in _ANALYSIS_FIELDS if name not in _LAZY_FIELDS}
        values["components"] = self._components
        values["mine_count_distribution"] = self._distribution
        values["cell_probabilities"] = self._cells
        values["layout_counter"] = self.layout_counter
        values["solver"] = self.solver
        values["probability_of"] = self._probability_of
        values["floats"] = self._floats
        return (_rebuild, (values,))

    def __repr__(self) -> str:
        # Counts of big boards run past the interpreter's int-to-text limit: big_repr has none.
        fields = ", ".join(f"{name}={big_repr(getattr(self, name))}" for name in _ANALYSIS_FIELDS)
        return f"Analysis({fields})"

    @property
    def total_text(self) -> str:
        """:attr:`total` as a person reads it: exact up to 15 digits, else rounded with its digit count.

        The exact value is :attr:`total` (``analyzer.limits.exact_text`` prints it in full).

        >>> from analyzer import solve
        >>> solve("3x1x1\\nH1H\\n").total_text
        '2'
        >>> solve("120x120x3000\\n" + ("H" * 120 + "\\n") * 120).total_text
        '1.79e3198 (3199 digits)'
        """
        return describe_count(self.total)

    def probability(self, row: int, col: int) -> Fraction:
        """Probability that the cell holds a mine (1 for a trusted flag).

        Raises
        ------
        InvalidCellError
            For a revealed cell: it holds no mine and has no probability to ask for.
        IndexError
            Outside the board.
        """
        if whole_or_none(row) is None or whole_or_none(col) is None:
            raise InvalidCellError(f"a cell is two integers (row, col), got {_short(row)}, {_short(col)}")
        index = self.board.index(row, col)
        lookup = self._probability_of
        p = self.cell_probabilities[index] if lookup is None or not callable(self._cells) else lookup(index)
        if p is None:
            raise InvalidCellError(
                f"cell {(row, col)!r} is revealed (shows {self.board[row, col]}): it has no mine probability"
            )
        return p

    @property
    def probabilities(self) -> tuple[tuple[Fraction | None, ...], ...]:
        """Rows of probabilities: a ``Fraction`` per unrevealed cell, ``None`` where revealed."""
        w = self.board.width
        return tuple(tuple(self.cell_probabilities[r * w : (r + 1) * w]) for r in range(self.board.height))

    def number_distribution(self, row: int, col: int) -> dict[int, Fraction]:
        """Exact probability that revealing the cell shows each number.

        ``P(shows k)`` is the share of layouts in which the cell is safe with
        ``k`` mines around it: the layout count of the board with the cell
        revealed as ``k``, over :attr:`total`. The values add up to the
        probability that the cell is safe; numbers that cannot show are left out.

        >>> from analyzer import solve
        >>> solve("3x1x1\\nH1H\\n").number_distribution(0, 0)
        {0: Fraction(1, 2)}
        """
        if self.layout_counter is None:
            raise ValueError("this Analysis was built without a layout counter; use analyzer.solve")
        p = self.probability(row, col)
        if p == 1:
            return {}
        shows: dict[int, Fraction] = {}
        for k in range(len(self.board.neighbours(row, col)) + 1):
            try:
                revealed = self.board.replace({(row, col): k})
            except BoardParseError:  # the mines no longer fit in the unrevealed cells
                break
            layouts = self.layout_counter(revealed)
            if layouts:
                shows[k] = Fraction(layouts, self.total)
        return shows

    def explain(
        self, row: int, col: int, *, smallest: bool = True, time_limit: float | None = None
    ) -> Explanation:
        """A minimal set of clues (and the mine total, if needed) that forces a certain cell.

        See :func:`analyzer.solver.explain.explain` (CP-SAT assumptions on the
        negated claim, the infeasible core shrunk to a minimal one).

        Raises
        ------
        InvalidCellError
            For a revealed cell, a trusted flag, or a cell that is not certain.

        >>> from analyzer import solve
        >>> print(solve("3x2x1\\nHHH\\n011\\n").explain(0, 0).describe())
        (0, 0) is safe: forced by the clue 0 at (1, 0)
        """
        from analyzer.solver.explain import explain

        p = self.probability(row, col)
        if 0 < p < 1:
            raise InvalidCellError(
                f"cell {(row, col)!r} is not certain (P(mine) = {p}): only certain cells have an explanation"
            )
        return explain(
            self.board,
            (row, col),
            trust_flags=self.trust_flags,
            is_mine=p == 1,
            smallest=smallest,
            time_limit=time_limit,
        )

    def best_moves(
        self, n: int = 5, *, on_progress: Callable[[int, int], None] | None = None
    ) -> tuple[Move, ...]:
        """The ``n`` best clicks: certainly safe cells first (shortest explanation first), then guesses.

        Guesses rank by lowest mine probability, then by the highest probability
        that the cell is safe and shows a number that makes another cell
        certain (from the exact :meth:`number_distribution`). See
        :mod:`analyzer.solver.moves`. ``on_progress(done, of)`` is called as the
        tied guesses are scored (each class of alike cells once).

        >>> from analyzer import solve
        >>> [m.describe() for m in solve("4x2x2\\nHHHH\\n1221\\n").best_moves(2)]
        ['(0, 0) certainly safe: explanation of size 3', '(0, 3) certainly safe: explanation of size 3']
        >>> print(solve("3x1x1\\nH1H\\n").best_moves(1)[0].describe())
        (0, 0) guess: 50.0% mine, 50.0% safe and progress
        """
        from analyzer.solver.moves import best_moves

        return best_moves(
            self.board,
            self.cell_probabilities,
            self.number_distribution,
            n=n,
            trust_flags=self.trust_flags,
            solver=self.solver,
            on_progress=on_progress,
        )

    def to_numpy(self) -> np.ndarray:
        """The probabilities as a float array of shape (height, width), NaN where revealed."""
        if self._floats is not None and callable(self._cells):
            # Not made as Fractions yet: floats straight from the counts (each correctly rounded).
            return self._floats().reshape(self.board.height, self.board.width)  # type: ignore[no-any-return]
        import numpy as np  # here: an import statement costs a tiny board's to_numpy a fifth

        values = [float("nan") if p is None else float(p) for p in self.cell_probabilities]
        return np.array(values, dtype=float).reshape(self.board.height, self.board.width)

    def _unknown_cells_where(self, certain_mine: bool) -> tuple[Cell, ...]:
        w = self.board.width
        cells = self.board.cells
        # p is 0 when its numerator is; 1 when numerator equals denominator.
        return tuple(
            divmod(i, w)
            for i, p in enumerate(self.cell_probabilities)
            if p is not None
            and (p.numerator == p.denominator if certain_mine else p.numerator == 0)
            and not (self.trust_flags and cells[i] == FLAG)
        )

    @property
    def safe(self) -> tuple[Cell, ...]:
        """Unknown cells that are certainly free of mines, row-major."""
        return self._unknown_cells_where(certain_mine=False)

    @property
    def mines(self) -> tuple[Cell, ...]:
        """Unknown cells that certainly hold a mine (trusted flags are not repeated here)."""
        return self._unknown_cells_where(certain_mine=True)

    @property
    def expected_mines(self) -> Fraction:
        """Sum of the unknown cells' probabilities: always equals ``mines_left``."""
        cells = self.board.cells
        return sum(
            (
                p
                for i, p in enumerate(self.cell_probabilities)
                if p is not None and not (self.trust_flags and cells[i] == FLAG)
            ),
            Fraction(0),
        )

    def _repr_html_(self) -> str:
        from analyzer.render import analysis_html

        return analysis_html(self)

    def __str__(self) -> str:
        from analyzer.render import analysis_text

        return analysis_text(self)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: exact values as strings (``"p/q"``, big ints as text).

        Keys: ``width``, ``height``, ``mines``, ``topology`` (a name of
        :data:`~analyzer.board.topology.TOPOLOGIES`, or ``"graph"`` with the
        cells' ``neighbours`` by index and their ``names`` when they have them),
        ``total``, ``probabilities`` (rows of ``"p/q"`` or ``None`` for revealed
        cells), ``certain_safe`` and ``certain_mines`` (cells as ``[row, col]``),
        ``components`` (each with its ``cells``, ``clues``, ``engine`` and
        ``layouts_by_mines``) and ``background_size``.

        >>> from analyzer import solve
        >>> solve("3x1x1 hex\\n1HH\\n").to_dict()["topology"]
        'hex'
        """
        # Cells of a group share one Fraction object: write each once (a background
        # probability on a big board has hundreds of thousands of digits).
        texts: dict[int, str] = {}

        def text(p: Fraction) -> str:
            found = texts.get(id(p))
            if found is None:
                found = texts[id(p)] = fraction_text(p)
            return found

        topology = self.board.topology
        where: dict[str, Any] = (
            {"topology": topology}
            if isinstance(topology, str)
            else {
                "topology": "graph",
                "neighbours": [list(row) for row in topology.neighbours],
            }
        )
        if not isinstance(topology, str) and topology.names is not None:
            where["names"] = list(topology.names)
        return {
            "width": self.board.width,
            "height": self.board.height,
            "mines": self.board.mines,
            **where,
            "total": exact_text(self.total),
            "probabilities": [[None if p is None else text(p) for p in row] for row in self.probabilities],
            "certain_safe": [list(cell) for cell in self.safe],
            "certain_mines": [list(cell) for cell in self.mines],
            "components": [
                {
                    "cells": [list(cell) for cell in comp.cells],
                    "clues": [list(cell) for cell in comp.clues],
                    "engine": comp.engine,
                    "layouts_by_mines": [exact_text(n) for n in comp.layouts_by_mines],
                }
                for comp in self.components
            ],
            "background_size": self.background_size,
        }


def made_analysis(
    board: Board,
    total: int,
    mines_left: int,
    background_size: int,
    components: tuple[ComponentSummary, ...] | _Lazy,
    mine_count_distribution: dict[int, Fraction] | _Lazy,
    trust_flags: bool,
    cell_probabilities: tuple[Fraction | None, ...] | _Lazy,
    layout_counter: Callable[[Board], int] | None = None,
    solver: Callable[..., Analysis] | None = None,
    probability_of: Callable[[int], Fraction | None] | None = None,
    floats: Callable[[], Any] | None = None,
) -> Analysis:
    """``Analysis(...)`` with its arguments by position, for the solver's own use: a tiny board's
    solve takes microseconds, and a class call with keywords (a dict for ``__new__``, again for
    ``__init__``) costs a good part of one.

    Filled in as a ``_Fields``, whose slots take plain assignment, then made an
    :class:`Analysis`, whose ``__setattr__`` refuses (the same slots, so the switch is
    allowed); setting each slot past that ``__setattr__`` cost more still.
    """
    self = object.__new__(_Fields)
    self.board = board
    self.total = total
    self.mines_left = mines_left
    self.background_size = background_size
    self.trust_flags = trust_flags
    self.layout_counter = layout_counter
    self.solver = solver
    self._components = components
    self._distribution = mine_count_distribution
    self._cells = cell_probabilities
    # One cell's probability without making every cell's (the compiled path's).
    self._probability_of = probability_of
    # Every cell's probability as floats, without a Fraction per cell (the compiled path's).
    self._floats = floats
    self.__class__ = Analysis
    return self  # type: ignore[return-value]


def _rebuild(values: dict[str, Any]) -> Analysis:
    return Analysis(**values)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
