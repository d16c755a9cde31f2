"""Tests of :mod:`analyzer.play.placement`: the methods, their errors, and their uniformity.

Uniformity is shown two ways:

* exactly, on tiny boards: the one-pass method's decision tree walked with
  Fractions (:func:`sequential_layout_distribution`), and every scanning sampler
  run on every possible sequence of random integers;
* statistically: chi-square tests of per-cell and pairwise frequencies over many
  seeded placements, for every method, with deliberately biased samplers that the
  same tests reject.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from analyzer.errors import AnalyzerError, GameError
from analyzer.play import placement
from analyzer.play.placement import (
    PLACEMENT_METHODS,
    cell_frequency_test,
    chi_square_sf,
    layout_from_mask,
    layout_to_mask,
    pair_frequency_test,
    place_mines,
    sequential_layout_distribution,
)

METHODS = sorted(PLACEMENT_METHODS)
ALPHA = 1e-3
"""A uniform sampler must pass each chi-square test at this level."""


def _allowed(width, height, exclude=()):
    return [(r, c) for r in range(height) for c in range(width) if (r, c) not in set(exclude)]


# ------------------------------------------------------------------ basics
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    ("width", "height", "mines", "exclude"),
    [
        (7, 3, 5, ()),
        (3, 7, 5, ()),
        (1, 10, 4, ((0, 0),)),
        (10, 1, 9, ((0, 9),)),
        (9, 9, 10, tuple((r, c) for r in range(3, 6) for c in range(3, 6))),
        (30, 16, 99, ((0, 0), (15, 29))),
        (4, 4, 0, ()),
        (4, 4, 16, ()),
        (4, 4, 12, ((1, 1), (1, 2), (2, 1), (2, 2))),
        (0, 0, 0, ()),
        (0, 5, 0, ()),
    ],
)
def test_layout_is_mines_distinct_allowed_cells(method, width, height, mines, exclude):
    layout = PLACEMENT_METHODS[method](width, height, mines, exclude=exclude, seed=11)
    assert isinstance(layout, frozenset)
    assert len(layout) == mines
    assert layout <= set(_allowed(width, height, exclude))
    assert all(type(r) is int and type(c) is int for r, c in layout)
    assert layout_to_mask(layout, width, height).sum() == mines


@pytest.mark.parametrize("method", METHODS)
def test_every_cell_of_a_rectangular_board_can_get_a_mine(method):
    seen = set()
    rng = np.random.default_rng(5)
    for _ in range(300):
        seen |= PLACEMENT_METHODS[method](7, 3, 2, exclude=[(2, 6)], rng=rng)
    assert seen == set(_allowed(7, 3, [(2, 6)]))


@pytest.mark.parametrize("method", METHODS)
def test_same_seed_same_layout(method):
    place = PLACEMENT_METHODS[method]
    assert place(40, 30, 200, seed=3) == place(40, 30, 200, seed=3)
    assert place(40, 30, 200, seed=3) != place(40, 30, 200, seed=4)
    assert place(40, 30, 200, rng=np.random.default_rng(3)) == place(40, 30, 200, seed=3)


def test_place_mines_dispatches_by_name():
    for method in METHODS:
        assert place_mines(8, 5, 7, method=method, seed=2) == PLACEMENT_METHODS[method](8, 5, 7, seed=2)
    assert place_mines(8, 5, 7, seed=2) == PLACEMENT_METHODS["sequential"](8, 5, 7, seed=2)


def test_methods_registry_is_read_only():
    with pytest.raises(TypeError):
        PLACEMENT_METHODS["mine"] = place_mines  # type: ignore[index]


def test_large_board():
    for method in METHODS:
        layout = PLACEMENT_METHODS[method](1000, 1000, 150_000, exclude=[(500, 500)], seed=0)
        assert len(layout) == 150_000 and (500, 500) not in layout


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((3, 3, 10), {}, r"cannot place 10 mines in 9 allowed cells \(3x3 board, 0 excluded\)"),
        ((3, 3, 9), {"exclude": [(0, 0), (0, 0)]}, r"cannot place 9 mines in 8 allowed cells"),
        ((0, 0, 1), {}, r"cannot place 1 mines in 0 allowed cells"),
        ((-1, 3, 0), {}, r"width must be a non-negative integer, got -1"),
        ((3, -2, 0), {}, r"height must be a non-negative integer, got -2"),
        ((3, 3, -1), {}, r"mine count must be a non-negative integer, got -1"),
        ((2.5, 3, 1), {}, r"width must be a non-negative integer, got 2.5"),
        ((True, 3, 1), {}, r"width must be a non-negative integer, got True"),
        ((3, 3, 1), {"exclude": [(3, 0)]}, r"excluded cell \(3, 0\) is outside the 3x3 board"),
        ((3, 3, 1), {"exclude": [(0, -1)]}, r"excluded cell \(0, -1\) is outside the 3x3 board"),
        ((3, 3, 1), {"exclude": [(0, 0.5)]}, r"excluded cell \(0, 0.5\) is outside"),
        ((3, 3, 1), {"exclude": [7]}, r"excluded cell 7 is not a \(row, col\) pair"),
        ((3, 3, 1), {"exclude": [(1, 2, 3)]}, r"excluded cell \(1, 2, 3\) is not a \(row, col\) pair"),
        ((3, 3, 1), {"seed": 1, "rng": np.random.default_rng(1)}, r"give seed= or rng=, not both"),
        ((3, 3, 1), {"rng": 1}, r"rng must be a numpy.random.Generator, got int"),
    ],
)
def test_bad_arguments(method, args, kwargs, message):
    with pytest.raises(GameError, match=message) as info:
        PLACEMENT_METHODS[method](*args, **kwargs)
    assert isinstance(info.value, AnalyzerError) and isinstance(info.value, ValueError)


def test_unknown_method():
    with pytest.raises(GameError, match=r"unknown placement method 'shuffle'; expected one of basic, "):
        place_mines(3, 3, 1, method="shuffle")


# ------------------------------------------------------------- conversions
def test_mask_round_trip():
    layout = place_mines(13, 7, 20, seed=1)
    mask = layout_to_mask(layout, 13, 7)
    assert mask.shape == (7, 13) and mask.dtype == bool and mask.sum() == 20
    assert layout_from_mask(mask) == layout
    assert layout_from_mask(np.zeros((0, 0), dtype=bool)) == frozenset()


def test_mask_rejects_cells_outside():
    with pytest.raises(GameError, match=r"mine \(2, 0\) is outside the 3x2 board"):
        layout_to_mask({(2, 0)}, 3, 2)


# ----------------------------------------------------- exact: decision tree
TINY = [
    (1, 1, 0, ()),
    (1, 1, 1, ()),
    (3, 2, 0, ()),
    (3, 2, 1, ()),
    (3, 2, 2, ()),
    (3, 2, 3, ()),
    (3, 2, 6, ()),
    (2, 3, 2, ((0, 0),)),
    (3, 3, 3, ()),
    (3, 3, 2, ((1, 1),)),
    (4, 3, 5, ((0, 0), (2, 3), (1, 2))),
    (4, 4, 6, ()),
    (5, 4, 4, ((1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3))),
]


@pytest.mark.parametrize(("width", "height", "mines", "exclude"), TINY)
def test_sequential_decision_tree_is_exactly_uniform(width, height, mines, exclude):
    distribution = sequential_layout_distribution(width, height, mines, exclude=exclude)
    allowed = _allowed(width, height, exclude)
    p, k = len(allowed), mines
    # Every K-subset of the allowed cells is reachable, and nothing else ...
    assert set(distribution) == {frozenset(c) for c in itertools.combinations(allowed, k)}
    # ... each with probability exactly 1 / C(P, K).
    assert set(distribution.values()) == {Fraction(1, math.comb(p, k))}
    assert sum(distribution.values()) == 1
    # Every allowed cell holds a mine with probability K / P, an excluded cell never.
    marginal = Counter()
    for layout, probability in distribution.items():
        for cell in layout:
            marginal[cell] += probability
    for r in range(height):
        for c in range(width):
            assert marginal[r, c] == (Fraction(k, p) if (r, c) in allowed else 0)


def test_decision_tree_refuses_huge_enumerations():
    with pytest.raises(GameError, match=r"too many layouts to list: C\(100, 50\)"):
        sequential_layout_distribution(10, 10, 50)


def test_decision_tree_checks_its_arguments():
    with pytest.raises(GameError, match="cannot place 5 mines in 4 allowed cells"):
        sequential_layout_distribution(2, 2, 5)


# ------------------------------------------- exact: every random sequence
class _ScriptedRng:
    """Stands in for a numpy Generator: ``integers(0, bounds)`` returns scripted draws."""

    def __init__(self, script=()):
        self.script = list(script)
        self.bounds: list[int] = []

    def integers(self, low, high):
        assert low == 0
        bounds = np.asarray(high, dtype=np.int64).ravel().tolist()
        self.bounds.extend(bounds)
        draws = [self.script.pop(0) if self.script else 0 for _ in bounds]
        assert all(0 <= d < b for d, b in zip(draws, bounds, strict=True))
        return np.array(draws, dtype=np.int64)


@pytest.mark.parametrize("method", ["basic", "sequential", "floyd"])
@pytest.mark.parametrize(("p", "k"), [(1, 1), (4, 0), (4, 2), (5, 2), (6, 3), (7, 4), (7, 7)])
def test_every_draw_sequence_gives_a_uniform_layout(method, p, k):
    """Run the sampler on every possible sequence of random integers.

    Each of the ``prod(bounds)`` sequences is equally likely when numpy's integers
    are uniform, so every ``k``-subset must come out equally often.
    """
    sampler = placement._SAMPLERS[method]
    probe = _ScriptedRng()
    sampler(p, k, probe)
    bounds = probe.bounds  # these samplers ask for the same bounds whatever they draw
    outcomes = Counter()
    for script in itertools.product(*(range(b) for b in bounds)):
        rng = _ScriptedRng(script)
        outcomes[tuple(sampler(p, k, rng).tolist())] += 1
        assert rng.bounds == bounds
    assert set(outcomes) == set(itertools.combinations(range(p), k))
    assert set(outcomes.values()) == {math.prod(bounds) // math.comb(p, k)}


# ------------------------------------------------------------ chi-square sf
@pytest.mark.parametrize(
    ("statistic", "dof", "expected"),
    [
        (10, 5, 0.07523524614651218),
        (1, 10, 0.9998278843700441),
        (150, 119, 0.028729309365612497),
        (0.5, 1, 0.4795001221869535),
        (30, 2, 3.059023205018258e-07),
    ],
)
def test_chi_square_sf(statistic, dof, expected):
    assert chi_square_sf(statistic, dof) == pytest.approx(expected, rel=1e-10)


def test_chi_square_sf_rejects_bad_dof():
    with pytest.raises(ValueError, match="dof must be a positive integer, got 0"):
        chi_square_sf(1.0, 0)


def test_cell_statistic_matches_the_general_covariance_form():
    rng = np.random.default_rng(0)
    layouts = [place_mines(4, 3, 5, exclude=[(0, 0)], rng=rng) for _ in range(500)]
    closed = cell_frequency_test(layouts, 4, 3, 5, exclude=[(0, 0)])
    matrix, mines = placement._incidence(layouts, 4, 3, 5, [(0, 0)])
    general = placement._subset_chi_square(matrix, mines, 1)
    assert (closed.dof, closed.samples) == (general.dof, general.samples) == (10, 500)
    assert closed.statistic == pytest.approx(general.statistic, rel=1e-9)


def test_frequency_tests_check_the_layouts():
    with pytest.raises(GameError, match="layout 1 has 1 mines, expected 2"):
        cell_frequency_test([{(0, 0), (0, 1)}, {(0, 0)}], 3, 3, 2)
    with pytest.raises(GameError, match=r"layout 0 has a mine on \(1, 1\), not an allowed cell"):
        pair_frequency_test([{(0, 0), (1, 1)}], 3, 3, 2, exclude=[(1, 1)])
    with pytest.raises(GameError, match="too many allowed cells for a pair test: 81 > 64"):
        pair_frequency_test([], 9, 9, 10)


def test_frequency_tests_of_forced_layouts_are_trivial():
    full = [frozenset(_allowed(3, 2))] * 10
    for test in (cell_frequency_test, pair_frequency_test):
        assert test(full, 3, 2, 6) == placement.ChiSquareResult(0.0, 0, 1.0, 10)
        assert test([frozenset()] * 4, 3, 2, 0).p_value == 1.0


# ------------------------------------------------------ biased samplers
def _float_rounded(width, height, mines, *, exclude=(), seed=None, rng=None):
    """Selection sampling with the chance rounded to one decimal: still K mines, but biased."""
    width, height, mines, allowed, excluded = placement._checked(width, height, mines, exclude)
    rng = placement._generator(seed, rng)
    chosen, left = [], mines
    for position in range(allowed):
        if left and rng.random() < round(left / (allowed - position), 1):
            chosen.append(position)
            left -= 1
    return placement._positions_to_cells(np.array(chosen, dtype=np.int64), excluded, width)


def _next_free_after_collision(width, height, mines, *, exclude=(), seed=None, rng=None):
    """Draw a cell; if it is taken, take the next free one (cyclically). Mines clump."""
    width, height, mines, allowed, excluded = placement._checked(width, height, mines, exclude)
    rng = placement._generator(seed, rng)
    taken: set[int] = set()
    for _ in range(mines):
        position = int(rng.integers(allowed))
        while position in taken:
            position = (position + 1) % allowed
        taken.add(position)
    return placement._positions_to_cells(np.array(sorted(taken), dtype=np.int64), excluded, width)


CONFIGS = [
    pytest.param(4, 4, 5, (), id="4x4-5"),
    pytest.param(5, 3, 4, ((1, 1), (0, 4)), id="5x3-4-exclude2"),
]


def _sample(place, width, height, mines, exclude, samples, seed):
    rng = np.random.default_rng(seed)
    return [place(width, height, mines, exclude=exclude, rng=rng) for _ in range(samples)]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("width", "height", "mines", "exclude"), CONFIGS)
def test_cell_and_pair_frequencies_are_uniform(method, width, height, mines, exclude):
    layouts = _sample(PLACEMENT_METHODS[method], width, height, mines, exclude, 10_000, seed=2024)
    cells = cell_frequency_test(layouts, width, height, mines, exclude=exclude)
    pairs = pair_frequency_test(layouts, width, height, mines, exclude=exclude)
    allowed = len(_allowed(width, height, exclude))
    assert (cells.dof, pairs.dof) == (allowed - 1, math.comb(allowed, 2) - 1)
    assert cells.p_value > ALPHA, cells
    assert pairs.p_value > ALPHA, pairs


@pytest.mark.parametrize(("width", "height", "mines", "exclude"), CONFIGS)
def test_rounded_chances_fail_both_tests(width, height, mines, exclude):
    layouts = _sample(_float_rounded, width, height, mines, exclude, 10_000, seed=2024)
    assert all(len(layout) == mines for layout in layouts)
    assert cell_frequency_test(layouts, width, height, mines, exclude=exclude).p_value < 1e-9
    assert pair_frequency_test(layouts, width, height, mines, exclude=exclude).p_value < 1e-9


@pytest.mark.parametrize(("width", "height", "mines", "exclude"), CONFIGS)
def test_next_free_cell_fails_the_pair_test(width, height, mines, exclude):
    # Cyclic symmetry gives every cell the same chance, so only pairs show the bias.
    layouts = _sample(_next_free_after_collision, width, height, mines, exclude, 10_000, seed=2024)
    assert cell_frequency_test(layouts, width, height, mines, exclude=exclude).p_value > ALPHA
    assert pair_frequency_test(layouts, width, height, mines, exclude=exclude).p_value < 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_uniform_on_a_larger_board_with_many_samples(method):
    exclude = ((2, 2), (2, 3), (3, 2), (3, 3))
    layouts = _sample(PLACEMENT_METHODS[method], 6, 6, 10, exclude, 100_000, seed=7)
    assert cell_frequency_test(layouts, 6, 6, 10, exclude=exclude).p_value > ALPHA
    assert pair_frequency_test(layouts, 6, 6, 10, exclude=exclude).p_value > ALPHA


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_cells_uniform_on_an_expert_board(method):
    layouts = _sample(PLACEMENT_METHODS[method], 30, 16, 99, ((0, 0),), 20_000, seed=8)
    assert cell_frequency_test(layouts, 30, 16, 99, exclude=((0, 0),)).p_value > ALPHA


# ------------------------------------------------------------ timing study
@pytest.mark.needs("matplotlib")
def test_timing_study_runs_and_plots(tmp_path):
    import io

    from benchmarks import placement as bench_placement

    out = io.StringIO()
    png = tmp_path / "docs" / "timing.png"
    study = tmp_path / "docs" / "timing.json"
    argv = ["--quick", "--repeats", "1", "--big", "40", "--output", str(png), "--json", str(study)]
    assert bench_placement.main(argv, out=out) == 0
    text = out.getvalue()
    assert "40 x 40 board, 240 mines" in text and "log-log slope of time against cells" in text
    for method in METHODS:
        assert method in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    stored = bench_placement.load_study(study)
    assert {t.width for t in stored.sizes} == set(bench_placement.QUICK_SIZES)
    assert {(t.width, t.mines) for t in stored.big} == {(40, 240)}
    assert {t.stage for t in stored.big} == {"sample", "place"}
    assert stored.by_mines and {t.width for t in stored.by_mines} == {100}
    assert all(t.seconds > 0 for t in stored.sizes if t.cells)
    assert stored.measured["command"].endswith(" ".join(argv)) and stored.measured["cores"] >= 1
    # the medians printed are the medians stored
    big_sequential = next(t for t in stored.big if t.method == "sequential" and t.stage == "sample")
    assert f"{big_sequential.seconds * 1e3:9.2f}" in text
