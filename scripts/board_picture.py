"""Draw an expert analysis as the HTML view shows it, in headless Chromium, to docs/analysis_board.png.

    python scripts/board_picture.py      # needs Debian's chromium and the browser extra
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    from browser import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    from analyzer import solve
    from analyzer.play.positions import mid_game
    from analyzer.render import analysis_html

    analysis = solve(mid_game(30, 16, 99, seed=1))
    best = analysis.best_moves(1)[0].cell
    out = ROOT / "docs" / "analysis_board.png"
    executable = shutil.which("chromium")
    if executable is None:
        print("needs Debian's chromium: apt-get install chromium", file=sys.stderr)
        return 1
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 900, "height": 500})
        tab.set_content(f"<html><body>{analysis_html(analysis, best=best)}</body></html>")
        tab.locator("table").screenshot(path=str(out))
        browser.close()
    print(out.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
