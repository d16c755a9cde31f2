"""The seeded generator of variant positions: layouts meet the rules, a seed fixes the position."""

from __future__ import annotations

import itertools

import pytest
import variant_oracle as oracle

from analyzer.errors import InconsistentBoardError, OptionError, RuleError
from analyzer.variants import RULES, parse_rules
from analyzer.variants.generate import default_mines, random_layout, random_position

BOARD = [letter for letter in RULES if RULES[letter].kind == "board"]
RULE_SETS = list(RULES)
for _a, _b in itertools.combinations(RULES, 2):
    try:
        parse_rules(_a + _b)
    except RuleError:
        continue
    RULE_SETS.append(_a + _b)


def _check_layout(rules: str, layout: frozenset, width: int, height: int) -> None:
    for letter in parse_rules(rules).board:
        if letter in oracle.BOARD_LETTERS:  # the rules the oracle reads independently
            assert oracle.board_rule_holds(letter, set(layout), width, height), (rules, letter, layout)


SLOW_SETS = {"TS", "AS", "HS", "BS", "QO", "S"}
"""The sets whose random layouts take longest to draw (tens of seconds): in ``make test-all``."""


def _sets(sets: list[str]) -> list[object]:
    return [pytest.param(rules, marks=pytest.mark.slow) if rules in SLOW_SETS else rules for rules in sets]


SLOW_5X5 = {"OB"}
"""Sets whose 5x5 layout alone takes seconds (OB's: 2-3 s; the generator finds no OB layout of
5x5 with a mine, so it tries every total, nearest the game's first, before the empty layout):
in ``make test-all``; the 8x8 layout of OB is drawn by default
(``test_eight_by_eight_layouts_have_the_game_total``, under a second)."""


CLUE_WITH_BOARD = ["VQ", "MC", "LT", "NO", "XD", "X'B", "KA", "WH", "PS", "ES"]
"""The pairs of a clue rule and a board rule drawn by default, each clue rule and each board rule
in one at least. The clue rules play no part in a layout (:func:`random_layout`): a clue rule with
a board rule draws the board rule's own layout, as these pairs check; the other such pairs (80, a
second of CPU) draw it again, in ``make test-all``."""


def _boards(sets: list[str]) -> list[object]:
    """``(rules, seed)``: seed 0 draws a 5x5 layout, seed 1 a 6x6 one; a pair's 6x6 one in
    ``make test-all`` (its 5x5 one, and 8x8 layouts of single rules, run by default), and the
    5x5 one of a clue rule with a board rule too, but for :data:`CLUE_WITH_BOARD`."""
    out: list[object] = []
    for rules in sets:
        pair = len(rules.replace("'", "")) > 1
        again = pair and len(parse_rules(rules).board) == 1 and rules not in CLUE_WITH_BOARD
        for seed in (0, 1):
            slow = rules in SLOW_SETS or (pair and seed == 1) or (rules in SLOW_5X5 and seed == 0) or again
            out.append(pytest.param(rules, seed, marks=[pytest.mark.slow] if slow else []))
    return out


@pytest.mark.parametrize(("rules", "seed"), _boards(RULE_SETS))
def test_layouts_meet_every_rule_alone_and_in_pairs(rules: str, seed: int) -> None:
    width = height = 5 + seed
    layout = random_layout(rules, width, height, seed=seed)
    _check_layout(rules, layout, width, height)
    board = "".join(parse_rules(rules).board)
    if not board:
        assert len(layout) == default_mines(rules, width, height)
    elif len(board) < len(rules.replace("'", "")):  # a clue rule too: it plays no part in the layout
        assert layout == random_layout(board, width, height, seed=seed)


def test_the_clue_rules_drawn_with_a_board_rule_by_default_are_every_one() -> None:
    assert set(CLUE_WITH_BOARD) <= set(RULE_SETS)
    boards = [parse_rules(rules).board for rules in CLUE_WITH_BOARD]
    assert all(len(board) == 1 for board in boards) and {b for (b,) in boards} == set(BOARD)
    clues = {rules.replace(b, "") for rules, (b,) in zip(CLUE_WITH_BOARD, boards, strict=True)}
    assert clues == {letter for letter in RULES if letter not in BOARD}


@pytest.mark.parametrize("rules", _sets([letter for letter in BOARD] + ["QO", "CT", "DB", "OB"]))
def test_eight_by_eight_layouts_have_the_game_total(rules: str) -> None:
    layout = random_layout(rules, 8, 8, seed=1)
    _check_layout(rules, layout, 8, 8)
    assert len(layout) >= default_mines(rules, 8, 8) - 2


def test_the_same_seed_gives_the_same_position_and_seeds_differ() -> None:
    for rules in ("V", "QX", "CO", "DL", "BM"):
        first = random_position(rules, 6, 6, seed=11)
        assert random_position(rules, 6, 6, seed=11) == first
        others = {random_position(rules, 6, 6, seed=s)[1] for s in range(4)}
        assert len(others) > 1, rules


@pytest.mark.parametrize("rules", ["V", "LM", "NX'", "QK", "TX", "LB"])
def test_revealed_clues_read_the_layout(rules: str) -> None:
    position, layout = random_position(rules, 7, 7, seed=5, reveal=0.7)
    clue_rules, _ = oracle.split(str(parse_rules(rules)))
    assert position.mines == len(layout)
    assert set(position.flagged_cells()) <= layout
    assert not set(position.clue_cells()) & layout
    for cell in position.clue_cells():
        assert position[cell] in oracle.shows(clue_rules, set(layout), cell, 7, 7), cell
    for cell in set(position.hidden_cells()) - layout:
        assert cell not in layout


def test_mine_totals_follow_the_game_and_the_rules() -> None:
    assert [default_mines("V", n, n) for n in (5, 6, 7, 8)] == [10, 14, 20, 26]
    assert default_mines("B", 8, 8) == 24 and default_mines("B", 4, 3) == 0
    assert default_mines("DQ", 7, 7) == 20 and default_mines("D", 5, 5) == 10
    assert random_layout("B", 4, 3, seed=0, mines=5) == frozenset()  # B off the square: no mine


def test_bad_requests_get_one_clear_line() -> None:
    with pytest.raises(InconsistentBoardError, match="no mine layout of 4x3 meets the rules 'QB'"):
        random_layout("QB", 4, 3, seed=0)
    with pytest.raises(OptionError, match="mines must be between 0 and 9, got 10"):
        random_layout("V", 3, 3, seed=0, mines=10)
    with pytest.raises(OptionError, match="reveal must be between 0 and 1, got 1.5"):
        random_position("V", 3, 3, seed=0, reveal=1.5)
    with pytest.raises(RuleError, match="unknown rule 'Z'"):
        random_position("Z", 3, 3, seed=0)


@pytest.mark.parametrize(
    ("of_mines", "border", "root"),
    [(True, False, None), (False, False, None), (True, True, None), (False, False, 4)],
)
def test_the_flow_formulation_accepts_exactly_the_connected_layouts(
    of_mines: bool, border: bool, root
) -> None:
    # Every layout of a 3x3 grid (orthogonal edges): feasible under add_flow iff is_connected
    # (with a root: among the layouts where the root is a member). One model, each layout fixed
    # by assumptions and solved without CP-SAT's presolve (the same solutions; a model built
    # and presolved a layout took three times as long).
    from ortools.sat.python import cp_model

    from analyzer.models.variants import Connectivity, add_flow, is_connected

    edges = tuple((r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2))
    edges += tuple((r * 3 + c, (r + 1) * 3 + c) for r in range(2) for c in range(3))
    conn = Connectivity(edges, of_mines=of_mines, border=(0, 1, 2, 3, 5, 6, 7, 8) if border else ())
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(9)]
    lit = model.new_bool_var("on")
    add_flow(model, x, conn, lit, root)
    for bits in itertools.product((0, 1), repeat=9):
        if root is not None and bits[root] != of_mines:
            continue
        model.clear_assumptions()
        model.add_assumptions([lit, *(xi if b else xi.Not() for xi, b in zip(x, bits, strict=True))])
        solver = cp_model.CpSolver()
        solver.parameters.cp_model_presolve = False
        status = solver.solve(model)
        assert (status == cp_model.OPTIMAL) == is_connected(list(bits), conn), bits


@pytest.mark.parametrize("rules", ["W", "SW", "QW", "P", "E", "SP"])
def test_pattern_positions_read_the_layout_and_hold_together(rules: str) -> None:
    """A Wall clue of several runs is carried as its runs (it was once written as their sum)."""
    from analyzer.variants import solve_variant

    position, layout = random_position(rules, 7, 7, seed=3, reveal=0.7)
    letter = parse_rules(rules).pattern
    several = 0
    for cell in position.clue_cells():
        if letter == "W":
            runs = oracle.wall(set(layout), cell, 7, 7)
            assert (position.runs_at(cell) or (position[cell],)) == (runs or (0,)), cell
            several += len(runs) > 1
        elif letter == "P":
            assert position[cell] == len(oracle.wall(set(layout), cell, 7, 7)), cell
        else:
            assert position[cell] == oracle.eyesight(set(layout), cell, 7, 7), cell
    assert several or letter != "W"
    analysis = solve_variant(position, rules, probabilities=False)  # the layout meets every clue
    assert all(cell in layout for cell in analysis.mines) and not set(analysis.safe) & layout
