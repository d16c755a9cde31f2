"""The values a replay reader returns: a recorded game (:class:`Replay`) and its actions.

Each reader (ms-toollib's, through :mod:`analyzer.replays.read`; our own for Minesweeper
Clone's old versions, :mod:`analyzer.replays.mvf`) builds these; :mod:`analyzer.replays.read`
re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.board.board import Cell

__all__ = ["Replay", "ReplayAction"]


@dataclass(frozen=True, slots=True)
class ReplayAction:
    """One action of the player that changed the board.

    Attributes
    ----------
    kind : {"reveal", "chord", "flag", "unflag"}
        A left click that opened cells, a chord (both buttons, or a click on a
        number) that opened cells, or a right click that placed or removed a flag.
    cell : Cell
        The cell under the mouse, ``(row, col)``.
    time : float
        Seconds from the start of the game, as the file records it.
    before : tuple of str, optional
        For an action that opens cells: the board the player saw just before, as
        rows of ``.mine`` characters (``H`` hidden, ``F`` flag, ``0``-``8``).
    revealed_after : int
        Cells revealed after the action, as the recording software shows them.
    pluck : float
        ms-toollib's running ``pluck`` after the action (the sum over the guesses
        so far of ``-log10`` of their chance of survival, from its float probabilities).
    comments : str
        ms-toollib's remarks on the action (``warning:needless_guess;`` ...).
    """

    kind: str
    cell: Cell
    time: float
    before: tuple[str, ...] | None
    revealed_after: int
    pluck: float = 0.0
    comments: str = ""


@dataclass(frozen=True, slots=True)
class Replay:
    """A recorded game: the board, the layout, the player's actions and the file's fields.

    ``stats`` holds ms-toollib's statistics of the game (``bbbv``, ``rtime``,
    ``bbbv_s``, ``cl``, ``ce``, ``ioe``, ``zini``, ``pluck`` ...), ``fields`` the
    file's own text fields (``software``, ``player``, ``country`` ...).
    """

    path: str
    format: str
    width: int
    height: int
    mines: int
    layout: frozenset[Cell]
    actions: tuple[ReplayAction, ...]
    is_completed: bool
    stats: dict[str, float] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    events: int = 0

    @property
    def bbbv(self) -> int:
        return int(self.stats["bbbv"])

    @property
    def time(self) -> float:
        """The game's time in seconds, as ms-toollib reports it (``rtime``)."""
        return float(self.stats["rtime"])

    def layout_text(self) -> str:
        """The layout as rows of ``*`` (mine) and ``.`` (safe)."""
        return "".join(
            "".join("*" if (r, c) in self.layout else "." for c in range(self.width)) + "\n"
            for r in range(self.height)
        )
