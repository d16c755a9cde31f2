"""Tests of :mod:`analyzer.play.game`: first-click rules, flood fill, formats, actions, errors."""

from __future__ import annotations

import pickle
import sys

import numpy as np
import pytest

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.board.topology import neighbour_table
from analyzer.errors import AnalyzerError, GameError
from analyzer.play.game import ActionResult, FirstClickRule, Game, MoveCounts
from analyzer.play.placement import PLACEMENT_METHODS, cell_frequency_test, place_mines


def _chebyshev(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _reference_reveal(width, height, mines, start):
    """What revealing ``start`` shows, by definition: numbers count mines at Chebyshev
    distance 1, and zeros open their neighbours (a breadth-first search)."""
    cells = [(r, c) for r in range(height) for c in range(width)]

    def number(cell):
        return sum(1 for m in mines if _chebyshev(m, cell) == 1)

    shown = {start: number(start)}
    queue = [start]
    while queue:
        cell = queue.pop(0)
        if shown[cell] == 0:
            for other in cells:
                if _chebyshev(cell, other) == 1 and other not in shown:
                    shown[other] = number(other)
                    queue.append(other)
    return shown


# ------------------------------------------------------------------ rules
@pytest.mark.parametrize(
    ("spec", "radius", "name"),
    [
        ("none", None, "none"),
        ("safe", 0, "safe"),
        ("opening", 1, "opening"),
        ("safe_zone:0", 0, "safe"),
        ("safe_zone:1", 1, "opening"),
        ("safe_zone:3", 3, "safe_zone:3"),
        (" Safe_Zone:2 ", 2, "safe_zone:2"),
        (FirstClickRule(4), 4, "safe_zone:4"),
    ],
)
def test_rule_parsing(spec, radius, name):
    rule = FirstClickRule.parse(spec)
    assert rule == FirstClickRule(radius) and rule.name == name == str(rule)
    assert FirstClickRule.parse(rule.name) == rule
    assert eval(repr(rule)) == rule


def test_rule_constructors():
    assert FirstClickRule.none() == FirstClickRule(None)
    assert FirstClickRule.safe() == FirstClickRule() == FirstClickRule(0)
    assert FirstClickRule.opening() == FirstClickRule.safe_zone(1)
    assert len({FirstClickRule.safe_zone(2), FirstClickRule(2)}) == 1


@pytest.mark.parametrize(
    "spec", ["", "safe_zone", "safe_zone:", "safe_zone:-1", "safe_zone:x", "zone:2", 3, None]
)
def test_bad_rule_names(spec):
    with pytest.raises(GameError, match="unknown first-click rule"):
        FirstClickRule.parse(spec)


@pytest.mark.parametrize("radius", [-1, 1.5, True, "2"])
def test_bad_rule_radius(radius):
    with pytest.raises(GameError, match="safe-zone radius must be None or an integer >= 0"):
        FirstClickRule(radius)


@pytest.mark.parametrize("click", [(0, 0), (0, 4), (3, 0), (6, 9), (4, 5), (6, 5)])
@pytest.mark.parametrize("radius", [0, 1, 2, 3])
def test_safe_zone_cells_are_mine_free(radius, click):
    width, height = 10, 7
    zone = {(r, c) for r in range(height) for c in range(width) if _chebyshev((r, c), click) <= radius}
    mines = width * height - (2 * radius + 1) ** 2  # as dense as the rule allows
    for seed in range(40):
        game = Game.new(width, height, mines, first_click=f"safe_zone:{radius}", seed=seed)
        game.reveal(*click)
        assert len(game.mines) == mines
        assert not (game.mines & zone)
        assert game.status != "lost"


@pytest.mark.parametrize("method", sorted(PLACEMENT_METHODS))
def test_opening_first_click_reveals_a_zero(method):
    for seed in range(50):
        game = Game.new(9, 9, 60, first_click="opening", method=method, seed=seed)
        result = game.reveal(seed % 9, (seed * 4) % 9)
        assert game.board[seed % 9, (seed * 4) % 9] == 0
        assert len(result.revealed) >= 4 and result.status in ("playing", "won")


def test_safe_first_click_is_never_a_mine():
    for seed in range(200):
        game = Game.new(4, 4, 15, first_click="safe", seed=seed)
        result = game.reveal(seed % 4, seed // 4 % 4)
        assert result.status == "won" and result.revealed == ((seed % 4, seed // 4 % 4),)
        assert game.board[seed % 4, seed // 4 % 4] in (3, 5, 8)


def test_no_protection_can_lose_on_the_first_click():
    outcomes = {Game.new(3, 3, 8, first_click="none", seed=seed).reveal(1, 1).status for seed in range(60)}
    assert outcomes == {"lost", "won"}


def test_mines_are_placed_uniformly_outside_the_zone():
    zone = [(r, c) for r in range(1, 4) for c in range(1, 4)]
    layouts = []
    for seed in range(4000):
        game = Game.new(5, 5, 6, first_click="opening", seed=seed)
        game.reveal(2, 2)
        layouts.append(game.mines)
    result = cell_frequency_test(layouts, 5, 5, 6, exclude=zone)
    assert result.dof == 15 and result.p_value > 1e-3


def test_torus_zone_wraps_around():
    for seed in range(20):
        game = Game.new(6, 5, 21, first_click="opening", seed=seed, topology="torus")
        game.reveal(0, 0)
        assert not game.mines & {(r, c) for r in (4, 0, 1) for c in (5, 0, 1)}
        assert game.board[0, 0] == 0 and game.board.topology == "torus"


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (
            (3, 3, 1),
            {"first_click": "opening"},
            r"'opening' keeps up to 9 cells mine-free: a 3x3 board has room for at most 0 mines, got 1",
        ),
        ((9, 9, 73), {"first_click": "opening"}, r"room for at most 72 mines, got 73"),
        ((9, 9, 81), {"first_click": "safe"}, r"room for at most 80 mines, got 81"),
        (
            (9, 9, 57),
            {"first_click": "safe_zone:2"},
            r"keeps up to 25 cells mine-free: a 9x9 board has room for at most 56",
        ),
        ((0, 3, 0), {}, r"width must be an integer >= 1, got 0"),
        ((3, -1, 0), {}, r"height must be an integer >= 1, got -1"),
        ((3, 3, -1), {}, r"mine count must be a non-negative integer, got -1"),
        ((3, 3, 1.0), {}, r"mine count must be a non-negative integer, got 1.0"),
        ((3, 3, 10), {"first_click": "none"}, r"more mines \(10\) than cells \(9\)"),
        ((3, 3, 1), {"first_click": "first"}, r"unknown first-click rule 'first'"),
        ((3, 3, 1), {"method": "shuffle"}, r"unknown placement method 'shuffle'"),
        ((3, 3, 1), {"topology": "sphere"}, r"unknown topology 'sphere'"),
        ((3, 3, 1), {"seed": 1, "rng": np.random.default_rng()}, r"give seed= or rng=, not both"),
        ((3, 3, 1), {"rng": 5}, r"rng must be a numpy.random.Generator, got int"),
    ],
)
def test_bad_new_games(args, kwargs, message):
    with pytest.raises(GameError, match=message) as info:
        Game.new(*args, **kwargs)
    assert isinstance(info.value, AnalyzerError) and isinstance(info.value, ValueError)


def test_rule_room_is_checked_at_the_largest_zone():
    # A corner click would leave room, but a centre click would not: refused up front.
    with pytest.raises(GameError, match="room for at most 16 mines"):
        Game.new(5, 5, 17, first_click="opening")
    game = Game.new(5, 5, 16, first_click="opening", seed=0)
    assert game.reveal(2, 2).status == "won"


def test_a_board_full_of_mines_is_won_at_once():
    game = Game.new(2, 2, 4, first_click="none", seed=0)
    assert game.status == "won" and game.safe_cells_left == 0
    with pytest.raises(GameError, match=r"the game is over \(won\)"):
        game.reveal(0, 0)


# ------------------------------------------------------------- flood fill
@pytest.mark.parametrize("seed", range(30))
def test_flood_fill_matches_the_reference(seed):
    rng = np.random.default_rng(seed)
    width, height = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    mines = int(rng.integers(0, width * height // 3 + 1))
    layout = place_mines(width, height, mines, rng=rng)
    safe = sorted(set(np.ndindex(height, width)) - layout)
    if not safe:
        return
    start = safe[int(rng.integers(len(safe)))]
    game = Game.from_layout(width, height, layout)
    result = game.reveal(*start)
    expected = _reference_reveal(width, height, layout, start)
    assert result.revealed == tuple(sorted(expected))
    for cell, number in expected.items():
        assert game.board[cell] == number
    assert game.revealed_count == len(expected)
    assert result.status == ("won" if len(expected) == len(safe) else "playing")


def test_flood_fill_skips_flags():
    game = Game.from_layout_text("....\n....\n...*")
    game.flag(0, 3)
    result = game.reveal(0, 0)
    assert (0, 3) not in result.revealed and game.board[0, 3] == FLAG
    assert game.status == "playing" and game.safe_cells_left == 1
    game.unflag(0, 3)
    assert game.reveal(0, 3).status == "won"


def test_flood_fill_on_a_torus_wraps():
    # The mine's neighbours show 1, the 7 cells in row 3 or column 3 show 0.
    torus = Game.from_layout(4, 4, [(1, 1)], topology="torus")
    assert torus.reveal(3, 3).status == "won"  # (3, 3) touches (0, 0) across both edges
    assert torus.board[0, 0] == 1 and torus.board[3, 3] == 0 and torus.board.topology == "torus"
    square = Game.from_layout(4, 4, [(1, 1)])
    assert square.reveal(3, 3).status == "playing"
    assert square.board[0, 0] == HIDDEN and square.board[2, 2] == 1


# 300x300 by default: a fill by recursion would go 90,000 deep (the limit is 1,000 unless raised);
# the largest board, a million cells (4 s of CPU and ~400 MB), with -m slow.
@pytest.mark.parametrize("side", [300, pytest.param(1000, marks=pytest.mark.slow)])
def test_flood_fill_of_a_million_cells_needs_no_recursion(side: int):
    limit = sys.getrecursionlimit()
    try:
        game = Game.from_layout(side, side, [(side - 1, side - 1)])
        result = game.reveal(0, 0)
        assert sys.getrecursionlimit() == limit
        assert result.status == "won" and len(result.revealed) == side * side - 1
        assert game.board[side - 2, side - 2] == 1 and game.board[side // 2, side // 2] == 0
        assert game.board[side - 1, side - 1] == HIDDEN
    finally:
        neighbour_table.cache_clear()  # the million-cell table holds ~400 MB


# ---------------------------------------------------------------- formats
def test_layout_text_round_trip():
    text = "*..*\n....\n.**.\n"
    game = Game.from_layout_text(text)
    assert game.to_layout_text() == text
    assert game.mines == {(0, 0), (0, 3), (2, 1), (2, 2)}
    assert (game.width, game.height, game.mine_count) == (4, 3, 4)
    assert Game.from_layout_text("\r\n  *.\r\n  ..  \r\n\r\n").to_layout_text() == "*.\n..\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty layout text"),
        ("\n  \n", "empty layout text"),
        ("*.\n.x", r"line 2, column 2: unknown character 'x' in '.x'; expected '\*' or '.'"),
        ("*.\n...", r"line 2: row '...' has 3 cells, expected 2"),
        (b"*.", "expected text, got bytes"),
    ],
)
def test_bad_layout_text(text, message):
    with pytest.raises(GameError, match=message):
        Game.from_layout_text(text)


@pytest.mark.parametrize("seed", range(10))
def test_mbf_round_trip(seed):
    game = Game.new(30, 16, 99, seed=seed)
    game.reveal(8, 15)
    data = game.to_mbf()
    assert data[:4] == bytes([30, 16, 0, 99]) and len(data) == 4 + 2 * 99
    again = Game.from_mbf(data)
    assert again.mines == game.mines and again.to_mbf() == data


def test_mbf_reads_mines_in_any_order_and_big_counts():
    game = Game.from_mbf(bytes([4, 3, 0, 2, 3, 2, 0, 1]))
    assert game.mines == {(2, 3), (1, 0)}
    assert game.to_mbf() == bytes([4, 3, 0, 2, 0, 1, 3, 2])
    layout = place_mines(255, 255, 300, seed=1)
    data = Game.from_layout(255, 255, layout).to_mbf()
    assert data[2:4] == (300).to_bytes(2, "big") and Game.from_mbf(data).mines == layout
    assert Game.from_mbf(bytearray([1, 1, 0, 0])).status == "playing"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", r"bad MBF: expected a 4-byte header, got 0 bytes b''"),
        (bytes([9, 9, 0]), r"expected a 4-byte header, got 3 bytes"),
        (bytes([0, 9, 0, 0]), r"board must be at least 1x1, got 0x9"),
        (bytes([9, 0, 0, 0]), r"board must be at least 1x1, got 9x0"),
        (bytes([3, 3, 0, 2, 0, 0]), r"header promises 2 mines \(8 bytes\), got 6 bytes"),
        (bytes([3, 3, 0, 1, 0, 0, 1]), r"header promises 1 mines \(6 bytes\), got 7 bytes"),
        (bytes([2, 2, 0, 5]) + bytes(10), r"5 mines do not fit on a 2x2 board"),
        (bytes([3, 3, 0, 1, 3, 0]), r"mine 0 at \(x=3, y=0\) is outside the 3x3 board"),
        (bytes([3, 3, 0, 2, 0, 0, 1, 3]), r"mine 1 at \(x=1, y=3\) is outside the 3x3 board"),
        (bytes([3, 3, 0, 2, 1, 1, 1, 1]), r"mine 1 at \(x=1, y=1\) repeats an earlier one"),
        ("abcd", r"bad MBF: expected bytes, got str"),
    ],
)
def test_bad_mbf(data, message):
    with pytest.raises(GameError, match=message):
        Game.from_mbf(data)


def test_mbf_refuses_boards_it_cannot_hold():
    with pytest.raises(GameError, match=r"a 256x1 board with 0 mines does not fit MBF"):
        Game.from_layout(256, 1, []).to_mbf()


def test_from_layout_errors():
    with pytest.raises(GameError, match=r"mine \(0, 0\) is given twice"):
        Game.from_layout(3, 3, [(0, 0), (0, 0)])
    with pytest.raises(GameError, match=r"mine \(0, 3\) is outside the 3x3 board"):
        Game.from_layout(3, 3, [(0, 3)])
    with pytest.raises(GameError, match=r"mine 4 is not a \(row, col\) pair"):
        Game.from_layout(3, 3, [4])
    with pytest.raises(GameError, match=r"width must be an integer >= 1, got 0"):
        Game.from_layout(0, 3, [])


def test_layout_is_unknown_before_the_first_click():
    game = Game.new(5, 5, 3, seed=0)
    assert game.mines is None
    for action in (game.to_layout_text, game.to_mbf, lambda: game.is_mine(0, 0)):
        with pytest.raises(GameError, match="the mines are not placed before the first click"):
            action()
    game.reveal(0, 0)
    assert sum(game.is_mine(r, c) for r in range(5) for c in range(5)) == 3


# ---------------------------------------------------------------- actions
LAYOUT = """
*...
....
..*.
"""


def test_win_and_loss():
    won = Game.from_layout_text(LAYOUT)
    for cell in [(0, 3), (2, 0), (0, 1), (1, 0), (1, 1), (2, 3)]:
        if won.board[cell] == HIDDEN:
            won.reveal(*cell)
    assert won.status == "won" and won.is_finished and won.safe_cells_left == 0
    lost = Game.from_layout_text(LAYOUT)
    result = lost.reveal(2, 2)
    assert result == ActionResult("reveal", (2, 2), (), "lost", (2, 2))
    assert lost.status == "lost" and lost.board[2, 2] == HIDDEN


def test_chord():
    game = Game.from_layout_text(LAYOUT)
    game.reveal(1, 1)  # a 2: touches (0, 0) and (2, 2)
    game.flag(0, 0)
    with pytest.raises(GameError, match=r"cell \(1, 1\) shows 2 but has 1 flagged neighbours"):
        game.chord(1, 1)
    game.flag(2, 2)
    result = game.chord(1, 1)
    assert result.action == "chord" and result.mine is None and result.status == "playing"
    # The six hidden neighbours, and the zero (0, 2) opens (0, 3) and (1, 3).
    assert result.revealed == ((0, 1), (0, 2), (0, 3), (1, 0), (1, 2), (1, 3), (2, 0), (2, 1))
    assert game.reveal(2, 3).status == "won"


def test_chord_with_a_wrong_flag_loses():
    game = Game.from_layout_text(LAYOUT)
    game.reveal(1, 1)
    game.flag(0, 0)
    game.flag(1, 2)  # wrong: (2, 2) is the mine
    result = game.chord(1, 1)
    assert result.status == "lost" and result.mine == (2, 2)
    assert (2, 1) in result.revealed and game.board[2, 1] == 1
    assert game.board.flagged_cells() == ((0, 0), (1, 2))


def test_chord_with_nothing_left_to_reveal():
    game = Game.from_layout_text("*...\n....\n...*")
    game.reveal(2, 0)  # opens (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)
    game.flag(0, 0)
    result = game.chord(2, 1)  # a 0 with every neighbour revealed
    assert result.revealed == () and result.status == "playing"
    assert game.moves == MoveCounts(reveals=1, chords=1, flags=1)


def test_flags():
    game = Game.from_layout_text("*.\n.*")
    assert game.flag(0, 1) == ActionResult("flag", (0, 1), (), "playing")
    assert game.toggle_flag(1, 0).action == "flag"
    assert game.board.flagged_cells() == ((0, 1), (1, 0)) and game.flag_count == 2
    with pytest.raises(GameError, match=r"no flags left: 2 flags for 2 mines"):
        game.flag(0, 0)
    assert game.toggle_flag(1, 0).action == "unflag"
    assert game.unflag(0, 1).action == "unflag" and game.flag_count == 0
    assert game.moves == MoveCounts(flags=2, unflags=2) and game.moves.total == 4


def test_flags_before_the_first_click():
    game = Game.new(9, 9, 10, first_click="opening", seed=4)
    game.flag(0, 0)
    assert game.board.flagged_cells() == ((0, 0),) and game.mines is None
    game.reveal(4, 4)
    assert game.board[0, 0] == FLAG


def _bad_actions():
    game = Game.from_layout_text(LAYOUT)
    game.reveal(1, 1)
    game.flag(0, 0)
    return game, [
        (lambda: game.reveal(3, 0), r"cell \(3, 0\) is outside the 4x3 board"),
        (lambda: game.reveal(0, -1), r"cell \(0, -1\) is outside the 4x3 board"),
        (lambda: game.reveal(0.0, 1), r"cell \(0.0, 1\) is outside the 4x3 board"),
        (lambda: game.flag(0, 4), r"cell \(0, 4\) is outside"),
        (lambda: game.unflag(-1, 0), r"cell \(-1, 0\) is outside"),
        (lambda: game.toggle_flag(5, 5), r"cell \(5, 5\) is outside"),
        (lambda: game.chord(0, 9), r"cell \(0, 9\) is outside"),
        (lambda: game.reveal(0, 0), r"cell \(0, 0\) is flagged; unflag it before revealing it"),
        (lambda: game.flag(1, 1), r"cell \(1, 1\) is revealed and cannot be flagged"),
        (lambda: game.toggle_flag(1, 1), r"cell \(1, 1\) is revealed and cannot be flagged"),
        (lambda: game.unflag(1, 1), r"cell \(1, 1\) is revealed, not flagged"),
        (lambda: game.chord(0, 1), r"cell \(0, 1\) is not revealed; chord a revealed number"),
        (lambda: game.chord(0, 0), r"cell \(0, 0\) is not revealed"),
        (lambda: game.chord(1, 1), r"cell \(1, 1\) shows 2 but has 1 flagged neighbours"),
    ]


@pytest.mark.parametrize("number", range(len(_bad_actions()[1])))
def test_bad_actions_raise_and_change_nothing(number):
    game, actions = _bad_actions()
    action, message = actions[number]
    board, moves = game.board, game.moves
    with pytest.raises(GameError, match=message):
        action()
    assert game.board == board and game.moves == moves and game.status == "playing"


@pytest.mark.parametrize(("click", "status"), [((0, 3), "won"), ((0, 0), "lost")])
def test_finished_games_refuse_every_action(click, status):
    game = Game.from_layout_text("*...")
    assert game.reveal(*click).status == status and game.is_finished
    for action in (game.reveal, game.flag, game.unflag, game.toggle_flag, game.chord):
        with pytest.raises(GameError, match=rf"the game is over \({status}\)"):
            action(0, 1)


# ------------------------------------------------------------------ board
def test_board_is_what_the_player_sees():
    game = Game.from_layout_text(LAYOUT)
    assert game.board == Board(4, 3, 2, (HIDDEN,) * 12)
    game.reveal(0, 3)
    game.flag(2, 2)
    board = game.board
    assert isinstance(board, Board)
    assert board.to_text() == "4x3x2\nH100\nH211\nHHFH\n"
    assert board.mines == 2 and board.mines_left == 1
    assert Board.from_text(board.to_text()) == board


def test_board_is_cached_between_moves():
    game = Game.new(30, 16, 99, seed=1)
    first = game.board
    assert game.board is first
    game.reveal(5, 5)
    second = game.board
    assert second is not first and game.board is second
    assert game.reveal(5, 5).noop
    assert game.board is second


# ------------------------------------------------------ determinism, pickle
def _play(game, clicks):
    for cell in clicks:
        if game.is_finished:
            break
        if game.board[cell] == HIDDEN:
            game.reveal(*cell)
    return game


CLICKS = [(8, 8), (0, 0), (15, 29), (3, 20), (12, 4), (7, 7)]


@pytest.mark.parametrize("method", sorted(PLACEMENT_METHODS))
def test_same_seed_same_game(method):
    one = _play(Game.new(30, 16, 99, method=method, seed=42), CLICKS)
    two = _play(Game.new(30, 16, 99, method=method, seed=42), CLICKS)
    other = _play(Game.new(30, 16, 99, method=method, seed=43), CLICKS)
    assert one.mines == two.mines and one.board == two.board and one.moves == two.moves
    assert one.mines != other.mines


def test_rng_keyword_draws_from_the_given_generator():
    rng = np.random.default_rng(9)
    first = _play(Game.new(9, 9, 10, rng=rng), [(4, 4)])
    second = _play(Game.new(9, 9, 10, rng=rng), [(4, 4)])
    assert first.mines != second.mines
    assert _play(Game.new(9, 9, 10, rng=np.random.default_rng(9)), [(4, 4)]).mines == first.mines


@pytest.mark.parametrize("moves_before", [0, 1, 3])
def test_pickled_games_play_on_identically(moves_before):
    game = _play(Game.new(30, 16, 99, first_click="opening", seed=5), CLICKS[:moves_before])
    copy = pickle.loads(pickle.dumps(game))
    assert copy.board == game.board and copy.mines == game.mines and copy.status == game.status
    _play(game, CLICKS[moves_before:])
    _play(copy, CLICKS[moves_before:])
    assert copy.mines == game.mines and copy.board == game.board and copy.moves == game.moves


def test_values_pickle():
    for value in (
        FirstClickRule(3),
        ActionResult("reveal", (0, 0), ((0, 0),), "won"),
        MoveCounts(1, 2, 3, 4),
    ):
        assert pickle.loads(pickle.dumps(value)) == value


def test_repr():
    game = Game.new(9, 9, 10, first_click="opening", seed=0)
    assert repr(game) == "<Game 9x9, 10 mines, playing, first_click='opening', 0 moves>"
    assert str(game) == "\n".join(["HHHHHHHHH"] * 9)


def test_actions_already_done_are_noops_that_say_so():
    game = Game.from_layout_text(LAYOUT)
    game.reveal(1, 1)
    game.flag(0, 0)
    board, moves = game.board, game.moves
    assert game.reveal(1, 1) == ActionResult("reveal", (1, 1), (), "playing", noop=True)
    assert game.flag(0, 0) == ActionResult("flag", (0, 0), (), "playing", noop=True)
    assert game.unflag(0, 1) == ActionResult("unflag", (0, 1), (), "playing", noop=True)
    assert game.board == board and game.moves == moves
    assert not game.reveal(0, 1).noop


def test_revealing_every_certain_safe_cell_in_any_order():
    from analyzer.solver import solve

    game = Game.from_layout_text("....\n....\n...*\n")
    game.reveal(0, 0)  # a flood fill opens most of the board
    analysis = solve(game.board)
    for cell in sorted(analysis.safe, reverse=True):
        game.reveal(*cell)
    assert game.status == "won"
