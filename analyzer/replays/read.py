"""Read a recorded game (AVF, RMV, EVF, MVF) into a :class:`Replay` value, through ms-toollib.

ms-toollib (the ``replays`` extra) parses the four formats the competitive community
records: Minesweeper Arbiter's ``.avf``, Vienna Minesweeper's ``.rmv``, Metasweeper's
``.evf`` and Minesweeper Clone's ``.mvf``. Its parser stops the whole process on some
malformed files (a Rust abort, not an exception), so each file is parsed in a child
process and only plain values come back: a malformed file is a :class:`ReplayError`
naming the file, never a crash of the caller.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import tempfile
from pathlib import Path
from typing import Any

from analyzer.errors import ReplayError
from analyzer.replays.record import Replay, ReplayAction

__all__ = ["FORMATS", "MAX_REPLAY_BYTES", "Replay", "ReplayAction", "read_replay"]

FORMATS = {"avf": "AvfVideo", "rmv": "RmvVideo", "evf": "EvfVideo", "mvf": "MvfVideo"}
"""Each replay format by file extension, and the ms-toollib class that reads it."""

MAX_REPLAY_BYTES = 20 * 1024 * 1024
"""The largest replay file read (the largest real ones are well under a megabyte)."""

PEER_REMARKS_MAX_CELLS = 30 * 16
"""Boards up to this many cells get ms-toollib's own remarks by default (see :func:`read_replay`)."""

PARSE_SECONDS = 60.0
"""How long the child process may take to parse one file."""

# ms-toollib's grid values: 0-8 a revealed number, 10 hidden, 11 flagged.
_HIDDEN, _FLAG = 10, 11


def read_replay(
    path: str | os.PathLike[str], *, format: str | None = None, peer_remarks: bool | None = None
) -> Replay:
    """Read a replay file; the format comes from its extension unless ``format`` names it.

    ``peer_remarks`` asks ms-toollib for its own remarks on each click (``needless_guess``,
    ``high_risk_guess``) and its running ``pluck``, from its float probabilities. They are
    for comparison only (the analysis is ours, exact) and ms-toollib computes them slowly on
    large boards (22 s for a 60x36 game of 1,100 clicks), so by default (``None``) they are
    asked for on boards of at most :data:`PEER_REMARKS_MAX_CELLS` cells; without them
    ``comments`` are empty and ``pluck`` is NaN.

    Raises
    ------
    ReplayError
        An unknown format, an empty, oversized, truncated or malformed file (one
        line naming the file), or ms-toollib missing.

    Examples
    --------
    >>> from analyzer.replays import example_path
    >>> replay = read_replay(example_path("beginner_8x8_10.avf"))
    >>> replay.width, replay.height, replay.mines, replay.bbbv, replay.time
    (8, 8, 10, 24, 14.52)
    >>> replay.fields["software"], replay.is_completed
    ('Arbiter', True)
    """
    return _read_replay(path, format=format, peer_remarks=peer_remarks)


def _read_replay(
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    peer_remarks: bool | None = None,
    shown: str | None = None,
) -> Replay:
    """:func:`read_replay`, the replay and its errors naming the file as ``shown`` (default: ``path``)."""
    path = Path(path)
    name = str(path) if shown is None else shown
    kind = (format or Path(name).suffix.lstrip(".")).lower()
    if kind not in FORMATS:
        known = ", ".join(f".{k}" for k in FORMATS)
        raise ReplayError(f"cannot read {name!r}: not a replay format ({known})")
    try:
        size = path.stat().st_size
    except OSError as error:
        raise ReplayError(f"cannot read {name!r}: {error.strerror or error}") from None
    if size == 0:
        raise ReplayError(f"cannot read {name!r}: the file is empty")
    if size > MAX_REPLAY_BYTES:
        raise ReplayError(
            f"cannot read {name!r}: {size:,} bytes is more than a replay holds (at most {MAX_REPLAY_BYTES:,})"
        )
    version = None
    if kind == "mvf":
        from analyzer.replays.mvf import clone_version, read_clone

        version = clone_version(path)
        if version is not None and version.ours:
            # Minesweeper Clone's versions ms-toollib does not read: our own reader.
            return read_clone(path, shown=name)
    try:
        import ms_toollib  # noqa: F401
    except ImportError:  # pragma: no cover - the replays extra is installed with the project
        raise ReplayError(
            "reading replays needs ms-toollib: pip install 'minesweeper-analyzer[replays]'"
        ) from None
    try:
        values = _parse_in_child(str(path.resolve()), kind, peer_remarks, shown=name)
    except ReplayError as error:
        if version is None:
            raise
        try:  # a 0.97 beta (or a hack of it) ms-toollib stops on: ours reads that layout too
            return read_clone(path, shown=name)
        except ReplayError:
            raise ReplayError(f"{error}; a Minesweeper Clone {version.name} recording") from None
    return _replay(name, kind, values)


_warm = False


def _warm_parser() -> None:
    """Parse a bundled game once in this process, so every child starts with ms-toollib initialised.

    ms-toollib's first parse in a process costs about 0.2 s (its own set-up); the children
    forked afterwards inherit that work instead of repeating it for every file.
    """
    global _warm
    if not _warm:
        from importlib.resources import as_file, files

        with as_file(files("analyzer.replays") / "examples" / "beginner_8x8_10.evf") as example:
            _extract(str(example), "evf")
        _warm = True


def _parse_in_child(
    path: str, kind: str, remarks: bool | None = None, *, shown: str | None = None
) -> dict[str, Any]:
    _warm_parser()
    with tempfile.TemporaryDirectory(prefix="analyzer-replay-") as folder:
        return _parse_in_folder(path, kind, folder, remarks, shown=shown)


def _parse_in_folder(
    path: str, kind: str, folder: str, remarks: bool | None = None, *, shown: str | None = None
) -> dict[str, Any]:
    """Parse ``path`` in a child process; errors name the file as ``shown`` (the path as the user gave it)."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(path, kind, send, folder, remarks), daemon=True)
    child.start()
    send.close()
    named = path if shown is None else shown
    try:
        if not receive.poll(PARSE_SECONDS):
            raise ReplayError(f"cannot read {named!r}: parsing took over {PARSE_SECONDS:g} s")
        outcome = receive.recv()
    except EOFError:
        outcome = None
    finally:
        receive.close()
        if child.is_alive():
            child.kill()
        child.join()
    name = kind.upper()
    if outcome is None:
        raise ReplayError(
            f"cannot read {named!r}: not a valid {name} file (ms-toollib's parser stopped on it)"
        )
    if "error" in outcome:
        raise ReplayError(f"cannot read {named!r}: not a valid {name} file ({outcome['error']})")
    return outcome  # type: ignore[no-any-return]


def _child(
    path: str, kind: str, send: Any, folder: str, remarks: bool | None = None
) -> None:  # pragma: no cover - in the child
    import faulthandler

    try:
        # ms-toollib writes a crash.log where it runs when its parser panics: not in the user's
        # folder; and its abort is the parent's one-line error, not a dump on the terminal.
        os.chdir(folder)
        faulthandler.disable()
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 2)
        send.send(_extract(path, kind, remarks))
    except Exception as error:  # ms-toollib raises plain exceptions for some files
        send.send({"error": str(error) or type(error).__name__})
    finally:
        send.close()


_STATS = ("bbbv", "rtime", "bbbv_s", "cl", "cl_s", "ce", "ce_s", "ioe", "corr", "thrp", "zini", "hzini")
_FIELDS = ("software", "player_identifier", "country", "race_identifier", "unique_identifier")


def _extract(path: str, kind: str, remarks: bool | None = True) -> dict[str, Any]:  # pragma: no cover - child
    """Everything the analysis needs, as plain values (the child's answer)."""
    import ms_toollib

    video = getattr(ms_toollib, FORMATS[kind])(path)
    video.parse()
    video.analyse()
    width, height, pixel = video.column, video.row, video.pix_size
    if remarks is None:
        remarks = width * height <= PEER_REMARKS_MAX_CELLS
    if remarks:
        video.analyse_for_features(["needless_guess", "high_risk_guess", "pluck"])
    if not (width > 0 and height > 0 and pixel > 0):
        return {"error": f"a {width}x{height} board"}
    layout = [(r, c) for r, row in enumerate(video.board) for c, v in enumerate(row) if v == -1]
    actions = []
    for event in video.events:
        level = event.useful_level
        if level == 0 or not event.event.is_mouse():
            continue
        mouse = event.event.unwrap_mouse()
        row, col = mouse.y // pixel, mouse.x // pixel
        if not (0 <= row < height and 0 <= col < width):
            continue
        prior = event.prior_game_board.game_board
        after = event.next_game_board.game_board
        revealed = sum(1 for line in after for v in line if v < _HIDDEN)
        if level == 1:
            was = prior[row][col]
            kind_name = "flag" if was == _HIDDEN else "unflag" if was == _FLAG else None
            if kind_name is None:
                continue
            before = None
        elif level in (2, 3, 4):
            # Level 4 is an action that hit a mine: a left click on one, or a chord (on a
            # revealed number) next to a wrong flag that opened one.
            chorded = level == 3 or (level == 4 and 0 <= prior[row][col] <= 8)
            kind_name = "chord" if chorded else "reveal"
            before = tuple("".join(_CHAR.get(v, "H") for v in line) for line in prior)
        else:
            continue
        actions.append(
            (
                kind_name,
                row,
                col,
                float(event.time),
                before,
                revealed,
                event.key_dynamic_params.pluck if remarks else math.nan,
                event.comments if remarks else "",
            )
        )
    video.current_time = 1e9  # the statistics of the whole game, not of the playback's start
    stats = {}
    for name in _STATS:
        try:
            stats[name] = float(getattr(video, name))
        except (AttributeError, TypeError, ValueError):
            continue
    fields = {}
    for name in _FIELDS:
        value = getattr(video, name, None)
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        if value not in (None, ""):
            fields["player" if name == "player_identifier" else name] = str(value)
    return {
        "width": width,
        "height": height,
        "mines": video.mine_num,
        "layout": layout,
        "actions": actions,
        "is_completed": bool(video.is_completed),
        "stats": stats,
        "fields": fields,
        "events": len(video.events),
    }


_CHAR = {**{v: str(v) for v in range(9)}, _HIDDEN: "H", _FLAG: "F"}


def _replay(path: str, kind: str, values: dict[str, Any]) -> Replay:
    actions = tuple(
        ReplayAction(name, (row, col), time, before, revealed, pluck, comments)
        for name, row, col, time, before, revealed, pluck, comments in values["actions"]
    )
    return Replay(
        path=path,
        format=kind,
        width=values["width"],
        height=values["height"],
        mines=values["mines"],
        layout=frozenset((int(r), int(c)) for r, c in values["layout"]),
        actions=actions,
        is_completed=values["is_completed"],
        stats=values["stats"],
        fields=values["fields"],
        events=values["events"],
    )
