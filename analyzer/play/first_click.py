"""First-click rules: which cells a random game keeps mine-free, and its layout drawn.

First-click rules
-----------------
A random game places its mines when the first cell is revealed, uniformly over
the cells the rule leaves allowed (with :func:`analyzer.play.placement.place_mines`):

``"none"``
    No protection: the first click may hit a mine.
``"safe"``
    The first clicked cell is mine-free (``safe_zone:0``).
``"opening"``
    The first clicked cell is a zero, so it opens an area: it and its neighbours
    are mine-free (``safe_zone:1``).
``"safe_zone:R"``
    Every cell within Chebyshev distance ``R`` of the first click is mine-free.
``"no_guess"``, ``"no_guess:RULE"``
    One of the rules above (``opening`` when none is named), and the layout can
    be won from the first click by deduction alone
    (:func:`analyzer.play.solvable.is_solvable`). Layouts are drawn under the
    rule underneath until one is solvable (rejection), so every solvable
    layout is equally likely; past ``analyzer.play.game.NO_GUESS_ATTEMPTS`` draws the game
    raises :class:`~analyzer.errors.GameError`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.board.topology import Topology, chebyshev_ball
from analyzer.errors import GameError
from analyzer.limits import whole_or_none
from analyzer.play.placement import Layout, place_mines
from analyzer.play.solvable import is_solvable

__all__ = ["FirstClickRule", "first_layout"]


@dataclass(frozen=True, slots=True)
class FirstClickRule:
    """Which cells around the first click a random game keeps mine-free.

    Parameters
    ----------
    radius : int or None
        Every cell within Chebyshev distance ``radius`` of the first click (under
        the board's topology) is mine-free; ``None`` protects nothing. ``0`` is
        ``"safe"``, ``1`` is ``"opening"``.

    Examples
    --------
    >>> FirstClickRule.parse("opening")
    FirstClickRule(radius=1)
    >>> FirstClickRule.parse("safe_zone:1") == FirstClickRule.opening()
    True
    >>> [str(FirstClickRule.parse(s)) for s in ("none", "safe", "safe_zone:0", "safe_zone:2")]
    ['none', 'safe', 'safe', 'safe_zone:2']
    >>> FirstClickRule.parse("no_guess"), str(FirstClickRule.parse("no_guess:safe"))
    (FirstClickRule(radius=1, no_guess=True), 'no_guess:safe')
    >>> FirstClickRule.parse("zone:2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: unknown first-click rule 'zone:2'; expected none, safe, ...
    """

    radius: int | None = 0
    no_guess: bool = False

    def __post_init__(self) -> None:
        radius = self.radius
        if radius is not None and ((whole := whole_or_none(radius)) is None or whole < 0):
            raise GameError(f"safe-zone radius must be None or an integer >= 0, got {radius!r}")

    @classmethod
    def none(cls) -> FirstClickRule:
        """No protection."""
        return cls(None)

    @classmethod
    def safe(cls) -> FirstClickRule:
        """The first clicked cell is mine-free."""
        return cls(0)

    @classmethod
    def opening(cls) -> FirstClickRule:
        """The first clicked cell is a zero (``safe_zone(1)``)."""
        return cls(1)

    @classmethod
    def safe_zone(cls, radius: int) -> FirstClickRule:
        """Cells within Chebyshev distance ``radius`` of the first click are mine-free."""
        return cls(radius)

    @classmethod
    def parse(cls, spec: str | FirstClickRule) -> FirstClickRule:
        """A rule from its name: ``"none"``, ``"safe"``, ``"opening"`` or ``"safe_zone:R"``."""
        if isinstance(spec, FirstClickRule):
            return spec
        if isinstance(spec, str):
            name = spec.strip().lower()
            if name == "no_guess" or name.startswith("no_guess:"):
                base = cls.parse(name.partition(":")[2] or "opening")
                if not base.no_guess:
                    return cls(base.radius, no_guess=True)
            named = {"none": None, "safe": 0, "opening": 1}
            if name in named:
                return cls(named[name])
            prefix, _, radius = name.partition(":")
            radius = radius.strip()
            if prefix == "safe_zone" and radius.isascii() and radius.isdigit():
                return cls(int(radius))
        raise GameError(
            f"unknown first-click rule {spec!r}; expected none, safe, opening or safe_zone:R"
            " (each may follow no_guess:)"
        )

    @property
    def name(self) -> str:
        """The canonical name, which :meth:`parse` reads back."""
        base = {None: "none", 0: "safe", 1: "opening"}.get(self.radius, f"safe_zone:{self.radius}")
        if self.no_guess:
            return "no_guess" if base == "opening" else f"no_guess:{base}"
        return base

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        guess = ", no_guess=True" if self.no_guess else ""
        return f"FirstClickRule(radius={self.radius!r}{guess})"

    def protected_cells(
        self, topology: Topology, width: int, height: int, row: int, col: int
    ) -> tuple[int, ...]:
        """Flat indices of the cells kept mine-free when ``(row, col)`` is clicked first.

        >>> FirstClickRule.opening().protected_cells("square", 3, 3, 0, 0)
        (0, 1, 3, 4)
        >>> FirstClickRule.none().protected_cells("square", 3, 3, 0, 0)
        ()
        """
        if self.radius is None:
            return ()
        # A radius past the board's size covers the whole board: no need to walk further.
        return chebyshev_ball(topology, width, height, row, col, min(self.radius, max(width, height)))


def first_layout(
    rule: FirstClickRule,
    width: int,
    height: int,
    mines: int,
    first: tuple[int, int],
    *,
    method: str,
    rng: np.random.Generator | None,
    topology: Topology,
    attempts: int,
) -> Layout:
    """The mines of a random game whose first click is ``first``, drawn under ``rule``.

    The cells ``rule`` protects around ``first`` stay mine-free; a ``no_guess`` rule
    draws until a layout is solvable from ``first`` (rejection, so uniform over those).

    Raises
    ------
    GameError
        No solvable layout in ``attempts`` draws (a ``no_guess`` rule).

    >>> sorted(first_layout(FirstClickRule.opening(), 3, 3, 1, (0, 0), method="floyd",
    ...                     rng=np.random.default_rng(0), topology="square", attempts=1))
    [(2, 2)]
    """
    row, col = first
    zone = rule.protected_cells(topology, width, height, row, col)
    for _ in range(attempts if rule.no_guess else 1):
        layout = place_mines(
            width,
            height,
            mines,
            method=method,
            exclude=[divmod(j, width) for j in zone],
            rng=rng,
        )
        # no_guess: rejection, so uniform over the layouts solvable from this click.
        if not rule.no_guess or is_solvable(
            layout, (row, col), width=width, height=height, topology=topology
        ):
            break
    else:
        raise GameError(
            f"no layout solvable without guessing from {(row, col)!r} in {attempts} draws"
            f" ({width}x{height}, {mines} mines): too dense for no_guess"
        )
    return layout
