"""Recorded games: read AVF, RMV, EVF and MVF replays and analyse every click exactly.

>>> from analyzer.replays import analyse_replay, example_path, read_replay
>>> game = analyse_replay(read_replay(example_path("expert_30x16_99.rmv")))
>>> game.replay.bbbv, game.result
(134, 'won')

Reading goes through ms-toollib (:mod:`analyzer.replays.read`), the analysis through
the exact solver (:mod:`analyzer.replays.analyse`); neither is imported by
``import analyzer``.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

from analyzer.replays.analyse import ClickAnalysis, ReplayAnalysis, analyse_replay
from analyzer.replays.read import FORMATS, Replay, ReplayAction, read_replay

__all__ = [
    "FORMATS",
    "Replay",
    "ReplayAction",
    "ReplayAnalysis",
    "ClickAnalysis",
    "read_replay",
    "analyse_replay",
    "example_path",
    "example_names",
]


def example_names() -> tuple[str, ...]:
    """The bundled example replays (real games from ms-toollib's test files, MIT)."""
    folder = files("analyzer.replays") / "examples"
    return tuple(sorted(p.name for p in folder.iterdir() if p.name.rsplit(".", 1)[-1] in FORMATS))


def example_path(name: str) -> Traversable:
    """The path of a bundled example replay."""
    if name not in example_names():
        raise ValueError(f"no example replay {name!r}; expected one of {', '.join(example_names())}")
    return files("analyzer.replays") / "examples" / name
