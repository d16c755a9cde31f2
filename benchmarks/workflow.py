"""The analyst's actions on the interactive board, server side: what each costs the session per size.

Run ``python -m benchmarks.workflow`` (``--repeats 5``). Each action is timed from
:meth:`Session.respond <analyzer.interactive.session.Session.respond>` with the
action to its answer (the board's arrays and view included, the best move not:
the page gets it in a second line), on positions from seeded games, and the
median of the repeats printed (each repeat on a fresh session, so that nothing
is cached). The browser's click-until-idle figures are ``benchmarks.interactive``'s.
"""

from __future__ import annotations

import argparse
import base64
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from analyzer.interactive.session import Session
from analyzer.play.game import Game
from analyzer.replays import example_path

SIZES = ((30, 16, 99), (100, 100, 1600), (300, 300, 14400))


def opened(width: int, height: int, mines: int, seed: int) -> Game:
    """A seeded game after its first click (an opening in the middle)."""
    game = Game.new(width, height, mines, seed=seed, first_click="opening")
    game.reveal(height // 2, width // 2)
    return game


def midgame(width: int, height: int, mines: int) -> tuple[Game, Game]:
    """The first seeded game that needs a guess: after its first click, and at that guess."""
    for seed in range(1, 100):
        session = Session(opened(width, height, mines, seed))
        session.act({"type": "autoplay", "until": "guess"})
        assert session.game is not None
        if not session.game.is_finished:
            return opened(width, height, mines, seed), session.game
    raise RuntimeError("no game of 99 needs a guess")


def timed(make: Callable[[], Session], action: dict[str, object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        session = make()
        session.respond()  # the page's first look: solved and drawn before the action
        start = time.perf_counter()
        session.respond(action)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    rmv = base64.b64encode(Path(example_path("expert_30x16_99.rmv")).read_bytes()).decode()
    print(f"{'board':>16} {'action':>28} {'median ms':>10}")
    for width, height, mines in SIZES:
        start, game = midgame(width, height, mines)
        text = game.board.to_text()
        name = f"{width}x{height}/{mines}"
        cases: list[tuple[str, Callable[[], Session], dict[str, object]]] = [
            (
                "open .mine (bytes)",
                lambda: Session("3x1x1\nH1H\n"),
                {"type": "open", "name": "b.mine", "data": base64.b64encode(text.encode()).decode()},
            ),
            ("paste .mine text", lambda: Session("3x1x1\nH1H\n"), {"type": "paste", "text": text}),
            ("save .mine", lambda g=game: Session(g.copy()), {"type": "save", "format": "mine"}),
            ("flag, then undo", lambda g=game: _flagged(g), {"type": "undo"}),
            ("marks (dead, 50/50)", lambda g=game: Session(g.copy()), {"type": "marks", "on": True}),
            ("win chance", lambda g=game: Session(g.copy()), {"type": "win", "on": True}),
        ]
        if width * height <= 10_000:
            cases.append(
                ("auto-play to the next guess", lambda g=start: Session(g.copy()), {"type": "autoplay"})
            )
        for label, make, action in cases:
            print(f"{name:>16} {label:>28} {1000 * timed(make, action, args.repeats):10.1f}", flush=True)
    make = lambda: Session("3x1x1\nH1H\n")  # noqa: E731
    seconds = timed(make, {"type": "open", "name": "expert.rmv", "data": rmv}, args.repeats)
    print(f"{'expert replay':>16} {'open .rmv (bytes)':>28} {1000 * seconds:10.1f}")


def _flagged(game: Game) -> Session:
    session = Session(game.copy())
    hidden = next(iter(session.board.hidden_cells()))
    session.act({"type": "cell", "cell": list(hidden), "button": "right"})
    return session


if __name__ == "__main__":
    main()
