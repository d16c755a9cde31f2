"""Where the board is in a picture: the grid of cells, found from its lines alone.

A board is a grid of equal cells; whatever the skin, most cell boundaries are straight edges
(a line, a bevel, or two cells of different colours) that run on for several cells. The edges
are found as long runs of strong colour steps, their positions summed into a profile across
and a profile down, and the grid is the longest run of evenly spaced peaks in both with one
pitch. Text, icons and window frames make short or lonely edges and drop out. The tiles then
settle the exact place (:mod:`analyzer.pictures.read`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Grid", "find_grids", "MIN_CELL", "EDGE_STEP"]

MIN_CELL = 8
"""The smallest cell, in pixels, that is looked for."""
EDGE_STEP = 24
"""A colour step (the largest of the three channels, 0-255) that counts as an edge."""
_MIN_CELLS = 5
"""A board is at least this many cells each way."""


@dataclass(frozen=True)
class Grid:
    """A grid of cells in picture pixels: cell ``(r, c)`` covers ``left + c*cell_width``
    to ``left + (c+1)*cell_width`` across (floats: a scaled picture's pitch need not be whole)."""

    left: float
    top: float
    cell_width: float
    cell_height: float
    rows: int
    columns: int

    def shifted(self, dx: float = 0.0, dy: float = 0.0) -> Grid:
        return Grid(self.left + dx, self.top + dy, self.cell_width, self.cell_height, self.rows, self.columns)

    def resized(self, *, left: int = 0, top: int = 0, right: int = 0, bottom: int = 0) -> Grid:
        """The grid grown (or shrunk, negative) by whole cells on each side."""
        return Grid(
            self.left - left * self.cell_width,
            self.top - top * self.cell_height,
            self.cell_width,
            self.cell_height,
            self.rows + top + bottom,
            self.columns + left + right,
        )

    def as_tuple(self) -> tuple[float, float, float, float, int, int]:
        return (self.left, self.top, self.cell_width, self.cell_height, self.rows, self.columns)


def _long_edges(image: np.ndarray, min_length: int) -> np.ndarray:
    """A ``H x W`` mask of the vertical edges (at pixel ``x``: a step from ``x-1``) that run
    on for at least ``min_length`` pixels."""
    a = image.astype(np.int16)
    steps = np.abs(a[:, 1:] - a[:, :-1]).max(axis=2) >= EDGE_STEP  # H x (W-1)
    closed = steps.copy()  # grown two pixels each way: a crossing line or a bevel's corner does not cut a run
    closed[1:] |= steps[:-1]
    closed[:-1] |= steps[1:]
    closed[2:] |= steps[:-2]
    closed[:-2] |= steps[2:]
    padded = np.zeros((closed.shape[0] + 2, closed.shape[1]), np.int8)
    padded[1:-1] = closed
    change = np.diff(padded, axis=0)  # (H+1) x (W-1)
    marks = np.zeros(change.shape, np.int32)
    start_y, start_x = np.nonzero(change == 1)
    end_y, end_x = np.nonzero(change == -1)
    order_start = np.lexsort((start_y, start_x))
    order_end = np.lexsort((end_y, end_x))
    start_y, start_x = start_y[order_start], start_x[order_start]
    end_y = end_y[order_end]
    keep = end_y - start_y >= min_length + 4
    np.add.at(marks, (start_y[keep], start_x[keep]), 1)
    np.add.at(marks, (end_y[keep], start_x[keep]), -1)
    mask = np.zeros(image.shape[:2], bool)
    mask[:, 1:] = np.cumsum(marks, axis=0)[:-1] > 0
    return mask


def _crossings(image: np.ndarray, min_length: int) -> np.ndarray:
    """Pixels where a long vertical edge meets a long horizontal one (within a pixel)."""
    vertical = _long_edges(image, min_length)
    horizontal = _long_edges(image.transpose(1, 0, 2), min_length).T
    vertical[:, :-1] |= vertical[:, 1:]
    vertical[:, 1:] |= vertical[:, :-1]
    horizontal[:-1] |= horizontal[1:]
    horizontal[1:] |= horizontal[:-1]
    return vertical & horizontal


def _runs(profile: np.ndarray, pitch_range: tuple[int, int]) -> list[tuple[float, float, int, float]]:
    """Evenly spaced peaks of ``profile``: ``(first, pitch, count of gaps, score)``, best first."""
    n = len(profile)
    smooth = profile.copy()
    smooth[1:] = np.maximum(smooth[1:], profile[:-1])
    smooth[:-1] = np.maximum(smooth[:-1], profile[1:])
    low, high = pitch_range
    high = min(high, (n - 1) // _MIN_CELLS)
    if high < low:
        return []
    centred = smooth - smooth.mean()
    size = 1 << int(2 * n - 1).bit_length()
    spectrum = np.fft.rfft(centred, size)
    auto = np.fft.irfft(spectrum * np.conj(spectrum), size)[: high + 2]
    lags = [
        lag
        for lag in range(low, high + 1)
        if auto[lag] > 0 and auto[lag] >= auto[lag - 1] and auto[lag] >= auto[lag + 1]
    ]
    lags.sort(key=lambda lag: -auto[lag])
    found: list[tuple[float, float, int, float]] = []
    for lag in lags[:4]:
        for pitch in np.arange(lag - 0.5, lag + 0.51, 0.05 if lag < 40 else 0.1):
            found.extend(_best_runs(smooth, float(pitch)))
    found.sort(key=lambda run: -run[3])
    return found


def _best_runs(smooth: np.ndarray, pitch: float) -> list[tuple[float, float, int, float]]:
    """For one pitch, the best run of peaks of every phase (Kadane's maximum subarray)."""
    n = len(smooth)
    count = int((n - 1) // pitch) + 1
    phases = np.arange(int(np.ceil(pitch)))
    positions = np.rint(phases[:, None] + np.arange(count)[None, :] * pitch).astype(np.int64)
    valid = positions < n
    values = np.where(valid, smooth[np.minimum(positions, n - 1)], 0.0)
    gain = values - 0.25 * values.max(axis=1, keepdims=True)  # a line of the grid crosses many
    out = []
    for phase in range(len(phases)):
        best = current = 0.0
        start = best_start = best_end = 0
        for k in range(count):
            if not valid[phase, k]:
                break
            if current <= 0:
                current, start = gain[phase, k], k
            else:
                current += gain[phase, k]
            if current > best:
                best, best_start, best_end = current, start, k
        if best > 0 and best_end - best_start >= _MIN_CELLS - 1:
            out.append((float(phase + best_start * pitch), pitch, best_end - best_start, float(best)))
    return out


def find_grids(image: np.ndarray, *, max_cell: int = 200) -> list[Grid]:
    """Candidate grids in an ``H x W x 3`` picture, the likeliest first (maybe none).

    The crossings of long edges are counted by column and by row; a grid is the run of evenly
    spaced peaks across and the run down with the same pitch, each counted only inside the
    other; the tiles decide between the candidates and settle the exact place.
    """
    crossing = _crossings(image, 3 * MIN_CELL)
    grids: list[Grid] = []
    for left, pitch, columns, _ in _runs(crossing.sum(axis=0).astype(float), (MIN_CELL, max_cell))[:2]:
        x0, x1 = int(left), int(left + columns * pitch) + 2
        down = crossing[:, x0:x1].sum(axis=1).astype(float)
        near = (max(MIN_CELL, int(pitch * 0.8)), int(pitch * 1.25) + 1)
        for top, pitch_down, rows, _ in _runs(down, near)[:2]:
            y0, y1 = int(top), int(top + rows * pitch_down) + 2
            across = crossing[y0:y1].sum(axis=0).astype(float)
            for left2, pitch2, columns2, _ in _runs(across, near)[:1]:
                grids.append(Grid(left2, top, pitch2, pitch_down, rows, columns2))
    seen: set[tuple[int, int, int, int]] = set()
    unique = []
    for grid in grids:
        key = (round(grid.left), round(grid.top), grid.rows, grid.columns)
        if key not in seen:
            seen.add(key)
            unique.append(grid)
    return unique
