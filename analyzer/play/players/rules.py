"""``local`` and ``subset``: the single-number rules and the subset rule between two numbers."""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.play.players.base import Action, Player, require_consistent, reveal_action

__all__ = ["LocalDeductions", "local_deductions", "LocalPlayer", "SubsetPlayer"]


@dataclass(frozen=True, slots=True)
class LocalDeductions:
    """Cells the local rules prove, row-major: ``safe`` to reveal, ``mines`` to flag."""

    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]


_UNKNOWN, _SAFE, _MINE = 0, 1, 2


def local_deductions(board: Board, *, subset: bool = False) -> LocalDeductions:
    """What the single-number rules (and, with ``subset``, the subset rule) prove.

    Flags are taken as mines. The rules run until nothing changes, each proved
    mine counting for the numbers around it; a proved safe cell is unknown
    ground until revealed (its number is not known), but it is no longer among
    the unknown neighbours of the numbers around it. A board whose numbers
    contradict one another (wrong flags, say) is not an error here: a rule that
    sees a contradiction simply does not fire.

    Parameters
    ----------
    board : Board
    subset : bool
        Also apply the rule between two numbers whose unknown neighbourhoods
        contain one another.

    Returns
    -------
    LocalDeductions
        Hidden, unflagged cells proved safe and proved mines (flags not repeated).

    Examples
    --------
    The 0 makes its hidden neighbours safe; the 1 beside it then has one
    unknown neighbour left, a mine.

    >>> local_deductions(Board.from_text("3x2x1\\nHHH\\n110\\n"))
    LocalDeductions(safe=((0, 1), (0, 2)), mines=((0, 0),))

    The 1-2-1 pattern needs the subset rule: ``(1, 0)``'s unknown cells are a
    subset of ``(1, 1)``'s, so the 2's second mine is in the cell only it sees;
    the single-number rules finish from there.

    >>> board = Board.from_text("3x2x2\\nHHH\\n121\\n")
    >>> local_deductions(board)
    LocalDeductions(safe=(), mines=())
    >>> local_deductions(board, subset=True)
    LocalDeductions(safe=((0, 1),), mines=((0, 0), (0, 2)))
    """
    state = _local_state(board, subset=subset)
    w = board.width
    cells = board.cells
    safe = tuple(divmod(i, w) for i, s in enumerate(state) if s == _SAFE)
    mines = tuple(divmod(i, w) for i, s in enumerate(state) if s == _MINE and cells[i] == HIDDEN)
    return LocalDeductions(safe, mines)


def _local_state(board: Board, *, subset: bool) -> list[int]:
    """Per cell: ``_SAFE``/``_MINE`` when proved (flags are mines), else ``_UNKNOWN``."""
    return rules_state(board.cells, board.neighbour_table, subset=subset)


def rules_state(
    cells: tuple[int, ...] | list[int], table: tuple[tuple[int, ...], ...], *, subset: bool
) -> list[int]:
    """:func:`_local_state` of a board's ``cells`` and ``neighbour_table`` (no Board built)."""
    state = [_MINE if v == FLAG else _UNKNOWN for v in cells]
    clues = [i for i, v in enumerate(cells) if v >= 0 and any(cells[j] == HIDDEN for j in table[i])]
    # Around each clue only hidden neighbours ever change state.
    around = {i: [j for j in table[i] if cells[j] < 0] for i in clues}
    clue_set = set(clues)
    watchers: dict[int, list[int]] = {}
    for i in clues:
        for j in around[i]:
            watchers.setdefault(j, []).append(i)

    def settle(cells_: list[int], value: int, queue: deque[int]) -> None:
        for j in cells_:
            state[j] = value
            queue.extend(watchers.get(j, ()))

    def single_rules(queue: deque[int]) -> bool:
        changed = False
        queued = set(queue)
        while queue:
            i = queue.popleft()
            queued.discard(i)
            unknown = [j for j in around[i] if state[j] == _UNKNOWN]
            if not unknown:
                continue
            need = cells[i] - sum(1 for j in around[i] if state[j] == _MINE)
            if need == 0:
                fresh: deque[int] = deque()
                settle(unknown, _SAFE, fresh)
            elif need == len(unknown):
                fresh = deque()
                settle(unknown, _MINE, fresh)
            else:
                continue
            changed = True
            for k in fresh:
                if k not in queued:
                    queued.add(k)
                    queue.append(k)
        return changed

    single_rules(deque(clues))
    if not subset:
        return state
    table_ = table
    while True:
        fired: list[int] = []
        live = {}
        for i in clues:
            unknown = frozenset(j for j in around[i] if state[j] == _UNKNOWN)
            if unknown:
                live[i] = (unknown, cells[i] - sum(1 for j in around[i] if state[j] == _MINE))
        for a, (ua, na) in live.items():
            # A clue whose unknown cells contain ua touches one of them: a neighbour's neighbour.
            partners = {b for j in ua for b in table_[j] if b in clue_set and b != a and b in live}
            for b in sorted(partners):
                ub, nb = live[b]
                if len(ub) <= len(ua) or not ua <= ub:
                    continue
                # Facts of the state ``live`` was read from, true whatever settled since.
                diff = ub - ua
                rest = [j for j in sorted(diff) if state[j] == _UNKNOWN]
                if not rest:
                    continue
                extra = nb - na
                if extra == 0:
                    queue: deque[int] = deque()
                    settle(rest, _SAFE, queue)
                    fired.extend(queue)
                elif extra == len(diff):
                    queue = deque()
                    settle(rest, _MINE, queue)
                    fired.extend(queue)
        if not fired:
            return state
        single_rules(deque(dict.fromkeys(fired)))


@functools.lru_cache(maxsize=16)
def _remembered_state(board: Board, subset: bool) -> tuple[int, ...]:
    """:func:`_local_state` of the last few boards (boards are values): an exact win rate asks
    for the move on one board once a draw (:func:`analyzer.play.exact.move_distribution`)."""
    return tuple(_local_state(board, subset=subset))


@dataclass(eq=False)
class LocalPlayer(Player):
    """The single-number rules; a uniformly random hidden, unflagged cell when stuck.

    Proved mines are flagged first, then proved safe cells revealed (row-major);
    only the random reveals are guesses.

    >>> import numpy as np
    >>> board = Board.from_text("3x2x1\\nHHH\\n110\\n")
    >>> player = LocalPlayer()
    >>> player.choose(board, np.random.default_rng(0))
    Action(kind='flag', row=0, col=0, is_guess=False)
    >>> player.choose(board.replace({(0, 0): -2}), np.random.default_rng(0))
    Action(kind='reveal', row=0, col=1, is_guess=False)
    """

    name: ClassVar[str] = "local"
    _subset: ClassVar[bool] = False

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        require_consistent(board)
        state = _remembered_state(board, self._subset)
        cells = board.cells
        w = board.width
        flags = [
            Action("flag", *divmod(i, w)) for i, s in enumerate(state) if s == _MINE and cells[i] == HIDDEN
        ]
        reveals = [reveal_action(board, i, is_guess=False) for i, s in enumerate(state) if s == _SAFE]
        if flags or reveals:
            return flags + reveals
        open_ground = [i for i, v in enumerate(cells) if v == HIDDEN and state[i] == _UNKNOWN]
        return [reveal_action(board, open_ground[int(rng.integers(len(open_ground)))], is_guess=True)]


@dataclass(eq=False)
class SubsetPlayer(LocalPlayer):
    """``local`` plus the subset rule between two numbers (see :func:`local_deductions`)."""

    name: ClassVar[str] = "subset"
    _subset: ClassVar[bool] = True
