"""Screenshots of the interactive board's three modes, as ``analyzer web`` shows them, into docs/.

    python scripts/interactive_pictures.py   # needs Debian's chromium and the browser extra

- docs/interactive_edit.png: the README's 4x3 board typed in edit mode, with "why" on a safe cell.
- docs/interactive_play.png: expert game seed 7 (safe first click at (8, 15)), eight best moves in.
- docs/interactive_replay.png: the bundled expert RMV replay at its last guess.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def _idle(tab: Any) -> None:
    tab.wait_for_selector(".mz-cell")
    tab.wait_for_function("!document.querySelector('.mz-root').classList.contains('mz-working')")
    tab.wait_for_function("!document.querySelector('.mz-best').textContent.includes('scoring')")


def main() -> int:
    from browser import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    from analyzer import Game, solve
    from analyzer.interactive.session import Session
    from analyzer.interactive.web import WebServer
    from analyzer.replays import analyse_replay, example_path, read_replay

    executable = shutil.which("chromium")
    if executable is None:
        print("needs Debian's chromium: apt-get install chromium", file=sys.stderr)
        return 1
    board_text = "6x4x5\nHHHHHH\nH2211H\nH1HH1H\nHHHHHH\n"
    game = Game.new(30, 16, 99, seed=7)
    game.reveal(8, 15)
    replay = analyse_replay(read_replay(example_path("expert_30x16_99.rmv")))
    shots = {
        "interactive_edit.png": (Session(board_text), [("why", solve(board_text).safe[0])]),
        "interactive_play.png": (Session(game), [("best", None)] * 8),
        "interactive_replay.png": (Session(replay), [("step", replay.guesses[-1].number - 1)]),
    }
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        for name, (session, steps) in shots.items():
            with WebServer(session, port=0) as server:
                tab = browser.new_page(viewport={"width": 1200, "height": 800})
                tab.goto(server.url)
                _idle(tab)
                for kind, value in steps:
                    if kind == "why":
                        tab.click(".mz-why-toggle")
                        tab.click(f'.mz-cell[data-cell="{value[0]},{value[1]}"]')
                    elif kind == "best":
                        tab.click(".mz-play-best")
                    else:
                        tab.fill(".mz-slider", str(value))
                        tab.dispatch_event(".mz-slider", "change")
                    _idle(tab)
                tab.mouse.move(0, 0)
                tab.locator(".mz-root").screenshot(path=str(ROOT / "docs" / name))
                tab.close()
            print(f"docs/{name}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
