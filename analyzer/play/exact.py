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

Faster methods for the players that guess at random
---------------------------------------------------
The walk visits every board a player can see, which the players that guess
uniformly at random make many. Two of them have their own method
(``method="auto"`` picks it; ``method="walk"`` keeps the walk, and the tests check
that both give the same ``Fraction`` on every board up to 3x3 and 4x2 under each rule):

- ``random``, by formula: on a fixed layout its clicks are a uniformly random
  order of the hidden cells, and its chance of winning is a closed form of the
  mines, the zero regions and the lone safe cells left after the first click
  (:func:`random_player_win`), summed over the layouts.
- ``local`` and ``subset``, by a walk from guess to guess (:class:`_ClosureWalk`):
  their certain moves never lose and their rules are monotone, so the board before
  their next guess does not depend on the order of those moves; it is memoised on
  its canonical form under the board's symmetries.
"""

from __future__ import annotations

import functools
import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

import numpy as np

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.errors import AnalyzerError, PlayerError, SimulationError
from analyzer.play.game import FirstClickRule
from analyzer.play.optimal import HIDDEN_VIEW, SMALL, Layouts, OptimalSearch
from analyzer.play.players import Action, Player, make_player
from analyzer.play.players.guessing import RandomPlayer
from analyzer.play.players.rules import _SAFE, _UNKNOWN, LocalPlayer, SubsetPlayer, rules_state
from analyzer.play.simulation import Setup, _make_setup

__all__ = ["ExactWinRate", "METHODS", "exact_win_rate", "move_distribution", "random_player_win"]

METHODS = ("auto", "walk", "formula", "closure")
"""The ways :func:`exact_win_rate` can compute a rate (see its ``method``)."""

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
        Distinct boards the walk evaluated (``walk``), distinct closures, up to
        symmetry, the closure walk evaluated (``closure``), or distinct
        ``(mines, singletons, regions)`` classes the random player's formula
        evaluated (``formula``).
    seconds : float
        Wall-clock time (not compared).
    method : str
        How the rate was computed: ``"walk"``, ``"formula"`` or ``"closure"``
        (not compared: the methods give the same probability).
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
    method: str = field(default="walk", compare=False)

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


# ------------------------------------------------------------------ the random player, by formula
@functools.lru_cache(maxsize=65536)
def random_player_win(mines: int, singletons: int, regions: tuple[int, ...]) -> Fraction:
    """The probability that the random player wins a layout, from what is still hidden.

    The random player reveals a uniformly random hidden cell and never reads
    the numbers, so on a fixed layout its clicks follow a uniformly random order
    of the hidden cells (a cell already revealed by a flood fill is skipped: the
    first hidden cell of a uniform order of a set is uniform in that hidden
    subset). The hidden safe cells fall into three kinds: the zero cells of each
    zero region not yet opened (region ``i`` has ``r_i`` zero cells, and
    clicking any one of them reveals the region and its border), the nonzero
    cells bordering some zero cell (revealed by opening a region, or by a
    click: either way they never decide the game) and the ``s`` *singletons*,
    nonzero cells bordering no zero cell, revealed only by a click of their own.
    The player wins if and only if every singleton and at least one zero cell of
    each region come before the first of the ``M`` mines in the order.

    Give each hidden cell an independent uniform time in ``[0, 1]``: the first
    mine comes at ``t`` with density ``M (1 - t)^(M - 1)``; given ``t``, the other
    cells come before it independently, each with probability ``t``. So::

        P(win) = integral_0^1 M (1-t)^(M-1) t^s prod_i (1 - (1-t)^(r_i)) dt
               = sum over sets A of regions (-1)^|A| M s! (M - 1 + a)! / (M + a + s)!

    with ``a`` the number of zero cells of the regions in ``A`` (expand the product
    and use the Beta integral ``int (1-t)^(M-1+a) t^s dt = s! (M-1+a)! / (M+a+s)!``).
    With no mine the player wins. Regions enter only through the sums ``a``,
    which are counted with their signs by a knapsack over the region sizes.

    Parameters
    ----------
    mines : int
        Hidden mines ``M``.
    singletons : int
        Hidden singletons ``s``.
    regions : tuple of int
        Zero cells of each hidden zero region (``r_i >= 1``), sorted.

    Examples
    --------
    2x2 with one mine after a safe corner: two safe cells, both showing 1.

    >>> random_player_win(1, 2, ())
    Fraction(1, 3)

    Two mines and a region of one zero cell: the zero must come first of three.

    >>> random_player_win(2, 0, (1,)), random_player_win(0, 3, (2, 2))
    (Fraction(1, 3), Fraction(1, 1))
    """
    if mines < 0 or singletons < 0 or any(r < 1 for r in regions):
        raise SimulationError(f"bad random-player class: {mines} mines, {singletons} singletons, {regions}")
    if mines == 0:
        return Fraction(1)
    signed: dict[int, int] = {0: 1}
    for size in regions:
        grown = dict(signed)
        for total, count in signed.items():
            grown[total + size] = grown.get(total + size, 0) - count
        signed = grown
    fs = math.factorial(singletons)
    result = Fraction(0)
    for a, count in signed.items():
        if count:
            result += Fraction(
                count * mines * fs * math.factorial(mines - 1 + a), math.factorial(mines + a + singletons)
            )
    return result


def _random_classes(search: OptimalSearch, layouts: np.ndarray) -> list[tuple[list[tuple[int, int]], int]]:
    """Per layout: its zero regions as ``(cells bit set, zero cells)`` and its singletons bit set."""
    if len(layouts) == 0:
        return []
    cells = search.cells
    counts = np.stack([np.bitwise_count(layouts & search.neighbours[i]) for i in range(cells)], axis=1)
    mine = np.stack([(layouts >> np.uint64(i)) & _ONE for i in range(cells)], axis=1).astype(bool)
    zero = (counts == 0) & ~mine
    weights = np.array([1 << i for i in range(cells)], dtype=np.uint64)
    zero_bits = (zero.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)
    touched = np.stack([np.bitwise_and(zero_bits, search.neighbours[i]) != 0 for i in range(cells)], axis=1)
    singles = ~mine & ~zero & ~touched
    single_bits = (singles.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)
    around = search._neighbour_ints
    out = []
    for zeros, single in zip(zero_bits.tolist(), single_bits.tolist(), strict=True):
        regions = []
        left = zeros
        while left:
            region = left & -left
            frontier = region
            while frontier:
                grown = 0
                while frontier:
                    low = frontier & -frontier
                    grown |= around[low.bit_length() - 1]
                    frontier ^= low
                frontier = grown & left & ~region
                region |= frontier
            left &= ~region
            regions.append((region, region.bit_count()))
        out.append((regions, single))
    return out


def _random_rate(
    search: OptimalSearch, rule: FirstClickRule, firsts: dict[int, Fraction]
) -> tuple[Fraction, int]:
    """The random player's exact win rate by :func:`random_player_win`, and the classes evaluated."""
    layouts = search.layouts
    parts = dict(zip(layouts.tolist(), _random_classes(search, layouts), strict=True))
    classes: set[tuple[int, tuple[int, ...]]] = set()

    def won(index: int, safe: np.ndarray) -> Fraction:
        bit = 1 << index
        tally: Counter[tuple[int, tuple[int, ...]]] = Counter()
        for layout in safe.tolist():
            regions, single = parts[layout]
            if single & bit:
                key = (single.bit_count() - 1, tuple(sorted(size for _, size in regions)))
            else:
                key = (single.bit_count(), tuple(sorted(size for cells, size in regions if not cells & bit)))
            tally[key] += 1
        classes.update(tally)
        return sum(
            (count * random_player_win(search.mines, *key) for key, count in tally.items()), Fraction(0)
        )

    probability = _over_first_cells(search, rule, firsts, won)
    return probability, len(classes)


# ------------------------------------------------------------ local and subset, on their closures
class _ClosureWalk:
    """The game tree of ``local`` or ``subset``, from guess to guess, memoised up to symmetry.

    The certain moves of these players (flag a proved mine, reveal a proved safe
    cell) never lose, and their rules are monotone: a cell proved on a board is
    proved on any board that shows more. So however the certain moves are
    ordered, the player reaches the same board before its next guess (the
    least fixed point of "reveal what the rules prove"), and a flag never has to
    be stored: the rules prove the same mines again. Here every proved safe cell
    is revealed at once (a revealed zero's neighbours are then proved safe by
    the zero, which is the Game's flood fill), and only the guesses branch,
    uniformly over the hidden cells the rules did not settle. The rules ignore
    orientation, so the value of a view is memoised on its canonical form under
    the board's symmetries (:meth:`OptimalSearch.key`).
    """

    def __init__(self, subset: bool, search: OptimalSearch, max_boards: int | None, player: Player) -> None:
        self.subset = subset
        self.search = search
        self.max_boards = max_boards
        self.player = player
        self.memo: dict[bytes, Fraction | int] = {}
        #: The same values by the view itself, as met (a hit here skips the canonical form).
        self.seen: dict[bytes, Fraction | int] = {}
        self.safe_total = search.cells - search.mines

    def after(self, view: np.ndarray, layouts: Layouts, cells: list[int]) -> Fraction | int:
        """The value summed over what revealing ``cells`` (safe in every one of ``layouts``) shows."""
        total: Fraction | int = 0
        for child, group in self.search.reveal(view, layouts, cells):
            total += self.value(child, group)
        return total

    def value(self, view: np.ndarray, layouts: Layouts) -> Fraction | int:
        """How many of ``layouts`` the player wins from ``view`` (expected, over its guesses)."""
        if np.count_nonzero(view >= 0) == self.safe_total:
            return len(layouts)
        raw = view.tobytes()
        found = self.seen.get(raw)
        if found is not None:
            return found
        key = self.search.key(view)
        found = self.memo.get(key)
        if found is not None:
            self.seen[raw] = found
            return found
        if self.max_boards is not None and len(self.memo) >= self.max_boards:
            raise SimulationError(
                f"exact win rate of {self.player!r} stopped after {self.max_boards} boards (max_boards)"
            )
        cells = view.tolist()
        state = rules_state(cells, self.search.table, subset=self.subset)
        safe = [i for i, v in enumerate(state) if v == _SAFE]
        total: Fraction | int
        if safe:
            total = self.after(view, layouts, safe)
        else:
            ground = [i for i, v in enumerate(cells) if v < 0 and state[i] == _UNKNOWN]
            won: Fraction | int = 0
            for i in ground:
                if isinstance(layouts, list):
                    bit = 1 << i
                    survivors: Layouts = [layout for layout in layouts if not layout & bit]
                else:
                    kept = layouts[(layouts >> np.uint64(i)) & _ONE == 0]
                    survivors = kept.tolist() if len(kept) <= SMALL else kept
                if len(survivors):
                    won += self.after(view, survivors, [i])
            total = Fraction(won, len(ground)) if isinstance(won, int) else won / len(ground)
            if total.denominator == 1:
                total = total.numerator
        self.memo[key] = total
        self.seen[raw] = total
        return total


def _over_first_cells(
    search: OptimalSearch,
    rule: FirstClickRule,
    firsts: dict[int, Fraction],
    won: Callable[[int, np.ndarray], Fraction | int],
) -> Fraction:
    """The win probability over the first cells: each cell's weight times the layouts won after
    revealing it (``won(cell, layouts safe there)``) over the layouts its rule allows."""
    probability = Fraction(0)
    for index, weight in firsts.items():
        if search.mines == search.cells:
            probability += weight  # won before any click
            continue
        row, col = divmod(index, search.width)
        allowed = search.layouts
        for j in rule.protected_cells("square", search.width, search.height, row, col):
            allowed = allowed[(allowed >> np.uint64(j)) & _ONE == 0]
        safe = allowed[(allowed >> np.uint64(index)) & _ONE == 0]
        if len(safe):
            probability += weight * Fraction(won(index, safe)) / len(allowed)
    return probability


def _closure_rate(walk: _ClosureWalk, rule: FirstClickRule, firsts: dict[int, Fraction]) -> Fraction:
    search = walk.search

    def won(index: int, safe: np.ndarray) -> Fraction | int:
        view = np.full(search.cells, HIDDEN_VIEW, dtype=np.int8)
        return walk.after(view, safe, [index])

    return _over_first_cells(search, rule, firsts, won)


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
    method: str = "auto",
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
    method : str
        ``"walk"``: the walk of the player's game tree (any player); ``"formula"``: the
        ``random`` player only (:func:`random_player_win`); ``"closure"``: ``local`` and
        ``subset`` only (see the module notes); ``"auto"`` (default): the one that applies.

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
    chosen, setup, rule = _checked_game(player, width, height, mines, first_click, first_cell)
    search = _checked_search(search, setup)
    if max_boards is not None and (
        isinstance(max_boards, bool) or not isinstance(max_boards, int) or max_boards < 1
    ):
        raise SimulationError(f"max_boards must be an integer >= 1, got {max_boards!r}")
    method = _chosen_method(method, chosen)
    walk = _Walk(chosen, search, max_boards)
    firsts = _first_cells(setup.first_cell, chosen, walk)
    probability, boards = _rate(method, walk, rule, firsts)
    return ExactWinRate(
        width=setup.width,
        height=setup.height,
        mines=setup.mines,
        first_click=setup.first_click,
        first_cell=setup.first_cell,
        player=setup.player,
        probability=probability,
        boards=boards,
        seconds=time.perf_counter() - start,
        method=method,
    )


def _rate(
    method: str, walk: _Walk, rule: FirstClickRule, firsts: dict[int, Fraction]
) -> tuple[Fraction, int]:
    """The exact win rate by ``method`` and the boards (or closures, or classes) it evaluated."""
    search = walk.search
    if method == "formula":
        return _random_rate(search, rule, firsts)
    if method == "closure":
        chosen = walk.player
        closure = _ClosureWalk(cast(LocalPlayer, chosen)._subset, search, walk.max_boards, chosen)
        return _closure_rate(closure, rule, firsts), len(closure.memo)
    empty = tuple([HIDDEN] * search.cells)

    def won(index: int, safe: np.ndarray) -> Fraction | int:
        return sum((walk.value(child, group) for child, group in walk.reveal(empty, safe, index)), 0)

    return _over_first_cells(search, rule, firsts, won), len(walk.memo)


def _checked_game(
    player: str | Player,
    width: int,
    height: int,
    mines: int,
    first_click: str | FirstClickRule,
    first_cell: str | tuple[int, int] | None,
) -> tuple[Player, Setup, FirstClickRule]:
    """The player, the setup (as :func:`analyzer.simulate` checks it) and a rule the walk takes."""
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
    return chosen, setup, rule


def _checked_search(search: OptimalSearch | None, setup: Setup) -> OptimalSearch:
    """``search``, or a new one, of the board of ``setup``, its layouts built (or refused) here."""
    try:
        if search is None:
            search = OptimalSearch(setup.width, setup.height, setup.mines)
        search.layouts  # noqa: B018 - built here: a board too large to hold its layouts is refused here
    except AnalyzerError as error:
        raise SimulationError(str(error)) from None
    if (search.width, search.height, search.mines) != (setup.width, setup.height, setup.mines):
        raise SimulationError("the search given is for another board")
    return search


def _chosen_method(method: str, chosen: Player) -> str:
    """The method ``"auto"`` stands for with ``chosen``, or ``method`` checked against it."""
    if method not in METHODS:
        raise SimulationError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    # Exact types: a subclass may play otherwise than the formula and the closure assume.
    if method == "auto":
        if type(chosen) is RandomPlayer:
            return "formula"
        if type(chosen) in (LocalPlayer, SubsetPlayer):
            return "closure"
        return "walk"
    if method == "formula" and type(chosen) is not RandomPlayer:
        raise SimulationError(f"method 'formula' is for the random player only, not {chosen!r}")
    if method == "closure" and type(chosen) not in (LocalPlayer, SubsetPlayer):
        raise SimulationError(f"method 'closure' is for the local and subset players only, not {chosen!r}")
    return method


def _first_cells(first_cell: str, chosen: Player, walk: _Walk) -> dict[int, Fraction]:
    """Each first cell's flat index and chance: the given cell, every cell, or the player's draws."""
    search = walk.search
    if first_cell == "player":
        firsts: dict[int, Fraction] = {}
        empty = tuple([HIDDEN] * search.cells)
        for action, weight in move_distribution(chosen, walk.board(empty)).items():
            if action.kind != "reveal":
                raise PlayerError(
                    f"{chosen!r} flags before the first reveal; exact win rates need a reveal first"
                )
            index = action.row * search.width + action.col
            firsts[index] = firsts.get(index, Fraction(0)) + weight
        return firsts
    if first_cell == "random":
        return {i: Fraction(1, search.cells) for i in range(search.cells)}
    row, col = (int(part) for part in first_cell.split(","))
    return {row * search.width + col: Fraction(1)}
