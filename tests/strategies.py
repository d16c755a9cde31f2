"""Shared hypothesis strategies for the tests.

* :func:`positions` / :func:`game_boards`: positions from real random games on
  small boards (mines placed uniformly from a seed hypothesis draws, a first
  click, flood fill, a few more safe clicks, some flags), small enough for the
  brute force of :mod:`bruteforce`.
* :func:`mine_texts`: ``.mine`` texts, valid, slightly broken or pure noise, for
  fuzzing the parser.
* :func:`numbered_boards`: boards whose numbers are drawn at random or nudged
  off a real layout, so that many admit no layout at all (error paths).

The game here is deliberately tiny and private to the tests: it knows the
rules (a revealed cell shows its mined neighbours; a zero opens its
neighbours) and asks :meth:`analyzer.Board.neighbours` how cells touch.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.board.topology import MAX_DEGREE, TOPOLOGIES, Graph
from analyzer.play.game import Game
from analyzer.solver.decomposition import ComponentProblem
from conftest import ALL_EXAMPLES  # the repository's root conftest.py (as tests/test_docs.py imports it)

__all__ = [
    "examples",
    "MAX_UNKNOWN",
    "ALL_TOPOLOGIES",
    "graphs",
    "board_shapes",
    "Position",
    "positions",
    "game_boards",
    "mine_texts",
    "numbered_boards",
]


def examples(count: int) -> int:
    """``max_examples`` for a property test whose full count is ``count``: all of it under
    ``make test-all``, else half, at least 10 (conftest.py's ``ALL_EXAMPLES``)."""
    return count if ALL_EXAMPLES else max(10, count // 2)


MAX_UNKNOWN = 18
"""Unknown cells (hidden, and flagged ones too) of the boards these strategies draw."""

Cell = tuple[int, int]

_CHARS = "012345678HF"


ALL_TOPOLOGIES = (*TOPOLOGIES, "graph")
"""Every topology the strategies draw: the named ones and ``"graph"``, a random :class:`Graph`."""


@st.composite
def graphs(draw: st.DrawFn, *, min_cells: int = 1, max_cells: int = 14) -> Graph:
    """A random graph: each possible edge kept with a drawn density, degrees capped at :data:`MAX_DEGREE`."""
    n = draw(st.integers(min_cells, max_cells), label="cells")
    density = draw(st.sampled_from((0.15, 0.3, 0.5, 0.8)), label="density")
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="graph seed"))
    around: list[set[int]] = [set() for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < density and len(around[i]) < MAX_DEGREE and len(around[j]) < MAX_DEGREE:
                around[i].add(j)
                around[j].add(i)
    return Graph(tuple(tuple(sorted(a)) for a in around))


@st.composite
def board_shapes(
    draw: st.DrawFn, topology: str = "square", *, min_side: int = 1, max_side: int = 6
) -> tuple[int, int, str | Graph]:
    """``(width, height, topology)`` of a board of ``topology`` (a name of :data:`ALL_TOPOLOGIES`).

    A cube is ``n`` wide and ``6 n`` high (``n`` at most 2 here); a graph's board is one row.
    """
    if topology == "graph":
        graph = draw(graphs(max_cells=max(2, max_side * 2)))
        return len(graph), 1, graph
    if topology == "cube":
        n = draw(st.integers(1, 2), label="face")
        return n, 6 * n, "cube"
    width = draw(st.integers(min_side, max_side), label="width")
    height = draw(st.integers(min_side, max_side), label="height")
    return width, height, topology


@dataclass(frozen=True)
class Position:
    """A board as the player sees it and the true mine layout under it."""

    board: Board
    layout: frozenset[Cell]

    @property
    def wrong_flags(self) -> tuple[Cell, ...]:
        """Flags on cells that hold no mine."""
        return tuple(cell for cell in self.board.flagged_cells() if cell not in self.layout)


@st.composite
def positions(
    draw: st.DrawFn,
    *,
    min_side: int = 1,
    max_side: int = 6,
    max_unknown: int = MAX_UNKNOWN,
    flags: bool = True,
    wrong_flags: bool = False,
    topology: str = "square",
) -> Position:
    """A position from a real random game, with at most ``max_unknown`` unknown cells.

    Mines are placed uniformly (from a drawn seed) away from the first click, or
    away from its whole neighbourhood (then the game opens with a zero). After
    the flood fill come a few more random safe clicks, and more until at most
    ``max_unknown`` cells are hidden. Some true mines may then be flagged and,
    with ``wrong_flags``, some safe cells too (flags never outnumber mines).

    ``topology``: a name of :data:`ALL_TOPOLOGIES` (``"graph"`` draws a random graph).
    """
    width, height, shape = draw(board_shapes(topology, min_side=min_side, max_side=max_side))
    size = width * height
    # At least a few mines (when there is room): with none the first click opens everything.
    mine_count = draw(st.integers(min(size - 1, 1 + size // 8), min(size - 1, max_unknown)), label="mines")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    first = divmod(draw(st.integers(0, size - 1), label="first click"), width)
    rng = random.Random(seed)

    template = Board(width, height, 0, (HIDDEN,) * size, shape)
    kept_free = {first}
    if (
        draw(st.booleans(), label="open with a zero")
        and size - 1 - len(template.neighbours(*first)) >= mine_count
    ):
        kept_free |= set(template.neighbours(*first))
    candidates = [(r, c) for r in range(height) for c in range(width) if (r, c) not in kept_free]
    layout = frozenset(rng.sample(candidates, mine_count))

    game = Game.from_layout(width, height, layout, topology=shape)

    def hidden() -> list[Cell]:
        return sorted(game.board.hidden_cells())

    game.reveal(*first)
    for _ in range(draw(st.integers(0, 4), label="more clicks")):
        safe = [cell for cell in hidden() if cell not in layout]
        if safe:
            game.reveal(*rng.choice(safe))
    while len(hidden()) > max_unknown:
        game.reveal(*rng.choice([cell for cell in hidden() if cell not in layout]))

    board = game.board
    changes: dict[Cell, int] = {}
    if flags:
        true_flags = draw(st.integers(0, (mine_count + 1) // 2), label="true flags")
        changes |= dict.fromkeys(rng.sample(sorted(layout), true_flags), FLAG)
    if wrong_flags:
        safe = [cell for cell in hidden() if cell not in layout]
        room = min(len(safe), mine_count - len(changes))
        changes |= dict.fromkeys(rng.sample(safe, draw(st.integers(0, room), label="wrong flags")), FLAG)
    return Position(board.replace(changes), layout)


def game_boards(**kwargs: object) -> st.SearchStrategy[Board]:
    """Boards of :func:`positions` (same keywords), without their layouts."""
    return positions(**kwargs).map(lambda position: position.board)


# ----------------------------------------------------------------- texts
@st.composite
def _grids(draw: st.DrawFn, *, max_side: int = 5, chars: str = _CHARS) -> tuple[int, int, list[str]]:
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    rows = [
        "".join(draw(st.lists(st.sampled_from(chars), min_size=width, max_size=width))) for _ in range(height)
    ]
    return width, height, rows


@st.composite
def _valid_texts(draw: st.DrawFn) -> str:
    width, height, rows = draw(_grids())
    flags = sum(row.count("F") for row in rows)
    hidden = sum(row.count("H") for row in rows)
    mines = draw(st.integers(flags, flags + hidden))
    return f"{width}x{height}x{mines}\n" + "".join(row + "\n" for row in rows)


_NOISE = "0123456789HFhfx*.? -+\t\r\n\x00é"


@st.composite
def _mutated_texts(draw: st.DrawFn) -> str:
    """A valid text with a few edits: characters inserted, deleted or replaced, lines dropped or doubled."""
    text = draw(_valid_texts())
    for _ in range(draw(st.integers(1, 3))):
        edit = draw(st.sampled_from(["insert", "delete", "replace", "drop line", "double line", "header"]))
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        char = draw(st.sampled_from(_NOISE))
        lines = text.split("\n")
        line = draw(st.integers(0, len(lines) - 1))
        if edit == "insert":
            text = text[:at] + char + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + 1 :]
        elif edit == "replace":
            text = text[:at] + char + text[at + 1 :]
        elif edit == "drop line":
            text = "\n".join(lines[:line] + lines[line + 1 :])
        elif edit == "double line":
            text = "\n".join(lines[: line + 1] + lines[line:])
        else:
            numbers = draw(
                st.lists(st.integers(-3, 10**6).map(str) | st.text("x0123456789 ", max_size=4), max_size=4)
            )
            text = "x".join(numbers) + "\n" + "\n".join(lines[1:])
    return text


def mine_texts() -> st.SearchStrategy[str]:
    """``.mine`` texts for the parser: valid ones, broken ones, ``\\r\\n`` ones, noise."""
    return st.one_of(
        _valid_texts(),
        _valid_texts().map(lambda t: t.replace("\n", "\r\n")),
        _mutated_texts(),
        st.text(_NOISE, max_size=40),
        st.text(max_size=40),
    )


# ------------------------------------------------------- random numbers
@st.composite
def _random_number_boards(draw: st.DrawFn, *, max_unknown: int = MAX_UNKNOWN) -> Board:
    """Cells drawn independently: hidden, flagged or any number, the numbers mostly small."""
    width = draw(st.integers(1, 5))
    height = draw(st.integers(1, 5))
    cell = st.one_of(st.just(HIDDEN), st.just(HIDDEN), st.just(FLAG), st.integers(0, 3), st.integers(0, 8))
    cells = draw(st.lists(cell, min_size=width * height, max_size=width * height))
    unknown = [i for i, v in enumerate(cells) if v < 0]
    for i in unknown[max_unknown:]:
        cells[i] = draw(st.integers(0, 3))
    flags = cells.count(FLAG)
    mines = draw(st.integers(flags, flags + cells.count(HIDDEN)))
    return Board(width, height, mines, tuple(cells))


@st.composite
def _nudged_boards(draw: st.DrawFn) -> Board:
    """A real position with a few numbers moved by one, or its mine total changed."""
    board = draw(game_boards(max_side=5, flags=True))
    changes = {}
    revealed = board.revealed_cells()
    if revealed:
        for cell in draw(st.lists(st.sampled_from(revealed), max_size=3, unique=True)):
            changes[cell] = min(8, max(0, board[cell] + draw(st.sampled_from([-1, 1]))))
    flags = len(board.flagged_cells())
    mines = draw(st.integers(flags, flags + len(board.hidden_cells())))
    return board.replace(changes, mines=mines)


def numbered_boards() -> st.SearchStrategy[Board]:
    """Boards that often admit no layout: random numbers, or a real position nudged."""
    return st.one_of(_random_number_boards(), _nudged_boards())


# ------------------------------------------------- component problems
@st.composite
def problems(draw: st.DrawFn) -> ComponentProblem:
    """A random component problem that at least one solution satisfies."""
    n = draw(st.integers(1, 9))
    sizes = tuple(draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)))
    truth = [draw(st.integers(0, s)) for s in sizes]
    equations = []
    for _ in range(draw(st.integers(1, 8))):
        groups = tuple(sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=min(n, 4)))))
        equations.append((groups, sum(truth[g] for g in groups)))
    # Every group must sit in an equation, as in a real component.
    covered = {g for groups, _ in equations for g in groups}
    for g in range(n):
        if g not in covered:
            equations.append(((g,), truth[g]))
    return ComponentProblem(sizes, tuple(equations))


def numerators_at_random_weights(counted: Any, problem: ComponentProblem, seed: int) -> tuple[int, ...]:
    rng = random.Random(seed)
    weights = [rng.randrange(1, 10**6) for _ in range(sum(problem.sizes) + 1)]
    return counted.group_numerators(weights)
