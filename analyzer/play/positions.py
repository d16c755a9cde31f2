"""Hard synthetic positions for benchmarks and stress tests.

Each builder places mines with a seeded generator and reveals a chosen set of
safe cells with their true numbers, so every position is consistent (at least
the true layout satisfies it). They are built to be hard for exact counting:
many overlapping clues in one component, and long frontiers.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from analyzer.board.board import FLAG, HIDDEN, Board

__all__ = [
    "reveal_true_numbers",
    "mid_game",
    "clue_lattice",
    "chain",
    "double_chain",
    "wide_frontier",
    "numbers_of",
]


def reveal_true_numbers(
    width: int, height: int, mines: Iterable[tuple[int, int]], revealed: Iterable[tuple[int, int]]
) -> Board:
    """The board with ``revealed`` cells showing their true numbers, the rest hidden.

    >>> print(reveal_true_numbers(3, 1, [(0, 0)], [(0, 1), (0, 2)]))
    H10
    """
    mine_set = set(mines)
    probe = Board(width, height, 0, (0,) * (width * height))
    cells = [HIDDEN] * (width * height)
    for r, c in revealed:
        if (r, c) in mine_set:
            raise ValueError(f"cannot reveal {(r, c)!r}: it holds a mine")
        cells[r * width + c] = sum(n in mine_set for n in probe.neighbours(r, c))
    return Board(width, height, len(mine_set), tuple(cells))


def mid_game(
    width: int,
    height: int,
    mines: int,
    *,
    progress: float = 0.5,
    flag_fraction: float = 0.0,
    seed: int = 0,
    topology: str = "square",
) -> Board:
    """A random position part way through a game, as a player would see it.

    A game starts with an opening at the centre; then safe cells next to the
    revealed area (any safe cell when there is none) are revealed at random, as
    a player who never guesses wrong would, until ``progress`` of the safe cells
    are revealed. ``flag_fraction`` of the mines next to revealed cells are
    flagged. ``topology``: a name of :data:`analyzer.board.topology.TOPOLOGIES`.

    >>> board = mid_game(9, 9, 10, progress=0.5, seed=1)
    >>> board.width, board.mines, sum(v >= 0 for v in board.cells) >= 35
    (9, 10, True)
    """
    from analyzer.play.game import Game

    rng = np.random.default_rng(seed)
    game = Game.new(width, height, mines, first_click="opening", rng=rng, topology=topology)
    table = game.board.neighbour_table
    safe_total = width * height - mines
    target = min(safe_total, int(progress * safe_total))
    revealed = set()
    frontier: set[int] = set()
    step = game.reveal(height // 2, width // 2)
    while True:
        for r, c in step.revealed:
            i = r * width + c
            revealed.add(i)
            frontier.discard(i)
            frontier.update(j for j in table[i] if j not in revealed and not game.is_mine(*divmod(j, width)))
        if game.status != "playing" or game.revealed_count >= target:
            break
        if frontier:
            choices = sorted(frontier)
            pick = choices[int(rng.integers(len(choices)))]
        else:
            # No safe cell touches the revealed area: jump to any safe hidden cell.
            rest = [
                i for i in range(width * height) if i not in revealed and not game.is_mine(*divmod(i, width))
            ]
            pick = rest[int(rng.integers(len(rest)))]
        step = game.reveal(*divmod(pick, width))
    board = game.board
    if flag_fraction > 0:
        view = board.cells
        flags = {
            divmod(i, width): FLAG
            for i, v in enumerate(view)
            if v == HIDDEN
            and game.is_mine(*divmod(i, width))
            and any(view[j] >= 0 for j in table[i])
            and rng.random() < flag_fraction
        }
        board = board.replace(flags)
    return board


def _mines(
    rng: np.random.Generator, candidates: list[tuple[int, int]], density: float
) -> list[tuple[int, int]]:
    return [cell for cell in candidates if rng.random() < density]


def clue_lattice(size: int, *, density: float = 0.375, seed: int = 0) -> Board:
    """Clues on every other cell of every other row: neighbourhoods overlap.

    A ``(2 * size + 1)``-square board; the clues at odd (row, column) see the
    eight cells around them, each shared with up to three other clues, so the
    whole board is one component. ``density`` 3/8 makes the clues mostly 3s.
    """
    rng = np.random.default_rng(seed)
    n = 2 * size + 1
    clues = [(r, c) for r in range(1, n, 2) for c in range(1, n, 2)]
    clue_set = set(clues)
    others = [(r, c) for r in range(n) for c in range(n) if (r, c) not in clue_set]
    return reveal_true_numbers(n, n, _mines(rng, others, density), clues)


def chain(length: int, *, density: float = 0.4, seed: int = 0) -> Board:
    """A long chain of 1s and 2s: a hidden row over a row of clues over a revealed row."""
    rng = np.random.default_rng(seed)
    mines = _mines(rng, [(0, c) for c in range(length)], density)
    revealed = [(r, c) for r in (1, 2) for c in range(length)]
    return reveal_true_numbers(length, 3, mines, revealed)


def double_chain(length: int, *, density: float = 0.3, seed: int = 0) -> Board:
    """A hidden strip two cells deep between two rows of clues: a wider frontier."""
    rng = np.random.default_rng(seed)
    mines = _mines(rng, [(r, c) for r in (1, 2) for c in range(length)], density)
    revealed = [(r, c) for r in (0, 3) for c in range(length)]
    return reveal_true_numbers(length, 4, mines, revealed)


def wide_frontier(width: int, height: int, *, density: float = 0.2, seed: int = 0) -> Board:
    """A revealed open area whose border with the hidden part is a long, ragged frontier.

    Cells left of a random walk are revealed where safe; mines elsewhere stay
    hidden, as do the safe cells beyond the walk.
    """
    rng = np.random.default_rng(seed)
    mines = set(_mines(rng, [(r, c) for r in range(height) for c in range(width)], density))
    edge = width // 2
    revealed: list[tuple[int, int]] = []
    for r in range(height):
        edge = int(np.clip(edge + rng.integers(-2, 3), 1, width - 1))
        revealed.extend((r, c) for c in range(edge) if (r, c) not in mines)
    # A revealed cell must not claim to be a mine; islands of hidden mines inside
    # the revealed part stay hidden, like flags a player has not placed.
    return reveal_true_numbers(width, height, mines, revealed)


def numbers_of(width: int, height: int, mines: int, value: int = 3, *, seed: int = 0) -> Board:
    """A random layout of ``mines`` mines with every safe cell that shows ``value`` revealed, nothing else.

    On 16x16 with 51 mines the 3s touch one another in chains and rings: long
    components of many layouts whose clues each overlap only their neighbours.

    >>> board = numbers_of(16, 16, 51, seed=4)
    >>> board.mines, set(v for v in board.cells if v >= 0)
    (51, {3})
    """
    rng = np.random.default_rng(seed)
    cells = [(r, c) for r in range(height) for c in range(width)]
    layout = {cells[i] for i in rng.choice(width * height, mines, replace=False).tolist()}
    probe = Board(width, height, 0, (0,) * (width * height))
    shown = [
        cell
        for cell in cells
        if cell not in layout and sum(n in layout for n in probe.neighbours(*cell)) == value
    ]
    return reveal_true_numbers(width, height, layout, shown)
