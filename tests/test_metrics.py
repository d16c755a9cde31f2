"""Layout statistics: 3BV, openings and islands against their definitions and against ms-toollib."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples

from analyzer.board.topology import neighbour_table
from analyzer.cli import main
from analyzer.errors import GameError
from analyzer.play.metrics import LayoutMetrics, layout_metrics, metrics_sample
from analyzer.play.placement import place_mines
from analyzer.play.simulation import PRESETS


def _by_definition(width: int, height: int, mines: set[int], topology: str = "square") -> LayoutMetrics:
    """Openings and islands as connected components of a networkx graph, 3BV by counting clicks."""
    table = neighbour_table(topology, width, height)
    safe = [i for i in range(width * height) if i not in mines]
    number = {i: sum(j in mines for j in table[i]) for i in safe}
    zeros = [i for i in safe if number[i] == 0]
    touches_zero = {i for i in safe if number[i] == 0 or any(number.get(j) == 0 for j in table[i])}
    lone = [i for i in safe if i not in touches_zero]
    openings = nx.Graph()
    openings.add_nodes_from(zeros)
    openings.add_edges_from((i, j) for i in zeros for j in table[i] if j in number and number[j] == 0)
    islands = nx.Graph()
    islands.add_nodes_from(lone)
    lone_set = set(lone)
    islands.add_edges_from((i, j) for i in lone for j in table[i] if j in lone_set)
    n_open = nx.number_connected_components(openings)
    return LayoutMetrics(n_open + len(lone), n_open, nx.number_connected_components(islands))


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.sampled_from(["square", "torus"]), st.data())
def test_metrics_follow_their_definitions(
    width: int, height: int, topology: str, data: st.DataObject
) -> None:
    cells = width * height
    mines = data.draw(st.sets(st.integers(0, cells - 1), max_size=cells))
    got = layout_metrics(width, height, [divmod(i, width) for i in mines], topology=topology)
    assert got == _by_definition(width, height, mines, topology)


def test_small_cases_by_hand() -> None:
    assert layout_metrics(3, 3, [(1, 1)]) == LayoutMetrics(8, 0, 1)
    assert layout_metrics(3, 3, []) == LayoutMetrics(1, 1, 0)
    assert layout_metrics(2, 1, [(0, 0), (0, 1)]) == LayoutMetrics(0, 0, 0)
    assert layout_metrics(5, 1, [(0, 1), (0, 3)]) == LayoutMetrics(3, 0, 3)  # 1 * 2 * 1: three lone numbers


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_3bv_and_openings_equal_ms_toollib(preset: str) -> None:
    _against_ms_toollib(preset, 1000)


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_3bv_and_openings_equal_ms_toollib_on_10000_layouts(preset: str) -> None:
    _against_ms_toollib(preset, 10_000)


def _against_ms_toollib(preset: str, layouts: int) -> None:
    ms = pytest.importorskip("ms_toollib")
    width, height, mines = PRESETS[preset]
    for seed in range(layouts):
        layout = place_mines(width, height, mines, seed=seed)
        grid = [[0] * width for _ in range(height)]
        for r, c in layout:
            grid[r][c] = -1
        numbers = ms.cal_board_numbers(grid)
        ours = layout_metrics(width, height, layout)
        assert (ours.bbbv, ours.openings) == (ms.cal_bbbv(numbers), ms.cal_op(numbers)), (preset, seed)


def test_sample_is_the_same_for_any_number_of_workers() -> None:
    one = metrics_sample(16, 16, 40, 300, seed=3, first_click="safe", first_cell=(2, 2))
    two = metrics_sample(16, 16, 40, 300, seed=3, first_click="safe", first_cell=(2, 2), workers=2)
    for name in one.values:
        assert np.array_equal(one.values[name], two.values[name])
    assert one.summary("bbbv")["min"] <= one.summary("bbbv")["median"] <= one.summary("bbbv")["max"]
    assert sum(one.histogram("islands").values()) == 300


def test_sample_under_opening_rule_keeps_the_first_cell_a_zero() -> None:
    sample = metrics_sample(9, 9, 10, 200, first_click="opening", first_cell=(4, 4), seed=0)
    assert int(sample.values["openings"].min()) >= 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"boards": 0}, "boards must be an integer >= 1"),
        ({"width": True}, "width must be an integer >= 1"),
        ({"mines": 82}, "more mines"),
        ({"first_click": "opening", "first_cell": (9, 9)}, "outside"),
        ({"first_click": "opening", "mines": 80}, "leaves room for"),
    ],
)
def test_bad_samples_are_refused(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"width": 9, "height": 9, "mines": 10, "boards": 10, **kwargs}
    with pytest.raises(GameError, match=message):
        metrics_sample(**args)  # type: ignore[arg-type]


def test_stats_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--preset", "beginner", "--boards", "500", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "9x9/10, 500 random layouts, first click none, seed 1" in out
    assert "bbbv" in out and "islands" in out and "histogram of bbbv" in out
    sample = metrics_sample(9, 9, 10, 500, seed=1)
    assert f"{sample.summary('bbbv')['mean']:8.3f}" in out


def test_play_command_replays_a_layout(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.play.game import Game

    layout = place_mines(9, 9, 10, seed=4)
    path = tmp_path / "game.mbf"
    path.write_bytes(Game.from_layout(9, 9, layout).to_mbf())
    assert main(["play", "--layout", str(path), "--player", "probabilistic", "--first-cell", "0,0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "9x9, 10 mines; player probabilistic, seed 0"
    assert lines[1].startswith("   1  reveal (0, 0)  P(mine) = 10/81")
    assert lines[-1].split()[0] in ("won", "lost")
    assert all("P(mine) = " in line for line in lines[1:-1])


def test_play_command_errors(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.mbf"
    bad.write_bytes(bytes([3, 2, 0, 5]))
    assert main(["play", "--layout", str(bad)]) == 1
    assert "bad MBF" in capsys.readouterr().err
    assert main(["play", "--layout", str(tmp_path / "missing.mbf")]) == 1
    assert "cannot read" in capsys.readouterr().err
    text = tmp_path / "l.txt"
    text.write_text("*..\n...\n")
    assert main(["play", "--layout", str(text), "--first-cell", "5,5"]) == 1
    assert "outside the 3x2 board" in capsys.readouterr().err


def test_every_pair_of_workers_and_chunks_agrees() -> None:
    for workers, boards in itertools.product((1, 2), (1, 7)):
        sample = metrics_sample(5, 5, 3, boards, seed=9, workers=workers)
        assert sample.boards == boards
