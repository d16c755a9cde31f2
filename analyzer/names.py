"""The names the command line offers, in a module light enough to build its help from.

Each registry that holds the real objects (the counting engines, the players, the
symbolic checks) lives beside the machinery it names and imports it; the names are
kept here too, so that ``analyzer --help`` and argument checking import nothing
heavy. ``tests/test_startup.py`` checks that each list equals its registry.
"""

from __future__ import annotations

__all__ = ["ENGINES", "PLAYER_NAMES", "CHECK_NAMES", "PRESETS", "BACKENDS"]

ENGINES = ("auto", "enumerate", "frontier", "split", "cpsat")
"""The counting engines of :func:`analyzer.solve` (``engine=``)."""

PLAYER_NAMES = ("random", "local", "subset", "probabilistic", "expert", "pseq", "optimal")
"""The players of :data:`analyzer.PLAYERS`, in its order."""

CHECK_NAMES = (
    "placement_marginal",
    "placement_uniform",
    "safe_first_move_prior",
    "binomial_ratio",
    "strategy_count",
    "expectation_linearity",
    "expectation_linearity_boards",
    "component_product",
    "component_product_boards",
    "vandermonde",
)
"""The symbolic checks of :data:`analyzer.verify.CHECKS`, in the order they run."""

PRESETS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (30, 16, 99),
}
"""The classic boards as ``(width, height, mines)``."""

BACKENDS = ("local", "dask")
"""Where :func:`analyzer.simulate` and :func:`analyzer.solve_many` run their work."""
