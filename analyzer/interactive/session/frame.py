"""The view's small fields, sent whole with every answer: the frame around the per-cell arrays.

:meth:`Session.view` (the module text of :mod:`analyzer.interactive.session` lists each field):
the size, the caption, the error or note, the best move, the marks drawn over the cells, the
game's or the replay's state, the analyst's tools, the picture read. The per-cell arrays are
:mod:`analyzer.interactive.session.view`'s.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.board.topology import Graph
from analyzer.errors import BoardParseError
from analyzer.interactive.session.protocol import MAX_CELLS, MODES, PALETTE, PROTOCOL
from analyzer.interactive.session.searches import Searches
from analyzer.limits import digit_count, plural
from analyzer.names import PRESETS
from analyzer.render import exact_or_rounded

if TYPE_CHECKING:
    from analyzer.pictures import PictureReading
    from analyzer.solver.analysis import Analysis
    from analyzer.solver.moves import Move

__all__ = ["share_text", "count_text"]


class Frame(Searches):
    """The view's small fields of the position shown (see the module)."""

    def view(self, *, best: bool = True) -> dict[str, Any]:
        """The small fields of the view (see the module text): everything but the per-cell arrays.

        ``best`` false leaves the best move out (``best_pending`` true) so that the
        board shows before it is scored; once scored for this version it is kept.
        """
        with self.lock:
            self._refresh()
            try:
                board = self.board
            except BoardParseError as error:
                return self._frame(None, str(error), best=None)
            analysis = self._analysis
            move = self.best_move() if (best or self._best_scored) and analysis is not None else None
            view = self._frame(board, None, best=move)
            view["best_pending"] = analysis is not None and not self._best_scored
            return view

    def _frame(self, board: Board | None, broken: str | None, *, best: Move | None) -> dict[str, Any]:
        width, height, mines = (
            (board.width, board.height, board.mines)
            if board is not None
            else (self._width, self._height, self._mines)
        )
        cells = board.cells if board is not None else tuple(self._cells)
        flags = cells.count(FLAG)
        analysis = self._analysis if board is not None else None
        marks: dict[str, list[int]] = {}
        error: dict[str, Any] | None = self._error if broken is None else {"message": broken, "clues": []}
        if error and error.get("clues"):
            marks["conflict"] = [r * width + c for r, c in error["clues"]]
        if best is not None:
            marks["best"] = [best.cell[0] * width + best.cell[1]]
        if self._why is not None:
            marks["why_cell"] = [self._why["cell"][0] * width + self._why["cell"][1]]
            marks["why_clues"] = [c["cell"][0] * width + c["cell"][1] for c in self._why.get("clues", ())]
        if self.show_marks and board is not None:
            found = self.marks()  # the analyst's marks: dead cells, forced 50/50s
            marks["dead"], marks["fifty"] = found["dead"], found["fifty"]
        self._picture_marks(marks, width, height)
        replay = self._replay_view() if self.mode == "replay" else None
        if replay is not None and replay["click"] is not None:
            row, col = replay["click"]["cell"]
            marks["clicked"] = [row * width + col]
        return (
            {
                "protocol": PROTOCOL,
                "version": self._version,
                "mode": self.mode,
                "modes": [m for m in MODES if m != "replay" or self._replay is not None],
                "width": width,
                "height": height,
                "mines": mines,
                "flags": flags,
                "mines_left": mines - flags,
                "topology": self._topology_view(board),
                "caption": self._caption(width, height, mines, analysis),
                "counts": self._counts(analysis),
                "error": error,
                "note": self.note,
                "trust_flags": self._trusts_flags(),
                "flag_text": self._flag_text if board is not None else "",
                "best": list(best.cell) if best is not None else None,
                "best_text": self._best_text(best) if best is not None else "",
                "best_pending": False,
                "why": self._why,
                "marks": marks,
                "game": self._game_view() if self.mode == "play" else None,
                "replay": replay,
                "time_limit": self.time_limit,
                "presets": {name: list(size) for name, size in PRESETS.items()},
                "max_cells": MAX_CELLS,
                "palette": PALETTE,
            }
            | self._workflow_view()
            | {"picture": self._picture_view()}
        )

    def _best_text(self, move: Move) -> str:
        game = self._game
        if self.mode == "play" and game is not None and game.revealed_count == 0:
            rule = game.first_click
            if rule.radius is not None:
                if rule.radius == 0:
                    return (
                        f"{move.cell!r}: the first click is safe under this game's rule (safe);"
                        " a corner, with the fewest neighbours, opens an area most often"
                    )
                return f"{move.cell!r}: the first click opens an area (a 0) under this game's rule ({rule})"
        return move.describe()

    def _workflow_view(self) -> dict[str, Any]:
        """What the analyst's tools draw, merged into :meth:`view`."""
        return {
            "history": {"undo": len(self._undo), "redo": len(self._redo)},
            "download": self._download,
            "shown": {
                "marks": self.show_marks,
                "win": self.show_win,
                "trust_flags": self.trust_flags,
                "candidates": self.show_candidates,
                "adjust_numbers": self.adjust_numbers,
            },
            "candidates": self.candidates() if self.show_candidates else None,
            "marks_text": self.marks()["text"] if self.show_marks else None,
            "win": self.win_chance() if self.show_win else None,
            "timeline": self._timeline(),
            "name": self._name,
        }

    def _timeline(self) -> dict[str, Any] | None:
        """Each click of the replay: its risk (mine probability, a float) and whether it was a guess."""
        if self._replay is None or self.mode != "replay":
            return None
        made = self._timeline_made
        if made is None or made[0] is not self._replay:  # once a replay: the same list at every step
            clicks = self._replay.clicks
            line = {
                "risk": [float(click.mine_probability) for click in clicks],
                "guess": [bool(click.is_guess) for click in clicks],
                "exact": [exact_or_rounded(click.mine_probability) for click in clicks],
            }
            made = self._timeline_made = (self._replay, line)
        return made[1]

    def _topology_view(self, board: Board | None) -> dict[str, Any]:
        """How the front end lays the cells out: ``{"name"}`` and, for a graph, its picture.

        ``name`` is a name of :data:`~analyzer.board.topology.TOPOLOGIES` or ``"graph"``;
        a graph adds ``centres`` (each cell's ``[x, y]`` in cell sizes, where
        :func:`analyzer.render.cell_centres` draws it), ``edges`` (``[i, j]``, ``i < j``)
        and ``names`` (each cell's). Hexagons and the cube's net are laid out by the front
        end as :func:`~analyzer.render.cell_centres` does.
        """
        topology = board.topology if board is not None else self._topology
        if not isinstance(topology, Graph):
            return {"name": topology}
        return {"name": "graph"} | _graph_picture(topology)

    def _caption(self, width: int, height: int, mines: int, analysis: Analysis | None) -> str:
        topology = self._shown_topology() if self.mode != "edit" else self._topology
        if isinstance(topology, Graph):
            size = f"graph of {len(topology)} cells"
        elif topology == "cube":
            size = f"cube of {width}x{width} faces"
        else:
            size = f"{width}x{height}" + ("" if topology == "square" else f" {topology}")
        text = f"{size}, {plural(mines, 'mine')}"
        if self.mode == "play" and self._game is not None:
            text += f"; game {self._game.status}"
        if analysis is not None:
            text += f"; {count_text(analysis.total)} layout{'' if analysis.total == 1 else 's'}"
        return text

    def _counts(self, analysis: Analysis | None) -> dict[str, Any]:
        if analysis is None:
            return {}
        return {"layouts": count_text(analysis.total), "layouts_digits": _digits(analysis.total)}

    def _game_view(self) -> dict[str, Any] | None:
        game = self._game
        if game is None:
            return None
        return {
            "status": game.status,
            "width": game.width,
            "height": game.height,
            "mines": game.mine_count,
            "seed": self._game_seed,
            "first_click": game.first_click.name,
            "safe_left": game.safe_cells_left,
        }

    def _replay_view(self) -> dict[str, Any] | None:
        analysed = self._replay
        if analysed is None:
            return None
        replay = analysed.replay
        clicks = analysed.clicks
        step = self._step
        if step < len(self._replay_boards):
            click = clicks[step]
            text = f"click {click.number} of {len(clicks)}: " + click.describe().strip()
            current = click.to_dict()
        else:
            luck = analysed.luck
            text = (
                f"end: {analysed.result}, {plural(len(analysed.guesses), 'guess')}"
                f" ({len(analysed.needless_guesses)} needless), luck {share_text(luck)}"
            )
            current = None
        return {
            "step": step,
            "steps": self.steps,
            "text": text,
            "click": current,
            "file": replay.path,
            "format": replay.format,
            "guess_steps": [k for k, c in enumerate(clicks) if c.is_guess],
        }

    @property
    def picture(self) -> PictureReading | None:
        """The reading of the picture the position was read from, while it is shown (else ``None``)."""
        return self._opened.reading if self._opened is not None else None

    @property
    def unsure(self) -> tuple[Cell, ...]:
        """The cells read unsurely that the person has not set yet (row-major)."""
        if self._opened is None:
            return ()
        width = self._opened.reading.board.width
        return tuple(divmod(i, width) for i in sorted(self._unsure))

    def _picture_marks(self, marks: dict[str, Any], width: int, height: int) -> None:
        """``marks["unsure"]``: the cells read unsurely and not set since (edit mode, the board read)."""
        opened = self._opened
        if opened is None or not self._unsure or self.mode != "edit":
            return
        board = opened.reading.board
        if (board.width, board.height) == (width, height):
            marks["unsure"] = sorted(self._unsure)

    def _picture_view(self) -> dict[str, Any] | None:
        if self._opened is None or self.mode != "edit":
            return None
        return self._opened.view(len(self._unsure))


@functools.lru_cache(maxsize=8)
def _graph_picture(graph: Graph) -> dict[str, Any]:
    """A graph's cells where :func:`analyzer.render.cell_centres` puts them (in cell sizes), edges, names."""
    from analyzer.render import cell_centres

    centres, size = cell_centres(Board(len(graph), 1, 0, (HIDDEN,) * len(graph), graph))
    return {
        "centres": [[round(x / size, 4), round(y / size, 4)] for x, y in centres],
        "edges": [[i, j] for i, around in enumerate(graph.neighbours) for j in around if i < j],
        "names": [graph.name_of(i) for i in range(len(graph))],
    }


def count_text(n: int) -> str:
    """A count short: exact up to 7 digits, else three figures in scientific notation.

    From the leading 60 bits, in microseconds: a board's layout count has up to
    hundreds of thousands of digits, and its exact text is asked for on demand.

    >>> count_text(1234567), count_text(10**12 + 1), count_text(3 * 10**190921 + 10**190000)
    ('1234567', '1.00e12', '3.00e190921')
    """
    if n < 10**7:
        return str(n)
    shift = max(n.bit_length() - 60, 0)
    exponent10 = math.log10(n >> shift) + shift * math.log10(2)
    exponent = math.floor(exponent10)
    mantissa = 10 ** (exponent10 - exponent)
    if round(mantissa, 2) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.2f}e{exponent}"


def _digits(n: int) -> int:
    """About the number of decimal digits of a positive ``n`` (exact but at a power of ten's edge)."""
    shift = max(n.bit_length() - 60, 0)
    return math.floor(math.log10(max(n >> shift, 1)) + shift * math.log10(2)) + 1


def share_text(p: Fraction) -> str:
    """A share (a probability, the luck of a game) short: percent with three figures, or scientific.

    >>> share_text(Fraction(20, 73)), share_text(Fraction(1, 3 * 10**9)), share_text(Fraction(1, 10**400))
    ('27.4%', '3.33e-10', '1.00e-400')
    >>> share_text(Fraction(0)), share_text(Fraction(1))
    ('0%', '100%')
    """
    if p == 0:
        return "0%"
    value = float(p)
    if value >= 1e-4:
        return f"{100 * value:.3g}%"
    if value >= 1e-300:
        return f"{value:.2e}"
    # Past what a float holds: the leading figures by integer division, exact.
    shift = digit_count(p.denominator) - digit_count(p.numerator) + 3
    lead = p.numerator * 10**shift // p.denominator
    return f"{lead / 10 ** (digit_count(lead) - 1):.2f}e-{shift - digit_count(lead) + 1}"
