"""Pictures of this project's own boards: ``analyzer.render.board_html`` drawn by Chromium.

    python tests/pictures/rendered/make_analyzer_pictures.py     # needs Debian's chromium

Each picture is a game in progress (``analyzer.play.positions.mid_game``, fixed seeds), as the
HTML view shows it in a notebook, screenshot whole in headless Chromium (tests/browser.py's
arguments) at a device scale of 1, 1.25 or 2. Beside it, as for the real pictures: ``<name>.mine``
and ``<name>.json`` (the grid measured from the cells' boxes in the page, scaled to pixels).
The ``analyzer`` skin is cut from some of them (scripts/make_skin.py); the others are held out.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "analyzer"
ROOT = HERE.parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

# name: columns, rows, mines, progress, seed, device scale
PICTURES = {
    "expert_a": (30, 16, 99, 0.5, 1, 1.0),
    "intermediate_a": (16, 16, 40, 0.6, 2, 1.0),
    "expert_b": (30, 16, 99, 0.7, 3, 1.0),
    "beginner_125": (9, 9, 10, 0.6, 4, 1.25),
    "intermediate_200": (16, 16, 40, 0.5, 5, 2.0),
}


def main() -> int:
    from browser import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    from analyzer.play.positions import mid_game
    from analyzer.render import board_html

    executable = shutil.which("chromium")
    if executable is None:
        print("needs Debian's chromium: apt-get install chromium", file=sys.stderr)
        return 1
    HERE.mkdir(exist_ok=True)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        for name, (columns, rows, mines, progress, seed, scale) in PICTURES.items():
            board = mid_game(columns, rows, mines, progress=progress, seed=seed)
            tab = browser.new_page(viewport={"width": 1000, "height": 640}, device_scale_factor=scale)
            tab.set_content(f"<html><body style='margin:24px'>{board_html(board)}</body></html>")
            path = HERE / f"{name}.png"
            tab.screenshot(path=str(path))
            first = tab.locator('td[data-cell="0,0"]').bounding_box()
            last = tab.locator(f'td[data-cell="{rows - 1},{columns - 1}"]').bounding_box()
            tab.close()
            assert first is not None and last is not None
            width = (last["x"] + last["width"] - first["x"]) / columns * scale
            height = (last["y"] + last["height"] - first["y"]) / rows * scale
            grid = {
                "left": round(first["x"] * scale, 3),
                "top": round(first["y"] * scale, 3),
                "cell_width": round(width, 3),
                "cell_height": round(height, 3),
                "rows": rows,
                "columns": columns,
            }
            path.with_suffix(".mine").write_text(board.to_text().strip() + "\n")
            meta = {
                "client": "analyzer",
                "grid": grid,
                "counter": None,
                "mines": mines,
                "finished": None,
                "unsure": [],
                "scale": scale,
                "made_by": "tests/pictures/rendered/make_analyzer_pictures.py",
            }
            path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
            print(name, grid)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
