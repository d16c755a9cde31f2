"""The transfer programme's counts (:mod:`analyzer.variants.transfer`) against the oracle's
enumeration (tests/variant_oracle.py, written from the rule cards apart from the package):
the number of layouts and each cell's number of mines, exactly, under every board rule it
reads, alone and with clue rules and other board rules, on boards taller than wide and wider
than tall (the cells are taken along the shorter side). Times: ``benchmarks/variant_scan.py``."""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import pytest
import variant_oracle as oracle

from analyzer.errors import SolverTimeoutError
from analyzer.variants import Position, parse_rules, solve_variant, transfer
from analyzer.variants.constraints import build_spec
from analyzer.variants.solve import TRANSFER_METHOD

BOARD = ["C", "O", "S", "T", "Q", "A", "D", "H"]
MIXED = [
    "CO",
    "SO",
    "TO",
    "QC",
    "CT",
    "DS",
    "HC",
    "AO",
    "CX",
    "CM",
    "SL",
    "ON",
    "CK",
    "OX'",
    "SP",
    "CE",
    "OW",
]


def _position(rules: str, width: int, height: int, seed: int) -> tuple[Position, dict]:
    if oracle.is_pattern(oracle.split(str(parse_rules(rules)))[0]) or "S" in rules:
        cells, mines, runs, _ = oracle.random_pattern_position(rules, width, height, seed, reveal=0.3)
        flat = tuple(sorted((r * width + c, v) for (r, c), v in runs.items()))
        return Position(width, height, mines, cells, runs=flat), runs
    cells, mines, _ = oracle.random_position(rules, width, height, seed, reveal=0.3)
    return Position(width, height, mines, cells), {}


def _check(rules: str, position: Position, runs: dict) -> int:
    canonical = str(parse_rules(rules))
    width = position.width
    spec, _ = build_spec(position, parse_rules(rules))
    found = transfer.count_layouts(spec, width, position.height)
    assert found is not None
    want = oracle.layouts(
        position.cells, width, position.height, position.mines, canonical, runs=runs or None
    )
    assert found.total == len(want), (rules, position.to_text())
    for i in range(spec.size):
        assert found.mines[i] == sum(divmod(i, width) in placed for placed in want), (
            rules,
            position.to_text(),
            i,
        )
    return len(want)


# Every rule set on 4x3 (wider than tall: the programme takes the cells column by column, along
# the shorter side) and 4x4 (row by row); each board rule alone on 3x4 too (taller than wide: row
# by row, the narrower row), the mixed sets on 3x4 with -m slow (their row-by-row reading is
# checked on 4x4 by default, and the shape changes nothing the clue rules do).
SHAPES = [
    *((rules, shape) for rules in BOARD for shape in ((4, 3), (3, 4), (4, 4))),
    *((rules, shape) for rules in MIXED for shape in ((4, 3), (4, 4))),
    *(pytest.param(rules, (3, 4), marks=pytest.mark.slow) for rules in MIXED),
]


@pytest.mark.parametrize(("rules", "shape"), SHAPES)
def test_every_count_is_the_oracles(rules: str, shape: tuple[int, int]) -> None:
    width, height = shape
    counted = [_check(rules, *_position(rules, width, height, seed)) for seed in range(4)]
    assert any(counted)  # some of these positions have layouts to count


@pytest.mark.parametrize("rules", ["C", "O", "S", "CO"])
def test_an_empty_board_is_counted_as_the_oracle_counts_it(rules: str) -> None:
    """No clue: only the rule and the total, every connection the programme must follow."""
    for mines in (1, 4, 7):
        position = Position.of(f"4x4x{mines}\n" + "HHHH\n" * 4)
        _check(rules, position, {})


def test_the_certain_cells_given_lose_no_layout() -> None:
    position, runs = _position("CO", 4, 4, 2)
    spec, _ = build_spec(position, parse_rules("CO"))
    whole = transfer.count_layouts(spec, 4, 4)
    assert whole is not None and whole.total
    certain = {
        i: int(whole.mines[i] == whole.total) for i in spec.unknown if whole.mines[i] in (0, whole.total)
    }
    assert certain
    assert transfer.count_layouts(spec, 4, 4, certain=certain) == transfer.TransferCount(
        whole.total, whole.mines, transfer.count_layouts(spec, 4, 4, certain=certain).states
    )


def test_a_board_too_many_layouts_to_enumerate_is_counted_exactly() -> None:
    """An open 6x6 board under C: hundreds of millions of layouts, each cell's share exact. The
    board's symmetries must give equal probabilities, and the mines expected sum to the total."""
    analysis = solve_variant("6x6x14\n" + "HHHHHH\n" * 6, "C")
    assert analysis.probability_method == TRANSFER_METHOD
    assert analysis.layouts is not None and analysis.layouts > 10**8
    p = analysis.probabilities
    assert p is not None
    assert sum(p.values()) == 14
    for r, c in itertools.product(range(6), repeat=2):
        assert p[r, c] == p[c, r] == p[5 - r, c] == p[r, 5 - c]
    assert p[0, 0] < p[2, 2]  # a corner joins fewer of the group's cells


def test_a_strip_under_c_counts_its_runs() -> None:
    """One row under C: the mines are one run, ``n - k + 1`` places; a cell at ``j`` holds a mine
    in as many runs as cover it."""
    n, k = 9, 3
    spec, _ = build_spec(Position.of(f"{n}x1x{k}\n" + "H" * n + "\n"), parse_rules("C"))
    found = transfer.count_layouts(spec, n, 1)
    assert found is not None
    assert found.total == n - k + 1
    assert found.mines == tuple(min(j + 1, k, n - j, n - k + 1) for j in range(n))


def test_b_and_too_many_states_are_left_to_the_enumeration() -> None:
    spec, _ = build_spec(Position.of("3x3x3\nHHH\nHHH\nHHH\n"), parse_rules("B"))
    assert transfer.count_layouts(spec, 3, 3) is None
    spec, _ = build_spec(Position.of("5x5x8\n" + "HHHHH\n" * 5), parse_rules("C"))
    assert transfer.count_layouts(spec, 5, 5, max_states=3) is None
    assert transfer.count_layouts(spec, 5, 5) is not None


def test_the_deadline_stops_the_count() -> None:
    spec, _ = build_spec(Position.of("8x8x20\n" + "HHHHHHHH\n" * 8), parse_rules("C"))
    with pytest.raises(SolverTimeoutError, match="time limit reached while counting"):
        transfer.count_layouts(spec, 8, 8, deadline=time.monotonic() + 0.01)


@pytest.mark.parametrize("rules", ["C", "TO", "SO"])
def test_solve_variant_takes_the_counts_wider_than_tall(rules: str) -> None:
    """A 5x3 board, taken column by column: the probabilities are the oracle's."""
    for seed in range(3):
        position, runs = _position(rules, 5, 3, seed)
        canonical = str(parse_rules(rules))
        want = oracle.layouts(position.cells, 5, 3, position.mines, canonical, runs=runs or None)
        if not want:
            continue
        analysis = solve_variant(position, rules)
        assert analysis.probability_method == TRANSFER_METHOD
        hidden = [divmod(i, 5) for i, v in enumerate(position.cells) if v == oracle.HIDDEN]
        assert analysis.probabilities == oracle.probabilities(want, hidden)
        assert analysis.layouts == len(want)
        assert all(isinstance(v, Fraction) for v in analysis.probabilities.values())
