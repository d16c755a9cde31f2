"""Forced 50/50s: patterns, pseudo-50/50 cells, 50/50 influence (against brute force), the compiled scans."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.board.topology import neighbour_table
from analyzer.play import fast
from analyzer.play.fast import kernels
from analyzer.play.forced import LONGTERM_MISSING, fifty_fifty_patterns, fifty_influence, pseudo_fifty_fifties
from analyzer.play.game import Game
from analyzer.play.players import make_player
from analyzer.solver.solve import solve
from tests.bruteforce import _checks, _mines_left, _satisfies, _unknown_cells
from tests.strategies import positions


def _layouts(board: Board) -> list[frozenset[int]]:
    """Every layout of ``board``'s unknown cells (flat indices of the mines), by brute force."""
    unknown = _unknown_cells(board, True)
    checks = _checks(board, unknown, True, None)
    w = board.width
    flat = [r * w + c for r, c in unknown]
    found = []
    for mined in combinations(range(len(unknown)), _mines_left(board, True)):
        if _satisfies(sum(1 << k for k in mined), checks):
            found.append(frozenset(flat[k] for k in mined))
    return found


def _brute_pseudo(board: Board) -> list[int]:
    """The pseudo-50/50 cells by their definition, every probability counted over the layouts."""
    layouts = _layouts(board)
    flagged = {r * board.width + c for r, c in board.flagged_cells()}

    def p(cells_mine: set[int], cells_safe: set[int] = frozenset()) -> Fraction:  # type: ignore[assignment]
        hits = sum(1 for lay in layouts if cells_mine <= lay | flagged and not cells_safe & (lay | flagged))
        return Fraction(hits, len(layouts))

    found = set()
    for first, second, ends in fifty_fifty_patterns(board.neighbour_table):
        inside = first + second
        if any(board.cells[i] != HIDDEN or p({i}) in (0, 1) for i in inside):
            continue
        if any(board.cells[j] >= 0 for j in ends):
            continue
        missing = [j for j in ends if board.cells[j] != FLAG and p({j}) != 1]
        if len(missing) > len(first):
            continue
        share = p(set(missing) | set(first), set(second))
        # the two sides swap: the 50/50 is as likely either way round
        assert share == p(set(missing) | set(second), set(first)), (board.to_text(), first, second)
        found.update(i for i in inside if p({i}) == share)
    return sorted(found)


def _compiled_position(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The compiled form of ``board``: its neighbour table, the position after the single-number
    rules, its probabilities and (in an array) the log of its layouts."""
    nbr = fast.neighbours_of(board.topology, board.width, board.height)
    known = np.array(board.cells, dtype=np.int8)
    prob = np.empty(len(known))
    info = np.zeros(1)
    assert kernels.probabilities(known, nbr, board.mines, prob, kernels.DEFAULT_MAX_NODES, info) == 1
    kernels._closure(known, nbr)
    return nbr, known, prob, info


def _compiled_pseudo(board: Board) -> list[int]:
    nbr, known, prob, info = _compiled_position(board)
    out = np.empty(len(known), dtype=np.int64)
    patterns = kernels.fifty_fifty_patterns(nbr)
    count = kernels.pseudo_fifty_fifties(
        known, nbr, board.mines, prob, info[0], kernels.DEFAULT_MAX_NODES, patterns, out
    )
    assert count >= 0
    return out[:count].tolist()


def _brute_influence(board: Board) -> dict[int, Fraction]:
    """The 50/50 influence of every cell in doubt by its definition, every share counted over the layouts."""
    layouts = _layouts(board)
    flagged = {r * board.width + c for r, c in board.flagged_cells()}

    def p(cells_mine: set[int], cells_safe: set[int] = frozenset()) -> Fraction:  # type: ignore[assignment]
        hits = sum(1 for lay in layouts if cells_mine <= lay | flagged and not cells_safe & (lay | flagged))
        return Fraction(hits, len(layouts))

    doubt = [i for i, v in enumerate(board.cells) if v == HIDDEN and p({i}) not in (0, 1)]
    influence = dict.fromkeys(doubt, Fraction(0))
    for first, second, ends in fifty_fifty_patterns(board.neighbour_table):
        if any(i not in influence for i in first + second):
            continue
        if any(board.cells[j] >= 0 or p({j}) == 0 for j in ends):
            continue
        missing = [j for j in ends if board.cells[j] != FLAG and p({j}) != 1]
        if len(missing) > LONGTERM_MISSING:
            continue
        share = p(set(missing) | set(first), set(second))
        for i in first + second:
            influence[i] += share
        if len(missing) == 1 and missing[0] in influence:
            influence[missing[0]] += share  # a guess at its one unknown end cell stops it forming
    return {i: min(value, p({i}), 1 - p({i})) for i, value in influence.items()}


def _compiled_influence(board: Board, cells: list[int]) -> dict[int, float]:
    nbr, known, prob, info = _compiled_position(board)
    out = np.full(len(known), -1.0)
    cands = np.array(cells, dtype=np.int64)
    patterns = kernels.fifty_fifty_patterns(nbr)
    status = kernels.fifty_influence(
        known, nbr, board.mines, prob, info[0], kernels.DEFAULT_MAX_NODES, patterns, cands, len(cells), out
    )
    assert status == 1
    return {i: float(out[i]) for i in cells}


@pytest.mark.parametrize(
    ("topology", "width", "height"),
    [("square", 5, 4), ("square", 1, 5), ("square", 2, 2), ("square", 30, 16), ("torus", 4, 4)],
)
def test_compiled_patterns_are_the_listed_ones(topology: str, width: int, height: int) -> None:
    python = fifty_fifty_patterns(neighbour_table(topology, width, height))
    sides, sizes, ends, counts = kernels.fifty_fifty_patterns(fast.neighbours_of(topology, width, height))
    compiled = [
        (
            tuple(sides[q, : sizes[q]].tolist()),
            tuple(sides[q, sizes[q] : 2 * sizes[q]].tolist()),
            tuple(ends[q, : counts[q]].tolist()),
        )
        for q in range(len(sizes))
    ]
    assert compiled == python


def test_square_patterns_are_pairs_and_blocks() -> None:
    # On the square grid: each cell's pairs with its right, lower-left, lower and lower-right
    # neighbours, and each 2x2 block split three ways; an across pair has the six end cells beside it.
    width, height = 5, 4
    patterns = fifty_fifty_patterns(neighbour_table("square", width, height))
    pairs = [p for p in patterns if len(p[0]) == 1]
    blocks = [p for p in patterns if len(p[0]) == 2]
    assert len(pairs) == (width - 1) * height + width * (height - 1) + 2 * (width - 1) * (height - 1)
    assert len(blocks) == 3 * (width - 1) * (height - 1)
    across = {(p[0], p[1]): p[2] for p in pairs}
    assert across[((6,), (7,))] == (0, 3, 5, 8, 10, 13)  # (1, 1)-(1, 2): columns 0 and 3 of rows 0-2
    diagonal = {(p[0], p[1]): p[2] for p in blocks}
    assert diagonal[((6, 12), (7, 11))] == (0, 3, 15, 18)  # the 2x2 block at (1, 1): its corners' corners


@settings(max_examples=120, deadline=None)
@given(positions(max_side=5, flags=True))
def test_pseudo_fifty_fifties_are_what_their_definition_says(position) -> None:
    board = position.board
    analysis = solve(board)
    expected = _brute_pseudo(board)
    assert pseudo_fifty_fifties(board, analysis) == expected
    assert _compiled_pseudo(board) == expected


def test_a_pseudo_fifty_fifty_in_a_corner() -> None:
    # (4, 4) and (4, 5), the corner pair, are each a mine with probability 1/4, and only where
    # (3, 4) and (3, 5) above them are mines too: then nothing can tell the two apart.
    board = Board.from_text("6x5x7\n1H11H1\n2H22H1\nH22H32\n12H3HH\n01HHHH\n")
    analysis = solve(board)
    assert (
        pseudo_fifty_fifties(board, analysis) == [28, 29] == _brute_pseudo(board) == _compiled_pseudo(board)
    )
    assert analysis.probability(4, 4) == analysis.probability(4, 5) == Fraction(1, 4)


def _game_positions(count: int, seed: int):
    """Positions of real expert games where a guess is needed."""
    rng = np.random.default_rng(seed)
    player = make_player("probabilistic")
    found = 0
    while found < count:
        game = Game.new(30, 16, 99, first_click="safe", rng=rng)
        while not game.is_finished and found < count:
            analysis = solve(game.board)
            if not analysis.safe:
                found += 1
                yield game.board, analysis
            action = player.choose(game.board, rng)
            game.reveal(action.row, action.col)


def test_compiled_scan_finds_the_exact_ones_in_real_games() -> None:
    with_pseudo = 0
    for board, analysis in _game_positions(60, seed=3):
        exact = pseudo_fifty_fifties(board, analysis)
        assert _compiled_pseudo(board) == exact, board.to_text()
        with_pseudo += bool(exact)
        for i in exact:
            assert analysis.cell_probabilities[i] not in (None, 0, 1)
    assert with_pseudo >= 3


@settings(max_examples=120, deadline=None)
@given(positions(max_side=5, flags=True))
def test_fifty_influence_is_what_its_definition_says(position) -> None:
    board = position.board
    expected = _brute_influence(board)
    cells = sorted(expected)
    assert fifty_influence(board, solve(board), cells) == expected
    compiled = _compiled_influence(board, cells)
    assert all(abs(compiled[i] - float(expected[i])) <= 1e-9 * max(1.0, float(expected[i])) for i in cells)


def test_compiled_influence_looks_at_as_many_unknown_end_cells() -> None:
    assert kernels._LONGTERM_MISSING == LONGTERM_MISSING


def test_fifty_influence_weighs_corners_most_on_an_open_board() -> None:
    # Nothing revealed: a corner's pair and block need fewer mines around them than an edge's.
    board = Board.from_text("4x4x3\nHHHH\nHHHH\nHHHH\nHHHH\n")
    influence = fifty_influence(board, solve(board), list(range(16)))
    assert influence == _brute_influence(board)
    assert {influence[i] for i in (0, 3, 12, 15)} == {Fraction(3, 560)}
    assert {influence[i] for i in range(16) if i not in (0, 3, 12, 15)} == {Fraction(1, 280)}


def test_compiled_influence_is_the_exact_one_in_real_games() -> None:
    influenced = 0
    for board, analysis in _game_positions(40, seed=5):
        p = analysis.cell_probabilities
        cells = [i for i, v in enumerate(board.cells) if v == HIDDEN and p[i] not in (None, 0, 1)]
        exact = fifty_influence(board, analysis, cells)
        compiled = _compiled_influence(board, cells)
        for i in cells:
            assert abs(compiled[i] - float(exact[i])) <= 1e-9 * max(1e-12, float(exact[i])), (
                board.to_text(),
                i,
            )
        influenced += sum(1 for i in cells if exact[i] > 0)
    assert influenced >= 40
