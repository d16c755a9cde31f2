"""The JSON graph format: any topology as a list of cells and their neighbours.

The format is described in :mod:`analyzer.board.board`; :meth:`Board.from_json
<analyzer.board.board.Board.from_json>` and :meth:`Board.to_json
<analyzer.board.board.Board.to_json>` are the front doors.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from analyzer.board.states import CHAR_TO_VALUE, VALUE_TO_CHAR
from analyzer.board.topology import Graph
from analyzer.errors import BoardParseError
from analyzer.limits import quote

__all__ = ["GraphParts", "read_graph_json", "graph_json"]


class GraphParts(NamedTuple):
    """What a JSON graph board holds: the arguments of :meth:`Board.from_graph`."""

    neighbours: list[tuple[int, ...]]
    cells: list[int]
    mines: int
    names: list[str] | None
    positions: list[Any] | None


def read_graph_json(text: str) -> GraphParts:
    """The parts of a JSON graph board; the graph itself is checked by :class:`Graph`.

    Raises
    ------
    BoardParseError
        Not JSON, a field missing or of the wrong kind, a neighbour name unknown or a
        cell name listed twice, quoting the offending item.

    Examples
    --------
    >>> read_graph_json('{"mines": 1, "cells": [{"state": "H", "neighbours": []}]}')
    GraphParts(neighbours=[()], cells=[-1], mines=1, names=None, positions=None)
    """
    if not isinstance(text, str):
        raise BoardParseError(f"expected text, got {type(text).__name__}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardParseError(f"not JSON: {error.msg}", line=error.lineno, column=error.colno) from None
    if not isinstance(data, dict):
        raise BoardParseError(f"expected a JSON object with 'mines' and 'cells', got {quote(text)}")
    unknown = sorted(set(data) - {"topology", "mines", "cells"})
    if unknown:
        raise BoardParseError(
            f"unknown key {unknown[0]!r} in a graph board (expected topology, mines, cells)"
        )
    if data.get("topology", "graph") != "graph":
        raise BoardParseError(f"a JSON board's topology is 'graph', got {data['topology']!r}")
    mines = data.get("mines")
    if isinstance(mines, bool) or not isinstance(mines, int) or mines < 0:
        raise BoardParseError(f"'mines' must be a non-negative integer, got {mines!r}")
    cells = _cells(data.get("cells"))
    names = _names(cells)
    return GraphParts(_neighbours(cells, names), _states(cells), mines, names, _positions(cells))


def _cells(cells: object) -> list[dict[str, Any]]:
    if not isinstance(cells, list) or not cells:
        raise BoardParseError(f"'cells' must be a non-empty list of cells, got {quote(repr(cells))}")
    for i, cell in enumerate(cells):
        if not isinstance(cell, dict):
            raise BoardParseError(f"cell {i} must be an object with 'state' and 'neighbours', got {cell!r}")
        extra = sorted(set(cell) - {"state", "neighbours", "name", "position"})
        if extra:
            raise BoardParseError(f"cell {i}: unknown key {extra[0]!r}")
        if not isinstance(cell.get("neighbours"), list):
            raise BoardParseError(f"cell {i}: 'neighbours' must be a list, got {cell.get('neighbours')!r}")
    return cells


def _on_every_cell(values: list[Any], missing: str) -> bool:
    """Whether every cell has this optional field; ``False`` where none has it; refused where some lack it."""
    if all(value is None for value in values):
        return False
    if any(value is None for value in values):
        raise BoardParseError(f"cell {values.index(None)} {missing}")
    return True


def _names(cells: list[dict[str, Any]]) -> list[str] | None:
    named = [cell.get("name") for cell in cells]
    if not _on_every_cell(named, "has no name (name every cell or none)"):
        return None
    return named  # type: ignore[return-value]  # checked one by one in _neighbours


def _neighbours(cells: list[dict[str, Any]], names: list[str] | None) -> list[tuple[int, ...]]:
    index_of: dict[str, int] = {}
    for i, name in enumerate(names or ()):
        if not isinstance(name, str) or not name:
            raise BoardParseError(f"cell {i}: a name must be a non-empty string, got {name!r}")
        if name in index_of:
            raise BoardParseError(f"cell {name!r} is listed twice (cells {index_of[name]} and {i})")
        index_of[name] = i
    neighbours = []
    for i, cell in enumerate(cells):
        row = []
        for j in cell["neighbours"]:
            if isinstance(j, str):
                if j not in index_of:
                    raise BoardParseError(f"cell {i}: unknown neighbour {j!r}")
                j = index_of[j]
            row.append(j)
        neighbours.append(tuple(row))
    return neighbours


def _states(cells: list[dict[str, Any]]) -> list[int]:
    values = []
    for i, cell in enumerate(cells):
        state = cell.get("state")
        if isinstance(state, int) and not isinstance(state, bool) and 0 <= state <= 8:
            values.append(state)
        elif isinstance(state, str) and state in CHAR_TO_VALUE:
            values.append(CHAR_TO_VALUE[state])
        else:
            raise BoardParseError(f"cell {i}: bad state {state!r} (expected 'H', 'F' or a number 0-8)")
    return values


def _positions(cells: list[dict[str, Any]]) -> list[Any] | None:
    positions = [cell.get("position") for cell in cells]
    if not _on_every_cell(positions, "has no position (place every cell or none)"):
        return None
    for i, p in enumerate(positions):
        if not (
            isinstance(p, list)
            and len(p) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in p)
        ):
            raise BoardParseError(f"cell {i}: position must be [x, y], got {p!r}")
    return positions


def graph_json(
    cells: Sequence[int], neighbour_table: Sequence[Sequence[int]], mines: int, graph: Graph | None
) -> str:
    """The JSON graph text of a board's cells (one line per cell), names and positions from ``graph``.

    >>> print(graph_json([-1, 1], [[1], [0]], 1, None))
    {"topology": "graph", "mines": 1, "cells": [
      {"state": "H", "neighbours": [1]},
      {"state": "1", "neighbours": [0]}
    ]}
    """
    lines = []
    for i, (value, around) in enumerate(zip(cells, neighbour_table, strict=True)):
        cell: dict[str, object] = {"state": VALUE_TO_CHAR[value], "neighbours": list(around)}
        if graph is not None and graph.names is not None:
            cell["name"] = graph.names[i]
        if graph is not None and graph.positions is not None:
            cell["position"] = list(graph.positions[i])
        lines.append("  " + json.dumps(cell))
    head = f'{{"topology": "graph", "mines": {mines}, "cells": [\n'
    return head + ",\n".join(lines) + "\n]}"
