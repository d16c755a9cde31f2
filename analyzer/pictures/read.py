"""A picture of a game read as a :class:`~analyzer.board.Board`: :func:`read_picture`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.board import FLAG, HIDDEN, Board
from analyzer.errors import AnalyzerError, InconsistentBoardError, PictureError, SolverTimeoutError
from analyzer.pictures.features import cell_features, integral
from analyzer.pictures.grid import Grid, find_grids
from analyzer.pictures.load import load_picture
from analyzer.pictures.skins import Skin, skins

__all__ = ["PictureReading", "read_picture", "MATCH_LIMIT", "MARGIN"]

MATCH_LIMIT = 20.0
"""A cell whose nearest tile is further than this (RMS levels, 0-255) matches no tile."""
MARGIN = 0.72
"""A cell is unsure when its best tile is not clearly nearer than the best tile of another
kind: best distance over the other kind's distance above this ratio."""
_VALUE = {str(n): n for n in range(9)} | {
    "hidden": HIDDEN,
    "question": HIDDEN,
    "flag": FLAG,
    "mine": HIDDEN,
    "hit": HIDDEN,
    "wrong": FLAG,
}
_CHAR = {str(n): str(n) for n in range(9)} | {
    "hidden": "H",
    "question": "?",
    "flag": "F",
    "mine": "*",
    "hit": "X",
    "wrong": "W",
}
_CHECK_SECONDS = 5.0


@dataclass(frozen=True)
class PictureReading:
    """What :func:`read_picture` read: the board, how sure each cell is, and from what.

    ``unsure`` cells hold the board's best guess; a person should check them (``describe()``
    marks them). ``grid`` is ``(left, top, cell width, cell height, rows, columns)`` in the
    picture's pixels (floats: a scaled picture's cells need not be whole pixels).
    """

    board: Board
    unsure: tuple[tuple[int, int], ...]
    confidence: tuple[tuple[float, ...], ...]
    skin: str
    grid: tuple[float, float, float, float, int, int]
    total_source: str
    finished: bool
    notes: tuple[str, ...]
    kinds: tuple[tuple[str, ...], ...] = ()
    """Each cell's look as read: ``hidden``, ``flag``, ``question``, ``0``-``8``, ``mine``, ``hit``, ``wrong``."""

    def to_text(self) -> str:
        """The board read, as ``.mine`` text (unsure cells hold their best guess)."""
        return self.board.to_text()

    def describe(self) -> str:
        """The board read, for a person to check: a summary line, the grid with unsure cells as
        ``?`` (and the looks a ``.mine`` board has no letter for: ``*`` a mine shown, ``X`` the
        mine hit, ``W`` a wrong flag), the unsure cells with their best guess, and the notes."""
        left, top, width, height, rows, columns = self.grid
        board = self.board
        lines = [
            f"read a {columns}x{rows} board ({self.skin}; cells {width:.4g}x{height:.4g} px at"
            f" {left:.0f},{top:.0f}), {board.mines} mines ({self.total_source})"
            + (", a finished game" if self.finished else "")
        ]
        unsure = set(self.unsure)
        for r in range(rows):
            row = []
            for c in range(columns):
                if (r, c) in unsure:
                    row.append("?")
                elif self.kinds:
                    row.append(_CHAR[self.kinds[r][c]] if self.kinds[r][c] != "question" else "H")
                else:
                    row.append(board.to_text().split("\n")[r + 1][c])
            lines.append("".join(row))
        if self.unsure:
            guesses = ", ".join(
                f"{cell} as {board.to_text().split(chr(10))[cell[0] + 1][cell[1]]}" for cell in self.unsure[:20]
            )
            more = f" and {len(self.unsure) - 20} more" if len(self.unsure) > 20 else ""
            lines.append(f"{len(self.unsure)} unsure cells (?), read {guesses}{more}: check them")
        lines.extend(self.notes)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()


@dataclass
class _Fit:
    skin: Skin
    grid: Grid
    kinds: np.ndarray  # rows x columns of kind names
    best: np.ndarray  # rows x columns: distance to the nearest tile
    other: np.ndarray  # distance to the nearest tile of another kind
    score: float


def _distances(features: np.ndarray, skin: Skin) -> np.ndarray:
    """RMS distance (0-255 levels) of every cell to every tile: ``cells x tiles``."""
    flat = features.reshape(-1, features.shape[-1])
    tiles = skin.vectors
    square = (
        (flat * flat).sum(axis=1)[:, None] + (tiles * tiles).sum(axis=1)[None, :] - 2.0 * flat @ tiles.T
    )
    return np.sqrt(np.maximum(square, 0.0) / flat.shape[1])


def _score(table: np.ndarray, grid: Grid, skin: Skin, sample: np.ndarray | None = None) -> float:
    """Mean distance of the cells (or a sample of them) to their nearest tiles, capped."""
    features = cell_features(table, *grid.as_tuple())
    flat = features.reshape(-1, features.shape[-1])
    if sample is not None:
        flat = flat[sample]
    nearest = _distances(flat, skin).min(axis=1)
    return float(np.minimum(nearest, 2 * MATCH_LIMIT).mean())


def _sample(grid: Grid, size: int = 96) -> np.ndarray | None:
    cells = grid.rows * grid.columns
    if cells <= size:
        return None
    return np.unique(np.linspace(0, cells - 1, size).astype(np.int64))


def _refine(table: np.ndarray, grid: Grid, skin: Skin) -> Grid:
    """The grid moved and stretched (by fractions of a pixel) to where the tiles fit best."""
    sample = _sample(grid)
    best = (_score(table, grid, skin, sample), grid)
    # the pitch, then the place, across and down, twice: each step keeps the best
    for _ in range(2):
        g = best[1]
        for pitch in np.arange(-0.5, 0.51, 0.05):
            for axis in (0, 1):
                if axis == 0:
                    span = g.cell_width * g.columns
                    trial = Grid(g.left - pitch * g.columns / 2, g.top, g.cell_width + pitch, g.cell_height, g.rows, g.columns)
                else:
                    span = g.cell_height * g.rows
                    trial = Grid(g.left, g.top - pitch * g.rows / 2, g.cell_width, g.cell_height + pitch, g.rows, g.columns)
                del span
                s = _score(table, trial, skin, sample)
                if s < best[0]:
                    best = (s, trial)
        g = best[1]
        for dx in np.arange(-3, 3.01, 0.5):
            for dy in np.arange(-3, 3.01, 0.5):
                trial = g.shifted(dx, dy)
                s = _score(table, trial, skin, sample)
                if s < best[0]:
                    best = (s, trial)
    return best[1]


def _edge_fits(table: np.ndarray, grid: Grid, skin: Skin) -> Grid:
    """Whole rows and columns added where they match tiles, and dropped where they do not."""
    height, width = table.shape[0] - 1, table.shape[1] - 1
    for _ in range(4):
        changed = False
        for side in ("left", "right", "top", "bottom"):
            grown = grid.resized(**{side: 1})
            x0, y0 = grown.left, grown.top
            x1, y1 = x0 + grown.columns * grown.cell_width, y0 + grown.rows * grown.cell_height
            if x0 >= -1 and y0 >= -1 and x1 <= width + 1 and y1 <= height + 1:
                strip = _strip(grown, side)
                if _line_matches(table, strip, skin):
                    grid, changed = grown, True
                    continue
            if (grid.columns if side in ("left", "right") else grid.rows) > 5:
                strip = _strip(grid, side)
                if not _line_matches(table, strip, skin, loose=True):
                    grid, changed = grid.resized(**{side: -1}), True
        if not changed:
            break
    return grid


def _strip(grid: Grid, side: str) -> Grid:
    if side == "left":
        return Grid(grid.left, grid.top, grid.cell_width, grid.cell_height, grid.rows, 1)
    if side == "right":
        return Grid(grid.left + (grid.columns - 1) * grid.cell_width, grid.top, grid.cell_width, grid.cell_height, grid.rows, 1)
    if side == "top":
        return Grid(grid.left, grid.top, grid.cell_width, grid.cell_height, 1, grid.columns)
    return Grid(grid.left, grid.top + (grid.rows - 1) * grid.cell_height, grid.cell_width, grid.cell_height, 1, grid.columns)


def _line_matches(table: np.ndarray, strip: Grid, skin: Skin, loose: bool = False) -> bool:
    features = cell_features(table, *strip.as_tuple())
    nearest = _distances(features, skin).min(axis=1)
    if loose:  # a line of the board: a third of its cells match
        return bool((nearest <= MATCH_LIMIT).mean() >= 0.3)
    # a line to add: most of its cells on their tiles (a plain panel beside the board is near
    # a plain tile, but not on it)
    return bool(np.median(nearest) <= 0.6 * MATCH_LIMIT and (nearest <= MATCH_LIMIT).mean() >= 0.8)


def _classify(table: np.ndarray, grid: Grid, skin: Skin) -> _Fit:
    features = cell_features(table, *grid.as_tuple())
    distance = _distances(features, skin)
    kinds = np.array(skin.kinds)
    order = np.argmin(distance, axis=1)
    best = distance[np.arange(len(order)), order]
    best_kind = kinds[order]
    other_mask = kinds[None, :] != best_kind[:, None]
    other = np.where(other_mask, distance, np.inf).min(axis=1)
    shape = (grid.rows, grid.columns)
    return _Fit(
        skin,
        grid,
        best_kind.reshape(shape),
        best.reshape(shape),
        other.reshape(shape),
        float(np.minimum(best, 2 * MATCH_LIMIT).mean()),
    )


def _region(image: np.ndarray, grid: Grid) -> tuple[np.ndarray, int, int]:
    """The summed-area table of the grid's box and a margin of two cells, and its origin."""
    h, w = image.shape[:2]
    mx, my = 2 * grid.cell_width + 4, 2 * grid.cell_height + 4
    x0 = max(0, int(grid.left - mx))
    y0 = max(0, int(grid.top - my))
    x1 = min(w, int(grid.left + grid.columns * grid.cell_width + mx) + 1)
    y1 = min(h, int(grid.top + grid.rows * grid.cell_height + my) + 1)
    return integral(image[y0:y1, x0:x1]), x0, y0


def _fit(image: np.ndarray, candidates: list[Grid], choices: tuple[Skin, ...]) -> _Fit | None:
    fits = []
    for grid in candidates[:3]:
        table, x0, y0 = _region(image, grid)
        local = grid.shifted(-x0, -y0)
        for skin in choices:
            g = _refine(table, local, skin)
            g = _edge_fits(table, g, skin)
            g = _refine(table, g, skin)
            fit = _classify(table, g, skin)
            fit.grid = g.shifted(x0, y0)
            fits.append(fit)
    if not fits:
        return None
    return min(fits, key=lambda f: f.score)


def _confidence(best: np.ndarray, other: np.ndarray) -> np.ndarray:
    """0..1: 1 for a cell on its tile and far from every other kind's, 0 past the limits."""
    ratio = np.clip(1.0 - (best / np.maximum(other, 1e-9)) / MARGIN, 0.0, 1.0)
    closeness = np.clip(1.0 - best / MATCH_LIMIT, 0.0, 1.0)
    return np.minimum(1.0, 2.0 * np.sqrt(ratio * closeness))


def read_picture(source: Any, *, mines: int | None = None, skin: str | None = None) -> PictureReading:
    """Read a screenshot (or any picture) of a Minesweeper game as a board.

    Parameters
    ----------
    source : str, os.PathLike, bytes, PIL.Image.Image or numpy.ndarray
        The picture: a file's path, its bytes, a Pillow image, or an ``H x W x 3`` (or 4)
        ``uint8`` array.
    mines : int, optional
        The mine total, where the picture shows no counter (else the client's preset by size).
    skin : str, optional
        The client (a name of :func:`analyzer.pictures.skin_names`); by default every skin is
        tried and the one that fits best is kept.

    Returns
    -------
    PictureReading
        The board, the unsure cells, each cell's confidence, the skin and grid found.

    Raises
    ------
    PictureError
        One line: not an image, no board found, cells no tile matches, clues with no layout.
    """
    from analyzer.pictures.skins import skin_names

    image, load_notes = load_picture(source)
    notes = list(load_notes)
    available = skins()
    if skin is not None:
        if skin not in skin_names():
            raise PictureError(f"unknown skin {skin!r}; known: {', '.join(skin_names())}")
        available = tuple(s for s in available if s.name == skin)
    candidates = find_grids(image)
    if not candidates:
        raise PictureError("no board found: no grid of at least 5x5 cells of 8 px or more")
    fit = _fit(image, candidates, available)
    if fit is None:  # pragma: no cover - no skins installed
        raise PictureError("no skins are installed")
    g = fit.grid
    size = f"a {g.columns}x{g.rows} grid"
    unmatched = int((fit.best > MATCH_LIMIT).sum())
    cells = g.rows * g.columns
    if unmatched > cells // 2:
        raise PictureError(f"{size}, {unmatched} cells match no tile I know (a skin I do not know?)")
    confidence = _confidence(fit.best, fit.other)
    unsure_mask = (fit.best > MATCH_LIMIT) | (fit.best > MARGIN * fit.other)
    kinds = fit.kinds
    values = np.vectorize(_VALUE.__getitem__, otypes=[np.int64])(kinds)
    flat_kinds = kinds.ravel().tolist()
    finished = any(k in ("mine", "hit", "wrong") for k in flat_kinds)
    if "question" in flat_kinds:
        notes.append("question marks read as hidden cells")
    shown = sum(flat_kinds.count(k) for k in ("mine", "hit"))
    flags = int((values == FLAG).sum())
    wrong = flat_kinds.count("wrong")
    if finished:
        total, total_source = shown + flags - wrong, "shown mines"
        notes.append(
            "the game is over: read as the position before the last click (mines shown hidden,"
            " the mine hit hidden, wrong flags flags)"
        )
    elif mines is not None:
        total, total_source = mines, "option"
    else:
        preset = [p for p in fit.skin.presets if (p[0], p[1]) in ((g.columns, g.rows), (g.rows, g.columns))]
        if not preset:
            raise PictureError(
                f"{size} of {fit.skin.name}: no mine counter read and no preset of that size; give the total"
                " (mines=N, --mines N)"
            )
        total, total_source = preset[0][2], "preset"
        notes.append(f"mine total {total}: the {fit.skin.name} preset for {g.columns}x{g.rows}")
    try:
        board = Board(g.columns, g.rows, int(total), tuple(int(v) for v in values.ravel()))
    except AnalyzerError as error:
        raise PictureError(f"{size} of {fit.skin.name} read, but {error}") from None
    unsure = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(unsure_mask)))
    _check(board, confidence, size)
    return PictureReading(
        board=board,
        unsure=unsure,
        confidence=tuple(tuple(round(float(v), 3) for v in row) for row in confidence),
        skin=fit.skin.name,
        grid=(round(g.left, 2), round(g.top, 2), round(g.cell_width, 3), round(g.cell_height, 3), g.rows, g.columns),
        total_source=total_source,
        finished=finished,
        notes=tuple(notes),
        kinds=tuple(tuple(str(k) for k in row) for row in kinds),
    )


def _check(board: Board, confidence: np.ndarray, size: str) -> None:
    """Refuse a board whose clues have no mine layout, naming them and the least sure cells."""
    from analyzer.solver.certain import certain_cells

    try:
        certain_cells(board, time_limit=_CHECK_SECONDS)
    except InconsistentBoardError as error:
        order = np.argsort(confidence, axis=None)[:5]
        least = ", ".join(str(divmod(int(i), board.width)) for i in order)
        clues = ", ".join(str(c) for c in error.clues) or "none: the mine total"
        raise PictureError(
            f"{size} read, but no mine layout fits it: clues in conflict {clues}; least sure cells {least}"
        ) from None
    except SolverTimeoutError:
        pass
