"""Layouts written to files: ``analyzer generate``, MBF before the first click."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import Game, GameError, is_solvable, solve
from analyzer.cli import main
from analyzer.play.generate import generate_layouts


def test_generate_no_guess_expert_files_read_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "--preset", "expert", "--no-guess", "--count", "1", "--seed", "1", "--output"]
    assert main([*args, str(tmp_path / "a")]) == 0
    written = capsys.readouterr().out.split()
    assert len(written) == 2 and {Path(p).suffix for p in written} == {".mbf", ".mine"}
    assert main([*args, str(tmp_path / "b")]) == 0  # the same seed, the same files
    capsys.readouterr()
    for path in map(Path, written):
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes()
    for mbf in sorted((tmp_path / "a").glob("*.mbf")):
        game = Game.from_mbf(mbf.read_bytes())
        assert (game.width, game.height, game.mine_count) == (30, 16, 99)
        assert is_solvable(game.mines, (8, 15), width=30, height=16)
        position = solve(mbf.with_suffix(".mine"))  # the position after the first click, read from its path
        assert position.board[8, 15] == 0  # the first click opened
        assert position.safe  # no guess needed: a certainly safe cell to go on with
        assert main(["play", "--layout", str(mbf), "--player", "probabilistic", "--first-cell", "8,15"]) == 0
        assert "won after" in capsys.readouterr().out  # a no-guess layout is won by deduction


def test_same_seed_same_layouts_other_seed_others() -> None:
    one = generate_layouts(16, 16, 40, 4, first_click="opening", seed=7)
    assert one == generate_layouts(16, 16, 40, 4, first_click="opening", seed=7)
    assert [g.mbf for g in one] != [
        g.mbf for g in generate_layouts(16, 16, 40, 4, first_click="opening", seed=8)
    ]
    assert all(g.first_cell == (8, 8) and g.position is not None for g in one)
    plain = generate_layouts(9, 9, 10, 2, seed=7)
    assert all(g.first_cell is None and g.position is None for g in plain)


def test_mbf_before_the_first_click() -> None:
    data = Game.new(9, 9, 10, first_click="none", seed=4).to_mbf()
    clicked = Game.new(9, 9, 10, first_click="none", seed=4)
    clicked.reveal(4, 4)
    assert data == clicked.to_mbf()  # the layout the first click would have placed
    with pytest.raises(GameError, match="not placed before the first click: a 'safe' game .* reveal a cell"):
        Game.new(9, 9, 10, first_click="safe", seed=4).to_mbf()


def test_generate_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("")
    assert main(["generate", "--preset", "beginner", "--output", str(target)]) == 2  # a usage error
    assert "is a file, not a folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["generate", "--preset", "beginner", "--count", "0", "--output", str(tmp_path)])
    assert "argument --count" in capsys.readouterr().err
