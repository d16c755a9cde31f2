"""Perfect play, exactly: the probability of winning under optimal play on small boards.

:func:`optimal` searches every strategy at once: an expectimax over what the
player knows. A *knowledge state* is the view of the board (which cells are
revealed and the numbers they show); the layouts still consistent with it are
equally likely, whatever the first-click rule (``none``, ``safe`` and
``opening`` only remove layouts the view already rules out: a revealed cell
is safe, a revealed zero's neighbours are safe). So the value of a state is a
whole number, ``W(view)``, the number of its layouts that optimal play wins, and
the probability of winning is ``W / len(layouts)``.

The search
----------
- Layouts are bit sets, one ``uint64`` a layout (bit ``i`` = a mine on flat cell
  ``i``) in a numpy array; a cell's number in every layout at once is
  ``bitwise_count(layouts & neighbours[i])``.
- A hidden cell that is safe in every remaining layout is revealed without
  branching on a choice (revealing it can only add knowledge); the layouts are
  only split by the numbers it shows. A revealed zero's flood fill, as
  :class:`~analyzer.play.game.Game` does it, is covered: a zero's neighbours are
  safe in every layout left. Every certainly safe cell is revealed at once.
- Otherwise the state is a choice: for each hidden cell, the layouts where it
  is safe are split by the number it shows, and ``W`` is the best sum over
  children. A cell safe in ``s`` layouts cannot win more than ``s``, so cells are
  tried by ``s``, best first, and the search stops at the first whose ``s`` is
  no more than the best found (an exact cut, not a heuristic).
- ``W`` is memoised on a canonical form of the view under the board's
  symmetries: the 8 rotations and reflections of a square board, the 4 that
  keep a non-square board's shape.

Flags never matter for winning: a game is won when every safe cell is
revealed, and a flag adds no knowledge (the player places it), so the search
never flags, and the ``optimal`` player ignores flags it is shown.

The first click
---------------
The first cell's value under a rule is ``W`` summed over what it shows, over
the layouts the rule allows with that first cell (:class:`FirstClickRule`,
the same distribution as :class:`~analyzer.play.game.Game`): all ``C(n, k)``
layouts (``none``, where the first click may lose), those that avoid the cell
(``safe``) or its neighbourhood (``opening``).

Examples
--------
>>> result = optimal(3, 3, 2, first_click="safe")
>>> result.probability, result.best_cells
(Fraction(6, 7), ((0, 1), (1, 0), (1, 2), (2, 1)))
>>> result.cell_values[(0, 0)], result.cell_values[(1, 1)]
(Fraction(23, 28), Fraction(17, 28))
>>> optimal(2, 2, 1, first_click="none", first_cell=(0, 0)).probability
Fraction(1, 4)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from analyzer.board.topology import neighbour_table
from analyzer.errors import GameError
from analyzer.play.allowed import is_cell_pair
from analyzer.play.fast import optimal as fast_optimal
from analyzer.play.game import FirstClickRule
from analyzer.play.placement import Cell

__all__ = [
    "OptimalResult",
    "OptimalSearch",
    "optimal",
    "MAX_LAYOUTS",
    "MAX_CELLS",
    "all_layouts",
    "symmetries",
]

MAX_CELLS = 64
"""The most cells a board may have: a layout is one ``uint64``."""

MAX_LAYOUTS = 2_000_000
"""The most layouts (``C(cells, mines)``) the search will hold in memory."""

HIDDEN_VIEW = -1
"""A hidden cell in a view (the search's own array; flags do not exist there)."""

_ONE = np.uint64(1)

SMALL = 64
"""Sets of at most this many layouts are searched as lists of Python ints, larger ones as numpy arrays."""

Layouts = np.ndarray | list[int]
"""A set of layouts: a ``uint64`` array, or a list of Python ints (small sets)."""


def _union(layouts: Layouts) -> int:
    """The cells that hold a mine in some layout, as a bit set."""
    if isinstance(layouts, list):
        union = 0
        for layout in layouts:
            union |= layout
        return union
    return int(np.bitwise_or.reduce(layouts))


@dataclass(frozen=True, slots=True)
class OptimalResult:
    """The value of perfect play on a board, by :func:`optimal`.

    Attributes
    ----------
    width, height, mines : int
    first_click : str
        The canonical first-click rule.
    probability : Fraction
        The probability of winning under optimal play, from the given first
        cell or the best one.
    cell_values : dict of (row, col) to Fraction
        The probability of winning with each first cell searched (every cell
        when no first cell was given).
    best_cells : tuple of (row, col)
        The first cells reaching ``probability``, row-major.
    states : int
        Knowledge states searched (distinct canonical views whose value was computed).
    seconds : float
        Wall-clock time of the search (not compared).
    """

    width: int
    height: int
    mines: int
    first_click: str
    probability: Fraction
    cell_values: dict[Cell, Fraction] = field(hash=False)
    best_cells: tuple[Cell, ...]
    states: int
    seconds: float = field(compare=False)

    @property
    def percent(self) -> float:
        """``probability`` as a percentage (a float, for display)."""
        return 100 * float(self.probability)

    def __str__(self) -> str:
        cells = ", ".join(f"{r},{c}" for r, c in self.best_cells)
        return (
            f"{self.width}x{self.height}/{self.mines} ({self.first_click}): optimal play wins "
            f"{self.probability} = {self.percent:.4f}% (best first cell {cells}; "
            f"{self.states} states, {self.seconds:.2f} s)"
        )


def symmetries(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """The board's symmetries as permutations of flat cells: ``view[perm]`` is the mapped view.

    Eight on a square board (rotations and reflections), four on another
    rectangle (identity, the two mirrors, the half turn); the identity first.

    >>> len(symmetries(3, 3)), len(symmetries(4, 2))
    (8, 4)
    >>> symmetries(2, 1)
    ((0, 1), (1, 0))
    """
    grid = np.arange(width * height).reshape(height, width)
    images = [grid, grid[::-1, :], grid[:, ::-1], grid[::-1, ::-1]]
    if width == height:
        images += [grid.T, grid.T[::-1, :], grid.T[:, ::-1], grid.T[::-1, ::-1]]
    seen: dict[tuple[int, ...], None] = {}
    for image in images:
        seen.setdefault(tuple(int(i) for i in image.ravel()), None)
    return tuple(seen)


def all_layouts(cells: int, mines: int, *, exclude: Sequence[int] = ()) -> np.ndarray:
    """Every layout of ``mines`` mines on ``cells`` cells avoiding ``exclude``, as ``uint64`` bit sets.

    >>> [bin(int(x)) for x in all_layouts(3, 2)]
    ['0b11', '0b101', '0b110']
    >>> all_layouts(3, 1, exclude=[0]).tolist()
    [2, 4]
    """
    allowed = [i for i in range(cells) if i not in set(exclude)]
    count = math.comb(len(allowed), mines)
    if count > MAX_LAYOUTS:
        raise GameError(f"too many layouts to search: C({len(allowed)}, {mines}) = {count} > {MAX_LAYOUTS}")
    if mines == 0:
        return np.zeros(1, dtype=np.uint64)
    bits = np.array([1 << i for i in allowed], dtype=np.uint64)
    index = np.fromiter(
        (i for combo in combinations(range(len(allowed)), mines) for i in combo),
        dtype=np.intp,
        count=count * mines,
    ).reshape(count, mines)
    return np.bitwise_or.reduce(bits[index], axis=1)


class OptimalSearch:
    """The expectimax of one board size and mine count, with its memo.

    One search serves every first-click rule and first cell (the value of a
    view does not depend on them), and the ``optimal`` player's moves.

    Parameters
    ----------
    width, height, mines : int
    symmetry : bool
        Memoise on the canonical form under the board's symmetries (default);
        ``False`` memoises on the view itself (for benchmarks and checks).
    max_states : int, optional
        Give up (a :class:`~analyzer.errors.GameError`) once this many states
        are memoised.
    compiled : bool
        Search with the compiled expectimax (:mod:`analyzer.play.fast.optimal`,
        the same states and values) on boards of at most 32 cells (default);
        ``False`` keeps this module's numpy search (the tests compare the two).

    Raises
    ------
    GameError
        Bad sizes, a board over :data:`MAX_CELLS` cells or more than
        :data:`MAX_LAYOUTS` layouts; during a search, more than ``max_states`` states.

    Examples
    --------
    >>> search = OptimalSearch(2, 2, 1)
    >>> view = [HIDDEN_VIEW] * 4
    >>> view[0] = 1
    >>> search.win_count(view, search.consistent(view))
    1
    """

    def __init__(
        self,
        width: int,
        height: int,
        mines: int,
        *,
        symmetry: bool = True,
        max_states: int | None = None,
        compiled: bool = True,
    ) -> None:
        for name, value, low in (("width", width, 1), ("height", height, 1), ("mines", mines, 0)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
                raise GameError(f"{name} must be an integer >= {low}, got {value!r}")
        self.width, self.height, self.mines = int(width), int(height), int(mines)
        self.cells = self.width * self.height
        if self.cells > MAX_CELLS:
            raise GameError(
                f"a {width}x{height} board has {self.cells} cells; the search holds at most {MAX_CELLS}"
            )
        if self.mines > self.cells:
            raise GameError(f"more mines ({mines}) than cells ({self.cells})")
        count = math.comb(self.cells, self.mines)
        if count > MAX_LAYOUTS:
            raise GameError(
                f"too many layouts to search: C({self.cells}, {self.mines}) = {count} > {MAX_LAYOUTS}"
            )
        table = neighbour_table("square", self.width, self.height)
        self.table = table
        self.neighbours = np.array([sum(1 << j for j in around) for around in table], dtype=np.uint64)
        self._neighbour_ints = [sum(1 << j for j in around) for around in table]
        perms = symmetries(self.width, self.height) if symmetry else symmetries(self.width, self.height)[:1]
        self.perms = [np.array(p, dtype=np.intp) for p in perms]
        if max_states is not None and (
            isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1
        ):
            raise GameError(f"max_states must be an integer >= 1, got {max_states!r}")
        self.max_states = max_states
        self._layouts: np.ndarray | None = None
        self.compiled = compiled and self.cells <= fast_optimal.MAX_CELLS
        #: Memoised values ``W`` by canonical view (bytes here, two packed words when compiled).
        self.memo: Any = fast_optimal.new_memo() if self.compiled else {}
        self._perm_array = np.array(perms, dtype=np.int64)

    def __getstate__(self) -> dict[str, Any]:
        # A typed dictionary does not pickle: the compiled memo travels as pairs (to workers, say).
        state = dict(self.__dict__)
        if self.compiled:
            state["memo"] = fast_optimal.memo_arrays(self.memo)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.compiled:
            self.memo = fast_optimal.memo_from_arrays(*state["memo"])

    # ---------------------------------------------------------------- layouts
    @property
    def layouts(self) -> np.ndarray:
        """Every layout of the board (``C(cells, mines)`` bit sets), built once."""
        if self._layouts is None:
            self._layouts = all_layouts(self.cells, self.mines)
        return self._layouts

    def consistent(self, view: Sequence[int], layouts: np.ndarray | None = None) -> np.ndarray:
        """The layouts (of ``layouts``, default all) that show ``view``: revealed cells safe, numbers right.

        ``view`` holds a number for each revealed cell and a negative value for the others.
        """
        chosen = self.layouts if layouts is None else layouts
        keep = np.ones(len(chosen), dtype=bool)
        for i, value in enumerate(view):
            if value >= 0:
                keep &= (chosen >> np.uint64(i)) & _ONE == 0
                keep &= np.bitwise_count(chosen & self.neighbours[i]) == value
        return chosen[keep]

    # ---------------------------------------------------------------- search
    def key(self, view: np.ndarray) -> bytes:
        """The canonical form of a view: the least of its images under the symmetries."""
        return min(view[perm].tobytes() for perm in self.perms)

    def reveal(
        self, view: np.ndarray, layouts: Layouts, cells: Sequence[int]
    ) -> Iterator[tuple[np.ndarray, Layouts]]:
        """Reveal ``cells`` (safe in every one of ``layouts``): each view that can show, with its layouts.

        Large sets of layouts are numpy arrays; sets of at most ``SMALL`` layouts
        are lists of Python ints, which are faster to split at that size.
        """
        if isinstance(layouts, list):
            masks = [self._neighbour_ints[i] for i in cells]
            groups: dict[tuple[int, ...], list[int]] = {}
            for layout in layouts:
                shown = tuple([(layout & m).bit_count() for m in masks])
                found = groups.get(shown)
                if found is None:
                    groups[shown] = [layout]
                else:
                    found.append(layout)
            index = list(cells)
            for shown, group in groups.items():
                child = view.copy()
                child[index] = shown
                yield child, group
            return
        # What each cell shows in each layout, a column a cell (a base-9 code of many
        # cells would pass 64 bits and could merge different views).
        shown_all = np.stack([np.bitwise_count(layouts & self.neighbours[i]) for i in cells], axis=1)
        if len(layouts) == 1 or (shown_all == shown_all[0]).all():
            arrays: list[np.ndarray] = [layouts]
        else:
            order = np.lexsort(shown_all.T[::-1])
            ordered = shown_all[order]
            cuts = np.flatnonzero((ordered[1:] != ordered[:-1]).any(axis=1)) + 1
            arrays = np.split(layouts[order], cuts)
        for group_array in arrays:
            child = view.copy()
            first = int(group_array[0])
            for i in cells:
                child[i] = (first & self._neighbour_ints[i]).bit_count()
            yield child, (group_array.tolist() if len(group_array) <= SMALL else group_array)

    def win_count(self, view: Sequence[int] | np.ndarray, layouts: Layouts) -> int:
        """``W``: how many of ``layouts`` (all consistent with ``view``) optimal play wins from ``view``."""
        view = np.asarray(view, dtype=np.int8)
        if self.compiled:
            return self._compiled_reveal(view, layouts, ())
        return self._win(view, layouts)

    def _compiled_reveal(self, view: np.ndarray, layouts: Layouts, cells: Sequence[int]) -> int:
        """``W`` summed over what revealing ``cells`` shows, by the compiled search."""
        value = fast_optimal.reveal_value(
            view,
            np.asarray(layouts, dtype=np.uint64),
            np.array(cells, dtype=np.int64),
            self.neighbours,
            self._perm_array,
            self.mines,
            self.memo,
            self.max_states or 0,
        )
        if value < 0:
            raise GameError(f"the search stopped after {self.max_states} states (max_states)")
        return int(value)

    def _win(self, view: np.ndarray, layouts: Layouts) -> int:
        count = len(layouts)
        if count <= 1:
            return count  # one layout left: it is known, every safe cell revealed in turn
        hidden = view < 0
        hidden_cells = np.flatnonzero(hidden).tolist()
        if len(hidden_cells) == self.mines:
            return count
        key = self.key(view)
        found = self.memo.get(key)
        if found is not None:
            return found
        if self.max_states is not None and len(self.memo) >= self.max_states:
            raise GameError(f"the search stopped after {self.max_states} states (max_states)")
        union = _union(layouts)
        safe = [i for i in hidden_cells if not (union >> i) & 1]
        if safe:
            value = sum(self._win(child, group) for child, group in self.reveal(view, layouts, safe))
        else:
            value = self._best_guess(view, layouts, hidden_cells)[1]
        self.memo[key] = value
        return value

    def guess_values(
        self, view: np.ndarray, layouts: Layouts, cells: Sequence[int], *, cut: bool = True
    ) -> dict[int, int]:
        """``W`` after revealing each cell of ``cells`` (as a guess), by safe count, best first.

        With ``cut``, cells that cannot beat the best so far (safe in no more
        layouts than it wins) are left out.
        """
        safe_sets: list[tuple[int, int, Layouts]] = []
        if isinstance(layouts, list):
            for i in cells:
                bit = 1 << i
                kept = [layout for layout in layouts if not layout & bit]
                safe_sets.append((len(kept), i, kept))
        else:
            for i in cells:
                kept_array = layouts[(layouts >> np.uint64(i)) & _ONE == 0]
                safe_sets.append(
                    (len(kept_array), i, kept_array.tolist() if len(kept_array) <= SMALL else kept_array)
                )
        safe_sets.sort(key=lambda item: (-item[0], item[1]))
        values: dict[int, int] = {}
        best = -1
        for safe_count, i, survivors in safe_sets:
            if cut and safe_count <= best:
                break
            if safe_count == 0:
                values[i] = 0
                continue
            if self.compiled:
                value = self._compiled_reveal(view, survivors, [i])
            else:
                value = sum(self._win(child, group) for child, group in self.reveal(view, survivors, [i]))
            values[i] = value
            best = max(best, value)
        return values

    def _best_guess(self, view: np.ndarray, layouts: Layouts, cells: Sequence[int]) -> tuple[int, int]:
        values = self.guess_values(view, layouts, cells)
        best = max(values, key=lambda i: (values[i], -i))
        return best, values[best]

    def first_click(self, rule: FirstClickRule, index: int) -> Fraction:
        """The probability of winning when flat cell ``index`` is revealed first under ``rule``."""
        row, col = divmod(index, self.width)
        zone = rule.protected_cells("square", self.width, self.height, row, col)
        allowed = self.layouts
        for j in zone:
            allowed = allowed[(allowed >> np.uint64(j)) & _ONE == 0]
        if len(allowed) == 0:
            raise GameError(
                f"first-click rule {rule.name!r} leaves no layout of {self.mines} mines "
                f"when {(row, col)!r} is revealed first on a {self.width}x{self.height} board"
            )
        if self.mines == self.cells:
            return Fraction(1)  # the game is won before any click
        safe = allowed[(allowed >> np.uint64(index)) & _ONE == 0]
        view = np.full(self.cells, HIDDEN_VIEW, dtype=np.int8)
        if self.compiled:
            won = self._compiled_reveal(view, safe, [index])
        else:
            won = sum(self._win(child, group) for child, group in self.reveal(view, safe, [index]))
        return Fraction(won, len(allowed))


def _classes(width: int, height: int) -> list[int]:
    """One flat cell of each orbit of the board's symmetries (the least), row-major."""
    perms = symmetries(width, height)
    return sorted({min(perm[i] for perm in perms) for i in range(width * height)})


def optimal(
    width: int,
    height: int,
    mines: int,
    *,
    first_click: str | FirstClickRule = "safe",
    first_cell: Cell | None = None,
    search: OptimalSearch | None = None,
) -> OptimalResult:
    """The exact probability of winning a random game under optimal play.

    Parameters
    ----------
    width, height, mines : int
        The board (square topology).
    first_click : str or FirstClickRule
        ``"none"``, ``"safe"`` (default) or ``"opening"``: where the mines may be,
        as in :class:`~analyzer.play.game.Game`.
    first_cell : (row, col), optional
        The first cell revealed; ``None`` searches every cell (one of each
        symmetry class) and reports the best.
    search : OptimalSearch, optional
        A search of the same board whose memo to reuse (several rules, say).

    Returns
    -------
    OptimalResult

    Raises
    ------
    GameError
        Bad sizes, a rule that is not ``none``, ``safe`` or ``opening`` (a larger
        safe zone leaves hidden cells safe that the view does not show), more
        mines than the rule leaves room for, a first cell off the board, or a
        board too large to search (see :class:`OptimalSearch`).

    Examples
    --------
    >>> result = optimal(2, 2, 1, first_click="safe")
    >>> result.probability, result.cell_values[(1, 1)]
    (Fraction(1, 3), Fraction(1, 3))
    >>> optimal(4, 4, 4, first_click="safe", first_cell=(9, 9))
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: first cell (9, 9) is outside the 4x4 board
    """
    start = time.perf_counter()
    rule = FirstClickRule.parse(first_click)
    search = _checked_search(width, height, mines, rule, search)
    states_before = len(search.memo)
    values = _cell_values(search, rule, first_cell)
    best = max(values.values())
    return OptimalResult(
        width=search.width,
        height=search.height,
        mines=search.mines,
        first_click=rule.name,
        probability=best,
        cell_values=values,
        best_cells=tuple(sorted(cell for cell, value in values.items() if value == best)),
        states=len(search.memo) - states_before,
        seconds=time.perf_counter() - start,
    )


def _checked_search(
    width: int, height: int, mines: int, rule: FirstClickRule, search: OptimalSearch | None
) -> OptimalSearch:
    """``search``, or a new one, of the board; a rule the search takes, with room for the mines."""
    if rule.radius is not None and rule.radius > 1:
        raise GameError(f"the search supports first-click rules none, safe and opening, not {rule.name!r}")
    if search is None:
        search = OptimalSearch(width, height, mines)
    elif (search.width, search.height, search.mines) != (width, height, mines):
        raise GameError(
            f"the search given is for {search.width}x{search.height}/{search.mines}, "
            f"not {width}x{height}/{mines}"
        )
    zone = len(
        rule.protected_cells("square", search.width, search.height, search.height // 2, search.width // 2)
    )
    if rule.radius is not None and search.mines > search.cells - zone:
        raise GameError(
            f"first-click rule {rule.name!r} keeps up to {zone} cells mine-free: a "
            f"{search.width}x{search.height} board has room for at most {search.cells - zone} mines, "
            f"got {search.mines}"
        )
    return search


def _cell_values(search: OptimalSearch, rule: FirstClickRule, first_cell: object) -> dict[Cell, Fraction]:
    """The chance to win with ``first_cell``, or with each cell (one search a symmetry class)."""
    perms = symmetries(search.width, search.height)
    if first_cell is not None:
        if not is_cell_pair(first_cell):
            raise GameError(f"bad first cell {first_cell!r}; expected (row, col)")
        row, col = int(first_cell[0]), int(first_cell[1])
        if not (0 <= row < search.height and 0 <= col < search.width):
            raise GameError(f"first cell {first_cell!r} is outside the {search.width}x{search.height} board")
        index = row * search.width + col
        return {(row, col): search.first_click(rule, index)}
    by_class = {i: search.first_click(rule, i) for i in _classes(search.width, search.height)}
    values = {}
    for i in range(search.cells):
        representative = min(perm[i] for perm in perms)
        values[divmod(i, search.width)] = by_class[representative]
    return values
