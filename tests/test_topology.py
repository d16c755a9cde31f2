"""Neighbourhoods: the one function of the board that knows the topology.

Square, torus, hexagonal, cube, knight, cross and graphs: each checked against
a definition written independently here (hexagonal through cube coordinates,
the cube through its unfolded net), then the text formats (round trips, bad
input) and the exact solve on every topology against the brute force.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import numpy as np
import pytest
from bruteforce import BruteForce, brute_force
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import ALL_TOPOLOGIES, board_shapes, examples, positions
from test_explain import assert_minimal_explanation

from analyzer import (
    FLAG,
    HIDDEN,
    Board,
    BoardParseError,
    Game,
    GameError,
    SimulationError,
    certain_cells,
    explain,
    make_player,
    simulate,
    solve,
)
from analyzer.board.topology import (
    CUBE_NET,
    MAX_DEGREE,
    TOPOLOGIES,
    Graph,
    chebyshev_ball,
    neighbour_array,
    neighbour_table,
)
from analyzer.play.positions import mid_game
from analyzer.play.simulation import play

Cell = tuple[int, int]


def _naive_square_neighbours(width, height, row, col):
    return tuple(
        (r, c)
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col) and 0 <= r < height and 0 <= c < width
    )


def test_square_neighbour_counts():
    board = Board.from_text("4x3x0\n0000\n0000\n0000\n")
    assert board.neighbours(0, 0) == ((0, 1), (1, 0), (1, 1))
    assert len(board.neighbours(0, 1)) == 5
    assert board.neighbours(1, 1) == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))
    assert Board.from_text("1x1x0\n0\n").neighbours(0, 0) == ()
    with pytest.raises(IndexError):
        board.neighbours(3, 0)


@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_square_neighbours_follow_the_rules(width, height, data):
    board = Board(width, height, 0, (HIDDEN,) * (width * height))
    row = data.draw(st.integers(0, height - 1))
    col = data.draw(st.integers(0, width - 1))
    assert board.neighbours(row, col) == _naive_square_neighbours(width, height, row, col)


def test_torus_neighbours_wrap_around():
    board = Board(4, 4, 0, (HIDDEN,) * 16, "torus")
    assert board.neighbours(0, 0) == ((0, 1), (0, 3), (1, 0), (1, 1), (1, 3), (3, 0), (3, 1), (3, 3))
    assert all(len(board.neighbours(r, c)) == 8 for r in range(4) for c in range(4))
    # Small tori: the wrapped offsets land on the same cells, each counted once.
    assert Board(2, 2, 0, (HIDDEN,) * 4, "torus").neighbours(0, 0) == ((0, 1), (1, 0), (1, 1))
    assert Board(3, 1, 0, (HIDDEN,) * 3, "torus").neighbours(0, 0) == ((0, 1), (0, 2))
    assert Board(1, 1, 0, (HIDDEN,), "torus").neighbours(0, 0) == ()


@given(st.sampled_from(ALL_TOPOLOGIES).flatmap(board_shapes))
def test_neighbourhoods_are_symmetric_sorted_and_exclude_the_cell(shape):
    width, height, topology = shape
    board = Board(width, height, 0, (HIDDEN,) * (width * height), topology)
    for r in range(height):
        for c in range(width):
            around = board.neighbours(r, c)
            assert (r, c) not in around
            assert list(around) == sorted(set(around))
            assert len(around) <= MAX_DEGREE
            for other in around:
                assert (r, c) in board.neighbours(*other)


@given(st.integers(3, 7), st.integers(3, 7), st.data())
def test_torus_equals_square_away_from_the_edges(width, height, data):
    square = Board(width, height, 0, (HIDDEN,) * (width * height))
    torus = Board(width, height, 0, (HIDDEN,) * (width * height), "torus")
    row = data.draw(st.integers(1, height - 2))
    col = data.draw(st.integers(1, width - 2))
    assert square.neighbours(row, col) == torus.neighbours(row, col)


@given(st.sampled_from(ALL_TOPOLOGIES).flatmap(lambda t: board_shapes(t, max_side=8)))
def test_array_and_table_describe_the_same_neighbourhoods(shape):
    width, height, topology = shape
    table = neighbour_table(topology, width, height)
    array = neighbour_array(topology, width, height)
    assert len(table) == width * height
    for i, around in enumerate(table):
        n = width * height
        assert sorted(int(j) for j in array[i] if j < n) == sorted(around)


@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 3), st.data())
def test_chebyshev_ball_on_a_square_board_is_the_clipped_square(width, height, radius, data):
    row = data.draw(st.integers(0, height - 1))
    col = data.draw(st.integers(0, width - 1))
    expected = tuple(
        r * width + c
        for r in range(height)
        for c in range(width)
        if abs(r - row) <= radius and abs(c - col) <= radius
    )
    assert chebyshev_ball("square", width, height, row, col, radius) == expected


def test_unknown_topology_and_negative_radius_are_refused():
    with pytest.raises(ValueError, match="topology"):
        neighbour_table("hexagonal-ish", 3, 3)
    with pytest.raises(ValueError, match="radius"):
        chebyshev_ball("square", 3, 3, 0, 0, -1)


# ---------------------------------------------------------------- hexagonal
def _hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two cells of offset rows whose odd rows sit half a cell left ("even-r")."""

    def axial(cell: tuple[int, int]) -> tuple[int, int]:
        row, col = cell
        return col - (row + (row & 1)) // 2, row

    (q1, r1), (q2, r2) = axial(a), axial(b)
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_hex_neighbours_are_the_cells_one_step_away(width, height, data):
    board = Board(width, height, 0, (HIDDEN,) * (width * height), "hex")
    row = data.draw(st.integers(0, height - 1))
    col = data.draw(st.integers(0, width - 1))
    expected = tuple(
        (r, c) for r in range(height) for c in range(width) if _hex_distance((row, col), (r, c)) == 1
    )
    assert board.neighbours(row, col) == expected


def test_hex_rows_are_offset_as_minesweepr_draws_them():
    board = Board(4, 4, 0, (HIDDEN,) * 16, "hex")
    # An even row touches the same and the next column above and below, an odd row the same and the previous.
    assert board.neighbours(2, 1) == ((1, 1), (1, 2), (2, 0), (2, 2), (3, 1), (3, 2))
    assert board.neighbours(1, 1) == ((0, 0), (0, 1), (1, 0), (1, 2), (2, 0), (2, 1))
    assert board.neighbours(0, 0) == ((0, 1), (1, 0), (1, 1))
    assert board.neighbours(1, 0) == ((0, 0), (1, 1), (2, 0))
    assert max(len(board.neighbours(r, c)) for r in range(4) for c in range(4)) == 6


# --------------------------------------------------------------------- cube
def _net_position(n: int, index: int) -> tuple[int, int]:
    face, rest = divmod(index, n * n)
    r, c = divmod(rest, n)
    return CUBE_NET[face][0] * n + r, CUBE_NET[face][1] * n + c


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_cube_cells_touch_across_edges_but_not_across_corners(n):
    table = neighbour_table("cube", n, 6 * n)
    assert len(table) == 6 * n * n
    degrees = sorted(len(around) for around in table)
    if n == 1:  # each face touches the four beside it, not the one opposite
        assert degrees == [4] * 6
    else:  # 24 cells sit at the cube's eight corners (three faces each): seven neighbours
        assert degrees == [7] * 24 + [8] * (6 * n * n - 24)
    # Cells side by side (or diagonal) in the unfolded net touch on the cube.
    where = {_net_position(n, i): i for i in range(6 * n * n)}
    for (r, c), i in where.items():
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                j = where.get((r + dr, c + dc))
                if j is not None and j != i:
                    assert j in table[i]
    # Within a face, the square grid.
    square = neighbour_table("square", n, n)
    for face in range(6):
        for k in range(n * n):
            inside = tuple(j - face * n * n for j in table[face * n * n + k] if j // (n * n) == face)
            assert inside == square[k]


def test_cube_faces_touch_four_others_each():
    n = 3
    table = neighbour_table("cube", n, 6 * n)
    for face in range(6):
        touched = {j // (n * n) for i in range(face * n * n, (face + 1) * n * n) for j in table[i]} - {face}
        assert len(touched) == 4
        # A cube's opposite face never touches: the net's opposite pairs are 0-3, 1-4, 2-5.
        assert (face + 3) % 6 not in touched


def test_cube_board_size_is_checked():
    with pytest.raises(BoardParseError, match=r"cube of 3x3 faces is 3 wide and 18 high.*got 3x3"):
        Board(3, 3, 0, (HIDDEN,) * 9, "cube")


# ---------------------------------------------------------- knight and cross
@given(st.integers(1, 7), st.integers(1, 7), st.sampled_from(["knight", "cross"]), st.data())
def test_knight_and_cross_neighbours(width, height, topology, data):
    board = Board(width, height, 0, (HIDDEN,) * (width * height), topology)
    row = data.draw(st.integers(0, height - 1))
    col = data.draw(st.integers(0, width - 1))

    def touches(dr: int, dc: int) -> bool:
        if topology == "knight":
            return {abs(dr), abs(dc)} == {1, 2}
        return (dr == 0) != (dc == 0) and max(abs(dr), abs(dc)) <= 2

    expected = tuple((r, c) for r in range(height) for c in range(width) if touches(r - row, c - col))
    assert board.neighbours(row, col) == expected


# -------------------------------------------------------------------- graphs
def test_graph_boards_are_one_row_of_the_graphs_cells():
    board = Board.from_graph([[1, 2], [0], [0]], [1, HIDDEN, HIDDEN], mines=1, names=["a", "b", "c"])
    assert (board.width, board.height) == (3, 1)
    assert board.neighbours(0, 0) == ((0, 1), (0, 2))
    assert isinstance(board.topology, Graph) and board.topology.name_of(2) == "c"


@pytest.mark.parametrize(
    ("neighbours", "message"),
    [
        ([[1], []], r"not symmetric: cell 0 lists 1 but cell 1 does not list 0"),
        ([[1, 1], [0]], r"cell 0 lists neighbour 1 twice"),
        ([[5], []], r"cell 0: neighbour index 5 is out of range 0\.\.1"),
        ([[-1], []], r"cell 0: neighbour index -1 is out of range"),
        ([[0]], r"cell 0 lists itself as a neighbour"),
        ([["x"], []], r"cell 0: neighbour 'x' is not a cell index"),
        ([list(range(1, 10))] + [[0]] * 9, r"cell 0 has 9 neighbours; at most 8"),
        ([], r"at least one cell"),
    ],
)
def test_bad_graphs_are_refused_in_one_line(neighbours, message):
    with pytest.raises(BoardParseError, match=message):
        Graph(neighbours)


def test_bad_graph_names_and_positions():
    with pytest.raises(BoardParseError, match=r"cell 'a' is listed twice"):
        Graph([[1], [0]], names=["a", "a"])
    with pytest.raises(BoardParseError, match=r"2 cells but 1 names"):
        Graph([[1], [0]], names=["a"])
    with pytest.raises(BoardParseError, match=r"2 cells but 1 positions"):
        Graph([[1], [0]], positions=[(0, 0)])
    with pytest.raises(BoardParseError, match=r"a board on a graph of 2 cells is 2x1"):
        Board(1, 2, 0, (HIDDEN, HIDDEN), Graph([[1], [0]]))


# -------------------------------------------------------------- text formats
def _boards_of(topology: str) -> st.SearchStrategy[Board]:
    def board_of(shape: tuple[int, int, str | Graph]) -> st.SearchStrategy[Board]:
        width, height, topology = shape
        size = width * height
        values = st.lists(st.sampled_from([HIDDEN, FLAG, *range(9)]), min_size=size, max_size=size)
        return values.flatmap(
            lambda cells: st.integers(cells.count(FLAG), cells.count(FLAG) + cells.count(HIDDEN)).map(
                lambda mines: Board(width, height, mines, tuple(cells), topology)
            )
        )

    return board_shapes(topology).flatmap(board_of)


@settings(max_examples=examples(40))
@given(st.sampled_from(ALL_TOPOLOGIES).flatmap(_boards_of))
def test_every_board_reads_back_from_its_text_and_its_json(board):
    text = board.to_text()
    assert Board.from_text(text) == board
    assert Board.from_text(text).to_text() == text
    assert eval(repr(board), {"Board": Board}) == board  # noqa: S307 - repr is an expression that rebuilds it
    again = Board.from_json(board.to_json())  # any board as a graph: the same cells, the same neighbourhoods
    assert again.cells == board.cells and again.mines == board.mines
    assert again.neighbour_table == board.neighbour_table
    assert Board.from_json(again.to_json()) == again


def test_the_header_names_the_topology():
    board = Board.from_text("3x2x1 hex\nH1H\n011\n")
    assert board.topology == "hex"
    assert board.to_text() == "3x2x1 hex\nH1H\n011\n"
    assert Board.from_text("3x2x1 Hexagonal\nH1H\n011\n") == board
    assert Board.from_text("3x2x1\nH1H\n011\n").topology == "square"
    assert Board.from_text("1x6x0 cube\n0\n0\n0\n0\n0\n0\n").topology == "cube"
    for name in TOPOLOGIES:
        rows = ["H"] * 6 if name == "cube" else ["HH", "HH"]
        assert Board.from_grid(rows, 1, topology=name).topology == name


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "3x2x1 sphere\nH1H\n011\n",
            r"line 1, column 7: bad header '3x2x1 sphere': unknown topology 'sphere'",
        ),
        ("3x2x1 cube\nH1H\n011\n", r"line 1, column 7: .*cube of 3x3 faces is 3 wide and 18 high"),
        ("3x2x1 hex 2\nH1H\n011\n", r"line 1, column 1: bad header '3x2x1 hex 2'"),
        (
            "3x1x1 graph\nH1H\n",
            r"line 1, column 7: .*a graph is not named but given: its cells and neighbours",
        ),
    ],
)
def test_bad_headers(text, message):
    with pytest.raises(BoardParseError, match=message):
        Board.from_text(text)


_CELL = '{"state": "H", "neighbours": [1]}'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", r"line 1, column 2: not JSON"),
        ("[1]", r"line 1, column 1: bad header .\[1\]."),
        ('{"mines": 0, "cells": []}', r"'cells' must be a non-empty list"),
        (
            '{"mines": -1, "cells": [{"state": "0", "neighbours": []}]}',
            r"'mines' must be a non-negative integer",
        ),
        ('{"mines": 0, "cells": [{"state": "0", "neighbours": []}], "size": 3}', r"unknown key 'size'"),
        (
            '{"topology": "hex", "mines": 0, "cells": [{"state": "0", "neighbours": []}]}',
            r"topology is 'graph'",
        ),
        ('{"mines": 0, "cells": [{"state": "9", "neighbours": []}]}', r"cell 0: bad state '9'"),
        ('{"mines": 0, "cells": [{"state": "0"}]}', r"cell 0: 'neighbours' must be a list"),
        (
            '{"mines": 0, "cells": [{"state": "0", "neighbours": [], "colour": 1}]}',
            r"cell 0: unknown key 'colour'",
        ),
        (
            '{"mines": 0, "cells": [{"name": "a", "state": "0", "neighbours": ["a2"]}, '
            '{"name": "a", "state": "0", "neighbours": []}]}',
            r"cell 'a' is listed twice \(cells 0 and 1\)",
        ),
        (
            '{"mines": 0, "cells": [{"name": "a", "state": "0", "neighbours": ["b"]}, '
            '{"name": "b", "state": "0", "neighbours": []}]}',
            r"not symmetric: cell 0 lists 1 but cell 1 does not list 0",
        ),
        (
            '{"mines": 0, "cells": [{"name": "a", "state": "0", "neighbours": ["z"]}]}',
            r"unknown neighbour 'z'",
        ),
        (
            '{"mines": 0, "cells": [' + _CELL + ", " + '{"state": "H", "neighbours": [0, 7]}]}',
            r"index 7 is out of range",
        ),
        (
            '{"mines": 0, "cells": [' + _CELL + ", " + '{"state": "H", "neighbours": [0, 0]}]}',
            r"cell 1 lists neighbour 0 twice",
        ),
        (
            '{"mines": 3, "cells": [' + _CELL + ", " + '{"state": "H", "neighbours": [0]}]}',
            r"more mines \(3\) than cells \(2\)",
        ),
        (
            '{"mines": 0, "cells": [{"state": "0", "neighbours": [], "position": [0, "y"]}]}',
            r"cell 0: position must be \[x, y\]",
        ),
    ],
)
def test_bad_json_boards_are_one_clear_line(text, message):
    with pytest.raises(BoardParseError, match=message) as caught:
        Board.from_text(text)
    assert "\n" not in str(caught.value)


def test_json_names_and_positions_round_trip():
    text = (
        '{"topology": "graph", "mines": 1, "cells": [\n'
        '  {"state": "H", "neighbours": [1], "name": "a", "position": [0.0, 0.0]},\n'
        '  {"state": "1", "neighbours": [0, 2], "name": "b", "position": [1.0, 0.0]},\n'
        '  {"state": "H", "neighbours": [1], "name": "c", "position": [2.0, 0.5]}\n'
        "]}"
    )
    board = Board.from_text(text)
    assert board.to_text() == text
    assert board.topology.names == ("a", "b", "c")
    by_name = text.replace('"neighbours": [1]', '"neighbours": ["b"]').replace("[0, 2]", '["a", "c"]')
    assert Board.from_json(by_name) == board


# ------------------------------------------------ the exact solve on every topology
@pytest.mark.parametrize("topology", ALL_TOPOLOGIES)
@settings(max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_probabilities_and_certain_cells_equal_the_brute_force_on_every_topology(topology, data):
    position = data.draw(positions(topology=topology, max_side=5, max_unknown=14))
    board = position.board
    oracle = brute_force(board)
    analysis = solve(board)
    assert analysis.total == oracle.total
    for cell in board.hidden_cells():
        assert analysis.probability(*cell) == oracle.probability(*cell), cell
    assert set(analysis.safe) == set(oracle.safe) and set(analysis.mines) == set(oracle.mines)
    found = certain_cells(board)
    assert set(found.safe) == set(oracle.safe) and set(found.mines) == set(oracle.mines)
    for cell in oracle.safe + oracle.mines:
        assert_minimal_explanation(board, cell, explain(board, cell))
    assert not any(cell in position.layout for cell in oracle.safe)
    assert all(cell in position.layout for cell in oracle.mines)


def test_a_zero_around_cells_already_known_safe_is_no_progress():
    """Found by the test below: cell 1 can only show 0, and its one hidden neighbour is known safe."""
    around = ((1, 4, 5), (0, 3), (3, 4, 5, 6), (1, 2, 4, 5, 6), (0, 2, 3, 6), (0, 2, 3, 6), (2, 3, 4, 5))
    graph = Graph(around)
    analysis = solve(Board(7, 1, 1, (HIDDEN, HIDDEN, HIDDEN, 1, HIDDEN, HIDDEN, HIDDEN), graph))
    assert analysis.safe == ((0, 0),) and analysis.number_distribution(0, 1) == {0: Fraction(4, 5)}
    progress = {move.cell: move.progress_probability for move in analysis.best_moves(7)}
    assert progress[(0, 1)] == 0 and progress[(0, 2)] == Fraction(4, 5)


@pytest.mark.parametrize("topology", ALL_TOPOLOGIES)
@settings(max_examples=examples(12), deadline=None)
@given(data=st.data())
def test_number_chances_and_best_moves_equal_the_brute_force_on_every_topology(topology, data):
    board = data.draw(positions(topology=topology, max_side=4, max_unknown=10)).board
    analysis = solve(board)
    total = brute_force(board).total
    hidden = board.hidden_cells()

    def revealed_as(cell: Cell, k: int) -> BruteForce | None:
        """The brute force of the board where ``cell`` shows ``k`` (``None``: the mines no longer fit)."""
        try:
            return brute_force(board.replace({cell: k}))
        except BoardParseError:
            return None

    for cell in hidden[:4]:
        expected = {}
        for k in range(len(board.neighbours(*cell)) + 1):
            shown = revealed_as(cell, k)
            if shown is not None and shown.total:
                expected[k] = Fraction(shown.total, total)
        chances = analysis.number_distribution(*cell)
        assert {k: p for k, p in chances.items() if p} == expected, cell
    for move in analysis.best_moves(3):
        assert move.mine_probability == analysis.probability(*move.cell)
        if move.progress_probability is not None:  # safe, and a number that makes a new cell certain
            before = set(analysis.safe) | set(analysis.mines)
            progress = Fraction(0)
            for k, p in analysis.number_distribution(*move.cell).items():
                shown = revealed_as(move.cell, k)
                if p and shown is not None and (set(shown.safe) | set(shown.mines)) - before:
                    progress += p
            assert move.progress_probability == progress


# ------------------------------------------------------- the game on every topology
@pytest.mark.parametrize("name", ALL_TOPOLOGIES)
@settings(max_examples=examples(15), deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_flood_fill_and_chords_follow_the_topology(name, data, seed):
    width, height, topology = data.draw(board_shapes(name))
    rng = random.Random(seed)
    cells = [(r, c) for r in range(height) for c in range(width)]
    layout = rng.sample(cells, rng.randint(0, max(0, len(cells) // 3)))
    game = Game.from_layout(width, height, layout, topology=topology)
    board = game.board
    start = rng.choice([cell for cell in cells if cell not in layout] or [None])
    if start is None:
        return
    revealed = set(game.reveal(*start).revealed)

    # What a flood from the start reveals: the zeros it reaches, and every neighbour of those.
    def number(cell):
        return sum(n in layout for n in board.neighbours(*cell))

    expected, todo = {start}, [start]
    while todo:
        cell = todo.pop()
        if number(cell) == 0:
            for n in board.neighbours(*cell):
                if n not in expected:
                    expected.add(n)
                    todo.append(n)
    assert revealed == expected
    for cell in revealed:
        assert game.board[cell] == number(cell)
    # A chord on a revealed number with its mines flagged opens exactly its hidden neighbours.
    for cell in sorted(revealed):
        around = board.neighbours(*cell)
        if game.status != "playing" or not any(game.board[n] == HIDDEN for n in around):
            continue
        for n in around:
            if n in layout and game.board[n] == HIDDEN:
                game.flag(*n)
        hidden_around = {n for n in around if game.board[n] == HIDDEN}
        opened = set(game.chord(*cell).revealed)
        assert hidden_around <= opened
        assert all(game.board[n] >= 0 for n in hidden_around)
        break


@pytest.mark.parametrize("topology", ["hex", "cube", "knight", "cross", "torus"])
def test_players_and_simulation_play_every_named_topology(topology):
    width, height = (3, 18) if topology == "cube" else (6, 5)
    for player in ("probabilistic", "expert", "local"):
        compiled = simulate(width, height, 5, player, 6, seed=3, topology=topology)
        exact = simulate(width, height, 5, player, 6, seed=3, topology=topology, exact=True)
        assert compiled.games == exact.games == 6
        assert compiled.wins == exact.wins, player  # the same games, the same choices
    assert f"{width}x{height}/5 {topology}," in compiled.setup.describe()


def test_a_graph_game_is_played_to_the_end():
    graph = Graph([[1, 2], [0, 2, 3], [0, 1, 4], [1, 4, 5], [2, 3, 5], [3, 4]])
    for seed in range(5):
        game = Game.new(len(graph), 1, 2, topology=graph, seed=seed)
        record = play(game, make_player("expert"), rng=np.random.default_rng(seed))
        assert record.status in ("won", "lost") and game.is_finished


def test_bad_topologies_in_the_game_and_the_simulation():
    with pytest.raises(GameError, match=r"unknown topology 'sphere'"):
        Game.new(4, 4, 2, topology="sphere")
    with pytest.raises(GameError, match=r"cube of 4x4 faces is 4 wide and 24 high"):
        Game.new(4, 4, 2, topology="cube")
    with pytest.raises(SimulationError, match=r"unknown topology 'sphere'"):
        simulate(4, 4, 2, "local", 2, topology="sphere")
    with pytest.raises(SimulationError, match=r"simulations take a named topology"):
        simulate(2, 1, 0, "local", 2, topology=Graph([[1], [0]]))  # type: ignore[arg-type]


# ------------------------------------------------------------------ pictures
def test_hex_cube_and_graph_boards_draw_as_svg():
    from analyzer.render import cell_centres

    hex_board = Board.from_text("3x2x1 hex\nH1H\n001\n")
    picture = solve(hex_board)._repr_html_()
    assert picture.count("<polygon") == 6 and 'data-cell="1,2"' in picture and "3x2 hex, 1 mine" in picture
    centres, size = cell_centres(hex_board)
    # Odd rows sit half a cell to the left; rows are sqrt(3)/2 cells apart (touching hexagons).
    assert centres[3][0] == centres[0][0] - size / 2
    assert abs((centres[3][1] - centres[0][1]) - size * 3**0.5 / 2) < 1e-9
    cube = Board(1, 6, 1, (HIDDEN,) * 5 + (2,), "cube")
    picture = cube._repr_html_()
    assert picture.count("<rect") == 6 and "cube of 1x1 faces" in picture
    # Faces side by side in the net touch on the cube.
    centres, size = cell_centres(cube)
    for i, around in enumerate(cube.neighbour_table):
        for j in range(6):
            close = abs(centres[i][0] - centres[j][0]) + abs(centres[i][1] - centres[j][1]) < 1.5 * size
            if i != j and close:
                assert j in around
    graph = Board.from_graph([[1], [0, 2], [1]], [HIDDEN, 1, HIDDEN], 1, names=["a", "b", "c"])
    picture = solve(graph)._repr_html_()
    assert picture.count("<circle") == 3 and picture.count("<line") == 2 and "<title>b: revealed 1" in picture
    assert "50" in picture  # a and c: one mine between them
    square = Board.from_text("3x1x1\nH1H\n")._repr_html_()
    assert "<table" in square and "<svg" not in square


# --------------------------------------------------------------------- peer
def test_minesweepr_gives_the_same_probabilities_on_hex_and_cube_positions():
    """minesweepr's solver (a fetched copy, outside the repository) on the golden hex and cube boards."""
    from benchmarks.topology import compare, find_minesweepr, peer_boards

    source = find_minesweepr()
    if source is None:
        pytest.skip("no fetched copy of mrgriscom/minesweepr ($MINESWEEPR or the fetch tool's mirror)")
    boards = [b for name, group in peer_boards(1).items() for b in group if "30x16" not in name]
    assert {b.topology for b in boards} == {"hex", "cube"}
    agree, worst, _, _, _ = compare(source, boards)
    assert agree == len(boards), worst


def test_the_peer_rules_are_the_clues_over_hidden_neighbours():
    from benchmarks.topology import minesweepr_rules

    board = Board.from_text("3x2x2 hex\nHF1\n1HH\n")
    # (0, 2), in an even row, touches (0, 1) flagged and (1, 2); (1, 0), in an odd row, (0, 0) and (1, 1).
    assert minesweepr_rules(board) == {"rules": [[0, [5]], [1, [0, 4]]], "total_cells": 3, "total_mines": 1}


# ---------------------------------------------------------------------- cli
def test_cli_solves_hex_cube_and_graph_files(tmp_path, capsys):
    from analyzer.cli import main

    hex_file = tmp_path / "h.mine"
    hex_file.write_text("3x2x1 hex\nH1H\n001\n")
    assert main(["solve", str(hex_file)]) == 0
    out = capsys.readouterr().out
    assert "3x2 hex, 1 mine" in out and "1 certainly safe, 1 certain mine" in out
    cube_file = tmp_path / "c.mine"
    cube_file.write_text("1x6x1 cube\nH\nH\n1\nH\nH\nH\n")
    assert main(["solve", str(cube_file), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["topology"] == "cube" and answer["probabilities"][2] == [None]
    graph_file = tmp_path / "g.json"
    graph_file.write_text(Board.from_graph([[1], [0, 2], [1]], [HIDDEN, 1, HIDDEN], 1, names="abc").to_json())
    assert main(["solve", str(graph_file)]) == 0
    out = capsys.readouterr().out
    assert "graph of 3 cells" in out and "b    [1]  a c" in out
    # The JSON answer names the topology; a graph's carries its neighbours, so it reads alone.
    assert main(["solve", str(graph_file), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["topology"], answer["neighbours"], answer["names"]) == (
        "graph",
        [[1], [0, 2], [1]],
        list("abc"),
    )
    assert answer["probabilities"] == [["1/2", None, "1/2"]]
    assert solve(Board.from_text("2x1x1\nH1\n")).to_dict()["topology"] == "square"
    assert main(["explain", str(hex_file)]) == 0
    assert "(0, 0) is safe" in capsys.readouterr().out
    graph_file.write_text(
        '{"mines": 0, "cells": [{"state": "0", "neighbours": [1]}, {"state": "0", "neighbours": []}]}'
    )
    assert main(["solve", str(graph_file)]) == 1
    assert capsys.readouterr().err.strip().endswith("cell 1 does not list 0")


def test_cli_simulate_and_play_take_a_topology(tmp_path, capsys):
    from analyzer.cli import main

    args = ["simulate", "--width", "6", "--height", "5", "--mines", "4", "--games", "5", "--player", "local"]
    assert main([*args, "--topology", "hex"]) == 0
    assert "6x5/4 hex" in capsys.readouterr().out
    assert main([*args, "--topology", "sphere"]) == 2  # a usage error
    assert "unknown topology 'sphere'" in capsys.readouterr().err
    layout = tmp_path / "l.txt"
    layout.write_text(".\n.\n*\n.\n.\n.\n")
    assert main(["play", "--layout", str(layout), "--topology", "cube", "--first-cell", "0,0"]) == 0
    assert "1x6, 1 mine" in capsys.readouterr().out
    assert (
        main(["play", "--layout", str(layout), "--topology", "cube", "--evf", str(tmp_path / "x.evf")]) == 1
    )
    assert "--evf writes square boards only" in capsys.readouterr().err


# ----------------------------------------- the compiled kernels on every topology
def _same(fast, general) -> None:  # noqa: ANN001
    assert fast.total == general.total
    assert fast.cell_probabilities == general.cell_probabilities
    assert fast.mine_count_distribution == general.mine_count_distribution
    assert fast == general


@pytest.mark.parametrize("topology", ALL_TOPOLOGIES)
@settings(max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_the_compiled_path_equals_the_general_one_on_every_topology(topology, data):
    """The numba kernels read the neighbour array's width (8) and its padding; the general path is Python."""
    from analyzer.solver.solve import _compiled, _solve_general

    board = data.draw(positions(topology=topology, max_side=7, max_unknown=24)).board
    _compiled(board, True)  # compiled, not interpreted: the kernel numba builds
    _same(solve(board), _solve_general(board, "auto", None, True, True))


@pytest.mark.parametrize(
    ("width", "height", "mines", "topology"),
    [(30, 16, 99, "hex"), (16, 16, 40, "knight"), (16, 16, 40, "cross"), (6, 36, 40, "cube")],
)
def test_expert_sized_positions_of_each_topology_agree_with_the_general_path(width, height, mines, topology):
    from analyzer.solver.solve import _solve_general

    for seed in range(3):
        board = mid_game(width, height, mines, progress=0.4, seed=seed, topology=topology)
        _same(solve(board), _solve_general(board, "auto", None, True, True))


def test_values_on_topologies_pickle_and_describe_themselves():
    import pickle

    graph = Board.from_graph([[1], [0]], [HIDDEN, 1], 1, names=["a", "b"], positions=[(0, 0), (1, 0)])
    for board in (graph, Board.from_text("1x6x1 cube\nH\nH\n1\nH\nH\nH\n")):
        assert pickle.loads(pickle.dumps(board)) == board
        assert hash(pickle.loads(pickle.dumps(board))) == hash(board)
    assert repr(Game.new(4, 4, 2, topology="hex")).startswith("<Game 4x4 hex, 2 mines")
    assert repr(Game.new(2, 1, 1, topology=graph.topology)).startswith("<Game 2x1 graph, 1 mine")
    from analyzer.play.metrics import layout_metrics

    found = layout_metrics(3, 1, [(0, 0)], topology="hex")
    assert (found.bbbv, found.openings, found.islands) == (1, 1, 0)  # (0, 2) is a zero opening (0, 1)
    with pytest.raises(GameError, match="unknown topology 'sphere'"):
        layout_metrics(3, 1, [(0, 0)], topology="sphere")


def test_the_interactive_session_takes_every_topology():
    from analyzer.interactive.session import Session

    session = Session()
    for board in (
        Board.from_text("3x1x1 torus\nH1H\n"),
        Board.from_text("3x2x1 hex\nH1H\n001\n"),
        Board.from_text("1x6x1 cube\nH\nH\n1\nH\nH\nH\n"),
        Board.from_graph([[1], [0]], [HIDDEN, 1], 1),
    ):
        session.set_board(board)
        assert session.board == board
        assert session.analysis is not None
        assert session.analysis.cell_probabilities == solve(board).cell_probabilities
