"""analyzer: exact statistics of Minesweeper.

>>> import analyzer
>>> analysis = analyzer.solve("3x1x1\\nH1H\\n")
>>> analysis.probability(0, 0)
Fraction(1, 2)

``import analyzer`` loads the board and the exceptions only; every other public
name (the solver, CP-SAT, networkx, numba's kernels, sympy, Dask) is imported the
first time it is used (PEP 562), so a script that solves one small board, or the
command line, does not pay for the machinery it does not touch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from analyzer._version import __version__ as __version__
from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.errors import (
    AnalyzerError,
    BoardParseError,
    GameError,
    InconsistentBoardError,
    InvalidCellError,
    OptionError,
    PlayerError,
    ReplayError,
    ResourceLimitError,
    RuleError,
    SimulationError,
    SolverTimeoutError,
)

if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from analyzer import examples, variants
    from analyzer.interactive import widget
    from analyzer.play import metrics
    from analyzer.play.exact import ExactWinRate, exact_win_rate
    from analyzer.play.game import FirstClickRule, Game
    from analyzer.play.optimal import OptimalResult, optimal
    from analyzer.play.placement import PLACEMENT_METHODS, place_mines
    from analyzer.play.players import PLAYERS, make_player
    from analyzer.play.simulation import WinRate, simulate
    from analyzer.play.solvable import is_solvable
    from analyzer.replays.analyse import analyse_replay
    from analyzer.replays.read import read_replay
    from analyzer.solver.analysis import Analysis, ComponentSummary
    from analyzer.solver.certain import CertainCells, certain_cells
    from analyzer.solver.explain import Explanation, explain
    from analyzer.solver.many import solve_many
    from analyzer.solver.solve import count_layouts, solve

#: Each lazily imported public name and the module that defines it.
_LAZY = {
    "solve": "analyzer.solver.solve",
    "count_layouts": "analyzer.solver.solve",
    "solve_many": "analyzer.solver.many",
    "explain": "analyzer.solver.explain",
    "Explanation": "analyzer.solver.explain",
    "certain_cells": "analyzer.solver.certain",
    "CertainCells": "analyzer.solver.certain",
    "Analysis": "analyzer.solver.analysis",
    "ComponentSummary": "analyzer.solver.analysis",
    "is_solvable": "analyzer.play.solvable",
    "simulate": "analyzer.play.simulation",
    "WinRate": "analyzer.play.simulation",
    "optimal": "analyzer.play.optimal",
    "OptimalResult": "analyzer.play.optimal",
    "exact_win_rate": "analyzer.play.exact",
    "ExactWinRate": "analyzer.play.exact",
    "PLAYERS": "analyzer.play.players",
    "make_player": "analyzer.play.players",
    "Game": "analyzer.play.game",
    "FirstClickRule": "analyzer.play.game",
    "place_mines": "analyzer.play.placement",
    "PLACEMENT_METHODS": "analyzer.play.placement",
    "read_replay": "analyzer.replays.read",
    "analyse_replay": "analyzer.replays.analyse",
    "widget": "analyzer.interactive",
}
#: Submodules reachable as attributes (``analyzer.metrics``, ``analyzer.examples``).
_SUBMODULES = {
    "examples": "analyzer.examples",
    "metrics": "analyzer.play.metrics",
    "variants": "analyzer.variants",
}

__all__ = [
    "solve",
    "solve_many",
    "examples",
    "metrics",
    "variants",
    "count_layouts",
    "explain",
    "Explanation",
    "certain_cells",
    "is_solvable",
    "CertainCells",
    "simulate",
    "WinRate",
    "optimal",
    "OptimalResult",
    "exact_win_rate",
    "ExactWinRate",
    "PLAYERS",
    "make_player",
    "Analysis",
    "ComponentSummary",
    "Board",
    "Game",
    "FirstClickRule",
    "place_mines",
    "PLACEMENT_METHODS",
    "HIDDEN",
    "FLAG",
    "AnalyzerError",
    "BoardParseError",
    "InconsistentBoardError",
    "SolverTimeoutError",
    "GameError",
    "InvalidCellError",
    "PlayerError",
    "SimulationError",
    "OptionError",
    "ResourceLimitError",
    "ReplayError",
    "RuleError",
    "read_replay",
    "analyse_replay",
    "widget",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use and keep the name here (PEP 562)."""
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(_SUBMODULES[name])
    else:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
