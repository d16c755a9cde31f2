"""Replay folders on local processes and on Dask: the same table, in input order, a bad file never
stopping the rest."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analyzer import OptionError, ReplayError
from analyzer.cli import main
from analyzer.replays import example_names, example_path
from analyzer.replays.batch import analyse_files

pytest.importorskip("ms_toollib")

CLONE = Path(__file__).parent / "replays" / "clone"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled games, two Clone recordings and two broken files, in nested folders."""
    folder = tmp_path_factory.mktemp("archive")
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    for name in example_names():
        shutil.copyfile(str(example_path(name)), folder / "a" / name)
    for name in ("2006_release_1.mvf", "0.96_beta_or_earlier.mvf"):
        shutil.copyfile(CLONE / name, folder / "b" / name)
    (folder / "a" / "broken.rmv").write_bytes(b"*rmv" + bytes(200))
    (folder / "b" / "empty.evf").write_bytes(b"")
    return folder


def test_a_bad_file_holds_its_slot_and_names_itself(archive: Path) -> None:
    results = analyse_files([archive], workers=1)
    names = [Path(str(p)).name for p in sorted(p for p in archive.rglob("*") if p.is_file())]
    assert len(results) == len(names) == 9
    for name, result in zip(names, results, strict=True):
        if name in ("broken.rmv", "empty.evf"):
            assert isinstance(result, ReplayError) and name in str(result)
        else:
            assert not isinstance(result, Exception) and Path(result.replay.path).name == name


def test_dask_gives_the_table_local_processes_give(
    archive: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a Dask LocalCluster: the same table, the same rows of every figure, the same errors."""
    pytest.importorskip("distributed")
    local, dask = tmp_path / "local.csv", tmp_path / "dask.csv"
    assert main(["replay", str(archive), "--workers", "2", "--no-progress", "--csv", str(local)]) == 1
    expected = capsys.readouterr()
    command = ["replay", str(archive), "--backend", "dask", "--workers", "2", "--no-progress"]
    assert main([*command, "--csv", str(dask)]) == 1
    got = capsys.readouterr()
    assert got.out == expected.out and "7 games, 7 won" in got.out
    assert got.err == expected.err and got.err.count("analyzer: error: cannot read") == 2
    assert dask.read_text() == local.read_text() and len(local.read_text().splitlines()) == 10


def test_backend_options_are_checked(archive: Path) -> None:
    with pytest.raises(OptionError, match="unknown backend 'spark'"):
        analyse_files([archive], backend="spark")
    with pytest.raises(OptionError, match="address is for backend 'dask'"):
        analyse_files([archive], address="tcp://127.0.0.1:1")
    pytest.importorskip("distributed")
    with pytest.raises(OptionError, match="no Dask scheduler: cannot connect to 'tcp://127.0.0.1:1'"):
        analyse_files([archive], backend="dask", address="tcp://127.0.0.1:1")


def test_a_truncated_replay_keeps_its_row_in_the_table_and_the_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder with one broken file: its row stays, the error in a column (table and CSV)."""
    import csv

    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("beginner_8x8_10.avf", "custom_8x11_7.avf"):
        shutil.copyfile(str(example_path(name)), folder / name)
    whole = example_path("expert_30x16_99.rmv").read_bytes()
    (folder / "expert_cut.rmv").write_bytes(whole[: len(whole) // 3])
    table = tmp_path / "games.csv"
    assert main(["replay", str(folder), "--workers", "1", "--no-progress", "--csv", str(table)]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split()[-1] == "error"
    (cut,) = [line for line in lines if line.startswith("expert_cut.rmv")]
    assert cut.split()[1] == "error" and f"cannot read {str(folder / 'expert_cut.rmv')!r}" in cut
    assert len([line for line in lines if line.endswith(".avf") or ".avf " in line]) == 2
    assert lines[-1].startswith("2 games, 2 won;") and lines[-1].endswith(
        "1 file not analysed (error column)"
    )
    assert err.count("analyzer: error: ") == 1 and "expert_cut.rmv" in err  # and standard error says it
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert [Path(row["file"]).name for row in rows] == [
        "beginner_8x8_10.avf",
        "custom_8x11_7.avf",
        "expert_cut.rmv",
    ]
    assert [row["result"] for row in rows] == ["won", "won", "error"]
    assert rows[0]["error"] == rows[1]["error"] == "" and "expert_cut.rmv" in rows[2]["error"]
    assert rows[0]["bbbv"] == "24" and rows[2]["bbbv"] == ""  # a count stays a whole number
