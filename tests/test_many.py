"""solve_many gives exactly what solve gives board by board, in input order."""

from __future__ import annotations

import pytest

import analyzer
from analyzer import examples
from analyzer.errors import BoardParseError, InconsistentBoardError, OptionError
from analyzer.play.positions import mid_game


def _boards() -> list:
    boards: list = [examples.read(name) for name in examples.names()]
    boards += [mid_game(9, 9, 10, progress=p, seed=s) for s in range(4) for p in (0.3, 0.6)]
    boards += [mid_game(16, 16, 40, progress=0.5, flag_fraction=0.5, seed=7)]
    return boards


def _expected(boards: list, **options) -> list:
    out = []
    for board in boards:
        try:
            out.append(analyzer.solve(board, **options))
        except analyzer.AnalyzerError as error:
            out.append(error)
    return out


def _same(got: list, expected: list) -> None:
    assert len(got) == len(expected)
    for a, b in zip(got, expected, strict=True):
        if isinstance(b, Exception):
            assert type(a) is type(b) and str(a) == str(b)
        else:
            assert a == b
            assert a.cell_probabilities == b.cell_probabilities


BAD = ["3x1x1\n3HH\n", "not a board"]


def test_in_process_matches_solve_and_keeps_order() -> None:
    boards = _boards()
    boards = boards[:3] + BAD[:1] + boards[3:] + BAD[1:]
    got = analyzer.solve_many(boards)
    _same(got, _expected(boards))
    assert isinstance(got[3], InconsistentBoardError)
    assert isinstance(got[-1], BoardParseError)


def test_options_apply_to_every_board() -> None:
    boards = [mid_game(16, 16, 40, progress=0.5, flag_fraction=0.5, seed=s) for s in range(3)]
    _same(analyzer.solve_many(boards, trust_flags=False), _expected(boards, trust_flags=False))


@pytest.mark.slow  # a pool of two processes: the default run uses one worker at most
def test_two_processes_match_solve() -> None:
    boards = BAD[:1] + _boards() + BAD[1:]
    _same(analyzer.solve_many(boards, workers=2, chunk_size=3), _expected(boards))


@pytest.mark.slow
def test_dask_local_cluster_matches_solve() -> None:
    pytest.importorskip("distributed")
    boards = _boards() + BAD
    _same(analyzer.solve_many(boards, workers=1, backend="dask"), _expected(boards))


def test_empty() -> None:
    assert analyzer.solve_many([]) == []


@pytest.mark.parametrize(
    "options",
    [
        {"workers": 0},
        {"workers": 1.5},
        {"workers": True},
        {"backend": "spark"},
        {"address": "tcp://x:1"},
        {"chunk_size": 0},
    ],
)
def test_bad_options(options: dict) -> None:
    with pytest.raises(OptionError):
        analyzer.solve_many(["3x1x1\nH1H\n"], **options)
