"""``expert``: survival first, then the chance that a certainly safe cell follows; exact end game."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

import numpy as np

from analyzer.board.board import Board, Cell
from analyzer.errors import PlayerError
from analyzer.play.players.base import Action, Player, reveal_action
from analyzer.play.players.endgame import endgame_layouts, endgame_search, reveal_outcomes
from analyzer.play.players.probabilistic import certain_reveals, guess_order
from analyzer.solver.analysis import Analysis
from analyzer.solver.solve import solve

__all__ = ["ExpertPlayer"]


SCORES = ("progress", "secondary")
"""The ways :class:`ExpertPlayer` scores its candidates."""


@dataclass(eq=False, repr=False)
class ExpertPlayer(Player):
    """Safe cells first; guesses weigh survival and progress; the end game searched exactly.

    See :mod:`analyzer.play.players` for the heuristic.

    Parameters
    ----------
    margin : Fraction
        Candidates for a guess are cells whose mine probability is at most the
        lowest plus ``margin``.
    candidates : int
        At most this many candidates (in :func:`guess_order`) are scored.
    endgame_layouts : int
        Search the end game exactly when at most this many layouts remain
        (``0`` never).
    endgame_nodes : int
        Positions the end-game search may evaluate before falling back.
    score : str
        How candidates are scored: ``"progress"`` (the default), ``(1 - p) (1 +
        P(the number shown proves another cell safe | safe))``, or
        ``"secondary"``, the secondary safety: the chance of surviving this
        guess and the next, ``(1 - p) E[1 if the number shown proves another
        cell safe, else the safety of the safest next guess | safe]``.

    Examples
    --------
    >>> import numpy as np
    >>> board = Board.from_text("2x2x1\\nHH\\n11\\n")
    >>> ExpertPlayer().choose(board, np.random.default_rng(0))
    Action(kind='reveal', row=0, col=0, is_guess=True)
    """

    name: ClassVar[str] = "expert"
    margin: Fraction = Fraction(1, 50)
    candidates: int = 8
    endgame_layouts: int = 60
    endgame_nodes: int = 20_000
    score: str = "progress"
    _last_scores: dict[Cell, Fraction] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        margin = self.margin
        if isinstance(margin, bool) or not isinstance(margin, (int, Fraction)) or margin < 0:
            raise PlayerError(f"margin must be a Fraction >= 0, got {margin!r}")
        self.margin = Fraction(margin)
        for option in ("candidates", "endgame_layouts", "endgame_nodes"):
            value = getattr(self, option)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise PlayerError(f"{option} must be an integer >= 0, got {value!r}")
        if self.candidates < 1:
            raise PlayerError(f"candidates must be at least 1, got {self.candidates!r}")
        if self.score not in SCORES:
            raise PlayerError(f"score must be one of {', '.join(SCORES)}, got {self.score!r}")

    def __repr__(self) -> str:
        # The default score is left out, so the setups (and results files) of before it stay the same.
        options = (
            f"margin={self.margin!r}, candidates={self.candidates!r}, "
            f"endgame_layouts={self.endgame_layouts!r}, endgame_nodes={self.endgame_nodes!r}"
        )
        if self.score != "progress":
            options += f", score={self.score!r}"
        return f"ExpertPlayer({options})"

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        analysis = solve(board)
        certain = certain_reveals(board, analysis)
        if certain:
            return certain
        if analysis.total <= self.endgame_layouts:
            layouts = endgame_layouts(board, limit=self.endgame_layouts)
            if layouts is not None:
                found = endgame_search(board, layouts, max_nodes=self.endgame_nodes)
                if found is not None:
                    return [reveal_action(board, found[0], is_guess=True)]
        return [reveal_action(board, self.best_guess(board, analysis), is_guess=True)]

    def best_guess(self, board: Board, analysis: Analysis) -> int:
        """The heuristic's guess (flat index): the best-scored candidate within the margin.

        The scores are kept in ``last_scores`` (cell to score) for inspection.
        """
        order = guess_order(board, analysis)
        probabilities = analysis.cell_probabilities
        lowest = probabilities[order[0]]
        assert lowest is not None
        limit = lowest + self.margin
        within = [i for i in order if (p := probabilities[i]) is not None and p <= limit][: self.candidates]
        if len(within) == 1:
            self._last_scores = {}
            return within[0]
        w = board.width
        scores: dict[Cell, Fraction] = {}
        best, best_score = within[0], Fraction(-1)
        for i in within:
            row, col = divmod(i, w)
            p = probabilities[i]
            assert p is not None
            progress = Fraction(0)
            secondary = Fraction(0)
            for outcome in reveal_outcomes(board, analysis, row, col).values():
                weight = Fraction(outcome.total, analysis.total)  # P(safe and shows this number)
                if outcome.safe:
                    progress += weight
                    secondary += weight
                else:
                    secondary += weight * _safest_next(outcome)
            score = secondary if self.score == "secondary" else (1 - p) + progress
            scores[(row, col)] = score
            if score > best_score:
                best, best_score = i, score
        self._last_scores = scores
        return best

    @property
    def last_scores(self) -> dict[Cell, Fraction]:
        """The scores of the candidates of the last heuristic guess."""
        return dict(self._last_scores)


def _safest_next(analysis: Analysis) -> Fraction:
    """The safety of the safest hidden cell that is not a certain mine (1 when only mines are left)."""
    lowest = min((p for p in analysis.cell_probabilities if p is not None and p < 1), default=None)
    return Fraction(1) if lowest is None else 1 - lowest
