"""A picture of a game read as a :class:`~analyzer.board.Board`: :func:`read_picture`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.board import FLAG, HIDDEN, Board, Cell
from analyzer.errors import AnalyzerError, InconsistentBoardError, PictureError, SolverTimeoutError
from analyzer.pictures.counter import read_counter
from analyzer.pictures.features import cell_features, integral
from analyzer.pictures.grid import FAINT_STEP, Grid, find_grids
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
    """Each cell's look as read: ``hidden``, ``flag``, ``question``, ``0``-``8``, ``mine``,
    ``hit``, ``wrong``."""

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
                f"{cell} as {board.to_text().split(chr(10))[cell[0] + 1][cell[1]]}"
                for cell in self.unsure[:20]
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
    """RMS distance (0-255 levels) of every cell to every tile: ``cells x tiles``.

    The products go through ``einsum``, not BLAS: these matrices are small, and a threaded BLAS
    spends more CPU starting its threads than multiplying."""
    flat = features.reshape(-1, features.shape[-1])
    tiles = skin.vectors
    square = (
        np.einsum("ij,ij->i", flat, flat)[:, None]
        + np.einsum("ij,ij->i", tiles, tiles)[None, :]
        - 2.0 * np.einsum("ij,kj->ik", flat, tiles)
    )
    return np.sqrt(np.maximum(square, 0.0) / flat.shape[1])


def _sample_index(count: int, size: int) -> np.ndarray:
    """At most ``size`` indices spread evenly over ``range(count)``, the ends included."""
    return np.unique(np.rint(np.linspace(0, count - 1, min(count, size))).astype(np.int64))


def _nearest_by_skin(features: np.ndarray, choices: tuple[Skin, ...]) -> np.ndarray:
    """Each cell's distance to the nearest tile of each skin: ``skins x cells``."""
    flat = features.reshape(-1, features.shape[-1])
    return np.stack([_distances(flat, skin).min(axis=1) for skin in choices])


def _shifts(table: np.ndarray, grid: Grid, choices: tuple[Skin, ...]) -> list[tuple[float, Grid]]:
    """For each skin, the grid moved (by up to two pixels each way, in half pixels) to where the
    tiles fit a sample of its cells best, and that fit's mean distance.

    The grid's pitch and place come from the picture's edges (:func:`snap_grid`); the tiles
    only settle the last pixel (a bevel's two edges, or a line's). Across and down are searched
    one after the other (a few dozen trials, on a sample of cells, every skin on the same
    samples)."""
    rows = _sample_index(grid.rows, 10)
    columns = _sample_index(grid.columns, 12)

    def scores(g: Grid) -> np.ndarray:
        features = cell_features(table, *g.as_tuple(), row_index=rows, column_index=columns)
        return np.minimum(_nearest_by_skin(features, choices), 2 * MATCH_LIMIT).mean(axis=1)

    reach = max(2.0, round(max(grid.cell_width, grid.cell_height) / 8))  # big cells: their edges blur further
    bases = [(grid, np.arange(-reach, reach + 0.01, 0.5 if reach <= 2 else 1.0))]
    width, height = round(grid.cell_width), round(grid.cell_height)
    if abs(grid.cell_width - width) <= 0.15 and abs(grid.cell_height - height) <= 0.15:
        # a picture at its native size: whole pixels (the edges' fit is a few hundredths off)
        native = Grid(float(round(grid.left)), float(round(grid.top)), width, height, grid.rows, grid.columns)
        bases.insert(0, (native, np.arange(-reach, reach + 0.01, 1.0)))
    best: list[tuple[float, Grid]] = [(np.inf, grid)] * len(choices)
    for base, steps in bases:
        if min(score for score, _ in best) < MATCH_LIMIT / 8:  # whole pixels fit: no need of halves
            break
        across = np.stack([scores(base.shifted(dx, 0.0)) for dx in steps])  # shifts x skins
        down = np.stack([scores(base.shifted(0.0, dy)) for dy in steps])
        # each skin's best shift across and down, tried together: one trial for each distinct pair
        pairs = [
            (float(steps[int(np.argmin(across[:, k]))]), float(steps[int(np.argmin(down[:, k]))]))
            for k in range(len(choices))
        ]
        tried = {pair: scores(base.shifted(*pair)) for pair in set(pairs)}
        for k, pair in enumerate(pairs):
            score = float(tried[pair][k])
            if score < best[k][0]:
                best[k] = (score, base.shifted(*pair))
    return best


def _edge_fits(table: np.ndarray, grid: Grid, skin: Skin) -> Grid:
    """Whole rows and columns added where they match tiles, and dropped where they do not."""
    height, width = table.shape[0] - 1, table.shape[1] - 1
    for _ in range(4):
        changed = False
        for side in ("left", "right", "top", "bottom"):
            grown = grid.resized(**{side: 1})
            x0, y0 = grown.left, grown.top
            x1, y1 = x0 + grown.columns * grown.cell_width, y0 + grown.rows * grown.cell_height
            slack = 0.15 * max(grown.cell_width, grown.cell_height)  # a board cut at the picture's edge
            if x0 >= -slack and y0 >= -slack and x1 <= width + slack and y1 <= height + slack:
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
        return Grid(
            grid.left + (grid.columns - 1) * grid.cell_width,
            grid.top,
            grid.cell_width,
            grid.cell_height,
            grid.rows,
            1,
        )
    if side == "top":
        return Grid(grid.left, grid.top, grid.cell_width, grid.cell_height, 1, grid.columns)
    return Grid(
        grid.left,
        grid.top + (grid.rows - 1) * grid.cell_height,
        grid.cell_width,
        grid.cell_height,
        1,
        grid.columns,
    )


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
    """The best fit of a skin's tiles to one of the candidate grids: each grid moved to where
    each skin fits best, then the two best (grid, skin) pairs grown or cut to the board's
    edges and every cell read; the one whose cells sit nearest their tiles wins."""
    trials: list[tuple[float, int, int, Grid]] = []
    regions = []
    for i, grid in enumerate(candidates[:3]):
        table, x0, y0 = _region(image, grid)
        regions.append((table, x0, y0))
        for k, (score, g) in enumerate(_shifts(table, grid.shifted(-x0, -y0), choices)):
            trials.append((score, i, k, g))
    trials.sort(key=lambda t: t[0])
    fits: list[_Fit] = []
    for _, i, k, g in trials[:2]:
        if fits and fits[0].score < MATCH_LIMIT / 4:  # the best pair fits closely: no need of the next
            break
        table, x0, y0 = regions[i]
        skin = choices[k]
        g = _edge_fits(table, g, skin)
        fit = _classify(table, g, skin)
        fit.grid = g.shifted(x0, y0)
        fits.append(fit)
    if not fits:
        return None
    best = min(fits, key=lambda f: f.score)
    _refuse_a_second_board(best, trials, regions)
    return best


def _box(grid: Grid) -> tuple[float, float, float, float]:
    return (
        grid.left,
        grid.top,
        grid.left + grid.columns * grid.cell_width,
        grid.top + grid.rows * grid.cell_height,
    )


def _refuse_a_second_board(
    best: _Fit, trials: list[tuple[float, int, int, Grid]], regions: list[tuple[np.ndarray, int, int]]
) -> None:
    """Refuse a picture where another grid, apart from the board read, fits a skin as well."""
    x0, y0, x1, y1 = _box(best.grid)
    for score, i, _, g in trials:
        if score > MATCH_LIMIT / 4:
            break
        _, ox, oy = regions[i]
        other = g.shifted(ox, oy)
        a0, b0, a1, b1 = _box(other)
        apart = a1 <= x0 or a0 >= x1 or b1 <= y0 or b0 >= y1
        if apart and other.rows * other.columns >= 25:
            raise PictureError(
                f"two boards: a {best.grid.columns}x{best.grid.rows} grid at {x0:.0f},{y0:.0f} and a"
                f" {other.columns}x{other.rows} grid at {a0:.0f},{b0:.0f}; crop the picture to one"
            )


def _refuse_a_gap(fit: _Fit) -> None:
    """Refuse two boards read as one grid: whole columns (or rows) that match no tile between
    columns (rows) that match well."""
    g = fit.grid
    matched = fit.best <= MATCH_LIMIT
    for axis, count, name in ((0, g.columns, "columns"), (1, g.rows, "rows")):
        share = matched.mean(axis=axis)
        good = np.nonzero(share >= 0.8)[0]
        if len(good) < 2:
            continue
        inside = share[good[0] : good[-1] + 1]
        gap = np.nonzero(inside <= 0.2)[0]
        if len(gap):
            first = int(good[0] + gap[0])
            before, after = first, count - first
            shape = (
                (f"{before}x{g.rows}", f"{after}x{g.rows}")
                if axis == 0
                else (f"{g.columns}x{before}", f"{g.columns}x{after}")
            )
            raise PictureError(
                f"two boards: a {shape[0]} grid at {g.left:.0f},{g.top:.0f} and about a {shape[1]} one"
                f" beside it ({name} between them match no tile); crop the picture to one"
            )


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
    fit = _best_fit(image, available)
    g = fit.grid
    _refuse_a_gap(fit)
    size = f"a {g.columns}x{g.rows} grid"
    unmatched = int((fit.best > MATCH_LIMIT).sum())
    cells = g.rows * g.columns
    if unmatched > cells // 4:
        raise PictureError(
            f"{size}, {unmatched} cells match no tile I know: a skin I do not know?"
            f" (I know {', '.join(skin_names())})"
        )
    confidence = _confidence(fit.best, fit.other)
    unsure_mask = (fit.best > MATCH_LIMIT) | (fit.best > MARGIN * fit.other)
    kinds = fit.kinds
    values = np.vectorize(_VALUE.__getitem__, otypes=[np.int64])(kinds)
    flat_kinds = kinds.ravel().tolist()
    finished = any(k in ("mine", "hit", "wrong") for k in flat_kinds)
    counter = read_counter(image, g)
    if not finished and "hidden" not in flat_kinds and "question" not in flat_kinds:
        finished = True
        notes.append("the game is won: every safe cell is open")
    if "question" in flat_kinds:
        notes.append("question marks read as hidden cells")
    flags = int((values == FLAG).sum())
    unsure_count = int(unsure_mask.sum())
    total, total_source = _mine_total(fit, flat_kinds, flags, counter, mines, unsure_count, finished, notes)
    unsure = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(unsure_mask), strict=True))
    looks = [int(v) for v in values.ravel()]
    return PictureReading(
        board=_board(fit, int(total), looks, unsure, confidence, notes),
        unsure=unsure,
        confidence=tuple(tuple(round(float(v), 3) for v in row) for row in confidence),
        skin=fit.skin.name,
        grid=(
            round(float(g.left), 2),
            round(float(g.top), 2),
            round(float(g.cell_width), 3),
            round(float(g.cell_height), 3),
            g.rows,
            g.columns,
        ),
        total_source=total_source,
        finished=finished,
        notes=tuple(notes),
        kinds=tuple(tuple(str(k) for k in row) for row in kinds),
    )


def _best_fit(image: np.ndarray, available: tuple[Skin, ...]) -> _Fit:
    """The grid and skin that fit the picture best (the tiles of the lines' grid if none fits)."""
    candidates = find_grids(image)
    fit = _fit(image, candidates, available) if candidates else None
    if fit is None or fit.score > MATCH_LIMIT:
        # no lines: a board drawn as a checkerboard of close shades (Google's). Only the skins
        # that draw so (``"faint": true`` in skin.json) are tried: any blurred board has faint
        # edges, and its blurred cells look like plain tiles of other skins
        faint_skins = tuple(s for s in available if s.faint)
        faint = find_grids(image, step=FAINT_STEP) if faint_skins else []
        faint_fit = _fit(image, faint, faint_skins) if faint else None
        if faint_fit is not None and (fit is None or faint_fit.score < fit.score):
            fit = faint_fit
    if fit is None:
        raise PictureError("no board found: no grid of at least 5x5 cells of 8 px or more")
    if fit.score > MATCH_LIMIT and candidates:
        # no skin fits: say what the picture's lines show (the tiles chose nothing)
        found = candidates[0]
        table, x0, y0 = _region(image, found)
        fit = _classify(table, found.shifted(-x0, -y0), fit.skin)
        fit.grid = found
    return fit


def _mine_total(
    fit: _Fit,
    flat_kinds: list[str],
    flags: int,
    counter: int | None,
    mines: int | None,
    unsure: int,
    finished: bool,
    notes: list[str],
) -> tuple[int, str]:
    """The mine total and where it comes from: the shown mines of a finished game, the option,
    the counter and the flags, or the skin's preset of the size (a note for each in ``notes``)."""
    g = fit.grid
    shown = sum(flat_kinds.count(k) for k in ("mine", "hit"))
    wrong = flat_kinds.count("wrong")
    if finished:
        notes.append(
            "the game is over: read as the position before the last click (mines shown hidden,"
            " the mine hit hidden, wrong flags flags)"
        )
        return shown + flags - wrong, "shown mines"
    if mines is not None:
        if counter is not None and counter + flags != mines:
            notes.append(
                f"the counter reads {counter}: with {flags} flags a total of {counter + flags}, not {mines}"
            )
        return mines, "option"
    if counter is not None:
        total = counter + flags
        notes.append(f"mine total {total}: the counter's {counter} and {flags} flags")
        if unsure:
            notes.append(
                f"the total counts the flags read surely: if some of the {unsure} unsure"
                " cells are flags, add them to it"
            )
        return total, "counter"
    preset = [p for p in fit.skin.presets if (p[0], p[1]) in ((g.columns, g.rows), (g.rows, g.columns))]
    if not preset:
        raise PictureError(
            f"a {g.columns}x{g.rows} grid of {fit.skin.name}: no mine counter read and no preset of that"
            " size; give the total (mines=N, --mines N)"
        )
    notes.append(f"mine total {preset[0][2]}: the {fit.skin.name} preset for {g.columns}x{g.rows}")
    return preset[0][2], "preset"


def _board(
    fit: _Fit,
    total: int,
    looks: list[int],
    unsure: tuple[Cell, ...],
    confidence: np.ndarray,
    notes: list[str],
) -> Board:
    """The board read, its clues checked; unsure cells whose guesses have no layout left hidden."""
    g = fit.grid
    size = f"a {g.columns}x{g.rows} grid"
    try:
        return _checked(Board, g.columns, g.rows, total, looks, confidence, size)
    except PictureError as error:
        guessed = [(r, c) for r, c in unsure if fit.kinds[r, c] != "hidden"]
        if not guessed:
            raise PictureError(f"{error} ({fit.skin.name})") from None
    # the unsure cells' best guesses conflict: they are left hidden for the person to set
    for r, c in guessed:
        looks[r * g.columns + c] = HIDDEN
    board = _checked(Board, g.columns, g.rows, total, looks, confidence, size)
    notes.append(f"{len(guessed)} unsure cells left hidden: their best guesses have no mine layout")
    return board


def _checked(
    make: type[Board],
    columns: int,
    rows: int,
    total: int,
    cells: list[int],
    confidence: np.ndarray,
    size: str,
) -> Board:
    """The board of these cells, refused (one line) if it cannot be one or its clues have no layout."""
    try:
        board = make(columns, rows, total, tuple(cells))
    except AnalyzerError as error:
        raise PictureError(f"{size} read, but {error}") from None
    _check(board, confidence, size)
    return board


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
