"""Cells as short vectors: each cell's picture averaged onto a small square of samples.

The same function turns a skin's tiles and a picture's cells into vectors, so a tile at 16 px
compares with the same tile drawn at 20 px, 24 px or 32 px (display scales), or 27 px.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SAMPLES", "cell_features", "integral"]

SAMPLES = 12
"""Samples across (and down) a cell."""
_INSET = 0.04
"""The share of a cell's side left out at each edge (its neighbours bleed in when a picture is scaled)."""


def integral(image: np.ndarray) -> np.ndarray:
    """The summed-area table of an ``H x W x 3`` picture: ``(H+1) x (W+1) x 3`` float64."""
    table = np.zeros((image.shape[0] + 1, image.shape[1] + 1, image.shape[2]), np.float64)
    np.cumsum(np.cumsum(image, axis=0, dtype=np.float64), axis=1, out=table[1:, 1:])
    return table


def _edges(start: float, pitch: float, count: int, limit: int) -> np.ndarray:
    """Sample boundaries of ``count`` cells along one axis: ``count x (SAMPLES+1)`` ints."""
    inset = _INSET * pitch
    span = (pitch - 2 * inset) / SAMPLES
    base = start + np.arange(count)[:, None] * pitch + inset
    edges = np.rint(base + np.arange(SAMPLES + 1)[None, :] * span).astype(np.int64)
    edges = np.clip(edges, 0, limit)
    # a bin at least a pixel wide (cells under SAMPLES pixels are sampled, not averaged)
    edges[:, 1:] = np.maximum(edges[:, 1:], edges[:, :-1] + 1)
    return np.clip(edges, 0, limit)


def cell_features(
    table: np.ndarray, left: float, top: float, cell_width: float, cell_height: float, rows: int, columns: int
) -> np.ndarray:
    """Every cell's samples, ``rows x columns x (SAMPLES*SAMPLES*3)`` float32 (0-255)."""
    height, width = table.shape[0] - 1, table.shape[1] - 1
    xs = _edges(left, cell_width, columns, width)
    ys = _edges(top, cell_height, rows, height)
    x0, x1 = xs[:, :-1], xs[:, 1:]  # columns x S
    y0, y1 = ys[:, :-1], ys[:, 1:]
    a = table[y1[:, :, None, None], x1[None, None, :, :]]
    b = table[y0[:, :, None, None], x1[None, None, :, :]]
    c = table[y1[:, :, None, None], x0[None, None, :, :]]
    d = table[y0[:, :, None, None], x0[None, None, :, :]]
    area = ((y1 - y0)[:, :, None, None] * (x1 - x0)[None, None, :, :]).astype(np.float64)
    means = (a - b - c + d) / np.maximum(area, 1)[..., None]  # rows x S x columns x S x 3
    return np.ascontiguousarray(means.transpose(0, 2, 1, 3, 4).reshape(rows, columns, -1), dtype=np.float32)
