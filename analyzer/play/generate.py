"""Random and no-guess layouts written to files: MBF layouts and the ``.mine`` position after the first click.

Each layout draws from its own child of one :class:`numpy.random.SeedSequence` (game
``i`` of seed ``s`` is always the same layout), so the files depend on the seed only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.board.board import Cell
from analyzer.errors import OptionError
from analyzer.limits import whole
from analyzer.play.game import FirstClickRule, Game

__all__ = ["GeneratedLayout", "generate_layouts", "write_layouts"]


@dataclass(frozen=True, slots=True)
class GeneratedLayout:
    """One generated game: the layout (MBF bytes) and, after its first click, the position."""

    index: int
    mbf: bytes
    first_cell: Cell | None
    position: str | None

    def files(self, folder: Path, stem: str) -> list[Path]:
        return [folder / f"{stem}_{self.index:04d}.mbf"] + (
            [folder / f"{stem}_{self.index:04d}.mine"] if self.position is not None else []
        )


def generate_layouts(
    width: int,
    height: int,
    mines: int,
    count: int,
    *,
    first_click: str = "none",
    first_cell: Cell | None = None,
    seed: int = 0,
) -> list[GeneratedLayout]:
    """``count`` random layouts under a first-click rule (``no_guess`` included), each clicked first
    at ``first_cell`` when the rule needs a click (or one is given).

    >>> [g.mbf[:4] for g in generate_layouts(9, 9, 10, 2, seed=1)]
    [b'\\t\\t\\x00\\n', b'\\t\\t\\x00\\n']
    >>> generate_layouts(9, 9, 10, 1, seed=1) == generate_layouts(9, 9, 10, 1, seed=1)
    True
    """
    count = whole(count, "count", minimum=1)
    seed = whole(seed, "seed", minimum=0)
    rule = FirstClickRule.parse(first_click)
    if first_cell is None and rule.name != "none":
        first_cell = (height // 2, width // 2) if rule.name != "safe" else (0, 0)
    made = []
    for index, child in enumerate(np.random.SeedSequence(seed).spawn(count)):
        game = Game.new(width, height, mines, first_click=rule, rng=np.random.default_rng(child))
        position = None
        if first_cell is not None:
            game.reveal(*first_cell)
            position = game.board.to_text()
        made.append(GeneratedLayout(index, game.to_mbf(), first_cell, position))
    return made


def write_layouts(layouts: list[GeneratedLayout], folder: str | os.PathLike[str], stem: str) -> list[Path]:
    """Write each layout's files into ``folder`` (made if missing); returns the paths written."""
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise OptionError(f"output {str(out)!r} is a file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for layout in layouts:
        mbf, *mine = layout.files(out, stem)
        mbf.write_bytes(layout.mbf)
        written.append(mbf)
        if mine and layout.position is not None:
            mine[0].write_text(layout.position)
            written.append(mine[0])
    return written
