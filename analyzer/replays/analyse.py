"""Every click of a recorded game, analysed exactly: which were guesses, at what odds, and were they needed.

The actions of a :class:`~analyzer.replays.read.Replay` are played again on our own
:class:`~analyzer.play.game.Game` built from the file's layout; before each action
that opens cells, the position the player saw is checked against the one the file
records and solved exactly (:func:`analyzer.solve`, flags taken as the player's
marks, not as knowledge: a flag can be wrong). A click's risk is the exact
probability that it opens a mine: for a left click, the cell's; for a chord, the
probability that any of the hidden unflagged cells around the number holds one, one
count over layouts: those with every opened cell safe (one solve with those cells fixed
safe), over all of them.

A first click that opens no mine is not counted as a guess: the recording programs
mostly make it safe, a file does not say whether its game did, and ms-toollib's
``pluck`` leaves it out too. A first click that opens a mine shows that the game's
rule let it hold one: it counts as a guess, at the odds of the empty board (its mines
over its cells). The luck of a game is the exact probability of surviving all its
guesses, the fatal one included, the product of their survival chances.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.errors import GameError, InconsistentBoardError, ReplayError, SolverTimeoutError
from analyzer.limits import percent, plural, positive_seconds
from analyzer.replays.read import Replay, ReplayAction

__all__ = ["ClickAnalysis", "ReplayAnalysis", "analyse_replay"]

_ONE = Fraction(1)
_ZERO = Fraction(0)
SAFEST_LISTED = 5
"""How many of the safest cells each click lists."""


@dataclass(frozen=True, slots=True)
class ClickAnalysis:
    """One action that opened cells, with the exact odds of the position before it.

    Attributes
    ----------
    number : int
        1 for the first click that opened cells.
    kind : {"reveal", "chord"}
    cell : Cell
        The cell clicked (for a chord, the number).
    time : float
        Seconds from the start, as recorded.
    opens : tuple of Cell
        The hidden cells the click uncovers directly: the cell, or the hidden
        unflagged neighbours of the chorded number.
    mine_probability : Fraction
        Exact probability that the click opens a mine.
    is_first : bool
        The game's first click (counted as a guess only if it hit a mine).
    is_guess : bool
        The click could open a mine, and it is not a first click that opened none.
    safe_cells : int
        Certainly safe hidden cells elsewhere on the board at that moment.
    safe_nearby : int
        Of those, the ones within two rows and columns of the click (the 5x5
        square that ms-toollib's ``needless_guess`` looks at).
    safest_probability : Fraction
        The lowest mine probability of any hidden unflagged cell then.
    safest_cells : tuple of Cell
        Up to five cells with that probability.
    hit_mine : bool
        The click lost the game.
    comments : str
        ms-toollib's remarks on the click.
    pluck : float
        ms-toollib's running pluck after the click.
    """

    number: int
    kind: str
    cell: Cell
    time: float
    opens: tuple[Cell, ...]
    mine_probability: Fraction
    is_first: bool
    is_guess: bool
    safe_cells: int
    safe_nearby: int
    safest_probability: Fraction
    safest_cells: tuple[Cell, ...]
    hit_mine: bool
    comments: str = ""
    pluck: float = 0.0

    @property
    def survival(self) -> Fraction:
        """Exact probability that the click opens no mine."""
        return _ONE - self.mine_probability

    @property
    def is_needless(self) -> bool:
        """A guess made while a certainly safe cell was on the board."""
        return self.is_guess and self.safe_cells > 0

    def describe(self) -> str:
        what = "chord on" if self.kind == "chord" else "click on"
        text = f"{self.time:8.2f} s  {what} {self.cell!r}: {percent(self.mine_probability)} mine"
        if self.is_first and not self.is_guess:
            text += " (first click, not counted)"
        elif self.is_first:
            text += " (first click, counted: the game let it hold a mine)"
        elif self.is_needless:
            text += f"; needless, {self.safe_cells} certainly safe cell{'s' if self.safe_cells != 1 else ''}"
        elif self.is_guess and self.safest_probability < self.mine_probability:
            text += f"; safest was {percent(self.safest_probability)} at {self.safest_cells[0]!r}"
        if self.hit_mine:
            text += "  -- hit a mine"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "cell": list(self.cell),
            "time": _finite(self.time),
            "opens": [list(c) for c in self.opens],
            "mine_probability": _text(self.mine_probability),
            "is_first": self.is_first,
            "is_guess": self.is_guess,
            "is_needless": self.is_needless,
            "safe_cells": self.safe_cells,
            "safe_nearby": self.safe_nearby,
            "safest_probability": _text(self.safest_probability),
            "safest_cells": [list(c) for c in self.safest_cells],
            "hit_mine": self.hit_mine,
            "comments": self.comments,
        }


@dataclass(frozen=True, slots=True)
class ReplayAnalysis:
    """A recorded game's clicks, with the game's totals: guesses, needless guesses, luck."""

    replay: Replay
    clicks: tuple[ClickAnalysis, ...]

    @property
    def guesses(self) -> tuple[ClickAnalysis, ...]:
        return tuple(c for c in self.clicks if c.is_guess)

    @property
    def needless_guesses(self) -> tuple[ClickAnalysis, ...]:
        return tuple(c for c in self.clicks if c.is_needless)

    @property
    def luck(self) -> Fraction:
        """Exact probability of surviving every guess of the game (1 with no guess)."""
        return math.prod((c.survival for c in self.guesses), start=_ONE)

    @property
    def died_at(self) -> ClickAnalysis | None:
        return next((c for c in self.clicks if c.hit_mine), None)

    @property
    def result(self) -> str:
        if self.replay.is_completed:
            return "won"
        return "lost" if self.died_at is not None else "unfinished"

    @property
    def pluck(self) -> float:
        """ms-toollib's pluck of the game (``-log10`` of its float estimate of the luck)."""
        return self.clicks[-1].pluck if self.clicks else 0.0

    def statistics(self) -> dict[str, Any]:
        """The game's figures as one flat record (a row of a table).

        Every number is finite: a figure the file cannot give (3BV/s of a game of time 0,
        a statistic its software does not record) is ``None``, so the record is valid JSON.
        """
        stats = self.replay.stats
        luck = self.luck
        return {
            "file": self.replay.path,
            "format": self.replay.format,
            "board": f"{self.replay.width}x{self.replay.height}/{self.replay.mines}",
            "result": self.result,
            "time": _finite(self.replay.time),
            "bbbv": self.replay.bbbv,
            "bbbv_s": _finite(stats.get("bbbv_s")) if self.replay.time > 0 else None,
            "clicks": _count_of(stats.get("cl")),
            "efficiency": _finite(stats.get("ioe")),
            "zini": _count_of(stats.get("zini")),
            "opening_clicks": len(self.clicks),
            "guesses": len(self.guesses),
            "needless_guesses": len(self.needless_guesses),
            "luck": _text(luck),
            "luck_percent": 100 * float(luck),
            "died_at": None if self.died_at is None else list(self.died_at.cell),
            "died_probability": None if self.died_at is None else _text(self.died_at.mine_probability),
            "player": self.replay.fields.get("player", ""),
            "software": self.replay.fields.get("software", ""),
        }

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.statistics(), "clicks": [c.to_dict() for c in self.clicks]}

    def summary(self) -> str:
        """A page a player reads: the game's figures, then each guess with its odds."""
        r = self.replay
        s = self.statistics()
        lines = [
            f"{r.path}: {r.format.upper()}, {r.width}x{r.height} with {r.mines} mines, {s['result']}"
            + (f", by {s['player']}" if s["player"] else "")
            + (f" ({s['software']})" if s["software"] else ""),
            f"  time {r.time:.3f} s, 3BV {r.bbbv}"
            + (f", 3BV/s {s['bbbv_s']:.3f}" if s["bbbv_s"] is not None else ", 3BV/s n/a")
            + (f", clicks {s['clicks']}" if s["clicks"] else "")
            + (f", efficiency {100 * s['efficiency']:.0f}%" if s["efficiency"] else "")
            + (f", ZiNi {s['zini']}" if s["zini"] else ""),
            f"  {plural(len(self.clicks), 'click')} opened cells; {plural(len(self.guesses), 'guess')}"
            f" ({len(self.needless_guesses)} needless); luck {_luck_text(self.luck)}",
        ]
        died = self.died_at
        if died is not None:
            lines.append(
                f"  died at {died.cell!r} at {died.time:.2f} s: {percent(died.mine_probability)} mine"
            )
        risky = [c for c in self.clicks if c.is_guess or c.is_first]
        if risky:
            lines.append("  guesses:")
            lines += ["  " + c.describe() for c in risky]
        return "\n".join(lines)


def analyse_replay(replay: Replay, *, time_limit: float | None = None) -> ReplayAnalysis:
    """Play the replay's actions again and analyse every click that opened cells.

    Parameters
    ----------
    replay : Replay
    time_limit : float, optional
        Seconds the whole game's analysis may take (``None``: no limit).

    Raises
    ------
    ReplayError
        The actions contradict the layout (a click the layout would answer otherwise),
        an action our rules refuse (such as more flags than mines), or the analysis
        past ``time_limit``; each names the file.

    Examples
    --------
    >>> from analyzer.replays import example_path, read_replay
    >>> game = analyse_replay(read_replay(example_path("beginner_8x8_10.avf")))
    >>> game.result, len(game.guesses), game.luck
    ('won', 3, Fraction(20, 73))
    """
    from analyzer.play.game import Game

    seconds = positive_seconds(time_limit)
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        game = Game.from_layout(replay.width, replay.height, sorted(replay.layout))
    except GameError as error:
        raise ReplayError(f"{replay.path!r}: the layout is not a board ({error})") from None
    clicks: list[ClickAnalysis] = []
    opening = [a for a in replay.actions if a.kind not in ("flag", "unflag")]
    for index, action in enumerate(opening):
        try:
            click = _click(replay, game, action, len(clicks) + 1, deadline)
        except GameError as error:
            raise ReplayError(f"{replay.path!r}: at {action.time:.2f} s: {error}") from None
        except SolverTimeoutError:
            raise ReplayError(
                f"{replay.path!r}: the analysis took over the time limit of {seconds:g} s"
                f" (at the click on {action.cell!r} at {action.time:.2f} s, click {len(clicks) + 1}"
                f" of {len(opening)})"
            ) from None
        clicks.append(click)
        if click.hit_mine:
            if replay.is_completed or index + 1 < len(opening):
                raise ReplayError(
                    f"{replay.path!r}: at {action.time:.2f} s the click on {action.cell!r} hits a mine of the"
                    " layout, but the recorded game goes on: the actions contradict the layout"
                )
            break
    return ReplayAnalysis(replay, tuple(clicks))


def _click(
    replay: Replay, game: Any, action: ReplayAction, number: int, deadline: float | None = None
) -> ClickAnalysis:
    from analyzer.solver.solve import solve

    assert action.before is not None
    _sync_flags(game, action.before)
    board: Board = game.board
    recorded = tuple(board.to_text().splitlines()[1:])
    if recorded != action.before:
        raise ReplayError(
            f"{replay.path!r}: at {action.time:.2f} s the recorded board is not the one its layout gives"
        )
    row, col = action.cell
    if action.kind == "chord":
        if board[row, col] < 0:
            raise ReplayError(
                f"{replay.path!r}: at {action.time:.2f} s a chord on {(row, col)!r}, not a number"
            )
        opens = tuple(n for n in board.neighbours(row, col) if board[n] == HIDDEN)
    else:
        opens = ((row, col),) if board[row, col] == HIDDEN else ()
    try:
        analysis = solve(board, trust_flags=False, time_limit=_seconds_left(deadline))
    except InconsistentBoardError as error:
        raise ReplayError(
            f"{replay.path!r}: at {action.time:.2f} s no layout fits the board ({error})"
        ) from None
    mine = _ONE - _all_safe(board, opens, analysis, deadline)
    first = number == 1
    safe, safest, safest_cells = _safe_and_safest(board, analysis, opens)
    safe_cells = len(safe)
    safe_nearby = sum(1 for r, c in safe if abs(r - row) <= 2 and abs(c - col) <= 2)
    hit = _play(replay, game, action)
    return ClickAnalysis(
        number=number,
        kind=action.kind,
        cell=(row, col),
        time=action.time,
        opens=opens,
        mine_probability=mine,
        is_first=first,
        # A first click is a guess the player could not avoid where the game makes it safe; one
        # that hit a mine was not made safe, and had the empty board's odds: it counts.
        is_guess=mine > 0 and (hit or not first),
        safe_cells=safe_cells,
        safe_nearby=safe_nearby,
        safest_probability=safest,
        safest_cells=safest_cells,
        hit_mine=hit,
        comments=action.comments,
        pluck=action.pluck,
    )


def _safe_and_safest(
    board: Board, analysis: Any, opens: tuple[Cell, ...]
) -> tuple[list[Cell], Fraction, tuple[Cell, ...]]:
    """The certainly safe hidden cells other than ``opens``; the lowest probability of any hidden
    cell (``opens`` included) and the first cells that have it, exactly.

    Floats pick the candidates (rounding keeps order, so the exact minimum has the least float,
    and a probability of 0 the float 0); only those are made exact, so a click on a large board
    costs a few Fractions, not one a cell.
    """
    import numpy as np

    width = board.width
    floats = analysis.to_numpy().ravel()
    hidden = np.array(board.cells) == HIDDEN
    elsewhere = hidden.copy()
    for r, c in opens:
        elsewhere[r * width + c] = False
    safe = [divmod(int(i), width) for i in np.flatnonzero(elsewhere & (floats == 0))]
    safe = [cell for cell in safe if analysis.probability(*cell) == 0]
    if not hidden.any():
        return safe, _ZERO, ()
    lowest = floats[hidden].min()
    near = [divmod(int(i), width) for i in np.flatnonzero(hidden & (floats == lowest))]
    exact = {cell: analysis.probability(*cell) for cell in near}
    safest = min(exact.values())
    return safe, safest, tuple(cell for cell in near if exact[cell] == safest)[:SAFEST_LISTED]


def _sync_flags(game: Any, before: tuple[str, ...]) -> None:
    """Place and remove flags on our game as the recorded board shows them."""
    view = game.board
    for r, line in enumerate(before):
        for c, char in enumerate(line):
            flagged = view[r, c] == FLAG
            if char == "F" and not flagged and view[r, c] == HIDDEN:
                game.flag(r, c)
            elif char != "F" and flagged:
                game.unflag(r, c)


def _play(replay: Replay, game: Any, action: ReplayAction) -> bool:
    """Make the action on our game; whether it hit a mine. Checks the cells revealed."""
    row, col = action.cell
    try:
        result = game.chord(row, col) if action.kind == "chord" else game.reveal(row, col)
    except GameError as error:
        raise ReplayError(
            f"{replay.path!r}: at {action.time:.2f} s the action cannot be made ({error})"
        ) from None
    if result.status == "lost":
        return True
    if game.revealed_count != action.revealed_after:
        raise ReplayError(
            f"{replay.path!r}: at {action.time:.2f} s the click opens {game.revealed_count} cells on the"
            f" layout but {action.revealed_after} in the recording: the actions contradict the layout"
        )
    return False


def _seconds_left(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise SolverTimeoutError("time limit reached")
    return left


def _all_safe(
    board: Board, cells: tuple[Cell, ...], analysis: Any, deadline: float | None = None
) -> Fraction:
    """Exact probability that every cell of ``cells`` is safe (the flags not trusted)."""
    uncertain = []
    for cell in cells:
        p = analysis.probability(*cell)
        if p == 1:
            return _ZERO
        if p:
            uncertain.append(cell)
    if not uncertain:
        return _ONE
    if len(uncertain) == 1:
        return _ONE - analysis.probability(*uncertain[0])
    return Fraction(_safe_layouts(board, uncertain, deadline), analysis.total)


def _safe_layouts(board: Board, cells: list[Cell], deadline: float | None = None) -> int:
    """Layouts of ``board`` (flags not trusted) with every cell of ``cells`` safe: one count.

    The board's equations with those cells taken out of every clue and of the unknown cells
    (a safe cell holds no mine, so it adds nothing to any sum), the cells regrouped by the
    clues they are left in, then counted and joined as a solve does: the components the
    cells do not touch are the solve's own, found in the counting cache.
    """
    from analyzer.solver.combination import combine
    from analyzer.solver.constraints import Clue, ConstraintSystem, Group, build_constraints
    from analyzer.solver.counting.dispatch import count_component
    from analyzer.solver.decomposition import components

    system = build_constraints(board, trust_flags=False, deadline=deadline)
    safe = {board.index(*cell) for cell in cells}
    clues: list[Clue] = []
    for clue in system.clues:
        kept = tuple(i for i in clue.cells if i not in safe)
        if len(kept) < clue.needed:
            return 0
        if kept:
            clues.append(Clue(clue.cell, clue.needed, kept))
    unknown = tuple(i for i in system.unknown if i not in safe)
    if system.mines_left > len(unknown):
        return 0
    signatures: dict[int, list[int]] = {}
    for k, clue in enumerate(clues):
        for i in clue.cells:
            signatures.setdefault(i, []).append(k)
    grouped: dict[tuple[int, ...], list[int]] = {}
    background: list[int] = []
    for i in unknown:
        signature = signatures.get(i)
        if signature is None:
            background.append(i)
        else:
            grouped.setdefault(tuple(signature), []).append(i)
    groups = tuple(Group(tuple(members), signature) for signature, members in grouped.items())
    reduced = ConstraintSystem(board, unknown, system.mines_left, tuple(clues), groups, tuple(background))
    counts = []
    for component in components(reduced, deadline=deadline):
        counted = count_component(component.problem(reduced), deadline=deadline)
        if counted.is_empty:
            return 0
        counts.append(counted)
    return combine(counts, len(background), system.mines_left, deadline=deadline).total


def _finite(value: float | None) -> float | None:
    """A float for a table or JSON: ``None`` for a missing, infinite or NaN one."""
    return None if value is None or not math.isfinite(value) else float(value)


def _count_of(value: float | None) -> int | None:
    """A count as an int (files store them as floats); ``None`` for a missing or non-finite one."""
    number = _finite(value)
    return None if number is None else round(number)


def _text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _luck_text(luck: Fraction) -> str:
    if luck == 1:
        return "1 (no guess)"
    value = 100 * float(luck)
    # Below 0.1 % two significant digits (0.012%), as a table's two decimals would round them.
    shown = f"{value:.2g}%" if 0 < value < 0.05 else percent(luck)
    return f"{_text(luck)} = {shown}" if luck.denominator < 10**12 else shown
