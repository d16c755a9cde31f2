"""Benchmarks (scripts, not tests) of the topologies: ``python -m benchmarks.topology speed|peer``.

``speed``
    Times the exact :func:`analyzer.solve` on random positions (20, 50 or 80 % of
    the safe cells revealed, from seeded games opened at the centre) of
    expert-sized boards of each topology: hexagonal, knight and cross 30x16 with
    99 mines, the cube of 9x9 faces with 100 mines (486 cells); the counting
    cache emptied before each run (cold). Prints each class's median and slowest board.
``peer``
    Runs minesweepr's solver (``minesweeper.py`` of mrgriscom/minesweepr, a fetched
    copy outside the repository, never committed) side by side with ours on the
    same hexagonal and cube positions: the committed golden boards
    (``tests/golden/*.mine`` with a ``hex`` or ``cube`` header) and random mid-game
    positions. minesweepr solves a list of rules (a number of mines among a set of
    cells) and the mine total: each revealed number gives one rule over its hidden
    neighbours, as our neighbourhoods say. Prints, per class, how many boards agree
    to 1e-9 on every cell and both medians. minesweepr is Python 2 code: it runs
    under a Python 2.7 when one is found, or else translated by ``lib2to3`` into a
    temporary folder, in a child process in either case.
    ``--topologies`` also checks our hexagonal and cube neighbourhoods against
    minesweepr's ``topologies.js`` (run by node, when installed): the same graph
    (hexagonal: minesweepr's board less the extra cell of its odd rows; the cube:
    isomorphic, by networkx).

``--minesweepr PATH``: the fetched copy, a git directory (as the fetch tool leaves
it, read with ``git show``) or a folder holding ``minesweeper.py``; by default
``$MINESWEEPR`` or ``/work/.mirror/mrgriscom+minesweepr/repo``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.board.topology import neighbour_table
from analyzer.play.positions import mid_game
from analyzer.solver.counting import clear_cache
from analyzer.solver.solve import solve

__all__ = ["SPEED_CLASSES", "speed", "peer_boards", "minesweepr_rules", "run_minesweepr", "find_minesweepr"]

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
DEFAULT_MINESWEEPR = "/work/.mirror/mrgriscom+minesweepr/repo"

#: (name, width, height, mines, topology, progress) of the speed classes.
SPEED_CLASSES = (
    ("hex 30x16/99, 20%", 30, 16, 99, "hex", 0.2),
    ("hex 30x16/99, 50%", 30, 16, 99, "hex", 0.5),
    ("hex 30x16/99, 80%", 30, 16, 99, "hex", 0.8),
    ("knight 30x16/99, 50%", 30, 16, 99, "knight", 0.5),
    ("cross 30x16/99, 50%", 30, 16, 99, "cross", 0.5),
    ("cube 9x9 faces/100, 50%", 9, 54, 100, "cube", 0.5),
)

# A driver for minesweepr's solver, in the Python 2 and 3 both understand: problems on
# standard input as JSON, each answer (every cell's probability, "other" for the cells no
# rule names) and its seconds on standard output.
_DRIVER = """
import json, sys, time
import minesweeper as ms
if sys.version_info[0] >= 3:  # Python 2 orders any two objects (by address): ties in its heaps need it
    import util
    util.ImmutableMixin.__lt__ = lambda a, b: id(a) < id(b)
problems = json.loads(sys.stdin.read())
out = []
for p in problems:
    rules = [ms.Rule(n, cells) for n, cells in p["rules"]]
    start = time.time()
    answer = ms.solve(rules, ms.MineCount(p["total_cells"], p["total_mines"]), "other")
    seconds = time.time() - start
    out.append({"seconds": seconds, "probabilities": dict((str(k), v) for k, v in answer.items())})
sys.stdout.write(json.dumps(out))
"""


# ------------------------------------------------------------------- speed
def speed(boards: int, repeat: int) -> list[tuple[str, float, float]]:
    """``(class, median ms, slowest ms)`` of each :data:`SPEED_CLASSES` (cold solves)."""
    rows = []
    for name, width, height, mines, topology, progress in SPEED_CLASSES:
        times = []
        for seed in range(boards):
            board = mid_game(width, height, mines, progress=progress, seed=seed, topology=topology)
            solve(board)  # numba's kernels compiled, once
            runs = []
            for _ in range(repeat):
                clear_cache()
                start = time.perf_counter()
                solve(board).cell_probabilities  # noqa: B018 - the fractions are the work
                runs.append(time.perf_counter() - start)
            times.append(statistics.median(runs))
        rows.append((name, 1000 * statistics.median(times), 1000 * max(times)))
    return rows


# -------------------------------------------------------------------- peer
def peer_boards(random_boards: int) -> dict[str, list[Board]]:
    """The positions of the peer check: the golden hexagonal and cube boards, and random ones."""
    golden = [Board.from_file(p) for p in sorted(GOLDEN.glob("*.mine"))]
    classes = {
        "golden hex": [b for b in golden if b.topology == "hex"],
        "golden cube": [b for b in golden if b.topology == "cube"],
        "hex 16x16/40": [mid_game(16, 16, 40, seed=s, topology="hex") for s in range(random_boards)],
        "hex 30x16/99": [mid_game(30, 16, 99, seed=s, topology="hex") for s in range(random_boards)],
        "cube 5x5 faces/25": [mid_game(5, 30, 25, seed=s, topology="cube") for s in range(random_boards)],
        "cube 8x8 faces/70": [mid_game(8, 48, 70, seed=s, topology="cube") for s in range(random_boards)],
    }
    return {name: boards for name, boards in classes.items() if boards}


def minesweepr_rules(board: Board) -> dict[str, object]:
    """The board as minesweepr's solver takes it: rules over flat cell indices, cells and mines unknown."""
    table = neighbour_table(board.topology, board.width, board.height)
    rules = []
    for i, value in enumerate(board.cells):
        if value < 0:
            continue
        hidden = [j for j in table[i] if board.cells[j] == HIDDEN]
        flags = sum(board.cells[j] == FLAG for j in table[i])
        if hidden:
            rules.append([value - flags, hidden])
    flags = board.cells.count(FLAG)
    return {"rules": rules, "total_cells": board.cells.count(HIDDEN), "total_mines": board.mines - flags}


def find_minesweepr(path: str | None = None) -> Path | None:
    """The fetched copy of minesweepr (a git directory or a folder with ``minesweeper.py``), if present."""
    chosen = Path(path or os.environ.get("MINESWEEPR") or DEFAULT_MINESWEEPR)
    if (chosen / "minesweeper.py").is_file() or (chosen / "HEAD").is_file():
        return chosen
    return None


def _python2() -> str | None:
    for name in ("python2.7", "python2"):
        found = shutil.which(name)
        if found and subprocess.run([found, "-c", "pass"], capture_output=True).returncode == 0:
            return found
    for root in sorted(Path.home().glob(".pyenv/versions/2.7*/bin/python")):
        return str(root)
    return None


@contextmanager
def _copy_of(source: Path, *names: str) -> Iterator[Path]:
    """The named files of the fetched copy in a temporary folder (outside the repository), by base name."""
    with tempfile.TemporaryDirectory(prefix="minesweepr-") as folder:
        out = Path(folder)
        for name in names:
            target = out / Path(name).name
            if (source / name).is_file():
                shutil.copy(source / name, target)
            else:
                text = subprocess.run(
                    ["git", f"--git-dir={source}", "show", f"HEAD:{name}"],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                target.write_text(text)
        yield out


def run_minesweepr(
    source: Path, boards: list[Board], *, translate: bool = False
) -> tuple[list[list[float | None]], list[float], str]:
    """minesweepr's probability of every cell of each board (``None`` where revealed or flagged),
    the seconds of each solve, and the interpreter that ran it (``translate``: Python 3 even when a
    Python 2 is found)."""
    problems = [minesweepr_rules(board) for board in boards]
    with _copy_of(source, "minesweeper.py", "util.py") as folder:
        python = None if translate else _python2()
        if python is None:  # Python 3: the code translated (print, iteritems, tuple parameters, Queue)
            python = sys.executable
            subprocess.run(
                [python, "-W", "ignore", "-m", "lib2to3", "-w", "-n", "minesweeper.py", "util.py"],
                cwd=folder,
                check=True,
                capture_output=True,
            )
        (folder / "driver.py").write_text(_DRIVER)
        done = subprocess.run(
            [python, "driver.py"], cwd=folder, input=json.dumps(problems), capture_output=True, text=True
        )
        if done.returncode != 0:
            raise RuntimeError(f"minesweepr's solver failed: {done.stderr.strip().splitlines()[-1:]}")
        answers = json.loads(done.stdout)
    version = subprocess.run([python, "--version"], capture_output=True, text=True)
    out = []
    for board, answer in zip(boards, answers, strict=True):
        probabilities = answer["probabilities"]
        other = probabilities.get("other")
        out.append(
            [
                (probabilities.get(str(i), other) if value == HIDDEN else None)
                for i, value in enumerate(board.cells)
            ]
        )
    return out, [a["seconds"] for a in answers], (version.stdout or version.stderr).strip()


def compare(
    source: Path, boards: list[Board], *, translate: bool = False
) -> tuple[int, float, float, float, str]:
    """``(boards agreeing to 1e-9, largest difference, our median ms, minesweepr's median ms, python)``."""
    theirs, their_seconds, python = run_minesweepr(source, boards, translate=translate)
    ours_seconds = []
    agree = 0
    worst = 0.0
    for board, their in zip(boards, theirs, strict=True):
        clear_cache()
        start = time.perf_counter()
        analysis = solve(board)
        probabilities = analysis.cell_probabilities
        ours_seconds.append(time.perf_counter() - start)
        gaps = [abs(float(p) - q) for p, q in zip(probabilities, their, strict=True) if q is not None]
        assert all(
            (p is None) == (q is None) or board.cells[i] == FLAG
            for i, (p, q) in enumerate(zip(probabilities, their, strict=True))
        )
        gap = max(gaps, default=0.0)
        worst = max(worst, gap)
        agree += gap <= 1e-9
    return (
        agree,
        worst,
        1000 * statistics.median(ours_seconds),
        1000 * statistics.median(their_seconds),
        python,
    )


def topology_agreement(source: Path) -> list[str]:
    """Our hexagonal and cube neighbourhoods against minesweepr's ``topologies.js`` (run by node)."""
    import networkx as nx

    node = shutil.which("node")
    if node is None:
        return ["node is not installed: topologies.js not compared"]
    script = """
var mod = function(a, b) { return ((a % b) + b) % b; };
var pad_to = function(x) { return '' + x; };
var MARGIN = 0;
eval(require('fs').readFileSync('topologies.js', 'utf8'));
var out = {};
var graph = function(topo) {
    var cells = [];
    topo.for_each_index(function(pos) { cells.push(pos); });
    return cells.map(function(pos) {
        return topo.adjacent(pos).map(function(p) { return topo.cell_ix(p); });
    });
};
out.hex = graph(new HexGridTopo(7, 6));
out.cube = [2, 3, 4].map(function(n) { return graph(new CubeSurfaceTopo(n, n, n)); });
process.stdout.write(JSON.stringify(out));
"""
    lines = []
    with _copy_of(source, "web_demo/minesweepr/static/script/topologies.js") as folder:
        done = subprocess.run([node, "-e", script], cwd=folder, capture_output=True, text=True)
        if done.returncode != 0:
            return [f"topologies.js did not run: {done.stderr.strip().splitlines()[-1:]}"]
        theirs = json.loads(done.stdout)
    # Hexagonal: their 7-wide board has 8 cells in odd rows; ours is theirs without the eighth.
    width, height = 7, 6
    index = {}
    k = 0
    for r in range(height):
        for c in range(width + (r % 2)):
            index[(r, c)] = k
            k += 1
    ours = neighbour_table("hex", width, height)
    same = True
    for r in range(height):
        for c in range(width):
            mine = {divmod(j, width) for j in ours[r * width + c]}
            back = {cell: i for cell, i in index.items()}
            theirs_here = {
                cell for cell, i in back.items() if i in set(theirs["hex"][index[(r, c)]]) and cell[1] < width
            }
            same &= mine == theirs_here
    lines.append(f"hex 7x6: {'the same neighbourhoods' if same else 'DIFFERENT neighbourhoods'}")
    for n, adjacency in zip((2, 3, 4), theirs["cube"], strict=True):
        a = nx.Graph([(i, j) for i, around in enumerate(adjacency) for j in around if i != j])
        b = nx.Graph([(i, j) for i, around in enumerate(neighbour_table("cube", n, 6 * n)) for j in around])
        iso = nx.is_isomorphic(a, b)
        lines.append(
            f"cube {n}x{n} faces: {'isomorphic' if iso else 'NOT isomorphic'} ({a.number_of_edges()} edges)"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.topology", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["speed", "peer"])
    parser.add_argument("--boards", type=int, default=10, help="random positions per class")
    parser.add_argument("--repeat", type=int, default=3, help="timings per board (speed; the median is kept)")
    parser.add_argument("--minesweepr", default=None, help="the fetched copy of mrgriscom/minesweepr")
    parser.add_argument("--topologies", action="store_true", help="peer: compare topologies.js too")
    parser.add_argument(
        "--translate", action="store_true", help="peer: run minesweepr under this Python 3 (lib2to3)"
    )
    args = parser.parse_args(argv)
    if args.command == "speed":
        print(
            f"exact solve, cold, median of {args.repeat} runs a board, {args.boards} mid-game boards a class"
        )
        for name, median, slowest in speed(args.boards, args.repeat):
            print(f"  {name:<25} median {median:8.2f} ms   slowest {slowest:8.2f} ms")
        return 0
    source = find_minesweepr(args.minesweepr)
    if source is None:
        print("no fetched copy of mrgriscom/minesweepr: give --minesweepr PATH (or $MINESWEEPR)")
        return 2
    for name, boards in peer_boards(args.boards).items():
        agree, worst, ours, theirs, python = compare(source, boards, translate=args.translate)
        print(
            f"{name:<20} {agree}/{len(boards)} boards agree to 1e-9 (largest difference {worst:.1e}); "
            f"median ours {ours:.2f} ms, minesweepr {theirs:.2f} ms ({python})"
        )
    if args.topologies:
        for line in topology_agreement(source):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
