"""Neighbourhoods: the one function of the board that knows the topology (square, torus)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer import HIDDEN, Board
from analyzer.board.topology import TOPOLOGIES, chebyshev_ball, neighbour_array, neighbour_table


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


@given(st.integers(1, 6), st.integers(1, 6), st.sampled_from(TOPOLOGIES))
def test_neighbourhoods_are_symmetric_sorted_and_exclude_the_cell(width, height, topology):
    board = Board(width, height, 0, (HIDDEN,) * (width * height), topology)
    for r in range(height):
        for c in range(width):
            around = board.neighbours(r, c)
            assert (r, c) not in around
            assert list(around) == sorted(set(around))
            assert len(around) <= 8
            for other in around:
                assert (r, c) in board.neighbours(*other)


@given(st.integers(3, 7), st.integers(3, 7), st.data())
def test_torus_equals_square_away_from_the_edges(width, height, data):
    square = Board(width, height, 0, (HIDDEN,) * (width * height))
    torus = Board(width, height, 0, (HIDDEN,) * (width * height), "torus")
    row = data.draw(st.integers(1, height - 2))
    col = data.draw(st.integers(1, width - 2))
    assert square.neighbours(row, col) == torus.neighbours(row, col)


@given(st.integers(1, 8), st.integers(1, 8), st.sampled_from(TOPOLOGIES))
def test_array_and_table_describe_the_same_neighbourhoods(width, height, topology):
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
