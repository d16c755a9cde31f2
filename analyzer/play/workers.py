"""Where a simulation's batches run: this process, local worker processes, or Dask.

Worker processes end with the process that started them, however it ends (on
Linux through the parent-death signal, elsewhere by a watchdog thread).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from analyzer.errors import SimulationError
from analyzer.limits import dask_client
from analyzer.play.players import Player
from analyzer.play.win_rate import Setup

__all__ = ["run_local", "run_dask", "progress_bar"]

#: A batch: ``(setup, player, start, stop, use_fast)`` to ``{"start", "stop", "wins", ...}``.
Batch = Callable[[Setup, Player, int, int, bool], dict[str, Any]]

_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Worker initializer: end this process when ``parent`` ends, however it ends (SIGKILL too)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent ended before the signal was armed
                    os._exit(1)
                return
        except (OSError, AttributeError):  # pragma: no cover - no usable libc
            pass
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:  # pragma: no cover - only where prctl is missing
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def run_local(
    run_batch: Batch, setup: Setup, player: Player, todo: list[range], workers: int, use_fast: bool
) -> Iterator[dict[str, Any]]:
    if workers == 1:
        for batch in todo:
            yield run_batch(setup, player, batch.start, batch.stop, use_fast)
        return
    with ProcessPoolExecutor(
        max_workers=workers, initializer=_die_with_parent, initargs=(os.getpid(),)
    ) as pool:
        futures = [pool.submit(run_batch, setup, player, b.start, b.stop, use_fast) for b in todo]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def run_dask(
    run_batch: Batch,
    setup: Setup,
    player: Player,
    todo: list[range],
    workers: int,
    address: str | None,
    use_fast: bool,
) -> Iterator[dict[str, Any]]:
    client, cluster = dask_client(workers, address, processes=workers > 1, error=SimulationError)
    from distributed import as_completed as dask_completed

    try:
        futures = [
            client.submit(run_batch, setup, player, b.start, b.stop, use_fast, pure=False) for b in todo
        ]
        for future in dask_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def progress_bar(enabled: bool, games: int, done: int, setup: Setup) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - the progress extra
        return None
    return tqdm(total=games, initial=done, unit="game", desc=f"{setup.width}x{setup.height}/{setup.mines}")
