"""Rendered pictures for the sizes, display scales and encodings no real screenshot covers.

    python tests/pictures/rendered/make_rendered.py

Each picture is a board drawn from a skin's own tiles (``analyzer/pictures/skins/<skin>/``,
cut from real screenshots), scaled as a display scale would (nearest neighbour at 200 %,
bilinear at 125 % and 150 %), optionally saved as JPEG, and set on a busier screen. Beside it,
as for the real pictures (tests/pictures/real/README.md): ``<name>.mine`` (the board) and
``<name>.json`` (its grid in the picture's pixels, the total, the skin). The boards are random
with a fixed seed: mines placed, most safe cells opened, some mines flagged.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
SKINS = HERE.parent.parent.parent / "analyzer" / "pictures" / "skins"

# name: skin, columns, rows, mines, scale, (screen width, height) or None, JPEG quality or None
PICTURES = {
    "xp_5x5": ("xp", 5, 5, 3, 1.0, None, None),
    "xp_100x100": ("xp", 100, 100, 1500, 1.0, None, None),
    "xp_expert_screen_1920": ("xp", 30, 16, 99, 1.0, (1920, 1080), None),
    "xp_expert_125": ("xp", 30, 16, 99, 1.25, (1920, 1080), None),
    "xp_expert_150": ("xp", 30, 16, 99, 1.5, None, None),
    "xp_intermediate_200": ("xp", 16, 16, 40, 2.0, None, None),
    "xp_expert_jpeg75": ("xp", 30, 16, 99, 1.0, None, 75),
    "jsminesweeper_9x9_150": ("jsminesweeper", 9, 9, 10, 1.5, None, None),
    "metasweeper_50x40": ("metasweeper", 50, 40, 300, 1.0, None, None),
    "online_expert_jpeg75_125": ("online", 30, 16, 99, 1.25, None, 75),
}


def tiles(skin: str) -> dict[str, np.ndarray]:
    """The first look of each kind (``<kind>.png``) of a skin."""
    out = {}
    for path in sorted((SKINS / skin).glob("*.png")):
        if path.stem.count(".") == 0:
            out[path.stem] = np.asarray(Image.open(path).convert("RGB"))
    return out


def board(columns: int, rows: int, mines: int, have: set[str], seed: int) -> list[list[str]]:
    """A random position: each cell's kind (``hidden``, ``flag`` or a number shown)."""
    rng = np.random.default_rng(seed)
    mine = np.zeros(rows * columns, bool)
    mine[rng.choice(rows * columns, mines, replace=False)] = True
    mine = mine.reshape(rows, columns)
    padded = np.pad(mine, 1).astype(int)
    counts = sum(
        padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + columns] for dr in (-1, 0, 1) for dc in (-1, 0, 1)
    )
    counts -= mine
    cells = []
    for r in range(rows):
        row = []
        for c in range(columns):
            if mine[r, c]:
                row.append("flag" if rng.random() < 0.5 and "flag" in have else "hidden")
            elif rng.random() < 0.7 and str(counts[r, c]) in have:
                row.append(str(counts[r, c]))
            else:
                row.append("hidden")
        cells.append(row)
    return cells


def render(name: str, spec: tuple, seed: int) -> None:
    skin, columns, rows, mines, scale, screen, quality = spec
    looks = tiles(skin)
    cells = board(columns, rows, mines, set(looks), seed)
    h, w = next(iter(looks.values())).shape[:2]
    margin = 12
    picture = np.full((rows * h + 2 * margin, columns * w + 2 * margin, 3), 192, np.uint8)
    for r, row in enumerate(cells):
        for c, kind in enumerate(row):
            picture[margin + r * h : margin + (r + 1) * h, margin + c * w : margin + (c + 1) * w] = looks[
                kind
            ]
    image = Image.fromarray(picture)
    if scale != 1.0:
        size = (round(image.width * scale), round(image.height * scale))
        image = image.resize(size, Image.Resampling.NEAREST if scale == 2.0 else Image.Resampling.BILINEAR)
    left = top = margin * scale
    if screen is not None:  # a desktop around it: a gradient, windows, text
        canvas = Image.new("RGB", screen, (40, 90, 150))
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((0, screen[1] - 40, screen[0], screen[1]), fill=(30, 30, 30))
        draw.rectangle((1100, 80, 1800, 700), fill=(250, 250, 250), outline=(0, 0, 0))
        for k in range(25):
            draw.text((1120, 100 + 22 * k), f"line {k} of some text beside the game " * 2, fill=(0, 0, 0))
        canvas.paste(image, (200, 150))
        image, left, top = canvas, left + 200, top + 150
    suffix = ".jpg" if quality else ".png"
    path = HERE / f"{name}{suffix}"
    if quality:
        image.save(path, quality=quality)
    else:
        image.save(path, optimize=True)
    text = [f"{columns}x{rows}x{mines}"] + [
        "".join({"hidden": "H", "flag": "F"}.get(k, k) for k in row) for row in cells
    ]
    path.with_suffix(".mine").write_text("\n".join(text) + "\n")
    meta = {
        "skin": skin,
        "grid": {
            "left": left,
            "top": top,
            "cell_width": w * scale,
            "cell_height": h * scale,
            "rows": rows,
            "columns": columns,
        },
        "mines": mines,
        "scale": scale,
        "jpeg_quality": quality,
        "made_by": "tests/pictures/rendered/make_rendered.py",
    }
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")


def main() -> None:
    for seed, (name, spec) in enumerate(PICTURES.items()):
        render(name, spec, seed)
        print(name)


if __name__ == "__main__":
    main()
