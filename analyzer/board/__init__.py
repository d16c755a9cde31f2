"""The board: an immutable position value, its neighbourhoods (topology) and its text formats."""

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.board.topology import TOPOLOGIES

__all__ = ["Board", "Cell", "FLAG", "HIDDEN", "TOPOLOGIES"]
