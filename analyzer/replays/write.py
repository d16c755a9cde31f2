"""Write a game as an EVF replay (Metasweeper's format), through ms-toollib's recorder.

The analyzer's own games become files the community's tools open, and that
:func:`~analyzer.replays.read.read_replay` reads back: a round trip game -> file ->
analysis (``tests/test_replays.py``). ms-toollib's ``BaseVideo`` is fed the mouse
events a player would make (a left press and release to reveal, a right one to flag
or unflag, both buttons on a number to chord, and, if asked, the cursor's path
between clicks); it stamps each event with the wall clock, so a written game's
times are those of the writing, not of a human. With ``timed=False`` the clock is
fixed instead (every event at time 0, the game's start and end at the Unix epoch):
the same game then gives the same bytes, whenever and wherever it is written. Like
the parser, the recorder runs
in a child process: a failure is a :class:`~analyzer.errors.ReplayError`, never a
crash of the caller.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from analyzer.board.board import Cell
from analyzer.errors import ReplayError

__all__ = ["PIXELS", "write_evf", "game_actions"]

PIXELS = 16
"""Pixels a cell in the written file (ms-toollib's default)."""

WRITE_SECONDS = 120.0
"""How long the child process may take to write one file."""

_KINDS = ("reveal", "flag", "unflag", "chord")


def write_evf(
    path: str | os.PathLike[str],
    width: int,
    height: int,
    layout: Iterable[Cell],
    actions: Iterable[tuple[str, Cell]],
    *,
    player: str = "",
    software: str = "analyzer",
    cursor_step: int = 0,
    timed: bool = True,
) -> Path:
    """Write the game that ``actions`` play on ``layout`` as an EVF file; returns its path.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; ``.evf`` is added when missing.
    width, height : int
    layout : iterable of Cell
        The mines.
    actions : iterable of (kind, cell)
        ``kind`` one of ``reveal``, ``flag``, ``unflag`` and ``chord``, in order.
        Actions after the game ends are not recorded.
    player, software : str
        The file's player and software fields.
    cursor_step : int
        When positive, the cursor also moves from each click to the next in steps of
        this many pixels (one mouse event a step), as a real recording does.
    timed : bool
        ``True``: the events' times and the game's start and end are the wall clock's
        while ms-toollib records. ``False``: every event at time 0 and the start and end
        at 0 (the Unix epoch), so that the file's bytes depend on the game alone.

    Raises
    ------
    ReplayError
        An action off the board or of an unknown kind, or ms-toollib failing to write.
    """
    mines = set(layout)
    grid = [
        [
            -1
            if (r, c) in mines
            else sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
            for c in range(width)
        ]
        for r in range(height)
    ]
    events = _mouse_events(actions, width, height, cursor_step)
    out = Path(path)
    if out.suffix.lower() != ".evf":
        out = out.with_name(out.name + ".evf")
    shown = str(out)  # errors name the file as given, not its absolute path
    out = out.resolve()
    if not out.parent.is_dir():
        raise ReplayError(f"cannot write {shown!r}: no folder {str(Path(shown).parent)!r}")
    try:
        import ms_toollib  # noqa: F401
    except ImportError:  # pragma: no cover - the replays extra is installed with the project
        raise ReplayError(
            "writing replays needs ms-toollib: pip install 'minesweeper-analyzer[replays]'"
        ) from None
    _in_child(grid, events, str(out), player, software, shown, timed)
    return out


def _mouse_events(
    actions: Iterable[tuple[str, Cell]], width: int, height: int, cursor_step: int
) -> list[tuple[str, tuple[int, int]]]:
    """The mouse events (ms-toollib's kind and pixel) that play ``actions``, checked one by one."""
    events: list[tuple[str, tuple[int, int]]] = []
    where = (height * PIXELS // 2, width * PIXELS // 2)
    for kind, (row, col) in actions:
        if kind not in _KINDS:
            raise ReplayError(f"cannot record a {kind!r}: actions are {', '.join(_KINDS)}")
        if not (0 <= row < height and 0 <= col < width):
            raise ReplayError(f"cannot record {kind} at {(row, col)!r}: off the {width}x{height} board")
        target = (row * PIXELS + PIXELS // 2, col * PIXELS + PIXELS // 2)
        if cursor_step > 0:
            events += [("mv", point) for point in _path(where, target, cursor_step)]
        where = target
        if kind == "reveal":
            events += [("lc", target), ("lr", target)]
        elif kind in ("flag", "unflag"):
            events += [("rc", target), ("rr", target)]
        else:
            events += [("lc", target), ("rc", target), ("rr", target), ("lr", target)]
    return events


def game_actions(moves: Sequence[Any]) -> list[tuple[str, Cell]]:
    """The actions of :func:`analyzer.play.replay.replay`'s moves, as :func:`write_evf` takes them."""
    return [(m.action.kind, (m.action.row, m.action.col)) for m in moves]


def _path(start: tuple[int, int], end: tuple[int, int], step: int) -> list[tuple[int, int]]:
    """Points from ``start`` towards ``end`` (excluded), ``step`` pixels apart at most."""
    dy, dx = end[0] - start[0], end[1] - start[1]
    count = max(abs(dy), abs(dx)) // step
    return [(start[0] + dy * k // (count + 1), start[1] + dx * k // (count + 1)) for k in range(1, count + 1)]


def _in_child(
    grid: list[list[int]],
    events: list[tuple[str, tuple[int, int]]],
    out: str,
    player: str,
    software: str,
    shown: str | None = None,
    timed: bool = True,
) -> None:
    name = out if shown is None else shown
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    folder = tempfile.TemporaryDirectory(prefix="analyzer-write-")
    child = context.Process(
        target=_record, args=(grid, events, out, player, software, send, folder.name), daemon=True
    )
    child.start()
    send.close()
    try:
        if not receive.poll(WRITE_SECONDS):
            raise ReplayError(f"cannot write {name!r}: ms-toollib took over {WRITE_SECONDS:g} s")
        outcome = receive.recv()
    except EOFError:
        outcome = "ms-toollib's recorder stopped (it records a finished game only: won or lost)"

    finally:
        receive.close()
        if child.is_alive():
            child.kill()
        child.join()
        folder.cleanup()
    if isinstance(outcome, bytes) and not timed:
        outcome = _without_clock(outcome, name)
    if not isinstance(outcome, bytes):
        raise ReplayError(f"cannot write {name!r}: {outcome}")
    try:
        Path(out).write_bytes(outcome)
    except OSError as error:
        raise ReplayError(f"cannot write {name!r}: {error.strerror or error}") from None


def _without_clock(data: bytes, name: str) -> bytes:
    """ms-toollib's EVF v4 bytes with every time zero: the game's time, start and end, each event's.

    The layout (ms-toollib's ``generate_evf_v4_raw_data``): a 34-byte head whose bytes 12-15 hold
    the game's time in ms (u32), 18-25 and 26-33 its start and end in microseconds (u64); four
    text fields ended by a zero byte; a device id after its length (u16); the mines, a bit a
    cell; the count of custom figures (u16, zero here); then the mouse events, 6 bytes each:
    kind, milliseconds since the previous event (the first: since the start), and the move
    (u16 x, y for the first, i16 dx, dy after), an event more than 255 ms after the previous
    preceded by pauses (255 and a u16 of milliseconds each); a zero byte ends them.
    """
    if data[:1] != b"\x04" or len(data) < 34:
        raise ReplayError(f"cannot write {name!r}: ms-toollib's EVF is not version 4")
    out = bytearray(data[:34])
    out[12:16] = bytes(4)
    out[18:34] = bytes(16)
    at = 34
    try:
        for _ in range(4):  # software, player, race, unique identifier
            at = data.index(0, at) + 1
        at += 2 + int.from_bytes(data[at : at + 2], "big")
        at += -(-data[3] * data[4] // 8) + 2
        if data[at - 2 : at] != bytes(2):
            raise ValueError("custom figures")
        out += data[34:at]
        while data[at] != 0:
            if data[at] == 255:  # a pause: dropped, the clock stands still
                at += 3
                continue
            out += bytes((data[at], 0)) + data[at + 2 : at + 6]
            at += 6
        out += data[at:]
    except (ValueError, IndexError):
        raise ReplayError(f"cannot write {name!r}: ms-toollib's EVF is not the v4 layout expected") from None
    return bytes(out)


def _record(
    grid: list[list[int]],
    events: list[tuple[str, tuple[int, int]]],
    out: str,
    player: str,
    software: str,
    send: Any,
    folder: str,
) -> None:  # pragma: no cover - runs in the child
    import faulthandler

    try:
        # A panic writes crash.log where the recorder runs: not in the user's folder.
        os.chdir(folder)
        import ms_toollib

        faulthandler.disable()
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 2)
        video = ms_toollib.BaseVideo(grid, PIXELS)
        for kind, point in events:
            if video.game_board_state in (3, 4):  # won or lost: the recording has ended
                break
            video.step(kind, point)
        video.player_identifier = player
        video.software = software
        video.generate_evf_v4_raw_data()
        send.send(bytes(video.raw_data))
    except Exception as error:
        send.send(str(error) or type(error).__name__)
    finally:
        send.close()
