"""Screenshots of the interactive board, as ``analyzer web`` shows them, into docs/.

    python scripts/interactive_pictures.py [NAME.png ...]   # needs Debian's chromium and the browser extra

- docs/interactive_edit.png: the README's 4x3 board typed in edit mode, with "why" on a safe cell.
- docs/interactive_play.png: expert game seed 7 (safe first click at (8, 15)), eight best moves in.
- docs/interactive_replay.png: the bundled expert RMV replay at its last guess.
- docs/interactive_large.png: a 300x300 game with 14,400 mines (seed 2, an opening at the middle,
  then best moves), scrolled to the best move: the labels stay at the edges.
- docs/interactive_lost.png: the marks of a lost expert game (seed 5): every mine, the one hit,
  and a wrong flag crossed out.
- docs/interactive_hex.png: a hexagonal 16x12 game with 30 mines (seed 3), opened at the middle,
  then two best moves.
- docs/interactive_cube.png: a game on the cube of 5x5 faces with 20 mines (seed 1), a first click
  on the top face then three best moves.

Names on the command line make those pictures only.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # this checkout's analyzer, and tests/browser.py

BOARD = "document.querySelector('.mz-root')"


def _idle(tab: Any) -> None:
    tab.wait_for_function(
        f"() => {BOARD} && {BOARD}.dataset.version !== undefined"
        f" && !{BOARD}.classList.contains('mz-working') && {BOARD}.dataset.bestPending === 'false'",
        timeout=180_000,
    )


def _click(tab: Any, cell: tuple[int, int], button: str = "left") -> None:
    box = tab.evaluate(f"([r, c]) => {BOARD}.mz.rect(r, c)", list(cell))
    tab.mouse.click(box["cx"], box["cy"], button=button)
    tab.wait_for_timeout(50)
    _idle(tab)


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
    large = Game.new(300, 300, 14400, seed=2, first_click="opening")
    large.reveal(150, 150)
    lost = Game.new(30, 16, 99, seed=5)
    lost.reveal(8, 15)
    near = sorted(
        ((r, c) for r in range(16) for c in range(30) if lost.board.is_hidden(r, c)),
        key=lambda cell: abs(cell[0] - 8) + abs(cell[1] - 15),
    )
    wrong = next(c for c in near if c not in (lost.mines or ()))  # a flag on a safe cell
    mine = next(c for c in near if c in (lost.mines or ()))
    hexagonal = Game.new(16, 12, 30, seed=3, topology="hex")
    hexagonal.reveal(6, 8)
    cube = Game.new(5, 30, 20, seed=1, topology="cube")
    cube.reveal(2, 2)
    shots: dict[str, tuple[Session, list[tuple[str, Any]]]] = {
        "interactive_edit.png": (Session(board_text), [("why", solve(board_text).safe[0])]),
        "interactive_play.png": (Session(game), [("best", None)] * 8),
        "interactive_replay.png": (Session(replay), [("step", replay.guesses[-1].number - 1)]),
        "interactive_large.png": (Session(large), [("best", None)] * 3 + [("show", None)]),
        "interactive_lost.png": (Session(lost), [("right", wrong), ("left", mine)]),
        "interactive_hex.png": (Session(hexagonal), [("best", None)] * 2),
        "interactive_cube.png": (Session(cube), [("best", None)] * 3),
    }
    wanted = sys.argv[1:]
    if unknown := sorted(set(wanted) - set(shots)):
        print(f"no picture named {', '.join(unknown)}; the pictures: {', '.join(shots)}", file=sys.stderr)
        return 2
    shots = {name: shot for name, shot in shots.items() if not wanted or name in wanted}
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
                        _click(tab, value)
                    elif kind == "best":
                        tab.click(".mz-play-best")
                        tab.wait_for_timeout(50)
                        _idle(tab)
                    elif kind == "show":
                        tab.click(".mz-best")
                    elif kind in ("left", "right"):
                        _click(tab, value, kind)
                    else:
                        tab.fill(".mz-slider", str(value))
                        tab.dispatch_event(".mz-slider", "change")
                        tab.wait_for_timeout(50)
                        _idle(tab)
                tab.mouse.move(0, 0)
                tab.wait_for_timeout(200)
                tab.locator(".mz-root").screenshot(path=str(ROOT / "docs" / name))
                tab.close()
            print(f"docs/{name}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
