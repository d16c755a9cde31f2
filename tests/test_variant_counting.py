"""The quick "more than ``limit`` layouts" proof of the variant counts (free cells), against
the oracle's enumeration (tests/variant_oracle.py): every layout it claims exists, and a
count it refuses is one the enumeration refuses too. Times: ``benchmarks/variant_scan.py``."""

from __future__ import annotations

import itertools
import math

import pytest
import variant_oracle as oracle

from analyzer.models import variants as models
from analyzer.variants import Position, parse_rules, solve_variant, transfer
from analyzer.variants.constraints import build_spec

# Clue rules with local board rules (the bound's checks), and the pattern clues P, E, W.
LOCAL = ["Q", "T", "A", "D", "H", "QX", "TM", "AL", "QN", "DK", "HX'"]
PATTERNS = ["P", "E", "W", "LP", "LE"]


def _position(rules: str, width: int, height: int, seed: int) -> tuple[Position, dict]:
    if oracle.is_pattern(oracle.split(str(parse_rules(rules)))[0]):
        cells, mines, runs, _ = oracle.random_pattern_position(rules, width, height, seed)
        flat = tuple(sorted((r * width + c, v) for (r, c), v in runs.items()))
        return Position(width, height, mines, cells, runs=flat), runs
    cells, mines, _ = oracle.random_position(rules, width, height, seed, reveal=0.2)
    return Position(width, height, mines, cells), {}


@pytest.mark.parametrize("rules", LOCAL + PATTERNS)
def test_every_layout_the_free_cells_claim_meets_the_position(rules: str) -> None:
    """Each flip of a subset of the free cells and pairs is a layout (of the same total when
    as many mines as safe cells flip), checked against the oracle's list of layouts."""
    canonical = str(parse_rules(rules))
    tried = 0
    for seed in range(12):
        position, runs = _position(rules, 4, 4, seed)
        width = position.width
        spec, _ = build_spec(position, parse_rules(rules))
        checks = models.layout_checks(spec.clues, spec.rules)
        assert checks is not None
        # P, E, W are counted without the total (the DP joins the total)
        same_total = not oracle.is_pattern(oracle.split(canonical)[0])
        found = oracle.layouts(
            position.cells,
            width,
            position.height,
            position.mines,
            canonical,
            runs=runs or None,
            total=same_total,
        )
        known = {frozenset(r * width + c for r, c in placed) for placed in found}
        for placed in found[:3]:
            layout = [0] * spec.size
            for r, c in placed:
                layout[r * width + c] = 1
            alone, pairs = models.free_cells(layout, checks, spec.unknown)
            units = [(c,) for c in alone] + list(pairs)
            tried += len(units)
            for chosen in itertools.product((0, 1), repeat=min(len(units), 10)):
                flipped = [i for unit, on in zip(units, chosen, strict=False) if on for i in unit]
                trial = set(i for i, v in enumerate(layout) if v) ^ set(flipped)
                if same_total and len(trial) != sum(layout):
                    continue
                assert frozenset(trial) in known, (rules, position.to_text(), flipped)
            mines = sum(layout[i] for i in alone)
            bound = (math.comb(len(alone), mines) if same_total else 2 ** len(alone)) * 2 ** len(pairs)
            assert bound <= len(known)
    assert tried  # the bound found free cells on some of these positions


# Every rule set with a limit of 2 (most counts refused); with a limit of 20 each rule alone, the
# pairs with -m slow (each of their rules is checked at 20 alone, and the pair at 2, by default).
PAIRS = [
    rules for rules in LOCAL + PATTERNS if len(parse_rules(rules).board) + len(parse_rules(rules).clue) > 1
]
LIMITS = [
    *((rules, 2) for rules in LOCAL + PATTERNS),
    *((rules, 20) for rules in LOCAL + PATTERNS if rules not in PAIRS),
    *(pytest.param(rules, 20, marks=pytest.mark.slow) for rules in PAIRS),
]


@pytest.mark.parametrize(("rules", "limit"), LIMITS)
def test_a_count_refused_at_once_is_refused_by_the_enumeration_too(
    rules: str, limit: int, monkeypatch
) -> None:
    """With a small layout limit, the answer with the quick proof is the answer without it:
    the same probabilities (the oracle's) or the same refusal."""
    canonical = str(parse_rules(rules))
    refused = 0
    # The enumeration's own refusal: the transfer programme, which counts these boards whatever
    # their number of layouts, is kept out (tests/test_variant_transfer.py checks it).
    monkeypatch.setattr(transfer, "count_layouts", lambda *args, **kwargs: None)
    for seed in range(6):
        position, runs = _position(rules, 4, 4, seed)
        if (
            next(oracle.each_layout(position.cells, 4, 4, position.mines, canonical, runs=runs or None), None)
            is None
        ):
            continue  # no layout at all
        quick = solve_variant(position, rules, limit=limit)
        with monkeypatch.context() as m:
            m.setattr(models, "free_cells", lambda layout, checks, cells: ([], []))
            slow = solve_variant(position, rules, limit=limit)
        assert quick.probabilities == slow.probabilities, position.to_text()
        assert quick.probability_method == slow.probability_method
        refused += quick.probabilities is None
    assert refused or limit > 2
