"""Screenshots of the interactive board in its light and dark themes, as ``analyzer web`` shows them
under the system's colour scheme (JupyterLab's Dark theme gives the same colours), into docs/.

    python scripts/theme_pictures.py        # needs Debian's chromium and the browser extra

- docs/interactive_light.png: the position of docs/interactive_marks.png (expert, seed 35, played
  by auto-play and best guesses, scripts/analyst_pictures.py) with its dead cells and forced
  50/50s marked (black or white rings around the purple) and the best move outlined.
- docs/interactive_dark.png: the same position under ``prefers-color-scheme: dark``.

tests/test_interactive_widget_browser.py measures the contrast of every text and mark in both.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # this checkout's analyzer, and tests/browser.py


def main() -> int:
    from analyst_pictures import expert_at_a_guess, idle
    from browser import CHROMIUM_ARGS, chromium_path
    from playwright.sync_api import sync_playwright

    from analyzer.interactive.web import WebServer

    executable = chromium_path()
    if executable is None:
        print("needs Debian's chromium: apt-get install chromium", file=sys.stderr)
        return 1
    session = expert_at_a_guess()
    session.act({"type": "marks", "on": True})
    with sync_playwright() as driver, WebServer(session, port=0) as server:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        for scheme in ("light", "dark"):
            tab = browser.new_page(viewport={"width": 1200, "height": 900})
            tab.emulate_media(color_scheme=scheme)
            tab.goto(server.url)
            idle(tab)
            tab.mouse.move(0, 0)
            tab.wait_for_timeout(200)
            name = f"interactive_{scheme}.png"
            tab.locator(".mz-root").screenshot(path=str(ROOT / "docs" / name))
            tab.close()
            print(f"docs/{name}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
