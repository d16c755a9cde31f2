"""Click until idle: the interactive board (``analyzer web``) in a real Chromium, per board size and action.

Run ``python -m benchmarks.interactive`` (``--sizes expert,100x100x1600,...``, ``--repeats N``,
``--seed S``, ``--output FILE``). Each size is served by ``python -m analyzer web --new WxHxM``
in a subprocess (the URL it prints, token included) and driven by Playwright through Debian's
chromium, clicking on the board's canvas as a person does. For each action the benchmark
prints the median wall time from the click until

- ``board``: the answer is drawn (the page holds the new version and is no longer working), and
- ``idle``: the best move is drawn too (nothing pending),

and the server's CPU time for it (user + system of the server process, from ``/proc``), beside
the machine's load average: on a shared machine the wall figures include the others' work.

Actions: ``load`` (open the page), ``reveal`` (left click on a certainly safe cell, else the
best move's), ``flag`` (right click on a hidden cell, alternately on and off), ``play best``
(the button), ``edit`` (in edit mode, a right click that flags and unflags a hidden cell).
On the largest size, ``scroll`` is the median (and the worst) time the page takes to draw a
frame after 20 jumps across the board (it draws the visible cells only). A size may name a
topology after a colon (``300x300x14400:hex``, ``50x300x7500:cube``): a game of that topology,
its scroll timed too.
Figures go to ``results/interactive.json`` too.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SIZES = ("expert", "100x100x1600", "300x300x14400", "1000x1000x160000")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
]
ROOT = "document.querySelector('.mz-root')"
IDLE = (  # an answer is in and drawn (the page marks the version its canvas shows)
    f"() => {ROOT} && {ROOT}.dataset.version !== undefined && !{ROOT}.classList.contains('mz-working')"
    f" && {ROOT}.dataset.painted === {ROOT}.dataset.version"
)
NOTHING_PENDING = f"() => ({IDLE})() && {ROOT}.dataset.bestPending === 'false'"
SCROLL = f"""async () => {{
    const scroll = {ROOT}.querySelector('.mz-scroll');
    const times = [];
    for (let k = 0; k < 20; k++) {{
        const start = performance.now();
        scroll.scrollTop = (k * 997) % Math.max(1, scroll.scrollHeight - scroll.clientHeight);
        scroll.scrollLeft = (k * 613) % Math.max(1, scroll.scrollWidth - scroll.clientWidth);
        await new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        times.push({ROOT}.mz.drawMs());
    }}
    times.sort((a, b) => a - b);
    return [times[10], times[19]];
}}"""


def _cpu(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Board:
    """One ``analyzer web`` subprocess and a Chromium page on it."""

    def __init__(self, browser: Any, size: str, seed: int, timeout: float):
        size, _, topology = size.partition(":")  # 300x300x14400:hex, a game of that topology
        self.server = subprocess.Popen(
            [sys.executable, "-m", "analyzer", "web", "--new", size, "--seed", str(seed)]
            + ["--topology", topology or "square"]
            + ["--no-browser", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        line = self.server.stdout.readline() if self.server.stdout else ""
        if "http" not in line:
            raise RuntimeError(f"analyzer web did not start: {line!r}")
        self.url = next(word for word in line.split() if word.startswith("http"))
        self.page = browser.new_page(viewport={"width": 1300, "height": 900})
        self.page.set_default_timeout(timeout * 1000)

    def close(self) -> None:
        self.page.close()
        self.server.send_signal(signal.SIGINT)
        try:
            self.server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.server.kill()

    def version(self) -> int:
        return int(self.page.evaluate(f"() => Number({ROOT}.dataset.version)"))

    def timed(self, act: Any) -> dict[str, float]:
        """Wall time to the drawn answer and to idle, and the server's CPU time, for one action."""
        before = self.page.evaluate(f"() => {ROOT} ? Number({ROOT}.dataset.version) : -1")
        cpu = _cpu(self.server.pid)
        start = time.perf_counter()
        act()
        self.page.wait_for_function(
            f"(before) => ({IDLE})() && (Number({ROOT}.dataset.version) !== before"
            f" || {ROOT}.querySelector('.mz-note').textContent !== '')",
            arg=before,
        )
        board = time.perf_counter() - start
        self.page.wait_for_function(NOTHING_PENDING)
        idle = time.perf_counter() - start
        time.sleep(0.05)  # the server's last line written
        return {"board": board, "idle": idle, "cpu": _cpu(self.server.pid) - cpu}

    def click(self, cell: list[int], button: str = "left") -> None:
        box = self.page.evaluate(f"([r, c]) => {ROOT}.mz.rect(r, c)", cell)
        self.page.mouse.click(box["cx"], box["cy"], button=button)

    def find(self, code: int, limit: int = 50) -> list[list[int]]:
        return list(self.page.evaluate(f"([code, limit]) => {ROOT}.mz.find(code, limit)", [code, limit]))


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in ("board", "idle", "cpu")} | {
        "n": len(runs)
    }


def run_size(browser: Any, size: str, repeats: int, seed: int, timeout: float) -> dict[str, Any]:
    board = Board(browser, size, seed, timeout)
    figures: dict[str, Any] = {}
    try:
        loads = []
        load = board.timed(lambda: board.page.goto(board.url))
        loads.append(load)
        figures["load"] = _median(loads)
        view = board.page.evaluate(f"() => {ROOT}.mz.view()")
        middle = [view["height"] // 2, view["width"] // 2]
        big = view["width"] * view["height"] >= 10**6
        runs = repeats if not big else 1
        # The first click (safe under the game's rule), then certainly safe cells.
        reveals = [board.timed(lambda: board.click(middle))]
        for _ in range(runs - 1):
            safe = board.find(12, 1) or [board.page.evaluate(f"() => {ROOT}.mz.view().best")]
            if safe[0] is None:
                break
            reveals.append(board.timed(lambda cell=safe[0]: board.click(cell)))
        figures["reveal"] = _median(reveals)
        hidden = board.find(11, 1) or board.find(9, 1)
        flags = [board.timed(lambda: board.click(hidden[0], "right")) for _ in range(runs)]
        figures["flag"] = _median(flags)
        if view["mode"] == "play":
            best = []
            for k in range(runs):
                status = board.page.evaluate(f"() => {ROOT}.mz.view().game.status")
                if status != "playing":  # a guess lost: a new game of the same size, its first click
                    board.page.fill(".mz-seed", str(seed + 1000 + k))
                    board.timed(lambda: board.page.click(".mz-play-controls button:text('new game')"))
                    board.timed(lambda: board.click(middle))
                best.append(board.timed(lambda: board.page.click(".mz-play-best")))
            if best:
                figures["play best"] = _median(best)
        figures["to edit"] = _median([board.timed(lambda: board.page.click(".mz-mode[data-mode='edit']"))])
        hidden = board.find(11, 1) or board.find(9, 1)
        edits = [board.timed(lambda: board.click(hidden[0], "right")) for _ in range(runs)]
        figures["edit"] = _median(edits)
        if big or ":" in size:
            median, worst = board.page.evaluate(SCROLL)
            figures["scroll"] = {"draw_ms": median, "worst_ms": worst}
    finally:
        board.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.interactive", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--sizes", default=",".join(SIZES), help="comma-separated sizes (default: %(default)s)"
    )
    parser.add_argument(
        "--repeats", type=int, default=5, help="clicks per action, medians printed (default: 5)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of each size's game (default: 1)")
    parser.add_argument(
        "--timeout", type=float, default=180, help="seconds an action may take (default: 180)"
    )
    parser.add_argument("--output", type=Path, default=Path("results/interactive.json"))
    args = parser.parse_args(argv)
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        print("needs Debian's chromium (apt-get install chromium)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    results: dict[str, Any] = {"load_average_before": os.getloadavg(), "sizes": {}}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    print(f"{'size':>18} {'action':>10} {'n':>3} {'board s':>8} {'idle s':>8} {'server CPU s':>13}")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            for size in args.sizes.split(","):
                figures = run_size(browser, size, args.repeats, args.seed, args.timeout)
                results["sizes"][size] = figures
                for action, f in figures.items():
                    if action == "scroll":
                        frame = f"a frame drawn in {f['draw_ms']:.1f} ms (at worst {f['worst_ms']:.1f})"
                        print(f"{size:>18} {action:>10} {'':>3} {frame}")
                    else:
                        line = f"{size:>18} {action:>10} {f['n']:>3} {f['board']:8.2f} {f['idle']:8.2f}"
                        print(f"{line} {f['cpu']:13.2f}")
                sys.stdout.flush()
        finally:
            browser.close()
    results["load_average_after"] = os.getloadavg()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
