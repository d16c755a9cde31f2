"""Closed-off parts of a position: the definition against brute force, the compiled form against Python's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from strategies import Position, examples, positions

from analyzer.board.board import Board
from analyzer.play import fast
from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, probabilities
from analyzer.play.game import Game
from analyzer.play.players import make_player
from analyzer.play.players.endgame import isolated_move, isolated_parts
from analyzer.solver.solve import solve
from tests.test_forced import _layouts


def _compiled(board: Board) -> tuple[list[list[int]], int]:
    nbr = fast.neighbours_of(board.topology, board.width, board.height)
    state = np.array(board.cells, dtype=np.int8)
    prob = np.empty(len(state))
    info = np.zeros(1)
    assert probabilities(state, nbr, board.mines, prob, DEFAULT_MAX_NODES, info) == 1
    part_of = np.empty(len(state), dtype=np.int64)
    count = fast.endgame.isolated_parts(state, nbr, prob, part_of)
    parts = [[i for i in range(len(state)) if part_of[i] == p] for p in range(count)]
    return parts, int(fast.endgame.isolated_move(state, nbr, board.mines, prob, 255, 20_000))


@settings(max_examples=examples(200), deadline=None)
@given(positions(max_side=5, max_unknown=12))
# certainly safe cells next to the part's numbers (hypothesis found the Python form counting them as mines)
@example(Position(Board.from_text("5x2x2\nH1HHH\nH1H2H\n"), frozenset({(0, 2), (0, 4)})))
def test_closed_off_parts_of_fixed_mine_count_are_games_of_their_own(position) -> None:  # type: ignore[no-untyped-def]
    board = position.board
    analysis = solve(board)
    layouts = _layouts(board)
    flagged = {r * board.width + c for r, c in board.flagged_cells()}
    parts = isolated_parts(board, analysis)
    compiled_parts, compiled_move = _compiled(board)
    assert compiled_parts == parts
    move = isolated_move(board, analysis, limit=255, max_nodes=20_000)
    assert compiled_move == (-1 if move is None else move)
    table = board.neighbour_table
    for part in parts:
        inside = set(part)
        for i in part:
            for j in table[i]:  # what surrounds the part: numbers, certain mines (every layout's) or itself
                assert board.cells[j] >= 0 or j in inside or all(j in lay | flagged for lay in layouts), (
                    board.to_text()
                )
        counts = {len(lay & inside) for lay in layouts}
        if len(counts) == 1:
            # one mine count: the layouts are every pairing of the part's with the rest's
            own = {lay & inside for lay in layouts}
            rest = {lay - inside for lay in layouts}
            assert len(layouts) == len(own) * len(rest), board.to_text()
    if move is not None:
        assert any(move in part for part in parts)
        assert any(len({len(lay & set(part)) for lay in layouts}) == 1 for part in parts)


def _closed_off_positions(count: int, seed: int) -> list[Board]:
    """Expert positions of real games with a closed-off part to play exactly (found by the compiled scan)."""
    width, height, mines = 30, 16, 99
    nbr = fast.neighbours_of("square", width, height)
    rng = np.random.default_rng(seed)
    player = make_player("probabilistic")
    found: list[Board] = []
    while len(found) < count:
        game = Game.new(width, height, mines, first_click="safe", rng=rng)
        while not game.is_finished and len(found) < count:
            state = np.array(game.board.cells, dtype=np.int8)
            prob = np.empty(len(state))
            info = np.zeros(1)
            probabilities(state, nbr, mines, prob, DEFAULT_MAX_NODES, info)
            hidden = state == -1
            guess = (state >= 0).any() and not (prob[hidden] == 0.0).any()
            if guess and fast.endgame.isolated_move(state, nbr, mines, prob, 255, 20_000) >= 0:
                found.append(game.board)
            action = player.choose(game.board, rng)
            game.reveal(action.row, action.col)
    return found


@pytest.mark.parametrize("seed", [3])
def test_compiled_closed_off_moves_are_the_exact_ones_on_expert_positions(seed: int) -> None:
    boards = _closed_off_positions(12, seed)
    sizes = set()
    for board in boards:
        analysis = solve(board)
        parts, move = _compiled(board)
        assert parts == isolated_parts(board, analysis)
        assert move == isolated_move(board, analysis, limit=255, max_nodes=20_000)
        sizes.update(len(part) for part in parts if move in part)
    assert max(sizes) >= 3  # not only two-cell 50/50s


def test_players_play_closed_off_parts_first() -> None:
    # A part of fixed mine count is played by its own end game before any other guess, even where
    # cells outside it are safer (here 1 mine in 10 cells on the right, 1 in the part's 5).
    board = Board.from_text("9x2x4\nHHHFHHHHH\nH1HFHHHHH\n")
    analysis = solve(board)
    assert isolated_parts(board, analysis) == [[0, 1, 2, 9, 11]]
    player = make_player("expert", isolated="exact", endgame_layouts=10)
    assert player.best_guess(board, analysis) == 0  # type: ignore[attr-defined]
    plain = make_player("expert", endgame_layouts=10).best_guess(board, analysis)  # type: ignore[attr-defined]
    assert plain not in (0, 1, 2, 9, 11)
