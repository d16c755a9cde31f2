"""Reading boards from pictures: every real screenshot in ``tests/pictures/real/``, per client.

    python -m benchmarks.images [--client xp] [--verbose]

For each picture the reader (:func:`analyzer.pictures.read_picture`) is run and its board
compared cell by cell with the picture's transcription: cells read right, cells reported
unsure, and cells read wrong (a cell read confidently as another look than the transcription,
or a grid of another size or place: then every cell counts wrong). The reader's promise is
that the last column is always 0. CPU time per picture (median and worst) is ``process_time``
of one ``read_picture`` call after a first call has loaded the skins.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

REAL = Path(__file__).resolve().parent.parent / "tests" / "pictures" / "real"
RENDERED = REAL.parent / "rendered"
_KIND = {"H": "hidden", "F": "flag", "M": "mine", "X": "hit", "W": "wrong", "?": "question"}
_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp")


@dataclass(frozen=True)
class Score:
    """One picture read and compared with its transcription."""

    picture: str
    client: str
    cells: int
    right: int
    unsure: int
    wrong: int
    seconds: float
    wrong_cells: tuple[tuple[int, int, str, str], ...]
    """``(row, column, read, transcribed)`` of every cell read wrong."""
    error: str | None = None


def rendered_pictures() -> list[Path]:
    """The rendered pictures (tests/pictures/rendered/make_rendered.py): sizes, scales, JPEG."""
    return sorted(p for p in RENDERED.glob("**/*") if p.suffix.lower() in _SUFFIXES)


def learned_from() -> set[str]:
    """The pictures (``<client>/<name>``) the bundled skins' tiles were cut from."""
    skins = Path(__file__).resolve().parent.parent / "analyzer" / "pictures" / "skins"
    names = set()
    for meta in skins.glob("*/skin.json"):
        for path in json.loads(meta.read_text()).get("learned_from", []):
            names.add("/".join(Path(path).parts[-2:]))
    return names


def real_pictures(client: str | None = None) -> list[Path]:
    """Every real picture with a transcription, sorted (of one client, if given)."""
    found = sorted(
        p for p in REAL.glob("*/*") if p.suffix.lower() in _SUFFIXES and p.with_suffix(".json").is_file()
    )
    return [p for p in found if client is None or p.parent.name == client]


def transcription(picture: Path) -> tuple[dict, list[list[str]]]:
    """The picture's ``.json`` and each cell's look as a kind name (``hidden``, ``flag``, ``3``...)."""
    meta = json.loads(picture.with_suffix(".json").read_text())
    rows = picture.with_suffix(".mine").read_text().split()[1:]
    codes = meta.get("cells") or rows
    return meta, [[_KIND.get(ch, ch) for ch in row] for row in codes]


def score(picture: Path) -> Score:
    """Read one picture and compare it with its transcription."""
    from analyzer.errors import PictureError
    from analyzer.pictures import read_picture

    meta, kinds = transcription(picture)
    grid = meta["grid"]
    rows, columns = grid["rows"], grid["columns"]
    cells = rows * columns
    name = f"{picture.parent.name}/{picture.name}"
    client = meta.get("client") or f"rendered {meta.get('skin')}"
    start = time.process_time()
    try:
        # the total from the picture's counter where it shows one, else given
        reading = read_picture(picture, mines=meta.get("mines") if meta.get("counter") is None else None)
    except PictureError as error:
        seconds = time.process_time() - start
        return Score(name, client, cells, 0, cells, 0, seconds, (), str(error))
    seconds = time.process_time() - start
    left, top, width, height, read_rows, read_columns = reading.grid
    same_grid = (
        (read_rows, read_columns) == (rows, columns)
        and abs(left - grid["left"]) < width / 2
        and abs(top - grid["top"]) < height / 2
    )
    if not same_grid:
        wrong = ((-1, -1, f"grid {reading.grid}", f"grid {tuple(grid.values())}"),)
        return Score(name, client, cells, 0, 0, cells, seconds, wrong)
    unsure = set(reading.unsure)
    right = doubt = 0
    wrong_cells = []
    for r in range(rows):
        for c in range(columns):
            if (r, c) in unsure:
                doubt += 1
            elif reading.kinds[r][c] == kinds[r][c]:
                right += 1
            else:
                wrong_cells.append((r, c, reading.kinds[r][c], kinds[r][c]))
    return Score(name, client, cells, right, doubt, len(wrong_cells), seconds, tuple(wrong_cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Read every real screenshot and compare with its transcription."
    )
    parser.add_argument(
        "--client", default=None, help="only this client's pictures (a folder of tests/pictures/real)"
    )
    parser.add_argument(
        "--rendered", action="store_true", help="also the rendered pictures of tests/pictures/rendered"
    )
    parser.add_argument(
        "--verbose", action="store_true", help="a line for every picture, and its wrong cells"
    )
    args = parser.parse_args(argv)
    from analyzer.pictures.skins import skins

    skins()  # loaded once, outside the timing
    pictures = real_pictures(args.client) + (rendered_pictures() if args.rendered else [])
    scores = [score(p) for p in pictures]
    learned = learned_from()
    by_client: dict[str, list[Score]] = {}
    for s in scores:
        by_client.setdefault(s.client, []).append(s)
        if not s.client.startswith("rendered"):  # the real ones again, by whether tiles came from them
            part = "learned from" if s.picture in learned else "held out"
            by_client.setdefault(f"  {s.client} {part}", []).append(s)
        if args.verbose:
            print(
                f"{s.picture:45} right {s.right:4}/{s.cells:<4} unsure {s.unsure:4} wrong {s.wrong:4}"
                f" {s.seconds:6.3f} s" + (f"  {s.error}" if s.error else "")
            )
            for cell in s.wrong_cells[:10]:
                print(f"    {cell}")
    print(f"{'client':28} {'pictures':>8} {'right':>12} {'unsure':>7} {'wrong':>6} {'median s':>9}", end="")
    print(f" {'worst s':>8}")
    total = [0, 0, 0, 0]
    for client, group in sorted(by_client.items(), key=lambda item: (item[0].startswith(" "), item[0])):
        cells = sum(s.cells for s in group)
        right = sum(s.right for s in group)
        unsure = sum(s.unsure for s in group)
        wrong = sum(s.wrong for s in group)
        times = [s.seconds for s in group]
        if not client.startswith(" "):
            total = [total[0] + cells, total[1] + right, total[2] + unsure, total[3] + wrong]
        print(
            f"{client:28} {len(group):8} {f'{right}/{cells}':>12} {unsure:7} {wrong:6}"
            f" {statistics.median(times):9.3f} {max(times):8.3f}"
        )
    print(f"{'all':28} {len(scores):8} {f'{total[1]}/{total[0]}':>12} {total[2]:7} {total[3]:6}")
    return 1 if total[3] else 0


if __name__ == "__main__":
    raise SystemExit(main())
