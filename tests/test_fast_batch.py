"""Batches of games in one compiled call (analyzer.play.fast.batch): the same games as game by game."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import jit, simulate
from analyzer.play import fast
from analyzer.play.fast import batch
from analyzer.play.fast.loop import EXPERT, EXPERT_PARAMS, PROBABILISTIC, PSEQ
from analyzer.play.fast.patterns import no_patterns
from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES
from analyzer.play.players import make_player
from analyzer.play.simulation import Setup, _fast_context, _fast_zone, _play_batch_fast, play_indexed_fast


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**32 - 1, 2**32, 2**70 + 11])
@pytest.mark.parametrize("index", [0, 1, 999, 2**31, 2**32 - 1])
def test_stream_words_are_numpys(seed: int, index: int) -> None:
    for which in (0, 1):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index, which)))
        expected = rng.integers(2**32, dtype=np.uint32, size=301).astype(np.int64)
        words = np.empty(301, dtype=np.int64)
        batch.stream_words(batch.seed_words(seed), np.int64(index), np.int64(which), words)
        assert words.tolist() == expected.tolist()


@pytest.mark.parametrize(
    ("width", "height", "mines", "excluded"),
    [
        (9, 9, 10, [0, 1, 9, 10]),
        (9, 9, 0, [0]),
        (16, 16, 40, list(range(0, 3)) + list(range(16, 19)) + list(range(32, 35))),
        (30, 16, 99, []),
        (5, 4, 19, [7]),  # every allowed cell a mine
        (3, 1, 1, [2]),
    ],
)
def test_layouts_are_layout_masks(width: int, height: int, mines: int, excluded: list[int]) -> None:
    cells = width * height
    zone = np.array(excluded, dtype=np.int64)
    for index in range(40):
        board = np.random.default_rng(np.random.SeedSequence(5, spawn_key=(index, 0)))
        expected = fast.layout_mask(width, height, mines, zone, board)
        pcg = np.empty(6, dtype=np.uint64)
        batch._seed_stream(batch.seed_words(5), np.int64(index), np.int64(0), pcg)
        mask = np.empty(cells, dtype=np.bool_)
        batch.batch_layout(
            pcg, np.int64(cells), np.int64(mines), zone, np.empty(max(mines, 1), np.int64), mask
        )
        assert mask.tolist() == expected.tolist()
        assert int(mask.sum()) == mines


def test_seed_words_refuse_a_negative_seed() -> None:
    with pytest.raises(ValueError, match="seed must be at least 0, not -1"):
        batch.seed_words(-1)


def test_streams_match_numpy() -> None:
    assert batch.streams_match()


@pytest.mark.parametrize("player", ["pseq", "probabilistic", "expert"])
@pytest.mark.parametrize(
    ("size", "rule", "cell"),
    [((9, 9, 10), "safe", "0,0"), ((9, 9, 10), "opening", "2,2"), ((16, 16, 40), "safe", "player")],
)
def test_a_batch_plays_the_games_game_by_game_plays(
    player: str, size: tuple[int, int, int], rule: str, cell: str
) -> None:
    chosen = make_player(player)
    setup = Setup(*size, rule, cell, repr(chosen), 4)
    games = 40 if size[0] == 9 else 12
    records = [play_indexed_fast(setup, chosen, i) for i in range(3, 3 + games)]
    played = _play_batch_fast(setup, chosen, 3, 3 + games)
    assert played is not None
    assert played["wins"] == sum(r.is_won for r in records)
    assert played["guesses"] == sum(r.guesses for r in records)
    # each game, won and guesses, from the kernel itself
    width, height, mines = size
    first = fast.first_choice(player, "square", width, height, mines) if cell == "player" else 2 * width + 2
    if cell == "0,0":
        first = 0
    out = np.empty((games, 3), dtype=np.int64)
    policy = {"probabilistic": PROBABILISTIC, "pseq": PSEQ, "expert": EXPERT}[player]
    batch.play_batch(
        policy,
        fast.neighbours_of("square", width, height),
        mines,
        first,
        _fast_zone(rule, "square", width, height, first),
        _fast_context(rule, "square", width, height)[1],
        batch.seed_words(4),
        3,
        DEFAULT_MAX_NODES,
        EXPERT_PARAMS,
        no_patterns(),
        out,
    )
    assert [(bool(w), int(g)) for w, g, _ in out] == [(r.is_won, r.guesses) for r in records]


def test_a_random_first_cell_rule_players_and_interpreted_kernels_play_game_by_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    setup = Setup(9, 9, 10, "safe", "random", "PseqPlayer()", 0)
    assert _play_batch_fast(setup, make_player("pseq"), 0, 5) is None
    setup = Setup(9, 9, 10, "safe", "0,0", "LocalPlayer()", 0)
    assert _play_batch_fast(setup, make_player("local"), 0, 5) is None
    setup = Setup(9, 9, 10, "safe", "0,0", "PseqPlayer()", 0)
    assert _play_batch_fast(setup, make_player("pseq"), 0, 5) is not None
    monkeypatch.setattr(jit, "runs_interpreted", lambda: True)
    assert _play_batch_fast(setup, make_player("pseq"), 0, 5) is None


def test_a_game_too_hard_for_the_kernel_is_played_game_by_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row the kernel gives up on (-1) is played by play_indexed_fast, with the same results."""
    before = simulate(9, 9, 10, "pseq", 60, first_cell=(0, 0), seed=2)
    real = batch.play_batch

    def giving_up(*args: object) -> None:
        real(*args)
        out = args[-1]
        assert isinstance(out, np.ndarray)
        out[::3] = (-1, 99, 99)  # every third game too hard, with nonsense counts that must not count

    monkeypatch.setattr(batch, "play_batch", giving_up)
    after = simulate(9, 9, 10, "pseq", 60, first_cell=(0, 0), seed=2)
    assert (after.wins, after.guesses) == (before.wins, before.guesses)


# Win and guess counts of the code before batches (play_indexed_fast game by game), pinned.
PINNED = [
    ("pseq", (9, 9, 10), "safe", (0, 0), 0, 300, (273, 215)),
    ("pseq", (9, 9, 10), "safe", (0, 0), 7, 300, (277, 207)),
    ("pseq", (9, 9, 10), "opening", (2, 2), 7, 300, (294, 30)),
    ("pseq", (16, 16, 40), "safe", (0, 0), 0, 100, (82, 104)),
    ("pseq", (16, 16, 40), "opening", (2, 2), 7, 100, (91, 37)),
    ("pseq", (30, 16, 99), "opening", (2, 2), 0, 30, (15, 90)),
    ("pseq", (9, 9, 10), "safe", None, 3, 200, (190, 133)),
    ("probabilistic", (9, 9, 10), "safe", (0, 0), 0, 300, (274, 234)),
    ("probabilistic", (16, 16, 40), "opening", (2, 2), 0, 100, (90, 46)),
    ("probabilistic", (9, 9, 10), "safe", None, 3, 200, (185, 133)),
]


@pytest.mark.parametrize(("player", "size", "rule", "cell", "seed", "games", "expected"), PINNED)
def test_simulations_give_the_results_they_gave_game_by_game(
    player: str,
    size: tuple[int, int, int],
    rule: str,
    cell: tuple[int, int] | None,
    seed: int,
    games: int,
    expected: tuple[int, int],
) -> None:
    result = simulate(*size, player, games, first_click=rule, first_cell=cell, seed=seed)
    assert (result.wins, result.guesses) == expected
