"""Skins: how each client draws its cells, as data.

A skin is a folder ``analyzer/pictures/skins/<client>/`` holding ``skin.json`` and one PNG
tile a cell look, named ``<kind>.png`` (or ``<kind>.<n>.png`` for a second look of the same
kind). Kinds: ``hidden``, ``flag``, ``question``, ``0``-``8``, and on finished games ``mine``
(a mine shown), ``hit`` (the mine that was clicked), ``wrong`` (a crossed-out wrong flag).
``skin.json``::

    {"title": "Windows XP classic", "presets": [[9, 9, 10], [16, 16, 40], [30, 16, 99]],
     "source": "cut from tests/pictures/real/xp/... by scripts/make_skin.py"}

``"faint": true`` marks a client that draws its board without lines, as a checkerboard of
close shades (Google's): its grid is looked for in faint edges too. ``presets`` lists the
client's board sizes (columns, rows, mines) for the mine total when the picture shows no
counter. See ``docs/guide/pictures.md`` for adding one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from analyzer.pictures.features import cell_features, integral

__all__ = ["Skin", "KINDS", "skins", "skin_names"]

KINDS = ("hidden", "flag", "question", "0", "1", "2", "3", "4", "5", "6", "7", "8", "mine", "hit", "wrong")
"""Every cell look a skin may have a tile for."""


@dataclass(frozen=True)
class Skin:
    """One client's tiles as feature vectors."""

    name: str
    title: str
    kinds: tuple[str, ...]
    """The kind of each tile, in the order of ``vectors``."""
    vectors: np.ndarray
    """``tiles x features`` float32."""
    sizes: tuple[tuple[int, int], ...]
    """Each tile's native width and height."""
    presets: tuple[tuple[int, int, int], ...]
    faint: bool = False
    """The client draws its board without lines, as a checkerboard of close shades."""


def _load(name: str) -> Skin:
    from PIL import Image

    folder = resources.files("analyzer.pictures") / "skins" / name
    meta = json.loads((folder / "skin.json").read_text(encoding="utf-8"))
    kinds: list[str] = []
    vectors: list[np.ndarray] = []
    sizes: list[tuple[int, int]] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".png"):
            continue
        kind = entry.name[: -len(".png")].split(".")[0]
        if kind not in KINDS:
            continue
        with entry.open("rb") as f:
            tile = np.asarray(Image.open(f).convert("RGB"))
        h, w = tile.shape[:2]
        vectors.append(cell_features(integral(tile), 0, 0, w, h, 1, 1)[0, 0])
        kinds.append(kind)
        sizes.append((w, h))
    return Skin(
        name=name,
        title=str(meta.get("title", name)),
        kinds=tuple(kinds),
        vectors=np.stack(vectors) if vectors else np.zeros((0, 1), np.float32),
        sizes=tuple(sizes),
        presets=tuple(tuple(p) for p in meta.get("presets", ())),  # type: ignore[misc]
        faint=bool(meta.get("faint", False)),
    )


def skin_names() -> tuple[str, ...]:
    """The clients whose skins are bundled."""
    folder = resources.files("analyzer.pictures") / "skins"
    return tuple(sorted(e.name for e in folder.iterdir() if e.is_dir() and (e / "skin.json").is_file()))


@lru_cache(maxsize=1)
def skins() -> tuple[Skin, ...]:
    """Every bundled skin, loaded once."""
    return tuple(s for s in (_load(n) for n in skin_names()) if s.kinds)
