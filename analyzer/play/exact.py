"""Exact win rates: any player over every layout, its random tie-breaks averaged exactly.

:func:`exact_win_rate` replaces sampling on small boards. It walks the game
tree of a player: at each board the player's move (or, for a player that
draws, every move its random draws can give, each with its exact
probability), and at each reveal every number the cell can show (with its
flood fill, as :class:`~analyzer.play.game.Game` does it), over the layouts
still consistent, which are equally likely. The result is a ``Fraction``:
every layout weighted by its probability under the first-click rule.

Random tie-breaks
-----------------
The player is given, instead of a :class:`numpy.random.Generator`, a stand-in
whose ``integers`` draws are scripted: each call of
:meth:`~analyzer.play.players.Player.choose` is replayed with every sequence of
draws (an odometer over the draws' ranges), and each resulting move is
weighted by the product of ``1 / range``. A player that never draws
(``probabilistic``, ``expert``, ``optimal``) is deterministic and plays one move
a board; the players of :mod:`analyzer.play.players` draw only with
``integers``, and any other method of the generator is refused with a
:class:`~analyzer.errors.PlayerError`.

The player as a policy
----------------------
The walk treats the player as a policy of the board it sees: the value of a
board is memoised, and the player is :meth:`~analyzer.play.players.Player.reset`
before every move. The players here remember only moves they have proved
(flags of certain mines, reveals of certain safe cells), which they would
prove again on the next board, so forgetting them does not change which
games they win; tests check the exact rates against :func:`~analyzer.simulate`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

import numpy as np

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.errors import AnalyzerError, PlayerError, SimulationError
from analyzer.play.game import FirstClickRule
from analyzer.play.optimal import OptimalSearch
from analyzer.play.players import Action, Player, make_player
from analyzer.play.simulation import _make_setup

__all__ = ["ExactWinRate", "exact_win_rate", "move_distribution"]

_ONE = np.uint64(1)


@dataclass(frozen=True, slots=True)
class ExactWinRate:
    """The result of :func:`exact_win_rate`.

    Attributes
    ----------
    width, height, mines : int
    first_click : str
        The canonical first-click rule.
    first_cell : str
        ``"R,C"``, ``"random"`` (uniform) or ``"player"`` (the player's own first move).
    player : str
        The player's ``repr``.
    probability : Fraction
        The exact probability that the player wins.
    boards : int
        Distinct boards the walk evaluated.
    seconds : float
        Wall-clock time (not compared).
    """

    width: int
    height: int
    mines: int
    first_click: str
    first_cell: str
    player: str
    probability: Fraction
    boards: int
    seconds: float = field(compare=False)

    @property
    def percent(self) -> float:
        return 100 * float(self.probability)

    def __str__(self) -> str:
        return (
            f"{self.player} on {self.width}x{self.height}/{self.mines} ({self.first_click}, first cell "
            f"{self.first_cell}): wins {self.probability} = {self.percent:.4f}% "
            f"({self.boards} boards, {self.seconds:.2f} s)"
        )


class _ScriptedDraws:
    """A stand-in generator whose ``integers`` draws follow a script, extended by zeros."""

    def __init__(self, script: list[int]) -> None:
        self.script = script
        self.ranges: list[int] = []

    def integers(
        self, low: int, high: int | None = None, size: Any = None, dtype: Any = None, endpoint: bool = False
    ) -> int:
        if size is not None:
            raise PlayerError("exact win rates enumerate scalar rng.integers draws only, not size=")
        if high is None:
            low, high = 0, low
        span = int(high) - int(low) + (1 if endpoint else 0)
        if span < 1:
            raise PlayerError(f"the player drew from an empty range ({low}, {high})")
        position = len(self.ranges)
        if position == len(self.script):
            self.script.append(0)
        self.ranges.append(span)
        return int(low) + self.script[position]

    def __getattr__(self, name: str) -> Any:
        raise PlayerError(f"exact win rates enumerate rng.integers draws only; the player called rng.{name}")


def move_distribution(player: Player, board: Board) -> dict[Action, Fraction]:
    """The player's move on ``board`` for every sequence of its random draws, with its probability.

    >>> from analyzer.play.players import make_player
    >>> board = Board.from_text("2x2x1\\nHH\\nH1\\n")
    >>> sorted((a.cell, p) for a, p in move_distribution(make_player("random"), board).items())
    [((0, 0), Fraction(1, 3)), ((0, 1), Fraction(1, 3)), ((1, 0), Fraction(1, 3))]
    >>> move_distribution(make_player("probabilistic"), board)
    {Action(kind='reveal', row=0, col=0, is_guess=True): Fraction(1, 1)}
    """
    moves: dict[Action, Fraction] = {}
    script: list[int] = []
    while True:
        draws = _ScriptedDraws(script)
        player.reset()
        action = player.choose(board, cast(np.random.Generator, draws))
        weight = Fraction(1)
        for span in draws.ranges:
            weight /= span
        moves[action] = moves.get(action, Fraction(0)) + weight
        # Next script: advance the last draw that has values left (an odometer).
        ranges = draws.ranges
        del script[len(ranges) :]
        while script and script[-1] == ranges[len(script) - 1] - 1:
            script.pop()
        if not script:
            return moves
        script[-1] += 1


class _Walk:
    """The player's game tree over the layouts of one board size, memoised on the board."""

    def __init__(self, player: Player, search: OptimalSearch, max_boards: int | None = None) -> None:
        self.player = player
        self.max_boards = max_boards
        self.search = search
        self.memo: dict[tuple[int, ...], Fraction | int] = {}
        self.safe_total = search.cells - search.mines

    def board(self, cells: tuple[int, ...]) -> Board:
        s = self.search
        return Board(s.width, s.height, s.mines, cells)

    def reveal(
        self, cells: tuple[int, ...], layouts: np.ndarray, start: int
    ) -> Iterator[tuple[tuple[int, ...], np.ndarray]]:
        """Reveal safe ``start`` with the Game's flood fill: each board that can show, with its layouts."""
        yield from self._flood(list(cells), layouts, [start])

    def _flood(
        self, view: list[int], layouts: np.ndarray, stack: list[int]
    ) -> Iterator[tuple[tuple[int, ...], np.ndarray]]:
        while stack and view[stack[-1]] != HIDDEN:
            stack.pop()
        if not stack:
            yield tuple(view), layouts
            return
        index = stack.pop()
        numbers = np.bitwise_count(layouts & self.search.neighbours[index])
        for number in np.unique(numbers).tolist():
            group = layouts[numbers == number]
            child = list(view)
            child[index] = number
            more = list(stack)
            if number == 0:
                more.extend(j for j in self.search.table[index] if child[j] == HIDDEN)
            yield from self._flood(child, group, more)

    def value(self, cells: tuple[int, ...], layouts: np.ndarray) -> Fraction | int:
        """How many of ``layouts`` the player wins from ``cells`` (expected, over its draws).

        A whole number stays an ``int`` (most boards: a move without draws); sums
        of ints are much cheaper than of ``Fraction``s, and the two compare equal.
        """
        if sum(1 for v in cells if v >= 0) == self.safe_total:
            return len(layouts)
        found = self.memo.get(cells)
        if found is not None:
            return found
        if self.max_boards is not None and len(self.memo) >= self.max_boards:
            raise SimulationError(
                f"exact win rate of {self.player!r} stopped after {self.max_boards} boards (max_boards)"
            )
        total: Fraction | int = 0
        for action, weight in move_distribution(self.player, self.board(cells)).items():
            share: Fraction | int = weight.numerator if weight.denominator == 1 else weight
            index = action.row * self.search.width + action.col
            if action.kind == "flag":
                if cells[index] != HIDDEN:
                    raise PlayerError(f"{self.player!r} flagged {action.cell!r}, which is not a hidden cell")
                child = list(cells)
                child[index] = FLAG
                total += share * self.value(tuple(child), layouts)
                continue
            if cells[index] != HIDDEN:
                raise PlayerError(f"{self.player!r} revealed {action.cell!r}, which is not a hidden cell")
            safe = layouts[(layouts >> np.uint64(index)) & _ONE == 0]
            if len(safe):
                won: Fraction | int = 0
                for shown, group in self.reveal(cells, safe, index):
                    won += self.value(shown, group)
                total += share * won
        if isinstance(total, Fraction) and total.denominator == 1:
            total = total.numerator
        self.memo[cells] = total
        return total


def exact_win_rate(
    player: str | Player,
    width: int,
    height: int,
    mines: int,
    *,
    first_click: str | FirstClickRule = "safe",
    first_cell: str | tuple[int, int] | None = None,
    search: OptimalSearch | None = None,
    max_boards: int | None = None,
) -> ExactWinRate:
    """The exact probability that ``player`` wins a random game: no sampling.

    Parameters
    ----------
    player : str or Player
        A name in :data:`analyzer.PLAYERS` or a player.
    width, height, mines : int
        The board (square topology; at most :data:`analyzer.play.optimal.MAX_LAYOUTS` layouts).
    first_click : str or FirstClickRule
        ``"none"``, ``"safe"`` (default) or ``"opening"``.
    first_cell : (row, col), str or None
        As for :func:`analyzer.simulate`: ``(row, col)`` or ``"R,C"``,
        ``"corner"``, ``"centre"``, ``"random"`` (every cell, equally likely) or
        ``None`` / ``"player"`` (the player's own first move, its draws averaged).
    search : OptimalSearch, optional
        The board's layouts to reuse (they are built otherwise).
    max_boards : int, optional
        Give up (a :class:`~analyzer.errors.SimulationError`) after evaluating
        this many distinct boards: players that guess at random visit many.

    Returns
    -------
    ExactWinRate

    Raises
    ------
    SimulationError
        Bad sizes, rule or first cell, as for :func:`analyzer.simulate`, or a
        board too large to hold every layout.
    PlayerError
        A player that draws other than with ``rng.integers``, or plays a cell
        that is not hidden.

    Examples
    --------
    >>> exact_win_rate("random", 2, 2, 1, first_click="safe", first_cell=(0, 0)).probability
    Fraction(1, 3)
    >>> str(exact_win_rate("probabilistic", 3, 3, 2, first_cell="corner"))  # doctest: +ELLIPSIS
    'ProbabilisticPlayer() on 3x3/2 (safe, first cell 0,0): wins 23/28 = 82.1429% (51 boards, ... s)'
    """
    start = time.perf_counter()
    try:
        chosen = make_player(player)
    except AnalyzerError as error:
        raise SimulationError(str(error)) from None
    rule_name = first_click.name if isinstance(first_click, FirstClickRule) else first_click
    setup = _make_setup(width, height, mines, chosen, rule_name, first_cell, 0)
    rule = FirstClickRule.parse(setup.first_click)
    if rule.radius is not None and rule.radius > 1:
        raise SimulationError(
            f"exact win rates support first-click rules none, safe and opening, not {rule.name!r}"
        )
    try:
        if search is None:
            search = OptimalSearch(setup.width, setup.height, setup.mines)
        layouts = search.layouts
    except AnalyzerError as error:
        raise SimulationError(str(error)) from None
    if (search.width, search.height, search.mines) != (setup.width, setup.height, setup.mines):
        raise SimulationError("the search given is for another board")
    if max_boards is not None and (
        isinstance(max_boards, bool) or not isinstance(max_boards, int) or max_boards < 1
    ):
        raise SimulationError(f"max_boards must be an integer >= 1, got {max_boards!r}")
    walk = _Walk(chosen, search, max_boards)
    empty = tuple([HIDDEN] * search.cells)
    firsts: dict[int, Fraction]
    if setup.first_cell == "player":
        firsts = {}
        for action, weight in move_distribution(chosen, walk.board(empty)).items():
            if action.kind != "reveal":
                raise PlayerError(
                    f"{chosen!r} flags before the first reveal; exact win rates need a reveal first"
                )
            index = action.row * search.width + action.col
            firsts[index] = firsts.get(index, Fraction(0)) + weight
    elif setup.first_cell == "random":
        firsts = {i: Fraction(1, search.cells) for i in range(search.cells)}
    else:
        row, col = (int(part) for part in setup.first_cell.split(","))
        firsts = {row * search.width + col: Fraction(1)}
    probability = Fraction(0)
    for index, weight in firsts.items():
        if search.mines == search.cells:
            probability += weight  # won before any click
            continue
        row, col = divmod(index, search.width)
        allowed = layouts
        for j in rule.protected_cells("square", search.width, search.height, row, col):
            allowed = allowed[(allowed >> np.uint64(j)) & _ONE == 0]
        safe = allowed[(allowed >> np.uint64(index)) & _ONE == 0]
        won = sum((walk.value(child, group) for child, group in walk.reveal(empty, safe, index)), Fraction(0))
        probability += weight * won / len(allowed)
    return ExactWinRate(
        width=setup.width,
        height=setup.height,
        mines=setup.mines,
        first_click=setup.first_click,
        first_cell=setup.first_cell,
        player=setup.player,
        probability=probability,
        boards=len(walk.memo),
        seconds=time.perf_counter() - start,
    )
