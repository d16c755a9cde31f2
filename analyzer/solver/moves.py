"""The recommended moves of a position: certain cells first, then the best guesses.

Certainly safe cells come first, the ones with the shortest explanation
(:mod:`analyzer.solver.explain`) ahead. Then guesses, ranked as strong players
rank them: the lowest probability of a mine first; among equal ones, the
highest probability that the cell is safe *and* shows a number that settles
some other cell (a new certain cell, found by
:func:`analyzer.solver.certain.certain_cells` on the board with that number
revealed), weighted by the exact probability of each number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.board.board import FLAG, Board, Cell
from analyzer.errors import BoardParseError, InconsistentBoardError, OptionError
from analyzer.limits import is_whole, percent

__all__ = ["Move", "best_moves"]


@dataclass(frozen=True, slots=True)
class Move:
    """One recommended click.

    Attributes
    ----------
    cell : Cell
    mine_probability : Fraction
        Exact probability that the cell holds a mine (0 for a certainly safe cell).
    explanation_size : int or None
        For a certainly safe cell, the members of its explanation (clues, plus
        one if the mine total is needed); ``None`` for a guess.
    progress_probability : Fraction or None
        For a guess, the probability that it is safe and shows a number that
        makes another cell certain (a 0 always does when it has hidden
        neighbours); ``None`` for a certain cell (certain cells are free).
    """

    cell: Cell
    mine_probability: Fraction
    explanation_size: int | None = None
    progress_probability: Fraction | None = None

    @property
    def is_safe(self) -> bool:
        return self.mine_probability == 0

    def describe(self) -> str:
        """One line a person reads.

        >>> print(Move((2, 3), Fraction(1, 7), None, Fraction(3, 7)).describe())
        (2, 3) guess: 14.3% mine, 42.9% safe and progress
        """
        if self.is_safe:
            return f"{self.cell!r} certainly safe: explanation of size {self.explanation_size}"
        text = f"{self.cell!r} guess: {percent(self.mine_probability)} mine"
        if self.progress_probability is not None:
            text += f", {percent(self.progress_probability)} safe and progress"
        return text

    def to_dict(self) -> dict[str, Any]:
        p = self.mine_probability
        progress = self.progress_probability
        return {
            "cell": list(self.cell),
            "mine_probability": f"{p.numerator}/{p.denominator}",
            "explanation_size": self.explanation_size,
            "progress_probability": None
            if progress is None
            else f"{progress.numerator}/{progress.denominator}",
        }


def best_moves(
    board: Board,
    cell_probabilities: Sequence[Fraction | None],
    number_distribution: Callable[[int, int], dict[int, Fraction]],
    *,
    n: int = 5,
    trust_flags: bool = True,
    solver: Callable[..., Any] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[Move, ...]:
    """The ``n`` best moves (see the module text); what :meth:`Analysis.best_moves` returns.

    ``cell_probabilities`` are the row-major mine probabilities (``None`` where
    revealed) and ``number_distribution(row, col)`` the exact chance of each
    number, both from one :class:`~analyzer.solver.analysis.Analysis`.
    ``solver(board)`` (an exact solve under the same options) settles the certain
    cells after each number when it is quick; otherwise, and without it, they are
    found by feasibility. ``on_progress(done, of)`` is called after each guess is scored.

    Guesses that differ only by a permutation of the cells within each group
    (the same clues around them, and around each hidden neighbour, and as many
    flags beside them) have the same number distribution and the same chance of
    progress, so each such class is scored once: on an open board hundreds of
    cells tied at the same probability cost one solve per class, not per cell.
    """
    from analyzer.solver.explain import explain

    if not is_whole(n) or n < 1:
        raise OptionError(f"n must be a positive integer, got {n!r}")
    width = board.width
    unknown = [
        (divmod(i, width), p)
        for i, p in enumerate(cell_probabilities)
        if p is not None and not (trust_flags and board.cells[i] == FLAG)
    ]
    safe = [cell for cell, p in unknown if p == 0]
    moves: list[Move] = []
    if safe:
        sized = []
        for cell in safe:
            explanation = explain(board, cell, trust_flags=trust_flags, is_mine=False, smallest=True)
            sized.append((explanation.size, cell))
        sized.sort()
        moves = [Move(cell, Fraction(0), size) for size, cell in sized[:n]]
    if len(moves) >= n:
        return tuple(moves)
    guesses = sorted((p, cell) for cell, p in unknown if 0 < p < 1)
    room = n - len(moves)
    if not guesses:
        return tuple(moves)
    # Progress decides only among the lowest probabilities: those up to the room-th one.
    cut = guesses[min(room, len(guesses)) - 1][0]
    contenders = [(p, cell) for p, cell in guesses if p <= cut]
    certain_before = _certain(board, trust_flags, solver)
    ranked = []
    scored: dict[tuple[Any, ...], Fraction] = {}
    for index, (p, cell) in enumerate(contenders, 1):
        # Cells alike up to a permutation of each group's cells score alike: score one a class.
        key = _outlook_class(board, cell, trust_flags)
        progress = scored.get(key)
        if progress is None:
            shows = number_distribution(*cell)
            progress = scored[key] = _progress(board, cell, shows, certain_before, trust_flags, solver)
        ranked.append((p, -progress, cell))
        if on_progress is not None:
            on_progress(index, len(contenders))
    ranked.sort()
    moves += [Move(cell, p, None, -minus) for p, minus, cell in ranked[:room]]
    return tuple(moves)


#: Seconds an exact solve may take to settle the certain cells of a position before
#: :func:`~analyzer.solver.certain.certain_cells` (CP-SAT feasibility) is asked instead.
EXACT_CERTAIN_SECONDS = 0.2


def _certain(board: Board, trust_flags: bool, solver: Callable[..., Any] | None = None) -> set[Cell]:
    """The certain cells (either way): by the exact solve when it is quick, else by feasibility."""
    from analyzer.errors import SolverTimeoutError
    from analyzer.solver.certain import certain_cells

    if solver is not None:
        try:
            analysis = solver(board, time_limit=EXACT_CERTAIN_SECONDS)
        except SolverTimeoutError:
            pass
        else:
            return set(analysis.safe) | set(analysis.mines)
    found = certain_cells(board, trust_flags=trust_flags)
    return set(found.safe) | set(found.mines)


def _outlook_class(board: Board, cell: Cell, trust_flags: bool) -> tuple[Any, ...]:
    """What a guess's outlook depends on: its group, its hidden neighbours' groups, its known mines.

    A group is the set of revealed numbers around a cell (cells in the same
    equations); within a group the layouts are exchangeable, so two cells with
    the same key map onto each other, neighbourhoods included, by a permutation
    of each group's cells that keeps every clue.
    """

    def clues_around(c: Cell) -> tuple[Cell, ...]:
        return tuple(n for n in board.neighbours(*c) if board[n] >= 0)

    flags = 0
    around: list[tuple[Cell, ...]] = []
    for n in board.neighbours(*cell):
        value = board[n]
        if value >= 0:
            continue
        if trust_flags and value == FLAG:
            flags += 1
        else:
            around.append(clues_around(n))
    return (clues_around(cell), tuple(sorted(around)), flags)


def _progress(
    board: Board,
    cell: Cell,
    shows: dict[int, Fraction],
    before: set[Cell],
    trust_flags: bool,
    solver: Callable[..., Any] | None = None,
) -> Fraction:
    """P(the cell is safe and its number makes another cell certain)."""
    hidden_around = [
        n for n in board.neighbours(*cell) if board[n] < 0 and not (trust_flags and board[n] == FLAG)
    ]
    total = Fraction(0)
    for k, p in shows.items():
        if k == 0 and set(hidden_around) - before:
            total += p  # a 0 makes its hidden neighbours safe, one of them not known to be before
            continue
        try:
            after = _certain(board.replace({cell: k}), trust_flags, solver)
        except (BoardParseError, InconsistentBoardError):  # pragma: no cover - shows only possible numbers
            continue
        if after - before - {cell}:
            total += p
    return total
