"""The constraint stage (compiled arrays -> clues and groups) against its definition, written plainly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, game_boards, numbered_boards

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.errors import InconsistentBoardError
from analyzer.play.positions import clue_lattice, mid_game
from analyzer.solver.constraints import build_constraints


def _by_definition(board: Board, trust_flags: bool) -> tuple[object, ...]:
    """Clues, groups and background from the words of the docstrings, with no arrays."""
    cells = board.cells
    unknown = [i for i, v in enumerate(cells) if v == HIDDEN or (v == FLAG and not trust_flags)]
    flagged = {i for i, v in enumerate(cells) if v == FLAG and trust_flags}
    table = board.neighbour_table
    clues = []
    for i, v in enumerate(cells):
        if v < 0:
            continue
        hidden = [j for j in table[i] if j in set(unknown)]
        flags = sum(j in flagged for j in table[i])
        if not hidden:
            if v != flags:
                return ("error", divmod(i, board.width))
            continue
        clues.append((divmod(i, board.width), v - flags, tuple(hidden)))
    signatures: dict[tuple[int, ...], list[int]] = {}
    background = []
    for j in unknown:
        signature = tuple(k for k, clue in enumerate(clues) if j in clue[2])
        if signature:
            signatures.setdefault(signature, []).append(j)
        else:
            background.append(j)
    groups = [(tuple(members), signature) for signature, members in signatures.items()]
    return (tuple(unknown), board.mines - len(flagged), clues, groups, tuple(background))


def _stage(board: Board, trust_flags: bool) -> tuple[object, ...]:
    try:
        system = build_constraints(board, trust_flags=trust_flags)
    except InconsistentBoardError as error:
        return ("error", error.clues[0])
    return (
        system.unknown,
        system.mines_left,
        [(clue.cell, clue.needed, clue.cells) for clue in system.clues],
        [(group.cells, group.clues) for group in system.groups],
        system.background,
    )


@settings(max_examples=examples(300), deadline=None)
@given(numbered_boards(), st.booleans())
def test_constraints_match_their_definition(board: Board, trust_flags: bool) -> None:
    assert _stage(board, trust_flags) == _by_definition(board, trust_flags)


@settings(max_examples=examples(100), deadline=None)
@given(game_boards(max_side=7, flags=True))
def test_constraints_of_real_positions_match_their_definition(board: Board) -> None:
    for trust_flags in (True, False):
        assert _stage(board, trust_flags) == _by_definition(board, trust_flags)


@pytest.mark.parametrize("topology", ["square", "torus"])
def test_constraints_on_larger_boards_and_the_torus(topology: str) -> None:
    boards = [mid_game(30, 16, 99, progress=0.5, flag_fraction=0.5, seed=s) for s in range(4)]
    boards.append(clue_lattice(3, seed=1))
    for board in boards:
        board = Board(board.width, board.height, board.mines, board.cells, topology=topology)
        for trust_flags in (True, False):
            assert _stage(board, trust_flags) == _by_definition(board, trust_flags)
