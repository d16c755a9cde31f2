"""The fast play engine against the exact one: probabilities, certain cells, and whole games."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from fractions import Fraction
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, positions

from analyzer import Analysis, Board, InconsistentBoardError, solve
from analyzer.board.board import HIDDEN
from analyzer.play.fast import fast_probabilities, first_choice, layout_mask, neighbours_of, play_game
from analyzer.play.game import FirstClickRule, Game
from analyzer.play.players import make_player, reveal_outcomes
from analyzer.play.positions import mid_game
from analyzer.play.simulation import (
    PRESETS,
    Setup,
    _resolve_first_cell,
    game_seed,
    has_fast_form,
    play_indexed,
    play_indexed_fast,
    simulate,
)

#: One xdist worker runs this module under ``pytest -n`` (``--dist loadgroup``): a dozen of its tests
#: read _guess_positions, whose positions are then found once a run, not once a worker.
pytestmark = pytest.mark.xdist_group("guess_positions")


def _assert_agrees(board: Board, trust_flags: bool) -> None:
    fast = fast_probabilities(board, trust_flags=trust_flags).reshape(-1)
    exact = solve(board, trust_flags=trust_flags).cell_probabilities
    for i, p in enumerate(exact):
        if p is None:
            assert math.isnan(fast[i])
            continue
        assert abs(fast[i] - float(p)) <= 1e-9, (i, p, fast[i])
        assert (fast[i] == 0.0) == (p == 0) and (fast[i] == 1.0) == (p == 1), (i, p, fast[i])


@settings(max_examples=examples(120), deadline=None)
@given(positions(max_side=7, wrong_flags=False), st.booleans(), st.sampled_from(["square", "torus"]))
def test_probabilities_equal_the_exact_engine_on_small_positions(position, trust_flags, topology) -> None:
    board = position.board
    if topology == "torus":
        board = Board(board.width, board.height, board.mines, board.cells, "torus")
        try:
            solve(board)
        except InconsistentBoardError:
            return  # the same cells on a torus need not fit; such boards are tested below
    _assert_agrees(board, trust_flags)


def _mid_game_boards(count: int) -> list[Board]:
    boards = []
    for seed in range(count):
        width, height, mines = list(PRESETS.values())[seed % 3]
        progress = 0.1 + 0.8 * ((seed * 7) % 10) / 10
        boards.append(
            mid_game(width, height, mines, progress=progress, flag_fraction=0.4 * (seed % 2), seed=seed)
        )
    return boards


@pytest.mark.parametrize("trust_flags", [True, False])
def test_probabilities_equal_the_exact_engine_mid_game(trust_flags: bool) -> None:
    for board in _mid_game_boards(60):
        _assert_agrees(board, trust_flags)


@pytest.mark.slow
@pytest.mark.parametrize("trust_flags", [True, False])
def test_probabilities_equal_the_exact_engine_on_1000_positions_from_real_games(trust_flags: bool) -> None:
    for board in _mid_game_boards(1000):
        _assert_agrees(board, trust_flags)


def test_a_board_no_layout_fits_is_refused() -> None:
    with pytest.raises(InconsistentBoardError):
        fast_probabilities(Board.from_text("3x1x1\n3HH\n"))
    with pytest.raises(InconsistentBoardError):
        fast_probabilities(Board.from_text("3x1x2\nH0H\n"))


def test_a_100x100_board_neither_overflows_nor_underflows() -> None:
    board = mid_game(100, 100, 2000, progress=0.5, seed=1)
    fast = fast_probabilities(board)
    exact = solve(board).to_numpy()
    hidden = ~np.isnan(exact)
    assert np.all(np.isfinite(fast[hidden]))
    assert float(np.abs(fast[hidden] - exact[hidden]).max()) < 1e-9


def _exact_guesses(setup: Setup, index: int, name: str = "probabilistic") -> tuple[str, list[int]]:
    """The exact player's game ``index``: its status and the cells it guessed (first click included)."""
    board_seq, player_seq = game_seed(setup.seed, index).spawn(2)
    board_rng = np.random.default_rng(board_seq)
    first = _resolve_first_cell(setup.first_cell, setup.width, setup.height, board_rng)
    game = Game.new(setup.width, setup.height, setup.mines, first_click=setup.first_click, rng=board_rng)
    player = make_player(name)
    rng = np.random.default_rng(player_seq)
    guessed = []
    if first is not None:
        game.reveal(*first)
        guessed.append(first[0] * setup.width + first[1])
    while not game.is_finished:
        action = player.choose(game.board, rng)
        if action.is_guess or not guessed:
            guessed.append(action.row * setup.width + action.col)
        game.reveal(action.row, action.col)
    return game.status, guessed


def _fast_guesses(setup: Setup, index: int, name: str = "probabilistic") -> tuple[str, list[int]]:
    board_seq, _ = game_seed(setup.seed, index).spawn(2)
    board_rng = np.random.default_rng(board_seq)
    first = _resolve_first_cell(setup.first_cell, setup.width, setup.height, board_rng)
    game = Game.new(setup.width, setup.height, setup.mines, first_click=setup.first_click, rng=board_rng)
    w = setup.width
    cell = (
        first_choice(name, "square", w, setup.height, setup.mines)
        if first is None
        else first[0] * w + first[1]
    )
    game.reveal(*divmod(cell, w))  # places the mines exactly as the exact game does
    is_mine = np.array([game.is_mine(*divmod(i, w)) for i in range(w * setup.height)])
    rule = FirstClickRule.parse(setup.first_click)
    won, _, _, guessed = play_game(
        name,
        is_mine,
        neighbours_of("square", w, setup.height),
        cell,
        first_is_guess=rule.radius is None,
    )
    return ("won" if won else "lost"), guessed


def _games_agree(
    preset: str, first_click: str, first_cell: str, games: int, name: str = "probabilistic", seed: int = 11
) -> None:
    width, height, mines = PRESETS[preset]
    setup = Setup(width, height, mines, first_click, first_cell, repr(make_player(name)), seed)
    for index in range(games):
        exact = _exact_guesses(setup, index, name)
        assert _fast_guesses(setup, index, name) == exact, (preset, index)
        record = play_indexed_fast(setup, make_player(name), index)
        assert record.status == exact[0]


@pytest.mark.parametrize(("preset", "games"), [("beginner", 20), ("intermediate", 8), ("expert", 4)])
def test_fast_and_exact_players_make_the_same_guesses(preset: str, games: int) -> None:
    _games_agree(preset, "safe", "0,0", games)
    _games_agree(preset, "opening", "player", max(2, games // 3))


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_fast_and_exact_players_make_the_same_guesses_on_200_games(preset: str) -> None:
    _games_agree(preset, "safe", "0,0", 200)


def test_simulate_uses_the_fast_form_by_default_and_exact_on_request() -> None:
    assert has_fast_form(make_player("probabilistic")) and has_fast_form(make_player("expert"))
    assert has_fast_form(make_player("expert", endgame_layouts=10, score="secondary"))
    assert has_fast_form(make_player("expert", endgame_layouts=255))
    assert has_fast_form(make_player("expert", endgame_layouts=1023))
    assert not has_fast_form(make_player("expert", endgame_layouts=1024))  # past the compiled end game
    fast = simulate(9, 9, 10, "probabilistic", 60, first_cell="corner", seed=4)
    exact = simulate(9, 9, 10, "probabilistic", 60, first_cell="corner", seed=4, exact=True)
    assert (fast.wins, fast.guesses) == (exact.wins, exact.guesses)
    assert simulate(9, 9, 10, "probabilistic", 60, first_cell="corner", seed=4, workers=2) == fast


def test_first_choice_is_the_exact_players_first_move() -> None:
    for width, height in ((9, 9), (30, 16), (1, 5)):
        board = Board(width, height, 2, (-1,) * (width * height))
        action = make_player("probabilistic").choose(board, np.random.default_rng(0))
        assert first_choice("probabilistic", "square", width, height, 2) == action.row * width + action.col


def test_compiled_layouts_are_the_sequential_samplers_layouts() -> None:
    from analyzer.play.placement import place_mines

    for seed in range(200):
        width, height, mines = [(9, 9, 10), (16, 16, 40), (30, 16, 99), (5, 5, 15), (200, 100, 4000)][
            seed % 5
        ]
        excluded = sorted(
            set(np.random.default_rng(seed).choice(width * height, size=seed % 10, replace=False).tolist())
        )
        first, second = np.random.default_rng(seed), np.random.default_rng(seed)
        layout = place_mines(width, height, mines, exclude=[divmod(j, width) for j in excluded], rng=first)
        mask = layout_mask(width, height, mines, np.array(excluded, dtype=np.int64), second)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(r * width + c for r, c in layout)
        assert first.integers(2**62) == second.integers(2**62)  # the generators moved alike


_RULE_SETUPS = [("safe", "0,0"), ("opening", "2,2"), ("none", "player"), ("safe", "random")]


def _rules_agree(name: str, games: int) -> None:
    player = make_player(name)
    for width, height, mines in PRESETS.values():
        for rule, cell in _RULE_SETUPS:
            setup = Setup(width, height, mines, rule, cell, repr(player), 5)
            for index in range(games):
                # status, guesses, reveals and flags: a guess drawn out of step would change them
                assert play_indexed_fast(setup, player, index) == play_indexed(setup, player, index), (
                    name,
                    setup,
                    index,
                )


@pytest.mark.parametrize("name", ["random", "local", "subset"])
def test_compiled_rule_players_play_the_exact_players_games(name: str) -> None:
    _rules_agree(name, 3)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["random", "local", "subset"])
def test_compiled_rule_players_play_the_exact_players_games_200(name: str) -> None:
    _rules_agree(name, 200)


def test_rule_players_have_fast_forms() -> None:
    names = ("random", "local", "subset", "probabilistic", "pseq", "expert")
    assert all(has_fast_form(make_player(name)) for name in names)
    assert not has_fast_form(make_player("expert", endgame_layouts=1500))


def _torus_position(width: int, height: int, mines: int, *, progress: float, seed: int) -> Board:
    """A torus game part way through: safe cells by the revealed area opened at random, some mines flagged."""
    rng = np.random.default_rng(seed)
    game = Game.new(width, height, mines, first_click="opening", rng=rng, topology="torus")
    game.reveal(height // 2, width // 2)
    target = int(progress * (width * height - mines))
    table = game.board.neighbour_table
    while game.status == "playing" and game.revealed_count < target:
        cells = game.board.cells
        near = {j for i, v in enumerate(cells) if v >= 0 for j in table[i] if cells[j] == -1}
        choices = sorted(j for j in near if not game.is_mine(*divmod(j, width)))
        if not choices:
            break
        game.reveal(*divmod(choices[int(rng.integers(len(choices)))], width))
    board = game.board
    if seed % 2:
        cells = board.cells
        flags = {
            divmod(i, width): -2
            for i, v in enumerate(cells)
            if v == -1 and game.is_mine(*divmod(i, width)) and rng.random() < 0.5
        }
        board = board.replace(flags)
    return board


def _torus_positions(count: int) -> list[Board]:
    sizes = [(12, 10, 20), (16, 16, 40), (30, 16, 99)]
    return [
        _torus_position(*sizes[s % 3], progress=(0.1, 0.3, 0.5, 0.7, 0.9)[s % 5], seed=s)
        for s in range(count)
    ]


@pytest.mark.parametrize("trust_flags", [True, False])
def test_probabilities_equal_the_exact_engine_on_torus_games(trust_flags: bool) -> None:
    boards = _torus_positions(15)
    assert all(b.topology == "torus" for b in boards) and any(-2 in b.cells for b in boards)
    for board in boards:
        _assert_agrees(board, trust_flags)


@pytest.mark.slow
@pytest.mark.parametrize("trust_flags", [True, False])
def test_probabilities_equal_the_exact_engine_on_300_torus_games(trust_flags: bool) -> None:
    for board in _torus_positions(300):
        _assert_agrees(board, trust_flags)


# ------------------------------------------------------------------- PSEQ
@settings(max_examples=examples(150), deadline=None)
@given(positions(max_side=6, flags=False))
def test_pseq_outlook_equals_the_exact_engine(position) -> None:
    from fractions import Fraction

    from analyzer.play.fast.outlooks import _outlooks, _reveal_outlook
    from analyzer.play.fast.probabilities import _closure

    board = position.board
    exact = solve(board)
    if exact.safe:
        return  # PSEQ scores cells only when no cell is certainly safe
    w = board.width
    state = np.array(board.cells, dtype=np.int8)
    known = state.copy()
    nbr = neighbours_of("square", w, board.height)
    _closure(known, nbr)
    cells = [i for i, p in enumerate(exact.cell_probabilities) if p is not None and p not in (0, 1)]
    # all the candidates at once, read from the position's counts where that applies
    candidates = np.array(cells, dtype=np.int64)
    status, *read = _outlooks(
        state, known, nbr, board.mines, candidates, len(cells), 10**7, False, False, False
    )
    assert status >= 0
    for i in cells:
        p = exact.cell_probabilities[i]
        assert p is not None
        row, col = divmod(i, w)
        shows = exact.number_distribution(row, col)
        safe_p = 1 - p
        some = expected = secondary = blended = living = Fraction(0)
        entropy = 0.0
        for v, q in shows.items():
            after = solve(board.replace({(row, col): v}))
            made = sum(1 for r, c in after.safe if board[r, c] == -1 and (r, c) != (row, col))
            share = q / safe_p
            some += share if made else 0
            expected += share * made
            entropy -= float(share) * math.log2(float(share))
            # the next guess: none when a cell is proved safe, else the safest one (won if none is left)
            risks = [r for r in after.cell_probabilities if r is not None and r < 1]
            secondary += share * (1 if made or not risks else 1 - min(risks))
            # blended: the safest and second-safest next cells, 4 to 1 (a proved-safe cell counts as safety 1)
            ranked = sorted(risks)
            if ranked:
                second_risk = ranked[1] if len(ranked) > 1 else ranked[0]
                blended += share * ((1 - ranked[0]) * 4 + (1 - second_risk)) / 5
            else:
                blended += share
            # living: a proved-safe cell counts only with a neighbour in doubt; else the safest cell in doubt
            doubt = [r for r in after.cell_probabilities if r is not None and 0 < r < 1]
            table = after.board.neighbour_table
            alive = any(
                after.board.cells[j] == -1
                and r == 0
                and any(after.cell_probabilities[m] not in (None, 0, 1) for m in table[j])
                for j, r in enumerate(after.cell_probabilities)
            )
            living += share * (1 if alive or not doubt else 1 - min(doubt))
        out = np.zeros(4)
        assert _reveal_outlook(known, nbr, board.mines, i, 10**7, out, True, False)
        assert abs(out[3] - float(blended)) < 1e-9
        assert _reveal_outlook(known, nbr, board.mines, i, 10**7, out, False, True)
        assert abs(out[3] - float(living)) < 1e-9
        assert _reveal_outlook(known, nbr, board.mines, i, 10**7, out, False, False)
        assert abs(out[0] - float(some)) < 1e-9 and abs(out[1] - float(expected)) < 1e-9
        assert abs(out[2] - entropy) < 1e-9
        assert abs(out[3] - float(secondary)) < 1e-9
        assert abs(read[0][i] - float(some)) < 1e-9 and abs(read[1][i] - float(expected)) < 1e-9
        assert abs(read[2][i] - entropy) < 1e-9


@pytest.mark.parametrize(("preset", "games"), [("beginner", 300), ("intermediate", 60), ("expert", 30)])
def test_outlooks_read_from_the_counts_equal_a_solve_per_number(preset: str, games: int) -> None:
    """Every candidate of every guess of real pseq games: the counts' reading against solving each number."""
    from analyzer.play.fast.layout import _open
    from analyzer.play.fast.outlooks import _outlooks
    from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, SAFE, _closure, probabilities

    width, height, mines = PRESETS[preset]
    n = width * height
    nbr = neighbours_of("square", width, height)
    rng = np.random.default_rng(11)
    read_total = compared = 0
    for _ in range(games):
        is_mine = layout_mask(width, height, mines, np.array([0]), rng)
        count = np.array([sum(is_mine[j] for j in nbr[i] if j < n) for i in range(n)], dtype=np.int8)
        state = np.full(n, -1, dtype=np.int8)
        stack = np.empty(n * 9, dtype=np.int64)
        prob = np.empty(n)
        revealed = _open(0, is_mine, count, nbr, state, stack)
        while revealed < n - mines:
            known = state.copy()
            _closure(known, nbr)
            assert probabilities(known, nbr, mines, prob, DEFAULT_MAX_NODES, np.zeros(1)) == 1
            safe = [i for i in range(n) if state[i] == -1 and (known[i] == SAFE or prob[i] == 0.0)]
            if not safe:
                cells = np.array([i for i in range(n) if known[i] == -1 and 0 < prob[i] < 1], dtype=np.int64)
                args = (state, known, nbr, mines, cells, len(cells), DEFAULT_MAX_NODES)
                status, *read = _outlooks(*args, False, False, False)
                read_total += status
                status, *solved = _outlooks(*args, True, False, False)
                assert status == 0
                for figure in range(3):
                    assert np.allclose(read[figure][cells], solved[figure][cells], rtol=0, atol=1e-9)
                compared += len(cells)
                cell = int(cells[rng.integers(len(cells))])
                if is_mine[cell]:
                    break
                safe = [cell]
            for i in safe:
                revealed += _open(i, is_mine, count, nbr, state, stack)
    assert compared > 0 and read_total > 0  # the reading was used, not only the solve it falls back on


def _pseq_python_game(setup: Setup, index: int) -> tuple[str, list[int]]:
    board_seq, player_seq = game_seed(setup.seed, index).spawn(2)
    board_rng = np.random.default_rng(board_seq)
    first = _resolve_first_cell(setup.first_cell, setup.width, setup.height, board_rng)
    game = Game.new(setup.width, setup.height, setup.mines, first_click=setup.first_click, rng=board_rng)
    player = make_player("pseq")
    rng = np.random.default_rng(player_seq)
    assert first is not None
    game.reveal(*first)
    guessed = [first[0] * setup.width + first[1]]
    while not game.is_finished:
        action = player.choose(game.board, rng)
        if action.is_guess:
            guessed.append(action.row * setup.width + action.col)
        game.reveal(action.row, action.col)
    return game.status, guessed


@pytest.mark.parametrize(("preset", "games"), [("beginner", 8), ("intermediate", 3)])
def test_fast_pseq_plays_as_its_python_form(preset: str, games: int) -> None:
    width, height, mines = PRESETS[preset]
    setup = Setup(width, height, mines, "safe", "0,0", "PseqPlayer()", 5)
    for index in range(games):
        status, _ = _pseq_python_game(setup, index)
        assert play_indexed_fast(setup, make_player("pseq"), index).status == status, index


# ------------------------------------------------------------------ expert
def _endgame_positions(count: int, seed: int, fewest: int = 2, most: int = 60):
    """Positions of games with ``fewest`` to ``most`` layouts left (the expert player's end game)."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        width, height = int(rng.integers(4, 8)), int(rng.integers(4, 8))
        mines = int(rng.integers(2, width * height // 4 + 1))
        progress = float(rng.uniform(0.2, 0.9))
        board = mid_game(width, height, mines, progress=progress, seed=int(rng.integers(2**31)))
        if not any(v == -1 for v in board.cells):
            continue
        total = solve(board).total
        if fewest <= total <= most:
            found += 1
            yield board


def test_compiled_endgame_is_the_exact_search() -> None:
    from analyzer.play.fast import endgame as compiled
    from analyzer.play.players.endgame import endgame_layouts, endgame_search

    searched = 0
    for board in _endgame_positions(150, seed=2):
        state = np.array(board.cells, dtype=np.int8)
        nbr = neighbours_of("square", board.width, board.height)
        exact_layouts = endgame_layouts(board, limit=60)
        assert exact_layouts is not None
        listed = compiled.layouts(state, nbr, board.mines, 60)
        ours = sorted(tuple(np.flatnonzero(row).tolist()) for row in listed)
        assert ours == sorted(tuple(sorted(layout)) for layout in exact_layouts)
        assert compiled.layouts(state, nbr, board.mines, len(exact_layouts) - 1).shape[1] == 0
        for nodes in (20_000, 3):
            exact = endgame_search(board, exact_layouts, max_nodes=nodes)
            move = compiled.endgame_move(state, nbr, board.mines, 60, nodes)
            assert move == (-1 if exact is None else exact[0]), (board.to_text(), nodes)
            searched += exact is not None and nodes == 3
    assert 10 < searched < 140  # the small budget is enough for some positions and not for others


def test_compiled_endgame_past_one_word_is_the_exact_search() -> None:
    """64 to 1,023 layouts: sets of layouts over several machine words (as many as the layouts
    need, the memo key padded), against the Python search."""
    from analyzer.play.fast import endgame as compiled
    from analyzer.play.players.endgame import endgame_layouts, endgame_search

    searched = 0
    sizes = []
    for board in _endgame_positions(25, seed=5, fewest=64, most=compiled.MAX_LAYOUTS):
        state = np.array(board.cells, dtype=np.int8)
        nbr = neighbours_of("square", board.width, board.height)
        exact_layouts = endgame_layouts(board, limit=compiled.MAX_LAYOUTS)
        assert exact_layouts is not None and len(exact_layouts) >= 64
        sizes.append(len(exact_layouts))
        listed = compiled.layouts(state, nbr, board.mines, compiled.MAX_LAYOUTS)
        ours = sorted(tuple(np.flatnonzero(row).tolist()) for row in listed)
        assert ours == sorted(tuple(sorted(layout)) for layout in exact_layouts)
        for nodes in (3000, 30):
            exact = endgame_search(board, exact_layouts, max_nodes=nodes)
            move = compiled.endgame_move(state, nbr, board.mines, compiled.MAX_LAYOUTS, nodes)
            assert move == (-1 if exact is None else exact[0]), (board.to_text(), nodes)
            searched += exact is not None
    assert searched > 5  # some searches finish within their budget
    assert min(sizes) < 128 and max(sizes) > 512  # two words to more than eight


_GUESS_POSITIONS: dict[tuple[int, int, int, int], list[tuple[Board, Analysis]]] = {}
_GUESS_SOURCES: dict[tuple[int, int, int, int], Iterator[tuple[Board, Analysis]]] = {}


def _guess_positions(
    width: int, height: int, mines: int, count: int, seed: int
) -> list[tuple[Board, Analysis]]:
    """Positions where a guess is needed (no certainly safe cell, more than 60 layouts), from real games.

    The first ``count`` of one seed's positions are the same for any ``count``: they are found
    once a process (about a second a test on 30 intermediate positions) and kept, boards and
    analyses being immutable, for the many tests that read the same ones. A test asking for more
    than are kept resumes the same games where the last one stopped (not from the first game).
    """
    key = (width, height, mines, seed)
    found = _GUESS_POSITIONS.setdefault(key, [])
    source = _GUESS_SOURCES.setdefault(key, _positions_needing_a_guess(width, height, mines, seed))
    found.extend(itertools.islice(source, max(0, count - len(found))))
    return found[:count]


def _positions_needing_a_guess(
    width: int, height: int, mines: int, seed: int
) -> Iterator[tuple[Board, Analysis]]:
    """Every position of :func:`_guess_positions`, in order, from the games of one seed."""
    rng = np.random.default_rng(seed)
    player = make_player("probabilistic")
    while True:
        game = Game.new(width, height, mines, first_click="opening", rng=rng)
        while not game.is_finished:
            analysis = solve(game.board)
            if not analysis.safe and analysis.total > 60 and any(v >= 0 for v in game.board.cells):
                yield game.board, analysis
            action = player.choose(game.board, rng)
            game.reveal(action.row, action.col)


@pytest.mark.parametrize(
    ("score", "dead"),
    [
        ("progress", "guess"),
        ("secondary", "guess"),
        ("secondary", "wait"),
        ("blended", "wait"),
        ("living", "wait"),
    ],
)
@pytest.mark.parametrize(("preset", "count"), [("beginner", 40), ("intermediate", 40), ("expert", 20)])
def test_expert_guess_is_the_exact_players_heuristic(preset: str, count: int, score: str, dead: str) -> None:
    """Outside the end game the compiled guess is the exact player's best_guess (scores within 1e-12):
    on the first half of the positions in the default run, on all of them in ``make test-all``."""
    _compiled_guesses_agree(preset, examples(count), score, dead)


# The default run of each option's test takes a slice of the positions that holds some where the
# option changes the exact player's guess (a compiled guess ignoring it fails there); the slow run
# takes them all. Where it changes it on seed 7's positions: guessing pseudo-50/50s first, expert
# 35-39 (none of the first 40 intermediate ones); off-front candidates, intermediate 14, 15, 26-29;
# alike cells once, intermediate 38, 39; long-term safety, intermediate 8, 15; closed-off parts
# first, intermediate 1.
@pytest.mark.parametrize(
    ("preset", "start", "stop"),
    [
        ("expert", 30, 40),
        pytest.param("intermediate", 0, 40, marks=pytest.mark.slow),
        pytest.param("expert", 0, 40, marks=pytest.mark.slow),
    ],
)
def test_guess_with_pseudo_fifty_fifties_first_is_the_exact_players(
    preset: str, start: int, stop: int
) -> None:
    _compiled_guesses_agree(preset, stop, "secondary", "wait", "first", start=start)


@pytest.mark.parametrize(("preset", "count"), [("beginner", 12), ("intermediate", 4)])
def test_tertiary_guess_is_the_exact_players(preset: str, count: int) -> None:
    _compiled_guesses_agree(preset, count, "tertiary", "guess")


def test_waiting_players_leave_dead_cells_for_later() -> None:
    # Where dead=wait changes the guess, the other's guess could show one number only and its own more.
    width, height, mines = PRESETS["intermediate"]
    guessing = make_player("expert", score="secondary")
    waiting = make_player("expert", score="secondary", dead="wait")
    changed = 0
    for board, analysis in _guess_positions(width, height, mines, 40, seed=7):
        first = guessing.best_guess(board, analysis)  # type: ignore[attr-defined]
        second = waiting.best_guess(board, analysis)  # type: ignore[attr-defined]
        if first != second:
            changed += 1
            assert len(reveal_outcomes(board, analysis, *divmod(first, width))) == 1
            assert len(reveal_outcomes(board, analysis, *divmod(second, width))) > 1
    assert changed >= 1


@pytest.mark.slow  # 60 expert positions; the compiled player meets this one by default
def test_players_guess_pseudo_fifty_fifties_first() -> None:
    # Where a living pseudo-50/50 cell exists the player guesses the least likely one; elsewhere as before.
    from analyzer.play.forced import pseudo_fifty_fifties

    width, height, mines = PRESETS["expert"]
    plain = make_player("expert", score="secondary", dead="wait")
    first = make_player("expert", score="secondary", dead="wait", pseudo="first")
    changed = 0
    for board, analysis in _guess_positions(width, height, mines, 60, seed=7):
        guess = first.best_guess(board, analysis)  # type: ignore[attr-defined]
        living = [
            i
            for i in pseudo_fifty_fifties(board, analysis)
            if len(reveal_outcomes(board, analysis, *divmod(i, width))) > 1
        ]
        if living:
            p = analysis.cell_probabilities
            assert guess == min(living, key=lambda i: (p[i], i))
            changed += guess != plain.best_guess(board, analysis)  # type: ignore[attr-defined]
        else:
            assert guess == plain.best_guess(board, analysis)  # type: ignore[attr-defined]
    assert changed >= 1


@pytest.mark.parametrize(
    ("preset", "start", "stop"),
    [
        ("intermediate", 0, 16),
        pytest.param("intermediate", 0, 40, marks=pytest.mark.slow),
        pytest.param("expert", 0, 30, marks=pytest.mark.slow),
    ],
)
def test_guess_with_off_front_candidates_is_the_exact_players(preset: str, start: int, stop: int) -> None:
    _compiled_guesses_agree(preset, stop, "secondary", "wait", "first", offedge=8, start=start)


@pytest.mark.parametrize(("preset", "count"), [("beginner", 30), ("intermediate", 30)])
def test_guess_with_progress_added_to_secondary_safety_is_the_exact_players(preset: str, count: int) -> None:
    _compiled_guesses_agree(preset, count, "secondary", "wait", progress=Fraction(1, 5))


@pytest.mark.parametrize(
    ("preset", "start", "stop"),
    [
        ("intermediate", 30, 40),
        pytest.param("intermediate", 0, 40, marks=pytest.mark.slow),
        pytest.param("expert", 0, 40, marks=pytest.mark.slow),
    ],
)
def test_guess_with_alike_cells_once_is_the_exact_players(preset: str, start: int, stop: int) -> None:
    _compiled_guesses_agree(preset, stop, "secondary", "wait", "first", alike="once", start=start)


@pytest.mark.parametrize(
    ("preset", "start", "stop"),
    [
        ("intermediate", 0, 16),
        pytest.param("intermediate", 0, 30, marks=pytest.mark.slow),
        pytest.param("expert", 0, 30, marks=pytest.mark.slow),
    ],
)
def test_guess_with_long_term_safety_is_the_exact_players(preset: str, start: int, stop: int) -> None:
    longterm = Fraction(9, 10)
    _compiled_guesses_agree(preset, stop, "secondary", "wait", alike="once", longterm=longterm, start=start)


@pytest.mark.slow  # the compiled long-term guess meets the exact player by default
def test_long_term_safety_moves_guesses_toward_fifty_fifties_that_may_form() -> None:
    # The scores are the secondary safeties times 1 + w I / (1 - p), I the exact 50/50 influence;
    # some guesses change, each to a cell a 50/50 may form around.
    from analyzer.play.forced import fifty_influence

    width, height, mines = PRESETS["expert"]
    plain = make_player("expert", score="secondary", candidates=12)
    weighed = make_player("expert", score="secondary", candidates=12, longterm=Fraction(9, 10))
    changed = 0
    for board, analysis in _guess_positions(width, height, mines, 40, seed=7):
        before = plain.best_guess(board, analysis)  # type: ignore[attr-defined]
        after = weighed.best_guess(board, analysis)  # type: ignore[attr-defined]
        old, new = plain.last_scores, weighed.last_scores  # type: ignore[attr-defined]
        if not new:
            continue  # a pseudo-50/50 or a single candidate: no scores
        cells = [r * width + c for r, c in new]
        influence = fifty_influence(board, analysis, cells)
        p = analysis.cell_probabilities
        for i in cells:
            q = p[i]
            assert q is not None
            assert new[divmod(i, width)] == old[divmod(i, width)] * (
                1 + Fraction(9, 10) * influence[i] / (1 - q)
            )
        if after != before:
            changed += 1
            assert influence[after] > 0
    assert changed >= 1


def test_long_term_safety_with_a_certain_mine_among_the_candidates() -> None:
    # (0, 3) is a mine in every layout; a margin of 1 makes it a candidate: its score is 0, not 0/0.
    from analyzer.play.fast import SCORE_CODES
    from analyzer.play.fast.expert import expert_guess
    from analyzer.play.fast.patterns import fifty_fifty_patterns
    from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, _closure, probabilities

    board = Board.from_text("4x1x2\nH1HH\n")
    analysis = solve(board)
    player = make_player("expert", score="secondary", longterm=1, endgame_layouts=0, margin=1)
    assert player.best_guess(board, analysis) == 0  # type: ignore[attr-defined]
    assert player.last_scores[(0, 3)] == 0  # type: ignore[attr-defined]
    nbr = neighbours_of("square", 4, 1)
    state = np.array(board.cells, dtype=np.int8)
    known = state.copy()
    prob = np.empty(4)
    info = np.zeros(1)
    assert probabilities(known, nbr, 2, prob, DEFAULT_MAX_NODES, info) == 1
    _closure(known, nbr)
    patterns = fifty_fifty_patterns(nbr)
    args = (1.0, 8, 0, 20_000, DEFAULT_MAX_NODES, int(SCORE_CODES["secondary"]), False, patterns)
    cell = expert_guess(state, known, nbr, 2, prob, info[0], *args, False, 0, 0.0, False, 1.0, False, False)
    assert cell == 0


def _far_size(board: Board, near: set[int], i: int) -> int | None:
    around = board.neighbour_table[i]
    if any(j in near or board.cells[j] != HIDDEN for j in (i, *around)):
        return None
    return len(around)


def test_far_cells_alike_count_once_among_the_candidates() -> None:
    # Far cells with as many neighbours score alike (the exact engine, cell by cell), so taking one
    # of each size leaves the best score as it was and lets the front's cells in.
    width, height, mines = PRESETS["expert"]
    every = make_player("expert", score="secondary", candidates=12)
    once = make_player("expert", score="secondary", candidates=12, alike="once")
    wider = 0
    for board, analysis in _guess_positions(width, height, mines, 30, seed=7):
        near = {j for i, v in enumerate(board.cells) if v >= 0 for j in (i, *board.neighbour_table[i])}
        far = partial(_far_size, board, near)

        before = every._candidates(board, analysis)  # type: ignore[attr-defined]
        after = once._candidates(board, analysis)  # type: ignore[attr-defined]
        sizes = [far(i) for i in after if far(i) is not None]
        assert len(sizes) == len(set(sizes))  # one far cell of each size
        assert [i for i in before if far(i) is None] == [i for i in after if far(i) is None][
            : len([i for i in before if far(i) is None])
        ]
        if len(before) == 12 and len([i for i in before if far(i) is not None]) > len(sizes):
            wider += 1
            assert len(after) == 12 and any(i not in before for i in after)
        every.best_guess(board, analysis)  # type: ignore[attr-defined]
        scores = every.last_scores  # type: ignore[attr-defined]
        by_size: dict[int, set[Fraction]] = {}
        for i in before:
            size = far(i)
            if size is not None:
                by_size.setdefault(size, set()).add(scores[divmod(i, width)])
        assert all(len(found) == 1 for found in by_size.values())
    assert wider >= 3


def test_off_front_candidates_are_taken_by_how_much_they_touch_the_front() -> None:
    # Where the cells off the front are the safest, the guess order weighs corners and top-row cells;
    # offedge weighs the front's cells and the off-front cells touching the most front cells.
    width, height, mines = PRESETS["expert"]
    player = make_player("expert", score="secondary", candidates=4, offedge=4)
    plain = make_player("expert", score="secondary", candidates=8)
    checked = 0
    for board, analysis in _guess_positions(width, height, mines, 30, seed=7):
        cells = board.cells
        table = board.neighbour_table
        edge = {j for i, v in enumerate(cells) if v >= 0 for j in table[i] if cells[j] == HIDDEN}
        chosen = player._candidates(board, analysis)  # type: ignore[attr-defined]
        off = [i for i in chosen if i not in edge]
        assert len(chosen) == len(set(chosen)) <= 8
        assert chosen[: len(chosen) - len(off)] == [i for i in chosen if i in edge]
        if off:
            touching = [sum(j in edge for j in table[i]) for i in off]
            assert touching == sorted(touching, reverse=True)
            best_elsewhere = max(
                (
                    sum(j in edge for j in table[i])
                    for i, v in enumerate(cells)
                    if v == HIDDEN and i not in edge and i not in off
                ),
                default=0,
            )
            assert touching[-1] >= best_elsewhere
            before = plain._candidates(board, analysis)  # type: ignore[attr-defined]
            if all(i not in edge for i in before):
                checked += 1
                assert all(sum(cells[j] < 0 for j in table[i]) <= 5 for i in before)  # corners and edges
    assert checked >= 1


@pytest.mark.parametrize(
    ("preset", "start", "stop"),
    [
        ("intermediate", 0, 10),
        pytest.param("intermediate", 0, 30, marks=pytest.mark.slow),
        pytest.param("expert", 0, 30, marks=pytest.mark.slow),
    ],
)
def test_guess_with_closed_off_parts_first_is_the_exact_players(preset: str, start: int, stop: int) -> None:
    _compiled_guesses_agree(preset, stop, "secondary", "wait", "first", isolated=True, start=start)


def _compiled_guesses_agree(
    preset: str,
    count: int,
    score: str,
    dead: str,
    pseudo: str = "ignore",
    *,
    offedge: int = 0,
    isolated: bool = False,
    progress: Fraction = Fraction(0),
    alike: str = "all",
    longterm: Fraction = Fraction(0),
    start: int = 0,
) -> None:
    """The compiled expert guess is the exact player's on seed 7's positions ``start`` to ``count``."""
    from analyzer.play.fast import SCORE_CODES
    from analyzer.play.fast.expert import expert_guess
    from analyzer.play.fast.patterns import fifty_fifty_patterns, no_patterns
    from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, _closure, probabilities

    width, height, mines = PRESETS[preset]
    player = make_player(
        "expert",
        score=score,
        dead=dead,
        pseudo=pseudo,
        offedge=offedge,
        isolated="exact" if isolated else "heuristic",
        progress=progress,
        alike=alike,
        longterm=longterm,
    )
    nbr = neighbours_of("square", width, height)
    patterns = fifty_fifty_patterns(nbr) if pseudo == "first" or longterm else no_patterns()
    for board, analysis in _guess_positions(width, height, mines, count, seed=7)[start:]:
        state = np.array(board.cells, dtype=np.int8)
        known = state.copy()
        prob = np.empty(len(state))
        info = np.zeros(1)
        assert probabilities(known, nbr, mines, prob, DEFAULT_MAX_NODES, info) == 1
        _closure(known, nbr)
        assert math.isclose(info[0], math.log(analysis.total), rel_tol=1e-12)
        cell = expert_guess(
            state,
            known,
            nbr,
            mines,
            prob,
            info[0],
            0.02,
            8,
            60,
            20_000,
            DEFAULT_MAX_NODES,
            int(SCORE_CODES[score]),
            dead == "wait",
            patterns,
            isolated,
            offedge,
            float(progress),
            alike == "once",
            float(longterm),
            pseudo == "first",
            False,  # chains: every argument given, the compiled signature the player's call has cached
        )
        assert cell == player.best_guess(board, analysis), board.to_text()  # type: ignore[attr-defined]


def test_compiled_expert_defaults_are_the_players() -> None:
    from analyzer.play.fast.expert import (
        EXPERT_CANDIDATES,
        EXPERT_ENDGAME_LAYOUTS,
        EXPERT_ENDGAME_NODES,
        EXPERT_MARGIN,
    )

    player = make_player("expert")
    assert (
        player.candidates,  # type: ignore[attr-defined]
        player.endgame_layouts,  # type: ignore[attr-defined]
        player.endgame_nodes,  # type: ignore[attr-defined]
    ) == (EXPERT_CANDIDATES, EXPERT_ENDGAME_LAYOUTS, EXPERT_ENDGAME_NODES)
    assert float(player.margin) == EXPERT_MARGIN  # type: ignore[attr-defined]


@pytest.mark.parametrize(("preset", "games"), [("beginner", 40), ("intermediate", 6), ("expert", 2)])
def test_fast_and_exact_expert_make_the_same_guesses(preset: str, games: int) -> None:
    _games_agree(preset, "safe", "0,0", games, "expert")
    _games_agree(preset, "opening", "player", max(1, games // 4), "expert")


@pytest.mark.parametrize(
    "options",
    [
        {"score": "secondary"},
        {"score": "secondary", "dead": "wait"},
        {"score": "blended", "dead": "wait", "margin": Fraction(1, 10), "candidates": 16},
        {"score": "secondary", "dead": "wait", "pseudo": "first"},
        {"score": "secondary", "dead": "wait", "offedge": 6, "candidates": 4},
        {"isolated": "exact", "endgame_layouts": 20},
        {"score": "living", "dead": "wait"},
        {"score": "secondary", "progress": Fraction(1, 5)},
        {"score": "tertiary", "candidates": 4},
        {"score": "secondary", "dead": "wait", "alike": "once", "candidates": 4},
        {"score": "secondary", "longterm": Fraction(9, 10), "candidates": 4},
        {"candidates": 3, "endgame_layouts": 10},
        {"margin": Fraction(1, 10), "candidates": 12},
        {"endgame_layouts": 255},
    ],
)
def test_expert_players_with_options_play_the_same_games_compiled(options: dict[str, object]) -> None:
    # Any expert's options reach the compiled policy (and its first move): the same games as the exact player.
    player = make_player("expert", **options)
    assert has_fast_form(player)
    for preset, first_click, first_cell, games in (
        ("beginner", "safe", "0,0", 12),
        ("beginner", "opening", "player", 4),
    ):
        width, height, mines = PRESETS[preset]
        setup = Setup(width, height, mines, first_click, first_cell, repr(player), 21)
        for index in range(games):
            fast_record = play_indexed_fast(setup, player, index)
            exact_record = play_indexed(setup, player, index)
            assert (fast_record.status, fast_record.guesses) == (exact_record.status, exact_record.guesses), (
                options,
                preset,
                index,
            )


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_fast_and_exact_expert_make_the_same_guesses_on_200_games(preset: str) -> None:
    _games_agree(preset, "safe", "0,0", 200, "expert", seed=12)


class _CountingDraws:
    """A generator that counts its ``integers`` draws (the ties PSEQ breaks)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.draws = 0

    def integers(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.draws += 1
        return self.rng.integers(*args, **kwargs)


def test_fast_pseq_breaks_ties_as_its_python_form() -> None:
    # Every guess, in order, not only the outcome; and ties are broken (else the draw is untested).
    setup = Setup(8, 8, 10, "safe", "0,0", "PseqPlayer()", 5)
    nbr = neighbours_of("square", 8, 8)
    draws = 0
    for index in range(12):
        board_seq, player_seq = game_seed(setup.seed, index).spawn(2)
        game = Game.new(8, 8, 10, first_click="safe", rng=np.random.default_rng(board_seq))
        rng = _CountingDraws(np.random.default_rng(player_seq))
        player = make_player("pseq")
        game.reveal(0, 0)
        guessed = [0]
        while not game.is_finished:
            action = player.choose(game.board, rng)  # type: ignore[arg-type]
            if action.is_guess:
                guessed.append(action.row * 8 + action.col)
            game.reveal(action.row, action.col)
        draws += rng.draws
        is_mine = np.zeros(64, dtype=bool)
        assert game.mines is not None
        for row, col in game.mines:
            is_mine[row * 8 + col] = True
        played = play_game(
            "pseq", is_mine, nbr, 0, first_is_guess=True, rng=np.random.default_rng(player_seq)
        )
        assert played is not None
        assert played[0] == (game.status == "won") and played[3] == guessed, index
    assert draws >= 3
