"""Tests of :mod:`analyzer.play.players`: each player follows its rules.

The local rules are checked against the true layouts of real positions and
against the exact solver (what they prove, the solver proves); the
probabilistic player against the solver's minimum; the expert's guesses
against its margin; the end-game search against a hand-counted case and the
solver's layout count; every player's moves in whole games against the rules.
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from strategies import examples, numbered_boards, positions

from analyzer import AnalyzerError, Board, Game, count_layouts, solve
from analyzer.board.board import FLAG, HIDDEN
from analyzer.play.players import (
    PLAYERS,
    Action,
    ExpertPlayer,
    LocalPlayer,
    Player,
    PlayerError,
    ProbabilisticPlayer,
    RandomPlayer,
    SubsetPlayer,
    endgame_layouts,
    endgame_search,
    guess_order,
    local_deductions,
    make_player,
    reveal_outcomes,
)

SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _game_boards(width: int, height: int, mines: int, games: int, *, seed: int = 0):
    """Positions met while a probabilistic player plays (board, game) before each move."""
    rng = np.random.default_rng(seed)
    for s in range(games):
        game = Game.new(width, height, mines, first_click="safe", seed=seed * 1000 + s)
        game.reveal(int(rng.integers(height)), int(rng.integers(width)))
        player = ProbabilisticPlayer()
        while not game.is_finished:
            yield game.board, game
            action = player.choose(game.board, rng)
            game.reveal(*action.cell)


# ------------------------------------------------------------------ values
def test_action_validates_kind_and_guess() -> None:
    assert Action("reveal", 1, 2).cell == (1, 2)
    with pytest.raises(PlayerError, match="unknown action kind 'chord'"):
        Action("chord", 0, 0)
    with pytest.raises(PlayerError, match="never a guess"):
        Action("flag", 0, 0, is_guess=True)


def test_registry_names_and_errors() -> None:
    assert list(PLAYERS) == ["random", "local", "subset", "probabilistic", "expert", "pseq", "optimal"]
    for name, cls in PLAYERS.items():
        player = make_player(name)
        assert isinstance(player, cls) and player.name == name
    same = ExpertPlayer()
    assert make_player(same) is same
    with pytest.raises(PlayerError, match="unknown player 'greedy'"):
        make_player("greedy")
    with pytest.raises(PlayerError, match="bad option for player 'local'"):
        make_player("local", margin=1)
    with pytest.raises(PlayerError, match="margin must be"):
        make_player("expert", margin=-1)
    with pytest.raises(PlayerError, match="candidates must be at least 1"):
        make_player("expert", candidates=0)
    # options in the name, as the command line gives them; keywords win over the name's
    given = make_player("expert:score=secondary,margin=0.06,candidates=16")
    assert repr(given) == repr(ExpertPlayer(score="secondary", margin=Fraction(3, 50), candidates=16))
    assert repr(make_player("expert:candidates=16", candidates=4)) == repr(ExpertPlayer(candidates=4))
    with pytest.raises(PlayerError, match="candidates must be at least 1"):
        make_player("expert:candidates=0")
    with pytest.raises(PlayerError, match="unknown player 'greedy'"):
        make_player("greedy:depth=2")
    assert repr(make_player("expert:score=tertiary,dead=wait")) == (
        "ExpertPlayer(margin=Fraction(1, 50), candidates=8, endgame_layouts=60, endgame_nodes=20000, "
        "score='tertiary', dead='wait')"
    )
    with pytest.raises(PlayerError, match="dead must be one of guess, wait, got 'skip'"):
        make_player("expert:dead=skip")
    with pytest.raises(PlayerError, match="score must be one of progress, secondary, tertiary, blended"):
        make_player("expert:score=fourth")
    assert repr(make_player("expert:score=blended,pseudo=first")) == (
        "ExpertPlayer(margin=Fraction(1, 50), candidates=8, endgame_layouts=60, endgame_nodes=20000, "
        "score='blended', pseudo='first')"
    )
    with pytest.raises(PlayerError, match="pseudo must be one of ignore, first, chains, got 'always'"):
        make_player("expert:pseudo=always")
    assert repr(make_player("expert:isolated=exact,offedge=16")) == (
        "ExpertPlayer(margin=Fraction(1, 50), candidates=8, endgame_layouts=60, endgame_nodes=20000, "
        "isolated='exact', offedge=16)"
    )
    with pytest.raises(PlayerError, match="isolated must be one of heuristic, exact, got 'first'"):
        make_player("expert:isolated=first")
    with pytest.raises(PlayerError, match="offedge must be an integer >= 0, got -1"):
        make_player("expert:offedge=-1")
    with pytest.raises(PlayerError, match="offedge does not apply to score='tertiary'"):
        make_player("expert:score=tertiary,offedge=8")
    assert repr(make_player("expert:score=secondary,alike=once")).endswith("score='secondary', alike='once')")
    with pytest.raises(PlayerError, match="alike must be one of all, once, got 'twice'"):
        make_player("expert:alike=twice")
    for text in ("expert:score=tertiary,alike=once", "expert:offedge=4,alike=once"):
        with pytest.raises(PlayerError, match="alike='once' does not apply with offedge or score='tertiary'"):
            make_player(text)
    assert repr(make_player("expert:score=secondary,progress=1/5")).endswith(
        "score='secondary', progress=Fraction(1, 5))"
    )
    with pytest.raises(PlayerError, match="progress weighs a secondary score, not score='progress'"):
        make_player("expert:progress=1/5")
    with pytest.raises(PlayerError, match="progress must be a Fraction >= 0"):
        make_player("expert:score=secondary,progress=-1/5")
    assert repr(make_player("expert:score=secondary,longterm=9/10")).endswith(
        "score='secondary', longterm=Fraction(9, 10))"
    )
    with pytest.raises(PlayerError, match="longterm must be a Fraction >= 0"):
        make_player("expert:longterm=-1")
    with pytest.raises(PlayerError, match="longterm does not apply to score='tertiary'"):
        make_player("expert:score=tertiary,longterm=9/10")


@pytest.mark.parametrize("name", list(PLAYERS))
def test_players_pickle_and_repr_rebuilds(name: str) -> None:
    player = make_player(name)
    board = Board.from_text("3x2x1\nHHH\n110\n")
    player.choose(board, np.random.default_rng(0))  # leaves a plan behind for some
    clone = pickle.loads(pickle.dumps(player))
    assert type(clone) is type(player) and repr(clone) == repr(player)
    namespace = {cls.__name__: cls for cls in PLAYERS.values()} | {"Fraction": Fraction}
    assert repr(eval(repr(player), namespace)) == repr(player)


def test_choose_needs_a_hidden_cell() -> None:
    with pytest.raises(PlayerError, match="no hidden, unflagged cell"):
        LocalPlayer().choose(Board.from_text("2x1x1\n1F\n"), np.random.default_rng(0))


def test_memory_is_dropped_on_a_board_that_does_not_extend_it() -> None:
    rng = np.random.default_rng(0)
    player = LocalPlayer()
    board = Board.from_text("3x2x1\nHHH\n110\n")
    assert player.choose(board, rng) == Action("flag", 0, 0)
    # Another position of the same size: the plan (reveal (0, 1), (0, 2)) no longer applies.
    other = Board.from_text("3x2x1\nHHH\n011\n")
    assert player.choose(other, rng) == Action("flag", 0, 2)
    player.reset()
    assert player.choose(board, rng) == Action("flag", 0, 0)


# ------------------------------------------------------------- local rules
@SETTINGS
@given(positions(max_side=6))
def test_local_deductions_are_true_and_the_solver_agrees(position) -> None:
    board, layout = position.board, position.layout
    analysis = solve(board)
    for subset in (False, True):
        found = local_deductions(board, subset=subset)
        assert all(cell in layout for cell in found.mines)
        assert all(cell not in layout for cell in found.safe)
        assert set(found.safe) <= set(analysis.safe)
        assert set(found.mines) <= set(analysis.mines)
    assert set(local_deductions(board).safe) <= set(local_deductions(board, subset=True).safe)


def test_local_rules_fire_and_subset_rule_adds() -> None:
    assert local_deductions(Board.from_text("3x2x1\nHHH\n110\n")).mines == ((0, 0),)
    one_two_one = Board.from_text("3x2x2\nHHH\n121\n")
    assert local_deductions(one_two_one) == local_deductions(one_two_one, subset=False)
    assert local_deductions(one_two_one).safe == ()
    found = local_deductions(one_two_one, subset=True)
    assert found.safe == ((0, 1),) and found.mines == ((0, 0), (0, 2))
    # A flag counts as a mine: the 1 next to it is satisfied.
    assert local_deductions(Board.from_text("3x2x1\nFHH\n1HH\n")).safe == ((0, 1), (1, 1))


@pytest.mark.parametrize("cls", [LocalPlayer, SubsetPlayer])
def test_local_players_in_whole_games(cls: type[Player]) -> None:
    """Proved moves are right, flags are mines, and a guess is never a proved mine."""
    rng = np.random.default_rng(3)
    for s in range(25):
        game = Game.new(8, 8, 12, first_click="safe", seed=s)
        game.reveal(0, 0)
        player = cls()
        while not game.is_finished:
            board = game.board
            action = player.choose(board, rng)
            assert board.is_hidden(*action.cell)
            proved = local_deductions(board, subset=cls is SubsetPlayer)
            if action.kind == "flag":
                assert game.is_mine(*action.cell)
                game.flag(*action.cell)
                continue
            if action.is_guess:
                assert not proved.safe and not proved.mines  # only guesses when stuck
                assert action.cell not in proved.mines
            else:
                assert not game.is_mine(*action.cell)
            game.reveal(*action.cell)
            if game.status == "lost":
                assert action.is_guess


def test_random_player_is_uniform_over_hidden_cells() -> None:
    board = Board.from_text("3x1x1\nH1H\n")
    rng = np.random.default_rng(0)
    picks = [RandomPlayer().choose(board, rng) for _ in range(400)]
    assert {a.cell for a in picks} == {(0, 0), (0, 2)}
    assert all(a.is_guess and a.kind == "reveal" for a in picks)
    assert 150 < sum(a.cell == (0, 0) for a in picks) < 250
    flagged = Board.from_text("3x1x1\nF1H\n")
    assert {RandomPlayer().choose(flagged, rng).cell for _ in range(20)} == {(0, 2)}


# ----------------------------------------------------------- probabilistic
def test_probabilistic_picks_a_minimum_probability_cell() -> None:
    checked = 0
    for board, _ in _game_boards(9, 9, 14, 12, seed=1):
        analysis = solve(board)
        action = ProbabilisticPlayer().choose(board, np.random.default_rng(0))
        p = analysis.probability(*action.cell)
        hidden = [analysis.probability(*cell) for cell in board.hidden_cells()]
        assert p == min(hidden)
        assert action.is_guess == (p > 0)
        checked += action.is_guess
    assert checked > 5


def test_probabilistic_tie_break_is_deterministic() -> None:
    fresh = Board(5, 4, 4, (HIDDEN,) * 20)
    picks = {ProbabilisticPlayer().choose(fresh, np.random.default_rng(s)) for s in range(5)}
    assert picks == {Action("reveal", 0, 0, is_guess=True)}  # a corner: fewest neighbours, then row-major
    # Equal probabilities: fewer unrevealed neighbours first, then row-major.
    board = Board.from_text("4x2x1\nHHHH\nH11H\n")
    analysis = solve(board)
    order = guess_order(board, analysis)
    keys = [
        (analysis.cell_probabilities[i], sum(1 for j in board.neighbour_table[i] if board.cells[j] < 0), i)
        for i in order
    ]
    assert keys == sorted(keys)


def test_probabilistic_reveals_every_safe_cell_and_never_flags() -> None:
    board = Board.from_text("4x2x1\nHHHH\n1100\n")
    player = ProbabilisticPlayer()
    rng = np.random.default_rng(0)
    first = player.choose(board, rng)
    assert first == Action("reveal", 0, 1) and not first.is_guess
    # The solver's certain safe cells, in row-major order, one per call.
    assert player.choose(board.replace({(0, 1): 1}), rng) == Action("reveal", 0, 2)


# ------------------------------------------------------------------ expert
def test_reveal_outcomes_match_number_distribution() -> None:
    boards = [b for b, _ in _game_boards(6, 6, 7, 4, seed=2)][:8]
    for board in boards:
        analysis = solve(board)
        for cell in board.hidden_cells()[:6]:
            outcomes = reveal_outcomes(board, analysis, *cell)
            expected = analysis.number_distribution(*cell)
            assert {k: Fraction(a.total, analysis.total) for k, a in outcomes.items()} == expected


@SETTINGS
@given(positions(max_side=5, max_unknown=12))
def test_layout_count_and_endgame_layouts_agree_with_solve(position) -> None:
    board = position.board
    total = solve(board).total
    assert count_layouts(board) == total
    layouts = endgame_layouts(board, limit=10_000)
    assert layouts is not None and len(layouts) == len(set(layouts)) == total
    w = board.width
    assert frozenset(r * w + c for r, c in position.layout if board.cells[r * w + c] != FLAG) in layouts
    if total > 1:
        assert endgame_layouts(board, limit=total - 1) is None
    # A cell shown as more mines than it has unrevealed neighbours: no layout.
    for r, c in board.hidden_cells()[:3]:
        around = sum(1 for n in board.neighbours(r, c) if board[n] < 0)
        if board.mines > board.cells.count(HIDDEN) + board.cells.count(FLAG) - 1:
            continue  # revealing any cell leaves too little room for the mines
        if around < 8:
            impossible = board.replace({(r, c): around + 1})
            assert count_layouts(impossible) == 0
        for k in range(around + 1):
            shown = board.replace({(r, c): k})
            try:
                expected = solve(shown).total
            except AnalyzerError:
                expected = 0
            assert count_layouts(shown) == expected


def test_endgame_search_hand_counted() -> None:
    board = Board.from_text("3x1x1\nHHH\n")
    layouts = endgame_layouts(board, limit=10)
    assert endgame_search(board, layouts, max_nodes=100) == (0, 2)  # an end: wins 2 of 3
    # A true 50/50: one of two layouts.
    fifty = Board.from_text("2x2x1\nHH\n11\n")
    assert endgame_search(fifty, endgame_layouts(fifty, limit=10), max_nodes=100) == (0, 1)
    five = Board.from_text("5x1x2\nHHHHH\n")
    assert endgame_search(five, endgame_layouts(five, limit=10), max_nodes=1) is None
    assert endgame_search(five, endgame_layouts(five, limit=10), max_nodes=1000) is not None


def test_endgame_search_values_are_bounded_by_survival() -> None:
    """Winning needs the first guess to survive: the value is at most the chosen cell's safety."""
    for board, _ in _game_boards(5, 5, 6, 6, seed=4):
        analysis = solve(board)
        if analysis.safe:
            continue
        layouts = endgame_layouts(board, limit=200)
        if layouts is None:
            continue
        found = endgame_search(board, layouts, max_nodes=50_000)
        if found is None:
            continue
        cell, wins = found
        assert 0 < wins <= len(layouts)
        p = analysis.cell_probabilities[cell]
        assert p is not None and Fraction(wins, len(layouts)) <= 1 - p


def test_expert_guesses_within_margin() -> None:
    margin = Fraction(1, 20)
    expert = ExpertPlayer(margin=margin, endgame_layouts=0)
    checked = 0
    for board, _ in _game_boards(9, 9, 14, 8, seed=5):
        analysis = solve(board)
        action = expert.choose(board, np.random.default_rng(0))
        p = analysis.probability(*action.cell)
        lowest = min(analysis.probability(*cell) for cell in board.hidden_cells())
        assert p <= lowest + margin
        assert action.is_guess == (p > 0)
        if action.is_guess and len(expert.last_scores) > 1:
            checked += 1
            assert max(expert.last_scores.values()) == expert.last_scores[action.cell]
    assert checked > 0
    # No margin, one candidate: the probabilistic player's choice.
    for board, _ in _game_boards(9, 9, 14, 3, seed=6):
        rng = np.random.default_rng(0)
        assert ExpertPlayer(margin=Fraction(0), candidates=1, endgame_layouts=0).choose(
            board, rng
        ) == ProbabilisticPlayer().choose(board, rng)


def test_expert_is_deterministic() -> None:
    board = Board(6, 6, 6, (HIDDEN,) * 36)
    a = ExpertPlayer().choose(board, np.random.default_rng(1))
    b = ExpertPlayer().choose(board, np.random.default_rng(2))
    assert a == b and a.is_guess


def test_endgame_value_is_what_the_expert_wins() -> None:
    """Play the expert from a position on every layout left: it wins on exactly the searched count."""
    checked = 0
    for board, _ in _game_boards(5, 4, 5, 30, seed=7):
        analysis = solve(board)
        if analysis.safe or analysis.total > 30:
            continue
        layouts = endgame_layouts(board, limit=30)
        found = endgame_search(board, layouts, max_nodes=100_000)
        assert layouts is not None and found is not None
        w = board.width
        wins = 0
        for layout in layouts:
            game = Game.from_layout(w, board.height, [divmod(i, w) for i in layout])
            for cell in board.revealed_cells():
                if board.is_hidden(*cell) is False and game.board.is_hidden(*cell):
                    game.reveal(*cell)
            assert game.board == board
            player = ExpertPlayer(endgame_layouts=30, endgame_nodes=100_000)
            rng = np.random.default_rng(0)
            while not game.is_finished:
                game.reveal(*player.choose(game.board, rng).cell)
            wins += game.status == "won"
        assert wins == found[1]
        checked += 1
    assert checked >= 3


@settings(max_examples=examples(400), deadline=None)
@given(numbered_boards())
def test_the_players_feasibility_check_agrees_with_the_exact_count(board: Board) -> None:
    # The compiled check the rule-based players run before a move, against the exact count,
    # on boards that often admit no layout.
    from analyzer.play.players.base import _has_layout

    _has_layout.cache_clear()
    assert _has_layout(board) == (count_layouts(board) > 0)
