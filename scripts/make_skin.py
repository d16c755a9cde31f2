"""Cut a client's skin (its tiles) out of transcribed screenshots.

    python scripts/make_skin.py CLIENT PICTURE [PICTURE ...] [--title TEXT]
        [--presets 9x9x10,16x16x40,30x16x99]

Each PICTURE is an image in ``tests/pictures/real/<client>/`` with its ``.mine`` transcription
and its ``.json`` grid box beside it (see ``tests/pictures/real/README.md``). Every cell of
every picture is cut out at the grid's cell size; cells listed ``unsure`` are left out. The
cells of one kind (hidden, flag, 0-8, ...; the ``cells`` codes of the ``.json`` give mines
shown ``M``, the mine hit ``X``, wrong flags ``W``, question marks ``?``) are grouped by look
(cells within a few levels of each other) and each group's per-pixel median becomes a tile,
``<kind>.png``, ``<kind>.2.png``, ... in ``analyzer/pictures/skins/<client>/``, with
``skin.json`` saying where they came from. Run again to remake a skin from scratch.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.pictures.features import cell_features, integral  # noqa: E402

_CODES = {"M": "mine", "X": "hit", "W": "wrong", "?": "question", "H": "hidden", "F": "flag"}
_SAME_LOOK = 14.0  # RMS levels (0-255) within which two cells are one look
_MAX_LOOKS = 8


def _cells(picture: Path) -> tuple[np.ndarray, dict, list[str]]:
    meta = json.loads(picture.with_suffix(".json").read_text())
    rows = picture.with_suffix(".mine").read_text().split()[1:]
    codes = meta.get("cells") or rows
    image = np.asarray(Image.open(picture).convert("RGB"))
    return image, meta, codes


def cut(pictures: list[Path]) -> dict[tuple[str, int, int], list[np.ndarray]]:
    """Every cell, by (kind, cell width, cell height)."""
    found: dict[tuple[str, int, int], list[np.ndarray]] = {}
    for picture in pictures:
        image, meta, codes = _cells(picture)
        grid = meta["grid"]
        w, h = grid["cell_width"], grid["cell_height"]
        size = (round(w), round(h))  # a scaled picture's cells need not be whole pixels: cut, then resize
        unsure = {tuple(c) for c in meta.get("unsure", [])}
        for r in range(grid["rows"]):
            for c in range(grid["columns"]):
                if (r, c) in unsure:
                    continue
                code = codes[r][c]
                kind = _CODES.get(code, code)
                x0, y0 = round(grid["left"] + c * w), round(grid["top"] + r * h)
                x1, y1 = round(grid["left"] + (c + 1) * w), round(grid["top"] + (r + 1) * h)
                cell = image[y0:y1, x0:x1]
                if cell.shape[:2] != (size[1], size[0]):
                    cell = np.asarray(Image.fromarray(cell).resize(size, Image.Resampling.BILINEAR))
                found.setdefault((kind, *size), []).append(cell)
    return found


def looks(tiles: list[np.ndarray]) -> list[np.ndarray]:
    """The tiles of one kind grouped by look, each group's median, the commonest first."""
    h, w = tiles[0].shape[:2]
    vectors = [cell_features(integral(t), 0, 0, w, h, 1, 1)[0, 0] for t in tiles]
    groups: list[list[int]] = []
    centres: list[np.ndarray] = []
    for i, v in enumerate(vectors):
        for g, centre in enumerate(centres):
            if np.sqrt(np.mean((v - centre) ** 2)) < _SAME_LOOK:
                groups[g].append(i)
                break
        else:
            groups.append([i])
            centres.append(v)
    groups.sort(key=len, reverse=True)
    keep = [g for g in groups if len(g) >= 2] or groups[:1]
    return [np.median(np.stack([tiles[i] for i in g]), axis=0).astype(np.uint8) for g in keep[:_MAX_LOOKS]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("client")
    parser.add_argument("pictures", nargs="+", type=Path)
    parser.add_argument("--title", default=None)
    parser.add_argument("--presets", default="9x9x10,16x16x40,30x16x99")
    parser.add_argument(
        "--faint",
        action="store_true",
        help="the client draws no lines between cells (a checkerboard of close shades)",
    )
    args = parser.parse_args(argv)
    folder = ROOT / "analyzer" / "pictures" / "skins" / args.client
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    found = cut(args.pictures)
    sizes = sorted(
        {(w, h) for _, w, h in found}, key=lambda s: -sum(len(v) for k, v in found.items() if k[1:] == s)
    )
    written = []
    for (kind, w, h), tiles in sorted(found.items()):
        size_tag = "" if (w, h) == sizes[0] else f".{w}x{h}"
        for n, tile in enumerate(looks(tiles)):
            name = f"{kind}{size_tag}{'' if n == 0 else f'.{n + 1}'}.png"
            Image.fromarray(tile).save(folder / name, optimize=True)
            written.append(name)
    presets = [[int(x) for x in p.split("x")] for p in args.presets.split(",") if p]
    meta = {
        "title": args.title or args.client,
        "presets": presets,
        "learned_from": [str(p.relative_to(ROOT)) if p.is_absolute() else str(p) for p in args.pictures],
        "made_by": "scripts/make_skin.py",
    }
    if args.faint:
        meta["faint"] = True
    (folder / "skin.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"{args.client}: {len(written)} tiles: {' '.join(written)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
