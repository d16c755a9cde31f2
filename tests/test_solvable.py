"""Tests of :func:`analyzer.is_solvable` and the ``no_guess`` first-click rule.

``is_solvable`` is checked against playing the game (:class:`analyzer.Game`, its
own flood fill) with the exact solver's certain cells (:func:`analyzer.solve`,
counting rather than CP-SAT feasibility). The rule draws layouts under the rule
underneath and keeps the first solvable one: that it does exactly this, on the
same random stream, is checked draw for draw; with uniform draws underneath,
the kept layout is uniform over the solvable ones. A frequency check over every
solvable layout of a small board backs this up.
"""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from analyzer import Game, GameError, SimulationError, is_solvable, simulate, solve
from analyzer.play import game as game_module
from analyzer.play.game import FirstClickRule
from analyzer.play.placement import place_mines


def _play_by_deduction(width: int, height: int, layout: frozenset, first: tuple[int, int]) -> bool:
    game = Game.from_layout(width, height, layout)
    if game.reveal(*first).status == "lost":
        return False
    while game.status == "playing":
        safe = solve(game.board).safe
        if not safe:
            return False
        for cell in safe:
            if game.status == "playing":
                game.reveal(*cell)
    return game.status == "won"


def test_is_solvable_agrees_with_playing_by_deduction() -> None:
    rng = random.Random(12)
    outcomes = set()
    for _ in range(60):
        width, height = rng.randint(3, 8), rng.randint(3, 8)
        mines = rng.randint(1, width * height // 4)
        cells = [(r, c) for r in range(height) for c in range(width)]
        layout = frozenset(rng.sample(cells, mines))
        first = rng.choice([cell for cell in cells if cell not in layout])
        expected = _play_by_deduction(width, height, layout, first)
        assert is_solvable(layout, first, width=width, height=height) == expected
        outcomes.add(expected)
    assert outcomes == {True, False}  # both kinds were met


def test_a_mine_under_the_first_cell_is_not_solvable() -> None:
    assert not is_solvable({(0, 0)}, (0, 0), width=3, height=3)
    with pytest.raises(GameError, match="outside"):
        is_solvable({(0, 0)}, (5, 0), width=3, height=3)


def test_no_guess_keeps_the_first_solvable_draw_of_the_rule_underneath() -> None:
    width, height, mines = 6, 6, 7
    for seed in range(15):
        game = Game.new(width, height, mines, first_click="no_guess:safe", seed=seed)
        game.reveal(2, 3)
        rng = np.random.default_rng(seed)
        while True:
            layout = place_mines(width, height, mines, method="sequential", exclude=[(2, 3)], rng=rng)
            if is_solvable(layout, (2, 3), width=width, height=height):
                break
        assert game.mines == layout
        assert _play_by_deduction(width, height, layout, (2, 3))


@pytest.mark.slow
def test_no_guess_is_uniform_over_the_solvable_layouts() -> None:
    width, height, mines, first = 4, 3, 2, (0, 0)
    cells = [(r, c) for r in range(height) for c in range(width) if (r, c) != first]
    solvable = [
        frozenset(m)
        for m in combinations(cells, mines)
        if is_solvable(frozenset(m), first, width=width, height=height)
    ]
    assert 0 < len(solvable) < len(list(combinations(cells, mines)))
    draws = 40 * len(solvable)
    counts = dict.fromkeys(solvable, 0)
    for seed in range(draws):
        game = Game.new(width, height, mines, first_click="no_guess:safe", seed=seed)
        game.reveal(*first)
        counts[game.mines] += 1  # KeyError if an unsolvable layout came out
    expected = draws / len(solvable)
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    df = len(solvable) - 1
    assert chi2 < df + 5 * (2 * df) ** 0.5  # far beyond p = 0.001 for a uniform draw


def test_the_rule_names(monkeypatch: pytest.MonkeyPatch) -> None:
    assert FirstClickRule.parse("no_guess") == FirstClickRule(1, no_guess=True)
    assert FirstClickRule.parse("no_guess:safe_zone:2").name == "no_guess:safe_zone:2"
    assert FirstClickRule.parse("no_guess:none").name == "no_guess:none"
    with pytest.raises(GameError, match="unknown first-click rule"):
        FirstClickRule.parse("no_guess:no_guess")
    # On 2x2 with 2 mines the first cell shows 2 with three hidden neighbours: never solvable.
    monkeypatch.setattr(game_module, "NO_GUESS_ATTEMPTS", 20)
    with pytest.raises(GameError, match="in 20 draws .* too dense for no_guess"):
        Game.new(2, 2, 2, first_click="no_guess:safe", seed=0).reveal(0, 0)
    with pytest.raises(SimulationError, match="no_guess"):
        simulate(5, 5, 3, "random", 2, first_click="no_guess")
