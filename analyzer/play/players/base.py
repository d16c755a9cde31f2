"""The player protocol: an :class:`Action`, the :class:`Player` base class and its helpers."""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from analyzer.board.board import HIDDEN, Board, Cell
from analyzer.errors import PlayerError

__all__ = [
    "ACTION_KINDS",
    "DEFAULT_SEED",
    "Action",
    "Player",
    "extends",
    "hidden_cells",
    "require_consistent",
    "reveal_action",
]

DEFAULT_SEED = 0
"""The seed of the generator :meth:`Player.choose` uses when given ``rng=None``."""


ACTION_KINDS = ("reveal", "flag")
"""The kinds of :class:`Action` a player returns."""


@dataclass(frozen=True, slots=True)
class Action:
    """One move: reveal or flag ``(row, col)``.

    Attributes
    ----------
    kind : str
        ``"reveal"`` or ``"flag"``.
    row, col : int
        The cell.
    is_guess : bool
        For a reveal: the player could not prove the cell safe (see each
        player's definition in :mod:`analyzer.play.players`). Always false for a flag.

    >>> Action("reveal", 2, 3, is_guess=True).cell
    (2, 3)
    >>> Action("chord", 0, 0)
    Traceback (most recent call last):
    ...
    analyzer.errors.PlayerError: unknown action kind 'chord'; expected reveal or flag
    """

    kind: str
    row: int
    col: int
    is_guess: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise PlayerError(f"unknown action kind {self.kind!r}; expected reveal or flag")
        if self.kind == "flag" and self.is_guess:
            raise PlayerError("a flag is never a guess")

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)


# --------------------------------------------------------------- the protocol
class Player:
    """Base class of the players: :meth:`choose` the next :class:`Action` for a board.

    Subclasses implement :meth:`_think`, which returns a list of actions: either
    moves the player has proved (reveals of certainly safe cells, flags of
    certain mines), all of which are queued and played one per call, or a single
    guess. Memory is only ever proved moves, so it stays right while the board
    gains information; a board that does not extend the remembered one clears it.
    """

    name: ClassVar[str] = ""

    def __post_init__(self) -> None:
        self._plan: deque[Action] = deque()
        self._seen: Board | None = None

    def reset(self) -> None:
        """Forget what was remembered from earlier boards (call between games)."""
        self._plan = deque()
        self._seen = None

    def choose(self, board: Board | str, rng: np.random.Generator | None = None) -> Action:
        """The next action on ``board``.

        Parameters
        ----------
        board : Board or str
            The position, with at least one hidden, unflagged cell; text is
            parsed with :meth:`Board.from_text`.
        rng : numpy.random.Generator, optional
            Randomness for players that draw. ``None`` means
            ``numpy.random.default_rng(DEFAULT_SEED)``: the same choice every
            time for the same board (pass a generator to vary it).

        Raises
        ------
        PlayerError
            If the board has no hidden, unflagged cell, or is neither a Board nor text.
        BoardParseError
            If text does not parse.
        InconsistentBoardError
            If no layout satisfies the board (every player checks).

        >>> from analyzer.play.players import make_player
        >>> make_player("random").choose("2x1x1\\nHH\\n").kind
        'reveal'
        """
        if isinstance(board, str):
            board = Board.from_text(board)
        elif not isinstance(board, Board):
            raise PlayerError(f"expected a Board or its text, got {type(board).__name__}")
        if rng is None:
            rng = np.random.default_rng(DEFAULT_SEED)
        if HIDDEN not in board.cells:
            raise PlayerError("the board has no hidden, unflagged cell to play")
        if self._plan and not extends(board, self._seen):
            self._plan.clear()
        cells = board.cells
        w = board.width
        while self._plan:
            action = self._plan.popleft()
            if cells[action.row * w + action.col] == HIDDEN:
                self._seen = board
                return action
        actions = self._think(board, rng)
        first = actions[0]
        if len(actions) > 1:
            self._plan.extend(actions[1:])
        self._seen = board
        return first

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        raise NotImplementedError

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_plan"] = deque()
        state["_seen"] = None
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)


def extends(board: Board, seen: Board | None) -> bool:
    """Whether ``board`` is ``seen`` with more cells revealed or flagged (nothing undone)."""
    if seen is None or (board.width, board.height, board.mines, board.topology) != (
        seen.width,
        seen.height,
        seen.mines,
        seen.topology,
    ):
        return False
    return all(old == new for old, new in zip(seen.cells, board.cells, strict=True) if old != HIDDEN)


def require_consistent(board: Board) -> None:
    """Raise :class:`~analyzer.errors.InconsistentBoardError` if no layout satisfies ``board``.

    For the players that do not count layouts themselves, so that every player
    refuses an impossible board the same way instead of returning a move.
    """
    from analyzer.solver.solve import solve

    if not _has_layout(board):
        solve(board)  # names the clues in conflict


#: Search nodes the compiled feasibility check may take before the exact count decides.
_FEASIBILITY_NODES = 200_000


@functools.lru_cache(maxsize=16)
def _has_layout(board: Board) -> bool:
    """Whether some layout satisfies ``board`` (boards are values: the last few are remembered).

    Decided by the fast engine's exact feasibility (compiled, booleans only:
    :func:`analyzer.play.fast.probabilities.probabilities` reports "no layout" by
    feasibility, not by rounding), or by :func:`analyzer.count_layouts` when
    its search would be too long. A player that draws is asked for its move on
    one board once a draw when its exact win rate enumerates them
    (:func:`analyzer.play.exact.move_distribution`), hence the memory.
    """
    from analyzer.play.fast import neighbours_of
    from analyzer.play.fast.probabilities import probabilities
    from analyzer.solver.solve import count_layouts

    cells = np.array(board.cells, dtype=np.int8)
    nbr = neighbours_of(board.topology, board.width, board.height)
    status = probabilities(cells, nbr, board.mines, np.empty(len(cells)), _FEASIBILITY_NODES, np.zeros(1))
    if status >= 0:
        return status == 1
    return count_layouts(board) > 0


def hidden_cells(board: Board) -> list[int]:
    return [i for i, v in enumerate(board.cells) if v == HIDDEN]


def reveal_action(board: Board, index: int, *, is_guess: bool) -> Action:
    row, col = divmod(index, board.width)
    return Action("reveal", row, col, is_guess)
