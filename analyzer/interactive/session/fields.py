"""An action's fields, read and checked: a cell, a whole number, a board's size and topology.

The front ends send what a person typed (a form field sends digits as text); each reader here
turns it into a value or raises :class:`~analyzer.errors.OptionError` with one line saying why.
"""

from __future__ import annotations

from typing import Any

from analyzer.board.board import Cell
from analyzer.board.topology import Topology, topology_name
from analyzer.errors import BoardParseError, OptionError
from analyzer.interactive.session.protocol import check_size
from analyzer.names import PRESETS

__all__ = ["read_cell", "read_integer", "read_mines", "read_size", "read_topology", "short", "message"]


def read_cell(action: dict[str, Any]) -> Cell:
    """The action's ``cell``: ``[row, column]`` (off the board is for the caller to say)."""
    cell = action.get("cell")
    if not isinstance(cell, (list, tuple)) or len(cell) != 2:
        raise OptionError(f"a cell is [row, column], got {cell!r}")
    return (read_integer(cell[0], "row", negative=True), read_integer(cell[1], "column", negative=True))


def read_integer(value: object, name: str, *, negative: bool = False) -> int:
    """A whole number from the front end, where a form field sends digits as text."""
    from analyzer.limits import whole

    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    return whole(value, name, minimum=None if negative else 0)


def read_mines(action: dict[str, Any]) -> int | None:
    """The action's mine total, or ``None`` when it gives none (an empty field)."""
    total = action.get("mines")
    return None if total in (None, "") else read_integer(total, "mines")


def message(error: BaseException) -> str:
    """An error as the one line a refused action leaves in the view's ``note``."""
    if isinstance(error, KeyError) and error.args:  # str() of a KeyError is the key's repr
        return f"missing {error.args[0]!r}"
    return str(error) or type(error).__name__


def read_size(action: dict[str, Any]) -> tuple[int, int, int, Topology | None]:
    """The size of a new board or game and its topology (``None``: the one shown).

    ``size`` is a preset or ``WxHxM``, either followed by a topology's name as in a
    ``.mine`` header (``9x9x10 hex``, ``expert torus``), or ``width``, ``height``
    and ``mines``; a ``topology`` field names one too (``""`` or ``"graph"``: the one shown).
    """
    size = action.get("size")
    topology: Topology | None = None
    if size not in (None, ""):
        text = str(size).strip().lower()
        words = text.split()
        if len(words) == 2 and not words[1][0].isdigit():
            text, topology = words[0], read_topology(words[1])
        if text in PRESETS:
            width, height, mines = PRESETS[text]
        else:
            parts = text.replace("×", "x").replace("/", "x").split("x")
            if len(parts) != 3 or not all(part.strip().isdigit() for part in parts):
                raise OptionError(
                    f"size {short(size)}: expected {', '.join(PRESETS)} or WxHxM, e.g. 30x16x99,"
                    " then a topology if need be (30x16x99 hex)"
                )
            width, height, mines = (int(part) for part in parts)
    else:
        width = read_integer(action.get("width"), "width")
        height = read_integer(action.get("height"), "height")
        mines = read_integer(action.get("mines"), "mines")
    if topology is None and action.get("topology") not in (None, "", "graph"):
        topology = read_topology(action.get("topology"))
    check_size(width, height)
    if mines > width * height:
        raise OptionError(f"more mines ({mines}) than cells ({width * height})")
    return width, height, mines, topology


def read_topology(name: object) -> Topology:
    """A topology named by the front end (a graph is given as a file, never named)."""
    try:
        return topology_name(name)
    except BoardParseError as error:
        raise OptionError(str(error)) from None


def short(value: object) -> str:
    """What the front end sent, cut to 60 characters for a message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
