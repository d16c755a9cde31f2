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

__all__ = ["Grid", "find_grids", "snap_grid", "MIN_CELL", "EDGE_STEP", "FAINT_STEP"]

MIN_CELL = 8
"""The smallest cell, in pixels, that is looked for."""
EDGE_STEP = 24
"""A colour step (the largest of the three channels, 0-255) that counts as an edge."""
FAINT_STEP = 6
"""The colour step looked for when no grid shows at :data:`EDGE_STEP` (boards drawn as a
checkerboard of two close shades, as Google's, have no lines)."""
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


def _long_edges(image: np.ndarray, min_length: int, step: int = EDGE_STEP) -> np.ndarray:
    """A ``H x W`` mask of the vertical edges (at pixel ``x``: a step from ``x-1``) that run
    on for at least ``min_length`` pixels."""
    a = image.astype(np.int16)
    steps = np.abs(a[:, 1:] - a[:, :-1]).max(axis=2) >= step  # H x (W-1)
    closed = steps.copy()  # grown two pixels each way: a crossing line or a bevel's corner does not cut a run
    closed[1:] |= steps[:-1]
    closed[:-1] |= steps[1:]
    closed[2:] |= steps[:-2]
    closed[:-2] |= steps[2:]
    # a pixel is on a long run when some window of ``length`` pixels holding it is all edge:
    # windows counted with one running sum down the columns, then spread over their pixels with another
    length = min_length + 4
    height = closed.shape[0]
    mask = np.zeros(image.shape[:2], bool)
    if height < length:
        return mask
    running = np.zeros((height + 1, closed.shape[1]), np.int32)
    np.cumsum(closed, axis=0, out=running[1:])
    full = (running[length:] - running[:-length]) == length  # windows starting at 0..height-length
    spread = np.zeros((height + 1, closed.shape[1]), np.int32)
    np.cumsum(np.pad(full, ((0, length - 1), (0, 0))), axis=0, out=spread[1:])
    covered = np.empty_like(closed)
    covered[:length] = spread[1 : length + 1] > 0
    covered[length:] = (spread[length + 1 :] - spread[1:-length]) > 0
    mask[:, 1:] = covered
    return mask


def _crossings(image: np.ndarray, min_length: int, step: int) -> np.ndarray:
    """Pixels where a long vertical edge meets a long horizontal one (within a pixel)."""
    vertical = _long_edges(image, min_length, step)
    horizontal = _long_edges(image.transpose(1, 0, 2), min_length, step).T
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
        for pitch in np.arange(lag - 0.5, lag + 0.51, 0.1):  # snap_grid fits it to a hundredth
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
    # Kadane's scan, every phase at once: the best run ending at k, and the best so far
    phase_count = len(phases)
    current = np.zeros(phase_count)
    start = np.zeros(phase_count, np.int64)
    best = np.zeros(phase_count)
    best_start = np.zeros(phase_count, np.int64)
    best_end = np.zeros(phase_count, np.int64)
    alive = np.ones(phase_count, bool)
    for k in range(count):
        alive &= valid[:, k]
        restart = current <= 0
        current = np.where(restart, gain[:, k], current + gain[:, k])
        start = np.where(restart, k, start)
        better = alive & (current > best)
        best = np.where(better, current, best)
        best_start = np.where(better, start, best_start)
        best_end = np.where(better, k, best_end)
    out = []
    for phase in np.nonzero((best > 0) & (best_end - best_start >= _MIN_CELLS - 1))[0]:
        first = int(best_start[phase])
        out.append((float(phase + first * pitch), pitch, int(best_end[phase]) - first, float(best[phase])))
    return out


def find_grids(image: np.ndarray, *, max_cell: int = 200, step: int = EDGE_STEP) -> list[Grid]:
    """Candidate grids in an ``H x W x 3`` picture, the likeliest first (maybe none).

    The crossings of long edges are counted by column and by row; a grid is the run of evenly
    spaced peaks across and the run down with the same pitch, each counted only inside the
    other; the tiles decide between the candidates and settle the exact place.
    """
    crossing = _crossings(image, 3 * MIN_CELL, step)
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
    for grid in (snap_grid(image, g, step) for g in grids):
        key = (round(grid.left), round(grid.top), grid.rows, grid.columns)
        if key not in seen:
            seen.add(key)
            unique.append(grid)
    return unique


def _profile(image: np.ndarray, grid: Grid, axis: int, step: int) -> tuple[np.ndarray, int]:
    """How many pixels of the grid's box (and a cell around it) step by ``step`` or more from
    the pixel before them: by column (``axis`` 0) or by row (1); and the box's first column or row."""
    h, w = image.shape[:2]
    x0 = max(0, int(grid.left - grid.cell_width))
    x1 = min(w, int(grid.left + (grid.columns + 1) * grid.cell_width) + 1)
    y0 = max(0, int(grid.top - grid.cell_height))
    y1 = min(h, int(grid.top + (grid.rows + 1) * grid.cell_height) + 1)
    box = image[y0:y1, x0:x1].astype(np.int16)
    if axis == 0:
        counts = (np.abs(box[:, 1:] - box[:, :-1]).max(axis=2) >= step).sum(axis=0)
        origin = x0
    else:
        counts = (np.abs(box[1:] - box[:-1]).max(axis=2) >= step).sum(axis=1)
        origin = y0
    profile = np.zeros(len(counts) + 1)
    profile[1:] = counts
    return profile, origin


def _fit_lines(profile: np.ndarray, start: float, pitch: float, count: int) -> tuple[float, float]:
    """The first line and the pitch (to a hundredth of a pixel) whose ``count + 1`` evenly spaced
    lines cross the most edges of ``profile``, near ``start`` and ``pitch``."""
    if len(profile) < 2:
        return start, pitch
    pitches = pitch + np.arange(-0.6, 0.601, 0.01)
    starts = round(start) + np.arange(-4.0, 4.01, 0.25)  # whole pixels among them: most cells start on one
    lines = np.arange(count + 1)
    position = starts[None, :, None] + pitches[:, None, None] * lines[None, None, :]
    whole = np.floor(position).astype(np.int64)
    part = position - whole
    inside = (whole >= 0) & (whole + 1 < len(profile))
    whole = np.clip(whole, 0, len(profile) - 2)
    crossed = np.where(inside, profile[whole] * (1 - part) + profile[whole + 1] * part, 0.0).sum(axis=2)
    best_pitch, best_start = np.unravel_index(int(np.argmax(crossed)), crossed.shape)
    found = float(pitches[best_pitch])
    if abs(found - round(found)) <= 0.03:  # a picture at its native size: whole pixels
        found = float(round(found))
    return float(starts[best_start]), found


def snap_grid(image: np.ndarray, grid: Grid, step: int = EDGE_STEP) -> Grid:
    """The grid moved and its pitch fitted to the edges of the picture: a found grid's pitch
    is off by a few tenths of a pixel, which is cells off at the far side of 30 columns."""
    across, x0 = _profile(image, grid, 0, step)
    left, width = _fit_lines(across, grid.left - x0, grid.cell_width, grid.columns)
    down, y0 = _profile(image, grid, 1, step)
    top, height = _fit_lines(down, grid.top - y0, grid.cell_height, grid.rows)
    return Grid(left + x0, top + y0, width, height, grid.rows, grid.columns)
