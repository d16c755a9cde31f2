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


def _steps(image: np.ndarray, step: int) -> np.ndarray:
    """Where a pixel differs from the one before it (to its left) by ``step`` or more in some
    channel: ``H x (W-1)``. In ``uint8`` (the larger minus the smaller), channel by channel."""
    a, b = image[:, 1:], image[:, :-1]
    difference = np.maximum(a, b) - np.minimum(a, b)
    largest = np.maximum(np.maximum(difference[:, :, 0], difference[:, :, 1]), difference[:, :, 2])
    return largest >= step


def _long_edges(steps: np.ndarray, min_length: int) -> np.ndarray:
    """A ``H x W`` mask of the vertical edges (at pixel ``x``: a step from ``x-1``; ``steps``
    from :func:`_steps`) that run on for at least ``min_length`` pixels."""
    closed = steps.copy()  # grown two pixels each way: a crossing line or a bevel's corner does not cut a run
    closed[1:] |= steps[:-1]
    closed[:-1] |= steps[1:]
    closed[2:] |= steps[:-2]
    closed[:-2] |= steps[2:]
    # a pixel is on a long run when some window of ``length`` pixels holding it is all edge:
    # an erosion down the columns (windows of 1, 2, 4, ... pixels, each the AND of two halves),
    # then the dilation that spreads each full window over its pixels
    length = min_length + 4
    mask = np.zeros((steps.shape[0], steps.shape[1] + 1), bool)
    if closed.shape[0] < length:
        return mask
    full = closed.copy()
    shifts = []
    window = 1
    while window < length:
        shift = min(window, length - window)
        full[:-shift] &= full[shift:]
        full[-shift:] = False
        shifts.append(shift)
        window += shift
    covered = full
    for shift in shifts:
        covered[shift:] |= covered[:-shift]
    mask[:, 1:] = covered
    return mask


def _crossings(steps: tuple[np.ndarray, np.ndarray], min_length: int) -> np.ndarray:
    """Pixels where a long vertical edge meets a long horizontal one (within a pixel)."""
    vertical = _long_edges(steps[0], min_length)
    horizontal = _long_edges(steps[1], min_length).T
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
        # snap_grid fits the pitch to a hundredth
        found.extend(_best_runs(smooth, np.arange(lag - 0.5, lag + 0.51, 0.1)))
    found.sort(key=lambda run: -run[3])
    return found


def _best_runs(smooth: np.ndarray, pitches: np.ndarray) -> list[tuple[float, float, int, float]]:
    """For each pitch and phase, the best run of peaks (Kadane's maximum subarray, every pitch
    and phase at once)."""
    n = len(smooth)
    count = int((n - 1) // pitches.min()) + 1
    phases = np.arange(int(np.ceil(pitches.max())))
    # pitch x phase x k
    positions = np.rint(
        phases[None, :, None] + np.arange(count)[None, None, :] * pitches[:, None, None]
    ).astype(np.int64)
    valid = (positions < n) & (phases[None, :, None] < pitches[:, None, None])
    values = np.where(valid, smooth[np.minimum(positions, n - 1)], 0.0)
    gain = values - 0.25 * values.max(axis=2, keepdims=True)  # a line of the grid crosses many
    shape = gain.shape[:2]
    current = np.zeros(shape)
    start = np.zeros(shape, np.int64)
    best = np.zeros(shape)
    best_start = np.zeros(shape, np.int64)
    best_end = np.zeros(shape, np.int64)
    alive = np.ones(shape, bool)
    for k in range(count):
        alive &= valid[:, :, k]
        restart = current <= 0
        current = np.where(restart, gain[:, :, k], current + gain[:, :, k])
        start = np.where(restart, k, start)
        better = alive & (current > best)
        best = np.where(better, current, best)
        best_start = np.where(better, start, best_start)
        best_end = np.where(better, k, best_end)
    out = []
    for i, phase in zip(*np.nonzero((best > 0) & (best_end - best_start >= _MIN_CELLS - 1)), strict=True):
        first = int(best_start[i, phase])
        pitch = float(pitches[i])
        out.append(
            (float(phase + first * pitch), pitch, int(best_end[i, phase]) - first, float(best[i, phase]))
        )
    return out


def _split(
    profile: np.ndarray, runs: list[tuple[float, float, int, float]]
) -> list[tuple[float, float, int, float]]:
    """Each run cut where two or more of its lines in a row cross nothing (two boards side by
    side with the same cells: one run of lines across both, with a hole), its parts of at
    least five cells kept."""
    out = []
    for first, pitch, gaps, score in runs:
        lines = np.rint(first + np.arange(gaps + 1) * pitch).astype(np.int64)
        lines = np.clip(lines, 0, len(profile) - 1)
        near = np.maximum(
            profile[lines],
            np.maximum(profile[np.maximum(lines - 1, 0)], profile[np.minimum(lines + 1, len(profile) - 1)]),
        )
        empty = near <= 0
        start = 0
        parts = []
        k = 0
        while k <= gaps:
            if empty[k] and k + 1 <= gaps and empty[k + 1]:
                parts.append((start, k - 1))
                while k <= gaps and empty[k]:
                    k += 1
                start = k
                continue
            k += 1
        parts.append((start, gaps))
        if len(parts) == 1:
            out.append((first, pitch, gaps, score))
            continue
        for a, b in parts:
            if b - a >= _MIN_CELLS:
                out.append((first + a * pitch, pitch, b - a, score * (b - a) / gaps))
    return out


def find_grids(image: np.ndarray, *, max_cell: int = 200, step: int = EDGE_STEP) -> list[Grid]:
    """Candidate grids in an ``H x W x 3`` picture, the likeliest first (maybe none).

    The crossings of long edges are counted by column and by row; a grid is the run of evenly
    spaced peaks across and the run down with the same pitch, each counted only inside the
    other; the tiles decide between the candidates and settle the exact place.
    """
    steps = (_steps(image, step), _steps(image.transpose(1, 0, 2), step))
    crossing = _crossings(steps, 3 * MIN_CELL)
    grids: list[Grid] = []
    across_all = crossing.sum(axis=0).astype(float)
    for left, pitch, columns, _ in _split(across_all, _runs(across_all, (MIN_CELL, max_cell))[:2]):
        x0, x1 = int(left), int(left + columns * pitch) + 2
        down = crossing[:, x0:x1].sum(axis=1).astype(float)
        near = (max(MIN_CELL, int(pitch * 0.8)), int(pitch * 1.25) + 1)
        for top, pitch_down, rows, _ in _split(down, _runs(down, near)[:2]):
            y0, y1 = int(top), int(top + rows * pitch_down) + 2
            # across again, inside these rows and a cell around the columns found
            a0 = max(0, int(left - pitch))
            a1 = min(crossing.shape[1], int(left + (columns + 1) * pitch) + 2)
            across = crossing[y0:y1, a0:a1].sum(axis=0).astype(float)
            for left2, pitch2, columns2, _ in _split(across, _runs(across, near))[:1]:
                grids.append(Grid(left2 + a0, top, pitch2, pitch_down, rows, columns2))
    seen: set[tuple[int, int, int, int]] = set()
    unique = []
    for grid in (snap_grid(image, g, step, steps=steps) for g in grids):
        key = (round(grid.left), round(grid.top), grid.rows, grid.columns)
        if key not in seen:
            seen.add(key)
            unique.append(grid)
    return unique


def _profile(steps: tuple[np.ndarray, np.ndarray], grid: Grid, axis: int) -> tuple[np.ndarray, int]:
    """How many pixels of the grid's box (and a cell around it) step by ``step`` or more from
    the pixel before them: by column (``axis`` 0) or by row (1); and the box's first column or row."""
    h, w = steps[0].shape[0], steps[1].shape[0]
    x0 = max(0, int(grid.left - grid.cell_width))
    x1 = min(w, int(grid.left + (grid.columns + 1) * grid.cell_width) + 1)
    y0 = max(0, int(grid.top - grid.cell_height))
    y1 = min(h, int(grid.top + (grid.rows + 1) * grid.cell_height) + 1)
    if axis == 0:  # steps[0][y, x-1]: pixel x steps from x-1
        counts = steps[0][y0:y1, x0 : max(x0, x1 - 1)].sum(axis=0)
        origin = x0
    else:  # steps[1][x, y-1]
        counts = steps[1][x0:x1, y0 : max(y0, y1 - 1)].sum(axis=0)
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


def snap_grid(image: np.ndarray, grid: Grid, step: int = EDGE_STEP, *, steps: tuple | None = None) -> Grid:
    """The grid moved and its pitch fitted to the edges of the picture: a found grid's pitch
    is off by a few tenths of a pixel, which is cells off at the far side of 30 columns.
    ``steps``: the picture's :func:`_steps` across and down, if already made."""
    if steps is None:
        steps = (_steps(image, step), _steps(image.transpose(1, 0, 2), step))
    across, x0 = _profile(steps, grid, 0)
    left, width = _fit_lines(across, grid.left - x0, grid.cell_width, grid.columns)
    down, y0 = _profile(steps, grid, 1)
    top, height = _fit_lines(down, grid.top - y0, grid.cell_height, grid.rows)
    return Grid(left + x0, top + y0, width, height, grid.rows, grid.columns)
