"""Cells as short vectors: each cell's picture averaged onto a small square of samples.

The same function turns a skin's tiles and a picture's cells into vectors, so a tile at 16 px
compares with the same tile drawn at 20 px, 24 px or 32 px (display scales), or 27 px.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SAMPLES", "cell_features", "integral"]

SAMPLES = 8
"""Samples across (and down) a cell."""
_INSET = 0.02
"""The share of a cell's side left out at each edge (its neighbours bleed in when a picture is scaled)."""


def integral(image: np.ndarray) -> np.ndarray:
    """The summed-area table of an ``H x W x 3`` picture: ``(H+1) x (W+1) x 3`` integers (exact;
    ``int32`` while the sums fit, else ``int64``)."""
    kind = np.int32 if image.shape[0] * image.shape[1] * 255 < 2**31 else np.int64
    sums = np.cumsum(image, axis=0, dtype=kind)
    np.cumsum(sums, axis=1, out=sums)
    return np.pad(sums, ((1, 0), (1, 0), (0, 0)))


def _edges(start: float, pitch: float, index: np.ndarray, limit: int) -> np.ndarray:
    """Sample boundaries of the cells ``index`` along one axis: ``len(index) x (SAMPLES+1)`` ints."""
    inset = _INSET * pitch
    span = (pitch - 2 * inset) / SAMPLES
    base = start + index[:, None] * pitch + inset
    edges = np.rint(base + np.arange(SAMPLES + 1)[None, :] * span).astype(np.int64)
    edges = np.clip(edges, 0, limit)
    # a bin at least a pixel wide (cells under SAMPLES pixels are sampled, not averaged)
    edges[:, 1:] = np.maximum(edges[:, 1:], edges[:, :-1] + 1)
    return np.clip(edges, 0, limit)


def cell_features(
    table: np.ndarray,
    left: float,
    top: float,
    cell_width: float,
    cell_height: float,
    rows: int,
    columns: int,
    *,
    row_index: np.ndarray | None = None,
    column_index: np.ndarray | None = None,
) -> np.ndarray:
    """Every cell's samples, ``rows x columns x (SAMPLES*SAMPLES*3)`` float32 (0-255); or only
    the cells of the rows ``row_index`` and the columns ``column_index`` (a sample, for speed)."""
    height, width = table.shape[0] - 1, table.shape[1] - 1
    if row_index is None:
        row_index = np.arange(rows)
    if column_index is None:
        column_index = np.arange(columns)
    rows, columns = len(row_index), len(column_index)
    xs = _edges(left, cell_width, np.asarray(column_index), width)
    ys = _edges(top, cell_height, np.asarray(row_index), height)
    x0, x1 = xs[:, :-1], xs[:, 1:]  # columns x S
    y0, y1 = ys[:, :-1], ys[:, 1:]
    a = table[y1[:, :, None, None], x1[None, None, :, :]]
    b = table[y0[:, :, None, None], x1[None, None, :, :]]
    c = table[y1[:, :, None, None], x0[None, None, :, :]]
    d = table[y0[:, :, None, None], x0[None, None, :, :]]
    area = ((y1 - y0)[:, :, None, None] * (x1 - x0)[None, None, :, :]).astype(np.float64)
    means = (a - b - c + d).astype(np.float32) / np.maximum(area, 1)[..., None].astype(
        np.float32
    )  # rows x S x columns x S x 3
    return np.ascontiguousarray(means.transpose(0, 2, 1, 3, 4).reshape(rows, columns, -1), dtype=np.float32)
