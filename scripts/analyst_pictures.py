"""Screenshots of the analyst's tools on the interactive board, as ``analyzer web`` shows them, into docs/.

    python scripts/analyst_pictures.py   # needs Debian's chromium and the browser extra

- docs/interactive_marks.png: expert game seed 35 (an opening at (8, 15)), played by auto-play to
  each guess and the best guess seven times, then to the next guess: dead cells (grey) and forced
  50/50s (purple) marked, and the exact chance to win with best play.
- docs/interactive_timeline.png: the bundled expert RMV replay at its last guess, under it the
  timeline of its clicks (the taller, the riskier; guesses in colour).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # this checkout's analyzer, and tests/browser.py

BOARD = "document.querySelector('.mz-root')"


def idle(tab: Any) -> None:
    """Wait until the page has its answer and best move, has drawn them, and is not working."""
    tab.wait_for_timeout(200)
    tab.wait_for_function(
        f"() => {BOARD} && {BOARD}.dataset.version !== undefined"
        f" && !{BOARD}.classList.contains('mz-working') && {BOARD}.dataset.bestPending === 'false'"
        f" && {BOARD}.dataset.painted === {BOARD}.dataset.version",
        timeout=180_000,
    )


def expert_at_a_guess() -> Any:
    """The manual's expert game (seed 35, opening first click) played up to its eighth guess."""
    from analyzer import Game
    from analyzer.interactive.session import Session

    session = Session(Game.new(30, 16, 99, seed=35, first_click="opening"))
    session.act({"type": "cell", "cell": [8, 15]})
    for _ in range(7):
        session.act({"type": "autoplay", "until": "guess"})
        session.act({"type": "play_best"})
    session.act({"type": "autoplay", "until": "guess"})
    assert session.game is not None and not session.game.is_finished, session.note
    return session


def main() -> int:
    from browser import CHROMIUM_ARGS, chromium_path
    from playwright.sync_api import sync_playwright

    from analyzer.interactive.session import Session
    from analyzer.interactive.web import WebServer
    from analyzer.replays import example_path

    executable = chromium_path()
    if executable is None:
        print("needs Debian's chromium: apt-get install chromium", file=sys.stderr)
        return 1
    session = expert_at_a_guess()
    replay = Session(example_path("expert_30x16_99.rmv"))
    assert replay.replay is not None
    guesses = [k for k, click in enumerate(replay.replay.clicks) if click.is_guess]
    replay.act({"type": "step", "step": guesses[-1]})
    docs = ROOT / "docs"
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": 1000, "height": 820})
            with WebServer(session, port=0) as server:
                tab.goto(server.url)
                idle(tab)
                tab.click(".mz-marks")
                idle(tab)
                tab.click(".mz-win")
                idle(tab)
                tab.locator(".mz-root").screenshot(path=str(docs / "interactive_marks.png"))
            with WebServer(replay, port=0) as server:
                tab.goto(server.url)
                idle(tab)
                tab.locator(".mz-root").screenshot(path=str(docs / "interactive_timeline.png"))
        finally:
            browser.close()
    print("docs/interactive_marks.png, docs/interactive_timeline.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
