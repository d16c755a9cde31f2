"""Players: given the :class:`~analyzer.Board` a game shows, what to do next.

A player's :meth:`~Player.choose` takes a board and a :class:`numpy.random.Generator`
and returns an :class:`Action`: reveal a cell or flag it, and whether the player
counts the move as a guess (a reveal it could not prove safe). Players are built
by name from :data:`PLAYERS` (:func:`make_player`) and pickle, so worker
processes can build or receive them.

Players
-------
``random``
    A uniformly random hidden, unflagged cell. Every reveal is a guess.
``local``
    The two single-number rules, applied until nothing changes: a number whose
    mines are all known (flagged or proved) makes its other hidden neighbours
    safe; a number with exactly as many unknown neighbours as mines still
    needed makes them all mines. Proved mines are flagged, proved safe cells
    revealed; when stuck, a uniformly random hidden, unflagged cell (a guess).
``subset``
    ``local`` plus the rule between two numbers whose unknown neighbourhoods
    contain one another: if ``A``'s unknown cells are a subset of ``B``'s,
    ``B``'s other cells hold ``need(B) - need(A)`` mines, so all or none of
    them are mines when that is ``len`` or ``0``.
``probabilistic``
    Every certainly safe cell of :func:`analyzer.solve` if there is one; else
    the hidden cell of lowest exact mine probability (a guess). Ties go to the
    cell with the fewest unrevealed neighbours (a corner before an edge before
    the middle; cells by the revealed area before open ground: such a cell more
    often shows a zero or a number that settles its few neighbours), then to the
    first in row-major order. It does not flag: a certain mine has probability 1
    whether flagged or not, and a game is won once every safe cell is revealed.
``expert``
    Like ``probabilistic`` while certainly safe cells exist. To guess, it takes
    the cells within ``margin`` of the lowest mine probability (at most
    ``candidates`` of them, in ``probabilistic``'s order) and, for each, the
    exact chance that it is safe and shows each number ``k``, by solving the
    board with the cell revealed as ``k`` (the values of
    :meth:`analyzer.Analysis.number_distribution`); it keeps those analyses to
    see whether the revealed ``k`` would leave a certainly safe cell. It plays
    the candidate with the highest ``P(safe) + P(safe and a certainly safe cell
    follows)``: survival first, then the chance that the game moves on without
    another guess (a one-step look-ahead, a heuristic, not an optimum). When at
    most ``endgame_layouts`` layouts remain it instead searches the end game
    exactly: an expectimax over the remaining layouts (equally likely), reveals
    with their flood fill, that maximises the probability of winning; the
    search gives up past ``endgame_nodes`` states and the heuristic decides.
    It does not flag. The gain over ``probabilistic`` is small: on the same
    1000 expert games (safe first click in the corner) it won 433 to 410, and
    within a dozen games of 1000 elsewhere (``docs/win_rates.md``); the margin,
    candidates and score were not tuned beyond a few hundred trial games.

First moves
-----------
On a board with nothing revealed (when :func:`analyzer.simulate` is
given no ``first_cell``), ``random``, ``local`` and ``subset`` reveal a
uniformly random cell; ``probabilistic`` and ``expert`` reveal the top-left
corner ``(0, 0)``: every cell has the same probability, corners have the fewest
neighbours, and (``expert``) a corner has the best chance of showing a zero.
Under ``first_click="safe"`` a corner is the usual choice; under
``"opening"`` a cell away from the edges opens more.

Players know nothing of the first-click rule: they see the board only. Under a
safe zone of radius 2 or more the zone's hidden cells are safe but the board does
not say so, and no player uses it.

A player may remember deductions between calls (a queue of proved moves, valid
as long as the board only gains information): the next board is checked to
extend the one they came from, and the memory is dropped otherwise;
:meth:`Player.reset` drops it at once.

Examples
--------
>>> import numpy as np
>>> from analyzer.board.board import Board
>>> board = Board.from_text("2x2x1\\nHH\\n11\\n")
>>> rng = np.random.default_rng(0)
>>> make_player("probabilistic").choose(board, rng)
Action(kind='reveal', row=0, col=0, is_guess=True)
>>> sorted(PLAYERS)
['expert', 'local', 'probabilistic', 'random', 'subset']
>>> player = make_player("local")
>>> board = Board.from_text("3x2x1\\nHHH\\n110\\n")
>>> [player.choose(board, rng) for _ in range(2)]  # the same board: the plan is kept
[Action(kind='flag', row=0, col=0, is_guess=False), Action(kind='reveal', row=0, col=1, is_guess=False)]
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import ClassVar

import numpy as np

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.errors import PlayerError
from analyzer.solver.analysis import Analysis
from analyzer.solver.solve import count_layouts, solve

__all__ = [
    "ACTION_KINDS",
    "Action",
    "LocalDeductions",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "LocalPlayer",
    "SubsetPlayer",
    "ProbabilisticPlayer",
    "ExpertPlayer",
    "PLAYERS",
    "make_player",
    "local_deductions",
    "guess_order",
    "reveal_outcomes",
    "endgame_layouts",
    "endgame_search",
]

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

    def choose(self, board: Board, rng: np.random.Generator) -> Action:
        """The next action on ``board``.

        Parameters
        ----------
        board : Board
            The position, with at least one hidden, unflagged cell.
        rng : numpy.random.Generator
            Randomness for players that draw.

        Raises
        ------
        PlayerError
            If the board has no hidden, unflagged cell.
        """
        if HIDDEN not in board.cells:
            raise PlayerError("the board has no hidden, unflagged cell to play")
        if self._plan and not _extends(board, self._seen):
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


def _extends(board: Board, seen: Board | None) -> bool:
    """Whether ``board`` is ``seen`` with more cells revealed or flagged (nothing undone)."""
    if seen is None or (board.width, board.height, board.mines, board.topology) != (
        seen.width,
        seen.height,
        seen.mines,
        seen.topology,
    ):
        return False
    return all(old == new for old, new in zip(seen.cells, board.cells, strict=True) if old != HIDDEN)


def _hidden(board: Board) -> list[int]:
    return [i for i, v in enumerate(board.cells) if v == HIDDEN]


def _reveal(board: Board, index: int, *, is_guess: bool) -> Action:
    row, col = divmod(index, board.width)
    return Action("reveal", row, col, is_guess)


# ------------------------------------------------------------------ random
@dataclass(eq=False)
class RandomPlayer(Player):
    """A uniformly random hidden, unflagged cell; every reveal is a guess.

    >>> import numpy as np
    >>> board = Board.from_text("2x2x1\\nHH\\nH1\\n")
    >>> RandomPlayer().choose(board, np.random.default_rng(1)).kind
    'reveal'
    """

    name: ClassVar[str] = "random"

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        hidden = _hidden(board)
        return [_reveal(board, hidden[int(rng.integers(len(hidden)))], is_guess=True)]


# ------------------------------------------------------------- local rules
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
    cells = board.cells
    table = board.neighbour_table
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
        state = _local_state(board, subset=self._subset)
        cells = board.cells
        w = board.width
        flags = [
            Action("flag", *divmod(i, w)) for i, s in enumerate(state) if s == _MINE and cells[i] == HIDDEN
        ]
        reveals = [_reveal(board, i, is_guess=False) for i, s in enumerate(state) if s == _SAFE]
        if flags or reveals:
            return flags + reveals
        open_ground = [i for i, v in enumerate(cells) if v == HIDDEN and state[i] == _UNKNOWN]
        return [_reveal(board, open_ground[int(rng.integers(len(open_ground)))], is_guess=True)]


@dataclass(eq=False)
class SubsetPlayer(LocalPlayer):
    """``local`` plus the subset rule between two numbers (see :func:`local_deductions`)."""

    name: ClassVar[str] = "subset"
    _subset: ClassVar[bool] = True


# ------------------------------------------------------------ probabilistic
def guess_order(board: Board, analysis: Analysis) -> list[int]:
    """Hidden, unflagged cells (flat indices) in the order a guess prefers them.

    Sorted by exact mine probability, then by the number of unrevealed (hidden
    or flagged) neighbours, fewest first, then row-major: the tie-break of the
    ``probabilistic`` player.

    >>> from analyzer.solver.solve import solve
    >>> board = Board.from_text("3x3x2\\nHHH\\nHHH\\nHHH\\n")
    >>> guess_order(board, solve(board))[:5]
    [0, 2, 6, 8, 1]
    """
    cells = board.cells
    table = board.neighbour_table
    probabilities = analysis.cell_probabilities
    keyed = []
    for i, v in enumerate(cells):
        if v == HIDDEN:
            p = probabilities[i]
            assert p is not None
            keyed.append((p, sum(1 for j in table[i] if cells[j] < 0), i))
    keyed.sort()
    return [i for _, _, i in keyed]


def _certain_reveals(board: Board, analysis: Analysis) -> list[Action]:
    cells = board.cells
    return [
        _reveal(board, i, is_guess=False)
        for i, p in enumerate(analysis.cell_probabilities)
        if cells[i] == HIDDEN and p is not None and p.numerator == 0
    ]


@dataclass(eq=False)
class ProbabilisticPlayer(Player):
    """Certainly safe cells, else the lowest exact mine probability (see :func:`guess_order`).

    >>> import numpy as np
    >>> board = Board.from_text("4x1x1\\nH1HH\\n")
    >>> ProbabilisticPlayer().choose(board, np.random.default_rng(0))
    Action(kind='reveal', row=0, col=3, is_guess=False)
    """

    name: ClassVar[str] = "probabilistic"

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        analysis = solve(board)
        certain = _certain_reveals(board, analysis)
        if certain:
            return certain
        return [_reveal(board, guess_order(board, analysis)[0], is_guess=True)]


# ------------------------------------------------------------------ expert
def reveal_outcomes(board: Board, analysis: Analysis, row: int, col: int) -> dict[int, Analysis]:
    """The analysis of the board after ``(row, col)`` is revealed as each number it can show.

    ``outcomes[k].total / analysis.total`` is the exact probability that the
    cell is safe and shows ``k``: the values of
    :meth:`~analyzer.Analysis.number_distribution`. Numbers no layout allows are
    left out (only ``k`` between the certain mines and the unrevealed cells
    around are tried).

    >>> from analyzer.solver.solve import solve
    >>> board = Board.from_text("3x1x1\\nH1H\\n")
    >>> {k: Fraction(a.total, 2) for k, a in reveal_outcomes(board, solve(board), 0, 0).items()}
    {0: Fraction(1, 2)}
    """
    index = board.index(row, col)
    cells = board.cells
    probabilities = analysis.cell_probabilities
    around = board.neighbour_table[index]
    low = sum(1 for j in around if probabilities[j] == 1)
    high = sum(1 for j in around if cells[j] < 0 and probabilities[j] != 0)
    outcomes = {}
    for k in range(low, high + 1):
        shown = board.replace({(row, col): k})
        if count_layouts(shown, trust_flags=analysis.trust_flags):  # else no layout shows k here
            outcomes[k] = solve(shown, trust_flags=analysis.trust_flags)
    return outcomes


def endgame_layouts(board: Board, *, limit: int) -> list[frozenset[int]] | None:
    """Every mine layout over the hidden, unflagged cells consistent with the board.

    Flags are taken as mines. Layouts are frozensets of flat indices; ``None``
    when there are more than ``limit`` (the search stops as soon as it knows).

    >>> endgame_layouts(Board.from_text("3x1x1\\nH1H\\n"), limit=10)
    [frozenset({2}), frozenset({0})]
    >>> endgame_layouts(Board.from_text("3x1x1\\nH1H\\n"), limit=1) is None
    True
    """
    cells = board.cells
    table = board.neighbour_table
    mines_left = board.mines - cells.count(FLAG)
    needs: dict[int, int] = {}
    members: dict[int, list[int]] = {}
    for i, v in enumerate(cells):
        if v > 0 or v == 0:
            hidden = [j for j in table[i] if cells[j] == HIDDEN]
            if hidden:
                needs[i] = v - sum(1 for j in table[i] if cells[j] == FLAG)
                members[i] = hidden
    # Frontier cells in an order that closes clues early: breadth first along clues.
    order: list[int] = []
    placed: set[int] = set()
    for clue in sorted(members):
        for j in members[clue]:
            if j not in placed:
                placed.add(j)
                order.append(j)
    background = [i for i, v in enumerate(cells) if v == HIDDEN and i not in placed]
    clues_of: dict[int, list[int]] = {}
    for clue, hidden in members.items():
        for j in hidden:
            clues_of.setdefault(j, []).append(clue)
    need = dict(needs)
    open_count = {clue: len(hidden) for clue, hidden in members.items()}
    if any(n < 0 or n > open_count[c] for c, n in need.items()):
        return []
    found: list[frozenset[int]] = []
    chosen: list[int] = []

    def search(pos: int, used: int) -> bool:
        if pos == len(order):
            rest = mines_left - used
            if 0 <= rest <= len(background):
                if len(found) + math.comb(len(background), rest) > limit:
                    return False
                base = frozenset(chosen)
                for extra in combinations(background, rest):
                    found.append(base | frozenset(extra))
            return True
        cell = order[pos]
        remaining = len(order) - pos - 1 + len(background)
        for mine in (0, 1):
            if used + mine > mines_left or used + mine + remaining < mines_left:
                continue
            ok = True
            touched = clues_of[cell]
            for clue in touched:
                need[clue] -= mine
                open_count[clue] -= 1
                if need[clue] < 0 or need[clue] > open_count[clue]:
                    ok = False
            if ok:
                if mine:
                    chosen.append(cell)
                carry_on = search(pos + 1, used + mine)
                if mine:
                    chosen.pop()
            else:
                carry_on = True
            for clue in touched:
                need[clue] += mine
                open_count[clue] += 1
            if not carry_on:
                return False
        return True

    if not search(0, 0):
        return None
    return found


class _Budget(Exception):
    pass


def endgame_search(board: Board, layouts: list[frozenset[int]], *, max_nodes: int) -> tuple[int, int] | None:
    """The reveal that maximises the chance of winning, by exact expectimax.

    Every layout in ``layouts`` is equally likely. A move reveals a hidden cell
    (and, on a zero, the flood fill around it, as the game does); the value of
    a position is the number of its layouts on which the best play wins.
    Revealing a cell that no remaining layout mines is never worse than
    anything else (it only adds information), so the search takes such cells
    without branching.

    Parameters
    ----------
    board : Board
    layouts : list of frozenset of int
        From :func:`endgame_layouts`.
    max_nodes : int
        Positions to evaluate before giving up.

    Returns
    -------
    (int, int) or None
        The best first cell (flat index; among equals the one fewest layouts
        mine, then the first in row-major order) and the number of layouts on
        which best play wins; ``None`` when the search ran past ``max_nodes``.

    Examples
    --------
    One mine in three cells: revealing the middle leaves a 50/50 (wins on 1 of
    the 2 layouts where it is safe), revealing an end wins on both.

    >>> board = Board.from_text("3x1x1\\nHHH\\n")
    >>> layouts = endgame_layouts(board, limit=10)
    >>> endgame_search(board, layouts, max_nodes=100)
    (0, 2)
    """
    cells = board.cells
    table = board.neighbour_table
    unknown = tuple(i for i, v in enumerate(cells) if v == HIDDEN)
    flags = frozenset(i for i, v in enumerate(cells) if v == FLAG)
    numbers: list[dict[int, int]] = []
    for layout in layouts:
        mine_set = layout | flags
        numbers.append({i: sum(1 for j in table[i] if j in mine_set) for i in unknown if i not in layout})
    memo: dict[tuple[frozenset[int], frozenset[int]], int] = {}
    nodes = [0]

    def outcome(li: int, start: int, revealed: frozenset[int]) -> tuple[tuple[int, int], ...]:
        shown = numbers[li]
        seen = {start}
        stack = [start]
        out = []
        while stack:
            i = stack.pop()
            out.append((i, shown[i]))
            if shown[i] == 0:
                for j in table[i]:
                    if cells[j] == HIDDEN and j not in revealed and j not in seen:
                        seen.add(j)
                        stack.append(j)
        out.sort()
        return tuple(out)

    def after(cell: int, live: frozenset[int], revealed: frozenset[int]) -> int:
        branches: dict[tuple[tuple[int, int], ...], list[int]] = {}
        for li in live:
            if cell not in layouts[li]:
                branches.setdefault(outcome(li, cell, revealed), []).append(li)
        total = 0
        for key, group in branches.items():
            total += value(revealed | {i for i, _ in key}, frozenset(group))
        return total

    def value(revealed: frozenset[int], live: frozenset[int]) -> int:
        if len(live) == 1:
            return 1
        key = (revealed, live)
        if key in memo:
            return memo[key]
        nodes[0] += 1
        if nodes[0] > max_nodes:
            raise _Budget
        hidden = [i for i in unknown if i not in revealed]
        mined = {i: sum(1 for li in live if i in layouts[li]) for i in hidden}
        safe = [i for i in hidden if mined[i] == 0]
        if safe:
            best = after(safe[0], live, revealed)
        else:
            best = 0
            for i in sorted(hidden, key=lambda i: (mined[i], i)):
                bound = len(live) - mined[i]
                if bound <= best:
                    break
                best = max(best, after(i, live, revealed))
        memo[key] = best
        return best

    everything = frozenset(range(len(layouts)))
    if not layouts:
        return None
    try:
        mined = {i: sum(1 for layout in layouts if i in layout) for i in unknown}
        best_cell, best = -1, -1
        for i in sorted(unknown, key=lambda i: (mined[i], i)):
            if len(layouts) - mined[i] <= best:
                break
            v = after(i, everything, frozenset())
            if v > best:
                best_cell, best = i, v
    except _Budget:
        return None
    return best_cell, best


@dataclass(eq=False)
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

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        analysis = solve(board)
        certain = _certain_reveals(board, analysis)
        if certain:
            return certain
        if analysis.total <= self.endgame_layouts:
            layouts = endgame_layouts(board, limit=self.endgame_layouts)
            if layouts is not None:
                found = endgame_search(board, layouts, max_nodes=self.endgame_nodes)
                if found is not None:
                    return [_reveal(board, found[0], is_guess=True)]
        return [_reveal(board, self.best_guess(board, analysis), is_guess=True)]

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
            for outcome in reveal_outcomes(board, analysis, row, col).values():
                if outcome.safe:
                    progress += Fraction(outcome.total, analysis.total)
            score = (1 - p) + progress
            scores[(row, col)] = score
            if score > best_score:
                best, best_score = i, score
        self._last_scores = scores
        return best

    @property
    def last_scores(self) -> dict[Cell, Fraction]:
        """The scores of the candidates of the last heuristic guess."""
        return dict(self._last_scores)


# ------------------------------------------------------------------ registry
PLAYERS: dict[str, type[Player]] = {
    cls.name: cls for cls in (RandomPlayer, LocalPlayer, SubsetPlayer, ProbabilisticPlayer, ExpertPlayer)
}
"""The players by name."""


def make_player(name: str | Player, **options: object) -> Player:
    """A player by name (a key of :data:`PLAYERS`), with its options.

    A :class:`Player` is returned as it is.

    >>> make_player("expert", candidates=4)
    ExpertPlayer(margin=Fraction(1, 50), candidates=4, endgame_layouts=60, endgame_nodes=20000)
    >>> make_player("greedy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    analyzer.errors.PlayerError: unknown player 'greedy'; expected one of random, local, ...
    """
    if isinstance(name, Player):
        if options:
            raise PlayerError("options go with a player name, not a player")
        return name
    if not isinstance(name, str) or name not in PLAYERS:
        raise PlayerError(f"unknown player {name!r}; expected one of {', '.join(PLAYERS)}")
    try:
        return PLAYERS[name](**options)  # type: ignore[arg-type]
    except TypeError as error:
        raise PlayerError(f"bad option for player {name!r}: {error}") from None
