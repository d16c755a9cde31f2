"""analyzer: exact statistics of Minesweeper.

>>> import analyzer
>>> analysis = analyzer.solve("3x1x1\\nH1H\\n")
>>> analysis.probability(0, 0)
Fraction(1, 2)
"""

from analyzer import examples
from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.errors import (
    AnalyzerError,
    BoardParseError,
    GameError,
    InconsistentBoardError,
    InvalidCellError,
    OptionError,
    PlayerError,
    ResourceLimitError,
    SimulationError,
    SolverTimeoutError,
)
from analyzer.play import metrics
from analyzer.play.exact import ExactWinRate, exact_win_rate
from analyzer.play.game import FirstClickRule, Game
from analyzer.play.optimal import OptimalResult, optimal
from analyzer.play.placement import PLACEMENT_METHODS, place_mines
from analyzer.play.players import PLAYERS, make_player
from analyzer.play.simulation import WinRate, simulate
from analyzer.play.solvable import is_solvable
from analyzer.solver.analysis import Analysis, ComponentSummary
from analyzer.solver.certain import CertainCells, certain_cells
from analyzer.solver.explain import Explanation, explain
from analyzer.solver.many import solve_many
from analyzer.solver.solve import count_layouts, solve

__all__ = [
    "solve",
    "solve_many",
    "examples",
    "metrics",
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
]
