"""Minesweeper Clone's MVF versions, read by our own reader (analyzer/replays/mvf.py).

The files are real recordings, flop-player's sample videos (tests/replays/clone/README.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import ReplayError
from analyzer.cli import main
from analyzer.replays import analyse_replay, read_replay
from analyzer.replays.mvf import clone_version, read_clone

FOLDER = Path(__file__).parent / "replays" / "clone"
# file: (version as the file names it, player, the time Clone recorded)
CLONE = {
    "0.96_beta_or_earlier.mvf": ("0.96 beta or earlier (0.8 to 0.96)", "Oliver Scheer @ pwnage", 38.84),
    "0.97_beta.mvf": ("0.97 beta", "Yang Shanghai", 36.79),
    "2006_release_1.mvf": ("2006 release 1", "Nicolas", 45.646),
    "2006_release_2.mvf": ("2006 release 2", "Gabriel de Tarragon", 44.869),
    "2007_release_1.mvf": ("2007 release 1", "Dion Tiu", 36.775),
    "2007_release_2.mvf": ("2007 release 2", "Kamil Murañski", 31.133),
}


@pytest.mark.parametrize("name", sorted(CLONE))
def test_each_version_reads_as_a_won_expert_game_ending_at_its_recorded_time(name: str) -> None:
    version, player, seconds = CLONE[name]
    assert clone_version(FOLDER / name) is not None
    assert clone_version(FOLDER / name).name == version  # type: ignore[union-attr]
    replay = read_clone(FOLDER / name)
    assert (replay.width, replay.height, replay.mines, len(replay.layout)) == (30, 16, 99, 99)
    assert replay.fields == {"software": f"Minesweeper Clone {version}", "player": player}
    assert replay.time == pytest.approx(seconds)
    # Independent of our reading of the buttons: the mouse events, played as Clone plays them,
    # open the last safe cell at the very time the file records for the game.
    assert replay.is_completed
    assert replay.actions[-1].time == pytest.approx(seconds)
    game = analyse_replay(replay)
    assert game.result == "won" and 0 < game.luck <= 1


@pytest.mark.needs("ms_toollib")
def test_097_reads_as_ms_toollib_reads_it() -> None:
    """The one version both read: the same actions, boards, 3BV and exact analysis."""
    path = FOLDER / "0.97_beta.mvf"
    theirs, ours = read_replay(path), read_clone(path)
    assert theirs.layout == ours.layout
    assert [(a.kind, a.cell, a.before, a.revealed_after) for a in theirs.actions] == [
        (a.kind, a.cell, a.before, a.revealed_after) for a in ours.actions
    ]
    assert [a.time for a in ours.actions] == pytest.approx([a.time for a in theirs.actions], abs=0.011)
    assert theirs.bbbv == ours.bbbv == 125  # 125 is also the 3BV the file itself stores
    assert analyse_replay(theirs).luck == analyse_replay(ours).luck


@pytest.mark.parametrize("name", ["0.96_beta_or_earlier.mvf", "2006_release_1.mvf", "2007_release_2.mvf"])
def test_read_replay_takes_the_versions_ms_toollib_cannot(name: str) -> None:
    replay = read_replay(FOLDER / name)
    assert replay.format == "mvf" and replay.is_completed
    assert replay.fields["software"] == f"Minesweeper Clone {CLONE[name][0]}"


@pytest.mark.needs("ms_toollib")
def test_the_command_reads_the_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(FOLDER), "--workers", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "6 games, 6 won" in out
    assert all(name in out for name in CLONE)


def test_broken_clone_files_are_one_clear_line(tmp_path: Path) -> None:
    data = (FOLDER / "2007_release_2.mvf").read_bytes()
    cut = tmp_path / "cut.mvf"
    cut.write_bytes(data[:200])
    with pytest.raises(
        ReplayError, match=r"'.*cut.mvf': the Minesweeper Clone 2007 release 2 file is cut short"
    ):
        read_clone(cut)
    moved = bytearray(data)
    moved[71 + 7 + 2 + 3 + 1 + 4] = 200  # the first mine's column, past the board's 30
    bad = tmp_path / "bad.mvf"
    bad.write_bytes(bytes(moved))
    with pytest.raises(ReplayError, match=r"a mine at \(.*\), off the board"):
        read_replay(bad)
    other = tmp_path / "other.mvf"
    other.write_bytes(b"\x05\x07" + bytes(200))
    with pytest.raises(ReplayError, match="not a Minesweeper Clone recording"):
        read_clone(other)


@pytest.mark.needs("ms_toollib")
def test_a_hack_of_097_reads_through_one_reader_or_the_other(tmp_path: Path) -> None:
    """Abiu's 0.97 "Funny Mode" hack marks the header's year '8'; the events are 0.97's."""
    data = bytearray((FOLDER / "0.97_beta.mvf").read_bytes())
    data[27] = ord("8")
    hack = tmp_path / "funny.mvf"
    hack.write_bytes(bytes(data))
    assert clone_version(hack).name == "0.97 beta (Funny Mode hack)"  # type: ignore[union-attr]
    replay = read_replay(hack)
    original = read_clone(FOLDER / "0.97_beta.mvf")
    assert replay.layout == original.layout and replay.is_completed
    assert [(a.kind, a.cell) for a in replay.actions] == [(a.kind, a.cell) for a in original.actions]
