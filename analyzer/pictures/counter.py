"""The mine counter of a picture: the red seven-segment digits above the board (Windows XP
and its clones, minesweeper.online), read segment by segment.

The counter is the leftmost group of red digits above the board. Its box is found from the
segments, lit (bright red) and unlit (dark red, drawn by these clients behind the lit ones),
so that a ``1`` is placed as well as an ``8``; the box holds three digits of equal width, and
each digit is read from its seven segments. Anything else (no red above the board, a segment
pattern that is no digit) reads as no counter.
"""

from __future__ import annotations

import numpy as np

from analyzer.pictures.grid import Grid

__all__ = ["read_counter"]

# segments a (top), b (top right), c (bottom right), d (bottom), e (bottom left), f (top left),
# g (middle): where each is sampled, as a share of the digit's width and height
_SEGMENTS = ((0.5, 0.05), (0.88, 0.27), (0.88, 0.73), (0.5, 0.95), (0.12, 0.73), (0.12, 0.27), (0.5, 0.5))
_DIGITS: dict[tuple[int, ...], str] = {
    (1, 1, 1, 1, 1, 1, 0): "0",
    (0, 1, 1, 0, 0, 0, 0): "1",
    (1, 1, 0, 1, 1, 0, 1): "2",
    (1, 1, 1, 1, 0, 0, 1): "3",
    (0, 1, 1, 0, 0, 1, 1): "4",
    (1, 0, 1, 1, 0, 1, 1): "5",
    (1, 0, 1, 1, 1, 1, 1): "6",
    (1, 1, 1, 0, 0, 0, 0): "7",
    (1, 1, 1, 0, 0, 1, 0): "7",  # some clients draw the 7 with its top-left segment
    (1, 1, 1, 1, 1, 1, 1): "8",
    (1, 1, 1, 1, 0, 1, 1): "9",
    (0, 0, 0, 0, 0, 0, 1): "-",
}


def _lit(band: np.ndarray) -> np.ndarray:
    r, g, b = (band[:, :, k].astype(np.int16) for k in range(3))
    return (r >= 180) & (g <= 90) & (b <= 90)


def _segment(band: np.ndarray) -> np.ndarray:
    """Lit or unlit segments: red well above green and blue."""
    r, g, b = (band[:, :, k].astype(np.int16) for k in range(3))
    return (r >= 90) & (r - g >= 60) & (r - b >= 60)


def _groups(present: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """Runs of ``True`` (indices first, last) with holes of at most ``gap`` closed."""
    index = np.nonzero(present)[0]
    if len(index) == 0:
        return []
    breaks = np.nonzero(np.diff(index) > gap)[0]
    starts = np.concatenate(([index[0]], index[breaks + 1]))
    ends = np.concatenate((index[breaks], [index[-1]]))
    return [(int(s), int(e)) for s, e in zip(starts, ends, strict=True)]


def read_counter(image: np.ndarray, grid: Grid) -> int | None:
    """The number the counter above the board shows, or ``None`` where none can be read."""
    top = int(grid.top)
    x0 = max(0, int(grid.left))
    x1 = min(image.shape[1], int(grid.left + grid.columns * grid.cell_width / 2) + 1)
    band = image[max(0, top - int(6 * grid.cell_height)) : top, x0:x1]
    if band.size == 0:
        return None
    segment = _segment(band)
    lit = _lit(band)
    if lit.sum() < 6:
        return None
    gap = max(2, round(grid.cell_width / 4))
    # the counter: the leftmost group of red as tall as about a cell or more, two to three
    # times as wide as high (text or icons in red elsewhere are smaller or another shape)
    for low, high in _groups(np.asarray(segment.any(axis=1)), gap):
        height = high - low + 1
        if not 0.8 * grid.cell_height <= height <= 4 * grid.cell_height:
            continue
        for left, right in _groups(np.asarray(segment[low : high + 1].any(axis=0)), gap):
            width = right - left + 1
            if 1.2 <= width / height <= 3.0:
                return _digits(lit[low : high + 1, left : right + 1])
    return None


def _digits(box: np.ndarray) -> int | None:
    """The three digits in a counter's box, or ``None``."""
    height, width = box.shape
    text = ""
    for k in range(3):
        d0 = k * width / 3
        digit_width = width / 3
        pattern = []
        for fx, fy in _SEGMENTS:
            x = int(d0 + fx * (digit_width - 1) + 0.5)
            y = int(fy * (height - 1) + 0.5)
            patch = box[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2]
            pattern.append(int(patch.mean() >= 0.34))
        if tuple(pattern) not in _DIGITS:
            return None
        text += _DIGITS[tuple(pattern)]
    try:
        return int(text)
    except ValueError:
        return None
