"""Variant rules: every rule alone and in pairs against enumeration; errors; the CLI."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from fractions import Fraction

import pytest
import variant_oracle as oracle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import examples

from analyzer.board.board import Board, Cell
from analyzer.errors import BoardParseError, InconsistentBoardError, InvalidCellError, RuleError
from analyzer.variants import (
    Position,
    explain_variant,
    hint,
    parse_rules,
    solve_variant,
)
from analyzer.variants.constraints import build_spec
from analyzer.variants.rules import RULES

SINGLES = [r for r in RULES if r not in "WPES"]  # W, P, E, S: tests/test_variant_patterns.py
PAIRS = []
for a, b in itertools.combinations(SINGLES, 2):
    try:
        parse_rules(a + b)
    except RuleError:
        continue
    PAIRS.append(a + b)
RULE_SETS = SINGLES + PAIRS


def _check(rules: str, width: int, height: int, seed: int, *, explain: bool = True) -> None:
    cells, mines, _ = oracle.random_position(rules, width, height, seed)
    check_position(Position(width, height, mines, cells), rules, explain=explain)


def check_position(
    position: Position,
    rules: str,
    runs: dict[Cell, tuple[int, ...]] | None = None,
    *,
    explain: bool = True,
    found: list[set[Cell]] | None = None,
) -> None:
    """solve_variant's certain cells, probabilities and explanations against the oracle.

    ``runs``: the Wall clues of several runs, as the oracle reads them (tests/test_variant_patterns.py);
    ``found``: the oracle's layouts of the position, where the caller has them already.
    """
    canonical = str(parse_rules(rules))
    width, height = position.width, position.height
    if found is None:
        found = oracle.layouts(position.cells, width, height, position.mines, canonical, runs=runs)
    if not found:
        with pytest.raises(InconsistentBoardError, match="no mine layout meets"):
            solve_variant(position, rules)
        return
    analysis = solve_variant(position, rules)
    hidden = list(position.hidden_cells())
    expected = oracle.probabilities(found, hidden)
    assert analysis.probabilities == expected, (rules, position.to_text())
    assert analysis.layouts == len(found)
    assert set(analysis.safe) == {c for c in hidden if expected[c] == 0}
    assert set(analysis.mines) == {c for c in hidden if expected[c] == 1}
    # The certain cells alone come from CP-SAT's proofs (with probabilities under board rules,
    # from the transfer programme's counts): both against the oracle.
    alone = solve_variant(position, rules, probabilities=False)
    assert (alone.safe, alone.mines) == (analysis.safe, analysis.mines), (rules, position.to_text())
    if not explain:
        return
    certain = [(c, False) for c in analysis.safe] + [(c, True) for c in analysis.mines]
    for cell, is_mine in certain[:3]:
        e = explain_variant(position, rules, cell)
        assert e.is_mine == is_mine
        _assert_minimal(position, canonical, runs, e)
    h = hint(analysis)
    if certain:
        assert h is not None and (h.cell, h.is_mine) in certain
        _assert_minimal(position, canonical, runs, h)
    else:
        assert h is None


def _forces(position: Position, rules: str, runs, cell, is_mine, clues, board_rules, total) -> bool:
    """Whether the members force ``cell``: no layout meeting them has it the other way. The oracle
    is asked for such layouts alone (the cell flagged, or shown without a clue) and stops at the
    first: every layout meeting them, listed, has the cell so exactly when none of these exists."""
    cells = list(position.cells)
    cells[cell[0] * position.width + cell[1]] = oracle.NO_CLUE if is_mine else oracle.FLAG
    other = oracle.each_layout(
        tuple(cells),
        position.width,
        position.height,
        position.mines,
        rules,
        clues=clues,
        board_rules=board_rules,
        total=total,
        runs=runs,
    )
    return next(other, None) is None


def _assert_minimal(position: Position, rules: str, runs, e) -> None:
    """The explanation ``e`` forces its cell, and forces it no longer without any one of its members."""
    args = (position, rules, runs, e.cell, e.is_mine)
    assert _forces(*args, e.clues, e.rules, e.uses_total)
    for k in range(len(e.clues)):
        assert not _forces(*args, e.clues[:k] + e.clues[k + 1 :], e.rules, e.uses_total), ("clue", e.clues[k])
    for k in range(len(e.rules)):
        assert not _forces(*args, e.clues, e.rules[:k] + e.rules[k + 1 :], e.uses_total), e.rules[k]
    if e.uses_total:
        assert not _forces(*args, e.clues, e.rules, False), "total"


def test_a_hint_is_minimal_but_not_always_the_smallest() -> None:
    """What hint() promises: no member of its explanation can be dropped. Not the fewest
    members: here its explanation has three, while clue (1, 2) and the mine total alone make
    (0, 0) a mine (by the oracle); the docstring says so."""
    position = Position.from_text("4x3x3\nHHHH\n2H2H\n1HH1\n")
    h = hint(position, "V")
    assert h is not None
    _assert_minimal(position, "V", None, h)
    assert h.size == 3 and _forces(position, "V", None, (0, 0), True, ((1, 2),), (), True)
    doc = " ".join((hint.__doc__ or "").split())
    assert "minimal explanation (no member can be dropped)" in doc and "fewest" not in doc


@pytest.mark.parametrize(
    ("rules", "seed"),
    [(rules, 0) for rules in RULE_SETS]
    + [(rules, 1) for rules in SINGLES]
    # each pair's 4x4 position in the slow run: its 4x3 one (seed 0) runs by default, and
    # test_random_positions_match_enumeration draws pairs on boards up to 4x4
    + [pytest.param(rules, 1, marks=pytest.mark.slow) for rules in PAIRS],
)
def test_every_rule_alone_and_in_pairs_matches_enumeration(rules: str, seed: int) -> None:
    _check(rules, 4, 3 + seed, seed)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULE_SETS),
    width=st.integers(2, 4),
    height=st.integers(2, 4),
    seed=st.integers(0, 10**6),
)
def test_random_positions_match_enumeration(rules: str, width: int, height: int, seed: int) -> None:
    _check(rules, width, height, seed)


# Seed 1 draws the one large position of the six (23 cells hidden, 35,000-210,000 layouts: 1-7 s of
# CPU to enumerate, the other five together a tenth of a second). By default it runs under M, whose
# counts take the CP-SAT group enumeration; V and X take the counting engines, checked by default on
# the other five positions (and V's engines on their own in tests/test_solve.py); their large
# position, and LN, LX' and NK, with -m slow.
SMALL_SEEDS = (0, 2, 3, 4, 5)


@pytest.mark.parametrize(
    ("rules", "seeds"),
    [
        pytest.param("V", SMALL_SEEDS, id="V"),
        pytest.param("X", SMALL_SEEDS, id="X"),
        pytest.param("M", range(6), id="M"),
        *(pytest.param(rules, (1,), id=f"{rules}-large", marks=pytest.mark.slow) for rules in ("V", "X")),
        *(pytest.param(rules, range(6), id=rules, marks=pytest.mark.slow) for rules in ("LN", "LX'", "NK")),
    ],
)
def test_the_exact_pipeline_equals_the_enumeration_of_every_layout(rules: str, seeds: Iterable[int]) -> None:
    # The second formulation: layouts enumerated by CP-SAT, against the groups and components.
    from analyzer.models.variants import enumerate_layouts

    for seed in seeds:
        cells, mines, _ = oracle.random_position(rules, 5, 5, seed, reveal=0.4)
        position = Position(5, 5, mines, cells)
        try:
            analysis = solve_variant(position, rules)
        except InconsistentBoardError:
            continue
        spec, _ = build_spec(position, parse_rules(rules))
        found = enumerate_layouts(spec, limit=10**6)
        assert found is not None and len(found) == analysis.layouts
        sums = [sum(col) for col in zip(*found, strict=True)]
        for i, s in zip(spec.unknown, sums, strict=True):
            assert analysis.probabilities[divmod(i, 5)] == Fraction(s, len(found))
        assert analysis.probability_method.startswith("exact pipeline")


def test_rule_letters_are_read_with_primes_and_in_any_case() -> None:
    assert str(parse_rules("x'q")) == "QX'"
    assert str(parse_rules(" l m ")) == "ML"
    assert parse_rules("QX").region == "X"


def test_multiple_with_negation_reads_twice_coloured_less_uncoloured() -> None:
    """The game's MN: a clue is |2 x coloured mines - uncoloured mines|. Two mines below a 1:
    (1, 0) and (1, 2) are coloured, (1, 1) not; only a coloured mine with (1, 1) shows 1
    (|2 - 1|), so (1, 1) is a mine. Under M alone or N alone no layout shows 1 there."""
    text = "3x2x2\n?1?\nHHH\n"
    analysis = solve_variant(text, "MN")
    assert str(analysis.rules) == "MN" and analysis.mines == ((1, 1),)
    assert analysis.probability(1, 0) == Fraction(1, 2)
    for alone in ("M", "N"):
        with pytest.raises(InconsistentBoardError):
            solve_variant(text, alone)


@pytest.mark.parametrize("rules", ["LMN", "MNX", "MNX'", "MNK", "QMN", "CMN", "BMN"])
def test_multiple_with_negation_and_a_third_rule_matches_enumeration(rules: str) -> None:
    for seed in range(3):
        _check(rules, 4, 3 + seed % 2, seed)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("QZ", r"unknown rule 'Z' in 'QZ'"),
        ("QQ", r"rule 'Q' given twice"),
        ("XK", r"rules 'X' and 'K' both set the clue region"),
        ("'", r"unknown rule \"'\""),
    ],
)
def test_bad_rule_sets_get_one_clear_line(rules: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        solve_variant("2x2x1\nHH\n?H\n", rules)


def test_a_rule_set_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(RuleError, match="rules must be a string"):
        parse_rules(3)  # type: ignore[arg-type]


def test_a_rule_on_a_board_that_is_not_the_square_grid_is_refused() -> None:
    board = Board.from_text("3x3x1\nHHH\nH1H\nHHH\n").__class__(
        3, 3, 1, (-1,) * 4 + (1,) + (-1,) * 4, "torus"
    )
    with pytest.raises(RuleError, match="rule 'Q' needs the square grid; this board's topology is 'torus'"):
        solve_variant(board, "Q")


@pytest.mark.parametrize("command", ["solve", "explain"])
def test_the_cli_refuses_rules_on_a_hex_board_as_the_api_does(tmp_path, capsys, command) -> None:
    """The board's topology in its header ('hex') reaches the rules, which refuse it in the API's
    words (not a 'bad header' of the position's text); a board's JSON (a graph) too."""
    from analyzer.cli import main

    text = "3x3x1 hex\nHHH\nH1H\nHHH\n"
    for body in (text, Board.from_text(text).to_json()):
        with pytest.raises(RuleError, match="needs the square grid") as api:
            solve_variant(Board.from_text(body), "Q")
        path = tmp_path / "hex.mine"
        path.write_text(body)
        assert main([command, "--rules", "Q", str(path)]) == 1  # an error about the board (docs/guide/cli.md)
        assert capsys.readouterr().err.strip() == f"analyzer: error: {api.value}"
    assert Position.from_text(text).to_text() == text
    with pytest.raises(BoardParseError, match="bad header '3x3x1 cube': a cube of 3x3 faces"):
        Position.from_text("3x3x1 cube\nHHH\nH1H\nHHH\n")


def test_a_position_no_layout_meets_names_the_members_in_conflict() -> None:
    with pytest.raises(InconsistentBoardError, match=r"clues \(0, 0\); rules Q") as info:
        solve_variant("2x2x0\n0H\nHH\n", "Q")
    assert info.value.clues == ((0, 0),)


def test_questions_about_cells_that_are_not_certain_or_not_hidden() -> None:
    with pytest.raises(InvalidCellError, match=r"cell \(0, 0\) is not certain"):
        explain_variant("3x2x1\nHHH\n?1?\n", "V", (0, 0))
    with pytest.raises(InvalidCellError, match=r"cell \(1, 1\) is not hidden"):
        explain_variant("3x2x1\nHHH\n?1?\n", "V", (1, 1))
    with pytest.raises(InvalidCellError, match="more than 1 layouts"):  # B's are enumerated
        solve_variant("3x3x3\nHHH\nHHH\nHHH\n", "B", limit=1).probability(0, 0)


def test_position_text_round_trips_and_reports_bad_cells() -> None:
    text = "3x2x3\nH 12 F\n? 0 H\n"
    assert Position.from_text(text).to_text() == text
    assert Position.from_text("2x1x1\nH?\n").to_text() == "2x1x1\nH?\n"
    with pytest.raises(BoardParseError, match=r"line 2, column 2: 'x' is not a clue"):
        Position.from_text("2x1x1\nHx\n")
    with pytest.raises(BoardParseError, match="expected 2 cells"):
        Position.from_text("2x1x1\nH 1 1\n")


def test_multiple_clues_above_eight_are_read() -> None:
    # A Multiple clue of 12: all eight neighbours mines, the four coloured ones count twice.
    text = "3x3x8\nHHH\nH12H\nHHH\n".replace("H12H", "H 12 H").replace("HHH", "H H H")
    analysis = solve_variant(text, "M")
    assert len(analysis.mines) == 8


def test_multiple_colours_the_games_checkerboard() -> None:
    """The game's M: the top-left cell is not coloured (row + column odd are). One mine under a
    clue of 2 must lie on a coloured cell: (1, 0) or (1, 2), so (1, 1) is safe. With the
    checkerboard the other way round, (1, 1) would be the mine."""
    text = "3x2x1\n?2?\nHHH\n"
    analysis = solve_variant(text, "M")
    assert analysis.safe == ((1, 1),) and analysis.mines == ()
    assert analysis.probability(1, 0) == analysis.probability(1, 2) == Fraction(1, 2)
    position = Position.from_text(text)
    found = oracle.layouts(position.cells, 3, 2, 1, "M")
    assert sorted(map(sorted, found)) == [[(1, 0)], [(1, 2)]]


def test_the_cli_solves_and_explains_under_rules(tmp_path, capsys) -> None:
    from analyzer.cli import main

    path = tmp_path / "q.mine"
    path.write_text("3x2x1\nHHH\n?1?\n")
    assert main(["solve", "--rules", "Q", str(path)]) == 0
    out = capsys.readouterr().out
    assert "rules Q" in out and "1 certain mine" in out and "transfer programme" in out
    assert main(["explain", "--rules", "Q", "--cell", "0,1", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "(0, 1) is a mine: clues (1, 1); rules Q"
    assert main(["solve", "--rules", "QZ", str(path)]) == 2  # a usage error
    assert "unknown rule 'Z'" in capsys.readouterr().err


def test_a_count_the_time_limit_stops_keeps_the_certain_cells(monkeypatch) -> None:
    from analyzer.errors import SolverTimeoutError
    from analyzer.models import variants as models
    from analyzer.variants import transfer

    def stopped(*args, **kwargs):
        raise SolverTimeoutError("time limit reached while counting the layouts of a variant position")

    whole = solve_variant("3x2x1\nHHH\n?1?\n", "Q")
    monkeypatch.setattr(models, "enumerate_layouts", stopped)
    monkeypatch.setattr(transfer, "count_layouts", stopped)
    cut = solve_variant("3x2x1\nHHH\n?1?\n", "Q")
    assert (cut.safe, cut.mines) == (whole.safe, whole.mines) == (((0, 0), (0, 2)), ((0, 1),))
    assert cut.probabilities is None and cut.probability_method.endswith("not counted")
    with pytest.raises(InvalidCellError, match="no probabilities for this position: the time limit came"):
        cut.probability(0, 0)


@pytest.mark.parametrize("rules", ["S", "T", "QC", "OB", "MX", "AH"])
def test_the_time_limit_stops_the_building_of_a_model(rules: str, tmp_path, capsys, monkeypatch) -> None:
    """A deadline passed stops the constraints, the model and the enumeration's model as they
    are built (a 100x100 board under S took 29 s with a limit of 5 s), with the time-limit error;
    the deadline is looked at inside the loops over the cells, not only between the stages."""
    import time

    from analyzer.cli import main
    from analyzer.errors import SolverTimeoutError
    from analyzer.models import variants as models

    position = Position(30, 30, 60, (-1,) * 900)
    ruleset = parse_rules(rules)
    spent = time.monotonic() - 1
    building = "time limit reached during the building of a variant position's model"
    with pytest.raises(SolverTimeoutError, match=building):
        build_spec(position, ruleset, deadline=spent)
    spec, _ = build_spec(position, ruleset)
    with pytest.raises(SolverTimeoutError, match=building):
        models.VariantModel(spec, deadline=spent)
    with pytest.raises(SolverTimeoutError, match=building):
        models.enumerate_layouts(spec, limit=10, deadline=spent)
    with pytest.raises(SolverTimeoutError, match=building):
        solve_variant(position, rules, time_limit=1e-9)
    path = tmp_path / "empty.mine"
    path.write_text(position.to_text())
    for command in ("solve", "explain"):
        assert main([command, "--rules", rules, "--time-limit", "1e-9", str(path)]) == 1
        assert capsys.readouterr().err.strip() == f"analyzer: error: {building}"
    looks = []
    monkeypatch.setattr(models, "check_building", looks.append)
    models.VariantModel(spec, deadline=time.monotonic() + 60)
    assert len(looks) > (3 if ruleset.board else 0)  # in the loops: every few hundred constraints
    looks.clear()  # the symmetries of an empty board: each turn compared member by member
    from analyzer.variants.constraints import grid_turns

    models.symmetries(spec, grid_turns(30, 30), deadline=time.monotonic() + 60)
    assert len(looks) >= (14 if ruleset.board else 7)  # once a turn at least, and within the rules


@pytest.mark.parametrize("rules", ["V", "Q", "C", "O", "T", "CO", "QX"])
def test_cells_put_aside_are_proved_together_and_agree_with_enumeration(rules: str, monkeypatch) -> None:
    """With no effort for a solve under assumptions, every cell is put aside and proved together."""
    from analyzer.models import variants as model

    monkeypatch.setattr(model, "ASSUMPTION_EFFORT", 0.0)
    monkeypatch.setattr(model, "JOINT_EFFORT", 0.0)
    aside = []
    solve = model.VariantModel.solve

    def spy(self, assumptions, deadline, **options):  # type: ignore[no-untyped-def]
        try:
            return solve(self, assumptions, deadline, **options)
        except model._Deferred:
            aside.append(assumptions[-1])
            raise

    monkeypatch.setattr(model.VariantModel, "solve", spy)
    for seed in range(3):
        _check(rules, 4, 4, seed)
    assert aside, "no cell was put aside"


@pytest.mark.parametrize("rules", ["V", "Q", "T", "QX", "S", "C"])
def test_when_the_first_layout_needed_the_fixed_copy_cells_go_to_the_patient_proof(
    rules: str, monkeypatch
) -> None:
    """If certain()'s first solve went on to the copy with the members fixed, no solve under
    assumptions follows (but where cuts come, under C) and the answers still agree with
    enumeration."""
    from analyzer.models import variants as model

    impatient = []
    solve = model.VariantModel.solve

    def spy(self, assumptions, deadline, **options):  # type: ignore[no-untyped-def]
        if not options.get("patient", True):
            impatient.append(rules)
        answer = solve(self, assumptions, deadline, **options)
        self._copied = True  # as if it had needed the copy
        return answer

    monkeypatch.setattr(model.VariantModel, "solve", spy)
    for seed in range(3):
        _check(rules, 4, 4, seed, explain=False)
    assert bool(impatient) == (rules == "C")


# The positions (size, seed) of the flow test: by default the six 4x4 ones (a few hundredths of a
# second each) and the 5x5 one where a flow meets a layout under the rules, if none of the 4x4 ones
# does: under O and CO seed 4, the only one (C meets on 4x4 seeds 0, 1, 3, CT on seeds 1, 3); every
# one of the twelve 4x4 and 5x5 positions in the slow run (the other 5x5 ones: 0.1-0.5 s each).
FLOW_POSITIONS = [(4, seed) for seed in range(6)]
FLOW_MEETS_ON_5X5 = {"O": [(5, 4)], "CO": [(5, 4)]}
EVERY_FLOW_POSITION = list(itertools.product((4, 5), range(6)))


@pytest.mark.parametrize(
    "every", [pytest.param(False, id="some"), pytest.param(True, id="every", marks=pytest.mark.slow)]
)
@pytest.mark.parametrize("soon", ["round", "effort"])
@pytest.mark.parametrize("rules", ["C", "O", "CO", "CT"])
def test_layouts_a_flow_meets_on_the_way_agree_with_enumeration(
    rules: str, soon: str, every: bool, monkeypatch
) -> None:
    """With the flows from the second round (by its number, or by the cuts' effort spent), the
    joint proof's flow copies (which seek the most cells the other way, and hand on every layout
    met) leave the certain cells of enumeration."""
    from analyzer.models import variants as model

    if soon == "round":
        monkeypatch.setattr(model, "FLOW_AFTER", 2)
        monkeypatch.setattr(model, "FLOW_SOON", 2)
    else:
        monkeypatch.setattr(model, "FLOW_AFTER", 1000)
        monkeypatch.setattr(model, "FLOW_SOON", 1000)
        monkeypatch.setattr(model, "CUT_EFFORT", 0.0)
    met = []
    solve_flow = model.VariantModel._solve_flow

    def spy(self, assumptions, conns, start, deadline, effort=model.FLOW_EFFORT, near=None, found=None):  # type: ignore[no-untyped-def]
        answer = solve_flow(self, assumptions, conns, start, deadline, effort, near, found)
        if near and found:
            met.append(len(found))
        return answer

    monkeypatch.setattr(model.VariantModel, "_solve_flow", spy)
    positions = EVERY_FLOW_POSITION if every else FLOW_POSITIONS + FLOW_MEETS_ON_5X5.get(rules, [])
    for size, seed in positions:
        _check(rules, size, size, seed, explain=False)
    assert met, "no joint proof's flow met a layout"


def _accepts(model, rule, bits: tuple[int, ...]) -> bool:  # noqa: ANN001
    """Whether the model (its rule on) has a solution with every cell fixed as ``bits``.

    CP-SAT's presolve is off: with every cell fixed only the rule's own variables are left to
    find, and a model's solutions are the same with it or without it (a solve takes a third of
    the time so, one of the thousands these tests run)."""
    from ortools.sat.python import cp_model

    model.model.clear_assumptions()
    model.model.add_assumptions([rule, *(x if b else x.Not() for x, b in zip(model.x, bits, strict=True))])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = False
    return solver.solve(model.model) == cp_model.OPTIMAL


@pytest.mark.parametrize(("width", "height"), [(3, 3), (4, 2)])
def test_the_snake_circuit_accepts_exactly_the_snakes(width: int, height: int) -> None:
    """Under S the model (a circuit through the mines, two mines side by side neighbours on it)
    is exact with no cuts: a solve with every cell fixed succeeds exactly on the oracle's snakes
    (on 3x3 the ring of eight mines is a closed loop, not a snake)."""
    from analyzer.models.variants import VariantModel

    spec, _ = build_spec(Position(width, height, 0, (-1,) * (width * height)), parse_rules("S"))
    model = VariantModel(spec)
    rule = model.lits[len(spec.clues)]
    snakes = 0
    for bits in itertools.product((0, 1), repeat=width * height):
        mines = {divmod(i, width) for i, b in enumerate(bits) if b}
        found = _accepts(model, rule, bits)
        assert found == oracle.board_rule_holds("S", mines, width, height), sorted(mines)
        snakes += found
    assert snakes > 2 * width * height


@pytest.mark.parametrize(
    ("text", "rules", "expected"),
    [
        # The snake joins the two flags through (0, 1); the total alone forces nothing, and the
        # cell (0, 3) needs the snake and the total: the hint is the rule alone.
        ("4x1x3\nFHFH\n", "S", "(0, 1) is a mine: rules S"),
        # Under C the two flags' mines join through (0, 1) the same way.
        ("4x1x3\nFHFH\n", "C", "(0, 1) is a mine: rules C"),
        # A clue forces (0, 1) without the snake: that comes first, found in the smaller model.
        ("4x2x2\nHHHH\n?1FH\n", "S", "(0, 0) is safe: clues (1, 1)"),
    ],
)
def test_the_hint_under_a_connectivity_rule_finds_the_smallest_explanation(
    text: str, rules: str, expected: str
) -> None:
    h = hint(text, rules)
    assert h is not None and h.describe() == expected
    position = Position.of(text)
    canonical = str(parse_rules(rules))
    _assert_minimal(position, canonical, None, h)


@pytest.mark.parametrize("letter", ["C", "O", "S"])
def test_the_local_consequences_of_a_board_rule_keep_every_layout_of_it(letter: str) -> None:
    """The implied local constraints (O's forbidden 2x2 checkerboards, a member of a connected
    set beside another) hold in every layout the oracle accepts: a solve with the layout fixed
    finds it, on 4x3 (every layout) and on 4x4 (the layouts CP-SAT would lose, checked in Python)."""
    from analyzer.models.variants import VariantModel

    width, height = 4, 3
    spec, _ = build_spec(Position(width, height, 0, (-1,) * (width * height)), parse_rules(letter))
    model = VariantModel(spec)
    rule = model.lits[len(spec.clues)]
    kept = 0
    for bits in itertools.product((0, 1), repeat=width * height):
        mines = {divmod(i, width) for i, b in enumerate(bits) if b}
        if not oracle.board_rule_holds(letter, mines, width, height):
            continue
        assert _accepts(model, rule, bits), sorted(mines)
        kept += 1
    assert kept > 100
    if letter == "O":  # the checkerboards on 4x4: no layout of O shows one
        spec, _ = build_spec(Position(4, 4, 0, (-1,) * 16), parse_rules("O"))
        (o,) = spec.rules
        assert len(o.forbidden) == 2 * 9
        for bits in itertools.product((0, 1), repeat=16):
            mines = {divmod(i, 4) for i, b in enumerate(bits) if b}
            if oracle.board_rule_holds("O", mines, 4, 4):
                assert not any(all(bits[i] == v for i, v in pattern) for pattern in o.forbidden)


EMPTY = "4x4x4\nHHHH\nHHHH\nHHHH\nHHHH\n"
SYMMETRIC = [
    EMPTY,
    "4x3x3\nHHHH\nHHHH\nHHHH\n",
    "3x3x3\nHHH\nH2H\nHHH\n",
    "4x4x4\n1HH1\nHHHH\nHHHH\n1HH1\n",
    "4x4x4\n1HH2\nHHHH\nHHHH\n1HH1\n",  # one corner apart: the flip along its diagonal at most
]


@pytest.mark.parametrize(
    "rules",
    [*SINGLES, "P", "E", "W", "S", "SX", "QS", "CO", "TA", "OD", "CD", "MH"]
    + [pytest.param(rules, marks=pytest.mark.slow) for rules in PAIRS],
)
def test_symmetries_keep_every_layout_and_the_certain_cells_match_enumeration(rules: str) -> None:
    """Each symmetry found maps the oracle's layouts onto themselves; an empty square board
    keeps all seven turns and flips (under H, only the three that keep rows rows); with the
    symmetries lending layouts and the joint proof asking one cell an orbit, the certain
    cells and probabilities still equal enumeration."""
    for text in SYMMETRIC:
        position = Position.from_text(text)
        width = position.width
        spec, _ = build_spec(position, parse_rules(rules))
        found = oracle.layouts(
            position.cells, width, position.height, position.mines, str(parse_rules(rules))
        )
        layouts = {frozenset(m) for m in found}
        for p in spec.symmetries:
            to = {divmod(i, width): divmod(j, width) for i, j in enumerate(p)}
            image = {frozenset(map(to.__getitem__, m)) for m in layouts}
            assert image == layouts, (rules, text, p)
        if text == EMPTY:
            assert len(spec.symmetries) == (3 if "H" in parse_rules(rules).board else 7)
        check_position(position, rules, explain=False, found=found)
