"""The time limit while a variant position's constraints and model are built.

Building the model of a large board takes seconds (a 100x100 board under S), so the loops
that add constraints look at the deadline every :data:`_CHECK_EVERY` of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from analyzer.limits import Deadline

__all__ = ["BUILDING", "check_building"]

#: Constraints added between two looks at the deadline while a model is built.
_CHECK_EVERY = 256

#: What ``check_building`` names when the time limit comes while a model is built.
BUILDING = "the building of a variant position's model"


def check_building(deadline: float | None) -> None:
    """Raise :class:`~analyzer.errors.SolverTimeoutError` if ``deadline`` has passed while the
    constraints or the model of a position are built (a 100x100 board's take seconds under S).

    >>> check_building(None)
    >>> check_building(0.0)
    Traceback (most recent call last):
    ...
    analyzer.errors.SolverTimeoutError: time limit reached during the building of a variant position's model
    """
    Deadline(deadline).check(BUILDING)


def _looked(items: Sequence[Any], deadline: float | None) -> Iterator[Any]:
    """``items``, the deadline looked at every :data:`_CHECK_EVERY` of them."""
    for k, item in enumerate(items):
        if k % _CHECK_EVERY == 0:
            check_building(deadline)
        yield item
