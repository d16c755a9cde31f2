"""The one exception tree of the package.

Every error the package raises on purpose derives from :class:`AnalyzerError`, and
also from the builtin it resembles, so ``except ValueError`` keeps working.
"""

from __future__ import annotations

__all__ = [
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
    "PictureError",
]


class AnalyzerError(Exception):
    """Base class of every error raised by :mod:`analyzer`."""


class BoardParseError(AnalyzerError, ValueError):
    """Text that cannot be read as a board.

    ``line`` and ``column`` are 1-based positions in the text (``None`` when the
    error concerns the whole text).
    """

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None):
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message)
        self.line = line
        self.column = column


class InconsistentBoardError(AnalyzerError, ValueError):
    """A board that parses but that no layout of mines satisfies.

    ``clues`` holds the (row, column) of the revealed numbers in conflict: a small
    set that is already unsatisfiable on its own. It is empty when the conflict is
    with the total mine count alone. ``minimal`` is false when the search for a
    minimal set was cut short (its effort spent, or the time limit reached): ``clues`` still
    conflict, but some may be spare.
    """

    def __init__(self, message: str, *, clues: tuple[tuple[int, int], ...] = (), minimal: bool = True):
        super().__init__(message)
        self.clues = clues
        self.minimal = minimal


class SolverTimeoutError(AnalyzerError, TimeoutError):
    """The work did not finish within the ``time_limit`` given."""


class GameError(AnalyzerError, ValueError):
    """An action a game cannot take: outside the board, on a finished game, ..."""


class InvalidCellError(AnalyzerError, ValueError):
    """A question about a cell that has no answer: a revealed cell's mine probability, say."""


class PlayerError(AnalyzerError, ValueError):
    """An unknown player name or a bad player option."""


class SimulationError(AnalyzerError, ValueError):
    """Bad simulation input: sizes, player, first cell, a results file of another kind."""


class OptionError(AnalyzerError, ValueError):
    """An option of the wrong type or out of range: ``time_limit="1"``, ``seed=2.5``, ..."""


class ResourceLimitError(AnalyzerError, MemoryError):
    """Work refused before it starts: its estimated memory is past the limit."""


class ReplayError(AnalyzerError, ValueError):
    """A replay file that cannot be read, or whose actions contradict its layout."""


class RuleError(AnalyzerError, ValueError):
    """A variant rule set that cannot be used: an unknown letter, rules that exclude each other,
    or a rule that does not fit the board's topology."""


class PictureError(AnalyzerError, ValueError):
    """A picture that cannot be read as a board: not an image, no board found, cells no tile
    matches, a board whose clues have no layout. One line saying what was found."""
