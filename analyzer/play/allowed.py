"""A placement's arguments checked, and its allowed cells.

A placement picks mines among the *allowed* cells: the board's cells minus the
excluded ones, numbered ``0..P-1`` in row-major order (a sampler's *positions*).
Here are the checks every placement method and :class:`~analyzer.play.game.Game`
share (sizes, cells on the board, ``seed=`` or ``rng=``) and the map from
positions back to ``(row, col)`` cells.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeGuard

import numpy as np

from analyzer.board.board import Cell
from analyzer.errors import GameError
from analyzer.limits import whole, whole_or_none

__all__ = ["Layout", "board_cell", "is_cell_pair", "checked", "generator", "positions_to_cells", "size"]

Layout = frozenset[Cell]
"""A layout of mines: the cells holding a mine."""


def size(name: str, value: object) -> int:
    """``value`` as a size: an integer >= 0, else a :class:`GameError` naming it ``name``."""
    number = whole_or_none(value)
    if number is None or number < 0:
        raise GameError(f"{name} must be a non-negative integer, got {value!r}")
    return number


def board_cell(cell: object, width: int, height: int, what: str) -> Cell:
    """``cell`` as a ``(row, col)`` pair of ints on a ``width x height`` board.

    Raises
    ------
    GameError
        Naming the cell as ``what`` (``"mine"``, ``"excluded cell"``): not a pair, or
        off the board.

    >>> board_cell((1, 2), 3, 2, "mine")
    (1, 2)
    >>> board_cell((2, 0), 2, 2, "mine")
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: mine (2, 0) is outside the 2x2 board
    """
    try:
        row, col = (whole_or_none(x) for x in cell)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise GameError(f"{what} {cell!r} is not a (row, col) pair") from None
    if row is None or col is None or not (0 <= row < height and 0 <= col < width):
        raise GameError(f"{what} {cell!r} is outside the {width}x{height} board")
    return row, col


def is_cell_pair(value: object) -> TypeGuard[tuple[Any, Any]]:
    """Whether ``value`` is a ``(row, col)`` tuple of two integers (numpy's too; no bools).

    >>> is_cell_pair((0, 1)), is_cell_pair((0, True)), is_cell_pair([0, 1])
    (True, False, False)
    """
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value)
    )


def _excluded_flat(width: int, height: int, exclude: Iterable[Cell]) -> np.ndarray:
    """Sorted distinct flat indices of the excluded cells."""
    flat: set[int] = set()
    for cell in exclude:
        row, col = board_cell(cell, width, height, "excluded cell")
        flat.add(row * width + col)
    return np.array(sorted(flat), dtype=np.int64)


def checked(
    width: object, height: object, mines: object, exclude: Iterable[Cell]
) -> tuple[int, int, int, int, np.ndarray]:
    """Validate the arguments; return ``(width, height, mines, allowed, excluded)``."""
    w = size("width", width)
    h = size("height", height)
    k = size("mine count", mines)
    excluded = _excluded_flat(w, h, exclude)
    allowed = w * h - len(excluded)
    if k > allowed:
        raise GameError(
            f"cannot place {k} mines in {allowed} allowed cells ({w}x{h} board, {len(excluded)} excluded)"
        )
    return w, h, k, allowed, excluded


def generator(seed: Any, rng: object) -> np.random.Generator:
    """The generator to draw from: ``rng``, or a new one seeded by ``seed`` (not both)."""
    if rng is not None:
        if seed is not None:
            raise GameError("give seed= or rng=, not both")
        if not isinstance(rng, np.random.Generator):
            raise GameError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        return rng
    if seed is not None and not isinstance(seed, np.random.SeedSequence):
        whole(seed, "seed", minimum=0, error=GameError)
    return np.random.default_rng(seed)


def positions_to_cells(positions: np.ndarray, excluded: np.ndarray, width: int) -> Layout:
    """Map sorted positions among the allowed cells to ``(row, col)`` cells.

    The allowed cell at position ``t`` is ``t`` plus the number of excluded cells
    before it; ``excluded[i] - i`` is the number of allowed cells before the i-th
    excluded cell, so a binary search finds that number in O(log E) per mine.
    """
    if len(positions) == 0:
        return frozenset()
    flat = positions
    if len(excluded):
        flat = positions + np.searchsorted(excluded - np.arange(len(excluded)), positions, side="right")
    rows, cols = np.divmod(flat, width)
    return frozenset(zip(rows.tolist(), cols.tolist(), strict=True))
